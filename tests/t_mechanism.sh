#!/bin/sh
# t_mechanism.sh — the claims' why rows (rank(G+Δ) vs rank(G), u₁ᵀΔu₁/tr Δ vs λ₁/tr G, ε/λ₁, the
# within-class spread and the mass of real and synthetic rows, the mass/geometry split of the tail
# gain) as `run --theorem --format json` reports them, against NumPy on the same run's
# --save-state (tests/mech_ref.py), and each verdict recomputed from the NumPy numbers: on
# --synthetic, the MobileNetV2 sample at the teaching preset and the pixel sample at the teaching
# and the reference presets. The text form of --theorem carries the same rows; the JSON parses.
. "$(dirname "$0")/lib.sh"
export GSRSCOPE_ASSETS="$PWD/assets"
PY=/usr/bin/python3
M=gacl,gsr,gacl+oversample
one() { # name, run arguments...
    name=$1; shift
    if "$G" run "$@" --methods $M --theorem --format json --save-state "$tmp/$name" > "$tmp/$name.json" 2> "$tmp/err" \
        && "$PY" -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/$name.json" 2> "$tmp/err"; then
        ok "$name: run --theorem --format json is valid JSON"
    else bad "$name: run --theorem --format json"; return; fi
    if "$PY" tests/mech_ref.py "$tmp/$name" "$tmp/$name.json" > "$tmp/ref.txt" 2>&1; then
        ok "$name: $(grep -c '^ok' "$tmp/ref.txt") why-row numbers and verdicts agree with NumPy"
        grep '^#' "$tmp/ref.txt"
    else cp "$tmp/ref.txt" "$tmp/err"; grep FAIL "$tmp/ref.txt" > "$tmp/err"; bad "$name: mech_ref.py"; fi
}
one synthetic --synthetic
one mnv2_teaching --sample mobilenetv2 --preset teaching
one pixels_teaching --sample pixels --preset teaching
# the reference configuration (a 5,000-d random ReLU expansion, β = 1, τ = 1e4): about 2 minutes
# and 600 MB of saved Grams, so only in the plain suite (the sanitizers' runs would take 20), and
# in make check-full only (GS_QUICK=1: make check)
if [ -z "${GS_SANITIZED:-}${GS_VALGRIND:-}" ] && ! quick; then
    one pixels_reference --sample pixels --preset reference
    rm -rf "$tmp/pixels_reference"
else echo "# pixels --preset reference: in the plain suite's make check-full only"; fi
# the text form: every why row with a mark
"$G" run --sample mobilenetv2 --preset teaching --methods $M --theorem > "$tmp/t.txt" 2> "$tmp/err"
n=$(grep -cE '^  (✔|✗|\?) ' "$tmp/t.txt")
[ "$n" -ge 12 ] && ok "--theorem text: $n why rows (6 per augmenting method)" || bad "--theorem text: $n why rows"
grep -q "the tail gain comes from the mix's geometry, not its mass: tail GACL" "$tmp/t.txt" \
    && ok "--theorem text: the mass/geometry split for GSR" || bad "--theorem text: no split row"
# with --expand the mixes pass through ReLU(Rz): the expanded mixes leave the span of the expanded
# real rows (NumPy's ranks of the saved G's rise), and the rank row's reason says so, never that a
# mix stays in its rows' plane; without --expand (the runs above) it never names the expansion
if "$G" run --sample mobilenetv2 --preset teaching --expand 2000 --methods gacl,gsr --theorem --format json \
        --save-state "$tmp/ex" > "$tmp/ex.json" 2> "$tmp/err"; then
    if "$PY" - "$tmp/ex" "$tmp/ex.json" "$tmp/synthetic.json" > "$tmp/ref.txt" 2>&1 <<'PY'
import json, sys
import numpy as np
d, j, plain = sys.argv[1:4]
th = [t for t in json.load(open(j))["theorem"] if t["method"] == "gsr"][-1]
G = np.load(d + "/gacl/G.npy"); GD = np.load(d + "/gsr/G.npy")
rG, rGD = np.linalg.matrix_rank(G, hermitian=True), np.linalg.matrix_rank(GD, hermitian=True)
row = [c for c in th["claims"] if c["claim"].startswith("the synthetic rows reach")][0]
print(f"ranks {rG} -> {rGD} (JSON {th['rank_G']} -> {th['rank_G_Delta']}), {row['verdict']}: {row['reason']}")
pl = [c for t in json.load(open(plain))["theorem"] for c in t["claims"] if c["claim"].startswith("the synthetic rows reach")]
good = (rGD > rG and th["rank_G"] == rG and th["rank_G_Delta"] == rGD and row["verdict"] == "holds"
        and "nonlinear expansion ReLU(Rz)" in row["reason"] and "plane" not in row["reason"]
        and pl and all("ReLU" not in c["reason"] for c in pl))
sys.exit(0 if good else 1)
PY
    then ok "--expand 2000: $(cat "$tmp/ref.txt")"
    else cp "$tmp/ref.txt" "$tmp/err"; bad "--expand: rank row"; fi
else bad "run --expand 2000 --theorem"; fi
finish
