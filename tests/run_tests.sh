#!/bin/sh
# Run every test binary (build/tests/test_*) and shell test (tests/t_*.sh), sum their
# "N passed, N failed" lines and print the total as the last line.
BUILD=${1:-build}
export GSRSCOPE="$PWD/$BUILD/gsrscope" BUILD
pass=0; fail=0; broken=""
run_one() {
    name=$1; shift
    # A hung test must not eat CI's time: 15 minutes at most per test program.
    out=$(timeout -k 10 900 "$@" 2>&1); rc=$?
    [ $rc -eq 124 ] && out="$out
FAIL $name: timed out after 900 s"
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -z "$line" ]; then
        printf '%s\n' "$out" | tail -n 20
        echo "FAIL $name: exit $rc and no summary line"; fail=$((fail+1)); broken="$broken $name"; return
    fi
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    pass=$((pass+p)); fail=$((fail+f))
    if [ "$f" -ne 0 ]; then printf '%s\n' "$out" | grep -E 'FAIL|error' | head -n 30; broken="$broken $name"; fi
    printf '%-28s %s\n' "$name" "$line"
}
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    run_one "$(basename "$t")" "$t"
done
for t in tests/t_*.sh; do
    [ -f "$t" ] || continue
    run_one "$(basename "$t")" sh "$t"
done
[ -n "$broken" ] && echo "failing:$broken"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
