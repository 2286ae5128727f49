#!/bin/sh
# The bundled sets: SHA256SUMS of both folders, the MobileNetV2 files as README describes them,
# --sample mobilenetv2 end to end against NumPy (rows, test rows and GACL's last task from the
# .npy files alone), and the set's name in the run header and PNG metadata.
# Needs $GSRSCOPE (set by tests/run_tests.sh) and NumPy (/usr/bin/python3).
. "$(dirname "$0")/lib.sh"
G=${GSRSCOPE:-build/gsrscope}
PY=/usr/bin/python3
P=sample_features/fashion-mnist
M=sample_features/fashion-mnist-mobilenetv2
t=$tmp
res() { if [ "$1" -eq 0 ]; then ok "$2"; else bad "$2"; fi; }

for d in $P $M; do
    (cd "$d" && sha256sum --quiet -c SHA256SUMS); res $? "$d: SHA256SUMS"
done
cmp -s $P/train_labels.npy $M/train_labels.npy && cmp -s $P/test_labels.npy $M/test_labels.npy \
   ; res $? "the embeddings carry the pixel sample's labels, byte for byte"

"$PY" - $M <<'PY'; res $? "embedding files: <f2, 6000×1280 / 2000×1280, finite, within ReLU6's [0, 6]"
import sys, numpy as np
d = sys.argv[1]
for s, n in (("train", 6000), ("test", 2000)):
    x = np.load(f"{d}/{s}_features.npy")
    assert x.dtype == np.dtype("<f2") and x.shape == (n, 1280), (s, x.dtype, x.shape)
    assert np.isfinite(x).all() and x.min() >= 0 and x.max() <= 6, s
    assert (np.linalg.norm(x.astype(np.float64), axis=1) > 0).all(), s
PY

"$G" run --sample mobilenetv2 --quiet --save-state "$t/st" --format csv > "$t/run.csv" \
   ; res $? "run --sample mobilenetv2"
"$PY" - $M "$t/st" "$t/run.csv" <<'PY'; res $? "NumPy reproduces --sample mobilenetv2 from the .npy files"
import sys, csv, json, numpy as np
d, st, out = sys.argv[1:4]
def unit(a):
    a = a.astype(np.float64)
    return a / np.linalg.norm(a, axis=1, keepdims=True)
X, Xt = unit(np.load(f"{d}/train_features.npy")), unit(np.load(f"{d}/test_features.npy"))
y = np.load(f"{d}/train_labels.npy")
idx = np.load(f"{st}/rows_index.npy")
Z, yz = np.load(f"{st}/rows.npy"), np.load(f"{st}/rows_labels.npy")
assert np.abs(Z - X[idx]).max() < 1e-12 and (yz == y[idx]).all()
T = np.load(f"{st}/test_rows.npy")
assert T.shape == Xt.shape and np.abs(np.sort(T, axis=0) - np.sort(Xt, axis=0)).max() < 1e-12
tau = json.load(open(f"{st}/params.json"))["tau"]
C = int(yz.max()) + 1
Y = np.zeros((len(yz), C)); Y[np.arange(len(yz)), yz] = 1
W = np.linalg.solve(Z.T @ Z + tau * np.eye(Z.shape[1]), Z.T @ Y)
pred = np.argmax(T @ W, axis=1)
tl = np.load(f"{st}/test_labels.npy")
acc = 100 * np.mean(pred == tl)
last = [r for r in csv.DictReader(open(out)) if r["method"] == "gacl"][-1]
assert abs(acc - float(last["acc"])) < 1e-9, (acc, last["acc"])
PY

"$G" run --sample mobilenetv2 --tasks 2 --quiet > "$t/run.txt" 2>&1 && grep -q "fashion-mnist mobilenetv2 (sample)" "$t/run.txt" \
   ; res $? "run header names the set"
"$G" export --sample mobilenetv2 --tasks 2 --figure accuracy -o "$t/f.png" --quiet \
    && grep -a -q "fashion-mnist mobilenetv2 (sample)" "$t/f.png"; res $? "PNG metadata names the set"
"$G" run --sample pixels --tasks 2 --quiet > "$t/px.txt" 2>&1 && grep -q "fashion-mnist pixels (sample)" "$t/px.txt" \
   ; res $? "--sample pixels names the pixel set"

finish
