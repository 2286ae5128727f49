/* bench_engine.c — interactive-engine latencies for `make bench` .
 *
 * Builds the same pipeline as the CLI (pl_open) with keep_task_grams = 1, as the TUI does, then
 * measures with wall-clock medians over repeated changes:
 *   build        first en_update (every task, both methods); first_task: until task 1 is reported
 *   tau_factor   en_prepare_tau of the last task, as the TUI's worker does after the results
 *                (a no-op below EN_TAU_FACTOR_MIN_D)
 *   tau_current  τ change: time until the user's task (first_task) is done, every method
 *   tau_all      τ change: every task
 *   gsr_alpha / gsr_xi / gsr_beta   one GSR parameter changed: the whole update
 *   rss          peak resident set size of this process (getrusage)
 * and first, the batch engine of `gsrscope run` (keep_task_grams = 0), split in two:
 *   batch_data     pl_open: synthetic data generation (or loading), stream, normalization
 *   batch_compute  en_update: Grams, GSR rows, solves, spectra, predictions, every task
 * (medians of REPS). batch_compute is the part comparable with the NumPy reference, which is
 * timed without loading its inputs (and reads GSR's rows instead of generating them).
 * Usage: bench_engine [REPS] [--batch-only | --interactive-only | --tau-only | --beta-only] -- [run options]
 *        (--tau-only: the interactive part without the GSR parameter changes; --beta-only: the
 *        interactive part with the β change alone, no τ changes: the learners without a ridge)
 *        (default: --synthetic)
 * Output: lines "bench: NAME VALUE UNIT". Exit status 0, or 1 with a message on stderr.
 */
#include "gs_common.h"
#include "gs_engine.h"
#include "gs_mtable.h"
#include "gs_opts.h"
#include "gs_pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

typedef struct { double t0, first, c0, first_cpu; const en_engine *eng; int task; } prog;

static double cpu_now(void);

/* first: when every method's results of the shown task are done (the first time) */
static void on_progress(double frac, const char *what, void *user)
{
    (void)frac; (void)what;
    prog *p = user;
    if (p->first >= 0) return;
    const en_results *r = en_get_results(p->eng);
    for (int m = 0; m < r->n_methods; m++)
        if (r->m[m].snaps[p->task - 1].state != EN_DONE) return;
    p->first = gs_now() - p->t0;
    p->first_cpu = cpu_now() - p->c0;
}

/* user + system CPU seconds of this process so far (every thread) */
static double cpu_now(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_sec +
           1e-6 * (double)u.ru_stime.tv_usec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int failed_snaps(const en_results *r)
{
    int bad = 0;
    for (int m = 0; m < r->n_methods; m++)
        for (int t = 0; t < r->T; t++) bad += r->m[m].snaps[t].state != EN_DONE;
    return bad;
}

/* One update with params q; returns the seconds for the whole update and for the first task
 * (wall; *first_cpu: CPU seconds of every thread until then, may be NULL). */
static int timed_update(pl_ctx *c, const op_params *q, int first_task, double *all, double *first, double *first_cpu)
{
    prog p = {gs_now(), -1, cpu_now(), -1, c->eng, first_task};
    int rc = en_update(c->eng, q, first_task, NULL, on_progress, &p);
    *all = gs_now() - p.t0;
    if (first) *first = p.first >= 0 ? p.first : *all;
    if (first_cpu) *first_cpu = p.first_cpu >= 0 ? p.first_cpu : cpu_now() - p.c0;
    if (rc) return rc;
    if (failed_snaps(en_get_results(c->eng)))
        return gs_error(GS_ERUN, "some task failed: %s", en_get_results(c->eng)->m[0].snaps[0].error);
    return GS_OK;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* each line as it is measured (a long run is followed live) */
    int reps = 5, k = 1;
    int do_batch = 1, do_inter = 1, do_knobs = 1, beta_only = 0;
    if (k < argc && strcmp(argv[k], "--") && strncmp(argv[k], "--", 2)) reps = atoi(argv[k++]);
    if (reps < 1) reps = 1;
    if (k < argc && !strcmp(argv[k], "--batch-only")) { do_inter = 0; k++; }
    else if (k < argc && !strcmp(argv[k], "--interactive-only")) { do_batch = 0; k++; }
    else if (k < argc && !strcmp(argv[k], "--tau-only")) { do_batch = 0; do_knobs = 0; k++; }
    else if (k < argc && !strcmp(argv[k], "--beta-only")) { do_batch = 0; beta_only = 1; k++; }
    if (k < argc && !strcmp(argv[k], "--")) k++;
    char *args[64];
    int na = 0;
    args[na++] = "gsrscope";
    args[na++] = "run";
    if (k >= argc) args[na++] = "--synthetic";
    for (; k < argc && na < 63; k++) args[na++] = argv[k];
    args[na] = NULL;
    op_opts o;
    int rc = op_parse(&o, na, args);
    if (rc) { fprintf(stderr, "bench_engine: %s\n", gs_last_error()); return 1; }
    en_config cfg = {0};
    cfg.methods = (const char **)o.methods;
    cfg.n_methods = o.n_methods;
    cfg.spectrum = o.spectrum;
    if ((rc = mt_resolve(&cfg))) { fprintf(stderr, "bench_engine: %s\n", gs_last_error()); return 1; }
    pl_ctx c;
    if (do_batch) {
        double *vd = malloc(sizeof(double) * (size_t)reps * 4), *vc = vd + reps, *ud = vd + 2 * reps, *uc = vd + 3 * reps;
        if (!vd) { fprintf(stderr, "bench_engine: out of memory\n"); return 1; }
        cfg.keep_task_grams = 0;
        for (int r = 0; r < reps; r++) {
            double a = gs_now(), ca = cpu_now();
            if ((rc = pl_open(&c, &o, &cfg, NULL, NULL))) { fprintf(stderr, "bench_engine: %s\n", gs_last_error()); return 1; }
            double b = gs_now(), cb = cpu_now();
            rc = en_update(c.eng, &o.params, c.prob.T, NULL, NULL, NULL);
            vd[r] = b - a;
            vc[r] = gs_now() - b;
            ud[r] = cb - ca;
            uc[r] = cpu_now() - cb;
            if (!rc && failed_snaps(en_get_results(c.eng))) rc = gs_error(GS_ERUN, "some task failed");
            pl_free(&c);
            if (rc) { fprintf(stderr, "bench_engine: %s\n", gs_last_error()); return 1; }
        }
        /* CPU seconds (both cores): how much of the two cores each phase keeps busy */
        double dw = median(vd, reps), cw = median(vc, reps), du = median(ud, reps), cu = median(uc, reps);
        printf("bench: batch_data %.3f s (cpu %.3f s, %.0f%% of 2 cores)\n", dw, du, 50 * du / dw);
        printf("bench: batch_compute %.3f s (cpu %.3f s, %.0f%% of 2 cores)\n", cw, cu, 50 * cu / cw);
        free(vd);
    }
    if (!do_inter) return 0;
    cfg.keep_task_grams = 1;
    double t0 = gs_now();
    if ((rc = pl_open(&c, &o, &cfg, NULL, NULL))) { fprintf(stderr, "bench_engine: %s\n", gs_last_error()); return 1; }
    double t_open = gs_now() - t0;
    int T = c.prob.T;
    op_params q = o.params;
    double all, first, first_cpu, c_open = cpu_now();
    /* as the TUI opens: task 1 shown */
    if ((rc = timed_update(&c, &q, 1, &all, &first, &first_cpu))) goto fail;
    printf("bench: interactive_open %.3f s (cpu %.3f s; per-task Gram matrices kept: %d of %d tasks)\n", t_open, c_open,
           en_task_slots(c.eng), T);
    printf("bench: interactive_first_task %.3f s (cpu %.3f s; after open: the first task's results, every method)\n",
           first, first_cpu);
    printf("bench: interactive_build %.3f s\n", all);
    /* as the TUI's worker does next: the shown task (here the last) reduced for fast τ changes */
    double f0 = gs_now(), fc0 = cpu_now();
    if ((rc = en_prepare_tau(c.eng, T, NULL))) goto fail;
    printf("bench: interactive_tau_factor %.3f s (cpu %.3f s; %s)\n", gs_now() - f0, cpu_now() - fc0,
           en_tau_factor_wanted(c.eng) ? "the shown task's tridiagonal form, in the background"
                                       : "none below EN_TAU_FACTOR_MIN_D");

    double *va = malloc(sizeof(double) * (size_t)reps), *vf = malloc(sizeof(double) * (size_t)reps),
           *vc = malloc(sizeof(double) * (size_t)reps);
    if (!va || !vf || !vc) { rc = GS_ENOMEM; goto fail; }
    /* τ: alternate between two values so each update really changes τ. */
    double tau0 = q.tau;
    for (int r = 0; r < reps && !beta_only; r++) {
        q.tau = r % 2 ? tau0 : tau0 * 2.0 + 1e-3;
        if ((rc = timed_update(&c, &q, T, &va[r], &vf[r], &vc[r]))) goto fail;
    }
    const en_results *rr = en_get_results(c.eng);
    int nfac = 0, nridge = 0;
    if (beta_only) goto knobs;
    for (int m = 0; m < rr->n_methods; m++)
        if (rr->m[m].ridge) { nridge++; nfac += (rr->m[m].snaps[T - 1].flags & EN_TAU_FACTOR) != 0; }
    printf("bench: tau_retune_current_task %.1f ms (cpu %.1f ms; %d of %d ridge methods from the tridiagonal form)\n",
           1000 * median(vf, reps), 1000 * median(vc, reps), nfac, nridge);
    printf("bench: tau_retune_all_tasks %.1f ms\n", 1000 * median(va, reps));
    q.tau = tau0;
    if ((rc = timed_update(&c, &q, T, &all, NULL, NULL))) goto fail;
knobs:;
    struct { const char *name; double *field; double a, b; } knobs[] = {
        {"gsr_recompute_alpha_base", &q.alpha_base, q.alpha_base, q.alpha_base * 0.8},
        {"gsr_recompute_xi", &q.xi, q.xi, q.xi * 2.0 + 1e-4},
        {"gsr_recompute_beta", &q.beta, q.beta, q.beta * 0.5 + 0.1},
    };
    int kreps = reps < 3 ? reps : 3;
    for (size_t i = beta_only ? 2 : 0; do_knobs && i < sizeof knobs / sizeof knobs[0]; i++) {
        for (int r = 0; r < kreps; r++) {
            *knobs[i].field = r % 2 ? knobs[i].a : knobs[i].b;
            if ((rc = timed_update(&c, &q, T, &va[r], &vf[r], &vc[r]))) goto fail;
        }
        printf("bench: %s %.3f s (the shown task, the last, %.3f s, cpu %.3f s)\n", knobs[i].name, median(va, kreps),
               median(vf, kreps), median(vc, kreps));
        *knobs[i].field = knobs[i].a;
        if ((rc = timed_update(&c, &q, T, &all, NULL, NULL))) goto fail;
    }
    free(va); free(vf); free(vc);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("bench: interactive_peak_rss %.1f MB\n", ru.ru_maxrss / 1024.0);
    pl_free(&c);
    return 0;
fail:
    fprintf(stderr, "bench_engine: %s\n", gs_last_error());
    pl_free(&c);
    return 1;
}
