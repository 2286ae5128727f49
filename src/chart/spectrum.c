/* chart/spectrum.c — the eigenspectrum of G + τI (or a learner's own matrix) at a task, and the ratio
 * λ̃ᵢ/λᵢ of two spectra (gs_chart.h). */
#include "chart_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The snapshot whose spectrum the chart shows: G + τI of a ridge method, or the own matrix of a
 * learner without G (EN_OWN_SPECTRUM); NULL when there is none at that task. */
const en_snap *ch_spectrum_snap(const en_results *r, int m, int task)
{
    if (!ch_valid_method(r, m)) return NULL;
    const en_snap *s = &r->m[m].snaps[task - 1];
    if (s->state != EN_DONE || !s->eig) return NULL;
    if (r->m[m].ridge) return (s->flags & EN_SPECTRUM) && !(s->flags & EN_NO_GRAM) ? s : NULL;
    return s->flags & EN_OWN_SPECTRUM ? s : NULL;
}

/* 1 when m1 is the ratio's reference (the one rule: en_results_pair). */
int ch_ratio_second_ref(const en_results *r, int m0, int m1)
{
    int ref, aug;
    en_results_pair(r, m0, m1, &ref, &aug); /* the one rule for the reference */
    return ref == m1;
}

static int add_spectrum_series(ch_chart *c, const en_results *src, int m, int slot, int ghost,
                               int task, double *lo, double *hi)
{
    const en_snap *sn = ch_spectrum_snap(src, m, task);
    long D = src->m[m].D;
    if (!sn || D < 1) return GS_OK;
    char what[64] = ""; /* a learner's own matrix is named with the series */
    if (!src->m[m].ridge) snprintf(what, sizeof what, "(%s)", src->m[m].spectrum_of);
    ch_series *s = ch_add_series(c, (int)D, src->m[m].name, slot, m, ghost, CH_KIND_NONE, what);
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
    ch_chart_init(c, "Eigenspectrum");
    if (!r || r->T < 1) return gs_error(GS_EINPUT, "spectrum chart: no results");
    task = ch_clamp_task(r, task);
    int ms[2], nm = ch_collect_methods(r, m0, m1, ms), sl[2];
    ch_style_slots(r, ms, nm, sl);
    double lo = INFINITY, hi = -INFINITY;
    int st;
    for (int i = 0; i < nm; i++) {
        int bm = ch_baseline_method(r, ms[i], baseline);
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
    /* where G's eigenvalue equals τ (G + τI's at 2τ): directions below the line are shrunk by the
     * ridge to less than half (the ridge lens's cut); one line per τ of the ridge spectra shown */
    double taus[2];
    int ntau = 0;
    for (int i = 0; live && i < nm; i++) {
        const en_snap *sn = ch_spectrum_snap(r, ms[i], task);
        if (!sn || !r->m[ms[i]].ridge || !(sn->tau > 0) || !isfinite(sn->tau)) continue;
        if (ntau == 1 && taus[0] == sn->tau) continue;
        taus[ntau++] = sn->tau;
    }
    for (int k = 0; k < ntau; k++) {
        ch_series *s = ch_add_series(c, 2, "tau", 2, -1, 0, CH_KIND_NONE, "");
        if (!s) { ch_free(c); return GS_ENOMEM; }
        s->x[0] = 1;
        s->x[1] = (double)D;
        s->y[0] = s->y[1] = 2 * taus[k];
        s->rgb = 0x7f7f7f;
        s->dash = CH_DASH_DOTTED;
        s->marker = CH_MARK_NONE;
        s->letter = 0;
        s->width_pt = 0.8;
        if (ntau > 1) snprintf(s->name, sizeof s->name, "λ(G) = τ = %.3g", taus[k]);
        else snprintf(s->name, sizeof s->name, "λ(G) = τ");
        snprintf(s->method_name, sizeof s->method_name, "λ(G) = τ");
        hi = fmax(hi, 2 * taus[k]);
        lo = fmin(lo, 2 * taus[k]);
    }
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
        ch_no_gram_note(c, r, ms, nm, 1, "no spectrum");
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
            if (r->m[ms[i]].ridge || !ch_spectrum_snap(r, ms[i], task)) continue;
            ch_display_name(r->m[ms[i]].name, disp, sizeof disp);
            size_t len = strlen(text);
            snprintf(text + len, sizeof text - len, "%s: %s; ", disp, r->m[ms[i]].spectrum_of);
        }
        size_t len = strlen(text);
        snprintf(text + len, sizeof text - len, "%s", c->note);
        memcpy(c->note, text, sizeof c->note);
    }
    if ((live || task < r->T) && none) ch_no_gram_note(c, r, ms, nm, 1, "");
    /* a learner keeps its matrix for the last task only (gs_learner.h: spectrum) */
    for (int i = 0; i < nm && task < r->T; i++) {
        if (r->m[ms[i]].ridge || !r->m[ms[i]].spectrum_of[0] || ch_spectrum_snap(r, ms[i], task)) continue;
        char disp[32], text[80];
        ch_display_name(r->m[ms[i]].name, disp, sizeof disp);
        snprintf(text, sizeof text, "%s: spectrum at task %d only", disp, r->T);
        ch_note_add(c, text);
    }
    return GS_OK;
}

int ch_build_eig_ratio(ch_chart *c, const en_results *r, int m0, int m1, int task)
{
    ch_chart_init(c, "\u03bb\u0303\u1d62/\u03bb\u1d62");
    if (!r || r->T < 1) return gs_error(GS_EINPUT, "eigenvalue-ratio chart: no results");
    task = ch_clamp_task(r, task);
    int ms[2], nm = ch_collect_methods(r, m0, m1, ms), sl[2];
    ch_style_slots(r, ms, nm, sl);
    int ref = 0, aug = 1;
    if (nm == 2 && ch_ratio_second_ref(r, ms[0], ms[1])) { ref = 1; aug = 0; }
    long D = nm == 2 ? r->m[ms[aug]].D : 2;
    ch_axis_integer(&c->x, 1, (double)(D > 1 ? D : 2), 6, 0);
    c->x.lo = 1;
    c->x.hi = (double)(D > 1 ? D : 2);
    snprintf(c->x.label, sizeof c->x.label, "index i");
    const en_snap *sr = nm == 2 ? ch_spectrum_snap(r, ms[ref], task) : NULL;
    const en_snap *sa = nm == 2 ? ch_spectrum_snap(r, ms[aug], task) : NULL;
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
    ch_series *s = ch_add_series(c, (int)D, r->m[ms[aug]].name, sl[aug], ms[aug], 0, CH_KIND_NONE, "");
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
