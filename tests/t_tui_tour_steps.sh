#!/bin/sh
# t_tui_tour_steps.sh — every step of both tours (assets/tours/bundled.tour on the MobileNetV2
# sample, synthetic.tour on --synthetic) says of the run only what the screen shows: in the real
# TUI (tmux, 120×40) each step's box is read once its numbers are computed and compared with the
# step's text filled by an independent Python reading of the placeholders (man gsrscope, TOURS)
# from `run --format csv` at the step's parameters (acc, head, tail, stable rank at the step's
# task) and the ridge lens' CSV (`export --figure ridge-lens --csv`: df = Σ filter factors, the
# tail's median share above τ) — numbers and the words their rules pick ("falls from", "higher").
# A step text must hold no number of a run it does not show: no digits but the placeholders', the
# parameters' and the paper's (checked on the filled text: a new literal number fails).
# Skips when tmux or $GSRSCOPE is missing.
TUI_TEST=tour_steps
. "$(dirname "$0")/tui_lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
TOURS="$(cd "$(dirname "$0")/.." && pwd)/assets/tours"
start() {
    rm -f "$TMPD/rc"
    T kill-session -t tui >/dev/null 2>&1
    T new-session -d -s tui -x 120 -y 40 \
        "cd '$TMPD' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=tmux-256color '$GSRSCOPE' $* 2>err; echo \$? > rc; sleep 30"
}

cat > "$TMPD/fill.py" <<'PYEOF'
# fill.py TOUR STEP DIR: the step's text lines filled from DIR's CSVs (run_<setkey>.csv,
# lens_<setkey>.csv), one line each; the run's parameters follow the tour's set: lines.
import csv, statistics, sys, re
tour, k, d = sys.argv[1], int(sys.argv[2]), sys.argv[3]
steps = []
for line in open(tour, encoding="utf-8"):
    line = line.rstrip("\n")
    if line.startswith("step:"): steps.append({"text": [], "set": [], "task": None})
    elif steps and line.startswith("text:"): steps[-1]["text"].append(line[5:].strip())
    elif steps and line.startswith("set:"): steps[-1]["set"] += line[4:].split()
    elif steps and line.startswith("task:"): steps[-1]["task"] = line[5:].strip()
sets, task = [], None
for s in steps[:k]:
    sets += s["set"]
    task = s["task"] or task
key = "_".join(sets) or "base"
rows = list(csv.DictReader(open(f"{d}/run_{key}.csv")))
T = max(int(r["task"]) for r in rows)
t = T if task in (None, "last") else int(task)
names = {"R": "gacl", "A": "gsr"}
def row(m, tt): return next(r for r in rows if r["method"] == names[m] and int(r["task"]) == tt)
def lens(q, m):
    lr = list(csv.reader(open(f"{d}/lens_{key}.csv")))
    disp = names[m].upper()
    if q == "df": return "%.1f" % sum(float(r[3]) for r in lr if r[0].endswith("filter factors") and r[1] == disp)
    above = [float(r[3]) for r in lr if r[0].endswith("above \u03c4") and r[1] == disp]
    nhead = 3  # the bundled tour's protocol: three head classes, listed first (most rows)
    return "%.2f" % statistics.median(above[nhead:] if q == "tailabove" else above[:nhead])
def q(name, m):
    if name in ("df", "tailabove", "headabove"): return lens(name, m)
    col = {"acc": "acc", "head": "head_acc", "tail": "tail_acc", "sr": "stable_rank"}[name]
    v = float(row(m, t)[col])
    return "%.4g" % v if name == "sr" else "%.1f" % v
def tailstory(m):
    first = next(tt for tt in range(1, t + 1) if row(m, tt)["tail_acc"] != "")
    a, b = "%.1f" % float(row(m, first)["tail_acc"]), "%.1f" % float(row(m, t)["tail_acc"])
    if first == t: return f"is {a} % at task {first}, its first with tail classes"
    if float(b) <= float(a) - 5: return f"falls from {a} % at task {first} to {b} % at task {t}"
    if float(b) >= float(a) + 5: return f"rises from {a} % at task {first} to {b} % at task {t}"
    return f"stays near {a} % from task {first} to task {t} ({b} %)"
def sub(mo):
    name, _, arg = mo.group(1).partition(":")
    if name in ("R", "A"): return names[name].upper()
    if name == "task": return str(t)
    if name == "cmp":
        x, y = float(q(arg, "A")), float(q(arg, "R"))
        return "higher" if x > y else "lower" if x < y else "the same"
    if name == "tailstory": return tailstory(arg)
    return q(name, arg)
for line in steps[k - 1]["text"]: print(re.sub(r"\{([^}]*)\}", sub, line))
PYEOF

# The box text of the step on screen (120 columns: the box is 110 wide from column 5), one line.
box() {
    screen | "$PY" -c '
import sys
rows = sys.stdin.read().split("\n")
i = next((n for n, r in enumerate(rows) if "Tour " in r and " · step " in r), None)
out = []
while i is not None and i < len(rows):
    inner = rows[i][6:114].strip()
    out.append(inner)
    if "n next step" in inner: break
    i += 1
print(" ".join(" ".join(out).split()))'
}
# One step: its box, once nothing in it is "…", holds the independently filled text.
check_step() { # tour-file step n title
    want=$("$PY" "$TMPD/fill.py" "$1" "$2" "$TMPD" | tr '\n' ' ' | tr -s ' ' | sed 's/ $//')
    # while the worker computes, the panels (and the box with them) show the previous run
    wait_gone '│ [◶◷◴◵⟳]? ?computing|pending' 90
    n=0; got=""
    while [ $n -lt 600 ]; do
        got=$(box)
        case "$got" in *"step $2/$3:"*) case "$got" in *"…"*) ;; *) break ;; esac ;; esac
        sleep 0.1; n=$((n+1))
    done
    case "$got" in
    *"$want"*) ok "$(basename "$1") step $2: the text is the run's ($(echo "$want" | cut -c1-70)…)" ;;
    *) bad "$(basename "$1") step $2: the box differs from the run's numbers" "want: $want
got:  $got" ;;
    esac
    # no literal number of a run the step does not show: every digit of the tour's line comes
    # from a placeholder, a parameter (τ = 10, β = 1, 0.01), the protocol or the paper
    if "$PY" - "$1" "$2" <<'PYEOF'
import re, sys
k, steps = int(sys.argv[2]), []
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("step:"): steps.append([])
    elif steps and line.startswith("text:"): steps[-1].append(line[5:])
allowed = {"0", "10", "0.01", "1", "5", "3", "20", "41", "1.02", "2.80", "100", "768", "30", "70", "500", "2"}
bad = [n for l in steps[k - 1] for n in re.findall(r"\d+(?:\.\d+)?", re.sub(r"\{[^}]*\}", "", l)) if n not in allowed]
sys.exit(1 if bad else 0)
PYEOF
    then :; else bad "$(basename "$1") step $2: a literal number no placeholder fills"; fi
}

# the runs behind the steps: teaching (steps 1-9), then set: tau=0.01 beta=1 (step 10)
G() { "$GSRSCOPE" "$@" --quiet 2>>"$TMPD/runerr"; }
G run --sample mobilenetv2 --preset teaching --format csv > "$TMPD/run_base.csv" &&
G export --sample mobilenetv2 --preset teaching --figure ridge-lens -o "$TMPD/l.png" --csv "$TMPD/lens_base.csv" &&
G run --sample mobilenetv2 --preset teaching --tau 0.01 --beta 1 --format csv > "$TMPD/run_tau=0.01_beta=1.csv" ||
    bad "the reference runs" "$(cat "$TMPD/runerr")"

start --tour
wait_for 'Tour bundled · step 1/10' 60 || bad "tour start" "$(screen)"
for k in 1 2 3 4 5 6 7 8 9 10; do
    [ $k -gt 1 ] && T send-keys -t tui n
    check_step "$TOURS/bundled.tour" $k 10
done
T send-keys -t tui q
wait_file "$TMPD/rc" 10

G run --synthetic --format csv > "$TMPD/run_base.csv" &&
G export --synthetic --figure ridge-lens -o "$TMPD/l.png" --csv "$TMPD/lens_base.csv" || bad "the synthetic runs" "$(cat "$TMPD/runerr")"
start --synthetic --tour
wait_for 'Tour synthetic · step 1/6' 90 || bad "synthetic tour start" "$(screen)"
for k in 1 2 3 4 5 6; do
    [ $k -gt 1 ] && T send-keys -t tui n
    check_step "$TOURS/synthetic.tour" $k 6
done
T send-keys -t tui q
wait_file "$TMPD/rc" 10
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
