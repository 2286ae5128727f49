# tui_lib.sh — shared set-up for the tmux tests of the TUI (sourced after setting TUI_TEST to a
# short name). Skips the whole test (counted as 1 skipped) when tmux or $GSRSCOPE is missing.
# Gives: ok/bad counters, $TMPD (removed on exit), T (tmux on a private socket), screen,
# wait_for PATTERN [SECONDS], wait_gone PATTERN [SECONDS], wait_file FILE [SECONDS].
pass=0; fail=0
# patterns hold UTF-8 (braille ranges, α, τ): grep in a UTF-8 locale
LC_ALL=C.UTF-8; export LC_ALL
ok() { pass=$((pass+1)); echo "ok - $1"; }
bad() { fail=$((fail+1)); echo "FAIL $1"; [ -n "$2" ] && printf '%s\n' "$2" | sed 's/^/    /' | head -n 45; }

if ! command -v tmux >/dev/null 2>&1 || [ -z "$GSRSCOPE" ] || [ ! -x "$GSRSCOPE" ]; then
    echo "SKIP - ${TUI_TEST:-tui}: tmux or \$GSRSCOPE missing (Debian package tmux; make check installs it)"
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
fi

TMPD=$(mktemp -d "/tmp/gs_t_${TUI_TEST:-tui}.XXXXXX")
SOCK="gs_${TUI_TEST:-tui}_$$"
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() { T kill-server >/dev/null 2>&1; rm -rf "$TMPD"; }
trap cleanup EXIT INT TERM
# A session that outlives each test's TUI sessions: killing the last session stops tmux's server,
# and a new-session racing that exit failed with "server exited unexpectedly".
T new-session -d -s keep "sleep 3600"

screen() { T capture-pane -t tui -p 2>/dev/null; }
wait_for() {
    n=0; lim=$(( ${2:-20} * 10 ))
    while [ $n -lt $lim ]; do
        if screen | grep -qE -- "$1"; then return 0; fi
        sleep 0.1; n=$((n+1))
    done
    return 1
}
wait_gone() {
    n=0; lim=$(( ${2:-20} * 10 ))
    while [ $n -lt $lim ]; do
        if ! screen | grep -qE -- "$1"; then return 0; fi
        sleep 0.1; n=$((n+1))
    done
    return 1
}
wait_file() {
    n=0; lim=$(( ${2:-20} * 10 ))
    while [ $n -lt $lim ]; do [ -s "$1" ] && return 0; sleep 0.1; n=$((n+1)); done
    return 1
}
