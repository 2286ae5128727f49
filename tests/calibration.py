#!/usr/bin/env python3
"""calibration.py — the geometry statistics that --synthetic is calibrated against.

For each data folder given (train_features.npy, train_labels.npy, test_features.npy,
test_labels.npy; any dtype NumPy reads), rows L2-normalized as gsrscope does by default:
  top   share of the largest eigenvalue of the uncentered Gram XᵀX in its trace (the shared
        mean direction: the collapse the paper is about)
  next  λ2/tr, λ11/tr and (λ2 + … + λ11)/tr: the level, the decay and the weight of the next ten
        eigenvalues
  cos   mean cosine between two different training rows
  probe balanced accuracy (mean per-class recall, %) on the test rows of a ridge probe
        W = (XᵀX + τI)⁻¹XᵀY on all training rows (one-hot Y), τ = 1
Independent of gsrscope: plain NumPy on the files.
With --run NAME=FILE (the output of `gsrscope run --format json` on that set), the table adds
GACL's and GSR's head and tail accuracy after the last task, as the run reports them.

Usage: calibration.py NAME=DIR [NAME=DIR ...] [--run NAME=FILE ...] [--format table|json]
Prints a Markdown table (README's calibration table) or JSON.
"""
import json
import sys

import numpy as np

PROBE_TAU = 1.0


def load(d):
    def arr(n):
        return np.load(f"{d}/{n}.npy")
    X, y = arr("train_features").astype(np.float64), arr("train_labels").astype(np.int64)
    Xt, yt = arr("test_features").astype(np.float64), arr("test_labels").astype(np.int64)
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    Xt /= np.linalg.norm(Xt, axis=1, keepdims=True)
    return X, y, Xt, yt


def stats(X, y, Xt, yt):
    N, d = X.shape
    G = X.T @ X
    ev = np.sort(np.linalg.eigvalsh(G))[::-1]
    tr = ev.sum()
    s = X.sum(axis=0)
    cos = (s @ s - N) / (N * (N - 1.0))
    C = int(y.max()) + 1
    Y = np.zeros((N, C))
    Y[np.arange(N), y] = 1
    W = np.linalg.solve(G + PROBE_TAU * np.eye(d), X.T @ Y)
    pred = np.argmax(Xt @ W, axis=1)
    rec = [np.mean(pred[yt == c] == c) for c in range(C) if np.any(yt == c)]
    return {"classes": C, "dim": d, "train_rows": N, "top": ev[0] / tr, "l2": ev[1] / tr,
            "l11": ev[10] / tr, "next10": ev[1:11].sum() / tr, "cos": cos, "probe": 100 * float(np.mean(rec))}


def run_accuracies(path):
    """GACL's and GSR's head and tail accuracy after the last task, from run --format json."""
    with open(path) as f:
        run = json.load(f)
    out = {}
    for m in run["methods"]:
        last = m["tasks"][-1]
        out[m["name"] + "_head"], out[m["name"] + "_tail"] = last["head_acc"], last["tail_acc"]
    return out


def main(argv):
    fmt = "table"
    sets, runs = [], {}
    i = 0
    while i < len(argv):
        if argv[i] in ("--format", "--run"):
            if i + 1 >= len(argv):
                sys.exit(__doc__)
            if argv[i] == "--format":
                fmt = argv[i + 1]
            else:
                name, _, path = argv[i + 1].partition("=")
                runs[name] = path
            i += 2
            continue
        name, _, d = argv[i].partition("=")
        sets.append((name, d))
        i += 1
    if not sets:
        sys.exit(__doc__)
    res = {name: stats(*load(d)) for name, d in sets}
    for name, path in runs.items():
        res[name].update(run_accuracies(path))
    if fmt == "json":
        print(json.dumps(res, indent=1))
        return
    acc = bool(runs)
    print("| set | classes × d | rows | top eigenvalue / trace | λ2 / trace | λ11 / trace "
          "| λ2 + … + λ11 | mean cosine | ridge probe (balanced, %) |" + (" GACL head / tail (%) | GSR head / tail (%) |" if acc else ""))
    print("|---|---|---|---|---|---|---|---|---|" + ("---|---|" if acc else ""))
    for name, r in res.items():
        ht = ""
        if acc:
            ht = "".join(f" {r[m + '_head']:.1f} / {r[m + '_tail']:.1f} |" if m + "_head" in r else " |"
                         for m in ("gacl", "gsr"))
        print(f"| {name} | {r['classes']} × {r['dim']} | {r['train_rows']} | {100 * r['top']:.1f} % "
              f"| {100 * r['l2']:.2f} % | {100 * r['l11']:.2f} % | {100 * r['next10']:.1f} % | {r['cos']:.3f} "
              f"| {r['probe']:.1f} |" + ht)


if __name__ == "__main__":
    main(sys.argv[1:])
