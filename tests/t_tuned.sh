#!/bin/sh
# t_tuned.sh — each method's own values (--tuned FILE, --set METHOD.KEY=V; gsrscope(1) "EACH
# METHOD'S OWN VALUES"): run, table and export give each method exactly the numbers it has when
# run alone with its values as global options; --set wins over the file; every bad input is one
# line and exit 2; the values are recorded per method. Compared between independent runs (the
# values given as --tau/--beta) and read back with Python's json/csv.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
X=1.7221381097981776 # gacl's τ
Y=33.72              # gacl+gsr's τ
cat >"$tmp/t.txt" <<EOF
# tuned by hand for the test
gacl.tau=$X

  gacl+gsr.tau = $Y   # spaces and comments
gacl+gsr.beta=2
fecam.fecam_alpha=100
EOF
R="--quiet --tasks 5"

# run: per method exactly the numbers of the method alone with its values given globally
"$G" run $R --tuned "$tmp/t.txt" --methods gacl,gacl+gsr --format csv >"$tmp/both.csv" 2>"$tmp/err"; rc=$?
"$G" run $R --tau $X --methods gacl --format csv >"$tmp/a.csv" 2>>"$tmp/err"
"$G" run $R --tau $Y --beta 2 --methods gacl+gsr --format csv >"$tmp/b.csv" 2>>"$tmp/err"
no_seconds "$tmp/both.csv" >"$tmp/both"
{ no_seconds "$tmp/a.csv"; no_seconds "$tmp/b.csv" | tail -n +2; } >"$tmp/ab"
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/both")" -eq 11 ] && cmp -s "$tmp/both" "$tmp/ab" \
    && ok "run --tuned: gacl's and gacl+gsr's rows are run --tau $X and run --tau $Y --beta 2's" \
    || bad "run --tuned per method (exit $rc)"
"$G" run --tasks 5 --tuned "$tmp/t.txt" --methods gacl,gacl+gsr --format csv >/dev/null 2>"$tmp/err"
[ "$(grep -c "fecam left out" "$tmp/err")" -eq 1 ] && ok "run says once which methods of the file it does not run" \
    || bad "run: no word of fecam left out"
# the two values differ: the two must differ too (the check can fail)
"$G" run $R --methods gacl,gacl+gsr --format csv 2>/dev/null | no_seconds >"$tmp/plain"
cmp -s "$tmp/plain" "$tmp/both" && bad "run --tuned gave the numbers of the global values" || ok "the tuned values change the numbers"

# JSON: a_last per method as alone, and params.method_params records each method's own values
"$G" run $R --tuned "$tmp/t.txt" --methods gacl,gacl+gsr --format json >"$tmp/both.json" 2>"$tmp/err"
"$G" run $R --tau $X --methods gacl --format json >"$tmp/a.json" 2>>"$tmp/err"
"$G" run $R --tau $Y --beta 2 --methods gacl+gsr --format json >"$tmp/b.json" 2>>"$tmp/err"
$PY - "$tmp" $X $Y <<'PYEOF' && ok "run JSON: a_last, a_avg per method as alone; method_params per method" || bad "run JSON per method"
import json, sys
d, x, y = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
both = json.load(open(d + "/both.json")); a = json.load(open(d + "/a.json")); b = json.load(open(d + "/b.json"))
m = {r["name"]: r for r in both["methods"]}
assert m["gacl"]["a_last"] == a["methods"][0]["a_last"] and m["gacl"]["a_avg"] == a["methods"][0]["a_avg"]
assert m["gacl+gsr"]["a_last"] == b["methods"][0]["a_last"] and m["gacl+gsr"]["a_avg"] == b["methods"][0]["a_avg"]
mp = both["params"]["method_params"]
assert mp["gacl"] == {"tau": x}, mp
assert mp["gacl+gsr"] == {"beta": 2, "tau": y}, mp
PYEOF

# --set wins over the file, and over --tau for its method only
"$G" run $R --tuned "$tmp/t.txt" --set gacl.tau=5 --tau 7 --methods gacl,ncm --format csv 2>/dev/null | no_seconds >"$tmp/s"
"$G" run $R --tau 5 --methods gacl,ncm --format csv 2>/dev/null | no_seconds >"$tmp/s5"
cmp -s "$tmp/s" "$tmp/s5" && ok "--set gacl.tau=5 wins over the file's and over --tau 7" || bad "--set over the file"

# equal values: one engine, the numbers of no --tuned at all
printf 'gacl.tau=0.01\ngsr.tau=0.01\n' >"$tmp/eq.txt"
"$G" run $R --tuned "$tmp/eq.txt" --format csv 2>/dev/null | no_seconds >"$tmp/eq"
"$G" run $R --format csv 2>/dev/null | no_seconds >"$tmp/none"
[ -s "$tmp/eq" ] && cmp -s "$tmp/eq" "$tmp/none" && ok "values equal to the global ones: the numbers of a plain run" || bad "equal values"

# table: A_last, A_avg, head, tail per seed equal run's with the file, per seed
"$G" table $R --tuned "$tmp/t.txt" --methods gacl,gacl+gsr,ncm --seeds 1,2 --format json >"$tmp/table.json" 2>"$tmp/err"; rc=$?
for s in 1 2; do
    "$G" run $R --tuned "$tmp/t.txt" --methods gacl,gacl+gsr,ncm --seed $s --format json >"$tmp/run$s.json" 2>/dev/null
done
[ $rc -eq 0 ] && $PY - "$tmp" $X $Y <<'PYEOF' && ok "table --tuned --seeds 1,2: every value equals run --tuned's at that seed; params per method" || bad "table --tuned (exit $rc)"
import json, sys
d, x, y = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
t = json.load(open(d + "/table.json"))
for k, s in enumerate((1, 2)):
    r = json.load(open(d + "/run%d.json" % s))
    for m in r["methods"]:
        row = [e for e in t["results"] if e["method"] == m["name"]][0]
        last = m["tasks"][-1]
        for key, v in (("a_last", m["a_last"]), ("a_avg", m["a_avg"]), ("head", last["head_acc"]), ("tail", last["tail_acc"])):
            got = row[key]["values"][k]
            assert (got is None and v is None) or abs(got - v) < 1e-6, (m["name"], s, key, got, v)
p = t["params"]["methods"]
assert p["gacl"]["tau"] == x and p["gacl+gsr"]["tau"] == y and p["gacl+gsr"]["beta"] == 2 and p["ncm"]["tau"] == 0.01, p
PYEOF
"$G" table $R --tuned "$tmp/t.txt" --methods gacl,gacl+gsr --format latex >"$tmp/t.tex" 2>"$tmp/err"
grep -q "^%  *method gacl: tau=$X " "$tmp/t.tex" && grep -q "^%  *method gacl+gsr: tau=$Y beta=2 " "$tmp/t.tex" \
    && ok "table's LaTeX % block gives each method's own values" || bad "LaTeX % block"
"$G" table $R --tuned "$tmp/t.txt" --methods gacl,gacl+gsr --format csv >"$tmp/t.csv" 2>"$tmp/err"
$PY - "$tmp" $X $Y <<'PYEOF' && ok "table's CSV: tau and beta columns per method" || bad "table CSV params"
import csv, sys
d, x, y = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
rows = {r["method"]: r for r in csv.DictReader(open(d + "/t.csv"))}
assert float(rows["gacl"]["tau"]) == x and float(rows["gacl+gsr"]["tau"]) == y and float(rows["gacl+gsr"]["beta"]) == 2, rows
PYEOF

# export: the accuracy figure's numbers per method as alone
"$G" export $R --tuned "$tmp/t.txt" --methods gacl,gacl+gsr --figure accuracy -o "$tmp/e.png" --csv "$tmp/e.csv" 2>"$tmp/err"; rc=$?
"$G" export $R --tau $X --methods gacl --figure accuracy -o "$tmp/ea.png" --csv "$tmp/ea.csv" 2>>"$tmp/err"
"$G" export $R --tau $Y --beta 2 --methods gacl+gsr --figure accuracy -o "$tmp/eb.png" --csv "$tmp/eb.csv" 2>>"$tmp/err"
grep -v "GSR" "$tmp/e.csv" >"$tmp/e1"; grep -v "GSR" "$tmp/ea.csv" >"$tmp/e2"
grep "GSR" "$tmp/e.csv" >"$tmp/e3"; grep "GSR" "$tmp/eb.csv" >"$tmp/e4"
[ $rc -eq 0 ] && [ -s "$tmp/e3" ] && cmp -s "$tmp/e1" "$tmp/e2" && cmp -s "$tmp/e3" "$tmp/e4" \
    && ok "export --tuned: the accuracy figure's numbers per method as alone" || bad "export --tuned (exit $rc)"
"$G" export $R --tuned "$tmp/t.txt" --methods gacl,gacl+gsr --figure tau-sweep -o "$tmp/ts.png" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "--figure tau-sweep" && ok "a figure solving both in one engine is refused when their values differ" \
    || bad "export tau-sweep split (exit $rc)"

# --save-state: params.json records each method's values, each method's folder its own τ
"$G" run $R --tuned "$tmp/t.txt" --methods gacl,gacl+gsr --save-state "$tmp/st" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && $PY - "$tmp" $X $Y <<'PYEOF' && ok "--save-state: params.json and each method's manifest give its own values" || bad "--save-state (exit $rc)"
import json, sys
d, x, y = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
p = json.load(open(d + "/st/params.json"))
assert p["method_params"]["gacl+gsr"]["tau"] == y
assert json.load(open(d + "/st/gacl/manifest.json"))["tau"] == x
assert json.load(open(d + "/st/gacl+gsr/manifest.json"))["tau"] == y
PYEOF

# bad input: one line naming the file and line (or --set) and the problem, exit 2
bad_case() { # NAME PATTERN FILE-CONTENT [more options]
    name=$1; pat=$2; printf '%b' "$3" >"$tmp/bad.txt"; shift 3
    "$G" run $R --tuned "$tmp/bad.txt" --methods gacl,gacl+gsr "$@" >/dev/null 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] && one_line "$pat" && ok "refused with one line: $name" || bad "$name (exit $rc)"
}
bad_case "an unknown method" "$tmp/bad.txt:2: nosuch.tau: unknown method" '# c\nnosuch.tau=1\n'
bad_case "a key the method does not use" "$tmp/bad.txt:1: gacl.beta: gacl does not use beta" 'gacl.beta=2\n'
bad_case "a value out of range" "$tmp/bad.txt:3: gacl.tau: --tau: must be" 'gacl.tau=1\n\ngacl.tau=-1\n'
bad_case "not a number" "$tmp/bad.txt:1: gacl+gsr.beta: --beta: 'x' is not a finite number" 'gacl+gsr.beta=x\n'
bad_case "an unknown key" "$tmp/bad.txt:1: gacl.nosuch: 'nosuch' is not a method's parameter" 'gacl.nosuch=1\n'
bad_case "a stream parameter" "$tmp/bad.txt:1: gacl.tasks: 'tasks' is not a method's parameter" 'gacl.tasks=3\n'
bad_case "a line without '='" "$tmp/bad.txt:1: expected METHOD.KEY=VALUE" 'gacl.tau\n'
bad_case "a key without a method" "$tmp/bad.txt:1: 'tau' is not METHOD.KEY" 'tau=1\n'
bad_case "a bad --set" "--set: gacl.beta: gacl does not use beta" 'gacl.tau=1\n' --set gacl.beta=3
"$G" run $R --tuned "$tmp/missing.txt" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "--tuned $tmp/missing.txt: No such file" && ok "refused with one line: a missing file" || bad "missing file (exit $rc)"
# an endless input (a device, a FIFO that never ends) is refused at its first NUL, not read forever
timeout 10 "$G" run $R --tuned /dev/zero >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "/dev/zero: line 1: contains a NUL byte" && ok "refused with one line: --tuned /dev/zero" || bad "--tuned /dev/zero (exit $rc)"
head -c 2000000 /dev/zero | tr '\0' '#' >"$tmp/big.txt"
"$G" run $R --tuned "$tmp/big.txt" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "$tmp/big.txt: larger than" && ok "refused with one line: a 2 MB --tuned file" || bad "--tuned 2 MB (exit $rc)"
"$G" run $R --set gacl.tau >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "--set: expected METHOD.KEY=VALUE" && ok "refused with one line: --set without '='" || bad "--set syntax (exit $rc)"
"$G" sweep $R --tuned "$tmp/t.txt" --param tau=1,2 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "--tuned: not an option of \`sweep\` (it applies to: run, export, table)" \
    && ok "--tuned: refused by the commands it does not apply to" || bad "sweep --tuned (exit $rc)"
"$G" run $R --tuned "$tmp/t.txt" --methods gacl,gacl+gsr --theorem >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "--theorem: compares the methods of one engine" && ok "run --theorem with split values: refused" \
    || bad "--theorem split (exit $rc)"
finish
