/* test_spd.c — the shifted SPD solve with its fallback to double (src/linalg/spd.c, gs_spd.h): the
 * λ_max bound against the eigenvalues LAPACK computes in double; (M + reg I) X = B on matrices of
 * known spectrum, in float while the condition bound allows it and in double above (or when the
 * float Cholesky fails: the matrix filled again), each solution against the double solve of the
 * same matrix; each path's numbers exactly those of LAPACK's sposv / dposv on the matrix the
 * caller asked for (so a caller's results do not move when it calls spd_solve); the callbacks of
 * a caller that forms the matrix from its own source (a bound given, the double copy and the
 * right-hand sides formed in double, no refill after a failed spotrf).
 */
#include "gs_spd.h"
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
#define KAPPA 1e6

/* spd_solve with the positional arguments the checks below were first written with. */
static int solve(float *M, long n, long ld, char uplo, double reg, float *B, long nrhs, long ldb, int (*fill)(void *),
                 void *ctx, double kappa, int force, int *dbl, const char *what)
{
    spd_opts o = {.uplo = uplo, .reg = reg, .kappa = kappa, .force = force, .fill = fill, .ctx = ctx, .what = what};
    return spd_solve(M, n, ld, B, nrhs, ldb, &o, dbl);
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
    double bl = spd_lmax_bound(M, N, N, 'L'), bu = spd_lmax_bound(M, N, N, 'U'), tr = 0;
    for (int i = 0; i < N; i++) tr += M[i + i * N];
    CHECK(bl >= ev[N - 1] && bu >= ev[N - 1], "λ_max bound %.6g ('L'), %.6g ('U') ≥ λ_max %.6g", bl, bu, ev[N - 1]);
    CHECK(bl <= tr && fabs(bl - bu) <= 1e-9 * bl, "the bound is at most the trace %.6g, the same from either triangle", tr);
    CHECK(bl <= 1.5 * ev[N - 1], "with a dominant mean the bound is close: %.6g ≤ 1.5 λ_max", bl);
    /* known spectrum */
    for (int i = 0; i < N; i++) lam[i] = 1e4 * i / (N - 1.0);
    known_spectrum(r, lam, M, Md);
    bl = spd_lmax_bound(M, N, N, 'U');
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
            /* kappa 1e6 (AnaCP's); force: a float factor whatever the bound (kappa ∞) */
            static float Mc[N * N];
            memcpy(Mc, M, sizeof M);
            memcpy(X, B, sizeof B);
            int dbl = -1;
            double kappa = force ? INFINITY : KAPPA;
            int rc = solve(Mc, N, N, c % 2 ? 'U' : 'L', REG, X, NRHS, N, NULL, NULL, kappa, 0, &dbl, "test");
            double e = rel_err(X, ref), cond = (top[c] + REG) / REG;
            if (!force) {
                int want = cond > KAPPA;
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
    int rc = solve(M, N, N, 'L', REG, X, NRHS, N, NULL, NULL, 0.0, 0, &dbl, "test");
    CHECK(rc == GS_OK && dbl == 1 && rel_err(X, ref) <= 1e-6, "kappa 0 (GS_KAPPA=0): double, error %.3g",
          rel_err(X, ref));
    /* a failed float Cholesky: the matrix filled again and factored in double */
    flaky f = {M, 0};
    memcpy(X, B, sizeof B);
    rc = solve(M, N, N, 'L', REG, X, NRHS, N, fill_flaky, &f, KAPPA, 0, &dbl, "test");
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
    rc = solve(M, N, N, 'L', REG, X, NRHS, N, NULL, NULL, KAPPA, 0, &dbl, "the test matrix");
    CHECK(rc == GS_ERUN && strstr(gs_last_error(), "the test matrix"), "no fill: error \"%s\"", gs_last_error());
    gsl_rng_free(r);
}

/* Each path is LAPACK's own solve of the matrix asked for, number for number: float = sposv on
 * M + fl(reg) on the diagonal; double = dposv on M's floats + reg, the solution rounded. */
static void test_exact(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 3);
    static float M[N * N], A[N * N], B[N * NRHS], X[N * NRHS], Y[N * NRHS];
    static double Md[N * N], Bd[N * NRHS], lam[N];
    for (int i = 0; i < N * NRHS; i++) B[i] = (float)gsl_ran_gaussian(r, 1.0);
    for (int i = 0; i < N; i++) lam[i] = 1e3 * i / (N - 1.0);
    known_spectrum(r, lam, M, Md);
    for (int force = 0; force < 2; force++) {
        memcpy(A, M, sizeof M);
        memcpy(X, B, sizeof B);
        int dbl = -1;
        int rc = solve(A, N, N, 'U', REG, X, NRHS, N, NULL, NULL, KAPPA, force, &dbl, "test");
        if (!force) {
            memcpy(A, M, sizeof M);
            memcpy(Y, B, sizeof B);
            for (int i = 0; i < N; i++) A[i + i * N] += (float)REG;
            LAPACKE_sposv(LAPACK_COL_MAJOR, 'U', N, NRHS, A, N, Y, N);
        } else {
            for (int i = 0; i < N; i++) Md[i + i * N] += REG;
            for (int i = 0; i < N * NRHS; i++) Bd[i] = B[i];
            LAPACKE_dposv(LAPACK_COL_MAJOR, 'U', N, NRHS, Md, N, Bd, N);
            for (int i = 0; i < N * NRHS; i++) Y[i] = (float)Bd[i];
        }
        CHECK(rc == GS_OK && dbl == force && memcmp(X, Y, sizeof X) == 0,
              "%s path: the same floats as LAPACK's %s on the same matrix (dbl %d)", force ? "double" : "float",
              force ? "dposv" : "sposv", dbl);
    }
    gsl_rng_free(r);
}

/* A caller that forms the matrix from its own source (as LDA: A = a·S + b·I from a float S, the
 * right-hand sides in double from double means): its bound, its double copy, no refill. */
typedef struct {
    const float *S;   /* full symmetric, column-major */
    const double *mu; /* N × NRHS, column-major */
    double a, lmax;   /* lmax: what the bound callback says */
    float *A;
    int fills, fills_d, rhs_d, bounds;
    int poison;       /* the first fill writes an indefinite matrix (spotrf fails) */
} src_ctx;

static double src_bound(void *arg)
{
    src_ctx *c = arg;
    c->bounds++;
    return c->lmax;
}
static int src_fill(void *arg)
{
    src_ctx *c = arg;
    for (int j = 0; j < N; j++)
        for (int i = j; i < N; i++) c->A[i + j * N] = (float)(c->a * c->S[i + j * N]);
    if (c->poison && !c->fills) c->A[0] = -1e6f;
    c->fills++;
    return GS_OK;
}
static void src_fill_d(void *arg, double *Ad, long ld)
{
    src_ctx *c = arg;
    for (int j = 0; j < N; j++)
        for (int i = j; i < N; i++) Ad[i + j * ld] = c->a * c->S[i + j * N];
    c->fills_d++;
}
static void src_rhs_d(void *arg, double *Bd, long ld)
{
    src_ctx *c = arg;
    for (int k = 0; k < NRHS; k++)
        for (int i = 0; i < N; i++) Bd[i + k * ld] = c->mu[i + k * N];
    c->rhs_d++;
}

static void test_source(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 9);
    static float S[N * N], A[N * N], X[N * NRHS], Y[N * NRHS];
    static double Sd[N * N], mu[N * NRHS], Ad[N * N], Vd[N * NRHS], lam[N];
    for (int i = 0; i < N * NRHS; i++) mu[i] = gsl_ran_gaussian(r, 1.0);
    for (int i = 0; i < N; i++) lam[i] = 50.0 * i / (N - 1.0);
    known_spectrum(r, lam, S, Sd);
    const double a = 0.3;
    /* the reference of the double path: a·S + b·I and the means in double, dposv, rounded */
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) Ad[i + j * N] = a * S[i + j * N] + (i == j ? REG : 0.0);
    memcpy(Vd, mu, sizeof mu);
    LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', N, NRHS, Ad, N, Vd, N);
    for (int i = 0; i < N * NRHS; i++) Y[i] = (float)Vd[i];
    spd_opts o = {.uplo = 'L', .reg = REG, .kappa = KAPPA, .fill = src_fill, .bound = src_bound, .fill_d = src_fill_d,
                  .rhs_d = src_rhs_d, .what = "the test covariance"};
    /* 1. the bound says double: M is never formed in float, the double copy comes from the source */
    src_ctx c = {S, mu, a, 2 * KAPPA * REG, A, 0, 0, 0, 0, 0};
    o.ctx = &c;
    for (int i = 0; i < N * NRHS; i++) X[i] = NAN; /* B in float is not read: rhs_d */
    int dbl = -1, rc = spd_solve(A, N, N, X, NRHS, N, &o, &dbl);
    CHECK(rc == GS_OK && dbl == 1 && c.bounds == 1 && c.fills == 0 && c.fills_d == 1 && c.rhs_d == 1 &&
              memcmp(X, Y, sizeof X) == 0,
          "bound above κ: double from the source (bound %d, fill %d, fill_d %d, rhs_d %d calls), the floats of dposv "
          "on a·S + b·I", c.bounds, c.fills, c.fills_d, c.rhs_d);
    /* 2. the bound says float and spotrf fails: no refill, the double copy from the source */
    c = (src_ctx){S, mu, a, a * 50.0, A, 0, 0, 0, 0, 1};
    for (int i = 0; i < N * NRHS; i++) X[i] = (float)mu[i];
    rc = spd_solve(A, N, N, X, NRHS, N, &o, &dbl);
    CHECK(rc == GS_OK && dbl == 1 && c.fills == 1 && c.fills_d == 1 && memcmp(X, Y, sizeof X) == 0,
          "spotrf fails: filled once (%d), the double copy from the source (%d), the floats of dposv", c.fills,
          c.fills_d);
    /* 3. the bound says float and it factors: float, never the double copy */
    c = (src_ctx){S, mu, a, a * 50.0, A, 0, 0, 0, 0, 0};
    for (int i = 0; i < N * NRHS; i++) X[i] = (float)mu[i];
    rc = spd_solve(A, N, N, X, NRHS, N, &o, &dbl);
    CHECK(rc == GS_OK && dbl == 0 && c.fills == 1 && c.fills_d == 0 && c.rhs_d == 0 && rel_err(X, Vd) < 1e-5,
          "well conditioned: float (fill %d, fill_d %d), error %.3g against double", c.fills, c.fills_d, rel_err(X, Vd));
    /* 4. a NaN bound is not ≤ κ: double */
    c = (src_ctx){S, mu, a, NAN, A, 0, 0, 0, 0, 0};
    rc = spd_solve(A, N, N, X, NRHS, N, &o, &dbl);
    CHECK(rc == GS_OK && dbl == 1 && c.fills == 0 && memcmp(X, Y, sizeof X) == 0, "a NaN bound: double");
    /* 5. not positive definite in double either: the error names the matrix and carries the hint */
    c = (src_ctx){S, mu, -3.0, -150.0, A, 0, 0, 0, 0, 0}; /* λ(−3S + bI) down to −50 */
    o.hint = "; raise the test regularization";
    rc = spd_solve(A, N, N, X, NRHS, N, &o, &dbl);
    CHECK(rc == GS_ERUN && strstr(gs_last_error(), "the test covariance is not positive definite") &&
              strstr(gs_last_error(), "raise the test regularization"),
          "indefinite a·S + b·I: \"%s\"", gs_last_error());
    gsl_rng_free(r);
}

/* spd_rowsum_grow: a scaled kernel's row sums and trace grown in blocks of rows (0 → 7 → 20 → 33
 * → 40, as AnaCP's tasks add rows) equal those formed at once (from = 0), and their bound equals
 * spd_lmax_bound of the scaled matrix written out in float (its entries rounded to float: within
 * 1e-6). The kernel keeps only (i, j > i) and a diagonal; the cells below the diagonal hold junk
 * (AnaCP keeps a factor there), which must not be read. */
static void test_rowsum(void)
{
    enum { n = 40 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 17);
    static float K[n * n], kd[n], W[n * n];
    double s[n], rs[n], rs0[n], tr = 0, tr0 = 0;
    for (int i = 0; i < n; i++) {
        s[i] = 0.2 + gsl_rng_uniform(r);
        kd[i] = (float)(1 + gsl_rng_uniform(r));
        for (int j = 0; j < n; j++) K[i * n + j] = j > i ? (float)gsl_ran_gaussian(r, 0.3) : (float)1e6; /* junk below */
    }
    const long steps[] = {7, 20, 33, 40};
    long from = 0;
    double got = 0;
    for (int k = 0; k < 4; k++) { got = spd_rowsum_grow(K, n, kd, s, from, steps[k], rs, &tr); from = steps[k]; }
    spd_rowsum_grow(K, n, kd, s, 0, n, rs0, &tr0);
    double worst = fabs(tr - tr0) / tr0;
    for (int i = 0; i < n; i++) worst = fmax(worst, fabs(rs[i] - rs0[i]) / rs0[i]);
    CHECK(worst < 1e-13, "spd_rowsum_grow: grown in blocks = at once (largest relative difference %.2e)", worst);
    /* the scaled kernel written out: column-major 'L' = row-major upper, as AnaCP's matrices */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            W[i * n + j] = j < i ? 0.0f : j == i ? (float)(s[i] * s[i] * kd[i]) : (float)(s[i] * s[j] * K[i * n + j]);
    double want = spd_lmax_bound(W, n, n, 'L');
    CHECK(fabs(got - want) <= 1e-6 * want, "spd_rowsum_grow's bound %.9g = spd_lmax_bound of the matrix %.9g", got, want);
    gsl_rng_free(r);
}

int main(void)
{
    test_bound();
    test_rowsum();
    test_solve();
    test_exact();
    test_source();
    return tap_done();
}
