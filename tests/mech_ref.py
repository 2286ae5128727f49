#!/usr/bin/env python3
"""mech_ref.py — the claims' "why" rows of `run --theorem --format json` against NumPy on the
--save-state folder of the same run (methods gacl, gsr, gacl+oversample).

From gacl/G.npy (G) and gsr/G.npy (G + Δ): the numerical ranks (np.linalg.matrix_rank), λ₁(G),
tr G, tr Δ, u₁ᵀΔu₁ with u₁ G's top eigenvector, ε = ‖U_hᵀΔU_h‖₂ over G's top r eigenvectors
(r = head classes seen); from rows.npy and gsr/aug_rows.npy (+ labels, weights, β): the mean
within-class spread tr Σ_c and mean cosine to the class mean of real and synthetic rows per head
and tail class, the median mass N_c and N_c + β·Σω; from each method's pred.npy the tail
accuracy (mean per-class accuracy over tail classes) of GACL, +oversample, +GSR. Each is compared
with the JSON (relative 1e-6, ranks exactly), and each why-row verdict is recomputed from the
NumPy numbers with the rule of gs_claims.h and compared with the program's.
Usage: mech_ref.py STATE_DIR RUN.json ; prints ok/FAIL lines, exit 1 on a failure.
"""
import json
import os
import sys

import numpy as np

d, js = sys.argv[1], json.load(open(sys.argv[2]))
L = lambda *f: np.load(os.path.join(d, *f))
p = json.load(open(os.path.join(d, "params.json")))
th = [t for t in js["theorem"] if t["method"] == "gsr"][0]
bad = 0


def check(cond, what):
    global bad
    print(("ok " if cond else "FAIL ") + what)
    bad += not cond


def close(a, b, what, tol=1e-6):
    check(a is not None and abs(a - b) <= tol * max(abs(b), 1e-300), f"{what}: {a} vs NumPy {b:.10g}")


G, GD = L("gacl", "G.npy"), L("gsr", "G.npy")
Dl = GD - G
w, U = np.linalg.eigh(G)
w, U = w[::-1], U[:, ::-1]
rG, rGD = np.linalg.matrix_rank(G, hermitian=True), np.linalg.matrix_rank(GD, hermitian=True)
check(th["rank_G"] == rG and th["rank_G_Delta"] == rGD, f"ranks {th['rank_G']} → {th['rank_G_Delta']} (NumPy {rG} → {rGD})")
null = w <= len(w) * np.finfo(float).eps * w[0]
outside = np.trace(U[:, null].T @ Dl @ U[:, null]) / np.trace(Dl)
check(abs(th["outside"] - outside) < 1e-9, f"share of tr Δ outside G's range {th['outside']:.3g} (NumPy {outside:.3g})")
close(th["lambda1"], w[0], "λ₁(G)")
close(th["tr_G"], np.trace(G), "tr G")
close(th["tr_Delta"], np.trace(Dl), "tr Δ")
u1d = U[:, 0] @ Dl @ U[:, 0]
close(th["u1_Delta_u1"], u1d, "u₁ᵀΔu₁", 1e-5)
r = th["r"]
eps = np.linalg.norm(U[:, :r].T @ Dl @ U[:, :r], 2)
close(th["eps"], eps, f"ε (r = {r})", 1e-5)
# rows: spread, cosine, mass
Z, y = L("rows.npy"), L("rows_labels.npy")
A, ya, wa = L("gsr", "aug_rows.npy"), L("gsr", "aug_labels.npy"), L("gsr", "aug_weights.npy")
head = set(L("head_classes.npy").tolist())
acc = {0: [[] for _ in range(6)], 1: [[] for _ in range(6)]}
for c in np.unique(ya):
    h = 0 if c in head else 1
    for X, k in ((Z[y == c], 0), (A[ya == c], 2)):
        mu = X.mean(axis=0)
        acc[h][k].append(np.mean(np.sum((X - mu) ** 2, axis=1)))
        acc[h][k + 1].append(np.mean(X @ mu / (np.linalg.norm(X, axis=1) * np.linalg.norm(mu))))
    acc[h][4].append(np.sum(y == c)); acc[h][5].append(np.sum(y == c) + p["beta"] * wa[ya == c].sum())
names = ["spread_real", "cos_to_mean_real", "spread_synthetic", "cos_to_mean_synthetic", "mass_real", "mass_total"]
for h, hn in ((0, "head"), (1, "tail")):
    if not acc[h][0]:
        continue
    for k, nm in enumerate(names):
        ref = np.median(acc[h][k]) if k >= 4 else np.mean(acc[h][k])
        close(th["rows"][hn][nm], ref, f"{hn} {nm}", 1e-9)
# tail accuracy of the three methods from their predictions
yt = L("test_labels.npy")
def tail_acc(m):
    pr = L(m, "pred.npy"); t = [c for c in np.unique(yt) if c not in head]
    return np.mean([np.mean(pr[yt == c] == c) for c in t]) * 100
ta, to, tg = tail_acc("gacl"), tail_acc("gacl+oversample"), tail_acc("gsr")
# the verdicts, recomputed from the NumPy numbers (gs_claims.h)
V = {c["claim"].split(":")[0]: c for c in th["claims"]}
def verdict(key, holds, numbers_has=None):
    c = [v for k, v in V.items() if k.startswith(key)][0]
    want = "holds" if holds else "fails"
    check(c["verdict"] == want and (numbers_has is None or numbers_has in c["numbers"]),
          f"'{key}…' {c['verdict']} (NumPy: {want}){'' if numbers_has is None else ', numbers show ' + numbers_has}")
verdict("the synthetic rows reach directions", outside > 1e-6)
verdict("Δ spreads energy off", u1d / np.trace(Dl) < w[0] / np.trace(G))
verdict("Theorem 1's setting", eps / w[0] < 1)
hs = 1 if acc[1][0] else 0
verdict("mixing widens the classes", np.mean(acc[hs][2]) / np.mean(acc[hs][0]) >= 1)
qt = np.median(acc[1][5]) / np.median(acc[1][4]); qh = np.median(acc[0][5]) / np.median(acc[0][4])
verdict("the tail gains weight", qt > 1 and qt > qh)
# (the claim's rule reads the accuracies as printed, to 0.1: man gsrscope, CLAIMS)
pa, po, pg = (float(f"{x:.1f}") for x in (ta, to, tg))
verdict("the tail gain comes from", pg - po >= 1 and pg - po > po - pa,
        f"mass {po - pa:+.1f}, geometry {pg - po:+.1f} points")
print(f"# rank {rG} → {rGD}, outside {outside:.1e}; u₁ share Δ {u1d / np.trace(Dl):.4f} vs G {w[0] / np.trace(G):.4f}; ε/λ₁ {eps / w[0]:.3f}; "
      f"tail spread ×{np.mean(acc[1][2]) / np.mean(acc[1][0]):.3f}; tail mass ×{qt:.1f}, head ×{qh:.2f}; "
      f"tail {ta:.1f} → {to:.1f} → {tg:.1f}")
sys.exit(1 if bad else 0)
