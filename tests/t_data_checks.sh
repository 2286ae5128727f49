#!/bin/sh
# t_data_checks.sh — one answer per file: a NaN or infinity in a training row that the long-tail
# cut drops is refused (exit 2, naming the file and the 0-based row) for every seed and both
# --profile values, and the run with that row cleaned shows the cut does drop it for some seed;
# an all-zero row is a warning naming it; a test class with no training rows gets one consistent
# story: its rows are left out, and the numbers equal those of the files without those rows.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
if ! $PY -c 'import numpy' >/dev/null 2>&1; then skip "NumPy not installed (python3-numpy)"; finish; exit; fi
D="$tmp/d"
$PY - "$D" <<'PYEOF'
import numpy as np, os, sys
d = sys.argv[1]
rng = np.random.default_rng(3)
C, n, nt = 5, 18, 8
X = rng.standard_normal((C * n, 8)); y = np.repeat(np.arange(C), n)
Xt = rng.standard_normal((C * nt, 8)); yt = np.repeat(np.arange(C), nt)
def put(sub, X, y, Xt, yt):
    os.makedirs(f"{d}/{sub}", exist_ok=True)
    for k, a in (("train_features", X), ("train_labels", y), ("test_features", Xt), ("test_labels", yt)):
        np.save(f"{d}/{sub}/{k}.npy", a)
put("clean", X, y, Xt, yt)
Xb = X.copy(); Xb[3 * n + 16, 3] = np.nan                  # row 70, class 3
put("nan", Xb, y, Xt, yt)
Xi = X.copy(); Xi[3 * n + 16, 3] = -np.inf
put("inf", Xi, y, Xt, yt)
Xz = X.copy(); Xz[7] = 0; Xz[40] = 0
put("zero", Xz, y, Xt, yt)
# test labels with a class (5) that has no training rows, and the same files without those rows
yu = yt.copy(); yu[-3:] = 5
put("unseen", X, y, Xt, yu)
put("unseen_dropped", X, y, Xt[:-3], yt[:-3])
PYEOF

kept_somewhere=0
for seed in 1 2 3 4; do
    for prof in step none; do
        for kind in nan inf; do
            "$G" run --quiet --tasks 3 --seed $seed --profile $prof --data "$D/$kind" >"$tmp/out" 2>"$tmp/err"; rc=$?
            what=$( [ $kind = nan ] && echo NaN || echo infinite )
            if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && one_line "$D/$kind/train_features.npy: X\[70, 3\] is $what (row and column counted from 0"; then
                ok "$kind in row 70: exit 2 naming the file and row (seed $seed, --profile $prof)"
            else bad "$kind in row 70, seed $seed, --profile $prof: exit $rc"; fi
        done
    done
    # does the cut keep row 70 for this seed? (the clean files, the rows the stream used)
    rm -rf "$tmp/st"
    "$G" run --quiet --tasks 3 --seed $seed --profile step --data "$D/clean" --save-state "$tmp/st" >/dev/null 2>"$tmp/err" ||
        bad "save-state run, seed $seed"
    if $PY -c "import numpy as np, sys; sys.exit(0 if 70 in np.load('$tmp/st/rows_index.npy') else 1)"; then :
    else kept_somewhere=$((kept_somewhere+1)); fi
done
if [ "$kept_somewhere" -ge 1 ]; then ok "the cut drops row 70 for $kept_somewhere of 4 seeds (the refusal does not depend on it)"
else bad "row 70 was kept by every seed: the test shows nothing about dropped rows"; fi

"$G" run --quiet --tasks 3 --data "$D/zero" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ "$rc" -eq 0 ] && grep -qF "warning: $D/zero/train_features.npy: 2 rows are all zeros (first: row 7, counted from 0); L2 normalization leaves them zero" "$tmp/err"; then
    ok "all-zero rows: a warning naming the first (0-based)"
else bad "zero rows: exit $rc"; fi
"$G" run --quiet --tasks 3 --no-normalize --data "$D/zero" >"$tmp/out" 2>"$tmp/err"
if ! grep -q "all zeros" "$tmp/err"; then ok "no zero-row warning with --no-normalize"; else bad "zero-row warning with --no-normalize"; fi

"$G" run --format csv --tasks 3 --seed 2 --data "$D/unseen" >"$tmp/u.csv" 2>"$tmp/err"; rc=$?
if [ "$rc" -eq 0 ] && grep -qF "test_labels.npy: 1 test class has no training rows (first: label 5, 3 test rows); its 3 test rows are left out of every accuracy" "$tmp/err" &&
    ! grep -q "counted as errors" "$tmp/err"; then ok "a test class without training rows: the warning says its rows are left out"
else bad "unseen class warning: exit $rc"; fi
if grep -q "not evaluated" "$tmp/err" && ! grep "not evaluated" "$tmp/err" | grep -qv "3 test rows"; then ok "the run's own note agrees (3 test rows)"
elif ! grep -q "not evaluated" "$tmp/err"; then ok "one warning only"
else bad "the run's note disagrees: $(grep 'not evaluated' "$tmp/err")"; fi
"$G" run --format csv --tasks 3 --seed 2 --data "$D/unseen_dropped" >"$tmp/d.csv" 2>"$tmp/err"
if no_seconds "$tmp/u.csv" >"$tmp/a" && no_seconds "$tmp/d.csv" >"$tmp/b" && [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then
    ok "the numbers equal those of the files without the unseen class's test rows"
else bad "unseen rows change the numbers: $(diff "$tmp/a" "$tmp/b" | head -n 4)"; fi
finish
