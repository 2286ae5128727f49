#!/bin/sh
# t_tune_numpy.sh — `tune` chooses each learner's own hyperparameter as a NumPy grid search on
# the same validation rows does: FeCAM (α, then the Tukey power at the chosen α), SLDA (ε), KLDA
# (γ, then reg at the chosen γ; its random Fourier features are saved: W at another γ is the saved
# W times sqrt(γ/γ₀), the same normal draws) and RanPAC (λ, its own grid of 37 points). The
# learners' parameters are searched on their grid only (tn_refines), so every evaluation tune
# reports in its JSON ("evaluations": parameter, value, objective) is a grid point: NumPy
# recomputes each objective (validation accuracy after the last task, %) from the --save-state
# files of a run at the defaults (rows, labels, validation rows, class order, KLDA's W and b,
# RanPAC's projection) within 1e-9, and the chosen value is the grid's first best. A small
# Gaussian set made here (12 classes, d = 24, 4 tasks) keeps it to seconds. With the test labels
# permuted every choice, evaluation and validation number stays and the test numbers move.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
if ! "$PY" -c 'import numpy' 2>/dev/null; then skip "NumPy not available (python3-numpy)"; finish; exit $?; fi

mkdir -p "$tmp/d"
"$PY" - "$tmp/d" <<'PYEOF'
import sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(7)
C, dim = 12, 24
mu = rng.normal(size=(C, dim)) * 0.9
A = [rng.normal(size=(dim, dim)) / np.sqrt(dim) * rng.uniform(0.6, 1.4) for _ in range(C)]
def draw(n):
    X = np.vstack([mu[c] + rng.normal(size=(n, dim)) @ A[c] for c in range(C)])
    return X, np.repeat(np.arange(C), n)
X, y = draw(80); Xt, yt = draw(30)
np.save(f"{d}/train_features.npy", X); np.save(f"{d}/train_labels.npy", y)
np.save(f"{d}/test_features.npy", Xt); np.save(f"{d}/test_labels.npy", yt)
PYEOF

common="--tasks 4 --val-frac 0.3 --expand 200 --klda-dim 300 --methods fecam,slda,klda,ranpac"
"$G" tune --data "$tmp/d" $common --format json --quiet >"$tmp/t.json" 2>"$tmp/err" && ok "tune fecam,slda,klda,ranpac" || bad "tune failed"
"$G" run --data "$tmp/d" $common --quiet --format json --save-state "$tmp/s" >/dev/null 2>"$tmp/err" && ok "run --save-state at the defaults" \
    || bad "run --save-state failed"

# the same data with the test labels permuted: every chosen value and validation number stays,
# the test numbers move (nothing is read from the test rows to choose)
mkdir -p "$tmp/p" && cp "$tmp/d/"train_*.npy "$tmp/d/test_features.npy" "$tmp/p/"
"$PY" -c "
import numpy as np
y = np.load('$tmp/d/test_labels.npy'); np.random.default_rng(3).shuffle(y); np.save('$tmp/p/test_labels.npy', y)"
"$G" tune $common --data "$tmp/p" --format json --quiet >"$tmp/p.json" 2>"$tmp/err" || bad "tune on permuted test labels failed"
if "$PY" - "$tmp" <<'PYEOF' 2>"$tmp/err"
import json, sys
t = sys.argv[1]
a, b = json.load(open(f"{t}/t.json")), json.load(open(f"{t}/p.json"))
for x, y in zip(a["methods"], b["methods"]):
    assert x["chosen"] == y["chosen"] and x["evaluations"] == y["evaluations"] and x["validation"] == y["validation"], x["name"]
    assert x["test"] != y["test"], x["name"]
PYEOF
then ok "permuted test labels: the same choices, evaluations and validation numbers, other test numbers"
else bad "permuted test labels changed a choice"; fi

"$PY" - "$tmp" >"$tmp/py" 2>&1 <<'PYEOF'
import json, sys
import numpy as np
t = sys.argv[1]; s = f"{t}/s"
J = json.load(open(f"{t}/t.json"))
P = json.load(open(f"{s}/params.json"))
X = np.load(f"{s}/rows.npy"); y = np.load(f"{s}/rows_labels.npy")
V = np.load(f"{s}/val_rows.npy"); vy = np.load(f"{s}/val_labels.npy")
order = np.load(f"{s}/class_order.npy")
def check(name, cond): print(("ok - " if cond else "FAIL - ") + name)
def acc(pred): return 100.0 * np.mean(pred == vy)

def tukey(Z, b): return np.sign(Z) * np.abs(Z) ** b
def fecam(alpha, b):
    R, RV = tukey(X, b), tukey(V, b)
    D = []
    for c in order:
        Rc = R[y == c]; m = Rc.mean(0)
        if len(Rc) <= 1: D.append(((RV - m) ** 2).sum(1)); continue
        cov = np.cov(Rc.T)
        cov = cov + alpha * np.mean(np.diag(cov)) * np.eye(len(m))
        sd = np.sqrt(np.diag(cov)); N = cov / np.outer(sd, sd)
        Q = RV - m
        D.append(np.einsum("ij,ij->i", Q, np.linalg.solve(N, Q.T).T))
    return acc(order[np.argmin(np.stack(D, 1), 1)])
def means_scatter(F):
    M = np.stack([F[y == c].mean(0) for c in order]); R = F - M[np.searchsorted(order, y)] if False else None
    S = sum((F[y == c] - F[y == c].mean(0)).T @ (F[y == c] - F[y == c].mean(0)) for c in order)
    return M, S
def slda(eps):
    M, S = means_scatter(X)
    Lam = S / (len(y) - len(order)) + eps * np.eye(X.shape[1])
    W = np.linalg.solve(Lam, M.T)
    return acc(order[np.argmax(V @ W - 0.5 * np.sum(M.T * W, 0), 1)])
W0, b0 = np.load(f"{s}/klda/rff_W.npy"), np.load(f"{s}/klda/rff_b.npy")
def rff(Z, W): return np.sqrt(2.0 / W.shape[1]) * np.cos(Z @ W + b0)
def klda(gamma, reg):
    W = W0 * np.sqrt(gamma / P["klda_gamma"])
    F, FV = rff(X, W), rff(V, W)
    M, S = means_scatter(F)
    L = np.linalg.cholesky(S + reg * np.eye(F.shape[1])); Li = np.linalg.inv(L)
    Zv, Zm = FV @ Li.T, M @ Li.T
    d = (Zv ** 2).sum(1)[:, None] - 2 * Zv @ Zm.T + (Zm ** 2).sum(1)[None, :]
    return acc(order[d.argmin(1)])
Pr = np.load(f"{s}/ranpac/proj_W.npy")
H, HV = np.maximum(X @ Pr.T, 0), np.maximum(V @ Pr.T, 0)
Y = np.zeros((len(y), int(max(y.max(), vy.max())) + 1)); Y[np.arange(len(y)), y] = 1
G, Qm = H.T @ H, H.T @ Y
def ranpac(lam):
    Wr = np.linalg.solve(G + lam * np.eye(G.shape[0]), Qm)
    return acc(order[np.argmax((HV @ Wr)[:, order], 1)])

ref = {"fecam": lambda p: fecam(p["fecam_alpha"], p["fecam_tukey"]),
       "slda": lambda p: slda(p["slda_eps"]),
       "klda": lambda p: klda(p["klda_gamma"], p["klda_reg"]),
       "ranpac": lambda p: ranpac(p["tau"])}
stages = {"fecam": ["fecam_alpha", "fecam_tukey"], "slda": ["slda_eps"], "klda": ["klda_gamma", "klda_reg"], "ranpac": ["tau"]}
for m in J["methods"]:
    n = m["name"]
    check(f"{n}: tunes {stages[n]}", list(m["chosen"]) == stages[n] and m["not_used"] == [])
    cur = {k: P[k] for k in ("fecam_alpha", "fecam_tukey", "slda_eps", "klda_gamma", "klda_reg", "tau")}
    for k in stages[n]:
        ev = [e for e in m["evaluations"] if e["param"] == k]
        if n == "ranpac":
            grid = list(10.0 ** np.linspace(-4, 5, 37))
        else:
            sp = [p for p in J["search"]["params"] if p["name"] == k][0]
            grid = list(10.0 ** np.linspace(np.log10(sp["lo"]), np.log10(sp["hi"]), sp["grid"])) if sp["scale"] == "log" \
                else list(np.linspace(sp["lo"], sp["hi"], sp["grid"]))
            check(f"{n}.{k}: grid only (no refinement)", sp["refined"] is False)
        vals = [e["value"] for e in ev]
        check(f"{n}.{k}: tune evaluated the grid, {len(grid)} points", len(vals) == len(grid)
              and all(abs(a / b - 1) < 1e-12 for a, b in zip(vals, grid)))
        obj = []
        for e in ev:
            p = dict(cur); p[k] = e["value"]; obj.append(ref[n](p))
        worst = max(abs(a - e["objective"]) for a, e in zip(obj, ev))
        check(f"{n}.{k}: every objective as NumPy computes it (max diff {worst:.2g})", worst < 1e-9)
        best = vals[int(np.argmax(obj))]
        check(f"{n}.{k}: the choice {m['chosen'][k]:g} is NumPy's first best {best:g}", m["chosen"][k] == best)
        check(f"{n}.{k}: the grid is not flat (the check can fail)", max(obj) > min(obj))
        cur[k] = m["chosen"][k]
PYEOF
# the Python checks' verdicts, passes then failures (a traceback: it did not run)
sed -n 's/^ok - //p' "$tmp/py" >"$tmp/passed"
sed -n 's/^FAIL - //p' "$tmp/py" >"$tmp/failed"
while read -r what; do ok "$what"; done <"$tmp/passed"
while read -r what; do bad "$what"; done <"$tmp/failed"
if [ ! -s "$tmp/passed" ] || grep -q 'Traceback' "$tmp/py"; then grep -v '^ok - ' "$tmp/py" | head -20; bad "the NumPy check did not run through"; fi
finish
