#!/bin/sh
# CLI contract: CSV header and rows, exit codes, one-line errors, --help agrees with the man page.
G=${GSRSCOPE:-build/gsrscope}
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL $*"; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

"$G" run --format csv > "$t/out.csv" 2> "$t/err"; rc=$?
[ $rc -eq 0 ] && ok || bad "run on the bundled sample: exit $rc: $(cat "$t/err")"
h=$(head -n 1 "$t/out.csv")
[ "$h" = "method,task,classes_seen,rows_seen,aug_rows,acc,head_acc,tail_acc,stable_rank,cond,erank,lambda_max,lambda_min,seconds,df" ] && ok || bad "CSV header: $h"
n=$(($(wc -l < "$t/out.csv") - 1))
[ "$n" -eq 20 ] && ok || bad "CSV rows: $n (want 20)"
grep -qi nan "$t/out.csv" && bad "NaN printed as a number" || ok

"$G" run --synthetic --tasks 4 --format csv > "$t/syn.csv" 2> "$t/err"; rc=$?
[ $rc -eq 0 ] && [ $(($(wc -l < "$t/syn.csv") - 1)) -eq 8 ] && ok || bad "synthetic 4 tasks: exit $rc, $(wc -l < "$t/syn.csv") lines"
"$G" run --synthetic --tasks 4 --format csv | cut -d, -f1-13 > "$t/syn2.csv"
cut -d, -f1-13 "$t/syn.csv" | cmp -s - "$t/syn2.csv" && ok || bad "same inputs and seed → same numbers"
"$G" run --format json > "$t/out.json" && /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['methods'])==2 and len(d['methods'][0]['tasks'])==10" "$t/out.json" && ok || bad "JSON output parses"

expect2() {
    desc=$1; shift
    "$G" "$@" > "$t/o" 2> "$t/e"; rc=$?
    lines=$(wc -l < "$t/e")
    if [ $rc -eq 2 ] && [ ! -s "$t/o" ] && [ "$lines" -eq 1 ] && grep -q '^gsrscope: ' "$t/e"; then ok
    else bad "$desc: exit $rc, stdout $(wc -c < "$t/o") bytes, stderr: $(cat "$t/e")"; fi
}
expect2 "tau < 0" run --tau -1
expect2 "tasks < 1" run --tasks 0
expect2 "alpha_base <= 0" run --alpha-base 0
expect2 "head-frac outside (0,1)" run --head-frac 1
expect2 "unknown option" run --bogus
expect2 "missing value" run --tau
expect2 "not a number" run --beta abc
expect2 "unknown method" run --methods gacl,nope
expect2 "unknown command" frobnicate
expect2 "two data sources" run --synthetic --data /tmp
expect2 "missing data folder" run --data /nonexistent/folder
expect2 "absurd expansion" run --expand 200000

"$G" --help > "$t/help" && ok || bad "--help exit"
"$G" --version | grep -q '^gsrscope ' && ok || bad "--version"
if [ -f man/gsrscope.1 ]; then
    missing=""
    for o in $(grep -o -- '--[a-z][a-z0-9-]*' "$t/help" | sort -u); do
        esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
        grep -q -- "$esc" man/gsrscope.1 || grep -q -- "$o" man/gsrscope.1 || missing="$missing $o"
    done
    [ -z "$missing" ] && ok || bad "options in --help but not in the man page:$missing"
    # the subcommands: --help's lines (main.c's table) and the man page's SYNOPSIS name the same
    # set, and each named one is a command the parser accepts
    sed -n 's/^[A-Za-z: ]*gsrscope \([a-z][a-z]*\) .*/\1/p' "$t/help" | sort > "$t/cmds.help"
    sed -n 's/^\.B gsrscope \([a-z][a-z]*\)$/\1/p' man/gsrscope.1 | sort -u > "$t/cmds.man"
    [ -s "$t/cmds.help" ] && cmp -s "$t/cmds.help" "$t/cmds.man" && ok \
        || bad "subcommands: --help has $(tr '\n' ' ' < "$t/cmds.help"), the man page's SYNOPSIS $(tr '\n' ' ' < "$t/cmds.man")"
    for c in $(cat "$t/cmds.help"); do
        "$G" "$c" --help > /dev/null 2>&1 && ok || bad "gsrscope $c --help: refused"
    done
fi

# --save-state: NumPy reproduces G, Q, W, eigenvalues, predictions, accuracy, stable rank, cond
"$G" run --tasks 5 --save-state "$t/state" --format csv > "$t/st.csv" 2>"$t/err" && ok || bad "save-state run: $(cat "$t/err")"
/usr/bin/python3 - "$t/state" "$t/st.csv" <<'PY' && ok || bad "NumPy reproduces the saved state"
import sys, json, csv, numpy as np
d, csvf = sys.argv[1], sys.argv[2]
X = np.load(d + "/rows.npy"); y = np.load(d + "/rows_labels.npy")
Xt = np.load(d + "/test_rows.npy"); yt = np.load(d + "/test_labels.npy")
p = json.load(open(d + "/params.json")); tau = p["tau"]; beta = p["beta"]
order = np.load(d + "/class_order.npy"); C = p["classes"]
rows = {(r["method"], int(r["task"])): r for r in csv.DictReader(open(csvf))}
T = max(t for (_, t) in rows)
for m in ["gacl", "gsr"]:
    G = X.T @ X; Y = np.zeros((len(y), C)); Y[np.arange(len(y)), y] = 1; Q = X.T @ Y
    if m == "gsr":
        A = np.load(d + "/gsr/aug_rows.npy"); ya = np.load(d + "/gsr/aug_labels.npy")
        Ya = np.zeros((len(ya), C)); Ya[np.arange(len(ya)), ya] = 1
        G = G + beta * A.T @ A; Q = Q + beta * A.T @ Ya
    Gs = np.load(f"{d}/{m}/G.npy"); Qs = np.load(f"{d}/{m}/Q.npy"); Ws = np.load(f"{d}/{m}/W.npy")
    assert np.abs(G - Gs).max() <= 1e-9 * np.abs(G).max(), m + " G"
    assert np.abs(Q - Qs).max() <= 1e-9 * np.abs(Q).max(), m + " Q"
    W = np.linalg.solve(G + tau * np.eye(len(G)), Q)
    assert np.abs(W - Ws).max() <= 1e-7 * np.abs(W).max(), m + " W"
    lam = np.sort(np.linalg.eigvalsh(G + tau * np.eye(len(G))))[::-1]
    ev = np.load(f"{d}/{m}/eigvals.npy")
    assert np.abs(lam - ev).max() <= 1e-9 * lam[0], m + " eigenvalues"
    seen = order  # all classes of the run are seen at the last task
    S = Xt @ W[:, seen]; pred = seen[np.argmax(S, axis=1)]
    ps = np.load(f"{d}/{m}/pred.npy")
    assert (pred == ps).mean() > 0.999, m + " predictions"
    acc = 100 * (ps == yt).mean()
    r = rows[(m, T)]
    assert abs(acc - float(r["acc"])) < 1e-3, m + " accuracy"
    sr = (lam ** 2).sum() / lam[0] ** 2
    assert abs(sr - float(r["stable_rank"])) <= 1e-8 * sr, m + " stable rank"
    cond = lam[0] / lam[-1]
    assert abs(cond - float(r["cond"])) <= 1e-6 * cond, m + " cond"
PY

# Theorem 1 figure: bound ≤ actual at every task, and sr(G+τI) equals run's exact stable rank
"$G" export --figure theorem --tasks 3 -o "$t/th.png" --csv "$t/th.csv" --quiet 2> "$t/err" && ok || bad "export --figure theorem: $(cat "$t/err")"
"$G" run --tasks 3 --spectrum all --format csv > "$t/th_run.csv" 2>/dev/null
/usr/bin/python3 - "$t/th.csv" "$t/th_run.csv" <<'PY' && ok || bad "Theorem 1 figure numbers"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
run = {(r["method"], int(r["task"])): r for r in csv.DictReader(open(sys.argv[2]))}
ser = {}
for r in rows: ser.setdefault(r["series"], {})[int(float(r["x"]))] = float(r["y"])
before = next(v for k, v in ser.items() if k.startswith("GACL"))
after = next(v for k, v in ser.items() if k.startswith("GSR"))
bound = next(v for k, v in ser.items() if "bound" in k)
assert sorted(before) == [1, 2, 3]
for t in before:
    assert bound[t] <= after[t] * (1 + 1e-9), (t, bound[t], after[t])
    assert abs(before[t] - float(run[("gacl", t)]["stable_rank"])) <= 1e-8 * before[t], t
    assert abs(after[t] - float(run[("gsr", t)]["stable_rank"])) <= 1e-8 * after[t], t
PY

# an output folder that cannot be created → exit 1, one line
"$G" run --tasks 2 --save-state /proc/nope/state > /dev/null 2> "$t/e"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$t/e")" -eq 1 ] && ok || bad "save-state into an impossible folder: exit $rc $(cat "$t/e")"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
