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
static int export_compute(pl_ctx *c, const op_opts *o, const op_params *q, int task, pg_state *pg)
{
    unsigned shown = en_method_bit(0) | en_method_bit(1);
    char unit[48];
    snprintf(unit, sizeof unit, "seed %llu", (unsigned long long)q->seed);
    pg_unit pu = {pg, unit};
    pg_work(pg, unit, 0);
    int rc = en_update(c->eng, q, task, &cli_cancel, pg_engine_cb, &pu);
    if (!rc) rc = en_ensure_spectrum(c->eng, task, shown, &cli_cancel);
    /* frames: each shows the spectrum at its own task */
    if ((fig_needs(o->figure) & FIG_EVERY_SPECTRUM) || o->frames)
        for (int t = 1; !rc && t <= c->prob.T; t++) rc = en_ensure_spectrum(c->eng, t, shown, &cli_cancel);
    if (!rc) pg_done(pg, unit);
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
    int rc = cli_config_for(o, &cfg, 1);
    if (!rc) rc = pl_open(&c, o, &cfg, cli_warn, NULL);
    if (rc) return cli_fail(rc);
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
        if (s > 0 || seeds[0] != o->params.seed) rc = pl_reseed(&c, &w, &cfg);
        if (!rc) rc = export_compute(&c, o, &w.params, task, &pg);
        if (!rc && tau_fig) {
            const en_results *r = en_get_results(c.eng);
            int n = 0;
            rc = fig_tau_curves(c.eng, &c.prob, r, 0, r->n_methods > 1 ? 1 : -1, task, sweeps[s], &n);
            if (!rc && s > 0 && n != nsweep) rc = gs_error(GS_ERUN, "%s figure: seed %llu has other curves", o->figure, (unsigned long long)seeds[s]);
            nsweep = n;
            sweep_ptr[s] = sweeps[s];
        }
        if (!rc && !(runs[nruns] = calloc(1, sizeof *runs[nruns]))) rc = gs_error(GS_ENOMEM, "export: out of memory");
        if (!rc && (rc = en_results_copy(runs[nruns], en_get_results(c.eng)))) { free(runs[nruns]); runs[nruns] = NULL; }
        if (!rc) nruns++;
    }
    if (!rc && ns == 0) rc = export_compute(&c, o, &o->params, task, &pg);
    pg_clear(&pg);
    if (!rc) {
        const en_results *r = nruns ? runs[0] : en_get_results(c.eng);
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
        req.eng = c.eng; /* the figures that solve again from the Gram matrices */
        req.sweeps = sweeps ? sweep_ptr : NULL;
        req.nsweep = nsweep;
        rc = fig_export(&req, o->figure, o->output, o->data_csv);
    }
    /* As with `run`: tasks whose solve failed are drawn as gaps, said on stderr, exit 1. */
    int failed = rc ? 0 : cli_report_failed(en_get_results(c.eng));
    for (int k = 0; k < nruns; k++) {
        if (!rc && k + 1 < nruns) failed += cli_report_failed(runs[k]); /* the last: the engine's, above */
        en_results_free(runs[k]);
        free(runs[k]);
    }
    for (int k = 0; sweeps && k < ns; k++) { ts_free(&sweeps[k][0]); ts_free(&sweeps[k][1]); }
    free(sweeps);
    pl_free(&c);
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
