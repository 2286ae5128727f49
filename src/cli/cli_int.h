/* cli/cli_int.h — what the subcommands share (cli/cli.c); private to src/cli/. */
#ifndef CLI_INT_H
#define CLI_INT_H

#include "gs_cli.h"
#include "gs_engine.h"

/* Seeds one --seeds list may give (sweep, tune, table). */
#define CLI_MAX_SEEDS 256

/* Set by SIGINT/SIGTERM while a command that polls it runs (run, export, tune). */
extern volatile int cli_cancel;

/* "gsrscope: interrupted" on stderr; returns 128 + the signal's number. */
int cli_interrupted(void);
/* The warning callback of pl_open: "gsrscope: warning: MSG" on stderr. */
void cli_warn(const char *msg, void *user);

/* The progress line on stderr when it is a terminal (run). */
typedef struct { int tty; double last; } cli_progress_state;
void cli_progress(double frac, const char *what, void *user);

/* The engine configuration of run (keep = 0) and export (keep = 1: every task's Grams). */
void cli_config_for(const op_opts *o, en_config *cfg, int keep);

/* Print one line per method that failed at some task (the first failing task); returns the
 * number of such methods. Failed tasks are shown as gaps / empty fields, never as numbers. */
int cli_report_failed(const en_results *r);

#endif
