/* figure/figure.c — publication figures from the chart model with cairo + pango (see gs_figure.h).
 *
 * One drawing routine in points (1/72 in) feeds three sinks: an ARGB32 image surface scaled by
 * dpi/72 and encoded by our libpng writer (gs_png.h), cairo's PDF surface and cairo's SVG surface
 * (both written to memory through the stream callback, then atomically to disk). Text goes
 * through pango with hinting off and unrounded glyph positions so PNG and PDF lay out alike.
 */
#include "gs_figure.h"
#include "gs_claims.h"
#include "gs_collapse.h"
#include "gs_spectral.h"
#include "gs_chart.h"
#include "gs_common.h"
#include "gs_io.h"
#include "gs_png.h"
#include "gs_tausweep.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <math.h>
#include <stdarg.h>
#include <pango/pangocairo.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define FONT_FAMILY "DejaVu Sans"
#define FS_TICK 8.0
#define FS_LABEL 8.5
#define FS_TITLE 9.0
#define FS_LEGEND 8.0
#define FS_CAPTION 8.0
#define TICK_LEN 3.0
#define MINOR_LEN 1.6
#define FRAME_W 0.6
#define PDF_DATE "2020-01-01T00:00:00Z"

static const char *const figure_names[] = {"accuracy", "spectrum", "stable-rank", "dashboard",
                                           "tau-sweep", "erank-cond", "class-acc", "eig-ratio", "theorem",
                                           "claims", "collapse"};
enum { FIG_ACCURACY, FIG_SPECTRUM, FIG_STABLE_RANK, FIG_DASHBOARD, FIG_TAU_SWEEP, FIG_ERANK_COND,
       FIG_CLASS_ACC, FIG_EIG_RATIO, FIG_THEOREM, FIG_CLAIMS, FIG_COLLAPSE, FIG_COUNT };

int fig_known(const char *figure)
{
    if (!figure) return 0;
    for (int i = 0; i < FIG_COUNT; i++)
        if (strcmp(figure, figure_names[i]) == 0) return 1;
    return 0;
}

const char *fig_list(void)
{
    return "accuracy, spectrum, stable-rank, dashboard, tau-sweep, erank-cond, class-acc, eig-ratio, theorem, "
           "claims, collapse";
}

/* The figures that draw a mean over seeds (export --seeds): quantities of a run over tasks or τ.
 * The others show one run's spectrum, classes or matrices, where a mean hides what they show. */
static const int seed_figures[] = {FIG_ACCURACY, FIG_STABLE_RANK, FIG_DASHBOARD, FIG_ERANK_COND, FIG_TAU_SWEEP};

static int figure_id(const char *figure);

int fig_seeds_supported(const char *figure)
{
    int f = figure ? figure_id(figure) : -1;
    for (size_t i = 0; i < sizeof seed_figures / sizeof *seed_figures; i++) if (seed_figures[i] == f) return 1;
    return 0;
}

const char *fig_seeds_list(void) { return "accuracy, stable-rank, dashboard, erank-cond, tau-sweep"; }

static int figure_id(const char *figure)
{
    for (int i = 0; i < FIG_COUNT; i++)
        if (strcmp(figure, figure_names[i]) == 0) return i;
    return -1;
}

/* ---- drawing context and text --------------------------------------------------------------- */

typedef struct {
    cairo_t *cr;
    PangoContext *pc;
    PangoFontDescription *font;
} fz;

typedef struct { double x, y, w, h; } box;

enum { VA_TOP, VA_CENTER, VA_BOTTOM, VA_DIGITS };

static void set_rgb(cairo_t *cr, uint32_t rgb, double alpha)
{
    cairo_set_source_rgba(cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                          (rgb & 0xff) / 255.0, alpha);
}

static PangoLayout *fz_layout(fz *z, const char *markup, double size)
{
    PangoLayout *l = pango_layout_new(z->pc);
    pango_font_description_set_size(z->font, (gint)lround(size * PANGO_SCALE));
    pango_layout_set_font_description(l, z->font);
    pango_layout_set_markup(l, markup, -1);
    return l;
}

static void fz_size(fz *z, const char *markup, double size, double *w, double *h)
{
    PangoLayout *l = fz_layout(z, markup, size);
    PangoRectangle log;
    pango_layout_get_extents(l, NULL, &log);
    if (w) *w = (double)log.width / PANGO_SCALE;
    if (h) *h = (double)log.height / PANGO_SCALE;
    g_object_unref(l);
}

/* Draw markup anchored at (x, y): halign 0 left, 0.5 centre, 1 right; valign VA_*; angle in
 * radians (the anchor is applied in the rotated frame). */
static void fz_text(fz *z, double x, double y, const char *markup, double size, uint32_t rgb,
                    double halign, int valign, double angle)
{
    PangoLayout *l = fz_layout(z, markup, size);
    PangoRectangle log;
    pango_layout_get_extents(l, NULL, &log);
    double w = (double)log.width / PANGO_SCALE, h = (double)log.height / PANGO_SCALE;
    double base = (double)pango_layout_get_baseline(l) / PANGO_SCALE;
    double dx = -halign * w - (double)log.x / PANGO_SCALE, dy;
    switch (valign) {
    case VA_TOP: dy = 0; break;
    case VA_BOTTOM: dy = -h; break;
    case VA_DIGITS: dy = -(base - 0.364 * size); break; /* centre of the digit height */
    default: dy = -h / 2; break;
    }
    cairo_save(z->cr);
    cairo_translate(z->cr, x, y);
    if (angle != 0) cairo_rotate(z->cr, angle);
    cairo_move_to(z->cr, dx, dy);
    set_rgb(z->cr, rgb, 1);
    pango_cairo_update_layout(z->cr, l);
    pango_cairo_show_layout(z->cr, l);
    cairo_restore(z->cr);
    g_object_unref(l);
}

/* Escape text for pango markup into buf. */
static const char *esc(const char *s, char *buf, size_t n)
{
    gchar *e = g_markup_escape_text(s, -1);
    snprintf(buf, n, "%s", e);
    g_free(e);
    return buf;
}

/* Tick label markup: decades as 10 with a superscript exponent, '-' as U+2212 minus. */
static void tick_markup(const ch_axis *ax, int i, char *out, size_t n)
{
    if (ax->scale == CH_LOG10) {
        static const char *sup[10] = {"\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
                                      "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
        int k = (int)lround(log10(ax->ticks[i]));
        if (k == 0) { snprintf(out, n, "1"); return; }
        if (k == 1) { snprintf(out, n, "10"); return; }
        char e[64] = "";
        char digits[16];
        snprintf(digits, sizeof digits, "%d", abs(k));
        if (k < 0) strcat(e, "\u207b");
        for (char *p = digits; *p; p++) strcat(e, sup[*p - '0']);
        snprintf(out, n, "10%s", e);
        return;
    }
    size_t o = 0;
    for (const char *p = ax->tick_labels[i]; *p && o + 4 < n; p++) {
        if (*p == '-') { memcpy(out + o, "\u2212", 3); o += 3; }
        else out[o++] = *p;
    }
    out[o] = '\0';
}

/* ---- panels ------------------------------------------------------------------------------- */

typedef struct {
    const ch_chart *c;
    ch_axis x, y;          /* copies, re-ticked for the space available */
    int kind;              /* series filter: -1 all, else ch_kind */
    int yticklabels, ylabel, xlabel;
    char title[96];        /* markup */
    char note[160];        /* markup, drawn right of the title if it fits */
    box plot;              /* the data rectangle */
} panel;

static double title_h(fz *z) { double h; fz_size(z, "Ag", FS_TITLE, NULL, &h); return h; }
static double tick_h(fz *z) { double h; fz_size(z, "0", FS_TICK, NULL, &h); return h; }
static double label_h(fz *z) { double h; fz_size(z, "Ag", FS_LABEL, NULL, &h); return h; }

static double panel_top(fz *z, const panel *p) { return p->title[0] ? title_h(z) + 2.0 : 2.0; }
static double panel_bottom(fz *z, const panel *p)
{
    return TICK_LEN + 1.5 + tick_h(z) + (p->xlabel ? label_h(z) + 0.5 : 0);
}

/* Data are mapped into the plot box inset by a few points (like matplotlib's margins), so a
 * curve at 100 % or at the first index does not hide under the frame. Task axes already
 * have half a task of room on each side. */
#define INSET 3.0
static double px_f(const panel *p, double f)
{
    double frac = p->x.lo - floor(p->x.lo);
    double ix = fabs(frac - 0.5) < 1e-9 ? 0 : INSET; /* task axes: lo = 0.5 */
    return p->plot.x + ix + f * (p->plot.w - 2 * ix);
}
static double py_f(const panel *p, double f)
{
    return p->plot.y + p->plot.h - INSET - f * (p->plot.h - 2 * INSET);
}

/* Re-tick the y axis until labels have room for the plot height. */
static void fit_y(fz *z, panel *p, double plot_h)
{
    double lh = tick_h(z);
    int maxn = (int)floor(plot_h / (lh * 1.4)) + 1;
    if (maxn > CH_MAX_TICKS) maxn = CH_MAX_TICKS;
    ch_axis a = p->c->y;
    for (; maxn >= 3; maxn--) {
        a = p->c->y;
        /* keep the builder's ticks when they fit */
        if (a.nticks > maxn) ch_axis_retick(&a, maxn);
        int ok = 1;
        for (int i = 1; i < a.nticks; i++) {
            double d = fabs(ch_axis_frac(&a, a.ticks[i]) - ch_axis_frac(&a, a.ticks[i - 1])) * plot_h;
            if (d < lh * 1.1) ok = 0;
        }
        if (ok) break;
    }
    p->y = a;
}

static double y_labels_width(fz *z, const panel *p)
{
    double mw = 0;
    char m[64];
    for (int i = 0; i < p->y.nticks; i++) {
        double w;
        tick_markup(&p->y, i, m, sizeof m);
        fz_size(z, m, FS_TICK, &w, NULL);
        mw = fmax(mw, w);
    }
    return mw;
}

static double panel_left(fz *z, const panel *p)
{
    double l = 3.0;
    if (p->yticklabels) l = TICK_LEN + 2.0 + y_labels_width(z, p);
    if (p->ylabel) l += label_h(z) + 1.5;
    return l;
}

/* Re-tick the x axis until neighbouring labels are at least 4 pt apart. */
static void fit_x(fz *z, panel *p, double plot_w)
{
    ch_axis a = p->c->x;
    for (int maxn = CH_MAX_TICKS; maxn >= 3; maxn--) {
        a = p->c->x;
        if (a.nticks > maxn) ch_axis_retick(&a, maxn);
        int ok = 1;
        double prev_r = -1e9;
        char m[64];
        for (int i = 0; i < a.nticks; i++) {
            double w, c = ch_axis_frac(&a, a.ticks[i]) * plot_w;
            tick_markup(&a, i, m, sizeof m);
            fz_size(z, m, FS_TICK, &w, NULL);
            if (c - w / 2 < prev_r + 4.0) ok = 0;
            prev_r = c + w / 2;
        }
        if (ok) break;
    }
    p->x = a;
}

static void dash_for(cairo_t *cr, ch_dash d, double w)
{
    if (d == CH_DASH_DASHED) {
        double ds[2] = {3.7 * w, 1.6 * w};
        cairo_set_dash(cr, ds, 2, 0);
    } else if (d == CH_DASH_DOTTED) {
        double ds[2] = {0.01, 2.0 * w};
        cairo_set_dash(cr, ds, 2, 0);
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    } else {
        cairo_set_dash(cr, NULL, 0, 0);
    }
}

static void draw_marker(cairo_t *cr, ch_marker m, double x, double y, double r, uint32_t rgb,
                        double alpha)
{
    cairo_save(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_set_line_width(cr, 0.8);
    cairo_new_path(cr);
    int open = 0;
    switch (m) {
    case CH_MARK_CIRCLE:
        cairo_arc(cr, x, y, r, 0, 2 * M_PI);
        open = 1;
        break;
    case CH_MARK_SQUARE:
        cairo_rectangle(cr, x - r * 0.9, y - r * 0.9, 1.8 * r, 1.8 * r);
        break;
    case CH_MARK_TRIANGLE:
        cairo_move_to(cr, x, y - 1.15 * r);
        cairo_line_to(cr, x + r, y + 0.75 * r);
        cairo_line_to(cr, x - r, y + 0.75 * r);
        cairo_close_path(cr);
        break;
    case CH_MARK_DIAMOND:
        cairo_move_to(cr, x, y - 1.2 * r);
        cairo_line_to(cr, x + r, y);
        cairo_line_to(cr, x, y + 1.2 * r);
        cairo_line_to(cr, x - r, y);
        cairo_close_path(cr);
        open = 1;
        break;
    case CH_MARK_CROSS:
        cairo_move_to(cr, x - r, y - r);
        cairo_line_to(cr, x + r, y + r);
        cairo_move_to(cr, x - r, y + r);
        cairo_line_to(cr, x + r, y - r);
        set_rgb(cr, rgb, alpha);
        cairo_stroke(cr);
        cairo_restore(cr);
        return;
    default:
        cairo_restore(cr);
        return;
    }
    if (open) {
        cairo_set_source_rgba(cr, 1, 1, 1, alpha);
        cairo_fill_preserve(cr);
    } else {
        set_rgb(cr, rgb, alpha);
        cairo_fill_preserve(cr);
    }
    set_rgb(cr, rgb, alpha);
    cairo_stroke(cr);
    cairo_restore(cr);
}

static int series_shown(const panel *p, const ch_series *s)
{
    return p->kind < 0 || (int)s->kind == p->kind;
}

static void draw_series(fz *z, const panel *p, const ch_series *s, int slot)
{
    cairo_t *cr = z->cr;
    const box *b = &p->plot;
    double alpha = s->ghost ? 0.35 : 1.0;
    double w = s->ghost ? fmin(s->width_pt, 0.9) : s->width_pt;
    cairo_save(cr);
    cairo_rectangle(cr, b->x - 3, b->y - 3, b->w + 6, b->h + 6);
    cairo_clip(cr);
    cairo_set_line_width(cr, w);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    if (s->ylo && s->yhi) { /* mean ± std over seeds: a translucent band under the line */
        set_rgb(cr, s->rgb, 0.15);
        int i = 0;
        while (i < s->n) {
            int a = i;
            while (a < s->n && !(isfinite(s->ylo[a]) && isfinite(s->yhi[a]))) a++;
            int e = a;
            while (e < s->n && isfinite(s->ylo[e]) && isfinite(s->yhi[e])) e++;
            if (e - a >= 2) {
                cairo_new_path(cr);
                for (int k = a; k < e; k++)
                    cairo_line_to(cr, px_f(p, ch_axis_frac(&p->x, s->x[k])), py_f(p, ch_axis_frac(&p->y, s->yhi[k])));
                for (int k = e - 1; k >= a; k--)
                    cairo_line_to(cr, px_f(p, ch_axis_frac(&p->x, s->x[k])), py_f(p, ch_axis_frac(&p->y, s->ylo[k])));
                cairo_close_path(cr);
                cairo_fill(cr);
            }
            i = e > a ? e : a + 1;
        }
    }
    dash_for(cr, s->dash, w);
    set_rgb(cr, s->rgb, alpha);
    cairo_new_path(cr);
    int pen = 0;
    for (int i = 0; i < s->n; i++) {
        double fx = ch_axis_frac(&p->x, s->x[i]), fy = ch_axis_frac(&p->y, s->y[i]);
        if (!isfinite(fx) || !isfinite(fy)) { pen = 0; continue; }
        double X = px_f(p, fx), Y = py_f(p, fy);
        if (pen) cairo_line_to(cr, X, Y);
        else cairo_move_to(cr, X, Y);
        pen = 1;
    }
    cairo_stroke(cr);
    if (!s->ghost && s->marker != CH_MARK_NONE) {
        /* every point for short series; about eight, staggered by method, for long ones */
        int every = 1, off = 0;
        if (s->n > 40) {
            every = s->n / 8;
            off = every / 4 + (slot % 2) * every / 2;
        }
        double spacing = s->n > 1 ? b->w / (double)(s->n - 1) * every : b->w;
        double r = fmin(2.3, fmax(1.5, spacing * 0.24));
        for (int i = off; i < s->n; i += every) {
            double fx = ch_axis_frac(&p->x, s->x[i]), fy = ch_axis_frac(&p->y, s->y[i]);
            if (!isfinite(fx) || !isfinite(fy) || fx < -1e-9 || fx > 1 + 1e-9 || fy < -1e-9 ||
                fy > 1 + 1e-9)
                continue;
            draw_marker(cr, s->marker, px_f(p, fx), py_f(p, fy), r, s->rgb, alpha);
        }
    }
    cairo_restore(cr);
}

static void draw_panel(fz *z, const panel *p)
{
    cairo_t *cr = z->cr;
    const box *b = &p->plot;
    char m[256];

    /* grid at major y ticks */
    cairo_save(cr);
    cairo_set_line_width(cr, 0.4);
    cairo_set_source_rgb(cr, 0.89, 0.89, 0.89);
    for (int i = 0; i < p->y.nticks; i++) {
        double Y = py_f(p, ch_axis_frac(&p->y, p->y.ticks[i]));
        if (Y <= b->y + 0.5 || Y >= b->y + b->h - 0.5) continue;
        cairo_move_to(cr, b->x, Y);
        cairo_line_to(cr, b->x + b->w, Y);
    }
    cairo_stroke(cr);
    cairo_restore(cr);

    /* current task (only when it is not the last one: then it says something) */
    double mx = p->c->mark_x;
    double mfx = ch_axis_frac(&p->x, mx);
    int mark = p->c->x.integer ? isfinite(mx) && mx < p->x.hi - 0.5 - 1e-9
                               : isfinite(mfx) && mfx >= 0 && mfx <= 1; /* e.g. the current τ */
    if (mark) {
        double X = px_f(p, mfx);
        cairo_save(cr);
        cairo_set_line_width(cr, 0.6);
        double ds[2] = {1.2, 1.2};
        cairo_set_dash(cr, ds, 2, 0);
        cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
        cairo_move_to(cr, X, b->y);
        cairo_line_to(cr, X, b->y + b->h);
        cairo_stroke(cr);
        cairo_restore(cr);
    }

    /* series: ghosts first, then live ones in method order */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < p->c->nseries; i++) {
            const ch_series *s = &p->c->series[i];
            if (s->ghost != (pass == 0) || !series_shown(p, s)) continue;
            draw_series(z, p, s, s->method < 0 ? i : s->method);
        }

    /* frame and ticks */
    cairo_save(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, FRAME_W);
    cairo_rectangle(cr, b->x, b->y, b->w, b->h);
    cairo_stroke(cr);
    for (int i = 0; i < p->x.nticks; i++) {
        double X = px_f(p, ch_axis_frac(&p->x, p->x.ticks[i]));
        cairo_move_to(cr, X, b->y + b->h);
        cairo_line_to(cr, X, b->y + b->h + TICK_LEN);
    }
    for (int i = 0; i < p->y.nticks; i++) {
        double Y = py_f(p, ch_axis_frac(&p->y, p->y.ticks[i]));
        cairo_move_to(cr, b->x, Y);
        cairo_line_to(cr, b->x - TICK_LEN, Y);
    }
    cairo_stroke(cr);
    if (p->y.scale == CH_LOG10 && p->y.minor) {
        cairo_set_line_width(cr, 0.45);
        int k0 = (int)floor(log10(p->y.lo) - 1e-9), k1 = (int)ceil(log10(p->y.hi) + 1e-9);
        for (int k = k0; k <= k1; k++)
            for (int j = 2; j <= 9; j++) {
                double v = j * pow(10.0, k);
                double f = ch_axis_frac(&p->y, v);
                if (!(f > 1e-9 && f < 1 - 1e-9)) continue;
                double Y = py_f(p, f);
                cairo_move_to(cr, b->x, Y);
                cairo_line_to(cr, b->x - MINOR_LEN, Y);
            }
        cairo_stroke(cr);
    }
    cairo_restore(cr);

    /* tick labels */
    for (int i = 0; i < p->x.nticks; i++) {
        tick_markup(&p->x, i, m, sizeof m);
        fz_text(z, px_f(p, ch_axis_frac(&p->x, p->x.ticks[i])), b->y + b->h + TICK_LEN + 1.5, m,
                FS_TICK, 0x000000, 0.5, VA_TOP, 0);
    }
    if (p->yticklabels)
        for (int i = 0; i < p->y.nticks; i++) {
            tick_markup(&p->y, i, m, sizeof m);
            fz_text(z, b->x - TICK_LEN - 2.0, py_f(p, ch_axis_frac(&p->y, p->y.ticks[i])),
                    m, FS_TICK, 0x000000, 1.0, VA_DIGITS, 0);
        }

    /* axis labels */
    if (p->xlabel) {
        esc(p->c->x.label, m, sizeof m);
        fz_text(z, b->x + b->w / 2, b->y + b->h + TICK_LEN + 1.5 + tick_h(z), m, FS_LABEL, 0x000000,
                0.5, VA_TOP, 0);
    }
    if (p->ylabel) {
        double lw = p->yticklabels ? TICK_LEN + 2.0 + y_labels_width(z, p) : 3.0;
        esc(p->c->y.label, m, sizeof m);
        fz_text(z, b->x - lw - 1.5 - label_h(z) / 2, b->y + b->h / 2, m, FS_LABEL, 0x000000, 0.5,
                VA_CENTER, -M_PI / 2);
    }

    /* title, note */
    if (p->title[0]) {
        double tw, nw = 0;
        fz_size(z, p->title, FS_TITLE, &tw, NULL);
        fz_text(z, b->x, b->y - 2.0, p->title, FS_TITLE, 0x000000, 0, VA_BOTTOM, 0);
        int has_series = 0;
        for (int i = 0; i < p->c->nseries; i++) has_series |= series_shown(p, &p->c->series[i]);
        if (p->note[0] && has_series) {
            /* what fits right of the title: the note, else its leading "; " parts (markup: an
             * entity ends in ';' too, never followed by a space here) */
            char note[sizeof p->note];
            snprintf(note, sizeof note, "%s", p->note);
            fz_size(z, note, FS_TICK, &nw, NULL);
            while (tw + 6.0 + nw > b->w && ch_note_cut(note)) fz_size(z, note, FS_TICK, &nw, NULL);
            if (tw + 6.0 + nw <= b->w)
                fz_text(z, b->x + b->w, b->y - 2.0 - (title_h(z) - tick_h(z)) * 0.3, note, FS_TICK, 0x555555, 1.0,
                        VA_BOTTOM, 0);
        }
    }
    int any = 0;
    for (int i = 0; i < p->c->nseries; i++) any |= series_shown(p, &p->c->series[i]);
    if (!any) {
        /* nothing to draw: say why in the middle of the empty plot */
        fz_text(z, b->x + b->w / 2, b->y + b->h / 2, p->note[0] ? p->note : "no data", FS_TICK,
                0x555555, 0.5, VA_CENTER, 0);
    }
}

static void panel_init(panel *p, const ch_chart *c, int kind, const char *title)
{
    memset(p, 0, sizeof *p);
    p->c = c;
    p->x = c->x;
    p->y = c->y;
    p->kind = kind;
    p->yticklabels = p->ylabel = p->xlabel = 1;
    if (title) snprintf(p->title, sizeof p->title, "%s", title);
    else esc(c->title, p->title, sizeof p->title);
    char note[sizeof c->note + sizeof c->lacks];
    ch_note_full(c, note, sizeof note);
    esc(note, p->note, sizeof p->note);
}

/* Lay out n panels side by side in `row` with equal plot widths; with shared_y only the first
 * shows y tick labels and the y label. */
static void layout_row(fz *z, panel *ps, int n, box row, int shared_y, double gap)
{
    double top = 0, bottom = 0;
    for (int i = 0; i < n; i++) {
        if (shared_y && i > 0) ps[i].yticklabels = ps[i].ylabel = 0;
        top = fmax(top, panel_top(z, &ps[i]));
        bottom = fmax(bottom, panel_bottom(z, &ps[i]));
    }
    double plot_h = row.h - top - bottom;
    if (plot_h < 10) plot_h = 10;
    double lefts[8] = {0}, total_left = 0;
    for (int i = 0; i < n; i++) {
        fit_y(z, &ps[i], plot_h);
        if (shared_y && i > 0) ps[i].y = ps[0].y;
        lefts[i] = (shared_y && i > 0) ? gap : panel_left(z, &ps[i]) + (i > 0 ? gap : 0);
        total_left += lefts[i];
    }
    double right = 6.0; /* room for half of the last x tick label */
    double plot_w = (row.w - total_left - right) / n;
    if (plot_w < 10) plot_w = 10;
    double x = row.x;
    for (int i = 0; i < n; i++) {
        x += lefts[i];
        ps[i].plot = (box){x, row.y + top, plot_w, plot_h};
        fit_x(z, &ps[i], plot_w);
        x += plot_w;
    }
}

/* ---- legend and caption --------------------------------------------------------------------- */

static int legend_entries(const ch_chart *c, const ch_series **out, int max)
{
    int n = 0;
    for (int i = 0; i < c->nseries && n < max; i++) {
        const ch_series *s = &c->series[i];
        if (s->ghost) continue;
        int dup = 0;
        for (int k = 0; k < n; k++) dup |= out[k]->method == s->method;
        if (!dup) out[n++] = s;
    }
    return n;
}

static int has_ghosts(const ch_chart *c)
{
    for (int i = 0; i < c->nseries; i++)
        if (c->series[i].ghost) return 1;
    return 0;
}

/* One centred row: line sample with marker, then the method name. */
static void draw_legend(fz *z, const ch_chart *c, const ch_chart *c2, double cx, double y, double h)
{
    const ch_series *e[CH_MAX_SERIES];
    int n = legend_entries(c, e, CH_MAX_SERIES);
    if (!n && c2) n = legend_entries(c2, e, CH_MAX_SERIES);
    int ghost = has_ghosts(c) || (c2 && has_ghosts(c2));
    const double sample = 20.0, gap_in = 3.0, gap_out = 12.0;
    double widths[CH_MAX_SERIES + 1], total = 0;
    char m[96];
    for (int i = 0; i < n; i++) {
        esc(e[i]->method_name, m, sizeof m);
        fz_size(z, m, FS_LEGEND, &widths[i], NULL);
        total += sample + gap_in + widths[i] + (i ? gap_out : 0);
    }
    const char *glabel = c->ghost_label[0] ? c->ghost_label : c2 && c2->ghost_label[0] ? c2->ghost_label : "pinned baseline";
    if (ghost) {
        fz_size(z, glabel, FS_LEGEND, &widths[n], NULL);
        total += gap_out + sample + gap_in + widths[n];
    }
    double x = cx - total / 2, ym = y + h / 2;
    for (int i = 0; i <= n; i++) {
        if (i == n && !ghost) break;
        if (i) x += gap_out;
        cairo_save(z->cr);
        if (i < n) {
            double w = 1.25;
            cairo_set_line_width(z->cr, w);
            dash_for(z->cr, e[i]->dash, w);
            set_rgb(z->cr, e[i]->rgb, 1);
        } else {
            cairo_set_line_width(z->cr, 0.9);
            cairo_set_source_rgba(z->cr, 0.3, 0.3, 0.3, 0.35);
        }
        cairo_move_to(z->cr, x, ym);
        cairo_line_to(z->cr, x + sample, ym);
        cairo_stroke(z->cr);
        cairo_restore(z->cr);
        if (i < n) draw_marker(z->cr, e[i]->marker, x + sample / 2, ym, 2.3, e[i]->rgb, 1);
        x += sample + gap_in;
        if (i < n) esc(e[i]->method_name, m, sizeof m);
        else snprintf(m, sizeof m, "%s", glabel);
        fz_text(z, x, ym, m, FS_LEGEND, 0x000000, 0, VA_CENTER, 0);
        x += widths[i];
    }
}

/* ---- metadata ------------------------------------------------------------------------------ */

#define MAX_META 48
typedef struct {
    int n;
    char key[MAX_META][32];
    char val[MAX_META][1100];
} meta;

static void meta_add(meta *md, const char *k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void meta_add(meta *md, const char *k, const char *fmt, ...)
{
    if (md->n >= MAX_META) return;
    snprintf(md->key[md->n], sizeof md->key[0], "%s", k);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(md->val[md->n], sizeof md->val[0], fmt, ap);
    va_end(ap);
    md->n++;
}

static const char *num(double v, char *b) { return ch_fmt_double(v, b, 40); }

static const char *profile_name(op_profile p)
{
    return p == OP_PROFILE_EXP ? "exp" : p == OP_PROFILE_NONE ? "none" : "step";
}

static void build_meta(meta *md, const fig_request *req, const char *figure, int task)
{
    const en_results *r = req->r;
    const op_params *pp = &r->params;
    const op_opts *o = req->opts;
    char b[40];
    md->n = 0;
    meta_add(md, "Software", "gsrscope %s", GS_VERSION);
    meta_add(md, "Title", "gsrscope %s", figure);
    meta_add(md, "alpha_base", "%s", num(pp->alpha_base, b));
    meta_add(md, "xi", "%s", num(pp->xi, b));
    meta_add(md, "beta", "%s", num(pp->beta, b));
    meta_add(md, "tau", "%s", num(pp->tau, b));
    meta_add(md, "seed", "%llu", (unsigned long long)pp->seed);
    if (req->nruns > 1 && o && o->seeds) meta_add(md, "seeds", "%s (mean \u00b1 std over %d seeds)", o->seeds, req->nruns);
    char mab[24];
    meta_add(md, "pairs", "%s", op_pairs_name(pp->pairs));
    meta_add(md, "max_aug", "%s", op_max_aug_str(pp->max_aug, mab, sizeof mab));
    meta_add(md, "augment", "%s", pp->augment == OP_AUG_TAIL ? "tail" : "all");
    meta_add(md, "gauss_a", "%s", num(pp->gauss_a, b));
    meta_add(md, "gauss_b", "%s", num(pp->gauss_b, b));
    meta_add(md, "slda_eps", "%s", num(pp->slda_eps, b));
    meta_add(md, "tasks", "%d", r->T);
    if (o) {
        const op_protocol *pr = &o->proto;
        meta_add(md, "profile", "%s", profile_name(pr->profile));
        meta_add(md, "head_frac", "%s", num(pr->head_frac, b));
        meta_add(md, "tail_shots", "%ld", pr->tail_shots);
        meta_add(md, "head_shots", "%ld", pr->head_shots);
        meta_add(md, "rho", "%s", num(pr->rho, b));
        meta_add(md, "order", "%s", pr->order == OP_ORDER_ORDERED ? "ordered" : "shuffled");
        if (pr->val_frac > 0) meta_add(md, "val_frac", "%s", num(pr->val_frac, b));
        meta_add(md, "normalize", "%s", o->data.no_normalize ? "no" : "yes");
        meta_add(md, "expand", "%ld", o->data.expand);
    }
    char ms[600] = "";
    for (int i = 0; i < r->n_methods; i++) {
        size_t l = strlen(ms);
        snprintf(ms + l, sizeof ms - l, "%s%s", i ? "," : "", r->m[i].name);
    }
    meta_add(md, "methods", "%s", ms);
    meta_add(md, "shown", "%s%s%s", req->m0 >= 0 && req->m0 < r->n_methods ? r->m[req->m0].name : "",
             req->m1 >= 0 && req->m1 < r->n_methods ? "," : "",
             req->m1 >= 0 && req->m1 < r->n_methods ? r->m[req->m1].name : "");
    meta_add(md, "figure", "%s", figure);
    char changes[2048];
    meta_add(md, "not_default", "%s", *op_changes(o, "; ", changes, sizeof changes) ? changes : "(all defaults)");
    meta_add(md, "task", "%d", task);
    meta_add(md, "classes", "%d", r->C);
    meta_add(md, "dim", "%ld", r->D);
    if (req->prob) {
        meta_add(md, "data_name", "%s", req->prob->data_name);
        meta_add(md, "data_source", "%s", req->prob->data_source);
        meta_add(md, "data_checksum", "%016llx", (unsigned long long)req->prob->data_checksum);
        if (req->prob->single) meta_add(md, "precision", "single (ridge learners in float: --precision)");
    }
    if (req->baseline) {
        const op_params *bp = &req->baseline->params;
        char b1[40], b2[40], b3[40], b4[40];
        meta_add(md, "baseline", "alpha_base=%s xi=%s beta=%s tau=%s", num(bp->alpha_base, b1),
                 num(bp->xi, b2), num(bp->beta, b3), num(bp->tau, b4));
    }
}

/* One line "key=value; ..." of the parameters (PDF subject, SVG desc). */
static void meta_line(const meta *md, char *out, size_t n)
{
    size_t o = 0;
    out[0] = '\0';
    for (int i = 2; i < md->n && o < n; i++)
        o += (size_t)snprintf(out + o, n - o, "%s%s=%s", i > 2 ? "; " : "", md->key[i], md->val[i]);
}

/* ---- the figures ---------------------------------------------------------------------------- */

typedef struct {
    ch_chart acc, spec, sr;
    int have_acc, have_spec, have_sr;
    ch_chart ex[2];            /* the extra figures: one or two charts */
    int nex;
    cl_report *claims;         /* the "claims" figure (owned) */
} charts;

static void charts_free(charts *cs)
{
    if (cs->have_acc) ch_free(&cs->acc);
    if (cs->have_spec) ch_free(&cs->spec);
    if (cs->have_sr) ch_free(&cs->sr);
    for (int i = 0; i < cs->nex; i++) ch_free(&cs->ex[i]);
    free(cs->claims);
    memset(cs, 0, sizeof *cs);
}

/* τ sweep of the shown ridge methods at `task` (1e-4 … 1e4, TS_DEFAULT_N points). */
int fig_tau_curves(en_engine *e, const en_problem *p, const en_results *r, int m0, int m1, int task,
                   ts_curve *cv, int *ncv)
{
    double taus[TS_DEFAULT_N];
    ts_log_grid(1e-4, 1e4, TS_DEFAULT_N, taus);
    int ms[2] = {m0, m1}, st = GS_OK;
    *ncv = 0;
    memset(cv, 0, 2 * sizeof *cv);
    for (int i = 0; i < 2 && st == GS_OK; i++) {
        if (ms[i] < 0 || ms[i] >= r->n_methods || !r->m[ms[i]].ridge) continue;
        st = ts_compute(e, p, ms[i], task, taus, TS_DEFAULT_N, &cv[*ncv], NULL);
        if (st == GS_OK) (*ncv)++;
    }
    if (st == GS_OK && *ncv == 0)
        st = gs_error(GS_EINPUT, "tau-sweep figure: no ridge method among the shown methods");
    if (st) { for (int i = 0; i < *ncv; i++) ts_free(&cv[i]); *ncv = 0; }
    return st;
}

/* The curves' arrays a τ-sweep chart draws (ch_build_tau_sweep): acc, head, tail, validation
 * accuracy, stable rank. */
#define TS_NARR 5
static double *ts_array(const ts_curve *c, int a)
{
    double *const arr[TS_NARR] = {c->acc, c->head_acc, c->tail_acc, c->val_acc, c->stable_rank};
    return arr[a];
}

/* Mean and std over the seeds of curve i: mean (arrays owned by *buf) and sd[a][n]. The best τ is
 * chosen again on the mean (validation with a split, else test; the first of equals). */
static int ts_mean_curve(const fig_request *req, int i, ts_curve *mean, double **sd, double **buf)
{
    const ts_curve *c0 = &req->sweeps[0][i];
    int n = c0->n, k = req->nruns;
    *buf = gs_malloc((size_t)2 * TS_NARR * n + k, sizeof(double), "tau-sweep figure");
    if (!*buf) return GS_ENOMEM;
    double *m = *buf, *s = m + TS_NARR * n, *v = s + TS_NARR * n;
    *mean = *c0;
    mean->acc = m; mean->head_acc = m + n; mean->tail_acc = m + 2 * n;
    mean->val_acc = c0->val_acc ? m + 3 * n : NULL;
    mean->stable_rank = m + 4 * n;
    for (int a = 0; a < TS_NARR; a++) {
        sd[a] = s + a * n;
        for (int j = 0; j < n; j++) {
            for (int r = 0; r < k; r++) {
                const double *x = ts_array(&req->sweeps[r][i], a);
                v[r] = x && req->sweeps[r][i].n == n ? x[j] : NAN;
            }
            gs_mean_sd(v, k, &m[a * n + j], &sd[a][j], NULL);
        }
    }
    const double *by = mean->best_by_val && mean->val_acc ? mean->val_acc : mean->acc;
    mean->best = -1;
    for (int j = 0; j < n; j++)
        if (isfinite(by[j]) && (mean->best < 0 || by[j] > by[mean->best])) mean->best = j;
    return GS_OK;
}

/* Several seeds: the charts of the mean curves, with a ± std band on every test curve. */
static int tau_sweep_seed_charts(charts *cs, const fig_request *req)
{
    int ncv = req->nsweep, st = GS_OK;
    ts_curve mean[2];
    double *sd[2][TS_NARR], *buf[2] = {NULL, NULL};
    for (int i = 0; i < ncv && st == GS_OK; i++) st = ts_mean_curve(req, i, &mean[i], sd[i], &buf[i]);
    for (int w = 0; w < 2 && st == GS_OK; w++) {
        ch_chart *c = &cs->ex[w];
        st = ch_build_tau_sweep(c, &mean[0], ncv > 1 ? &mean[1] : NULL, req->r->params.tau,
                                w ? CH_TS_STABLE_RANK : CH_TS_ACCURACY);
        if (st) break;
        cs->nex = w + 1;
        for (int j = 0; j < c->nseries && st == GS_OK; j++) {
            ch_series *s = &c->series[j];
            if (s->ghost || s->method < 0 || s->method >= ncv) continue;
            int a = w ? 4 : s->kind == CH_KIND_HEAD ? 1 : s->kind == CH_KIND_TAIL ? 2 : 0;
            st = ch_set_band(s, sd[s->method][a]);
        }
        if (st == GS_OK && w) ch_axis_band_y(c);
        if (st == GS_OK) {
            size_t len = strlen(c->note);
            snprintf(c->note + len, sizeof c->note - len, "; mean \u00b1 std over %d seeds", req->nruns);
        }
    }
    free(buf[0]);
    free(buf[1]);
    return st;
}

static int tau_sweep_charts(charts *cs, const fig_request *req, int task)
{
    const en_results *r = req->r;
    if (req->nruns > 1 && req->sweeps && req->nsweep > 0) return tau_sweep_seed_charts(cs, req);
    if (!req->eng || !req->prob)
        return gs_error(GS_EINPUT, "tau-sweep figure: needs the engine (export computes it)");
    ts_curve cv[2];
    int ncv = 0, st = fig_tau_curves(req->eng, req->prob, r, req->m0, req->m1, task, cv, &ncv);
    if (st == GS_OK) st = ch_build_tau_sweep(&cs->ex[0], &cv[0], ncv > 1 ? &cv[1] : NULL, r->params.tau,
                                             CH_TS_ACCURACY);
    if (st == GS_OK) {
        cs->nex = 1;
        st = ch_build_tau_sweep(&cs->ex[1], &cv[0], ncv > 1 ? &cv[1] : NULL, r->params.tau,
                                CH_TS_STABLE_RANK);
        if (st == GS_OK) cs->nex = 2;
    }
    for (int i = 0; i < ncv; i++) ts_free(&cv[i]);
    return st;
}

/* Theorem 1 at every task: G = the reference's (GACL's) Gram matrix, Δ = G_aug − G, split r =
 * head classes seen so far; before = sr(G+τI), after = sr(G+Δ+τI), and the lower bound. */
static int theorem_charts(charts *cs, const fig_request *req, int task)
{
    const en_results *r = req->r;
    if (!req->eng) return gs_error(GS_EINPUT, "theorem figure: needs the engine (export computes it)");
    int ref = -1, aug = -1;
    if (!en_results_pair(r, req->m0, req->m1, &ref, &aug) || !r->m[aug].ridge)
        return gs_error(GS_EINPUT, "theorem figure: needs a ridge learner alone and with an augmenter "
                                   "(e.g. --methods gacl,gsr)");
    int T = r->T, st = GS_OK;
    double *v = gs_malloc((size_t)3 * T, sizeof(double), "theorem figure");
    if (!v) return GS_ENOMEM;
    double *before = v, *bound = v + T, *after = v + 2 * T;
    gm_mat G = {0}, Dl = {0};
    for (int t = 1; t <= T && st == GS_OK; t++) {
        before[t - 1] = bound[t - 1] = after[t - 1] = NAN;
        const gm_mat *Gp, *Qp;
        if ((st = en_gram(req->eng, ref, t, &Gp, &Qp)) || (st = gm_copy(&G, Gp, "theorem figure"))) break;
        if ((st = en_gram(req->eng, aug, t, &Gp, &Qp)) || (st = gm_copy(&Dl, Gp, "theorem figure"))) break;
        for (size_t i = 0; i < (size_t)G.rows * (size_t)G.cols; i++) Dl.v[i] -= G.v[i];
        int rs = 0;
        for (int c = 0; c < r->C; c++) rs += r->is_head[c] && r->class_task[c] >= 0 && r->class_task[c] < t;
        if (rs < 1) rs = 1;
        if (rs >= G.rows) rs = (int)G.rows - 1;
        sp_theorem th;
        if ((st = sp_theorem1(&G, &Dl, rs, r->params.tau, &th)) == GS_OK) {
            before[t - 1] = th.sr_before;
            bound[t - 1] = th.bound;
            after[t - 1] = th.sr_after;
        }
        gm_free(&G);
        gm_free(&Dl);
    }
    gm_free(&G);
    gm_free(&Dl);
    if (st == GS_OK && (st = ch_build_theorem(&cs->ex[0], r, ref, aug, before, bound, after, task)) == GS_OK)
        cs->nex = 1;
    free(v);
    return st;
}

/* ---- teaching figures: claims and collapse ------------------------------------------------- */

/* The reference (gacl when shown, else m0) and the other shown method. */
static void teach_pair(const fig_request *req, int *ref, int *aug)
{
    const en_results *r = req->r;
    int ok0 = req->m0 >= 0 && req->m0 < r->n_methods, ok1 = req->m1 >= 0 && req->m1 < r->n_methods && req->m1 != req->m0;
    *ref = ok0 ? req->m0 : -1;
    *aug = ok0 && ok1 ? req->m1 : -1;
    if (ok0 && ok1 && !strcmp(r->m[req->m1].name, "gacl") && strcmp(r->m[req->m0].name, "gacl")) {
        *ref = req->m1;
        *aug = req->m0;
    }
}

/* The claims at `task`: Theorem 1 (GACL's G, Δ = the other method's G − G, split r = head
 * classes seen) and the reference's τ sweep, computed here from the engine, then cl_claims. */
static int claims_report(charts *cs, const fig_request *req, int task)
{
    const en_results *r = req->r;
    int ref, aug, st = GS_OK;
    teach_pair(req, &ref, &aug);
    if (ref < 0 || aug < 0 || !req->eng || !req->prob)
        return gs_error(GS_EINPUT, "claims figure: needs two methods (e.g. --methods gacl,gsr) and the engine");
    cs->claims = gs_calloc(1, sizeof *cs->claims, "claims figure");
    if (!cs->claims) return GS_ENOMEM;
    sp_theorem th;
    int have_th = 0;
    if (!strcmp(r->m[ref].name, "gacl") && r->m[ref].ridge && r->m[aug].ridge) {
        gm_mat G = {0}, Dl = {0};
        const gm_mat *Gp, *Qp;
        if (!(st = en_gram(req->eng, ref, task, &Gp, &Qp)) && !(st = gm_copy(&G, Gp, "claims figure")) &&
            !(st = en_gram(req->eng, aug, task, &Gp, &Qp)) && !(st = gm_copy(&Dl, Gp, "claims figure"))) {
            for (size_t i = 0; i < (size_t)G.rows * (size_t)G.cols; i++) Dl.v[i] -= G.v[i];
            int rs = 0;
            for (int c = 0; c < r->C; c++) rs += r->is_head[c] && r->class_task[c] >= 0 && r->class_task[c] < task;
            if (rs < 1) rs = 1;
            if (rs >= G.rows) rs = (int)G.rows - 1;
            if ((st = sp_theorem1(&G, &Dl, rs, r->params.tau, &th)) == GS_OK) have_th = 1;
        }
        gm_free(&G);
        gm_free(&Dl);
        if (st != GS_OK) return st;
    }
    ts_curve sw;
    int have_sw = 0;
    memset(&sw, 0, sizeof sw);
    if (r->m[ref].ridge) {
        double taus[TS_DEFAULT_N];
        ts_log_grid(1e-4, 1e4, TS_DEFAULT_N, taus);
        if ((st = ts_compute(req->eng, req->prob, ref, task, taus, TS_DEFAULT_N, &sw, NULL)) != GS_OK) return st;
        have_sw = 1;
    }
    cl_input in = {r, ref, aug, task, have_th ? &th : NULL, have_sw ? &sw : NULL};
    st = cl_claims(&in, cs->claims);
    if (have_sw) ts_free(&sw);
    return st;
}

static int collapse_chart(charts *cs, const fig_request *req, int task)
{
    int ref, aug;
    teach_pair(req, &ref, &aug);
    if (!req->eng || !req->prob) return gs_error(GS_EINPUT, "collapse figure: needs the engine (export computes it)");
    co_result co;
    int st = co_compute(req->eng, req->prob, ref, aug, task, &co);
    if (st == GS_OK && (st = ch_build_collapse(&cs->ex[0], &co)) == GS_OK) cs->nex = 1;
    co_free(&co);
    return st;
}

/* A word-wrapped paragraph of markup at (b.x, y), b.w wide; returns its height. */
static double paragraph(fz *z, const char *markup, double size, box b, double y)
{
    PangoLayout *l = fz_layout(z, markup, size);
    pango_layout_set_width(l, (int)(b.w * PANGO_SCALE));
    pango_layout_set_wrap(l, PANGO_WRAP_WORD);
    PangoRectangle log;
    cairo_move_to(z->cr, b.x, y);
    set_rgb(z->cr, 0x1a1a1a, 1);
    pango_cairo_update_layout(z->cr, l);
    pango_cairo_show_layout(z->cr, l);
    pango_layout_get_extents(l, NULL, &log);
    g_object_unref(l);
    return (double)log.height / PANGO_SCALE;
}

/* The claims as a table of paragraphs: mark and claim in bold with the numbers, the reason
 * under it. */
static void draw_claims(fz *z, const cl_report *rep, box b)
{
    char title[200], ref[64], aug[64];
    snprintf(title, sizeof title, "<b>The paper's claims on this data</b> (task %d: %s against %s)", rep->task,
             esc(rep->aug, aug, sizeof aug), esc(rep->ref, ref, sizeof ref));
    double y = b.y + paragraph(z, title, FS_TITLE, b, b.y) + 4.0;
    for (int i = 0; i < rep->n; i++) {
        const cl_row *c = &rep->row[i];
        char e1[300], e2[420], e3[520], m[1400];
        uint32_t col = c->verdict == CL_HOLDS ? 0x2e7d32 : c->verdict == CL_FAILS ? 0xc62828 : 0x555555;
        snprintf(m, sizeof m, "<span foreground=\"#%06x\"><b>%s</b></span> <b>%s</b>%s%s\n<span size=\"%d\">%s</span>",
                 col, cl_mark(c->verdict), esc(c->claim, e1, sizeof e1), c->numbers[0] ? ": " : "",
                 esc(c->numbers, e2, sizeof e2), (int)(FS_TICK * PANGO_SCALE), esc(c->reason, e3, sizeof e3));
        y += paragraph(z, m, FS_LABEL, b, y) + 3.0;
    }
}

static int write_claims_csv(const cl_report *rep, FILE *f)
{
    if (fputs("claim,verdict,numbers,reason\n", f) == EOF) return -1;
    for (int i = 0; i < rep->n; i++) {
        const cl_row *c = &rep->row[i];
        const char *v = c->verdict == CL_HOLDS ? "holds" : c->verdict == CL_FAILS ? "fails" : "unknown";
        const char *cols[4] = {c->claim, v, c->numbers, c->reason};
        for (int k = 0; k < 4; k++) {
            if (fputc('"', f) == EOF) return -1;
            for (const char *p = cols[k]; *p; p++)
                if ((*p == '"' && fputc('"', f) == EOF) || fputc(*p, f) == EOF) return -1;
            if (fputs(k < 3 ? "\"," : "\"\n", f) == EOF) return -1;
        }
    }
    return 0;
}

static int charts_build(charts *cs, const fig_request *req, int fig, int task)
{
    memset(cs, 0, sizeof *cs);
    int st;
    if (fig == FIG_ACCURACY || fig == FIG_DASHBOARD) {
        if ((st = ch_build_accuracy(&cs->acc, req->r, req->baseline, req->m0, req->m1, task))) goto fail;
        cs->have_acc = 1;
        if (req->nruns > 1 && (st = ch_add_seed_bands(&cs->acc, req->runs, req->nruns))) goto fail;
    }
    if (fig == FIG_SPECTRUM || fig == FIG_DASHBOARD) {
        if ((st = ch_build_spectrum(&cs->spec, req->r, req->baseline, req->m0, req->m1, task))) goto fail;
        cs->have_spec = 1;
    }
    if (fig == FIG_STABLE_RANK || fig == FIG_DASHBOARD) {
        if ((st = ch_build_stable_rank(&cs->sr, req->r, req->baseline, req->m0, req->m1, task))) goto fail;
        cs->have_sr = 1;
        if (req->nruns > 1 && (st = ch_add_seed_bands_of(&cs->sr, req->runs, req->nruns, CH_BAND_STABLE_RANK)))
            goto fail;
    }
    if (fig == FIG_TAU_SWEEP && (st = tau_sweep_charts(cs, req, task))) goto fail;
    if (fig == FIG_ERANK_COND) {
        if ((st = ch_build_erank_cond(&cs->ex[0], req->r, req->m0, req->m1, task, CH_ERANK))) goto fail;
        cs->nex = 1;
        if ((st = ch_build_erank_cond(&cs->ex[1], req->r, req->m0, req->m1, task, CH_COND))) goto fail;
        cs->nex = 2;
        if (req->nruns > 1 && ((st = ch_add_seed_bands_of(&cs->ex[0], req->runs, req->nruns, CH_BAND_ERANK)) ||
                               (st = ch_add_seed_bands_of(&cs->ex[1], req->runs, req->nruns, CH_BAND_COND))))
            goto fail;
    }
    if (fig == FIG_CLASS_ACC) {
        if ((st = ch_build_class_acc(&cs->ex[0], req->r, req->m0, req->m1, task))) goto fail;
        cs->nex = 1;
    }
    if (fig == FIG_EIG_RATIO) {
        if ((st = ch_build_eig_ratio(&cs->ex[0], req->r, req->m0, req->m1, task))) goto fail;
        cs->nex = 1;
    }
    if (fig == FIG_THEOREM && (st = theorem_charts(cs, req, task))) goto fail;
    if (fig == FIG_CLAIMS && (st = claims_report(cs, req, task))) goto fail;
    if (fig == FIG_COLLAPSE && (st = collapse_chart(cs, req, task))) goto fail;
    return GS_OK;
fail:
    charts_free(cs);
    return st;
}

static double figure_aspect(int fig, double w_in);

int fig_size_in(const char *figure, double width_in, double *w_in, double *h_in)
{
    int fig = figure ? figure_id(figure) : -1;
    if (fig < 0) return gs_error(GS_EINPUT, "--figure %s: unknown figure (use %s)",
                                 figure ? figure : "(none)", fig_list());
    double w = width_in > 0 ? width_in : fig == FIG_DASHBOARD ? 7.0 : 3.5;
    if (w_in) *w_in = w;
    if (h_in) *h_in = round(w * figure_aspect(fig, w) * 100.0) / 100.0;
    return GS_OK;
}

/* Below this width the dashboard stacks its panels in one column. */
#define DASH_WIDE_IN 5.0

static double figure_aspect(int fig, double w_in)
{
    switch (fig) {
    case FIG_ACCURACY: return 0.60;
    case FIG_DASHBOARD: return w_in >= DASH_WIDE_IN ? 0.70 : 1.75;
    case FIG_TAU_SWEEP: return 1.15;
    case FIG_ERANK_COND: return 0.55;
    case FIG_CLAIMS: return 1.25;
    default: return 0.72;
    }
}

static double legend_h(fz *z) { double h; fz_size(z, "Ag", FS_LEGEND, NULL, &h); return h + 4.0; }

/* The three accuracy panels (overall, head, tail) sharing the 0–100 % axis. */
static void draw_accuracy_row(fz *z, const ch_chart *acc, box row)
{
    panel ps[3];
    panel_init(&ps[0], acc, CH_KIND_OVERALL, "Overall");
    panel_init(&ps[1], acc, CH_KIND_HEAD, "Head classes");
    panel_init(&ps[2], acc, CH_KIND_TAIL, "Tail classes");
    /* the pending note once, on the last panel; the x label once, under the middle panel */
    ps[0].note[0] = ps[1].note[0] = '\0';
    ps[0].xlabel = ps[2].xlabel = 0;
    layout_row(z, ps, 3, row, 1, 7.0);
    for (int i = 0; i < 3; i++) draw_panel(z, &ps[i]);
}

/* "1, 2, 3": the seeds of the runs. */
static void seeds_text(const fig_request *req, char *out, size_t n)
{
    out[0] = '\0';
    for (int k = 0; k < req->nruns; k++) {
        size_t l = strlen(out);
        snprintf(out + l, n - l, "%s%llu", k ? ", " : "", (unsigned long long)req->runs[k]->params.seed);
    }
}

/* The caption of a figure drawn over several seeds (the dashboard has its own, longer one). */
static PangoLayout *seeds_caption(fz *z, const fig_request *req, double w)
{
    char list[300], txt[500];
    seeds_text(req, list, sizeof list);
    snprintf(txt, sizeof txt, "Mean \u00b1 std over %d seeds (%s): each curve is the mean, its band \u00b1 one "
             "sample standard deviation.", req->nruns, list);
    PangoLayout *l = fz_layout(z, txt, FS_CAPTION);
    pango_layout_set_width(l, (int)(w * PANGO_SCALE));
    pango_layout_set_wrap(l, PANGO_WRAP_WORD);
    return l;
}

/* Lay out the caption for width w (caller unrefs). */
static PangoLayout *caption_layout(fz *z, const fig_request *req, int task, double w)
{
    const en_results *r = req->r;
    const op_params *pp = &r->params;
    char b1[40], b2[40], b3[40], b4[40], name[420] = "", methods[96] = "", proto[256] = "", n0[32],
                                                  n1[32], txt[1400];
    if (req->m0 >= 0 && req->m0 < r->n_methods) ch_display_name(r->m[req->m0].name, n0, sizeof n0);
    else snprintf(n0, sizeof n0, "?");
    if (req->m1 >= 0 && req->m1 < r->n_methods) {
        ch_display_name(r->m[req->m1].name, n1, sizeof n1);
        snprintf(methods, sizeof methods, "%s vs %s", n0, n1);
    } else {
        snprintf(methods, sizeof methods, "%s", n0);
    }
    if (req->prob && req->prob->data_name[0]) {
        char e[400];
        snprintf(name, sizeof name, " on %s", esc(req->prob->data_name, e, sizeof e));
    }
    if (req->opts) {
        const op_protocol *pr = &req->opts->proto;
        char h[40], rho[64] = "";
        if (pr->rho > 0) snprintf(rho, sizeof rho, ", \u03c1 = %s", num(pr->rho, b4));
        snprintf(proto, sizeof proto, "; %d tasks, %s profile, head %s, %ld tail shots%s, %s order", r->T,
                 profile_name(pr->profile), num(pr->head_frac, h), pr->tail_shots,
                 rho, pr->order == OP_ORDER_ORDERED ? "ordered" : "shuffled");
    } else {
        snprintf(proto, sizeof proto, "; %d tasks", r->T);
    }
    char seed[512];
    if (req->nruns > 1) {
        char list[256];
        seeds_text(req, list, sizeof list);
        snprintf(seed, sizeof seed, "seeds %s (accuracy and stable rank: mean \u00b1 std over %d seeds, "
                 "bands \u00b1 one sample std; spectrum: seed %llu)", list, req->nruns, (unsigned long long)pp->seed);
    } else {
        snprintf(seed, sizeof seed, "seed %llu", (unsigned long long)pp->seed);
    }
    /* subscripts kept at 8 pt (the minimum text size) */
    char mab[24];
    snprintf(txt, sizeof txt,
             "<b>%s</b>%s. \u03b1<span size=\"%d\" rise=\"-%d\">base</span> = %s, \u03be = %s, "
             "\u03b2 = %s, \u03c4 = %s, %s; pairs %s, max_aug %s, augment %s%s. "
             "Spectrum at task %d/%d.%s gsrscope %s.",
             methods, name, (int)(FS_CAPTION * PANGO_SCALE), (int)(1.6 * PANGO_SCALE),
             num(pp->alpha_base, b1), num(pp->xi, b2), num(pp->beta, b3), num(pp->tau, b4),
             seed, op_pairs_name(pp->pairs), op_max_aug_str(pp->max_aug, mab, sizeof mab),
             pp->augment == OP_AUG_TAIL ? "tail" : "all", proto, task, r->T,
             req->prob && req->prob->single ? " Ridge learners in single precision." : "", GS_VERSION);
    PangoLayout *l = fz_layout(z, txt, FS_CAPTION + 0.5);
    pango_layout_set_width(l, (int)(w * PANGO_SCALE));
    pango_layout_set_wrap(l, PANGO_WRAP_WORD);
    return l;
}

static double caption_height(fz *z, const fig_request *req, int task, double w)
{
    PangoLayout *l = caption_layout(z, req, task, w);
    PangoRectangle log;
    pango_layout_get_extents(l, NULL, &log);
    g_object_unref(l);
    return (double)log.height / PANGO_SCALE;
}

static void draw_caption(fz *z, const fig_request *req, int task, box bx)
{
    PangoLayout *l = caption_layout(z, req, task, bx.w);
    cairo_move_to(z->cr, bx.x, bx.y);
    cairo_set_source_rgb(z->cr, 0.1, 0.1, 0.1);
    pango_cairo_update_layout(z->cr, l);
    pango_cairo_show_layout(z->cr, l);
    g_object_unref(l);
}

static void draw_figure(fz *z, const fig_request *req, int fig, const charts *cs, int task, double W,
                        double H)
{
    cairo_t *cr = z->cr;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    const double pad = 4.0;
    double lh = legend_h(z);
    if (fig == FIG_CLAIMS) {
        draw_claims(z, cs->claims, (box){pad + 2, pad, W - 2 * pad - 4, H - 2 * pad});
        return;
    }
    const ch_chart *first = cs->nex ? &cs->ex[0] : cs->have_acc ? &cs->acc : cs->have_spec ? &cs->spec : &cs->sr;
    draw_legend(z, first, cs->have_spec ? &cs->spec : NULL, W / 2, pad, lh);
    box body = {pad, pad + lh + 2.0, W - 2 * pad, H - 2 * pad - lh - 2.0};
    if (req->nruns > 1 && fig != FIG_DASHBOARD) {
        /* several seeds: a caption line under the panels says what the curves and bands are */
        PangoLayout *l = seeds_caption(z, req, body.w - 4);
        PangoRectangle log;
        pango_layout_get_extents(l, NULL, &log);
        double ch = (double)log.height / PANGO_SCALE;
        body.h -= ch + 4.0;
        cairo_move_to(cr, body.x + 2, body.y + body.h + 4.0);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        pango_cairo_update_layout(cr, l);
        pango_cairo_show_layout(cr, l);
        g_object_unref(l);
    }
    panel p;
    switch (fig) {
    case FIG_ACCURACY:
        draw_accuracy_row(z, &cs->acc, body);
        break;
    case FIG_TAU_SWEEP: {
        /* accuracy against τ (overall, head, tail) above, stable rank against τ below */
        double h1 = (body.h - 8.0) * 0.5;
        draw_accuracy_row(z, &cs->ex[0], (box){body.x, body.y, body.w, h1});
        panel_init(&p, &cs->ex[1], -1, NULL);
        layout_row(z, &p, 1, (box){body.x, body.y + h1 + 8.0, body.w, body.h - h1 - 8.0}, 0, 0);
        draw_panel(z, &p);
        break;
    }
    case FIG_ERANK_COND: {
        panel two[2];
        panel_init(&two[0], &cs->ex[0], -1, NULL);
        panel_init(&two[1], &cs->ex[1], -1, NULL);
        layout_row(z, two, 2, body, 0, 16.0);
        draw_panel(z, &two[0]);
        draw_panel(z, &two[1]);
        break;
    }
    case FIG_CLASS_ACC:
    case FIG_EIG_RATIO:
    case FIG_THEOREM:
    case FIG_COLLAPSE:
        panel_init(&p, &cs->ex[0], -1, NULL);
        layout_row(z, &p, 1, body, 0, 0);
        draw_panel(z, &p);
        break;
    case FIG_SPECTRUM:
    case FIG_STABLE_RANK:
        panel_init(&p, fig == FIG_SPECTRUM ? &cs->spec : &cs->sr, -1, NULL);
        layout_row(z, &p, 1, body, 0, 0);
        draw_panel(z, &p);
        break;
    default: {
        double ch = caption_height(z, req, task, body.w - 4);
        double rows_h = body.h - ch - 6.0;
        if (W >= DASH_WIDE_IN * 72.0 - 1e-9) {
            box r1 = {body.x, body.y, body.w, rows_h * 0.5 - 3};
            box r2 = {body.x, body.y + rows_h * 0.5 + 3, body.w, rows_h * 0.5 - 3};
            draw_accuracy_row(z, &cs->acc, r1);
            panel two[2];
            panel_init(&two[0], &cs->spec, -1, NULL);
            panel_init(&two[1], &cs->sr, -1, NULL);
            layout_row(z, two, 2, r2, 0, 16.0);
            draw_panel(z, &two[0]);
            draw_panel(z, &two[1]);
        } else {
            /* one column: accuracy row, spectrum, stable rank */
            double h3 = (rows_h - 12.0) / 3.0;
            draw_accuracy_row(z, &cs->acc, (box){body.x, body.y, body.w, h3});
            panel one;
            panel_init(&one, &cs->spec, -1, NULL);
            layout_row(z, &one, 1, (box){body.x, body.y + h3 + 6.0, body.w, h3}, 0, 0);
            draw_panel(z, &one);
            panel_init(&one, &cs->sr, -1, NULL);
            layout_row(z, &one, 1, (box){body.x, body.y + 2 * h3 + 12.0, body.w, h3}, 0, 0);
            draw_panel(z, &one);
        }
        draw_caption(z, req, task, (box){body.x + 2, body.y + rows_h + 4.0, body.w - 4, ch});
        break;
    }
    }
}

static int fz_begin(fz *z, cairo_surface_t *s)
{
    memset(z, 0, sizeof *z);
    z->cr = cairo_create(s);
    if (cairo_status(z->cr) != CAIRO_STATUS_SUCCESS) return -1;
    z->pc = pango_cairo_create_context(z->cr);
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    pango_cairo_context_set_font_options(z->pc, fo);
    cairo_font_options_destroy(fo);
    pango_cairo_context_set_resolution(z->pc, 72.0); /* 1 pt = 1 user unit */
#if PANGO_VERSION_CHECK(1, 44, 0)
    pango_context_set_round_glyph_positions(z->pc, FALSE);
#endif
    z->font = pango_font_description_from_string(FONT_FAMILY);
    return 0;
}

static void fz_end(fz *z)
{
    if (z->font) pango_font_description_free(z->font);
    if (z->pc) g_object_unref(z->pc);
    if (z->cr) cairo_destroy(z->cr);
    memset(z, 0, sizeof *z);
}

/* ---- sinks ------------------------------------------------------------------------------- */

typedef struct {
    unsigned char *p;
    size_t n, cap;
    int oom;
} membuf;

static cairo_status_t membuf_write(void *closure, const unsigned char *data, unsigned int len)
{
    membuf *m = closure;
    if (m->n + len > m->cap) {
        size_t cap = m->cap ? m->cap : 65536;
        while (cap < m->n + len) cap *= 2;
        unsigned char *q = realloc(m->p, cap);
        if (!q) { m->oom = 1; return CAIRO_STATUS_WRITE_ERROR; }
        m->p = q;
        m->cap = cap;
    }
    memcpy(m->p + m->n, data, len);
    m->n += len;
    return CAIRO_STATUS_SUCCESS;
}

static int render_png(const fig_request *req, int fig, const charts *cs, int task, double W, double H,
                      double dpi, const meta *md, const char *path)
{
    int wpx = (int)lround(W / 72.0 * dpi), hpx = (int)lround(H / 72.0 * dpi);
    if (wpx < 1 || hpx < 1 || wpx > 32767 || hpx > 32767 || (double)wpx * hpx > 1.5e8)
        return gs_error(GS_EINPUT, "%s: the image would be %d×%d pixels; lower --dpi or --width-in",
                        path, wpx, hpx);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, wpx, hpx);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return gs_error(GS_ENOMEM, "%s: cannot allocate a %d×%d image", path, wpx, hpx);
    }
    fz z;
    if (fz_begin(&z, s) != 0) {
        fz_end(&z);
        cairo_surface_destroy(s);
        return gs_error(GS_ENOMEM, "%s: cannot start drawing", path);
    }
    cairo_scale(z.cr, wpx / W, hpx / H);
    draw_figure(&z, req, fig, cs, task, W, H);
    cairo_status_t cs_st = cairo_status(z.cr);
    fz_end(&z);
    cairo_surface_flush(s);
    if (cs_st != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return gs_error(GS_ERUN, "%s: drawing failed: %s", path, cairo_status_to_string(cs_st));
    }
    pw_text t[MAX_META];
    for (int i = 0; i < md->n; i++) t[i] = (pw_text){md->key[i], md->val[i]};
    int st = pw_write_argb32(path, cairo_image_surface_get_data(s), wpx, hpx,
                             cairo_image_surface_get_stride(s), dpi, t, md->n);
    cairo_surface_destroy(s);
    return st;
}

/* cairo numbers SVG surfaces ("surface580") from a process-wide counter, so a second export
 * in the same process would differ. Renumber them 1, 2, ... in order of first appearance. */
static size_t svg_renumber(const unsigned char *in, size_t n, unsigned char *out)
{
    unsigned long seen[64];
    int nseen = 0;
    size_t o = 0, i = 0;
    while (i < n) {
        if (i + 7 < n && memcmp(in + i, "surface", 7) == 0 && in[i + 7] >= '0' && in[i + 7] <= '9') {
            size_t j = i + 7;
            unsigned long v = 0;
            while (j < n && in[j] >= '0' && in[j] <= '9') v = v * 10 + (unsigned long)(in[j++] - '0');
            int k = 0;
            while (k < nseen && seen[k] != v) k++;
            if (k == nseen && nseen < 64) seen[nseen++] = v;
            if (k < 64) {
                o += (size_t)sprintf((char *)out + o, "surface%d", k + 1);
                i = j;
                continue;
            }
        }
        out[o++] = in[i++];
    }
    return o;
}

/* Insert <title> and <desc> with the parameters after the root <svg ...> tag. */
static int svg_with_meta(const membuf *m, const meta *md, const char *path)
{
    const char *start = NULL;
    for (size_t i = 0; i + 4 < m->n; i++)
        if (memcmp(m->p + i, "<svg", 4) == 0) { start = (const char *)m->p + i; break; }
    const char *gt = start ? memchr(start, '>', m->n - (size_t)(start - (const char *)m->p)) : NULL;
    char line[8000], e1[8400], e2[400], ins[9000];
    meta_line(md, line, sizeof line);
    gchar *x1 = g_markup_escape_text(line, -1), *x2 = g_markup_escape_text(md->val[1], -1);
    snprintf(e1, sizeof e1, "%s", x1);
    snprintf(e2, sizeof e2, "%s", x2);
    g_free(x1);
    g_free(x2);
    int k = gt ? snprintf(ins, sizeof ins, "\n<title>%s</title>\n<desc>%s; %s</desc>", e2, md->val[0], e1)
               : 0;
    if (k < 0 || k >= (int)sizeof ins) k = 0;
    size_t head = gt ? (size_t)(gt + 1 - (const char *)m->p) : m->n;
    /* renumbering never lengthens ("surface" + digits -> "surface" + fewer or equal digits,
     * except tiny ids; allow slack) */
    size_t cap = m->n + (size_t)k + 4096;
    unsigned char *out = gs_malloc(cap, 1, "SVG");
    if (!out) return GS_ENOMEM;
    size_t o = svg_renumber(m->p, head, out);
    memcpy(out + o, ins, (size_t)k);
    o += (size_t)k;
    o += svg_renumber(m->p + head, m->n - head, out + o);
    int st = io_write_file(path, out, o);
    free(out);
    return st;
}

static int render_vector(const fig_request *req, int fig, const charts *cs, int task, double W,
                         double H, int pdf, const meta *md, const char *path)
{
    membuf m = {0};
    cairo_surface_t *s = pdf ? cairo_pdf_surface_create_for_stream(membuf_write, &m, W, H)
                             : cairo_svg_surface_create_for_stream(membuf_write, &m, W, H);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        free(m.p);
        return gs_error(GS_ENOMEM, "%s: cannot create the %s surface", path, pdf ? "PDF" : "SVG");
    }
    if (pdf) {
        char line[8000];
        meta_line(md, line, sizeof line);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, md->val[1]);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, md->val[0]);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_SUBJECT, line);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, PDF_DATE);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_MOD_DATE, PDF_DATE);
    } else {
        cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PT);
    }
    fz z;
    if (fz_begin(&z, s) != 0) {
        fz_end(&z);
        cairo_surface_destroy(s);
        free(m.p);
        return gs_error(GS_ENOMEM, "%s: cannot start drawing", path);
    }
    draw_figure(&z, req, fig, cs, task, W, H);
    cairo_status_t st1 = cairo_status(z.cr);
    fz_end(&z);
    cairo_surface_finish(s);
    cairo_status_t st2 = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (st1 != CAIRO_STATUS_SUCCESS || st2 != CAIRO_STATUS_SUCCESS || m.oom) {
        free(m.p);
        return gs_error(m.oom ? GS_ENOMEM : GS_ERUN, "%s: drawing failed: %s", path,
                        cairo_status_to_string(st1 != CAIRO_STATUS_SUCCESS ? st1 : st2));
    }
    int st = pdf ? io_write_file(path, m.p, m.n) : svg_with_meta(&m, md, path);
    free(m.p);
    return st;
}

static int write_csv(const charts *cs, const char *path)
{
    io_atomic a;
    int st = io_atomic_open(&a, path);
    if (st) return st;
    if (cs->claims) {
        if (write_claims_csv(cs->claims, a.f)) st = gs_error(GS_ERUN, "%s: write failed", path);
    } else if (fputs("chart,series,x,y\n", a.f) == EOF) st = gs_error(GS_ERUN, "%s: write failed", path);
    if (!st && cs->have_acc) st = ch_write_csv_rows(&cs->acc, a.f);
    if (!st && cs->have_spec) st = ch_write_csv_rows(&cs->spec, a.f);
    if (!st && cs->have_sr) st = ch_write_csv_rows(&cs->sr, a.f);
    for (int i = 0; !st && i < cs->nex; i++) st = ch_write_csv_rows(&cs->ex[i], a.f);
    if (st) {
        io_atomic_abort(&a);
        return gs_error(GS_ERUN, "%s: write failed (nothing was written)", path);
    }
    return io_atomic_commit(&a);
}

/* 0 png, 1 svg, 2 pdf; -1 with the message set. */
static int output_kind(const char *path)
{
    if (!path || !*path) return gs_error(GS_EINPUT, "export: -o FILE (--output) is required"), -1;
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    if (dot && strcasecmp(dot, ".png") == 0) return 0;
    if (dot && strcasecmp(dot, ".svg") == 0) return 1;
    if (dot && strcasecmp(dot, ".pdf") == 0) return 2;
    if (dot)
        gs_error(GS_EINPUT, "%s: unknown figure format '%s' (use .png, .svg or .pdf)", path, dot);
    else
        gs_error(GS_EINPUT, "%s: no figure format in the name (use .png, .svg or .pdf)", path);
    return -1;
}

int fig_check_output(const char *figure, const char *path)
{
    if (!figure || !fig_known(figure))
        return gs_error(GS_EINPUT, "--figure %s: unknown figure (use %s)", figure ? figure : "(none)",
                        fig_list());
    if (output_kind(path) < 0) return GS_EINPUT;
    char folder[4096];
    const char *slash = strrchr(path, '/');
    if (!slash) return GS_OK;
    size_t n = (size_t)(slash - path);
    if (n == 0) return GS_OK;
    if (n >= sizeof folder) return gs_error(GS_ERUN, "%s: path too long", path);
    memcpy(folder, path, n);
    folder[n] = '\0';
    struct stat sb;
    if (stat(folder, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return gs_error(GS_ERUN, "%s: cannot create: folder %s does not exist", path, folder);
    return GS_OK;
}

/* The last task every shown method has finished (T if none has). */
static int last_done_task(const fig_request *req)
{
    const en_results *r = req->r;
    for (int t = r->T; t >= 1; t--) {
        int ok = 1, any = 0;
        int ms[2] = {req->m0, req->m1};
        for (int k = 0; k < 2; k++) {
            if (ms[k] < 0 || ms[k] >= r->n_methods || !r->m[ms[k]].snaps) continue;
            any = 1;
            ok &= r->m[ms[k]].snaps[t - 1].state == EN_DONE;
        }
        if (any && ok) return t;
    }
    return r->T;
}

int fig_export(const fig_request *req, const char *figure, const char *path, const char *data_csv)
{
    if (!req || !req->r || req->r->T < 1 || !req->r->m)
        return gs_error(GS_EINPUT, "%s: no results to draw", path ? path : "figure");
    if (!figure || !fig_known(figure))
        return gs_error(GS_EINPUT, "--figure %s: unknown figure (use %s)", figure ? figure : "(none)",
                        fig_list());
    int kind = output_kind(path);
    if (kind < 0) return GS_EINPUT;
    int fig = figure_id(figure);
    int task = req->task;
    if (task < 0 || task > req->r->T)
        return gs_error(GS_EINPUT, "--task %d: out of range (1..%d, 0 = last)", task, req->r->T);
    if (task == 0) task = last_done_task(req);
    double dpi = req->dpi > 0 ? req->dpi : 300.0;
    double win, hin;
    fig_size_in(figure, req->width_in, &win, &hin);
    if (!isfinite(dpi) || !isfinite(win))
        return gs_error(GS_EINPUT, "%s: bad --dpi or --width-in", path);
    double W = win * 72.0, H = hin * 72.0;

    charts cs;
    int st = charts_build(&cs, req, fig, task);
    if (st) return st;
    meta md;
    build_meta(&md, req, figure, task);
    if (kind == 0) st = render_png(req, fig, &cs, task, W, H, dpi, &md, path);
    else st = render_vector(req, fig, &cs, task, W, H, kind == 2, &md, path);
    if (!st && data_csv) st = write_csv(&cs, data_csv);
    charts_free(&cs);
    return st;
}
