#!/usr/bin/env python3
"""numpy_full.py — the whole computation of `gsrscope run --synthetic`, in vectorized NumPy (issue #6).

numpy_ref.py replays gsrscope's own rows (it reads the stream rows, the test rows and GSR's
augmented rows from a --save-state folder), so it checks every number but skips part of the work
that `gsrscope run --synthetic` does end to end. This script does all of it, as a researcher's NumPy
script would, with NumPy's generator (so the random numbers, hence the accuracies, are close to
gsrscope's but not equal; numpy_ref.py is the numerical check):
  1. the synthetic set (--synthetic) with the model and the weights of src/data/synth.c (shared mean
     direction; a shared 16-d subspace with decaying scales holding the class positions and a
     within-class spread; each class's own direction with a strength that varies by row; rank-16
     class-specific spread; isotropic noise; normalized), only the rows the stream keeps
     (gsrscope generates those only, too);
  2. the step long-tail stream: classes in a random order, 30 % head classes with 500 rows, the
     others 5 random rows, 10 tasks of 10 classes; test rows of every class;
  3. L2 normalization;
  4. GSR's augmented rows (Algorithm 1 as gsrscope runs it by default: per class,
     α_c = α_base + (1 − α_base) e^(−ξ N), at most max_aug of the N(N−1) ordered pairs drawn
     without replacement, γ ~ Beta(α_c, α_c), the mix normalized);
  5. numpy_ref.replay: both methods, every task (Grams, solves, predictions, eigvalsh).

Usage: numpy_full.py [--seed S] [--compare RUN.json]
Prints "numpy_full: seconds S", the split of the time, "numpy_full: a_last gacl X gsr Y" and
"numpy_full: last task head/tail gacl H/T gsr H/T" (%). With --compare (the output of
`gsrscope run --synthetic --format json`), "numpy_full: agree ..." or "numpy_full: DISAGREE ..."
with each difference: the two use different random numbers (and NumPy draws another class order
and head set), so they agree statistically, within AGREE_POINTS points; exit 1 when they do not.
"""
import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from numpy_ref import replay  # noqa: E402

C, D, RANK, N_TRAIN, N_TEST = 100, 768, 16, 500, 100
# src/data/synth.c's knobs (same names without the SYN_ prefix)
SYN_A, K, T_DECAY, SHARED, KAPPA = 1.2, 16, 0.57, 0.50, 0.5
SYN_B, ZETA, SPREAD, NOISE = 0.28, 1.0, 0.1, 0.3
AGREE_POINTS = 5.0
TASKS, HEAD_FRAC, TAIL_SHOTS = 10, 0.3, 5
ALPHA_BASE, XI, BETA, TAU, MAX_AUG = 0.6, 0.005, 1.0, 0.01, 1000


def unit_rows(x):
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def synthetic(rng, keep):
    """Rows of the synthetic model: keep[c] training rows and N_TEST test rows of class c."""
    m0 = unit_rows(rng.standard_normal(D))
    # V: K orthonormal rows orthogonal to m0
    V = np.linalg.qr(np.column_stack([m0, rng.standard_normal((D, K))]))[0][:, 1:].T
    t = np.arange(1, K + 1) ** -T_DECAY
    t *= SHARED / np.sqrt((t ** 2).sum())
    mu = SYN_A * m0 + (KAPPA * t * rng.standard_normal((C, K))) @ V
    u = unit_rows(rng.standard_normal((C, D)))
    basis = unit_rows(rng.standard_normal((C, RANK, D)))
    s = (np.arange(1, RANK + 1) ** -0.8)
    s *= SPREAD / np.sqrt((s ** 2).sum())

    def rows(c, n):
        x = (mu[c] + NOISE / np.sqrt(D) * rng.standard_normal((n, D))
             + SYN_B * (1 + ZETA * rng.standard_normal((n, 1))) * u[c]
             + (s * rng.standard_normal((n, RANK))) @ basis[c] + (t * rng.standard_normal((n, K))) @ V)
        return unit_rows(x)

    train = [rows(c, keep[c]) for c in range(C)]
    test = [rows(c, N_TEST) for c in range(C)]
    return train, test


def gsr_rows(rng, Z):
    """GSR's augmented rows of one class (rows Z, N × D)."""
    N = Z.shape[0]
    if N < 2:
        return np.empty((0, D))
    alpha = ALPHA_BASE + (1 - ALPHA_BASE) * np.exp(-XI * N)
    npairs = N * (N - 1)
    K = min(npairs, MAX_AUG)
    sel = np.sort(rng.choice(npairs, K, replace=False)) if K < npairs else np.arange(npairs)
    i, jj = sel // (N - 1), sel % (N - 1)
    j = jj + (jj >= i)
    g = rng.beta(alpha, alpha, K)[:, None]
    H = g * Z[i] + (1 - g) * Z[j]
    nrm = np.linalg.norm(H, axis=1)
    ok = nrm >= 1e-12
    return H[ok] / nrm[ok, None]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compare", help="gsrscope run --synthetic --format json output")
    a = ap.parse_args()
    t0 = time.perf_counter()
    rng = np.random.default_rng(a.seed)
    order = rng.permutation(C)                        # task order of the classes
    head = rng.permutation(C)[: int(round(HEAD_FRAC * C))]
    keep = np.full(C, TAIL_SHOTS)
    keep[head] = N_TRAIN
    train, test = synthetic(rng, keep)
    t1 = time.perf_counter()
    # stream rows in task order; labels, tasks
    per_task = C // TASKS
    X = np.concatenate([train[c] for c in order])
    y = np.concatenate([np.full(keep[c], c) for c in order])
    task = np.concatenate([np.full(keep[c], k // per_task) for k, c in enumerate(order)])
    Xt = np.concatenate(test)
    yt = np.repeat(np.arange(C), N_TEST)
    X = unit_rows(X)
    Xt = unit_rows(Xt)
    t2 = time.perf_counter()
    A, ay = [], []
    start = 0
    for c in order:
        Zc = X[start:start + keep[c]]
        start += keep[c]
        H = gsr_rows(rng, Zc)
        A.append(H)
        ay.append(np.full(H.shape[0], c))
    s = {"X": X, "y": y, "task": task, "Xt": Xt, "yt": yt, "order": order,
         "params": {"tau": TAU, "beta": BETA, "classes": C},
         "A": np.concatenate(A), "ay": np.concatenate(ay)}
    t3 = time.perf_counter()
    out = replay(s)
    t4 = time.perf_counter()
    print(f"numpy_full: seconds {t4 - t0:.3f}")
    print(f"numpy_full: split data {t1 - t0:.3f} stream {t2 - t1:.3f} gsr_rows {t3 - t2:.3f} replay {t4 - t3:.3f}"
          f" ({X.shape[0]} rows, {s['A'].shape[0]} augmented, {Xt.shape[0]} test)")
    print(f"numpy_full: a_last gacl {out['gacl'][-1][0]:.2f} gsr {out['gsr'][-1][0]:.2f}")
    mine = {m: {"a_last": out[m][-1][0], **head_tail(s, m, head)} for m in ("gacl", "gsr")}
    print("numpy_full: last task head/tail " + " ".join(
        f"{m} {mine[m]['head_acc']:.2f}/{mine[m]['tail_acc']:.2f}" for m in mine))
    if not a.compare:
        return 0
    with open(a.compare) as f:
        run = json.load(f)
    diffs, far = [], False
    for m in mine:
        g = next(x for x in run["methods"] if x["name"] == m)
        theirs = {"a_last": g["a_last"], "head_acc": g["tasks"][-1]["head_acc"], "tail_acc": g["tasks"][-1]["tail_acc"]}
        for k in ("a_last", "head_acc", "tail_acc"):
            dk = mine[m][k] - theirs[k]
            far |= abs(dk) > AGREE_POINTS
            diffs.append(f"{m} {k} {mine[m][k]:.2f} vs {theirs[k]:.2f}")
    word = "DISAGREE" if far else "agree"
    print(f"numpy_full: {word} with gsrscope within {AGREE_POINTS:g} points: " + ", ".join(diffs))
    return 1 if far else 0


def head_tail(s, method, head):
    """Head and tail accuracy after the last task (mean per-class recall over the head classes and
    over the others), from the joint ridge solution, which is what the last task's W is."""
    C = s["params"]["classes"]
    X, Y = s["X"], np.eye(C)[s["y"]]
    G, Q = X.T @ X, X.T @ Y
    if method == "gsr":
        G = G + s["params"]["beta"] * s["A"].T @ s["A"]
        Q = Q + s["params"]["beta"] * s["A"].T @ np.eye(C)[s["ay"]]
    W = np.linalg.solve(G + s["params"]["tau"] * np.eye(G.shape[0]), Q)
    pred = np.argmax(s["Xt"] @ W, axis=1)
    rec = np.array([np.mean(pred[s["yt"] == c] == c) for c in range(C)])
    is_head = np.zeros(C, bool)
    is_head[head] = True
    return {"head_acc": 100 * rec[is_head].mean(), "tail_acc": 100 * rec[~is_head].mean()}


if __name__ == "__main__":
    sys.exit(main())
