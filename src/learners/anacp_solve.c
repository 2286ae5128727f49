/* learners/anacp_solve.c — AnaCP's ridge solves (anacp_int.h): (M + reg I) X = B for M ⪰ 0 in
 * float, or in double when the condition bound says float would not do (anacp_spd_solve), and the
 * bound on λ_max(M) it uses (anacp_lmax_bound). Every matrix AnaCP factors (the heads' primal
 * Grams and dual kernels, the final layer's Gram or kernel) is M + reg I with reg = 100, so
 * λ_min ≥ reg and cond ≤ (λ̄ + reg)/reg for any λ̄ ≥ λ_max(M).
 */
#include "anacp_int.h"
#include "gs_common.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double anacp_lmax_bound(const float *M, long n, long ld, char uplo)
{
    /* each stored element (i, j) of the triangle counts in row i and, off the diagonal, in row j */
    double *rs = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
    double tr = 0, g = 0;
    for (long j = 0; j < n; j++) {
        const float *col = M + (size_t)j * (size_t)ld;
        long lo = uplo == 'L' ? j : 0, hi = uplo == 'L' ? n : j + 1;
        double cs = 0;
        for (long i = lo; i < hi; i++) {
            double a = fabs((double)col[i]);
            cs += a;
            if (rs && i != j) rs[i] += a;
        }
        tr += col[j];
        if (rs) rs[j] += cs;
    }
    int have = rs != NULL;
    for (long i = 0; have && i < n; i++) g = rs[i] > g ? rs[i] : g;
    free(rs);
    return have && g < tr ? g : tr;
}

int anacp_spd_solve(float *M, long n, long ld, char uplo, double reg, float *B, long nrhs, long ldb,
                    int (*fill)(void *ctx), void *ctx, double kappa, int force, int *dbl, const char *what)
{
    if (dbl) *dbl = 0;
    int rc = fill ? fill(ctx) : GS_OK;
    if (rc) return rc;
    if (n <= 0) return GS_OK;
    int use_double = force || !((anacp_lmax_bound(M, n, ld, uplo) + reg) / reg <= kappa);
    if (!use_double) {
        for (long i = 0; i < n; i++) M[(size_t)i * ld + i] += (float)reg;
        lapack_int info = LAPACKE_spotrf_work(LAPACK_COL_MAJOR, uplo, (lapack_int)n, M, (lapack_int)ld);
        if (!info) {
            if (nrhs > 0)
                info = LAPACKE_spotrs_work(LAPACK_COL_MAJOR, uplo, (lapack_int)n, (lapack_int)nrhs, M, (lapack_int)ld, B,
                                           (lapack_int)ldb);
            return info ? gs_error(GS_ERUN, "anacp: %s: LAPACK solve failed (info %d)", what, (int)info) : GS_OK;
        }
        if (!fill) return gs_error(GS_ERUN, "anacp: %s: float Cholesky failed (info %d)", what, (int)info);
        if ((rc = fill(ctx))) return rc; /* the float factor failed: M again, in double */
    }
    if (dbl) *dbl = 1;
    double *Md = gs_malloc((size_t)n * (size_t)n, sizeof(double), "AnaCP factor in double");
    double *Bd = gs_malloc((size_t)n * (size_t)(nrhs > 0 ? nrhs : 1), sizeof(double), "AnaCP factor in double");
    if (!Md || !Bd) { free(Md); free(Bd); return GS_ENOMEM; }
    for (long j = 0; j < n; j++) {
        long lo = uplo == 'L' ? j : 0, hi = uplo == 'L' ? n : j + 1;
        const float *col = M + (size_t)j * (size_t)ld;
        double *o = Md + (size_t)j * (size_t)n;
        for (long i = lo; i < hi; i++) o[i] = col[i];
        o[j] += reg;
    }
    for (long c = 0; c < nrhs; c++)
        for (long i = 0; i < n; i++) Bd[(size_t)c * n + i] = B[(size_t)c * ldb + i];
    lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, uplo, (lapack_int)n, Md, (lapack_int)n);
    if (!info && nrhs > 0)
        info = LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, uplo, (lapack_int)n, (lapack_int)nrhs, Md, (lapack_int)n, Bd,
                                   (lapack_int)n);
    for (long c = 0; !info && c < nrhs; c++)
        for (long i = 0; i < n; i++) B[(size_t)c * ldb + i] = (float)Bd[(size_t)c * n + i];
    free(Md); free(Bd);
    return info ? gs_error(GS_ERUN, "anacp: %s: LAPACK Cholesky failed (info %d)", what, (int)info) : GS_OK;
}
