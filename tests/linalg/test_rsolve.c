/* test_rsolve.c — the dual ridge solve against the primal (G + τI)⁻¹Q by LAPACK dposv on G built
 * with plain loops, task by task and across a τ change, in double and in single precision (and the
 * latter's double factorization); its statistics and spectrum against G's;
 * the refined single-precision Cholesky against dposv, and its refusal when κ is too large. */
#include "tap.h"
#include "gs_common.h"
#include "gs_rng.h"
#include "gs_rsolve.h"
#include "gs_spectral.h"

#include <gsl/gsl_randist.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

enum { D = 120, CS = 6, NT = 3 };

/* Primal reference: G = Σ_{i<m} X_i X_iᵀ (X rows already weighted), Q column c = Σ X_i sw_i [col_i = c],
 * W = (G + τI)⁻¹ Q by dposv; Wt (CS × D). */
static void primal(const double *X, const int *col, const double *sw, long m, double tau, double *Wt, gm_mat *G)
{
    double *A = calloc((size_t)D * D, sizeof(double)), *B = calloc((size_t)D * CS, sizeof(double));
    for (long i = 0; i < m; i++)
        for (long a = 0; a < D; a++) {
            for (long b = 0; b < D; b++) A[a * D + b] += X[i * D + a] * X[i * D + b];
            B[(size_t)col[i] * D + a] += X[i * D + a] * sw[i];
        }
    if (G) memcpy(G->v, A, sizeof(double) * D * D);
    for (long a = 0; a < D; a++) A[a * D + a] += tau;
    LAPACKE_dposv(LAPACK_COL_MAJOR, 'U', D, CS, A, D, B, D);
    memcpy(Wt, B, sizeof(double) * D * CS);
    free(A); free(B);
}

static void test_dual(gsl_rng *r)
{
    long ends[NT] = {20, 45, 90}; /* rows after each task: the last task has fewer rows than D */
    long N = ends[NT - 1];
    double *X = malloc(sizeof(double) * N * D), sw[90];
    int col[90];
    for (long i = 0; i < N; i++) {
        double w = i % 3 == 2 ? 0.5 : 1.0; /* every third row a synthetic one with β = 0.5 */
        sw[i] = sqrt(w);
        col[i] = (int)(i % CS);
        for (long j = 0; j < D; j++) {
            double v = gsl_ran_gaussian(r, 1.0);
            X[i * D + j] = sw[i] * (v > 0 ? v : 0); /* ReLU features, weighted */
        }
    }
    rs_dual k;
    rs_dual_init(&k, D, 0);
    double tau = 0.7, *Wt = malloc(sizeof(double) * CS * D), *Wp = malloc(sizeof(double) * CS * D);
    double *work = malloc(sizeof(double) * N * CS);
    gm_mat G = {0};
    gm_alloc(&G, D, D, "t");
    long prev = 0;
    for (int t = 0; t < NT; t++) {
        CHECK(rs_dual_append(&k, X, ends[t]) == GS_OK, "append task %d", t + 1);
        CHECK(rs_dual_factor(&k, ends[t], tau) == GS_OK, "factor extended to %ld rows", ends[t]);
        CHECK(rs_dual_solve(&k, ends[t], X, col, sw, CS, Wt, work) == GS_OK, "dual solve task %d", t + 1);
        primal(X, col, sw, ends[t], tau, Wp, &G);
        CHECK(tap_maxrel(Wt, Wp, (long)CS * D) < 1e-9, "task %d: dual W = primal W (rel %.3g)", t + 1,
              tap_maxrel(Wt, Wp, (long)CS * D));
        /* statistics and spectrum of G from K */
        double fro2, tr;
        rs_dual_stats(&k, ends[t], &fro2, &tr);
        CHECK_REL(fro2, sp_fro2(&G), 1e-12, "‖G‖_F² from K");
        CHECK_REL(tr, sp_trace(&G), 1e-12, "tr G from K");
        double wd[D], wg[D];
        CHECK(rs_dual_eigvals(&k, ends[t], wd) == GS_OK && sp_eigvals(&G, wg) == GS_OK, "eigenvalues");
        double worst = 0;
        for (long i = 0; i < D; i++) worst = fmax(worst, fabs(wd[i] - wg[i]));
        CHECK(worst < 1e-10 * wg[0], "task %d: spectrum of G = K's, then D − N zeros (err %.3g·λ₁)", t + 1,
              worst / wg[0]);
        double lm, le;
        CHECK(rs_dual_lmax(&k, ends[t], 60, 1e-12, &lm, &le) == GS_OK, "λ_max by Lanczos on K");
        CHECK(fabs(lm - wg[0]) <= 1e-9 * wg[0] && le <= 1e-9 * wg[0], "λ_max(G) %.10g vs %.10g (bound %.3g)", lm,
              wg[0], le);
        prev = ends[t];
    }
    /* A τ change refactors; the leading block then serves an earlier task. */
    double tau2 = 3.5;
    CHECK(rs_dual_factor(&k, prev, tau2) == GS_OK, "refactor for a new τ");
    CHECK(rs_dual_solve(&k, ends[0], X, col, sw, CS, Wt, work) == GS_OK, "task 1 from the leading block");
    primal(X, col, sw, ends[0], tau2, Wp, NULL);
    CHECK(tap_maxrel(Wt, Wp, (long)CS * D) < 1e-9, "new τ, task 1 from the whole factor's leading block (rel %.3g)",
          tap_maxrel(Wt, Wp, (long)CS * D));
    CHECK(rs_dual_solve(&k, prev + 1, X, col, sw, CS, Wt, work) != GS_OK, "more rows than factored: refused");
    /* growth of the capacity keeps K and U */
    rs_dual k2;
    rs_dual_init(&k2, D, 0);
    for (long m = 1; m <= N; m += 37) {
        long e = m + 36 < N ? m + 36 : N;
        CHECK(rs_dual_append(&k2, X, e) == GS_OK && rs_dual_factor(&k2, e, tau) == GS_OK, "grow to %ld", e);
    }
    CHECK(rs_dual_solve(&k2, N, X, col, sw, CS, Wt, work) == GS_OK, "solve after growth");
    primal(X, col, sw, N, tau, Wp, NULL);
    CHECK(tap_maxrel(Wt, Wp, (long)CS * D) < 1e-9, "factor extended over capacity growth (rel %.3g)",
          tap_maxrel(Wt, Wp, (long)CS * D));
    /* not positive definite: τ < 0 with a rank-deficient K */
    rs_dual_reset(&k2);
    CHECK(rs_dual_append(&k2, X, N) == GS_OK, "append");
    gs_clear_error();
    CHECK(rs_dual_factor(&k2, N, -1e9) == GS_ERUN && strstr(gs_last_error(), "raise --tau"), "K + τI not PD: %s",
          gs_last_error());
    rs_dual_free(&k);
    rs_dual_free(&k2);
    gm_free(&G);
    free(X); free(Wt); free(Wp); free(work);
}

/* The dual in single precision: float panels (kernel columns of each task's rows, computed here
 * in double and rounded), float factor and solve, against the double primal; the double factor
 * from the rows (rs_dual_factor64) against it to double accuracy, and from the float kernel to
 * float accuracy; statistics from the float kernel against G's. */
static void test_dual_single(gsl_rng *r)
{
    long ends[NT] = {20, 45, 90}, N = ends[NT - 1];
    double *X = malloc(sizeof(double) * N * D), sw[90], tau = 3.0;
    int col[90];
    for (long i = 0; i < N; i++) {
        sw[i] = 1.0;
        col[i] = (int)(i % CS);
        for (long j = 0; j < D; j++) {
            double v = gsl_ran_gaussian(r, 1.0);
            X[i * D + j] = (float)(v > 0 ? v : 0); /* float rows, held in double */
        }
    }
    double *Wt = malloc(sizeof(double) * CS * D), *Wp = malloc(sizeof(double) * CS * D), *work = malloc(sizeof(double) * N * CS);
    gm_mat G;
    gm_alloc(&G, D, D, "test");
    rs_dual k;
    rs_dual_init(&k, D, 1);
    long prev = 0;
    for (int t = 0; t < NT; t++) {
        long e = ends[t], nn = e - prev;
        float *P = malloc(sizeof(float) * nn * e);
        for (long j = 0; j < nn; j++)
            for (long i = 0; i <= prev + j; i++) {
                double s = 0;
                for (long a = 0; a < D; a++) s += X[(prev + j) * D + a] * X[i * D + a];
                P[j * e + i] = (float)s;
            }
        CHECK(rs_dual_put(&k, e, P, e) == GS_OK, "single: put task %d", t + 1);
        free(P);
        CHECK(rs_dual_factor(&k, e, tau) == GS_OK && rs_dual_alpha(&k, e, col, sw, CS, work) == GS_OK,
              "single: float factor and α, task %d", t + 1);
        /* W = Xᵀ α */
        for (int c = 0; c < CS; c++)
            for (long a = 0; a < D; a++) {
                double s = 0;
                for (long i = 0; i < e; i++) s += work[(size_t)c * e + i] * X[i * D + a];
                Wt[c * D + a] = s;
            }
        primal(X, col, sw, e, tau, Wp, &G);
        double rel = tap_maxrel(Wt, Wp, CS * D);
        CHECK(rel < 1e-4, "single: float dual W = double primal W to float accuracy, task %d (rel %.2g)", t + 1, rel);
        double fro2, tr, fg = 0, tg = 0;
        rs_dual_stats(&k, e, &fro2, &tr);
        for (long a = 0; a < D; a++) { tg += G.v[a * D + a]; for (long b = 0; b < D; b++) fg += G.v[a * D + b] * G.v[a * D + b]; }
        CHECK(fabs(tr - tg) < 1e-6 * tg && fabs(fro2 - fg) < 1e-5 * fg, "single: tr G and ‖G‖_F² from the float kernel");
        prev = e;
    }
    CHECK(rs_dual_factor64(&k, N, tau, X) == GS_OK && k.use64 && rs_dual_alpha(&k, N, col, sw, CS, work) == GS_OK,
          "single: double factor from the rows");
    for (int c = 0; c < CS; c++)
        for (long a = 0; a < D; a++) {
            double s = 0;
            for (long i = 0; i < N; i++) s += work[(size_t)c * N + i] * X[i * D + a];
            Wt[c * D + a] = s;
        }
    double rel = tap_maxrel(Wt, Wp, CS * D);
    CHECK(rel < 1e-10, "single: rs_dual_factor64 from the rows = double primal (rel %.2g)", rel);
    CHECK(rs_dual_factor64(&k, N, tau, NULL) == GS_OK && rs_dual_alpha(&k, N, col, sw, CS, work) == GS_OK,
          "single: double factor from the float kernel");
    CHECK(rs_dual_factor(&k, N, tau) == GS_OK && !k.use64, "single: a float factor again (use64 cleared)");
    gs_clear_error();
    CHECK(rs_dual_factor(&k, N, -1e9) == GS_ERUN && strstr(gs_last_error(), "raise --tau") &&
          rs_dual_factor64(&k, N, -1e9, X) == GS_ERUN, "single: K + τI not PD, float and double: %s", gs_last_error());
    rs_dual_free(&k);
    gm_free(&G);
    free(X); free(Wt); free(Wp); free(work);
}

/* SPD A = V diag(λ) Vᵀ with λ from 1 to kappa (column-major = row-major, symmetric). */
static void spd(double *A, long n, double kappa, gsl_rng *r)
{
    double *V = malloc(sizeof(double) * n * n), *tau = malloc(sizeof(double) * n);
    for (long i = 0; i < n * n; i++) V[i] = gsl_ran_gaussian(r, 1.0);
    LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)n, V, (lapack_int)n, tau);
    LAPACKE_dorgqr(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)n, (lapack_int)n, V, (lapack_int)n, tau);
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            double s = 0;
            for (long k = 0; k < n; k++) s += V[i * n + k] * pow(kappa, (double)k / (n - 1)) * V[j * n + k];
            A[i * n + j] = s;
        }
    for (long i = 0; i < n; i++)
        for (long j = 0; j < i; j++) A[i * n + j] = A[j * n + i] = 0.5 * (A[i * n + j] + A[j * n + i]);
    free(V); free(tau);
}

static void test_mixed(gsl_rng *r)
{
    long n = 150;
    int nrhs = 4;
    double *A = malloc(sizeof(double) * n * n), *F = malloc(sizeof(double) * n * n);
    double *B = malloc(sizeof(double) * n * nrhs), *X = malloc(sizeof(double) * n * nrhs),
           *Xd = malloc(sizeof(double) * n * nrhs), *rw = malloc(sizeof(double) * n * nrhs);
    float *fw = malloc(sizeof(float) * n * n);
    for (long i = 0; i < n * nrhs; i++) B[i] = gsl_ran_gaussian(r, 1.0);
    double kappas[] = {10, 1e3, 1e5};
    for (int q = 0; q < 3; q++) {
        spd(A, n, kappas[q], r);
        memcpy(F, A, sizeof(double) * n * n);
        memcpy(Xd, B, sizeof(double) * n * nrhs);
        LAPACKE_dposv(LAPACK_COL_MAJOR, 'U', (lapack_int)n, nrhs, F, (lapack_int)n, Xd, (lapack_int)n);
        int it = 0;
        CHECK(rs_solve_mixed(A, n, B, nrhs, X, fw, rw, &it) == GS_OK, "κ %g: refined solve converges (%d steps)",
              kappas[q], it);
        /* both are backward stable: they agree to about κ·ε */
        double rel = tap_maxrel(X, Xd, n * nrhs);
        CHECK(rel < kappas[q] * 1e-14, "κ %g: refined fl32 Cholesky = double Cholesky (rel %.3g)", kappas[q], rel);
        CHECK(it >= 2 && it <= 30, "κ %g: refinement steps %d", kappas[q], it);
    }
    /* κ beyond single precision: the caller must solve in double */
    spd(A, n, 1e12, r);
    int it = 0;
    CHECK(rs_solve_mixed(A, n, B, nrhs, X, fw, rw, &it) == RS_NOCONV, "κ 1e12: refused (RS_NOCONV)");
    /* not positive definite */
    for (long i = 0; i < n; i++) A[i * n + i] -= 2.0;
    spd(A, n, 10, r);
    A[0] = -5;
    CHECK(rs_solve_mixed(A, n, B, nrhs, X, fw, rw, &it) == RS_NOCONV, "indefinite: refused (RS_NOCONV)");
    free(A); free(F); free(B); free(X); free(Xd); free(rw); free(fw);
}

int main(void)
{
    gsl_rng *r = rng_new(7, RNG_INTERCLASS, 3);
    test_dual(r);
    test_dual_single(r);
    test_mixed(r);
    gsl_rng_free(r);
    return tap_done();
}
