/* gs_load.h — load a dataset from the data options (prefix ld_).
 *
 * Sources, in order of precedence: --synthetic; --train-features/--train-labels/
 * --test-features/--test-labels (a format of the table in src/data/formats.c: .npy, .npz, .pt or
 * .csv, by content first, then by extension in any case; from an archive, the array named after
 * the option, e.g. train_features.npy, or else its only array; FILE:MEMBER names one); --data DIR
 * (four .npy files, four .pt files, or train.csv and test.csv) or --data FILE.npz / FILE.pt (the
 * four arrays of one archive); --idx DIR (MNIST IDX, plain or .gz); otherwise the bundled
 * Fashion-MNIST sample (found via $GSRSCOPE_DATA, ./sample_features, or the installed data folder
 * of gs_assets.h's as_install_dirs).
 * Labels, CSV and IDX are read whole now. Features from .npy/.npz/.pt are validated now (header,
 * shape, type) and read later through ds_rows (lazy_rows, lazy_bulk): only the rows asked for,
 * so memory follows the rows a run keeps; a NaN/Inf is refused then, with file, row and column.
 * Every refusal is GS_EINPUT with a one-line message "FILE: problem" ("FILE: MEMBER: problem"
 * inside an .npz; row/column for bad values). Warnings (e.g. a test class never seen in
 * training) go to `warn` if not NULL.
 * The checksum covers every value and label read whole, and for features left on disk their
 * shape, type, order and first row.
 * Ownership: on success *out owns everything (ds_free; the open files of lazy features too); on
 * failure *out is empty.
 */
#ifndef GS_LOAD_H
#define GS_LOAD_H

#include "gs_data.h"
#include "gs_params.h"

typedef void (*ld_warn_fn)(const char *msg, void *user);

int ld_load(const op_data *o, ds_data *out, ld_warn_fn warn, void *user);

#endif
