/* gs_load.h — load a dataset from the data options (prefix ld_).
 *
 * Sources, in order of precedence: --synthetic; --train-features/--train-labels/
 * --test-features/--test-labels (.npy or .csv by extension); --data DIR (four .npy files);
 * --idx DIR (MNIST IDX, plain or .gz); otherwise the bundled Fashion-MNIST sample (found via
 * $GSRSCOPE_DATA, ./sample_features, or the installed share folder).
 * Every refusal is GS_EINPUT with a one-line message "FILE: problem" (row/column for bad
 * values). Warnings (e.g. a test class never seen in training) go to `warn` if not NULL.
 * Ownership: on success *out owns everything (ds_free); on failure *out is empty.
 */
#ifndef GS_LOAD_H
#define GS_LOAD_H

#include "gs_data.h"
#include "gs_opts.h"

typedef void (*ld_warn_fn)(const char *msg, void *user);

int ld_load(const op_data *o, uint64_t seed, ds_data *out, ld_warn_fn warn, void *user);

#endif
