#!/bin/sh
# The validation split (--val-frac): per class round(F·n) of the n kept rows held out (at least 1,
# at most n − 1; classes with one row keep it), disjoint from the training rows, exactly the rows
# the run without a split keeps, the same for the same seed and different for another seed; the
# held-out rows never enter G; validation accuracy recomputed in NumPy from W.npy; bad values
# refused. Everything checked against the --save-state files and the data files in NumPy.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3

"$PY" - "$tmp/d" <<'PYEOF' || { echo "FAIL - could not write the test data"; exit 1; }
import numpy as np, os, sys
d = sys.argv[1]; os.makedirs(d)
rng = np.random.default_rng(7)
C, n, dim = 12, 40, 9
mu = rng.normal(size=(C, dim)) * 2
y = np.repeat(np.arange(C), n); rng.shuffle(y)
x = mu[y] + rng.normal(size=(len(y), dim))
yt = np.repeat(np.arange(C), 10)
xt = mu[yt] + rng.normal(size=(len(yt), dim))
np.save(f"{d}/train_features.npy", x); np.save(f"{d}/train_labels.npy", y.astype(np.int64))
np.save(f"{d}/test_features.npy", xt); np.save(f"{d}/test_labels.npy", yt.astype(np.int64))
PYEOF

common="--data $tmp/d --tasks 4 --tail-shots 6 --head-frac 0.25 --methods gacl,gsr,ncm --tau 0.1 --quiet"
"$G" run $common --save-state "$tmp/s0" --format json >"$tmp/j0" 2>"$tmp/err" &&
"$G" run $common --val-frac 0.3 --save-state "$tmp/s1" --format json >"$tmp/j1" 2>"$tmp/err" &&
"$G" run $common --val-frac 0.3 --save-state "$tmp/s2" --format json >"$tmp/j2" 2>"$tmp/err" &&
"$G" run $common --val-frac 0.3 --seed 2 --save-state "$tmp/s3" >/dev/null 2>"$tmp/err" &&
"$G" run $common --seed 2 --save-state "$tmp/s4" >/dev/null 2>"$tmp/err"
if [ $? -eq 0 ]; then ok "runs with and without --val-frac"; else bad "runs failed"; fi

"$PY" - "$tmp" <<'PYEOF' >"$tmp/py" 2>&1
import json, numpy as np, sys
t = sys.argv[1]
L = lambda s, f: np.load(f"{t}/{s}/{f}")
y = np.load(f"{t}/d/train_labels.npy"); X = np.load(f"{t}/d/train_features.npy")
def check(name, cond):
    print(("ok - " if cond else "FAIL - ") + name)
F = 0.3
for s0, s1 in (("s0", "s1"), ("s4", "s3")):
    kept = L(s0, "rows_index.npy"); tr = L(s1, "rows_index.npy"); va = L(s1, "val_index.npy")
    check(f"{s1}: validation and training rows disjoint", len(np.intersect1d(tr, va)) == 0 and len(set(va)) == len(va))
    check(f"{s1}: training + validation rows = the rows kept without a split",
          np.array_equal(np.sort(np.concatenate([tr, va])), np.sort(kept)))
    good = True
    for c in np.unique(y[kept]):
        n = int((y[kept] == c).sum()); v = int((y[va] == c).sum())
        want = 0 if n < 2 else min(max(int(np.floor(F * n + 0.5)), 1), n - 1)
        good &= v == want
    check(f"{s1}: per class round(F·n) held out (≥ 1, ≤ n − 1)", good)
    check(f"{s1}: val_labels are the labels of val_index", np.array_equal(L(s1, "val_labels.npy"), y[va]))
    Xn = X[va] / np.linalg.norm(X[va], axis=1, keepdims=True)
    check(f"{s1}: val_rows are the normalized pool rows", np.allclose(L(s1, "val_rows.npy"), Xn, atol=1e-12))
    R = L(s1, "rows.npy")
    check(f"{s1}: G of gacl is the Gram of the training rows only", np.allclose(L(s1, "gacl/G.npy"), R.T @ R, atol=1e-9))
check("same seed, same split", np.array_equal(L("s1", "val_index.npy"), L("s2", "val_index.npy")))
check("another seed, another split", not np.array_equal(np.sort(L("s1", "val_index.npy")), np.sort(L("s3", "val_index.npy"))))
# validation accuracy at the last task from W.npy
doc = json.load(open(f"{t}/j1"), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
V = L("s1", "val_rows.npy"); vy = L("s1", "val_labels.npy")
head = set(L("s1", "head_classes.npy").tolist())
for m in doc["methods"]:
    if m["name"] == "ncm":
        check("ncm has validation numbers", isinstance(m["tasks"][-1]["val_acc"], float)); continue
    W = L("s1", m["name"] + "/W.npy")
    seen = L("s1", "class_order.npy")
    S = V @ W; mask = np.full(W.shape[1], -np.inf); mask[seen] = 0
    pred = np.argmax(S + mask, axis=1)
    acc = 100 * np.mean(pred == vy)
    pc = {c: 100 * np.mean(pred[vy == c] == c) for c in np.unique(vy)}
    ha = np.mean([a for c, a in pc.items() if c in head]); ta = np.mean([a for c, a in pc.items() if c not in head])
    last = m["tasks"][-1]
    check(f"{m['name']}: validation acc/head/tail of the last task = NumPy on W.npy",
          abs(last["val_acc"] - acc) < 1e-9 and abs(last["val_head_acc"] - ha) < 1e-9 and abs(last["val_tail_acc"] - ta) < 1e-9
          and last["val_rows"] == len(vy) and m["val_a_last"] == last["val_acc"])
p = doc["params"]
check("params: val_frac, val_rows, unsplit classes as numbers",
      p["val_frac"] == 0.3 and p["val_rows"] == len(vy) and isinstance(p["val_classes_unsplit"], int))
d0 = json.load(open(f"{t}/j0"))
check("no split: no validation numbers", "val_a_last" not in d0["methods"][0] and "val_acc" not in d0["methods"][0]["tasks"][0])
PYEOF
while read -r line; do
    case $line in
    "ok - "*) ok "${line#ok - }" ;;
    "FAIL - "*) echo "$line" >"$tmp/err"; bad "${line#FAIL - }" ;;
    *) echo "# $line" ;;
    esac
done <"$tmp/py"
grep -q '^ok - ' "$tmp/py" || bad "the NumPy check did not run"

# One row per class (tail-shots 1): the 8 tail classes keep their row, the 4 head classes (of 40
# rows) hold out 12 each. Without it, tail classes of 5 rows hold out round(1.5) = 2 each.
"$G" run --data "$tmp/d" --tasks 4 --tail-shots 1 --val-frac 0.3 --methods gacl --tau 0.1 --format json --quiet >"$tmp/j5" 2>"$tmp/err"
if "$PY" -c "
import json,sys; p=json.load(open('$tmp/j5'))['params']
sys.exit(not (p['val_classes_unsplit'] == 8 and p['val_rows'] == 4 * 12))" 2>>"$tmp/err"
then ok "classes with one row keep it (counted as unsplit)"; else bad "one-row classes"; fi

# Table and CSV show the validation columns; bad values refused.
"$G" run --data "$tmp/d" --tasks 4 --val-frac 0.3 --methods gacl --tau 0.1 --format csv --quiet >"$tmp/c" 2>"$tmp/err"
if head -n 1 "$tmp/c" | grep -q ',seconds,val_acc,val_head_acc,val_tail_acc,df$'; then ok "csv: validation columns"; else bad "csv header"; fi
"$G" run --data "$tmp/d" --tasks 4 --val-frac 0.3 --methods gacl --tau 0.1 --quiet >"$tmp/c" 2>"$tmp/err"
if grep -q 'v.acc%' "$tmp/c" && grep -q '^validation: 64 rows held out' "$tmp/c"; then ok "table: validation columns and counts"; else bad "table"; fi
for v in 1 -0.1 abc; do
    "$G" run --data "$tmp/d" --val-frac "$v" >/dev/null 2>"$tmp/err"
    if [ $? -eq 2 ] && one_line "--val-frac: "; then ok "--val-frac $v refused"; else bad "--val-frac $v"; fi
done
finish
