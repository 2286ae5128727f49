#!/bin/sh
# Run every test binary (build/tests/test_*) and shell test (tests/t_*.sh), sum their
# "N passed, N failed[, N skipped]" lines and print the total as the last line:
# "N passed, N failed, N skipped". A check that cannot run here (a tool missing) is counted as
# skipped, never as passed; a test that ran no check and skipped none counts as failed, and so
# does a test that exits non-zero. GS_NO_SKIP=1 (.ci/run) makes any skip fail the run.
# tests/t_valgrind.sh belongs to `make check-valgrind` alone (not a skip here).
BUILD=${1:-build}
export GSRSCOPE="$PWD/$BUILD/gsrscope" BUILD
pass=0; fail=0; skipped=0; broken=""; skippers=""
run_one() {
    name=$1; shift
    # A hung test must not eat CI's time: 15 minutes at most per test program.
    t0=$(date +%s)
    out=$(timeout -k 10 900 "$@" 2>&1); rc=$?
    secs=$(( $(date +%s) - t0 ))
    [ $rc -eq 124 ] && out="$out
FAIL $name: timed out after 900 s"
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -z "$line" ]; then
        printf '%s\n' "$out" | tail -n 20
        echo "FAIL $name: exit $rc and no summary line"; fail=$((fail+1)); broken="$broken $name"; return
    fi
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
    s=$(echo "$line" | sed -nE 's/.*, ([0-9]+) skipped.*/\1/p'); s=${s:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
        printf '%s\n' "$out" | tail -n 5; echo "FAIL $name: ran no check and skipped none"; f=1; fi
    [ "$s" -ne 0 ] && { skippers="$skippers $name"; printf '%s\n' "$out" | grep -E '^SKIP' | head -n 10; }
    pass=$((pass+p)); fail=$((fail+f)); skipped=$((skipped+s))
    if [ "$f" -ne 0 ]; then printf '%s\n' "$out" | grep -E 'FAIL|error' | head -n 30; broken="$broken $name"; fi
    printf '%-28s %-40s %4d s\n' "$name" "$line" "$secs"
}
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    run_one "$(basename "$t")" "$t"
done
# GS_TESTS_DIR: the folder of the shell tests (tests; t_reliability.sh points it elsewhere to test
# this runner's counting)
for t in "${GS_TESTS_DIR:-tests}"/t_*.sh; do
    [ -f "$t" ] || continue
    [ "$(basename "$t")" = t_valgrind.sh ] && continue
    run_one "$(basename "$t")" sh "$t"
done
[ -n "$broken" ] && echo "failing:$broken"
[ -n "$skippers" ] && echo "skipping:$skippers"
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ] || exit 1
if [ "${GS_NO_SKIP:-0}" = 1 ] && [ "$skipped" -ne 0 ]; then echo "run_tests: $skipped checks skipped (GS_NO_SKIP=1: a skip fails the run)" >&2; exit 1; fi
exit 0
