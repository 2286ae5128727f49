#!/bin/sh
# t_tui_nogram.sh — a method without a Gram matrix beside a ridge one in the real TUI (tmux,
# private socket): with the future shown (f), the Stable rank and the Effective rank & condition
# views say "SLDA: no Gram matrix" exactly once on the screen (the panel's own row; the charts'
# notes never repeat it), and NCM (no spectrum of its own either) is named once per panel of
# G + τI's numbers; with ncm,slda a change of τ (which neither reads) is refused with a message
# in the panel. Skips (0 passed, 0 failed) only when tmux or $GSRSCOPE is missing.
TUI_TEST=nogram
. "$(dirname "$0")/tui_lib.sh"

start() {
    T kill-session -t tui >/dev/null 2>&1
    rm -f "$TMPD/rc"
    T new-session -d -s tui -x 120 -y 40 \
        "cd '$TMPD' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=tmux-256color '$GSRSCOPE' tui --synthetic --tasks 4 $*; echo \$? > '$TMPD/rc'; sleep 30"
}
count() { screen | grep -o -- "$1" | wc -l | tr -d ' '; }
quit() {
    T send-keys -t tui q
    if wait_file "$TMPD/rc" 10 && [ "$(cat "$TMPD/rc")" = 0 ]; then ok "$1: q exits 0"; else bad "$1: q exit" "$(cat "$TMPD/rc" 2>&1)"; fi
}

start --methods slda,gacl
T send-keys -t tui v
if wait_for '─ Stable rank.*\(v: next view\)' 20 && wait_for 'GACL +[0-9]' 20; then ok "slda,gacl: starts"; else bad "slda,gacl start" "$(screen)"; fi
T send-keys -t tui f
if wait_gone 'hidden \(f\)' 5; then ok "f shows the future"; else bad "f" "$(screen)"; fi
sleep 0.5
n=$(count 'SLDA: no Gram matrix')
if [ "$n" = 1 ]; then ok "Stable rank view: 'SLDA: no Gram matrix' once"; else bad "Stable rank view: $n times" "$(screen)"; fi
T send-keys -t tui v v v
if wait_for '─ Effective rank & condition' 5 && wait_for 'κ\(G\+τI\)' 10; then ok "v: Effective rank & condition"; else bad "v: erank" "$(screen)"; fi
sleep 0.5
n=$(count 'SLDA: no Gram matrix')
if [ "$n" = 1 ]; then ok "Effective rank view (two charts): 'SLDA: no Gram matrix' once"; else bad "Effective rank view: $n times" "$(screen)"; fi
quit slda,gacl

# NCM has no matrix of its own: the spectrum panel says so too, once
start --methods ncm,gacl
T send-keys -t tui v
if wait_for '─ Stable rank.*\(v: next view\)' 20 && wait_for 'GACL +[0-9]' 20; then ok "ncm,gacl: starts"; else bad "ncm,gacl start" "$(screen)"; fi
T send-keys -t tui f
wait_gone 'hidden \(f\)' 5
sleep 0.5
a=$(count 'SimpleCIL: no Gram matrix, no spectrum'); n=$(count 'SimpleCIL: no Gram matrix')
if [ "$a" = 1 ] && [ "$n" = 2 ]; then ok "ncm,gacl: once in the spectrum panel, once in the Stable rank panel"
else bad "ncm,gacl: $a spectrum notes, $n in all" "$(screen)"; fi
quit ncm,gacl

# τ acts on neither stats learner: + on τ says so in the panel and changes nothing
start --methods ncm,slda
if wait_for 'SimpleCIL' 20; then ok "ncm,slda: starts"; else bad "ncm,slda start" "$(screen)"; fi
sleep 1
T send-keys -t tui Down Down Down +
if wait_for 'τ does not act on ncm, slda: not changed' 5; then ok "+ on τ with ncm,slda: the panel says τ does not act"
else bad "τ with ncm,slda" "$(screen)"; fi
quit ncm,slda

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
