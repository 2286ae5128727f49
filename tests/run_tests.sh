#!/bin/sh
# Run every test binary (build/tests/test_*) and shell test (tests/t_*.sh), sum their
# "N passed, N failed[, N skipped]" lines and print the total as the last line:
# "N passed, N failed, N skipped". A check that cannot run here (a tool missing) is counted as
# skipped, never as passed; a test that ran no check and skipped none counts as failed, and so
# does a test that exits non-zero. GS_NO_SKIP=1 (.ci/run) makes any skip fail the run.
# tests/t_valgrind.sh belongs to `make check-valgrind` alone (not a skip here).
#
# GS_QUICK=1 (`make check`): the tests tests/suite.list marks "full" are left out (they run in
# `make check-full`), and the variable reaches every test, so that a test with a quick subset
# (marked "split" there) runs that subset. Unset (`make check-full`): every test, every check.
# GS_JOBS=N (default 2): N tests at a time; each test's output is printed whole, in the order
# below, with its own line of counts and seconds (wall, beside the others). The tests the list
# marks "alone" run after the others, one at a time.
if [ "${1:-}" = --one ]; then # worker: --one WORK INDEX KIND PATH (one test, its output kept)
    w=$2; i=$3; kind=$4; t=$5
    t0=$(date +%s)
    # A hung test must not eat CI's time: 15 minutes at most per test program.
    if [ "$kind" = s ]; then timeout -k 10 900 sh "$t" >"$w/$i.out" 2>&1; else timeout -k 10 900 "$t" >"$w/$i.out" 2>&1; fi
    rc=$?
    echo "$rc $(( $(date +%s) - t0 ))" >"$w/$i.rc.part" && mv "$w/$i.rc.part" "$w/$i.rc"
    # GS_CPU_LOG=FILE: "NAME WALL CPU" seconds per test appended (CPU: user + system of the test's
    # processes, from `times`), to see what a test costs on a loaded machine
    if [ -n "${GS_CPU_LOG:-}" ]; then
        times >"$w/$i.times" # a builtin in this shell (in a pipe it would count a subshell's children)
        awk -v n="$(basename "$t")" -v w="$(cut -d' ' -f2 "$w/$i.rc")" 'NR == 2 { c = 0
            for (k = 1; k <= 2; k++) { split($k, a, /[ms]/); c += a[1] * 60 + a[2] } printf "%s %d %.1f\n", n, w, c }' \
            "$w/$i.times" >>"$GS_CPU_LOG"
    fi
    exit 0
fi
BUILD=${1:-build}
export GSRSCOPE="$PWD/$BUILD/gsrscope" BUILD
LIST=tests/suite.list
# names the list gives a KIND (full, alone, split), one a line
listed() { [ -f "$LIST" ] && awk -v k="$1" '$1 == k { print $2 }' "$LIST"; }
quick=0; [ "${GS_QUICK:-0}" = 1 ] && quick=1
if [ $quick = 1 ]; then export GS_QUICK=1; else unset GS_QUICK; fi
full_names=" $(listed full | tr '\n' ' ') "; alone_names=" $(listed alone | tr '\n' ' ') "
jobs=${GS_JOBS:-2}
case "$jobs" in '' | *[!0-9]* | 0) jobs=1 ;; esac

pass=0; fail=0; skipped=0; broken=""; skippers=""; left=""
# report NAME RC SECS OUTFILE: count one test's summary line and print its line (and what failed)
report() {
    name=$1; rc=$2; secs=$3; out=$(cat "$4")
    [ "$rc" -eq 124 ] && out="$out
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

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
# The plan: "INDEX KIND PATH" lines, unit tests then shell tests, each group by name; the "alone"
# ones in a second plan. GS_TESTS_DIR: the folder of the shell tests (tests; t_reliability.sh
# points it elsewhere to test this runner's counting).
n=0
for t in "$BUILD"/tests/test_* "${GS_TESTS_DIR:-tests}"/t_*.sh; do
    name=$(basename "$t")
    case "$name" in
        t_*.sh) [ -f "$t" ] || continue; [ "$name" = t_valgrind.sh ] && continue; kind=s ;;
        *) [ -x "$t" ] || continue; kind=u ;;
    esac
    if [ $quick = 1 ] && case "$full_names" in *" $name "*) true ;; *) false ;; esac; then left="$left $name"; continue; fi
    n=$((n+1))
    case "$alone_names" in *" $name "*) echo "$n $kind $t" >>"$work/alone" ;; *) echo "$n $kind $t" >>"$work/plan" ;; esac
    echo "$name" >"$work/$n.name"
done
# run PLAN JOBS: the plan's tests JOBS at a time (xargs -P), their reports printed in the plan's
# order as each is done
run() {
    [ -s "$1" ] || return 0
    xargs -P "$2" -n 3 sh "$0" --one "$work" <"$1" &
    xp=$!
    while read -r i kind t; do
        while [ ! -f "$work/$i.rc" ]; do
            if ! kill -0 "$xp" 2>/dev/null && [ ! -f "$work/$i.rc" ]; then echo "125 0" >"$work/$i.rc"; break; fi
            sleep 0.2
        done
        read -r rc secs <"$work/$i.rc"
        report "$(cat "$work/$i.name")" "$rc" "$secs" "$work/$i.out"
    done <"$1"
    wait "$xp"
}
run "$work/plan" "$jobs"
run "$work/alone" 1

[ -n "$broken" ] && echo "failing:$broken"
[ -n "$skippers" ] && echo "skipping:$skippers"
if [ $quick = 1 ]; then
    nsplit=0
    for s in $(listed split); do [ -e "${GS_TESTS_DIR:-tests}/$s" ] || [ -e "$BUILD/tests/$s" ] && nsplit=$((nsplit+1)); done
    echo "quick set (GS_QUICK=1): $nsplit tests ran their quick subset; left to make check-full:${left:- none}"
fi
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ] || exit 1
if [ "${GS_NO_SKIP:-0}" = 1 ] && [ "$skipped" -ne 0 ]; then echo "run_tests: $skipped checks skipped (GS_NO_SKIP=1: a skip fails the run)" >&2; exit 1; fi
exit 0
