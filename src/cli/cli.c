/* cli/cli.c — what every subcommand shares: the error ending, signals, the outputs hook, the
 * failed-task report (gs_cli.h, cli_int.h). */
#include "cli_int.h"
#include "gs_common.h"
#include "gs_figure.h"
#include "gs_io.h"
#include "gs_stop.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

volatile int cli_cancel;
static int g_failed;                   /* cli_fail was called: the command's outputs are dropped */

/* How long a command has to end by itself after SIGINT/SIGTERM before gs_stop.h's watchdog ends
 * it: the engine and the loaders poll cli_cancel far more often; a BLAS call or a library that
 * does not poll is what the watchdog is for. */
#define CLI_STOP_GRACE_MS 800

int cli_interrupted(void)
{
    if (sg_say()) fprintf(stderr, "gsrscope: interrupted\n");
    return 128 + (sg_signal() ? sg_signal() : SIGINT);
}

int cli_fail(int rc)
{
    g_failed = 1;
    const char *m = gs_last_error();
    fprintf(stderr, "gsrscope: %s\n", m[0] ? m : "failed");
    return gs_exit_code(rc);
}

void cli_warn(const char *msg, void *user)
{
    (void)user;
    char esc[2048];
    fprintf(stderr, "gsrscope: warning: %s\n", gs_escape_controls(msg, esc, sizeof esc));
}

int cli_config_for(const op_opts *o, en_config *cfg, int keep)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->methods = (const char **)o->methods;
    cfg->n_methods = o->n_methods;
    cfg->spectrum = o->spectrum;
    cfg->keep_task_grams = keep;
    /* the augmenter's rows: saved by --save-state, read by --theorem and a figure that needs them
     * (FIG_AUG_ROWS: the claims' spread and mass) */
    cfg->collect_aug = o->save_state != NULL || o->theorem || (fig_needs(o->figure) & FIG_AUG_ROWS);
    return mt_resolve(cfg); /* the names reach the engine resolved */
}

int cli_report_failed(const en_results *r)
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

/* The files and folders the command will write, checked writable before it starts (each option
 * is set only by the commands that accept it). */
static int check_outputs(const op_opts *o)
{
    int rc = GS_OK;
    if (o->save_state) rc = io_check_output("--save-state", o->save_state, 1);
    if (!rc && o->output && o->figure) {
        /* a bad figure name or format is export's own refusal, said first */
        if (fig_check_output(o->figure, o->output) == GS_OK) rc = io_check_output("-o", o->output, 0);
        else gs_clear_error();
    }
    if (!rc && o->data_csv) rc = io_check_output("--csv", o->data_csv, 0);
    if (!rc && o->out_dir) rc = io_check_output("--out", o->out_dir, 1);
    return rc;
}

int cli_call(cli_fn fn, op_opts *o, unsigned flags)
{
    /* sweep and table poll no cancel flag and write only stdout at the end: they stop at once;
     * the others within CLI_STOP_GRACE_MS (exit 130/143, none of their outputs left) */
    sg_install(&cli_cancel, flags & CLI_STOP_AT_ONCE ? 0 : CLI_STOP_GRACE_MS);
    /* Every output path is checked before any work, and the command's files are written under
     * temporary names and renamed together at its end: a failure leaves none of them. */
    int rc = check_outputs(o);
    if (rc) return cli_fail(rc);
    io_set_begin();
    rc = fn(o);
    /* a command that finished although a signal came (it did not poll in time) keeps nothing */
    if (sg_signal() && rc < 128) rc = cli_interrupted();
    int keep = !g_failed && !io_set_failed() && rc < 128;
    if (io_set_end(keep) != GS_OK) return cli_fail(GS_ERUN);
    return rc;
}
