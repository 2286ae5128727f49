/* learners/klda.c — KLDA (kernel LDA through random Fourier features), the learner `klda`.
 *
 * As the reference code (SalehMomeni/AnaCP models/klda.py) does it: rows x (the learner's input
 * space, D columns) go through φ(x) = √(2/M) cos(x W + b), W (D × M) with entries N(0, 2γ),
 * b (M) uniform on [0, 2π) (M = --klda-dim, default 5000; γ = --klda-gamma, default 1e-4),
 * drawn once per seed from their own stream. In φ-space it keeps the class means and the pooled
 * within-class scatter S (not divided by the count, as the reference), and classifies by the
 * smallest Mahalanobis distance (φ − μ_c)ᵀ (S + reg·I)⁻¹ (φ − μ_c), reg = --klda-reg (1e-3):
 * the LDA scores of gs_lda.h with A = S + reg·I. Synthetic rows enter every statistic with their
 * weight (class sums, weights, scatter).
 * The model of every task (V = A⁻¹μ, biases) is kept, so predicting for an earlier task needs
 * no refit. Spectrum: eigenvalues of S + reg·I at the last fitted task (computed on request).
 * Single precision (gs_lda.h): the map (sgemm), the scatter (ssyrk), the factor (spotrf, in
 * double when cond(S + reg·I) may exceed DA_SINGLE_KAPPA or spotrf fails) and the scores (sgemm)
 * run in float, on φ̃ = φ − φ(0) (the same Mahalanobis distances); class sums, weights and
 * biases stay double. Same predictions as double to ≥ 99.9 % (tests/t_lda_numpy.sh).
 * Memory: S and its factor, 2·M² floats (200 MB at M = 5000; a double factor of 200 MB more
 * while a task falls back), W (double for --save-state, and float), the per-task models, and φ̃
 * of the test (and validation) rows, mapped once at the first prediction rather than at every
 * task (200 MB for 10,000 rows at M = 5000; not kept beyond 1 GB, then mapped a block at a time).
 * Ownership: klda_state in en_mctx.priv, freed by klda_destroy.
 */
#include "gs_common.h"
#include "gs_lda.h"
#include "gs_learner.h"
#include "gs_learner.h"
#include "gs_rng.h"

#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

#define KLDA_BLOCK 1024 /* rows mapped to φ at a time (and added to S by one rank-k update) */

typedef struct {
    int T, last;        /* last fitted task, −1 before the first */
    long d, M;          /* input columns, random features */
    double *W, *b;      /* d × M, M (as drawn: --save-state) */
    float *Wf, *cb, *sb;/* W in float, cos b, sin b (the map of φ̃) */
    da_stats st;        /* class statistics in φ̃-space, with the pooled scatter in float */
    float *A;           /* M × M work: the Cholesky factor of S + reg·I */
    float *Z, *Xf;      /* KLDA_BLOCK × M mapped rows, KLDA_BLOCK × d rows in float */
    double *Zd;         /* KLDA_BLOCK × M mapped rows in double (for the class sums) */
    int fallbacks;      /* tasks factored in double */
    da_models mod;      /* per task: V = A⁻¹M, biases */
    double *eig;        /* eigenvalues at task eig_task (descending), or NULL */
    int eig_task;
    /* φ of the rows the engine evaluates (test, validation), mapped once per draw instead of at
     * every task's prediction; NULL when larger than KLDA_CACHE_MAX */
    const double *cX[2];
    float *cZ[2];
    long cn[2];
} klda_state;

#define KLDA_CACHE_MAX (1024.0 * 1024 * 1024)

static void drop_cache(klda_state *s)
{
    for (int k = 0; k < 2; k++) { free(s->cZ[k]); s->cZ[k] = NULL; s->cX[k] = NULL; s->cn[k] = 0; }
}

static void drop_models(klda_state *s)
{
    da_models_clear(&s->mod);
    free(s->eig);
    s->eig = NULL;
    s->eig_task = -1;
}

static void klda_destroy(en_mctx *m)
{
    klda_state *s = m->priv;
    if (!s) return;
    free(s->eig);
    da_models_free(&s->mod);
    drop_cache(s);
    free(s->W); free(s->b); free(s->A); free(s->Z);
    free(s->Wf); free(s->cb); free(s->sb); free(s->Xf); free(s->Zd);
    da_stats_free(&s->st);
    free(s);
    m->priv = NULL;
}

static int klda_reset(en_mctx *m)
{
    const en_problem *p = m->p;
    const op_params *q = m->params;
    klda_state *s = m->priv;
    if (s && (s->M != q->klda_dim || s->d != p->D)) { klda_destroy(m); s = NULL; }
    if (!s) {
        s = gs_calloc(1, sizeof *s, "klda");
        if (!s) return GS_ENOMEM;
        m->priv = s;
        s->T = p->T;
        s->d = p->D;
        s->M = q->klda_dim;
        s->W = gs_malloc((size_t)s->d * (size_t)s->M, sizeof(double), "klda random features");
        s->b = gs_malloc((size_t)s->M, sizeof(double), "klda random features");
        s->Wf = gs_malloc((size_t)s->d * (size_t)s->M, sizeof(float), "klda random features");
        s->cb = gs_malloc((size_t)s->M, sizeof(float), "klda random features");
        s->sb = gs_malloc((size_t)s->M, sizeof(float), "klda random features");
        s->A = gs_malloc((size_t)s->M * (size_t)s->M, sizeof(float), "klda covariance");
        s->Z = gs_malloc((size_t)KLDA_BLOCK * (size_t)s->M, sizeof(float), "klda random features");
        s->Zd = gs_malloc((size_t)KLDA_BLOCK * (size_t)s->M, sizeof(double), "klda random features");
        s->Xf = gs_malloc((size_t)KLDA_BLOCK * (size_t)s->d, sizeof(float), "klda random features");
        if (!s->W || !s->b || !s->Wf || !s->cb || !s->sb || !s->A || !s->Z || !s->Zd || !s->Xf ||
            da_models_init(&s->mod, p->T, s->M) || da_stats_init(&s->st, p->C, s->M, DA_SCATTER_F)) {
            klda_destroy(m);
            return GS_ENOMEM;
        }
    }
    /* The draws depend on the seed and γ only: redrawn on every reset (cheap next to a fit). */
    gsl_rng *r = rng_new(q->seed, RNG_RFF, 0);
    if (!r) return GS_ENOMEM;
    int rc = da_rff_draw(r, s->d, s->M, q->klda_gamma, s->W, s->b);
    gsl_rng_free(r);
    if (rc) return rc;
    for (size_t i = 0; i < (size_t)s->d * (size_t)s->M; i++) s->Wf[i] = (float)s->W[i];
    da_rff_shift_prep(s->b, s->M, s->cb, s->sb);
    s->fallbacks = 0;
    drop_models(s);
    drop_cache(s);
    da_stats_zero(&s->st);
    s->last = -1;
    return GS_OK;
}

/* φ̃ of n rows X (n ≤ KLDA_BLOCK when Xf is the state's block, else any n with a work of n × d). */
static int map_rows(const klda_state *s, const double *X, long n, float *Z)
{
    for (long i0 = 0; i0 < n; i0 += KLDA_BLOCK) {
        long k = n - i0 < KLDA_BLOCK ? n - i0 : KLDA_BLOCK;
        da_rff_map_shift_f(X + (size_t)i0 * s->d, k, s->d, s->Wf, s->cb, s->sb, s->M, s->Xf, Z + (size_t)i0 * s->M);
    }
    return GS_OK;
}

/* φ̃ of the engine's test or validation rows (cached at the first prediction), else NULL. */
static const float *cached_phi(en_mctx *m, klda_state *s, const double *X, long n)
{
    const gm_mat *rows[2] = {&m->p->test_h, &m->p->val_h};
    for (int k = 0; k < 2; k++) {
        if (X != rows[k]->v || !X || n > rows[k]->rows) continue;
        if (s->cX[k] == X) return s->cZ[k];
        long nr = rows[k]->rows;
        if ((double)nr * (double)s->M * 4.0 > KLDA_CACHE_MAX) return NULL;
        if (!(s->cZ[k] = malloc((size_t)nr * (size_t)s->M * sizeof(float)))) return NULL; /* map per block instead */
        map_rows(s, X, nr, s->cZ[k]);
        s->cX[k] = X;
        s->cn[k] = nr;
        return s->cZ[k];
    }
    return NULL;
}

/* Map a rowset to φ a block at a time and add it to the statistics. */
static int add_rows(klda_state *s, const en_rowset *rs)
{
    for (long i0 = 0; i0 < rs->n; i0 += KLDA_BLOCK) {
        long k = rs->n - i0 < KLDA_BLOCK ? rs->n - i0 : KLDA_BLOCK;
        map_rows(s, rs->H + (size_t)i0 * s->d, k, s->Z);
        for (size_t i = 0; i < (size_t)k * (size_t)s->M; i++) s->Zd[i] = s->Z[i];
        int rc = da_add_rows(&s->st, s->Zd, rs->y + i0, rs->w ? rs->w + i0 : NULL, k);
        if (rc) return rc;
    }
    return GS_OK;
}

static int klda_fit(en_mctx *m, int t, const en_rowset *real, const en_rowset *aug)
{
    const st_stream *st = m->p->st;
    int rc;
    if (!m->priv && (rc = klda_reset(m))) return rc;
    klda_state *s = m->priv;
    if ((rc = add_rows(s, real)) || (aug && (rc = add_rows(s, aug)))) return rc;
    s->last = t;
    free(s->eig);
    s->eig = NULL;
    int Cs = st->task_class_start[t + 1];
    int fb = 0;
    rc = da_models_solve_f(&s->mod, t, &s->st, st->class_order, Cs, 1.0, m->params->klda_reg, s->A, &fb);
    s->fallbacks += fb;
    return rc ? gs_error(rc, "klda: %s (--klda-reg)", gs_last_error()) : GS_OK;
}

static int klda_predict(en_mctx *m, int t, const double *X, long n, int *pred)
{
    const st_stream *st = m->p->st;
    klda_state *s = m->priv;
    if (!s || t < 0 || t > s->last || !s->mod.Vf[t]) return gs_error(GS_ERUN, "klda: task %d not fitted", t + 1);
    int Cs = st->task_class_start[t + 1];
    const float *Z = cached_phi(m, s, X, n);
    for (long i0 = 0; i0 < n; i0 += KLDA_BLOCK) {
        long k = n - i0 < KLDA_BLOCK ? n - i0 : KLDA_BLOCK;
        if (!Z) map_rows(s, X + (size_t)i0 * s->d, k, s->Z);
        int rc = da_models_predict_f(&s->mod, t, Z ? Z + (size_t)i0 * s->M : s->Z, k, st->class_order, Cs, pred + i0);
        if (rc) return rc;
    }
    return GS_OK;
}

static int klda_spectrum(en_mctx *m, int t, double *eig, long *n)
{
    klda_state *s = m->priv;
    *n = 0;
    if (!s || t != s->last) return GS_OK; /* only the current covariance is kept */
    if (!s->eig) {
        if (!(s->eig = gs_malloc((size_t)s->M, sizeof(double), "klda spectrum"))) return GS_ENOMEM;
        int rc = da_sym_eigvals_f(s->st.Sf, s->M, 1.0, m->params->klda_reg, s->A, s->eig);
        if (rc) { free(s->eig); s->eig = NULL; return rc; }
        s->eig_task = t;
    }
    /* the caller holds D values (the input dimension): the leading min(M, D) eigenvalues */
    long k = s->M < m->p->D ? s->M : m->p->D;
    memcpy(eig, s->eig, (size_t)k * sizeof(double));
    *n = k;
    return GS_OK;
}

/* --save-state: the random Fourier draws. */
static int klda_draw(en_mctx *m, int k, en_draw *out)
{
    klda_state *s = m->priv;
    if (!s || k > 1) return 0;
    memset(out, 0, sizeof *out);
    snprintf(out->file, sizeof out->file, k ? "rff_b.npy" : "rff_W.npy");
    out->role = k ? "random Fourier phases b (M), uniform on [0, 2 pi)"
                  : "random Fourier weights W (d × M): phi(x) = sqrt(2/M) cos(x W + b)";
    out->v = k ? s->b : s->W;
    out->rows = k ? s->M : s->d;
    out->cols = k ? 0 : s->M;
    return 1;
}

/* M = --klda-dim: the pooled scatter and the work matrix (M × M floats each) and a double factor
 * while a task falls back (M × M), W (double and float), the blocks of rows (φ̃ in float and
 * double, the scatter's centred rows), the class sums, the models of every task (seen classes × M
 * floats, C(T + 1)/2 rows over the tasks), and φ̃ of the test and validation rows when each fits
 * KLDA_CACHE_MAX. */
static double cache_bytes(long n, double M)
{
    double b = 4.0 * (double)n * M;
    return b <= KLDA_CACHE_MAX ? b : 0;
}
static double klda_bytes(const en_size *z, long D)
{
    double M = z->params ? (double)z->params->klda_dim : 5000, C = z->C, B = KLDA_BLOCK;
    return 4.0 * (2.0 * M * M + (double)D * M + B * (M + (double)D) + (B + C) * M + C * M * (z->T + 1) / 2.0) +
           8.0 * (M * M + (double)D * M + B * M + C * M) + cache_bytes(z->n_test, M) + cache_bytes(z->n_val, M);
}

const en_learner en_learner_klda = {
    .name = "klda", .display = "KLDA", .letter = 'K',
    .summary = "KLDA: random Fourier features (--klda-dim, --klda-gamma), LDA with S + reg·I (--klda-reg)",
    .family = EN_STATS,
    .map = EN_MAP_IDENTITY, /* the backbone's features, as the reference (not --expand's map) */
    .deps = EN_DEP_KLDA,
    .reset = klda_reset,
    .fit = klda_fit,
    .predict = klda_predict,
    .spectrum = klda_spectrum,
    .spectrum_of = "scatter + reg·I in RFF space",
    .draw = klda_draw,
    .destroy = klda_destroy,
    .bytes = klda_bytes,
};
