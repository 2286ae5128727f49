#!/usr/bin/env python3
"""learner_ref.py — an independent NumPy implementation of gsrscope's learners, driven by a
`gsrscope run --save-state DIR` folder: the rows before any feature map (rows.npy, test_rows.npy),
each method's manifest.json, its random draws (proj_W.npy) and its augmenter's rows
(aug_rows.npy, aug_labels.npy, aug_weights.npy). For every method it replays the whole stream
(real rows, plus each synthetic row with weight β·ω in every statistic), predicts the test rows
of the seen classes after the last task and compares with the method's pred.npy.

Usage: learner_ref.py DIR METHOD...   prints one line per method:
  "ok METHOD agree=99.98% acc=... ref=..." or "FAIL METHOD ..." ; exit 1 on any failure.
Thresholds: >= 99.9 % identical predictions and accuracies within 0.1 point.
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
    if man["augmenter"]:
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
        Sig = R.T @ R / n.sum()
        Lam = (1 - eps) * Sig + eps * np.eye(H.shape[1])
        V = np.linalg.solve(Lam, mu[seen].T)
        S = Ht @ V - 0.5 * np.sum(mu[seen].T * V, axis=0)
    else:
        raise SystemExit("learner_ref.py: no reference for learner " + L)
    pred_ref = seen[np.argmax(S, axis=1)]
    pred = load(md, "pred.npy")
    mask = np.isin(yt, seen)
    return pred, pred_ref, yt[mask]


def main():
    d, methods = sys.argv[1], sys.argv[2:]
    bad = 0
    for m in methods:
        pred, ref, yt = replay(d, m)
        if len(pred) != len(ref):
            print(f"FAIL {m}: {len(pred)} predictions, reference {len(ref)}"); bad += 1; continue
        agree = 100.0 * np.mean(pred == ref)
        acc, acc_ref = 100.0 * np.mean(pred == yt), 100.0 * np.mean(ref == yt)
        good = agree >= 99.9 and abs(acc - acc_ref) <= 0.1
        print(f"{'ok' if good else 'FAIL'} {m} agree={agree:.3f}% acc={acc:.3f} ref={acc_ref:.3f}")
        bad += not good
    sys.exit(1 if bad else 0)


main()
