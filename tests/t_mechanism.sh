#!/bin/sh
# t_mechanism.sh — the claims' why rows (rank(G+Δ) vs rank(G), u₁ᵀΔu₁/tr Δ vs λ₁/tr G, ε/λ₁, the
# within-class spread and the mass of real and synthetic rows, the mass/geometry split of the tail
# gain) as `run --theorem --format json` reports them, against NumPy on the same run's
# --save-state (tests/mech_ref.py), and each verdict recomputed from the NumPy numbers: on
# --synthetic, the MobileNetV2 sample at the teaching preset and the pixel sample at the teaching
# preset. The text form of --theorem carries the same rows; the JSON parses.
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
# the text form: every why row with a mark
"$G" run --sample mobilenetv2 --preset teaching --methods $M --theorem > "$tmp/t.txt" 2> "$tmp/err"
n=$(grep -cE '^  (✔|✗|\?) ' "$tmp/t.txt")
[ "$n" -ge 12 ] && ok "--theorem text: $n why rows (6 per augmenting method)" || bad "--theorem text: $n why rows"
grep -q "the tail gain comes from the mix's geometry, not its mass: tail GACL" "$tmp/t.txt" \
    && ok "--theorem text: the mass/geometry split for GSR" || bad "--theorem text: no split row"
finish
