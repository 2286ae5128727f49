#!/bin/sh
# t_tui_seeds.sh — `--seeds 1,2,3` in the real TUI (tmux, private socket): the status bar says
# "3 seeds"; once every seed is computed the parameters panel's mean rows equal the mean of
# `run --seed k` (NumPy, per method: acc, head, tail at the task) and the accuracy chart says it
# draws mean ± std; e exports the same dashboard as `export --seeds`; a parameter key (τ +)
# recomputes every seed (the mean rows then equal the runs at the new τ); the seed itself cannot
# be stepped; the Stable rank view is titled as the mean over the seeds, the other lower views
# (the shown seed's alone) "seed 1 only (of 3)"; q exits 0. Without --seeds none of it shows.
# Skips (0 passed, 0 failed) only when tmux or $GSRSCOPE is missing.
TUI_TEST=seeds
. "$(dirname "$0")/tui_lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3

start() {
    T kill-session -t tui >/dev/null 2>&1
    rm -f "$TMPD/rc"
    T new-session -d -s tui -x 140 -y 45 \
        "cd '$TMPD' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=tmux-256color '$GSRSCOPE' $*; echo \$? > '$TMPD/rc'; sleep 30"
}
# The expected mean rows at task 4 ("GACL a h t" and "GSR a h t", %.1f) from run --seed 1, 2, 3.
expect() { # extra run options
    for k in 1 2 3; do "$GSRSCOPE" run --tasks 4 --seed $k "$@" --format json --quiet >"$TMPD/r$k.json" 2>/dev/null || return 1; done
    "$PY" - "$TMPD" <<'PYEOF'
import json, sys
import numpy as np
runs = [json.load(open(f"{sys.argv[1]}/r{k}.json")) for k in (1, 2, 3)]
for mi, name in ((0, "GACL"), (1, "GSR")):
    v = [np.mean([r["methods"][mi]["tasks"][-1][key] for r in runs]) for key in ("acc", "head_acc", "tail_acc")]
    print(name, " ".join("%.1f" % x for x in v))
PYEOF
}
# The mean rows on screen, as "GACL a h t" lines (the method's row comes first, its mean row after).
shown() {
    screen | "$PY" -c '
import re, sys
name = None
for line in sys.stdin:
    cells = line.split("\u2502")
    panel = cells[-2] if len(cells) > 2 else ""
    m = re.match(r"\s*(GACL|GSR)\s+[\d.]", panel)
    if m: name = m.group(1)
    m = re.match(r"\s+mean\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", panel)
    if m and name: print(name, *m.groups()); name = None
'
}

start --tasks 4
if wait_for '─ Parameters' 30 && ! screen | grep -q 'seeds' && ! screen | grep -q '  mean ' && ! screen | grep -q 'only (of'
then ok "without --seeds: no seeds, no mean rows, no seed in the lower view's title"
else bad "without --seeds" "$(screen)"; fi

start --seeds 1,2,3 --tasks 4
if wait_for '│ 3 seeds' 30; then ok "status bar: 3 seeds"; else bad "status bar" "$(screen | head -1)"; fi
T send-keys -t tui End
if wait_for 'Task 4/4' 10 && wait_gone 'mean pending' 60 && wait_for '  mean ' 10; then ok "every seed computed: mean rows"
else bad "mean rows" "$(screen)"; fi
want=$(expect)
got=$(shown)
if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "mean rows = NumPy mean of run --seed 1, 2, 3 ($(echo $got))"
else bad "mean rows differ" "want: $want
got:  $got"; fi
if screen | grep -q 'mean ± std over 3 seeds'; then ok "accuracy chart: mean ± std over 3 seeds"; else bad "chart note" "$(screen)"; fi
T send-keys -t tui v
if wait_for '─ Stable rank · mean of 3 seeds' 5; then ok "Stable rank view titled as the mean of 3 seeds"; else bad "stable rank title" "$(screen)"; fi

# e: the dashboard of the mean over the seeds, byte for byte the picture of `export --seeds 1,2,3`
# run from the same folder (the PNG records where the data came from): the figure draws every
# task's stable rank from its exact spectrum in both, whatever the TUI's views computed on demand
T send-keys -t tui e
if wait_file "$TMPD/gsrscope-dashboard-001.png" 60 &&
   (cd "$TMPD" && "$GSRSCOPE" export --seeds 1,2,3 --tasks 4 --figure dashboard -o cli.png --quiet 2>/dev/null) &&
   cmp -s "$TMPD/cli.png" "$TMPD/gsrscope-dashboard-001.png"
then ok "e: the dashboard over 3 seeds = export --seeds 1,2,3, byte for byte"
else bad "e with --seeds" "$(ls -l "$TMPD"; screen | tail -3)"; fi

# τ + (from α_base down to τ): every seed recomputed at the new τ = 0.02
T send-keys -t tui j; T send-keys -t tui j; T send-keys -t tui j
wait_for '▸τ' 5
T send-keys -t tui +
if wait_for '▸τ +0\.02 ' 10; then ok "τ stepped"; else bad "τ step" "$(screen | grep 'τ')"; fi
want=$(expect --tau 0.02)
n=0; got=""
while [ $n -lt 600 ]; do
    got=$(shown)
    [ -n "$want" ] && [ "$want" = "$got" ] && ! screen | grep -q 'mean pending' && break
    sleep 0.1; n=$((n+1))
done
if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "τ +: every seed recomputed (mean rows = runs at τ 0.02)"
else bad "mean rows after τ +" "want: $want
got:  $got"; fi

T send-keys -t tui j
wait_for '▸seed' 5
T send-keys -t tui +
if wait_for 'the seeds are fixed by --seeds 1,2,3' 5 && screen | grep -qE '▸seed +1 '; then ok "the seed cannot be stepped with --seeds"
else bad "seed step with --seeds" "$(screen | grep -i seed)"; fi
# the lower views other than Stable rank show the shown seed's run alone: their titles say so
T send-keys -t tui v
if wait_for '─ τ sweep.* · seed 1 only \(of 3\)' 5; then ok "τ sweep view titled 'seed 1 only (of 3)'"; else bad "τ sweep title" "$(screen)"; fi
T send-keys -t tui q
if wait_file "$TMPD/rc" 10 && [ "$(cat "$TMPD/rc")" = 0 ]; then ok "q exits 0"; else bad "exit status" "$(cat "$TMPD/rc" 2>/dev/null)"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
