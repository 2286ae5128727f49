/* rsolve.c — the dual ridge solve and the refined single-precision Cholesky (see gs_rsolve.h). */
#include "gs_rsolve.h"
#include "gs_common.h"
#include "gs_spectral.h"

#include <cblas.h>
#include <lapacke.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rs_dual_init(rs_dual *k, long D)
{
    memset(k, 0, sizeof *k);
    k->D = D;
    k->tau = NAN;
}

void rs_dual_free(rs_dual *k)
{
    free(k->K);
    free(k->U);
    free(k->s);
    rs_dual_init(k, k->D);
}

void rs_dual_reset(rs_dual *k)
{
    k->n = 0;
    k->nf = 0;
    k->tau = NAN;
}

/* Capacity for at least need rows: K and U re-laid with the larger leading dimension. Up to
 * D = 8192 rows the first reservation takes D at once (the dual holds fewer rows than D): the
 * pages of K and U are touched only as columns fill (their upper triangles), and nothing is ever
 * re-laid; beyond, or for more rows than D, a quarter more than asked. */
int rs_dual_reserve(rs_dual *k, long need)
{
    if (need <= k->cap) return GS_OK;
    long cap = k->cap + k->cap / 4;
    if (cap < need) cap = need;
    cap = (cap + 63) / 64 * 64;
    if (k->D <= 8192 && need <= k->D) cap = k->D;
    size_t bytes;
    if (gs_mul_size((size_t)cap * (size_t)cap, sizeof(double), &bytes))
        return gs_error(GS_ENOMEM, "dual kernel: %ld rows is too many", need);
    double *K = gs_malloc(bytes, 1, "dual kernel"), *U = gs_malloc(bytes, 1, "dual kernel");
    double *sc = gs_malloc((size_t)cap, sizeof(double), "dual kernel");
    if (!K || !U || !sc) { free(K); free(U); free(sc); return GS_ENOMEM; }
    for (long j = 0; j < k->n; j++) memcpy(K + (size_t)j * cap, k->K + (size_t)j * k->cap, (size_t)(j + 1) * sizeof(double));
    for (long j = 0; j < k->nf; j++) memcpy(U + (size_t)j * cap, k->U + (size_t)j * k->cap, (size_t)(j + 1) * sizeof(double));
    for (long i = 0; i < cap; i++) sc[i] = i < k->n && k->s ? k->s[i] : 1.0;
    free(k->K);
    free(k->U);
    free(k->s);
    k->K = K;
    k->U = U;
    k->s = sc;
    k->cap = cap;
    return GS_OK;
}

int rs_dual_append(rs_dual *k, const double *X, long n1)
{
    long n0 = k->n, D = k->D;
    if (n1 <= n0) return GS_OK;
    int rc = rs_dual_reserve(k, n1);
    if (rc) return rc;
    /* Column j of the column-major K is row j of a row-major view with stride cap:
     * rows n0..n1-1 of that view = X[n0:n1] X[0:n1]ᵀ (the new columns, upper part and more). */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)(n1 - n0), (int)n1, (int)D, 1.0, X + (size_t)n0 * D,
                (int)D, X, (int)D, 0.0, k->K + (size_t)n0 * k->cap, (int)k->cap);
    for (long j = n0; j < n1; j++) k->s[j] = 1.0;
    k->n = n1;
    return GS_OK;
}

int rs_dual_put(rs_dual *k, long n1, const double *P, long ldp)
{
    long n0 = k->n;
    if (n1 <= n0) return GS_OK;
    int rc = rs_dual_reserve(k, n1);
    if (rc) return rc;
    for (long j = n0; j < n1; j++) {
        memcpy(k->K + (size_t)j * k->cap, P + (size_t)(j - n0) * ldp, (size_t)(j + 1) * sizeof(double));
        k->s[j] = 1.0;
    }
    k->n = n1;
    return GS_OK;
}

void rs_dual_truncate(rs_dual *k, long n)
{
    if (n < k->n) k->n = n;
    if (n < k->nf) k->nf = n;
}

void rs_dual_set_scales(rs_dual *k, const double *s, long m)
{
    if (m > k->n) m = k->n;
    for (long i = 0; i < m; i++)
        if (k->s[i] != s[i]) {
            if (i < k->nf) k->nf = i; /* the factor's leading block up to row i stays valid */
            k->s[i] = s[i];
        }
}

int rs_dual_factor(rs_dual *k, long m, double tau)
{
    if (m > k->n) return gs_error(GS_ERUN, "dual kernel: %ld rows asked, %ld known", m, k->n);
    if (!(tau == k->tau)) { k->nf = 0; k->tau = tau; }
    long a = k->nf, nn = m - a, ld = k->cap;
    if (nn <= 0) return GS_OK;
    double *U = k->U;
    for (long j = a; j < m; j++) { /* the new columns of S K S + τI */
        const double *kc = k->K + (size_t)j * ld;
        double *uc = U + (size_t)j * ld, sj = k->s[j];
        for (long i = 0; i <= j; i++) uc[i] = k->s[i] * sj * kc[i];
        uc[j] += tau;
    }
    double *U12 = U + (size_t)a * ld, *U22 = U12 + a;
    if (a > 0) {
        /* [U11 U12; 0 U22]: U11ᵀ U12 = K12, U22ᵀ U22 = K22 + τI − U12ᵀ U12 */
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, (int)a, (int)nn, 1.0, U, (int)ld,
                    U12, (int)ld);
        cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, (int)nn, (int)a, -1.0, U12, (int)ld, 1.0, U22, (int)ld);
    }
    lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', (lapack_int)nn, U22, (lapack_int)ld);
    if (info != 0) {
        k->nf = 0;
        k->tau = NAN;
        if (info > 0)
            return gs_error(GS_ERUN, "K + τI is not positive definite (τ = %g, row %ld); raise --tau", tau,
                            a + (long)info);
        return gs_error(GS_ERUN, "LAPACK dpotrf failed (info %d)", (int)info);
    }
    k->nf = m;
    return GS_OK;
}

int rs_dual_alpha(const rs_dual *k, long m, const int *col, const double *sw, int cs, double *work)
{
    if (m > k->nf) return gs_error(GS_ERUN, "dual kernel: %ld rows factored, %ld asked", k->nf, m);
    if (m == 0 || cs == 0) return GS_OK;
    /* work = S Y (m × cs, column-major), then (S K S + τI)⁻¹ S Y, then S times that */
    memset(work, 0, (size_t)m * (size_t)cs * sizeof(double));
    for (long i = 0; i < m; i++)
        if (col[i] >= 0 && col[i] < cs) work[(size_t)col[i] * m + i] = (sw ? sw[i] : 1.0) * k->s[i];
    lapack_int info = LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'U', (lapack_int)m, cs, k->U, (lapack_int)k->cap, work,
                                          (lapack_int)m);
    if (info != 0) return gs_error(GS_ERUN, "LAPACK dpotrs failed (info %d)", (int)info);
    for (int c = 0; c < cs; c++)
        for (long i = 0; i < m; i++) work[(size_t)c * m + i] *= k->s[i];
    return GS_OK;
}

int rs_dual_solve(const rs_dual *k, long m, const double *X, const int *col, const double *sw, int cs,
                  double *Wt, double *work)
{
    long D = k->D;
    if (m == 0 || cs == 0) {
        memset(Wt, 0, (size_t)cs * (size_t)D * sizeof(double));
        return m > k->nf ? gs_error(GS_ERUN, "dual kernel: %ld rows factored, %ld asked", k->nf, m) : GS_OK;
    }
    int rc = rs_dual_alpha(k, m, col, sw, cs, work);
    if (rc) return rc;
    /* Wt = αᵀ X: α column-major m × cs is row-major cs × m */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, cs, (int)D, (int)m, 1.0, work, (int)m, X, (int)D, 0.0, Wt,
                (int)D);
    return GS_OK;
}

void rs_dual_stats(const rs_dual *k, long m, double *fro2, double *trace)
{
    double off = 0, dg = 0, tr = 0;
    for (long j = 0; j < m; j++) {
        const double *c = k->K + (size_t)j * k->cap;
        double sj = k->s[j], o = 0;
        for (long i = 0; i < j; i++) {
            double v = k->s[i] * sj * c[i];
            o += v * v;
        }
        double d = sj * sj * c[j];
        off += o;
        dg += d * d;
        tr += d;
    }
    *fro2 = 2 * off + dg;
    *trace = tr;
}

/* S K_m S, upper triangle of K, copied to a full m × m matrix (both triangles). */
static int full_copy(const rs_dual *k, long m, gm_mat *A)
{
    int rc = gm_alloc(A, m, m, "dual kernel copy");
    if (rc) return rc;
    for (long j = 0; j < m; j++) {
        const double *c = k->K + (size_t)j * k->cap;
        for (long i = 0; i <= j; i++) A->v[(size_t)j * m + i] = A->v[(size_t)i * m + j] = k->s[i] * k->s[j] * c[i];
    }
    return GS_OK;
}

int rs_dual_eigvals(const rs_dual *k, long m, double *w)
{
    long D = k->D, r = m < D ? m : D;
    for (long i = 0; i < D; i++) w[i] = 0;
    if (m == 0) return GS_OK;
    gm_mat A;
    int rc = full_copy(k, m, &A);
    if (rc) return rc;
    double *ev = gs_malloc((size_t)m, sizeof(double), "dual eigenvalues");
    if (!ev) { gm_free(&A); return GS_ENOMEM; }
    rc = sp_eigvals(&A, ev);
    if (!rc) memcpy(w, ev, (size_t)r * sizeof(double)); /* m > D: the extra ones are zeros of K */
    free(ev);
    gm_free(&A);
    return rc;
}

typedef struct { const rs_dual *k; long m; double *sx; } kop;

/* y = S K S x */
static int apply_k(const double *x, double *y, void *user)
{
    const kop *o = user;
    const double *s = o->k->s;
    for (long i = 0; i < o->m; i++) o->sx[i] = s[i] * x[i];
    cblas_dsymv(CblasColMajor, CblasUpper, (int)o->m, 1.0, o->k->K, (int)o->k->cap, o->sx, 1, 0.0, y, 1);
    for (long i = 0; i < o->m; i++) y[i] *= s[i];
    return GS_OK;
}

int rs_dual_lmax(const rs_dual *k, long m, int maxit, double tol, double *lmax, double *err)
{
    if (m == 0) { *lmax = 0; *err = 0; return GS_OK; }
    kop o = {k, m, gs_malloc((size_t)m, sizeof(double), "dual kernel")};
    if (!o.sx) return GS_ENOMEM;
    double lmin, lmine;
    if (maxit > m) maxit = (int)m;
    int rc = sp_lanczos_op(m, apply_k, &o, SP_LANCZOS_MAX, maxit, tol, lmax, err, &lmin, &lmine);
    free(o.sx);
    return rc;
}

/* ---- single-precision Cholesky with double refinement ------------------------------------ */

int rs_solve_mixed(const double *A, long n, const double *B, int nrhs, double *X, float *fwork, double *rwork,
                   int *iters)
{
    *iters = 0;
    /* fl32(A), upper triangle; ‖A‖∞ (= ‖A‖₁, symmetric) from the same pass */
    double anrm = 0;
    double *rows = gs_calloc((size_t)n, sizeof(double), "refined solve");
    if (!rows) return GS_ENOMEM;
    for (long j = 0; j < n; j++) {
        const double *a = A + (size_t)j * n;
        float *f = fwork + (size_t)j * n;
        for (long i = 0; i < j; i++) {
            f[i] = (float)a[i];
            rows[i] += fabs(a[i]);
            rows[j] += fabs(a[i]);
        }
        f[j] = (float)a[j];
        rows[j] += fabs(a[j]);
    }
    for (long i = 0; i < n; i++) if (rows[i] > anrm) anrm = rows[i];
    free(rows);
    if (!isfinite(anrm)) return RS_NOCONV;
    if (LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'U', (lapack_int)n, fwork, (lapack_int)n) != 0) return RS_NOCONV;
    size_t nb = (size_t)n * (size_t)nrhs;
    float *fr = gs_malloc(nb, sizeof(float), "refined solve");
    if (!fr) return GS_ENOMEM;
    const double cte = anrm * (DBL_EPSILON / 2) * sqrt((double)n);
    int rc = RS_NOCONV;
    for (size_t i = 0; i < nb; i++) X[i] = 0;
    memcpy(rwork, B, nb * sizeof(double)); /* residual of X = 0 */
    for (int it = 0; it <= 30; it++) {
        for (size_t i = 0; i < nb; i++) fr[i] = (float)rwork[i];
        if (LAPACKE_spotrs_work(LAPACK_COL_MAJOR, 'U', (lapack_int)n, nrhs, fwork, (lapack_int)n, fr, (lapack_int)n))
            break;
        for (size_t i = 0; i < nb; i++) X[i] += (double)fr[i];
        /* R = B − A X */
        memcpy(rwork, B, nb * sizeof(double));
        cblas_dsymm(CblasColMajor, CblasLeft, CblasUpper, (int)n, nrhs, -1.0, A, (int)n, X, (int)n, 1.0, rwork,
                    (int)n);
        *iters = it + 1;
        int ok = 1;
        for (int c = 0; c < nrhs && ok; c++) {
            const double *x = X + (size_t)c * n, *r = rwork + (size_t)c * n;
            double xm = fabs(x[cblas_idamax((int)n, x, 1)]), rm = fabs(r[cblas_idamax((int)n, r, 1)]);
            if (!isfinite(xm) || !isfinite(rm)) { ok = -1; break; }
            if (rm > xm * cte) ok = 0;
        }
        if (ok < 0) break;
        if (ok) { rc = GS_OK; break; }
    }
    free(fr);
    return rc;
}
