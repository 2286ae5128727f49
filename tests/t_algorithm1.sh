#!/bin/sh
# t_algorithm1.sh — --pairs literal --max-aug all is the paper's Algorithm 1 as written: every
# ordered pair of a class's rows, i = j included (N_c² per class), no cap. tests/alg1_ref.py
# writes Algorithm 1 in NumPy and checks the saved rows, γ draws, G, Q, eigenvalues and the
# predictions against it on the bundled MobileNetV2 sample (head classes cut to 40 rows, so that
# the 3 × 1600 + 7 × 25 synthetic rows can be saved); learner_ref.py checks gacl+oversample's
# N_c copies of every row there. The option's values round-trip and bad ones are refused.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
"$G" run --sample mobilenetv2 --head-shots 40 --pairs literal --max-aug all --methods gacl,gsr,gacl+oversample \
    --save-state "$tmp/lit" --format csv > "$tmp/lit.csv" 2> "$tmp/err" && ok "literal run" || bad "literal run"
if "$PY" tests/alg1_ref.py "$tmp/lit" > "$tmp/ref.txt" 2>&1; then ok "Algorithm 1 in NumPy agrees"; else bad "Algorithm 1 in NumPy"; fi
sed 's/^/# /' "$tmp/ref.txt"
grep -c '^ok ' "$tmp/ref.txt" | grep -qx 9 && ok "all 9 checks of alg1_ref.py ran" || bad "alg1_ref.py ran $(grep -c '^ok ' "$tmp/ref.txt") checks"
"$PY" tests/learner_ref.py "$tmp/lit" gacl+oversample gsr > "$tmp/ref2.txt" 2>&1 && ok "gacl+oversample, gsr (literal) against learner_ref.py" \
    || { cp "$tmp/ref2.txt" "$tmp/err"; bad "learner_ref.py on the literal run"; }
# the counts: head classes 40² rows, tail classes 5², every class, no cap
n=$(awk -F, '$1=="gsr" && $2==10 {print $5}' "$tmp/lit.csv")
[ "$n" = 4975 ] && ok "aug_rows at task 10: 3·40² + 7·5² = 4975" || bad "aug_rows $n (want 4975)"
# the default stays i ≠ j, capped at 1000: min(40·39, 1000) and 5·4
"$G" run --sample mobilenetv2 --head-shots 40 --methods gsr --format csv > "$tmp/def.csv" 2> "$tmp/err"
n=$(awk -F, '$1=="gsr" && $2==10 {print $5}' "$tmp/def.csv")
[ "$n" = 3140 ] && ok "default pairs: 3·min(40·39, 1000) + 7·5·4 = 3140" || bad "default aug_rows $n (want 3140)"
"$G" run --sample mobilenetv2 --head-shots 40 --pairs literal --max-aug 100 --methods gsr --format csv > "$tmp/cap.csv" 2> "$tmp/err"
n=$(awk -F, '$1=="gsr" && $2==10 {print $5}' "$tmp/cap.csv")
[ "$n" = 475 ] && ok "literal capped at 100: 3·100 + 7·25 = 475" || bad "literal --max-aug 100: $n (want 475)"
# values: all round-trips through JSON and the session file; a negative count is refused
grep -q '"max_aug": "all"' "$tmp/lit/params.json" && grep -q '"pairs": "literal"' "$tmp/lit/params.json" \
    && ok "params.json: pairs literal, max_aug all" || bad "params.json"
if ! "$G" run --sample mobilenetv2 --max-aug -3 > /dev/null 2> "$tmp/err" && one_line "--max-aug: must be ≥ 0 or 'all'"; then
    ok "--max-aug -3 refused"; else bad "--max-aug -3"; fi
if ! "$G" run --sample mobilenetv2 --pairs every > /dev/null 2> "$tmp/err" && one_line "--pairs: unknown value 'every' (expected one of: all, random, literal)"; then
    ok "--pairs every refused, naming literal"; else bad "--pairs every"; fi
finish
