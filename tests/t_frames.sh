#!/bin/sh
# t_frames.sh — export for slides: --frames (a multi-page PDF, an animated GIF, numbered PNGs, a
# CSV per frame), --task all, --future hide|fade, --size slide and --font-scale. Pages and sizes
# are read with poppler (pdfinfo, pdffonts, pdftohtml), the GIF with Pillow, and what frame k
# draws from its CSV against `run --format csv`: no point after task k, its own task's numbers.
# GS_QUICK=1 (make check): the PDF's frames (pages, fonts, a CSV per frame, what each draws, fixed
# axes), the GIF and the refusals; the rest (PNG frames, --future, --size slide, --font-scale, the
# messages) in make check-full only.
. "$(dirname "$0")/lib.sh"
export GSRSCOPE_ASSETS="$PWD/assets"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
S="--synthetic --quiet"   # 10 tasks

# The run every frame draws part of (accuracy and stable rank per method and task).
"$G" run $S --format csv > "$tmp/run.csv" 2> "$tmp/err" || bad "run --synthetic"

# A 10-page PDF, one page per task, every page the same size, fonts embedded; a CSV per frame.
if "$G" export $S --frames --figure dashboard -o "$tmp/steps.pdf" --csv "$tmp/steps.csv" 2> "$tmp/err"; then
    ok "export --frames --figure dashboard -o steps.pdf"
else bad "export --frames --figure dashboard exits 0"; fi
pages=$(pdfinfo "$tmp/steps.pdf" 2>/dev/null | awk '/^Pages:/{print $2}')
[ "$pages" = 10 ] && ok "steps.pdf has 10 pages" || { echo "pages: $pages" > "$tmp/err"; bad "steps.pdf has 10 pages"; }
sizes=$(pdfinfo -f 1 -l 10 "$tmp/steps.pdf" 2>/dev/null | awk '/^Page +[0-9]+ size:/{print $4, $5, $6}' | sort -u)
[ "$sizes" = "504 x 352.8" ] && ok "every page is 7 x 4.9 in (504 x 352.8 pt)" || { echo "$sizes" > "$tmp/err"; bad "pages of one size"; }
pdffonts "$tmp/steps.pdf" 2>/dev/null | awk 'NR>2 && $(NF-4)!="yes"{bad=1} NR>2{n++} END{exit !(n>0 && !bad)}' &&
    ok "steps.pdf embeds its fonts" || { pdffonts "$tmp/steps.pdf" > "$tmp/err" 2>&1; bad "steps.pdf embeds its fonts"; }
[ ! -e "$tmp/steps.csv" ] && [ -f "$tmp/steps-01.csv" ] && [ -f "$tmp/steps-10.csv" ] && [ ! -e "$tmp/steps-11.csv" ] &&
    ok "--csv with --frames writes steps-01.csv .. steps-10.csv" || bad "a CSV per frame"

# Frame k draws no point after task k, draws task k, and its numbers are the run's.
if $PY - "$tmp" <<'PYEOF' > "$tmp/err" 2>&1; then ok "frame k draws tasks 1..k only, with the run's accuracy and stable rank"; else bad "frame k draws tasks 1..k only"; fi
import csv, sys
d = sys.argv[1]
run = {}
for r in csv.DictReader(open(d + "/run.csv")):
    run[(r["method"].upper(), int(r["task"]))] = r
kinds = {"overall": "acc", "head": "head_acc", "tail": "tail_acc"}
for k in range(1, 11):
    rows = list(csv.DictReader(open(f"{d}/steps-{k:02d}.csv")))
    over_tasks = [r for r in rows if r["chart"] in ("Accuracy", "Stable rank")]
    assert over_tasks, f"frame {k}: no chart over tasks"
    xs = [float(r["x"]) for r in over_tasks]
    assert max(xs) == k, f"frame {k}: last task drawn {max(xs)}"
    for r in over_tasks:
        name, t, y = r["series"].split(" ")[0], int(float(r["x"])), float(r["y"])
        if r["chart"] == "Accuracy":
            want = float(run[(name, t)][kinds[r["series"].split(" ")[1]]])
        else:
            want = float(run[(name, t)]["stable_rank"])
        assert abs(y - want) <= 1e-6 * max(1, abs(want)) + 0.005, f"frame {k}: {r} vs run {want}"
    # the spectrum panel: this frame's own task
    assert any(r["chart"] == "Eigenspectrum" for r in rows), f"frame {k}: no spectrum"
print("checked 10 frames")
PYEOF

# The axes stay put: every tick label (a word of digits, read with its position by pdftotext -bbox)
# is at the same place on every page. Two plain exports at tasks 1 and 10 differ there (the
# spectrum's decades), so the check can fail.
ticks() { $PY - "$@" <<'PYEOF'
import re, subprocess, sys
num = re.compile(r"^[0-9\u2212\u207b\u2070-\u2079\u00b9\u00b2\u00b3]+(\.[0-9]+)?$")
sets = []
for pdf in sys.argv[1:]:
    pages = int(re.search(r"Pages:\s+(\d+)", subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout).group(1))
    for k in range(1, pages + 1):
        out = subprocess.run(["pdftotext", "-f", str(k), "-l", str(k), "-bbox", pdf, "-"], capture_output=True, text=True).stdout
        sets.append({(w, round(float(x), 1), round(float(y), 1)) for x, y, w in
                     re.findall(r'<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="[0-9.]+" yMax="[0-9.]+">([^<]*)</word>', out)
                     if num.match(w)})
assert len(sets[0]) > 20, f"only {len(sets[0])} tick labels"
same = all(s == sets[0] for s in sets)
print(f"{len(sets)} pages, {len(sets[0])} tick labels, same: {same}")
sys.exit(0 if same else 1)
PYEOF
}
ticks "$tmp/steps.pdf" > "$tmp/err" 2>&1 && ok "every tick label at the same place on the 10 pages" || bad "the axes move between frames"
if ! quick; then
"$G" export $S --task 1 --figure dashboard -o "$tmp/t1.pdf" 2>/dev/null; "$G" export $S --task 10 --figure dashboard -o "$tmp/t10.pdf" 2>/dev/null
ticks "$tmp/t1.pdf" "$tmp/t10.pdf" > "$tmp/err" 2>&1 && bad "the tick check cannot tell two plain exports apart" || ok "the tick check sees the axes of plain exports at tasks 1 and 10 move"

# --task all is --frames: the same bytes.
"$G" export $S --task all --figure dashboard -o "$tmp/all.pdf" 2> "$tmp/err" && cmp -s "$tmp/all.pdf" "$tmp/steps.pdf" &&
    ok "--task all writes the same PDF as --frames" || bad "--task all = --frames"

fi

# The animation: 10 frames Pillow reads, 7 in x 100 dpi, --frame-ms each, the last 3x, looping;
# frames differ, the last one equals the PDF's last page's task.
if "$G" export $S --frames --frame-ms 500 --figure dashboard -o "$tmp/steps.gif" 2> "$tmp/err"; then ok "export --frames -o steps.gif"
else bad "export --frames -o steps.gif exits 0"; fi
if $PY - "$tmp/steps.gif" <<'PYEOF' > "$tmp/err" 2>&1; then ok "steps.gif: 10 frames of 700 x 490 px, 500 ms (last 1500), looping, white page as the PNG's (Pillow)"; else bad "steps.gif as Pillow reads it"; fi
import sys
from PIL import Image, ImageChops
im = Image.open(sys.argv[1])
assert im.format == "GIF" and im.is_animated, im.format
assert im.n_frames == 10, im.n_frames
assert im.size == (700, 490), im.size
assert im.info.get("loop") == 0, im.info
durs, frames = [], []
for k in range(im.n_frames):
    im.seek(k)
    durs.append(im.info["duration"])
    frames.append(im.convert("RGB"))
assert durs == [500] * 9 + [1500], durs
assert all(ImageChops.difference(frames[k], frames[k + 1]).getbbox() for k in range(9)), "two frames alike"
# the page is white as in the PNG and PDF (the palette's median cut had made it 248, 248, 248)
assert all(f.getpixel((0, 0)) == (255, 255, 255) and f.getpixel((699, 489)) == (255, 255, 255) for f in frames), frames[0].getpixel((0, 0))
print(durs)
PYEOF

if quick; then quick_note "the tick check against plain exports, --task all, PNG frames, --future, --size slide, --font-scale, the messages"; else
# Numbered PNGs, each with its task in the text chunks; no unnumbered file.
"$G" export $S --frames --figure accuracy --dpi 72 -o "$tmp/acc.png" 2> "$tmp/err" || bad "export --frames -o acc.png"
if $PY - "$tmp" <<'PYEOF' > "$tmp/err" 2>&1; then ok "acc-01.png .. acc-10.png, task k in frame k's text chunks"; else bad "numbered PNGs"; fi
import os, sys
from PIL import Image
d = sys.argv[1]
assert not os.path.exists(d + "/acc.png")
for k in range(1, 11):
    im = Image.open(f"{d}/acc-{k:02d}.png")
    assert im.text["task"] == str(k) and im.text["figure"] == "accuracy", im.text
    assert "one per task" in im.text["frames"]
assert not os.path.exists(d + "/acc-11.png")
PYEOF

# --task K --future: hide drops the later tasks from the figure and its numbers, fade keeps them.
for mode in hide fade show; do
    "$G" export $S --task 4 --future $mode --figure stable-rank -o "$tmp/$mode.svg" --csv "$tmp/$mode.csv" 2> "$tmp/err" ||
        bad "--task 4 --future $mode"
done
last() { awk -F, 'NR>1{if($3>m)m=$3} END{print m}' "$1"; }
[ "$(last "$tmp/hide.csv")" = 4 ] && ok "--future hide: the stable rank ends at task 4" || bad "--future hide ends at task 4 (got $(last "$tmp/hide.csv"))"
[ "$(last "$tmp/fade.csv")" = 10 ] && [ "$(last "$tmp/show.csv")" = 10 ] && ok "--future fade and show: tasks 5..10 drawn too" ||
    bad "--future fade/show draw every task"
"$G" export $S --task 4 --future hide --figure stable-rank -o "$tmp/hide.pdf" 2> "$tmp/err" &&
    pdftotext "$tmp/hide.pdf" - 2>/dev/null | grep -q 'task 4/10' && ok "the figure with hidden tasks says 'task 4/10'" || bad "hide: no 'task 4/10' note"
cmp -s "$tmp/fade.svg" "$tmp/show.svg" && bad "--future fade draws like show" || ok "--future fade draws otherwise than show"

# --size slide: 13.33 x 7.5 in, no text under 18 pt (pdftohtml at zoom 1 gives the sizes in pt);
# the same figure at its paper size has 8 pt text.
minpt() { pdftohtml -xml -i -zoom 1 -stdout "$1" 2>/dev/null | sed -n 's/.*fontspec.* size="\([0-9]*\)".*/\1/p' | sort -n | head -n 1; }
for f in dashboard claims accuracy; do
    "$G" export --sample mobilenetv2 --preset teaching --quiet --size slide --figure "$f" -o "$tmp/slide-$f.pdf" 2> "$tmp/err" ||
        bad "export --size slide --figure $f"
    sz=$(pdfinfo "$tmp/slide-$f.pdf" 2>/dev/null | awk '/^Page size:/{print $3, $5}')
    [ "$sz" = "959.76 540" ] && ok "$f on a slide: 13.33 x 7.5 in" || { echo "$sz" > "$tmp/err"; bad "$f slide size"; }
    m=$(minpt "$tmp/slide-$f.pdf")
    [ -n "$m" ] && [ "$m" -ge 18 ] && ok "$f on a slide: smallest text $m pt" || { echo "smallest $m" > "$tmp/err"; bad "$f slide text >= 18 pt"; }
done
# the claims slide holds fewer than the twelve claims (the CSV's) and says so
n=$(pdftotext "$tmp/slide-claims.pdf" - 2>/dev/null | tr '\n' ' ' | sed -n 's/.* \([0-9][0-9]*\) of 12 claims; the rest in the CSV (--csv).*/\1/p')
[ -n "$n" ] && [ "$n" -lt 12 ] && ok "the claims slide says '$n of 12 claims; the rest in the CSV (--csv)'" ||
    { pdftotext "$tmp/slide-claims.pdf" - > "$tmp/err" 2>&1; bad "claims slide: no 'N of 12 claims'"; }
"$G" export --sample mobilenetv2 --preset teaching --quiet --figure dashboard -o "$tmp/paper.pdf" 2> "$tmp/err"
m=$(minpt "$tmp/paper.pdf")
[ "$m" = 8 ] && ok "the paper-size dashboard's smallest text is 8 pt (the measurement sees it)" || { echo "smallest $m" > "$tmp/err"; bad "paper text 8 pt"; }
"$G" export $S --font-scale 1.5 --width-in 7 --figure accuracy -o "$tmp/fs.pdf" 2> "$tmp/err" && m=$(minpt "$tmp/fs.pdf") &&
    [ "$m" = 12 ] && ok "--font-scale 1.5: 12 pt text" || { echo "smallest ${m:-?}" >> "$tmp/err"; bad "--font-scale 1.5"; }

# export --frames says what it wrote: a PDF's pages, numbered PNGs (no unnumbered file, no .svg)
"$G" export --synthetic --frames --figure accuracy --dpi 72 -o "$tmp/say.png" 2>&1 >/dev/null | grep 'wrote' > "$tmp/err"
grep -qx "gsrscope: wrote one file per task, numbered $tmp/say-01.png, ..." "$tmp/err" && ! grep -q svg "$tmp/err" &&
    ok "export --frames -o X.png: names the numbered files (X-01.png, ...), no .svg" || bad "PNG frames message" "$(cat "$tmp/err")"
"$G" export --synthetic --frames --figure accuracy -o "$tmp/say.pdf" 2>&1 >/dev/null | grep 'wrote' > "$tmp/err"
grep -qx "gsrscope: wrote $tmp/say.pdf (one page per task)" "$tmp/err" && ok "export --frames -o X.pdf: 'wrote X.pdf (one page per task)'" ||
    bad "PDF frames message" "$(cat "$tmp/err")"

fi

# Refused, one line, exit 2.
refuse() { # what, arguments
    what=$1; shift
    "$G" export $S --figure accuracy -o "$tmp/no.png" "$@" 2> "$tmp/err"; rc=$?
    [ $rc -eq 2 ] && one_line && [ ! -e "$tmp/no.png" ] && ok "refused: $what" || bad "refused: $what (exit $rc)"
}
refuse "--frame-ms without --frames" --frame-ms 500
refuse "--size with --width-in" --size slide --width-in 5
refuse "an unknown --future" --future later
refuse "an unknown --size" --size poster
refuse "--font-scale out of range" --font-scale 9
refuse "a layout narrower than 3 in (--font-scale 2 at 3.5 in)" --font-scale 2
refuse "--frame-ms 5" --frames --frame-ms 5
finish
