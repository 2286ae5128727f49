#!/bin/sh
# export --seeds: the accuracy figure draws the mean over the seeds with a ± std band; the
# numbers behind it (--csv) equal NumPy's mean and sample std of `run --seed k` for each seed;
# the same command gives the same bytes; other figures refuse --seeds (exit 2, one line).
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3

"$G" export --tasks 4 --seeds 1,2,3 --figure accuracy -o "$tmp/a.png" --csv "$tmp/a.csv" --quiet 2>"$tmp/err" &&
"$G" export --tasks 4 --seeds 1,2,3 --figure accuracy -o "$tmp/b.png" --quiet 2>"$tmp/err"
if [ $? -eq 0 ]; then ok "export --seeds 1,2,3 --figure accuracy"; else bad "export --seeds failed"; fi
if cmp -s "$tmp/a.png" "$tmp/b.png"; then ok "same command, same bytes"; else bad "PNG bytes differ"; fi
for k in 1 2 3; do "$G" run --tasks 4 --seed $k --format json --quiet >"$tmp/r$k.json" 2>"$tmp/err" || bad "run --seed $k"; done
if "$PY" - "$tmp" <<'PYEOF' 2>"$tmp/err"
import csv, json, sys
import numpy as np
t = sys.argv[1]
rows = {}
for r in csv.DictReader(open(f"{t}/a.csv")):
    rows[(r["series"], int(float(r["x"])))] = float(r["y"])
runs = [json.load(open(f"{t}/r{k}.json")) for k in (1, 2, 3)]
n = 0
for mi, disp in ((0, "GACL"), (1, "GSR")):
    for key, kind in (("acc", "overall"), ("head_acc", "head"), ("tail_acc", "tail")):
        for task in range(1, 5):
            v = np.array([r["methods"][mi]["tasks"][task - 1][key] for r in runs], dtype=float)
            if np.isnan(v).any():
                continue
            name = f"{disp} {kind}"
            m, s = v.mean(), v.std(ddof=1)
            assert abs(rows[(name, task)] - m) < 1e-9, (name, task, rows[(name, task)], m)
            assert abs(rows[(name + " \u2212std", task)] - (m - s)) < 1e-9, (name, task)
            assert abs(rows[(name + " +std", task)] - (m + s)) < 1e-9, (name, task)
            n += 1
assert n >= 20, n
PYEOF
then ok "CSV: mean and mean ± std = NumPy over run --seed 1, 2, 3"; else bad "band numbers"; fi
"$G" export --seeds 1,2 --figure spectrum -o "$tmp/s.png" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 2 ] && one_line "--seeds: export draws several seeds on the accuracy figure only" && [ ! -e "$tmp/s.png" ]
then ok "--seeds refused for the spectrum figure"; else bad "--seeds with spectrum not refused"; fi
"$G" export --seeds 1,x --figure accuracy -o "$tmp/s.png" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 2 ] && one_line "--seeds: 'x' is not a seed"; then ok "bad --seeds refused"; else bad "bad --seeds"; fi
finish
