/* gs_mat.h — dense double matrices (prefix gm_).
 *
 * Storage is ROW-MAJOR: element (i, j) of an r×c matrix is v[i*c + j]; a row is contiguous.
 * A row-major r×c matrix is the column-major c×r matrix of its transpose, which is how the
 * BLAS/LAPACK calls in the engine see it (no hidden transposed copies).
 * Ownership: a gm_mat owns `v` (allocated with gs_malloc); gm_free releases it and zeroes
 * the struct. A zeroed gm_mat is a valid empty matrix.
 */
#ifndef GS_MAT_H
#define GS_MAT_H

#include <stddef.h>

typedef struct {
    long rows, cols;
    double *v;
} gm_mat;

/* Allocate an r×c matrix, zero-filled. GS_OK or GS_ENOMEM (message names `what`). */
int gm_alloc(gm_mat *m, long rows, long cols, const char *what);
void gm_free(gm_mat *m);
/* Deep copy (dst is allocated). */
int gm_copy(gm_mat *dst, const gm_mat *src, const char *what);
static inline double *gm_row(const gm_mat *m, long i) { return m->v + (size_t)i * (size_t)m->cols; }
/* o[0..n-1] = fl32(x) (beyond the float range: ±∞, so scores built from it are non-finite and
 * decided in double); returns ‖x‖₂ (four partial sums, so the loop is not latency-bound). Used
 * by the engine's single-precision screening of predictions. */
double gm_to_float(const double *x, long n, float *o);
/* Bytes an r×c double matrix needs. */
static inline double gm_bytes(long r, long c) { return (double)r * (double)c * 8.0; }

#endif
