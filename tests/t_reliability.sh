#!/bin/sh
# t_reliability.sh — the reliability round (man gsrscope: EXIT STATUS): what a careless user or an
# attacker tries.
#  1 a class larger than GSL's 32-bit draws (65,537 rows: N(N−1) > 2³² pairs) runs, no abort
#  4 outputs: a device is written through, never replaced (/dev/full fails, /dev/null stays a
#    device), a symlink's target is written and the link kept, the umask and an existing file's
#    mode are kept
#  6 every output path is checked in full before any work: a name too long for the folder, a file
#    where a folder should be, a missing folder: exit 2, the data never read
#  7 control characters from input are shown escaped, never raw
#  8 a session read from an endless input is refused at once; a preset that sets a key twice is
#    refused, as a session is
#  9 honest counts: tests/run_tests.sh counts a skip as skipped, a test that ran nothing as failed,
#    and GS_NO_SKIP=1 fails on any skip
. "$(dirname "$0")/lib.sh"
export GSRSCOPE_ASSETS="$PWD/assets"
PY=/usr/bin/python3
NODATA="--data /nonexistent/gsrscope-no-data"

# ---- 1: a class of 65,537 rows ------------------------------------------------------------------
if "$PY" -c 'import numpy' 2>/dev/null; then
    "$PY" - "$tmp/big" <<'PY'
import numpy as np, os, sys
d = sys.argv[1]; os.makedirs(d)
rng = np.random.default_rng(0)
y = np.concatenate([np.zeros(65537, np.int64), np.repeat(np.arange(1, 4), 20)])
X = (rng.standard_normal((len(y), 6)) + y[:, None]).astype(np.float32)
yt = np.repeat(np.arange(4), 10).astype(np.int64)
Xt = (rng.standard_normal((len(yt), 6)) + yt[:, None]).astype(np.float32)
for n, a in (("train_features", X), ("train_labels", y), ("test_features", Xt), ("test_labels", yt)):
    np.save(os.path.join(d, n + ".npy"), a)
PY
    for pairs in all literal random; do
        "$G" run --data "$tmp/big" --profile none --tasks 2 --methods gacl+gsr,gacl+interclass --pairs $pairs \
            --format csv --quiet >"$tmp/out" 2>"$tmp/err"; rc=$?
        if [ $rc -eq 0 ] && [ "$(grep -c '^gacl+gsr,' "$tmp/out")" -eq 2 ]; then
            ok "a class of 65,537 rows, --pairs $pairs: GSR and interclass draw its pairs (exit 0)"
        else bad "65,537-row class, --pairs $pairs: exit $rc"; fi
    done
else skip "the 65,537-row class: NumPy not installed (python3-numpy)"; fi

# ---- 2: a limit on the address space: refused or run, within seconds, never a hang ---------------
if [ -n "${GS_SANITIZED:-}" ]; then skip "ulimit -v under sanitizers (their shadow memory needs terabytes of address space)"
else
    for lim in 300000 600000 900000; do
        for cmd in "run --tasks 2 --format csv" "export --tasks 2 --figure dashboard -o $tmp/ul$lim.pdf"; do
            (ulimit -v $lim; timeout -s KILL 60 "$G" $cmd --quiet >"$tmp/out" 2>"$tmp/err"); rc=$?
            if { [ $rc -eq 0 ] && [ -s "$tmp/out" -o -s "$tmp/ul$lim.pdf" ]; } ||
               { [ $rc -eq 2 ] && one_line ".*needs .* but only .* available"; } ||
               { [ $rc -eq 1 ] && one_line ".*out of memory"; }; then
                ok "ulimit -v $lim, ${cmd%% *}: exit $rc, no hang, no abort"
            else bad "ulimit -v $lim, ${cmd%% *}: exit $rc $(head -c 300 "$tmp/err")"; fi
        done
    done
fi

# ---- 3: SIGINT and SIGTERM stop within a second, leaving nothing (frames, --save-state) --------
# the bound checked is 2 s (the rule is 1 s; a loaded machine gets slack); the watchdog ends a
# command that does not poll after 0.8 s
stop_in_time() { # signal, want, what, folder, args...
    sig=$1; want=$2; what=$3; dir=$4; shift 4
    "$G" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null &
    pid=$!
    sleep 1.5
    t0=$(date +%s%N); kill -"$sig" "$pid" 2>/dev/null
    i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
    t1=$(date +%s%N)
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; wait "$pid"; bad "$what: SIG$sig: still running 5 s later"; return; fi
    wait "$pid"; rc=$?; ms=$(( (t1 - t0) / 1000000 ))
    if [ $rc -eq "$want" ] && [ $ms -le 2000 ] && one_line "interrupted" && [ -z "$(ls -A "$dir")" ]; then
        ok "$what: SIG$sig -> exit $rc in $ms ms, nothing left"
    else bad "$what: SIG$sig -> exit $rc in $ms ms, left: $(ls -A "$dir" | head -n 3 | tr '\n' ' ')"; fi
}
mkdir "$tmp/sg"
stop_in_time INT 130 "export --frames" "$tmp/sg" export --sample mobilenetv2 --preset teaching --figure dashboard --frames -o "$tmp/sg/f.pdf" --quiet
stop_in_time TERM 143 "export --frames .png" "$tmp/sg" export --sample mobilenetv2 --preset teaching --figure accuracy --frames -o "$tmp/sg/f.png" --quiet
stop_in_time TERM 143 "run --save-state" "$tmp/sg" run --synthetic --expand 1500 --save-state "$tmp/sg/st" --quiet

# ---- 4: devices, symlinks, modes ----------------------------------------------------------------
FIG="export --sample mobilenetv2 --tasks 2 --figure accuracy --quiet"
mkdir "$tmp/o"
if [ -c /dev/full ]; then
    "$G" $FIG -o "$tmp/o/a.png" --csv /dev/full >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ $rc -eq 1 ] && [ -c /dev/full ] && one_line "/dev/full: write failed: No space left on device" && [ ! -e "$tmp/o/a.png" ]; then
        ok "--csv /dev/full: exit 1 naming the cause, /dev/full still a device, no figure left"
    else bad "--csv /dev/full: exit $rc, $(ls -l /dev/full)"; fi
else skip "--csv /dev/full: no /dev/full here"; fi
if [ -w /dev/null ]; then
    "$G" $FIG -o "$tmp/o/a.png" --csv /dev/null >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ $rc -eq 0 ] && [ -c /dev/null ] && [ -s "$tmp/o/a.png" ]; then ok "--csv /dev/null: written through, /dev/null still a device"
    else bad "--csv /dev/null: exit $rc, $(ls -l /dev/null)"; fi
fi
: >"$tmp/o/real.csv"; ln -s real.csv "$tmp/o/link.csv"
"$G" $FIG -o "$tmp/o/b.png" --csv "$tmp/o/link.csv" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc -eq 0 ] && [ -L "$tmp/o/link.csv" ] && [ -s "$tmp/o/real.csv" ]; then ok "a symlink output: its target written, the link kept"
else bad "symlink output: exit $rc, $(ls -l "$tmp/o")"; fi
ln -s nowhere.csv "$tmp/o/dangling.csv"
"$G" export --figure accuracy -o "$tmp/o/c.png" --csv "$tmp/o/dangling.csv" $NODATA >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "--csv $tmp/o/dangling.csv: a symlink to a missing file" && ok "a dangling symlink: refused before work (exit 2)" ||
    bad "dangling symlink: exit $rc"
(umask 077; "$G" $FIG -o "$tmp/o/u.png" >"$tmp/out" 2>"$tmp/err")
[ "$(stat -c %a "$tmp/o/u.png" 2>/dev/null)" = 600 ] && ok "umask 077: a new output is 0600" || bad "umask 077: mode $(stat -c %a "$tmp/o/u.png")"
(umask 022; "$G" $FIG -o "$tmp/o/v.png" >"$tmp/out" 2>"$tmp/err")
[ "$(stat -c %a "$tmp/o/v.png" 2>/dev/null)" = 644 ] && ok "umask 022: a new output is 0644" || bad "umask 022: mode $(stat -c %a "$tmp/o/v.png")"
chmod 640 "$tmp/o/v.png"
"$G" $FIG -o "$tmp/o/v.png" >"$tmp/out" 2>"$tmp/err"
[ "$(stat -c %a "$tmp/o/v.png")" = 640 ] && ok "an existing output keeps its mode (0640)" || bad "overwrite: mode $(stat -c %a "$tmp/o/v.png")"

# ---- 5: bombs bounded before they grow ----------------------------------------------------------
# a .pt whose pickle is 4 MB of nested list opcodes (a few KB zipped), and an IDX .gz whose header
# claims 1 GB from a few hundred bytes: refused at once (exit 2), under --max-memory 100M too
"$PY" - "$tmp/bomb" <<'PY' || bad "could not write the bombs"
import gzip, os, struct, sys, zipfile
d = sys.argv[1]; os.makedirs(d)
pkl = b"\x80\x02" + b"]" * (4 << 20) + b"."
with zipfile.ZipFile(os.path.join(d, "bomb.pt"), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("archive/data.pkl", pkl)
    z.writestr("archive/version", "3\n")
os.makedirs(os.path.join(d, "idx"))
hdr = struct.pack(">BBBBIII", 0, 0, 8, 3, 1000000, 32, 32)
for name in ("train-images-idx3-ubyte", "t10k-images-idx3-ubyte"):
    with gzip.open(os.path.join(d, "idx", name + ".gz"), "wb") as f: f.write(hdr + b"\0" * 64)
for name in ("train-labels-idx1-ubyte", "t10k-labels-idx1-ubyte"):
    with gzip.open(os.path.join(d, "idx", name + ".gz"), "wb") as f: f.write(struct.pack(">BBBBI", 0, 0, 8, 1, 4) + bytes(4))
PY
F=tests/bad_inputs/files
t0=$(date +%s)
timeout 20 "$G" run --max-memory 100M --train-features "$tmp/bomb/bomb.pt" --train-labels $F/ok_y.npy \
    --test-features $F/ok_X.npy --test-labels $F/ok_y.npy --quiet >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line ".*pickle bomb" && [ $(( $(date +%s) - t0 )) -le 5 ] && ok "a pickle bomb (.pt): refused at once (exit 2)" ||
    bad "pickle bomb: exit $rc after $(( $(date +%s) - t0 )) s: $(cat "$tmp/err")"
t0=$(date +%s)
timeout 20 "$G" run --idx "$tmp/bomb/idx" --quiet >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line ".*more than a gzip file of .* can hold" && [ $(( $(date +%s) - t0 )) -le 5 ] &&
    ok "an IDX .gz claiming 1 GB from a few hundred bytes: refused before inflating (exit 2)" ||
    bad "IDX bomb: exit $rc after $(( $(date +%s) - t0 )) s: $(cat "$tmp/err")"

# ---- 6: output paths checked in full before any work (the data folder does not exist) ----------
long=$(printf 'x%.0s' $(seq 1 250))
"$G" export --figure accuracy -o "$tmp/o/$long.png" $NODATA >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "File name too long" "$tmp/err" && ok "a 254-byte output name: refused before work (exit 2)" || bad "long name: exit $rc $(cat "$tmp/err")"
"$G" run --format csv --save-state "$tmp/o/$long" $NODATA >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && bad "a 250-byte --save-state folder name under the data's error" ||
    { grep -q "nonexistent" "$tmp/err" && ok "--save-state with a 250-byte name: the folder is fine, the data is what is refused"; } ||
    bad "--save-state long name: exit $rc $(cat "$tmp/err")"
: >"$tmp/o/afile"
"$G" export --figure accuracy -o "$tmp/o/x.png" --csv "$tmp/o/afile/x.csv" $NODATA >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "--csv $tmp/o/afile/x.csv" && ok "--csv under a file: exit 2 before work" || bad "--csv afile/x.csv: exit $rc"
"$G" export --figure accuracy -o "$tmp/o/nodir/f.pdf" $NODATA >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line && ok "-o into a missing folder: exit 2 before work" || bad "-o nodir/f.pdf: exit $rc $(cat "$tmp/err")"

"$G" run --save-state "$tmp/o/nodir/sub/st" $NODATA >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "--save-state $tmp/o/nodir/sub/st: cannot create: folder $tmp/o/nodir/sub does not exist" &&
    [ ! -e "$tmp/o/nodir" ] && ok "--save-state into missing parents: refused before work like -o (exit 2), nothing made" ||
    bad "--save-state nodir/sub/st: exit $rc $(cat "$tmp/err")"

# ---- 7: control characters escaped ------------------------------------------------------------
esc=$(printf '\033[31mRED\007')
"$G" run --data "$tmp/$esc" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc -eq 2 ] && ! grep -q "$(printf '\033')" "$tmp/err" && ! grep -q "$(printf '\007')" "$tmp/err" && grep -qF '\x1b[31mRED\x07' "$tmp/err"; then
    ok "ESC and BEL in a path: shown as \\x1b, \\x07 in the message"
else bad "control characters reached stderr raw (exit $rc)"; fi

mkdir "$tmp/d$esc"
cp sample_features/fashion-mnist/*.npy "$tmp/d$esc/"
"$G" run --data "$tmp/d$esc" --tasks 2 --quiet >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc -eq 0 ] && grep -q '^data: ' "$tmp/out" && ! grep -q "$(printf '\033')" "$tmp/out" "$tmp/err"; then
    ok "a data folder named with ESC: run's table shows it escaped"
else bad "ESC in a data folder's name reached the terminal (exit $rc)"; fi

# ---- 8: sessions and presets ------------------------------------------------------------------
timeout 10 "$G" run --session /dev/zero >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "/dev/zero: " && ok "--session /dev/zero: refused at once (exit 2)" || bad "--session /dev/zero: exit $rc"
(echo '# gsrscope session 1'; yes '# a comment') 2>/dev/null | timeout 20 "$G" run --session /dev/stdin >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "/dev/stdin: larger than" && ok "a session that never ends: refused past its size cap (exit 2)" || bad "endless session: exit $rc"
cp -r assets "$tmp/assets"
printf 'title=twice\ntau=3\nbeta=2\ntau = 4\n' >"$tmp/assets/presets/twice"
GSRSCOPE_ASSETS="$tmp/assets" "$G" run --preset twice >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line ".*twice: line 4: 'tau' is set twice (first on line 2)" && ok "a preset setting a key twice: refused (exit 2)" ||
    bad "preset key twice: exit $rc $(cat "$tmp/err")"

"$G" run --expand 1073741824 --quiet >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "--expand 1073741824 needs at least 16384.0 PiB" && ok "--expand 2^30: refused with its size, not '0 B'" ||
    bad "--expand 2^30: exit $rc $(cat "$tmp/err")"

# labels: the whole int64 range in .npy (its span overflowed: UBSan stops there under check-asan),
# and negative labels in a CSV, which .npy maps and CSV refused
if "$PY" -c 'import numpy' 2>/dev/null; then
    "$PY" - "$tmp/lab" <<'PY'
import numpy as np, os, sys
d = sys.argv[1]; os.makedirs(d)
rng = np.random.default_rng(1)
labs = np.array([np.iinfo(np.int64).min, 0, np.iinfo(np.int64).max], np.int64)
y = np.repeat(labs, 8); yt = np.repeat(labs, 3)
X = (rng.standard_normal((len(y), 4)) + np.repeat(np.arange(3), 8)[:, None]).astype(np.float32)
Xt = (rng.standard_normal((len(yt), 4)) + np.repeat(np.arange(3), 3)[:, None]).astype(np.float32)
for n, a in (("train_features", X), ("train_labels", y), ("test_features", Xt), ("test_labels", yt)):
    np.save(os.path.join(d, n + ".npy"), a)
with open(d + "/train.csv", "w") as f:
    for r, l in zip(X, np.repeat([-2, -1, 5], 8)): f.write(",".join("%.6f" % v for v in r) + ",%d\n" % l)
with open(d + "/test.csv", "w") as f:
    for r, l in zip(Xt, np.repeat([-2, -1, 5], 3)): f.write(",".join("%.6f" % v for v in r) + ",%d\n" % l)
PY
    "$G" run --data "$tmp/lab" --profile none --tasks 1 --methods gacl --format csv --quiet >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && grep -q "9223372036854775807→2" "$tmp/err" && ok "labels INT64_MIN, 0, INT64_MAX: classes 0..2, said" ||
        bad "int64 labels: exit $rc $(cat "$tmp/err")"
    "$G" run --train-features "$tmp/lab/train.csv" --test-features "$tmp/lab/test.csv" --profile none --tasks 1 --methods gacl \
        --format csv --quiet >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && grep -q "labels -2..5\|the 3 distinct labels" "$tmp/err" && ok "negative CSV labels map to classes, as in .npy" ||
        bad "negative CSV labels: exit $rc $(cat "$tmp/err")"
else skip "label ranges: NumPy not installed (python3-numpy)"; fi

# ---- 9: the runner's counts -------------------------------------------------------------------
mkdir -p "$tmp/rb/tests" "$tmp/rt"
printf '#!/bin/sh\necho "0 passed, 0 failed"\n' >"$tmp/rb/tests/test_nothing"
printf '#!/bin/sh\necho "SKIP - a tool missing"\necho "1 passed, 0 failed, 1 skipped"\n' >"$tmp/rb/tests/test_skips"
chmod +x "$tmp/rb/tests/test_nothing" "$tmp/rb/tests/test_skips"
GS_NO_SKIP= GS_TESTS_DIR="$tmp/rt" sh tests/run_tests.sh "$tmp/rb" >"$tmp/out" 2>&1; rc=$?
[ $rc -ne 0 ] && [ "$(tail -n 1 "$tmp/out")" = "1 passed, 1 failed, 1 skipped" ] && ok "run_tests: a test that ran nothing fails, a skip is counted" ||
    bad "run_tests counts: exit $rc, $(tail -n 1 "$tmp/out")"
rm "$tmp/rb/tests/test_nothing"
GS_NO_SKIP= GS_TESTS_DIR="$tmp/rt" sh tests/run_tests.sh "$tmp/rb" >"$tmp/out" 2>&1; rc1=$?  # (CI runs this test itself under GS_NO_SKIP=1)
GS_NO_SKIP=1 GS_TESTS_DIR="$tmp/rt" sh tests/run_tests.sh "$tmp/rb" >"$tmp/out" 2>&1; rc2=$?
[ $rc1 -eq 0 ] && [ $rc2 -ne 0 ] && ok "run_tests: a skip passes, but fails under GS_NO_SKIP=1" || bad "GS_NO_SKIP: exits $rc1, $rc2"
finish
