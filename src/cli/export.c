/* cli/export.c — `gsrscope export`: one figure, over seeds, or one frame per task (--frames)
 * (gs_cli.h; the figures themselves: gs_figure.h). */
#include "cli_int.h"
#include "gs_common.h"
#include "gs_figure.h"
#include "gs_pipeline.h"
#include "gs_tausweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define EXPORT_MAX_SEEDS 64

/* One run of export: the update to `task`, the exact spectrum there and, for a figure that needs
 * it (FIG_EVERY_SPECTRUM: the effective rank) or frames, at every task; of the two methods the
 * figure shows (the first two of --methods: req.m0, req.m1 in cli_export) only; a unit of the
 * progress pg. */
static int export_compute(pl_ctx *c, const op_opts *o, const op_params *q, int task, pg_state *pg, unsigned shown,
                          int last)
{
    char unit[48];
    snprintf(unit, sizeof unit, "seed %llu", (unsigned long long)q->seed);
    pg_unit pu = {pg, unit};
    pg_work(pg, unit, 0);
    int rc = en_update(c->eng, q, task, &cli_cancel, pg_engine_cb, &pu);
    if (!rc) rc = en_ensure_spectrum(c->eng, task, shown, &cli_cancel);
    /* frames: each shows the spectrum at its own task */
    if ((fig_needs(o->figure) & FIG_EVERY_SPECTRUM) || o->frames)
        for (int t = 1; !rc && t <= c->prob.T; t++) rc = en_ensure_spectrum(c->eng, t, shown, &cli_cancel);
    if (!rc && last) pg_done(pg, unit);
    return rc;
}

/* The run at w's seed: one engine (g->n == 1: c->eng's results), or one per group of methods of
 * their own values (--tuned, --set; gs_pipeline.h), the last of group 0 (it stays in c->eng), their
 * results merged in method order into *merged. GS_OK or an error. */
static int compute_all(pl_ctx *c, const op_opts *o, const op_opts *w, const pl_groups *g, int task, pg_state *pg,
                       en_results *merged)
{
    if (g->n == 1) return export_compute(c, o, &w->params, task, pg, en_method_bit(0) | en_method_bit(1), 1);
    en_results parts[OP_MAX_METHODS];
    const en_results *pp[OP_MAX_METHODS];
    int rc = GS_OK, made[OP_MAX_METHODS] = {0};
    for (int k = g->n - 1; k >= 0 && !rc; k--) {
        op_params q = g->params[k];
        q.seed = w->params.seed;
        unsigned shown = 0; /* the figure's two methods, where in this group */
        for (int m = 0; m < 2 && m < o->n_methods; m++) if (g->of[m] == k) shown |= en_method_bit(g->at[m]);
        if (!(rc = pl_engine(c, w, &g->cfg[k])) && !(rc = export_compute(c, o, &q, task, pg, shown, k == 0)) &&
            !(rc = en_results_copy(&parts[k], en_get_results(c->eng))))
            pp[k] = &parts[k], made[k] = 1;
    }
    if (!rc) rc = pl_results_merge(g, pp, merged);
    for (int k = 0; k < g->n; k++) if (made[k]) en_results_free(&parts[k]);
    return rc;
}

int cli_export(op_opts *o)
{
    /* Refuse an unknown figure, extension or target folder before computing anything. */
    int rc0 = fig_check_output(o->figure, o->output);
    if (rc0) return cli_fail(rc0);
    /* --seeds: one run per seed (the data loaded once); the figure draws their mean with a ± std
     * band. What a figure reads of a run (spectra, τ curves) is computed while its engine lives. */
    uint64_t seeds[EXPORT_MAX_SEEDS];
    en_results *runs[EXPORT_MAX_SEEDS];
    ts_curve (*sweeps)[2] = NULL;
    const ts_curve *sweep_ptr[EXPORT_MAX_SEEDS];
    int ns = 0, nruns = 0, nsweep = 0, tau_fig = (fig_needs(o->figure) & FIG_TAU_CURVES) != 0;
    if (o->seeds && o->frames && tau_fig)
        return cli_fail(gs_error(GS_EINPUT, "--frames with --seeds: the %s figure's mean over seeds is at one task; "
                                        "drop --seeds or --frames", o->figure));
    if (o->seeds) {
        rc0 = op_parse_seeds(o->seeds, seeds, EXPORT_MAX_SEEDS, &ns);
        if (!rc0 && !fig_seeds_supported(o->figure))
            rc0 = gs_error(GS_EINPUT, "--seeds: export draws the mean over seeds on the figures %s only, not %s",
                           fig_seeds_list(), o->figure);
        if (!rc0 && tau_fig && !(sweeps = gs_calloc((size_t)ns, sizeof *sweeps, "export"))) rc0 = GS_ENOMEM;
        if (rc0) return cli_fail(rc0);
    }
    pl_ctx c;
    en_config cfg;
    op_params q[OP_MAX_METHODS];
    static pl_groups g; /* large; one export per process */
    int rc = cli_config_for(o, &cfg, 1);
    if (!rc) rc = cli_method_params(o, q, 0);
    if (!rc) pl_group(&g, &cfg, &o->params, q);
    if (!rc && g.n == 1) o->params = g.params[0]; /* one engine: its values are every method's */
    else if (!rc) o->method_params = q;
    /* the figures that read the engine compare the two methods shown in one engine */
    int split = g.n > 1 && o->n_methods > 1 && g.of[1] != 0;
    if (!rc && split && tau_fig)
        rc = gs_error(GS_EINPUT, "--figure %s: solves %s and %s again in one engine, but --tuned/--set give them different values",
                      o->figure, o->methods[0], o->methods[1]);
    if (!rc) rc = pl_open(&c, o, g.n == 1 ? &cfg : &g.cfg[0], cli_warn, NULL);
    if (rc) return cli_fail(rc);
    en_results cur; /* the merged results of a seed (several groups) */
    memset(&cur, 0, sizeof cur);
    int task = o->task ? o->task : c.prob.T;
    if (task > c.prob.T) {
        rc = gs_error(GS_EINPUT, "--task: %d is past the last task: this run has %d tasks (give 1 to %d)", task,
                      c.prob.T, c.prob.T);
        pl_free(&c);
        return cli_fail(rc);
    }
    pg_state pg; /* a unit: a seed's run (the figure is drawn after the last) */
    pg_init(&pg, "export", ns ? ns : 1, o->quiet);
    for (int s = 0; !rc && s < ns; s++) {
        op_opts w = *o;
        w.params.seed = seeds[s];
        if (s > 0 || seeds[0] != o->params.seed) rc = pl_reseed(&c, &w, g.n == 1 ? &cfg : &g.cfg[0]);
        en_results_free(&cur);
        if (!rc) rc = compute_all(&c, o, &w, &g, task, &pg, &cur);
        if (!rc && tau_fig) {
            const en_results *r = en_get_results(c.eng);
            int n = 0;
            rc = fig_tau_curves(c.eng, &c.prob, r, 0, r->n_methods > 1 ? 1 : -1, task, sweeps[s], &n);
            if (!rc && s > 0 && n != nsweep) rc = gs_error(GS_ERUN, "%s figure: seed %llu has other curves", o->figure, (unsigned long long)seeds[s]);
            nsweep = n;
            sweep_ptr[s] = sweeps[s];
        }
        if (!rc && !(runs[nruns] = calloc(1, sizeof *runs[nruns]))) rc = gs_error(GS_ENOMEM, "export: out of memory");
        if (!rc && (rc = en_results_copy(runs[nruns], g.n > 1 ? &cur : en_get_results(c.eng)))) { free(runs[nruns]); runs[nruns] = NULL; }
        if (!rc) nruns++;
    }
    if (!rc && ns == 0) rc = compute_all(&c, o, o, &g, task, &pg, &cur);
    pg_clear(&pg);
    const en_results *last = g.n > 1 ? &cur : c.eng ? en_get_results(c.eng) : NULL;
    if (!rc) {
        const en_results *r = nruns ? runs[0] : last;
        fig_request req = {0};
        req.r = r;
        req.runs = (const en_results *const *)runs;
        req.nruns = nruns;
        req.prob = &c.prob;
        req.opts = o;
        req.m0 = 0;
        req.m1 = r->n_methods > 1 ? 1 : -1;
        req.task = task;
        req.dpi = o->dpi; /* 0: the format's default (PNG 300, GIF 100) */
        req.width_in = o->size == OP_SIZE_COLUMN ? 3.5 : o->size == OP_SIZE_PAGE ? 7.0 : o->width_in;
        req.slide = o->size == OP_SIZE_SLIDE;
        req.font_scale = o->font_scale;
        req.frames = o->frames;
        req.future = o->future;
        req.frame_ms = o->frame_ms;
        req.eng = split ? NULL : c.eng; /* the figures that solve again from the Gram matrices (group 0's
                                         * engine holds the two shown methods first, as one engine would) */
        req.sweeps = sweeps ? sweep_ptr : NULL;
        req.nsweep = nsweep;
        rc = fig_export(&req, o->figure, o->output, o->data_csv);
        if (rc && split && rc != GS_ECANCEL) {
            char why[512];
            snprintf(why, sizeof why, "%s", gs_last_error());
            rc = gs_error(rc, "%s (--tuned/--set give %s and %s different values: they ran in different engines)", why,
                          o->methods[0], o->methods[1]);
        }
    }
    /* As with `run`: tasks whose solve failed are drawn as gaps, said on stderr, exit 1. */
    int failed = rc ? 0 : cli_report_failed(last);
    for (int k = 0; k < nruns; k++) {
        if (!rc && k + 1 < nruns) failed += cli_report_failed(runs[k]); /* the last: the engine's, above */
        en_results_free(runs[k]);
        free(runs[k]);
    }
    for (int k = 0; sweeps && k < ns; k++) { ts_free(&sweeps[k][0]); ts_free(&sweeps[k][1]); }
    free(sweeps);
    pl_free(&c);
    en_results_free(&cur);
    if (rc == GS_ECANCEL) return cli_interrupted();
    if (rc) return cli_fail(rc);
    if (!o->quiet) {
        /* what was written: a PDF holds the frames as pages and a GIF as frames; .png and .svg
         * are one numbered file per frame (FILE-01.png, ...), and so is --csv */
        const char *dot = strrchr(o->output, '.');
        int one = !o->frames || (dot && (strcasecmp(dot, ".pdf") == 0 || strcasecmp(dot, ".gif") == 0));
        const char *what = !o->frames ? "" : one && strcasecmp(dot, ".pdf") == 0 ? " (one page per task)"
                                           : one ? " (one frame per task)" : "";
        if (one) fprintf(stderr, "gsrscope: wrote %s%s", o->output, what);
        else fprintf(stderr, "gsrscope: wrote one file per task, numbered %.*s-01%s, ...", (int)(dot ? dot - o->output : (long)strlen(o->output)),
                     o->output, dot ? dot : "");
        fprintf(stderr, "%s%s\n", o->frames && o->data_csv ? "; --csv numbered alike" : "",
                failed ? " (with gaps where tasks failed)" : "");
    }
    return failed ? 1 : 0;
}
