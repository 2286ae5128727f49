/* data.c — dataset ownership helpers (see gs_data.h). */
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

int ds_train_row(const ds_data *d, long i, double *out)
{
    if (d->train_x.v) {
        memcpy(out, gm_row(&d->train_x, i), (size_t)d->train_x.cols * sizeof(double));
        return 0;
    }
    return d->lazy_row(d->lazy_ctx, i, out);
}
