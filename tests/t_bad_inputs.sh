#!/bin/sh
# Bad-input catalog (issue #8): every case in tests/bad_inputs/cases.txt must exit with the
# expected status, print nothing on stdout, and print exactly one stderr line that starts with
# "gsrscope: " and contains the expected substring (and names the broken file, for file cases).
cd "$(dirname "$0")/.." || exit 1
G=${GSRSCOPE:-$PWD/build/gsrscope}
F=tests/bad_inputs/files
S=sample_features/fashion-mnist
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0; n=0
while IFS= read -r line; do
    case $line in ''|'#'*) continue ;; esac
    n=$((n+1))
    want_rc=$(printf '%s' "$line" | cut -d'|' -f1 | sed 's/^ *//; s/ *$//')
    want_msg=$(printf '%s' "$line" | cut -d'|' -f2 | sed 's/^ *//; s/ *$//')
    args=$(printf '%s' "$line" | cut -d'|' -f3- | sed 's/^ *//; s/ *$//')
    # shellcheck disable=SC2086
    eval "set -- $args"
    "$G" "$@" --quiet >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    why=""
    [ "$rc" -eq "$want_rc" ] || why="exit $rc, expected $want_rc"
    [ -s "$tmp/out" ] && why="$why; stdout not empty"
    nl=$(wc -l <"$tmp/err")
    [ "$nl" -eq 1 ] || why="$why; stderr has $nl lines"
    head -n 1 "$tmp/err" | grep -q '^gsrscope: ' || why="$why; stderr does not start with 'gsrscope: '"
    grep -qF -- "$want_msg" "$tmp/err" || why="$why; stderr lacks '$want_msg'"
    case $args in *'$F/'*)
        head -n 1 "$tmp/err" | grep -qE "^gsrscope: [^ ]*$F/[^ :]+: " || why="$why; message does not name the file" ;;
    esac
    if [ -z "$why" ]; then
        pass=$((pass+1)); echo "ok $n - $args"
    else
        fail=$((fail+1)); echo "FAIL $n - $args: $why"; sed 's/^/#   /' "$tmp/err" | head -n 5
    fi
done < tests/bad_inputs/cases.txt
[ "$n" -gt 0 ] || { echo "FAIL no cases read"; fail=1; }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
