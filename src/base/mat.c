/* base/mat.c — allocation helpers for row-major double matrices. */
#include "gs_mat.h"
#include "gs_common.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int alloc_as(gm_mat *m, long rows, long cols, size_t elem, const char *what)
{
    m->rows = m->cols = 0;
    m->v = NULL;
    m->f = NULL;
    if (rows < 0 || cols < 0) return gs_error(GS_EINPUT, "%s: negative size", what);
    size_t n;
    if (gs_mul_size((size_t)rows, (size_t)cols, &n) != 0)
        return gs_error(GS_ENOMEM, "%s: %ld × %ld elements overflow", what, rows, cols);
    void *a = gs_calloc(n ? n : 1, elem, what);
    if (!a) return GS_ENOMEM;
    if (elem == sizeof(float)) m->f = a; else m->v = a;
    m->rows = rows;
    m->cols = cols;
    return GS_OK;
}

int gm_alloc(gm_mat *m, long rows, long cols, const char *what) { return alloc_as(m, rows, cols, sizeof(double), what); }
int gm_alloc_f(gm_mat *m, long rows, long cols, const char *what) { return alloc_as(m, rows, cols, sizeof(float), what); }

void gm_free(gm_mat *m)
{
    free(m->v);
    free(m->f);
    m->v = NULL;
    m->f = NULL;
    m->rows = m->cols = 0;
}

int gm_copy(gm_mat *dst, const gm_mat *src, const char *what)
{
    int st = gm_alloc(dst, src->rows, src->cols, what);
    if (st) return st;
    memcpy(dst->v, src->v, (size_t)src->rows * (size_t)src->cols * sizeof(double));
    return GS_OK;
}

static inline float to_f32(double v)
{
    return fabs(v) <= FLT_MAX ? (float)v : v > 0 ? INFINITY : v < 0 ? -INFINITY : NAN;
}

double gm_to_float(const double *x, long n, float *o)
{
    double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    long j = 0;
    for (; j + 4 <= n; j += 4) {
        o[j] = to_f32(x[j]); o[j + 1] = to_f32(x[j + 1]); o[j + 2] = to_f32(x[j + 2]); o[j + 3] = to_f32(x[j + 3]);
        a0 += x[j] * x[j]; a1 += x[j + 1] * x[j + 1]; a2 += x[j + 2] * x[j + 2]; a3 += x[j + 3] * x[j + 3];
    }
    for (; j < n; j++) { o[j] = to_f32(x[j]); a0 += x[j] * x[j]; }
    return sqrt((a0 + a1) + (a2 + a3));
}
