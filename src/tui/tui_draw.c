/* tui/tui_draw.c — compose one TUI frame into a cell canvas (pure: no curses, no threads).
 * Panels: status bar, Accuracy, Eigenspectrum, Stable rank, Parameters, hint bar; overlays:
 * help (from the key table) and the value editor; the "need at least WxH" screen; the ridge lens
 * (the filter-factor chart beside its table). The worker's text views (Theorem 1, claims), word
 * wrapping, the first screen's line and the hint bar: tui_text.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_chart.h"
#include "gs_common.h"
#include "gs_preset.h"
#include "tui_int.h"

#define FG CV_RGB_DEFAULT

static void lens_view(cv_canvas *cv, int x, int y, int w, int h, const tui_extra *ex, const tui_view *v);

void tui_fmt_pct(const en_snap *s, double v, char *buf, int n)
{
    if (!s || s->state == EN_PENDING) snprintf(buf, (size_t)n, "…");
    else if (s->state == EN_FAILED) snprintf(buf, (size_t)n, "fail");
    else if (!isfinite(v)) snprintf(buf, (size_t)n, "—");
    else snprintf(buf, (size_t)n, "%.1f", v);
}

static void fmt_sci(const en_snap *s, double v, int est, char *buf, int n)
{
    if (!s || s->state == EN_PENDING) { snprintf(buf, (size_t)n, "…"); return; }
    if (s->state == EN_FAILED) { snprintf(buf, (size_t)n, "fail"); return; }
    if (!isfinite(v) || (s->flags & EN_NO_GRAM)) { snprintf(buf, (size_t)n, "—"); return; }
    const char *t = est ? "~" : "";
    if (fabs(v) >= 1e4 || (fabs(v) < 1e-2 && v != 0)) {
        /* compact scientific: 2.1e5, 3e-4 */
        char m[32];
        snprintf(m, sizeof m, "%.1e", v);
        char *e = strchr(m, 'e');
        if (e) {
            int ex = atoi(e + 1);
            *e = 0;
            size_t L = strlen(m);
            if (L > 2 && !strcmp(m + L - 2, ".0")) m[L - 2] = 0;
            snprintf(buf, (size_t)n, "%s%.8se%d", t, m, ex);
        } else snprintf(buf, (size_t)n, "%s%.12s", t, m);
    } else snprintf(buf, (size_t)n, "%s%.4g", t, v);
}

static const en_snap *snap_at(const en_results *r, int m, int task)
{
    if (!r || m < 0 || m >= r->n_methods || task < 1 || task > r->T) return NULL;
    return &r->m[m].snaps[task - 1];
}



static int shown(const en_results *r, int m) { return r && m >= 0 && m < r->n_methods; }

/* "GACL vs AIR" (display names), "GACL" alone, or "" when nothing is known. */
static void pair_names(const en_results *r, int m0, int m1, char *buf, int n)
{
    char a[32] = "", b[32] = "";
    if (shown(r, m0)) ch_display_name(r->m[m0].name, a, sizeof a);
    if (shown(r, m1) && m1 != m0) ch_display_name(r->m[m1].name, b, sizeof b);
    snprintf(buf, (size_t)n, "%s%s%s", a, a[0] && b[0] ? " vs " : "", b);
}

void tui_accuracy_title(const en_results *r, int m0, int m1, char *buf, int n)
{
    char p[80];
    pair_names(r, m0, m1, p, sizeof p);
    snprintf(buf, (size_t)n, "Accuracy%s%s (head, tail, overall)", p[0] ? " — " : "", p);
}

int tui_cycle_method(int cur, int other, int n)
{
    if (n < 1) return cur;
    for (int k = 1; k <= n; k++) {
        int c = ((cur < 0 ? 0 : cur) + k) % n;
        if (c != other && c != cur) return c;
    }
    return cur;
}

/* For the panels of G + τI's numbers (own: the spectrum panel, where a learner without G shows
 * its own matrix when it has one): when no shown method has them, write why over the whole
 * panel and return -1; when one of them has none, write it on the panel's last rows, word-wrapped
 * (never cut), and return the rows it took (the chart takes that many rows less); else 0. */
static int no_spectrum_note(cv_canvas *cv, int x, int y, int w, int h, const tui_view *v, int own)
{
    char names[80], b[200];
    int ns, k = ch_no_gram_names(v->r, v->m0, v->m1, own, names, sizeof names, &ns);
    if (!k) return 0;
    snprintf(b, sizeof b, "%s: no Gram matrix%s", names, own ? ", no spectrum" : "");
    int nr = tui_wrap_text(cv, 0, 0, w - 2, -1, b, 0);
    if (nr > h) nr = h;
    if (k == ns) {
        tui_wrap_text(cv, x + 1, y + (h - nr) / 2, w - 2, nr, b, CV_DIM);
        return -1;
    }
    tui_wrap_text(cv, x + 1, y + h - nr, w - 2, nr, b, CV_DIM);
    return nr;
}

/* Fewer ticks (at most maxn) for the cell grid. A log axis keeps every k-th of its decades
 * counted from the top one, so that the top of the axis (the largest values, the panel's top
 * row) is always labelled; ch_axis_retick alone counts them from 10^0 and may leave it bare. */
static void retick_top(ch_axis *ax, int maxn)
{
    ch_axis full = *ax;
    ch_axis_retick(ax, maxn);
    int n = full.nticks;
    if (ax->scale != CH_LOG10 || n < 2 || maxn < 2 || ax->nticks < 1 ||
        ax->ticks[ax->nticks - 1] >= full.ticks[n - 1] * (1 - 1e-9))
        return;
    int stride = 1;
    while ((n - 1) / stride + 1 > maxn) stride++;
    int m = 0;
    for (int i = (n - 1) % stride; i < n; i += stride, m++) {
        ax->ticks[m] = full.ticks[i];
        memcpy(ax->tick_labels[m], full.tick_labels[i], sizeof ax->tick_labels[m]);
    }
    ax->nticks = m;
}

/* Re-tick for the cell grid and rasterize a built chart into (x, y, w, h); o may be NULL (full
 * legend, markers). */
static void draw_built_o(cv_canvas *cv, int x, int y, int w, int h, ch_chart *c, const tui_view *v,
                         const cv_chart_opts *o)
{
    int maxx = w / 8, maxy = (h - 3) / 2 + 1;
    if (maxx < 2) maxx = 2;
    if (maxy < 2) maxy = 2;
    if (c->x.nticks > maxx) retick_top(&c->x, maxx);
    if (c->y.nticks > maxy) retick_top(&c->y, maxy);
    cv_chart_opts def = {v->color, 1, 1, 0, 0};
    cv_draw_chart(cv, x, y, w, h, c, o ? o : &def);
}

void tui_draw_built(cv_canvas *cv, int x, int y, int w, int h, ch_chart *c, const tui_view *v)
{
    draw_built_o(cv, x, y, w, h, c, v, NULL);
}

/* Live stepping: a task-axis chart shows tasks up to the current one; the later points become
 * gaps unless the future is shown (key f), and the y axis fits the points shown (its range would
 * tell the future too). y: 0 fixed axis (accuracy), 1 automatic (log when it spans a decade),
 * 2 linear, 3 log. The note says what is hidden. */
enum { Y_FIXED = 0, Y_AUTO, Y_LINEAR, Y_LOG };
static void hide_future(ch_chart *c, const tui_view *v, int y)
{
    if (v->future || v->task >= v->T) return;
    int any = 0;
    for (int i = 0; i < c->nseries; i++)
        for (int k = 0; k < c->series[i].n; k++)
            if (c->series[i].x[k] > v->task + 0.5 && isfinite(c->series[i].y[k])) {
                c->series[i].y[k] = NAN;
                any = 1;
            }
    if (!any) return;
    if (y != Y_FIXED) {
        ch_axis_auto_y(c, y != Y_LINEAR);
        if (y == Y_LOG && c->y.scale != CH_LOG10) {
            double lo = c->y.lo > 0 ? c->y.lo : 1, hi = c->y.hi > lo ? c->y.hi : lo * 10;
            ch_axis_log10(&c->y, lo, hi, 8);
        }
    }
    /* first, then what the chart said (an estimate, a mean over seeds): a narrow panel keeps the
     * leading parts */
    char was[sizeof c->note];
    memcpy(was, c->note, sizeof was);
    if (v->task + 1 == v->T) snprintf(c->note, sizeof c->note, "%d hidden (f)", v->T);
    else snprintf(c->note, sizeof c->note, "%d\u2013%d hidden (f)", v->task + 1, v->T);
    size_t len = strlen(c->note);
    if (was[0]) snprintf(c->note + len, sizeof c->note - len, "; %s", was);
}

/* A frame whose title is the first of the candidates that fits whole (the last one is cut if
 * none does). */
static int title_pick(const cv_canvas *cv, const tui_rect *rc, const char *const *titles, int n, int reserve)
{
    int room = rc->w - 6 - reserve, k = 0;
    while (k + 1 < n && cv_text_width(cv, titles[k]) > room) k++;
    return k;
}

static void box_fit(cv_canvas *cv, const tui_rect *rc, const char *const *titles, int n)
{
    int room = rc->w - 6, k = 0;
    while (k + 1 < n && cv_text_width(cv, titles[k]) > room) k++;
    cv_box(cv, rc->x, rc->y, rc->w, rc->h, titles[k], FG, 0);
}

/* Head, tail and overall of one method share its color and dash: tell them apart by the
 * marker letter (o/h/t for the first method, O/H/T for the second). */
static void kind_letters(ch_chart *c, int second)
{
    for (int i = 0; i < c->nseries; i++) {
        ch_series *s = &c->series[i];
        char l = s->kind == CH_KIND_HEAD ? 'h' : s->kind == CH_KIND_TAIL ? 't' : 'o';
        s->letter = s->method == second ? (char)(l - 'a' + 'A') : l;
    }
}

/* The accuracy panel as three small multiples (overall, head, tail; the two methods and the
 * pinned baseline in each) sharing the y axis; the legend sits in the panel's top edge. */
static void multiples(cv_canvas *cv, int x, int y, int w, int h, ch_chart *c, const tui_view *v,
                      const tui_rect *rc, int title_w, const ch_kind *kinds, int nk)
{
    cv_chart_opts lo = {v->color, 1, 1, kinds[0], 0};
    if (rc) {
        /* the legend in the frame's top edge, after the title; its last item ends with a space
         * and one cell of the edge before the corner (items that do not fit are left out) */
        int lx = rc->x + 3 + title_w + 2, room = rc->x + rc->w - 3 - lx;
        if (room > 8) {
            cv_fill(cv, lx - 1, rc->y, room + 1, 1, L' ', FG, 0);
            int used = cv_draw_legend(cv, lx, rc->y, room, c, &lo);
            /* the frame's edge again after the legend (one space after its last item) */
            int end = lx + (used > 1 ? used - 1 : 0);
            cv_fill(cv, end, rc->y, rc->x + rc->w - 1 - end, 1, cv->glyphs == CV_ASCII ? L'-' : 0x2500, FG, 0);
        }
    } else {
        cv_draw_legend(cv, x + 1, y, w - 1, c, &lo);
        y++;
        h--;
    }
    static const char *names[4] = {"", "overall", "head (mean per class)", "tail (mean per class)"};
    static const char *shortn[4] = {"", "overall", "head", "tail"};
    /* the first multiple also holds the y tick labels (4 cells: "100┤") */
    int lw = 4, pw = (w - lw) / nk;
    if (pw < 8) {
        /* too narrow: one chart with the letters of all kinds */
        tui_draw_built(cv, x, y, w, h, c, v);
        return;
    }
    for (int k = 0; k < nk; k++) {
        int cx = k == 0 ? x : x + lw + k * pw, cw = k == 0 ? lw + pw : (k == nk - 1 ? w - lw - k * pw : pw);
        cv_chart_opts o = {v->color, 2, 1, kinds[k], k > 0};
        snprintf(c->y.label, sizeof c->y.label, "%s",
                 cv_text_width(cv, names[kinds[k]]) <= cw - 1 ? names[kinds[k]] : shortn[kinds[k]]);
        char note[sizeof c->note];
        memcpy(note, c->note, sizeof note);
        if (k < nk - 1) c->note[0] = 0; /* one note (pending / hidden tasks) for all */
        draw_built_o(cv, cx, y, cw, h, c, v, &o);
        memcpy(c->note, note, sizeof note);
    }
}

/* The accuracy panel as three small multiples (overall, head, tail; the two methods and the
 * pinned baseline in each) sharing the y axis; the legend sits in the panel's top edge. */
static void accuracy_multiples(cv_canvas *cv, int x, int y, int w, int h, ch_chart *c, const tui_view *v,
                               const tui_rect *rc, int title_w)
{
    static const ch_kind kinds[3] = {CH_KIND_OVERALL, CH_KIND_HEAD, CH_KIND_TAIL};
    multiples(cv, x, y, w, h, c, v, rc, title_w, kinds, 3);
}

/* Draw a chart panel: frame, title, chart with ticks re-picked for the panel size. */
static void chart_panel(cv_canvas *cv, const tui_rect *rc, const char *const *titles, int ntitles, int which,
                        const tui_view *v)
{
    /* the accuracy panel keeps room in its top edge for the legend */
    int reserve = 0;
    if (which == 0 && v->r) {
        int ms[2] = {v->m0, v->m1};
        for (int i = 0; i < 2; i++)
            if (shown(v->r, ms[i]) && (i == 0 || ms[1] != ms[0])) reserve += (int)strlen(v->r->m[ms[i]].name) + 5;
        if (v->base) reserve += 13;
    }
    int tk = title_pick(cv, rc, titles, ntitles, reserve);
    cv_box(cv, rc->x, rc->y, rc->w, rc->h, titles[tk], FG, 0);
    int x = rc->x + 1, y = rc->y + 1, w = rc->w - 2, h = rc->h - 2;
    if (!v->r) {
        cv_text(cv, x + 1, y + h / 2, v->busy ? "computing…" : "pending", w - 2, FG, CV_DIM);
        return;
    }
    if (which != 0) {
        int k = no_spectrum_note(cv, x, y, w, h, v, which == 1);
        if (k < 0) return;
        h -= k;
    }
    ch_chart c;
    int st;
    if (which == 0) st = ch_build_accuracy(&c, v->r, v->base, v->m0, v->m1, v->task);
    else if (which == 1) st = ch_build_spectrum(&c, v->r, v->base, v->m0, v->m1, v->task);
    else st = ch_build_stable_rank(&c, v->r, v->base, v->m0, v->m1, v->task);
    /* --seeds: the mean over the seeds with a ± std band (the spectrum stays the shown seed's) */
    if (st == GS_OK && v->seed_runs && v->nseed_runs > 1 && which != 1)
        st = which == 0 ? ch_add_seed_bands(&c, v->seed_runs, v->nseed_runs)
                        : ch_add_seed_bands_of(&c, v->seed_runs, v->nseed_runs, CH_BAND_STABLE_RANK);
    if (st != GS_OK) {
        tui_wrap_text(cv, x + 1, y + 1, w - 2, h - 1, gs_last_error(), CV_DIM);
        ch_free(&c);
        return;
    }
    if (which != 1) hide_future(&c, v, which == 0 ? Y_FIXED : Y_AUTO);
    if (which == 0) {
        kind_letters(&c, v->m1);
        int tw = cv_text_width(cv, titles[tk]);
        accuracy_multiples(cv, x, y, w, h, &c, v, rc, tw < rc->w - 6 ? tw : rc->w - 6);
    } else
        tui_draw_built(cv, x, y, w, h, &c, v);
    ch_free(&c);
}

/* The lower-left panel: the view chosen with `v`. */
static void lower_panel(cv_canvas *cv, const tui_rect *rc, const tui_view *v)
{
    char title[200], shorter[160];
    if (v->lower == TV_RATIO) {
        /* λ(augmenting)/λ(reference): the reference is the learner alone when shown (as the
         * chart picks it), else the first slot */
        char a[32] = "?", b[32] = "?";
        int ref = v->m0, aug = v->m1;
        if (ch_ratio_second_ref(v->r, v->m0, v->m1)) { ref = v->m1; aug = v->m0; }
        if (shown(v->r, aug)) ch_display_name(v->r->m[aug].name, a, sizeof a);
        if (shown(v->r, ref)) ch_display_name(v->r->m[ref].name, b, sizeof b);
        snprintf(shorter, sizeof shorter, "Eigenvalue ratio λ(%s)/λ(%s)", a, b);
    } else
        snprintf(shorter, sizeof shorter, "%s", tui_view_title(v->lower));
    /* --seeds: the stable rank is the mean over the seeds (once all are in), every other lower
     * view is the shown seed's alone: the title says which */
    if (v->nseeds > 1 && v->params) {
        size_t L = strlen(shorter);
        if (v->lower == TV_STABLE && v->seed_runs && v->nseed_runs > 1)
            snprintf(shorter + L, sizeof shorter - L, " · mean of %d seeds", v->nseed_runs);
        else
            snprintf(shorter + L, sizeof shorter - L, " · seed %llu only (of %d)", (unsigned long long)v->params->seed,
                     v->nseeds);
    }
    snprintf(title, sizeof title, "%s  (v: next view)", shorter);
    const char *titles[3] = {title, shorter, tui_view_short(v->lower)};
    if (v->lower == TV_STABLE) {
        /* the paper's measure, and (without --expand, where the mixes stay in their rows' span)
         * why GSR cannot raise it: as long a title as fits */
        char t1[320], t1b[300], t2[240], t2b[220];
        int ex = v->r && v->r->expand > 0;
        snprintf(t1b, sizeof t1b, "%s (paper's measure%s)", shorter,
                 ex ? "" : "; GSR cannot raise it: its rows stay in their class's span");
        snprintf(t1, sizeof t1, "%s  (v: next view)", t1b);
        snprintf(t2b, sizeof t2b, "%s (paper's measure)", shorter);
        snprintf(t2, sizeof t2, "%s  (v: next view)", t2b);
        const char *st[7] = {t1, t1b, t2, t2b, title, shorter, tui_view_short(v->lower)};
        chart_panel(cv, rc, st, 7, 2, v);
        return;
    }
    box_fit(cv, rc, titles, 3);
    int x = rc->x + 1, y = rc->y + 1, w = rc->w - 2, h = rc->h - 2;
    if (!v->r) {
        cv_text(cv, x + 1, y + h / 2, v->busy ? "computing…" : "pending", w - 2, FG, CV_DIM);
        return;
    }
    if (tui_view_needs_worker(v->lower)) {
        const tui_extra *ex = v->ex;
        if (!ex || (ex->task != v->task && (!v->playing || h <= 3)) || ex->view != v->lower || ex->m0 != v->m0 ||
            ex->m1 != v->m1) {
            char b[64];
            snprintf(b, sizeof b, "computing… (task %d)", v->task);
            cv_text(cv, x + 1, y + h / 2, b, w - 2, FG, CV_DIM);
            return;
        }
        if (ex->task != v->task) {
            /* playing faster than this view computes: the last task it finished, said so on
             * the first row; the task shown by now comes next */
            char b[128];
            snprintf(b, sizeof b, "▶ drawn for task %d while playing; task %d's is next", ex->task, v->task);
            cv_text(cv, x + 1, y, b, w - 2, FG, CV_BOLD);
            y++;
            h--;
        }
        if (ex->st != GS_OK) {
            tui_wrap_text(cv, x + 1, y + 1, w - 2, h - 1, ex->error, CV_DIM);
            return;
        }
        if (v->lower == TV_THEOREM) {
            tui_theorem_text(cv, x, y, w, h, ex, v);
            return;
        }
        if (v->lower == TV_CLAIMS) {
            tui_claims_text(cv, x, y, w, h, ex, v);
            return;
        }
        if (v->lower == TV_LENS) {
            if (!ex->have_lens) tui_wrap_text(cv, x + 1, y + 1, w - 2, h - 1, "no ridge lens data", CV_DIM);
            else lens_view(cv, x, y, w, h, ex, v);
            return;
        }
        if (v->lower == TV_COLLAPSE) {
            ch_chart c;
            if (!ex->have_co || ch_build_collapse(&c, &ex->co) != GS_OK) {
                tui_wrap_text(cv, x + 1, y + 1, w - 2, h - 1, ex->have_co ? gs_last_error() : "no collapse data", CV_DIM);
                return;
            }
            /* the x axis's label on its own row under the tick labels (it rarely fits beside
             * them), then the note (tail median in units of τ), both whole, under the chart */
            char note[sizeof c.note], xl[sizeof c.x.label];
            memcpy(note, c.note, sizeof note);
            memcpy(xl, c.x.label, sizeof xl);
            c.note[0] = 0;
            c.x.label[0] = 0;
            int xr = tui_wrap_text(cv, 0, 0, w - 2, -1, xl, 0), nr = tui_wrap_text(cv, 0, 0, w - 2, -1, note, 0);
            int lab = xr > 0 && h - xr >= CV_CHART_MIN_H + 2 ? xr : 0;
            int nrow = nr > 0 && h - lab - nr >= CV_CHART_MIN_H + 2 ? nr : 0, hc = h - lab - nrow;
            if (!lab) snprintf(c.x.label, sizeof c.x.label, "%s", xl); /* no row to spare: beside the ticks */
            else if (lab == 1) {
                int xw = cv_text_width(cv, xl);
                cv_text(cv, x + w - 1 - xw, y + hc, xl, xw, FG, CV_DIM);
            } else tui_wrap_text(cv, x + 1, y + hc, w - 2, lab, xl, CV_DIM);
            if (nrow) tui_wrap_text(cv, x + 1, y + hc + lab, w - 2, nrow, note, CV_DIM);
            if (!nrow) snprintf(c.note, sizeof c.note, "%s", note); /* no row: the chart's own place */
            tui_draw_built(cv, x, y, w, hc, &c, v);
            ch_free(&c);
            return;
        }
        ch_chart a, b;
        int wl = w * 3 / 5;
        if (w - wl - 1 < CV_CHART_MIN_W + 8) wl = w; /* narrow: accuracy against τ only */
        /* head and tail against τ as small multiples (overall too when there is room) */
        static const ch_kind k3[3] = {CH_KIND_OVERALL, CH_KIND_HEAD, CH_KIND_TAIL};
        int nk = wl >= 60 ? 3 : 2;
        int hc = h;
        if (ch_build_tau_sweep(&a, &ex->ts[0], ex->nts > 1 ? &ex->ts[1] : NULL, ex->tau, CH_TS_ACCURACY) == GS_OK) {
            /* the note (task, best τ) is long: whole, word-wrapped under the two charts */
            char note[sizeof a.note];
            memcpy(note, a.note, sizeof note);
            a.note[0] = 0;
            int nr = tui_wrap_text(cv, 0, 0, w - 2, -1, note, 0);
            if (nr > 0 && h - nr >= CV_CHART_MIN_H + 2) {
                hc = h - nr;
                tui_wrap_text(cv, x + 1, y + hc, w - 2, nr, note, CV_DIM);
            }
            multiples(cv, x, y, wl, hc, &a, v, NULL, 0, k3 + 3 - nk, nk);
            ch_free(&a);
        }
        if (wl < w &&
            ch_build_tau_sweep(&b, &ex->ts[0], ex->nts > 1 ? &ex->ts[1] : NULL, ex->tau, CH_TS_STABLE_RANK) == GS_OK) {
            tui_draw_built(cv, x + wl + 1, y + 1, w - wl - 1, hc - 1, &b, v);
            ch_free(&b);
        }
        return;
    }
    if (v->lower == TV_ERANK || v->lower == TV_RATIO) {
        int k = no_spectrum_note(cv, x, y, w, h, v, 0);
        if (k < 0) return;
        if (k > 0 && v->lower == TV_RATIO) {
            static const char why[] = "the ratio needs two ridge methods (keys m / M)";
            int room = h - k, nr = tui_wrap_text(cv, 0, 0, w - 2, -1, why, 0), top = (room - nr) / 2;
            if (top < 0) top = 0;
            tui_wrap_text(cv, x + 1, y + top, w - 2, room - top, why, CV_DIM);
            return;
        }
        h -= k;
    }
    ch_chart c[2];
    int n = 0;
    if (v->lower == TV_ERANK) {
        if (ch_build_erank_cond(&c[0], v->r, v->m0, v->m1, v->task, CH_ERANK) == GS_OK) n = 1;
        if (n == 1 && ch_build_erank_cond(&c[1], v->r, v->m0, v->m1, v->task, CH_COND) == GS_OK) n = 2;
    } else if (v->lower == TV_CLASS) {
        if (ch_build_class_acc(&c[0], v->r, v->m0, v->m1, v->task) == GS_OK) n = 1;
    } else if (ch_build_eig_ratio(&c[0], v->r, v->m0, v->m1, v->task) == GS_OK) {
        n = 1;
    }
    if (n == 0) {
        tui_wrap_text(cv, x + 1, y + 1, w - 2, h - 1, gs_last_error(), CV_DIM);
        return;
    }
    if (v->lower == TV_ERANK)
        for (int i = 0; i < n; i++) hide_future(&c[i], v, i == 0 ? Y_LINEAR : Y_LOG);
    if (n == 1) tui_draw_built(cv, x, y, w, h, &c[0], v);
    else {
        tui_draw_built(cv, x, y, w / 2, h, &c[0], v);
        tui_draw_built(cv, x + w / 2 + 1, y, w - w / 2 - 1, h, &c[1], v);
    }
    for (int i = 0; i < n; i++) ch_free(&c[i]);
}

static void param_delta(tui_param p, double cur, double base, char *buf, int n)
{
    if (!isfinite(base)) { buf[0] = 0; return; }
    if (cur == base) { snprintf(buf, (size_t)n, "="); return; }
    if (tui_param_ratio(p) && base > 0 && cur > 0)
        snprintf(buf, (size_t)n, "×%.3g", cur / base);
    else
        snprintf(buf, (size_t)n, "%+.3g", cur - base);
}

static void params_panel(cv_canvas *cv, const tui_rect *rc, const tui_view *v)
{
    /* the title says what the srank column is (the help says more) */
    static const char *const titles[3] = {"Parameters · srank = stable rank (?)", "Parameters · srank = stable rank",
                                          "Parameters"};
    box_fit(cv, rc, titles, 3);
    int x = rc->x + 1, y = rc->y + 1, w = rc->w - 2, h = rc->h - 2;
    int c1 = x + 1, c2 = x + 9, c3 = x + 9 + (w - 10) / 3, c4 = x + 9 + 2 * (w - 10) / 3;
    int row = y;
    cv_text(cv, c2, row, "current", c3 - c2 - 1, FG, CV_BOLD);
    cv_text(cv, c3, row, v->base ? "baseline" : "(b pins)", c4 - c3 - 1, FG, v->base ? CV_BOLD : CV_DIM);
    cv_text(cv, c4, row, "Δ", x + w - c4, FG, CV_BOLD);
    row++;
    for (int p = 0; p < tui_param_count() && row < y + h; p++, row++) {
        int sel = p == v->sel;
        unsigned char at = sel ? CV_REVERSE : 0;
        if (sel) cv_fill(cv, x, row, w, 1, L' ', FG, at);
        cv_text(cv, x, row, sel ? "▸" : " ", 1, FG, at | CV_BOLD);
        cv_text(cv, c1, row, tui_param_label((tui_param)p), c2 - c1 - 1, FG, at | CV_BOLD);
        char b[32];
        double cur = tui_param_get(v->params, (tui_param)p);
        if (sel && v->edit) {
            snprintf(b, sizeof b, "%s▏", v->edit);
            cv_text(cv, c2, row, b, c3 - c2 - 1, FG, CV_UNDERLINE);
        } else {
            tui_param_format((tui_param)p, cur, b, sizeof b);
            cv_text(cv, c2, row, b, c3 - c2 - 1, FG, at);
        }
        if (v->base && v->base_params) {
            double bv = tui_param_get(v->base_params, (tui_param)p);
            tui_param_format((tui_param)p, bv, b, sizeof b);
            cv_text(cv, c3, row, b, c4 - c3 - 1, FG, at | CV_DIM);
            param_delta((tui_param)p, cur, bv, b, sizeof b);
            cv_text(cv, c4, row, b, x + w - c4, FG, at | (cur != bv ? CV_BOLD : CV_DIM));
        }
    }
    /* numbers at the current task */
    if (row + 1 >= y + h) return;
    char hdr[128];
    snprintf(hdr, sizeof hdr, "task %d", v->task);
    if (strlen(hdr) > 6) snprintf(hdr, sizeof hdr, "t %d", v->task);
    int n0 = x + 1, n1 = x + 8, step = (w - 8) / 5;
    if (step < 5) step = 5;
    cv_text(cv, n0, row, hdr, 6, FG, CV_DIM);
    static const char *cols[5] = {"acc", "head", "tail", "srank", "κ"};
    for (int k = 0; k < 5; k++) cv_text(cv, n1 + k * step, row, cols[k], step - 1, FG, CV_BOLD);
    row++;
    int ms[2] = {v->m0, v->m1};
    for (int i = 0; i < 2 && row < y + h; i++) {
        if (!v->r || ms[i] < 0 || ms[i] >= v->r->n_methods) continue;
        const en_method_result *mr = &v->r->m[ms[i]];
        const en_snap *s = snap_at(v->r, ms[i], v->task);
        char name[32], b[5][24];
        ch_display_name(mr->name, name, sizeof name);
        uint32_t rgb;
        char letter;
        ch_method_style(mr->name, i, &rgb, NULL, NULL, &letter);
        if (!v->color) rgb = FG;
        cv_text(cv, n0, row, name, 6, rgb, CV_BOLD);
        tui_fmt_pct(s, s ? s->acc : NAN, b[0], 24);
        tui_fmt_pct(s, s ? s->head_acc : NAN, b[1], 24);
        tui_fmt_pct(s, s ? s->tail_acc : NAN, b[2], 24);
        fmt_sci(s, s ? s->stable_rank : NAN, s && (s->flags & EN_LMAX_EST), b[3], 24);
        fmt_sci(s, s ? s->cond : NAN, s && (s->flags & (EN_LMAX_EST | EN_LMIN_EST)), b[4], 24);
        for (int k = 0; k < 5; k++) cv_text(cv, n1 + k * step, row, b[k], step - 1, rgb, 0);
        row++;
        /* with --val-frac: the same three numbers on the validation rows, dim, labelled "val" */
        if (s && s->val_rows > 0 && row < y + h) {
            cv_text(cv, n0, row, "  val", 6, rgb, CV_DIM);
            tui_fmt_pct(s, s->val_acc, b[0], 24);
            tui_fmt_pct(s, s->val_head_acc, b[1], 24);
            tui_fmt_pct(s, s->val_tail_acc, b[2], 24);
            for (int k = 0; k < 3; k++) cv_text(cv, n1 + k * step, row, b[k], step - 1, rgb, CV_DIM);
            row++;
        }
        /* with --seeds: the mean of the three over the seeds (the row above is the first seed's) */
        if (v->seed_runs && row < y + h) {
            cv_text(cv, n0, row, "  mean", 6, rgb, CV_DIM);
            for (int k = 0; k < 3; k++) {
                double x3[TUI_MAX_SEEDS], mean, sd;
                int done = 1;
                for (int j = 0; j < v->nseed_runs; j++) {
                    const en_snap *sj = snap_at(v->seed_runs[j], ms[i], v->task);
                    done &= sj && sj->state == EN_DONE;
                    x3[j] = !sj ? NAN : k == 0 ? sj->acc : k == 1 ? sj->head_acc : sj->tail_acc;
                }
                gs_mean_sd(x3, v->nseed_runs, &mean, &sd, NULL);
                if (!done) snprintf(b[k], 24, "…");
                else if (!isfinite(mean)) snprintf(b[k], 24, "—");
                else snprintf(b[k], 24, "%.1f", mean);
                cv_text(cv, n1 + k * step, row, b[k], step - 1, rgb, CV_DIM);
            }
            row++;
        }
    }
    /* Δ against the baseline (accuracy points), when pinned and there is room */
    for (int i = 0; i < 2 && v->base && row < y + h; i++) {
        if (!v->r || ms[i] < 0 || ms[i] >= v->r->n_methods) continue;
        const en_snap *s = snap_at(v->r, ms[i], v->task);
        int bm = -1;
        for (int j = 0; j < v->base->n_methods; j++)
            if (!strcmp(v->base->m[j].name, v->r->m[ms[i]].name)) bm = j;
        const en_snap *bs = snap_at(v->base, bm, v->task);
        if (!s || !bs) continue;
        char name[32], lbl[40];
        ch_display_name(v->r->m[ms[i]].name, name, sizeof name);
        snprintf(lbl, sizeof lbl, "Δ%s", name);
        cv_text(cv, n0, row, lbl, 6, FG, CV_DIM);
        double cur[3] = {s->acc, s->head_acc, s->tail_acc}, old[3] = {bs->acc, bs->head_acc, bs->tail_acc};
        for (int k = 0; k < 3; k++) {
            char b[24];
            if (s->state != EN_DONE || bs->state != EN_DONE || !isfinite(cur[k]) || !isfinite(old[k]))
                snprintf(b, sizeof b, "…");
            else snprintf(b, sizeof b, "%+.1f", cur[k] - old[k]);
            cv_text(cv, n1 + k * step, row, b, step - 1, FG, CV_DIM);
        }
        row++;
    }
    /* what the two last columns are, at the panel's foot when there is room (one row kept free) */
    static const char cols_note[] = "srank: stable rank of G+τI, Σλᵢ²/λ_max² (near 1: one direction dominates); "
                                    "κ: condition number λ_max/λ_min; ? explains every number";
    int nr = tui_wrap_text(cv, 0, 0, w - 2, -1, cols_note, 0);
    if (y + h - row >= nr + 1) tui_wrap_text(cv, x + 1, y + h - nr, w - 2, nr, cols_note, CV_DIM);
}

/* The status line: the parts that fit, most important first (task, play state, computing
 * mark, tour, precision when single, data, preset, speed, the name of the program); never a part cut in the middle. */
static void status_bar(cv_canvas *cv, const tui_rect *rc, const tui_view *v)
{
    cv_fill(cv, rc->x, rc->y, rc->w, 1, L' ', FG, CV_REVERSE);
    static const char *spin[4] = {"⟳", "◴", "◷", "◶"};
    char part[10][160];
    int keep[10] = {0}, np = 0;
    snprintf(part[np++], 160, "gsrscope");                                            /* 0 */
    snprintf(part[np++], 160, "Task %d/%d", v->task, v->T);                           /* 1 */
    /* the playback rate ([ and ] change it): with the play state while playing, on its own
     * (less important) while paused: "▶ playing 2 tasks/s", "⏸ paused" … "play speed 1 task/s" */
    char rate[40];
    snprintf(rate, sizeof rate, "%.3g task%s/s", v->speed, v->speed > 1 ? "s" : "");
    if (v->playing) snprintf(part[np++], 160, "▶ playing %s", rate);                 /* 2 */
    else snprintf(part[np++], 160, "⏸ paused");
    if (v->playing) part[np][0] = 0;
    else snprintf(part[np], 160, "play speed %s", rate);
    np++;                                                                             /* 3 */
    /* what the worker computes, named (tw_work): the update of the results with its fraction
     * (never 100 % while something still runs: the next step is named instead), else the step
     * itself ("ridge lens, task 10: eigendecomposition of G (GSR), about 0.4 s (estimate)"), its
     * part before the ':' where the whole does not fit; a bare "computing" only while unnamed */
    char shortw[160];
    int wide = 0;
    snprintf(shortw, sizeof shortw, "%s", v->work);
    if (strchr(shortw, ':')) *strchr(shortw, ':') = 0;
    if (v->factoring) snprintf(part[np], 160, "%s preparing fast τ for task %d", spin[v->spinner & 3], v->factoring);
    else if (v->busy && v->updating && v->progress < 1 && v->pending[0])
        snprintf(part[np], 160, "%s computing results %.0f%%, tasks %s pending", spin[v->spinner & 3], 100 * v->progress,
                 v->pending);
    else if (v->busy && v->updating && v->progress < 1)
        snprintf(part[np], 160, "%s computing results %.0f%%", spin[v->spinner & 3], 100 * v->progress);
    else if (v->busy && v->work[0]) {
        snprintf(part[np], 160, "%s computing %.120s", spin[v->spinner & 3], v->work);
        wide = 1;
    } else if (v->busy) snprintf(part[np], 160, "%s computing", spin[v->spinner & 3]);
    else if (v->ahead) snprintf(part[np], 160, "ahead: task %d's ridge lens", v->ahead);
    else part[np][0] = 0;
    np++;                                                                             /* 4 */
    snprintf(part[np++], 160, "data: %s", v->data_name ? v->data_name : "?");         /* 5 */
    if (v->preset && *v->preset) snprintf(part[np], 160, "preset: %s", v->preset);
    else part[np][0] = 0;
    np++;                                                                             /* 6 */
    if (v->tour_name && *v->tour_name) snprintf(part[np], 160, "tour: %s", v->tour_name);
    else part[np][0] = 0;
    np++;                                                                             /* 7 */
    /* --seeds: how many, and whether the mean is shown yet (the other seeds run after the first) */
    if (v->nseeds > 1) snprintf(part[np], 160, "%d seeds%s", v->nseeds, v->seed_runs ? "" : " (mean pending)");
    else part[np][0] = 0;
    np++;                                                                             /* 8 */
    snprintf(part[np++], 160, "%s", v->single ? "single precision" : "");             /* 9 */
    static const int order[10] = {1, 2, 8, 4, 7, 9, 5, 6, 3, 0};
    int used = 1;
    for (int k = 0; k < 10; k++) {
        int i = order[k];
        if (!part[i][0]) continue;
        int need = cv_text_width(cv, part[i]) + 3;
        if (i == 4 && wide && used + need > rc->w) { /* the work's name alone */
            snprintf(part[i], 160, "%s computing %.120s", spin[v->spinner & 3], shortw);
            need = cv_text_width(cv, part[i]) + 3;
        }
        if (used + need <= rc->w) { keep[i] = 1; used += need; }
    }
    int x = rc->x + 1, first = 1;
    for (int i = 0; i < np; i++) {
        if (!keep[i]) continue;
        if (!first) x += cv_text(cv, x, rc->y, " │ ", -1, FG, CV_REVERSE | CV_BOLD);
        x += cv_text(cv, x, rc->y, part[i], -1, FG, CV_REVERSE | CV_BOLD);
        first = 0;
    }
}

/* Rows the message needs at width w (0 when there is none). */
static int message_rows(const cv_canvas *cv, const tui_view *v, int w)
{
    if (!v->message || !*v->message) return 0;
    char b[600];
    snprintf(b, sizeof b, " %s", v->message);
    return tui_wrap_text((cv_canvas *)cv, 0, 0, w - 2, -1, b, 0);
}

int tui_claims_page(int cols, int rows, const char *message, cv_glyphs g)
{
    cv_canvas one;
    tui_view v;
    memset(&v, 0, sizeof v);
    v.message = message;
    int mr = 1;
    if (cv_init(&one, 1, 1, g) == GS_OK) {
        mr = message_rows(&one, &v, cols);
        cv_free(&one);
    }
    tui_layout l;
    if (tui_layout_compute_msg(cols, rows, mr, &l) != 0) return 1;
    /* the panel's inner rows, less the "rows a–b of n" line, less the row kept in view */
    int page = l.stable.h - 2 - 1 - 1;
    return page > 1 ? page : 1;
}

static void message_area(cv_canvas *cv, const tui_rect *rc, const tui_view *v)
{
    cv_fill(cv, rc->x, rc->y, rc->w, rc->h, L' ', FG, 0);
    if ((!v->message || !*v->message) && v->r && v->task == 1 && !v->playing && v->tour_step <= 0) {
        /* the first screen: what to watch and the key to see it, on one row */
        char b[400];
        tui_first_line(cv, v->r, v->m0, v->m1, v->T, rc->w - 2, b, sizeof b);
        cv_text(cv, rc->x + 1, rc->y, b, rc->w - 2, FG, CV_BOLD);
        return;
    }
    if (!v->message || !*v->message) return;
    char b[600];
    snprintf(b, sizeof b, "%s%s", v->message_error ? "✗ " : "", v->message);
    tui_wrap_text(cv, rc->x + 1, rc->y, rc->w - 2, rc->h, b, v->message_error ? CV_BOLD : 0);
}

/* A failed method at this task (e.g. τ = 0 with a singular G) says why on the message line:
 * "gacl, task 1: G + τI is not positive definite ...; raise --tau". */
static const char *failure_text(const tui_view *v)
{
    if (v->r && v->task >= 1 && v->task <= v->r->T)
        for (int m = 0; m < v->r->n_methods; m++) {
            const en_snap *sn = &v->r->m[m].snaps[v->task - 1];
            if (sn->state == EN_FAILED && sn->error[0]) return sn->error;
        }
    return NULL;
}

/* Help: the key table and what every number means, word-wrapped to the box and scrolled with
 * ↑ ↓ PgUp PgDn (any other key closes it). Returns the number of wrapped rows. */
int tui_help_rows(const cv_canvas *cv, int w, char (*out)[TUI_HELP_LEN], int max)
{
    static char lines[TUI_HELP_MAX][TUI_HELP_LEN];
    int n = tui_help_lines(lines, TUI_HELP_MAX), m = 0;
    for (int i = 0; i < n && m < max; i++) {
        /* continuation rows of a key line are indented under its text (9 cells) */
        const char *p = lines[i];
        int indent = lines[i][0] && lines[i][0] != ' ' && strstr(lines[i], "  ") ? 9 : 0;
        if (!*p) { out[m++][0] = 0; continue; }
        int first = 1;
        while (*p && m < max) {
            int room = first ? w : w - indent;
            /* take as many whole words as fit in room cells */
            const char *q = p, *cut = NULL;
            int cells = 0;
            while (*q) {
                if (*q == ' ') cut = q;
                const char *c0 = q;
                q++;
                while (*q && (*(const unsigned char *)q & 0xC0) == 0x80) q++;
                char one[8];
                snprintf(one, sizeof one, "%.*s", (int)(q - c0), c0);
                if ((cells += cv_text_width(cv, one)) > room) break; /* a combining mark: 0 */
            }
            if (!*q && cells <= room) cut = q;
            else if (!cut || cut == p) cut = q; /* one long word: split */
            snprintf(out[m], TUI_HELP_LEN, "%*s%.*s", first ? 0 : indent, "", (int)(cut - p), p);
            m++;
            p = cut;
            while (*p == ' ') p++;
            first = 0;
        }
    }
    (void)cv;
    return m;
}

static void help_overlay(cv_canvas *cv, const tui_view *v)
{
    int w = cv->w - 2 > 100 ? 100 : cv->w - 2, h = cv->h - 2;
    static char rows[400][TUI_HELP_LEN];
    int n = tui_help_rows(cv, w - 4, rows, 400);
    int shown = h - 3;
    int top = v->help_scroll;
    if (top > n - shown) top = n - shown;
    if (top < 0) top = 0;
    int x = (cv->w - w) / 2, y = (cv->h - h) / 2;
    cv_fill(cv, x, y, w, h, L' ', FG, 0);
    cv_box(cv, x, y, w, h, "Help — keys and numbers", FG, CV_BOLD);
    for (int i = 0; i < shown && top + i < n; i++) cv_text(cv, x + 2, y + 1 + i, rows[top + i], w - 4, FG, 0);
    char foot[160];
    if (shown < n)
        snprintf(foot, sizeof foot, "lines %d–%d of %d · ↑ ↓ PgUp PgDn scroll · any other key closes", top + 1,
                 top + shown < n ? top + shown : n, n);
    else snprintf(foot, sizeof foot, "any key closes");
    cv_text(cv, x + 2, y + h - 2, foot, w - 4, FG, CV_DIM);
}

/* A tour step: the panel it points at gets a reversed top edge; its text goes in a box over the
 * other half of the screen (below a top panel, above a bottom one), never cut: word-wrapped. */
static void tour_overlay(cv_canvas *cv, const tui_layout *l, const tui_view *v)
{
    const tr_step *s = v->tour;
    tui_rect pr = {0, 0, 0, 0};
    int top_half = 1;
    switch (s->panel) {
    case TR_PANEL_ACCURACY: pr = l->accuracy; break;
    case TR_PANEL_SPECTRUM: pr = l->spectrum; break;
    case TR_PANEL_LOWER:
        pr = l->stable;
        if (tui_view_wide(v->lower)) pr.w += l->params.w;
        top_half = 0;
        break;
    case TR_PANEL_PARAMS: pr = l->params; top_half = 0; break;
    default: top_half = 1; break;
    }
    if (pr.w > 0)
        for (int x = pr.x; x < pr.x + pr.w; x++) {
            cv_cell *c = cv_at(cv, x, pr.y);
            if (c) c->attr |= CV_REVERSE | CV_BOLD;
        }
    int w = cv->w - 4 > 110 ? 110 : cv->w - 4, inner = w - 4;
    char title[200], foot[120];
    snprintf(title, sizeof title, "Tour %s · step %d/%d: %s", v->tour_name ? v->tour_name : "", v->tour_step, v->tour_n,
             s->title);
    snprintf(foot, sizeof foot, "n next step · p back · Esc leaves the tour%s",
             pr.w > 0 ? " · the highlighted panel is the one to look at" : "");
    int rows = tui_wrap_text(cv, 0, 0, inner, -1, title, 0) + tui_wrap_text(cv, 0, 0, inner, -1, foot, 0);
    char text[TR_MAX_TEXT][400]; /* the step's lines, placeholders filled from the run shown */
    for (int i = 0; i < s->ntext; i++) {
        tui_tour_fill(v, s->text[i], text[i], sizeof text[i]);
        rows += tui_wrap_text(cv, 0, 0, inner, -1, text[i], 0);
    }
    int h = rows + 2, body_top = l->accuracy.y, body_bot = l->message.y;
    if (h > body_bot - body_top) h = body_bot - body_top;
    int x = (cv->w - w) / 2, y = top_half ? body_bot - h : body_top;
    cv_fill(cv, x, y, w, h, L' ', FG, 0);
    cv_box(cv, x, y, w, h, NULL, FG, CV_BOLD);
    int r = y + 1, end = y + h - 1;
    r += tui_wrap_text(cv, x + 2, r, inner, end - r, title, CV_BOLD);
    for (int i = 0; i < s->ntext && r < end; i++) r += tui_wrap_text(cv, x + 2, r, inner, end - r, text[i], 0);
    if (r < end) tui_wrap_text(cv, x + 2, r, inner, end - r, foot, CV_DIM);
}

void tui_draw(cv_canvas *cv, const tui_view *v)
{
    cv_clear(cv);
    tui_layout l;
    char msgbuf[600] = "";
    tui_view vv = *v;
    const char *fail = failure_text(v);
    if (fail && !(v->message && *v->message)) {
        snprintf(msgbuf, sizeof msgbuf, "%s", fail);
        vv.message = msgbuf;
        vv.message_error = 1;
    }
    v = &vv;
    if (tui_layout_compute_msg(cv->w, cv->h, message_rows(cv, v, cv->w), &l) != 0) {
        /* Word-wrapped so that even a 10-column terminal shows the size it needs first. */
        char b[256];
        snprintf(b, sizeof b, "need at least %dx%d (terminal too small: %dx%d). Enlarge it, or press q to quit.",
                 TUI_MIN_COLS, TUI_MIN_ROWS, cv->w, cv->h);
        int y = 0, w = cv->w > 0 ? cv->w : 1;
        const char *p = b;
        while (*p && y < cv->h) {
            while (*p == ' ') p++;
            int len = (int)strlen(p), cut = len;
            if (len > w) {
                cut = w;
                while (cut > 0 && p[cut] != ' ') cut--;
                if (cut == 0) cut = w; /* a word longer than the line: split it */
            }
            char line[256];
            snprintf(line, sizeof line, "%.*s", cut, p);
            cv_text(cv, 0, y, line, cv->w, FG, y == 0 ? CV_BOLD : 0);
            y++;
            p += cut;
        }
        return;
    }
    status_bar(cv, &l.status, v);
    char pn[80], at[160], sp[200], sp2[120];
    pair_names(v->r, v->m0, v->m1, pn, sizeof pn);
    tui_accuracy_title(v->r, v->m0, v->m1, at, sizeof at);
    char a1[120];
    snprintf(a1, sizeof a1, "Accuracy (%%)%s%s", pn[0] ? " — " : "", pn);
    const char *atitles[3] = {a1, "Accuracy (%)", "Accuracy"};
    (void)at;
    /* a learner without G shows its own matrix (its legend names it): then not "of G+τI" */
    int own = 0;
    for (int i = 0; v->r && i < 2; i++) {
        int m = i ? v->m1 : v->m0;
        own |= m >= 0 && m < v->r->n_methods && !v->r->m[m].ridge && v->r->m[m].spectrum_of[0];
    }
    snprintf(sp, sizeof sp, "Eigenspectrum — %s%slog10 λ%s", pn, pn[0] ? ": " : "", own ? "" : " of G+τI");
    snprintf(sp2, sizeof sp2, "Eigenspectrum%s%s", pn[0] ? " — " : "", pn);
    const char *stitles[4] = {sp, sp2, own ? "Eigenspectrum" : "Eigenspectrum of G+τI", "Spectrum"};
    chart_panel(cv, &l.accuracy, atitles, 3, 0, v);
    chart_panel(cv, &l.spectrum, stitles, 4, 1, v);
    if (tui_view_wide(v->lower)) {
        /* claims and collapse take the whole lower row */
        tui_rect wide = {l.stable.x, l.stable.y, l.stable.w + l.params.w, l.stable.h};
        lower_panel(cv, &wide, v);
    } else {
        lower_panel(cv, &l.stable, v);
        params_panel(cv, &l.params, v);
    }
    message_area(cv, &l.message, v);
    tui_hint_bar(cv, &l.hint, v);
    if (v->tour && v->tour_step > 0) tour_overlay(cv, &l, v);
    if (v->help) help_overlay(cv, v);
}

/* The ridge lens: the filter factors λᵢ/(λᵢ+τ) per eigen-direction (left) and, per method, df(τ),
 * the medians of the head's and the tail's class directions above τ and the accuracies (right);
 * the explanation word-wrapped under the table, never cut. */
static void lens_view(cv_canvas *cv, int x, int y, int w, int h, const tui_extra *ex, const tui_view *v)
{
    const rl_result *l = &ex->lens;
    enum { TW = 37 };
    int tw = w >= TW + CV_CHART_MIN_W + 8 ? TW : w - 1, cw = w - tw - 1;
    if (cw >= CV_CHART_MIN_W + 8) {
        ch_chart c;
        if (ch_build_lens_filter(&c, l) == GS_OK) {
            c.note[0] = 0; /* df is in the table */
            c.x.label[0] = 0;
            snprintf(c.y.label, sizeof c.y.label, "λ/(λ+τ)");
            tui_draw_built(cv, x, y, cw, h, &c, v);
            ch_free(&c);
        }
    } else cw = -1;
    int tx = x + cw + 1, row = y;
    char b[160];
    snprintf(b, sizeof b, "task %d · τ = %.3g · %ld directions", l->task, l->n ? l->tau[0] : NAN, l->D);
    cv_text(cv, tx, row++, b, tw, FG, CV_DIM);
    static const char *cols[4] = {"df(τ)", "head>τ", "tail>τ", "tail%"};
    int ncol = tw >= 8 + 7 * 4 ? 4 : 3; /* narrow: without the tail accuracy (the parameters show it) */
    for (int k = 0; k < ncol; k++) cv_text(cv, tx + 8 + 7 * k, row, cols[k], 7, FG, CV_BOLD);
    row++;
    for (int i = 0; i < l->n && row < y + h; i++, row++) {
        char nm[32];
        ch_display_name(l->key[i], nm, sizeof nm);
        uint32_t rgb;
        ch_method_style(l->key[i], !strcmp(l->key[i], "gacl") ? 0 : !strcmp(l->key[i], "gsr") ? 1 : 2 + i, &rgb, NULL,
                        NULL, NULL);
        if (!v->color) rgb = FG;
        cv_text(cv, tx, row, nm, 7, rgb, CV_BOLD);
        double val[4] = {l->df[i], l->head_above[i], l->tail_above[i], l->tail_acc[i]};
        for (int k = 0; k < ncol; k++) {
            if (!isfinite(val[k])) snprintf(b, sizeof b, "—");
            else snprintf(b, sizeof b, k == 0 || k == 3 ? "%.1f" : "%.2f", val[k]);
            cv_text(cv, tx + 8 + 7 * k, row, b, 6, rgb, 0);
        }
    }
    static const char why[] = "df(τ) = Σ λ/(λ+τ): directions the ridge keeps. >τ: median share of a class's "
                              "direction where λ > τ; below τ the ridge shrinks it away.";
    /* the explanation whole, or where it does not fit a pointer to the help's */
    const char *say = tui_wrap_text(cv, 0, 0, tw, -1, why, 0) <= y + h - row ? why : "? explains these numbers";
    if (row < y + h) tui_wrap_text(cv, tx, row, tw, y + h - row, say, CV_DIM);
}
