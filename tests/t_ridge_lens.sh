#!/bin/sh
# t_ridge_lens.sh — the ridge lens: the filter factors fᵢ = λᵢ/(λᵢ + τ) (--save-state
# filter_factors.npy) and the effective degrees of freedom df(τ) = Σ fᵢ (the last CSV column and
# "df" in JSON, where the exact spectrum is known) against NumPy: from the saved eigenvalues of
# G + τI (eigvals.npy − τ) and independently from np.linalg.eigvalsh(G.npy), on the pixel sample
# at the teaching preset (τ = 10) and on --synthetic (τ = 0.01), GACL, GSR and GACL+oversample.
. "$(dirname "$0")/lib.sh"
export GSRSCOPE_ASSETS="$PWD/assets"
PY=/usr/bin/python3
for set in "pixels --sample pixels --preset teaching" "synthetic --synthetic"; do
    name=${set%% *}; args=${set#* }
    if "$G" run $args --methods gacl,gsr,gacl+oversample --format csv --save-state "$tmp/$name" > "$tmp/$name.csv" 2> "$tmp/err" \
        && "$G" run $args --methods gacl,gsr,gacl+oversample --format json > "$tmp/$name.json" 2> "$tmp/err"; then
        ok "$name: run"
    else bad "$name: run"; continue; fi
    if "$PY" - "$tmp/$name" "$tmp/$name.csv" "$tmp/$name.json" > "$tmp/ref.txt" 2>&1 <<'PY'
import csv, json, os, sys
import numpy as np
d, c, j = sys.argv[1:4]
tau = json.load(open(os.path.join(d, "params.json")))["tau"]
rows = {(r["method"], int(r["task"])): r for r in csv.DictReader(open(c))}
js = {m["name"]: m for m in json.load(open(j))["methods"]}
T = max(t for _, t in rows)
bad = 0
for m in ("gacl", "gsr", "gacl+oversample"):
    lam = np.load(os.path.join(d, m, "eigvals.npy")) - tau
    lam2 = np.linalg.eigvalsh(np.load(os.path.join(d, m, "G.npy")))[::-1]
    f = np.clip(lam, 0, None) / (np.clip(lam, 0, None) + tau)
    f2 = np.clip(lam2, 0, None) / (np.clip(lam2, 0, None) + tau)
    ff = np.load(os.path.join(d, m, "filter_factors.npy"))
    df_csv, df_js = float(rows[(m, T)]["df"]), js[m]["tasks"][T - 1]["df"]
    good = (np.abs(ff - f).max() < 1e-12 and np.abs(ff - f2).max() < 1e-8 and abs(df_csv - f.sum()) < 1e-8 * f.sum()
            and abs(df_js - f.sum()) < 1e-10 * f.sum() and abs(f2.sum() - df_js) < 1e-6 * f.sum())
    print(("ok" if good else "FAIL"), m, f"df {df_csv:.6f} (NumPy {f.sum():.6f}, from G {f2.sum():.6f}); "
          f"filter factors max diff {np.abs(ff - f).max():.1e}, from G {np.abs(ff - f2).max():.1e}")
    bad += not good
    # where the spectrum is not exact, df is empty (CSV) / null (JSON), never a number
    for t in range(1, T):
        r = rows[(m, t)]
        if r["erank"] == "" and (r["df"] != "" or js[m]["tasks"][t - 1]["df"] is not None):
            print("FAIL", m, "task", t, "df without the exact spectrum"); bad += 1
sys.exit(1 if bad else 0)
PY
    then while read -r l; do ok "$name: $l"; done < "$tmp/ref.txt"
    else cp "$tmp/ref.txt" "$tmp/err"; bad "$name: NumPy disagrees"; fi
done
finish
