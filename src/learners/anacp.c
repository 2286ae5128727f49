/* learners/anacp.c — AnaCP (analytic contrastive projection), a stats learner (gs_learner.h), as the
 * reference implementation computes it (SalehMomeni/AnaCP, models/anacp.py). Its heads and final
 * layer compute in single precision (below), whatever --precision says (that option is the ridge
 * learners'); the statistics of the input rows (means, covariance, targets, replay draws) in
 * double. Predictions agree with NumPy in double by the single-precision rule (≥ 99.9 % identical,
 * accuracy within 0.1 point; tests/t_learners.sh), and exactly with every factorization in double
 * (GS_ANACP_KAPPA=0).
 *
 * Input rows x (the rows z, L2-normalized again as the reference does) of dimension d; K = 3
 * heads and a final layer, each a Gaussian random matrix W (D × d, N(0,1) entries; D = --expand
 * when given, else 5000); reg = 100. Per task, with every row weighted (real 1, synthetic β·ω):
 *   1. class means μ_c (running, weighted) and the shared covariance: the task's within-class
 *      covariance S_t = Σ w (x−μ_y)(x−μ_y)ᵀ / n_t (n_t = Σ w); the first task Σ = S_t + 1e-4 I,
 *      later Σ = (Σ·N + S_t·n_t)/(N + n_t) with N the weight of every row seen including this
 *      task's (the reference's order of updates);
 *   2. target means: the seen class means whitened by Σ^{-1/2} = V diag(1/√(λ+1e-8)) Vᵀ about
 *      their centre m̄, their singular values raised by 1 (U diag(s+1) Vᵀ), multiplied by the same
 *      Σ^{-1/2} again, plus m̄, each row L2-normalized (the reference's _spread_means). One
 *      departure: singular values below 1e-10·s_max stay as they are. The centred means have rank
 *      ≤ C_seen − 1, so the reference raises a zero singular value whose singular vectors are
 *      whatever its SVD routine returns; here the result does not depend on that choice;
 *   3. each head k: Z = GELU(x W_kᵀ) (exact erf GELU), A_k += Zᵀ diag(w) Z, class sums of Z, and
 *      θ_k = (A_k + reg I)⁻¹ Σ_c (Σ_{i∈c} w_i z_i) target_cᵀ (D × d);
 *   4. replay: samples_per_class = 100 rows per seen class, x̃ = μ_c + L g (Σ = LLᵀ, g ~ N(0, I)),
 *      through the averaged heads f(x) = mean_k normalize(GELU(x W_kᵀ) θ_k), then
 *      H = GELU(f W_finalᵀ), θ = (HᵀH + reg I)⁻¹ HᵀY on the replay rows only.
 * Prediction: argmax over the seen classes of GELU(f(normalize(x)) W_finalᵀ) θ.
 *
 * How it is computed (the same maps, in fewer operations):
 *  - θ_k is kept factored while the seen classes are fewer than d·D/(D + d): P_k = (A_k + reg I)⁻¹
 *    Z_cᵀ (D × C_seen, the class sums as right-hand sides) and the targets T, θ_k = P_k T. The
 *    solve then has C_seen right-hand sides instead of d, and a forward pass costs D·C_seen + C_seen·d
 *    per row and head instead of D·d.
 *  - A head with fewer rows seen N (real and synthetic) than D is solved in its dual form:
 *    A_k = Z̃ᵀZ̃ with Z̃ = diag(√w) Z the weighted rows, (A_k + reg I)⁻¹ Z̃ᵀR = Z̃ᵀ (K̃_k + reg I)⁻¹ R
 *    with K̃_k = diag(√w) K_k diag(√w), K_k = Z Zᵀ the N × N kernel of the unweighted rows kept
 *    (grown by the task's rows against every kept row), and R the right-hand sides' coefficients
 *    (√w_i on its class's column; times T when not factored): an N × N Cholesky instead of D × D
 *    (the same θ_k), and grown task by task: the factor of the earlier rows is kept (the kernel's
 *    matrix holds it below the diagonal), a task factors its own rows against it (one trsm, one
 *    syrk, a Cholesky of its rows). When N reaches D, A_k is formed from the kept rows (one syrk) and the head is
 *    solved in the primal from then on; A_k is allocated then.
 *  - A refit (en_learner.refit: only β, the synthetic rows' weight, changed) runs the same steps
 *    on the rows each task was fitted with (kept: normalized rows, labels, own weights ω) with the
 *    new weights. Z and K_k do not depend on the weights: the dual's store keeps them, so a refit
 *    re-weights and re-solves without the heads' layers or kernel products of the rows (a head
 *    gone primal has freed them: its refit computes them again). Same operations, same numbers
 *    as a fresh fit at that β.
 *  - The final layer with fewer replay rows N than D is solved in its dual form,
 *    θ = Hᵀ (H Hᵀ + reg I)⁻¹ Y (an N × N Cholesky instead of D × D; the same θ).
 *  - Single precision: the layers (sgemm, then GELU with a vectorized float erf, anacp_forward.c),
 *    the activations Z, the class sums, A_k, the dual kernels and factors, H, the final layer's
 *    Gram or kernel, the models and the kept test activations are float; products sgemm/ssyrk,
 *    factorizations spotrf/spotrs (strsm for the dual's growing factor). Every matrix factored is
 *    M + reg I with M ⪰ 0, so cond ≤ (λ̄ + reg)/reg for λ̄ ≥ λ_max(M) (the smaller of the largest
 *    absolute row sum and the trace: close to λ_max here, where the activations' mean dominates).
 *    Above ANACP_KAPPA, or when spotrf fails, that matrix is factored in double (a double copy,
 *    dpotrf/dpotrs, the solution rounded back: spd_solve, gs_spd.h), the float matrix as formed.
 *    The rows x̂, the means, Σ, the targets and the replay rows stay double (d × d, cheap).
 *  - The targets' Σ^{-1/2} comes from the Cholesky factor of Σ + 1e-8 I (spread_means: the same
 *    map without an eigendecomposition).
 *  - Symmetric matrices keep their upper triangle (row-major), read by LAPACK as column-major
 *    lower; right-hand sides are rows: no transposed copies. One D × D work matrix serves the
 *    primal's and the final layer's factorizations.
 *  - The model of every task (the heads' P_k, T and θ: (K + 1)·C_seen·D floats when factored) is
 *    kept, so predicting for an earlier task needs no refit.
 *  - Two threads of its own (gs_run_pair): in the dual, heads 0 and 1 at once (each its own
 *    kernel, rows and factor), then head 2; a forward pass (test and validation rows, replay rows)
 *    splits each block of rows in two halves at a fixed row. Every number is computed by the same
 *    calls whatever thread runs them: the results do not depend on the threads.
 *  - GELU(x W_kᵀ) of the test and validation rows depends on the draws only: it is kept (in
 *    float) for the leading rows (up to ANACP_CACHE_MAX bytes: twice the rows it held in double;
 *    the rows of the first tasks, which every later task evaluates again) and kept across resets
 *    with the same seed.
 * Randomness: rng_new(seed, RNG_ANACP, 0) draws W_final, index k+1 head k, 1000+t task t's replay.
 * The forward pass (the layers, the heads' f, a block of rows on two threads) is anacp_forward.c,
 * the factorizations with their fallback to double linalg's spd_solve (gs_spd.h, through
 * anacp_solve below); the constants, the state and the model are in anacp_int.h.
 * Ownership: anacp_state in en_mctx.priv, freed by anacp_destroy.
 */
#include "anacp_int.h"
#include "gs_common.h"
#include "gs_learner.h"
#include "gs_rng.h"
#include "gs_spd.h"

#include <gsl/gsl_cblas.h> /* GSL's CBLAS declarations (OpenBLAS provides the symbols): gsl_randist.h needs them */
#include <gsl/gsl_randist.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void model_free(anacp_model *md)
{
    for (int k = 0; k < ANACP_HEADS; k++) gm_free(&md->P[k]);
    gm_free(&md->T);
    gm_free(&md->theta);
}

/* Forget what was learned (models, replay rows); the draws and the activation caches stay. */
static void forget(anacp_state *s)
{
    for (int t = 0; s->mod && t < s->T; t++) model_free(&s->mod[t]);
    for (int t = 0; s->replay && t < s->T; t++) { gm_free(&s->replay[t]); free(s->replay_y[t]); s->replay_y[t] = NULL; }
    s->fitted = 0;
}

static void anacp_destroy(en_mctx *m)
{
    anacp_state *s = m->priv;
    if (!s) return;
    forget(s);
    gm_free(&s->Wf);
    free(s->Wf32);
    for (int k = 0; k < ANACP_HEADS; k++) {
        free(s->Wk32[k]);
        gm_free(&s->Wk[k]); gm_free(&s->Ak[k]); gm_free(&s->Zs[k]); gm_free(&s->Zr[k]); free(s->Kk[k]); free(s->Kd[k]);
        free(s->brs[k]);
        for (int j = 0; j < 2; j++) gm_free(&s->cache[j].Z[k]);
    }
    gm_free(&s->work); gm_free(&s->mean); gm_free(&s->cov);
    free(s->cnt); free(s->mod); free(s->replay); free(s->replay_y); free(s->ry); free(s->rsw);
    for (int t = 0; s->kept && t < s->T; t++) { gm_free(&s->kept[t].X); free(s->kept[t].y); free(s->kept[t].w); }
    free(s->kept);
    pthread_mutex_destroy(&s->fb);
    free(s);
    m->priv = NULL;
}

static int draw_gauss(gm_mat *W, long D, long d, uint64_t seed, uint64_t index)
{
    int rc = gm_alloc(W, D, d, "AnaCP layers");
    gsl_rng *r = rc ? NULL : rng_new(seed, RNG_ANACP, index);
    if (!r) return rc ? rc : GS_ENOMEM;
    for (size_t i = 0; i < (size_t)D * (size_t)d; i++) W->v[i] = gsl_ran_gaussian_ziggurat(r, 1.0);
    gsl_rng_free(r);
    return GS_OK;
}

static int anacp_alloc(en_mctx *m)
{
    const en_problem *p = m->p;
    anacp_state *s = gs_calloc(1, sizeof *s, "AnaCP");
    if (!s) return GS_ENOMEM;
    pthread_mutex_init(&s->fb, NULL);
    m->priv = s;
    s->d = p->d;
    s->D = p->expand > 0 ? p->expand : ANACP_D;
    s->C = p->C;
    s->T = p->T;
    s->seed = p->seed;
    int rc = draw_gauss(&s->Wf, s->D, s->d, p->seed, 0);
    for (int k = 0; !rc && k < ANACP_HEADS; k++) {
        rc = draw_gauss(&s->Wk[k], s->D, s->d, p->seed, (uint64_t)k + 1);
        if (!rc) rc = gm_alloc_f(&s->Zs[k], s->C, s->D, "AnaCP head means");
    }
    size_t wn = (size_t)s->D * (size_t)s->d;
    float **w32[ANACP_HEADS + 1] = {&s->Wf32, &s->Wk32[0], &s->Wk32[1], &s->Wk32[2]};
    const gm_mat *w64[ANACP_HEADS + 1] = {&s->Wf, &s->Wk[0], &s->Wk[1], &s->Wk[2]};
    for (int k = 0; !rc && k <= ANACP_HEADS; k++) {
        if (!(*w32[k] = gs_malloc(wn, sizeof(float), "AnaCP layers"))) { rc = GS_ENOMEM; break; }
        for (size_t i = 0; i < wn; i++) (*w32[k])[i] = (float)w64[k]->v[i];
    }
    if (!rc) rc = gm_alloc_f(&s->work, s->D, s->D, "AnaCP factor");
    const char *kv = getenv("GS_ANACP_KAPPA");
    s->kappa = kv && *kv ? strtod(kv, NULL) : ANACP_KAPPA;
    if (!rc) rc = gm_alloc(&s->mean, s->C, s->d, "AnaCP class means");
    if (!rc) rc = gm_alloc(&s->cov, s->d, s->d, "AnaCP covariance");
    s->cnt = rc ? NULL : gs_calloc((size_t)s->C, sizeof(double), "AnaCP class means");
    s->mod = rc ? NULL : gs_calloc((size_t)s->T, sizeof(anacp_model), "AnaCP models");
    s->replay = rc ? NULL : gs_calloc((size_t)s->T, sizeof(gm_mat), "AnaCP replay");
    s->replay_y = rc ? NULL : gs_calloc((size_t)s->T, sizeof(int *), "AnaCP replay");
    s->kept = rc ? NULL : gs_calloc((size_t)s->T, sizeof(anacp_rows), "AnaCP rows");
    if (!rc && (!s->cnt || !s->mod || !s->replay || !s->replay_y || !s->kept)) rc = GS_ENOMEM;
    if (rc) anacp_destroy(m);
    return rc;
}

/* The statistics start again (models, means, covariance, the heads' sums); the dual's store of
 * activations and kernels stays (s->zc of its rows computed), for a refit of the same rows. */
static void restart(anacp_state *s)
{
    forget(s);
    for (int k = 0; k < ANACP_HEADS; k++) {
        if (s->Ak[k].f) memset(s->Ak[k].f, 0, gm_nbytes(&s->Ak[k]));
        memset(s->Zs[k].f, 0, gm_nbytes(&s->Zs[k]));
        s->fn[k] = 0; /* the weights may change: the factor goes, the kernel stays */
        s->bn[k] = 0; /* and so do the bound's row sums */
    }
    s->zc = s->primal ? 0 : s->nr > s->zc ? s->nr : s->zc; /* an interrupted refit leaves fewer in use */
    s->primal = 0;
    s->nr = 0;
    memset(s->mean.v, 0, (size_t)s->C * (size_t)s->d * sizeof(double));
    memset(s->cov.v, 0, (size_t)s->d * (size_t)s->d * sizeof(double));
    memset(s->cnt, 0, (size_t)s->C * sizeof(double));
    s->ntot = 0;
    s->have_cov = 0;
}

static int anacp_reset(en_mctx *m)
{
    const en_problem *p = m->p;
    anacp_state *s = m->priv;
    long D = p->expand > 0 ? p->expand : ANACP_D;
    if (s && (s->d != p->d || s->D != D || s->C != p->C || s->T != p->T || s->seed != p->seed)) {
        anacp_destroy(m);
        s = NULL;
    }
    if (!s) return anacp_alloc(m);
    /* the same draws: the statistics start again, from new rows (nothing of the store is kept) */
    restart(s);
    s->zc = 0;
    for (int k = 0; k < ANACP_HEADS; k++) {
        free(s->Kk[k]); free(s->Kd[k]);
        s->Kk[k] = s->Kd[k] = NULL;
        s->kn[k] = 0;
    }
    for (int t = 0; t < s->T; t++) {
        gm_free(&s->kept[t].X); free(s->kept[t].y); free(s->kept[t].w);
        memset(&s->kept[t], 0, sizeof(anacp_rows));
    }
    return GS_OK;
}

/* The factored form pays while C_seen·(D + d) < D·d (see the header). */
static int factored(const anacp_state *s, int Cs)
{
    return (double)Cs * (double)(s->D + s->d) < (double)s->D * (double)s->d;
}

static int gather(const en_rowset *real, const en_rowset *aug, long d, anacp_rows *r)
{
    r->n = real->n + aug->n;
    int rc = gm_alloc(&r->X, r->n ? r->n : 1, d, "AnaCP rows");
    r->y = gs_malloc((size_t)(r->n ? r->n : 1), sizeof(int), "AnaCP rows");
    r->w = gs_malloc((size_t)(r->n ? r->n : 1), sizeof(double), "AnaCP rows");
    if (rc || !r->y || !r->w) return GS_ENOMEM;
    const en_rowset *set[2] = {real, aug};
    for (int k = 0, i = 0; k < 2; k++)
        for (long j = 0; j < set[k]->n; j++, i++) {
            memcpy(gm_row(&r->X, i), set[k]->H + (size_t)j * d, (size_t)d * sizeof(double));
            r->y[i] = set[k]->y[j];
            r->w[i] = set[k]->w ? set[k]->w[j] : 1.0;
        }
    anacp_fwd_normalize(r->X.v, r->n, d);
    return GS_OK;
}

/* Step 1: means and the shared covariance. */
static int update_stats(anacp_state *s, const anacp_rows *r)
{
    long d = s->d;
    double nt = 0;
    double *add = gs_calloc((size_t)s->C, sizeof(double), "AnaCP means");
    gm_mat sum = {0}, Xc = {0};
    int rc = add ? gm_alloc(&sum, s->C, d, "AnaCP means") : GS_ENOMEM;
    if (!rc) rc = gm_alloc(&Xc, r->n ? r->n : 1, d, "AnaCP covariance");
    if (rc) { free(add); gm_free(&sum); return rc; }
    for (long i = 0; i < r->n; i++) {
        cblas_daxpy((int)d, r->w[i], gm_row(&r->X, i), 1, gm_row(&sum, r->y[i]), 1);
        add[r->y[i]] += r->w[i];
        nt += r->w[i];
    }
    for (int c = 0; c < s->C; c++) {
        if (!(add[c] > 0)) continue;
        double *mu = gm_row(&s->mean, c), tot = s->cnt[c] + add[c];
        for (long j = 0; j < d; j++) mu[j] = (mu[j] * s->cnt[c] + gm_row(&sum, c)[j]) / tot;
        s->cnt[c] = tot;
        s->ntot += add[c];
    }
    for (long i = 0; i < r->n; i++) {
        const double *x = gm_row(&r->X, i), *mu = gm_row(&s->mean, r->y[i]);
        double sw = sqrt(r->w[i]);
        for (long j = 0; j < d; j++) Xc.v[i * d + j] = sw * (x[j] - mu[j]);
    }
    gm_mat S = {0};
    if ((rc = gm_alloc(&S, d, d, "AnaCP covariance"))) goto out;
    if (r->n) cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)d, (int)r->n, 1.0 / nt, Xc.v, (int)d, 0.0, S.v, (int)d);
    for (long i = 0; i < d; i++) for (long j = i + 1; j < d; j++) S.v[j * d + i] = S.v[i * d + j];
    if (!s->have_cov) {
        memcpy(s->cov.v, S.v, (size_t)d * d * sizeof(double));
        for (long i = 0; i < d; i++) s->cov.v[i * d + i] += 1e-4;
        s->have_cov = 1;
    } else {
        double N = s->ntot; /* already includes this task's rows, as in the reference */
        for (size_t i = 0; i < (size_t)d * d; i++) s->cov.v[i] = (s->cov.v[i] * N + S.v[i] * nt) / (N + nt);
    }
    gm_free(&S);
out:
    free(add); gm_free(&sum); gm_free(&Xc);
    return rc;
}

/* Step 2: target means of the Cs seen classes (class_order) into Tm (Cs × d). Σ^{-1/2} (Σ + 1e-8 I
 * to the power −1/2) is never formed: with Σ + 1e-8 I = L Lᵀ (Cholesky), Σ^{-1/2} = L⁻ᵀ Q for the
 * orthogonal Q = Lᵀ Σ^{-1/2}, so M Σ^{-1/2} = (M L⁻ᵀ) Q has the singular values and left vectors
 * of M L⁻ᵀ = U S Vᵀ, and U (S + 1) (VᵀQ) Σ^{-1/2} = U (S + 1) Vᵀ L⁻¹: two triangular solves and
 * one d × d Cholesky instead of an eigendecomposition (the same map). */
static int spread_means(const anacp_state *s, const int *order, int Cs, gm_mat *Tm)
{
    long d = s->d;
    double *sv = gs_malloc((size_t)(Cs < d ? Cs : d), sizeof(double), "AnaCP spread");
    double *ctr = gs_calloc((size_t)d, sizeof(double), "AnaCP spread");
    gm_mat L = {0}, Mc = {0}, U = {0}, Vt = {0};
    long k = Cs < d ? Cs : d;
    int rc = sv && ctr ? gm_copy(&L, &s->cov, "AnaCP spread") : GS_ENOMEM;
    if (!rc) rc = gm_alloc(&Mc, Cs, d, "AnaCP spread");
    if (!rc) rc = gm_alloc(&U, Cs, k, "AnaCP spread");
    if (!rc) rc = gm_alloc(&Vt, k, d, "AnaCP spread");
    if (rc) goto out;
    for (long j = 0; j < d; j++) L.v[(size_t)j * d + j] += 1e-8;
    lapack_int info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', (lapack_int)d, L.v, (lapack_int)d);
    if (info) { rc = gs_error(GS_ERUN, "anacp: the shared covariance is not positive definite"); goto out; }
    for (int c = 0; c < Cs; c++) cblas_daxpy((int)d, 1.0 / Cs, gm_row(&s->mean, order[c]), 1, ctr, 1);
    for (int c = 0; c < Cs; c++)
        for (long j = 0; j < d; j++) Mc.v[(size_t)c * d + j] = gm_row(&s->mean, order[c])[j] - ctr[j];
    /* Mc := Mc L⁻ᵀ */
    cblas_dtrsm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, Cs, (int)d, 1.0, L.v, (int)d, Mc.v,
                (int)d);
    info = LAPACKE_dgesdd(LAPACK_ROW_MAJOR, 'S', Cs, (lapack_int)d, Mc.v, (lapack_int)d, sv, U.v, (lapack_int)k, Vt.v,
                          (lapack_int)d);
    if (info) { rc = gs_error(GS_ERUN, "anacp: SVD of the class means failed (info %d)", (int)info); goto out; }
    /* raise the singular values by 1, except the (numerically) zero ones: centred means have rank
     * ≤ C_seen − 1, and a zero singular value's vectors are arbitrary (the SVD routine's choice) */
    for (long i = 0; i < Cs; i++)
        for (long j = 0; j < k; j++) U.v[i * k + j] *= sv[j] > 1e-10 * sv[0] ? sv[j] + 1.0 : sv[j];
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Cs, (int)d, (int)k, 1.0, U.v, (int)k, Vt.v, (int)d, 0.0,
                Tm->v, (int)d);
    /* Tm := Tm L⁻¹ */
    cblas_dtrsm(CblasRowMajor, CblasRight, CblasLower, CblasNoTrans, CblasNonUnit, Cs, (int)d, 1.0, L.v, (int)d, Tm->v,
                (int)d);
    for (int c = 0; c < Cs; c++) cblas_daxpy((int)d, 1.0, ctr, 1, gm_row(Tm, c), 1);
    anacp_fwd_normalize(Tm->v, Cs, d);
out:
    free(sv); free(ctr);
    gm_free(&L); gm_free(&Mc); gm_free(&U); gm_free(&Vt);
    return rc;
}

/* Grow the dual's row store to hold n rows. */
static int dual_reserve(anacp_state *s, long n)
{
    if (n <= s->rcap) return GS_OK;
    long cap = s->rcap ? s->rcap : 256;
    while (cap < n) cap *= 2;
    if (cap > s->D) cap = s->D;
    if (cap < n) cap = n;
    int *ry = realloc(s->ry, (size_t)cap * sizeof(int));
    if (ry) s->ry = ry;
    double *rw = realloc(s->rsw, (size_t)cap * sizeof(double));
    if (rw) s->rsw = rw;
    if (!ry || !rw) return gs_error(GS_ENOMEM, "out of memory (AnaCP head rows)");
    for (int k = 0; k < ANACP_HEADS; k++) {
        float *v = realloc(s->Zr[k].f, (size_t)cap * (size_t)s->D * sizeof(float));
        if (!v) return gs_error(GS_ENOMEM, "out of memory (AnaCP head rows: %ld × %ld)", cap, s->D);
        s->Zr[k].f = v;
        s->Zr[k].cols = s->D;
    }
    s->rcap = cap;
    return GS_OK;
}

/* The heads go primal: A_k = Z̃ᵀZ̃ from the kept rows, which are then freed. */
static int go_primal(anacp_state *s)
{
    long D = s->D;
    for (int k = 0; k < ANACP_HEADS; k++) {
        if (!s->Ak[k].f) {
            int rc = gm_alloc_f(&s->Ak[k], D, D, "AnaCP head Gram");
            if (rc) return rc;
        } else memset(s->Ak[k].f, 0, gm_nbytes(&s->Ak[k]));
        for (long i = 0; i < s->nr; i++) cblas_sscal((int)D, (float)s->rsw[i], gm_rowf(&s->Zr[k], i), 1); /* Z̃ = √w z */
        if (s->nr)
            cblas_ssyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)s->nr, 1.0f, s->Zr[k].f, (int)D, 0.0f,
                        s->Ak[k].f, (int)D);
        gm_free(&s->Zr[k]);
        free(s->Kk[k]); free(s->Kd[k]);
        s->Kk[k] = s->Kd[k] = NULL;
        s->kn[k] = s->fn[k] = s->bn[k] = 0;
    }
    free(s->ry); free(s->rsw);
    s->ry = NULL; s->rsw = NULL;
    s->nr = s->rcap = s->zc = 0;
    s->primal = 1;
    return GS_OK;
}

/* (M + ANACP_REG I) X = B with AnaCP's κ (s->kappa) by spd_solve (gs_spd.h): M (n × n, leading
 * dimension ld, column-major triangle uplo) written by fill, again when the float Cholesky fails,
 * and then factored in a copy in double from its floats; force: in double whatever the bound.
 * Every matrix AnaCP factors is M + reg I with M ⪰ 0 and reg = ANACP_REG, so spd_lmax_bound's
 * bound on λ_max(M) bounds the condition. */
static int anacp_solve(const anacp_state *s, float *M, long n, long ld, char uplo, float *B, long nrhs, long ldb,
                       int (*fill)(void *), void *ctx, int force, const char *what)
{
    spd_opts o = {.uplo = uplo, .reg = ANACP_REG, .kappa = s->kappa, .force = force, .fill = fill, .ctx = ctx,
                  .what = what};
    return spd_solve(M, n, ld, B, nrhs, ldb, &o, NULL);
}

/* Head k's weighted kernel K̃ (rows 0..N, without reg) into the column-major upper triangle of its
 * matrix (row-major: on and below the diagonal), from the unweighted kernel above it and Kd. */
typedef struct { anacp_state *s; int k; long N; } kernel_fill;

static int fill_kernel(void *arg)
{
    kernel_fill *c = arg;
    float *K = c->s->Kk[c->k];
    const float *kd = c->s->Kd[c->k];
    const double *sw = c->s->rsw;
    long ld = c->s->kn[c->k];
    for (long i = 0; i < c->N; i++) {
        float *ki = K + (size_t)i * ld;
        for (long j = 0; j < i; j++) ki[j] = (float)(sw[i] * sw[j] * K[(size_t)j * ld + i]);
        ki[i] = (float)(sw[i] * sw[i] * kd[i]);
    }
    return GS_OK;
}

/* λ_max bound of head k's weighted kernel K̃ of rows 0..N (spd_lmax_bound's: the smaller of the
 * largest absolute row sum and the trace, read from the unweighted kernel above the diagonal and
 * Kd, √w applied on the way). The row sums of the rows before (bn, the weights unchanged since:
 * restart forgets them) are kept, so a task adds its own rows' terms only: the rows against every
 * row, O(N·n) for n new rows instead of O(N²) per task (spd_rowsum_grow). The same sums whether a
 * fit or a refit. */
static double kernel_bound(anacp_state *s, int k, long N)
{
    const double *sw = s->rsw;
    long f = s->bn[k] <= N ? s->bn[k] : 0;
    if (N > s->bcap[k]) {
        double *rs = realloc(s->brs[k], (size_t)N * sizeof(double));
        if (!rs) { /* no room to keep them: the trace, at least as large */
            double tr = 0;
            for (long i = 0; i < N; i++) tr += sw[i] * sw[i] * s->Kd[k][i];
            s->bn[k] = 0;
            return tr;
        }
        s->brs[k] = rs;
        s->bcap[k] = N;
    }
    double bound = spd_rowsum_grow(s->Kk[k], s->kn[k], s->Kd[k], sw, f, N, s->brs[k], &s->btr[k]);
    s->bn[k] = N;
    return bound;
}

/* Dual solve of head k (rows 0..N of the store): the rows of P (r × D) = Rᵀ (K̃ + reg I)⁻¹ Z̃ with
 * R (N × r) = √w_i on the column of row i's class (factored, r = C_seen) or √w_i T_{class(i)} (r = d).
 * The kernel grows by the rows from kn on (against every row), the factor by the rows from fn on
 * (the factor of the leading rows is that of the earlier task: U₁₂ = U₁₁⁻ᵀ A₁₂, U₂₂ = chol(A₂₂ −
 * U₁₂ᵀU₁₂)), so a task factors only its own rows, in float. When the condition bound of K̃ + reg I
 * (kernel_bound) exceeds s->kappa, or the float factor fails, the whole N × N matrix is factored
 * in double (anacp_solve) and no factor is kept (fn = 0). Touches head k's kernel and rows
 * only: two heads may be solved at once. */
static int dual_head(anacp_state *s, int k, long N, const gm_mat *Tm, const int *pos, int fac, gm_mat *P)
{
    long D = s->D, d = s->d, r = P->rows, g = s->kn[k], f = s->fn[k];
    if (N == 0) { memset(P->f, 0, gm_nbytes(P)); return GS_OK; }
    float *R = calloc((size_t)N * (size_t)r, sizeof(float));
    if (!R) return gs_error(GS_ENOMEM, "out of memory (AnaCP head kernel)");
    if (N > g) { /* the kernel grows: the new rows against every row (leading dimension N from now) */
        float *K = malloc((size_t)N * (size_t)N * sizeof(float)), *kd = realloc(s->Kd[k], (size_t)N * sizeof(float));
        if (kd) s->Kd[k] = kd;
        if (!K || !kd) { free(K); free(R); return gs_error(GS_ENOMEM, "out of memory (AnaCP head kernel)"); }
        for (long i = 0; i < g; i++) memcpy(K + (size_t)i * N, s->Kk[k] + (size_t)i * g, (size_t)g * sizeof(float));
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)(N - g), (int)N, (int)D, 1.0f, gm_rowf(&s->Zr[k], g),
                    (int)D, s->Zr[k].f, (int)D, 0.0f, K + (size_t)g * N, (int)N);
        for (long i = g; i < N; i++) {
            kd[i] = K[(size_t)i * N + i];
            for (long j = 0; j < g; j++) K[(size_t)j * N + i] = K[(size_t)i * N + j]; /* above the diagonal */
        }
        free(s->Kk[k]);
        s->Kk[k] = K;
        s->kn[k] = g = N;
    }
    float *K = s->Kk[k];
    const double *sw = s->rsw;
    long ld = g;
    int use_double = !((kernel_bound(s, k, N) + ANACP_REG) / ANACP_REG <= s->kappa);
    if (!use_double && N > f) {
        /* rows f..N of the weighted kernel + reg I below the diagonal (column-major: above) */
        for (long i = f; i < N; i++) {
            float *ki = K + (size_t)i * ld;
            for (long j = 0; j < i; j++) ki[j] = (float)(sw[i] * sw[j] * K[(size_t)j * ld + i]);
            ki[i] = (float)(sw[i] * sw[i] * s->Kd[k][i] + ANACP_REG);
        }
        float *A12 = K + (size_t)f * ld, *A22 = A12 + f;
        if (f > 0) {
            cblas_strsm(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, (int)f, (int)(N - f), 1.0f, K,
                        (int)ld, A12, (int)ld);
            cblas_ssyrk(CblasColMajor, CblasUpper, CblasTrans, (int)(N - f), (int)f, -1.0f, A12, (int)ld, 1.0f, A22,
                        (int)ld);
        }
        lapack_int info = LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'U', (lapack_int)(N - f), A22, (lapack_int)ld);
        if (info) use_double = 1; /* the float factor failed: this task in double */
        else s->fn[k] = N;
    }
    for (long i = 0; i < N; i++) {
        float *ri = R + (size_t)i * r;
        int c = pos[s->ry[i]];
        if (fac) ri[c] = (float)sw[i];
        else for (long j = 0; j < d; j++) ri[j] = (float)(sw[i] * gm_row(Tm, c)[j]);
    }
    int rc = GS_OK;
    if (!use_double) {
        /* Rᵀ (column-major r × N) := Rᵀ (UᵀU)⁻¹ = Rᵀ U⁻¹ U⁻ᵀ */
        cblas_strsm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, (int)r, (int)N, 1.0f, K, (int)ld,
                    R, (int)r);
        cblas_strsm(CblasColMajor, CblasRight, CblasUpper, CblasTrans, CblasNonUnit, (int)r, (int)N, 1.0f, K, (int)ld,
                    R, (int)r);
    } else {
        /* (K̃ + reg I)⁻¹ R in double, R's columns as right-hand sides (column-major N × r: Rᵀ's rows) */
        float *Rt = malloc((size_t)N * (size_t)r * sizeof(float));
        kernel_fill c = {s, k, N};
        s->fn[k] = 0;
        if (!Rt) rc = gs_error(GS_ENOMEM, "out of memory (AnaCP head kernel)");
        for (long i = 0; !rc && i < N; i++) for (long j = 0; j < r; j++) Rt[(size_t)j * N + i] = R[(size_t)i * r + j];
        if (!rc) {
            pthread_mutex_lock(&s->fb);
            rc = anacp_solve(s, K, N, ld, 'U', Rt, r, N, fill_kernel, &c, 1, "anacp: head projection");
            pthread_mutex_unlock(&s->fb);
        }
        for (long i = 0; !rc && i < N; i++) for (long j = 0; j < r; j++) R[(size_t)i * r + j] = Rt[(size_t)j * N + i];
        free(Rt);
    }
    if (!rc) {
        /* P = Rᵀ Z̃ = (diag(√w) R)ᵀ Z */
        for (long i = 0; i < N; i++) cblas_sscal((int)r, (float)sw[i], R + (size_t)i * r, 1);
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)r, (int)D, (int)N, 1.0f, R, (int)r, s->Zr[k].f, (int)D,
                    0.0f, P->f, (int)D);
    }
    free(R);
    return rc;
}

/* Head k's primal Gram A_k into the work matrix (anacp_solve's fill). */
typedef struct { anacp_state *s; int k; } gram_fill;

static int fill_gram(void *arg)
{
    gram_fill *c = arg;
    memcpy(c->s->work.f, c->s->Ak[c->k].f, gm_nbytes(&c->s->work));
    return GS_OK;
}

/* Step 3: head k's statistics from the task's rows (blocks of rows through b's Z, ANACP_BLOCK × D),
 * and its projection onto the targets Tm (C_seen × d) into the model md. In the dual (!s->primal)
 * the rows go to the store from row n0 on (the caller sets s->nr after the heads), the factor in
 * the head's kernel matrix (the primal factors in s->work): in the dual two heads may run at
 * once, each with its own b. */
static int update_head(anacp_state *s, int k, const anacp_rows *r, const gm_mat *Tm, const int *order, const int *pos,
                       int Cs, anacp_model *md, anacp_fwd_buf *b, long n0)
{
    long D = s->D, d = s->d;
    float *Zb = b->Z;
    /* the dual's store keeps Z unweighted: a refit of the same rows finds it computed */
    int known = !s->primal && n0 + r->n <= s->zc;
    for (long i0 = 0; i0 < r->n; i0 += ANACP_BLOCK) {
        long n = r->n - i0 < ANACP_BLOCK ? r->n - i0 : ANACP_BLOCK;
        float *Z = s->primal ? Zb : gm_rowf(&s->Zr[k], n0 + i0);
        if (!known) anacp_fwd_layer(s, s->Wk32[k], gm_row(&r->X, i0), NULL, n, Z, b);
        for (long i = 0; i < n; i++) {
            float *z = Z + (size_t)i * D;
            cblas_saxpy((int)D, (float)r->w[i0 + i], z, 1, gm_rowf(&s->Zs[k], r->y[i0 + i]), 1);
            if (s->primal) cblas_sscal((int)D, (float)sqrt(r->w[i0 + i]), z, 1);
        }
        if (s->primal)
            cblas_ssyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)n, 1.0f, Zb, (int)D, 1.0f, s->Ak[k].f, (int)D);
    }
    /* right-hand sides as rows: the seen classes' sums of Z (factored), else Tmᵀ Z_c (d × D) */
    int fac = factored(s, Cs), rc = gm_alloc_f(&md->P[k], fac ? Cs : d, D, "AnaCP head projection");
    if (rc) return rc;
    if (!s->primal) return dual_head(s, k, n0 + r->n, Tm, pos, fac, &md->P[k]);
    gm_mat Zc = {0}, T32 = {0};
    if (!fac) rc = gm_alloc_f(&Zc, Cs, D, "AnaCP head projection");
    if (!rc && !fac) rc = gm_alloc_f(&T32, Cs, d, "AnaCP head projection");
    if (rc) { gm_free(&Zc); return rc; }
    gm_mat *rhs = fac ? &md->P[k] : &Zc;
    for (int c = 0; c < Cs; c++) memcpy(gm_rowf(rhs, c), gm_rowf(&s->Zs[k], order[c]), (size_t)D * sizeof(float));
    if (!fac) {
        for (size_t i = 0; i < (size_t)Cs * (size_t)d; i++) T32.f[i] = (float)Tm->v[i];
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)d, (int)D, Cs, 1.0f, T32.f, (int)d, Zc.f, (int)D, 0.0f,
                    md->P[k].f, (int)D);
    }
    gm_free(&Zc); gm_free(&T32);
    gram_fill c = {s, k};
    rc = anacp_solve(s, s->work.f, D, D, 'L', md->P[k].f, md->P[k].rows, D, fill_gram, &c, 0, "anacp: head projection");
    return rc;
}

/* One head's update on a thread of its own (gs_run_pair); its error text is kept for the caller. */
typedef struct {
    anacp_state *s;
    int k, Cs;
    const anacp_rows *r;
    const gm_mat *Tm;
    const int *order, *pos;
    anacp_model *md;
    anacp_fwd_buf *b;
    long n0;
    int rc;
    char err[256];
} head_job;

static void *head_run(void *arg)
{
    head_job *j = arg;
    if (j->k < 0) return NULL;
    j->rc = update_head(j->s, j->k, j->r, j->Tm, j->order, j->pos, j->Cs, j->md, j->b, j->n0);
    if (j->rc) snprintf(j->err, sizeof j->err, "%s", gs_last_error());
    return NULL;
}

/* Step 3 for every head. In the dual, heads 0 and 1 at once on two threads (the second with b2 and
 * a factor of its own), then head 2; each head's arithmetic is the same on either thread. In the
 * primal (the D × D work matrix is shared) one after the other. */
static int update_heads(anacp_state *s, const anacp_rows *r, const gm_mat *Tm, const int *order, const int *pos, int Cs,
                        anacp_model *md, anacp_fwd_buf *b, long n0)
{
    long N = n0 + r->n;
    anacp_fwd_buf b2 = {0};
    int pair = !s->primal && N > 0 && ANACP_HEADS >= 2;
    if (pair && anacp_fwd_alloc(&b2, s)) return GS_ENOMEM;
    int rc = GS_OK;
    for (int k = 0; !rc && k < ANACP_HEADS;) {
        head_job j[2];
        for (int i = 0; i < 2; i++) {
            j[i] = (head_job){s, k + i, Cs, r, Tm, order, pos, md, i ? &b2 : b, n0, GS_OK, ""};
            if (!pair || k + i >= ANACP_HEADS) j[i].k = -1;
        }
        j[0].k = k;
        if (j[1].k >= 0) gs_run_pair(head_run, &j[0], &j[1]);
        else head_run(&j[0]);
        for (int i = 0; i < 2 && !rc; i++)
            if (j[i].rc) rc = gs_error(j[i].rc, "%s", j[i].err);
        k += j[1].k >= 0 ? 2 : 1;
    }
    anacp_fwd_free(&b2);
    return rc;
}

/* Step 4: task t's replay rows (Cs·S × d) and labels (class_order[c] repeated S times). */
static int make_replay(const anacp_state *s, const en_problem *p, int t, const int *order, int Cs, gm_mat *X, int *y)
{
    long d = s->d, N = (long)Cs * ANACP_SAMPLES;
    gm_mat L = {0}, G = {0};
    int rc = gm_copy(&L, &s->cov, "AnaCP replay");
    if (!rc) rc = gm_alloc(&G, N, d, "AnaCP replay");
    if (rc) { gm_free(&L); return rc; }
    /* row-major lower factor: Σ = L Lᵀ (column-major 'U' of the symmetric matrix) */
    lapack_int info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', (lapack_int)d, L.v, (lapack_int)d);
    if (info) { gm_free(&L); gm_free(&G); return gs_error(GS_ERUN, "anacp: the shared covariance is not positive definite"); }
    for (long i = 0; i < d; i++) for (long j = i + 1; j < d; j++) L.v[i * d + j] = 0;
    gsl_rng *r = rng_new(p->seed, RNG_ANACP, 1000 + (uint64_t)t);
    if (!r) { gm_free(&L); gm_free(&G); return GS_ENOMEM; }
    for (size_t i = 0; i < (size_t)N * d; i++) G.v[i] = gsl_ran_gaussian_ziggurat(r, 1.0);
    gsl_rng_free(r);
    /* X = G Lᵀ + μ_y */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)N, (int)d, (int)d, 1.0, G.v, (int)d, L.v, (int)d, 0.0, X->v, (int)d);
    for (long i = 0; i < N; i++) {
        y[i] = order[i / ANACP_SAMPLES];
        cblas_daxpy((int)d, 1.0, gm_row(&s->mean, y[i]), 1, gm_row(X, i), 1);
    }
    gm_free(&L); gm_free(&G);
    return GS_OK;
}

/* The final layer's matrix into the work matrix (anacp_solve's fill): with H kept (the dual)
 * its kernel H Hᵀ; else HᵀH over the replay rows' blocks through the model md (and, the first
 * time, the right-hand sides HᵀY into md->theta). */
typedef struct {
    anacp_state *s;
    const gm_mat *X;
    const int *y, *pos;
    anacp_model *md;
    anacp_fwd_buf *b;
    anacp_fwd_pair *q;
    gm_mat *H;              /* dual: N × D; primal: one block */
    int dual, rhs;
} final_fill;

static int fill_final(void *arg)
{
    final_fill *c = arg;
    anacp_state *s = c->s;
    long N = c->X->rows, D = s->D;
    if (c->dual) {
        cblas_ssyrk(CblasRowMajor, CblasUpper, CblasNoTrans, (int)N, (int)D, 1.0f, c->H->f, (int)D, 0.0f, s->work.f,
                    (int)N);
        return GS_OK;
    }
    memset(s->work.f, 0, gm_nbytes(&s->work));
    for (long i0 = 0; i0 < N; i0 += ANACP_BLOCK) {
        long n = N - i0 < ANACP_BLOCK ? N - i0 : ANACP_BLOCK;
        float *Hb = c->H->f;
        anacp_fwd_block(s, c->md, c->X->v, i0, i0 + n, NULL, 0, c->b, c->q, Hb, NULL, NULL);
        cblas_ssyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)n, 1.0f, Hb, (int)D, 1.0f, s->work.f, (int)D);
        for (long i = 0; c->rhs && i < n; i++)
            cblas_saxpy((int)D, 1.0f, Hb + (size_t)i * D, 1, gm_rowf(&c->md->theta, c->pos[c->y[i0 + i]]), 1);
    }
    c->rhs = 0;
    return GS_OK;
}

/* Step 4 (end): the final layer θᵀ (C_seen × D) of the model md from the replay rows X (labels y;
 * pos[c] the place of class c among the seen classes). With fewer rows N than D in the dual form
 * θ = Hᵀ (H Hᵀ + reg I)⁻¹ Y, the N × N kernel in the work matrix; else (HᵀH + reg I) θ = HᵀY. */
static int solve_final(anacp_state *s, const gm_mat *X, const int *y, const int *pos, int Cs, anacp_model *md,
                       anacp_fwd_buf *b)
{
    long N = X->rows, D = s->D;
    int dual = N < D;
    gm_mat H = {0}, Y = {0};
    anacp_fwd_pair q = {0};
    int rc = anacp_fwd_pair_alloc(&q, s);
    if (!rc) rc = gm_alloc_f(&H, dual ? N : ANACP_BLOCK, D, "AnaCP final layer");
    if (!rc) rc = gm_alloc_f(&md->theta, Cs, D, "AnaCP final layer");
    if (!rc && dual) rc = gm_alloc_f(&Y, Cs, N, "AnaCP final layer");
    if (rc) goto out;
    final_fill c = {s, X, y, pos, md, b, &q, &H, dual, 1};
    if (!dual) {
        rc = anacp_solve(s, s->work.f, D, D, 'L', md->theta.f, Cs, D, fill_final, &c, 0, "anacp: final layer");
        goto out;
    }
    for (long i0 = 0; i0 < N; i0 += ANACP_BLOCK) {
        long n = N - i0 < ANACP_BLOCK ? N - i0 : ANACP_BLOCK;
        anacp_fwd_block(s, md, X->v, i0, i0 + n, NULL, 0, b, &q, gm_rowf(&H, i0), NULL, NULL);
    }
    for (long i = 0; i < N; i++) Y.f[(size_t)pos[y[i]] * N + i] = 1.0f;
    rc = anacp_solve(s, s->work.f, N, N, 'L', Y.f, Cs, N, fill_final, &c, 0, "anacp: final layer");
    if (!rc)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Cs, (int)D, (int)N, 1.0f, Y.f, (int)N, H.f, (int)D, 0.0f,
                    md->theta.f, (int)D);
out:
    anacp_fwd_pair_free(&q);
    gm_free(&H); gm_free(&Y);
    return rc;
}

/* Task t from its rows r (normalized; weights as they count now): steps 1 to 4 into the model of t. */
static int fit_rows(en_mctx *m, anacp_state *s, int t, const anacp_rows *rr)
{
    const en_problem *p = m->p;
    const st_stream *st = p->st;
    int Cs = st->task_class_start[t + 1];
    const int *order = st->class_order;
    anacp_model *md = &s->mod[t];
    const anacp_rows r = *rr;
    gm_mat Tm = {0}, X = {0};
    anacp_fwd_buf b = {0};
    int *y = NULL, *pos = gs_malloc((size_t)s->C, sizeof(int), "AnaCP");
    model_free(md);
    s->fitted = t; /* task t has no model until it is complete */
    int rc = pos ? anacp_fwd_alloc(&b, s) : GS_ENOMEM;
    if (!rc) rc = update_stats(s, &r);
    if (!rc) rc = gm_alloc(&Tm, Cs, s->d, "AnaCP targets");
    if (!rc) rc = spread_means(s, order, Cs, &Tm);
    for (int c = 0; !rc && c < Cs; c++) pos[order[c]] = c;
    long n0 = s->nr;
    if (!rc && !s->primal && n0 + r.n >= s->D) rc = go_primal(s); /* the dual would be no cheaper */
    if (!rc && !s->primal) {
        rc = dual_reserve(s, n0 + r.n);
        for (long i = 0; !rc && i < r.n; i++) { s->ry[n0 + i] = r.y[i]; s->rsw[n0 + i] = sqrt(r.w[i]); }
    }
    if (!rc) rc = update_heads(s, &r, &Tm, order, pos, Cs, md, &b, n0);
    if (!s->primal) s->nr = n0 + r.n; /* the store's rows (a failed task stops the run anyway) */
    if (!rc && factored(s, Cs)) { /* the model's targets, in float */
        rc = gm_alloc_f(&md->T, Cs, s->d, "AnaCP targets");
        for (size_t i = 0; !rc && i < (size_t)Cs * (size_t)s->d; i++) md->T.f[i] = (float)Tm.v[i];
    }
    if (!rc) rc = gm_alloc(&X, (long)Cs * ANACP_SAMPLES, s->d, "AnaCP replay");
    if (!rc && !(y = gs_malloc((size_t)Cs * ANACP_SAMPLES, sizeof(int), "AnaCP replay"))) rc = GS_ENOMEM;
    if (!rc) rc = make_replay(s, p, t, order, Cs, &X, y);
    if (!rc) rc = solve_final(s, &X, y, pos, Cs, md, &b);
    if (!rc) s->fitted = t + 1;
    else model_free(md);
    if (!rc && m->keep_draws) { /* kept for --save-state */
        gm_free(&s->replay[t]); free(s->replay_y[t]);
        s->replay[t] = X; s->replay_y[t] = y;
        X.v = NULL; y = NULL;
    }
    gm_free(&Tm); gm_free(&X); free(y); free(pos);
    anacp_fwd_free(&b);
    return rc;
}

static int anacp_fit(en_mctx *m, int t, const en_rowset *real, const en_rowset *aug)
{
    if (!m->priv) { int rc = anacp_reset(m); if (rc) return rc; }
    anacp_state *s = m->priv;
    anacp_rows r = {{0}, NULL, NULL, 0, real->n}, *kt = &s->kept[t];
    int rc = gather(real, aug, s->d, &r);
    /* kept for a refit: the rows, their labels and own weights (the real rows' w, the synthetic rows' ω) */
    double *own = rc ? NULL : gs_malloc((size_t)(r.n ? r.n : 1), sizeof(double), "AnaCP rows");
    if (!rc && !own) rc = GS_ENOMEM;
    for (long i = 0; !rc && i < r.n; i++)
        own[i] = i < real->n ? r.w[i] : aug->omega ? aug->omega[i - real->n] : NAN;
    if (!rc) {
        gm_free(&kt->X); free(kt->y); free(kt->w);
        *kt = (anacp_rows){r.X, r.y, own, r.n, real->n};
        r.X.v = NULL; r.y = NULL;
        anacp_rows use = *kt;
        use.w = r.w;
        rc = fit_rows(m, s, t, &use);
    }
    gm_free(&r.X); free(r.y); free(r.w);
    return rc;
}

/* Task t again from the rows fit(t) was given, the synthetic rows' weight now w·ω (task 0 first:
 * the statistics start again; the dual's activations and kernels, which do not depend on the
 * weights, are kept). The same operations as fit with those weights: the same numbers. */
static int anacp_refit(en_mctx *m, int t, double w)
{
    anacp_state *s = m->priv;
    const anacp_rows *kt = s && t >= 0 && t < s->T ? &s->kept[t] : NULL;
    if (!kt || !kt->X.v || (t > 0 && s->fitted < t))
        return gs_error(GS_ERUN, "anacp: task %d cannot be refitted (its rows are not kept)", t + 1);
    for (long i = kt->nreal; i < kt->n; i++)
        if (isnan(kt->w[i])) return gs_error(GS_ERUN, "anacp: task %d cannot be refitted (no synthetic row weights)", t + 1);
    double *wv = gs_malloc((size_t)(kt->n ? kt->n : 1), sizeof(double), "AnaCP rows");
    if (!wv) return GS_ENOMEM;
    for (long i = 0; i < kt->n; i++) wv[i] = i < kt->nreal ? kt->w[i] : kt->w[i] * w;
    if (t == 0) restart(s);
    anacp_rows use = *kt;
    use.w = wv;
    int rc = fit_rows(m, s, t, &use);
    free(wv);
    return rc;
}

/* The activation cache of the row set X belongs to (test or validation rows; the budget goes to
 * the test rows first), allocated at its first use; NULL for other rows or when there is no room. */
static anacp_cache *cache_for(const en_problem *p, anacp_state *s, const double *X, long n)
{
    const gm_mat *set[2] = {&p->test_h, &p->val_h};
    double row = 4.0 * ANACP_HEADS * (double)s->D, budget = ANACP_CACHE_MAX;
    for (int j = 0; j < 2; j++) {
        anacp_cache *c = &s->cache[j];
        long cap = (long)(budget / row);
        if (cap > set[j]->rows) cap = set[j]->rows;
        budget -= (double)cap * row;
        if (!X || X != set[j]->v || n > set[j]->rows || cap <= 0) continue;
        if (c->X == X) return c;
        for (int k = 0; k < ANACP_HEADS; k++) gm_free(&c->Z[k]);
        c->X = NULL;
        c->have = 0;
        for (int k = 0; k < ANACP_HEADS; k++) {
            /* plain calloc: without room the rows are computed at every call, no error */
            c->Z[k].f = calloc((size_t)cap * (size_t)s->D, sizeof(float));
            if (!c->Z[k].f) { for (int i = 0; i < k; i++) gm_free(&c->Z[i]); return NULL; }
            c->Z[k].rows = cap;
            c->Z[k].cols = s->D;
        }
        c->X = X;
        c->cap = cap;
        return c;
    }
    return NULL;
}

static int anacp_predict(en_mctx *m, int t, const double *X, long n, int *pred)
{
    anacp_state *s = m->priv;
    const st_stream *st = m->p->st;
    if (!s || t < 0 || t >= s->fitted) return gs_error(GS_ERUN, "anacp: task %d is not fitted", t + 1);
    if (n == 0) return GS_OK;
    const anacp_model *md = &s->mod[t];
    anacp_cache *c = cache_for(m->p, s, X, n);
    anacp_fwd_buf b = {0};
    anacp_fwd_pair q = {0};
    gm_mat H = {0};
    int rc = anacp_fwd_alloc(&b, s);
    if (!rc) rc = anacp_fwd_pair_alloc(&q, s);
    if (!rc) rc = gm_alloc_f(&H, ANACP_BLOCK, s->D, "AnaCP predictions");
    for (long i0 = 0, i1; !rc && i0 < n; i0 = i1) {
        /* blocks lie wholly inside or wholly outside the cached rows */
        int cached = c && i0 < c->cap;
        i1 = n - i0 < ANACP_BLOCK ? n : i0 + ANACP_BLOCK;
        if (cached && i1 > c->cap) i1 = c->cap;
        rc = anacp_fwd_block(s, md, X, i0, i1, cached ? c : NULL, 1, &b, &q, H.f, pred + i0, st->class_order);
    }
    anacp_fwd_free(&b);
    anacp_fwd_pair_free(&q);
    gm_free(&H);
    return rc;
}

/* --save-state: final_W, head<k>_W, then replay_t<t> and replay_labels_t<t> of every task. */
static int anacp_draw(en_mctx *m, int k, en_draw *out)
{
    anacp_state *s = m->priv;
    if (!s) return 0;
    memset(out, 0, sizeof *out);
    if (k == 0) {
        snprintf(out->file, sizeof out->file, "final_W.npy");
        out->role = "final layer W (D×d): H = gelu(f Wᵀ)";
        out->v = s->Wf.v; out->rows = s->D; out->cols = s->d;
        return 1;
    }
    if (k <= ANACP_HEADS) {
        snprintf(out->file, sizeof out->file, "head%d_W.npy", k - 1);
        out->role = "head layer W_k (D×d): Z = gelu(x W_kᵀ)";
        out->v = s->Wk[k - 1].v; out->rows = s->D; out->cols = s->d;
        return 1;
    }
    int j = k - ANACP_HEADS - 1, t = j / 2;
    if (t >= s->fitted || !s->replay[t].v) return 0;
    if (j % 2 == 0) {
        snprintf(out->file, sizeof out->file, "replay_t%d.npy", t + 1);
        out->role = "task t's replay rows (class mean + Gaussian noise of the shared covariance)";
        out->v = s->replay[t].v; out->rows = s->replay[t].rows; out->cols = s->d;
    } else {
        snprintf(out->file, sizeof out->file, "replay_labels_t%d.npy", t + 1);
        out->role = "labels of replay_t<t>";
        out->labels = s->replay_y[t]; out->rows = s->replay[t].rows;
    }
    return 1;
}

static double anacp_bytes(const en_size *z, long D)
{
    int C = z->C, T = z->T;
    double H = z->expand > 0 ? (double)z->expand : ANACP_D, K = ANACP_HEADS, N = (double)C * ANACP_SAMPLES;
    double nd = (double)(z->n_rows < (long)H ? z->n_rows : (long)H), B = ANACP_BLOCK;
    int primal = (double)z->n_rows >= H; /* the heads go primal (their A_k) at some task */
    /* the layers: W in double (--save-state) and in float */
    double bytes = 8.0 * (K + 1) * H * (double)D + 4.0 * (K + 1) * H * (double)D;
    /* floats: per head A (primal) and the class sums, the work matrix; the models of every task
     * ((K + 1) rows of H per seen class, C(T + 1)/2 seen over the tasks); in the dual form (N < H)
     * the replay rows' H; the heads' dual: the rows seen while fewer than H (K × rows × H), per
     * head its kernel and factor in one nd × nd, and the copies made as two of them grow at once;
     * the forward buffers of both threads (Z and a block of H each, the rows and f) */
    bytes += 4.0 * ((primal ? K * H * H : 0) + H * H + K * C * H + (K + 1) * H * C * (T + 1) / 2.0 +
                    (N < H ? N * H : 0) + K * nd * H + (K + 2) * nd * nd + 4.0 * B * H + 8.0 * B * (double)D);
    /* a factorization in double (the fallback; one at a time): a copy of the largest matrix factored */
    double m = primal || N >= H ? H : nd > N ? nd : N;
    bytes += 8.0 * m * m;
    /* the replay rows (double), the rows kept for a refit (z->n_rows counts the augmenter's:
     * gs_learner.h) */
    bytes += 8.0 * N * (double)D + 8.0 * (double)z->n_rows * ((double)D + 2.0);
    /* the kept head activations of the test and validation rows */
    double cache = 4.0 * K * H * (double)(z->n_test + z->n_val);
    return bytes + (cache < ANACP_CACHE_MAX ? cache : ANACP_CACHE_MAX);
}

const en_learner en_learner_anacp = {
    .name = "anacp", .display = "AnaCP", .letter = 'Y',
    .summary = "AnaCP: 3 GELU heads projecting to spread class means, Gaussian replay, final ridge",
    .family = EN_STATS,
    .map = EN_MAP_IDENTITY,
    .reset = anacp_reset,
    .fit = anacp_fit,
    .refit = anacp_refit,
    .predict = anacp_predict,
    .destroy = anacp_destroy,
    .draw = anacp_draw,
    .bytes = anacp_bytes,
};
