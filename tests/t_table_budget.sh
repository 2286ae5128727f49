#!/bin/sh
# t_table_budget.sh — `gsrscope table` under a --max-memory that cannot hold an engine's methods
# together: the engine's methods are split into engines that fit (each seed's problem counted
# once while the seed is open), run one at a time, and the table is byte for byte the one without
# the flag; a method that alone exceeds the budget is refused before any work (exit 2, a line
# naming it, its estimate and the budget). The engines and their estimates are the lines printed
# under GS_TABLE_NEED. Prints "N passed, N failed".
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
OPT="--synthetic --head-frac 0.05 --tail-shots 1 --tasks 2 --methods gacl,gacl+gsr,air,ncm --seeds 1,2 --format csv"
GS_TABLE_NEED=1 "$G" table $OPT >"$tmp/free.csv" 2>"$tmp/free.err" || { cp "$tmp/free.err" "$tmp/err"; bad "table without --max-memory"; }
# engine lines: "gsrscope: engine of seed S: m1,m2 estimate B bytes (its seed's problem P)"
engines() { sed -n 's/^gsrscope: engine of seed \([0-9]*\): \([^ ]*\) estimate \([0-9]*\) bytes (its seed.s problem \([0-9]*\))$/\1 \2 \3 \4/p' "$1"; }
engines "$tmp/free.err" >"$tmp/free.eng"
# the default puts the three ridge methods of the identity space in one engine per seed
grep -q "gacl,gacl+gsr,air" "$tmp/free.eng" && ok "without a budget: gacl, gacl+gsr and air share an engine" \
    || { cp "$tmp/free.eng" "$tmp/err"; bad "no shared engine without a budget"; }
# a budget holding the two seeds' problems and half of what the shared engine adds to its seed's
read -r _ _ need prob <<E
$(grep "gacl,gacl+gsr,air" "$tmp/free.eng" | head -n 1)
E
cap=$((2 * prob + (need - prob) / 2))
out=$("$PY" - "$tmp/cap.csv" "$tmp/cap.err" "$G" table $OPT --max-memory $cap <<'PY'
import os, subprocess, sys
env = dict(os.environ, GS_TABLE_NEED="1")
with open(sys.argv[1], "wb") as o, open(sys.argv[2], "wb") as e:
    p = subprocess.Popen(sys.argv[3:], stdout=o, stderr=e, env=env)
    _, status, ru = os.wait4(p.pid, 0)
print(ru.ru_maxrss * 1024 if status == 0 else -1)
PY
)
[ "$out" -gt 0 ] 2>/dev/null || { cp "$tmp/cap.err" "$tmp/err"; bad "table --max-memory $cap"; }
engines "$tmp/cap.err" >"$tmp/cap.eng"
"$PY" - "$tmp/cap.eng" "$cap" <<'PY' && ok "--max-memory $cap: the shared engine split, each part within the budget beside both problems" \
    || { cp "$tmp/cap.eng" "$tmp/err"; bad "--max-memory $cap: not split within the budget"; }
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
cap = int(sys.argv[2])
probs = {}
for seed, ms, need, prob in rows: probs[seed] = int(prob)
assert len(rows) > 4, rows                      # more engines than the default's four
assert not any("gacl,gacl+gsr,air" == r[1] for r in rows), rows
for seed, ms, need, prob in rows:             # each engine adds to its seed's problem what fits beside every problem
    assert int(need) - int(prob) + sum(probs.values()) <= cap or "," not in ms, (seed, ms, need, cap)
PY
cmp -s "$tmp/free.csv" "$tmp/cap.csv" && ok "--max-memory $cap: the same table bytes" \
    || { diff "$tmp/free.csv" "$tmp/cap.csv" | head -n 5 >"$tmp/err"; bad "--max-memory $cap: the table differs"; }
at_once=$(sed -n 's/^gsrscope: table estimate at most \([0-9]*\) bytes at once$/\1/p' "$tmp/cap.err")
if [ -n "${GS_SANITIZED:-}" ]; then skip "peak check under sanitizers (shadow memory is not the program's)"
else [ -n "$at_once" ] && [ "$out" -le "$at_once" ] && ok "peak $out bytes within the schedule's estimate $at_once" \
    || bad "peak $out bytes above the schedule's estimate '$at_once'"; fi
# one seed, a budget below gacl+gsr's own estimate (and above the problem): refused before any work
gsr=$(grep "^1 gacl+gsr " "$tmp/cap.eng" | cut -d' ' -f3)
low=$((gsr - 1024))
"$G" table $OPT --seeds 1 --max-memory $low >"$tmp/low.csv" 2>"$tmp/low.err"; rc=$?
[ "$rc" = 2 ] && [ ! -s "$tmp/low.csv" ] && grep -q "gacl+gsr alone needs about .* allowed by --max-memory" "$tmp/low.err" \
    && ! grep -q "done" "$tmp/low.err" && ok "--max-memory $low: gacl+gsr refused before any work (exit 2)" \
    || { cp "$tmp/low.err" "$tmp/err"; bad "--max-memory $low: exit $rc, not refused by name"; }
finish
