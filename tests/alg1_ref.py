#!/usr/bin/env python3
"""alg1_ref.py — the paper's Algorithm 1 written out in NumPy, checked against a
`gsrscope run --pairs literal --max-aug all --methods gacl,gsr --save-state DIR` folder.

Algorithm 1, as the paper writes it: for each class c with real rows Z_c (N_c of them),
α_c = α_base + (1 − α_base)·exp(−ξ N_c); for EACH ordered pair (z_i, z_j) ∈ (Z_c, Z_c) — i = j
included, N_c² pairs — γ ~ Beta(α_c, α_c) and z̃ = (γ z_i + (1 − γ) z_j)/‖γ z_i + (1 − γ) z_j‖;
then G = ZᵀZ + β Z̃ᵀZ̃, Q = ZᵀY + β Z̃ᵀỸ, W = (G + τI)⁻¹Q, predict argmax over seen classes.

The γ draws come from GSL, which NumPy cannot replay, so this script recovers each row's γ from
the saved row (z̃ is a positive multiple of γ z_i + (1 − γ) z_j: a 2×2 least-squares solve) and
checks: (1) the saved synthetic rows of each class are exactly its N_c² pairs in order (i-major),
each the normalized mix of its pair to 1e-10 with 0 ≤ γ ≤ 1, a pair (i, i) the row z_i itself;
(2) the recovered γ have Beta(α_c, α_c)'s mean 1/2 and variance 1/(4(2α_c + 1)) within 5 standard
errors; (3) G, Q built from the rows by Algorithm 1 equal gsr/G.npy and Q.npy to 1e-10, the
eigenvalues and the stable rank of G + τI equal eigvals.npy; (4) the predictions of W equal
gsr/pred.npy. Prints one "ok"/"FAIL" line per check; exit 1 on any failure.
"""
import json
import os
import sys

import numpy as np

d = sys.argv[1]
L = lambda *f: np.load(os.path.join(d, *f))
p = json.load(open(os.path.join(d, "params.json")))
assert p["pairs"] == "literal" and p["max_aug"] == "all", "run with --pairs literal --max-aug all"
Z, y, order = L("rows.npy"), L("rows_labels.npy"), L("class_order.npy")
A, ya = L("gsr", "aug_rows.npy"), L("gsr", "aug_labels.npy")
beta, tau, ab, xi, C = p["beta"], p["tau"], p["alpha_base"], p["xi"], p["classes"]
bad = 0


def check(cond, what):
    global bad
    print(("ok " if cond else "FAIL ") + what)
    bad += not cond


pos, worst, gam_bad, layout = 0, 0.0, 0, True
moments = {}  # α_c -> list of γ (pairs i ≠ j)
for c in order:
    Zc = Z[y == c]
    N = len(Zc)
    if N < 2:
        continue
    alpha = ab + (1 - ab) * np.exp(-xi * N)
    R = A[pos:pos + N * N]
    layout &= len(R) == N * N and bool(np.all(ya[pos:pos + N * N] == c))
    pos += N * N
    if not layout:
        break
    i, j = np.divmod(np.arange(N * N), N)
    g = Zc @ Zc.T
    P = R @ Zc.T                                    # r·z_k for every row r and real row k
    pi, pj = P[np.arange(N * N), i], P[np.arange(N * N), j]
    off = i != j
    det = g[i, i] * g[j, j] - g[i, j] ** 2
    a = np.where(off, (g[j, j] * pi - g[i, j] * pj) / np.where(off, det, 1), 1.0)
    b = np.where(off, (g[i, i] * pj - g[i, j] * pi) / np.where(off, det, 1), 0.0)
    gamma = a / (a + b)
    mix = gamma[:, None] * Zc[i] + (1 - gamma)[:, None] * Zc[j]
    rebuilt = mix / np.linalg.norm(mix, axis=1, keepdims=True)
    worst = max(worst, float(np.abs(rebuilt - R).max()))
    gam_bad += int(np.sum((gamma[off] < -1e-9) | (gamma[off] > 1 + 1e-9)))
    moments.setdefault(round(alpha, 12), []).extend(gamma[off].tolist())
check(layout and pos == len(A), f"the synthetic rows are each class's N_c² ordered pairs, i = j included ({len(A)} rows)")
check(worst < 1e-10, f"every row is the normalized mix of its pair (max deviation {worst:.2e})")
check(gam_bad == 0, "every recovered γ lies in [0, 1]")
for alpha, gs in sorted(moments.items()):
    gs = np.array(gs)
    var = 1 / (4 * (2 * alpha + 1))
    m4 = 3 * var ** 2 * (2 * alpha + 1) / (2 * alpha + 3)  # E(γ − ½)⁴ of Beta(α, α)
    se_m, se_v = np.sqrt(var / len(gs)), np.sqrt((m4 - var ** 2) / len(gs))
    check(abs(gs.mean() - 0.5) < 5 * se_m and abs(gs.var() - var) < 5 * se_v,
          f"γ of α_c = {alpha:.4f} ({len(gs)} draws): mean {gs.mean():.4f} (½), variance {gs.var():.4f} ({var:.4f})")
# Algorithm 1's closed form
Y = np.zeros((len(y), C)); Y[np.arange(len(y)), y] = 1
Ya = np.zeros((len(ya), C)); Ya[np.arange(len(ya)), ya] = 1
G = Z.T @ Z + beta * A.T @ A
Q = Z.T @ Y + beta * A.T @ Ya
rel = lambda X, R: np.linalg.norm(X - R) / np.linalg.norm(R)
check(rel(G, L("gsr", "G.npy")) < 1e-10, f"G = ZᵀZ + βZ̃ᵀZ̃ equals gsr/G.npy (rel {rel(G, L('gsr', 'G.npy')):.1e})")
check(rel(Q, L("gsr", "Q.npy")) < 1e-10, f"Q = ZᵀY + βZ̃ᵀỸ equals gsr/Q.npy (rel {rel(Q, L('gsr', 'Q.npy')):.1e})")
ev = np.linalg.eigvalsh(G + tau * np.eye(len(G)))[::-1]
check(rel(ev, L("gsr", "eigvals.npy")) < 1e-10, "eigenvalues of G + τI equal gsr/eigvals.npy")
print(f"# sr(G + τI) = {np.sum(ev ** 2) / ev[0] ** 2:.9f}")
W = np.linalg.solve(G + tau * np.eye(len(G)), Q[:, order])
Zt, yt = L("test_rows.npy"), L("test_labels.npy")
pred = order[np.argmax(Zt @ W, axis=1)]
same = np.mean(pred == L("gsr", "pred.npy")) * 100
check(same == 100.0, f"predictions of W = (G + τI)⁻¹Q equal gsr/pred.npy ({same:.2f} %; accuracy {np.mean(pred == yt) * 100:.2f} %)")
sys.exit(1 if bad else 0)
