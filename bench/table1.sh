#!/bin/sh
# table1.sh — the paper's whole Table 1 (eleven methods, three seeds, the synthetic set) as a user
# runs it, for `make bench` (bench/run.sh calls it last): wall and CPU time (user + sys) and peak
# resident set of the one `gsrscope table` process, against the targets (≤ 12 min wall, ≤ 4 GB
# peak), the load average around it (two shared cores make the wall time noisy, the CPU time and
# the peak much less), and the table itself (run as --format json for its digits; the LaTeX is
# made from the same values). Its means are compared with bench/table1_ref.tex, the command's
# LaTeX from gsrscope before the table's schedule and memory work (main at 77b4ba5; the largest
# difference of a cell's mean, in points; the agreement rule allows 0.1); BENCH_TABLE1_DOUBLE=1
# also runs the command with --precision double and compares with that (as long again).
# Usage: bench/table1.sh GSRSCOPE_BINARY    Prints lines "bench: table1_... VALUE UNIT (...)".
set -eu
GS=${1:?usage: bench/table1.sh GSRSCOPE_BINARY}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-/usr/bin/python3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
METHODS=slda,fecam,ncm,klda,air,gacl,gacl+gsr,ranpac,ranpac+gsr,anacp,anacp+gsr
load0=$(cut -d' ' -f1-3 /proc/loadavg)
/usr/bin/time -v -o "$TMP/time" "$GS" table --synthetic --methods $METHODS --seeds 1,2,3 --format json --quiet \
    > "$TMP/t.json"
load1=$(cut -d' ' -f1-3 /proc/loadavg)
"$PY" - "$TMP/time" "$load0" "$load1" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
def field(name):
    return re.search(re.escape(name) + r":\s*(\S+)", t).group(1)
wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")
wall = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall)))
cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
rss = float(field("Maximum resident set size (kbytes)")) / 1024
print("bench: table1_wall %.0f s (target <= 720 s; CPU %.0f s user+sys, %.2f cores busy on average; load average %s before, %s after)"
      % (wall, cpu, cpu / wall if wall else 0, sys.argv[2], sys.argv[3]))
print("bench: table1_peak_rss %.0f MB (target <= 4096 MB)" % rss)
PY
# the largest difference of a cell's mean against a reference table in LaTeX (the same command's
# output, means to two decimals: a difference below 0.005 is rounding)
compare() {
    "$PY" - "$TMP/t.json" "$1" "$2" <<'PY'
import json, re, sys
a = json.load(open(sys.argv[1]))
rows = open(sys.argv[2]).read().split("\\midrule")[1].split("\\bottomrule")[0].strip().split("\\\\")
rows = [r.strip() for r in rows if r.strip()]
assert len(rows) == len(a["results"]), (len(rows), len(a["results"]))
worst, where = 0.0, "none"
for r, row in zip(a["results"], rows):
    cells = [re.sub(r"\\(textbf|underline)\{|\}", "", c).strip() for c in row.split("&")[1:3]]
    for key, c in zip(("a_last", "a_avg"), cells):
        if r[key]["mean"] is None or c == "--": continue
        ref = float(c.split("$\\pm$")[0])
        if abs(r[key]["mean"] - ref) > worst: worst, where = abs(r[key]["mean"] - ref), "%s %s" % (r["method"], key)
print("bench: table1_vs_%s %.3f points (largest difference of a cell's mean: %s; the reference to two decimals; agreement rule: <= 0.1)"
      % (sys.argv[3], worst, where))
PY
}
if [ -f "$HERE/table1_ref.tex" ]; then compare "$HERE/table1_ref.tex" ref; fi
if [ "${BENCH_TABLE1_DOUBLE:-0}" = 1 ]; then
    "$GS" table --synthetic --methods $METHODS --seeds 1,2,3 --format latex --quiet --precision double > "$TMP/d.tex"
    compare "$TMP/d.tex" double
fi
"$PY" - "$TMP/t.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
print("bench: table1 (A_last, A_avg: mean ± std over seeds %s)" % ",".join(map(str, t["seeds"])))
for r in t["results"]:
    f = lambda s: "—" if s["mean"] is None else "%.2f ± %.2f" % (s["mean"], s["std"] or 0)
    print("bench:   %-11s %16s %16s" % (r["method"], f(r["a_last"]), f(r["a_avg"])))
PY
