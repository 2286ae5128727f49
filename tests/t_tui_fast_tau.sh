#!/bin/sh
# t_tui_fast_tau.sh — the TUI's path for large D driven in tmux at a small one: GS_TAU_FACTOR_MIN_D=1
# makes the worker reduce the shown task to tridiagonal form as it does from D = 2048 on, and
# --precision single computes as at D = 5000. The status bar says single precision; after a τ
# change at task 2 (solved from that task's reduction) the accuracies shown for every method equal
# those of `run --tau` with the same options; so do they after a second τ change and after moving
# to task 3 (its own reduction, started while the first change may still fill in the others).
# Skips (0 passed, 0 failed) only when tmux or $GSRSCOPE is missing.
TUI_TEST=tuifast
. "$(dirname "$0")/tui_lib.sh"
T new-session -d -s tui -x 120 -y 40 \
    "cd '$TMPD' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=tmux-256color GS_TAU_FACTOR_MIN_D=1 '$GSRSCOPE' --tasks 3 --precision single; echo \$? > '$TMPD/rc'; sleep 30"
# the parameter panel's rows "GACL acc head tail" of the shown task, one decimal
shown() { screen | grep -oE '│ (GACL|GSR) +[0-9.]+ +[0-9.]+ +[0-9.]+' | awk '{print tolower($2), $3, $4, $5}'; }
# the same numbers from run at task $1 and τ $2
ran() {
    "$GSRSCOPE" run --tasks 3 --precision single --tau "$2" --format csv --quiet 2>>"$TMPD/err" |
        awk -F, -v t="$1" '$2 == t {printf "%s %.1f %.1f %.1f\n", $1, $6, $7, $8}'
}
idle() { wait_gone 'computing|preparing' 120; }

if wait_for 'single precision' 60 && idle; then ok "status bar: single precision; the first results done"
else bad "single precision" "$(screen)"; fi
T send-keys -t tui n
wait_for 'Task 2/3' 10 && idle
T send-keys -t tui Down Down Down Enter C-u 0.5 Enter
if wait_for '│▸τ +0.5 ' 10 && idle && [ "$(shown)" = "$(ran 2 0.5)" ] && [ -n "$(shown)" ]; then
    ok "τ = 0.5 at task 2: the accuracies shown equal run --tau 0.5"
else bad "τ change at task 2" "shown: $(shown)
run: $(ran 2 0.5)
$(screen)"; fi
T send-keys -t tui Enter C-u 3 Enter
if wait_for '│▸τ +3 ' 10 && idle && [ "$(shown)" = "$(ran 2 3)" ]; then
    ok "τ = 3 at task 2: equal to run --tau 3"
else bad "second τ change" "shown: $(shown)
run: $(ran 2 3)"; fi
T send-keys -t tui n
if wait_for 'Task 3/3' 10 && idle && [ "$(shown)" = "$(ran 3 3)" ]; then
    ok "task 3 at τ = 3: equal to run"
else bad "task 3" "shown: $(shown)
run: $(ran 3 3)"; fi
T send-keys -t tui q
n=0; while [ ! -s "$TMPD/rc" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n+1)); done
if [ "$(cat "$TMPD/rc" 2>/dev/null)" = 0 ]; then ok "q exits 0"; else bad "q exit" "$(cat "$TMPD/rc" 2>&1)"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
