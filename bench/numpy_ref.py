#!/usr/bin/env python3
"""numpy_ref.py — vectorized NumPy reference of `gsrscope run --synthetic` .

Reads a `gsrscope run --save-state DIR` folder (the rows gsrscope fed to G and Q, test rows,
labels, class order, and GSR's augmented rows) so both programs do identical linear algebra:
per task and method  G += XᵀX,  Q += XᵀY,  W = solve(G + τI, Q),  predictions over the seen
classes, accuracy, and the spectrum of G + τI the natural NumPy way (np.linalg.eigvalsh every
task: stable rank, condition number; the full spectrum at the last task).

Usage: numpy_ref.py STATE_DIR [--csv gsrscope.csv] [--reps N]
Prints "numpy: compute SECONDS" (median over reps, loading excluded), "numpy: load SECONDS",
and with --csv checks the accuracies (and spectra at the last task) against gsrscope's CSV
("numpy: agree N tasks" or a list of mismatches and exit status 1).
"""
import argparse
import csv
import json
import os
import sys
import time

import numpy as np


def load(d):
    t0 = time.perf_counter()
    s = {
        "X": np.load(os.path.join(d, "rows.npy")),
        "y": np.load(os.path.join(d, "rows_labels.npy")),
        "task": np.load(os.path.join(d, "rows_task.npy")),
        "Xt": np.load(os.path.join(d, "test_rows.npy")),
        "yt": np.load(os.path.join(d, "test_labels.npy")),
        "order": np.load(os.path.join(d, "class_order.npy")),
        "params": json.load(open(os.path.join(d, "params.json"))),
    }
    aug = os.path.join(d, "gsr", "aug_rows.npy")
    if os.path.exists(aug):
        s["A"] = np.load(aug)
        s["ay"] = np.load(os.path.join(d, "gsr", "aug_labels.npy"))
    return s, time.perf_counter() - t0


def replay(s):
    """Both methods, every task. Returns {method: [(acc, stable_rank, cond, eigvals), ...]}."""
    X, y, task, Xt, yt, order = s["X"], s["y"], s["task"], s["Xt"], s["yt"], s["order"]
    p = s["params"]
    tau, beta, C = p["tau"], p["beta"], p["classes"]
    T = int(task.max()) + 1
    D = X.shape[1]
    class_task = np.full(C, -1)
    class_task[y] = task                      # every stream class has real rows
    test_task = class_task[yt]
    methods = ["gacl"] + (["gsr"] if "A" in s else [])
    if "A" in s:
        aug_task = class_task[s["ay"]]
    G = np.zeros((D, D)); Q = np.zeros((D, C))
    E = np.zeros((D, D)); QE = np.zeros((D, C))
    eye = np.eye(D)
    out = {m: [] for m in methods}
    for t in range(T):
        sel = task == t
        Xk = X[sel]
        G += Xk.T @ Xk
        Q += Xk.T @ np.eye(C)[y[sel]]
        if "A" in s:
            ak = aug_task == t
            Ak = s["A"][ak]
            E += Ak.T @ Ak
            QE += Ak.T @ np.eye(C)[s["ay"][ak]]
        seen = order[: int((class_task >= 0).sum())]
        seen = seen[class_task[seen] <= t]
        mt = (test_task >= 0) & (test_task <= t)
        for m in methods:
            Gm, Qm = (G, Q) if m == "gacl" else (G + beta * E, Q + beta * QE)
            A = Gm + tau * eye
            W = np.linalg.solve(A, Qm[:, seen])
            pred = seen[np.argmax(Xt[mt] @ W, axis=1)]
            acc = 100.0 * np.mean(pred == yt[mt])
            ev = np.linalg.eigvalsh(A)[::-1]
            out[m].append((acc, float((ev ** 2).sum() / ev[0] ** 2), float(ev[0] / ev[-1]), ev))
    return out


def check(out, path):
    bad, n = [], 0
    with open(path) as f:
        for r in csv.DictReader(f):
            m, t = r["method"], int(r["task"]) - 1
            if m not in out:
                continue
            acc, sr, cond, ev = out[m][t]
            n += 1
            if abs(float(r["acc"]) - acc) > 0.011:
                bad.append(f"{m} task {t + 1}: acc {r['acc']} vs numpy {acc:.4f}")
            if r.get("erank"):  # exact spectrum there: stable rank and λ_max must agree closely
                if abs(float(r["stable_rank"]) - sr) > 1e-6 * sr:
                    bad.append(f"{m} task {t + 1}: stable rank {r['stable_rank']} vs numpy {sr}")
                if abs(float(r["lambda_max"]) - ev[0]) > 1e-8 * ev[0]:
                    bad.append(f"{m} task {t + 1}: λmax {r['lambda_max']} vs numpy {ev[0]}")
            else:  # Lanczos estimates (converged to 1e-10 relative; checked loosely here)
                if abs(float(r["lambda_max"]) - ev[0]) > 1e-6 * ev[0]:
                    bad.append(f"{m} task {t + 1}: λmax estimate {r['lambda_max']} vs numpy {ev[0]}")
                if abs(float(r["lambda_min"]) - ev[-1]) > 1e-6 * ev[-1] + 1e-9 * ev[0]:
                    bad.append(f"{m} task {t + 1}: λmin estimate {r['lambda_min']} vs numpy {ev[-1]}")
    return n, bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("state")
    ap.add_argument("--csv")
    ap.add_argument("--reps", type=int, default=1)
    a = ap.parse_args()
    s, tl = load(a.state)
    times = []
    for _ in range(max(1, a.reps)):
        t0 = time.perf_counter()
        out = replay(s)
        times.append(time.perf_counter() - t0)
    print(f"numpy: load {tl:.3f}")
    print(f"numpy: compute {float(np.median(times)):.3f}")
    if a.csv:
        n, bad = check(out, a.csv)
        for b in bad:
            print("numpy: MISMATCH " + b)
        nbad = len({b.split(":")[0] for b in bad})
        print(f"numpy: agree {n - nbad} of {n} tasks")
        return 1 if bad or n == 0 else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
