#!/bin/sh
# t_tui_tour.sh — guided tours and colour themes in the real TUI (tmux, private socket): `--tour` plays
# assets/tours/bundled.tour (on the MobileNetV2 sample it opens, make run's data), n advances the steps (title, text, task and view follow), p goes
# back, Esc leaves; the synthetic tour needs --synthetic; a missing or broken tour file is a
# clear error (exit 2) before the terminal is touched. Skips when tmux or $GSRSCOPE is missing.
TUI_TEST=tour
. "$(dirname "$0")/tui_lib.sh"
start() {
    rm -f "$TMPD/rc" "$TMPD/err"
    T kill-server >/dev/null 2>&1
    sleep 0.2
    T new-session -d -s tui -x 120 -y 40 \
        "cd '$TMPD' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=tmux-256color '$GSRSCOPE' $* 2>err; echo \$? > rc; sleep 30"
}
start --tour
if wait_for 'Tour bundled · step 1/10: Ten tasks, two learners' 60 && wait_for 'preset: teaching' 5 &&
   wait_for 'data: fashion-mnist mobilenetv2' 5; then
    ok "--tour plays the bundled tour on the MobileNetV2 sample (make run's data): step 1/10 with the teaching preset"; else bad "tour start" "$(screen; cat "$TMPD/err")"; fi
T send-keys -t tui n
if wait_for 'step 2/10: The tail arrives' 5 && wait_for 'Task 3/10' 5; then ok "n: step 2 moves to task 3"; else bad "n: step 2" "$(screen)"; fi
T send-keys -t tui n
if wait_for 'step 3/10: The end of the stream' 5 && wait_for 'Task 10/10' 5; then ok "n: step 3 at the last task"; else bad "n: step 3" "$(screen)"; fi
T send-keys -t tui n n n n
if wait_for 'step 7/10: Collapse, class by class' 5 && wait_for 'Task 10/10' 5 && wait_for '─ Collapse' 5; then
    ok "n n n n: step 7 at the last task with the collapse view"; else bad "step 7" "$(screen)"; fi
T send-keys -t tui p
if wait_for "step 6/10: Stable rank, the paper's measure" 5 && wait_for '─ Stable rank' 5; then ok "p: back to step 6 and its view"
else bad "p" "$(screen)"; fi
T send-keys -t tui n n n n
if wait_for 'step 10/10: Your turn' 5 && wait_for '│[▸ ]τ +0.01 ' 10; then ok "step 10 sets τ back to 0.01"
else bad "step 10" "$(screen)"; fi
T send-keys -t tui n
if wait_for 'that was the last step' 5; then ok "n after the last step says so"; else bad "after last" "$(screen)"; fi
T send-keys -t tui Escape
if wait_for 'tour left' 5 && wait_gone 'Tour bundled' 5; then ok "Esc leaves the tour"; else bad "Esc" "$(screen)"; fi
T send-keys -t tui n
if wait_for 'Task [0-9]+/10' 5 && ! screen | grep -q 'Tour bundled'; then ok "after the tour n steps tasks again"; else bad "n after tour" "$(screen)"; fi
T send-keys -t tui q
if wait_file "$TMPD/rc" 10 && [ "$(cat "$TMPD/rc")" = 0 ]; then ok "q exits 0"; else bad "q" "$(cat "$TMPD/rc" 2>&1)"; fi

start --synthetic --tour
if wait_for 'Tour synthetic · step 1/6: The synthetic stream' 60; then ok "--synthetic --tour plays the synthetic tour"
else bad "synthetic tour" "$(screen; cat "$TMPD/err")"; fi
T send-keys -t tui n
if wait_for 'step 2/6: Ten tasks later' 5 && wait_for 'Task 10/10' 5; then ok "synthetic: n moves on"; else bad "synthetic n" "$(screen)"; fi
T send-keys -t tui q
wait_file "$TMPD/rc" 10

# errors: before the terminal is set up, one line, exit 2
"$GSRSCOPE" --sample pixels --tour > "$TMPD/o" 2>&1 < /dev/null; rc=$?
if [ $rc -eq 2 ] && grep -q 'written for the bundled MobileNetV2 sample: run gsrscope --sample mobilenetv2 --tour bundled' "$TMPD/o"; then
    ok "the bundled tour on the pixel sample: exit 2, says what to run"; else bad "tour on pixels ($rc)" "$(cat "$TMPD/o")"; fi
"$GSRSCOPE" --tour synthetic > "$TMPD/o" 2>&1 < /dev/null; rc=$?
if [ $rc -eq 2 ] && grep -q 'written for the synthetic data: run gsrscope --synthetic --tour synthetic' "$TMPD/o"; then
    ok "the synthetic tour on the bundled data: exit 2, says what to run"; else bad "tour data mismatch ($rc)" "$(cat "$TMPD/o")"; fi
"$GSRSCOPE" --tour nope > "$TMPD/o" 2>&1 < /dev/null; rc=$?
if [ $rc -eq 2 ] && grep -q 'nope.tour: cannot open' "$TMPD/o"; then ok "unknown tour: exit 2, not found"; else bad "unknown tour ($rc)" "$(cat "$TMPD/o")"; fi
printf 'step: s\ntext: only one line\n' > "$TMPD/bad.tour"
"$GSRSCOPE" --tour "$TMPD/bad.tour" > "$TMPD/o" 2>&1 < /dev/null; rc=$?
if [ $rc -eq 2 ] && grep -q "bad.tour: line 1: step \"s\" needs two to four text: lines" "$TMPD/o"; then
    ok "a broken tour file: exit 2 with FILE: line N"; else bad "broken tour ($rc)" "$(cat "$TMPD/o")"; fi
"$GSRSCOPE" run --tour > "$TMPD/o" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q -- '--tour: not an option of .run.' "$TMPD/o"; then ok "run --tour refused"; else bad "run --tour ($rc)" "$(cat "$TMPD/o")"; fi

# ---- themes: --theme light (black on white), mono (no colour), errors ---------------------------
start --theme light
if wait_for 'Accuracy' 20 && T capture-pane -t tui -p -e | grep -q '48;5;231m'; then ok "--theme light: white background"
else bad "--theme light" "$(T capture-pane -t tui -p -e | head -n 3 | cat -v)"; fi
T send-keys -t tui q
wait_file "$TMPD/rc" 10
start --theme mono
if wait_for '○ GACL' 30 && ! T capture-pane -t tui -p -e | grep -qE '\[(3[0-7]|38;[25];)[0-9;]*m'; then
    ok "--theme mono: no colour, markers tell the methods apart"; else bad "--theme mono" "$(T capture-pane -t tui -p -e | head -n 3 | cat -v)"; fi
T send-keys -t tui q
wait_file "$TMPD/rc" 10
"$GSRSCOPE" --theme nope > "$TMPD/o" 2>&1 < /dev/null; rc=$?
if [ $rc -eq 2 ] && grep -q 'nope.theme: cannot open' "$TMPD/o"; then ok "unknown theme: exit 2"; else bad "unknown theme ($rc)" "$(cat "$TMPD/o")"; fi
printf 'gsr: blue\n' > "$TMPD/bad.theme"
"$GSRSCOPE" --theme "$TMPD/bad.theme" > "$TMPD/o" 2>&1 < /dev/null; rc=$?
if [ $rc -eq 2 ] && grep -q 'bad.theme: line 1: gsr: expected #rrggbb' "$TMPD/o"; then ok "a broken theme: exit 2 with FILE: line N"
else bad "broken theme ($rc)" "$(cat "$TMPD/o")"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
