#!/bin/sh
# t_table.sh — `gsrscope table` on the bundled sample: every cell equals the A_last / A_avg and the
# last task's head_acc / tail_acc that `run` prints for the same method and seed (mean and sample
# std recomputed here), two --data sources give two column groups, --columns picks and orders
# them (and run refuses it), --data NAME=PATH titles a group, the values behind the table are in
# the LaTeX comment block, the CSV columns and the JSON fields, every format parses, usage errors
# exit 2 with one line.
# Prints "N passed, N failed".
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
S=sample_features/fashion-mnist
mkdir -p "$tmp/copy" && cp "$S"/*.npy "$tmp/copy/"

"$G" table --data "$S" --data "$tmp/copy" --methods gacl,ncm,slda --seeds 1,2 --format csv >"$tmp/t.csv" 2>"$tmp/err" \
    && ok "table csv" || bad "table csv"
for s in 1 2; do
    "$G" run --data "$S" --methods gacl,ncm,slda --seed $s --format csv >"$tmp/run$s.csv" 2>>"$tmp/err" || bad "run seed $s"
done
"$PY" - "$tmp/t.csv" "$tmp/run1.csv" "$tmp/run2.csv" <<'PY' && ok "cells = run's A_last/A_avg, mean and sample std" || bad "cells differ from run"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 6, len(rows)
runs = []
for f in sys.argv[2:]:
    acc, last = {}, {}
    for r in csv.DictReader(open(f)):
        acc.setdefault(r["method"], []).append(float(r["acc"]))
        last[r["method"]] = r  # the last task's row wins
    runs.append({m: (a[-1], sum(a) / len(a), float(last[m]["head_acc"]), float(last[m]["tail_acc"])) for m, a in acc.items()})
for r in rows:
    for j, key in enumerate(["a_last", "a_avg", "head", "tail"]):
        v = [run[r["method"]][j] for run in runs]
        assert abs(float(r[key + "_mean"]) - statistics.mean(v)) < 1e-3, (r, v)
        assert abs(float(r[key + "_std"]) - statistics.stdev(v)) < 1e-3, (r, v)
src = sorted(set(r["source"] for r in rows))
assert len(src) == 2, src
# the same data under two names: the same numbers
a = [(r["method"], r["a_last_mean"]) for r in rows if r["source"] == src[0]]
b = [(r["method"], r["a_last_mean"]) for r in rows if r["source"] == src[1]]
assert a == b, (a, b)
# ranks: the best mean of each column has rank 1
for s in src:
    best = max(rows, key=lambda r: float(r["a_last_mean"]) if r["source"] == s else -1)
    assert best["a_last_rank"] == "1", best
PY

"$G" table --data "$S" --methods gacl,gsr,ncm --format json >"$tmp/t.json" 2>"$tmp/err" && "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["methods"] == ["gacl", "gsr", "ncm"] and d["seeds"] == [1] and len(d["results"]) == 3
assert all(r["a_last"]["std"] is None and len(r["a_last"]["values"]) == 1 for r in d["results"])
' "$tmp/t.json" && ok "json parses, one seed: std null" || bad "json"

"$G" table --data "$S" --methods gacl,gsr --seeds 1,2 --format latex >"$tmp/t.tex" 2>"$tmp/err" \
    && grep -q '^\\toprule' "$tmp/t.tex" && grep -q '^GSR & ' "$tmp/t.tex" && grep -q 'textbf' "$tmp/t.tex" \
    && grep -q '^\\end{tabular}' "$tmp/t.tex" && ok "latex" || bad "latex"
"$G" table --data "$S" --methods gacl,ncm --format markdown >"$tmp/t.md" 2>"$tmp/err" \
    && grep -q '^| SimpleCIL | ' "$tmp/t.md" && grep -q '\*\*' "$tmp/t.md" && ok "markdown" || bad "markdown"
"$G" table --sample pixels --sample mobilenetv2 --methods ncm --format csv >"$tmp/s.csv" 2>"$tmp/err" \
    && [ "$(grep -c '^ncm,fashion-mnist' "$tmp/s.csv")" -eq 2 ] && ok "--sample twice: two column groups" || bad "--sample sources"
"$G" table --methods ncm >"$tmp/t.txt" 2>"$tmp/err" && grep -q '^ncm ' "$tmp/t.txt" && ok "plain table, default source" || bad "plain table"

"$G" table --data "$S" --methods gacl,nosuch >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && one_line "--methods: unknown method 'nosuch'" && [ ! -s "$tmp/out" ] && ok "unknown method: exit 2" || bad "unknown method"
"$G" table --data "$tmp/nowhere" --methods gacl >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && one_line && [ ! -s "$tmp/out" ] && ok "missing data: exit 2, no output" || bad "missing data"
# --val-frac: the validation columns equal run's validation numbers after the last task, per seed
"$G" table --data "$S" --methods gacl,ncm --seeds 1,2 --val-frac 0.25 --format csv >"$tmp/v.csv" 2>"$tmp/err" \
    && ok "table --val-frac csv" || bad "table --val-frac csv"
for s in 1 2; do
    "$G" run --data "$S" --methods gacl,ncm --seed $s --val-frac 0.25 --format csv >"$tmp/vrun$s.csv" 2>>"$tmp/err" || bad "run --val-frac seed $s"
done
"$PY" - "$tmp/v.csv" "$tmp/vrun1.csv" "$tmp/vrun2.csv" <<'PY' && ok "validation cells = run's last-task val_acc/head/tail, mean and sample std" || bad "validation cells differ from run"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2 and all(r["val_frac"] == "0.25" for r in rows), rows
last = []
for f in sys.argv[2:]:
    d = {}
    for r in csv.DictReader(open(f)):
        d[r["method"]] = r  # the last task's row wins
    last.append(d)
for r in rows:
    for key, col in (("val_a_last", "val_acc"), ("val_head", "val_head_acc"), ("val_tail", "val_tail_acc")):
        v = [float(run[r["method"]][col]) for run in last]
        assert abs(float(r[key + "_mean"]) - statistics.mean(v)) < 1e-3, (key, r, v)
        assert abs(float(r[key + "_std"]) - statistics.stdev(v)) < 1e-3, (key, r, v)
    # the test columns come from the same runs (the split removes training rows)
    v = [float(run[r["method"]]["acc"]) for run in last]
    assert abs(float(r["a_last_mean"]) - statistics.mean(v)) < 1e-3, (r, v)
PY
for f in json markdown latex table; do
    "$G" table --data "$S" --methods gacl,ncm --val-frac 0.25 --format $f >"$tmp/v.$f" 2>"$tmp/err" || bad "table --val-frac --format $f"
done
"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["val_frac"] == 0.25 and all(type(r["val_tail"]["mean"]) in (int, float) for r in d["results"])
' "$tmp/v.json" && grep -q "v.head" "$tmp/v.markdown" && grep -q 'val.\\ tail' "$tmp/v.latex" \
    && grep -q "multicolumn{7}" "$tmp/v.latex" && grep -q "v.tail" "$tmp/v.table" && ok "validation columns in every format" \
    || bad "validation columns missing in some format"

# progress: stderr not a terminal, one line per method × seed × source as it finishes, counted
# 1..N in order, each unit once (the data's warnings aside); nothing under --quiet; on a terminal (script's pty) one line
# rewritten in place (carriage returns, no finished-unit lines)
"$G" table --data "$S" --data "$tmp/copy" --methods gacl,ncm --seeds 1,2 --format csv >"$tmp/p.csv" 2>"$tmp/p.err"
"$PY" - "$tmp/p.err" "$S" "$tmp/copy" <<'PY' && ok "progress: one line per method x seed x source, counted in order" || bad "progress lines (not a terminal)"
import re, sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if not l.startswith("gsrscope: warning:")]
assert len(lines) == 8, lines
seen = set()
for k, l in enumerate(lines, 1):
    m = re.fullmatch(r"gsrscope: table (\d+)/8 (\w+) \((.+), seed (\d+)\) done \([0-9.]+ s(; about [0-9.]+ (s|min|h) left)?\)", l)
    assert m and int(m.group(1)) == k, l
    assert (k == 8) == (m.group(5) is None), l   # the time left on every line but the last
    seen.add((m.group(2), m.group(3), m.group(4)))
assert len(seen) == 8 and {u[0] for u in seen} == {"gacl", "ncm"} and {u[2] for u in seen} == {"1", "2"}, seen
assert len({u[1] for u in seen}) == 2, seen
PY
"$G" table --data "$S" --methods gacl,ncm --seeds 1,2 --format csv --quiet >"$tmp/q.csv" 2>"$tmp/err"
if [ $? -eq 0 ] && ! grep -v "^gsrscope: warning:" "$tmp/err" | grep -q . && [ "$(wc -l <"$tmp/q.csv")" -eq 3 ]; then
    ok "progress: nothing under --quiet (its warnings only)"
else bad "table --quiet wrote on stderr"; fi
if command -v script >/dev/null 2>&1; then
    script -qec "\"$G\" table --data $S --methods gacl,ncm --seeds 1,2 --format csv >/dev/null" /dev/null >"$tmp/tty" 2>&1
    if grep -q "$(printf '\r')table 4/4 done" "$tmp/tty" && ! grep -q "^gsrscope: table" "$tmp/tty"; then
        ok "progress on a terminal: one line rewritten in place"; else bad "progress on a terminal"; fi
    script -qec "\"$G\" table --data $S --methods gacl,ncm --seeds 1,2 --format csv --quiet >/dev/null" /dev/null >"$tmp/tty" 2>&1
    if ! grep -q "table" "$tmp/tty"; then ok "progress on a terminal: nothing under --quiet"; else bad "tty --quiet"; fi
fi

# --columns: which test columns and in what order; run refuses it
"$G" table --sample mobilenetv2 --tasks 3 --methods gacl,ncm --columns tail,a_last --format csv >"$tmp/c.csv" 2>"$tmp/err" \
    && head -n 1 "$tmp/c.csv" | grep -q '^method,source,seeds,tail_mean,tail_std,a_last_mean,a_last_std,tail_rank,a_last_rank,data,' \
    && "$G" table --sample mobilenetv2 --tasks 3 --methods gacl,ncm --columns head --format latex >"$tmp/c.tex" 2>"$tmp/err" \
    && grep -q '^Method & head \\\\$' "$tmp/c.tex" && grep -q 'begin{tabular}{lc}' "$tmp/c.tex" \
    && ok "--columns tail,a_last: those columns in that order" || bad "--columns"
"$G" run --columns head >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && one_line "--columns: not an option of \`run\` (it applies to: table)" && ok "run --columns refused" || bad "run --columns"
"$G" table --columns a_last,bogus >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && one_line "--columns: unknown column 'bogus'" && [ ! -s "$tmp/out" ] && ok "--columns bogus: exit 2" || bad "--columns bogus"

# --data NAME=PATH titles the group (two folders named npy); a folder whose name holds '=' is read as it is
mkdir -p "$tmp/a/npy" "$tmp/b/npy" "$tmp/eq/k=v" && cp tests/pt/a_npy/*.npy "$tmp/a/npy/" && cp tests/pt/a_npy/*.npy "$tmp/b/npy/" \
    && cp tests/pt/a_npy/*.npy "$tmp/eq/k=v/"
"$G" table --data "first=$tmp/a/npy" --data "$tmp/b/npy" --methods ncm --tasks 2 --quiet --format csv >"$tmp/n.csv" 2>"$tmp/err" \
    && "$PY" - "$tmp/n.csv" "$tmp/a/npy" <<'PY' && ok "--data NAME=PATH titles the group NAME" || bad "--data NAME=PATH"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["source"] for r in rows] == ["first", "npy"], rows
assert rows[0]["data"] == "--data " + sys.argv[2] and rows[0]["a_last_mean"] == rows[1]["a_last_mean"], rows
PY
(cd "$tmp/eq" && "$G" table --data k=v --methods ncm --tasks 2 --quiet --format csv) >"$tmp/e.csv" 2>"$tmp/err" \
    && grep -q '^ncm,k=v,' "$tmp/e.csv" && ok "a folder named k=v is read as it is" || bad "--data k=v (a folder)"

# the values behind the table: LaTeX's % comment block above the tabular, JSON's fields
"$G" table --sample mobilenetv2 --tasks 3 --rho 10 --methods gacl,slda+gsr --seeds 3,4 --quiet --format latex >"$tmp/m.tex" 2>"$tmp/err" \
    && "$PY" - "$tmp/m.tex" <<'PY' && ok "latex: the values behind the table as a % comment block" || bad "latex comment block"
import sys
t = open(sys.argv[1]).read()
head = t[:t.index("\\begin{tabular}")].splitlines()
assert all(l.startswith("%") for l in head), head
b = "\n".join(head)
for want in ("%   seeds: 3,4", " profile=step ", " rho=10 ", "%   source fashion-mnist mobilenetv2 (sample): --sample mobilenetv2",
             "%   method gacl: tau=0.01 beta=1 alpha-base=0.6 xi=0.005", "%   method slda+gsr: tau=0.01 beta=1 alpha-base=0.6 xi=0.005 ",
             "slda-eps=0.0001"):
    assert want in b, (want, b)
PY
"$G" table --sample mobilenetv2 --tasks 3 --rho 10 --tau 0.5 --methods gacl,slda --seeds 3,4 --quiet --format json >"$tmp/m.json" 2>"$tmp/err" \
    && "$PY" - "$tmp/m.json" <<'PY' && ok "json: params, seeds and sources" || bad "json params/seeds/sources"
import json, sys
d = json.load(open(sys.argv[1]))
p = d["params"]
assert p["protocol"]["profile"] == "step" and p["protocol"]["rho"] == 10, p
assert p["methods"]["gacl"] == {"tau": 0.5, "beta": 1, "alpha-base": 0.6, "xi": 0.005}, p
assert p["methods"]["slda"]["slda-eps"] == 0.0001, p
assert d["seeds"] == [3, 4] and d["sources"] == [{"name": "fashion-mnist mobilenetv2 (sample)", "data": "--sample mobilenetv2"}], d
assert d["columns"] == ["a_last", "a_avg", "head", "tail"] and all("head" in r and "tail" in r for r in d["results"])
PY

"$G" table --data "$S" --data "$S" --methods gacl >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && one_line "--data .*given twice" && ok "same source twice: exit 2" || bad "same source twice"
"$G" run --format latex >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && one_line "--format latex: only for table" && ok "run --format latex refused" || bad "run --format latex"
"$G" run --data "$S" --data "$tmp/copy" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && one_line "give one data source" && ok "run with two sources refused" || bad "run with two sources"
"$G" table --seeds 1,x --methods gacl >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && one_line "--seeds" && ok "bad seeds: exit 2" || bad "bad seeds"
finish
