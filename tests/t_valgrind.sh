#!/bin/sh
# CLI end-to-end cases under valgrind memcheck (issue #8, `make check-valgrind`): no memory
# errors and no definite leaks (exit 3 from valgrind fails the case). Third-party noise is
# suppressed by tests/valgrind.supp. Not part of `make check` (t_ prefix would pull it in, so it
# skips itself unless GS_VALGRIND=1, which `make check-valgrind` sets).
cd "$(dirname "$0")/.." || exit 1
G=${GSRSCOPE:-$PWD/build/gsrscope}
F=tests/bad_inputs/files
if [ "${GS_VALGRIND:-0}" != 1 ]; then echo "SKIP - run by make check-valgrind only"; echo "0 passed, 0 failed, 1 skipped"; exit 0; fi
command -v valgrind >/dev/null || { echo "FAIL valgrind not installed (Debian package valgrind)"; echo "0 passed, 1 failed"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
VG="valgrind -q --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite --num-callers=30 --suppressions=$PWD/tests/valgrind.supp"
SMALL="--train-features $F/ok_X.npy --train-labels $F/ok_y.npy --test-features $F/ok_X.npy --test-labels $F/ok_y.npy"
pass=0; fail=0
# case NAME EXPECTED_STATUS ARGS...
case_() {
    name=$1; want=$2; shift 2
    $VG "$G" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    if [ "$rc" -eq "$want" ] && ! grep -q '^==[0-9]*==' "$tmp/err"; then pass=$((pass+1)); echo "ok - $name (exit $rc)"
    else fail=$((fail+1)); echo "FAIL - $name: exit $rc, expected $want"; head -n 40 "$tmp/err" | sed 's/^/#   /'; fi
}
skipped=0
if [ "${GS_VALGRIND_QUICK:-0}" = 1 ]; then skipped=1; echo "SKIP - bundled-sample case (GS_VALGRIND_QUICK=1)"
else case_ "run on the bundled sample, --tasks 3" 0 run --tasks 3 --quiet; fi
case_ "run --format json" 0 run --tasks 1 --format json --quiet $SMALL
case_ "bad input (NaN in a .npy) is refused" 2 run --tasks 1 --quiet --train-features $F/nan.npy --train-labels $F/ok_y.npy --test-features $F/ok_X.npy --test-labels $F/ok_y.npy
case_ "bad option is refused" 2 run --tau -1
case_ "export -o X.png" 0 export --tasks 1 --quiet --figure accuracy -o "$tmp/x.png" $SMALL
[ -s "$tmp/x.png" ] || { fail=$((fail+1)); echo "FAIL - export wrote no PNG"; }
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
