/* augmenters/gauss.c — Gaussian feature sampling for tail classes,
 * an augmenter (gs_methods.h): the synthetic rows reach the learner with weight β, like GSR's.
 *
 *   gauss-shrink:   x̃ ~ N(μ_c, (1−a)Σ_c + aI),   a = --gauss-a  (SLDA's convex shrinkage)
 *   gauss-transfer: x̃ ~ N(μ_c, Σ_c + bΣ_head),   b = --gauss-b
 *
 * Choices (documented in the man page):
 *   - Space: the raw normalized rows z (d columns), where GSR mixes too; samples are mapped to
 *     the classifier space with en_emit_x (a no-op without --expand). Samples are not
 *     re-normalized.
 *   - Σ_c is the unbiased covariance of the class's n_c real rows (1/(n_c−1)); classes with
 *     fewer than 2 rows get no samples (counted as skipped, like GSR). Σ_head is the pooled
 *     unbiased within-class covariance of the head classes seen so far (tasks 1..t, the current
 *     task included): S_head/(N_head − C_head); zero while no head class has been seen.
 *   - Which classes: tail classes only (the head classes keep their real rows).
 *   - How many: K_c = min(--max-aug, n_max − n_c) with n_max the largest class count seen so far
 *     (TailCalib's "up to the largest class"); 0 if the class is already the largest.
 *   - Sampling without forming Σ_c: with F = (X_c − 1μ_cᵀ)/√(n_c−1) (so Σ_c = FᵀF) a draw is
 *     μ_c + Fᵀg (g ~ N(0, I_{n_c})), which is exact and costs n_c·d; the isotropic part is √a·ε.
 *     Σ_head is full, so it is factored once per task, Σ_head = LLᵀ (LAPACKE dpotrf), with a
 *     growing jitter (10⁻¹²·tr/d, ×10, up to 10 tries) if it is only semidefinite; the draw adds
 *     √b·Lε. Blocks of draws use BLAS-3 (dgemm, dtrmm).
 *   - Randomness: one GSL stream per class, rng_new(seed, RNG_GAUSS, c): the n_c·K values of g
 *     (row by row), then the d·K values of ε.
 * Ownership: gauss-transfer keeps S_head incrementally in en_mctx.priv (freed by destroy).
 */
#include "gs_methods.h"
#include "gs_common.h"
#include "gs_rng.h"

#include <gsl/gsl_cblas.h> /* the CBLAS declarations GSL ships (OpenBLAS provides the symbols); gsl_randist.h pulls them in, so <cblas.h> would clash */
#include <gsl/gsl_randist.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int last;        /* S_head holds the head classes of tasks 0..last (-1: none) */
    gm_mat S;        /* d × d pooled head scatter */
    long n, ncls;    /* head rows and classes in S */
    gm_mat L;        /* d × d lower Cholesky factor of Σ_head (row-major), valid for task `lt` */
    int lt;
    int have_L;      /* 0: Σ_head = 0 (no head class yet) */
} gauss_state;

static void gauss_destroy(en_mctx *m)
{
    gauss_state *s = m->priv;
    if (!s) return;
    gm_free(&s->S);
    gm_free(&s->L);
    free(s);
    m->priv = NULL;
}

/* Center the n rows of class c (raw space) into Xc (n × d) and its mean into mu. */
static void center_class(const en_problem *p, int c, gm_mat *Xc, double *mu)
{
    long d = p->d, n = p->st->class_kept[c], first = p->st->class_row_start[c];
    memset(mu, 0, (size_t)d * sizeof(double));
    for (long i = 0; i < n; i++) cblas_daxpy((int)d, 1.0, gm_row(&p->z, first + i), 1, mu, 1);
    cblas_dscal((int)d, 1.0 / (double)n, mu, 1);
    for (long i = 0; i < n; i++) {
        const double *z = gm_row(&p->z, first + i);
        double *r = gm_row(Xc, i);
        for (long j = 0; j < d; j++) r[j] = z[j] - mu[j];
    }
}

static long max_class_rows(const st_stream *st)
{
    long mx = 0;
    for (int c = 0; c < st->C; c++) if (st->class_kept[c] > mx) mx = st->class_kept[c];
    return mx;
}

/* S_head += scatter of the head classes of task t. */
static int head_add_task(const en_problem *p, gauss_state *s, int t)
{
    const st_stream *st = p->st;
    long d = p->d;
    for (int k = st->task_class_start[t]; k < st->task_class_start[t + 1]; k++) {
        int c = st->class_order[k];
        long n = st->class_kept[c];
        if (!st->is_head[c] || n < 2) continue;
        gm_mat Xc = {0};
        double *mu = gs_malloc((size_t)d, sizeof(double), "gauss-transfer");
        if (!mu || gm_alloc(&Xc, n, d, "gauss-transfer head rows")) { free(mu); return GS_ENOMEM; }
        center_class(p, c, &Xc, mu);
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)d, (int)n, 1.0, Xc.v, (int)d, 1.0, s->S.v, (int)d);
        s->n += n;
        s->ncls++;
        gm_free(&Xc);
        free(mu);
    }
    return GS_OK;
}

/* Bring S_head to tasks 0..t and factor Σ_head = LLᵀ. */
static int head_factor(en_mctx *m, int t)
{
    const en_problem *p = m->p;
    long d = p->d;
    gauss_state *s = m->priv;
    if (!s) {
        s = gs_calloc(1, sizeof *s, "gauss-transfer");
        if (!s) return GS_ENOMEM;
        m->priv = s;
        s->last = -1;
        s->lt = -1;
        if (gm_alloc(&s->S, d, d, "gauss-transfer head covariance") || gm_alloc(&s->L, d, d, "gauss-transfer head covariance")) {
            gauss_destroy(m);
            return GS_ENOMEM;
        }
    }
    if (s->last >= t) { /* recomputation (parameters changed): restart */
        memset(s->S.v, 0, (size_t)d * (size_t)d * sizeof(double));
        s->n = s->ncls = 0;
        s->last = -1;
    }
    int rc;
    while (s->last < t) {
        if ((rc = head_add_task(p, s, s->last + 1))) return rc;
        s->last++;
    }
    s->lt = t;
    s->have_L = 0;
    if (s->ncls == 0 || s->n - s->ncls < 1) return GS_OK;
    double scale = 1.0 / (double)(s->n - s->ncls), tr = 0;
    for (long i = 0; i < d; i++) tr += s->S.v[i * d + i];
    tr *= scale;
    if (!(tr > 0)) return GS_OK;
    double jitter = 0;
    for (int attempt = 0; attempt <= 10; attempt++) {
        /* upper triangle of S (row-major) -> lower triangle of L, scaled */
        for (long i = 0; i < d; i++)
            for (long j = 0; j <= i; j++) s->L.v[i * d + j] = scale * s->S.v[j * d + i];
        for (long i = 0; i < d; i++) s->L.v[i * d + i] += jitter;
        lapack_int info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', (lapack_int)d, s->L.v, (lapack_int)d);
        if (info == 0) {
            for (long i = 0; i < d; i++)
                for (long j = i + 1; j < d; j++) s->L.v[i * d + j] = 0;
            s->have_L = 1;
            return GS_OK;
        }
        if (info < 0) return gs_error(GS_ERUN, "gauss-transfer: LAPACK dpotrf failed (info %d)", (int)info);
        jitter = jitter == 0 ? 1e-12 * tr / (double)d : jitter * 10;
    }
    return gs_error(GS_ERUN, "gauss-transfer: the head covariance could not be factored, even with jitter %g", jitter);
}

/* Draw K_c samples for tail class c and emit them. transfer: 0 shrink, 1 transfer. */
static int gauss_class(en_mctx *m, int c, long nmax, int transfer, en_emitter *em)
{
    const en_problem *p = m->p;
    const st_stream *st = p->st;
    const op_params *q = m->params;
    long n = st->class_kept[c], d = p->d;
    if (st->is_head[c]) return GS_OK;
    if (n < 2) { en_emit_skip(em, 1, 0); return GS_OK; }
    long K = nmax - n;
    if (q->max_aug != OP_MAX_AUG_ALL && K > q->max_aug) K = q->max_aug;
    if (K <= 0) return GS_OK;
    gauss_state *s = m->priv;
    double cf = transfer ? 1.0 : sqrt(1.0 - q->gauss_a);              /* factor of Fᵀg */
    double ci = transfer ? sqrt(q->gauss_b) : sqrt(q->gauss_a);       /* factor of the second part */
    int use_iso = !transfer && q->gauss_a > 0;
    int use_head = transfer && q->gauss_b > 0 && s && s->have_L;
    gm_mat Xc = {0}, Gm = {0}, E = {0}, Out = {0};
    double *mu = gs_malloc((size_t)d, sizeof(double), "gauss samples");
    gsl_rng *r = rng_new(q->seed, RNG_GAUSS, (uint64_t)c);
    int rc = GS_OK;
    if (!mu || !r || gm_alloc(&Xc, n, d, "gauss samples") || gm_alloc(&Gm, K, n, "gauss samples") ||
        gm_alloc(&E, K, d, "gauss samples") || gm_alloc(&Out, K, d, "gauss samples")) {
        rc = GS_ENOMEM;
        goto out;
    }
    center_class(p, c, &Xc, mu);
    for (size_t i = 0; i < (size_t)K * n; i++) Gm.v[i] = gsl_ran_gaussian(r, 1.0);
    for (size_t i = 0; i < (size_t)K * d; i++) E.v[i] = gsl_ran_gaussian(r, 1.0);
    /* Out = μ + cf/√(n−1) · G Xc  (+ ci·E or ci·E Lᵀ) */
    for (long k = 0; k < K; k++) memcpy(gm_row(&Out, k), mu, (size_t)d * sizeof(double));
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)K, (int)d, (int)n, cf / sqrt((double)(n - 1)), Gm.v,
                (int)n, Xc.v, (int)d, 1.0, Out.v, (int)d);
    if (use_head)
        cblas_dtrmm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, (int)K, (int)d, 1.0, s->L.v,
                    (int)d, E.v, (int)d);
    if (use_iso || use_head) cblas_daxpy((int)(K * d), ci, E.v, 1, Out.v, 1);
    for (long k = 0; k < K; k++)
        if ((rc = en_emit_x(em, gm_row(&Out, k), c, 1.0))) goto out;
out:
    gm_free(&Xc); gm_free(&Gm); gm_free(&E); gm_free(&Out);
    free(mu);
    if (r) gsl_rng_free(r);
    return rc;
}

static int gauss_task(en_mctx *m, int t, en_emitter *em, int transfer)
{
    const st_stream *st = m->p->st;
    int rc;
    if (m->params->max_aug == 0) return GS_OK;
    if (transfer && (rc = head_factor(m, t))) return rc;
    /* n_max: the largest class count among the classes seen so far (tasks 0..t) */
    long nmax = 0;
    for (int k = 0; k < st->task_class_start[t + 1]; k++)
        if (st->class_kept[st->class_order[k]] > nmax) nmax = st->class_kept[st->class_order[k]];
    (void)max_class_rows;
    for (int k = st->task_class_start[t]; k < st->task_class_start[t + 1]; k++)
        if ((rc = gauss_class(m, st->class_order[k], nmax, transfer, em))) return rc;
    return GS_OK;
}

static int shrink_rows(en_mctx *m, int t, en_emitter *em) { return gauss_task(m, t, em, 0); }
static int transfer_rows(en_mctx *m, int t, en_emitter *em) { return gauss_task(m, t, em, 1); }

const en_augmenter en_aug_gauss_shrink = {
    .name = "gauss-shrink", .display = "Gauss-shrink", .letter = 'S',
    .summary = "tail classes: Gaussian samples from N(μ_c, (1−a)Σ_c + aI), a = --gauss-a, weight β",
    .deps = EN_DEP_MAXAUG | EN_DEP_GAUSS_A,
    .rows = shrink_rows,
    .weight = en_weight_beta,
};

const en_augmenter en_aug_gauss_transfer = {
    .name = "gauss-transfer", .display = "Gauss-transfer", .letter = 'T',
    .summary = "tail classes: Gaussian samples from N(μ_c, Σ_c + bΣ_head), b = --gauss-b, weight β",
    .deps = EN_DEP_MAXAUG | EN_DEP_GAUSS_B,
    .rows = transfer_rows,
    .weight = en_weight_beta,
    .destroy = gauss_destroy,
};
