#!/bin/sh
# RanPAC picks its λ on the validation rows (run --val-frac): λ is a τ-sweep grid point
# (1e-4 .. 1e5, four a decade) whose validation accuracy after the last task is the highest, as
# NumPy computes it from the --save-state files (rows, projection, validation rows); ranpac's W
# is (G + λI)⁻¹Q while gacl keeps τ; without a split ranpac uses τ and nothing is said.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3

args="run --methods gacl,ranpac --expand 200 --tasks 4 --format json"
"$G" $args --val-frac 0.2 --save-state "$tmp/s" >"$tmp/j" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q '^gsrscope: ranpac: λ = .* chosen on the validation rows' "$tmp/err"; then
    ok "run --val-frac with ranpac: λ chosen, said on stderr"; else bad "ranpac λ run"; fi
if "$PY" - "$tmp" <<'PYEOF' 2>"$tmp/err"
import json, sys
import numpy as np
t = sys.argv[1]; s = f"{t}/s"
lam = json.load(open(f"{t}/j"))["params"]["ranpac_lambda"]
Z = np.load(f"{s}/rows.npy"); y = np.load(f"{s}/rows_labels.npy")
V = np.load(f"{s}/val_rows.npy"); vy = np.load(f"{s}/val_labels.npy")
P = np.load(f"{s}/ranpac/proj_W.npy"); order = np.load(f"{s}/class_order.npy")
C = int(max(y.max(), vy.max())) + 1
H = np.maximum(Z @ P.T, 0); HV = np.maximum(V @ P.T, 0)
Y = np.zeros((len(y), C)); Y[np.arange(len(y)), y] = 1
G = H.T @ H; Q = H.T @ Y
grid = 10.0 ** np.linspace(-4, 5, 37)
def acc(l):
    W = np.linalg.solve(G + l * np.eye(G.shape[0]), Q)
    S = (HV @ W)[:, order]
    return np.mean(order[np.argmax(S, axis=1)] == vy)
a = np.array([acc(l) for l in grid])
k = int(np.argmin(np.abs(np.log(grid) - np.log(lam))))
assert abs(grid[k] / lam - 1) < 1e-9, ("λ not a grid point", lam)
assert a[k] == a.max(), ("λ not the best on validation", lam, a[k], a.max(), grid[int(np.argmax(a))])
W = np.load(f"{s}/ranpac/W.npy")
assert np.allclose(W, np.linalg.solve(G + lam * np.eye(G.shape[0]), Q), rtol=1e-7, atol=1e-9), "ranpac W not (G+λI)⁻¹Q"
m = json.load(open(f"{s}/gacl/manifest.json"))
assert m["tau_eff_last"] == 0.01, m["tau_eff_last"]
PYEOF
then ok "λ is the grid's best on validation (NumPy), ranpac's W uses it, gacl keeps τ"; else bad "ranpac λ against NumPy"; fi
"$G" $args >"$tmp/j0" 2>"$tmp/err"
if [ $? -eq 0 ] && ! grep -q 'ranpac_lambda' "$tmp/j0" && ! grep -q 'λ = ' "$tmp/err"; then ok "no split: ranpac uses τ, nothing said"
else bad "no split"; fi
finish
