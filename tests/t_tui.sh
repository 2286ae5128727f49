#!/bin/sh
# t_tui.sh — drive the real gsrscope TUI in tmux: panels appear, `n` advances the task, a τ
# change changes the numbers, `?` shows help, resizes (also to a too-small size and with help
# open) don't crash, `s` saves a session that --session loads, `e` exports a PNG, `q` exits 0,
# SIGTERM restores and exits, ASCII + NO_COLOR mode, and no terminal / TERM=dumb exit 2.
# Skips (0 passed, 0 failed) only when tmux or $GSRSCOPE is missing.
TUI_TEST=tui
. "$(dirname "$0")/tui_lib.sh"
# start ARGS...: run gsrscope in a fresh 120x40 tmux session, exit code to $TMPD/rc
start() {
    rm -f "$TMPD/rc"
    # a fresh server each time: killing the last session of a server races with the next start
    T kill-server >/dev/null 2>&1
    sleep 0.2
    T new-session -d -s tui -x 120 -y 40 \
        "cd '$TMPD' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=tmux-256color $ENVX '$GSRSCOPE' $*; echo \$? > '$TMPD/rc'; sleep 30"
}
numbers() { screen | grep -oE '│ (GACL|GSR) +[0-9—….~e ]+' ; }

# ---- 1. the dashboard --------------------------------------------------------------------
ENVX=""
start
if wait_for 'Accuracy' 20 && wait_for 'Eigenspectrum' 5 && wait_for 'Ridge lens' 5 && wait_for 'Parameters' 5; then
    ok "panels appear with their titles (the ridge lens first)"
else bad "panels appear" "$(screen)"; fi
if wait_gone 'computing' 30; then ok "computation finishes (no computing mark)"; else bad "computation finishes" "$(screen)"; fi
if screen | grep -q 'Task 1/10'; then ok "status shows Task 1/10"; else bad "Task 1/10" "$(screen)"; fi
if screen | grep -qE 'α_base' && screen | grep -q 'GACL' && screen | grep -q 'GSR'; then ok "symbols and method names"; else bad "symbols" "$(screen)"; fi
if screen | grep -qP '[\x{2801}-\x{28FF}]'; then ok "braille plot glyphs in a UTF-8 locale"; else bad "braille" "$(screen)"; fi

T send-keys -t tui n
if wait_for 'Task 2/10' 5; then ok "n advances the task counter"; else bad "n advances" "$(screen)"; fi
T send-keys -t tui Right
wait_for 'Task 3/10' 5 && T send-keys -t tui p
if wait_for 'Task 2/10' 5; then ok "→ then p step forward and back"; else bad "→/p" "$(screen)"; fi
T send-keys -t tui End
if wait_for 'Task 10/10' 5; then ok "End goes to the last task"; else bad "End" "$(screen)"; fi
T send-keys -t tui Home
wait_for 'Task 1/10' 5
T send-keys -t tui n
wait_for 'Task 2/10' 5
wait_gone 'computing' 30
before=$(numbers)

# ---- 2. τ change ----------------------------------------------------------------------------
T send-keys -t tui Down Down Down
T send-keys -t tui +
if wait_for 'τ = 0.02' 5; then ok "↓↓↓ + selects τ and steps it to the next round value (0.01 → 0.02)"; else bad "τ +" "$(screen)"; fi
wait_gone 'computing' 30
after=$(numbers)
if [ -n "$before" ] && [ -n "$after" ] && [ "$before" != "$after" ]; then
    ok "a τ change changes the numbers shown"
else bad "τ change changes numbers" "before: $before
after: $after"; fi
T send-keys -t tui u
if wait_for '│▸τ +0.01 ' 5; then ok "u undoes the τ change"; else bad "undo" "$(screen)"; fi
# typed value: Enter, clear, type, Enter
T send-keys -t tui Enter C-u 0.5 Enter
if wait_for '│▸τ +0.5 ' 5; then ok "Enter types a value"; else bad "editor" "$(screen)"; fi
T send-keys -t tui Enter C-u abc Enter
if wait_for 'not a finite number' 5; then ok "a bad typed value is refused"; else bad "editor refusal" "$(screen)"; fi
T send-keys -t tui Escape
wait_gone 'Esc cancel' 5
T send-keys -t tui b
if wait_for 'baseline pinned' 5 && wait_for 'baseline +Δ' 5; then ok "b pins a baseline"; else bad "baseline" "$(screen)"; fi

# ---- 3. help and resize ------------------------------------------------------------------------
T send-keys -t tui '?'
if wait_for 'Help' 5 && wait_for 'play / pause' 5 && wait_for 'quit' 5; then ok "? shows help"; else bad "help" "$(screen)"; fi
T resize-window -t tui -x 80 -y 24
sleep 0.3
if wait_for 'Help' 5; then ok "resize with help open"; else bad "resize with help open" "$(screen)"; fi
T send-keys -t tui x
if wait_gone 'Help' 5 && wait_for 'Accuracy' 5; then ok "any key closes help; 80x24 layout"; else bad "close help at 80x24" "$(screen)"; fi
T resize-window -t tui -x 50 -y 12
if wait_for 'too small' 5 && wait_for 'need at least' 1; then ok "too-small terminal says what it needs"; else bad "too small" "$(screen)"; fi
T resize-window -t tui -x 120 -y 40
if wait_for 'Eigenspectrum' 5 && wait_for 'Task 2/10' 5; then ok "back to 120x40 after resizes"; else bad "resize back" "$(screen)"; fi

# ---- 4. session save, export, preset, quit ---------------------------------------------------
T send-keys -t tui s
if wait_file "$TMPD/gsrscope.session" 5 && grep -q '^tau=0.5$' "$TMPD/gsrscope.session"; then
    ok "s saves the session"; else bad "session save" "$(cat "$TMPD/gsrscope.session" 2>&1)"; fi
T send-keys -t tui e
if wait_file "$TMPD/gsrscope-ridge-lens-001.png" 30 && wait_for 'exported' 30 &&
   [ "$(od -An -c -N4 "$TMPD/gsrscope-ridge-lens-001.png" | tr -d ' ')" = '211PNG' ]; then
    ok "e exports the first view, the ridge lens: gsrscope-ridge-lens-001.png"; else bad "export" "$(screen | head -n 2; ls -la "$TMPD")"; fi
T send-keys -t tui e
if wait_file "$TMPD/gsrscope-ridge-lens-002.png" 30; then ok "a second export does not overwrite the first"; else bad "export 002" "$(ls "$TMPD")"; fi
wait_for 'exported gsrscope-ridge-lens-002.png' 30 # its message would replace the preset's
T send-keys -t tui P
if wait_for 'preset paper' 5 && wait_for '│▸τ +0.01 ' 5; then ok "P applies the paper preset"; else bad "preset" "$(screen)"; fi
T send-keys -t tui q
if wait_file "$TMPD/rc" 10 && [ "$(cat "$TMPD/rc")" = 0 ]; then ok "q exits with status 0"; else bad "q exit status" "$(cat "$TMPD/rc" 2>&1)"; fi

# ---- 5. --session loads, SIGTERM -----------------------------------------------------------------
start --session gsrscope.session
if wait_for '│.τ +0.5 ' 30; then ok "--session FILE restores τ"; else bad "--session" "$(screen; echo "rc: $(cat "$TMPD/rc" 2>&1)"; cat "$TMPD/gsrscope.session")"; fi
printf '# gsrscope session 1\ntau=zzz\nend\n' > "$TMPD/bad.session"
out=$(cd "$TMPD" && "$GSRSCOPE" --session bad.session 2>&1 < /dev/null); rc=$?
# stdin is not a terminal: refused before the session is read
if [ $rc -eq 2 ]; then ok "no terminal: exit 2"; else bad "no terminal exit 2 (got $rc)" "$out"; fi
pid=$(T list-panes -t tui -F '#{pane_pid}')
gpid=$(pgrep -P "$pid" -f gsrscope | head -n 1)
[ -z "$gpid" ] && gpid=$(pgrep -f "$GSRSCOPE --session" | head -n 1)
if [ -n "$gpid" ]; then
    kill -TERM "$gpid"
    if wait_file "$TMPD/rc" 10 && [ "$(cat "$TMPD/rc")" -ne 0 ]; then ok "SIGTERM ends the TUI (status $(cat "$TMPD/rc"))"; else bad "SIGTERM" "$(cat "$TMPD/rc" 2>&1)"; fi
    if T display -p -t tui '#{alternate_on}' | grep -q 0; then ok "terminal left the alternate screen after SIGTERM"; else bad "alternate screen after SIGTERM"; fi
else bad "find the gsrscope pid"; fi
start --session bad.session
if wait_file "$TMPD/rc" 10 && [ "$(cat "$TMPD/rc")" = 2 ] && wait_for 'bad.session: line 2:' 5; then
    ok "a corrupted session is refused with FILE: line N"; else bad "corrupted session" "$(screen)"; fi

# ---- 6. ASCII and NO_COLOR ----------------------------------------------------------------------
ENVX="NO_COLOR=1"
start --ascii
if wait_for 'Accuracy' 20 && wait_gone 'computing' 30; then
    if screen | LC_ALL=C grep -q '[^ -~]'; then bad "--ascii uses only ASCII" "$(screen)"; else ok "--ascii: ASCII glyphs only"; fi
    if screen | grep -q 'a_base' && screen | grep -q 'tau'; then ok "--ascii folds the symbols (a_base, tau)"; else bad "ascii symbols" "$(screen)"; fi
else bad "--ascii starts" "$(screen)"; fi
T send-keys -t tui q
if wait_file "$TMPD/rc" 10 && [ "$(cat "$TMPD/rc")" = 0 ]; then ok "q exits 0 (ASCII, NO_COLOR)"; else bad "q in ascii"; fi
ENVX=""

# ---- 7. TERM=dumb ---------------------------------------------------------------------------------
rm -f "$TMPD/rc"
T kill-server >/dev/null 2>&1 # a fresh server (killing the last session races with the next start)
sleep 0.2
T new-session -d -s tui -x 120 -y 40 "cd '$TMPD' && TERM=dumb '$GSRSCOPE' 2> err; echo \$? > rc; sleep 30"
if wait_file "$TMPD/rc" 10 && [ "$(cat "$TMPD/rc")" = 2 ] && grep -q 'the TUI needs a terminal' "$TMPD/err"; then
    ok "TERM=dumb: clear error, exit 2"; else bad "TERM=dumb" "$(cat "$TMPD/rc" "$TMPD/err" 2>&1)"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
