/* chart/bands.c — mean ± std over seeds: a band around a series, the y axis fitted to it, the
 * bands of a task chart from several runs (gs_chart.h). */
#include "chart_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    default: return ch_snap_value(sn, kind);
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
    /* a log axis of v − shift (the stable rank's) keeps its shift: plo is then the smallest value
     * above it */
    double shift = c->y.scale == CH_LOG10 ? c->y.shift : 0;
    double lo = INFINITY, hi = -INFINITY, plo = INFINITY;
    for (int i = 0; i < c->nseries; i++) {
        const ch_series *s = &c->series[i];
        for (int k = 0; k < s->n; k++) {
            double v[3] = {s->y[k], s->ylo ? s->ylo[k] : NAN, s->yhi ? s->yhi[k] : NAN};
            for (int j = 0; j < 3; j++)
                if (isfinite(v[j])) { lo = fmin(lo, v[j]); hi = fmax(hi, v[j]); if (v[j] > shift) plo = fmin(plo, v[j]); }
        }
    }
    if (lo > hi) return;
    char label[sizeof c->y.label];
    memcpy(label, c->y.label, sizeof label);
    if (shift != 0 && plo <= hi) ch_axis_log10_shift(&c->y, plo, hi, shift, 8);
    else if (c->y.scale == CH_LOG10) ch_axis_log10(&c->y, plo, hi, 8);
    else ch_axis_linear(&c->y, lo, hi, 6, 1);
    memcpy(c->y.label, label, sizeof label);
    for (int i = 0; i < c->nseries && c->y.scale == CH_LOG10; i++)
        for (int k = 0; c->series[i].ylo && k < c->series[i].n; k++)
            if (c->series[i].ylo[k] <= c->y.shift) c->series[i].ylo[k] = c->y.lo;
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
