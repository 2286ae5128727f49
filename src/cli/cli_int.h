/* cli/cli_int.h — what the subcommands share (cli/cli.c); private to src/cli/. */
#ifndef CLI_INT_H
#define CLI_INT_H

#include "gs_cli.h"
#include "gs_engine.h"
#include "gs_mtable.h"
#include "gs_pipeline.h"

/* Seeds one --seeds list may give (sweep, tune, table). */
#define CLI_MAX_SEEDS 256

/* Set by SIGINT/SIGTERM while a command that polls it runs (run, export, tune). */
extern volatile int cli_cancel;

/* "gsrscope: interrupted" on stderr; returns 128 + the signal's number. */
int cli_interrupted(void);
/* The warning callback of pl_open: "gsrscope: warning: MSG" on stderr. */
void cli_warn(const char *msg, void *user);

/* The engine configuration of run (keep = 0) and export (keep = 1: every task's Grams). */
int cli_config_for(const op_opts *o, en_config *cfg, int keep);

/* RanPAC's λ on the validation rows (cli/ranpac_lambda.c), as run and table choose it: the first
 * ranpac method of o->methods (cli_ranpac_name; NULL: none) runs alone in an engine of its own
 * (base's settings) and λ is the point of the τ grid 1e-4 .. 1e5 (four a decade) with the highest
 * validation accuracy after the last task, the first of equals (ts_compute_fast: one
 * eigendecomposition serves every point). *lambda = 0 when nothing was chosen (no split, no
 * ranpac); *val its validation accuracy. GS_OK or an error. */
const char *cli_ranpac_name(const op_opts *o);
int cli_ranpac_lambda(const pl_ctx *c, const op_opts *o, const en_config *base, const volatile int *cancel,
                      double *lambda, double *val);

/* Each method's own parameters (cli/per_method.c): q[m] for each of o->methods, o->params with
 * the values --tuned FILE and --set METHOD.KEY=V give that method (gs_tuned.h). GS_OK, or
 * GS_EINPUT with one line naming the file and line (or --set): an unknown method, a key the
 * method does not use ("gacl.beta: gacl does not use beta"), a value out of range. Values for a
 * method the command does not run are ignored (said once on stderr when say). */
int cli_method_params(const op_opts *o, op_params *q, int say);

/* Print one line per method that failed at some task (the first failing task); returns the
 * number of such methods. Failed tasks are shown as gaps / empty fields, never as numbers. */
int cli_report_failed(const en_results *r);

/* The progress of run, table, sweep, tune and export (cli/progress.c, prefix pg_).
 * A command of several units of work (table: a method at a seed; sweep: a grid point at a seed;
 * tune: a method; export: a seed's run) says how far it is: on a terminal one line rewritten in
 * place (units done, the unit at work, the fraction of its tasks, the time left), otherwise one
 * line per finished unit (a log keeps them all), and nothing under --quiet. The time left is
 * estimated from the work itself (pg_estimate), not from the time since the start. */
#define PG_RUN 8         /* the work items (labels of pg_work) followed at once */
typedef struct {
    const char *cmd;     /* "table", "sweep", ... */
    int tty, quiet;
    long done, total;
    double t0, last;     /* start; last redraw of the terminal line */
    int shown;           /* a terminal line is on screen */
    struct { unsigned long long id; double t0, seen, frac; } run[PG_RUN]; /* items at work: label's hash,
                          * start, last report, fraction */
    int nrun, workers;   /* items at work; the most seen at once */
    double busy;         /* seconds the finished items took (their start to their end) */
    long busy_units;     /* units finished (each item's time counts for the units its end finished) */
} pg_state;

/* Seconds left from the work itself: each running item (age_i seconds at work, fraction frac_i
 * done) at its own rate, age·(1 − f)/f (below 2 %: the mean unit's (1 − f)·mean), the units not
 * started (total − done − nrun) at `mean` seconds a unit (the finished items' time over the units
 * they finished), all shared by `workers` at once; never less than the slowest running item's.
 * -1 when unknown (no unit finished, or none left). */
double pg_estimate(long done, long total, double mean, const double *age, const double *frac, int nrun, int workers);

/* Start: `total` units of `cmd`; stderr a terminal or not; quiet: say nothing. */
void pg_init(pg_state *p, const char *cmd, long total, int quiet);
/* The unit `what` at work, `frac` of it done (terminal only; at most ten redraws a second). */
void pg_work(pg_state *p, const char *what, double frac);
/* The unit `what` finished: the terminal line moves on, or one line "gsrscope: CMD k/N WHAT done
 * (S s; about T left)". */
void pg_done(pg_state *p, const char *what);
/* Clear the terminal line before other output on stderr (a warning, the end). */
void pg_clear(pg_state *p);
/* The engine's progress callback (en_progress_fn) for a pg_state whose unit name is `what`
 * (NULL: the engine's own words, e.g. the task at work): user points at a pg_unit. */
typedef struct {
    pg_state *p;
    const char *what;
} pg_unit;
void pg_engine_cb(double fraction, const char *what, void *user);

#endif
