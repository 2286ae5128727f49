#!/bin/sh
# t_learners.sh — every learner against an independent NumPy implementation (tests/learner_ref.py)
# driven by --save-state: the same rows, the same random draws (proj_W.npy) and the same synthetic
# rows (aug_rows.npy with weight β·ω): >= 99.9 % identical test predictions, accuracies within
# 0.1 point, on --synthetic and the bundled sample; x+gsr is x fed the real rows plus the
# β-weighted aug rows by construction of the reference. x+oversample is built by the reference
# from rows.npy alone (GSR's count per class, copies of the real rows) and must equal aug_rows.npy.
# GS_QUICK=1 (make check): the bundled sample's cases at small D (every learner, anacp in both
# forms at D = 8) and the memory checks; the paper-scale runs (--synthetic, D = 1200 and 5000,
# ranpac's 10,000-d map on the pixels) in make check-full only.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
check() { # name, state dir, methods... (LEARNER_REF_EXACT=1: 100 % identical predictions)
    name=$1; dir=$2; shift 2
    if "$PY" tests/learner_ref.py ${LEARNER_REF_EXACT:+--exact} "$dir" "$@" > "$tmp/ref.txt" 2>&1; then
        while read -r l; do ok "$name: $l"; done < "$tmp/ref.txt"
    else
        cp "$tmp/ref.txt" "$tmp/err"; bad "$name: NumPy reference disagrees"
    fi
}
if quick; then quick_note "--synthetic (10 learners, and ranpac/anacp at --expand 256)"; else
M="gacl,gsr,air,air+gsr,ncm,ncm+gsr,slda,slda+gsr,gacl+oversample,slda+oversample"
"$G" run --synthetic --methods "$M" --save-state "$tmp/syn" --format csv > /dev/null 2> "$tmp/err" \
    && ok "synthetic run" || bad "synthetic run"
check synthetic "$tmp/syn" gacl gsr air air+gsr ncm ncm+gsr slda slda+gsr gacl+oversample slda+oversample
# ranpac: its own Gaussian ReLU projection (M = --expand), the draw written as proj_W.npy;
# anacp: its layers (D = --expand) and replay rows written as head<k>_W, final_W, replay_t<t>
"$G" run --synthetic --expand 256 --methods ranpac,ranpac+gsr,ncm+gsr,anacp,anacp+gsr,ranpac+oversample --tau 1 \
    --save-state "$tmp/rp" --format csv > /dev/null 2> "$tmp/err" && ok "ranpac/anacp run" || bad "ranpac/anacp run"
check "synthetic --expand 256" "$tmp/rp" ranpac ranpac+gsr ncm+gsr anacp anacp+gsr ranpac+oversample
[ "$(python3 -c "import json;print(json.load(open('$tmp/rp/ranpac/manifest.json'))['map']['D'])")" = 256 ] \
    && ok "ranpac manifest: map D = 256" || bad "ranpac manifest"
fi
"$G" run --methods "gacl,gsr,air+gsr,ncm+gsr,slda+gsr" --slda-eps 0.01 --save-state "$tmp/smp" --format csv \
    > /dev/null 2> "$tmp/err" && ok "sample run" || bad "sample run"
check sample "$tmp/smp" gacl gsr air+gsr ncm+gsr slda+gsr
# oversample at the teaching preset (β = 10, τ = 10), tail classes only, one partner per row; and
# with --expand (the copies mapped by the engine's row path, not the pair path)
"$G" run --preset teaching --augment tail --pairs random --methods gacl+oversample,air+oversample \
    --save-state "$tmp/ov" --format csv > /dev/null 2> "$tmp/err" && ok "oversample run" || bad "oversample run"
check "teaching --augment tail --pairs random" "$tmp/ov" gacl+oversample air+oversample
"$G" run --expand 300 --max-aug 7 --methods gacl+oversample --save-state "$tmp/ov2" --format csv > /dev/null 2> "$tmp/err" \
    && ok "oversample --expand run" || bad "oversample --expand run"
check "--expand 300 --max-aug 7" "$tmp/ov2" gacl+oversample
"$G" run --expand 128 --methods "ranpac,ranpac+gsr,anacp,anacp+gsr,air" --tau 1 --save-state "$tmp/smp2" \
    --format csv > /dev/null 2> "$tmp/err" && ok "sample --expand 128 run" || bad "sample --expand 128 run"
check "sample --expand 128" "$tmp/smp2" ranpac ranpac+gsr anacp anacp+gsr air
# anacp's heads in both forms (factored while C_seen·(D + d) < D·d: at --expand 8 the form changes
# mid-stream) and its final layer in the dual form (fewer replay rows than D at --expand 1200)
DS="8 1200"; quick && { DS=8; quick_note "anacp at --expand 1200 and at its own D = 5000 (MobileNetV2)"; }
for D in $DS; do
    "$G" run --expand $D --methods anacp,anacp+gsr --save-state "$tmp/a$D" --format csv > /dev/null 2> "$tmp/err" \
        && ok "sample --expand $D run" || bad "sample --expand $D run"
    check "sample --expand $D" "$tmp/a$D" anacp anacp+gsr
done
# anacp computes in float (its heads' and final layer's matrices): at its own D = 5000 on the
# MobileNetV2 sample the single-precision rule above; with GS_ANACP_KAPPA=0 every matrix is
# factored in double (the fallback for an ill-conditioned one), in both forms of the heads, and
# the predictions are those of the double reference, all of them
if ! quick; then
"$G" run --sample mobilenetv2 --methods anacp,anacp+gsr --save-state "$tmp/a5000" --format csv > /dev/null 2> "$tmp/err" \
    && ok "mobilenetv2 (D = 5000) run" || bad "mobilenetv2 (D = 5000) run"
check "mobilenetv2 (D = 5000)" "$tmp/a5000" anacp anacp+gsr
fi
for D in $DS; do
    GS_ANACP_KAPPA=0 "$G" run --expand $D --methods anacp,anacp+gsr --save-state "$tmp/k$D" --format csv > /dev/null \
        2> "$tmp/err" && ok "GS_ANACP_KAPPA=0 --expand $D run" || bad "GS_ANACP_KAPPA=0 --expand $D run"
    LEARNER_REF_EXACT=1 check "GS_ANACP_KAPPA=0 --expand $D (exact)" "$tmp/k$D" anacp anacp+gsr
done
# the memory estimate knows each learner: ranpac's own M = 10000 projection (rows, test rows, two
# 10000×10000 matrices: > 2 GiB) is refused where gacl on the same data fits
need() { sed -n 's/.*needs about \([0-9.]*\) \([KMG]\)iB.*/\1 \2/p' "$tmp/err"; }
"$G" run --synthetic --methods gacl --max-memory 2G --tasks 2 --format csv > /dev/null 2> "$tmp/err" \
    && ok "gacl fits in 2 GiB" || bad "gacl in 2 GiB"
if ! "$G" run --synthetic --methods gacl,ranpac --max-memory 2G > /dev/null 2> "$tmp/err" && one_line "this run needs about"; then
    ok "ranpac (M = 10000) refused in 2 GiB: needs $(need)"
else bad "ranpac's memory estimate"; fi

# --spectrum auto follows each method's own matrix: ranpac's 10,000-d map on the 784-d pixels is
# above 2048, so the last task's exact spectrum is computed only while the dual's N×N kernel is
# small (rows seen, real and synthetic, <= 2048: ranpac) and not for ranpac+gsr (4,975 rows),
# whose λ_max stays a Lanczos estimate without erank or df; --spectrum final computes both
spec_rule() { # $1: json; $2: 1 when every method must be exact
    "$PY" - "$1" "$2" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1])); final = sys.argv[2] == "1"
seen = 0
for m in d["methods"]:
    t = m["tasks"][-1]
    n = t["rows_seen"] + t["aug_rows"]
    exact = final or n <= 2048
    assert (not t["estimated"]["lambda_max"]) == exact, (m["name"], n, t["estimated"])
    assert (t["erank"] is not None) == exact and (t["df"] is not None) == exact, (m["name"], n, t["erank"], t["df"])
    seen |= 1 << exact
assert final or seen == 3, "the check needs a method on each side of 2048"
PYEOF
}
if quick; then quick_note "--spectrum auto and final with ranpac's 10,000-d map on the pixels"; finish; exit; fi
"$G" run --sample pixels --methods ranpac,ranpac+gsr --format json --quiet > "$tmp/sp.json" 2> "$tmp/err" &&
    spec_rule "$tmp/sp.json" 0 2> "$tmp/err" && ok "--spectrum auto: ranpac's last spectrum exact at N <= 2048 rows in the dual, an estimate above" \
    || bad "--spectrum auto by the method's own matrix"
"$G" run --sample pixels --methods ranpac+gsr --spectrum final --format json --quiet > "$tmp/sf.json" 2> "$tmp/err" &&
    spec_rule "$tmp/sf.json" 1 2> "$tmp/err" && ok "--spectrum final: ranpac+gsr's last spectrum exact" || bad "--spectrum final with ranpac+gsr"
finish
