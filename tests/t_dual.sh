#!/bin/sh
# t_dual.sh — ridge tasks solved in the N-dimensional dual against the D×D primal (GS_DUAL=off),
# for gacl+gsr, air, air+gsr and ranpac+gsr on the bundled sample:
#  1. D = 2048: the first tasks (fewer rows than D) go to the dual, later ones to the primal (E
#     built from the rows the dual kept); every task's accuracies within 0.1 point and its
#     spectral numbers to 1e-7 (λ_max by Lanczos to 1e-10 in both); the last task's W to 1e-9,
#     its predictions ≥ 99.9 % identical;
#  2. --max-aug 20 (2035 rows < D) with the dual forced (GS_DUAL=on): the last task's W against
#     NumPy's (G + τ_eff I)⁻¹Q on the primal run's G and Q, the spectrum from the kernel against
#     NumPy's eigenvalues of G (and exactly τ_eff D − N times), W not bit-identical to the
#     primal's (another computation), G from the kept rows, and tests/learner_ref.py's replay;
#  3. in single precision (the default at this D: rows, D×D matrices, the dual's kernel and factor
#     in float) against case 1's double primal: predictions ≥ 99.9 % identical, accuracies within
#     0.1 point;
#  4. the dual in float throughout (GS_DUAL=on, --max-aug 20): its W solves the saved G and Q
#     (NumPy, double) to float accuracy; at τ = 1 (cond(G + τI) > 1e5 from task 2 on) those tasks
#     are factored in double (the kernel recomputed in double from the float rows) and say so, and
#     agree with the double run (accuracies within 0.1 point, predictions ≥ 99.9 % identical).
# GS_QUICK=1 (make check): case 2 alone (the dual's last task against NumPy, and the replay);
# make check-full runs all four.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
M=gacl+gsr,air,air+gsr,ranpac+gsr
args="run --quiet --format csv --expand 2048 --projection gaussian --tau 10000 --methods $M --precision double"

if quick; then quick_note "cases 1, 3 and 4 (dual then primal at D = 2048, single precision, the float dual and its fallback)"; else
if GS_DUAL=off "$G" $args --save-state "$tmp/p" >"$tmp/p.csv" 2>"$tmp/err" &&
   "$G" $args --save-state "$tmp/d" >"$tmp/d.csv" 2>"$tmp/err"; then ok "runs at D = 2048, primal and default"
else bad "runs at D = 2048"; fi

if "$PY" - "$tmp" <<'PYEOF' 2>"$tmp/err"
import csv, sys
import numpy as np
t = sys.argv[1]
def rows(f):
    return {(r["method"], r["task"]): r for r in csv.DictReader(open(f))}
P, Dd = rows(f"{t}/p.csv"), rows(f"{t}/d.csv")
assert P.keys() == Dd.keys() and len(P) == 40, (len(P), len(Dd))
for k, a in P.items():
    b = Dd[k]
    for c in ("acc", "head_acc", "tail_acc"):
        if a[c] or b[c]:
            assert abs(float(a[c]) - float(b[c])) <= 0.1, (k, c, a[c], b[c])
    for c in ("stable_rank", "cond", "erank", "lambda_max", "lambda_min"):
        if not a[c] and not b[c]:
            continue
        x, y = float(a[c]), float(b[c])
        assert abs(x - y) <= 1e-7 * abs(x), (k, c, x, y)
for m in ("gacl+gsr", "air", "air+gsr", "ranpac+gsr"):
    Wp, Wd = np.load(f"{t}/p/{m}/W.npy"), np.load(f"{t}/d/{m}/W.npy")
    assert np.abs(Wp - Wd).max() <= 1e-9 * np.abs(Wp).max(), (m, np.abs(Wp - Wd).max(), np.abs(Wp).max())
    pp, pd = np.load(f"{t}/p/{m}/pred.npy"), np.load(f"{t}/d/{m}/pred.npy")
    assert np.mean(pp == pd) >= 0.999, (m, np.mean(pp == pd))
PYEOF
then ok "D = 2048, dual then primal: accuracies, spectra per task, last W and predictions agree"
else bad "dual then primal against the primal"; fi

fi
args2="$args --max-aug 20"
if GS_DUAL=off "$G" $args2 --save-state "$tmp/p2" >"$tmp/p2.csv" 2>"$tmp/err" &&
   GS_DUAL=on "$G" $args2 --save-state "$tmp/d2" >"$tmp/d2.csv" 2>"$tmp/err"; then ok "runs with --max-aug 20"
else bad "runs with --max-aug 20"; fi

if "$PY" - "$tmp" <<'PYEOF' 2>"$tmp/err"
import json, sys
import numpy as np
t = sys.argv[1]
N_real = len(np.load(f"{t}/p2/rows.npy"))
for m in ("gacl+gsr", "air", "air+gsr", "ranpac+gsr"):
    p, d = f"{t}/p2/{m}", f"{t}/d2/{m}"
    man = json.load(open(f"{p}/manifest.json"))
    tau = man["tau_eff_last"]
    G, Q = np.load(f"{p}/G.npy"), np.load(f"{p}/Q.npy")
    D = G.shape[0]
    Wref = np.linalg.solve(G + tau * np.eye(D), Q)
    Wd, Wp = np.load(f"{d}/W.npy"), np.load(f"{p}/W.npy")
    scale = np.abs(Wref).max()
    assert np.abs(Wd - Wref).max() <= 1e-9 * scale, (m, "W", np.abs(Wd - Wref).max(), scale)
    assert not np.array_equal(Wd, Wp), (m, "the dual run gave the primal's W bit for bit")
    Gd = np.load(f"{d}/G.npy")
    assert np.abs(Gd - G).max() <= 1e-10 * np.abs(G).max(), (m, "G")
    N = N_real + (len(np.load(f"{p}/aug_rows.npy")) if man["augmenter"] else 0)
    assert N < D, (m, N, D)
    ev = np.load(f"{d}/eigvals.npy")
    ref = np.sort(np.linalg.eigvalsh(G))[::-1] + tau
    assert np.abs(ev - ref).max() <= 1e-9 * ref[0], (m, "eig", np.abs(ev - ref).max(), ref[0])
    assert np.sum(ev == tau) >= D - N, (m, "exact τ", np.sum(ev == tau), D - N)
    assert np.all(np.diff(ev) <= 0), (m, "not descending")
PYEOF
then ok "dual last task: W against NumPy's solve, eigenvalues from K against NumPy's, D − N exact τ"
else bad "dual last task against NumPy"; fi

if ! quick; then
if "$G" $(echo "$args" | sed 's/--precision double/--precision single/') --save-state "$tmp/s" >"$tmp/s.csv" 2>"$tmp/err" &&
   "$PY" - "$tmp" <<'PYEOF' 2>"$tmp/err"
import csv, sys
import numpy as np
t = sys.argv[1]
P = {(r["method"], r["task"]): r for r in csv.DictReader(open(f"{t}/p.csv"))}
S = {(r["method"], r["task"]): r for r in csv.DictReader(open(f"{t}/s.csv"))}
assert P.keys() == S.keys()
for k, a in P.items():
    for c in ("acc", "head_acc", "tail_acc"):
        if a[c] or S[k][c]:
            assert abs(float(a[c]) - float(S[k][c])) <= 0.1, (k, c, a[c], S[k][c])
for m in ("gacl+gsr", "air", "air+gsr", "ranpac+gsr"):
    pp, ps = np.load(f"{t}/p/{m}/pred.npy"), np.load(f"{t}/s/{m}/pred.npy")
    assert np.mean(pp == ps) >= 0.999, (m, np.mean(pp == ps))
PYEOF
then ok "single precision with the dual: agrees with the double primal"
else bad "single precision with the dual"; fi

s2=$(echo "$args2" | sed 's/--precision double/--precision single/')
if GS_DUAL=on "$G" $s2 --save-state "$tmp/s2" >"$tmp/s2.csv" 2>"$tmp/err" &&
   "$PY" - "$tmp" <<'PYEOF' 2>"$tmp/err"
import csv, json, sys
import numpy as np
t = sys.argv[1]
assert all(r["precision"] == "single" for r in csv.DictReader(open(f"{t}/s2.csv")))
for m in ("gacl+gsr", "air", "air+gsr", "ranpac+gsr"):
    d = f"{t}/s2/{m}"
    tau = json.load(open(f"{d}/manifest.json"))["tau_eff_last"]
    G, Q, W = np.load(f"{d}/G.npy"), np.load(f"{d}/Q.npy"), np.load(f"{d}/W.npy")
    Wr = np.linalg.solve(G + tau * np.eye(len(G)), Q)
    err = np.abs(W - Wr).max() / np.abs(Wr).max()
    assert err < 1e-3, (m, err)
PYEOF
then ok "the dual in float: W solves the saved G and Q (NumPy) to float accuracy"
else bad "the dual in float against NumPy"; fi

# τ = 1: cond(G + τI) > 1e5 from task 2 on, so those tasks fall back to a double factorization
f1=$(echo "$args2" | sed 's/--tau 10000/--tau 1/; s/--methods [^ ]*/--methods gacl,gacl+gsr/')
if GS_DUAL=on "$G" $f1 --save-state "$tmp/fd" >"$tmp/fd.csv" 2>"$tmp/err" &&
   GS_DUAL=on "$G" $(echo "$f1" | sed 's/--precision double/--precision single/') --save-state "$tmp/fs" >"$tmp/fs.csv" 2>"$tmp/err" &&
   "$PY" - "$tmp" <<'PYEOF' 2>"$tmp/err"
import csv, sys
import numpy as np
t = sys.argv[1]
D = list(csv.DictReader(open(f"{t}/fd.csv")))
S = list(csv.DictReader(open(f"{t}/fs.csv")))
assert len(D) == len(S) == 20
fb = 0
for a, b in zip(D, S):
    assert (a["method"], a["task"]) == (b["method"], b["task"])
    want = "double" if float(b["cond"]) > 1e5 else "single"
    assert b["precision"] == want, (b["method"], b["task"], b["cond"], b["precision"])
    fb += want == "double"
    for c in ("acc", "head_acc", "tail_acc"):
        if a[c] or b[c]:
            assert abs(float(a[c]) - float(b[c])) <= 0.1 + 1e-9, (a["method"], a["task"], c, a[c], b[c])
assert 0 < fb < 20, fb
for m in ("gacl", "gacl+gsr"):
    pd, ps = np.load(f"{t}/fd/{m}/pred.npy"), np.load(f"{t}/fs/{m}/pred.npy")
    assert np.mean(pd == ps) >= 0.999, (m, np.mean(pd == ps))
PYEOF
then ok "the dual in float at τ = 1: ill-conditioned tasks factored in double, labelled, agree with double"
else bad "the dual's fallback to double"; fi

fi
if "$PY" tests/learner_ref.py "$tmp/d2" gacl+gsr air air+gsr ranpac+gsr >"$tmp/err" 2>&1; then
    ok "dual run: predictions agree with the NumPy replay (learner_ref.py)"
else bad "learner_ref.py on the dual run"; fi
finish
