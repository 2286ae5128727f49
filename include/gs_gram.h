/* gs_gram.h — the ridge core's D×D kernels for a Gram matrix stored in double (gm_mat.v) or in single
 * precision (gm_mat.f), the precision picked by the storage (prefix gr_; linalg/gram.c, one text
 * for both: gram_tmpl.h). The engine's ridge paths (src/engine/) call them; they hold no state.
 */
#ifndef GS_GRAM_H
#define GS_GRAM_H

#include "gs_mat.h"

/* Sums that are reported (‖G‖_F², tr G) and the vectors of the Lanczos iterations stay double. */
void gr_symmetrize(gm_mat *M);                 /* lower := upper triangle */
void gr_copy(gm_mat *dst, const gm_mat *src);  /* same shape and precision */
void gr_zero(gm_mat *m);
int gr_alloc(gm_mat *M, long D, int single, const char *what);
/* Upper triangle of M += Xᵀ X for rows a..b-1 of `rows` (same precision as M: hf for float). */
void gr_rows(gm_mat *M, const gm_mat *rows, long a, long b);
/* The same for part 0 or 1 of M's columns (about half of the products each, a fixed split; -1:
 * all, as gr_rows): two jobs share one update. */
void gr_rows_part(gm_mat *M, const gm_mat *rows, long a, long b, int part);
/* dst = B + w·E (E may be NULL); dst may be double where B, E are float (a converted copy). */
void gr_combine(gm_mat *dst, const gm_mat *B, double w, const gm_mat *E);
double gr_fro2(const gm_mat *A);
double gr_trace(const gm_mat *A);
/* y = A x; work: 2D floats (used for a float A). */
void gr_symv(const gm_mat *A, const double *x, double *y, float *work);
/* A := the upper Cholesky factor of A + τI, then B (nrhs columns of D, A's precision) := (A + τI)⁻¹B.
 * 0, > 0 (not positive definite at that leading minor) or < 0 (LAPACK failure). */
int gr_chol_solve(gm_mat *A, double tau, void *B, int nrhs);

/* Panel width of gr_tri_reduce (LAPACK xsytrd's block size): the cancel flag is read
 * between panels. */
#define GR_TRI_NB 32
/* A (D×D, A's precision; d, e, tau and w too: D, D, D and D × GR_TRI_NB elements) reduced to
 * tridiagonal form QᵀAQ = T in place from column *next on, resumable after GS_ECANCEL. */
int gr_tri_reduce(gm_mat *A, void *d, void *e, void *tau, void *w, long *next, const volatile int *cancel);
/* Columns of the reduction's orthogonal factor Q formed per call of this many (cancel between). */
#define GR_TRI_QCOLS 512
/* Q (D×D, column-major, A's precision) from the reflectors in A and tau, from column *next on,
 * resumable after GS_ECANCEL. */
int gr_tri_form_q(const gm_mat *A, const void *tau, gm_mat *Q, long *next, const volatile int *cancel);
/* B (nrhs columns of D, Q's precision) := (G + τI)⁻¹B = Q (T + τI)⁻¹ QᵀB from G's reduction (Q,
 * T's diagonal d and off-diagonal e), QᵀB kept in qtb (D × nrhs) once *have_qtb is set (the same
 * B at every τ): 0, > 0 (T + τI not positive definite) or < 0 (LAPACK failure, no memory). */
int gr_tri_solve(const gm_mat *Q, const void *d, const void *e, double tau, void *B, int nrhs, void *qtb, int *have_qtb);

#endif
