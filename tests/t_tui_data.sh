#!/bin/sh
# t_tui_data.sh — the TUI on data of one's own: when the long-tail profile re-cuts it, the status
# line says so (rows before and after) and it stays there; with --profile none it says nothing.
# Also: options given on the command line win over --preset in the TUI.
TUI_TEST=data
cd "$(dirname "$0")/.." || exit 1
. tests/tui_lib.sh
cp -r sample_features/fashion-mnist "$TMPD/mine"
start() {
    T kill-session -t tui >/dev/null 2>&1
    T new-session -d -s tui -x 200 -y 40 "cd '$TMPD' && LC_ALL=C.UTF-8 TERM=xterm-256color '$GSRSCOPE' --data mine $* 2>err; echo \$? > rc; sleep 30"
}
start
if wait_for 're-cut the training data: [0-9]+ rows → [0-9]+' 40; then ok "status line: the step profile re-cut the data (rows before → after)"
else bad "no re-cut note in the status line" "$(screen)"; fi
sleep 7
screen | grep -qE 're-cut the training data' && ok "the note stays on screen" || bad "the note vanished" "$(screen)"
grep -q "profile none keeps the data as it is" "$TMPD/err" && ok "stderr names --profile none" || bad "stderr: $(cat "$TMPD/err")"
T send-keys -t tui q
start --profile none
if wait_for 'task +1/10|1/10' 40 && ! screen | grep -q 're-cut'; then ok "--profile none: no note"; else bad "--profile none" "$(screen)"; fi
T send-keys -t tui q
# The command line wins over a preset in the TUI too: --preset teaching --tau 1 shows τ = 1, β = 10.
start --profile none --preset teaching --tau 1
if wait_for '│.τ +1 ' 40 && screen | grep -qE '│.β +10 '; then ok "TUI: --preset teaching --tau 1 shows τ = 1 and the preset's β = 10"
else bad "TUI preset/flag precedence" "$(screen)"; fi
T send-keys -t tui q
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
