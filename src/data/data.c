/* data/data.c — dataset ownership helpers (see gs_data.h). */
#include "gs_data.h"

#include <stdlib.h>
#include <string.h>

void ds_free(ds_data *d)
{
    gm_free(&d->train_x);
    gm_free(&d->test_x);
    free(d->train_y);
    free(d->test_y);
    if (d->lazy_free) d->lazy_free(d->lazy_ctx);
    memset(d, 0, sizeof *d);
}

void ds_class_counts(const ds_data *d, long *counts)
{
    for (int c = 0; c < d->n_classes; c++) counts[c] = 0;
    for (long i = 0; i < d->train_x.rows; i++) counts[d->train_y[i]]++;
}

int ds_rows(const ds_data *d, int split, const long *idx, long n, double *out)
{
    const gm_mat *X = split == DS_TEST ? &d->test_x : &d->train_x;
    if (!X->v) return d->lazy_rows(d->lazy_ctx, split, idx, n, out);
    for (long k = 0; k < n; k++)
        memcpy(out + (size_t)k * (size_t)X->cols, gm_row(X, idx[k]), (size_t)X->cols * sizeof(double));
    return 0;
}
