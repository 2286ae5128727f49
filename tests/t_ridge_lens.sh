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
# export --figure ridge-lens: the filter factors of each method's G and each class's share of its
# direction u (mean row minus the mean of all rows, normalized) on the eigen-directions with
# λᵢ > τ, against NumPy's eigh of G.npy and the saved rows (pixel sample, teaching preset)
if "$G" export --sample pixels --preset teaching --methods gacl,gsr,gacl+oversample --figure ridge-lens --quiet \
        -o "$tmp/lens.svg" --data "$tmp/lens.csv" 2> "$tmp/err"; then
    if "$PY" - "$tmp/pixels" "$tmp/lens.csv" > "$tmp/ref.txt" 2>&1 <<'PY'
import csv, json, os, sys
import numpy as np
d, path = sys.argv[1:3]
tau = json.load(open(os.path.join(d, "params.json")))["tau"]
X = np.load(d + "/rows.npy"); y = np.load(d + "/rows_labels.npy")
mu = X.mean(axis=0)
classes = sorted(set(y.tolist()), key=lambda c: (-int((y == c).sum()), c))
U = np.array([(X[y == c].mean(axis=0) - mu) / np.linalg.norm(X[y == c].mean(axis=0) - mu) for c in classes])
got = {}
for r in csv.DictReader(open(path)):
    got.setdefault((r["chart"].split(":")[1].strip(), r["series"]), {})[int(float(r["x"]))] = float(r["y"])
bad = 0
for m, name in (("gacl", "GACL"), ("gsr", "GSR"), ("gacl+oversample", "GACL + Oversample")):
    lam, V = np.linalg.eigh(np.load(os.path.join(d, m, "G.npy")))
    lam, V = np.clip(lam[::-1], 0, None), V[:, ::-1]
    phi = lam / (lam + tau)
    above = ((U @ V[:, lam > tau]) ** 2).sum(axis=1)
    f = got[("filter factors", name)]; a = got[("class directions above τ", name)]
    e1 = max(abs(f[i + 1] - phi[i]) for i in range(len(phi)))
    e2 = max(abs(a[k + 1] - above[k]) for k in range(len(classes)))
    good = len(f) == len(phi) and len(a) == len(classes) and e1 < 1e-8 and e2 < 1e-8
    print(("ok" if good else "FAIL"), f"{m}: {len(phi)} filter factors (max diff {e1:.1e}), "
          f"{len(classes)} classes' share above τ (max diff {e2:.1e}; tail median {np.median(above[3:]):.3f})")
    bad += not good
sys.exit(1 if bad else 0)
PY
    then while read -r l; do ok "ridge-lens figure: $l"; done < "$tmp/ref.txt"
    else cp "$tmp/ref.txt" "$tmp/err"; bad "ridge-lens figure: NumPy disagrees"; fi
else bad "export --figure ridge-lens"; fi
# the spectrum's τ line: drawn at G + τI's 2τ, where G's eigenvalue equals τ; the GACL and GSR
# eigenvalues above it are NumPy's count of λᵢ(G) > τ (the directions the ridge keeps over half)
if "$G" export --sample pixels --preset teaching --figure spectrum --quiet -o "$tmp/spec.svg" --data "$tmp/spec.csv" 2> "$tmp/err"; then
    if "$PY" - "$tmp/pixels" "$tmp/spec.csv" > "$tmp/ref.txt" 2>&1 <<'PY'
import csv, json, os, sys
import numpy as np
d, path = sys.argv[1:3]
tau = json.load(open(os.path.join(d, "params.json")))["tau"]
ser = {}
for r in csv.DictReader(open(path)):
    ser.setdefault(r["series"], []).append(float(r["y"]))
line = ser.get("λ(G) = τ", [])
bad = 0
for m, name in (("gacl", "GACL"), ("gsr", "GSR")):
    lam = np.linalg.eigvalsh(np.load(os.path.join(d, m, "G.npy")))
    want = int((lam > tau).sum())
    got = sum(1 for v in ser[name] if line and v > line[0])
    good = len(line) == 2 and all(abs(v - 2 * tau) < 1e-12 * tau for v in line) and got == want
    print(("ok" if good else "FAIL"), f"{m}: line at {line[:1]} (2τ = {2 * tau}), {got} eigenvalues above it, NumPy λ(G) > τ: {want}")
    bad += not good
sys.exit(1 if bad else 0)
PY
    then while read -r l; do ok "spectrum τ line: $l"; done < "$tmp/ref.txt"
    else cp "$tmp/ref.txt" "$tmp/err"; bad "spectrum τ line: NumPy disagrees"; fi
else bad "export --figure spectrum"; fi
finish
