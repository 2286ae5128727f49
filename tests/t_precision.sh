#!/bin/sh
# --precision: single precision agrees with double (at least 99.9 % identical test predictions,
# compared row by row from --save-state's pred.npy, accuracies within 0.1 point), on the synthetic
# set and on the bundled sample, for every ridge learner (gacl, gsr, air; ranpac shares gacl's
# space under --expand); its W solves the saved G and Q (NumPy, double); it is labelled in every
# format; a task too ill-conditioned for float is factored in double and says so; --precision
# double, and auto at the default D = 768, give the double numbers bit for bit; the schedule (one
# worker or two) does not change single's numbers; export's τ sweep and collapse agree in single.
# GS_QUICK=1 (make check): the labels, the fallback to double and the refusals; the agreement at
# D = 1500, the schedule and export's (D = 1100 and 1200) in make check-full only.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3

# D = 768: auto is double; --precision double is the same output (the seconds column aside)
"$G" run --synthetic --quiet --format csv >"$tmp/a.csv" 2>"$tmp/err" &&
"$G" run --synthetic --quiet --format csv --precision double >"$tmp/b.csv" 2>>"$tmp/err"
if [ $? -eq 0 ] && cut -d, -f1-13 "$tmp/a.csv" >"$tmp/a13" && cut -d, -f1-13 "$tmp/b.csv" >"$tmp/b13" &&
   cmp -s "$tmp/a13" "$tmp/b13" && [ "$(wc -l <"$tmp/a13")" -gt 10 ] && ! grep -q precision "$tmp/a.csv"; then
    ok "D = 768: --precision double and auto give the same numbers (double)"; else bad "D = 768 double = auto"; fi
"$G" run --synthetic --quiet --format json --methods gacl --tasks 2 >"$tmp/j" 2>"$tmp/err"
if grep -q '"precision": "double"' "$tmp/j"; then ok "JSON params: precision double at D = 768"; else bad "JSON precision double"; fi

if quick; then quick_note "single against double at D = 1500 (synthetic, sample)"; else
# D = 1500: single against double, on the synthetic set and the bundled sample
agree() { # $1: label, then the data arguments
    lab=$1; shift
    for p in single double; do
        "$G" run "$@" --quiet --format csv --expand 1500 --projection gaussian --tau 10000 \
            --methods gacl,gsr,air --precision $p --save-state "$tmp/$lab.$p" >"$tmp/$lab.$p.csv" 2>"$tmp/err" || return 1
    done
    "$PY" - "$tmp" "$lab" <<'PYEOF' 2>"$tmp/err"
import csv, sys
import numpy as np
t, lab = sys.argv[1], sys.argv[2]
rows = {p: list(csv.DictReader(open(f"{t}/{lab}.{p}.csv"))) for p in ("single", "double")}
assert all(r["precision"] == "single" for r in rows["single"]), "single run not labelled single in every row"
assert "precision" not in rows["double"][0], "a double run has a precision column"
for a, b in zip(rows["single"], rows["double"]):
    for k in ("acc", "head_acc", "tail_acc"):
        if a[k] and abs(float(a[k]) - float(b[k])) > 0.1:
            raise SystemExit(f"{a['method']} task {a['task']}: {k} {a[k]} (single) vs {b[k]} (double)")
for m in ("gacl", "gsr", "air"):
    ps = np.load(f"{t}/{lab}.single/{m}/pred.npy"); pd = np.load(f"{t}/{lab}.double/{m}/pred.npy")
    same = np.mean(ps == pd)
    assert len(ps) == len(pd) and same >= 0.999, f"{m}: {same:.5f} of the predictions agree"
    # single's W solves its own (G + τI) W = Q to float accuracy (NumPy in double)
    G = np.load(f"{t}/{lab}.single/{m}/G.npy"); Q = np.load(f"{t}/{lab}.single/{m}/Q.npy")
    W = np.load(f"{t}/{lab}.single/{m}/W.npy")
    tau = 10000.0 if m != "air" else None
    if tau is not None:
        Wr = np.linalg.solve(G + tau * np.eye(len(G)), Q)
        err = np.abs(W - Wr).max() / np.abs(Wr).max()
        assert err < 1e-3, f"{m}: W off by {err:.2e} (relative)"
print("ok")
PYEOF
}
if agree synth --synthetic; then ok "synthetic, D = 1500: single agrees with double (predictions, accuracies, W)"
else bad "synthetic single vs double"; fi
if agree sample; then ok "bundled sample, D = 1500: single agrees with double"; else bad "sample single vs double"; fi

fi

# labels: the table says single precision; a tiny τ (cond > 1e5) is factored in double, and says so
"$G" run --synthetic --quiet --expand 1500 --tau 1 --methods gacl --tasks 4 --precision single >"$tmp/t" 2>"$tmp/err" &&
"$G" run --synthetic --quiet --expand 1500 --tau 1 --methods gacl --tasks 4 --precision single --format json >"$tmp/tj" 2>>"$tmp/err"
if [ $? -eq 0 ] && grep -q '^precision: single' "$tmp/t" && grep -q '^factored in double (cond' "$tmp/t" &&
   grep -q '"factored_in": "double"' "$tmp/tj" && grep -q '"precision": "single"' "$tmp/tj"; then
    ok "single is labelled; an ill-conditioned task falls back to double and says so"; else bad "labels / fallback"; fi
"$G" run --synthetic --quiet --expand 1500 --tau 1 --methods gacl --tasks 4 --precision double --format csv >"$tmp/d1" 2>"$tmp/err" &&
"$G" run --synthetic --quiet --expand 1500 --tau 1 --methods gacl --tasks 4 --precision single --format csv >"$tmp/s1" 2>>"$tmp/err"
if [ $? -eq 0 ] && awk -F, 'NR == FNR && FNR > 1 {a[$2] = $6; next} FNR > 1 && $2 > 1 {d = $6 - a[$2]; if (d < 0) d = -d; if (d > 0.1 || $15 != "double") bad = 1} END {exit bad}' "$tmp/d1" "$tmp/s1"; then
    ok "fallback tasks match double (accuracy within 0.1 point, CSV says double)"; else bad "fallback accuracies"; fi

if quick; then quick_note "the schedule (one worker or two) in single; export single against double"; else
# single precision keeps the engine's rule: the numbers do not depend on the schedule
a="run --synthetic --quiet --format csv --precision single --expand 1200 --tau 100 --tasks 4 --methods gacl,gsr,air"
GS_THREADS=1 "$G" $a >"$tmp/t1" 2>"$tmp/err" && GS_THREADS=2 "$G" $a >"$tmp/t2" 2>>"$tmp/err"
if [ $? -eq 0 ] && cut -d, -f1-13 "$tmp/t1" >"$tmp/t1c" && cut -d, -f1-13 "$tmp/t2" >"$tmp/t2c" && cmp -s "$tmp/t1c" "$tmp/t2c" &&
   [ "$(wc -l <"$tmp/t1c")" -eq 13 ]; then ok "single: one worker and two give the same numbers"; else bad "single: schedule changes numbers"; fi

# export computes in single precision too: its τ sweep (test rows read as float) and collapse
# (class means of the float rows) agree with double's, and the figure says single precision
xp() { # $1 figure, $2 precision
    "$G" export --synthetic --quiet --expand 1100 --projection gaussian --tau 10000 --tasks 3 --figure "$1" \
        -o "$tmp/$1.$2.png" --csv "$tmp/$1.$2.csv" --precision "$2" >/dev/null 2>>"$tmp/err"
}
: >"$tmp/err"
if xp tau-sweep single && xp tau-sweep double && xp collapse single && xp collapse double &&
   "$PY" - "$tmp" <<'PYEOF' 2>>"$tmp/err"
import csv, sys
t = sys.argv[1]
def load(f):
    return [(r["chart"], r["series"], r["x"], float(r["y"])) for r in csv.DictReader(open(f"{t}/{f}"))]
for fig, tol, rel in (("tau-sweep", 0.1, False), ("collapse", 1e-4, True)):
    a, b = load(f"{fig}.single.csv"), load(f"{fig}.double.csv")
    assert len(a) == len(b) > 10, f"{fig}: {len(a)} vs {len(b)} values"
    for x, y in zip(a, b):
        assert x[:3] == y[:3], f"{fig}: rows differ {x} {y}"
        d = abs(x[3] - y[3]) / (abs(y[3]) if rel else 1)
        assert d <= tol, f"{fig} {x[:3]}: {x[3]} (single) vs {y[3]} (double)"
PYEOF
then ok "export --precision single: τ sweep within 0.1 point and collapse energies within 1e-4 of double"
else bad "export single vs double"; fi
if grep -q "single (ridge learners in float" "$tmp/collapse.single.png" && ! grep -q "ridge learners in float" "$tmp/collapse.double.png"
then ok "a single-precision figure says so (text chunk), a double one does not"; else bad "figure precision label"; fi

fi

# --precision is the TUI's, run's and export's: refused elsewhere, and a bad value is one clear line
"$G" sweep --synthetic --param tau=1,10 --precision single >/dev/null 2>"$tmp/err"
if [ $? -eq 2 ] && one_line "--precision"; then ok "sweep refuses --precision"; else bad "sweep --precision"; fi
"$G" run --synthetic --precision half >/dev/null 2>"$tmp/err"
if [ $? -eq 2 ] && one_line "--precision: unknown value 'half'"; then ok "bad --precision value refused"; else bad "bad value"; fi
finish
