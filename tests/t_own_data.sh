#!/bin/sh
# t_own_data.sh — a user's own features: CSV files with the labels inline need no labels
# files; when the long-tail profile re-cuts the data, stderr says how (rows before and after,
# head classes) and how to keep it (--profile none). Checked against NumPy's own counts.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
$PY - "$tmp" <<'PYEOF' || { echo "FAIL - NumPy could not write the CSV files"; exit 1; }
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(3)
C, dim = 6, 8
# already long-tailed: class c has 80 // (c + 1) rows
ytr = np.concatenate([np.full(80 // (c + 1), c) for c in range(C)])
yte = np.repeat(np.arange(C), 10)
mu = rng.normal(size=(C, dim)) * 3
xtr = mu[ytr] + rng.normal(size=(len(ytr), dim)); xte = mu[yte] + rng.normal(size=(len(yte), dim))
np.savetxt(d + "/train.csv", np.c_[xtr, ytr], delimiter=",", fmt="%.6f")
np.savetxt(d + "/test.csv", np.c_[xte, yte], delimiter=",", fmt="%.6f")
np.savetxt(d + "/train_y.csv", ytr, fmt="%d"); np.savetxt(d + "/test_y.csv", yte, fmt="%d")
np.savetxt(d + "/train_x.csv", xtr, delimiter=",", fmt="%.6f"); np.savetxt(d + "/test_x.csv", xte, delimiter=",", fmt="%.6f")
np.savetxt(d + "/train_l0.csv", np.c_[ytr, xtr], delimiter=",", fmt="%.6f")
np.savetxt(d + "/test_l0.csv", np.c_[yte, xte], delimiter=",", fmt="%.6f")
open(d + "/n_train", "w").write(str(len(ytr)))
PYEOF
n=$(cat "$tmp/n_train")

# Inline labels (last column) without --train-labels/--test-labels = separate labels files.
"$G" run --quiet --format csv --tasks 3 --profile none --train-features "$tmp/train.csv" --test-features "$tmp/test.csv" \
    >"$tmp/inline.csv" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && ok "CSV features with inline labels need no labels files" || bad "inline labels (exit $rc)"
"$G" run --quiet --format csv --tasks 3 --profile none --train-features "$tmp/train_x.csv" --train-labels "$tmp/train_y.csv" \
    --test-features "$tmp/test_x.csv" --test-labels "$tmp/test_y.csv" >"$tmp/sep.csv" 2>"$tmp/err"; rc=$?
cut -d, -f1-13 "$tmp/inline.csv" >"$tmp/a"; cut -d, -f1-13 "$tmp/sep.csv" >"$tmp/b"
[ $rc -eq 0 ] && [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b" && ok "inline labels give the numbers of separate labels files" ||
    bad "inline vs separate (exit $rc)"
"$G" run --quiet --format csv --tasks 3 --train-features "$tmp/train_l0.csv" --test-features "$tmp/test_l0.csv" \
    --label-col 0 --profile none >"$tmp/c0" 2>"$tmp/err"; rc=$?
cut -d, -f1-13 "$tmp/c0" >"$tmp/c"
[ $rc -eq 0 ] && [ -s "$tmp/c" ] && cmp -s "$tmp/a" "$tmp/c" && ok "--label-col 0 takes the first column as labels" || bad "--label-col 0 (exit $rc)"
"$G" run --quiet --train-features sample_features/fashion-mnist/train_features.npy \
    --test-features sample_features/fashion-mnist/test_features.npy >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "--train-features, --train-labels, --test-features and --test-labels go together" &&
    ok ".npy features without labels: exit 2, says why" || bad ".npy without labels (exit $rc)"

# --profile none keeps every row (NumPy's count), and says nothing.
rows=$(grep '^gacl,3,' "$tmp/inline.csv" | cut -d, -f4)
[ "$rows" = "$n" ] && ok "--profile none keeps all $n rows" || bad "--profile none kept $rows of $n rows"
[ ! -s "$tmp/err" ] || ! grep -q "re-cut" "$tmp/err" && ok "--profile none: no re-cut note" || bad "note with --profile none"

# The default step profile re-cuts the user's data: stderr says how and how not to.
"$G" run --quiet --format csv --tasks 3 --train-features "$tmp/train.csv" --test-features "$tmp/test.csv" \
    >"$tmp/step.csv" 2>"$tmp/err"
kept=$(grep '^gacl,3,' "$tmp/step.csv" | cut -d, -f4)
grep -q "^gsrscope: warning: --profile step re-cut the training data: $n rows → $kept (2 head classes kept whole: .*); --profile none keeps the data as it is$" "$tmp/err" &&
    ok "step re-cut reported: $n rows → $kept, head classes, --profile none" || bad "re-cut note: $(cat "$tmp/err")"
"$G" run --quiet --tasks 3 >/dev/null 2>"$tmp/err"
grep -q "re-cut" "$tmp/err" && bad "the bundled sample's designed cut is reported as a re-cut" || ok "no note for the bundled sample"
finish
