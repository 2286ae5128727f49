/* cli/cli.c — what every subcommand shares: the error ending, signals, the outputs hook, the
 * failed-task report (gs_cli.h, cli_int.h). */
#include "cli_int.h"
#include "gs_common.h"
#include "gs_figure.h"
#include "gs_io.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

volatile int cli_cancel;
static volatile sig_atomic_t g_signal; /* SIGINT or SIGTERM received: exit status 128 + it */
static int g_failed;                   /* cli_fail was called: the command's outputs are dropped */

static void on_signal(int sig) { g_signal = sig; cli_cancel = 1; }

/* sweep and table poll no cancel flag and write only stdout at the end: stop at once
 * (async-signal-safe). */
static void on_signal_exit(int sig)
{
    static const char msg[] = "gsrscope: interrupted\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(128 + sig);
}

int cli_interrupted(void)
{
    fprintf(stderr, "gsrscope: interrupted\n");
    return 128 + (g_signal ? (int)g_signal : SIGINT);
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
    fprintf(stderr, "gsrscope: warning: %s\n", msg);
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
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = flags & CLI_STOP_AT_ONCE ? on_signal_exit : on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* Every output path is checked before any work, and the command's files are written under
     * temporary names and renamed together at its end: a failure leaves none of them. */
    int rc = check_outputs(o);
    if (rc) return cli_fail(rc);
    io_set_begin();
    rc = fn(o);
    int keep = !g_failed && !io_set_failed() && rc < 128;
    if (io_set_end(keep) != GS_OK) return cli_fail(GS_ERUN);
    return rc;
}
