#!/bin/sh
# t_synth_calibration.sh — --synthetic stays calibrated against the bundled MobileNetV2 embeddings.
# README's calibration table is what tools/synth_calibration.sh prints now (geometry by NumPy on
# the files `gsrscope synth` writes, independent of gsrscope's own numbers; head and tail accuracy
# from `run --format json` at the defaults): any drift of the generator changes a number and fails
# here. And the synthetic statistics stay near the embeddings', with these tolerances:
#   top eigenvalue share within 1.5 points; λ2 and λ11 shares within a factor 1.5; mean cosine
#   within 0.02; balanced ridge probe within 3 points (never the 100 % of separable classes);
#   heads not perfect (GACL's and GSR's head accuracy below 95 %); GSR's tail at least 8 points
#   above GACL's at the defaults.
# bench/numpy_full.py generates the same model (the same weights as src/data/synth.c, checked) with
# NumPy's random numbers and runs the whole stream: its accuracies agree with `run --synthetic`
# within its stated 5 points.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
GSRSCOPE="$G" TMPDIR="$tmp" sh tools/synth_calibration.sh > "$tmp/cal.md" 2> "$tmp/err" &&
    GSRSCOPE="$G" TMPDIR="$tmp" sh tools/synth_calibration.sh --format json > "$tmp/cal.json" 2> "$tmp/err" &&
    ok "tools/synth_calibration.sh runs" || bad "tools/synth_calibration.sh"
sed -n '/<!-- calibration -->/,/<!-- \/calibration -->/p' README.md | grep '^|' > "$tmp/readme.md"
if [ -s "$tmp/readme.md" ] && cmp -s "$tmp/cal.md" "$tmp/readme.md"; then ok "README's calibration table is the tool's output"
else bad "README's calibration table differs from the tool's output:"; diff "$tmp/readme.md" "$tmp/cal.md" | sed 's/^/#   /'; fi
"$PY" - "$tmp/cal.json" > "$tmp/err" 2>&1 <<'PY' && ok "synthetic statistics near the embeddings', heads imperfect, GSR's tail above GACL's" || bad "synthetic set drifted from the embeddings"
import json, sys
r = json.load(open(sys.argv[1]))
e, s = r["mobilenetv2"], r["synthetic"]
assert (s["classes"], s["dim"], s["train_rows"]) == (100, 768, 50000), s
assert abs(s["top"] - e["top"]) < 0.015, ("top", s["top"], e["top"])
for k in ("l2", "l11"):
    assert 1 / 1.5 < s[k] / e[k] < 1.5, (k, s[k], e[k])
assert abs(s["cos"] - e["cos"]) < 0.02, ("cos", s["cos"], e["cos"])
assert abs(s["probe"] - e["probe"]) < 3, ("probe", s["probe"], e["probe"])
assert s["gacl_head"] < 95 and s["gsr_head"] < 95, ("heads", s["gacl_head"], s["gsr_head"])
assert s["gsr_tail"] - s["gacl_tail"] >= 8, ("tails", s["gacl_tail"], s["gsr_tail"])
PY
"$PY" - > "$tmp/err" 2>&1 <<'PY' && ok "bench/numpy_full.py uses src/data/synth.c's weights" || bad "bench/numpy_full.py's weights differ from src/data/synth.c's"
import re, sys
sys.path.insert(0, "bench")
import numpy_full as nf
c = dict(re.findall(r"^#define SYN_([A-Z_]+) +([0-9.]+)", open("src/data/synth.c").read(), re.M))
names = {"A": "SYN_A", "B": "SYN_B", "K": "K", "T_DECAY": "T_DECAY", "SHARED": "SHARED", "KAPPA": "KAPPA",
         "ZETA": "ZETA", "SPREAD": "SPREAD", "NOISE": "NOISE"}
for k, py in names.items():
    assert float(c[k]) == float(getattr(nf, py)), (k, c[k], getattr(nf, py))
PY
"$G" run --synthetic --quiet --format json > "$tmp/run.json" 2> "$tmp/err" &&
    "$PY" bench/numpy_full.py --compare "$tmp/run.json" > "$tmp/err" 2>&1 &&
    grep -q '^numpy_full: agree' "$tmp/err" && ok "bench/numpy_full.py's model agrees with run --synthetic" ||
    bad "bench/numpy_full.py disagrees with run --synthetic"
finish
