/* test_memory.c — the memory estimate a run is checked against before it allocates (pl_need, i.e.
 * en_estimate_bytes) held to what the kernel measures: each configuration's estimate, then the
 * same `gsrscope run` as a child process and its peak resident set (ru_maxrss from wait4). The
 * estimate must lie within [LO, HI] of the peak: never below it, and not far above. The configurations are cheap (seconds each) and
 * cover each part of the estimate: ridge in the primal (the synthetic set), an augmenter's
 * buffers, stats learners (slda's scatter, ncm, klda at a given --klda-dim), a ridge method whose
 * every task is in the dual (the bundled sample with --expand above its row count, single and
 * double precision, with class weights: air), and one that switches from the dual to the primal
 * (--expand 1500 on the synthetic set), with ranpac's own space beside the run's; AnaCP in both
 * forms of its heads; and the TUI's engine
 * (keep_task_grams: check_interactive) keeping every task's Grams or two tasks' (bounded). Not a timing:
 * the peak is a count of pages. */
#include "gs_common.h"
#include "gs_mtable.h"
#include "gs_engine.h"
#include "gs_opts.h"
#include "gs_pipeline.h"
#include "support/tap.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define LO 1.00 /* an upper bound: what --max-memory and table's schedule rely on */
#define HI 1.30
#define MAXARG 24
/* The interactive engine's estimate counts what a task factored in double (EN_FALLBACK) would
 * add, for the dual's rows and for the primal, and every task's slot, touched or not (the dual's
 * tasks leave theirs untouched): above the peak of a run where no task falls back. */
#define HI_INTERACTIVE 1.5

/* The estimate of `run ARGS` as main makes it (batch: no task Grams kept). */
static double estimate(int argc, char **argv)
{
    op_opts o;
    if (op_parse(&o, argc, argv) != GS_OK) { CHECK(0, "options: %s", gs_last_error()); return -1; }
    en_config cfg = {0}, none;
    cfg.methods = (const char **)o.methods;
    cfg.n_methods = o.n_methods; mt_resolve(&cfg);
    cfg.spectrum = o.spectrum;
    none = cfg;
    none.n_methods = 0; /* the data and stream only: no engine allocated here */
    pl_ctx c;
    if (pl_open(&c, &o, &none, NULL, NULL) != GS_OK) { CHECK(0, "pl_open: %s", gs_last_error()); return -1; }
    double b = pl_need(&c, &o, &cfg);
    pl_free(&c);
    return b;
}

/* Peak resident bytes of `gsrscope run ARGS --quiet` (one OpenBLAS thread, as the estimate's
 * process part assumes), or -1. */
static double peak(const char *bin, int argc, char **argv)
{
    char *args[MAXARG + 2];
    args[0] = (char *)bin;
    for (int i = 1; i < argc; i++) args[i] = argv[i];
    args[argc] = "--quiet";
    args[argc + 1] = NULL;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) { dup2(fd, 1); dup2(fd, 2); }
        setenv("OPENBLAS_NUM_THREADS", "1", 1);
        execv(bin, args);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return (double)ru.ru_maxrss * 1024.0;
}

/* argv of `gsrscope run LINE` in buf (words split at spaces); returns argc. op_parse splits a
 * --methods list in place (its commas become NULs), so each parse gets its own copy: with one
 * copy, the child parsed after it would see only the first method. */
static int split_run(const char *line, char *buf, size_t n, char **argv)
{
    int argc = 0;
    snprintf(buf, n, "gsrscope run %s", line);
    for (char *s = strtok(buf, " "); s && argc < MAXARG - 2; s = strtok(NULL, " ")) argv[argc++] = s;
    argv[argc] = NULL;
    return argc;
}

static void check(const char *bin, const char *line)
{
    char buf[512], buf2[512], *argv[MAXARG], *argv2[MAXARG];
    int argc = split_run(line, buf, sizeof buf, argv);
    split_run(line, buf2, sizeof buf2, argv2);
    double est = estimate(argc, argv2), got = peak(bin, argc, argv);
    printf("# run %s: estimate %.0f MiB, peak %.0f MiB, ratio %.3f\n", line, est / 1048576, got / 1048576,
           got > 0 ? est / got : 0.0);
    CHECK(est > 0 && got > 0 && est >= LO * got && est <= HI * got,
          "run %s: estimate %.0f MiB, measured peak %.0f MiB (ratio %.3f, band [%.2f, %.2f])", line, est / 1048576,
          got / 1048576, got > 0 ? est / got : 0.0, LO, HI);
}

/* The TUI's engine (keep_task_grams) in a child process: the first update showing task 1, the
 * shown task's τ factor, then as the user retunes looking at the last task: τ, α_base, β, and a
 * spectrum asked for a middle task (its Gram recomputed from the rows when the engine keeps two
 * tasks' matrices). Exit status 0, 3 when the engine keeps a number of task slots other than
 * `slots`, 1 on an error. */
static int interactive_child(int argc, char **argv, int slots)
{
    op_opts o;
    if (op_parse(&o, argc, argv) != GS_OK) return 1;
    en_config cfg = {0};
    cfg.methods = (const char **)o.methods;
    cfg.n_methods = o.n_methods; mt_resolve(&cfg);
    cfg.spectrum = o.spectrum;
    cfg.keep_task_grams = 1;
    pl_ctx c;
    if (pl_open(&c, &o, &cfg, NULL, NULL) != GS_OK) return 1;
    int T = c.prob.T, rc = en_task_slots(c.eng) == slots ? 0 : 3;
    op_params q = o.params;
    if (en_update(c.eng, &q, 1, NULL, NULL, NULL) || en_prepare_tau(c.eng, T, NULL)) rc = 1;
    q.tau *= 2;
    if (!rc && en_update(c.eng, &q, T, NULL, NULL, NULL)) rc = 1;
    q.alpha_base *= 0.8;
    if (!rc && (en_update(c.eng, &q, T, NULL, NULL, NULL) || en_prepare_tau(c.eng, T, NULL))) rc = 1;
    q.beta *= 0.5;
    if (!rc && en_update(c.eng, &q, T, NULL, NULL, NULL)) rc = 1;
    if (!rc && en_ensure_spectrum(c.eng, T / 2, EN_METHODS_ALL, NULL)) rc = 1;
    pl_free(&c);
    return rc;
}

/* The estimate pl_need makes for the interactive engine of `run ARGS` against the peak of that
 * engine at work (interactive_child): never below the peak (the TUI checks it before it opens),
 * at most HI_INTERACTIVE above. budget_mb: GS_GRAM_BUDGET_MB for both (NULL: unset), slots: the task slots
 * the engine must keep. */
static void check_interactive(const char *line, const char *budget_mb, int slots)
{
    char buf[512], buf2[512], *argv[MAXARG], *argv2[MAXARG];
    int argc = split_run(line, buf, sizeof buf, argv);
    split_run(line, buf2, sizeof buf2, argv2);
    if (budget_mb) setenv("GS_GRAM_BUDGET_MB", budget_mb, 1); else unsetenv("GS_GRAM_BUDGET_MB");
    op_opts o;
    double est = -1, got = -1;
    if (op_parse(&o, argc, argv2) == GS_OK) {
        en_config cfg = {0}, none;
        cfg.methods = (const char **)o.methods;
        cfg.n_methods = o.n_methods; mt_resolve(&cfg);
        cfg.spectrum = o.spectrum;
        cfg.keep_task_grams = 1;
        none = cfg;
        none.n_methods = 0;
        pl_ctx c;
        if (pl_open(&c, &o, &none, NULL, NULL) == GS_OK) { est = pl_need(&c, &o, &cfg); pl_free(&c); }
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("OPENBLAS_NUM_THREADS", "1", 1);
        _exit(interactive_child(argc, argv, slots));
    }
    int status = 0;
    struct rusage ru;
    if (pid > 0 && wait4(pid, &status, 0, &ru) == pid && WIFEXITED(status)) {
        if (WEXITSTATUS(status) == 0) got = (double)ru.ru_maxrss * 1024.0;
        CHECK(WEXITSTATUS(status) != 3, "interactive %s: the engine keeps %d task slots", line, slots);
    }
    unsetenv("GS_GRAM_BUDGET_MB");
    printf("# interactive %s (GS_GRAM_BUDGET_MB %s): estimate %.0f MiB, peak %.0f MiB, ratio %.3f\n", line,
           budget_mb ? budget_mb : "unset", est / 1048576, got / 1048576, got > 0 ? est / got : 0.0);
    CHECK(est > 0 && got > 0 && est >= got && est <= HI_INTERACTIVE * got,
          "interactive %s: estimate %.0f MiB, measured peak %.0f MiB (ratio %.3f, band [1, %.2f])", line, est / 1048576,
          got / 1048576, got > 0 ? est / got : 0.0, HI_INTERACTIVE);
}

/* A table's engine (share_work): its ridge methods of a space share one work matrix. In the
 * primal throughout (D below the dual's) the estimate is one D × D less than each its own; with
 * every task in the dual (fewer rows than D) no A is ever written: the same estimate. */
static void check_share_formula(void)
{
    en_method m3[3], m2[2];
    CHECK(!mt_parse("gacl", &m3[0]) && !mt_parse("gacl+gsr", &m3[1]) && !mt_parse("air", &m3[2]) &&
          !mt_parse("gacl", &m2[0]) && !mt_parse("air", &m2[1]), "methods resolved");
    en_size z = {.n_rows = 3000, .n_test = 500, .n_val = 0, .d = 1000, .expand = 0, .C = 20, .T = 5,
                 .precision = OP_PREC_DOUBLE, .spectrum = OP_SPECTRUM_AUTO};
    double own = en_estimate_bytes(&z, m3, 3);
    z.share_work = 1;
    double shared = en_estimate_bytes(&z, m3, 3);
    CHECK(own - shared == 2 * 8.0 * 1000 * 1000, "share_work, D = 1000 in the primal: %.0f bytes less (two A of %.0f)",
          own - shared, 8.0 * 1000 * 1000);
    z.expand = 4000; /* every task in the dual: 600 rows < D, no synthetic rows */
    z.n_rows = 600;
    double dual_shared = en_estimate_bytes(&z, m2, 2);
    z.share_work = 0;
    double dual_own = en_estimate_bytes(&z, m2, 2);
    printf("# share_work: primal %.0f -> %.0f bytes, dual %.0f -> %.0f\n", own, shared, dual_own, dual_shared);
    CHECK(dual_own == dual_shared, "share_work, every task in the dual: the same estimate (%.0f, %.0f)", dual_own,
          dual_shared);
}

int main(void)
{
    check_share_formula();
    const char *bin = getenv("GSRSCOPE") ? getenv("GSRSCOPE") : "build/gsrscope";
    if (access(bin, X_OK) != 0) {
        CHECK(0, "%s: not built (set GSRSCOPE)", bin);
        return tap_done();
    }
    if (getenv("GS_SANITIZED")) { /* make check-asan: shadow memory and redzones are not the program's */
        tap_skip("peak checks under sanitizers: the peak measured there is not the program's own");
        return tap_done();
    }
    check(bin, "--synthetic --methods gacl");
    check(bin, "--synthetic --methods gacl+gsr,slda,ncm");
    check(bin, "--expand 2500 --methods gacl+gsr");
    /* GS_QUICK=1 (make check): the three above; make check-full runs them all */
    const char *q = getenv("GS_QUICK");
    if (q && strcmp(q, "1") == 0) {
        printf("# quick (GS_QUICK=1): left to make check-full: klda, air in double, ranpac, AnaCP, the TUI's engine\n");
        return tap_done();
    }
    check(bin, "--synthetic --methods klda --klda-dim 1500");
    check(bin, "--expand 2500 --methods gacl+gsr,air --precision double");
    check(bin, "--synthetic --expand 1500 --methods gacl+gsr,ranpac --tasks 5");
    /* AnaCP: its heads in the dual throughout (the sample at its own D = 5000), and going primal
     * with a primal final layer (--expand 1500 on the synthetic set) */
    check(bin, "--sample mobilenetv2 --methods anacp+gsr");
    check(bin, "--synthetic --expand 1500 --methods anacp --tasks 6");
    /* the TUI's engine: every task's Grams kept, then two (bounded memory, forced by the budget),
     * both at a D with the τ factor and the dual's first tasks */
    check_interactive("--synthetic --expand 2100 --methods gacl,gsr --max-aug 300", NULL, 10);
    check_interactive("--synthetic --expand 2100 --methods gacl,gsr --max-aug 300", "0", 2);
    return tap_done();
}
