#!/bin/sh
# export --seeds: the accuracy, stable-rank, erank-cond and tau-sweep figures draw the mean over
# the seeds with a ± std band; the numbers behind them (--csv) equal NumPy's mean and sample std
# of `run --seed k` (per task) or of the one-seed figure's numbers (τ sweep); the same command
# gives the same bytes; the PNG records the seeds; other figures refuse --seeds (exit 2, one line).
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

# stable rank, effective rank and condition number over tasks: the mean and ± std of run's numbers
# (--spectrum all: exact at every task, as the figures compute them)
for f in stable-rank erank-cond; do
    "$G" export --tasks 4 --seeds 1,2,3 --figure $f -o "$tmp/$f.png" --csv "$tmp/$f.csv" --quiet 2>"$tmp/err" \
        || bad "export --seeds --figure $f"
done
for k in 1 2 3; do "$G" run --tasks 4 --seed $k --spectrum all --format json --quiet >"$tmp/x$k.json" 2>"$tmp/err" || bad "run --spectrum all --seed $k"; done
if "$PY" - "$tmp" <<'PYEOF' 2>"$tmp/err"
import csv, json, sys
import numpy as np
t = sys.argv[1]
rows = {}
for f in ("stable-rank", "erank-cond"):
    for r in csv.DictReader(open(f"{t}/{f}.csv")):
        rows[(r["chart"], r["series"], int(float(r["x"])))] = float(r["y"])
runs = [json.load(open(f"{t}/x{k}.json")) for k in (1, 2, 3)]
n = 0
for chart, key in (("Stable rank", "stable_rank"), ("Effective rank", "erank"), ("Condition number", "cond")):
    for mi, disp in ((0, "GACL"), (1, "GSR")):
        for task in range(1, 5):
            v = np.array([r["methods"][mi]["tasks"][task - 1][key] for r in runs], dtype=float)
            m, s = v.mean(), v.std(ddof=1)
            got = rows[(chart, disp, task)]
            assert abs(got - m) <= 1e-6 * abs(m), (chart, disp, task, got, m)
            assert abs(rows[(chart, disp + " +std", task)] - (m + s)) <= 1e-6 * abs(m + s), (chart, disp, task)
            if m - s > 0:
                assert abs(rows[(chart, disp + " \u2212std", task)] - (m - s)) <= 1e-6 * abs(m), (chart, disp, task)
            n += 1
assert n == 24, n
PYEOF
then ok "stable rank, effective rank, condition number: mean and ± std = NumPy over run --seed 1, 2, 3"; else bad "task band numbers"; fi

# τ sweep: the mean and ± std of the three one-seed figures' curves
"$G" export --tasks 4 --seeds 1,2,3 --figure tau-sweep -o "$tmp/ts.png" --csv "$tmp/ts.csv" --quiet 2>"$tmp/err" &&
"$G" export --tasks 4 --seeds 1,2,3 --figure tau-sweep -o "$tmp/ts2.png" --quiet 2>"$tmp/err" || bad "export --seeds --figure tau-sweep"
cmp -s "$tmp/ts.png" "$tmp/ts2.png" && ok "tau-sweep over seeds: same command, same bytes" || bad "tau-sweep PNG bytes differ"
for k in 1 2 3; do
    "$G" export --tasks 4 --seed $k --figure tau-sweep -o "$tmp/ts$k.png" --csv "$tmp/ts$k.csv" --quiet 2>"$tmp/err" || bad "tau-sweep --seed $k"
done
if "$PY" - "$tmp" <<'PYEOF' 2>"$tmp/err"
import csv, sys
import numpy as np
t = sys.argv[1]
def load(p):
    d = {}
    for r in csv.DictReader(open(p)):
        d[(r["chart"], r["series"], r["x"])] = float(r["y"])
    return d
mean = load(f"{t}/ts.csv")
one = [load(f"{t}/ts{k}.csv") for k in (1, 2, 3)]
n = 0
for key in one[0]:
    chart, series, x = key
    if "validation" in series or not all(key in o for o in one):
        continue
    v = np.array([o[key] for o in one])
    m, s = v.mean(), v.std(ddof=1)
    assert abs(mean[key] - m) <= 1e-9 * max(1, abs(m)), (key, mean[key], m)
    if s > 0:
        assert abs(mean[(chart, series + " +std", x)] - (m + s)) <= 1e-9 * max(1, abs(m + s)), key
    n += 1
assert n >= 200, n
PYEOF
then ok "tau-sweep: mean and ± std = NumPy over the one-seed curves"; else bad "tau-sweep band numbers"; fi
if "$PY" - "$tmp/ts.png" <<'PYEOF' 2>"$tmp/err"
import struct, sys
b = open(sys.argv[1], "rb").read()
i, text = 8, {}
while i < len(b):
    n, = struct.unpack(">I", b[i:i + 4]); typ = b[i + 4:i + 8]
    if typ == b"tEXt":
        k, v = b[i + 8:i + 8 + n].split(b"\0", 1); text[k.decode()] = v.decode("latin-1")
    elif typ == b"iTXt":  # keyword, 0, flag, method, language, 0, translated keyword, 0, UTF-8 text
        k, rest = b[i + 8:i + 8 + n].split(b"\0", 1)
        text[k.decode()] = rest[2:].split(b"\0", 2)[2].decode("utf-8")
    i += 12 + n
assert text["seeds"].startswith("1,2,3 (mean") and "over 3 seeds" in text["seeds"], text.get("seeds")
PYEOF
then ok "the PNG records the seeds"; else bad "PNG seeds chunk"; fi

"$G" export --seeds 1,2 --figure spectrum -o "$tmp/s.png" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 2 ] && one_line "--seeds: export draws the mean over seeds on the figures accuracy, stable-rank" && [ ! -e "$tmp/s.png" ]
then ok "--seeds refused for the spectrum figure"; else bad "--seeds with spectrum not refused"; fi
"$G" export --seeds 1,x --figure accuracy -o "$tmp/s.png" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 2 ] && one_line "--seeds: 'x' is not a seed"; then ok "bad --seeds refused"; else bad "bad --seeds"; fi
finish
