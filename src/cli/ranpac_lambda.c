/* cli/ranpac_lambda.c — RanPAC's λ chosen on the validation rows, the one search `run` and `table`
 * make (cli_int.h). */
#include "cli_int.h"
#include "gs_common.h"
#include "gs_pipeline.h"
#include "gs_tausweep.h"

#include <math.h>
#include <string.h>

const char *cli_ranpac_name(const op_opts *o)
{
    for (int m = 0; m < o->n_methods; m++)
        if (!strncmp(o->methods[m], "ranpac", 6) && (o->methods[m][6] == '\0' || o->methods[m][6] == '+'))
            return o->methods[m];
    return NULL;
}

int cli_ranpac_lambda(const pl_ctx *c, const op_opts *o, const en_config *base, const volatile int *cancel,
                      double *lambda, double *val)
{
    *lambda = 0;
    *val = NAN;
    const char *name = cli_ranpac_name(o);
    if (!name || c->prob.val_h.rows == 0) return GS_OK;
    en_config one = *base;
    one.methods = &name;
    one.n_methods = 1;
    one.collect_aug = 0;
    one.lean_test_rows = 0; /* the sweep scores the mapped test rows too */
    one.accuracies_only = 0;
    int rc = mt_resolve(&one);
    if (rc) return rc;
    op_params q = o->params;
    q.ranpac_lambda = 0; /* the search is over τ itself */
    enum { NG = 37 };
    double taus[NG];
    ts_log_grid(1e-4, 1e5, NG, taus);
    en_engine *e = NULL;
    rc = pl_engine_new(c, o, &one, &e);
    if (!rc) rc = en_update(e, &q, c->prob.T, cancel, NULL, NULL);
    ts_curve cv;
    memset(&cv, 0, sizeof cv);
    if (!rc) rc = ts_compute_fast(e, &c->prob, 0, c->prob.T, taus, NG, &cv, cancel);
    if (!rc && cv.best_by_val && cv.best >= 0) {
        *lambda = taus[cv.best];
        *val = cv.val_acc[cv.best];
    }
    ts_free(&cv);
    en_destroy(e);
    return rc;
}
