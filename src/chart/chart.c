/* chart/chart.c — the pure chart model shared by the TUI and the figure export (see gs_chart.h).
 * No curses, no cairo: ticks, axis mapping, series built from en_results, CSV. */
#include "gs_chart.h"
#include "gs_common.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- numbers ---------------------------------------------------------------------------- */

const char *ch_fmt_double(double v, char *buf, size_t n)
{
    if (isnan(v)) { snprintf(buf, n, "nan"); return buf; }
    if (isinf(v)) { snprintf(buf, n, v > 0 ? "inf" : "-inf"); return buf; }
    snprintf(buf, n, "%.15g", v);
    if (strtod(buf, NULL) != v) snprintf(buf, n, "%.17g", v);
    return buf;
}

void ch_display_name(const char *name, char *out, size_t n)
{
    if (!n) return;
    size_t i = 0;
    for (; name && name[i] && i + 1 < n; i++) out[i] = (char)toupper((unsigned char)name[i]);
    out[i] = '\0';
}

/* ---- styles ----------------------------------------------------------------------------- */

/* Each known method its own letter (tests/test_chart.c checks they differ). */
static const struct { const char *name; char letter; } known_letters[] = {
    {"gacl", 'A'}, {"gsr", 'R'}, {"gauss-shrink", 'S'}, {"gauss-transfer", 'T'},
    {"slda", 'L'}, {"ridge", 'I'}, {"ncm", 'N'}, {"air", 'W'}, {"gsr-linear", 'M'},
    {"gsr-fixed", 'F'}, {"interclass", 'C'}, {"ranpac", 'P'}, {"anacp", 'Y'}, {"fecam", 'E'}, {"klda", 'K'},
    {"oversample", 'O'},
};

void ch_method_style(const char *name, int slot, uint32_t *rgb, ch_dash *dash, ch_marker *marker,
                     char *letter)
{
    /* Slot 0/1: the GACL / GSR styles of gsrscope(7), FIGURES. Further slots: Tableau colours that stay apart
     * from red and blue, each with its own dash and marker. */
    static const uint32_t more_rgb[] = {0xf28e2b, 0x59a14f, 0xb07aa1, 0x9c755f, 0x76b7b2, 0xedc948};
    static const ch_dash more_dash[] = {CH_DASH_DOTTED, CH_DASH_DASHED, CH_DASH_SOLID};
    static const ch_marker more_mark[] = {CH_MARK_TRIANGLE, CH_MARK_DIAMOND, CH_MARK_CROSS};
    uint32_t c;
    ch_dash d;
    ch_marker m;
    char l = 0;
    if (slot <= 0) {
        c = 0xe15759; d = CH_DASH_DASHED; m = CH_MARK_CIRCLE; l = 'A';
    } else if (slot == 1) {
        c = 0x4e79a7; d = CH_DASH_SOLID; m = CH_MARK_SQUARE; l = 'R';
    } else {
        int k = slot - 2;
        c = more_rgb[k % 6]; d = more_dash[k % 3]; m = more_mark[k % 3];
    }
    /* The letter names the method when it is known, so "GSR" is always 'R'. */
    if (name) {
        int found = 0;
        for (size_t i = 0; i < sizeof known_letters / sizeof known_letters[0]; i++)
            if (strcmp(name, known_letters[i].name) == 0) { l = known_letters[i].letter; found = 1; }
        if (!found && slot >= 2) {
            for (const char *p = name; *p; p++)
                if (isalnum((unsigned char)*p)) { l = (char)toupper((unsigned char)*p); break; }
        }
    }
    if (!l) l = (char)('0' + (slot % 10));
    if (rgb) *rgb = c;
    if (dash) *dash = d;
    if (marker) *marker = m;
    if (letter) *letter = l;
}

/* ---- ticks ------------------------------------------------------------------------------ */

/* Heckbert's nice number: 1, 2, 5 × 10^k (rounded or ceiling). */
static double nicenum(double x, int round_it)
{
    double e = floor(log10(x));
    double p = pow(10.0, e);
    double f = x / p, nf;
    if (round_it) nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
    else nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return nf * p;
}

/* The next nice step above `step` (1 -> 2 -> 5 -> 10). */
static double next_nice(double step)
{
    double e = floor(log10(step) + 1e-9);
    double p = pow(10.0, e);
    double f = step / p;
    if (f < 1.5) return 2 * p;
    if (f < 3.5) return 5 * p;
    return 10 * p;
}

static void label_linear(ch_axis *ax, double step)
{
    double mx = 0;
    for (int i = 0; i < ax->nticks; i++) mx = fmax(mx, fabs(ax->ticks[i]));
    int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    int sci = mx >= 1e6 || (mx > 0 && mx < 1e-4);
    int sig = mx > 0 ? (int)floor(log10(mx) + 1e-9) - (int)floor(log10(step) + 1e-9) + 1 : 1;
    if (sig < 1) sig = 1;
    if (sig > 9) sig = 9;
    for (int i = 0; i < ax->nticks; i++) {
        char *s = ax->tick_labels[i];
        size_t n = sizeof ax->tick_labels[i];
        if (sci) snprintf(s, n, "%.*g", sig, ax->ticks[i]);
        else snprintf(s, n, "%.*f", dec, ax->ticks[i]);
        /* never print a negative zero ("-0", "-0.00") */
        if (s[0] == '-' && strspn(s + 1, "0.") == strlen(s + 1)) memmove(s, s + 1, strlen(s));
    }
}

/* Ticks k·step inside [lo, hi]. */
static int count_ticks(double lo, double hi, double step)
{
    double a = ceil(lo / step - 1e-9), b = floor(hi / step + 1e-9);
    return b >= a ? (int)(b - a) + 1 : 0;
}

static void fill_linear(ch_axis *ax, double step)
{
    double a = ceil(ax->lo / step - 1e-9), b = floor(ax->hi / step + 1e-9);
    ax->nticks = 0;
    for (double k = a; k <= b && ax->nticks < CH_MAX_TICKS; k += 1) {
        double v = k * step;
        if (fabs(v) < step * 1e-9) v = 0;
        ax->ticks[ax->nticks++] = v;
    }
    label_linear(ax, step);
}

/* At least 3: a snapped range that straddles zero needs three ticks. */
static int clamp_maxn(int maxn)
{
    if (maxn < 3) return 3;
    if (maxn > CH_MAX_TICKS) return CH_MAX_TICKS;
    return maxn;
}

static void sane_range(double *lo, double *hi)
{
    if (!isfinite(*lo) && !isfinite(*hi)) { *lo = 0; *hi = 1; }
    else if (!isfinite(*lo)) *lo = *hi - 1;
    else if (!isfinite(*hi)) *hi = *lo + 1;
    if (*lo > *hi) { double t = *lo; *lo = *hi; *hi = t; }
    if (*hi - *lo <= 1e-12 * fmax(fabs(*lo), fabs(*hi))) {
        double d = *lo != 0 ? fabs(*lo) * 0.1 : 1;
        *lo -= d; *hi += d;
    }
}

static void linear_ticks(ch_axis *ax, double lo, double hi, int maxn, int snap)
{
    maxn = clamp_maxn(maxn);
    sane_range(&lo, &hi);
    double step = nicenum(nicenum(hi - lo, 0) / (maxn - 1), 1);
    if (ax->integer && step < 1) step = 1;
    for (int guard = 0; guard < 64; guard++) {
        double glo = snap ? floor(lo / step + 1e-9) * step : lo;
        double ghi = snap ? ceil(hi / step - 1e-9) * step : hi;
        if (count_ticks(glo, ghi, step) <= maxn) break;
        step = next_nice(step);
    }
    if (!snap) {
        /* without snapping, a coarse step may leave fewer than two ticks inside: refine */
        for (int guard = 0; guard < 64 && count_ticks(lo, hi, step) < 2; guard++) {
            double e = floor(log10(step) + 1e-9), p = pow(10.0, e), f = step / p;
            double finer = f < 1.5 ? 0.5 * p : f < 3.5 ? p : 2 * p;
            if ((ax->integer && finer < 1) || count_ticks(lo, hi, finer) > maxn) break;
            step = finer;
        }
    }
    if (snap) {
        ax->lo = floor(lo / step + 1e-9) * step;
        ax->hi = ceil(hi / step - 1e-9) * step;
    } else {
        ax->lo = lo;
        ax->hi = hi;
    }
    fill_linear(ax, step);
}

void ch_axis_linear(ch_axis *ax, double lo, double hi, int maxn, int snap)
{
    ax->scale = CH_LINEAR;
    ax->minor = 0;
    ax->integer = 0;
    linear_ticks(ax, lo, hi, maxn, snap);
}

void ch_axis_integer(ch_axis *ax, double lo, double hi, int maxn, int snap)
{
    ax->scale = CH_LINEAR;
    ax->minor = 0;
    ax->integer = 1;
    linear_ticks(ax, lo, hi, maxn, snap);
}

static void log_ticks(ch_axis *ax, int kmin, int kmax, int maxn)
{
    maxn = clamp_maxn(maxn);
    int stride = 1;
    for (;; stride++) {
        int a = (int)ceil((double)kmin / stride), b = (int)floor((double)kmax / stride);
        if (b - a + 1 <= maxn) break;
    }
    ax->nticks = 0;
    for (int k = kmin; k <= kmax && ax->nticks < CH_MAX_TICKS; k++) {
        if (((k % stride) + stride) % stride) continue;
        ax->ticks[ax->nticks] = pow(10.0, k);
        char *s = ax->tick_labels[ax->nticks];
        if (k >= -2 && k <= 3) snprintf(s, sizeof ax->tick_labels[0], "%g", pow(10.0, k));
        else snprintf(s, sizeof ax->tick_labels[0], "1e%d", k);
        ax->nticks++;
    }
    ax->minor = stride == 1 && kmax - kmin <= 10;
}

void ch_axis_log10(ch_axis *ax, double lo, double hi, int maxn)
{
    ax->scale = CH_LOG10;
    ax->integer = 0;
    if (!(hi > 0) || !isfinite(hi)) { lo = 1; hi = 10; }
    if (!(lo > 0) || !isfinite(lo)) lo = hi * 1e-6;
    if (lo > hi) { double t = lo; lo = hi; hi = t; }
    int kmin = (int)floor(log10(lo) + 1e-9);
    int kmax = (int)ceil(log10(hi) - 1e-9);
    if (kmax <= kmin) kmax = kmin + 1;
    ax->lo = pow(10.0, kmin);
    ax->hi = pow(10.0, kmax);
    log_ticks(ax, kmin, kmax, maxn);
}

void ch_axis_retick(ch_axis *ax, int maxn)
{
    if (ax->scale == CH_LOG10) {
        if (!(ax->lo > 0) || !(ax->hi > ax->lo)) { ch_axis_log10(ax, ax->lo, ax->hi, maxn); return; }
        int kmin = (int)ceil(log10(ax->lo) - 1e-9), kmax = (int)floor(log10(ax->hi) + 1e-9);
        if (kmax < kmin) kmax = kmin;
        log_ticks(ax, kmin, kmax, maxn);
        return;
    }
    linear_ticks(ax, ax->lo, ax->hi, maxn, 0);
}

double ch_axis_frac(const ch_axis *ax, double v)
{
    if (isnan(v)) return NAN;
    if (ax->scale == CH_LOG10) {
        if (!(v > 0) || !(ax->lo > 0) || !(ax->hi > 0)) return NAN;
        double a = log10(ax->lo), b = log10(ax->hi);
        return b != a ? (log10(v) - a) / (b - a) : 0.5;
    }
    return ax->hi != ax->lo ? (v - ax->lo) / (ax->hi - ax->lo) : 0.5;
}

/* ---- building charts -------------------------------------------------------------------- */

void ch_free(ch_chart *c)
{
    if (!c) return;
    for (int i = 0; i < c->nseries; i++) {
        free(c->series[i].x);
        free(c->series[i].y);
        free(c->series[i].ylo);
        free(c->series[i].yhi);
    }
    memset(c, 0, sizeof *c);
    c->mark_x = NAN;
}

static void chart_init(ch_chart *c, const char *title)
{
    memset(c, 0, sizeof *c);
    snprintf(c->title, sizeof c->title, "%s", title);
    c->mark_x = NAN;
}

static int valid_method(const en_results *r, int m)
{
    return r && m >= 0 && m < r->n_methods && r->m && r->m[m].snaps;
}

/* The method of `baseline` that corresponds to method m of r (same name, else same index). */
static int baseline_method(const en_results *r, int m, const en_results *b)
{
    if (!b || !valid_method(r, m)) return -1;
    for (int i = 0; i < b->n_methods; i++)
        if (b->m && b->m[i].snaps && strcmp(b->m[i].name, r->m[m].name) == 0) return i;
    return -1;
}

/* Two methods in one chart never share a letter: a clash (two unknown names starting alike,
 * LEARNER+AUGMENTER pairs) takes the next of the name's letters, then any free letter. */
static int letter_taken(const ch_chart *c, const ch_series *self, char l, int method)
{
    for (int i = 0; i < c->nseries; i++)
        if (&c->series[i] != self && c->series[i].method != method && c->series[i].letter == l) return 1;
    return 0;
}

static void unique_letter(ch_chart *c, ch_series *s, const char *name, int method)
{
    if (!letter_taken(c, s, s->letter, method)) return;
    for (const char *p = name ? name : ""; *p; p++) {
        char l = (char)toupper((unsigned char)*p);
        if (isalnum((unsigned char)l) && !letter_taken(c, s, l, method)) { s->letter = l; return; }
    }
    for (const char *p = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"; *p; p++)
        if (!letter_taken(c, s, *p, method)) { s->letter = *p; return; }
}

static ch_series *add_series(ch_chart *c, int n, const char *method_name, int slot, int method,
                             int ghost, ch_kind kind, const char *suffix)
{
    if (c->nseries >= CH_MAX_SERIES) {
        gs_error(GS_ERUN, "chart %s: too many series (at most %d)", c->title, CH_MAX_SERIES);
        return NULL;
    }
    ch_series *s = &c->series[c->nseries];
    memset(s, 0, sizeof *s);
    s->x = gs_malloc(n > 0 ? (size_t)n : 1, sizeof(double), "chart series");
    s->y = gs_malloc(n > 0 ? (size_t)n : 1, sizeof(double), "chart series");
    if (!s->x || !s->y) {
        free(s->x);
        free(s->y);
        s->x = s->y = NULL;
        return NULL;
    }
    c->nseries++;
    s->n = n;
    ch_display_name(method_name, s->method_name, sizeof s->method_name);
    ch_method_style(method_name, slot, &s->rgb, &s->dash, &s->marker, &s->letter);
    unique_letter(c, s, method_name, method);
    s->method = method;
    s->ghost = ghost;
    s->kind = kind;
    s->width_pt = ghost ? 0.8 : kind == CH_KIND_OVERALL ? 1.5 : kind == CH_KIND_NONE ? 1.25 : 1.0;
    char disp[sizeof s->method_name];
    memcpy(disp, s->method_name, sizeof disp);
    snprintf(s->name, sizeof s->name, "%s%s%s%s", disp, suffix && *suffix ? " " : "",
             suffix ? suffix : "", ghost ? " (pinned)" : "");
    return s;
}

static int clamp_task(const en_results *r, int task)
{
    if (task <= 0 || task > r->T) return r->T;
    return task;
}

/* Note "tasks a–b pending" (or "N tasks pending") over the shown methods. */
static void pending_note(ch_chart *c, const en_results *r, const int *ms, int nm)
{
    int first = 0, last = 0, count = 0;
    for (int t = 1; t <= r->T; t++) {
        int pend = 0;
        for (int k = 0; k < nm; k++)
            if (r->m[ms[k]].snaps[t - 1].state != EN_DONE) pend = 1;
        if (!pend) continue;
        if (!first) first = t;
        last = t;
        count++;
    }
    if (!count) return;
    if (count == last - first + 1) {
        if (first == last) snprintf(c->note, sizeof c->note, "task %d pending", first);
        else snprintf(c->note, sizeof c->note, "tasks %d\u2013%d pending", first, last);
    } else {
        snprintf(c->note, sizeof c->note, "%d tasks pending", count);
    }
}

static void task_axis(ch_chart *c, int T)
{
    ch_axis_integer(&c->x, 1, T > 1 ? T : 2, 8, 0);
    c->x.lo = 0.5;
    c->x.hi = (T > 1 ? T : 1) + 0.5;
    snprintf(c->x.label, sizeof c->x.label, "task");
}

static int collect_methods(const en_results *r, int m0, int m1, int *ms)
{
    int nm = 0;
    if (valid_method(r, m0)) ms[nm++] = m0;
    if (m1 != m0 && valid_method(r, m1)) ms[nm++] = m1;
    return nm;
}

/* Style slots for the shown methods: "gacl" always gets the GACL style (0) and "gsr" the GSR
 * style (1), whatever their position; other methods take the slot left free, so the two
 * curves of a view never share a style. */
static void style_slots(const en_results *r, const int *ms, int nm, int *sl)
{
    int named[2] = {-1, -1};
    for (int i = 0; i < nm; i++) {
        if (strcmp(r->m[ms[i]].name, "gacl") == 0) named[i] = 0;
        else if (strcmp(r->m[ms[i]].name, "gsr") == 0) named[i] = 1;
    }
    for (int i = 0; i < nm; i++) {
        int other = nm == 2 ? named[1 - i] : -1;
        sl[i] = named[i] >= 0 ? named[i] : other == 0 ? 1 : other == 1 ? 0 : i;
    }
    if (nm == 2 && sl[0] == sl[1]) sl[1] = 2;
}

static double snap_value(const en_snap *s, ch_kind kind)
{
    if (s->state != EN_DONE) return NAN;
    switch (kind) {
    case CH_KIND_OVERALL: return s->acc;
    case CH_KIND_HEAD: return s->head_acc;
    case CH_KIND_TAIL: return s->tail_acc;
    default: return s->stable_rank;
    }
}

static int add_task_series(ch_chart *c, const en_results *src, int method, int slot, int ghost,
                           ch_kind kind, const char *suffix)
{
    ch_series *s = add_series(c, src->T, src->m[method].name, slot, method, ghost, kind, suffix);
    if (!s) return GS_ENOMEM;
    for (int t = 0; t < src->T; t++) {
        s->x[t] = t + 1;
        double v = snap_value(&src->m[method].snaps[t], kind);
        s->y[t] = isfinite(v) ? v : NAN;
    }
    return GS_OK;
}

/* The value a task chart of quantity q draws for task t (0-based) of method m in run r. */
static double task_quantity(const en_results *r, int m, int t, ch_kind kind, int q)
{
    if (m < 0 || m >= r->n_methods || t < 0 || t >= r->T) return NAN;
    const en_snap *sn = &r->m[m].snaps[t];
    if (sn->state != EN_DONE) return NAN;
    switch (q) {
    case CH_BAND_ERANK: return sn->flags & EN_NO_GRAM ? NAN : sn->erank;
    case CH_BAND_COND: return sn->flags & EN_NO_GRAM || !(sn->cond > 0) ? NAN : sn->cond;
    case CH_BAND_STABLE_RANK: return sn->stable_rank;
    default: return snap_value(sn, kind);
    }
}

int ch_set_band(ch_series *s, const double *sd)
{
    free(s->ylo);
    free(s->yhi);
    s->ylo = gs_malloc(s->n > 0 ? (size_t)s->n : 1, sizeof(double), "chart band");
    s->yhi = gs_malloc(s->n > 0 ? (size_t)s->n : 1, sizeof(double), "chart band");
    if (!s->ylo || !s->yhi) { free(s->ylo); free(s->yhi); s->ylo = s->yhi = NULL; return GS_ENOMEM; }
    for (int k = 0; k < s->n; k++) {
        s->ylo[k] = s->y[k] - sd[k];
        s->yhi[k] = s->y[k] + sd[k];
    }
    return GS_OK;
}

void ch_axis_band_y(ch_chart *c)
{
    double lo = INFINITY, hi = -INFINITY, plo = INFINITY;
    for (int i = 0; i < c->nseries; i++) {
        const ch_series *s = &c->series[i];
        for (int k = 0; k < s->n; k++) {
            double v[3] = {s->y[k], s->ylo ? s->ylo[k] : NAN, s->yhi ? s->yhi[k] : NAN};
            for (int j = 0; j < 3; j++)
                if (isfinite(v[j])) { lo = fmin(lo, v[j]); hi = fmax(hi, v[j]); if (v[j] > 0) plo = fmin(plo, v[j]); }
        }
    }
    if (lo > hi) return;
    char label[sizeof c->y.label];
    memcpy(label, c->y.label, sizeof label);
    if (c->y.scale == CH_LOG10) ch_axis_log10(&c->y, plo, hi, 8);
    else ch_axis_linear(&c->y, lo, hi, 6, 1);
    memcpy(c->y.label, label, sizeof label);
    for (int i = 0; i < c->nseries && c->y.scale == CH_LOG10; i++)
        for (int k = 0; c->series[i].ylo && k < c->series[i].n; k++)
            if (c->series[i].ylo[k] <= 0) c->series[i].ylo[k] = c->y.lo;
}

int ch_add_seed_bands_of(ch_chart *c, const en_results *const *runs, int n, int quantity)
{
    double *v = gs_malloc(n > 0 ? (size_t)n : 1, sizeof(double), "chart band");
    if (!v) return GS_ENOMEM;
    int st = GS_OK;
    for (int i = 0; i < c->nseries && st == GS_OK; i++) {
        ch_series *s = &c->series[i];
        if (s->ghost || s->method < 0) continue;
        if ((quantity == CH_BAND_ACCURACY) != (s->kind != CH_KIND_NONE)) continue;
        double *sd = gs_malloc(s->n > 0 ? (size_t)s->n : 1, sizeof(double), "chart band");
        if (!sd) { st = GS_ENOMEM; break; }
        for (int k = 0; k < s->n; k++) {
            for (int j = 0; j < n; j++) v[j] = task_quantity(runs[j], s->method, (int)s->x[k] - 1, s->kind, quantity);
            gs_mean_sd(v, n, &s->y[k], &sd[k], NULL);
        }
        st = ch_set_band(s, sd);
        free(sd);
    }
    free(v);
    if (st) return st;
    if (quantity != CH_BAND_ACCURACY) ch_axis_band_y(c);
    size_t len = strlen(c->note);
    snprintf(c->note + len, sizeof c->note - len, "%smean \u00b1 std over %d seeds", len ? "; " : "", n);
    return GS_OK;
}

int ch_add_seed_bands(ch_chart *c, const en_results *const *runs, int n)
{
    c->note[0] = '\0';
    return ch_add_seed_bands_of(c, runs, n, CH_BAND_ACCURACY);
}

int ch_build_accuracy(ch_chart *c, const en_results *r, const en_results *baseline, int m0, int m1,
                      int task)
{
    chart_init(c, "Accuracy");
    if (!r || r->T < 1) return gs_error(GS_EINPUT, "accuracy chart: no results");
    static const ch_kind kinds[3] = {CH_KIND_OVERALL, CH_KIND_HEAD, CH_KIND_TAIL};
    static const char *kname[3] = {"overall", "head", "tail"};
    int ms[2], nm = collect_methods(r, m0, m1, ms), sl[2];
    style_slots(r, ms, nm, sl);
    task_axis(c, r->T);
    ch_axis_linear(&c->y, 0, 100, 6, 1);
    snprintf(c->y.label, sizeof c->y.label, "accuracy (%%)");
    c->mark_x = clamp_task(r, task);
    int st;
    /* Ghosts first, so the live curves are drawn on top of them. */
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < nm; i++) {
            int bm = baseline_method(r, ms[i], baseline);
            if (bm >= 0 && baseline->T == r->T &&
                (st = add_task_series(c, baseline, bm, sl[i], 1, kinds[k], kname[k])) != GS_OK) {
                ch_free(c);
                return st;
            }
        }
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < nm; i++)
            if ((st = add_task_series(c, r, ms[i], sl[i], 0, kinds[k], kname[k])) != GS_OK) {
                ch_free(c);
                return st;
            }
    pending_note(c, r, ms, nm);
    return GS_OK;
}

/* The snapshot whose spectrum the chart shows: G + τI of a ridge method, or the own matrix of a
 * learner without G (EN_OWN_SPECTRUM); NULL when there is none at that task. */
static const en_snap *spectrum_snap(const en_results *r, int m, int task)
{
    if (!valid_method(r, m)) return NULL;
    const en_snap *s = &r->m[m].snaps[task - 1];
    if (s->state != EN_DONE || !s->eig) return NULL;
    if (r->m[m].ridge) return (s->flags & EN_SPECTRUM) && !(s->flags & EN_NO_GRAM) ? s : NULL;
    return s->flags & EN_OWN_SPECTRUM ? s : NULL;
}

/* Appends "; " (when the note has text) and the text to c's note. */
static void note_add(ch_chart *c, const char *text)
{
    size_t len = strlen(c->note);
    snprintf(c->note + len, sizeof c->note - len, "%s%s", len ? "; " : "", text);
}

void ch_note_full(const ch_chart *c, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s", c->note, c->note[0] && c->lacks[0] ? "; " : "", c->lacks);
}

/* The names of ms[0..nm-1] without a Gram matrix (see ch_no_gram_names). */
static int no_gram_names(const en_results *r, const int *ms, int nm, int own, char *buf, size_t n)
{
    char disp[32];
    int k = 0;
    buf[0] = '\0';
    for (int i = 0; i < nm; i++) {
        if (r->m[ms[i]].ridge || (own && r->m[ms[i]].spectrum_of[0])) continue;
        ch_display_name(r->m[ms[i]].name, disp, sizeof disp);
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", k++ ? ", " : "", disp);
    }
    return k;
}

int ch_no_gram_names(const en_results *r, int m0, int m1, int own, char *buf, size_t n, int *nshown)
{
    int ms[2], nm = collect_methods(r, m0, m1, ms);
    if (nshown) *nshown = nm;
    return no_gram_names(r, ms, nm, own, buf, n);
}

/* What the shown methods without a Gram matrix lack (only those with no spectrum of their own
 * when no_spectrum), in a view of G + τI's numbers, into c->lacks: "NCM, SLDA: no Gram matrix"
 * (and what they lack beyond, when `what` is not empty). */
static void no_gram_note(ch_chart *c, const en_results *r, const int *ms, int nm, int no_spectrum, const char *what)
{
    char names[64];
    if (!no_gram_names(r, ms, nm, no_spectrum, names, sizeof names)) return;
    snprintf(c->lacks, sizeof c->lacks, "%s: no Gram matrix%s%s", names, what[0] ? ", " : "", what);
}

int ch_note_cut(char *note)
{
    char *cut = NULL;
    for (char *q = note; (q = strstr(q, "; ")); q++) cut = q;
    if (!cut) return 0;
    *cut = '\0';
    return 1;
}

/* The ratio's reference is preferably a method without an augmenter (the learner alone), then a
 * ridge one: 1 when m1 is a better reference than m0. */
static int ref_score(const en_results *r, int m) { return 2 * !r->m[m].augmenter[0] + !!r->m[m].ridge; }

int ch_ratio_second_ref(const en_results *r, int m0, int m1)
{
    if (!r || m0 < 0 || m1 < 0 || m0 >= r->n_methods || m1 >= r->n_methods) return 0;
    return ref_score(r, m1) > ref_score(r, m0);
}

static int add_spectrum_series(ch_chart *c, const en_results *src, int m, int slot, int ghost,
                               int task, double *lo, double *hi)
{
    const en_snap *sn = spectrum_snap(src, m, task);
    long D = src->m[m].D;
    if (!sn || D < 1) return GS_OK;
    char what[64] = ""; /* a learner's own matrix is named with the series */
    if (!src->m[m].ridge) snprintf(what, sizeof what, "(%s)", src->m[m].spectrum_of);
    ch_series *s = add_series(c, (int)D, src->m[m].name, slot, m, ghost, CH_KIND_NONE, what);
    if (!s) return GS_ENOMEM;
    for (long i = 0; i < D; i++) {
        s->x[i] = (double)(i + 1);
        double v = sn->eig[i];
        s->y[i] = isfinite(v) && v > 0 ? v : NAN;
        if (v > 0 && isfinite(v)) { *lo = fmin(*lo, v); *hi = fmax(*hi, v); }
    }
    return GS_OK;
}

int ch_build_spectrum(ch_chart *c, const en_results *r, const en_results *baseline, int m0, int m1,
                      int task)
{
    chart_init(c, "Eigenspectrum");
    if (!r || r->T < 1) return gs_error(GS_EINPUT, "spectrum chart: no results");
    task = clamp_task(r, task);
    int ms[2], nm = collect_methods(r, m0, m1, ms), sl[2];
    style_slots(r, ms, nm, sl);
    double lo = INFINITY, hi = -INFINITY;
    int st;
    for (int i = 0; i < nm; i++) {
        int bm = baseline_method(r, ms[i], baseline);
        if (bm >= 0 && baseline->T >= task &&
            (st = add_spectrum_series(c, baseline, bm, sl[i], 1, task, &lo, &hi)) != GS_OK) {
            ch_free(c);
            return st;
        }
    }
    int live = 0, missing = 0, own = 0, own_missing = 0, none = 0, own_m = -1;
    for (int i = 0; i < nm; i++) {
        int before = c->nseries;
        if ((st = add_spectrum_series(c, r, ms[i], sl[i], 0, task, &lo, &hi)) != GS_OK) {
            ch_free(c);
            return st;
        }
        int have = c->nseries > before, ridge = r->m[ms[i]].ridge, spec = r->m[ms[i]].spectrum_of[0] != '\0';
        live += have;
        missing += ridge && !have;
        if (!ridge && have) { own++; own_m = ms[i]; }
        own_missing += !ridge && spec && !have;
        none += !ridge && !spec;
    }
    long D = 2;
    for (int i = 0; i < nm; i++) if (r->m[ms[i]].D > D) D = r->m[ms[i]].D;
    ch_axis_integer(&c->x, 1, (double)D, 6, 0);
    c->x.lo = 1;
    c->x.hi = (double)D;
    snprintf(c->x.label, sizeof c->x.label, "index i");
    if (lo > hi) { lo = 1e-3; hi = 1e3; }
    ch_axis_log10(&c->y, lo, hi, 8);
    /* a learner without G shows its own matrix: the axis says which when it is the only one */
    if (own && own == live)
        snprintf(c->y.label, sizeof c->y.label, "\u03bb\u1d62 of %s", r->m[own_m].spectrum_of);
    else
        snprintf(c->y.label, sizeof c->y.label, own ? "\u03bb\u1d62" : "\u03bb\u1d62 of G+\u03c4I");
    if (!live && !missing && !own_missing) {
        /* only learners without any spectrum: say so, not "pending" */
        c->note[0] = '\0';
        no_gram_note(c, r, ms, nm, 1, "no spectrum");
    } else if (!live) {
        /* No live spectrum: the chart shows nothing (not even the pinned ghosts). */
        for (int i = 0; i < c->nseries; i++) {
            free(c->series[i].x);
            free(c->series[i].y);
        }
        memset(c->series, 0, sizeof c->series);
        c->nseries = 0;
        if (!missing && task < r->T)
            c->note[0] = '\0'; /* a learner's own, kept for the last task: said below */
        else if (r->spectra_on_request)
            snprintf(c->note, sizeof c->note, "not computed at D = %ld (costly): --spectrum final or all", r->D);
        else
            snprintf(c->note, sizeof c->note, "spectrum pending");
    } else if (missing || (own_missing && task == r->T)) {
        snprintf(c->note, sizeof c->note, "task %d/%d, some spectra pending", task, r->T);
    } else {
        snprintf(c->note, sizeof c->note, "task %d/%d", task, r->T);
    }
    if (live && own && own < live) {
        /* next to G + τI, which matrix each own spectrum is: first, so that a short panel keeps it */
        char text[sizeof c->note] = "", disp[32];
        for (int i = 0; i < nm; i++) {
            if (r->m[ms[i]].ridge || !spectrum_snap(r, ms[i], task)) continue;
            ch_display_name(r->m[ms[i]].name, disp, sizeof disp);
            size_t len = strlen(text);
            snprintf(text + len, sizeof text - len, "%s: %s; ", disp, r->m[ms[i]].spectrum_of);
        }
        size_t len = strlen(text);
        snprintf(text + len, sizeof text - len, "%s", c->note);
        memcpy(c->note, text, sizeof c->note);
    }
    if ((live || task < r->T) && none) no_gram_note(c, r, ms, nm, 1, "");
    /* a learner keeps its matrix for the last task only (gs_learner.h: spectrum) */
    for (int i = 0; i < nm && task < r->T; i++) {
        if (r->m[ms[i]].ridge || !r->m[ms[i]].spectrum_of[0] || spectrum_snap(r, ms[i], task)) continue;
        char disp[32], text[80];
        ch_display_name(r->m[ms[i]].name, disp, sizeof disp);
        snprintf(text, sizeof text, "%s: spectrum at task %d only", disp, r->T);
        note_add(c, text);
    }
    return GS_OK;
}

int ch_build_stable_rank(ch_chart *c, const en_results *r, const en_results *baseline, int m0,
                         int m1, int task)
{
    chart_init(c, "Stable rank");
    if (!r || r->T < 1) return gs_error(GS_EINPUT, "stable-rank chart: no results");
    int ms[2], nm = collect_methods(r, m0, m1, ms), sl[2];
    style_slots(r, ms, nm, sl);
    int st;
    for (int i = 0; i < nm; i++) {
        int bm = baseline_method(r, ms[i], baseline);
        if (bm >= 0 && baseline->T == r->T && baseline->m[bm].ridge &&
            (st = add_task_series(c, baseline, bm, sl[i], 1, CH_KIND_NONE, "")) != GS_OK) {
            ch_free(c);
            return st;
        }
    }
    int est = 0;
    for (int i = 0; i < nm; i++) {
        if (!r->m[ms[i]].ridge) continue;
        if ((st = add_task_series(c, r, ms[i], sl[i], 0, CH_KIND_NONE, "")) != GS_OK) {
            ch_free(c);
            return st;
        }
        for (int t = 0; t < r->T; t++) {
            const en_snap *s = &r->m[ms[i]].snaps[t];
            if (s->state == EN_DONE && (s->flags & EN_LMAX_EST)) est = 1;
        }
    }
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < c->nseries; i++)
        for (int k = 0; k < c->series[i].n; k++) {
            double v = c->series[i].y[k];
            if (isfinite(v)) { lo = fmin(lo, v); hi = fmax(hi, v); }
        }
    task_axis(c, r->T);
    if (lo > hi) ch_axis_linear(&c->y, 0, 1, 6, 1);
    else if (lo > 0 && hi / lo > 10) ch_axis_log10(&c->y, lo, hi, 8);
    else ch_axis_linear(&c->y, lo, hi, 6, 1);
    snprintf(c->y.label, sizeof c->y.label, "stable rank of G+\u03c4I");
    c->mark_x = clamp_task(r, task);
    pending_note(c, r, ms, nm);
    if (est) note_add(c, "Lanczos estimate");
    no_gram_note(c, r, ms, nm, 0, "");
    return GS_OK;
}


/* ---- more views ---------------------------------------------------------------------------- */
static void y_auto(ch_chart *c, int allow_log);

/* Slots for two method names: "gacl" -> GACL style, "gsr" -> GSR style, others what is free. */
static void name_slots(const char *n0, const char *n1, int *sl)
{
    const char *nm[2] = {n0, n1};
    int named[2] = {-1, -1}, cnt = n1 ? 2 : 1;
    for (int i = 0; i < cnt; i++) {
        if (strcmp(nm[i], "gacl") == 0) named[i] = 0;
        else if (strcmp(nm[i], "gsr") == 0) named[i] = 1;
    }
    for (int i = 0; i < cnt; i++) {
        int other = cnt == 2 ? named[1 - i] : -1;
        sl[i] = named[i] >= 0 ? named[i] : other == 0 ? 1 : other == 1 ? 0 : i;
    }
    if (cnt == 2 && sl[0] == sl[1]) sl[1] = 2;
}

void ch_axis_auto_y(ch_chart *c, int allow_log) { y_auto(c, allow_log); }

static void y_auto(ch_chart *c, int allow_log)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < c->nseries; i++)
        for (int k = 0; k < c->series[i].n; k++) {
            double v = c->series[i].y[k];
            if (isfinite(v)) { lo = fmin(lo, v); hi = fmax(hi, v); }
        }
    if (lo > hi) ch_axis_linear(&c->y, 0, 1, 6, 1);
    else if (allow_log && lo > 0 && hi / lo > 10) ch_axis_log10(&c->y, lo, hi, 8);
    else ch_axis_linear(&c->y, lo, hi, 6, 1);
}

static void best_tau_text(const ts_curve *cv, char *out, size_t n)
{
    char d[32];
    ch_display_name(cv->method, d, sizeof d);
    if (cv->best >= 0 && cv->best < cv->n) snprintf(out, n, "%s %.3g", d, cv->tau[cv->best]);
    else snprintf(out, n, "%s —", d);
}

int ch_build_tau_sweep(ch_chart *c, const ts_curve *a, const ts_curve *b, double tau_mark, int what)
{
    chart_init(c, what == CH_TS_STABLE_RANK ? "Stable rank vs \u03c4" : "Accuracy vs \u03c4");
    if (!a || a->n < 1 || !a->tau) return gs_error(GS_EINPUT, "\u03c4-sweep chart: no curve");
    if (b && (b->n < 1 || !b->tau)) b = NULL;
    const ts_curve *cv[2] = {a, b};
    int ncv = b ? 2 : 1, sl[2];
    name_slots(a->method, b ? b->method : NULL, sl);
    double xlo = INFINITY, xhi = -INFINITY;
    for (int i = 0; i < ncv; i++)
        for (int k = 0; k < cv[i]->n; k++)
            if (cv[i]->tau[k] > 0) { xlo = fmin(xlo, cv[i]->tau[k]); xhi = fmax(xhi, cv[i]->tau[k]); }
    if (xlo > xhi) { xlo = 1e-4; xhi = 1e4; }
    ch_axis_log10(&c->x, xlo, xhi, 9);
    /* the data range, not widened to decades beyond the grid */
    c->x.lo = xlo;
    c->x.hi = xhi > xlo ? xhi : xlo * 10;
    ch_axis_retick(&c->x, 9);
    snprintf(c->x.label, sizeof c->x.label, "\u03c4");
    c->mark_x = tau_mark > 0 && isfinite(tau_mark) ? tau_mark : NAN;
    if (what == CH_TS_STABLE_RANK) {
        for (int i = 0; i < ncv; i++) {
            ch_series *s = add_series(c, cv[i]->n, cv[i]->method, sl[i], i, 0, CH_KIND_NONE, "");
            if (!s) { ch_free(c); return GS_ENOMEM; }
            for (int k = 0; k < cv[i]->n; k++) {
                s->x[k] = cv[i]->tau[k];
                double v = cv[i]->stable_rank[k];
                s->y[k] = isfinite(v) ? v : NAN;
            }
        }
        y_auto(c, 1);
        snprintf(c->y.label, sizeof c->y.label, "stable rank of G+\u03c4I");
        snprintf(c->note, sizeof c->note, "task %d", a->task);
        return GS_OK;
    }
    static const ch_kind kinds[3] = {CH_KIND_OVERALL, CH_KIND_HEAD, CH_KIND_TAIL};
    static const char *kname[3] = {"overall", "head", "tail"};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < ncv; i++) {
            ch_series *s = add_series(c, cv[i]->n, cv[i]->method, sl[i], i, 0, kinds[k], kname[k]);
            if (!s) { ch_free(c); return GS_ENOMEM; }
            const double *y = k == 0 ? cv[i]->acc : k == 1 ? cv[i]->head_acc : cv[i]->tail_acc;
            for (int j = 0; j < cv[i]->n; j++) {
                s->x[j] = cv[i]->tau[j];
                s->y[j] = isfinite(y[j]) ? y[j] : NAN;
            }
        }
    /* with a validation split: the overall validation accuracy, drawn faint next to the test
     * curve, and the best τ is chosen on it */
    for (int i = 0; i < ncv; i++) {
        if (!cv[i]->best_by_val || !cv[i]->val_acc) continue;
        ch_series *s = add_series(c, cv[i]->n, cv[i]->method, sl[i], i, 1, CH_KIND_OVERALL, "");
        if (!s) { ch_free(c); return GS_ENOMEM; }
        snprintf(s->name, sizeof s->name, "%s validation", s->method_name);
        snprintf(c->ghost_label, sizeof c->ghost_label, "validation");
        for (int j = 0; j < cv[i]->n; j++) {
            s->x[j] = cv[i]->tau[j];
            s->y[j] = isfinite(cv[i]->val_acc[j]) ? cv[i]->val_acc[j] : NAN;
        }
    }
    ch_axis_linear(&c->y, 0, 100, 6, 1);
    snprintf(c->y.label, sizeof c->y.label, "accuracy (%%)");
    char b0[48], b1[48] = "";
    best_tau_text(a, b0, sizeof b0);
    if (b) best_tau_text(b, b1, sizeof b1);
    snprintf(c->note, sizeof c->note, "task %d; best \u03c4 %s: %s%s%s", a->task,
             a->best_by_val ? "by validation" : "on test (no --val-frac)", b0, b ? ", " : "", b1);
    return GS_OK;
}

int ch_build_erank_cond(ch_chart *c, const en_results *r, int m0, int m1, int task, int which)
{
    chart_init(c, which == CH_COND ? "Condition number" : "Effective rank");
    if (!r || r->T < 1) return gs_error(GS_EINPUT, "%s chart: no results", c->title);
    int ms[2], nm = collect_methods(r, m0, m1, ms), sl[2];
    style_slots(r, ms, nm, sl);
    int known = 0, est = 0;
    for (int i = 0; i < nm; i++) {
        if (!r->m[ms[i]].ridge) continue;
        ch_series *s = add_series(c, r->T, r->m[ms[i]].name, sl[i], ms[i], 0, CH_KIND_NONE, "");
        if (!s) { ch_free(c); return GS_ENOMEM; }
        int k = 0;
        for (int t = 0; t < r->T; t++) {
            const en_snap *sn = &r->m[ms[i]].snaps[t];
            double v = NAN;
            if (sn->state == EN_DONE && !(sn->flags & EN_NO_GRAM)) {
                v = which == CH_COND ? sn->cond : sn->erank;
                if (which == CH_COND && (sn->flags & (EN_LMAX_EST | EN_LMIN_EST)) && isfinite(v)) est = 1;
            }
            s->x[t] = t + 1;
            s->y[t] = isfinite(v) && (which == CH_ERANK || v > 0) ? v : NAN;
            if (isfinite(s->y[t])) k++;
        }
        if (k > known) known = k;
    }
    task_axis(c, r->T);
    y_auto(c, which == CH_COND);
    if (which == CH_COND && c->y.scale != CH_LOG10) {
        /* condition numbers: always a log axis (one decade at least) */
        double lo = c->y.lo > 0 ? c->y.lo : 1, hi = c->y.hi > lo ? c->y.hi : lo * 10;
        ch_axis_log10(&c->y, lo, hi, 8);
    }
    snprintf(c->y.label, sizeof c->y.label, which == CH_COND ? "\u03ba(G+\u03c4I)" : "effective rank of G+\u03c4I");
    c->mark_x = clamp_task(r, task);
    pending_note(c, r, ms, nm);
    if (which == CH_ERANK && known < r->T) {
        char text[48];
        snprintf(text, sizeof text, "spectrum at %d of %d tasks", known, r->T);
        note_add(c, text);
    }
    if (est) note_add(c, "Lanczos estimate");
    no_gram_note(c, r, ms, nm, 0, "");
    return GS_OK;
}

int ch_build_theorem(ch_chart *c, const en_results *r, int ref, int aug, const double *before,
                     const double *bound, const double *after, int task)
{
    chart_init(c, "Theorem 1");
    if (!r || r->T < 1 || !valid_method(r, ref) || !valid_method(r, aug))
        return gs_error(GS_EINPUT, "Theorem 1 chart: needs a reference and an augmenting method");
    int ms[2] = {ref, aug}, sl[2];
    style_slots(r, ms, 2, sl);
    const double *ys[3] = {before, after, bound};
    const char *what[3] = {"sr(G+\u03c4I)", "sr(G+\u0394+\u03c4I)", "lower bound"};
    for (int k = 0; k < 3; k++) {
        int m = k == 0 ? ref : aug;
        ch_series *s = add_series(c, r->T, r->m[m].name, k == 0 ? sl[0] : sl[1], m, 0, CH_KIND_NONE, what[k]);
        if (!s) { ch_free(c); return GS_ENOMEM; }
        if (k == 2) { /* the bound: thin, dotted, no marker, in the augmenting method's colour */
            s->dash = CH_DASH_DOTTED;
            s->marker = CH_MARK_TRIANGLE;
            s->width_pt = 1.0;
            s->letter = 'b';
            snprintf(s->name, sizeof s->name, "Theorem 1 lower bound");
        }
        for (int t = 0; t < r->T; t++) {
            s->x[t] = t + 1;
            s->y[t] = isfinite(ys[k][t]) && ys[k][t] > 0 ? ys[k][t] : NAN;
        }
    }
    task_axis(c, r->T);
    y_auto(c, 1);
    snprintf(c->y.label, sizeof c->y.label, "stable rank");
    snprintf(c->note, sizeof c->note, "\u25b2 dotted: lower bound");
    c->mark_x = clamp_task(r, task);
    return GS_OK;
}

int ch_class_order(const en_results *r, int task, int *out)
{
    if (!r || !r->class_task || !r->class_kept) return 0;
    int n = 0;
    for (int k = 0; k < r->C; k++)
        if (r->class_task[k] >= 0 && r->class_task[k] < task) out[n++] = k;
    /* insertion sort: stable, no global state (the TUI draws while the worker builds figures) */
    for (int i = 1; i < n; i++) {
        int v = out[i], j = i - 1;
        while (j >= 0 && (r->class_kept[out[j]] < r->class_kept[v] ||
                          (r->class_kept[out[j]] == r->class_kept[v] && out[j] > v))) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = v;
    }
    return n;
}

int ch_build_class_acc(ch_chart *c, const en_results *r, int m0, int m1, int task)
{
    chart_init(c, "Per-class accuracy");
    if (!r || r->T < 1) return gs_error(GS_EINPUT, "per-class accuracy chart: no results");
    task = clamp_task(r, task);
    int *ord = gs_malloc(r->C > 0 ? (size_t)r->C : 1, sizeof(int), "per-class chart");
    if (!ord) return GS_ENOMEM;
    int n = ch_class_order(r, task, ord);
    int ms[2], nm = collect_methods(r, m0, m1, ms), sl[2];
    style_slots(r, ms, nm, sl);
    int pending = 0;
    for (int i = 0; i < nm; i++) {
        const en_snap *sn = &r->m[ms[i]].snaps[task - 1];
        ch_series *s = add_series(c, n, r->m[ms[i]].name, sl[i], ms[i], 0, CH_KIND_NONE, "");
        if (!s) { free(ord); ch_free(c); return GS_ENOMEM; }
        if (sn->state != EN_DONE || !sn->class_acc) pending = 1;
        for (int k = 0; k < n; k++) {
            s->x[k] = k + 1;
            double v = sn->state == EN_DONE && sn->class_acc ? sn->class_acc[ord[k]] : NAN;
            s->y[k] = isfinite(v) ? v : NAN;
        }
    }
    int nhead = 0;
    for (int k = 0; k < n; k++) nhead += r->is_head && r->is_head[ord[k]];
    ch_axis_integer(&c->x, 1, n > 1 ? n : 2, 8, 0);
    c->x.lo = 0.5;
    c->x.hi = (n > 1 ? n : 1) + 0.5;
    snprintf(c->x.label, sizeof c->x.label, "classes by training rows (most first)");
    ch_axis_linear(&c->y, 0, 100, 6, 1);
    snprintf(c->y.label, sizeof c->y.label, "accuracy (%%)");
    c->mark_x = nhead > 0 && nhead < n ? nhead + 0.5 : NAN;
    if (pending) snprintf(c->note, sizeof c->note, "task %d pending", task);
    else snprintf(c->note, sizeof c->note, "task %d: %d head, %d tail classes", task, nhead, n - nhead);
    free(ord);
    return GS_OK;
}

int ch_build_eig_ratio(ch_chart *c, const en_results *r, int m0, int m1, int task)
{
    chart_init(c, "\u03bb\u0303\u1d62/\u03bb\u1d62");
    if (!r || r->T < 1) return gs_error(GS_EINPUT, "eigenvalue-ratio chart: no results");
    task = clamp_task(r, task);
    int ms[2], nm = collect_methods(r, m0, m1, ms), sl[2];
    style_slots(r, ms, nm, sl);
    int ref = 0, aug = 1;
    if (nm == 2 && ch_ratio_second_ref(r, ms[0], ms[1])) { ref = 1; aug = 0; }
    long D = nm == 2 ? r->m[ms[aug]].D : 2;
    ch_axis_integer(&c->x, 1, (double)(D > 1 ? D : 2), 6, 0);
    c->x.lo = 1;
    c->x.hi = (double)(D > 1 ? D : 2);
    snprintf(c->x.label, sizeof c->x.label, "index i");
    const en_snap *sr = nm == 2 ? spectrum_snap(r, ms[ref], task) : NULL;
    const en_snap *sa = nm == 2 ? spectrum_snap(r, ms[aug], task) : NULL;
    if (nm == 2 && r->m[ms[ref]].D != D) {
        ch_axis_log10(&c->y, 0.5, 2, 6);
        snprintf(c->note, sizeof c->note, "the two methods have different feature spaces");
        return GS_OK;
    }
    if (!sr || !sa || D < 1) {
        ch_axis_log10(&c->y, 0.5, 2, 6);
        snprintf(c->y.label, sizeof c->y.label, "\u03bb\u0303\u1d62/\u03bb\u1d62");
        snprintf(c->note, sizeof c->note, nm == 2 ? "spectrum pending" : "needs two ridge methods");
        return GS_OK;
    }
    char dn[32];
    ch_display_name(r->m[ms[aug]].name, dn, sizeof dn);
    ch_series *s = add_series(c, (int)D, r->m[ms[aug]].name, sl[aug], ms[aug], 0, CH_KIND_NONE, "");
    if (!s) { ch_free(c); return GS_ENOMEM; }
    double lo = INFINITY, hi = -INFINITY;
    for (long i = 0; i < D; i++) {
        double a = sa->eig[i], b = sr->eig[i];
        double v = a > 0 && b > 0 && isfinite(a) && isfinite(b) ? a / b : NAN;
        s->x[i] = (double)(i + 1);
        s->y[i] = v;
        if (isfinite(v)) { lo = fmin(lo, v); hi = fmax(hi, v); }
    }
    if (lo > hi) { lo = 0.5; hi = 2; }
    /* always show the ratio 1 */
    ch_axis_log10(&c->y, fmin(lo, 1.0), fmax(hi, 1.0), 8);
    char rn[32];
    ch_display_name(r->m[ms[ref]].name, rn, sizeof rn);
    snprintf(c->y.label, sizeof c->y.label, "\u03bb\u1d62 %.16s / %.16s", dn, rn);
    snprintf(c->note, sizeof c->note, "task %d/%d; max ratio %.3g", task, r->T, hi);
    return GS_OK;
}

/* ---- CSV -------------------------------------------------------------------------------- */

static int csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r")) {
        if (fputc('"', f) == EOF) return -1;
        for (const char *p = s; *p; p++) {
            if (*p == '"' && fputc('"', f) == EOF) return -1;
            if (fputc(*p, f) == EOF) return -1;
        }
        return fputc('"', f) == EOF ? -1 : 0;
    }
    return fputs(s, f) == EOF ? -1 : 0;
}

int ch_write_csv_rows(const ch_chart *c, FILE *f)
{
    char bx[40], by[40];
    for (int i = 0; i < c->nseries; i++) {
        const ch_series *s = &c->series[i];
        for (int k = 0; k < s->n; k++) {
            if (!isfinite(s->y[k]) || !isfinite(s->x[k])) continue;
            if (csv_field(f, c->title) || fputc(',', f) == EOF || csv_field(f, s->name) ||
                fprintf(f, ",%s,%s\n", ch_fmt_double(s->x[k], bx, sizeof bx),
                        ch_fmt_double(s->y[k], by, sizeof by)) < 0)
                return gs_error(GS_ERUN, "CSV: write failed: %s", strerror(errno));
        }
        /* a band: its two edges as the series "NAME −std" and "NAME +std" */
        for (int e = 0; s->ylo && e < 2; e++)
            for (int k = 0; k < s->n; k++) {
                double v = e ? s->yhi[k] : s->ylo[k];
                if (!isfinite(v) || !isfinite(s->x[k])) continue;
                if (csv_field(f, c->title) || fprintf(f, ",\"%s %s\",%s,%s\n", s->name, e ? "+std" : "\u2212std",
                                                      ch_fmt_double(s->x[k], bx, sizeof bx),
                                                      ch_fmt_double(v, by, sizeof by)) < 0)
                    return gs_error(GS_ERUN, "CSV: write failed: %s", strerror(errno));
            }
    }
    return GS_OK;
}

int ch_write_csv(const ch_chart *c, FILE *f)
{
    if (fputs("chart,series,x,y\n", f) == EOF)
        return gs_error(GS_ERUN, "CSV: write failed: %s", strerror(errno));
    return ch_write_csv_rows(c, f);
}

/* ---- teaching: collapse ---------------------------------------------------------------------- */

int ch_build_collapse(ch_chart *c, const co_result *co)
{
    chart_init(c, "Collapse");
    if (!co || co->n < 1) return gs_error(GS_EINPUT, "collapse chart: no class seen");
    const char *names[2] = {co->ref, co->aug};
    const double *ys[2] = {co->e_ref, co->e_aug};
    int nser = co->aug[0] ? 2 : 1, nhead = 0;
    for (int k = 0; k < co->n; k++) nhead += co->head[k] != 0;
    /* method names back to the lower-case keys the styles use ("GACL" -> "gacl") */
    for (int i = 0; i < nser; i++) {
        char key[32];
        size_t j = 0;
        for (; names[i][j] && j + 1 < sizeof key; j++) key[j] = (char)tolower((unsigned char)names[i][j]);
        key[j] = 0;
        int slot = !strcmp(key, "gacl") ? 0 : !strcmp(key, "gsr") ? 1 : i;
        ch_series *s = add_series(c, co->n, key, slot, i, 0, CH_KIND_NONE, "");
        if (!s) { ch_free(c); return GS_ENOMEM; }
        for (int k = 0; k < co->n; k++) {
            s->x[k] = k + 1;
            s->y[k] = isfinite(ys[i][k]) && ys[i][k] > 0 ? ys[i][k] : NAN;
        }
    }
    /* the ridge floor τ: what a direction no row reaches keeps */
    if (co->tau > 0) {
        ch_series *s = add_series(c, 2, "tau", 2, -1, 0, CH_KIND_NONE, "");
        if (!s) { ch_free(c); return GS_ENOMEM; }
        s->x[0] = 0.5;
        s->x[1] = co->n + 0.5;
        s->y[0] = s->y[1] = co->tau;
        s->rgb = 0x7f7f7f;
        s->dash = CH_DASH_DOTTED;
        s->marker = CH_MARK_NONE;
        s->letter = 0;
        s->width_pt = 0.8;
        snprintf(s->name, sizeof s->name, "\u03c4 = %.3g (ridge floor)", co->tau);
        snprintf(s->method_name, sizeof s->method_name, "\u03c4");
    }
    ch_axis_integer(&c->x, 1, co->n > 1 ? co->n : 2, 8, 0);
    c->x.lo = 0.5;
    c->x.hi = (co->n > 1 ? co->n : 1) + 0.5;
    snprintf(c->x.label, sizeof c->x.label, "classes by training rows (most first)");
    y_auto(c, 1);
    if (c->y.scale != CH_LOG10) {
        double lo = c->y.lo > 0 ? c->y.lo : co->tau > 0 ? co->tau : 1, hi = c->y.hi > lo ? c->y.hi : lo * 10;
        ch_axis_log10(&c->y, lo, hi, 8);
    }
    snprintf(c->y.label, sizeof c->y.label, "u\u1d40(G+\u03c4I)u along each class's direction");
    c->mark_x = nhead > 0 && nhead < co->n ? nhead + 0.5 : NAN;
    /* the tail's median energy in units of τ, for each method */
    double med[2] = {NAN, NAN};
    int nt = co->n - nhead;
    if (nt > 0 && co->tau > 0) {
        double *v = gs_malloc((size_t)nt, sizeof(double), "collapse chart");
        if (!v) { ch_free(c); return GS_ENOMEM; }
        for (int i = 0; i < nser; i++) {
            int m = 0;
            for (int k = 0; k < co->n; k++)
                if (!co->head[k] && isfinite(ys[i][k])) v[m++] = ys[i][k];
            for (int a = 1; a < m; a++) { /* insertion sort */
                double t = v[a];
                int b = a - 1;
                while (b >= 0 && v[b] > t) { v[b + 1] = v[b]; b--; }
                v[b + 1] = t;
            }
            if (m) med[i] = (m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2])) / co->tau;
        }
        free(v);
        if (nser == 2)
            snprintf(c->note, sizeof c->note, "task %d: tail median %.3g\u03c4 (%s), %.3g\u03c4 (%s)", co->task, med[0],
                     co->ref, med[1], co->aug);
        else snprintf(c->note, sizeof c->note, "task %d: tail median %.3g\u03c4", co->task, med[0]);
    } else snprintf(c->note, sizeof c->note, "task %d: no tail class seen", co->task);
    return GS_OK;
}
