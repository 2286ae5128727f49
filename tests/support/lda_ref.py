"""NumPy re-implementation of the klda and fecam learners (ncm and slda: tests/learner_ref.py), driven by a --save-state
folder, written from the definitions (not from the C code): it refits the learner on every
training row (rows.npy) plus, when the method has an augmenter, its synthetic rows (aug_rows.npy)
weighted by beta, predicts the seen test rows and compares with the method's pred.npy.

usage: lda_ref.py STATE METHOD LEARNER [--rows K] [--euclid-phi]
  --rows K      compare on every K-th seen test row only (FeCAM's per-class solves are slow)
  --euclid-phi  instead of KLDA itself, the nearest class mean in feature space (Euclidean on
                phi), the limit of KLDA when its ridge grows without bound
Prints "agree F acc A_c A_ref"; exits 1 unless >= 99.9 % of predictions agree and the two
accuracies are within 0.1 point.
"""
import json
import os
import sys

import numpy as np


def load(state, method):
    P = json.load(open(os.path.join(state, "params.json")))
    X = np.load(os.path.join(state, "rows.npy"))
    y = np.load(os.path.join(state, "rows_labels.npy"))
    w = np.ones(len(y))
    mdir = os.path.join(state, method)
    aug = os.path.join(mdir, "aug_rows.npy")
    if os.path.exists(aug):
        A = np.load(aug)
        X = np.vstack([X, A])
        y = np.concatenate([y, np.load(os.path.join(mdir, "aug_labels.npy"))])
        w = np.concatenate([w, P["beta"] * np.load(os.path.join(mdir, "aug_weights.npy"))])
    pred = np.load(os.path.join(mdir, "pred.npy"))
    Xt = np.load(os.path.join(state, "test_rows.npy"))[: len(pred)]
    yt = np.load(os.path.join(state, "test_labels.npy"))[: len(pred)]
    classes = np.load(os.path.join(state, "class_order.npy"))
    return P, X, y, w, Xt, yt, pred, classes, mdir


def weighted_stats(X, y, w, classes):
    """class means and the pooled within-class scatter sum_i w_i (x_i - mu)(x_i - mu)^T"""
    mus, S, N = [], np.zeros((X.shape[1], X.shape[1])), 0.0
    for c in classes:
        m = y == c
        Xc, wc = X[m], w[m]
        mu = np.average(Xc, axis=0, weights=wc)
        Z = Xc - mu
        S += (Z * wc[:, None]).T @ Z
        N += wc.sum()
        mus.append(mu)
    return np.array(mus), S, N


def mahalanobis_argmin(Xt, M, Sigma):
    """argmin_c (x - mu_c)^T Sigma^-1 (x - mu_c), through a whitening by Sigma^-1/2"""
    L = np.linalg.cholesky(Sigma)
    Li = np.linalg.inv(L)
    Zt, Zm = Xt @ Li.T, M @ Li.T
    d = (Zt ** 2).sum(1)[:, None] - 2 * Zt @ Zm.T + (Zm ** 2).sum(1)[None, :]
    return d.argmin(1)


def rff(X, W, b):
    return np.sqrt(2.0 / W.shape[1]) * np.cos(X @ W + b)


def tukey(X, beta):
    return np.sign(X) * np.abs(X) ** beta


def fecam_dist(R, wc, Xt, alpha1):
    mu = np.average(R, axis=0, weights=wc)
    W = wc.sum()
    if W <= 1:
        return ((Xt - mu) ** 2).sum(1)
    Z = R - mu
    cov = (Z * wc[:, None]).T @ Z / (W - 1)
    if np.all(wc == 1) and len(R) > 1:
        assert np.allclose(cov, np.cov(R.T)), "weighted covariance != np.cov"
    if np.trace(cov) <= 0:
        return ((Xt - mu) ** 2).sum(1)
    cov = cov + alpha1 * np.mean(np.diag(cov)) * np.eye(len(mu))
    sd = np.sqrt(np.diag(cov))
    N = cov / np.outer(sd, sd)
    V = Xt - mu
    return np.einsum("ij,ij->i", V, np.linalg.solve(N, V.T).T)


def main():
    state, method, learner = sys.argv[1:4]
    every = int(sys.argv[sys.argv.index("--rows") + 1]) if "--rows" in sys.argv else 1
    P, X, y, w, Xt, yt, pred, classes, mdir = load(state, method)
    sel = np.arange(0, len(pred), every)
    Xt, yt, pred = Xt[sel], yt[sel], pred[sel]
    C = len(classes)
    if learner == "klda":
        W, b = np.load(os.path.join(mdir, "rff_W.npy")), np.load(os.path.join(mdir, "rff_b.npy"))
        assert W.shape == (X.shape[1], P["klda_dim"]) and b.shape == (P["klda_dim"],)
        F, Ft = rff(X, W, b), rff(Xt, W, b)
        M, S, _ = weighted_stats(F, y, w, classes)
        if "--euclid-phi" in sys.argv:
            d = (Ft ** 2).sum(1)[:, None] - 2 * Ft @ M.T + (M ** 2).sum(1)[None, :]
            ref = classes[d.argmin(1)]
        else:
            ref = classes[mahalanobis_argmin(Ft, M, S + P["klda_reg"] * np.eye(F.shape[1]))]
    elif learner == "fecam":
        R, Rt = tukey(X, P["fecam_tukey"]), tukey(Xt, P["fecam_tukey"])
        D = np.stack([fecam_dist(R[y == c], w[y == c], Rt, P["fecam_alpha"]) for c in classes], 1)
        ref = classes[D.argmin(1)]
    else:
        sys.exit("unknown learner " + learner)
    agree = np.mean(ref == pred)
    acc_c, acc_r = 100 * np.mean(pred == yt), 100 * np.mean(ref == yt)
    print("agree %.5f acc %.3f %.3f (%d rows)" % (agree, acc_c, acc_r, len(pred)))
    sys.exit(0 if agree >= 0.999 and abs(acc_c - acc_r) <= 0.1 else 1)


if __name__ == "__main__":
    main()
