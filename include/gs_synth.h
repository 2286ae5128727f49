/* gs_synth.h — the deterministic synthetic dataset (--synthetic) (prefix syn_).
 *
 * Geometry of pre-trained features: a shared mean direction, class positions and within-class
 * spread in a shared subspace with decaying scales, each class's own direction with a strength
 * that varies by row, class-specific low-rank spread and isotropic noise, then L2-normalized
 * rows; calibrated against the bundled MobileNetV2 embeddings (src/data/synth.c gives the model and
 * its weights, README the calibration table).
 * Ownership: fills a ds_data the caller frees with ds_free.
 */
#ifndef GS_SYNTH_H
#define GS_SYNTH_H

#include <stdint.h>
#include "gs_data.h"

typedef struct {
    int C;          /* classes, default 100 */
    long d;         /* dimension, default 768 */
    long n_train;   /* per class, default 500 */
    long n_test;    /* per class, default 100 */
    int rank;       /* within-class spread rank, default 16 */
} syn_config;

/* The synthetic set is a fixed dataset: the loader (--synthetic) and `synth --out` both pass
 * SYN_DATA_SEED (not --seed, which drives the stream and the methods), so every --seed sees the
 * same data and a run on the written files is the run on --synthetic. (1: the data that runs at
 * the default --seed 1 have always seen.) */
#define SYN_DATA_SEED 1ULL

void syn_defaults(syn_config *c);
int syn_generate(const syn_config *c, uint64_t seed, ds_data *out);

#endif
