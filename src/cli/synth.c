/* cli/synth.c — `gsrscope synth`: the synthetic set written as four .npy files (gs_cli.h). */
#include "cli_int.h"
#include "gs_common.h"
#include "gs_io.h"
#include "gs_mat.h"
#include "gs_npy.h"
#include "gs_synth.h"

#include <stdio.h>
#include <stdlib.h>

int cli_synth(op_opts *o)
{
    syn_config sc;
    syn_defaults(&sc);
    ds_data d;
    int rc = syn_generate(&sc, SYN_DATA_SEED, &d);
    if (rc) return cli_fail(rc);
    rc = io_mkdirs(o->out_dir);
    char path[4096];
    gm_mat X = {0}, Xt = {0};
    long *all = NULL;
    if (!rc) rc = gm_alloc(&X, d.train_x.rows, d.train_x.cols, "synthetic rows");
    if (!rc) rc = gm_alloc(&Xt, d.test_x.rows, d.test_x.cols, "synthetic rows");
    long nall = X.rows > Xt.rows ? X.rows : Xt.rows;
    if (!rc && !(all = gs_malloc((size_t)nall, sizeof(long), "synthetic rows"))) rc = GS_ENOMEM;
    for (long i = 0; !rc && i < nall; i++) all[i] = i; /* every row of both splits, in order */
    if (!rc) rc = ds_rows(&d, DS_TRAIN, all, X.rows, X.v);
    if (!rc) rc = ds_rows(&d, DS_TEST, all, Xt.rows, Xt.v);
    free(all);
#define OUT(name, call) do { if (!rc) { snprintf(path, sizeof path, "%s/%s", o->out_dir, name); rc = (call); } } while (0)
    OUT("train_features.npy", npy_write_f8(path, X.v, X.rows, X.cols));
    OUT("train_labels.npy", npy_write_labels(path, d.train_y, X.rows));
    OUT("test_features.npy", npy_write_f8(path, Xt.v, Xt.rows, Xt.cols));
    OUT("test_labels.npy", npy_write_labels(path, d.test_y, d.test_x.rows));
#undef OUT
    gm_free(&X); gm_free(&Xt);
    ds_free(&d);
    if (rc) return cli_fail(rc);
    if (!o->quiet) fprintf(stderr, "gsrscope: wrote the synthetic set to %s\n", o->out_dir);
    return 0;
}
