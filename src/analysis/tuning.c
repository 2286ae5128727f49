/* analysis/tuning.c — the search of one parameter on the validation rows: a grid over the
 * parameter table's tuning range, then a golden section where it pays, and RanPAC's λ grid
 * (gs_tune.h; used by `tune` and the TUI's `t`). */
#include "gs_tune.h"
#include "gs_common.h"
#include "gs_tausweep.h"

#include <math.h>
#include <string.h>

/* The ranges are the parameter table's tuning columns (gs_params.h): τ over nine decades as in
 * the reference configurations (1e-2 .. 1e4 are all in use); β from none to four times the
 * paper's weight; α_base over (0, 1]; ξ from "α_c ≈ 1 for every class" to "α_c ≈ α_base from a
 * handful of rows". */
const tn_space *tn_space_find(const char *name)
{
    const pa_param *r = pa_find(name);
    return r && pa_tunable(r) ? r : NULL;
}

int tn_refines(const tn_space *sp) { return !(sp->dep & (EN_DEP_SLDA | EN_DEP_KLDA | EN_DEP_FECAM)); }

/* The objective from validation accuracies (overall, head, tail), as tn_objective reads them. */
static double objective_of(double acc, double head, double tail, op_objective obj)
{
    switch (obj) {
    case OP_OBJ_TAIL: return tail;
    case OP_OBJ_BALANCED: return 0.5 * (head + tail);
    default: return acc;
    }
}

static void trace_add(tn_trace *tr, double v, double f)
{
    if (!tr) return;
    if (tr->n < tr->cap) { tr->value[tr->n] = v; tr->objective[tr->n] = f; }
    tr->n++;
}

double tn_get(const op_params *q, const tn_space *sp) { return pa_get_params(q, sp); }
void tn_set(op_params *q, const tn_space *sp, double v) { pa_put_params(q, sp, v); }

double tn_objective(const en_results *r, int m, op_objective obj)
{
    const en_snap *s = &r->m[m].snaps[r->T - 1];
    if (s->state != EN_DONE) return NAN;
    return objective_of(s->val_acc, s->val_head_acc, s->val_tail_acc, obj);
}

/* The search variable u (log10 for log-scale parameters) and back. */
static double to_value(const tn_space *sp, double u) { return sp->tune_log ? pow(10.0, u) : u; }

typedef struct {
    en_engine *const *e;     /* one engine per seed; the objective is their mean */
    const uint64_t *seeds;   /* each engine's seed, or NULL: q's */
    int ne, cur;             /* cur: the engine being updated (for the progress callback) */
    int m;
    op_params *q;
    const tn_space *sp;
    op_objective obj;
    const volatile int *cancel;
    double best_u, best_f;
    int have_best, evals;
    tn_trace *tr;
    volatile int stop;       /* set once the last task is reported (or on an outside cancel) */
} tn_ctx;

/* The outside cancel flag, set by another thread (the TUI's worker): read atomically, as the
 * engine reads its own flags. */
static int cancelled(const tn_ctx *c) { return c->cancel && __atomic_load_n(c->cancel, __ATOMIC_RELAXED); }

/* Progress of an evaluation: the objective needs the last task only, so the update stops once
 * that task is reported. With every Gram cached (a τ or β change) the engine computes the task
 * asked for first, so an evaluation solves and predicts one task instead of all of them; with new
 * rows (α_base, ξ) it builds every task's rows and Grams, then solves the task asked for first. */
static void stop_after_last(double frac, const char *what, void *user)
{
    (void)frac; (void)what;
    tn_ctx *c = user;
    const en_results *r = en_get_results(c->e[c->cur]);
    if (r->m[c->m].snaps[r->T - 1].state == EN_DONE || cancelled(c))
        __atomic_store_n(&c->stop, 1, __ATOMIC_RELAXED); /* the engine reads it with __atomic_load_n */
}

/* Objective at u: the mean over the engines (seeds); NaN at any seed counts as worst. Remembers
 * the best point evaluated. */
static int eval_at(tn_ctx *c, double u, double *f)
{
    op_params q = *c->q;
    tn_set(&q, c->sp, to_value(c->sp, u));
    double sum = 0;
    for (c->cur = 0; c->cur < c->ne; c->cur++) {
        en_engine *e = c->e[c->cur];
        if (c->seeds) q.seed = c->seeds[c->cur];
        __atomic_store_n(&c->stop, 0, __ATOMIC_RELAXED);
        int rc = en_update(e, &q, en_get_results(e)->T, &c->stop, stop_after_last, c);
        if (rc == GS_ECANCEL && !cancelled(c)) rc = GS_OK;
        if (rc) return rc;
        sum += tn_objective(en_get_results(e), c->m, c->obj);
    }
    c->evals++;
    double v = sum / c->ne;
    *f = isnan(v) ? -INFINITY : v;
    trace_add(c->tr, to_value(c->sp, u), *f);
    if (!c->have_best || *f > c->best_f) { c->best_f = *f; c->best_u = u; c->have_best = 1; }
    return GS_OK;
}

int tn_search(en_engine *const *e, const uint64_t *seeds, int ne, int m, op_params *q, const tn_space *sp,
              op_objective obj, const volatile int *cancel, double *best, int *evals)
{
    return tn_search_traced(e, seeds, ne, m, q, sp, obj, cancel, best, evals, NULL);
}

int tn_search_traced(en_engine *const *e, const uint64_t *seeds, int ne, int m, op_params *q, const tn_space *sp,
                     op_objective obj, const volatile int *cancel, double *best, int *evals, tn_trace *tr)
{
    tn_ctx c = {e, seeds, ne, 0, m, q, sp, obj, cancel, 0, -INFINITY, 0, 0, tr, 0};
    double ulo = sp->tune_log ? log10(sp->tune_lo) : sp->tune_lo, uhi = sp->tune_log ? log10(sp->tune_hi) : sp->tune_hi;
    double step = (uhi - ulo) / (sp->tune_grid - 1), f;
    int rc, ibest = 0;
    for (int i = 0; i < sp->tune_grid; i++) {
        double prev = c.best_f;
        if ((rc = eval_at(&c, ulo + i * step, &f))) return rc;
        if (i == 0 || c.best_f > prev) ibest = i;
    }
    if (!tn_refines(sp)) goto done;
    /* golden section between the best grid point's neighbours (maximizing) */
    const double g = 0.5 * (sqrt(5.0) - 1);
    double a = ulo + (ibest > 0 ? ibest - 1 : 0) * step;
    double b = ulo + (ibest < sp->tune_grid - 1 ? ibest + 1 : sp->tune_grid - 1) * step;
    double x1 = b - g * (b - a), x2 = a + g * (b - a), f1, f2;
    if ((rc = eval_at(&c, x1, &f1)) || (rc = eval_at(&c, x2, &f2))) return rc;
    for (int k = 0; k < TN_GOLDEN_STEPS; k++) {
        if (f1 >= f2) { /* the maximum is in [a, x2] */
            b = x2; x2 = x1; f2 = f1;
            x1 = b - g * (b - a);
            if ((rc = eval_at(&c, x1, &f1))) return rc;
        } else {
            a = x1; x1 = x2; f1 = f2;
            x2 = a + g * (b - a);
            if ((rc = eval_at(&c, x2, &f2))) return rc;
        }
    }
done:
    tn_set(q, sp, to_value(sp, c.best_u));
    *best = c.best_f;
    *evals = c.evals;
    return GS_OK;
}

int tn_lambda_search(en_engine *const *e, const en_problem *const *p, const uint64_t *seeds, int ne, int m, op_params *q,
                     op_objective obj, const volatile int *cancel, double *best, int *evals, tn_trace *tr)
{
    double taus[TN_LAMBDA_N], sum[TN_LAMBDA_N] = {0};
    ts_log_grid(TN_LAMBDA_LO, TN_LAMBDA_HI, TN_LAMBDA_N, taus);
    op_params at = *q;
    at.ranpac_lambda = 0; /* the sweep is over τ itself */
    for (int k = 0; k < ne; k++) {
        ts_curve cv;
        memset(&cv, 0, sizeof cv);
        if (seeds) at.seed = seeds[k];
        int rc = en_update(e[k], &at, p[k]->T, cancel, NULL, NULL);
        if (!rc) rc = ts_compute(e[k], p[k], m, p[k]->T, taus, TN_LAMBDA_N, &cv, cancel);
        for (int g = 0; !rc && g < TN_LAMBDA_N; g++) {
            double f = objective_of(cv.val_acc[g], cv.val_head_acc[g], cv.val_tail_acc[g], obj);
            sum[g] += isnan(f) ? -INFINITY : f;
        }
        ts_free(&cv);
        if (rc) return rc;
    }
    int ib = 0;
    for (int g = 0; g < TN_LAMBDA_N; g++) {
        trace_add(tr, taus[g], sum[g] / ne);
        if (sum[g] > sum[ib]) ib = g;
    }
    q->tau = taus[ib];
    q->ranpac_lambda = 0;
    *best = sum[ib] / ne;
    *evals = TN_LAMBDA_N;
    return GS_OK;
}
