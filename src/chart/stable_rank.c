/* chart/stable_rank.c — the charts of G + τI over tasks: stable rank, effective rank and condition
 * number, Theorem 1's bound (gs_chart.h). */
#include "chart_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Marks the Lanczos estimates of series s (method m of r): s->est[t] set where the stable rank
 * of a finished task came from Lanczos' λ_max. Adds task t to the range [*a, *b] of estimated tasks
 * (*gap set when they are not one run) and counts the exact ones in *exact. */
static int mark_estimates(ch_series *s, const en_results *r, int m, int *a, int *b, int *gap, int *exact)
{
    s->est = calloc(r->T > 0 ? (size_t)r->T : 1, 1);
    if (!s->est) return gs_error(GS_ENOMEM, "stable-rank chart: out of memory");
    for (int t = 0; t < r->T; t++) {
        const en_snap *sn = &r->m[m].snaps[t];
        if (sn->state != EN_DONE || !isfinite(s->y[t])) continue;
        if (!(sn->flags & EN_LMAX_EST)) { (*exact)++; continue; }
        s->est[t] = 1;
        if (*a == 0) *a = *b = t + 1;
        else {
            if (t + 1 > *b + 1 || t + 1 < *a - 1) *gap = 1;
            if (t + 1 < *a) *a = t + 1;
            if (t + 1 > *b) *b = t + 1;
        }
    }
    return GS_OK;
}

/* "Lanczos estimates: tasks 1–9" (the others exact), or how many when they are not one run. */
static void estimate_note(ch_chart *c, int a, int b, int gap, int exact)
{
    char text[64];
    if (gap) snprintf(text, sizeof text, "Lanczos estimates at some tasks");
    else if (a == b) snprintf(text, sizeof text, "Lanczos estimate: task %d", a);
    else snprintf(text, sizeof text, "Lanczos estimates: tasks %d\u2013%d", a, b);
    if (!exact && !gap) snprintf(text, sizeof text, "Lanczos estimates");
    ch_note_add(c, text);
}

int ch_build_stable_rank(ch_chart *c, const en_results *r, const en_results *baseline, int m0,
                         int m1, int task)
{
    ch_chart_init(c, "Stable rank");
    if (!r || r->T < 1) return gs_error(GS_EINPUT, "stable-rank chart: no results");
    int ms[2], nm = ch_collect_methods(r, m0, m1, ms), sl[2];
    ch_style_slots(r, ms, nm, sl);
    int st;
    for (int i = 0; i < nm; i++) {
        int bm = ch_baseline_method(r, ms[i], baseline);
        if (bm >= 0 && baseline->T == r->T && baseline->m[bm].ridge &&
            (st = ch_add_task_series(c, baseline, bm, sl[i], 1, CH_KIND_NONE, "")) != GS_OK) {
            ch_free(c);
            return st;
        }
    }
    int a = 0, b = 0, gap = 0, exact = 0;
    for (int i = 0; i < nm; i++) {
        if (!r->m[ms[i]].ridge) continue;
        if ((st = ch_add_task_series(c, r, ms[i], sl[i], 0, CH_KIND_NONE, "")) != GS_OK ||
            (st = mark_estimates(&c->series[c->nseries - 1], r, ms[i], &a, &b, &gap, &exact)) != GS_OK) {
            ch_free(c);
            return st;
        }
    }
    ch_task_axis(c, r->T);
    snprintf(c->y.label, sizeof c->y.label, "stable rank of G+\u03c4I");
    c->y_near_one = 1;
    ch_axis_auto_y(c, 1);
    c->mark_x = ch_clamp_task(r, task);
    ch_pending_note(c, r, ms, nm);
    if (a) estimate_note(c, a, b, gap, exact);
    ch_no_gram_note(c, r, ms, nm, 0, "");
    return GS_OK;
}


int ch_build_erank_cond(ch_chart *c, const en_results *r, int m0, int m1, int task, int which)
{
    ch_chart_init(c, which == CH_COND ? "Condition number" : "Effective rank");
    if (!r || r->T < 1) return gs_error(GS_EINPUT, "%s chart: no results", c->title);
    int ms[2], nm = ch_collect_methods(r, m0, m1, ms), sl[2];
    ch_style_slots(r, ms, nm, sl);
    int known = 0, est = 0;
    for (int i = 0; i < nm; i++) {
        if (!r->m[ms[i]].ridge) continue;
        ch_series *s = ch_add_series(c, r->T, r->m[ms[i]].name, sl[i], ms[i], 0, CH_KIND_NONE, "");
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
    ch_task_axis(c, r->T);
    ch_axis_auto_y(c, which == CH_COND);
    if (which == CH_COND && c->y.scale != CH_LOG10) {
        /* condition numbers: always a log axis (one decade at least) */
        double lo = c->y.lo > 0 ? c->y.lo : 1, hi = c->y.hi > lo ? c->y.hi : lo * 10;
        ch_axis_log10(&c->y, lo, hi, 8);
    }
    snprintf(c->y.label, sizeof c->y.label, which == CH_COND ? "\u03ba(G+\u03c4I)" : "effective rank of G+\u03c4I");
    c->mark_x = ch_clamp_task(r, task);
    ch_pending_note(c, r, ms, nm);
    if (which == CH_ERANK && known < r->T) {
        char text[48];
        snprintf(text, sizeof text, "spectrum at %d of %d tasks", known, r->T);
        ch_note_add(c, text);
    }
    if (est) ch_note_add(c, "Lanczos estimate");
    ch_no_gram_note(c, r, ms, nm, 0, "");
    return GS_OK;
}

int ch_build_theorem(ch_chart *c, const en_results *r, int ref, int aug, const double *before,
                     const double *bound, const double *after, int task)
{
    ch_chart_init(c, "Theorem 1");
    if (!r || r->T < 1 || !ch_valid_method(r, ref) || !ch_valid_method(r, aug))
        return gs_error(GS_EINPUT, "Theorem 1 chart: needs a reference and an augmenting method");
    int ms[2] = {ref, aug}, sl[2];
    ch_style_slots(r, ms, 2, sl);
    const double *ys[3] = {before, after, bound};
    const char *what[3] = {"sr(G+\u03c4I)", "sr(G+\u0394+\u03c4I)", "lower bound"};
    for (int k = 0; k < 3; k++) {
        int m = k == 0 ? ref : aug;
        ch_series *s = ch_add_series(c, r->T, r->m[m].name, k == 0 ? sl[0] : sl[1], m, 0, CH_KIND_NONE, what[k]);
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
    ch_task_axis(c, r->T);
    ch_axis_auto_y(c, 1);
    snprintf(c->y.label, sizeof c->y.label, "stable rank");
    snprintf(c->note, sizeof c->note, "\u25b2 dotted: lower bound");
    c->mark_x = ch_clamp_task(r, task);
    return GS_OK;
}
