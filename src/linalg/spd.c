/* linalg/spd.c — the shifted SPD solve in float with its fallback to double, and its λ_max bound (gs_spd.h). */
#include "gs_spd.h"
#include "gs_common.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

double spd_lmax_bound(const float *M, long n, long ld, char uplo)
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

double spd_rowsum_grow(const float *K, long ld, const float *kd, const double *s, long from, long n, double *rs,
                     double *tr)
{
    if (from <= 0) { from = 0; *tr = 0; }
    for (long i = from; i < n; i++) rs[i] = 0;
    for (long i = 0; i < n; i++) {
        /* row i's terms with the rows j ≥ max(i + 1, from) (K[i][j] above the diagonal) */
        const float *ki = K + (size_t)i * (size_t)ld;
        if (i >= from) {
            double di = s[i] * s[i] * kd[i];
            *tr += di;
            rs[i] += fabs(di);
        }
        for (long j = i + 1 > from ? i + 1 : from; j < n; j++) {
            double a = fabs(s[i] * s[j] * ki[j]);
            rs[i] += a;
            rs[j] += a;
        }
    }
    double g = 0;
    for (long i = 0; i < n; i++) g = rs[i] > g ? rs[i] : g;
    return g < *tr ? g : *tr;
}

/* M in double from its floats (the triangle uplo), leading dimension n. */
static void copy_double(const float *M, long n, long ld, char uplo, double *Md)
{
    for (long j = 0; j < n; j++) {
        long lo = uplo == 'L' ? j : 0, hi = uplo == 'L' ? n : j + 1;
        const float *col = M + (size_t)j * (size_t)ld;
        double *o = Md + (size_t)j * (size_t)n;
        for (long i = lo; i < hi; i++) o[i] = col[i];
    }
}

/* The double path: Md = M (fill_d, or M's floats) + reg·I and Bd = B in double, dpotrf/dpotrs,
 * B := fl32(X). */
static int solve_double(const float *M, long n, long ld, float *B, long nrhs, long ldb, const spd_opts *o)
{
    char what[160];
    snprintf(what, sizeof what, "%s in double", o->what);
    double *Md = gs_malloc((size_t)n * (size_t)n, sizeof(double), what);
    double *Bd = gs_malloc((size_t)n * (size_t)(nrhs > 0 ? nrhs : 1), sizeof(double), what);
    if (!Md || !Bd) { free(Md); free(Bd); return GS_ENOMEM; }
    if (o->fill_d) o->fill_d(o->ctx, Md, n);
    else copy_double(M, n, ld, o->uplo, Md);
    for (long j = 0; j < n; j++) Md[(size_t)j * n + j] += o->reg;
    if (o->rhs_d) o->rhs_d(o->ctx, Bd, n);
    else
        for (long c = 0; c < nrhs; c++)
            for (long i = 0; i < n; i++) Bd[(size_t)c * n + i] = B[(size_t)c * ldb + i];
    lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, o->uplo, (lapack_int)n, Md, (lapack_int)n), sinfo = 0;
    if (!info && nrhs > 0)
        sinfo = LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, o->uplo, (lapack_int)n, (lapack_int)nrhs, Md, (lapack_int)n, Bd,
                                    (lapack_int)n);
    for (long c = 0; !info && !sinfo && c < nrhs; c++)
        for (long i = 0; i < n; i++) B[(size_t)c * ldb + i] = (float)Bd[(size_t)c * n + i];
    free(Md);
    free(Bd);
    if (info > 0)
        return gs_error(GS_ERUN, "%s is not positive definite (leading minor %d)%s", o->what, (int)info,
                        o->hint ? o->hint : "");
    if (info || sinfo)
        return gs_error(GS_ERUN, "%s: LAPACK %s failed (info %d)", o->what, info ? "dpotrf" : "dpotrs",
                        (int)(info ? info : sinfo));
    return GS_OK;
}

int spd_solve(float *M, long n, long ld, float *B, long nrhs, long ldb, const spd_opts *o, int *dbl)
{
    if (dbl) *dbl = 0;
    double reg = o->reg;
    int use_double = o->force, rc;
    if (!use_double && o->bound) use_double = !((o->bound(o->ctx) + reg) / reg <= o->kappa);
    /* M itself is needed for the float attempt, or as the source of the double copy */
    if (o->fill && (!use_double || !o->fill_d) && (rc = o->fill(o->ctx))) return rc;
    if (n <= 0) return GS_OK;
    if (!use_double && !o->bound) use_double = !((spd_lmax_bound(M, n, ld, o->uplo) + reg) / reg <= o->kappa);
    if (!use_double) {
        for (long i = 0; i < n; i++) M[(size_t)i * ld + i] += (float)reg;
        lapack_int info = LAPACKE_spotrf_work(LAPACK_COL_MAJOR, o->uplo, (lapack_int)n, M, (lapack_int)ld);
        if (!info) {
            if (nrhs > 0)
                info = LAPACKE_spotrs_work(LAPACK_COL_MAJOR, o->uplo, (lapack_int)n, (lapack_int)nrhs, M, (lapack_int)ld,
                                           B, (lapack_int)ldb);
            return info ? gs_error(GS_ERUN, "%s: LAPACK spotrs failed (info %d)", o->what, (int)info) : GS_OK;
        }
        if (info < 0) return gs_error(GS_ERUN, "%s: LAPACK spotrf failed (info %d)", o->what, (int)info);
        /* spotrf overwrote M: the matrix again, from the caller's source */
        if (!o->fill_d && !o->fill)
            return gs_error(GS_ERUN, "%s: the float Cholesky failed (leading minor %d) and the matrix cannot be formed "
                            "again", o->what, (int)info);
        if (!o->fill_d && (rc = o->fill(o->ctx))) return rc;
    }
    if (dbl) *dbl = 1;
    return solve_double(M, n, ld, B, nrhs, ldb, o);
}
