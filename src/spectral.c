/* spectral.c — eigenvalues (LAPACKE) and spectral metrics (see gs_spectral.h). */
#include "gs_spectral.h"
#include "gs_common.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void reverse(double *w, long n)
{
    for (long i = 0, j = n - 1; i < j; i++, j--) { double t = w[i]; w[i] = w[j]; w[j] = t; }
}

int sp_eigvals(const gm_mat *A, double *w)
{
    long n = A->rows;
    gm_mat B;
    int st = gm_copy(&B, A, "eigenvalues: matrix copy");
    if (st) return st;
    lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'U', (lapack_int)n, B.v, (lapack_int)n, w);
    gm_free(&B);
    if (info != 0)
        return gs_error(GS_ERUN, "eigenvalues: LAPACK dsyevd failed (info %d)", (int)info);
    reverse(w, n);
    return GS_OK;
}

int sp_eig(const gm_mat *A, double *w, gm_mat *U)
{
    long n = A->rows;
    int st = gm_copy(U, A, "eigenvectors");
    if (st) return st;
    /* Column-major view: eigenvectors are columns of the column-major matrix, i.e. rows of
     * the row-major buffer. Transpose in place afterwards so that U(i,k) = v[i*n+k]. */
    lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'U', (lapack_int)n, U->v, (lapack_int)n, w);
    if (info != 0) {
        gm_free(U);
        return gs_error(GS_ERUN, "eigendecomposition: LAPACK dsyevd failed (info %d)", (int)info);
    }
    /* ascending -> descending: reverse w and the eigenvector order. */
    reverse(w, n);
    double *v = U->v;
    for (long i = 0; i < n; i++)
        for (long j = i + 1; j < n; j++) { double t = v[i * n + j]; v[i * n + j] = v[j * n + i]; v[j * n + i] = t; }
    /* now row-major U(i,k) holds column k of the ascending order; reverse columns */
    for (long i = 0; i < n; i++) reverse(v + i * n, n);
    return GS_OK;
}

double sp_fro2(const gm_mat *A)
{
    size_t n = (size_t)A->rows * (size_t)A->cols;
    double s = cblas_dnrm2((int)n, A->v, 1);
    return s * s;
}

double sp_trace(const gm_mat *A)
{
    double t = 0;
    for (long i = 0; i < A->rows; i++) t += A->v[i * A->cols + i];
    return t;
}

double sp_stable_rank_formula(double fro2, double trace, double lmax, double tau, long D)
{
    double num = fro2 + 2.0 * tau * trace + (double)D * tau * tau;
    double den = (lmax + tau) * (lmax + tau);
    return den > 0 ? num / den : NAN;
}

double sp_stable_rank_eig(const double *w, long D)
{
    double s = 0;
    for (long i = 0; i < D; i++) s += w[i] * w[i];
    return w[0] != 0 ? s / (w[0] * w[0]) : NAN;
}

double sp_effective_rank(const double *w, long D)
{
    double sum = 0;
    for (long i = 0; i < D; i++) if (w[i] > 0) sum += w[i];
    if (!(sum > 0)) return NAN;
    double h = 0;
    for (long i = 0; i < D; i++)
        if (w[i] > 0) { double p = w[i] / sum; h -= p * log(p); }
    return exp(h);
}

/* One extreme eigenpair of the symmetric tridiagonal (d, e) of order m: index il (1-based,
 * ascending), eigenvalue into *w and the last component of its unit eigenvector into *zlast.
 * dstevx (bisection + inverse iteration) costs O(m) per call, so the per-step convergence test
 * stays cheap even for long runs (the full 'V' decomposition would be O(m³) per step). */
static int tri_extreme(const double *d, const double *e, int m, int il, double *dw, double *ew,
                       double *z, double *w, double *zlast)
{
    memcpy(dw, d, (size_t)m * sizeof(double));
    if (m > 1) memcpy(ew, e, (size_t)(m - 1) * sizeof(double));
    lapack_int found = 0, ifail = 0;
    double wv[1];
    lapack_int info = LAPACKE_dstevx(LAPACK_COL_MAJOR, 'V', 'I', m, dw, ew, 0.0, 0.0, il, il,
                                     2.0 * LAPACKE_dlamch('S'), &found, wv, z, m, &ifail);
    if (info != 0 || found != 1)
        return gs_error(GS_ERUN, "Lanczos: LAPACK dstevx failed (info %d)", (int)info);
    *w = wv[0];
    *zlast = z[m - 1];
    return GS_OK;
}

/* Lanczos with full reorthogonalization (two classical Gram-Schmidt passes as matrix-vector
 * products) for y = A x given by `apply`. The tridiagonal T_k's extreme eigenvalues (Ritz
 * values) approximate those of A; |β_k · s_k(last)| bounds the distance of each Ritz value to
 * an eigenvalue of A. `which`: SP_LANCZOS_MAX / _MIN / both, the ends whose convergence stops
 * the iteration (both ends are always reported). */
int sp_lanczos_op(long n, sp_apply_fn apply, void *user, int which, int maxit, double tol,
                  double *lmax, double *lmax_err, double *lmin, double *lmin_err)
{
    if (maxit > n) maxit = (int)n;
    if (maxit < 1) maxit = 1;
    double *V = gs_malloc((size_t)(maxit + 1) * n, sizeof(double), "Lanczos basis");
    double *alpha = gs_malloc((size_t)maxit + 1, sizeof(double), "Lanczos");
    double *beta = gs_malloc((size_t)maxit + 1, sizeof(double), "Lanczos");
    double *dw = gs_malloc((size_t)maxit + 1, sizeof(double), "Lanczos");
    double *ew = gs_malloc((size_t)maxit + 1, sizeof(double), "Lanczos");
    double *z = gs_malloc((size_t)maxit + 1, sizeof(double), "Lanczos");
    double *c = gs_malloc((size_t)maxit + 1, sizeof(double), "Lanczos");
    double *wv = gs_malloc((size_t)n, sizeof(double), "Lanczos");
    int st = GS_OK;
    if (!V || !alpha || !beta || !dw || !ew || !z || !c || !wv) { st = GS_ENOMEM; goto out; }
    /* Deterministic start vector with all components nonzero. */
    double s = 0;
    for (long i = 0; i < n; i++) { V[i] = 1.0 + 0.5 * sin(1.0 + 0.7 * (double)i); s += V[i] * V[i]; }
    cblas_dscal((int)n, 1.0 / sqrt(s), V, 1);
    double emax = INFINITY, emin = INFINITY, rmax = 0, rmin = 0;
    int mlast = 0, invariant = 0;
    if (!(which & (SP_LANCZOS_MAX | SP_LANCZOS_MIN))) which = SP_LANCZOS_MAX | SP_LANCZOS_MIN;
    for (int k = 0; k < maxit; k++) {
        double *v = V + (size_t)k * n;
        if ((st = apply(v, wv, user))) goto out;
        alpha[k] = cblas_ddot((int)n, v, 1, wv, 1);
        /* full reorthogonalization against v_0..v_k (twice is enough):
         * c = Vᵀ w, w -= V c, with V stored as k+1 rows of length n */
        for (int pass = 0; pass < 2; pass++) {
            cblas_dgemv(CblasRowMajor, CblasNoTrans, k + 1, (int)n, 1.0, V, (int)n, wv, 1, 0.0, c, 1);
            cblas_dgemv(CblasRowMajor, CblasTrans, k + 1, (int)n, -1.0, V, (int)n, c, 1, 1.0, wv, 1);
        }
        beta[k] = cblas_dnrm2((int)n, wv, 1);
        /* extreme Ritz values of T_{k+1} and their residual bounds */
        int m = k + 1;
        double zl;
        mlast = m;
        /* only the end(s) that stop the iteration are followed per step; the other one is
         * computed once after the loop (dstevx per step is most of a step's scalar work) */
        if (which & SP_LANCZOS_MIN) {
            if ((st = tri_extreme(alpha, beta, m, 1, dw, ew, z, &rmin, &zl))) goto out;
            emin = fabs(beta[k] * zl);
        }
        if (which & SP_LANCZOS_MAX) {
            if ((st = tri_extreme(alpha, beta, m, m, dw, ew, z, &rmax, &zl))) goto out;
            emax = fabs(beta[k] * zl);
        }
        double bmax = (which & SP_LANCZOS_MAX) ? fabs(rmax) : 0;
        if (which & SP_LANCZOS_MIN) bmax = fmax(bmax, fabs(rmin));
        if (beta[k] <= 1e-14 * fmax(bmax, 1e-300)) { invariant = 1; emax = emin = 0; break; } /* invariant subspace */
        if ((!(which & SP_LANCZOS_MAX) || emax <= tol * bmax) && (!(which & SP_LANCZOS_MIN) || emin <= tol * bmax))
            break;
        cblas_dcopy((int)n, wv, 1, V + (size_t)(k + 1) * n, 1);
        cblas_dscal((int)n, 1.0 / beta[k], V + (size_t)(k + 1) * n, 1);
    }
    if (mlast > 0 && (which & (SP_LANCZOS_MAX | SP_LANCZOS_MIN)) != (SP_LANCZOS_MAX | SP_LANCZOS_MIN)) {
        double zl;
        int lo = !(which & SP_LANCZOS_MIN);
        if ((st = tri_extreme(alpha, beta, mlast, lo ? 1 : mlast, dw, ew, z, lo ? &rmin : &rmax, &zl))) goto out;
        double err = invariant ? 0 : fabs(beta[mlast - 1] * zl);
        if (lo) emin = err; else emax = err;
    }
    *lmax = rmax; *lmax_err = emax;
    *lmin = rmin; *lmin_err = emin;
out:
    free(V); free(alpha); free(beta); free(dw); free(ew); free(z); free(c); free(wv);
    return st;
}

static int apply_sym(const double *x, double *y, void *user)
{
    const gm_mat *G = user;
    cblas_dsymv(CblasColMajor, CblasUpper, (int)G->rows, 1.0, G->v, (int)G->rows, x, 1, 0.0, y, 1);
    return GS_OK;
}

int sp_lanczos_extremes(const gm_mat *G, int maxit, double tol, double *lmax, double *lmax_err,
                        double *lmin, double *lmin_err)
{
    return sp_lanczos_op(G->rows, apply_sym, (void *)G, SP_LANCZOS_MAX | SP_LANCZOS_MIN, maxit, tol, lmax,
                         lmax_err, lmin, lmin_err);
}

static int apply_chol_inv(const double *x, double *y, void *user)
{
    /* y = (UᵀU)⁻¹ x by two triangular solves (level 2; no LAPACKE NaN scan of U per call) */
    const gm_mat *U = user;
    int n = (int)U->rows;
    memcpy(y, x, (size_t)n * sizeof(double));
    cblas_dtrsv(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, n, U->v, n, y, 1);
    cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, n, U->v, n, y, 1);
    return GS_OK;
}

int sp_lmin_from_cholesky(const gm_mat *U, int maxit, double tol, double *lmin, double *lmin_err)
{
    double mu, rho, mu_lo, rho_lo;
    int st = sp_lanczos_op(U->rows, apply_chol_inv, (void *)U, SP_LANCZOS_MAX, maxit, tol, &mu, &rho,
                           &mu_lo, &rho_lo);
    if (st) return st;
    if (!(mu > 0)) return gs_error(GS_ERUN, "Lanczos: the factor is not positive definite");
    /* 1/λmin ∈ [mu, mu + rho] (Ritz values lie inside the spectrum): λmin ∈ [1/(mu+rho), 1/mu] */
    *lmin = 1.0 / mu;
    *lmin_err = *lmin - 1.0 / (mu + rho);
    return GS_OK;
}

/* ‖M‖₂ of a symmetric k×k block (largest |eigenvalue|) and its smallest eigenvalue. */
static int sym_block_norm(double *M, long k, double *norm2, double *lmin)
{
    double *w = gs_malloc((size_t)(k ? k : 1), sizeof(double), "Theorem 1 block");
    if (!w) return GS_ENOMEM;
    lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'U', (lapack_int)k, M, (lapack_int)k, w);
    if (info != 0) { free(w); return gs_error(GS_ERUN, "Theorem 1: LAPACK dsyevd failed (info %d)", (int)info); }
    *norm2 = fmax(fabs(w[0]), fabs(w[k - 1]));
    if (lmin) *lmin = w[0];
    free(w);
    return GS_OK;
}

int sp_theorem1(const gm_mat *G, const gm_mat *Delta, int r, double tau, sp_theorem *out)
{
    long D = G->rows;
    memset(out, 0, sizeof *out);
    if (r < 1 || r >= D) return gs_error(GS_EINPUT, "Theorem 1: split r must be in [1, %ld], got %d", D - 1, r);
    out->r = r;
    double *w = gs_malloc((size_t)D, sizeof(double), "Theorem 1");
    if (!w) return GS_ENOMEM;
    gm_mat U = {0}, T1 = {0}, M = {0}, Gt = {0};
    int st = sp_eig(G, w, &U);
    if (st) goto out;
    /* M = Uᵀ Δ U (D×D) */
    if ((st = gm_alloc(&T1, D, D, "Theorem 1")) || (st = gm_alloc(&M, D, D, "Theorem 1"))) goto out;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)D, (int)D, (int)D, 1.0, Delta->v, (int)D, U.v, (int)D, 0.0, T1.v, (int)D);
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)D, (int)D, (int)D, 1.0, U.v, (int)D, T1.v, (int)D, 0.0, M.v, (int)D);
    /* head block r×r, tail block (D-r)×(D-r), off-diagonal r×(D-r) */
    long t = D - r;
    double *Hb = gs_malloc((size_t)r * r, sizeof(double), "Theorem 1");
    double *Tb = gs_malloc((size_t)t * t, sizeof(double), "Theorem 1");
    double *Ob = gs_malloc((size_t)r * t, sizeof(double), "Theorem 1");
    double *sv = gs_malloc((size_t)(r < t ? r : t), sizeof(double), "Theorem 1");
    double *sup = gs_malloc((size_t)(r < t ? r : t), sizeof(double), "Theorem 1");
    if (!Hb || !Tb || !Ob || !sv || !sup) { st = GS_ENOMEM; goto blocks; }
    for (long i = 0; i < r; i++) for (long j = 0; j < r; j++) Hb[i * r + j] = M.v[i * D + j];
    for (long i = 0; i < t; i++) for (long j = 0; j < t; j++) Tb[i * t + j] = M.v[(r + i) * D + r + j];
    for (long i = 0; i < r; i++) for (long j = 0; j < t; j++) Ob[i * t + j] = M.v[i * D + r + j];
    if ((st = sym_block_norm(Hb, r, &out->eps, NULL))) goto blocks;
    if ((st = sym_block_norm(Tb, t, &out->mbar, &out->m))) goto blocks;
    {
        lapack_int info = LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'N', 'N', (lapack_int)r, (lapack_int)t, Ob,
                                         (lapack_int)t, sv, NULL, 1, NULL, 1, sup);
        if (info != 0) { st = gs_error(GS_ERUN, "Theorem 1: LAPACK dgesvd failed (info %d)", (int)info); goto blocks; }
        out->eta = sv[0];
    }
    {
        double S = 0;
        for (long i = 0; i < D; i++) S += (w[i] + tau) * (w[i] + tau);
        out->S_tau = S;
        double a = w[0] + out->eps, b = w[r] + out->mbar;
        out->Lambda_plus = 0.5 * (a + b + sqrt((a - b) * (a - b) + 4 * out->eta * out->eta));
        double m = out->m > 0 ? out->m : 0; /* the theorem assumes m > 0 */
        out->bound = (S + (double)t * m * m) / ((out->Lambda_plus + tau) * (out->Lambda_plus + tau));
        out->sr_before = S / ((w[0] + tau) * (w[0] + tau));
        out->lhs = (double)t * m * m;
        out->rhs = S * ((out->Lambda_plus + tau) * (out->Lambda_plus + tau) / ((w[0] + tau) * (w[0] + tau)) - 1.0);
        out->strict_condition = out->m > 0 && out->lhs > out->rhs;
    }
    /* actual sr(G + Δ + τI) from the exact spectrum */
    if ((st = gm_copy(&Gt, G, "Theorem 1"))) goto blocks;
    for (size_t i = 0; i < (size_t)D * D; i++) Gt.v[i] += Delta->v[i];
    if ((st = sp_eigvals(&Gt, w))) goto blocks;
    for (long i = 0; i < D; i++) w[i] += tau;
    out->sr_after = sp_stable_rank_eig(w, D);
    out->bound_holds = out->bound <= out->sr_after * (1 + 1e-9);
blocks:
    free(Hb); free(Tb); free(Ob); free(sv); free(sup);
out:
    free(w);
    gm_free(&U); gm_free(&T1); gm_free(&M); gm_free(&Gt);
    return st;
}
