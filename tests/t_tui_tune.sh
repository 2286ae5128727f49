#!/bin/sh
# t_tui_tune.sh — `t` in the real TUI (tmux, private socket): without --val-frac it refuses and
# says why; with a split it tunes the selected τ for GSR on the validation rows and applies the
# value `gsrscope tune` chooses from the same parameters (same search, another front end); `u`
# undoes it; the parameters panel shows the validation numbers; the τ sweep view says its best τ
# is chosen by validation. Skips (0 passed, 0 failed) only when tmux or $GSRSCOPE is missing.
TUI_TEST=tune
. "$(dirname "$0")/tui_lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3

T new-session -d -s keep "sleep 600" # keeps the server up between the two TUI sessions
start() {
    T kill-session -t tui >/dev/null 2>&1
    rm -f "$TMPD/rc"
    T new-session -d -s tui -x 120 -y 40 \
        "cd '$TMPD' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=tmux-256color '$GSRSCOPE' $*; echo \$? > '$TMPD/rc'; sleep 30"
}
select_tau() { # from α_base (the first parameter) down to τ
    T send-keys -t tui j; T send-keys -t tui j; T send-keys -t tui j
    wait_for '▸τ' 5
}

start
if wait_for '─ Parameters' 20 && select_tau; then ok "τ selected"; else bad "select τ" "$(screen)"; fi
T send-keys -t tui t
if wait_for 't needs a validation split: --val-frac' 5; then ok "t without a split: refused, says why"; else bad "t without --val-frac" "$(screen)"; fi
if screen | grep -q '  val '; then bad "validation row without a split" "$(screen)"; else ok "no validation row without a split"; fi

want=$("$GSRSCOPE" tune --val-frac 0.2 --methods gsr --param tau --format json 2>/dev/null |
       "$PY" -c "import json,sys; v=json.load(sys.stdin)['methods'][0]['chosen']['tau']; print('%.4g' % v if 1e-3 <= v < 1e4 else '%.3g' % v)")
start --val-frac 0.2 --methods gacl,gsr
if wait_for '  val ' 30; then ok "parameters panel: validation row"; else bad "validation row" "$(screen)"; fi
select_tau
T send-keys -t tui t
if wait_for "τ = $want chosen on validation" 120; then ok "t: τ = $want for GSR, as gsrscope tune chooses"
else bad "t: τ not $want" "$(screen)"; fi
if wait_for "▸τ +$want" 10; then ok "t: the value is applied"; else bad "t: value not in the panel" "$(screen | grep 'τ')"; fi
T send-keys -t tui u
if wait_for '▸τ +0\.01 ' 10; then ok "u undoes the tuned value"; else bad "u after t" "$(screen | grep 'τ')"; fi
T send-keys -t tui v v
if wait_for 'best τ by validation' 60; then ok "τ sweep: best τ by validation"; else bad "τ sweep note" "$(screen)"; fi
T send-keys -t tui '?'
if wait_for 'tune the selected parameter on the validation rows' 5; then ok "help lists t"; else bad "help lists t" "$(screen)"; fi
T send-keys -t tui x q
if wait_file "$TMPD/rc" 10 && [ "$(cat "$TMPD/rc")" = 0 ]; then ok "q exits 0"; else bad "exit status" "$(cat "$TMPD/rc" 2>/dev/null)"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
