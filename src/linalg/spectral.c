/* linalg/spectral.c — eigenvalues (LAPACKE) and spectral metrics (see gs_spectral.h). */
#include "gs_spectral.h"
#include "gs_common.h"

#include <cblas.h>
#include <lapacke.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void reverse(double *w, long n)
{
    for (long i = 0, j = n - 1; i < j; i++, j--) { double t = w[i]; w[i] = w[j]; w[j] = t; }
}

int sp_eigvals_in_place(gm_mat *A, double *w)
{
    long n = A->rows;
    lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'U', (lapack_int)n, A->v, (lapack_int)n, w);
    if (info != 0)
        return gs_error(GS_ERUN, "eigenvalues: LAPACK dsyevd failed (info %d)", (int)info);
    reverse(w, n);
    return GS_OK;
}

int sp_eigvals(const gm_mat *A, double *w)
{
    gm_mat B;
    int st = gm_copy(&B, A, "eigenvalues: matrix copy");
    if (st) return st;
    st = sp_eigvals_in_place(&B, w);
    gm_free(&B);
    return st;
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

double sp_filter_factors(const double *lambda, long D, double tau, double *f)
{
    double s = 0;
    for (long i = 0; i < D; i++) {
        double l = lambda[i] > 0 ? lambda[i] : 0;
        double v = l + tau > 0 ? l / (l + tau) : 0;
        if (f) f[i] = v;
        s += v;
    }
    return s;
}

double sp_ridge_df(const double *lambda, long D, double tau) { return sp_filter_factors(lambda, D, tau, NULL); }

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
 * stays cheap even for long runs (the full 'V' decomposition would be O(m³) per step).
 * wv: m doubles. dstevx's eigenvalue array must hold m entries even when one eigenvalue is
 * asked for: its bisection (dstebz) keeps every eigenvalue of the bracketing interval there
 * before it discards the unwanted ones, and Ritz values that agree to rounding (copies of a
 * converged eigenvalue, a multiple eigenvalue) put several in that interval. */
static int tri_extreme(const double *d, const double *e, int m, int il, double *dw, double *ew,
                       double *z, double *wv, double *w, double *zlast)
{
    memcpy(dw, d, (size_t)m * sizeof(double));
    if (m > 1) memcpy(ew, e, (size_t)(m - 1) * sizeof(double));
    lapack_int found = 0, ifail = 0;
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
    double *ev = gs_malloc((size_t)maxit + 1, sizeof(double), "Lanczos");
    double *wv = gs_malloc((size_t)n, sizeof(double), "Lanczos");
    int st = GS_OK;
    if (!V || !alpha || !beta || !dw || !ew || !z || !c || !ev || !wv) { st = GS_ENOMEM; goto out; }
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
            if ((st = tri_extreme(alpha, beta, m, 1, dw, ew, z, ev, &rmin, &zl))) goto out;
            emin = fabs(beta[k] * zl);
        }
        if (which & SP_LANCZOS_MAX) {
            if ((st = tri_extreme(alpha, beta, m, m, dw, ew, z, ev, &rmax, &zl))) goto out;
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
        if ((st = tri_extreme(alpha, beta, mlast, lo ? 1 : mlast, dw, ew, z, ev, lo ? &rmin : &rmax, &zl))) goto out;
        double err = invariant ? 0 : fabs(beta[mlast - 1] * zl);
        if (lo) emin = err; else emax = err;
    }
    *lmax = rmax; *lmax_err = emax;
    *lmin = rmin; *lmin_err = emin;
out:
    free(V); free(alpha); free(beta); free(dw); free(ew); free(z); free(c); free(ev); free(wv);
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

/* y = A⁻¹x = U⁻¹U⁻ᵀx for A = UᵀU: copy, then two dtrsv (level 2; no LAPACKE NaN scan of U). A
 * single-precision factor (U->f) is applied in float (strsv) to fl32(x); wf: n floats for it. */
static void chol_solve(const gm_mat *U, const double *x, double *y, float *wf)
{
    int n = (int)U->rows;
    if (U->f) {
        for (int i = 0; i < n; i++) wf[i] = (float)x[i];
        cblas_strsv(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, n, U->f, n, wf, 1);
        cblas_strsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, n, U->f, n, wf, 1);
        for (int i = 0; i < n; i++) y[i] = wf[i];
        return;
    }
    memcpy(y, x, (size_t)n * sizeof(double));
    cblas_dtrsv(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, n, U->v, n, y, 1);
    cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, n, U->v, n, y, 1);
}

/* Work space of lmin_lanczos (one allocation each, sizes in lmin_lanczos). */
typedef struct {
    double *V;                    /* Lanczos vectors, (maxit+1) rows of n (row k = v_k) */
    double *al, *be;              /* tridiagonal T: diagonal α_k, off-diagonal β_k */
    double *s, *c, *w, *u;        /* Ritz vector of T, reorthogonalization coefficients, two n-vectors */
    double *om[3];                /* ω estimates of v_jᵀv_k for three consecutive k (Simon) */
    double *dw, *ew, *work;       /* dstevx */
    double *ev;                   /* dstevx's eigenvalues: m entries (see tri_extreme) */
    float *wf;                    /* chol_solve's float vector (a single-precision factor) */
    lapack_int *iwork, *ifail;
} lz_ws;

/* Top eigenpair of T_m: θ and its unit eigenvector s (m). dstevx (bisection + inverse iteration)
 * is O(m); m ≤ maxit; its eigenvalues go through z->ev (m entries, see tri_extreme). */
static int tri_top(lz_ws *z, int m, double *theta)
{
    memcpy(z->dw, z->al, (size_t)m * sizeof(double));
    if (m > 1) memcpy(z->ew, z->be, (size_t)(m - 1) * sizeof(double));
    lapack_int found = 0;
    lapack_int info = LAPACKE_dstevx_work(LAPACK_COL_MAJOR, 'V', 'I', m, z->dw, z->ew, 0.0, 0.0, m, m,
                                          2.0 * LAPACKE_dlamch('S'), &found, z->ev, z->s, m, z->work, z->iwork,
                                          z->ifail);
    if (info != 0 || found != 1) return gs_error(GS_ERUN, "Lanczos: LAPACK dstevx failed (info %d)", (int)info);
    *theta = z->ev[0];
    return GS_OK;
}

/* x −= V_{0..k} (V_{0..k}ᵀ x), twice ("twice is enough"); returns the coefficient along v_k. */
static double full_reorth(lz_ws *z, long n, int k, double *x)
{
    double ck = 0;
    for (int pass = 0; pass < 2; pass++) {
        cblas_dgemv(CblasRowMajor, CblasNoTrans, k + 1, (int)n, 1.0, z->V, (int)n, x, 1, 0.0, z->c, 1);
        cblas_dgemv(CblasRowMajor, CblasTrans, k + 1, (int)n, -1.0, z->V, (int)n, z->c, 1, 1.0, x, 1);
        ck += z->c[k];
    }
    return ck;
}

/* Lanczos on A⁻¹ = U⁻¹U⁻ᵀ for its largest eigenvalue μ, tuned so that a step costs little more
 * than its two dtrsv (which stream the n²/2 words of U and dominate: ~80 µs at n = 768):
 *  - partial reorthogonalization (Simon 1984): local orthogonalization against v_k, v_{k−1}, and
 *    Simon's recurrence for ω_{k+1,j} ≈ v_{k+1}ᵀv_j; only when some |ω| > √ε are the next two
 *    vectors orthogonalized against the whole basis. This keeps the basis semi-orthogonal, which
 *    is enough for T_k to be the projection of A⁻¹ to working accuracy; the full two-pass Gram–
 *    Schmidt every step (O(kn) per step, ~20 µs late in a run) is not needed;
 *  - the convergence test (top eigenpair of T_k by dstevx: O(k), yet ~30 µs at k = 80) runs every
 *    step for the first 16 steps, then halfway to where the observed linear rate predicts
 *    convergence (never more than 16 steps apart): stopping is still decided by a test, only a few
 *    steps may be overrun;
 *  - when the estimate |β_k s_k| ≤ tol·θ, the Ritz vector u = V s is checked explicitly with one
 *    more solve: z = A⁻¹u, μ = uᵀz/uᵀu (a Rayleigh quotient, ≤ μ_max), ρ = ‖z − μu‖/‖u‖ (≥ the
 *    distance from μ to an eigenvalue). These are what is returned, so the bound does not rest on
 *    the orthogonality of V. If ρ > tol·μ the iteration goes on (with a tighter estimate target).
 * maxit caps the Lanczos steps (operator applications); the explicit check adds one application
 * (two for a failed check). *steps receives the number of Lanczos steps.
 * A block Krylov variant (b = 4…16 vectors through one dtrsm per triangle) was measured slower on
 * the engine's matrices at D = 768: it needs about half the passes over U at b = 8, but OpenBLAS's
 * dtrsm on a D×8 block costs ~4 dtrsv pairs (D×8 dgemm ~2.5), so the single vector wins. */
static int lmin_lanczos(const gm_mat *U, int maxit, double tol, double *mu, double *rho, int *steps)
{
    long n = U->rows;
    if (maxit > n) maxit = (int)n;
    if (maxit < 1) maxit = 1;
    size_t m1 = (size_t)maxit + 2;
    lz_ws z = {0};
    z.V = gs_malloc((size_t)(maxit + 1) * n, sizeof(double), "Lanczos basis");
    z.al = gs_malloc(m1, sizeof(double), "Lanczos");
    z.be = gs_malloc(m1, sizeof(double), "Lanczos");
    z.s = gs_malloc(m1, sizeof(double), "Lanczos");
    z.c = gs_malloc(m1, sizeof(double), "Lanczos");
    z.w = gs_malloc((size_t)n, sizeof(double), "Lanczos");
    z.u = gs_malloc((size_t)n, sizeof(double), "Lanczos");
    z.wf = gs_malloc((size_t)n, sizeof(float), "Lanczos");
    for (int i = 0; i < 3; i++) z.om[i] = gs_calloc(m1, sizeof(double), "Lanczos");
    z.dw = gs_malloc(m1, sizeof(double), "Lanczos");
    z.ew = gs_malloc(m1, sizeof(double), "Lanczos");
    z.ev = gs_malloc(m1, sizeof(double), "Lanczos");
    z.work = gs_malloc(5 * m1, sizeof(double), "Lanczos");
    z.iwork = gs_malloc(5 * m1, sizeof(lapack_int), "Lanczos");
    z.ifail = gs_malloc(m1, sizeof(lapack_int), "Lanczos");
    int st = GS_OK;
    if (!z.V || !z.al || !z.be || !z.s || !z.c || !z.w || !z.u || !z.wf || !z.om[0] || !z.om[1] || !z.om[2] || !z.dw ||
        !z.ew || !z.ev || !z.work || !z.iwork || !z.ifail) {
        st = GS_ENOMEM;
        goto out;
    }
    /* deterministic start vector with all components nonzero */
    double *V = z.V, *al = z.al, *be = z.be, *w = z.w, nrm = 0;
    for (long i = 0; i < n; i++) { V[i] = 1.0 + 0.5 * sin(1.0 + 0.7 * (double)i); nrm += V[i] * V[i]; }
    cblas_dscal((int)n, 1.0 / sqrt(nrm), V, 1);
    /* ω_k (om_cur) = estimates of v_kᵀv_j, j ≤ k; om_old for k−1; om_new for k+1 */
    double *om_old = z.om[0], *om_cur = z.om[1], *om_new = z.om[2];
    const double eps_n = DBL_EPSILON * sqrt((double)n), semi = sqrt(DBL_EPSILON);
    om_cur[0] = 1.0;
    int k, m = 0, force = 0, next_check = 0, last_check = -1;
    double last_ratio = INFINITY, target = 1.0, amax = 0;
    *mu = 0;
    *rho = INFINITY;
    for (k = 0; k < maxit; k++) {
        double *v = V + (size_t)k * n;
        /* w = A⁻¹v_k − α_k v_k − β_{k−1} v_{k−1}, with a second local pass against v_k */
        chol_solve(U, v, w, z.wf);
        al[k] = cblas_ddot((int)n, v, 1, w, 1);
        cblas_daxpy((int)n, -al[k], v, 1, w, 1);
        if (k > 0) cblas_daxpy((int)n, -be[k - 1], v - n, 1, w, 1);
        double a2 = cblas_ddot((int)n, v, 1, w, 1);
        cblas_daxpy((int)n, -a2, v, 1, w, 1);
        al[k] += a2;
        amax = fmax(amax, fabs(al[k]));
        double bk = cblas_dnrm2((int)n, w, 1);
        /* Simon's recurrence: β_k ω_{k+1,j} = β_j ω_{k,j+1} + (α_j − α_k) ω_{k,j} + β_{j−1} ω_{k,j−1}
         * − β_{k−1} ω_{k−1,j}, plus a rounding term of the size ε√n (β_j + β_k) */
        double big = 0;
        if (bk > 0)
            for (int j = 0; j < k; j++) {
                double t = be[j] * om_cur[j + 1] + (al[j] - al[k]) * om_cur[j] - be[k - 1] * om_old[j];
                if (j > 0) t += be[j - 1] * om_cur[j - 1];
                t += copysign(eps_n * (be[j] + bk), t);
                om_new[j] = t / bk;
                big = fmax(big, fabs(om_new[j]));
            }
        om_new[k] = eps_n;
        om_new[k + 1] = 1.0;
        if (big > semi || force) {
            /* semi-orthogonality lost: orthogonalize this vector and the next one against all */
            al[k] += full_reorth(&z, n, k, w);
            for (int j = 0; j <= k; j++) om_new[j] = eps_n;
            force = !force;
        }
        double *tp = om_old;
        om_old = om_cur; om_cur = om_new; om_new = tp;
        be[k] = cblas_dnrm2((int)n, w, 1);
        m = k + 1;
        int invariant = !(be[k] > 1e-14 * amax); /* Krylov space invariant: T_m is exact */
        int last = invariant || k + 1 == maxit;
        if (k >= next_check || last) {
            double theta = 0;
            if ((st = tri_top(&z, m, &theta))) goto out;
            double ratio = fabs(be[k] * z.s[m - 1]) / (tol * fabs(theta));
            if (ratio <= target || last) {
                /* explicit Rayleigh quotient and residual of u = V_{0..k}ᵀ s */
                double *u = z.u;
                cblas_dgemv(CblasRowMajor, CblasTrans, m, (int)n, 1.0, V, (int)n, z.s, 1, 0.0, u, 1);
                chol_solve(U, u, w, z.wf);
                double uu = cblas_ddot((int)n, u, 1, u, 1);
                *mu = cblas_ddot((int)n, u, 1, w, 1) / uu;
                cblas_daxpy((int)n, -*mu, u, 1, w, 1);
                *rho = cblas_dnrm2((int)n, w, 1) / sqrt(uu);
                if (*rho <= tol * *mu || last || !(*mu > 0) || !isfinite(*mu) || !isfinite(*rho)) break;
                /* rounding keeps ρ above the estimate: ask the estimate for that much more */
                target = 0.5 * target * tol * *mu / *rho;
                /* w was used: recompute the remainder of step k, orthogonal to the whole basis */
                chol_solve(U, v, w, z.wf);
                cblas_daxpy((int)n, -al[k], v, 1, w, 1);
                if (k > 0) cblas_daxpy((int)n, -be[k - 1], v - n, 1, w, 1);
                al[k] += full_reorth(&z, n, k, w);
                be[k] = cblas_dnrm2((int)n, w, 1);
                if (!(be[k] > 1e-14 * amax)) break;
                for (int j = 0; j <= k; j++) om_cur[j] = eps_n;
                force = 1;
            }
            /* next test: halfway to the step where the linear rate seen between the last two tests
             * reaches the target; every step early on, at most 16 steps ahead */
            int gap = 1;
            if (!(ratio > 0) || !isfinite(ratio)) {
                gap = 16;
            } else if (k >= 16 && last_check >= 0 && ratio < last_ratio) {
                double remaining = log(ratio / target) * (k - last_check) / log(last_ratio / ratio);
                gap = remaining >= 32 ? 16 : remaining >= 2 ? (int)(0.5 * remaining) : 1;
            } else if (k >= 16) {
                gap = 4; /* no progress seen: look again soon, not every step */
            }
            last_check = k;
            last_ratio = ratio;
            next_check = k + gap;
        }
        cblas_dcopy((int)n, w, 1, V + (size_t)(k + 1) * n, 1);
        cblas_dscal((int)n, 1.0 / be[k], V + (size_t)(k + 1) * n, 1);
    }
    if (steps) *steps = m;
out:
    free(z.V); free(z.al); free(z.be); free(z.s); free(z.c); free(z.w); free(z.u);
    for (int i = 0; i < 3; i++) free(z.om[i]);
    free(z.dw); free(z.ew); free(z.ev); free(z.work); free(z.iwork); free(z.ifail); free(z.wf);
    return st;
}

int sp_lmin_from_cholesky(const gm_mat *U, int maxit, double tol, double *lmin, double *lmin_err)
{
    long n = U->rows;
    /* a zero, negative or non-finite pivot: not the factor of a positive definite matrix */
    for (long i = 0; i < n; i++) {
        double d = U->f ? U->f[(size_t)i * n + i] : U->v[(size_t)i * n + i];
        if (!(d > 0) || !isfinite(d))
            return gs_error(GS_ERUN, "λ_min: Cholesky pivot U(%ld,%ld) = %g: not the factor of a positive definite "
                            "matrix", i, i, d);
    }
    double mu, rho;
    int st = lmin_lanczos(U, maxit, tol, &mu, &rho, NULL);
    if (st) return st;
    if (!(mu > 0) || !isfinite(mu) || !(rho >= 0) || !isfinite(rho))
        return gs_error(GS_ERUN, "λ_min: Lanczos on the inverse gave μ = %g, ρ = %g: the factor is not that of a "
                        "positive definite matrix", mu, rho);
    /* 1/λmin ∈ [μ, μ + ρ] (μ is a Rayleigh quotient of A⁻¹, ρ bounds its distance to an eigenvalue):
     * λmin ∈ [1/(μ+ρ), 1/μ] */
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

/* Eigenvalues (descending) above D·ε·λ_max: the rank NumPy's matrix_rank gives a symmetric matrix. */
static long num_rank(const double *w, long D)
{
    double tol = (double)D * DBL_EPSILON * fabs(w[0]);
    long k = 0;
    for (long i = 0; i < D; i++) k += fabs(w[i]) > tol;
    return k;
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
    double *sv_g = gs_malloc((size_t)D, sizeof(double), "Theorem 1"); /* G's eigenvalues, kept */
    if (!Hb || !Tb || !Ob || !sv || !sup || !sv_g) { st = GS_ENOMEM; goto blocks; }
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
    /* the shares of the top direction and the ranks (w still holds G's eigenvalues) */
    out->lambda1 = w[0];
    out->u1_Delta = M.v[0];
    out->tr_G = out->tr_Delta = 0;
    for (long i = 0; i < D; i++) { out->tr_G += w[i]; out->tr_Delta += M.v[i * D + i]; }
    out->rank_G = num_rank(w, D);
    out->outside = 0;
    for (long i = out->rank_G; i < D; i++) out->outside += M.v[i * D + i];
    out->outside = out->tr_Delta > 0 ? out->outside / out->tr_Delta : 0;
    /* actual sr(G + Δ + τI) from the exact spectrum */
    if ((st = gm_copy(&Gt, G, "Theorem 1"))) goto blocks;
    for (size_t i = 0; i < (size_t)D * D; i++) Gt.v[i] += Delta->v[i];
    memcpy(sv_g, w, (size_t)D * sizeof(double));
    if ((st = sp_eigvals(&Gt, w))) goto blocks;
    out->rank_GD = num_rank(w, D);
    out->rank_tol = (double)D * DBL_EPSILON * fmax(fabs(w[0]), fabs(sv_g[0]));
    for (long i = 0; i < D; i++) {
        out->rank1_G += sv_g[i] > out->rank_tol;
        out->rank1_GD += fmax(w[i], sv_g[i]) > out->rank_tol;
    }
    for (long i = 0; i < D; i++) w[i] += tau;
    out->sr_after = sp_stable_rank_eig(w, D);
    out->bound_holds = out->bound <= out->sr_after * (1 + 1e-9);
blocks:
    free(Hb); free(Tb); free(Ob); free(sv); free(sup); free(sv_g);
out:
    free(w);
    gm_free(&U); gm_free(&T1); gm_free(&M); gm_free(&Gt);
    return st;
}
