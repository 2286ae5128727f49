/* gs_mat.h — dense double (or single-precision) matrices (prefix gm_).
 *
 * Storage is ROW-MAJOR: element (i, j) of an r×c matrix is v[i*c + j]; a row is contiguous.
 * A row-major r×c matrix is the column-major c×r matrix of its transpose, which is how the
 * BLAS/LAPACK calls in the engine see it (no hidden transposed copies).
 * A gm_mat holds doubles in v (gm_alloc) or floats in f (gm_alloc_f, v NULL): the engine's
 * single-precision path (--precision single) stores its rows and D×D Gram matrices so.
 * Ownership: a gm_mat owns `v` and `f` (allocated with gs_malloc); gm_free releases them and
 * zeroes the struct. A zeroed gm_mat is a valid empty matrix.
 */
#ifndef GS_MAT_H
#define GS_MAT_H

#include <stddef.h>

typedef struct {
    long rows, cols;
    double *v;
    float *f;            /* gm_alloc_f: the elements in single precision (v is NULL) */
} gm_mat;

/* Allocate an r×c matrix, zero-filled. GS_OK or GS_ENOMEM (message names `what`). */
int gm_alloc(gm_mat *m, long rows, long cols, const char *what);
/* The same with float elements in f (v NULL). */
int gm_alloc_f(gm_mat *m, long rows, long cols, const char *what);
void gm_free(gm_mat *m);
/* Deep copy (dst is allocated). */
int gm_copy(gm_mat *dst, const gm_mat *src, const char *what);
static inline double *gm_row(const gm_mat *m, long i) { return m->v + (size_t)i * (size_t)m->cols; }
static inline float *gm_rowf(const gm_mat *m, long i) { return m->f + (size_t)i * (size_t)m->cols; }
/* Bytes of m's elements (8 or 4 each). */
static inline size_t gm_nbytes(const gm_mat *m)
{
    return (size_t)m->rows * (size_t)m->cols * (m->f ? sizeof(float) : sizeof(double));
}
/* o[0..n-1] = fl32(x) (beyond the float range: ±∞, so scores built from it are non-finite and
 * decided in double); returns ‖x‖₂ (four partial sums, so the loop is not latency-bound). Used
 * by the engine's single-precision screening of predictions. */
double gm_to_float(const double *x, long n, float *o);
/* Bytes an r×c double matrix needs. */
static inline double gm_bytes(long r, long c) { return (double)r * (double)c * 8.0; }

#endif
