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


/* The engines of run when the methods' own values (--tuned, --set) differ: one per group g of
 * methods (gs_pipeline.h), one after the other on c's problem, their results merged in method
 * order into *out; --save-state writes the shared files with group 0's engine and each other
 * group's methods with theirs. GS_OK, GS_ECANCEL or an error. */
static int run_groups(pl_ctx *c, const op_opts *o, const pl_groups *g, double lam, pg_unit *unit, en_results *out)
{
    en_results parts[OP_MAX_METHODS];
    const en_results *pp[OP_MAX_METHODS];
    int np = 0, rc = GS_OK;
    for (int k = 0; k < g->n && !rc; k++) {
        op_params q = g->params[k];
        q.ranpac_lambda = lam;
        if (!(rc = pl_engine(c, o, &g->cfg[k]))) rc = en_update(c->eng, &q, 1, &cli_cancel, pg_engine_cb, unit);
        if (!rc && o->save_state) {
            if (k == 0) rc = rp_save_state(o->save_state, c->eng, &c->prob, o);
            for (int j = 0; k > 0 && !rc && j < g->cfg[k].n_methods; j++) rc = rp_save_method(o->save_state, c->eng, &c->prob, j);
        }
        if (!rc && !(rc = en_results_copy(&parts[np], en_get_results(c->eng)))) pp[np] = &parts[np], np++;
    }
    if (!rc) rc = pl_results_merge(g, pp, out);
    for (int k = 0; k < np; k++) en_results_free(&parts[k]);
    return rc;
}

int cli_run(op_opts *o)
{
    pl_ctx c;
    en_config cfg;
    op_params q[OP_MAX_METHODS];
    static pl_groups g; /* large; one run per process */
    int rc = cli_config_for(o, &cfg, 0);
    if (!rc) rc = cli_method_params(o, q, !o->quiet);
    if (rc) return cli_fail(rc);
    pl_group(&g, &cfg, &o->params, q);
    if (g.n == 1) o->params = g.params[0]; /* one engine: its values are every method's */
    else {
        o->method_params = q;
        if (o->theorem)
            return cli_fail(gs_error(GS_EINPUT, "--theorem: compares the methods of one engine, but %s and %s have "
                                                "different values (--tuned/--set); give them equal values or drop --theorem",
                                     o->methods[0], g.names[1][0]));
    }
    rc = pl_open(&c, o, g.n == 1 ? &cfg : &g.cfg[0], cli_warn, NULL);
    if (rc) return cli_fail(rc);
    /* RanPAC chooses its λ on the validation rows when there are some (with its own values) */
    double lam, lval;
    {
        static op_opts w;
        w = *o;
        for (int m = 0; m < o->n_methods; m++)
            if (!strncmp(o->methods[m], "ranpac", 6) && (o->methods[m][6] == '\0' || o->methods[m][6] == '+')) {
                w.params = g.params[g.of[m]];
                break;
            }
        rc = ranpac_lambda(&c, &w, g.n == 1 ? &cfg : &g.cfg[0], &lam, &lval);
    }
    if (rc) {
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
    en_results merged;
    memset(&merged, 0, sizeof merged);
    if (g.n == 1) rc = en_update(c.eng, &o->params, 1, &cli_cancel, pg_engine_cb, &unit);
    else rc = run_groups(&c, o, &g, o->params.ranpac_lambda, &unit, &merged);
    pg_clear(&pg);
    if (rc == GS_ECANCEL) { pl_free(&c); en_results_free(&merged); return cli_interrupted(); }
    if (rc) { pl_free(&c); en_results_free(&merged); return cli_fail(rc); }
    const en_results *r = g.n == 1 ? en_get_results(c.eng) : &merged;
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
    if (!rc && o->save_state && g.n == 1) rc = rp_save_state(o->save_state, c.eng, &c.prob, o);
    pl_free(&c);
    en_results_free(&merged);
    if (rc) return cli_fail(rc);
    return failed ? 1 : 0;
}
