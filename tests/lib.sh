# lib.sh — shared set-up for the shell tests (sourced, not run): cd to the project, $G the
# binary, $tmp a scratch folder removed on exit, ok/bad counters, one_line [PATTERN] (stderr in
# $tmp/err is exactly one "gsrscope: PATTERN..." line), skip REASON, and finish (summary line, status).
cd "$(dirname "$0")/.." || exit 1
G=${GSRSCOPE:-$PWD/build/gsrscope}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
pass=0; fail=0; skipped=0
ok() { pass=$((pass+1)); echo "ok - $1"; }
# skip REASON: a check that cannot run here (a tool missing): counted as skipped, never as passed
skip() { skipped=$((skipped+1)); echo "SKIP - $1"; }
bad() { fail=$((fail+1)); echo "FAIL - $1"; sed 's/^/#   /' "$tmp/err" 2>/dev/null | head -n 5; }
one_line() { [ "$(wc -l <"$tmp/err")" -eq 1 ] && head -n 1 "$tmp/err" | grep -q "^gsrscope: ${1:-}"; }
finish() { echo "$pass passed, $fail failed, $skipped skipped"; [ "$fail" -eq 0 ]; }
# no_seconds [FILE]: the CSV (FILE or stdin) without its seconds column
no_seconds() { awk -f tests/no_seconds.awk "$@"; }
# quick: true under `make check` (GS_QUICK=1). A test tests/suite.list marks "split" runs its
# smaller part then and everything under `make check-full`; the part left out is neither run nor
# counted (not a skip), and quick_note says what it was.
quick() { [ "${GS_QUICK:-0}" = 1 ]; }
quick_note() { echo "# quick (GS_QUICK=1): left to make check-full: $1"; }
