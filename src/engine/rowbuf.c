/* engine/rowbuf.c — growing buffers of rows with labels and weights (en_rowbuf and the growth helper
 * the emitter's own buffers use; engine_int.h): the rows an augmenter emits for --save-state or a
 * stats learner, and the rows the dual keeps (ridge_dual.c). */
#include "engine_int.h"
#include "gs_common.h"

#include <stdlib.h>
#include <string.h>

void en_rowbuf_free(en_rowbuf *b)
{
    free(b->X.v); free(b->X.f); free(b->y); free(b->w);
    memset(b, 0, sizeof *b);
}

/* Rows (row_bytes each), labels and weights reallocated to cap rows; each pointer replaced only
 * when its realloc succeeds (the caller's buffers stay valid either way). GS_OK or GS_ENOMEM. */
static int grow_rows(void **rows, size_t row_bytes, int **lab, double **w, long cap, const char *what)
{
    void *v = realloc(*rows, (size_t)cap * row_bytes);
    int *l = realloc(*lab, (size_t)cap * sizeof(int));
    double *ww = realloc(*w, (size_t)cap * sizeof(double));
    if (v) *rows = v;
    if (l) *lab = l;
    if (ww) *w = ww;
    return v && l && ww ? GS_OK : gs_error(GS_ENOMEM, "%s: out of memory", what);
}

/* Room for `need` rows: grown to exactly that many (grow_rows) when *cap is smaller. */
int en_rows_reserve(void **rows, size_t row_bytes, int **lab, double **w, long *cap, long need, const char *what)
{
    if (need <= *cap) return GS_OK;
    int rc = grow_rows(rows, row_bytes, lab, w, need, what);
    if (!rc) *cap = need;
    return rc;
}

/* Append one row, h (doubles: X.v) or hf (floats: X.f; a buffer holds one kind). */
int en_rowbuf_push(en_rowbuf *b, const double *h, const float *hf, long D, int c, double w, int weights)
{
    size_t es = hf ? sizeof(float) : sizeof(double);
    if (b->n == b->cap) {
        long cap = b->cap ? 2 * b->cap : 1024;
        void *v = realloc(hf ? (void *)b->X.f : (void *)b->X.v, (size_t)cap * (size_t)D * es);
        int *y = realloc(b->y, (size_t)cap * sizeof(int));
        double *ww = weights ? realloc(b->w, (size_t)cap * sizeof(double)) : NULL;
        if (v && hf) b->X.f = v;
        else if (v) b->X.v = v;
        if (y) b->y = y;
        if (ww) b->w = ww;
        if (!v || !y || (weights && !ww)) return gs_error(GS_ENOMEM, "augmented rows: out of memory");
        b->cap = cap;
        b->X.cols = D;
    }
    if (hf) memcpy(b->X.f + (size_t)b->n * D, hf, (size_t)D * sizeof(float));
    else memcpy(b->X.v + (size_t)b->n * D, h, (size_t)D * sizeof(double));
    b->y[b->n] = c;
    if (weights) b->w[b->n] = w;
    b->X.rows = ++b->n;
    return GS_OK;
}
