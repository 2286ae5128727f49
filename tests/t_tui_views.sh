#!/bin/sh
# t_tui_views.sh — the lower-left panel's views in the real TUI (tmux, private socket):
# the screen starts on the Ridge lens; `v` cycles Stable rank (the paper's measure) → τ sweep → Theorem 1 → Effective rank & condition → Per-class accuracy
# → Eigenvalue ratio → Claims → Collapse → Ridge lens; the Theorem 1 panel shows the bound; the τ-sweep panel
# shows its charts after "computing…"; a task change recomputes (never the old task's numbers);
# the Effective rank view gets the spectrum at every task; m / M pick the shown pair
# (--methods gacl,gsr,air): titles follow, M wraps, Theorem 1 says when GACL is not shown;
# playing faster than the τ sweep computes, the steps go on and the last finished sweep is drawn;
# at 80×24 PgDn / PgUp move the claims view a page (the rows visible less one).
# Skips (0 passed, 0 failed) only when tmux or $GSRSCOPE is missing.
TUI_TEST=views
. "$(dirname "$0")/tui_lib.sh"

T new-session -d -s tui -x 120 -y 40 \
    "cd '$TMPD' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=tmux-256color '$GSRSCOPE'; echo \$? > '$TMPD/rc'; sleep 30"

if wait_for '─ Ridge lens' 20 && wait_for 'df\(τ\) +head>τ +tail>τ' 30 && wait_for 'GSR +[0-9.]+ +[—0-9.]+ +[0-9.]+' 5; then
    ok "starts on the Ridge lens view (df, head and tail above τ per method)"; else bad "Ridge lens view" "$(screen)"; fi
T send-keys -t tui v
if wait_for '─ Stable rank \(paper.s measure' 5; then
    ok "v: Stable rank, labelled as the paper's measure"; else bad "v: Stable rank" "$(screen)"; fi
T send-keys -t tui v
if wait_for '─ τ sweep' 5; then ok "v: τ sweep"; else bad "v: τ sweep" "$(screen)"; fi
if wait_for 'best τ' 30 && wait_for 'stable rank of G\+τI' 5; then ok "τ sweep charts appear (accuracy and stable rank vs τ)"; else bad "τ sweep charts" "$(screen)"; fi
T send-keys -t tui v
if wait_for '─ Theorem 1' 5; then ok "v: Theorem 1"; else bad "v: Theorem 1" "$(screen)"; fi
if wait_for 'bound = ' 30 && wait_for 'task 1 · r = ' 5 && wait_for 'strict condition \(eq. 12\)' 5; then
    ok "Theorem 1 panel shows the bound for task 1"; else bad "Theorem 1 bound" "$(screen)"; fi
T send-keys -t tui n
if wait_for 'task 2 · r = ' 30; then ok "next task: Theorem 1 recomputed for task 2"; else bad "Theorem 1 task 2" "$(screen)"; fi
if screen | grep -q 'task 1 · r = '; then bad "old task's numbers still shown" "$(screen)"; else ok "task 1 numbers gone"; fi
T send-keys -t tui v
if wait_for '─ Effective rank & condition' 5 && wait_for 'κ\(G\+τI\)' 5; then ok "v: Effective rank & condition"; else bad "v: erank" "$(screen)"; fi
# the view asks the worker for the exact spectrum at every task: the "spectrum at k of 10
# tasks" note goes away once all are computed
if wait_for 'effective rank of G' 5 && wait_gone 'spectrum at [0-9]+ of 10 tasks' 90; then
    ok "Effective rank view: spectrum computed at every task"; else bad "erank at every task" "$(screen)"; fi
T send-keys -t tui v
if wait_for '─ Per-class accuracy' 5; then ok "v: Per-class accuracy"; else bad "v: per-class" "$(screen)"; fi
T send-keys -t tui v
if wait_for '─ Eigenvalue ratio' 5; then ok "v: Eigenvalue ratio"; else bad "v: ratio" "$(screen)"; fi
T send-keys -t tui v
if wait_for '─ Claims' 5; then ok "v: Claims"; else bad "v: claims" "$(screen)"; fi
T send-keys -t tui v
if wait_for '─ Collapse' 5; then ok "v: Collapse"; else bad "v: collapse" "$(screen)"; fi
T send-keys -t tui v
if wait_for '─ Ridge lens' 5; then ok "v wraps to the Ridge lens"; else bad "v wraps" "$(screen)"; fi
# playback in the τ sweep: the steps do not wait for the sweep, which is drawn when ready for
# its own task and labelled so; paused, only the shown task's sweep (no timing: the label can
# only appear when the shown task has moved past a sweep still computing)
T send-keys -t tui v v
if wait_for '─ τ sweep' 5 && wait_for 'best τ' 30; then ok "back on the τ sweep"; else bad "back on the τ sweep" "$(screen)"; fi
T send-keys -t tui ']' ']' ']' ']' ' '
if wait_for 'playing 8 tasks/s' 5 && wait_for 'drawn for task [0-9]+ while playing; task [0-9]+.s is next' 60; then
    ok "playing: the task moves on while the τ sweep computes; the last one finished is drawn, labelled"
else bad "playing past a computing τ sweep" "$(screen)"; fi
T send-keys -t tui ' '
if wait_for 'paused' 5 && wait_gone 'drawn for task' 30 && wait_for 'best τ' 30; then
    shown=$(screen | head -1 | sed -n 's/.*Task \([0-9]*\)\/.*/\1/p')
    if screen | grep -q "task $shown; best τ"; then ok "paused: the τ sweep of the shown task ($shown)"
    else bad "paused: sweep of the shown task $shown" "$(screen)"; fi
else bad "paused: the sweep of the shown task" "$(screen)"; fi
T send-keys -t tui '?'
if wait_for 'next lower view' 5; then ok "help lists v"; else bad "help lists v" "$(screen)"; fi
T send-keys -t tui x q
if wait_file "$TMPD/rc" 10 && [ "$(cat "$TMPD/rc")" = 0 ]; then ok "q exits 0"; else bad "q exit" "$(cat "$TMPD/rc" 2>&1)"; fi

# ---- the shown pair: m / M cycle the first / second method among --methods ----
# a fresh server: killing the last session of a server races with the next start
T kill-server >/dev/null 2>&1
sleep 0.2
rm -f "$TMPD/rc"
T new-session -d -s tui -x 120 -y 40 \
    "cd '$TMPD' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=tmux-256color '$GSRSCOPE' --methods gacl,gsr,air; echo \$? > '$TMPD/rc'; sleep 30"
if wait_for '─ Accuracy \(%\) — GACL vs GSR ' 20; then ok "default pair: GACL vs GSR"; else bad "default pair" "$(screen)"; fi
T send-keys -t tui M
if wait_for '─ Accuracy \(%\) — GACL vs AIR ' 5 && wait_for 'Eigenspectrum — GACL vs AIR' 5; then
    ok "M: second method AIR"; else bad "M: AIR" "$(screen)"; fi
if wait_for 'AIR +[0-9…]' 20; then ok "parameters panel shows the AIR row"; else bad "AIR row" "$(screen)"; fi
T send-keys -t tui M
if wait_for '─ Accuracy \(%\) — GACL vs GSR ' 5; then ok "M again wraps to GSR (never GACL twice)"; else bad "M wraps" "$(screen)"; fi
T send-keys -t tui m
if wait_for '─ Accuracy \(%\) — AIR vs GSR ' 5; then ok "m: first method AIR"; else bad "m: AIR" "$(screen)"; fi
T send-keys -t tui v v v
if wait_for '─ Theorem 1' 5 && wait_for 'show GACL' 30 && wait_for 'keys m / M' 5; then
    ok "Theorem 1 without GACL shown says so"; else bad "Theorem 1 pair message" "$(screen)"; fi
T send-keys -t tui m
if wait_for '─ Accuracy \(%\) — GACL vs GSR ' 5 && wait_for 'GSR vs GACL · task 1' 30; then
    ok "m wraps to GACL; Theorem 1 recomputed for GSR vs GACL"; else bad "m wraps / Theorem 1" "$(screen)"; fi
T send-keys -t tui '?'
if wait_for 'cycle the first shown method' 5 && wait_for 'cycle the second shown method' 5; then
    ok "help lists m and M"; else bad "help m M" "$(screen)"; fi
T send-keys -t tui x q
if wait_file "$TMPD/rc" 10 && [ "$(cat "$TMPD/rc")" = 0 ]; then ok "q exits 0 (three methods)"; else bad "q exit (three methods)" "$(cat "$TMPD/rc" 2>&1)"; fi

# ---- PgDn / PgUp in the claims view move a page: the rows visible less one (8 at 80×24: 7) ----
T kill-server >/dev/null 2>&1
sleep 0.2
rm -f "$TMPD/rc"
T new-session -d -s tui -x 80 -y 24 \
    "cd '$TMPD' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=tmux-256color '$GSRSCOPE' --sample mobilenetv2 --preset teaching; echo \$? > '$TMPD/rc'; sleep 30"
wait_for 'Task 1/10' 20
T send-keys -t tui v v v v v v v
if wait_for '─ Claims' 5 && wait_for 'rows 1–8 of [0-9]+' 60; then ok "80x24 claims: rows 1–8 shown"; else bad "80x24 claims" "$(screen)"; fi
T send-keys -t tui NPage
if wait_for 'rows 8–15 of' 5; then ok "PgDn moves a page (7 rows: the last row stays in view)"; else bad "PgDn a page" "$(screen)"; fi
T send-keys -t tui NPage
if wait_for 'rows 15–22 of' 5; then ok "PgDn again: rows 15–22"; else bad "PgDn again" "$(screen)"; fi
T send-keys -t tui PPage
if wait_for 'rows 8–15 of' 5; then ok "PgUp moves a page back"; else bad "PgUp a page" "$(screen)"; fi
# past the end and back: the first PgUp moves at once (the scroll is held at the last page);
# nrows, not n: wait_for counts in n
nrows=$(screen | sed -n 's/.*rows [0-9]*–[0-9]* of \([0-9]*\).*/\1/p' | head -1)
T send-keys -t tui NPage NPage NPage NPage NPage NPage NPage NPage NPage NPage
if wait_for "rows $((nrows - 7))–$nrows of $nrows" 5; then ok "PgDn stops at the last page ($((nrows - 7))–$nrows)"; else bad "PgDn at the end" "$(screen)"; fi
sleep 0.5 # every PgDn taken (and drawn) before the PgUp
T send-keys -t tui PPage
if wait_for "rows $((nrows - 14))–$((nrows - 7)) of $nrows" 5; then ok "then PgUp moves a page at once"; else bad "PgUp after the end" "$(screen)"; fi
T send-keys -t tui q
if wait_file "$TMPD/rc" 10 && [ "$(cat "$TMPD/rc")" = 0 ]; then ok "q exits 0 (80x24)"; else bad "q exit (80x24)" "$(cat "$TMPD/rc" 2>&1)"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
