#!/usr/bin/env python3
"""learner_ref.py — an independent NumPy implementation of gsrscope's learners, driven by a
`gsrscope run --save-state DIR` folder: the rows before any feature map (rows.npy, test_rows.npy),
each method's manifest.json, its random draws (proj_W.npy) and its augmenter's rows
(aug_rows.npy, aug_labels.npy, aug_weights.npy). For every method it replays the whole stream
(real rows, plus each synthetic row with weight β·ω in every statistic), predicts the test rows
of the seen classes after the last task and compares with the method's pred.npy.

Usage: learner_ref.py [--exact] DIR METHOD...   prints one line per method:
  "ok METHOD agree=99.98% acc=... ref=..." or "FAIL METHOD ..." ; exit 1 on any failure.
Thresholds: >= 99.9 % identical predictions and accuracies within 0.1 point (the single-precision
rule); --exact: 100 % identical predictions (the same accuracy).
"""
import json
import os
import sys

import numpy as np


def load(d, f):
    return np.load(os.path.join(d, f))


def feature_map(md, man, Z):
    if man["map"]["kind"] == "identity":
        return Z
    W = load(md, "proj_W.npy")
    return np.maximum(Z @ W.T, 0.0)


def class_means(H, y, w, C):
    S = np.zeros((C, H.shape[1])); n = np.zeros(C)
    np.add.at(S, y, H * w[:, None]); np.add.at(n, y, w)
    return S, n


def gelu(x):
    from math import erf, sqrt
    return 0.5 * x * (1.0 + np.vectorize(erf)(x / sqrt(2.0)))


def unit(X):
    n = np.linalg.norm(X, axis=1, keepdims=True)
    return X / np.where(n > 1e-12, n, 1.0)


def anacp(md, d, H, y, w, seen, Ht):
    """AnaCP as the reference code computes it (see the header of src/learners/anacp.c), replaying
    every task's statistics; the final layer from the saved replay rows of the last task."""
    Wf = load(md, "final_W.npy"); Wk = [load(md, f"head{k}_W.npy") for k in range(3)]
    reg, C = 100.0, int(max(y.max(), seen.max())) + 1
    rows_task = load(d, "rows_task.npy"); ry = load(d, "rows_labels.npy")
    class_task = np.full(C, -1); class_task[ry] = rows_task
    task = class_task[y]
    T = int(rows_task.max()) + 1
    X = unit(H)
    mean = np.zeros((C, X.shape[1])); cnt = np.zeros(C); ntot = 0.0; cov = None
    A = [np.zeros((Wf.shape[0],) * 2) for _ in Wk]; Zs = [np.zeros((C, Wf.shape[0])) for _ in Wk]
    for t in range(T):
        s = task == t
        Xt_, yt_, wt_ = X[s], y[s], w[s]
        S, n = class_means(Xt_, yt_, wt_, C)
        nz = n > 0
        mean[nz] = (mean[nz] * cnt[nz, None] + S[nz]) / (cnt[nz] + n[nz])[:, None]
        cnt += n; nt = wt_.sum(); ntot += nt
        Rc = (Xt_ - mean[yt_]) * np.sqrt(wt_)[:, None]
        cn = Rc.T @ Rc / nt
        cov = cn + 1e-4 * np.eye(len(cn)) if cov is None else (cov * ntot + cn * nt) / (ntot + nt)
        for k in range(3):
            Z = gelu(Xt_ @ Wk[k].T)
            A[k] += (Z * wt_[:, None]).T @ Z
            np.add.at(Zs[k], yt_, Z * wt_[:, None])
    lam, V = np.linalg.eigh(cov)
    Wh = V @ np.diag(1.0 / np.sqrt(lam + 1e-8)) @ V.T
    M = mean[seen]; ctr = M.mean(axis=0, keepdims=True)
    U, sv, Vt = np.linalg.svd((M - ctr) @ Wh.T, full_matrices=False)
    sp = np.where(sv > 1e-10 * sv[0], sv + 1, sv)  # zero singular values stay (arbitrary vectors)
    targets = unit((U @ np.diag(sp) @ Vt) @ Wh + ctr)
    theta_k = [np.linalg.solve(A[k] + reg * np.eye(len(A[k])), Zs[k][seen].T @ targets) for k in range(3)]
    f = lambda Q: np.mean([unit(gelu(Q @ Wk[k].T) @ theta_k[k]) for k in range(3)], axis=0)
    Xr, yr = load(md, f"replay_t{T}.npy"), load(md, f"replay_labels_t{T}.npy")
    Hr = gelu(f(Xr) @ Wf.T)
    pos = {c: i for i, c in enumerate(seen)}
    Y = np.zeros((len(yr), len(seen))); Y[np.arange(len(yr)), [pos[c] for c in yr]] = 1
    theta = np.linalg.solve(Hr.T @ Hr + reg * np.eye(Hr.shape[1]), Hr.T @ Y)
    return gelu(f(unit(Ht)) @ Wf.T) @ theta


def budget(p, n):
    """Rows GSR draws for a class of n real rows: the pairs count capped at --max-aug."""
    if n < 2:
        return 0
    k = {"all": n * (n - 1), "random": n, "literal": n * n}[p["pairs"]]
    return k if p["max_aug"] in ("all", -1) else min(k, int(p["max_aug"]))


def oversample(d, p):
    """The oversample augmenter from its definition: per class in stream order (tail classes only
    with --augment tail), budget(N_c) copies, copy k of the class's real row k mod N_c."""
    Z, y = load(d, "rows.npy"), load(d, "rows_labels.npy")
    head = set(load(d, "head_classes.npy").tolist())
    rows, labels = [], []
    for c in load(d, "class_order.npy"):
        idx = np.flatnonzero(y == c)
        if p["augment"] == "tail" and c in head:
            continue
        k = budget(p, len(idx))
        rows.append(Z[idx[np.arange(k) % len(idx)]]); labels.append(np.full(k, c))
    return np.vstack(rows), np.concatenate(labels).astype(np.int64)


def replay(d, method):
    md = os.path.join(d, method)
    man = json.load(open(os.path.join(md, "manifest.json")))
    p = json.load(open(os.path.join(d, "params.json")))
    C, tau, beta, eps = p["classes"], p["tau"], p["beta"], p["slda_eps"]
    Z, y = load(d, "rows.npy"), load(d, "rows_labels.npy")
    Zt, yt = load(d, "test_rows.npy"), load(d, "test_labels.npy")
    order = load(d, "class_order.npy")
    H, Ht = feature_map(md, man, Z), feature_map(md, man, Zt)
    w = np.ones(len(y))
    if man["augmenter"] == "oversample":
        # built here from rows.npy alone (not read from aug_rows.npy): GSR's count per class,
        # row k a copy of the class's real row k mod N_c; the saved rows must be exactly these
        A, ya = oversample(d, p)
        if A.shape != load(md, "aug_rows.npy").shape or not np.array_equal(A, load(md, "aug_rows.npy")) \
                or not np.array_equal(ya, load(md, "aug_labels.npy")):
            raise SystemExit(f"FAIL {method}: aug_rows.npy is not the copies of the real rows")
        wa = np.full(len(ya), beta)
        if len(ya):
            H = np.vstack([H, feature_map(md, man, A)]); y = np.concatenate([y, ya]); w = np.concatenate([w, wa])
    elif man["augmenter"]:
        A = load(md, "aug_rows.npy")
        ya = load(md, "aug_labels.npy")
        wa = beta * load(md, "aug_weights.npy")
        if len(ya):
            H = np.vstack([H, feature_map(md, man, A)]); y = np.concatenate([y, ya]); w = np.concatenate([w, wa])
    seen = order  # every class of the stream is seen after the last task
    L = man["learner"]
    nreal = np.bincount(load(d, "rows_labels.npy"), minlength=C).astype(float)
    if L in ("gacl", "ranpac", "air"):
        t = tau
        if L == "air":  # every row of class c weighted 1/n_c; τ / (harmonic mean of the n_c)
            cw = np.where(nreal > 0, 1.0 / np.maximum(nreal, 1), 0.0)
            w = w * cw[y]
            s = (nreal[seen] > 0).sum() / (1.0 / nreal[seen][nreal[seen] > 0]).sum()
            t = tau / s
        G = (H * w[:, None]).T @ H
        Y = np.zeros((len(y), C)); Y[np.arange(len(y)), y] = w
        Q = H.T @ Y
        W = np.linalg.solve(G + t * np.eye(G.shape[0]), Q[:, seen])
        S = Ht @ W
    elif L == "ncm":
        Sm, n = class_means(H, y, w, C)
        P = Sm[seen] / np.maximum(np.linalg.norm(Sm[seen], axis=1), 1e-300)[:, None]
        S = Ht @ P.T
    elif L == "slda":
        Sm, n = class_means(H, y, w, C)
        mu = Sm / np.maximum(n, 1e-300)[:, None]
        R = (H - mu[y]) * np.sqrt(w)[:, None]
        Lam = R.T @ R / (n.sum() - len(seen)) + eps * np.eye(H.shape[1])  # S/(N - C) + eps I
        V = np.linalg.solve(Lam, mu[seen].T)
        S = Ht @ V - 0.5 * np.sum(mu[seen].T * V, axis=0)
    elif L == "anacp":
        S = anacp(md, d, H, y, w, seen, Ht)
    else:
        raise SystemExit("learner_ref.py: no reference for learner " + L)
    pred_ref = seen[np.argmax(S, axis=1)]
    pred = load(md, "pred.npy")
    mask = np.isin(yt, seen)
    return pred, pred_ref, yt[mask]


def main():
    args = sys.argv[1:]
    exact = args[:1] == ["--exact"]
    if exact:
        args = args[1:]
    d, methods = args[0], args[1:]
    bad = 0
    for m in methods:
        pred, ref, yt = replay(d, m)
        if len(pred) != len(ref):
            print(f"FAIL {m}: {len(pred)} predictions, reference {len(ref)}"); bad += 1; continue
        agree = 100.0 * np.mean(pred == ref)
        acc, acc_ref = 100.0 * np.mean(pred == yt), 100.0 * np.mean(ref == yt)
        good = agree == 100.0 if exact else agree >= 99.9 and abs(acc - acc_ref) <= 0.1
        print(f"{'ok' if good else 'FAIL'} {m} agree={agree:.3f}% acc={acc:.3f} ref={acc_ref:.3f}")
        bad += not good
    sys.exit(1 if bad else 0)


main()
