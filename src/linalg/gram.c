/* linalg/gram.c — the ridge core's D×D kernels in both precisions (one text, gram_tmpl.h, compiled for
 * double and for float) and the helpers that pick one by their matrix's storage: a gm_mat with
 * v holds doubles, one with f floats (--precision single; gs_gram.h). */
#include "gs_gram.h"
#include "gs_common.h"
#include "gs_spectral.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK's pieces of xsytrd, called one panel at a time (tri_reduce); gfortran's hidden length
 * of the character argument last. */
void slatrd_(const char *uplo, const int *n, const int *nb, float *a, const int *lda, float *e, float *tau, float *w,
             const int *ldw, size_t uplo_len);
void dlatrd_(const char *uplo, const int *n, const int *nb, double *a, const int *lda, double *e, double *tau,
             double *w, const int *ldw, size_t uplo_len);
void ssytd2_(const char *uplo, const int *n, float *a, const int *lda, float *d, float *e, float *tau, int *info,
             size_t uplo_len);
void dsytd2_(const char *uplo, const int *n, double *a, const int *lda, double *d, double *e, double *tau, int *info,
             size_t uplo_len);

#define GT_P d      /* the BLAS and LAPACK prefix */
#define GT_R double /* the element type */
#define GT_EL v     /* gm_mat's elements of that type */
#define GT_SUF d    /* the kernels' suffix: symmetrize_d */
#include "gram_tmpl.h"
#define GT_P s
#define GT_R float
#define GT_EL f
#define GT_SUF f
#include "gram_tmpl.h"

static void *elems(const gm_mat *m) { return m->f ? (void *)m->f : (void *)m->v; }

void gr_symmetrize(gm_mat *M)
{
    if (M->f) symmetrize_f(M->f, M->rows); else symmetrize_d(M->v, M->rows);
}

void gr_copy(gm_mat *dst, const gm_mat *src) { memcpy(elems(dst), elems(src), gm_nbytes(src)); }

void gr_zero(gm_mat *m) { memset(elems(m), 0, gm_nbytes(m)); }

int gr_alloc(gm_mat *M, long D, int single, const char *what)
{
    int rc = single ? gm_alloc_f(M, D, D, what) : gm_alloc(M, D, D, what);
    if (!rc) gs_advise_huge(elems(M), gm_nbytes(M));
    return rc;
}

void gr_rows(gm_mat *M, const gm_mat *rows, long a, long b)
{
    if (M->f) rank_update_f(M, gm_rowf(rows, a), b - a); else rank_update_d(M, gm_row(rows, a), b - a);
}

void gr_rows_part(gm_mat *M, const gm_mat *rows, long a, long b, int part)
{
    if (M->f) rank_update_part_f(M, gm_rowf(rows, a), b - a, part);
    else rank_update_part_d(M, gm_row(rows, a), b - a, part);
}

void gr_combine(gm_mat *dst, const gm_mat *B, double w, const gm_mat *E)
{
    size_t n = (size_t)B->rows * (size_t)B->cols;
    int mix = E && w != 0;
    if (!dst->f == !B->f) {
        gr_copy(dst, B);
        if (mix && dst->f) cblas_saxpy((int)n, (float)w, E->f, 1, dst->f, 1);
        else if (mix) cblas_daxpy((int)n, w, E->v, 1, dst->v, 1);
    } else if (B->f) { /* a double copy of a single-precision Gram (en_gram, the spectrum, a fallback) */
        for (size_t i = 0; i < n; i++) dst->v[i] = mix ? (double)B->f[i] + w * (double)E->f[i] : (double)B->f[i];
    } else {
        for (size_t i = 0; i < n; i++) dst->f[i] = (float)(mix ? B->v[i] + w * E->v[i] : B->v[i]);
    }
}

double gr_fro2(const gm_mat *A)
{
    if (!A->f) return sp_fro2(A);
    size_t n = (size_t)A->rows * (size_t)A->cols;
    double s = 0;
    for (size_t i = 0; i < n; i++) s += (double)A->f[i] * A->f[i];
    return s;
}

double gr_trace(const gm_mat *A)
{
    if (!A->f) return sp_trace(A);
    double t = 0;
    for (long i = 0; i < A->rows; i++) t += A->f[i * A->cols + i];
    return t;
}

void gr_symv(const gm_mat *A, const double *x, double *y, float *work)
{
    long D = A->rows;
    if (!A->f) { symv_d(A, x, y); return; }
    for (long i = 0; i < D; i++) work[i] = (float)x[i];
    symv_f(A, work, work + D);
    for (long i = 0; i < D; i++) y[i] = work[D + i];
}

int gr_chol_solve(gm_mat *A, double tau, void *B, int nrhs)
{
    return A->f ? chol_solve_f(A, tau, B, nrhs) : chol_solve_d(A, tau, B, nrhs);
}

int gr_tri_reduce(gm_mat *A, void *d, void *e, void *tau, void *w, long *next, const volatile int *cancel)
{
    long n = A->rows;
    return A->f ? tri_reduce_f(A->f, n, d, e, tau, w, next, cancel) : tri_reduce_d(A->v, n, d, e, tau, w, next, cancel);
}

int gr_tri_form_q(const gm_mat *A, const void *tau, gm_mat *Q, long *next, const volatile int *cancel)
{
    long n = A->rows;
    return A->f ? tri_form_q_f(A->f, n, tau, Q->f, next, cancel) : tri_form_q_d(A->v, n, tau, Q->v, next, cancel);
}

int gr_tri_solve(const gm_mat *Q, const void *d, const void *e, double tau, void *B, int nrhs, void *qtb, int *have_qtb)
{
    long n = Q->rows;
    return Q->f ? tri_solve_f(Q->f, n, d, e, tau, B, nrhs, qtb, have_qtb)
                : tri_solve_d(Q->v, n, d, e, tau, B, nrhs, qtb, have_qtb);
}
