#!/bin/sh
# t_outputs.sh — a command's outputs are decided before any work and written all or none:
# every output path (-o, --csv, --save-state, synth --out) is checked writable before the data
# are even loaded (shown by giving a data folder that does not exist: the output's message comes
# first); a write that fails after others succeeded leaves none of them (GS_FAIL_WRITE=ENOSPC@N
# fails the N-th file); on a full disk (a small tmpfs, where the test may mount one) the message
# names the cause and the file, and nothing is left, not even the --save-state folder.
. "$(dirname "$0")/lib.sh"
NODATA="--data /nonexistent/gsrscope-no-data"
onlyerr() { [ "$(ls -A "$1" | grep -cv '^err$')" -eq 0 ]; }  # nothing but the test's own err file

# refused before any work (the data folder is never looked at)
mkdir -p "$tmp/o"
"$G" export --figure accuracy -o "$tmp/o/f.png" --csv /nonexistent/dir/x.csv $NODATA >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ "$rc" -eq 2 ] && one_line "--csv /nonexistent/dir/x.csv: cannot create: folder /nonexistent/dir does not exist" && [ ! -e "$tmp/o/f.png" ]; then
    ok "export --csv into a missing folder: refused before loading, no figure written"
else bad "export --csv /nonexistent: exit $rc"; fi
if [ -d /proc/self ]; then
    "$G" export --figure accuracy -o /proc/f.png $NODATA >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" -eq 2 ] && one_line "-o /proc/f.png: cannot write in /proc: "; then ok "export -o /proc/f.png: refused before any work"
    else bad "-o /proc/f.png: exit $rc"; fi
    "$G" run --save-state /proc/st $NODATA >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" -eq 2 ] && one_line "--save-state /proc/st: cannot write in /proc: "; then ok "run --save-state /proc/st: refused before any work"
    else bad "--save-state /proc/st: exit $rc"; fi
fi
: >"$tmp/o/afile"
"$G" run --save-state "$tmp/o/afile" $NODATA >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ "$rc" -eq 2 ] && one_line "--save-state $tmp/o/afile: exists and is not a folder"; then ok "--save-state naming a file: exit 2"
else bad "--save-state on a file: exit $rc"; fi
"$G" synth --out /proc/syn >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ "$rc" -eq 2 ] && one_line "--out /proc/syn: cannot write in /proc"; then ok "synth --out /proc/syn: refused before generating"
else bad "synth --out /proc/syn: exit $rc"; fi

# the second of two files fails: the first is not left behind, an older copy stays as it was
rm -rf "$tmp/o"; mkdir -p "$tmp/o"
printf 'previous\n' >"$tmp/o/f.png"
GS_FAIL_WRITE=ENOSPC@2 "$G" export --tasks 2 --quiet --figure accuracy -o "$tmp/o/f.png" --csv "$tmp/o/f.csv" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ "$rc" -eq 1 ] && one_line "$tmp/o/f.csv: write failed: No space left on device" && [ "$(cat "$tmp/o/f.png")" = previous ] &&
    [ ! -e "$tmp/o/f.csv" ] && [ "$(ls -A "$tmp/o" | wc -l)" -eq 1 ]; then
    ok "export: the CSV fails after the PNG: neither is written, the old PNG intact, no temporary"
else bad "export PNG+CSV with the CSV failing: exit $rc, files: $(ls -A "$tmp/o" | tr '\n' ' ')"; fi
GS_FAIL_WRITE=ENOSPC@3 "$G" run --tasks 2 --quiet --save-state "$tmp/o/st" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ "$rc" -eq 1 ] && one_line "$tmp/o/st/" && grep -qF "No space left on device" "$tmp/err" && [ ! -e "$tmp/o/st" ]; then
    ok "--save-state: the third file fails: no folder, no file left"
else bad "--save-state failing at the third file: exit $rc, left: $(ls -A "$tmp/o/st" 2>/dev/null | tr '\n' ' ')"; fi
# control: without the failure both files are written
"$G" export --tasks 2 --quiet --figure accuracy -o "$tmp/o/f.png" --csv "$tmp/o/f.csv" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ "$rc" -eq 0 ] && [ -s "$tmp/o/f.csv" ] && [ "$(head -c 4 "$tmp/o/f.png" | od -An -c | tr -d ' ')" = "211PNG" ] &&
    [ "$(ls -A "$tmp/o" | wc -l)" -eq 2 ]; then ok "control: without a failure the PNG and the CSV are written"
else bad "control export: exit $rc, files: $(ls -A "$tmp/o" | tr '\n' ' ')"; fi

# a full disk: a 24 kB tmpfs
M="$tmp/mnt"; mkdir -p "$M"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=24k tmpfs "$M" 2>/dev/null; then
    "$G" run --tasks 2 --quiet --save-state "$M/st" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" -eq 1 ] && one_line "$M/st/" && grep -qF "No space left on device" "$tmp/err" && [ -z "$(ls -A "$M")" ]; then
        ok "full disk, --save-state: the cause and the file named, nothing left (not even the folder)"
    else bad "full disk --save-state: exit $rc, left: $(ls -A "$M" | tr '\n' ' ')"; fi
    "$G" export --tasks 2 --quiet --figure accuracy --dpi 300 -o "$M/f.png" --csv "$M/f.csv" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" -eq 1 ] && one_line "$M/f." && grep -qF "No space left on device" "$tmp/err" && [ -z "$(ls -A "$M")" ]; then
        ok "full disk, export: the cause and the file named, nothing left"
    else bad "full disk export: exit $rc, left: $(ls -A "$M" | tr '\n' ' ')"; fi
    umount "$M"
else
    skip "the full-disk cases (cannot mount a tmpfs here: needs root and mount rights)"
fi
finish
