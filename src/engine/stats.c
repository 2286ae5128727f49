/* engine/stats.c — the jobs of the learners without a Gram matrix (EN_STATS: ncm, slda, klda,
 * fecam, anacp; gs_learner.h), the counterpart of ridge.c: a task's fit from its real rows and
 * the augmenter's weighted rows, the predictions and accuracies of a task (en_job_custom: the
 * plan's CUSTOM job), and the learner's own spectrum on request. State: engine_int.h. */
#include "engine_int.h"
#include "gs_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stats learner's fit of task t: the task's real rows, and its augmenter's rows with weight
 * w·ω (w = β: the augmenter's weight, ω the row's own). */
static int fit_stats(en_engine *e, mstate *ms, int t)
{
    const en_problem *p = ms->p;
    long a = p->task_row_start[t], b = p->task_row_start[t + 1];
    en_rowset real = {gm_row(&p->h, a), p->y + a, NULL, b - a, NULL};
    double w = en_method_weight(ms, ms->lctx.params);
    /* ω, the rows' own weights, for a learner that refits with another w */
    double *omega = ms->L->refit ? gs_malloc((size_t)(ms->aug.n ? ms->aug.n : 1), sizeof(double), "weights") : NULL;
    if (ms->L->refit && !omega) return GS_ENOMEM;
    if (omega && ms->aug.n) memcpy(omega, ms->aug.w, (size_t)ms->aug.n * sizeof(double));
    for (long i = 0; i < ms->aug.n; i++) ms->aug.w[i] *= w;
    en_rowset aug = {ms->aug.X.v, ms->aug.y, ms->aug.w, ms->aug.n, omega};
    int rc = GS_OK;
    if (t == 0) ms->rows_fitted = 0;
    if (t == 0 && ms->L->reset) rc = ms->L->reset(&ms->lctx);
    if (!rc) rc = ms->L->fit(&ms->lctx, t, &real, &aug);
    if (!rc && ms->rows_fitted == t) ms->rows_fitted = t + 1;
    free(omega);
    return rc;
}

/* A learner without G: the spectrum of its own matrix (en_learner.spectrum) into sn at task t, when
 * it has one and still holds task t's matrix (the last fitted task); else sn stays without (the
 * views say so). Only on request (en_ensure_spectrum): a view that shows it asks, a run that
 * prints numbers never pays for it (KLDA's is of a --klda-dim square matrix). */
int en_own_spectrum(mstate *ms, en_snap *sn, int t)
{
    if (!ms->L->spectrum || sn->eig) return GS_OK;
    long D = ms->p->D, n = 0;
    double *eig = gs_malloc((size_t)D, sizeof(double), "spectrum");
    if (!eig) return GS_ENOMEM;
    int rc = ms->L->spectrum(&ms->lctx, t, eig, &n);
    if (rc || n <= 0) { free(eig); return rc; }
    for (long i = n; i < D; i++) eig[i] = NAN; /* fewer than D (klda with M < D) */
    sn->eig = eig;
    sn->flags |= EN_OWN_SPECTRUM;
    return GS_OK;
}

static int eval_custom(en_engine *e, mstate *ms, en_snap *sn, int t)
{
    const en_problem *p = ms->p;
    long n = p->test_task_end[t];
    sn->flags = EN_NO_GRAM;
    sn->stable_rank = sn->cond = sn->erank = sn->lambda_max = sn->lambda_min = sn->df = NAN;
    sn->tau = 0;
    free(sn->eig);
    sn->eig = NULL;
    int rc = ms->L->predict(&ms->lctx, t, p->test_h.v, n, ms->pred); /* its spectrum: on request */
    if (rc) {
        sn->state = EN_FAILED;
        snprintf(sn->error, sizeof sn->error, "%s, task %d: %s", ms->name, t + 1, gs_last_error());
        return GS_OK;
    }
    en_fill_accuracy(e->p, sn, ms->pred, n);
    if ((rc = en_predict_val(e, ms, sn, t))) {
        sn->state = EN_FAILED;
        snprintf(sn->error, sizeof sn->error, "%s, task %d: %s", ms->name, t + 1, gs_last_error());
    }
    return GS_OK; /* EN_DONE when the task is reported (report_task), as for the ridge methods */
}

int en_job_custom(en_engine *e, mstate *ms, en_snap *sn, int t)
{
    if (ms->fit_valid <= t) {
        /* only the augmenter's weight changed: the learner refits from the rows it kept */
        int rc = ms->refit ? ms->L->refit(&ms->lctx, t, en_method_weight(ms, ms->lctx.params)) : fit_stats(e, ms, t);
        if (rc) return rc;
        ms->fit_valid = t + 1;
    }
    return eval_custom(e, ms, sn, t);
}
