/* mat.c — allocation helpers for row-major double matrices. */
#include "gs_mat.h"
#include "gs_common.h"

#include <stdlib.h>
#include <string.h>

int gm_alloc(gm_mat *m, long rows, long cols, const char *what)
{
    m->rows = m->cols = 0;
    m->v = NULL;
    if (rows < 0 || cols < 0) return gs_error(GS_EINPUT, "%s: negative size", what);
    size_t n;
    if (gs_mul_size((size_t)rows, (size_t)cols, &n) != 0)
        return gs_error(GS_ENOMEM, "%s: %ld × %ld elements overflow", what, rows, cols);
    m->v = gs_calloc(n ? n : 1, sizeof(double), what);
    if (!m->v) return GS_ENOMEM;
    m->rows = rows;
    m->cols = cols;
    return GS_OK;
}

void gm_free(gm_mat *m)
{
    free(m->v);
    m->v = NULL;
    m->rows = m->cols = 0;
}

int gm_copy(gm_mat *dst, const gm_mat *src, const char *what)
{
    int st = gm_alloc(dst, src->rows, src->cols, what);
    if (st) return st;
    memcpy(dst->v, src->v, (size_t)src->rows * (size_t)src->cols * sizeof(double));
    return GS_OK;
}
