/* test_estimates.c — the labelled estimates (EN_LMAX_EST / EN_LMIN_EST) against exact LAPACK:
 * sp_lanczos_extremes on several matrices, each estimate within its stated error bound of the
 * dsyevd eigenvalue; sp_lmin_from_cholesky on matrices with known spectra (clustered, multiple,
 * Gram + ridge), its failure modes (pivots, allocation); and the engine's per-task λ_max/λ_min
 * estimates against the exact eigenvalues of the same G (interactive engine, tasks before the last). */
#include "gs_common.h"
#include "gs_mtable.h"
#include "gs_engine.h"
#include "gs_opts.h"
#include "gs_pipeline.h"
#include "gs_spectral.h"
#include "support/tap.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXIT 120 /* as the engine */
#define TOL 1e-10

/* slack for rounding in the exact eigenvalues themselves */
static double slack(double lmax) { return 1e-9 * (fabs(lmax) > 1 ? fabs(lmax) : 1); }

static void check_matrix(const gm_mat *G, const char *what)
{
    long n = G->rows;
    double *w = malloc((size_t)n * sizeof *w);
    double lmax, emax, lmin, emin;
    CHECK(w != NULL, "%s: alloc", what);
    if (!w) return;
    CHECK(sp_eigvals(G, w) == GS_OK, "%s: dsyevd", what);
    int rc = sp_lanczos_extremes(G, MAXIT, TOL, &lmax, &emax, &lmin, &emin);
    CHECK(rc == GS_OK, "%s: Lanczos runs", what);
    double s = slack(w[0]);
    CHECK(isfinite(emax) && emax >= 0 && isfinite(emin) && emin >= 0, "%s: bounds finite (%g, %g)", what, emax, emin);
    CHECK(fabs(lmax - w[0]) <= emax + s, "%s: λmax %.15g vs exact %.15g, bound %g", what, lmax, w[0], emax);
    CHECK(fabs(lmin - w[n - 1]) <= emin + s, "%s: λmin %.15g vs exact %.15g, bound %g", what, lmin, w[n - 1], emin);
    /* Ritz values lie inside the spectrum */
    CHECK(lmax <= w[0] + s && lmin >= w[n - 1] - s, "%s: Ritz values inside [λmin, λmax]", what);
    /* the stated bounds are useful (converged) for these sizes */
    CHECK(emax <= 1e-6 * fabs(w[0]) + s, "%s: λmax bound %g small", what, emax);
    free(w);
}

/* G = XᵀX for X (rows × cols) Gaussian, columns scaled by `decay`^j. */
static void gram(gm_mat *G, long rows, long cols, double decay, unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    double *X = malloc((size_t)rows * cols * sizeof *X);
    for (long i = 0; i < rows; i++)
        for (long j = 0; j < cols; j++) X[i * cols + j] = gsl_ran_gaussian(r, 1.0) * pow(decay, (double)j);
    gm_alloc(G, cols, cols, "test");
    for (long a = 0; a < cols; a++)
        for (long b = a; b < cols; b++) {
            double s = 0;
            for (long i = 0; i < rows; i++) s += X[i * cols + a] * X[i * cols + b];
            G->v[a * cols + b] = G->v[b * cols + a] = s;
        }
    free(X);
    gsl_rng_free(r);
}

static void matrices(void)
{
    gm_mat G = {0};
    gram(&G, 40, 150, 1.0, 1);          /* rank-deficient: 40 rows, 150 columns, λmin = 0 */
    check_matrix(&G, "XᵀX 40×150 (rank 40)");
    gm_free(&G);
    gram(&G, 400, 120, 1.0, 2);         /* full rank, well conditioned */
    check_matrix(&G, "XᵀX 400×120");
    gm_free(&G);
    gram(&G, 300, 100, 0.96, 3);        /* decaying columns: ill conditioned */
    check_matrix(&G, "XᵀX 300×100 decaying");
    gm_free(&G);
    gram(&G, 545, 768, 1.0, 4);         /* paper-scale first task shape */
    check_matrix(&G, "XᵀX 545×768");
    gm_free(&G);
    /* diagonal with a tight top gap and a repeated smallest eigenvalue */
    long n = 200;
    gm_alloc(&G, n, n, "test");
    memset(G.v, 0, (size_t)n * n * sizeof(double));
    for (long i = 0; i < n; i++) G.v[i * n + i] = i < 3 ? 0.5 : 1.0 + (double)i / n;
    G.v[(n - 1) * n + n - 1] = 2.0 + 1e-3;
    check_matrix(&G, "diagonal, gap 1e-3 at the top");
    /* symmetric indefinite: shift the diagonal matrix */
    for (long i = 0; i < n; i++) G.v[i * n + i] -= 1.2;
    check_matrix(&G, "indefinite");
    /* 1×1 and an all-zero matrix */
    gm_free(&G);
    gm_alloc(&G, 1, 1, "test");
    G.v[0] = 3.5;
    check_matrix(&G, "1×1");
    gm_free(&G);
    gm_alloc(&G, 30, 30, "test");
    memset(G.v, 0, 900 * sizeof(double));
    check_matrix(&G, "zero");
    gm_free(&G);
}

/* ---- sp_lmin_from_cholesky ---- */

/* A = Q diag(lam) Qᵀ (n×n) with Q orthogonal: the Q factor of a Gaussian matrix (dgeqrf/dorgqr). */
static void spd_known(gm_mat *A, const double *lam, long n, unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    gm_mat Q = {0}, T = {0};
    double *tau = malloc((size_t)n * sizeof *tau);
    gm_alloc(&Q, n, n, "test");
    gm_alloc(&T, n, n, "test");
    gm_alloc(A, n, n, "test");
    for (long i = 0; i < n * n; i++) Q.v[i] = gsl_ran_gaussian(r, 1.0);
    LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, (int)n, (int)n, Q.v, (int)n, tau);
    LAPACKE_dorgqr(LAPACK_ROW_MAJOR, (int)n, (int)n, (int)n, Q.v, (int)n, tau);
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) T.v[i * n + j] = Q.v[i * n + j] * lam[j];
    gsl_matrix_view qv = gsl_matrix_view_array(Q.v, (size_t)n, (size_t)n);
    gsl_matrix_view tv = gsl_matrix_view_array(T.v, (size_t)n, (size_t)n);
    gsl_matrix_view av = gsl_matrix_view_array(A->v, (size_t)n, (size_t)n);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, &tv.matrix, &qv.matrix, 0.0, &av.matrix);
    for (long i = 0; i < n; i++) /* exactly symmetric */
        for (long j = i + 1; j < n; j++) A->v[i * n + j] = A->v[j * n + i] = 0.5 * (A->v[i * n + j] + A->v[j * n + i]);
    free(tau);
    gm_free(&Q);
    gm_free(&T);
    gsl_rng_free(r);
}

/* Factor A in place (col-major 'U', as the engine does) and check sp_lmin_from_cholesky against the
 * exact λmin: the estimate is a Rayleigh quotient (≥ λmin), within its bound when converged, the bound
 * ≤ tol·λmin then (ρ ≤ tol·μ), and the same bits on a second call. A is left factored. */
static void check_lmin(gm_mat *A, double lmin_true, double lmax_true, int maxit, double tol, int converges,
                       const char *what)
{
    long n = A->rows;
    CHECK(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', (int)n, A->v, (int)n) == 0, "%s: dpotrf", what);
    double lm = NAN, le = NAN, lm2 = NAN, le2 = NAN;
    int rc = sp_lmin_from_cholesky(A, maxit, tol, &lm, &le);
    CHECK(rc == GS_OK, "%s: sp_lmin_from_cholesky: %s", what, gs_last_error());
    double s = 1e-12 * lmax_true;
    CHECK(isfinite(lm) && isfinite(le) && le >= 0, "%s: finite estimate %g, bound %g", what, lm, le);
    CHECK(lm >= lmin_true - s, "%s: 1/μ = %.15g ≥ λmin %.15g (μ is a Rayleigh quotient)", what, lm, lmin_true);
    if (converges) {
        CHECK(fabs(lm - lmin_true) <= le + s, "%s: λmin %.15g vs exact %.15g, bound %g", what, lm, lmin_true, le);
        CHECK(le <= tol * lm * (1 + 1e-9), "%s: converged, bound %g ≤ tol·λmin = %g", what, le, tol * lm);
    }
    rc = sp_lmin_from_cholesky(A, maxit, tol, &lm2, &le2);
    CHECK(rc == GS_OK && memcmp(&lm, &lm2, sizeof lm) == 0 && memcmp(&le, &le2, sizeof le) == 0,
          "%s: deterministic (%.17g %.17g vs %.17g %.17g)", what, lm, le, lm2, le2);
}

static void lmin_known(const double *lam, long n, int maxit, double tol, int converges, unsigned long seed,
                       const char *what)
{
    gm_mat A = {0};
    spd_known(&A, lam, n, seed);
    double lo = lam[0], hi = lam[0];
    for (long i = 0; i < n; i++) { lo = fmin(lo, lam[i]); hi = fmax(hi, lam[i]); }
    check_lmin(&A, lo, hi, maxit, tol, converges, what);
    gm_free(&A);
}

/* G + τI with G = XᵀX, X (rows × cols) = class structure: L (rows × r) R (r × cols) plus noise. */
static void check_lmin_gram(long rows, long cols, int r, double noise, double tau, unsigned long seed,
                            const char *what)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, seed);
    double *X = malloc((size_t)rows * cols * sizeof *X), *L = malloc((size_t)rows * r * sizeof *L);
    double *R = malloc((size_t)r * cols * sizeof *R);
    for (long i = 0; i < rows * r; i++) L[i] = gsl_ran_gaussian(g, 1.0) * pow(0.8, (double)(i % r));
    for (long i = 0; i < r * cols; i++) R[i] = gsl_ran_gaussian(g, 1.0);
    for (long i = 0; i < rows * cols; i++) X[i] = noise * gsl_ran_gaussian(g, 1.0);
    gsl_matrix_view xv = gsl_matrix_view_array(X, (size_t)rows, (size_t)cols);
    gsl_matrix_view lv = gsl_matrix_view_array(L, (size_t)rows, (size_t)r);
    gsl_matrix_view rv = gsl_matrix_view_array(R, (size_t)r, (size_t)cols);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, &lv.matrix, &rv.matrix, 1.0, &xv.matrix);
    gm_mat A = {0};
    gm_alloc(&A, cols, cols, "test");
    gsl_matrix_view av = gsl_matrix_view_array(A.v, (size_t)cols, (size_t)cols);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, &xv.matrix, &xv.matrix, 0.0, &av.matrix);
    for (long i = 0; i < cols; i++) {
        A.v[i * cols + i] += tau;
        for (long j = i + 1; j < cols; j++)
            A.v[i * cols + j] = A.v[j * cols + i] = 0.5 * (A.v[i * cols + j] + A.v[j * cols + i]);
    }
    double *w = malloc((size_t)cols * sizeof *w);
    CHECK(sp_eigvals(&A, w) == GS_OK, "%s: dsyevd", what);
    check_lmin(&A, w[cols - 1], w[0], MAXIT, TOL, 1, what);
    free(w); free(X); free(L); free(R);
    gm_free(&A);
    gsl_rng_free(g);
}

static void lmin_cholesky(void)
{
    long n = 300;
    double *lam = malloc((size_t)n * sizeof *lam);
    /* geometric 1e-3 … 1 */
    for (long i = 0; i < 200; i++) lam[i] = pow(10.0, -3.0 + 3.0 * (double)i / 199);
    lmin_known(lam, 200, MAXIT, TOL, 1, 11, "geometric spectrum, n 200");
    /* stopped early by maxit: the bound is larger than tol·λmin but still holds (the residual is
     * already well below the 3.5% gap, so the eigenvalue it brackets is μ_max) */
    for (int mi = 10; mi <= 16; mi += 3) {
        gm_mat A = {0};
        double lm, le;
        spd_known(&A, lam, 200, 11);
        CHECK(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', 200, A.v, 200) == 0, "geometric: dpotrf");
        CHECK(sp_lmin_from_cholesky(&A, mi, TOL, &lm, &le) == GS_OK, "maxit %d: %s", mi, gs_last_error());
        CHECK(le > TOL * lm && le < 0.1 * lm, "maxit %d: not converged, bound %g", mi, le);
        CHECK(lm >= 1e-3 && lm - 1e-3 <= le, "maxit %d: λmin %.15g vs 1e-3 within %g", mi, lm, le);
        gm_free(&A);
    }
    /* crowded bottom: 50 eigenvalues 1e-4·(1 + 1e-3 k), the rest 1e-2 … 1 */
    for (long i = 0; i < n; i++)
        lam[i] = i < 50 ? 1e-4 * (1 + 1e-3 * (double)i) : pow(10.0, -2.0 + 2.0 * (double)(i - 50) / 249);
    lmin_known(lam, n, MAXIT, TOL, 1, 12, "clustered bottom (50 within 5%), n 300");
    lmin_known(lam, n, MAXIT, 1e-6, 1, 13, "clustered bottom, tol 1e-6");
    /* λmin with multiplicity 100 (a rank-deficient Gram matrix + τI), then a 1% gap */
    for (long i = 0; i < n; i++) lam[i] = i < 100 ? 0.5 : 0.505 + (double)i / n;
    lmin_known(lam, n, MAXIT, TOL, 1, 14, "multiple smallest eigenvalue, n 300");
    /* only two distinct eigenvalues: the Krylov space is invariant after two steps */
    for (long i = 0; i < n; i++) lam[i] = (i % 2) ? 2.0 : 1.0;
    lmin_known(lam, n, MAXIT, TOL, 1, 15, "two eigenvalues");
    /* small orders, including n = 1, and maxit larger than n */
    for (long m = 1; m <= 5; m++) {
        for (long i = 0; i < m; i++) lam[i] = 1.0 + (double)i * i;
        char what[64];
        snprintf(what, sizeof what, "order %ld", m);
        lmin_known(lam, m, MAXIT, TOL, 1, 20 + (unsigned long)m, what);
    }
    /* not converged (maxit 3): still a Rayleigh quotient, and the bound says it is not converged */
    for (long i = 0; i < n; i++) lam[i] = 1.0 + (double)i / n;
    {
        gm_mat A = {0};
        double lm, le;
        spd_known(&A, lam, n, 16);
        CHECK(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', (int)n, A.v, (int)n) == 0, "uniform: dpotrf");
        CHECK(sp_lmin_from_cholesky(&A, 3, TOL, &lm, &le) == GS_OK, "maxit 3: %s", gs_last_error());
        CHECK(lm >= 1.0 - 1e-12 && le > TOL * lm && isfinite(le), "maxit 3: λmin %.15g ≥ 1, bound %g > tol·λmin",
              lm, le);
        /* not positive definite: zero, negative and NaN pivots */
        double d0 = A.v[5 * n + 5];
        double bad[3] = {0.0, -1.0, NAN};
        for (int b = 0; b < 3; b++) {
            A.v[5 * n + 5] = bad[b];
            gs_clear_error();
            int rc = sp_lmin_from_cholesky(&A, MAXIT, TOL, &lm, &le);
            CHECK(rc == GS_ERUN && strstr(gs_last_error(), "positive definite"), "pivot %g: GS_ERUN (rc %d, %s)",
                  bad[b], rc, gs_last_error());
        }
        A.v[5 * n + 5] = d0;
        gm_free(&A);
    }
    free(lam);
    /* Gram matrices + ridge: rank-deficient (λmin = τ, multiplicity 300), full rank, engine scale */
    check_lmin_gram(300, 600, 20, 0.05, 1.0, 31, "Gram 300×600 + I (rank 300)");
    check_lmin_gram(2000, 400, 20, 0.05, 0.01, 32, "Gram 2000×400 low-rank + noise, τ 0.01");
    check_lmin_gram(4000, 768, 16, 0.03, 1.0, 33, "Gram 4000×768 low-rank + noise, τ 1");
}

/* GS_ENOMEM from each allocation (GS_FAIL_ALLOC=N fails the N-th gs_malloc of the process): in a
 * child per N, before this process allocated anything with gs_malloc. No crash, GS_ENOMEM for the
 * first ones, then GS_OK. */
static void lmin_alloc_failures(void)
{
    long n = 40;
    int first_ok = 0, n_enomem = 0, consistent = 1;
    for (int k = 1; k <= 40 && consistent; k++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            char num[16];
            snprintf(num, sizeof num, "%d", k);
            setenv("GS_FAIL_ALLOC", num, 1);
            double *a = calloc((size_t)n * n, sizeof *a);
            if (!a) _exit(100);
            for (long i = 0; i < n; i++) a[i * n + i] = sqrt(1.0 + (double)i); /* U of A = diag(1 + i): λmin 1 */
            gm_mat U = {.rows = n, .cols = n, .v = a};
            double lm = 0, le = 0;
            int rc = sp_lmin_from_cholesky(&U, MAXIT, TOL, &lm, &le);
            if (rc == GS_OK && fabs(lm - 1.0) > 1e-12) rc = 101;
            _exit(rc);
        }
        int status = 0;
        CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork/wait");
        if (pid <= 0) return;
        int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 200 + WTERMSIG(status);
        if (rc == GS_ENOMEM && !first_ok) n_enomem++;
        else if (rc == GS_OK) { if (!first_ok) first_ok = k; }
        else consistent = 0;
        CHECK(rc == GS_OK || (rc == GS_ENOMEM && !first_ok), "GS_FAIL_ALLOC=%d: status %d", k, rc);
    }
    CHECK(n_enomem >= 5 && first_ok == n_enomem + 1, "allocation failures: %d × GS_ENOMEM, then GS_OK from %d",
          n_enomem, first_ok);
}

/* The engine's labelled per-task estimates against exact eigenvalues of the same G + τI. */
static void engine(void)
{
    char *argv[] = {"gsrscope", "run", "--synthetic", "--tasks", "4", "--tau", "0.05", NULL};
    op_opts o;
    CHECK(op_parse(&o, 7, argv) == GS_OK, "options: %s", gs_last_error());
    en_config cfg = {0};
    cfg.methods = (const char **)o.methods;
    cfg.n_methods = o.n_methods; mt_resolve(&cfg);
    cfg.spectrum = OP_SPECTRUM_FINAL;
    cfg.keep_task_grams = 1;
    pl_ctx c;
    int rc = pl_open(&c, &o, &cfg, NULL, NULL);
    CHECK(rc == GS_OK, "pl_open: %s", gs_last_error());
    if (rc) return;
    rc = en_update(c.eng, &o.params, 1, NULL, NULL, NULL);
    CHECK(rc == GS_OK, "en_update: %s", gs_last_error());
    const en_results *r = en_get_results(c.eng);
    long D = c.prob.D;
    double *w = malloc((size_t)D * sizeof *w);
    for (int m = 0; !rc && m < r->n_methods; m++)
        for (int t = 1; t <= r->T; t++) {
            const en_snap *s = &r->m[m].snaps[t - 1];
            /* exact at the last task and at the focused task (en_update's first_task = 1) */
            int last = t == r->T || t == 1;
            CHECK(s->state == EN_DONE, "%s task %d done", r->m[m].name, t);
            CHECK(!!(s->flags & EN_LMAX_EST) == !last && !!(s->flags & EN_LMIN_EST) == !last,
                  "%s task %d: estimates labelled (flags %u)", r->m[m].name, t, s->flags);
            CHECK(!!(s->flags & EN_SPECTRUM) == last, "%s task %d: exact spectrum only at the last and the focused task", r->m[m].name, t);
            const gm_mat *G, *Q;
            if (en_gram(c.eng, m, t, &G, &Q) || sp_eigvals(G, w)) { CHECK(0, "exact spectrum: %s", gs_last_error()); continue; }
            double tau = o.params.tau, sl = slack(w[0]);
            CHECK(fabs(s->lambda_max - (w[0] + tau)) <= s->lmax_err + sl, "%s task %d: λmax %.12g vs %.12g (bound %g)",
                  r->m[m].name, t, s->lambda_max, w[0] + tau, s->lmax_err);
            CHECK(fabs(s->lambda_min - (w[D - 1] + tau)) <= s->lmin_err + sl, "%s task %d: λmin %.12g vs %.12g (bound %g)",
                  r->m[m].name, t, s->lambda_min, w[D - 1] + tau, s->lmin_err);
            if (last) CHECK(s->lmax_err == 0 && s->lmin_err == 0, "exact values carry no error bound");
            /* stable rank from the estimate agrees with the exact one to the estimate's accuracy */
            double S = 0;
            for (long i = 0; i < D; i++) S += (w[i] + tau) * (w[i] + tau);
            double sr = S / ((w[0] + tau) * (w[0] + tau));
            CHECK(fabs(s->stable_rank - sr) <= sr * (2 * s->lmax_err / (w[0] + tau) + 1e-9),
                  "%s task %d: stable rank %.12g vs %.12g", r->m[m].name, t, s->stable_rank, sr);
        }
    free(w);
    pl_free(&c);
}

int main(void)
{
    lmin_alloc_failures(); /* first: no gs_malloc in this process yet */
    matrices();
    lmin_cholesky();
    engine();
    return tap_done();
}
