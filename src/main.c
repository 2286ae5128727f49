/* main.c — command dispatch: TUI, run, export, sweep, synth, table. The only place that prints
 * errors for the headless commands ("gsrscope: message", exit 0/1/2). */
#include "gs_common.h"
#include "gs_engine.h"
#include "gs_figure.h"
#include "gs_io.h"
#include "gs_npy.h"
#include "gs_opts.h"
#include "gs_pipeline.h"
#include "gs_preset.h"
#include "gs_report.h"
#include "gs_session.h"
#include "gs_spectral.h"
#include "gs_sweep.h"
#include "gs_synth.h"
#include "gs_table.h"
#include "gs_tui.h"
#include "gs_tune.h"

#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int g_cancel;
static volatile sig_atomic_t g_signal; /* SIGINT or SIGTERM received: exit status 128 + it */
static void on_signal(int sig) { g_signal = sig; g_cancel = 1; }
/* sweep and table poll no cancel flag and write only stdout at the end: stop at once
 * (async-signal-safe). */
static void on_signal_exit(int sig)
{
    static const char msg[] = "gsrscope: interrupted\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(128 + sig);
}
static int interrupted(void)
{
    fprintf(stderr, "gsrscope: interrupted\n");
    return 128 + (g_signal ? (int)g_signal : SIGINT);
}

static int g_failed; /* fail() was called: the command's outputs are dropped (io_set_end) */

static int fail(int rc)
{
    g_failed = 1;
    const char *m = gs_last_error();
    fprintf(stderr, "gsrscope: %s\n", m[0] ? m : "failed");
    return gs_exit_code(rc);
}

static void warn_cb(const char *msg, void *user)
{
    (void)user;
    fprintf(stderr, "gsrscope: warning: %s\n", msg);
}

typedef struct { int tty; double last; } progress_state;

static void progress_cb(double frac, const char *what, void *user)
{
    progress_state *ps = user;
    if (!ps->tty) return;
    double now = gs_now();
    if (now - ps->last < 0.1 && frac < 1) return;
    ps->last = now;
    fprintf(stderr, "\r%3.0f%% %-16s", 100 * frac, what);
    if (frac >= 1) fputs("\r                        \r", stderr);
}

static void config_for(const op_opts *o, en_config *cfg, int keep)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->methods = (const char **)o->methods;
    cfg->n_methods = o->n_methods;
    cfg->spectrum = o->spectrum;
    cfg->keep_task_grams = keep;
    /* the augmenter's rows: saved by --save-state, read by --theorem and the claims figure (spread, mass) */
    cfg->collect_aug = o->save_state != NULL || o->theorem || (o->figure && !strcmp(o->figure, "claims"));
}

/* Print one line per method that failed at some task (the first failing task); returns the
 * number of such methods. Failed tasks are shown as gaps / empty fields, never as numbers. */
static int report_failed(const en_results *r)
{
    int failed = 0;
    for (int m = 0; m < r->n_methods; m++)
        for (int t = 0; t < r->T; t++)
            if (r->m[m].snaps[t].state == EN_FAILED) {
                fprintf(stderr, "gsrscope: %s\n", r->m[m].snaps[t].error);
                failed++;
                break;
            }
    return failed;
}

static int cmd_run(op_opts *o)
{
    pl_ctx c;
    en_config cfg;
    config_for(o, &cfg, 0);
    int rc = pl_open(&c, o, &cfg, warn_cb, NULL);
    if (rc) return fail(rc);
    /* RanPAC chooses its λ on the validation rows when there are some */
    double lam, lval;
    if ((rc = tn_ranpac_lambda(&c, o, &cfg, &g_cancel, &lam, &lval))) {
        pl_free(&c);
        return rc == GS_ECANCEL ? interrupted() : fail(rc);
    }
    if (lam > 0) {
        o->params.ranpac_lambda = lam;
        if (!o->quiet)
            fprintf(stderr, "gsrscope: ranpac: λ = %g chosen on the validation rows (validation accuracy %.2f %%)\n", lam, lval);
    }
    progress_state ps = {isatty(2) && !o->quiet, 0};
    rc = en_update(c.eng, &o->params, 1, &g_cancel, progress_cb, &ps);
    if (rc == GS_ECANCEL) { pl_free(&c); return interrupted(); }
    if (rc) { pl_free(&c); return fail(rc); }
    const en_results *r = en_get_results(c.eng);
    int failed = report_failed(r);
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
    if (rc) return fail(rc);
    return failed ? 1 : 0;
}

#define EXPORT_MAX_SEEDS 64

/* One run of export: the update to `task`, the exact spectrum there and, for the erank-cond
 * figure, at every task (the effective rank needs it); of the two methods the figure shows (the
 * first two of --methods: req.m0, req.m1 in cmd_export) only. */
static int export_compute(pl_ctx *c, const op_opts *o, const op_params *q, int task)
{
    unsigned shown = en_method_bit(0) | en_method_bit(1);
    int rc = en_update(c->eng, q, task, &g_cancel, NULL, NULL);
    if (!rc) rc = en_ensure_spectrum(c->eng, task, shown, &g_cancel);
    /* frames: each shows the spectrum at its own task */
    if (o->figure && (!strcmp(o->figure, "erank-cond") || o->frames))
        for (int t = 1; !rc && t <= c->prob.T; t++) rc = en_ensure_spectrum(c->eng, t, shown, &g_cancel);
    return rc;
}

static int cmd_export(op_opts *o)
{
    /* Refuse an unknown figure, extension or target folder before computing anything. */
    int rc0 = fig_check_output(o->figure, o->output);
    if (rc0) return fail(rc0);
    /* --seeds: one run per seed (the data loaded once); the figure draws their mean with a ± std
     * band. What a figure reads of a run (spectra, τ curves) is computed while its engine lives. */
    uint64_t seeds[EXPORT_MAX_SEEDS];
    en_results *runs[EXPORT_MAX_SEEDS];
    ts_curve (*sweeps)[2] = NULL;
    const ts_curve *sweep_ptr[EXPORT_MAX_SEEDS];
    int ns = 0, nruns = 0, nsweep = 0, tau_fig = !strcmp(o->figure, "tau-sweep");
    if (o->seeds && o->frames && tau_fig)
        return fail(gs_error(GS_EINPUT, "--frames with --seeds: the tau-sweep figure's mean over seeds is at one task; "
                                        "drop --seeds or --frames"));
    if (o->seeds) {
        rc0 = op_parse_seeds(o->seeds, seeds, EXPORT_MAX_SEEDS, &ns);
        if (!rc0 && !fig_seeds_supported(o->figure))
            rc0 = gs_error(GS_EINPUT, "--seeds: export draws the mean over seeds on the figures %s only, not %s",
                           fig_seeds_list(), o->figure);
        if (!rc0 && tau_fig && !(sweeps = gs_calloc((size_t)ns, sizeof *sweeps, "export"))) rc0 = GS_ENOMEM;
        if (rc0) return fail(rc0);
    }
    pl_ctx c;
    en_config cfg;
    config_for(o, &cfg, 1);
    int rc = pl_open(&c, o, &cfg, warn_cb, NULL);
    if (rc) return fail(rc);
    int task = o->task ? o->task : c.prob.T;
    if (task > c.prob.T) {
        rc = gs_error(GS_EINPUT, "--task: %d is past the last task: this run has %d tasks (give 1 to %d)", task,
                      c.prob.T, c.prob.T);
        pl_free(&c);
        return fail(rc);
    }
    for (int s = 0; !rc && s < ns; s++) {
        op_opts w = *o;
        w.params.seed = seeds[s];
        if (s > 0 || seeds[0] != o->params.seed) rc = pl_reseed(&c, &w, &cfg);
        if (!rc) rc = export_compute(&c, o, &w.params, task);
        if (!rc && tau_fig) {
            const en_results *r = en_get_results(c.eng);
            int n = 0;
            rc = fig_tau_curves(c.eng, &c.prob, r, 0, r->n_methods > 1 ? 1 : -1, task, sweeps[s], &n);
            if (!rc && s > 0 && n != nsweep) rc = gs_error(GS_ERUN, "tau-sweep figure: seed %llu has other curves", (unsigned long long)seeds[s]);
            nsweep = n;
            sweep_ptr[s] = sweeps[s];
        }
        if (!rc && !(runs[nruns] = calloc(1, sizeof *runs[nruns]))) rc = gs_error(GS_ENOMEM, "export: out of memory");
        if (!rc && (rc = en_results_copy(runs[nruns], en_get_results(c.eng)))) { free(runs[nruns]); runs[nruns] = NULL; }
        if (!rc) nruns++;
    }
    if (!rc && ns == 0) rc = export_compute(&c, o, &o->params, task);
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
        req.eng = c.eng; /* the tau-sweep figure solves again from the Gram matrices */
        req.sweeps = sweeps ? sweep_ptr : NULL;
        req.nsweep = nsweep;
        rc = fig_export(&req, o->figure, o->output, o->data_csv);
    }
    /* As with `run`: tasks whose solve failed are drawn as gaps, said on stderr, exit 1. */
    int failed = rc ? 0 : report_failed(en_get_results(c.eng));
    for (int k = 0; k < nruns; k++) {
        if (!rc && k + 1 < nruns) failed += report_failed(runs[k]); /* the last: the engine's, above */
        en_results_free(runs[k]);
        free(runs[k]);
    }
    for (int k = 0; sweeps && k < ns; k++) { ts_free(&sweeps[k][0]); ts_free(&sweeps[k][1]); }
    free(sweeps);
    pl_free(&c);
    if (rc == GS_ECANCEL) return interrupted();
    if (rc) return fail(rc);
    if (!o->quiet) fprintf(stderr, "gsrscope: wrote %s%s%s\n", o->output,
                           o->frames ? " (one frame per task; .png, .svg and --csv numbered FILE-01, ...)" : "",
                           failed ? " (with gaps where tasks failed)" : "");
    return failed ? 1 : 0;
}

static int cmd_synth(op_opts *o)
{
    syn_config sc;
    syn_defaults(&sc);
    ds_data d;
    int rc = syn_generate(&sc, SYN_DATA_SEED, &d);
    if (rc) return fail(rc);
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
    if (rc) return fail(rc);
    if (!o->quiet) fprintf(stderr, "gsrscope: wrote the synthetic set to %s\n", o->out_dir);
    return 0;
}

/* The session's strings (paths, method names) live as long as the process. */
static ss_store g_session_store;

/* Between the defaults and the command line: --preset, then --session. */
static int apply_layers(op_opts *o, void *user)
{
    (void)user;
    int rc = GS_OK;
    if (o->preset) rc = ps_apply_name(o->preset, o);
    if (!rc && o->session) rc = ss_load(o->session, o, &g_session_store);
    return rc;
}

/* The files and folders the command will write, checked writable before it starts. */
static int check_outputs(const op_opts *o)
{
    int rc = GS_OK;
    if (o->cmd == OP_CMD_RUN && o->save_state) rc = io_check_output("--save-state", o->save_state, 1);
    if (!rc && o->cmd == OP_CMD_EXPORT && o->output && o->figure) {
        /* a bad figure name or format is export's own refusal, said first */
        if (fig_check_output(o->figure, o->output) == GS_OK) rc = io_check_output("-o", o->output, 0);
        else gs_clear_error();
    }
    if (!rc && o->cmd == OP_CMD_EXPORT && o->data_csv) rc = io_check_output("--csv", o->data_csv, 0);
    if (!rc && o->cmd == OP_CMD_SYNTH && o->out_dir) rc = io_check_output("--out", o->out_dir, 1);
    return rc;
}

int main(int argc, char **argv)
{
    /* Numbers are always read and written with '.'; only the character type follows the user. */
    setlocale(LC_CTYPE, "");
    static op_opts o;
    int rc = op_parse_layered(&o, argc, argv, apply_layers, NULL);
    if (rc) return fail(rc);
    if (o.help) { fputs(op_usage(), stdout); return 0; }
    if (o.version) { printf("gsrscope %s\n", GS_VERSION); return 0; }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = o.cmd == OP_CMD_SWEEP || o.cmd == OP_CMD_TABLE ? on_signal_exit : on_signal;
    sigemptyset(&sa.sa_mask);
    if (o.cmd != OP_CMD_TUI) { sigaction(SIGINT, &sa, NULL); sigaction(SIGTERM, &sa, NULL); }
    if (o.cmd == OP_CMD_TUI) return tui_main(&o);
    /* Every output path is checked before any work, and the command's files are written under
     * temporary names and renamed together at its end: a failure leaves none of them. */
    if ((rc = check_outputs(&o))) return fail(rc);
    io_set_begin();
    switch (o.cmd) {
    case OP_CMD_RUN: rc = cmd_run(&o); break;
    case OP_CMD_EXPORT: rc = cmd_export(&o); break;
    case OP_CMD_SYNTH: rc = cmd_synth(&o); break;
    case OP_CMD_SWEEP: rc = sw_main(&o); break;
    case OP_CMD_TUNE: rc = tn_main(&o); break;
    case OP_CMD_TABLE: rc = tb_main(&o); break;
    default: rc = 2; break;
    }
    int keep = !g_failed && !io_set_failed() && rc < 128;
    if (io_set_end(keep) != GS_OK) return fail(GS_ERUN);
    return rc;
}
