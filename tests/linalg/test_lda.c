/* test_lda.c — the discriminant-analysis maths (src/linalg/lda.c) against plain loops written from the
 * definitions: weighted class statistics (any split into blocks gives the pooled scatter of the
 * weighted rows), the shared-covariance LDA solve (Gaussian elimination here) and its float form
 * with the fallback to double (LAPACK's own solves of the same matrices), random Fourier
 * features (the formula row by row, and the moments of the draws), Tukey's transform, and
 * FeCAM's distance in both of its forms (Woodbury, full Cholesky) against the explicit
 * correlation matrix inverted by Gaussian elimination; the blocked argmax (gs_argmax.h) in double
 * and in float, over rows lo..hi-1 in several blocks, against scores summed here. */
#include "gs_argmax.h"
#include "gs_common.h"
#include "gs_lda.h"
#include "support/tap.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Solve A X = B in place (A n×n, B n×m, both row-major), partial pivoting. */
static void gauss_solve(double *A, double *B, long n, long m)
{
    for (long k = 0; k < n; k++) {
        long piv = k;
        for (long i = k + 1; i < n; i++) if (fabs(A[i * n + k]) > fabs(A[piv * n + k])) piv = i;
        for (long j = 0; j < n && piv != k; j++) { double t = A[k * n + j]; A[k * n + j] = A[piv * n + j]; A[piv * n + j] = t; }
        for (long j = 0; j < m && piv != k; j++) { double t = B[k * m + j]; B[k * m + j] = B[piv * m + j]; B[piv * m + j] = t; }
        for (long i = k + 1; i < n; i++) {
            double f = A[i * n + k] / A[k * n + k];
            for (long j = k; j < n; j++) A[i * n + j] -= f * A[k * n + j];
            for (long j = 0; j < m; j++) B[i * m + j] -= f * B[k * m + j];
        }
    }
    for (long k = n - 1; k >= 0; k--)
        for (long j = 0; j < m; j++) {
            double s = B[k * m + j];
            for (long i = k + 1; i < n; i++) s -= A[k * n + i] * B[i * m + j];
            B[k * m + j] = s / A[k * n + k];
        }
}

static double *rnd(gsl_rng *r, long n, double shift)
{
    double *x = malloc(sizeof(double) * (size_t)n);
    for (long i = 0; i < n; i++) x[i] = gsl_ran_gaussian(r, 1.0) + shift;
    return x;
}

/* Rows of 3 classes (n0, n1, n2 rows) with per-row weights; stats added in uneven blocks with
 * one weight each, against the weighted scatter computed directly. */
static void test_stats_and_solve(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    const long D = 6;
    const int C = 3;
    long nc[3] = {9, 4, 7};
    da_stats s;
    CHECK(da_stats_init(&s, C, D, 1) == GS_OK, "init");
    double S[36] = {0}, mu[3][6] = {{0}}, wsum[3] = {0};
    double *X[3], *w[3];
    for (int c = 0; c < C; c++) {
        X[c] = rnd(r, nc[c] * D, c);
        w[c] = malloc(sizeof(double) * (size_t)nc[c]);
        /* blocks: first half weight 1, rest weight 0.3 + c (an augmenter's β) */
        long h = nc[c] / 2;
        for (long i = 0; i < nc[c]; i++) w[c][i] = i < h ? 1.0 : 0.3 + c;
        CHECK(da_stats_add(&s, c, X[c], h, 1.0) == GS_OK, "add real");
        CHECK(da_stats_add(&s, c, X[c] + h * D, nc[c] - h, 0.3 + c) == GS_OK, "add synthetic");
        for (long i = 0; i < nc[c]; i++) {
            wsum[c] += w[c][i];
            for (long j = 0; j < D; j++) mu[c][j] += w[c][i] * X[c][i * D + j];
        }
        for (long j = 0; j < D; j++) mu[c][j] /= wsum[c];
        for (long i = 0; i < nc[c]; i++)
            for (long a = 0; a < D; a++)
                for (long b = 0; b < D; b++)
                    S[a * D + b] += w[c][i] * (X[c][i * D + a] - mu[c][a]) * (X[c][i * D + b] - mu[c][b]);
    }
    double md = 0;
    for (long a = 0; a < D; a++)
        for (long b = a; b < D; b++) md = fmax(md, fabs(s.S[a * D + b] - S[a * D + b]));
    CHECK(md < 1e-12, "pooled weighted scatter = direct (max diff %g)", md);
    for (int c = 0; c < C; c++) {
        CHECK_NEAR(s.w[c], wsum[c], 1e-12, "class weight");
        CHECK(s.n[c] == nc[c], "class rows");
        for (long j = 0; j < D; j++) CHECK_NEAR(s.sum[c * D + j] / s.w[c], mu[c][j], 1e-12, "class mean");
    }
    /* LDA solve: A = a S + b I, V = A⁻¹ μ, bias = −½ μᵀV, for classes {2, 0} */
    int cls[2] = {2, 0};
    double A[36], V[12], bias[2];
    CHECK(da_lda_solve(&s, cls, 2, 0.25, 0.1, A, V, bias) == GS_OK, "solve");
    double A2[36], B2[12];
    for (long a = 0; a < D; a++)
        for (long b = 0; b < D; b++) A2[a * D + b] = 0.25 * S[a * D + b] + (a == b ? 0.1 : 0);
    for (long a = 0; a < D; a++) for (int q = 0; q < 2; q++) B2[a * 2 + q] = mu[cls[q]][a];
    gauss_solve(A2, B2, D, 2);
    md = 0;
    for (int q = 0; q < 2; q++) {
        double bb = 0;
        for (long a = 0; a < D; a++) { md = fmax(md, fabs(V[q * D + a] - B2[a * 2 + q])); bb += mu[cls[q]][a] * B2[a * 2 + q]; }
        CHECK_REL(bias[q], -0.5 * bb, 1e-10, "bias = −½ μᵀA⁻¹μ");
    }
    CHECK(md < 1e-10, "V = A⁻¹μ (max diff %g)", md);
    /* eigenvalues of a·S + b·I: their sum is the trace, their squares sum to ‖·‖_F² */
    double eig[6], tr = 0, fr = 0, es = 0, eq = 0;
    CHECK(da_sym_eigvals(s.S, D, 0.25, 0.1, A, eig) == GS_OK, "eigenvalues");
    for (long a = 0; a < D; a++)
        for (long b = 0; b < D; b++) {
            double v = 0.25 * S[a * D + b] + (a == b ? 0.1 : 0);
            fr += v * v;
            if (a == b) tr += v;
        }
    for (long a = 0; a < D; a++) { es += eig[a]; eq += eig[a] * eig[a]; }
    CHECK_REL(es, tr, 1e-12, "Σλ = trace");
    CHECK_REL(eq, fr, 1e-12, "Σλ² = ‖A‖_F²");
    int desc = 1;
    for (long a = 1; a < D; a++) desc &= eig[a] <= eig[a - 1];
    CHECK(desc && eig[D - 1] > 0.1 - 1e-12, "descending, ≥ b");
    /* argmax of the affine scores on a few rows */
    int best[5];
    CHECK(am_argmax(X[0], NULL, 0, 5, D, V, NULL, bias, 2, AM_BLOCK, best) == GS_OK, "argmax");
    for (int i = 0; i < 5; i++) {
        double s0 = bias[0], s1 = bias[1];
        for (long a = 0; a < D; a++) { s0 += X[0][i * D + a] * V[a]; s1 += X[0][i * D + a] * V[D + a]; }
        CHECK(best[i] == (s1 > s0 ? 1 : 0), "argmax row %d", i);
    }
    /* a singular covariance without ridge is refused with a message */
    da_stats z;
    da_stats_init(&z, 1, 3, 1);
    double one[3] = {1, 2, 3};
    da_stats_add(&z, 0, one, 1, 1.0);
    int c0 = 0;
    CHECK(da_lda_solve(&z, &c0, 1, 1.0, 0.0, A, V, bias) == GS_ERUN && strstr(gs_last_error(), "positive definite"),
          "singular covariance refused: %s", gs_last_error());
    da_stats_free(&z);
    for (int c = 0; c < C; c++) { free(X[c]); free(w[c]); }
    da_stats_free(&s);
    gsl_rng_free(r);
}

static void test_rff(void)
{
    const long d = 5, D = 4000;
    double gamma = 0.3;
    double *W = malloc(sizeof(double) * d * D), *b = malloc(sizeof(double) * D);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 99);
    CHECK(da_rff_draw(r, d, D, gamma, W, b) == GS_OK, "draw");
    double m = 0, v = 0, bmin = 1e9, bmax = -1e9, bm = 0;
    for (long i = 0; i < d * D; i++) m += W[i];
    m /= d * D;
    for (long i = 0; i < d * D; i++) v += (W[i] - m) * (W[i] - m);
    v /= d * D - 1;
    for (long j = 0; j < D; j++) { bmin = fmin(bmin, b[j]); bmax = fmax(bmax, b[j]); bm += b[j] / D; }
    CHECK(fabs(m) < 4 * sqrt(2 * gamma / (d * D)), "W mean ≈ 0 (%g)", m);
    CHECK(fabs(v / (2 * gamma) - 1) < 0.05, "W variance ≈ 2γ (%g vs %g)", v, 2 * gamma);
    CHECK(bmin >= 0 && bmax < 2 * M_PI && fabs(bm - M_PI) < 0.1, "b uniform on [0, 2π) (mean %g)", bm);
    double W2[5 * 4000], b2[4000];
    gsl_rng_set(r, 99);
    da_rff_draw(r, d, D, gamma, W2, b2);
    gsl_rng_free(r);
    CHECK(!memcmp(W, W2, sizeof W2) && !memcmp(b, b2, sizeof b2), "same seed, same draws");
    double x[2 * 5] = {0.1, -0.2, 0.3, 0.05, 0.7, 1, 0, 0, -1, 0.5};
    double *Z = malloc(sizeof(double) * 2 * D);
    da_rff_map(x, 2, d, W, b, D, Z);
    double md = 0, kern = 0;
    for (int i = 0; i < 2; i++)
        for (long j = 0; j < D; j++) {
            double p = b[j];
            for (long k = 0; k < d; k++) p += x[i * d + k] * W[k * D + j];
            md = fmax(md, fabs(Z[i * D + j] - sqrt(2.0 / D) * cos(p)));
        }
    CHECK(md < 1e-14, "φ(x) = √(2/D) cos(xW + b) (max diff %g)", md);
    /* φ(x)·φ(y) approximates the RBF kernel exp(−γ‖x − y‖²) */
    double dd = 0;
    for (long k = 0; k < d; k++) dd += (x[k] - x[d + k]) * (x[k] - x[d + k]);
    for (long j = 0; j < D; j++) kern += Z[j] * Z[D + j];
    CHECK(fabs(kern - exp(-gamma * dd)) < 0.05, "RFF kernel %g ≈ exp(−γ‖x−y‖²) = %g", kern, exp(-gamma * dd));
    free(W); free(b); free(Z);
}

static void test_tukey(void)
{
    double x[5] = {4, -9, 0, 0.25, -0.01};
    da_tukey(x, 5, 0.5);
    CHECK(x[0] == 2 && x[1] == -3 && x[2] == 0 && x[3] == 0.5 && fabs(x[4] + 0.1) < 1e-15, "Tukey β = 0.5");
    double y[2] = {8, -8};
    da_tukey(y, 2, 1.0 / 3);
    CHECK(fabs(y[0] - 2) < 1e-14 && fabs(y[1] + 2) < 1e-14, "Tukey β = 1/3");
}

/* FeCAM's distance from the explicit correlation matrix N = Δ⁻¹(Σ + aI)Δ⁻¹ and its inverse. */
static void fecam_direct(const double *R, const double *w, long n, long D, double alpha1, const double *X, long nx,
                         double *dist)
{
    double W = 0, *mu = calloc((size_t)D, sizeof(double)), *S = calloc((size_t)(D * D), sizeof(double));
    for (long i = 0; i < n; i++) { W += w[i]; for (long j = 0; j < D; j++) mu[j] += w[i] * R[i * D + j]; }
    for (long j = 0; j < D; j++) mu[j] /= W;
    for (long i = 0; i < n; i++)
        for (long a = 0; a < D; a++)
            for (long b = 0; b < D; b++) S[a * D + b] += w[i] * (R[i * D + a] - mu[a]) * (R[i * D + b] - mu[b]) / (W - 1);
    double tr = 0;
    for (long a = 0; a < D; a++) tr += S[a * D + a];
    for (long a = 0; a < D; a++) S[a * D + a] += alpha1 * tr / D;
    double *N = malloc(sizeof(double) * D * D), *V = malloc(sizeof(double) * D * nx);
    for (long a = 0; a < D; a++)
        for (long b = 0; b < D; b++) N[a * D + b] = S[a * D + b] / sqrt(S[a * D + a] * S[b * D + b]);
    for (long i = 0; i < nx; i++) for (long a = 0; a < D; a++) V[a * nx + i] = X[i * D + a] - mu[a];
    double *Vc = malloc(sizeof(double) * D * nx);
    memcpy(Vc, V, sizeof(double) * D * nx);
    gauss_solve(N, V, D, nx);
    for (long i = 0; i < nx; i++) {
        dist[i] = 0;
        for (long a = 0; a < D; a++) dist[i] += Vc[a * nx + i] * V[a * nx + i];
    }
    free(mu); free(S); free(N); free(V); free(Vc);
}

static void test_fecam(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 3);
    const long D = 7, nx = 9;
    double *X = rnd(r, nx * D, 0.2);
    for (int form = 0; form < 2; form++) {
        long n = form == 0 ? 4 : 15; /* 4 ≤ D: Woodbury; 15 > D: full Cholesky */
        double *R = rnd(r, n * D, 0.5), *w = malloc(sizeof(double) * n);
        for (long i = 0; i < n; i++) w[i] = i % 3 == 2 ? 0.4 : 1.0;
        da_fecam_class m;
        CHECK(da_fecam_fit(&m, R, w, n, D, 1.0) == GS_OK, "fit (%s)", form ? "full" : "Woodbury");
        CHECK(m.r == (form ? 0 : n) && !m.euclid, "form chosen by the row count");
        double d1[9], d2[9];
        CHECK(da_fecam_dist(&m, X, nx, d1, 1) == GS_OK, "dist");
        fecam_direct(R, w, n, D, 1.0, X, nx, d2);
        double mr = 0;
        for (long i = 0; i < nx; i++) mr = fmax(mr, tap_rel(d1[i], d2[i]));
        CHECK(mr < 1e-10, "%s distance = vᵀN⁻¹v from the explicit correlation matrix (max rel %g)",
              form ? "full" : "Woodbury", mr);
        da_fecam_free(&m);
        free(R); free(w);
    }
    /* one row: no covariance, Euclidean distance */
    double one[7] = {1, 2, 3, 4, 5, 6, 7}, dd[2];
    da_fecam_class m;
    CHECK(da_fecam_fit(&m, one, NULL, 1, D, 1.0) == GS_OK && m.euclid, "one row: Euclidean");
    da_fecam_dist(&m, X, 2, dd, 1);
    double e = 0;
    for (long j = 0; j < D; j++) e += (X[j] - one[j]) * (X[j] - one[j]);
    CHECK_REL(dd[0], e, 1e-14, "Euclidean distance");
    da_fecam_free(&m);
    free(X);
    gsl_rng_free(r);
}

/* am_argmax over rows 3..40 of 41 in blocks of 7: in double without a bias, and in float (the
 * rows and classes rounded to float), against the first maximum of scores summed here in long
 * double; rows whose two best scores are within 1e-4 (float rounding could swap them) are
 * skipped in float, and best[] outside lo..hi-1 is left alone. */
static void test_argmax(void)
{
    enum { N = 41, D = 13, K = 5, LO = 3 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    double *X = rnd(r, N * D, 0), *W = rnd(r, K * D, 0);
    float Xf[N * D], Wf[K * D];
    for (int i = 0; i < N * D; i++) Xf[i] = (float)X[i];
    for (int i = 0; i < K * D; i++) Wf[i] = (float)W[i];
    int bd[N], bf[N];
    for (int i = 0; i < N; i++) bd[i] = bf[i] = -7;
    CHECK(am_argmax(X, NULL, LO, N, D, W, NULL, NULL, K, 7, bd) == GS_OK, "am_argmax in double");
    CHECK(am_argmax(NULL, Xf, LO, N, D, NULL, Wf, NULL, K, 7, bf) == GS_OK, "am_argmax in float");
    int okd = 1, okf = 1, checked = 0;
    for (int i = 0; i < N; i++) {
        if (i < LO) { okd &= bd[i] == -7; okf &= bf[i] == -7; continue; }
        long double sd[K], sf[K];
        for (int k = 0; k < K; k++) {
            sd[k] = sf[k] = 0;
            for (int j = 0; j < D; j++) {
                sd[k] += (long double)X[i * D + j] * W[k * D + j];
                sf[k] += (long double)Xf[i * D + j] * Wf[k * D + j];
            }
        }
        int b = 0, c = 0;
        for (int k = 1; k < K; k++) if (sd[k] > sd[b]) b = k;
        for (int k = 1; k < K; k++) if (sf[k] > sf[c]) c = k;
        okd &= bd[i] == b;
        long double gap = 1;
        for (int k = 0; k < K; k++) if (k != c && sf[c] - sf[k] < gap) gap = sf[c] - sf[k];
        if (gap < 1e-4L) continue;
        okf &= bf[i] == c;
        checked++;
    }
    CHECK(okd, "double: the first maximum of every row's scores, rows before lo untouched");
    CHECK(okf && checked > N / 2, "float: the first maximum of the float scores (%d rows clear of ties)", checked);
    free(X);
    free(W);
    gsl_rng_free(r);
}

/* The float LDA (da_lda_solve_f): in float, V is LAPACK's sposv of fl(a·S) + fl(b) on the diagonal
 * with the means rounded to float; past the condition bound, dposv of a·S + b·I formed in double
 * from the float S with the means in double, rounded: number for number (memcmp), and close to the
 * double model of the same S. Not positive definite in double either: refused, with the hint. */
static void test_solve_f(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 17);
    enum { D = 7, C = 3 };
    da_stats s;
    CHECK(da_stats_init(&s, C, D, DA_SCATTER_F) == GS_OK && s.Sf, "init (float scatter)");
    for (int c = 0; c < C; c++) {
        double *X = rnd(r, 5 * D, c);
        da_stats_add(&s, c, X, 5, 1.0 + c);
        free(X);
    }
    int cls[3] = {1, 2, 0};
    double tr = 0, a = 0.5;
    for (long i = 0; i < D; i++) tr += s.Sf[i * D + i];
    float A[D * D], V[C * D], Af[D * D], Vf[C * D];
    double Ad[D * D], Vd[C * D], bias[C];
    for (int pass = 0; pass < 2; pass++) {
        /* pass 0: b = a·tr S / 100 (float); pass 1: b = a·tr S · 1e-6, bound 1e6 > DA_SINGLE_KAPPA */
        double b = pass ? a * tr * 1e-6 : a * tr / 100;
        int fb = -1;
        int rc = da_lda_solve_f(&s, cls, C, a, b, A, V, bias, &fb);
        memset(Af, 0, sizeof Af);
        memset(Ad, 0, sizeof Ad);
        for (long i = 0; i < D; i++) /* row-major upper = column-major lower */
            for (long j = i; j < D; j++) {
                Af[i * D + j] = (float)(a * s.Sf[i * D + j]) + (i == j ? (float)b : 0.0f);
                Ad[i * D + j] = a * s.Sf[i * D + j] + (i == j ? b : 0.0);
            }
        for (int q = 0; q < C; q++)
            for (long j = 0; j < D; j++) {
                Vd[q * D + j] = s.sum[cls[q] * D + j] / s.w[cls[q]];
                Vf[q * D + j] = (float)Vd[q * D + j];
            }
        if (!pass) {
            LAPACKE_sposv(LAPACK_COL_MAJOR, 'L', D, C, Af, D, Vf, D);
        } else {
            LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', D, C, Ad, D, Vd, D);
            for (int i = 0; i < C * D; i++) Vf[i] = (float)Vd[i];
        }
        double bm = 0;
        for (int q = 0; q < C; q++) {
            double d = 0;
            for (long j = 0; j < D; j++) d += s.sum[cls[q] * D + j] * (double)Vf[q * D + j];
            bm = fmax(bm, fabs(bias[q] + 0.5 * d / s.w[cls[q]]));
        }
        CHECK(rc == GS_OK && fb == pass && memcmp(V, Vf, sizeof V) == 0 && bm == 0,
              "da_lda_solve_f %s: V = LAPACK's %s on the same matrix, the same floats (fallback %d), bias −½ μᵀV",
              pass ? "past the bound" : "in float", pass ? "dposv" : "sposv", fb);
    }
    /* a·S + b·I indefinite (a < 0): float fails, double too: refused naming the matrix and the fix */
    int fb = -1;
    int rc = da_lda_solve_f(&s, cls, C, -1.0, 1e-3, A, V, bias, &fb);
    CHECK(rc == GS_ERUN && fb == 0 && strstr(gs_last_error(), "not positive definite") &&
              strstr(gs_last_error(), "raise the regularization"),
          "indefinite a·S + b·I refused: %s", gs_last_error());
    da_stats_free(&s);
    gsl_rng_free(r);
}

int main(void)
{
    test_stats_and_solve();
    test_solve_f();
    test_rff();
    test_tukey();
    test_fecam();
    test_argmax();
    return tap_done();
}
