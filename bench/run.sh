#!/bin/sh
# run.sh — `make bench`: paper-scale timings of gsrscope next to a vectorized NumPy reference
# (the speed targets of README). One line per figure:  bench: NAME VALUE UNIT [ratio R]
# ratio = NumPy time / gsrscope time (> 1: gsrscope is faster).
# What is timed (the comparison is only fair compute against compute):
#   numpy_reference  numpy_ref.py's replay only, cold (a fresh process per rep, as every gsrscope
#                    run is): loading its .npy inputs is excluded (printed separately); it reads
#                    GSR's augmented rows instead of generating them. numpy_reference_warm: the
#                    median of 3 replays in one process, printed too, with ratios against it.
#   compute          gsrscope's engine only (bench_engine batch_compute: en_update with the batch
#                    settings of `gsrscope run`): Grams, GSR row generation, solves, λ estimates,
#                    the exact spectrum where run computes it, predictions. Data generation and
#                    normalization (batch_data) are excluded, like NumPy's loading.
#   end_to_end       the whole `gsrscope run --synthetic` process (data generation included),
#                    against the same NumPy compute time: a comparison that favours NumPy.
#   end_to_end_full  the same gsrscope time against numpy_full.py: the whole computation of
#                    `run --synthetic` in NumPy (it generates its data and GSR's rows itself).
#   end_to_end_process  the same gsrscope time against NumPy's whole process (interpreter
#                    start, import, loading its inputs, one replay; median of REPS).
#   torch_gacl_D / ref_*  the reference configuration at D = BENCH_EXPAND (see that section).
# Usage: bench/run.sh [BUILD_DIR]    Environment: BENCH_REPS (default 5), BENCH_EXPAND (default
# 5000; 0 skips that part), BENCH_REF_REPS (interactive repetitions there, default 2), BENCH_REF_RUNS (processes per figure there, default 3), BENCH_NP_REPS (default 5), PYTHON (default /usr/bin/python3: Debian's NumPy on the same OpenBLAS).
set -eu
BUILD=${1:-build}
REPS=${BENCH_REPS:-5}
EXPAND=${BENCH_EXPAND:-5000}
REF_RUNS=${BENCH_REF_RUNS:-3}
# the reference code's projection and ridge: Gaussian N(0, 1), τ = 1e4 (as the reference preset)
REF_PROJ=${BENCH_REF_PROJ:---projection gaussian --tau 10000}
PY=${PYTHON:-/usr/bin/python3}
GS=$BUILD/gsrscope
BE=$BUILD/bench/bench_engine
HERE=$(dirname "$0")
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gsbench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

"$PY" -c 'import numpy' 2>/dev/null || { echo "bench: needs NumPy for $PY (Debian: python3-numpy)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (Debian: time)" >&2; exit 1; }

echo "bench: machine $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $("$PY" -c 'import numpy; print("numpy", numpy.__version__)')"

# median wall seconds of REPS runs of a command (stdout discarded)
median_wall() {
    "$PY" - "$REPS" "$@" <<'PYEOF'
import subprocess, sys, time
n = int(sys.argv[1]); cmd = sys.argv[2:]
ts = []
for _ in range(n):
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    ts.append(time.perf_counter() - t0)
ts.sort()
print("%.3f" % ts[len(ts) // 2])
PYEOF
}
median_of() { echo "$@" | tr ' ' '\n' | grep . | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
ratio() { "$PY" -c "import sys; print('%.2f' % (float(sys.argv[1]) / float(sys.argv[2])))" "$1" "$2"; }
# the precision a run's CSV reports: its `precision` column (found by name; there with --precision single or from D = 2048), else double
precision_of() { awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "precision") c = i} NR > 1 && c {n[$c]++} END {if (!c) print "double"; else {s = ""; for (k in n) s = s (s ? "+" : "") k; print s}}' "$1"; }
peak_mb() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.1f", $1 / 1024}'; }

# The state both programs compute from: gsrscope's rows, test rows and GSR's augmented rows.
"$GS" run --synthetic --quiet --format csv --save-state "$TMP/state" > "$TMP/run.csv"
"$GS" run --synthetic --quiet --format csv --spectrum all > "$TMP/run_all.csv"

# NumPy reference: same linear algebra (eigvalsh every task: that is also the full-spectrum mode);
# its accuracies and spectra are checked against gsrscope's CSV first.
# Two timings of its replay (loading excluded in both):
#   cold  one fresh process per rep (median of NP_REPS), the replay timed once: the state every
#         gsrscope run starts from (fresh memory to fault in, BLAS threads to wake); the reference.
#   warm  the median of 3 replays in one process (reps 2-3 reuse memory freed by rep 1).
NP_REPS=${BENCH_NP_REPS:-5}
np_cold=""
for k in $(seq "$NP_REPS"); do
    "$PY" "$HERE/numpy_ref.py" "$TMP/state" --csv "$TMP/run.csv" > "$TMP/np.txt" || {
        cat "$TMP/np.txt" >&2; echo "bench: NumPy reference disagrees with gsrscope" >&2; exit 1; }
    np_cold="$np_cold $(awk '/numpy: compute/ {print $3}' "$TMP/np.txt")"
done
"$PY" "$HERE/numpy_ref.py" "$TMP/state" --csv "$TMP/run_all.csv" --reps 3 > "$TMP/np_all.txt" || {
    cat "$TMP/np_all.txt" >&2; echo "bench: NumPy reference disagrees with gsrscope --spectrum all" >&2; exit 1; }
np_compute=$(median_of $np_cold)
np_warm=$(awk '/numpy: compute/ {print $3}' "$TMP/np_all.txt")
np_load=$(awk '/numpy: load/ {print $3}' "$TMP/np.txt")
echo "bench: numpy_check $(grep 'numpy: agree' "$TMP/np.txt" | cut -d' ' -f3-) (+ --spectrum all: $(grep 'numpy: agree' "$TMP/np_all.txt" | cut -d' ' -f3-))"
echo "bench: numpy_reference $np_compute s (cold: median of $NP_REPS fresh processes:$np_cold; loading $np_load s excluded)"
echo "bench: numpy_reference_warm $np_warm s (median of 3 replays in one process)"

"$BE" "$REPS" --batch-only -- --synthetic > "$TMP/batch.txt" || { echo "bench: bench_engine failed" >&2; exit 1; }
b_data=$(awk '/bench: batch_data/ {print $3}' "$TMP/batch.txt")
b_comp=$(awk '/bench: batch_compute/ {print $3}' "$TMP/batch.txt")
echo "bench: compute $b_comp s ratio $(ratio "$np_compute" "$b_comp") (engine only, median of $REPS; data generation $b_data s excluded, as NumPy's loading)"
e2e=$(median_wall "$GS" run --synthetic --quiet --format csv)
echo "bench: end_to_end $e2e s ratio $(ratio "$np_compute" "$e2e") (whole process incl. data generation, vs NumPy compute; vs warm NumPy: ratio $(ratio "$np_warm" "$e2e"))"
# The whole computation in NumPy (numpy_full.py: data, stream, GSR rows, replay; its own random
# numbers), one fresh process per rep: the like-for-like reference for the end-to-end run.
np_full=""
for k in $(seq "$NP_REPS"); do
    np_full="$np_full $("$PY" "$HERE/numpy_full.py" | awk '/numpy_full: seconds/ {print $3}')"
done
np_full_med=$(median_of $np_full)
echo "bench: end_to_end_full $e2e s ratio $(ratio "$np_full_med" "$e2e") (against the same whole computation in NumPy: synthetic data, stream, GSR rows, replay; median of $NP_REPS fresh processes:$np_full)"
np_proc=$(median_wall "$PY" "$HERE/numpy_ref.py" "$TMP/state")
echo "bench: end_to_end_process $e2e s ratio $(ratio "$np_proc" "$e2e") (whole process against NumPy's whole process: interpreter, import, loading, one replay: $np_proc s)"
cpu=$(/usr/bin/time -f '%U %S' "$GS" run --synthetic --quiet --format csv 2>&1 >/dev/null | tail -1 | awk '{printf "%.2f", $1 + $2}')
echo "bench: end_to_end_cpu $cpu s (user+sys of one run; less sensitive to other load)"
spa=$(median_wall "$GS" run --synthetic --quiet --format csv --spectrum all)
echo "bench: spectrum_all $spa s ratio $(ratio "$np_compute" "$spa") (vs warm NumPy: ratio $(ratio "$np_warm" "$spa"))"

# Interactive engine (keep_task_grams = 1, as the TUI): τ and GSR parameter changes.
"$BE" "$REPS" --interactive-only -- --synthetic | grep '^bench:'
# Playback at 1 task/s in the τ-sweep view (tmux): the rate holds while each task's sweep
# computes in the background and is drawn when ready (playback.sh).
sh "$HERE/playback.sh" "$GS"
# The learners without a Gram matrix: AnaCP on the MobileNetV2 sample (run, and a β step in the
# interactive engine), and the CPU seconds of run --synthetic for ranpac, klda, fecam, anacp
# against their c719693 figures (learners.sh).
sh "$HERE/learners.sh" "$BUILD"

echo "bench: peak_rss_end_to_end $(peak_mb "$GS" run --synthetic --quiet --format csv) MB"
echo "bench: peak_rss_spectrum_all $(peak_mb "$GS" run --synthetic --quiet --format csv --spectrum all) MB"
echo "bench: peak_rss_numpy $(peak_mb "$PY" "$HERE/numpy_ref.py" "$TMP/state") MB"

# The synthetic set as files (synth --out: <f8 .npy, 50,000 + 10,000 rows): run --data reads only
# the rows the stream keeps. Timed next to run --synthetic in the same bench run (medians of REPS;
# the files are in the page cache after the first run). Targets: ≤ 1.2 × --synthetic, ≤ 300 MB.
"$GS" synth --out "$TMP/synth" --quiet
fsyn=$(median_wall "$GS" run --synthetic --quiet --format csv)
fdat=$(median_wall "$GS" run --data "$TMP/synth" --quiet --format csv)
echo "bench: data_files $fdat s, $(ratio "$fdat" "$fsyn") × run --synthetic ($fsyn s; target ≤ 1.2)"
echo "bench: peak_rss_data_files $(peak_mb "$GS" run --data "$TMP/synth" --quiet --format csv) MB (target ≤ 300)"
rm -rf "$TMP/synth"

# The reference configuration (a Gaussian random ReLU expansion to D = EXPAND, τ = 1e4 in those
# units): gsrscope's whole process against a PyTorch float32 GACL doing the same replay on the
# same rows (torch_gacl.py reads the unexpanded --save-state written above; its compute time
# includes its projection but not its loading), then GACL + GSR, the bundled sample, and the
# interactive engine at that size (bench_engine: first task, τ of the current task, GSR knobs).
if [ "$EXPAND" -gt 0 ]; then
    REF="--expand $EXPAND $REF_PROJ"
    "$PY" -c 'import torch' 2>/dev/null || { echo "bench: needs PyTorch for $PY (Debian: python3-torch; make bench installs it)" >&2; exit 1; }
    # Each figure of this part is the median of BENCH_REF_RUNS fresh processes (default 3; peak
    # RSS: the largest); timed_runs leaves the last run's stdout in the file it is given.
    timed_runs() {
        out=$1; shift
        : > "$TMP/runs.time"
        i=0
        while [ "$i" -lt "$REF_RUNS" ]; do
            /usr/bin/time -f '%e %M' -a -o "$TMP/runs.time" "$@" > "$out"
            i=$((i + 1))
        done
        # shellcheck disable=SC2046
        echo "$(median_of $(awk '{print $1}' "$TMP/runs.time")) $(awk '$2 > m {m = $2} END {print m}' "$TMP/runs.time")"
    }
    t_all=""
    i=0
    while [ "$i" -lt "$REF_RUNS" ]; do
        /usr/bin/time -f '%e %M' -o "$TMP/t.time" "$PY" "$HERE/torch_gacl.py" "$TMP/state" --expand "$EXPAND" --reg 1e4 > "$TMP/torch.txt"
        t_all="$t_all $(awk '/torch: compute/ {print $3}' "$TMP/torch.txt")"
        i=$((i + 1))
    done
    t_comp=$(median_of $t_all)
    t_rss=$(awk '{printf "%.1f", $2 / 1024}' "$TMP/t.time")
    echo "bench: torch_gacl_${EXPAND} $t_comp s (PyTorch float32, replay with its projection, loading excluded; median of $REF_RUNS processes:$t_all; peak RSS $t_rss MB; $(awk '/torch: a_last/ {print "A_last", $3}' "$TMP/torch.txt"))"
    # shellcheck disable=SC2086
    read -r xs xm <<EOT
$(timed_runs "$TMP/xg.csv" "$GS" run --synthetic --quiet --format csv $REF --methods gacl)
EOT
    echo "bench: ref_gacl_${EXPAND} $xs s ratio $(ratio "$t_comp" "$xs") (whole process vs PyTorch's replay, median of $REF_RUNS processes ($(awk '{printf "%s%s", (NR > 1 ? " " : ""), $1}' "$TMP/runs.time")); target ratio >= 1.5; peak RSS $(awk -v m="$xm" 'BEGIN {printf "%.1f", m / 1024}') MB; A_last $(awk -F, '$1 == "gacl" {a = $6} END {print a}' "$TMP/xg.csv"); precision $(precision_of "$TMP/xg.csv"))"
    # the same in double precision (--precision double: the exact double numbers at any D)
    # shellcheck disable=SC2086
    read -r xs xm <<EOT
$(timed_runs "$TMP/xd.csv" "$GS" run --synthetic --quiet --format csv $REF --methods gacl --precision double)
EOT
    echo "bench: ref_gacl_double_${EXPAND} $xs s ratio $(ratio "$t_comp" "$xs") (--precision double; peak RSS $(awk -v m="$xm" 'BEGIN {printf "%.1f", m / 1024}') MB; A_last $(awk -F, '$1 == "gacl" {a = $6} END {print a}' "$TMP/xd.csv"))"
    # shellcheck disable=SC2086
    read -r xs xm <<EOT
$(timed_runs "$TMP/xs.csv" "$GS" run --synthetic --quiet --format csv $REF)
EOT
    echo "bench: ref_gacl_gsr_${EXPAND} $xs s (target <= 20 s; median of $REF_RUNS processes ($(awk '{printf "%s%s", (NR > 1 ? " " : ""), $1}' "$TMP/runs.time")); A_last gacl $(awk -F, '$1 == "gacl" {a = $6} END {print a}' "$TMP/xs.csv") gsr $(awk -F, '$1 == "gsr" {a = $6} END {print a}' "$TMP/xs.csv"); precision $(precision_of "$TMP/xs.csv"))"
    echo "bench: peak_rss_ref_gacl_gsr_${EXPAND} $(awk -v m="$xm" 'BEGIN {printf "%.1f", m / 1024}') MB (target <= 1536 MB)"
    # shellcheck disable=SC2086
    read -r xs xm <<EOT
$(timed_runs /dev/null "$GS" run --quiet --format csv $REF)
EOT
    echo "bench: ref_sample_${EXPAND} $xs s (bundled sample, GACL + GSR; target <= 3 s; median of $REF_RUNS processes; peak RSS $(awk -v m="$xm" 'BEGIN {printf "%.1f", m / 1024}') MB)"
    # shellcheck disable=SC2086
    "$BE" "${BENCH_REF_REPS:-2}" --interactive-only -- --synthetic $REF | sed -n 's/^bench: \([a-z_]*\)/bench: ref_\1/p'
fi

# The paper's whole Table 1 (eleven methods, three seeds; bench/table1.sh): wall, CPU, peak RSS
# against ≤ 12 min and ≤ 4 GB, its largest difference from the table before the schedule and
# memory work, and the table. BENCH_TABLE1=0 skips it (about 10 min on two idle cores).
if [ "${BENCH_TABLE1:-1}" != 0 ]; then
    sh "$HERE/table1.sh" "$GS"
fi
