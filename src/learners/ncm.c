/* learners/ncm.c — SimpleCIL / NCM, the learner `ncm`, as the reference code (SalehMomeni/AnaCP
 * models/ncm.py) does it: each class is the mean of its training rows in the learner's input
 * space h; a test row gets the class whose mean has the highest cosine similarity. Synthetic rows
 * enter the class sums and weights with their weight (μ_c = Σ ω h / Σ ω). Class means never
 * change once their task is seen, so predicting for an earlier task t only restricts the
 * candidates to the classes of tasks 1..t. No covariance, so no spectrum.
 * Ownership: the per-class sums live in en_mctx.priv (da_stats without scatter), freed by
 * ncm_destroy.
 */
#include "gs_argmax.h"
#include "gs_common.h"
#include "gs_lda.h"
#include "gs_learner.h"

#include <gsl/gsl_cblas.h>
#include <stdlib.h>
#include <string.h>

static void ncm_destroy(en_mctx *m)
{
    da_stats *s = m->priv;
    if (!s) return;
    da_stats_free(s);
    free(s);
    m->priv = NULL;
}

static int ncm_reset(en_mctx *m)
{
    da_stats *s = m->priv;
    if (!s) {
        if (!(s = gs_calloc(1, sizeof *s, "ncm"))) return GS_ENOMEM;
        m->priv = s;
        if (da_stats_init(s, m->p->C, m->p->D, 0)) { ncm_destroy(m); return GS_ENOMEM; }
    }
    da_stats_zero(s);
    return GS_OK;
}

static int ncm_fit(en_mctx *m, int t, const en_rowset *real, const en_rowset *aug)
{
    int rc;
    if (!m->priv && (rc = ncm_reset(m))) return rc;
    if ((rc = da_add_rows(m->priv, real->H, real->y, real->w, real->n))) return rc;
    return aug ? da_add_rows(m->priv, aug->H, aug->y, aug->w, aug->n) : GS_OK;
}

static int ncm_predict(en_mctx *m, int t, const double *X, long n, int *pred)
{
    const st_stream *st = m->p->st;
    da_stats *s = m->priv;
    if (!s) return gs_error(GS_ERUN, "ncm: not fitted");
    long D = s->D;
    int Cs = st->task_class_start[t + 1];
    if (n == 0 || Cs == 0) return GS_OK;
    double *P = gs_malloc((size_t)Cs * (size_t)D, sizeof(double), "ncm prototypes");
    if (!P) return GS_ENOMEM;
    for (int k = 0; k < Cs; k++) {
        int c = st->class_order[k];
        double *row = P + (size_t)k * D;
        memcpy(row, s->sum + (size_t)c * D, (size_t)D * sizeof(double));
        double nr = cblas_dnrm2((int)D, row, 1);
        /* normalize(sum / w) = normalize(sum); a class without rows scores 0 everywhere */
        if (s->w[c] > 0 && nr > 0) cblas_dscal((int)D, 1.0 / nr, row, 1);
        else memset(row, 0, (size_t)D * sizeof(double));
    }
    /* cos(x, p_k) = x·p_k / ‖x‖; ‖x‖ does not change the argmax over k. */
    int rc = am_argmax(X, NULL, 0, n, D, P, NULL, NULL, Cs, AM_BLOCK, pred);
    for (long i = 0; i < n && !rc; i++) pred[i] = st->class_order[pred[i]];
    free(P);
    return rc;
}

static double ncm_bytes(const en_size *z, long D)
{
    return 8.0 * (2.0 * (double)z->C * D + 2.0 * z->C);
}

const en_learner en_learner_ncm = {
    .name = "ncm", .display = "SimpleCIL", .letter = 'N',
    .summary = "SimpleCIL: nearest class mean by cosine similarity",
    .family = EN_STATS,
    .map = EN_MAP_IDENTITY, /* the backbone's features, as the reference (not --expand's map) */
    .reset = ncm_reset,
    .fit = ncm_fit,
    .predict = ncm_predict,
    .destroy = ncm_destroy,
    .bytes = ncm_bytes,
};
