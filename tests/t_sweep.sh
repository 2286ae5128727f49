#!/bin/sh
# t_sweep.sh — `gsrscope sweep` on the bundled sample: row counts, parseable CSV and JSON,
# one-seed table, usage errors. Prints "N passed, N failed".
G=${GSRSCOPE:-build/gsrscope}
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $1"; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

"$G" sweep --param rho=10,50 --param tau=0.01,1 --seeds 1,2 --methods gacl,ncm --format csv >"$T/s.csv" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && ok || bad "csv sweep exit $rc: $(cat "$T/err")"
[ "$(wc -l <"$T/s.csv")" -eq 5 ] && ok || bad "csv: expected header + 4 rows, got $(wc -l <"$T/s.csv")"
head -n 1 "$T/s.csv" | grep -q '^rho,tau,seeds,gacl_a_last_mean,gacl_a_last_std,' && ok || bad "csv header: $(head -n 1 "$T/s.csv")"
# every row: 3 + 2 methods × 8 fields, numbers in [0, 100], std present with 2 seeds
awk -F, 'NR>1 { if (NF != 19) exit 1; for (i = 4; i <= NF; i++) if ($i == "" || $i < 0 || $i > 100) exit 1 }' "$T/s.csv" \
    && ok || bad "csv rows malformed"
awk -F, 'NR==2 && $1==10 && $2==0.01 && $3==2' "$T/s.csv" | grep -q . && ok || bad "csv first point is rho=10 tau=0.01"

# progress (stderr not a terminal): one line per grid point × seed, counted 1..8 in order
# (the data's warnings aside); nothing under --quiet
grep -v '^gsrscope: warning:' "$T/err" >"$T/prog"
awk '{ if ($0 !~ "^gsrscope: sweep " NR "/8 rho=(10|50) tau=(0.01|1) seed=[12] done \\([0-9.]+ s(; about [0-9.]+ (s|min|h) left)?\\)$") exit 1 }
     END { exit NR != 8 }' "$T/prog" && ok || bad "sweep progress lines: $(cat "$T/prog")"
[ "$(sort -u "$T/prog" | sed 's/ done.*//; s/^gsrscope: sweep [0-9]*\/8 //' | sort -u | wc -l)" -eq 8 ] && ok || bad "sweep progress: each unit once"
"$G" sweep --param rho=10,50 --seeds 1,2 --methods ncm --format csv --quiet >/dev/null 2>"$T/err"
[ $? -eq 0 ] && ! grep -v '^gsrscope: warning:' "$T/err" | grep -q . && ok || bad "sweep --quiet printed progress: $(cat "$T/err")"

"$G" sweep --param tau=0.01,1,100 --methods gacl,gsr --format json >"$T/s.json" 2>"$T/err"
[ $? -eq 0 ] && ok || bad "json sweep: $(cat "$T/err")"
python3 - "$T/s.json" <<'PY' && ok || bad "json does not parse or has the wrong shape"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["params"] == ["tau"] and d["methods"] == ["gacl", "gsr"] and d["seeds"] == [1]
assert len(d["points"]) == 3 and d["points"][2]["point"]["tau"] == 100 and d["points"][0]["point"]["tau"] == 0.01  # numbers, not strings
r = d["points"][0]["results"]["gsr"]["a_last"]
assert r["n"] == 1 and r["std"] is None and 0 <= r["mean"] <= 100 and r["values"] == [r["mean"]]
PY

# the sweep's τ=0.01 point equals a plain run
a=$("$G" run --methods gacl,gsr --format json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.4f" % d["methods"][1]["a_last"])')
b=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.4f" % d["points"][0]["results"]["gsr"]["a_last"]["mean"])' "$T/s.json")
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "sweep point ($b) differs from run ($a)"

"$G" sweep --param rho=10,20 --methods gacl >"$T/s.txt" 2>"$T/err"
[ $? -eq 0 ] && ok || bad "table sweep: $(cat "$T/err")"
[ "$(grep -cE '^(10|20) ' "$T/s.txt")" -eq 2 ] && ok || bad "table: expected 2 rows"

"$G" sweep --param nosuch=1,2 >/dev/null 2>"$T/err"; [ $? -eq 2 ] && grep -q nosuch "$T/err" && ok || bad "unknown parameter must exit 2"
"$G" sweep --param tau=abc >/dev/null 2>"$T/err"; [ $? -eq 2 ] && ok || bad "bad value must exit 2"
"$G" sweep --param tau=1 --seeds 1,x >/dev/null 2>"$T/err"; [ $? -eq 2 ] && ok || bad "bad seed must exit 2"
"$G" sweep --param seed=1,2 >/dev/null 2>"$T/err"; [ $? -eq 2 ] && grep -q -- --seeds "$T/err" && ok || bad "seed axis points to --seeds"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
