#!/bin/sh
# t_table_jobs.sh — `gsrscope table` runs two engines at once on two cores (seeds and methods
# alike): its JSON must be byte for byte the one GS_THREADS=1 prints (engines one after
# another), its peak resident set must stay within the largest sum of memory estimates the
# schedule allowed at once (printed under GS_TABLE_NEED), and a --max-memory below that sum
# must be kept and give the same bytes again. RanPAC's own 10,000-d map is built while the
# other engine runs, with OpenBLAS at its default thread count as a user runs it: its values
# must equal `run --methods ranpac` alone. RanPAC's pair shares one work matrix in a table (its
# assemblies and solves one method after the other): on two workers its bytes must be those of
# one, and its peak stay within the schedule's estimate, which counts the matrix once.
# Prints "N passed, N failed".
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
unset OPENBLAS_NUM_THREADS # as a user runs it: the schedule must not depend on BLAS's threads
OPT="--sample pixels --tasks 3 --methods ranpac,gacl+gsr,ncm,slda --seeds 1,2 --format json"
# peak RSS (bytes) of a command, its stdout and stderr to files: python's wait4
peak() {
    out=$1; err=$2; shift 2
    "$PY" - "$out" "$err" "$@" <<'PY'
import os, resource, subprocess, sys
with open(sys.argv[1], "wb") as o, open(sys.argv[2], "wb") as e:
    p = subprocess.Popen(sys.argv[3:], stdout=o, stderr=e)
    _, status, ru = os.wait4(p.pid, 0)
print(ru.ru_maxrss * 1024 if status == 0 else -1)
PY
}
GS_THREADS=1 "$G" table $OPT >"$tmp/serial.json" 2>"$tmp/err" || bad "table, GS_THREADS=1"
got=$(GS_TABLE_NEED=1 peak "$tmp/par.json" "$tmp/par.err" "$G" table $OPT)
cp "$tmp/par.err" "$tmp/err"
[ "$got" -gt 0 ] 2>/dev/null || bad "table, two engines at once"
cmp -s "$tmp/serial.json" "$tmp/par.json" && ok "two engines at once: the same bytes as one after another" \
    || { diff "$tmp/serial.json" "$tmp/par.json" | head -n 5 >"$tmp/err"; bad "two engines at once differ from one after another"; }
need=$(sed -n 's/^gsrscope: table estimate at most \([0-9]*\) bytes at once$/\1/p' "$tmp/par.err")
if [ -n "${GS_SANITIZED:-}" ]; then skip "peak check under sanitizers (shadow memory is not the program's)"
else [ -n "$need" ] && [ "$got" -le "$need" ] && ok "peak $got bytes within the schedule's estimate $need" \
    || bad "peak $got bytes above the schedule's estimate '${need}'"; fi
grep -q "table estimate" "$tmp/serial.json" && bad "the estimate line went to stdout"
# a budget the schedule must keep to (klda's estimate is the largest; three quarters of the
# default sum at once holds no two of them beside the rest): the same bytes as one after another
OPT2="--sample pixels --tasks 3 --klda-dim 1500 --methods klda,gacl+gsr,fecam --seeds 1,2 --format json"
GS_THREADS=1 "$G" table $OPT2 >"$tmp/serial2.json" 2>"$tmp/err" || bad "table (klda), GS_THREADS=1"
GS_TABLE_NEED=1 "$G" table $OPT2 >/dev/null 2>"$tmp/err" || bad "table (klda)"
n0=$(sed -n 's/^gsrscope: table estimate at most \([0-9]*\) bytes at once$/\1/p' "$tmp/err")
cap=$((n0 * 3 / 4))
GS_TABLE_NEED=1 "$G" table $OPT2 --max-memory $cap >"$tmp/cap.json" 2>"$tmp/err" || bad "table --max-memory $cap"
cmp -s "$tmp/serial2.json" "$tmp/cap.json" && ok "--max-memory $cap: the same bytes" || bad "--max-memory $cap differs"
n1=$(sed -n 's/^gsrscope: table estimate at most \([0-9]*\) bytes at once$/\1/p' "$tmp/err")
[ -n "$n1" ] && [ "$n1" -le "$cap" ] && [ "$n1" -lt "$n0" ] && ok "the budget kept: $n1 bytes at once within $cap (default $n0)" \
    || bad "budget: $n1 bytes at once, over $cap (default $n0)"
"$G" run --sample pixels --tasks 3 --methods ranpac --seed 2 --format json >"$tmp/run.json" 2>"$tmp/err" || bad "run ranpac"
"$PY" - "$tmp/par.json" "$tmp/run.json" <<'PY' && ok "ranpac's values = run --methods ranpac alone" || bad "ranpac differs from run"
import json, sys
t = json.load(open(sys.argv[1])); r = json.load(open(sys.argv[2]))["methods"][0]
row = [x for x in t["results"] if x["method"] == "ranpac"][0]
for key in ("a_last", "a_avg"):
    a, b = row[key]["values"][1], r[key]
    assert abs(a - b) <= 1e-9 * max(1, abs(b)), (key, a, b)
PY
# ranpac and ranpac+gsr share one work matrix in a table (two workers, a D large enough for a
# solve to take a while: without the order between their assemblies and solves this fails)
OPT3="--synthetic --expand 3000 --tasks 5 --methods ranpac,ranpac+gsr --seeds 1 --format json"
got=$(GS_TABLE_NEED=1 peak "$tmp/pair.json" "$tmp/pair.err" "$G" table $OPT3)
need=$(sed -n 's/^gsrscope: table estimate at most \([0-9]*\) bytes at once$/\1/p' "$tmp/pair.err")
[ "$got" -gt 0 ] 2>/dev/null || { cp "$tmp/pair.err" "$tmp/err"; bad "table, ranpac pair"; }
if [ -n "${GS_SANITIZED:-}" ]; then skip "peak check under sanitizers (shadow memory is not the program's)"
else [ -n "$need" ] && [ "$got" -gt 0 ] && [ "$got" -le "$need" ] && ok "ranpac pair, one work matrix: peak $got bytes within the estimate $need" \
    || bad "ranpac pair: peak $got bytes above the schedule's estimate '${need}'"; fi
GS_THREADS=1 "$G" table $OPT3 >"$tmp/pair1.json" 2>"$tmp/err" || bad "table, ranpac pair, GS_THREADS=1"
cmp -s "$tmp/pair1.json" "$tmp/pair.json" && ok "ranpac pair sharing a work matrix on two workers: the bytes of one worker" \
    || { diff "$tmp/pair1.json" "$tmp/pair.json" | head -n 5 >"$tmp/err"; bad "ranpac pair: two workers differ from one"; }
finish
