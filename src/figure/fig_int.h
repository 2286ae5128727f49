/* figure/fig_int.h — private to src/figure/: the drawing context, panels, the charts a figure
 * draws and its metadata, shared by the folder's files (the public side is gs_figure.h).
 *
 * One drawing routine (draw.c) in points (1/72 in) feeds three sinks (output.c): an ARGB32 image
 * surface scaled by dpi/72 and encoded by our libpng writer (gs_png.h), cairo's PDF surface and
 * cairo's SVG surface (both written to memory through the stream callback, then atomically to
 * disk). Text goes through pango with hinting off and unrounded glyph positions so PNG and PDF
 * lay out alike (text.c).
 *
 *   catalog.c  the table of figures (a row each), page size
 *   build.c    the charts, computed (engine, analysis)   text.c    context and text
 *   panel.c    one chart in a box, rows, the legend      meta.c    parameters as metadata
 *   draw.c     a whole figure on the page: the rows' layouts
 *   output.c   PNG / PDF / SVG / CSV sinks, fig_check_output, fig_export
 *   frames.c   a figure at each task (export --frames, --future)   gif.c   the animation (giflib)
 */
#ifndef FIG_INT_H
#define FIG_INT_H

#include "gs_figure.h"
#include "gs_opts.h"
#include "gs_chart.h"
#include "gs_claims.h"
#include "gs_common.h"
#include "gs_tausweep.h"

#include <cairo.h>
#include <pango/pangocairo.h>
#include <stdint.h>
#include <stdio.h>

/* Text sizes in points. */
#define FS_TICK 8.0
#define FS_LABEL 8.5
#define FS_TITLE 9.0
#define FS_LEGEND 8.0
#define FS_CAPTION 8.0

/* Below this width the dashboard stacks its panels in one column. */
#define DASH_WIDE_IN 5.0

/* ---- drawing context and text (text.c) ---------------------------------------------------- */

typedef struct {
    cairo_t *cr;
    PangoContext *pc;
    PangoFontDescription *font;
} fig_ctx;

typedef struct { double x, y, w, h; } box;

enum { VA_TOP, VA_CENTER, VA_BOTTOM, VA_DIGITS };

/* A context drawing on `s` (0, or -1: fig_end it anyway); fig_end releases it. */
int fig_begin(fig_ctx *z, cairo_surface_t *s);
void fig_end(fig_ctx *z);
void fig_rgb(cairo_t *cr, uint32_t rgb, double alpha);
/* Markup laid out at `size` pt (caller unrefs), its size, and drawn anchored at (x, y): halign 0
 * left, 0.5 centre, 1 right; valign VA_*; angle in radians. */
PangoLayout *fig_layout(fig_ctx *z, const char *markup, double size);
void fig_text_size(fig_ctx *z, const char *markup, double size, double *w, double *h);
void fig_text(fig_ctx *z, double x, double y, const char *markup, double size, uint32_t rgb, double halign,
              int valign, double angle);
/* Text escaped for pango markup into buf (returns buf). */
const char *fig_esc(const char *s, char *buf, size_t n);
/* A word-wrapped paragraph of markup at (b.x, y), b.w wide; returns its height. */
double fig_paragraph(fig_ctx *z, const char *markup, double size, box b, double y);
/* The height fig_paragraph would give the markup at width w, nothing drawn. */
double fig_paragraph_h(fig_ctx *z, const char *markup, double size, double w);

/* ---- panels (panel.c) ------------------------------------------------------------------------ */

typedef struct {
    const ch_chart *c;
    ch_axis x, y;          /* copies, re-ticked for the space available */
    int kind;              /* series filter: -1 all, else ch_kind */
    int yticklabels, ylabel, xlabel;
    char title[96];        /* markup */
    char note[160];        /* markup, drawn right of the title if it fits */
    box plot;              /* the data rectangle */
} panel;

/* A panel of chart c showing the series of `kind` (-1 all), titled `title` (markup; NULL: the
 * chart's own title). */
void fig_panel_init(panel *p, const ch_chart *c, int kind, const char *title);
/* Lay out n panels side by side in `row` with equal plot widths; with shared_y only the first
 * shows y tick labels and the y label. */
void fig_layout_row(fig_ctx *z, panel *ps, int n, box row, int shared_y, double gap);
void fig_draw_panel(fig_ctx *z, const panel *p);
/* One centred row of legend entries (of c, else c2) at (cx, y), h high. */
void fig_draw_legend(fig_ctx *z, const ch_chart *c, const ch_chart *c2, double cx, double y, double h);

/* ---- metadata (meta.c) ----------------------------------------------------------------------- */

#define MAX_META 56
typedef struct {
    int n;
    char key[MAX_META][32];
    char val[MAX_META][1100];
} meta;

/* Shortest round-trip text of v in b (40 bytes). */
const char *fig_num(double v, char *b);
const char *fig_profile_name(op_profile p);
/* The metadata of `figure` at `task`: software, title, every parameter, the data. */
void fig_meta_build(meta *md, const fig_request *req, const char *figure, int task);
/* One line "key=value; ..." of the parameters (PDF subject, SVG desc). */
void fig_meta_line(const meta *md, char *out, size_t n);

typedef struct fig_kind fig_kind; /* a figure's row (below) */

/* ---- the charts of a figure (build.c) ------------------------------------------------------ */

typedef struct {
    ch_chart acc, spec, sr;
    int have_acc, have_spec, have_sr;
    ch_chart ex[2];            /* the extra figures: one or two charts */
    int nex;
    cl_report *claims;         /* the "claims" figure (owned) */
} charts;

/* The charts of figure `fig` at `task` (its row's build; fig_charts_free releases them). GS_OK or
 * an error. */
int fig_charts_build(charts *cs, const fig_request *req, const fig_kind *fig, int task);
void fig_charts_free(charts *cs);
/* The rows' build functions (build.c). */
int fig_build_accuracy(charts *cs, const fig_request *req, int task);
int fig_build_spectrum(charts *cs, const fig_request *req, int task);
int fig_build_stable_rank(charts *cs, const fig_request *req, int task);
int fig_build_dashboard(charts *cs, const fig_request *req, int task);
int fig_build_tau_sweep(charts *cs, const fig_request *req, int task);
int fig_build_erank_cond(charts *cs, const fig_request *req, int task);
int fig_build_class_acc(charts *cs, const fig_request *req, int task);
int fig_build_eig_ratio(charts *cs, const fig_request *req, int task);
int fig_build_theorem(charts *cs, const fig_request *req, int task);
int fig_build_claims(charts *cs, const fig_request *req, int task);
int fig_build_collapse(charts *cs, const fig_request *req, int task);
int fig_build_ridge_lens(charts *cs, const fig_request *req, int task);

/* The rows' layouts (draw.c): the charts in `body`, the page less the legend row and, over
 * several seeds, the seeds caption (FIG_WHOLE_PAGE: the page less its margin). */
typedef void fig_layout_fn(fig_ctx *z, const fig_request *req, const charts *cs, int task, box body);
fig_layout_fn fig_layout_accuracy;   /* the accuracy row: overall, head, tail */
fig_layout_fn fig_layout_one;        /* one panel: the spectrum, the stable rank, else ex[0] */
fig_layout_fn fig_layout_side;       /* ex[0] and ex[1] side by side */
fig_layout_fn fig_layout_tau_sweep;  /* ex[0] as an accuracy row above, ex[1] below */
fig_layout_fn fig_layout_stacked;    /* ex[0] above, ex[1] (if any) below */
fig_layout_fn fig_layout_dashboard;  /* accuracy, spectrum, stable rank and the caption */
fig_layout_fn fig_layout_claims;     /* the claims as paragraphs */
/* The claims of rep that fit in b as paragraphs, then "7 of 12 claims; the rest in the CSV (--csv)"
 * when some did not (a slide); how many were drawn (the first always is). */
int fig_draw_claims(fig_ctx *z, const cl_report *rep, box b);

/* ---- the figures: one row each (catalog.c) ---------------------------------------------------- */

/* How a figure is laid out around its charts. */
enum {
    FIG_WHOLE_PAGE = 1u,       /* no legend, no seeds caption: the layout has the page */
    FIG_OWN_CAPTION = 2u,      /* the layout writes its own caption (over seeds too) */
};

/* A figure (in the manner of curl's vtls backends): everything export, the TUI's `e`, --help and
 * the page size read of it. Adding a figure: its build (and, if no layout fits, its layout)
 * and its row in catalog.c's FIGURES. */
struct fig_kind {
    const char *name;          /* --figure NAME */
    const char *help;          /* its --help line: what it draws */
    double width_in;           /* default width in inches */
    double aspect;             /* height over width */
    double narrow_aspect;      /* > 0: the aspect below DASH_WIDE_IN (a layout that stacks) */
    unsigned needs;            /* FIG_SEEDS, FIG_EVERY_SPECTRUM, FIG_TAU_CURVES, FIG_AUG_ROWS (gs_figure.h) */
    unsigned layout;           /* FIG_WHOLE_PAGE, FIG_OWN_CAPTION */
    int (*build)(charts *cs, const fig_request *req, int task);
    fig_layout_fn *draw;
};

/* The row of a figure's name, NULL for an unknown one. */
const fig_kind *fig_find(const char *figure);

/* ---- the page (draw.c) ----------------------------------------------------------------------- */

/* Draw figure `fig` on a W × H pt page: the legend, its layout, the seeds caption. */
void fig_draw(fig_ctx *z, const fig_request *req, const fig_kind *fig, const charts *cs, int task, double W, double H);

/* The page: W × H pt; the figure is laid out on (W/scale) × (H/scale) and drawn scale times as
 * large (text, lines, markers: --font-scale, a slide). */
typedef struct { double W, H, scale; } fig_page;
/* The page of figure `fig` for req (its width, --size slide, --font-scale in OP_MIN_FONT_SCALE ..
 * OP_MAX_FONT_SCALE); GS_EINPUT when the layout would be narrower than OP_MIN_WIDTH_IN
 * (catalog.c). */
int fig_page_size(const fig_request *req, const fig_kind *fig, fig_page *pg);
/* fig_draw on the page (draw.c). */
void fig_draw_page(fig_ctx *z, const fig_request *req, const fig_kind *fig, const charts *cs, int task, const fig_page *pg);

/* ---- frames (frames.c) and the sinks (output.c, gif.c) -------------------------------------- */

typedef struct {
    int task;                  /* the task this frame shows */
    charts cs;
    meta md;
} fig_frame;

/* The frames of `figure`: 1..task with req->frames (the axes the same in all), else the one at
 * `task`; the tasks after a frame's own as req->future says. fig_frames_free releases them. */
int fig_frames_build(const fig_request *req, const fig_kind *fig, int task, fig_frame **out, int *n);
void fig_frames_free(fig_frame *f, int n);
/* Frame k of n's file: PATH itself when n = 1, else PATH-01.ext, ... (two digits at least). */
int fig_frame_path(const char *path, int k, int n, char *out, size_t size);
/* The frame drawn into a new ARGB32 image of the page at dpi (caller destroys it; draw.c). */
int fig_image(const fig_request *req, const fig_kind *fig, const fig_frame *f, const fig_page *pg, double dpi,
              const char *path, cairo_surface_t **out);
/* An animated GIF of the frames, frame_ms each (the last one 3×), one palette for all (gif.c). */
int fig_write_gif(const fig_request *req, const fig_kind *fig, const fig_frame *f, int n, const fig_page *pg, double dpi,
                  const char *path);

#endif
