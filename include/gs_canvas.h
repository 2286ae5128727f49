/* gs_canvas.h — pure cell-grid raster for the TUI (prefix cv_).
 *
 * A canvas is a grid of terminal cells; each cell holds one wide character, an RGB color
 * (or CV_RGB_DEFAULT for the terminal's default) and attributes. Plots are drawn on a dot
 * raster finer than the cells: braille 2×4 dots per cell (U+2800 + mask), block quadrants 2×2
 * (U+2596..U+259F), or ASCII 1×1 (one glyph per dot, chosen by the series' dash pattern).
 * cv_draw_chart rasterizes a ch_chart (gs_chart.h): legend line, y ticks, plot area with NaN
 * gaps, x axis with ticks, current-task mark. Text is UTF-8; in ASCII mode non-ASCII symbols
 * are folded (α→a, β→b, ξ→xi, τ→tau, λ→l, Δ→d, box drawing → + - |).
 * No curses here: the TUI blits the cells, tests read them.
 * Ownership: cv_canvas owns its cell array; cv_free releases it.
 */
#ifndef GS_CANVAS_H
#define GS_CANVAS_H

#include <stdint.h>
#include <wchar.h>
#include "gs_chart.h"

typedef enum { CV_BRAILLE = 0, CV_BLOCK = 1, CV_ASCII = 2 } cv_glyphs;

#define CV_RGB_DEFAULT 0xFFFFFFFFu /* terminal default color */

enum { CV_BOLD = 1, CV_DIM = 2, CV_REVERSE = 4, CV_UNDERLINE = 8,
       CV_UNDER = 16 /* cv_dot only: a reference line (τ) adds its dots but leaves a drawn cell its colour */ };

typedef struct {
    wchar_t ch;          /* glyph; L' ' when empty */
    uint32_t rgb;        /* 0xRRGGBB or CV_RGB_DEFAULT */
    unsigned char attr;  /* CV_BOLD | CV_DIM | ... */
    unsigned char dots;  /* dot mask of the sub-cell raster (braille/block/ascii bits) */
    wchar_t mark;        /* a combining mark drawn over ch in the same cell (U+0304 of "m̄"), 0: none */
} cv_cell;
/* 1 for a combining mark (wcwidth 0: U+0300–036F, 1AB0–1AFF, 1DC0–1DFF, 20D0–20FF, FE20–FE2F):
 * it takes no column of its own; cv_text puts it on the cell before it. */
int cv_combining(uint32_t cp);

typedef struct {
    int w, h;
    cv_glyphs glyphs;
    cv_cell *cells;      /* w*h, row-major */
} cv_canvas;

/* Allocate a w×h canvas (cleared). GS_OK or GS_ENOMEM. w, h >= 1. */
int cv_init(cv_canvas *cv, int w, int h, cv_glyphs glyphs);
void cv_free(cv_canvas *cv);
void cv_clear(cv_canvas *cv);
/* The cell at (x, y), NULL when outside. */
cv_cell *cv_at(cv_canvas *cv, int x, int y);
const cv_cell *cv_cat(const cv_canvas *cv, int x, int y);

/* Dots per cell for a glyph set: braille 2×4, block 2×2, ascii 1×1. */
void cv_dots_per_cell(cv_glyphs g, int *sx, int *sy);
/* The glyph for a dot mask in a glyph set (braille: bit k = dot k+1 of the Unicode braille
 * numbering; block: bit0 UL, bit1 UR, bit2 LL, bit3 LR; ascii: the mask is ignored, '*'). */
wchar_t cv_mask_glyph(cv_glyphs g, unsigned mask);
/* Bit for dot (dx, dy) inside a cell (dx < sx, dy < sy, dy = 0 top). */
unsigned cv_dot_bit(cv_glyphs g, int dx, int dy);

/* Set one dot of the raster (dot coordinates, origin top-left of the canvas, px in [0, w*sx)).
 * The cell becomes the glyph of its mask, in color rgb with attr; `ascii` is the glyph used in
 * ASCII mode. Dots outside the canvas (or the clip rectangle, in cells) are ignored. */
typedef struct { int x0, y0, x1, y1; } cv_rect; /* cells, x1/y1 exclusive */
void cv_dot(cv_canvas *cv, const cv_rect *clip, int px, int py, uint32_t rgb, unsigned char attr,
            wchar_t ascii);

/* Dash pattern state carried along a polyline (counts dots). */
typedef struct { ch_dash dash; int count; } cv_pen;
/* Does the pen draw the next dot? Advances the pattern. */
int cv_pen_step(cv_pen *p);
/* Bresenham line between two dot positions, both endpoints drawn (subject to the pen). */
void cv_line(cv_canvas *cv, const cv_rect *clip, int x0, int y0, int x1, int y1, cv_pen *pen,
             uint32_t rgb, unsigned char attr, wchar_t ascii);

/* Write UTF-8 text at (x, y), one cell per code point, clipped to the canvas and to max_w
 * cells (max_w < 0: no limit). Returns cells written. Invalid UTF-8 shows as '?'. */
int cv_text(cv_canvas *cv, int x, int y, const char *utf8, int max_w, uint32_t rgb,
            unsigned char attr);
/* Cells the text takes (code points; ASCII folding expands some). */
int cv_text_width(const cv_canvas *cv, const char *utf8);
/* Fill a rectangle of cells with a character. */
void cv_fill(cv_canvas *cv, int x, int y, int w, int h, wchar_t ch, uint32_t rgb,
             unsigned char attr);
/* A frame with an optional title in its top edge (line drawing, or + - | in ASCII). */
void cv_box(cv_canvas *cv, int x, int y, int w, int h, const char *title, uint32_t rgb,
            unsigned char attr);

/* Chart drawing options. */
typedef struct {
    int color;           /* 0: every cell uses CV_RGB_DEFAULT (NO_COLOR / monochrome) */
    int legend;          /* 1: the legend line (first row: y label and series); 2: the first row
                          * holds the y label only (small multiples share one legend); 0: none */
    int markers;         /* a marker per series at its data points (every point when they fit
                          * three cells apart, else a subsample): the shape of ch_series.marker
                          * (○ ■ ▲ ◆ ✚, ASCII o # ^ * x), or the letter when kinds are mixed */
    int only_kind;       /* 0: every series; else draw only series of this ch_kind (and the
                          * legend names the method only): small multiples of one chart */
    int hide_yticks;     /* no y tick labels (a small multiple right of one that has them) */
} cv_chart_opts;

/* Minimal size (cells) cv_draw_chart needs to draw a plot area (half the width without y tick
 * labels). */
#define CV_CHART_MIN_W 16
#define CV_CHART_MIN_H 5

/* Rasterize chart c into the rectangle (x, y, w, h) of cv. Layout inside the rectangle:
 *   row 0           legend (y-axis label, then each series: sample glyph + letter + name)
 *   rows 1..h-3     plot area, y tick labels right-aligned on the left, axis '┤' / '|'
 *   row h-2         x axis with tick marks
 *   row h-1         x tick labels, x-axis label at the right end
 * NaN points are gaps (no line into or out of them). Ghost series are drawn first, dim and
 * dotted; then the others in order. Returns GS_OK, or GS_EINPUT when the rectangle is smaller
 * than CV_CHART_MIN_W × CV_CHART_MIN_H (nothing drawn but a "too small" note). */
int cv_draw_chart(cv_canvas *cv, int x, int y, int w, int h, const ch_chart *c,
                  const cv_chart_opts *o);
/* The plot-area rectangle cv_draw_chart would use (for tests and markers). */
void cv_chart_area(const cv_canvas *cv, int x, int y, int w, int h, const ch_chart *c,
                   cv_rect *area);

/* The glyph a series uses in ASCII mode and as its legend sample. */
wchar_t cv_series_glyph(const ch_series *s, cv_glyphs g);
/* The marker glyph of a series (0 = none); mixed_kinds: the plot mixes overall/head/tail series,
 * which then are told apart by their letters. */
wchar_t cv_series_marker(const ch_series *s, cv_glyphs g, int mixed_kinds);

/* The legend items of c (as cv_draw_chart's first row, without the y label) at (x, y) in at
 * most w cells; items that do not fit are left out whole. Returns the cells used. */
int cv_draw_legend(cv_canvas *cv, int x, int y, int w, const ch_chart *c, const cv_chart_opts *o);

/* Copy row y as UTF-8 into buf (for tests and dumps). Returns buf. */
char *cv_row_utf8(const cv_canvas *cv, int y, char *buf, size_t n);

#endif
