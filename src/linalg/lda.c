/* linalg/lda.c — weighted class statistics, shared-covariance LDA, random Fourier features and FeCAM's
 * per-class Mahalanobis distance (see gs_lda.h for the definitions).
 *
 * Storage: every matrix is row-major. A symmetric D × D matrix keeps its upper triangle in
 * row-major order, which is the lower triangle of the same buffer read column-major: LAPACK is
 * called column-major with 'L' so no transposed copy is made (at D = 5000 a copy is 200 MB).
 */
#include "gs_lda.h"
#include "gs_argmax.h"
#include "gs_common.h"
#include "gs_spd.h"

#include <gsl/gsl_cblas.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DA_BLOCK 512 /* test rows per block of the distance and score products */

int da_stats_init(da_stats *s, int C, long D, int scatter)
{
    memset(s, 0, sizeof *s);
    s->C = C;
    s->D = D;
    s->sum = gs_calloc((size_t)C * (size_t)D, sizeof(double), "class sums");
    s->w = gs_calloc((size_t)C, sizeof(double), "class weights");
    s->n = gs_calloc((size_t)C, sizeof(long), "class counts");
    if (scatter == DA_SCATTER_F) s->Sf = gs_calloc((size_t)D * (size_t)D, sizeof(float), "shared covariance");
    else if (scatter) s->S = gs_calloc((size_t)D * (size_t)D, sizeof(double), "shared covariance");
    if (!s->sum || !s->w || !s->n || (scatter && !s->S && !s->Sf)) { da_stats_free(s); return GS_ENOMEM; }
    return GS_OK;
}

void da_stats_zero(da_stats *s)
{
    memset(s->sum, 0, (size_t)s->C * (size_t)s->D * sizeof(double));
    memset(s->w, 0, (size_t)s->C * sizeof(double));
    memset(s->n, 0, (size_t)s->C * sizeof(long));
    if (s->S) memset(s->S, 0, (size_t)s->D * (size_t)s->D * sizeof(double));
    if (s->Sf) memset(s->Sf, 0, (size_t)s->D * (size_t)s->D * sizeof(float));
    s->wtot = 0;
}

void da_stats_free(da_stats *s)
{
    free(s->sum); free(s->w); free(s->n); free(s->S); free(s->Sf);
    memset(s, 0, sizeof *s);
}

/* Add n rows H: row i of class y ? y[i] : c0 with weight w ? w[i] : w0, a run of equal class and
 * weight at a time. Every run's rows centred at the run's mean and scaled by √ω, and for a class
 * that already had rows the vector √(w_c w_b / (w_c + w_b)) (μ_c − μ_b) (the merge term of
 * gs_lda.h), are stacked into one matrix R: S += RᵀR is a single rank-k update per call, however
 * many runs the rows hold (in float, ssyrk, for a float scatter Sf). */
static int add_block(da_stats *s, const double *H, const int *y, int c0, const double *w, double w0, long n)
{
    long D = s->D, runs = 0, nr = 0;
    for (long i = 0, j; i < n; i = j, runs++)
        for (j = i + 1; j < n && (y ? y[j] == y[i] : 1) && (w ? w[j] == w[i] : 1); j++) {}
    double *mb = gs_malloc((size_t)D, sizeof(double), "class statistics");
    int sc = s->S || s->Sf;
    double *R = s->S ? gs_malloc((size_t)(n + runs) * (size_t)D, sizeof(double), "class statistics") : NULL;
    float *Rf = s->Sf ? gs_malloc((size_t)(n + runs) * (size_t)D, sizeof(float), "class statistics") : NULL;
    if (!mb || (sc && !R && !Rf)) { free(mb); free(R); free(Rf); return GS_ENOMEM; }
    for (long i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && (y ? y[j] == y[i] : 1) && (w ? w[j] == w[i] : 1); j++) {}
        int c = y ? y[i] : c0;
        double omega = w ? w[i] : w0;
        if (!(omega > 0)) continue;
        long k = j - i;
        memset(mb, 0, (size_t)D * sizeof(double));
        for (long q = i; q < j; q++) cblas_daxpy((int)D, 1.0, H + (size_t)q * D, 1, mb, 1);
        cblas_dscal((int)D, 1.0 / (double)k, mb, 1);
        double wb = omega * (double)k, wc = s->w[c];
        double *sum = s->sum + (size_t)c * D;
        if (R) {
            double sq = sqrt(omega);
            for (long q = i; q < j; q++, nr++) {
                const double *x = H + (size_t)q * D;
                double *r = R + (size_t)nr * D;
                for (long e = 0; e < D; e++) r[e] = sq * (x[e] - mb[e]);
            }
            if (wc > 0) {
                double f = sqrt(wc * wb / (wc + wb)), *r = R + (size_t)nr++ * D;
                for (long e = 0; e < D; e++) r[e] = f * (sum[e] / wc - mb[e]);
            }
        } else if (Rf) { /* the same rows, rounded to float once centred */
            double sq = sqrt(omega);
            for (long q = i; q < j; q++, nr++) {
                const double *x = H + (size_t)q * D;
                float *r = Rf + (size_t)nr * D;
                for (long e = 0; e < D; e++) r[e] = (float)(sq * (x[e] - mb[e]));
            }
            if (wc > 0) {
                double f = sqrt(wc * wb / (wc + wb));
                float *r = Rf + (size_t)nr++ * D;
                for (long e = 0; e < D; e++) r[e] = (float)(f * (sum[e] / wc - mb[e]));
            }
        }
        cblas_daxpy((int)D, wb, mb, 1, sum, 1);
        s->w[c] = wc + wb;
        s->n[c] += k;
        s->wtot += wb;
    }
    if (nr && R) cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)nr, 1.0, R, (int)D, 1.0, s->S, (int)D);
    if (nr && Rf) cblas_ssyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)nr, 1.0f, Rf, (int)D, 1.0f, s->Sf, (int)D);
    free(mb);
    free(R);
    free(Rf);
    return GS_OK;
}

int da_stats_add(da_stats *s, int c, const double *X, long n, double omega)
{
    if (n <= 0 || !(omega > 0)) return GS_OK;
    return add_block(s, X, NULL, c, NULL, omega, n);
}

int da_add_rows(da_stats *s, const double *H, const int *y, const double *w, long n)
{
    return n > 0 ? add_block(s, H, y, 0, w, 1.0, n) : GS_OK;
}

int da_lda_solve(const da_stats *s, const int *cls, int k, double a, double b, double *A, double *V, double *bias)
{
    long D = s->D;
    if (!s->S) return gs_error(GS_ERUN, "LDA: no covariance kept");
    for (long i = 0; i < D; i++) {
        const double *si = s->S + (size_t)i * D;
        double *ai = A + (size_t)i * D;
        for (long j = i; j < D; j++) ai[j] = a * si[j];
        ai[i] += b;
    }
    lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', (lapack_int)D, A, (lapack_int)D);
    if (info > 0)
        return gs_error(GS_ERUN, "the regularized covariance is not positive definite (leading minor %d); raise the "
                        "regularization", (int)info);
    if (info < 0) return gs_error(GS_ERUN, "LAPACK dpotrf failed (info %d)", (int)info);
    for (int q = 0; q < k; q++) {
        int c = cls[q];
        if (!(s->w[c] > 0)) return gs_error(GS_ERUN, "LDA: class %d has no rows", c);
        const double *sum = s->sum + (size_t)c * D;
        double *v = V + (size_t)q * D;
        for (long j = 0; j < D; j++) v[j] = sum[j] / s->w[c];
    }
    /* V row-major k × D is column-major D × k: one right-hand side per class */
    info = LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', (lapack_int)D, k, A, (lapack_int)D, V, (lapack_int)D);
    if (info != 0) return gs_error(GS_ERUN, "LAPACK dpotrs failed (info %d)", (int)info);
    for (int q = 0; q < k; q++) {
        const double *sum = s->sum + (size_t)cls[q] * D;
        bias[q] = -0.5 * cblas_ddot((int)D, sum, 1, V + (size_t)q * D, 1) / s->w[cls[q]];
    }
    return GS_OK;
}

int da_sym_eigvals(const double *S, long D, double a, double b, double *work, double *eig)
{
    for (long i = 0; i < D; i++) {
        const double *si = S + (size_t)i * D;
        double *wi = work + (size_t)i * D;
        for (long j = i; j < D; j++) wi[j] = a * si[j];
        wi[i] += b;
    }
    lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)D, work, (lapack_int)D, eig);
    if (info != 0) return gs_error(GS_ERUN, "LAPACK dsyevd failed (info %d)", (int)info);
    for (long i = 0, j = D - 1; i < j; i++, j--) { double t = eig[i]; eig[i] = eig[j]; eig[j] = t; }
    return GS_OK;
}

long da_run_end(const int *y, const double *w, long i, long n)
{
    long j = i + 1;
    while (j < n && y[j] == y[i] && (!w || w[j] == w[i])) j++;
    return j;
}

int da_models_init(da_models *m, int T, long D)
{
    m->T = T;
    m->D = D;
    m->V = gs_calloc((size_t)T, sizeof(double *), "LDA models");
    m->bias = gs_calloc((size_t)T, sizeof(double *), "LDA models");
    m->Vf = gs_calloc((size_t)T, sizeof(float *), "LDA models");
    if (!m->V || !m->bias || !m->Vf) { da_models_free(m); return GS_ENOMEM; }
    return GS_OK;
}

void da_models_clear(da_models *m)
{
    for (int t = 0; m->V && t < m->T; t++) { free(m->V[t]); free(m->bias[t]); m->V[t] = m->bias[t] = NULL; }
    for (int t = 0; m->Vf && t < m->T; t++) { free(m->Vf[t]); m->Vf[t] = NULL; }
}

void da_models_free(da_models *m)
{
    da_models_clear(m);
    free(m->V);
    free(m->bias);
    free(m->Vf);
    memset(m, 0, sizeof *m);
}

int da_models_solve(da_models *m, int t, const da_stats *s, const int *cls, int k, double a, double b, double *A)
{
    free(m->V[t]); free(m->bias[t]);
    m->V[t] = gs_malloc((size_t)k * (size_t)m->D, sizeof(double), "LDA model");
    m->bias[t] = gs_malloc((size_t)k, sizeof(double), "LDA model");
    int rc = m->V[t] && m->bias[t] ? da_lda_solve(s, cls, k, a, b, A, m->V[t], m->bias[t]) : GS_ENOMEM;
    if (rc) { free(m->V[t]); free(m->bias[t]); m->V[t] = m->bias[t] = NULL; }
    return rc;
}

int da_models_predict(const da_models *m, int t, const double *X, long n, const int *cls, int k, int *pred)
{
    if (t < 0 || t >= m->T || !m->V[t]) return gs_error(GS_ERUN, "task %d has no model", t + 1);
    int rc = am_argmax(X, NULL, 0, n, m->D, m->V[t], NULL, m->bias[t], k, AM_BLOCK, pred);
    for (long i = 0; i < n && !rc; i++) pred[i] = cls[pred[i]];
    return rc;
}

/* ---- random Fourier features ------------------------------------------------------------- */

int da_rff_draw(gsl_rng *r, long d, long D, double gamma, double *W, double *b)
{
    double sd = sqrt(2.0 * gamma);
    for (size_t i = 0; i < (size_t)d * (size_t)D; i++) W[i] = gsl_ran_gaussian(r, sd);
    for (long j = 0; j < D; j++) b[j] = 2.0 * M_PI * gsl_rng_uniform(r);
    return GS_OK;
}

void da_rff_map(const double *X, long n, long d, const double *W, const double *b, long D, double *Z)
{
    if (n <= 0) return;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)D, (int)d, 1.0, X, (int)d, W, (int)D, 0.0, Z,
                (int)D);
    double sc = sqrt(2.0 / (double)D);
    for (long i = 0; i < n; i++) {
        double *z = Z + (size_t)i * D;
        for (long j = 0; j < D; j++) z[j] = sc * cos(z[j] + b[j]);
    }
}

/* ---- FeCAM ---------------------------------------------------------------------------------- */

void da_tukey(double *x, size_t n, double beta)
{
    if (beta == 1.0) return;
    if (beta == 0.5) {
        for (size_t i = 0; i < n; i++) x[i] = copysign(sqrt(fabs(x[i])), x[i]);
        return;
    }
    for (size_t i = 0; i < n; i++) x[i] = copysign(pow(fabs(x[i]), beta), x[i]);
}

void da_fecam_free(da_fecam_class *m)
{
    free(m->mu); free(m->sd); free(m->B);
    memset(m, 0, sizeof *m);
}

double da_fecam_bytes(long n, long D) { return 8.0 * ((double)(n < D ? n : D) * (double)D + 2.0 * (double)D); }

static int fecam_euclid(da_fecam_class *m)
{
    m->euclid = 1;
    m->a = 1;
    m->r = 0;
    for (long j = 0; j < m->D; j++) m->sd[j] = 1;
    free(m->B);
    m->B = NULL;
    return GS_OK;
}

int da_fecam_fit(da_fecam_class *m, const double *R, const double *w, long n, long D, double alpha1)
{
    memset(m, 0, sizeof *m);
    m->D = D;
    m->mu = gs_calloc((size_t)D, sizeof(double), "FeCAM class");
    m->sd = gs_calloc((size_t)D, sizeof(double), "FeCAM class");
    if (!m->mu || !m->sd) { da_fecam_free(m); return GS_ENOMEM; }
    double W = 0;
    for (long i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        W += wi;
        cblas_daxpy((int)D, wi, R + (size_t)i * D, 1, m->mu, 1);
    }
    if (!(W > 0)) return fecam_euclid(m);
    cblas_dscal((int)D, 1.0 / W, m->mu, 1);
    if (!(W > 1)) return fecam_euclid(m);
    double *U = gs_malloc((size_t)n * (size_t)D, sizeof(double), "FeCAM class");
    if (!U) { da_fecam_free(m); return GS_ENOMEM; }
    double s = 1.0 / (W - 1.0), tr = 0;
    for (long i = 0; i < n; i++) {
        double sw = sqrt(w ? w[i] : 1.0);
        const double *x = R + (size_t)i * D;
        double *u = U + (size_t)i * D;
        for (long j = 0; j < D; j++) { u[j] = sw * (x[j] - m->mu[j]); m->sd[j] += u[j] * u[j]; }
    }
    for (long j = 0; j < D; j++) { m->sd[j] *= s; tr += m->sd[j]; }
    if (!(tr > 0) || !isfinite(tr)) { free(U); return fecam_euclid(m); }
    m->a = alpha1 * tr / (double)D;
    if (!(m->a > 0)) { free(U); return gs_error(GS_ERUN, "FeCAM: the shrinkage must be positive"); }
    for (long j = 0; j < D; j++) m->sd[j] = sqrt(m->sd[j] + m->a);
    lapack_int info;
    if (n <= D) {
        /* Woodbury: K = a I + s U Uᵀ = L Lᵀ (n × n), B = √s L⁻¹ U */
        double *K = gs_calloc((size_t)n * (size_t)n, sizeof(double), "FeCAM class");
        if (!K) { free(U); da_fecam_free(m); return GS_ENOMEM; }
        cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, (int)n, (int)D, s, U, (int)D, 0.0, K, (int)n);
        for (long i = 0; i < n; i++) K[(size_t)i * n + i] += m->a;
        info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', (lapack_int)n, K, (lapack_int)n); /* = row-major lower L */
        if (info == 0)
            cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, (int)n, (int)D, sqrt(s), K,
                        (int)n, U, (int)D);
        free(K);
        m->B = U;
        m->r = n;
    } else {
        double *A = gs_calloc((size_t)D * (size_t)D, sizeof(double), "FeCAM class covariance");
        if (!A) { free(U); da_fecam_free(m); return GS_ENOMEM; }
        cblas_dsyrk(CblasRowMajor, CblasLower, CblasTrans, (int)D, (int)n, s, U, (int)D, 0.0, A, (int)D);
        free(U);
        for (long j = 0; j < D; j++) A[(size_t)j * D + j] += m->a;
        info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', (lapack_int)D, A, (lapack_int)D);
        m->B = A;
        m->r = 0;
    }
    if (info != 0) {
        da_fecam_free(m);
        return gs_error(GS_ERUN, "FeCAM: the shrunk class covariance is not positive definite (LAPACK info %d)", (int)info);
    }
    return GS_OK;
}

int da_fecam_dist(const da_fecam_class *m, const double *X, long n, double *dist, long stride)
{
    long D = m->D;
    long nb = n < DA_BLOCK ? n : DA_BLOCK;
    if (n <= 0) return GS_OK;
    double *U = gs_malloc((size_t)nb * (size_t)D, sizeof(double), "FeCAM distances");
    double *P = m->r > 0 ? gs_malloc((size_t)nb * (size_t)m->r, sizeof(double), "FeCAM distances") : NULL;
    if (!U || (m->r > 0 && !P)) { free(U); free(P); return GS_ENOMEM; }
    for (long i0 = 0; i0 < n; i0 += nb) {
        long k = n - i0 < nb ? n - i0 : nb;
        for (long i = 0; i < k; i++) {
            const double *x = X + (size_t)(i0 + i) * D;
            double *u = U + (size_t)i * D;
            for (long j = 0; j < D; j++) u[j] = m->sd[j] * (x[j] - m->mu[j]);
        }
        if (m->euclid) {
            for (long i = 0; i < k; i++) dist[(i0 + i) * stride] = cblas_ddot((int)D, U + (size_t)i * D, 1, U + (size_t)i * D, 1);
        } else if (m->r > 0) {
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)k, (int)m->r, (int)D, 1.0, U, (int)D, m->B, (int)D,
                        0.0, P, (int)m->r);
            for (long i = 0; i < k; i++) {
                const double *u = U + (size_t)i * D, *p = P + (size_t)i * m->r;
                double uu = cblas_ddot((int)D, u, 1, u, 1), pp = cblas_ddot((int)m->r, p, 1, p, 1);
                dist[(i0 + i) * stride] = (uu - pp) / m->a;
            }
        } else {
            /* rows x_i = L⁻¹ u_i: X Lᵀ = U */
            cblas_dtrsm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, (int)k, (int)D, 1.0, m->B,
                        (int)D, U, (int)D);
            for (long i = 0; i < k; i++) dist[(i0 + i) * stride] = cblas_ddot((int)D, U + (size_t)i * D, 1, U + (size_t)i * D, 1);
        }
    }
    free(U);
    free(P);
    return GS_OK;
}

/* ---- single precision (klda, fecam) ------------------------------------------------------- */

/* da_lda_solve_f's matrix and right-hand sides for spd_solve: A = a·S + b·I from the float S
 * (upper triangle row-major = column-major 'L'), the class means μ_q. */
typedef struct { const da_stats *s; const int *cls; int k; double a; float *A; } lda_f;

static double lda_f_bound(void *arg) /* λ_max(a·S) ≤ a·tr S (S ⪰ 0) */
{
    const lda_f *c = arg;
    long D = c->s->D;
    double tr = 0;
    for (long i = 0; i < D; i++) tr += c->s->Sf[(size_t)i * D + i];
    return c->a * tr;
}

static int lda_f_fill(void *arg) /* a·S rounded to float (spd_solve adds fl(b) on the diagonal) */
{
    lda_f *c = arg;
    long D = c->s->D;
    for (long i = 0; i < D; i++) {
        const float *si = c->s->Sf + (size_t)i * D;
        float *ai = c->A + (size_t)i * D;
        for (long j = i; j < D; j++) ai[j] = (float)(c->a * si[j]);
    }
    return GS_OK;
}

static void lda_f_fill_d(void *arg, double *Ad, long ld) /* a·S in double, from the float S (spd_solve adds b) */
{
    const lda_f *c = arg;
    long D = c->s->D;
    for (long i = 0; i < D; i++) {
        const float *si = c->s->Sf + (size_t)i * D;
        double *ai = Ad + (size_t)i * ld;
        for (long j = i; j < D; j++) ai[j] = c->a * si[j];
    }
}

static void lda_f_means(const lda_f *c, float *V, double *Vd, long ld)
{
    long D = c->s->D;
    for (int q = 0; q < c->k; q++) {
        const double *sum = c->s->sum + (size_t)c->cls[q] * D;
        double w = c->s->w[c->cls[q]];
        if (V) for (long j = 0; j < D; j++) V[(size_t)q * ld + j] = (float)(sum[j] / w);
        else for (long j = 0; j < D; j++) Vd[(size_t)q * ld + j] = sum[j] / w;
    }
}

static void lda_f_rhs_d(void *arg, double *Vd, long ld) { lda_f_means(arg, NULL, Vd, ld); }

int da_lda_solve_f(const da_stats *s, const int *cls, int k, double a, double b, float *A, float *V, double *bias,
                   int *fallback)
{
    long D = s->D;
    *fallback = 0;
    if (!s->Sf) return gs_error(GS_ERUN, "LDA: no single-precision covariance kept");
    for (int q = 0; q < k; q++)
        if (!(s->w[cls[q]] > 0)) return gs_error(GS_ERUN, "LDA: class %d has no rows", cls[q]);
    /* λ_max ≤ a·tr S + b, λ_min ≥ b: in float while (a·tr S + b)/b ≤ DA_SINGLE_KAPPA, else (or when
     * spotrf fails) the same model in double, A formed from S in double (no refill of the float A) */
    lda_f c = {s, cls, k, a, A};
    lda_f_means(&c, V, NULL, D);
    spd_opts o = {.uplo = 'L', .reg = b, .kappa = DA_SINGLE_KAPPA, .fill = lda_f_fill, .bound = lda_f_bound,
                  .fill_d = lda_f_fill_d, .rhs_d = lda_f_rhs_d, .ctx = &c, .what = "the regularized covariance",
                  .hint = "; raise the regularization"};
    int rc = spd_solve(A, D, D, V, k, D, &o, fallback);
    if (rc) { *fallback = 0; return rc; }
    for (int q = 0; q < k; q++) {
        const double *sum = s->sum + (size_t)cls[q] * D;
        const float *v = V + (size_t)q * D;
        double d = 0;
        for (long j = 0; j < D; j++) d += sum[j] * (double)v[j];
        bias[q] = -0.5 * d / s->w[cls[q]];
    }
    return GS_OK;
}

int da_sym_eigvals_f(const float *S, long D, double a, double b, float *work, double *eig)
{
    float *ev = gs_malloc((size_t)D, sizeof(float), "eigenvalues");
    if (!ev) return GS_ENOMEM;
    for (long i = 0; i < D; i++) {
        const float *si = S + (size_t)i * D;
        float *wi = work + (size_t)i * D;
        for (long j = i; j < D; j++) wi[j] = (float)(a * si[j]);
        wi[i] += (float)b;
    }
    lapack_int info = LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)D, work, (lapack_int)D, ev);
    for (long i = 0; i < D && info == 0; i++) eig[i] = ev[D - 1 - i];
    free(ev);
    return info ? gs_error(GS_ERUN, "LAPACK ssyevd failed (info %d)", (int)info) : GS_OK;
}

int da_models_solve_f(da_models *m, int t, const da_stats *s, const int *cls, int k, double a, double b, float *A,
                      int *fallback)
{
    free(m->Vf[t]); free(m->bias[t]);
    m->Vf[t] = gs_malloc((size_t)k * (size_t)m->D, sizeof(float), "LDA model");
    m->bias[t] = gs_malloc((size_t)k, sizeof(double), "LDA model");
    int rc = m->Vf[t] && m->bias[t] ? da_lda_solve_f(s, cls, k, a, b, A, m->Vf[t], m->bias[t], fallback) : GS_ENOMEM;
    if (rc) { free(m->Vf[t]); free(m->bias[t]); m->Vf[t] = NULL; m->bias[t] = NULL; }
    return rc;
}

int da_models_predict_f(const da_models *m, int t, const float *X, long n, const int *cls, int k, int *pred)
{
    if (t < 0 || t >= m->T || !m->Vf[t]) return gs_error(GS_ERUN, "task %d has no model", t + 1);
    int rc = am_argmax(NULL, X, 0, n, m->D, NULL, m->Vf[t], m->bias[t], k, AM_BLOCK, pred);
    for (long i = 0; i < n && !rc; i++) pred[i] = cls[pred[i]];
    return rc;
}

void da_rff_shift_prep(const double *b, long D, float *cb, float *sb)
{
    for (long j = 0; j < D; j++) { cb[j] = (float)cos(b[j]); sb[j] = (float)sin(b[j]); }
}

void da_rff_map_shift_f(const double *X, long n, long d, const float *Wf, const float *cb, const float *sb, long D,
                        float *Xf, float *Z)
{
    if (n <= 0) return;
    for (size_t i = 0; i < (size_t)n * (size_t)d; i++) Xf[i] = (float)X[i];
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)D, (int)d, 1.0f, Xf, (int)d, Wf, (int)D, 0.0f, Z,
                (int)D);
    /* √(2/D) (cos(t + b) − cos b) = −2√(2/D) sin(t/2) (sin(t/2) cos b + cos(t/2) sin b): no cancellation */
    float sc = (float)(-2.0 * sqrt(2.0 / (double)D));
    for (long i = 0; i < n; i++) {
        float *z = Z + (size_t)i * D;
        for (long j = 0; j < D; j++) {
            float h = 0.5f * z[j], s = sinf(h), c = cosf(h);
            z[j] = sc * s * (s * cb[j] + c * sb[j]);
        }
    }
}

void da_fecam_dist_free_f(da_fecam_f *f)
{
    free(f->mu); free(f->sd); free(f->B);
    memset(f, 0, sizeof *f);
}

int da_fecam_to_f(const da_fecam_class *m, da_fecam_f *f)
{
    long D = m->D, nb = m->euclid ? 0 : m->r > 0 ? m->r * D : D * D;
    memset(f, 0, sizeof *f);
    f->m = m;
    f->mu = gs_malloc((size_t)D, sizeof(float), "FeCAM class");
    f->sd = gs_malloc((size_t)D, sizeof(float), "FeCAM class");
    f->B = nb ? gs_malloc((size_t)nb, sizeof(float), "FeCAM class") : NULL;
    if (!f->mu || !f->sd || (nb && !f->B)) { da_fecam_dist_free_f(f); return GS_ENOMEM; }
    for (long j = 0; j < D; j++) { f->mu[j] = (float)m->mu[j]; f->sd[j] = (float)m->sd[j]; }
    for (long i = 0; i < nb; i++) f->B[i] = (float)m->B[i];
    return GS_OK;
}

int da_fecam_dist_f(const da_fecam_f *f, const float *X, long n, double *dist, long stride)
{
    const da_fecam_class *m = f->m;
    long D = m->D;
    long nb = n < DA_BLOCK ? n : DA_BLOCK;
    if (n <= 0) return GS_OK;
    float *U = gs_malloc((size_t)nb * (size_t)D, sizeof(float), "FeCAM distances");
    float *P = m->r > 0 ? gs_malloc((size_t)nb * (size_t)m->r, sizeof(float), "FeCAM distances") : NULL;
    if (!U || (m->r > 0 && !P)) { free(U); free(P); return GS_ENOMEM; }
    for (long i0 = 0; i0 < n; i0 += nb) {
        long k = n - i0 < nb ? n - i0 : nb;
        for (long i = 0; i < k; i++) {
            const float *x = X + (size_t)(i0 + i) * D;
            float *u = U + (size_t)i * D;
            for (long j = 0; j < D; j++) u[j] = f->sd[j] * (x[j] - f->mu[j]);
        }
        if (m->euclid) {
            for (long i = 0; i < k; i++) dist[(i0 + i) * stride] = cblas_dsdot((int)D, U + (size_t)i * D, 1, U + (size_t)i * D, 1);
        } else if (m->r > 0) {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)k, (int)m->r, (int)D, 1.0f, U, (int)D, f->B, (int)D,
                        0.0f, P, (int)m->r);
            for (long i = 0; i < k; i++) {
                const float *u = U + (size_t)i * D, *p = P + (size_t)i * m->r;
                double uu = cblas_dsdot((int)D, u, 1, u, 1), pp = cblas_dsdot((int)m->r, p, 1, p, 1);
                dist[(i0 + i) * stride] = (uu - pp) / m->a;
            }
        } else {
            cblas_strsm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, (int)k, (int)D, 1.0f, f->B,
                        (int)D, U, (int)D);
            for (long i = 0; i < k; i++) dist[(i0 + i) * stride] = cblas_dsdot((int)D, U + (size_t)i * D, 1, U + (size_t)i * D, 1);
        }
    }
    free(U);
    free(P);
    return GS_OK;
}
