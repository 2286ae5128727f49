#!/bin/sh
# t_claims_rules.sh — a property of the claims (issue #35): over three data sets (the MobileNetV2
# sample, --synthetic, the pixel sample with gacl+oversample for the mass/geometry split) × three
# presets (paper, teaching, reference with its expansion cut to D = 1024 for time) × every task of
# a 3-task stream, every verdict of `export --figure claims --csv` is re-derived by an independent
# Python reading of the numbers printed on its line, by the rule the man page states (CLAIMS):
# exact decimal arithmetic on the printed digits, "?" (unknown) only where a number is missing; the
# printed changes equal the differences of the printed accuracies; and every rank row has
# rank(G+Δ) ≥ rank(G). 27 exports: about 2-3 minutes on a loaded 2-core machine.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3

cat > "$tmp/rules.py" <<'PYEOF'
import csv, re, sys
from decimal import Decimal as D
N = r"(-?[\d.]+(?:e[-+]?\d+)?|—)"
def num(s): return None if s == "—" else D(s)
def m(pat, text):
    g = re.search(pat, text)
    if not g: raise ValueError(f"no match for {pat!r} in {text!r}")
    vals = [num(x) for x in g.groups()]
    if any(v is None for v in vals): raise LookupError
    return vals
def rule(claim, t):
    """The verdict the man page's rule gives for the numbers t of the claim (True/False)."""
    if claim.startswith("stable rank 1.02"):
        a, b = m(rf"sr \S+ ~?{N} → \S+ ~?{N}", t); return b > a
    if claim.startswith("Theorem 1: strictly"):
        l, r, x, y = m(rf"= {N} vs {N} \(eq\. 12\); sr {N} → {N}", t); return l > r and y > x
    if claim.startswith("smallest eigenvalues"):
        (q,) = m(rf"\(×{N}\)", t); return q >= D("1.1")
    if claim.startswith("tail accuracy up") or claim.startswith("head accuracy preserved"):
        a, b, d = m(rf"{N} % → \S+ {N} % \(\+?{N} points\)", t)
        assert d == b - a, f"printed change {d} is not {b} - {a}"
        return d >= 1 if claim.startswith("tail") else d >= -1
    if claim.startswith("dilemma"):
        tt, hb, th, ht = m(rf"τ\*_tail = {N}; head best {N} % at τ\*_head = {N}; head at τ\*_tail {N} %", t)
        return tt > th and hb - ht >= 2
    if claim.startswith("the synthetic rows reach"):
        r1, r2 = m(rf"rank\(G\) {N} → rank\(G\+Δ\) {N}", t)
        assert r2 >= r1, f"rank(G+Δ) {r2} below rank(G) {r1}"
        (s,) = m(rf"outside G's range {N}", t); return s > D("1e-6")
    if claim.startswith("Δ spreads energy"):
        a, b = m(rf"tr Δ = {N} against λ₁/tr G = {N}", t); return a < b
    if claim.startswith("Theorem 1's setting"):
        (q,) = m(rf"ε/λ₁ = {N}", t); return q < 1
    if claim.startswith("mixing widens"):
        part = "tail" if " tail " in t.split("cosine")[0] else "head"
        (q,) = m(rf"{part} {N} → {N} \(×{N}\)", t)[2:]; return q >= 1
    if claim.startswith("the tail gains weight"):
        (qt,) = m(rf"median tail class {N} rows → {N} \(×{N}\)", t)[2:]
        if "; head " not in t: return qt > 1
        (qh,) = m(rf"; head {N} → {N} \(×{N}\)", t)[2:]; return qt > 1 and qt > qh
    if claim.startswith("the tail gain comes from"):
        a, v, b, ms, g = m(rf"tail .+? {N} → .+? {N} → .+? {N} %: mass \+?{N}, geometry \+?{N} points", t)
        assert ms == v - a and g == b - v, "mass and geometry are the printed differences"
        return g >= 1 and g > ms
    raise ValueError(f"unknown claim {claim!r}")
bad = n = ranks = 0
for path in sys.argv[1:]:
    for row in csv.DictReader(open(path, encoding="utf-8")):
        n += 1
        claim, verdict, t = row["claim"], row["verdict"], row["numbers"]
        try:
            want = rule(claim, t) if t else None
        except LookupError:
            want = None  # a number printed as "—": not known
        except (ValueError, AssertionError) as e:
            print(f"{path}: {claim}: {e}"); bad += 1; continue
        ranks += claim.startswith("the synthetic rows reach") and bool(t)
        got = {"holds": True, "fails": False, "unknown": None}[verdict]
        if got != want:
            print(f"{path}: {claim}: printed '{verdict}', the rule gives {want} for: {t}"); bad += 1
print(f"{n} rows, {ranks} rank rows, {bad} wrong")
sys.exit(1 if bad or n == 0 else 0)
PYEOF

i=0
for data in "--sample mobilenetv2" "--synthetic" "--sample pixels --methods gacl,gsr,gacl+oversample"; do
    for preset in paper teaching "reference --expand 1024"; do
        files=""
        for task in 1 2 3; do
            i=$((i+1))
            # shellcheck disable=SC2086
            if "$G" export $data --preset $preset --tasks 3 --task $task --figure claims -o "$tmp/c$i.png" \
                --csv "$tmp/c$i.csv" --quiet 2> "$tmp/err"; then files="$files $tmp/c$i.csv"
            else bad "export $data --preset $preset --task $task exits 0"; fi
        done
        # shellcheck disable=SC2086
        if "$PY" "$tmp/rules.py" $files > "$tmp/out" 2>&1; then
            ok "$data, $preset, tasks 1-3: every verdict is its rule over the printed numbers ($(tail -n 1 "$tmp/out"))"
        else cp "$tmp/out" "$tmp/err"; bad "$data, $preset: a verdict the printed numbers do not give"; fi
    done
done
finish
