#!/usr/bin/env python3
"""future_check.py MODE < screen: check the task-axis charts of a captured TUI screen.

Every chart with a current-task mark shows it on its x axis as '┼' in a row that starts with
'└' (the axis corner). MODE "none-right": no plot glyph (braille dots or series markers) right
of the mark column in any such chart; prints the number of charts checked. MODE "reach-end":
every such chart has a plot glyph in the last quarter of its plot width. Exit 1 on failure."""
import sys

PLOT = set(chr(c) for c in range(0x2801, 0x2900)) | set("○■▲◆✚")
BORDER = set("│┘┐└┌┤├")


def charts(lines):
    """(axis row, corner col, mark col, end col) for each chart with a task mark."""
    out = []
    for r, line in enumerate(lines):
        c = 0
        while True:
            c = line.find("└", c)
            if c < 0:
                break
            e = c + 1
            while e < len(line) and line[e] in "─┬┼":
                e += 1
            seg = line[c:e]
            if "┼" in seg and e - c > 6 and r > 0 and lines[r - 1][c:c + 1] in ("│", "┤"):
                out.append((r, c, c + seg.index("┼"), e))
            c = e
    return out


def plot_rows(lines, r, c):
    """Rows above the axis row that belong to the chart (y axis at column c)."""
    k = r - 1
    while k >= 0 and len(lines[k]) > c and lines[k][c] in ("│", "┤"):
        yield k
        k -= 1


def main():
    mode = sys.argv[1]
    lines = sys.stdin.read().split("\n")
    cs = charts(lines)
    if not cs:
        print("no task-axis chart with a mark found")
        return 1
    bad = []
    for (r, c, m, e) in cs:
        hits = [(k, j) for k in plot_rows(lines, r, c) for j in range(c + 1, min(e, len(lines[k])))
                if lines[k][j] in PLOT]
        if mode == "none-right":
            right = [(k, j) for (k, j) in hits if j > m]
            if right:
                bad.append("chart at row %d col %d: glyphs right of the mark (col %d): %s" % (r, c, m, right[:5]))
        else:
            q = c + 1 + 3 * (e - c - 1) // 4
            if not any(j >= q for (k, j) in hits):
                bad.append("chart at row %d col %d: nothing in the last quarter (from col %d)" % (r, c, q))
    for b in bad:
        print(b)
    print("%d charts checked" % len(cs))
    return 1 if bad else 0


sys.exit(main())
