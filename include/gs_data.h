/* gs_data.h — a labelled feature dataset as loaded from disk or generated (prefix ds_).
 *
 * Produced by the loaders (gs_load.h) and the synthetic generator (gs_synth.h); consumed by
 * the stream builder (gs_stream.h). Rows are raw features as read (not yet normalized or
 * expanded). Labels are 0..n_classes-1.
 * Ownership: a ds_data owns every array in it; ds_free releases them all and zeroes it.
 */
#ifndef GS_DATA_H
#define GS_DATA_H

#include <stdint.h>
#include "gs_mat.h"

typedef struct {
    gm_mat train_x;      /* N × d, row-major */
    int *train_y;        /* N labels */
    gm_mat test_x;       /* Nt × d */
    int *test_y;         /* Nt labels */
    int n_classes;       /* C = 1 + max label over train and test */
    char name[128];      /* short name for status bars, e.g. "fashion-mnist (sample)" */
    char source[1024];   /* what was loaded: paths or "synthetic seed=1" */
    uint64_t checksum;   /* FNV-1a over the loaded values and labels (for figure metadata) */
    /* Optional lazy rows (the synthetic generator uses this so that only the rows the stream
     * keeps are ever materialized, and test rows go straight to where the engine wants them):
     * when train_x.v (or test_x.v) is NULL, its rows/cols still give the shape and rows come
     * from lazy_rows(lazy_ctx, split, idx, n, out): rows idx[0..n-1] of the split into n
     * consecutive rows of out (n × cols). It must be reentrant (prepare calls it from two
     * threads). ds_free calls lazy_free(lazy_ctx). The loaders leave .npy/.npz features on
     * disk this way (only the rows a run uses are ever read). */
    int (*lazy_rows)(void *ctx, int split, const long *idx, long n, double *out);
    void *lazy_ctx;
    void (*lazy_free)(void *ctx);
    /* Set when lazy_rows works best given every row of a split in one call (a file read once,
     * in order); readers of many rows should then ask for them together. */
    int lazy_bulk;
} ds_data;

enum { DS_TRAIN = 0, DS_TEST = 1 };

void ds_free(ds_data *d);
/* Rows idx[0..n-1] of split DS_TRAIN or DS_TEST into n consecutive rows of out (n × cols),
 * from the stored matrix or the lazy source. Returns GS_OK or the source's error. */
int ds_rows(const ds_data *d, int split, const long *idx, long n, double *out);
/* Per-class training counts into counts[C] (caller allocates). */
void ds_class_counts(const ds_data *d, long *counts);

#endif
