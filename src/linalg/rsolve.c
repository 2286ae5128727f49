/* linalg/rsolve.c — the dual ridge solve and the refined single-precision Cholesky (see gs_rsolve.h). */
#include "gs_rsolve.h"
#include "gs_common.h"
#include "gs_spectral.h"

#include <cblas.h>
#include <lapacke.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rs_dual_init(rs_dual *k, long D, int single)
{
    memset(k, 0, sizeof *k);
    k->D = D;
    k->single = single;
    k->tau = NAN;
}

void rs_dual_free(rs_dual *k)
{
    free(k->K);
    free(k->U);
    free(k->Kf);
    free(k->Uf);
    free(k->U64);
    free(k->s);
    rs_dual_init(k, k->D, k->single);
}

void rs_dual_reset(rs_dual *k)
{
    k->n = 0;
    k->nf = 0;
    k->use64 = 0;
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
    size_t es = k->single ? sizeof(float) : sizeof(double);
    if (gs_mul_size((size_t)cap * (size_t)cap, es, &bytes))
        return gs_error(GS_ENOMEM, "dual kernel: %ld rows is too many", need);
    char *K = gs_malloc(bytes, 1, "dual kernel"), *U = gs_malloc(bytes, 1, "dual kernel");
    double *sc = gs_malloc((size_t)cap, sizeof(double), "dual kernel");
    if (!K || !U || !sc) { free(K); free(U); free(sc); return GS_ENOMEM; }
    const char *oK = k->single ? (const char *)k->Kf : (const char *)k->K;
    const char *oU = k->single ? (const char *)k->Uf : (const char *)k->U;
    for (long j = 0; j < k->n; j++) memcpy(K + (size_t)j * cap * es, oK + (size_t)j * k->cap * es, (size_t)(j + 1) * es);
    for (long j = 0; j < k->nf; j++) memcpy(U + (size_t)j * cap * es, oU + (size_t)j * k->cap * es, (size_t)(j + 1) * es);
    for (long i = 0; i < cap; i++) sc[i] = i < k->n && k->s ? k->s[i] : 1.0;
    free(k->K); free(k->U); free(k->Kf); free(k->Uf);
    free(k->s);
    k->K = k->U = NULL;
    k->Kf = k->Uf = NULL;
    if (k->single) { k->Kf = (float *)K; k->Uf = (float *)U; }
    else { k->K = (double *)K; k->U = (double *)U; }
    k->s = sc;
    k->cap = cap;
    return GS_OK;
}

int rs_dual_append(rs_dual *k, const double *X, long n1)
{
    long n0 = k->n, D = k->D;
    if (n1 <= n0) return GS_OK;
    if (k->single) return gs_error(GS_ERUN, "rs_dual_append: a single-precision kernel takes panels (rs_dual_put)");
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

int rs_dual_put(rs_dual *k, long n1, const void *P, long ldp)
{
    long n0 = k->n;
    if (n1 <= n0) return GS_OK;
    int rc = rs_dual_reserve(k, n1);
    if (rc) return rc;
    size_t es = k->single ? sizeof(float) : sizeof(double);
    char *K = k->single ? (char *)k->Kf : (char *)k->K;
    for (long j = n0; j < n1; j++) {
        memcpy(K + (size_t)j * k->cap * es, (const char *)P + (size_t)(j - n0) * ldp * es, (size_t)(j + 1) * es);
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

/* Element (i, j), i ≤ j, of S K S + τI, in double. */
static inline double sks(const rs_dual *k, long i, long j, double tau)
{
    double v = k->s[i] * k->s[j] * (k->single ? (double)k->Kf[(size_t)j * k->cap + i] : k->K[(size_t)j * k->cap + i]);
    return i == j ? v + tau : v;
}

static int not_pd(rs_dual *k, lapack_int info, long a, double tau, const char *prec)
{
    k->nf = 0;
    k->tau = NAN;
    if (info > 0)
        return gs_error(GS_ERUN, "K + τI is not positive definite (τ = %g, row %ld); raise --tau", tau, a + (long)info);
    return gs_error(GS_ERUN, "LAPACK %spotrf failed (info %d)", prec, (int)info);
}

int rs_dual_factor(rs_dual *k, long m, double tau)
{
    if (m > k->n) return gs_error(GS_ERUN, "dual kernel: %ld rows asked, %ld known", m, k->n);
    k->use64 = 0;
    if (!(tau == k->tau)) { k->nf = 0; k->tau = tau; }
    long a = k->nf, nn = m - a, ld = k->cap;
    if (nn <= 0) return GS_OK;
    lapack_int info;
    /* [U11 U12; 0 U22]: U11ᵀ U12 = K12, U22ᵀ U22 = K22 + τI − U12ᵀ U12 (the new columns of
     * S K S + τI first, each element rounded once in float) */
    if (k->single) {
        float *U = k->Uf, *U12 = U + (size_t)a * ld, *U22 = U12 + a;
        for (long j = a; j < m; j++)
            for (long i = 0; i <= j; i++) U[(size_t)j * ld + i] = (float)sks(k, i, j, tau);
        if (a > 0) {
            cblas_strsm(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, (int)a, (int)nn, 1.0f, U,
                        (int)ld, U12, (int)ld);
            cblas_ssyrk(CblasColMajor, CblasUpper, CblasTrans, (int)nn, (int)a, -1.0f, U12, (int)ld, 1.0f, U22, (int)ld);
        }
        info = LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'U', (lapack_int)nn, U22, (lapack_int)ld);
    } else {
        double *U = k->U, *U12 = U + (size_t)a * ld, *U22 = U12 + a;
        for (long j = a; j < m; j++)
            for (long i = 0; i <= j; i++) U[(size_t)j * ld + i] = sks(k, i, j, tau);
        if (a > 0) {
            cblas_dtrsm(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, (int)a, (int)nn, 1.0, U, (int)ld,
                        U12, (int)ld);
            cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, (int)nn, (int)a, -1.0, U12, (int)ld, 1.0, U22, (int)ld);
        }
        info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', (lapack_int)nn, U22, (lapack_int)ld);
    }
    if (info != 0) return not_pd(k, info, a, tau, k->single ? "s" : "d");
    k->nf = m;
    return GS_OK;
}

int rs_dual_factor64(rs_dual *k, long m, double tau, const double *X)
{
    if (m > k->n) return gs_error(GS_ERUN, "dual kernel: %ld rows asked, %ld known", m, k->n);
    k->use64 = 0;
    if (m > k->n64 || !k->U64) {
        free(k->U64);
        k->n64 = 0;
        if (!(k->U64 = gs_malloc((size_t)(m ? m : 1) * (size_t)(m ? m : 1), sizeof(double), "dual kernel (double)")))
            return GS_ENOMEM;
    }
    k->n64 = m;
    double *U = k->U64;
    if (X && m) { /* K_m = X Xᵀ in double (column-major upper = row-major X's Gram), then S K S + τI */
        cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, (int)m, (int)k->D, 1.0, X, (int)k->D, 0.0, U, (int)m);
        for (long j = 0; j < m; j++) {
            for (long i = 0; i <= j; i++) U[(size_t)j * m + i] *= k->s[i] * k->s[j];
            U[(size_t)j * m + j] += tau;
        }
    } else {
        for (long j = 0; j < m; j++)
            for (long i = 0; i <= j; i++) U[(size_t)j * m + i] = sks(k, i, j, tau);
    }
    lapack_int info = m ? LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', (lapack_int)m, k->U64, (lapack_int)m) : 0;
    if (info != 0) {
        if (info > 0)
            return gs_error(GS_ERUN, "K + τI is not positive definite (τ = %g, row %ld); raise --tau", tau, (long)info);
        return gs_error(GS_ERUN, "LAPACK dpotrf failed (info %d)", (int)info);
    }
    k->use64 = 1;
    return GS_OK;
}

int rs_dual_alpha(const rs_dual *k, long m, const int *col, const double *sw, int cs, double *work)
{
    if (m > (k->use64 ? k->n64 : k->nf))
        return gs_error(GS_ERUN, "dual kernel: %ld rows factored, %ld asked", k->use64 ? k->n64 : k->nf, m);
    if (m == 0 || cs == 0) return GS_OK;
    /* work = S Y (m × cs, column-major), then (S K S + τI)⁻¹ S Y, then S times that */
    size_t nw = (size_t)m * (size_t)cs;
    memset(work, 0, nw * sizeof(double));
    for (long i = 0; i < m; i++)
        if (col[i] >= 0 && col[i] < cs) work[(size_t)col[i] * m + i] = (sw ? sw[i] : 1.0) * k->s[i];
    lapack_int info;
    if (k->single && !k->use64) {
        float *wf = gs_malloc(nw, sizeof(float), "dual solve");
        if (!wf) return GS_ENOMEM;
        for (size_t i = 0; i < nw; i++) wf[i] = (float)work[i];
        info = LAPACKE_spotrs_work(LAPACK_COL_MAJOR, 'U', (lapack_int)m, cs, k->Uf, (lapack_int)k->cap, wf, (lapack_int)m);
        for (size_t i = 0; i < nw; i++) work[i] = wf[i];
        free(wf);
    } else if (k->use64) {
        info = LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'U', (lapack_int)m, cs, k->U64, (lapack_int)k->n64, work,
                                   (lapack_int)m);
    } else {
        info = LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'U', (lapack_int)m, cs, k->U, (lapack_int)k->cap, work,
                                   (lapack_int)m);
    }
    if (info != 0) return gs_error(GS_ERUN, "LAPACK %cpotrs failed (info %d)", k->single && !k->use64 ? 's' : 'd', (int)info);
    for (int c = 0; c < cs; c++)
        for (long i = 0; i < m; i++) work[(size_t)c * m + i] *= k->s[i];
    return GS_OK;
}

int rs_dual_solve(const rs_dual *k, long m, const double *X, const int *col, const double *sw, int cs,
                  double *Wt, double *work)
{
    long D = k->D;
    if (k->single) return gs_error(GS_ERUN, "rs_dual_solve: double precision only");
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
        double o = 0;
        for (long i = 0; i < j; i++) {
            double v = sks(k, i, j, 0);
            o += v * v;
        }
        double d = sks(k, j, j, 0);
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
    for (long j = 0; j < m; j++)
        for (long i = 0; i <= j; i++) A->v[(size_t)j * m + i] = A->v[(size_t)i * m + j] = sks(k, i, j, 0);
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

typedef struct { const rs_dual *k; long m; double *sx; float *fx; } kop;

/* y = S K S x (a float K: the product in float, x and y in double) */
static int apply_k(const double *x, double *y, void *user)
{
    const kop *o = user;
    const double *s = o->k->s;
    long m = o->m;
    if (o->k->single) {
        for (long i = 0; i < m; i++) o->fx[i] = (float)(s[i] * x[i]);
        cblas_ssymv(CblasColMajor, CblasUpper, (int)m, 1.0f, o->k->Kf, (int)o->k->cap, o->fx, 1, 0.0f, o->fx + m, 1);
        for (long i = 0; i < m; i++) y[i] = s[i] * o->fx[m + i];
        return GS_OK;
    }
    for (long i = 0; i < m; i++) o->sx[i] = s[i] * x[i];
    cblas_dsymv(CblasColMajor, CblasUpper, (int)m, 1.0, o->k->K, (int)o->k->cap, o->sx, 1, 0.0, y, 1);
    for (long i = 0; i < m; i++) y[i] *= s[i];
    return GS_OK;
}

int rs_dual_lmax(const rs_dual *k, long m, int maxit, double tol, double *lmax, double *err)
{
    if (m == 0) { *lmax = 0; *err = 0; return GS_OK; }
    kop o = {k, m, gs_malloc((size_t)m, sizeof(double), "dual kernel"), gs_malloc(2 * (size_t)m, sizeof(float), "dual kernel")};
    if (!o.sx || !o.fx) { free(o.sx); free(o.fx); return GS_ENOMEM; }
    double lmin, lmine;
    if (maxit > m) maxit = (int)m;
    int rc = sp_lanczos_op(m, apply_k, &o, SP_LANCZOS_MAX, maxit, tol, lmax, err, &lmin, &lmine);
    free(o.sx);
    free(o.fx);
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
