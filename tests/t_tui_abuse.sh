#!/bin/sh
# t_tui_abuse.sh — abuse the real gsrscope TUI in tmux (issue #8), on a private tmux socket:
#   1. a resize storm (50 resizes) while computing, then q
#   2. key mashing while computing (random keys: arrows, + - Enter Esc digits, letters), then q
#   3. a 10x5 terminal: says what size it needs, no crash, q
#   4. NO_COLOR, then q
#   5. SIGTERM while computing
#   6. e or E then q at once: the export not finished leaves no empty file
# Each time: exit status 0 (q) or 143 (SIGTERM), and afterwards the terminal is restored: the
# pane runs `gsrscope; stty -a > stty` and stty must show icanon and echo on.
# Skips (0 passed, 0 failed) only when tmux or $GSRSCOPE is missing.
TUI_TEST=abuse
. "$(dirname "$0")/tui_lib.sh"
# A TUI bug reported to the TUI's owner and not fixable here (src/tui*.c belong to the TUI
# engineer): shown, not counted. Turns into "ok" by itself once fixed.
known() { echo "not ok - $1 # TODO known failure: $2"; }
ESC=$(printf '\033')
# start W H ARGS...: gsrscope in a fresh WxH session; exit status to rc, terminal modes to stty
start() {
    w=$1; h=$2; shift 2
    rm -f "$TMPD/rc" "$TMPD/stty" "$TMPD/err"
    # a fresh server each time: killing the last session of a server races with the next start
    T kill-server >/dev/null 2>&1
    sleep 0.2
    T new-session -d -s tui -x "$w" -y "$h" \
        "cd '$TMPD' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=tmux-256color $ENVX '$GSRSCOPE' $* 2>err; echo \$? > rc; stty -a > stty; sleep 30"
}
gs_pid() {
    pp=$(T list-panes -t tui -F '#{pane_pid}' 2>/dev/null)
    [ -n "$pp" ] && pgrep -P "$pp" | head -n 1
}
# finished WHAT WANT: the run ended with status WANT and left the terminal in canonical mode with echo
finished() {
    if wait_file "$TMPD/rc" 20 && [ "$(cat "$TMPD/rc")" = "$2" ]; then ok "$1: exit $2"
    else bad "$1: exit status $(cat "$TMPD/rc" 2>/dev/null || echo none) (want $2)" "$(screen; cat "$TMPD/err" 2>/dev/null)"; fi
    if wait_file "$TMPD/stty" 5 && grep -qE '(^|[ ;])icanon([ ;]|$)' "$TMPD/stty" && grep -qE '(^|[ ;])echo([ ;]|$)' "$TMPD/stty"; then
        ok "$1: terminal restored (icanon, echo)"
    else bad "$1: terminal not restored" "$(cat "$TMPD/stty" 2>/dev/null)"; fi
    if [ -s "$TMPD/err" ] && grep -qiE 'sanitizer|runtime error|segmentation|abort' "$TMPD/err"; then
        bad "$1: sanitizer/crash text on stderr" "$(head -n 20 "$TMPD/err")"
    fi
}
alive() { [ ! -s "$TMPD/rc" ]; }

ENVX=""
# ---- 1. resize storm while computing --------------------------------------------------------
start 120 40 --synthetic
wait_for 'Accuracy|computing|loading' 30
i=0; seed=$$
sizes=$(awk -v s="$seed" 'BEGIN { srand(s); for (i = 0; i < 50; i++) printf "%d %d\n", 10 + int(rand() * 190), 3 + int(rand() * 60) }')
echo "# resize storm sizes from seed $seed"
printf '%s\n' "$sizes" | while read -r w h; do T resize-window -t tui -x "$w" -y "$h" >/dev/null 2>&1; done
T resize-window -t tui -x 120 -y 40
if alive && wait_for 'Eigenspectrum' 30; then ok "resize storm: alive, dashboard back at 120x40"
else bad "resize storm: dashboard back" "$(screen; cat "$TMPD/rc" "$TMPD/err" 2>/dev/null)"; fi
T send-keys -t tui q
finished "resize storm" 0

# ---- 2. key mashing while computing ---------------------------------------------------------
start 120 40 --synthetic
wait_for 'Accuracy|computing' 30
keys=$(awk -v s="$seed" 'BEGIN { srand(s + 1);
    n = split("n p Right Left Up Down Home End + - = _ Enter Escape 0 1 2 3 4 5 6 7 8 9 . b u v g ? P k j a x z Space BSpace Tab Enter Escape + - Up Down", k, " ");
    for (i = 0; i < 300; i++) printf "%s\n", k[1 + int(rand() * n)] }')
echo "# key mashing from seed $((seed + 1))"
for k in $keys; do T send-keys -t tui "$k" >/dev/null 2>&1; done
# a few saves/exports in the middle of it all
T send-keys -t tui Escape s Escape e Escape v v + - Enter 5 Escape
sleep 1
if alive; then ok "key mashing: still running"; else bad "key mashing: ended early" "$(screen; cat "$TMPD/rc" "$TMPD/err" 2>/dev/null)"; fi
T send-keys -t tui Escape Escape
sleep 0.3
# close help or an editor if one is open (any key closes help; Esc cancels the editor)
if screen | grep -q 'Help'; then T send-keys -t tui Escape; sleep 0.3; fi
T send-keys -t tui q
if ! wait_file "$TMPD/rc" 5; then T send-keys -t tui Escape q; fi
finished "key mashing" 0

# ---- 3. a 10x5 terminal ---------------------------------------------------------------------
start 10 5
if wait_for 'small|enlarge|need' 20; then ok "10x5: says the terminal is too small ($(screen | tr -s ' \n' ' ' | cut -c1-60))"
else bad "10x5: no message" "$(screen)"; fi
# the size it needs (e.g. 80x24) must be visible, not cut off at 10 columns
if screen | grep -qE '[0-9]{2,}x[0-9]{2,}'; then ok "10x5: shows the size it needs"
else known "10x5: the size it needs is not visible" "the one-line 'terminal 10x5 is too small: need at least WxH' is cut at 10 columns (src/tui/tui_draw.c tui_draw)"; fi
T resize-window -t tui -x 120 -y 40
if wait_for 'Accuracy' 20; then ok "10x5 then 120x40: dashboard appears"; else bad "10x5 -> 120x40" "$(screen)"; fi
T resize-window -t tui -x 10 -y 5
sleep 0.5
T send-keys -t tui q
finished "10x5" 0

# ---- 4. NO_COLOR ----------------------------------------------------------------------------
ENVX="NO_COLOR=1"
start 100 30
if wait_for 'Accuracy' 20; then ok "NO_COLOR: dashboard"; else bad "NO_COLOR: dashboard" "$(screen)"; fi
# foreground colours 31-37, 91-97, 38;5;N (tmux -e writes one SGR per attribute change)
colour_re="${ESC}\\[([0-9;]*;)?(3[1-7]|9[1-7]|38;5;[0-9]+)[;m]"
if T capture-pane -t tui -p -e | grep -qE "$colour_re"; then
    bad "NO_COLOR: colour escapes on screen" "$(T capture-pane -t tui -p -e | grep -E "$colour_re" | head -n 3 | cat -v)"
else ok "NO_COLOR: no foreground colours"; fi
T send-keys -t tui q
finished "NO_COLOR" 0
ENVX=""

# ---- 5. SIGTERM while computing -------------------------------------------------------------
start 120 40 --synthetic
wait_for 'Accuracy|computing' 30
gpid=$(gs_pid)
if [ -n "$gpid" ]; then
    T send-keys -t tui + + End
    kill -TERM "$gpid"
    finished "SIGTERM while computing" 143
    if T display -p -t tui '#{alternate_on}' | grep -q 0; then ok "SIGTERM: left the alternate screen"; else bad "SIGTERM: alternate screen still on"; fi
else bad "SIGTERM: no gsrscope process found" "$(screen)"; fi

# ---- 6. e, E then q at once: no empty PNG or PDF left (issue #36) ---------------------------
for key in e E; do
    start 120 40 --sample mobilenetv2 --preset teaching
    wait_for 'Accuracy|computing' 30
    T send-keys -t tui "$key"; T send-keys -t tui q
    finished "$key then q at once" 0
    left=$(find "$TMPD" -maxdepth 1 -name 'gsrscope-*' -size 0 | head -n 3)
    if [ -z "$left" ]; then ok "$key then q: no empty export file left"; else bad "$key then q: left $left"; fi
    rm -f "$TMPD"/gsrscope-*
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
