/* method_anacp.c — AnaCP (analytic contrastive projection), a stats learner (gs_learner.h), as the
 * reference implementation computes it (SalehMomeni/AnaCP, models/anacp.py), in double precision.
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
 * Prediction: argmax over the seen classes of GELU(f(normalize(x)) W_finalᵀ) θ. Only the last
 * task's model is kept (the engine refits when it needs earlier tasks).
 * Randomness: rng_new(seed, RNG_ANACP, 0) draws W_final, index k+1 head k, 1000+t task t's replay.
 * Ownership: anacp_state in en_mctx.priv, freed by anacp_destroy.
 */
#include "gs_learner.h"
#include "gs_common.h"
#include "gs_rng.h"
#include "gs_spectral.h"

#include <gsl/gsl_cblas.h> /* GSL's CBLAS declarations (OpenBLAS provides the symbols): gsl_randist.h needs them */
#include <gsl/gsl_randist.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ANACP_HEADS 3
#define ANACP_D 5000
#define ANACP_REG 100.0
#define ANACP_SAMPLES 100

typedef struct {
    long d, D;
    int C, T, fitted;          /* fitted: tasks 0..fitted-1 */
    gm_mat Wf, Wk[ANACP_HEADS];/* D × d */
    gm_mat Ak[ANACP_HEADS];    /* D × D, row-major upper + lower */
    gm_mat Zs[ANACP_HEADS];    /* C × D weighted class sums of Z */
    gm_mat theta_k[ANACP_HEADS]; /* D × d */
    gm_mat mean, cov;          /* C × d class means, d × d shared covariance */
    double *cnt, ntot;         /* C weights seen per class, their sum */
    int have_cov;
    gm_mat theta;              /* D × Cs, the final layer of the last fitted task */
    int Cs;
    gm_mat *replay;            /* T replay rows (keep_draws), labels below */
    int **replay_y;
} anacp_state;

static void anacp_destroy(en_mctx *m)
{
    anacp_state *s = m->priv;
    if (!s) return;
    gm_free(&s->Wf);
    for (int k = 0; k < ANACP_HEADS; k++) { gm_free(&s->Wk[k]); gm_free(&s->Ak[k]); gm_free(&s->Zs[k]); gm_free(&s->theta_k[k]); }
    gm_free(&s->mean); gm_free(&s->cov); gm_free(&s->theta);
    free(s->cnt);
    for (int t = 0; s->replay && t < s->T; t++) { gm_free(&s->replay[t]); free(s->replay_y[t]); }
    free(s->replay); free(s->replay_y);
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

static int anacp_reset(en_mctx *m)
{
    const en_problem *p = m->p;
    anacp_destroy(m);
    anacp_state *s = gs_calloc(1, sizeof *s, "AnaCP");
    if (!s) return GS_ENOMEM;
    m->priv = s;
    s->d = p->d;
    s->D = p->expand > 0 ? p->expand : ANACP_D;
    s->C = p->C;
    s->T = p->T;
    int rc = draw_gauss(&s->Wf, s->D, s->d, p->seed, 0);
    for (int k = 0; !rc && k < ANACP_HEADS; k++) {
        rc = draw_gauss(&s->Wk[k], s->D, s->d, p->seed, (uint64_t)k + 1);
        if (!rc) rc = gm_alloc(&s->Ak[k], s->D, s->D, "AnaCP head Gram");
        if (!rc) rc = gm_alloc(&s->Zs[k], s->C, s->D, "AnaCP head means");
        if (!rc) rc = gm_alloc(&s->theta_k[k], s->D, s->d, "AnaCP head projection");
    }
    if (!rc) rc = gm_alloc(&s->mean, s->C, s->d, "AnaCP class means");
    if (!rc) rc = gm_alloc(&s->cov, s->d, s->d, "AnaCP covariance");
    s->cnt = rc ? NULL : gs_calloc((size_t)s->C, sizeof(double), "AnaCP class means");
    s->replay = rc ? NULL : gs_calloc((size_t)s->T, sizeof(gm_mat), "AnaCP replay");
    s->replay_y = rc ? NULL : gs_calloc((size_t)s->T, sizeof(int *), "AnaCP replay");
    if (!rc && (!s->cnt || !s->replay || !s->replay_y)) rc = GS_ENOMEM;
    if (rc) anacp_destroy(m);
    return rc;
}

static void gelu(double *v, size_t n)
{
    for (size_t i = 0; i < n; i++) v[i] = 0.5 * v[i] * (1.0 + erf(v[i] * M_SQRT1_2));
}

static void normalize_rows(double *X, long n, long d)
{
    for (long i = 0; i < n; i++) {
        double nr = cblas_dnrm2((int)d, X + (size_t)i * d, 1);
        if (nr > 1e-12) cblas_dscal((int)d, 1.0 / nr, X + (size_t)i * d, 1);
    }
}

/* Out (n × D) = GELU(X Wᵀ) for X (n × d). */
static void layer(const gm_mat *W, const double *X, long n, double *Out)
{
    long D = W->rows, d = W->cols;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)D, (int)d, 1.0, X, (int)d, W->v, (int)d, 0.0,
                Out, (int)D);
    gelu(Out, (size_t)n * (size_t)D);
}

/* X (n × nrhs... ) := (A + reg I)⁻¹ B: A (D × D symmetric) copied, B (D × nrhs, row-major) solved in
 * place through its column-major transpose. */
static int ridge_solve(const gm_mat *A, double reg, gm_mat *B, const char *what)
{
    long D = A->rows, r = B->cols;
    gm_mat F = {0}, Bt = {0};
    int rc = gm_copy(&F, A, what);
    if (!rc) rc = gm_alloc(&Bt, r, D, what);
    if (rc) { gm_free(&F); return rc; }
    for (long i = 0; i < D; i++) F.v[i * D + i] += reg;
    for (long i = 0; i < D; i++) for (long j = 0; j < r; j++) Bt.v[j * D + i] = B->v[i * r + j];
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', (lapack_int)D, F.v, (lapack_int)D);
    if (!info) info = LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'U', (lapack_int)D, (lapack_int)r, F.v, (lapack_int)D, Bt.v, (lapack_int)D);
    if (!info) for (long i = 0; i < D; i++) for (long j = 0; j < r; j++) B->v[i * r + j] = Bt.v[j * D + i];
    gm_free(&F); gm_free(&Bt);
    return info ? gs_error(GS_ERUN, "anacp: %s: LAPACK Cholesky failed (info %d)", what, (int)info) : GS_OK;
}

/* f(X) = mean_k normalize(GELU(X W_kᵀ) θ_k) into F (n × d). */
static int heads_forward(const anacp_state *s, const double *X, long n, double *F)
{
    gm_mat Z = {0}, P = {0};
    int rc = gm_alloc(&Z, n, s->D, "AnaCP heads");
    if (!rc) rc = gm_alloc(&P, n, s->d, "AnaCP heads");
    if (rc) { gm_free(&Z); return rc; }
    memset(F, 0, (size_t)n * (size_t)s->d * sizeof(double));
    for (int k = 0; k < ANACP_HEADS; k++) {
        layer(&s->Wk[k], X, n, Z.v);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)s->d, (int)s->D, 1.0, Z.v, (int)s->D,
                    s->theta_k[k].v, (int)s->d, 0.0, P.v, (int)s->d);
        normalize_rows(P.v, n, s->d);
        cblas_daxpy((int)(n * s->d), 1.0 / ANACP_HEADS, P.v, 1, F, 1);
    }
    gm_free(&Z); gm_free(&P);
    return GS_OK;
}

/* The task's rows (real then synthetic), normalized, with their labels and weights. */
typedef struct { gm_mat X; int *y; double *w; long n; } rows;

static int gather(const en_rowset *real, const en_rowset *aug, long d, rows *r)
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
    normalize_rows(r->X.v, r->n, d);
    return GS_OK;
}

/* Step 1: means and the shared covariance. */
static int update_stats(anacp_state *s, const rows *r)
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

/* Step 2: target means of the Cs seen classes (class_order) into Tm (Cs × d). */
static int spread_means(const anacp_state *s, const int *order, int Cs, gm_mat *Tm)
{
    long d = s->d;
    double *lam = gs_malloc((size_t)d, sizeof(double), "AnaCP spread");
    double *sv = gs_malloc((size_t)(Cs < d ? Cs : d), sizeof(double), "AnaCP spread");
    double *ctr = gs_calloc((size_t)d, sizeof(double), "AnaCP spread");
    gm_mat V = {0}, Wh = {0}, Mc = {0}, Wm = {0}, U = {0}, Vt = {0};
    long k = Cs < d ? Cs : d;
    int rc = lam && sv && ctr ? sp_eig(&s->cov, lam, &V) : GS_ENOMEM;
    if (!rc) rc = gm_alloc(&Wh, d, d, "AnaCP spread");
    if (!rc) rc = gm_alloc(&Mc, Cs, d, "AnaCP spread");
    if (!rc) rc = gm_alloc(&Wm, Cs, d, "AnaCP spread");
    if (!rc) rc = gm_alloc(&U, Cs, k, "AnaCP spread");
    if (!rc) rc = gm_alloc(&Vt, k, d, "AnaCP spread");
    if (rc) goto out;
    /* Wh = V diag(1/√(λ+1e-8)) Vᵀ (V row-major, columns eigenvectors) */
    gm_mat Vs = {0};
    if ((rc = gm_copy(&Vs, &V, "AnaCP spread"))) goto out;
    for (long i = 0; i < d; i++) for (long j = 0; j < d; j++) Vs.v[i * d + j] *= 1.0 / sqrt(lam[j] + 1e-8);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)d, (int)d, (int)d, 1.0, Vs.v, (int)d, V.v, (int)d, 0.0, Wh.v, (int)d);
    gm_free(&Vs);
    for (int c = 0; c < Cs; c++) cblas_daxpy((int)d, 1.0 / Cs, gm_row(&s->mean, order[c]), 1, ctr, 1);
    for (int c = 0; c < Cs; c++)
        for (long j = 0; j < d; j++) Mc.v[(size_t)c * d + j] = gm_row(&s->mean, order[c])[j] - ctr[j];
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Cs, (int)d, (int)d, 1.0, Mc.v, (int)d, Wh.v, (int)d, 0.0, Wm.v, (int)d);
    lapack_int info = LAPACKE_dgesdd(LAPACK_ROW_MAJOR, 'S', Cs, (lapack_int)d, Wm.v, (lapack_int)d, sv, U.v,
                                     (lapack_int)k, Vt.v, (lapack_int)d);
    if (info) { rc = gs_error(GS_ERUN, "anacp: SVD of the class means failed (info %d)", (int)info); goto out; }
    /* raise the singular values by 1, except the (numerically) zero ones: centred means have rank
     * ≤ C_seen − 1, and a zero singular value's vectors are arbitrary (the SVD routine's choice) */
    for (long i = 0; i < Cs; i++)
        for (long j = 0; j < k; j++) U.v[i * k + j] *= sv[j] > 1e-10 * sv[0] ? sv[j] + 1.0 : sv[j];
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Cs, (int)d, (int)k, 1.0, U.v, (int)k, Vt.v, (int)d, 0.0, Mc.v, (int)d);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Cs, (int)d, (int)d, 1.0, Mc.v, (int)d, Wh.v, (int)d, 0.0, Tm->v, (int)d);
    for (int c = 0; c < Cs; c++) cblas_daxpy((int)d, 1.0, ctr, 1, gm_row(Tm, c), 1);
    normalize_rows(Tm->v, Cs, d);
out:
    free(lam); free(sv); free(ctr);
    gm_free(&V); gm_free(&Wh); gm_free(&Mc); gm_free(&Wm); gm_free(&U); gm_free(&Vt);
    return rc;
}

/* Step 3: head k's statistics from the task's rows and its projection θ_k onto the targets. */
static int update_head(anacp_state *s, int k, const rows *r, const gm_mat *Tm, const int *order, int Cs)
{
    long D = s->D, d = s->d;
    gm_mat Z = {0}, B = {0};
    int rc = gm_alloc(&Z, r->n ? r->n : 1, D, "AnaCP heads");
    if (!rc) rc = gm_alloc(&B, D, d, "AnaCP heads");
    if (rc) { gm_free(&Z); return rc; }
    layer(&s->Wk[k], r->X.v, r->n, Z.v);
    for (long i = 0; i < r->n; i++) cblas_daxpy((int)D, r->w[i], gm_row(&Z, i), 1, gm_row(&s->Zs[k], r->y[i]), 1);
    for (long i = 0; i < r->n; i++) cblas_dscal((int)D, sqrt(r->w[i]), gm_row(&Z, i), 1);
    if (r->n) cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)r->n, 1.0, Z.v, (int)D, 1.0, s->Ak[k].v, (int)D);
    for (long i = 0; i < D; i++) for (long j = i + 1; j < D; j++) s->Ak[k].v[j * D + i] = s->Ak[k].v[i * D + j];
    /* B = Σ_c zsum_c target_cᵀ over the seen classes */
    gm_mat Zc = {0};
    if ((rc = gm_alloc(&Zc, Cs, D, "AnaCP heads"))) goto out;
    for (int c = 0; c < Cs; c++) memcpy(gm_row(&Zc, c), gm_row(&s->Zs[k], order[c]), (size_t)D * sizeof(double));
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)D, (int)d, Cs, 1.0, Zc.v, (int)D, Tm->v, (int)d, 0.0, B.v, (int)d);
    gm_free(&Zc);
    if (!(rc = ridge_solve(&s->Ak[k], ANACP_REG, &B, "head projection")))
        memcpy(s->theta_k[k].v, B.v, (size_t)D * d * sizeof(double));
out:
    gm_free(&Z); gm_free(&B);
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

/* Step 4 (end): the final layer θ (D × Cs) from the replay rows. */
static int solve_final(anacp_state *s, const gm_mat *X, const int *y, const int *pos, int Cs)
{
    long N = X->rows, D = s->D;
    gm_mat F = {0}, H = {0}, A = {0};
    int rc = gm_alloc(&F, N, s->d, "AnaCP final layer");
    if (!rc) rc = gm_alloc(&H, N, D, "AnaCP final layer");
    if (!rc) rc = gm_alloc(&A, D, D, "AnaCP final layer");
    gm_free(&s->theta);
    if (!rc) rc = gm_alloc(&s->theta, D, Cs, "AnaCP final layer");
    if (!rc) rc = heads_forward(s, X->v, N, F.v);
    if (rc) goto out;
    layer(&s->Wf, F.v, N, H.v);
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)N, 1.0, H.v, (int)D, 0.0, A.v, (int)D);
    for (long i = 0; i < D; i++) for (long j = i + 1; j < D; j++) A.v[j * D + i] = A.v[i * D + j];
    memset(s->theta.v, 0, (size_t)D * Cs * sizeof(double));
    for (long i = 0; i < N; i++) cblas_daxpy((int)D, 1.0, gm_row(&H, i), 1, s->theta.v + pos[y[i]], Cs);
    rc = ridge_solve(&A, ANACP_REG, &s->theta, "final layer");
    s->Cs = Cs;
out:
    gm_free(&F); gm_free(&H); gm_free(&A);
    return rc;
}

static int anacp_fit(en_mctx *m, int t, const en_rowset *real, const en_rowset *aug)
{
    const en_problem *p = m->p;
    const st_stream *st = p->st;
    if (!m->priv) { int rc = anacp_reset(m); if (rc) return rc; }
    anacp_state *s = m->priv;
    int Cs = st->task_class_start[t + 1];
    const int *order = st->class_order;
    rows r = {{0}, NULL, NULL, 0};
    gm_mat Tm = {0}, X = {0};
    int *y = NULL, *pos = gs_malloc((size_t)s->C, sizeof(int), "AnaCP");
    int rc = pos ? gather(real, aug, s->d, &r) : GS_ENOMEM;
    if (!rc) rc = update_stats(s, &r);
    if (!rc) rc = gm_alloc(&Tm, Cs, s->d, "AnaCP targets");
    if (!rc) rc = spread_means(s, order, Cs, &Tm);
    for (int k = 0; !rc && k < ANACP_HEADS; k++) rc = update_head(s, k, &r, &Tm, order, Cs);
    if (!rc) rc = gm_alloc(&X, (long)Cs * ANACP_SAMPLES, s->d, "AnaCP replay");
    if (!rc && !(y = gs_malloc((size_t)Cs * ANACP_SAMPLES, sizeof(int), "AnaCP replay"))) rc = GS_ENOMEM;
    if (!rc) rc = make_replay(s, p, t, order, Cs, &X, y);
    for (int c = 0; !rc && c < Cs; c++) pos[order[c]] = c;
    if (!rc) rc = solve_final(s, &X, y, pos, Cs);
    if (!rc) s->fitted = t + 1;
    if (!rc && m->keep_draws) { /* kept for --save-state */
        s->replay[t] = X; s->replay_y[t] = y;
        X.v = NULL; y = NULL;
    }
    gm_free(&r.X); free(r.y); free(r.w);
    gm_free(&Tm); gm_free(&X); free(y); free(pos);
    return rc;
}

static int anacp_predict(en_mctx *m, int t, const double *X, long n, int *pred)
{
    anacp_state *s = m->priv;
    const st_stream *st = m->p->st;
    if (!s || s->fitted != t + 1) return gs_error(GS_ERUN, "anacp: task %d is not the last fitted task", t + 1);
    if (n == 0) return GS_OK;
    gm_mat Xn = {0}, F = {0}, H = {0}, S = {0};
    int rc = gm_alloc(&Xn, n, s->d, "AnaCP predictions");
    if (!rc) rc = gm_alloc(&F, n, s->d, "AnaCP predictions");
    if (!rc) rc = gm_alloc(&H, n, s->D, "AnaCP predictions");
    if (!rc) rc = gm_alloc(&S, n, s->Cs, "AnaCP predictions");
    if (!rc) {
        memcpy(Xn.v, X, (size_t)n * s->d * sizeof(double));
        normalize_rows(Xn.v, n, s->d);
        rc = heads_forward(s, Xn.v, n, F.v);
    }
    if (!rc) {
        layer(&s->Wf, F.v, n, H.v);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, s->Cs, (int)s->D, 1.0, H.v, (int)s->D,
                    s->theta.v, s->Cs, 0.0, S.v, s->Cs);
        for (long i = 0; i < n; i++) {
            const double *r = gm_row(&S, i);
            int b = 0;
            for (int k = 1; k < s->Cs; k++) if (r[k] > r[b]) b = k;
            pred[i] = st->class_order[b];
        }
    }
    gm_free(&Xn); gm_free(&F); gm_free(&H); gm_free(&S);
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

static double anacp_bytes(long D, long expand, int C, int T)
{
    (void)T;
    double H = expand > 0 ? (double)expand : ANACP_D; /* the layers' size */
    /* per head: W, A, class sums, θ; final W, a D×D work and the replay's H rows */
    return (double)sizeof(double) * ((ANACP_HEADS + 2.0) * H * H + (ANACP_HEADS + 1.0) * H * (double)D * 2 +
                                     (double)C * ANACP_SAMPLES * (H + (double)D) + (double)ANACP_HEADS * C * H);
}

const en_learner en_learner_anacp = {
    .name = "anacp",
    .summary = "AnaCP: 3 GELU heads projecting to spread class means, Gaussian replay, final ridge",
    .family = EN_STATS,
    .map = EN_MAP_IDENTITY,
    .reset = anacp_reset,
    .fit = anacp_fit,
    .predict = anacp_predict,
    .destroy = anacp_destroy,
    .last_model_only = 1,
    .draw = anacp_draw,
    .bytes = anacp_bytes,
};
