#!/bin/sh
# t_export.sh — `gsrscope export` from the command line: figures in PNG/SVG/PDF, the same bytes
# twice, the numbers behind a figure, and failures that leave nothing behind.
# Prints "N passed, N failed" as its last line.
GSRSCOPE=${GSRSCOPE:-$PWD/build/gsrscope}
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL $*"; }
check() { if eval "$1"; then ok; else bad "$2"; fi; }

if [ ! -x "$GSRSCOPE" ]; then
    echo "SKIP - $GSRSCOPE not built yet"
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
fi
T=$(mktemp -d /tmp/gs_t_export.XXXXXX)
trap 'rm -rf "$T"' EXIT
# Most checks use the bundled sample with a short protocol (fast); the dashboard uses --synthetic.
FAST="--tasks 4 --max-aug 20"
magic() { head -c "$2" "$1" | od -An -c | tr -d ' \n'; }

# PNG dashboard: exit 0, PNG signature, 7 in x 300 dpi = 2100 px wide
"$GSRSCOPE" export --synthetic --figure dashboard -o "$T/dash.png" 2>"$T/err"; rc=$?
check '[ $rc -eq 0 ]' "export dashboard png: exit $rc ($(cat "$T/err"))"
check '[ "$(magic "$T/dash.png" 8)" = "211PNG\r\n032\n" ]' "dashboard.png has the PNG signature"
w=$(od -An -tu1 -j16 -N4 "$T/dash.png" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
check '[ "$w" = 2100 ]' "dashboard.png is 2100 px wide (got $w)"
# pHYs chunk: 11811 px/m = 0x00002e23
check 'od -An -tx1 -v "$T/dash.png" | tr -d " \n" | grep -q 7048597300002e2300002e2301' "pHYs says 300 dpi"
check 'grep -aq "gsrscope" "$T/dash.png" && grep -aq "alpha_base" "$T/dash.png"' "tEXt chunks with the parameters"
check '! grep -aq tIME "$T/dash.png"' "no tIME chunk"

# Same command twice: same bytes (separate processes), for all three formats
for ext in png svg pdf; do
    "$GSRSCOPE" export $FAST --figure accuracy --tau 0.05 -o "$T/a1.$ext" 2>/dev/null
    "$GSRSCOPE" export $FAST --figure accuracy --tau 0.05 -o "$T/a2.$ext" 2>/dev/null
    check 'cmp -s "$T/a1.$ext" "$T/a2.$ext"' "same command twice gives the same .$ext bytes"
done
check '[ "$(head -c 5 "$T/a1.pdf")" = "%PDF-" ]' "PDF signature"
skipped=0
if command -v xmllint >/dev/null 2>&1; then
    check 'xmllint --noout "$T/a1.svg"' "SVG is well-formed"
else skipped=$((skipped+1)); echo "SKIP - SVG well-formed: xmllint missing (libxml2-utils)"; fi
if command -v pdffonts >/dev/null 2>&1; then
    check 'pdffonts "$T/a1.pdf" | grep -q "DejaVuSans.*yes yes" && ! pdffonts "$T/a1.pdf" | grep -q "Type 3"' \
        "PDF fonts embedded, not Type 3"
else skipped=$((skipped+1)); echo "SKIP - PDF fonts: pdffonts missing (poppler-utils)"; fi

# --dpi and --width-in: 3 in at 100 dpi = 300 px; --data writes the numbers
"$GSRSCOPE" export $FAST --figure spectrum --dpi 100 --width-in 3 --data "$T/spec.csv" -o "$T/s.png" 2>/dev/null; rc=$?
check '[ $rc -eq 0 ]' "export spectrum with --dpi/--width-in/--data: exit $rc"
w=$(od -An -tu1 -j16 -N4 "$T/s.png" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
check '[ "$w" = 300 ]' "3 in at 100 dpi = 300 px (got $w)"
# Limits: unreadable sizes are refused before anything is computed or written.
for bad in "--dpi 10" "--dpi 71" "--width-in 1" "--width-in 2.9"; do
    "$GSRSCOPE" export $FAST --figure accuracy $bad -o "$T/lim.png" >/dev/null 2>"$T/lim.err"; rc=$?
    check '[ $rc -eq 2 ] && [ ! -e "$T/lim.png" ] && [ "$(wc -l < "$T/lim.err")" -eq 1 ] && grep -q "^gsrscope: --[dw][a-z-]*: must be in \[" "$T/lim.err"' \
        "export $bad refused with exit 2 and one line (got $rc: $(cat "$T/lim.err"))"
done
"$GSRSCOPE" export $FAST --figure accuracy --dpi 72 --width-in 3 -o "$T/lim.png" 2>/dev/null
check '[ -s "$T/lim.png" ]' "the limits themselves (72 dpi, 3 in) are accepted"
"$GSRSCOPE" export --tasks 10 --figure accuracy --task 11 -o "$T/t11.png" >/dev/null 2>"$T/t11.err"; rc=$?
check '[ $rc -eq 2 ] && [ ! -e "$T/t11.png" ] && grep -q "^gsrscope: --task: 11 is past the last task: this run has 10 tasks (give 1 to 10)$" "$T/t11.err"' \
    "export --task 11 on a 10-task run says there are 10 tasks (got: $(cat "$T/t11.err"))"
check '[ "$(head -n 1 "$T/spec.csv")" = "chart,series,x,y" ] && [ "$(grep -c "^Eigenspectrum,GSR," "$T/spec.csv")" -gt 10 ]' \
    "spectrum CSV has the GSR eigenvalues"
check '! grep -qi nan "$T/spec.csv"' "no NaN in the CSV"

# A folder that does not exist: refused before work (exit 2), message names the file, nothing left behind
"$GSRSCOPE" export $FAST --figure dashboard -o "$T/missing/x.png" 2>"$T/err"; rc=$?
check '[ $rc -eq 2 ]' "missing folder: exit 2 (got $rc)"
check 'grep -q "missing/x.png" "$T/err"' "missing folder: message names the file ($(cat "$T/err"))"
check '[ ! -e "$T/missing" ] && [ -z "$(ls -A "$T" | grep -v -e "^a[12]\." -e "^dash.png$" -e "^s.png$" -e "^spec.csv$" -e "^err$" -e "^lim\." -e "^t11\.")" ]' \
    "missing folder: nothing left behind"

# Unknown format: exit 2 with the format named; existing file untouched on a failing disk
"$GSRSCOPE" export $FAST --figure dashboard -o "$T/x.xyz" 2>"$T/err"; rc=$?
check '[ $rc -eq 2 ] && grep -q "unknown figure format" "$T/err" && [ ! -e "$T/x.xyz" ]' "unknown format: exit 2 ($rc: $(cat "$T/err"))"
echo old > "$T/keep.png"
n0=$(ls -A "$T" | wc -l)
GS_FAIL_WRITE=ENOSPC "$GSRSCOPE" export $FAST --figure stable-rank -o "$T/keep.png" 2>"$T/err"; rc=$?
check '[ $rc -eq 1 ] && [ "$(cat "$T/keep.png")" = old ] && [ "$(ls -A "$T" | wc -l)" = "$n0" ]' \
    "failing disk: exit 1, old file untouched, no temp file ($rc: $(cat "$T/err"))"

# progress (stderr not a terminal): one line per seed's run before the "wrote" line; none with --quiet
"$GSRSCOPE" export $FAST --seeds 1,2 --figure accuracy -o "$T/seeds.png" 2>"$T/err"; rc=$?
grep -v '^gsrscope: warning:' "$T/err" >"$T/prog"
check '[ $rc -eq 0 ] && [ "$(wc -l <"$T/prog")" -eq 3 ] &&
       sed -n 1p "$T/prog" | grep -qE "^gsrscope: export 1/2 seed 1 done \([0-9.]+ s; about [0-9.]+ (s|min|h) left\)$" &&
       sed -n 2p "$T/prog" | grep -qE "^gsrscope: export 2/2 seed 2 done \([0-9.]+ s\)$" &&
       sed -n 3p "$T/prog" | grep -q "^gsrscope: wrote "' "export --seeds 1,2 progress lines ($rc: $(cat "$T/err"))"
"$GSRSCOPE" export $FAST --seeds 1,2 --figure accuracy -o "$T/seeds.png" --quiet 2>"$T/err"; rc=$?
check '[ $rc -eq 0 ] && ! grep -v "^gsrscope: warning:" "$T/err" | grep -q .' "export --quiet printed progress ($(cat "$T/err"))"

echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
