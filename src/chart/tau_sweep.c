/* chart/tau_sweep.c — accuracy and stable rank against τ at one task (gs_chart.h). */
#include "chart_int.h"

#include <math.h>
#include <stdio.h>

static void best_tau_text(const ts_curve *cv, char *out, size_t n)
{
    char d[32];
    ch_display_name(cv->method, d, sizeof d);
    if (cv->best >= 0 && cv->best < cv->n) snprintf(out, n, "%s %.3g", d, cv->tau[cv->best]);
    else snprintf(out, n, "%s —", d);
}

int ch_build_tau_sweep(ch_chart *c, const ts_curve *a, const ts_curve *b, double tau_mark, int what)
{
    ch_chart_init(c, what == CH_TS_STABLE_RANK ? "Stable rank vs \u03c4" : "Accuracy vs \u03c4");
    if (!a || a->n < 1 || !a->tau) return gs_error(GS_EINPUT, "\u03c4-sweep chart: no curve");
    if (b && (b->n < 1 || !b->tau)) b = NULL;
    const ts_curve *cv[2] = {a, b};
    int ncv = b ? 2 : 1, sl[2];
    ch_name_slots(a->method, b ? b->method : NULL, sl);
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
    if (isfinite(c->mark_x)) snprintf(c->mark_label, sizeof c->mark_label, "current \u03c4 = %.3g", tau_mark);
    if (what == CH_TS_STABLE_RANK) {
        for (int i = 0; i < ncv; i++) {
            ch_series *s = ch_add_series(c, cv[i]->n, cv[i]->method, sl[i], i, 0, CH_KIND_NONE, "");
            if (!s) { ch_free(c); return GS_ENOMEM; }
            for (int k = 0; k < cv[i]->n; k++) {
                s->x[k] = cv[i]->tau[k];
                double v = cv[i]->stable_rank[k];
                s->y[k] = isfinite(v) ? v : NAN;
            }
        }
        ch_axis_auto_y(c, 1);
        snprintf(c->y.label, sizeof c->y.label, "stable rank of G+\u03c4I");
        snprintf(c->note, sizeof c->note, "task %d", a->task);
        return GS_OK;
    }
    static const ch_kind kinds[3] = {CH_KIND_OVERALL, CH_KIND_HEAD, CH_KIND_TAIL};
    static const char *kname[3] = {"overall", "head", "tail"};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < ncv; i++) {
            ch_series *s = ch_add_series(c, cv[i]->n, cv[i]->method, sl[i], i, 0, kinds[k], kname[k]);
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
        ch_series *s = ch_add_series(c, cv[i]->n, cv[i]->method, sl[i], i, 1, CH_KIND_OVERALL, "");
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
