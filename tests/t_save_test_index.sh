#!/bin/sh
# t_save_test_index.sh — --save-state's test_index.npy: each saved test row's row in the user's
# test file, in the order of test_rows.npy and pred.npy (grouped by task, not the file's). Checked
# with NumPy on an own shuffled test file: the index is a permutation of 0..n_test-1, the saved
# rows and labels are the file's rows (normalized) and labels at it, and pred[argsort(index)],
# in file order, is NumPy's own ridge prediction (G and Q saved) of the file's rows; with a class
# never trained (its test rows not evaluated) the index is the subset without its rows.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
"$PY" - "$tmp" <<'PYEOF' || { echo "FAIL - NumPy could not write the data"; exit 1; }
import sys, numpy as np
d = sys.argv[1]; rng = np.random.default_rng(11)
C, dim = 10, 64
ytr = np.repeat(np.arange(C), 30); yte = rng.permutation(np.repeat(np.arange(C), 20))
mu = rng.normal(size=(C, dim)) * 0.5
xtr = (mu[ytr] + rng.normal(size=(len(ytr), dim))).astype(np.float32)
xte = (mu[yte] + rng.normal(size=(len(yte), dim))).astype(np.float32)
np.save(d + "/tx.npy", xtr); np.save(d + "/ty.npy", ytr.astype(np.int64))
np.save(d + "/ex.npy", xte); np.save(d + "/ey.npy", yte.astype(np.int64))
keep = ytr != 7   # class 7 never trained
np.save(d + "/tx7.npy", xtr[keep]); np.save(d + "/ty7.npy", ytr[keep].astype(np.int64))
PYEOF
check() { # $1 state dir, $2 expect "all" or the class never trained
"$PY" - "$tmp" "$1" "$2" <<'PYEOF'
import json, sys
import numpy as np
t, s, miss = sys.argv[1], sys.argv[2], sys.argv[3]
ix = np.load(f"{s}/test_index.npy"); X = np.load(f"{t}/ex.npy").astype(np.float64); y = np.load(f"{t}/ey.npy")
R = np.load(f"{s}/test_rows.npy"); L = np.load(f"{s}/test_labels.npy"); pred = np.load(f"{s}/gacl/pred.npy")
assert ix.dtype.kind == "i" and len(ix) == len(R) == len(L) == len(pred), (ix.dtype, len(ix), len(R), len(pred))
want = np.arange(len(y)) if miss == "all" else np.flatnonzero(y != int(miss))
assert np.array_equal(np.sort(ix), want), "test_index is not the expected set of file rows"
Xn = X / np.linalg.norm(X, axis=1, keepdims=True)
assert np.allclose(R, Xn[ix], rtol=1e-6, atol=1e-7), "test_rows.npy is not the file's rows at test_index"
assert np.array_equal(L, y[ix]), "test_labels.npy is not the file's labels at test_index"
o = np.argsort(ix, kind="stable")           # back to file order
G = np.load(f"{s}/gacl/G.npy"); Q = np.load(f"{s}/gacl/Q.npy"); order = np.load(f"{s}/class_order.npy")
tau = json.load(open(f"{s}/gacl/manifest.json"))["tau_eff_last"]
W = np.linalg.solve(G + tau * np.eye(len(G)), Q)
S = (Xn[want] @ W)[:, order]
mine = order[np.argmax(S, axis=1)]
agree = np.mean(mine == pred[o])
assert agree >= 0.999, f"in file order pred agrees with NumPy on {100 * agree:.1f} %"
print(f"{len(ix)} rows, file-order agreement {100 * agree:.1f} %, file-order accuracy {100 * np.mean(pred[o] == y[want]):.2f} %")
PYEOF
}
own="--train-features $tmp/tx.npy --train-labels $tmp/ty.npy --test-features $tmp/ex.npy --test-labels $tmp/ey.npy --profile none"
"$G" run $own --methods gacl --quiet --format csv --save-state "$tmp/s" >"$tmp/c" 2>"$tmp/e"; rc=$?
if [ $rc -eq 0 ] && out=$(check "$tmp/s" all 2>&1); then ok "test_index: a permutation of the file's rows; pred in file order is NumPy's ($out)"
else bad "test_index (exit $rc): $out"; fi
acc=$(awk -F, '$1 == "gacl" && $2 == $3 {a = $6} END {print a}' "$tmp/c")
fa=$(echo "$out" | sed -n 's/.*file-order accuracy \([0-9.]*\) %.*/\1/p')
[ -n "$fa" ] && [ -n "$acc" ] && awk -v a="$fa" -v b="$acc" 'BEGIN { exit !(a - b < 0.006 && b - a < 0.006) }' &&
    ok "file-order accuracy of pred.npy ($fa) = run's A_last ($acc)" || bad "file-order accuracy $fa vs A_last $acc"
# a class never trained: its test rows are not evaluated, the index is the subset without them
"$G" run --train-features "$tmp/tx7.npy" --train-labels "$tmp/ty7.npy" --test-features "$tmp/ex.npy" --test-labels "$tmp/ey.npy" \
    --profile none --methods gacl --quiet --save-state "$tmp/s7" >/dev/null 2>&1; rc=$?
if [ $rc -eq 0 ] && out=$(check "$tmp/s7" 7 2>&1); then ok "a class never trained: test_index the subset without its rows ($out)"
else bad "subset (exit $rc): $out"; fi
grep -q 'test_index.npy' man/gsrscope.1 && ok "the man page lists test_index.npy" || bad "man page: test_index.npy"
finish
