/* test_anacp.c — AnaCP's float arithmetic against double (src/learners/anacp_int.h): the GELU's erf
 * approximation against erf in double over the range the layers use, its SSE and scalar paths
 * element for element; the λ_max bound against the eigenvalues LAPACK computes in double; and the
 * ridge solve (M + reg I) X = B on matrices of known spectrum: in float while the condition bound
 * allows it, in double above (or when the float Cholesky fails: the matrix filled again), each
 * solution against the double solve of the same matrix.
 */
#include "../src/learners/anacp_int.h"
#include "gs_common.h"
#include "tap.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 80
#define NRHS 3
#define REG 100.0

/* erf over [-8, 8] (pre-activations are N(0, 1) scaled by 1/√2: |x| > 8 is beyond any draw) */
static void test_erf(void)
{
    double worst = 0, at = 0;
    for (long i = -800000; i <= 800000; i++) {
        float x = (float)(i * 1e-5);
        double e = fabs((double)anacp_erf(x) - erf((double)x));
        if (e > worst) { worst = e; at = x; }
    }
    CHECK(worst <= 4.5e-7, "anacp_erf: largest error against erf in double on [-8, 8] (step 1e-5) is %.3g at %g (≤ 4.5e-7)",
          worst, at);
    CHECK(anacp_erf(0.0f) == 0.0f && anacp_erf(50.0f) == 1.0f && anacp_erf(-50.0f) == -1.0f,
          "anacp_erf: 0 at 0, ±1 far out (%.9g, %.9g)", anacp_erf(50.0f), anacp_erf(-50.0f));
    /* the vector path and the scalar one give the same floats (1003: a remainder after blocks of 4) */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    float v[1003], w[1003];
    for (int i = 0; i < 1003; i++) v[i] = w[i] = (float)gsl_ran_gaussian(r, 3.0);
    anacp_gelu(v, 1003);
    int same = 1;
    double gw = 0;
    for (int i = 0; i < 1003; i++) {
        float x = w[i], g = 0.5f * x * (1.0f + anacp_erf(x * (float)M_SQRT1_2));
        same &= memcmp(&g, &v[i], sizeof g) == 0;
        double ref = 0.5 * x * (1.0 + erf(x / sqrt(2.0))), e = fabs(v[i] - ref) / (1.0 + fabs(ref));
        if (e > gw) gw = e;
    }
    CHECK(same, "anacp_gelu: every element as the scalar formula computes it");
    CHECK(gw <= 2e-6, "anacp_gelu: within %.3g of GELU in double (|error| / (1 + |GELU|) ≤ 2e-6)", gw);
    gsl_rng_free(r);
}

/* Q (n × n, column-major) orthogonal, from the QR of a Gaussian matrix. */
static void orthogonal(gsl_rng *r, double *Q, int n)
{
    double tau[N];
    for (int i = 0; i < n * n; i++) Q[i] = gsl_ran_gaussian(r, 1.0);
    LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, n, Q, n, tau);
    LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, n, n, Q, n, tau);
}

/* M (float, full, column-major) = Q diag(lam) Qᵀ rounded to float; Md the same floats in double. */
static void known_spectrum(gsl_rng *r, const double *lam, float *M, double *Md)
{
    static double Q[N * N];
    orthogonal(r, Q, N);
    for (int j = 0; j < N; j++)
        for (int i = 0; i <= j; i++) {
            double a = 0;
            for (int k = 0; k < N; k++) a += Q[i + k * N] * lam[k] * Q[j + k * N];
            M[i + j * N] = M[j + i * N] = (float)a;
        }
    for (int i = 0; i < N * N; i++) Md[i] = M[i];
}

/* X = (Md + REG I)⁻¹ B in double (LAPACK dposv on a copy). */
static void solve_double(const double *Md, const float *B, double *X)
{
    double *A = malloc(sizeof(double) * N * N);
    memcpy(A, Md, sizeof(double) * N * N);
    for (int i = 0; i < N; i++) A[i + i * N] += REG;
    for (int i = 0; i < N * NRHS; i++) X[i] = B[i];
    LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', N, NRHS, A, N, X, N);
    free(A);
}

static double rel_err(const float *X, const double *ref)
{
    double num = 0, den = 0;
    for (int i = 0; i < N * NRHS; i++) { num += (X[i] - ref[i]) * (X[i] - ref[i]); den += ref[i] * ref[i]; }
    return sqrt(num / den);
}

static void test_bound(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    static float M[N * N];
    static double Md[N * N], lam[N], ev[N];
    /* a PSD matrix with a dominant mean (as the GELU features): G Gᵀ, G = 1 + N(0, 0.5²) */
    static float G[N * 40];
    for (int i = 0; i < N * 40; i++) G[i] = (float)(1.0 + gsl_ran_gaussian(r, 0.5));
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double a = 0;
            for (int k = 0; k < 40; k++) a += (double)G[i * 40 + k] * G[j * 40 + k];
            M[i + j * N] = (float)a;
        }
    for (int i = 0; i < N * N; i++) Md[i] = M[i];
    LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'L', N, Md, N, ev);
    double bl = anacp_lmax_bound(M, N, N, 'L'), bu = anacp_lmax_bound(M, N, N, 'U'), tr = 0;
    for (int i = 0; i < N; i++) tr += M[i + i * N];
    CHECK(bl >= ev[N - 1] && bu >= ev[N - 1], "λ_max bound %.6g ('L'), %.6g ('U') ≥ λ_max %.6g", bl, bu, ev[N - 1]);
    CHECK(bl <= tr && fabs(bl - bu) <= 1e-9 * bl, "the bound is at most the trace %.6g, the same from either triangle", tr);
    CHECK(bl <= 1.5 * ev[N - 1], "with a dominant mean the bound is close: %.6g ≤ 1.5 λ_max", bl);
    /* known spectrum */
    for (int i = 0; i < N; i++) lam[i] = 1e4 * i / (N - 1.0);
    known_spectrum(r, lam, M, Md);
    bl = anacp_lmax_bound(M, N, N, 'U');
    CHECK(bl >= 1e4 * (1 - 1e-6), "known spectrum (λ_max 1e4): bound %.6g ≥ λ_max", bl);
    gsl_rng_free(r);
}

/* fill for the failure path: first an indefinite M + reg I (M = −150 e₀e₀ᵀ + I), then diag(1..N) */
typedef struct { float *M; int calls; } flaky;
static int fill_flaky(void *arg)
{
    flaky *f = arg;
    memset(f->M, 0, sizeof(float) * N * N);
    for (int i = 0; i < N; i++) f->M[i + i * N] = f->calls ? (float)(i + 1) : 1.0f;
    if (!f->calls) f->M[0] = -150.0f;
    f->calls++;
    return GS_OK;
}

static void test_solve(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 5);
    static float M[N * N], B[N * NRHS], X[N * NRHS];
    static double Md[N * N], ref[N * NRHS], lam[N];
    for (int i = 0; i < N * NRHS; i++) B[i] = (float)gsl_ran_gaussian(r, 1.0);
    const double top[3] = {1e3, 1e6, 1e9};
    double err_float_ill = 0, err_double_ill = 0;
    for (int c = 0; c < 3; c++) {
        for (int i = 0; i < N; i++) lam[i] = top[c] * pow((double)i / (N - 1), 2.0);
        known_spectrum(r, lam, M, Md);
        solve_double(Md, B, ref);
        for (int force = 0; force < 2; force++) {
            /* kappa as AnaCP's; force: a float factor whatever the bound (kappa ∞) */
            static float Mc[N * N];
            memcpy(Mc, M, sizeof M);
            memcpy(X, B, sizeof B);
            int dbl = -1;
            double kappa = force ? INFINITY : ANACP_KAPPA;
            int rc = anacp_spd_solve(Mc, N, N, c % 2 ? 'U' : 'L', REG, X, NRHS, N, NULL, NULL, kappa, 0, &dbl, "test");
            double e = rel_err(X, ref), cond = (top[c] + REG) / REG;
            if (!force) {
                int want = cond > ANACP_KAPPA;
                CHECK(rc == GS_OK && dbl == want, "cond %.3g: factored in %s (dbl %d)", cond, want ? "double" : "float", dbl);
                CHECK(e <= (want ? 1e-6 : 3e-6 * cond), "cond %.3g: relative error %.3g against the double solve", cond,
                      e);
                if (c == 2) err_double_ill = e;
            } else if (c == 2) {
                err_float_ill = rc == GS_OK && dbl == 0 ? e : INFINITY;
            }
        }
    }
    CHECK(err_float_ill > 100 * err_double_ill,
          "cond 1e7: the float factor's error %.3g is far above the fallback's %.3g (the fallback matters)", err_float_ill,
          err_double_ill);
    /* kappa 0: always double */
    for (int i = 0; i < N; i++) lam[i] = i;
    known_spectrum(r, lam, M, Md);
    solve_double(Md, B, ref);
    memcpy(X, B, sizeof B);
    int dbl = -1;
    int rc = anacp_spd_solve(M, N, N, 'L', REG, X, NRHS, N, NULL, NULL, 0.0, 0, &dbl, "test");
    CHECK(rc == GS_OK && dbl == 1 && rel_err(X, ref) <= 1e-6, "kappa 0 (GS_ANACP_KAPPA=0): double, error %.3g",
          rel_err(X, ref));
    /* a failed float Cholesky: the matrix filled again and factored in double */
    flaky f = {M, 0};
    memcpy(X, B, sizeof B);
    rc = anacp_spd_solve(M, N, N, 'L', REG, X, NRHS, N, fill_flaky, &f, ANACP_KAPPA, 0, &dbl, "test");
    double e = 0;
    for (int k = 0; k < NRHS; k++)
        for (int i = 0; i < N; i++) {
            double want = B[i + k * N] / (i + 1 + REG);
            e = fmax(e, fabs(X[i + k * N] - want) / fabs(want));
        }
    CHECK(rc == GS_OK && f.calls == 2 && dbl == 1 && e <= 1e-6,
          "float Cholesky fails: filled again (%d calls), solved in double (dbl %d), error %.3g", f.calls, dbl, e);
    /* without a fill the failure is an error naming the matrix */
    for (int i = 0; i < N * N; i++) M[i] = 0;
    M[0] = -150.0f;
    rc = anacp_spd_solve(M, N, N, 'L', REG, X, NRHS, N, NULL, NULL, ANACP_KAPPA, 0, &dbl, "the test matrix");
    CHECK(rc == GS_ERUN && strstr(gs_last_error(), "the test matrix"), "no fill: error \"%s\"", gs_last_error());
    gsl_rng_free(r);
}

int main(void)
{
    test_erf();
    test_bound();
    test_solve();
    return tap_done();
}
