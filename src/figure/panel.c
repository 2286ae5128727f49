/* figure/panel.c — one chart drawn in a box: axes re-ticked for the room, grid, series, markers,
 * ticks, labels, title and note; rows of panels and the legend above them (fig_int.h). */
#include "fig_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TICK_LEN 3.0
#define MINOR_LEN 1.6
#define FRAME_W 0.6

/* Tick label markup: decades as 10 with a superscript exponent (a shifted log axis keeps its
 * values: 1.01, 2, 11), '-' as U+2212 minus. */
static void tick_markup(const ch_axis *ax, int i, char *out, size_t n)
{
    if (ax->scale == CH_LOG10 && ax->shift == 0) {
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

static double title_h(fig_ctx *z) { double h; fig_text_size(z, "Ag", FS_TITLE, NULL, &h); return h; }
static double tick_h(fig_ctx *z) { double h; fig_text_size(z, "0", FS_TICK, NULL, &h); return h; }
static double label_h(fig_ctx *z) { double h; fig_text_size(z, "Ag", FS_LABEL, NULL, &h); return h; }

static double panel_top(fig_ctx *z, const panel *p) { return p->title[0] ? title_h(z) + 2.0 : 2.0; }
static double panel_bottom(fig_ctx *z, const panel *p)
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
static void fit_y(fig_ctx *z, panel *p, double plot_h)
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

static double y_labels_width(fig_ctx *z, const panel *p)
{
    double mw = 0;
    char m[64];
    for (int i = 0; i < p->y.nticks; i++) {
        double w;
        tick_markup(&p->y, i, m, sizeof m);
        fig_text_size(z, m, FS_TICK, &w, NULL);
        mw = fmax(mw, w);
    }
    return mw;
}

static double panel_left(fig_ctx *z, const panel *p)
{
    double l = 3.0;
    if (p->yticklabels) l = TICK_LEN + 2.0 + y_labels_width(z, p);
    if (p->ylabel) l += label_h(z) + 1.5;
    return l;
}

/* Re-tick the x axis until neighbouring labels are at least 4 pt apart and the end labels stay
 * within room_l left and room_r right of the plot (half the gap to the next panel's plot: its
 * labels have the other half; a log axis then drops the end decades: 10⁻³ 1 10³). */
static void fit_x(fig_ctx *z, panel *p, double plot_w, double room_l, double room_r)
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
            fig_text_size(z, m, FS_TICK, &w, NULL);
            if (c - w / 2 < prev_r + 4.0 || c - w / 2 < -room_l || c + w / 2 > plot_w + room_r) ok = 0;
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

/* A marker; fill: -1 as its style has it (circles and diamonds open), 0 open (an estimate),
 * 1 filled (an exact value next to estimates). */
static void draw_marker(cairo_t *cr, ch_marker m, double x, double y, double r, uint32_t rgb,
                        double alpha, int fill)
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
        fig_rgb(cr, rgb, alpha);
        cairo_stroke(cr);
        cairo_restore(cr);
        return;
    default:
        cairo_restore(cr);
        return;
    }
    if (fill >= 0) open = !fill;
    if (open) {
        cairo_set_source_rgba(cr, 1, 1, 1, alpha);
        cairo_fill_preserve(cr);
    } else {
        fig_rgb(cr, rgb, alpha);
        cairo_fill_preserve(cr);
    }
    fig_rgb(cr, rgb, alpha);
    cairo_stroke(cr);
    cairo_restore(cr);
}

static int series_shown(const panel *p, const ch_series *s)
{
    return p->kind < 0 || (int)s->kind == p->kind;
}

/* The points of s with x in [xlo, xhi] (all: ±inf), alpha × afac. */
static void draw_series_part(fig_ctx *z, const panel *p, const ch_series *s, int slot, double xlo, double xhi,
                             double afac)
{
    cairo_t *cr = z->cr;
    const box *b = &p->plot;
    double alpha = (s->ghost ? 0.35 : 1.0) * afac;
    double w = s->ghost ? fmin(s->width_pt, 0.9) : s->width_pt;
    cairo_save(cr);
    cairo_rectangle(cr, b->x - 3, b->y - 3, b->w + 6, b->h + 6);
    cairo_clip(cr);
    cairo_set_line_width(cr, w);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    if (s->ylo && s->yhi) { /* mean ± std over seeds: a translucent band under the line */
        fig_rgb(cr, s->rgb, 0.15 * afac);
        int i = 0;
        while (i < s->n) {
            int a = i;
            while (a < s->n && !(isfinite(s->ylo[a]) && isfinite(s->yhi[a]) && s->x[a] >= xlo && s->x[a] <= xhi)) a++;
            int e = a;
            while (e < s->n && isfinite(s->ylo[e]) && isfinite(s->yhi[e]) && s->x[e] >= xlo && s->x[e] <= xhi) e++;
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
    fig_rgb(cr, s->rgb, alpha);
    cairo_new_path(cr);
    int pen = 0;
    for (int i = 0; i < s->n; i++) {
        double fx = ch_axis_frac(&p->x, s->x[i]), fy = ch_axis_frac(&p->y, s->y[i]);
        if (!isfinite(fx) || !isfinite(fy) || !(s->x[i] >= xlo && s->x[i] <= xhi)) { pen = 0; continue; }
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
                fy > 1 + 1e-9 || !(s->x[i] >= xlo && s->x[i] <= xhi))
                continue;
            draw_marker(cr, s->marker, px_f(p, fx), py_f(p, fy), r, s->rgb, alpha, s->est ? !s->est[i] : -1);
        }
    }
    cairo_restore(cr);
}

/* A series; with the chart's fade_after_mark, the part after the current task faded (drawn
 * first, so the points up to the task sit on top). */
static void draw_series(fig_ctx *z, const panel *p, const ch_series *s, int slot)
{
    double m = p->c->mark_x;
    if (p->c->fade_after_mark && isfinite(m)) {
        draw_series_part(z, p, s, slot, m, INFINITY, 0.25);
        draw_series_part(z, p, s, slot, -INFINITY, m, 1.0);
        return;
    }
    draw_series_part(z, p, s, slot, -INFINITY, INFINITY, 1.0);
}

void fig_draw_panel(fig_ctx *z, const panel *p)
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
        fig_text(z, px_f(p, ch_axis_frac(&p->x, p->x.ticks[i])), b->y + b->h + TICK_LEN + 1.5, m,
                FS_TICK, 0x000000, 0.5, VA_TOP, 0);
    }
    if (p->yticklabels)
        for (int i = 0; i < p->y.nticks; i++) {
            tick_markup(&p->y, i, m, sizeof m);
            fig_text(z, b->x - TICK_LEN - 2.0, py_f(p, ch_axis_frac(&p->y, p->y.ticks[i])),
                    m, FS_TICK, 0x000000, 1.0, VA_DIGITS, 0);
        }

    /* axis labels */
    if (p->xlabel) {
        fig_esc(p->c->x.label, m, sizeof m);
        fig_text(z, b->x + b->w / 2, b->y + b->h + TICK_LEN + 1.5 + tick_h(z), m, FS_LABEL, 0x000000,
                0.5, VA_TOP, 0);
    }
    if (p->ylabel) {
        double lw = p->yticklabels ? TICK_LEN + 2.0 + y_labels_width(z, p) : 3.0;
        fig_esc(p->c->y.label, m, sizeof m);
        fig_text(z, b->x - lw - 1.5 - label_h(z) / 2, b->y + b->h / 2, m, FS_LABEL, 0x000000, 0.5,
                VA_CENTER, -M_PI / 2);
    }

    /* title, note */
    if (p->title[0]) {
        double tw, nw = 0;
        fig_text_size(z, p->title, FS_TITLE, &tw, NULL);
        fig_text(z, b->x, b->y - 2.0, p->title, FS_TITLE, 0x000000, 0, VA_BOTTOM, 0);
        int has_series = 0;
        for (int i = 0; i < p->c->nseries; i++) has_series |= series_shown(p, &p->c->series[i]);
        if (p->note[0] && has_series) {
            /* what fits right of the title: the note, else its leading "; " parts (markup: an
             * entity ends in ';' too, never followed by a space here) */
            char note[sizeof p->note];
            snprintf(note, sizeof note, "%s", p->note);
            fig_text_size(z, note, FS_TICK, &nw, NULL);
            while (tw + 6.0 + nw > b->w && ch_note_cut(note)) fig_text_size(z, note, FS_TICK, &nw, NULL);
            if (tw + 6.0 + nw <= b->w)
                fig_text(z, b->x + b->w, b->y - 2.0 - (title_h(z) - tick_h(z)) * 0.3, note, FS_TICK, 0x555555, 1.0,
                        VA_BOTTOM, 0);
        }
    }
    int any = 0;
    for (int i = 0; i < p->c->nseries; i++) any |= series_shown(p, &p->c->series[i]);
    if (!any) {
        /* nothing to draw: say why in the middle of the empty plot */
        fig_text(z, b->x + b->w / 2, b->y + b->h / 2, p->note[0] ? p->note : "no data", FS_TICK,
                0x555555, 0.5, VA_CENTER, 0);
    }
}

void fig_panel_init(panel *p, const ch_chart *c, int kind, const char *title)
{
    memset(p, 0, sizeof *p);
    p->c = c;
    p->x = c->x;
    p->y = c->y;
    p->kind = kind;
    p->yticklabels = p->ylabel = p->xlabel = 1;
    if (title) snprintf(p->title, sizeof p->title, "%s", title);
    else fig_esc(c->title, p->title, sizeof p->title);
    char note[sizeof c->note + sizeof c->lacks];
    ch_note_full(c, note, sizeof note);
    fig_esc(note, p->note, sizeof p->note);
}

/* Lay out n panels side by side in `row` with equal plot widths; with shared_y only the first
 * shows y tick labels and the y label. */
void fig_layout_row(fig_ctx *z, panel *ps, int n, box row, int shared_y, double gap)
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
        fit_x(z, &ps[i], plot_w, i > 0 ? lefts[i] / 2 : INFINITY, i + 1 < n ? lefts[i + 1] / 2 : INFINITY);
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

/* The legend of c's (else c2's) mark_x line, NULL for none. */
static const char *mark_label(const ch_chart *c, const ch_chart *c2)
{
    if (c->mark_label[0] && isfinite(c->mark_x)) return c->mark_label;
    if (c2 && c2->mark_label[0] && isfinite(c2->mark_x)) return c2->mark_label;
    return NULL;
}

/* One centred row: line sample with marker, then the method name; then the pinned baseline's
 * faint line and the mark line's dotted one (the current τ) when there are. */
void fig_draw_legend(fig_ctx *z, const ch_chart *c, const ch_chart *c2, double cx, double y, double h)
{
    const ch_series *e[CH_MAX_SERIES];
    int n = legend_entries(c, e, CH_MAX_SERIES);
    if (!n && c2) n = legend_entries(c2, e, CH_MAX_SERIES);
    int ghost = has_ghosts(c) || (c2 && has_ghosts(c2));
    const char *mlabel = mark_label(c, c2);
    const double sample = 20.0, gap_in = 3.0, gap_out = 12.0;
    double widths[CH_MAX_SERIES + 2], total = 0;
    char m[96];
    for (int i = 0; i < n; i++) {
        fig_esc(e[i]->method_name, m, sizeof m);
        fig_text_size(z, m, FS_LEGEND, &widths[i], NULL);
        total += sample + gap_in + widths[i] + (i ? gap_out : 0);
    }
    const char *glabel = c->ghost_label[0] ? c->ghost_label : c2 && c2->ghost_label[0] ? c2->ghost_label : "pinned baseline";
    if (ghost) {
        fig_text_size(z, glabel, FS_LEGEND, &widths[n], NULL);
        total += gap_out + sample + gap_in + widths[n];
    }
    if (mlabel) {
        fig_esc(mlabel, m, sizeof m);
        fig_text_size(z, m, FS_LEGEND, &widths[n + 1], NULL);
        total += gap_out + sample + gap_in + widths[n + 1];
    }
    double x = cx - total / 2, ym = y + h / 2;
    for (int i = 0; i <= n + 1; i++) {
        if ((i == n && !ghost) || (i == n + 1 && !mlabel)) continue;
        if (x > cx - total / 2) x += gap_out;
        cairo_save(z->cr);
        if (i < n) {
            double w = 1.25;
            cairo_set_line_width(z->cr, w);
            dash_for(z->cr, e[i]->dash, w);
            fig_rgb(z->cr, e[i]->rgb, 1);
        } else if (i == n) {
            cairo_set_line_width(z->cr, 0.9);
            cairo_set_source_rgba(z->cr, 0.3, 0.3, 0.3, 0.35);
        } else { /* as the panel draws the mark line */
            double ds[2] = {1.2, 1.2};
            cairo_set_line_width(z->cr, 0.6);
            cairo_set_dash(z->cr, ds, 2, 0);
            cairo_set_source_rgb(z->cr, 0.45, 0.45, 0.45);
        }
        cairo_move_to(z->cr, x, ym);
        cairo_line_to(z->cr, x + sample, ym);
        cairo_stroke(z->cr);
        cairo_restore(z->cr);
        if (i < n) draw_marker(z->cr, e[i]->marker, x + sample / 2, ym, 2.3, e[i]->rgb, 1, -1);
        x += sample + gap_in;
        if (i < n) fig_esc(e[i]->method_name, m, sizeof m);
        else if (i == n) snprintf(m, sizeof m, "%s", glabel);
        else fig_esc(mlabel, m, sizeof m);
        fig_text(z, x, ym, m, FS_LEGEND, 0x000000, 0, VA_CENTER, 0);
        x += widths[i];
    }
}
