/* method_slda.c — streaming LDA with shrinkage, a stats learner (gs_learner.h), in the classifier
 * space h.
 *
 * State after task t: class means μ_c and the within-class scatter S = Σ_c Σ_{i∈c}(h_i−μ_c)(h_i−μ_c)ᵀ
 * of every class seen (a class arrives whole in one task, so this is exact and equals what a
 * sample-by-sample Welford update per class gives). An augmenter's rows of class c (same task)
 * enter with their weights w: μ_c = (Σ h + Σ w h̃)/(n_c + Σ w), S += Σ w (h̃−μ_c)(h̃−μ_c)ᵀ, and
 * N counts Σ w. The covariance is the pooled maximum-
 * likelihood estimate Σ = S/N (N = rows seen), as the official streaming SLDA update
 * approximates; shrinkage is convex: Λ = ((1−ε)Σ + εI)⁻¹ with ε = --slda-eps (default 1e-4,
 * the official value). Λ is applied by Cholesky (dpotrf/dpotrs), never formed.
 * Scores: s_c(x) = xᵀΛμ_c − ½ μ_cᵀΛμ_c; the prediction is the argmax over seen classes.
 * The model of every task (V = ΛM, biases) is kept so that predicting for an earlier task, as
 * the engine does after a τ change, needs no refit (memory: Σ_t D·C_seen(t) doubles).
 * Ownership: slda_state in en_mctx.priv, freed by slda_destroy.
 */
#include "gs_learner.h"
#include "gs_common.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int T;
    gm_mat mean;   /* C × D */
    gm_mat S;      /* D × D scatter, full symmetric */
    gm_mat A;      /* D × D work */
    double nseen;  /* rows seen, synthetic rows counted by their weight */
    double **V;    /* T: C_seen(t) × D rows V_k = Λ μ_k (class_order), NULL if not fitted/failed */
    double **b;    /* T: C_seen(t) biases */
    char (*err)[160]; /* T: why task t failed */
} slda_state;

static void drop_models(slda_state *s)
{
    for (int t = 0; t < s->T; t++) {
        free(s->V[t]); free(s->b[t]);
        s->V[t] = s->b[t] = NULL;
        s->err[t][0] = '\0';
    }
}

static void slda_destroy(en_mctx *m)
{
    slda_state *s = m->priv;
    if (!s) return;
    if (s->V) drop_models(s);
    free(s->V); free(s->b); free(s->err);
    gm_free(&s->mean); gm_free(&s->S); gm_free(&s->A);
    free(s);
    m->priv = NULL;
}

static int slda_reset(en_mctx *m)
{
    const en_problem *p = m->p;
    slda_state *s = m->priv;
    if (!s) {
        s = gs_calloc(1, sizeof *s, "slda");
        if (!s) return GS_ENOMEM;
        m->priv = s;
        s->T = p->T;
        s->V = gs_calloc((size_t)p->T, sizeof(double *), "slda");
        s->b = gs_calloc((size_t)p->T, sizeof(double *), "slda");
        s->err = gs_calloc((size_t)p->T, sizeof *s->err, "slda");
        if (!s->V || !s->b || !s->err || gm_alloc(&s->mean, p->C, p->D, "slda means") ||
            gm_alloc(&s->S, p->D, p->D, "slda covariance") || gm_alloc(&s->A, p->D, p->D, "slda covariance")) {
            slda_destroy(m);
            return GS_ENOMEM;
        }
    }
    drop_models(s);
    memset(s->mean.v, 0, (size_t)p->C * (size_t)p->D * sizeof(double));
    memset(s->S.v, 0, (size_t)p->D * (size_t)p->D * sizeof(double));
    s->nseen = 0;
    return GS_OK;
}

/* Centred rows √w (h − μ) of the k rows idx[] of `r` (all n rows when idx is NULL) into Xc. */
static long centred(const en_rowset *r, const long *idx, long k, const double *mu, long D, gm_mat *Xc)
{
    for (long i = 0; i < k; i++) {
        long q = idx ? idx[i] : i;
        const double *h = r->H + (size_t)q * D;
        double sw = r->w ? sqrt(r->w[q]) : 1.0;
        double *o = gm_row(Xc, i);
        for (long j = 0; j < D; j++) o[j] = sw * (h[j] - mu[j]);
    }
    return k;
}

static int slda_fit(en_mctx *m, int t, const en_rowset *real, const en_rowset *aug)
{
    const en_problem *p = m->p;
    const st_stream *st = p->st;
    if (!m->priv) { int rc = slda_reset(m); if (rc) return rc; }
    slda_state *s = m->priv;
    long D = p->D;
    double eps = m->params->slda_eps;
    /* 1. means and scatter of this task's classes (real rows of class c: a contiguous run of
     * `real`, from st->class_row_start[c] - p->task_row_start[t]) */
    long maxn = aug->n;
    for (int k = st->task_class_start[t]; k < st->task_class_start[t + 1]; k++)
        if (st->class_kept[st->class_order[k]] > maxn) maxn = st->class_kept[st->class_order[k]];
    gm_mat Xc = {0};
    long *idx = gs_malloc((size_t)(aug->n ? aug->n : 1), sizeof(long), "slda rows");
    if (!idx || (maxn > 0 && gm_alloc(&Xc, maxn, D, "slda centered rows"))) { free(idx); return GS_ENOMEM; }
    for (int k = st->task_class_start[t]; k < st->task_class_start[t + 1]; k++) {
        int c = st->class_order[k];
        long n = st->class_kept[c];
        const double *H = real->H + (size_t)(st->class_row_start[c] - p->task_row_start[t]) * D;
        long na = 0;
        double wa = 0;
        for (long i = 0; i < aug->n; i++)
            if (aug->y[i] == c) { idx[na++] = i; wa += aug->w ? aug->w[i] : 1.0; }
        if (n <= 0 && !(wa > 0)) continue;
        double *mu = gm_row(&s->mean, c);
        memset(mu, 0, (size_t)D * sizeof(double));
        for (long i = 0; i < n; i++) cblas_daxpy((int)D, 1.0, H + (size_t)i * D, 1, mu, 1);
        for (long i = 0; i < na; i++)
            cblas_daxpy((int)D, aug->w ? aug->w[idx[i]] : 1.0, aug->H + (size_t)idx[i] * D, 1, mu, 1);
        cblas_dscal((int)D, 1.0 / ((double)n + wa), mu, 1);
        en_rowset rc = {H, NULL, NULL, n};
        centred(&rc, NULL, n, mu, D, &Xc);
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)n, 1.0, Xc.v, (int)D, 1.0, s->S.v, (int)D);
        if (na) {
            centred(aug, idx, na, mu, D, &Xc);
            cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)na, 1.0, Xc.v, (int)D, 1.0, s->S.v, (int)D);
        }
        s->nseen += (double)n + wa;
    }
    free(idx);
    gm_free(&Xc);
    for (long i = 0; i < D; i++)
        for (long j = i + 1; j < D; j++) s->S.v[j * D + i] = s->S.v[i * D + j];
    /* 2. the model of task t */
    int Cs = st->task_class_start[t + 1];
    free(s->V[t]); free(s->b[t]);
    s->V[t] = s->b[t] = NULL;
    s->err[t][0] = '\0';
    if (Cs == 0 || s->nseen == 0) { snprintf(s->err[t], sizeof s->err[t], "no training rows"); return GS_OK; }
    double sc = (1.0 - eps) / s->nseen;
    for (size_t i = 0; i < (size_t)D * D; i++) s->A.v[i] = sc * s->S.v[i];
    for (long i = 0; i < D; i++) s->A.v[i * D + i] += eps;
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', (lapack_int)D, s->A.v, (lapack_int)D);
    if (info != 0) {
        snprintf(s->err[t], sizeof s->err[t],
                 info > 0 ? "the shrunk covariance is not positive definite (leading minor %d); raise --slda-eps"
                          : "LAPACK dpotrf failed (info %d)", (int)info);
        return GS_OK;
    }
    double *V = gs_malloc((size_t)Cs * (size_t)D, sizeof(double), "slda model");
    double *b = gs_malloc((size_t)Cs, sizeof(double), "slda model");
    if (!V || !b) { free(V); free(b); return GS_ENOMEM; }
    for (int k = 0; k < Cs; k++) memcpy(V + (size_t)k * D, gm_row(&s->mean, st->class_order[k]), (size_t)D * sizeof(double));
    /* Row-major Cs×D = column-major D×Cs: the right-hand sides, one class per column. */
    info = LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'U', (lapack_int)D, Cs, s->A.v, (lapack_int)D, V, (lapack_int)D);
    if (info != 0) {
        free(V); free(b);
        snprintf(s->err[t], sizeof s->err[t], "LAPACK dpotrs failed (info %d)", (int)info);
        return GS_OK;
    }
    for (int k = 0; k < Cs; k++)
        b[k] = -0.5 * cblas_ddot((int)D, gm_row(&s->mean, st->class_order[k]), 1, V + (size_t)k * D, 1);
    s->V[t] = V;
    s->b[t] = b;
    return GS_OK;
}

static int slda_predict(en_mctx *m, int t, const double *X, long n, int *pred)
{
    const en_problem *p = m->p;
    const st_stream *st = p->st;
    slda_state *s = m->priv;
    if (!s || t < 0 || t >= s->T) return gs_error(GS_ERUN, "slda: not fitted");
    if (!s->V[t]) return gs_error(GS_ERUN, "slda: %s", s->err[t][0] ? s->err[t] : "task not fitted");
    long D = p->D;
    int Cs = st->task_class_start[t + 1];
    if (n == 0) return GS_OK;
    double *sc = gs_malloc((size_t)n * (size_t)Cs, sizeof(double), "slda scores");
    if (!sc) return GS_ENOMEM;
    for (long i = 0; i < n; i++) memcpy(sc + (size_t)i * Cs, s->b[t], (size_t)Cs * sizeof(double));
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, Cs, (int)D, 1.0, X, (int)D, s->V[t], (int)D, 1.0,
                sc, Cs);
    en_argmax_seen(st, sc, n, Cs, pred);
    free(sc);
    return GS_OK;
}

const en_learner en_learner_slda = {
    .name = "slda",
    .summary = "streaming LDA: pooled covariance, shrinkage ((1−ε)Σ + εI), ε = --slda-eps",
    .family = EN_STATS,
    .deps = EN_DEP_SLDA,
    .reset = slda_reset,
    .fit = slda_fit,
    .predict = slda_predict,
    .destroy = slda_destroy,
};
