/* test_spectral.c — eigenvalues of a matrix with a known spectrum, stable-rank formula,
 * effective rank, Theorem 1 bound. */
#include "tap.h"
#include "gs_common.h"
#include "gs_rng.h"
#include "gs_spectral.h"

#include <gsl/gsl_randist.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

/* Random orthogonal Q (n×n, row-major) from the QR of a Gaussian matrix. */
static void random_orthogonal(double *Q, long n, gsl_rng *r)
{
    for (long i = 0; i < n * n; i++) Q[i] = gsl_ran_gaussian(r, 1.0);
    double *tau = malloc(sizeof(double) * n);
    LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)n, Q, (lapack_int)n, tau);
    LAPACKE_dorgqr(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)n, (lapack_int)n, Q, (lapack_int)n, tau);
    free(tau);
}

int main(void)
{
    gsl_rng *r = rng_new(5, RNG_INTERCLASS, 1);
    long n = 40;
    double *Q = malloc(sizeof(double) * n * n), lam[40], w[40];
    random_orthogonal(Q, n, r);
    for (long i = 0; i < n; i++) lam[i] = pow(10.0, 3.0 - 6.0 * (double)i / (n - 1)); /* 1e3 .. 1e-3 */
    gm_mat A = {0};
    gm_alloc(&A, n, n, "t");
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            double s = 0;
            for (long k = 0; k < n; k++) s += Q[i * n + k] * lam[k] * Q[j * n + k];
            A.v[i * n + j] = s;
        }
    CHECK(sp_eigvals(&A, w) == GS_OK, "eigvals");
    double worst = 0;
    for (long i = 0; i < n; i++) worst = fmax(worst, fabs(w[i] - lam[i]) / lam[0]);
    CHECK(worst < 1e-12, "known spectrum recovered, descending (max err %.3g·λ₁)", worst);
    gm_mat U = {0};
    CHECK(sp_eig(&A, w, &U) == GS_OK, "eig with vectors");
    double res = 0;
    for (long k = 0; k < n; k++)
        for (long i = 0; i < n; i++) {
            double s = 0;
            for (long j = 0; j < n; j++) s += A.v[i * n + j] * U.v[j * n + k];
            res = fmax(res, fabs(s - w[k] * U.v[i * n + k]));
        }
    CHECK(res < 1e-10, "A U = U Λ (residual %.3g)", res);

    /* stable rank: cheap formula vs Σλ²/λ₁² of G+τI, for G = XᵀX (rank-deficient) */
    long rows = 15;
    gm_mat G = {0};
    gm_alloc(&G, n, n, "t");
    double *X = malloc(sizeof(double) * rows * n);
    for (long i = 0; i < rows * n; i++) X[i] = gsl_ran_gaussian(r, 1.0);
    for (long i = 0; i < rows; i++)
        for (long a = 0; a < n; a++) for (long b = 0; b < n; b++) G.v[a * n + b] += X[i * n + a] * X[i * n + b];
    double taus[3] = {0, 0.01, 5.0};
    sp_eigvals(&G, w);
    for (int k = 0; k < 3; k++) {
        double wt[40];
        for (long i = 0; i < n; i++) wt[i] = w[i] + taus[k];
        double a = sp_stable_rank_eig(wt, n);
        double b = sp_stable_rank_formula(sp_fro2(&G), sp_trace(&G), w[0], taus[k], n);
        CHECK_REL(b, a, 1e-10, "stable rank formula = Σλ²/λ₁²");
        CHECK(a >= 1 && a <= n, "1 ≤ sr ≤ D");
    }
    double ones[40];
    for (int i = 0; i < 40; i++) ones[i] = 2.0;
    CHECK_NEAR(sp_stable_rank_eig(ones, 40), 40, 1e-12, "sr(τI) = D");
    CHECK_NEAR(sp_effective_rank(ones, 40), 40, 1e-9, "erank of a flat spectrum = D");
    double one[3] = {5, 0, 0};
    CHECK_NEAR(sp_effective_rank(one, 3), 1, 1e-12, "erank of rank 1 = 1");

    /* Theorem 1: bound ≤ actual on random cases */
    int holds = 0, cases = 0;
    for (int trial = 0; trial < 12; trial++) {
        long m = 6 + trial;
        gm_mat Dl = {0};
        gm_alloc(&Dl, n, n, "t");
        for (long i = 0; i < m; i++) {
            double z[40];
            for (long a = 0; a < n; a++) z[a] = gsl_ran_gaussian(r, 0.3);
            for (long a = 0; a < n; a++) for (long b = 0; b < n; b++) Dl.v[a * n + b] += z[a] * z[b];
        }
        sp_theorem th;
        int rsplit = 1 + trial % 10;
        double tau = trial % 2 ? 0.01 : 1.0;
        if (sp_theorem1(&G, &Dl, rsplit, tau, &th) == GS_OK) {
            cases++;
            holds += th.bound <= th.sr_after * (1 + 1e-9);
        }
        gm_free(&Dl);
    }
    CHECK(cases == 12 && holds == cases, "Theorem 1 lower bound ≤ actual stable rank (%d/%d)", holds, cases);
    free(Q); free(X);
    gm_free(&A); gm_free(&U); gm_free(&G);
    gsl_rng_free(r);
    return tap_done();
}
