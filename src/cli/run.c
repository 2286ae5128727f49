/* cli/run.c — `gsrscope run`: the headless replay, per-task results on stdout as a table, CSV or
 * JSON, with --theorem and --save-state (gs_cli.h). */
#include "cli_int.h"
#include "gs_common.h"
#include "gs_pipeline.h"
#include "gs_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* RanPAC's λ on the validation rows (cli_ranpac_lambda): c's engine goes for the while (one
 * engine at a time: ranpac's M×M matrices are large) and is built again from cfg after. */
static int ranpac_lambda(pl_ctx *c, const op_opts *o, const en_config *cfg, double *lambda, double *val)
{
    *lambda = 0;
    *val = NAN;
    if (!cli_ranpac_name(o) || c->prob.val_h.rows == 0) return GS_OK;
    en_destroy(c->eng);
    c->eng = NULL;
    int rc = cli_ranpac_lambda(c, o, cfg, &cli_cancel, lambda, val);
    int rc2 = en_create(&c->eng, &c->prob, cfg);
    return rc ? rc : rc2;
}

int cli_run(op_opts *o)
{
    pl_ctx c;
    en_config cfg;
    int rc = cli_config_for(o, &cfg, 0);
    if (!rc) rc = pl_open(&c, o, &cfg, cli_warn, NULL);
    if (rc) return cli_fail(rc);
    /* RanPAC chooses its λ on the validation rows when there are some */
    double lam, lval;
    if ((rc = ranpac_lambda(&c, o, &cfg, &lam, &lval))) {
        pl_free(&c);
        return rc == GS_ECANCEL ? cli_interrupted() : cli_fail(rc);
    }
    if (lam > 0) {
        o->params.ranpac_lambda = lam;
        if (!o->quiet)
            fprintf(stderr, "gsrscope: ranpac: λ = %g chosen on the validation rows (validation accuracy %.2f %%)\n", lam, lval);
    }
    pg_state pg; /* one unit: the terminal line only (no "done" line, as run prints its results) */
    pg_init(&pg, "run", 1, o->quiet);
    pg_unit unit = {&pg, NULL};
    rc = en_update(c.eng, &o->params, 1, &cli_cancel, pg_engine_cb, &unit);
    pg_clear(&pg);
    if (rc == GS_ECANCEL) { pl_free(&c); return cli_interrupted(); }
    if (rc) { pl_free(&c); return cli_fail(rc); }
    const en_results *r = en_get_results(c.eng);
    int failed = cli_report_failed(r);
    if (c.prob.n_test_unseen)
        fprintf(stderr, "gsrscope: warning: %ld test rows belong to classes with no training rows; they are not evaluated\n",
                c.prob.n_test_unseen);
    if (o->theorem && o->format == OP_FMT_JSON) {
        /* Theorem 1 and the why rows as the JSON's "theorem" member */
        char *extra = NULL;
        size_t n = 0;
        FILE *mf = open_memstream(&extra, &n);
        if (!mf) rc = gs_error(GS_ENOMEM, "--theorem: out of memory");
        else {
            rc = rp_theorem(mf, 1, c.eng, &c.prob, &c.st, o);
            fclose(mf);
        }
        if (!rc) rc = rp_write_ext(stdout, o->format, r, &c.prob, o, extra);
        free(extra);
    } else {
        rc = rp_write(stdout, o->format, r, &c.prob, o);
        if (!rc && o->theorem) rc = rp_theorem(stdout, 0, c.eng, &c.prob, &c.st, o);
    }
    if (!rc && o->save_state) rc = rp_save_state(o->save_state, c.eng, &c.prob, o);
    pl_free(&c);
    if (rc) return cli_fail(rc);
    return failed ? 1 : 0;
}
