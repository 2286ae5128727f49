/* engine/results.c — the results views read (gs_engine.h: en_results, per-task snapshots, copies,
 * the baseline of a method) and each task's evaluation: accuracies from predictions (overall,
 * head, tail, per class), the validation rows' predictions, a method's A_last and A_avg.
 * State: engine_int.h. */
#include "engine_int.h"
#include "gs_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void en_snap_free(en_snap *s) { free(s->eig); free(s->class_acc); s->eig = s->class_acc = NULL; }

void en_results_free(en_results *r)
{
    for (int m = 0; r->m && m < r->n_methods; m++) {
        if (r->m[m].snaps)
            for (int t = 0; t < r->T; t++) en_snap_free(&r->m[m].snaps[t]);
        free(r->m[m].snaps);
    }
    free(r->m); free(r->is_head); free(r->class_task); free(r->class_kept);
    memset(r, 0, sizeof *r);
}

int en_results_copy(en_results *dst, const en_results *src)
{
    memset(dst, 0, sizeof *dst);
    *dst = *src;
    dst->m = NULL; dst->is_head = NULL; dst->class_task = NULL; dst->class_kept = NULL;
    dst->n_methods = 0;
    int C = src->C, T = src->T;
    dst->m = gs_calloc((size_t)src->n_methods, sizeof *dst->m, "results");
    dst->is_head = gs_malloc((size_t)C, 1, "results");
    dst->class_task = gs_malloc((size_t)C, sizeof(int), "results");
    dst->class_kept = gs_malloc((size_t)C, sizeof(long), "results");
    if (!dst->m || !dst->is_head || !dst->class_task || !dst->class_kept) goto fail;
    memcpy(dst->is_head, src->is_head, (size_t)C);
    memcpy(dst->class_task, src->class_task, (size_t)C * sizeof(int));
    memcpy(dst->class_kept, src->class_kept, (size_t)C * sizeof(long));
    dst->n_methods = src->n_methods;
    for (int m = 0; m < src->n_methods; m++) {
        dst->m[m] = src->m[m];
        dst->m[m].snaps = gs_calloc((size_t)T, sizeof(en_snap), "results");
        if (!dst->m[m].snaps) goto fail;
        for (int t = 0; t < T; t++) {
            const en_snap *a = &src->m[m].snaps[t];
            en_snap *b = &dst->m[m].snaps[t];
            *b = *a;
            b->eig = b->class_acc = NULL;
            if (a->eig) {
                long D = src->m[m].D;
                if (!(b->eig = gs_malloc((size_t)D, sizeof(double), "results"))) goto fail;
                memcpy(b->eig, a->eig, (size_t)D * sizeof(double));
            }
            if (a->class_acc) {
                if (!(b->class_acc = gs_malloc((size_t)C, sizeof(double), "results"))) goto fail;
                memcpy(b->class_acc, a->class_acc, (size_t)C * sizeof(double));
            }
        }
    }
    return GS_OK;
fail:
    en_results_free(dst);
    return GS_ENOMEM;
}

int en_results_baseline(const en_results *r, int m)
{
    if (m < 0 || m >= r->n_methods) return -1;
    for (int k = 0; k < r->n_methods; k++)
        if (k != m && !r->m[k].augmenter[0] && !strcmp(r->m[k].learner, r->m[m].learner)) return k;
    return -1;
}

/* 2 for a learner alone, plus 1 for a ridge method: the higher is the reference of a pair that
 * is not a learner and it with an augmenter. */
static int ref_score(const en_results *r, int m) { return 2 * !r->m[m].augmenter[0] + !!r->m[m].ridge; }

int en_results_pair(const en_results *r, int m0, int m1, int *ref, int *aug)
{
    int ok0 = r && m0 >= 0 && m0 < r->n_methods, ok1 = r && m1 >= 0 && m1 < r->n_methods && m1 != m0;
    if (!ok0) { m0 = ok1 ? m1 : -1; ok0 = ok1; ok1 = 0; }
    *ref = ok0 ? m0 : -1;
    *aug = ok1 ? m1 : -1;
    if (!ok0 || !ok1) return 0;
    int pair1 = r->m[m1].augmenter[0] && !r->m[m0].augmenter[0] && en_results_baseline(r, m1) == m0;
    int pair0 = r->m[m0].augmenter[0] && !r->m[m1].augmenter[0] && en_results_baseline(r, m0) == m1;
    if (pair0 || (!pair1 && ref_score(r, m1) > ref_score(r, m0))) { *ref = m1; *aug = m0; }
    return pair0 || pair1;
}

/* ---- a task's evaluation ------------------------------------------------------------ */

int en_accuracy(const en_problem *p, int task, const int *pred, long n, double *acc, double *head_acc,
                double *tail_acc, double *class_acc)
{
    return en_accuracy_of(p, task, p->test_y, pred, n, acc, head_acc, tail_acc, class_acc);
}

int en_accuracy_of(const en_problem *p, int task, const int *y, const int *pred, long n, double *acc,
                   double *head_acc, double *tail_acc, double *class_acc)
{
    const st_stream *st = p->st;
    int C = p->C, t = task - 1;
    long *corr = gs_calloc((size_t)C, sizeof(long), "accuracy"), *tot = gs_calloc((size_t)C, sizeof(long), "accuracy");
    if (!corr || !tot) { free(corr); free(tot); return GS_ENOMEM; }
    long correct = 0;
    for (long i = 0; i < n; i++) {
        int c = y[i];
        tot[c]++;
        if (pred[i] == c) { corr[c]++; correct++; }
    }
    *acc = n ? 100.0 * (double)correct / (double)n : NAN;
    double hs = 0, ts = 0;
    int hn = 0, tn = 0;
    for (int c = 0; c < C; c++) {
        if (class_acc) class_acc[c] = NAN;
        if (st->class_task[c] < 0 || st->class_task[c] > t || tot[c] == 0) continue;
        double a = 100.0 * (double)corr[c] / (double)tot[c];
        if (class_acc) class_acc[c] = a;
        if (st->is_head[c]) { hs += a; hn++; } else { ts += a; tn++; }
    }
    *head_acc = hn ? hs / hn : NAN;
    *tail_acc = tn ? ts / tn : NAN;
    free(corr); free(tot);
    return GS_OK;
}

void en_fill_accuracy(const en_problem *p, en_snap *sn, const int *pred, long n)
{
    sn->test_rows = n;
    if (en_accuracy(p, sn->task, pred, n, &sn->acc, &sn->head_acc, &sn->tail_acc, sn->class_acc))
        sn->acc = sn->head_acc = sn->tail_acc = NAN;
}

/* Validation accuracy of task t from the predictions vpred of the seen validation rows. */
static void fill_val_accuracy(const en_problem *p, en_snap *sn, const int *vpred, long nv)
{
    sn->val_rows = nv;
    sn->val_acc = sn->val_head_acc = sn->val_tail_acc = NAN;
    if (nv > 0 && en_accuracy_of(p, sn->task, p->val_y, vpred, nv, &sn->val_acc, &sn->val_head_acc,
                                 &sn->val_tail_acc, NULL))
        sn->val_acc = sn->val_head_acc = sn->val_tail_acc = NAN;
}

int en_predict_val(en_engine *e, mstate *ms, en_snap *sn, int t)
{
    const en_problem *p = ms->p;
    long nv = p->val_h.rows ? p->val_task_end[t] : 0;
    if (nv > 0) {
        int rc;
        if (!en_is_ridge(ms)) {
            rc = ms->L->predict(&ms->lctx, t, p->val_h.v, nv, ms->vpred);
        } else {
            int Cs = p->st->task_class_start[t + 1];
            rc = am_argmax_screened(p->val_h.v, NULL, NULL, nv, 0, nv, p->D, ms->Wt.v, Cs,
                                 e->cfg.exact_scores ? AM_SCORES_DOUBLE : AM_SCORES_SCREEN, ms->vpred, NULL);
            for (long i = 0; !rc && i < nv; i++) ms->vpred[i] = p->st->class_order[ms->vpred[i]];
        }
        if (rc) return rc;
    }
    fill_val_accuracy(e->p, sn, ms->vpred, nv);
    return GS_OK;
}

void en_finish_method(en_method_result *mr, int T)
{
    double s = 0;
    for (int t = 0; t < T; t++) {
        if (mr->snaps[t].state != EN_DONE) { mr->a_last = mr->a_avg = mr->val_a_last = mr->val_a_avg = NAN; return; }
        s += mr->snaps[t].acc;
    }
    mr->a_last = mr->snaps[T - 1].acc;
    mr->a_avg = s / T;
    double v = 0;
    for (int t = 0; t < T; t++) v += mr->snaps[t].val_acc;
    mr->val_a_last = mr->snaps[T - 1].val_acc;
    mr->val_a_avg = v / T;
}

void en_argmax_seen(const st_stream *st, const double *sc, long n, int Cs, int *pred)
{
    for (long i = 0; i < n; i++) {
        const double *r = sc + (size_t)i * Cs;
        int best = 0;
        for (int k = 1; k < Cs; k++) if (r[k] > r[best]) best = k;
        pred[i] = st->class_order[best];
    }
}
