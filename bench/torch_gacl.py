#!/usr/bin/env python3
"""torch_gacl.py — a PyTorch float32 GACL doing the replay of `gsrscope run --expand D --methods gacl`.

The reference configuration's GACL as the reference implementations write it (a Gaussian random
ReLU projection H = relu(X Wᵀ), W ~ N(0, 1) of shape D × d; per task G += HᵀH, Q += HᵀY; the
weights Θ = solve(G + reg·I, Q) and the predictions argmax(H_test Θ) over the seen classes),
in float32 with PyTorch's own kernels (torch.linalg.solve, matrix products), on the rows
gsrscope fed its learners: a `gsrscope run --save-state DIR` folder written WITHOUT --expand
(rows.npy = the normalized d-dimensional rows in stream order, rows_task.npy, rows_labels.npy,
test_rows.npy, test_labels.npy, class_order.npy, params.json).

The test rows are projected once (not at every task, as the reference code's predict does):
that favours PyTorch. The random projection is PyTorch's own (seeded), so accuracies are close
to gsrscope's but not equal; they are printed as a sanity check.

Usage: torch_gacl.py STATE_DIR [--expand D] [--reg R] [--threads N]
Prints "torch: compute SECONDS" (the replay; loading excluded), "torch: load SECONDS",
"torch: acc a1 a2 ... aT" (sample-weighted % over the seen classes) and "torch: a_last A".
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import torch


def load(d):
    t0 = time.perf_counter()
    s = {k: np.load(os.path.join(d, k + ".npy"))
         for k in ("rows", "rows_labels", "rows_task", "test_rows", "test_labels", "class_order")}
    s["params"] = json.load(open(os.path.join(d, "params.json")))
    return s, time.perf_counter() - t0


def replay(s, D, reg, seed):
    X = torch.from_numpy(s["rows"]).float()
    y = torch.from_numpy(s["rows_labels"].astype(np.int64))
    task = s["rows_task"]
    Xt = torch.from_numpy(s["test_rows"]).float()
    yt = s["test_labels"]
    C = int(s["params"]["classes"])
    T = int(task.max()) + 1
    class_task = np.full(C, -1)
    class_task[s["rows_labels"]] = task
    test_task = class_task[yt]
    order = s["class_order"]
    g = torch.Generator().manual_seed(seed)
    W = torch.randn(D, X.shape[1], generator=g)
    G = torch.zeros(D, D)
    Q = torch.zeros(D, C)
    Ht = torch.relu(Xt @ W.T)
    eye = torch.eye(D)
    accs = []
    for t in range(T):
        sel = torch.from_numpy(np.nonzero(task == t)[0])
        H = torch.relu(X[sel] @ W.T)
        G += H.T @ H
        Yk = torch.zeros(H.shape[0], C)
        Yk[torch.arange(H.shape[0]), y[sel]] = 1.0
        Q += H.T @ Yk
        seen = order[class_task[order] >= 0]
        seen = seen[class_task[seen] <= t]
        Theta = torch.linalg.solve(G + reg * eye, Q[:, torch.from_numpy(seen)])
        mt = np.nonzero((test_task >= 0) & (test_task <= t))[0]
        scores = Ht[torch.from_numpy(mt)] @ Theta
        pred = seen[torch.argmax(scores, dim=1).numpy()]
        accs.append(100.0 * float(np.mean(pred == yt[mt])))
    return accs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("state")
    ap.add_argument("--expand", type=int, default=5000)
    ap.add_argument("--reg", type=float, default=1e4)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    s, tl = load(a.state)
    t0 = time.perf_counter()
    accs = replay(s, a.expand, a.reg, a.seed)
    tc = time.perf_counter() - t0
    print(f"torch: load {tl:.3f}")
    print(f"torch: compute {tc:.3f}")
    print("torch: acc " + " ".join(f"{v:.2f}" for v in accs))
    print(f"torch: a_last {accs[-1]:.2f}  (torch {torch.__version__}, {torch.get_num_threads()} threads, float32)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
