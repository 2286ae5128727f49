#!/bin/sh
# playback.sh — part of `make bench`: playback at 1 task/s in the τ-sweep view, driven in tmux.
# The TUI opens on the bundled MobileNetV2 sample; once every task is computed and the first τ
# sweep drawn, Space plays for SECONDS (default 10) while the screen is read every 0.1 s. It
# counts the tasks shown (the task of the top line changing; the rate promises one a second) and
# the τ sweeps drawn meanwhile (each computes in the background and is drawn when ready).
# Usage: bench/playback.sh GSRSCOPE [SECONDS]    Prints one line: bench: playback_tau_sweep ...
set -eu
GS=$1
SECS=${2:-10}
command -v tmux > /dev/null || { echo "bench: playback needs tmux (Debian: tmux)" >&2; exit 1; }
ASSETS=${GSRSCOPE_ASSETS:-$(cd "$(dirname "$0")/.." && pwd)/assets}
SOCK="gsbench$$"
T="tmux -L $SOCK"
trap '$T kill-server 2> /dev/null || true' EXIT INT TERM
$T new-session -d -x 120 -y 40 "env GSRSCOPE_ASSETS='$ASSETS' LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=tmux-256color '$GS' --sample mobilenetv2; sleep 60"
screen() { $T capture-pane -p; }
# until the first results are on screen, then the τ sweep view (the lens, the stable rank, the sweep)
wait_for() { n=0; until screen | grep -q "$1"; do n=$((n + 1)); [ "$n" -lt 1200 ] || { echo "bench: playback: '$1' never shown" >&2; screen >&2; exit 1; }; sleep 0.1; done; }
wait_for 'Task 1/10'
$T send-keys v v
wait_for 'task 1; best τ'
# every task computed (the top line stops saying "computing")
n=0; while screen | head -1 | grep -q computing; do n=$((n + 1)); [ "$n" -lt 1200 ] || break; sleep 0.1; done
$T send-keys ' '
end=$(($(date +%s%N) + SECS * 1000000000))
last=1 lastsw=1 steps=0 sweeps=0
while [ "$(date +%s%N)" -lt "$end" ]; do
    s=$(screen)
    t=$(printf '%s\n' "$s" | head -1 | sed -n 's/.*Task \([0-9]*\)\/.*/\1/p')
    sw=$(printf '%s\n' "$s" | sed -n 's/.*│ task \([0-9]*\); best τ.*/\1/p' | head -1)
    if [ -n "$t" ] && [ "$t" != "$last" ]; then steps=$((steps + 1)); last=$t; fi
    if [ -n "$sw" ] && [ "$sw" != "$lastsw" ]; then sweeps=$((sweeps + 1)); lastsw=$sw; fi
    sleep 0.1
done
$T send-keys q
echo "bench: playback_tau_sweep $steps tasks shown in $SECS s at 1 task/s (target >= $((SECS * 8 / 10)); MobileNetV2 sample, τ-sweep view; $sweeps τ sweeps drawn meanwhile, each when ready)"
