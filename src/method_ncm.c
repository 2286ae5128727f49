/* method_ncm.c — SimpleCIL / NCM, a stats learner (gs_learner.h): each class is the weighted
 * mean of its training rows in the classifier space h (real rows weight 1, an augmenter's rows
 * their weight); a test row gets the class whose mean has the highest cosine similarity. Class means never change once their task is seen, so predicting for an earlier
 * task t only restricts the candidates to the classes of tasks 1..t.
 * Ownership: the per-class sums live in en_mctx.priv (ncm_state), freed by ncm_destroy.
 */
#include "gs_learner.h"
#include "gs_common.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    gm_mat sum;    /* C × D running weighted sums */
    double *count; /* C: weights summed */
} ncm_state;

static void ncm_destroy(en_mctx *m)
{
    ncm_state *s = m->priv;
    if (!s) return;
    gm_free(&s->sum);
    free(s->count);
    free(s);
    m->priv = NULL;
}

static int ncm_reset(en_mctx *m)
{
    const en_problem *p = m->p;
    ncm_state *s = m->priv;
    if (!s) {
        s = gs_calloc(1, sizeof *s, "ncm");
        if (!s) return GS_ENOMEM;
        m->priv = s;
        int rc = gm_alloc(&s->sum, p->C, p->D, "ncm class means");
        s->count = gs_calloc((size_t)p->C, sizeof(double), "ncm class means");
        if (rc || !s->count) { ncm_destroy(m); return GS_ENOMEM; }
    }
    memset(s->sum.v, 0, (size_t)p->C * (size_t)p->D * sizeof(double));
    memset(s->count, 0, (size_t)p->C * sizeof(double));
    return GS_OK;
}

static void add_rows(ncm_state *s, const en_rowset *r, long D)
{
    for (long i = 0; i < r->n; i++) {
        double w = r->w ? r->w[i] : 1.0;
        cblas_daxpy((int)D, w, r->H + (size_t)i * D, 1, gm_row(&s->sum, r->y[i]), 1);
        s->count[r->y[i]] += w;
    }
}

static int ncm_fit(en_mctx *m, int t, const en_rowset *real, const en_rowset *aug)
{
    (void)t;
    if (!m->priv) { int rc = ncm_reset(m); if (rc) return rc; }
    add_rows(m->priv, real, m->p->D);
    add_rows(m->priv, aug, m->p->D);
    return GS_OK;
}

static int ncm_predict(en_mctx *m, int t, const double *X, long n, int *pred)
{
    const en_problem *p = m->p;
    const st_stream *st = p->st;
    ncm_state *s = m->priv;
    if (!s) return gs_error(GS_ERUN, "ncm: not fitted");
    long D = p->D;
    int Cs = st->task_class_start[t + 1];
    if (n == 0 || Cs == 0) return GS_OK;
    gm_mat P = {0};
    int rc = gm_alloc(&P, Cs, D, "ncm prototypes");
    double *sc = rc ? NULL : gs_malloc((size_t)n * (size_t)Cs, sizeof(double), "ncm scores");
    if (rc || !sc) { gm_free(&P); return GS_ENOMEM; }
    for (int k = 0; k < Cs; k++) {
        int c = st->class_order[k];
        double *row = gm_row(&P, k);
        memcpy(row, gm_row(&s->sum, c), (size_t)D * sizeof(double));
        double nr = cblas_dnrm2((int)D, row, 1);
        /* normalize(sum/n) = normalize(sum); a class without rows scores 0 everywhere */
        if (s->count[c] > 0 && nr > 0) cblas_dscal((int)D, 1.0 / nr, row, 1);
        else memset(row, 0, (size_t)D * sizeof(double));
    }
    /* cos(x, p_k) = x·p_k / ‖x‖; ‖x‖ does not change the argmax over k. */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, Cs, (int)D, 1.0, X, (int)D, P.v, (int)D, 0.0,
                sc, Cs);
    en_argmax_seen(st, sc, n, Cs, pred);
    free(sc);
    gm_free(&P);
    return GS_OK;
}

const en_learner en_learner_ncm = {
    .name = "ncm",
    .summary = "SimpleCIL: nearest class mean by cosine similarity",
    .family = EN_STATS,
    .reset = ncm_reset,
    .fit = ncm_fit,
    .predict = ncm_predict,
    .destroy = ncm_destroy,
};
