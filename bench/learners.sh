#!/bin/sh
# learners.sh — part of `make bench` (bench/run.sh runs it last; it runs alone too): what the costly
# learners without a Gram matrix cost, with CPU seconds (user + sys, /usr/bin/time: less sensitive
# to other load than wall time) beside the wall time, and the machine's load when measured.
#   anacp_sample          run --sample mobilenetv2 --methods anacp (target: <= 1/4 of its time at
#                         c719693; the CPU seconds measured there are in the line)
#   anacp_beta_step       a β step with --methods anacp,anacp+gsr in the TUI's engine (bench_engine
#                         --beta-only: the update after β changes, every task; target <= 3 s)
#   learner_cpu_X         run --synthetic --methods X, X in ranpac, klda, fecam, anacp (target:
#                         <= 1/3 of the CPU seconds at c719693, given in the line)
# Usage: bench/learners.sh [BUILD_DIR]    Environment: BENCH_LEARNERS (default: ranpac klda fecam anacp)
set -eu
BUILD=${1:-build}
GS=$BUILD/gsrscope
BE=$BUILD/bench/bench_engine
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gslearn.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (Debian: time)" >&2; exit 1; }

load() { cut -d' ' -f1 /proc/loadavg; }
# "WALL CPU PEAK_MB" of one run of a command (stdout discarded)
timed() {
    /usr/bin/time -f '%e %U %S %M' -o "$TMP/t" "$@" > /dev/null
    awk '{printf "%.2f %.2f %.1f\n", $1, $2 + $3, $4 / 1024}' "$TMP/t"
}

# c719693's figures, measured on this machine (2 shared cores, load 12-14: /usr/bin/time, CPU
# seconds user + sys; the sample's the median of 3 runs, its wall time under that load not a
# reference for an idle machine): klda, fecam, anacp and
# the sample measured at c719693 itself; ranpac's is the issue's figure (263 CPU-s, main when the
# issue was filed), not measured again (about 15 minutes of a loaded machine)
C0_SAMPLE_CPU=44.3
C0_ranpac=263 C0_klda=21.6 C0_fecam=5.9 C0_anacp=145.8

l0=$(load)
read -r w c m <<EOT
$(timed "$GS" run --sample mobilenetv2 --methods anacp --quiet --format csv)
EOT
echo "bench: anacp_sample $w s (cpu $c s, peak $m MB, load $l0; run --sample mobilenetv2 --methods anacp; at c719693 cpu $C0_SAMPLE_CPU s: ratio cpu $(awk -v a="$c" -v b="$C0_SAMPLE_CPU" 'BEGIN {printf "%.2f", a / b}'); target: time <= 0.25 of c719693's)"

l0=$(load)
"$BE" 1 --beta-only -- --sample mobilenetv2 --methods anacp,anacp+gsr > "$TMP/beta.txt"
awk -v l="$l0" '/bench: gsr_recompute_beta/ {c = "?"; if (match($0, /cpu [0-9.]+ s/)) c = substr($0, RSTART + 4, RLENGTH - 6)
    print "bench: anacp_beta_step " $3 " s (cpu " c " s; the update after a β change, every task, --methods anacp,anacp+gsr on the MobileNetV2 sample in the TUI'"'"'s engine; load " l "; target <= 3 s)"}' "$TMP/beta.txt"

for x in ${BENCH_LEARNERS:-ranpac klda fecam anacp}; do
    l0=$(load)
    read -r w c m <<EOT
$(timed "$GS" run --synthetic --methods "$x" --quiet --format csv)
EOT
    eval "c0=\${C0_$x:-}"
    echo "bench: learner_cpu_$x $c s (cpu; wall $w s, peak $m MB, load $l0; run --synthetic --methods $x; at c719693 cpu $c0 s: ratio $(awk -v a="$c" -v b="$c0" 'BEGIN {printf "%.2f", a / b}'); target <= 0.33)"
done
