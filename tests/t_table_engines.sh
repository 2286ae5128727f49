#!/bin/sh
# t_table_engines.sh — `gsrscope table` runs the methods of a seed that share a feature space in
# one engine (sharing its rows and base Gram), the others in engines of their own, two at once
# within the memory budget: every cell must equal what `run --methods X` prints for that method
# alone (A_last, A_avg, the last task's head and tail accuracy to 1e-7), with every learner
# family present (ridge with and without an augmenter, ranpac's own space, the stats learners),
# with the default budget and with a small --max-memory. Prints "N passed, N failed".
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
M="gacl,gacl+gsr,air,ranpac,ranpac+gsr,ncm,slda,klda,fecam+gsr,anacp,anacp+gsr"
OPT="--expand 128 --klda-dim 300 --tau 1"
for m in $(echo "$M" | tr , ' '); do
    for s in 1 2; do
        "$G" run $OPT --methods "$m" --seed $s --format json >"$tmp/run_${m}_$s.json" 2>"$tmp/err" || bad "run $m seed $s"
    done
done
"$G" table $OPT --methods "$M" --seeds 1,2 --format json >"$tmp/one.json" 2>"$tmp/err" && ok "table, default budget" \
    || bad "table"
# the estimate (klda and anacp count their defaults) fits no two of klda, anacp, anacp+gsr in 2 GiB
"$G" table $OPT --methods "$M" --seeds 1,2 --max-memory 2G --format json >"$tmp/split.json" 2>"$tmp/err" \
    && ok "table, engines split by --max-memory 2G" || bad "table split"
for f in one split; do
    "$PY" - "$tmp/$f.json" "$tmp" <<'PY' && ok "$f: every cell = run --methods X alone" || bad "$f: cells differ from run"
import json, os, sys
t = json.load(open(sys.argv[1]))
assert len(t["results"]) == 11, len(t["results"])
for r in t["results"]:
    for k, s in enumerate(t["seeds"]):
        run = json.load(open(os.path.join(sys.argv[2], "run_%s_%d.json" % (r["method"], s))))["methods"][0]
        for key in ("a_last", "a_avg"):
            a, b = r[key]["values"][k], run[key]
            assert a is not None and abs(a - b) <= 1e-7 * max(1, abs(b)), (r["method"], s, key, a, b)
        for key in ("head", "tail"):  # the last task's head_acc / tail_acc
            a, b = r[key]["values"][k], run["tasks"][-1][key + "_acc"]
            assert (a is None and b is None) or abs(a - b) <= 1e-7 * max(1, abs(b)), (r["method"], s, key, a, b)
PY
done
finish
