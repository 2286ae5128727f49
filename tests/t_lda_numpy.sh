#!/bin/sh
# t_lda_numpy.sh — the klda and fecam learners against an independent NumPy re-implementation
# (tests/support/lda_ref.py; ncm and slda are in t_learners.sh) driven by --save-state: on the
# bundled sample and on --synthetic, alone and with GSR (x+gsr must equal x refitted on the real rows plus the saved
# aug_rows weighted by β), ≥ 99.9 % identical predictions and accuracies within 0.1 point; KLDA
# with a huge ridge equals the nearest class mean in its feature space; the manifest lists the
# random draws. Prints "N passed, N failed". GS_QUICK=1 (make check): the bundled sample's cases;
# --synthetic (paper scale) in make check-full only.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
REF=tests/support/lda_ref.py
if ! "$PY" -c 'import numpy' 2>/dev/null; then skip "NumPy not available (python3-numpy)"; finish; exit $?; fi

check() { # STATE METHOD LEARNER [ARGS] — NumPy agrees with the saved predictions
    out=$("$PY" "$REF" "$@" 2>&1) && ok "$2 on $(basename "$1"): $out" || { echo "$out" >"$tmp/err"; bad "$2 on $(basename "$1")"; }
}

# the bundled sample, every learner alone and with GSR (klda at 1000 features to stay quick)
"$G" run --methods klda,fecam,klda+gsr,fecam+gsr --klda-dim 1000 --beta 0.7 \
    --save-state "$tmp/sample" >/dev/null 2>"$tmp/err" && ok "run the sample" || bad "run the sample"
for L in klda fecam; do
    check "$tmp/sample" "$L" "$L"
    check "$tmp/sample" "$L+gsr" "$L"
done
"$PY" - "$tmp/sample" <<'PY' && ok "manifest.json lists rff_W (d × M), rff_b, aug rows" || bad "manifest"
import json, sys, os
m = json.load(open(os.path.join(sys.argv[1], "klda+gsr", "manifest.json")))
f = {e["file"]: e["shape"] for e in m["files"]}
assert m["learner"] == "klda" and m["augmenter"] == "gsr", m
assert f["rff_W.npy"] == [784, 1000] and f["rff_b.npy"] == [1000] and "aug_rows.npy" in f and "pred.npy" in f, f
for e in m["files"]:
    assert os.path.exists(os.path.join(sys.argv[1], "klda+gsr", e["file"])), e
assert json.load(open(os.path.join(sys.argv[1], "fecam", "manifest.json")))["augmenter"] is None
PY

# KLDA with a huge ridge: (S + reg I)^-1 -> I/reg, the nearest class mean in phi-space
"$G" run --methods klda --klda-dim 1000 --klda-reg 1e9 --save-state "$tmp/huge" >/dev/null 2>"$tmp/err" \
    && check "$tmp/huge" klda klda --euclid-phi || bad "klda huge reg run"

# paper scale (--synthetic): klda at 1000 features on every test row, fecam on every 10th
if quick; then quick_note "klda and fecam on --synthetic"; finish; exit; fi
"$G" run --synthetic --methods fecam,klda,fecam+gsr --klda-dim 1000 \
    --save-state "$tmp/synthetic" >/dev/null 2>"$tmp/err" && ok "run --synthetic" || bad "run --synthetic"
check "$tmp/synthetic" klda klda
check "$tmp/synthetic" fecam fecam --rows 10
check "$tmp/synthetic" fecam+gsr fecam --rows 10
finish
