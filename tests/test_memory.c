/* test_memory.c — the memory estimate a run is checked against before it allocates (pl_need, i.e.
 * en_estimate_bytes) held to what the kernel measures: each configuration's estimate, then the
 * same `gsrscope run` as a child process and its peak resident set (ru_maxrss from wait4). The
 * estimate must lie within [LO, HI] of the peak. The configurations are cheap (seconds each) and
 * cover each part of the estimate: ridge in the primal (the synthetic set), an augmenter's
 * buffers, stats learners (slda's scatter, ncm, klda at a given --klda-dim), a ridge method whose
 * every task is in the dual (the bundled sample with --expand above its row count, single and
 * double precision, with class weights: air), and one that switches from the dual to the primal
 * (--expand 1500 on the synthetic set), with ranpac's own space beside the run's. Not a timing:
 * the peak is a count of pages. */
#include "gs_common.h"
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

#define LO 0.85
#define HI 1.30
#define MAXARG 24

/* The estimate of `run ARGS` as main makes it (batch: no task Grams kept). */
static double estimate(int argc, char **argv)
{
    op_opts o;
    if (op_parse(&o, argc, argv) != GS_OK) { CHECK(0, "options: %s", gs_last_error()); return -1; }
    en_config cfg = {0}, none;
    cfg.methods = (const char **)o.methods;
    cfg.n_methods = o.n_methods;
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

static void check(const char *bin, const char *line)
{
    char buf[512], *argv[MAXARG];
    int argc = 0;
    snprintf(buf, sizeof buf, "gsrscope run %s", line);
    for (char *s = strtok(buf, " "); s && argc < MAXARG - 2; s = strtok(NULL, " ")) argv[argc++] = s;
    argv[argc] = NULL;
    double est = estimate(argc, argv), got = peak(bin, argc, argv);
    printf("# run %s: estimate %.0f MiB, peak %.0f MiB, ratio %.3f\n", line, est / 1048576, got / 1048576,
           got > 0 ? est / got : 0.0);
    CHECK(est > 0 && got > 0 && est >= LO * got && est <= HI * got,
          "run %s: estimate %.0f MiB, measured peak %.0f MiB (ratio %.3f, band [%.2f, %.2f])", line, est / 1048576,
          got / 1048576, got > 0 ? est / got : 0.0, LO, HI);
}

int main(void)
{
    const char *bin = getenv("GSRSCOPE") ? getenv("GSRSCOPE") : "build/gsrscope";
    if (access(bin, X_OK) != 0) {
        CHECK(0, "%s: not built (set GSRSCOPE)", bin);
        return tap_done();
    }
    if (getenv("GS_SANITIZED")) { /* make check-asan: shadow memory and redzones are not the program's */
        printf("# skipped under sanitizers: the peak measured there is not the program's own\n");
        return tap_done();
    }
    check(bin, "--synthetic --methods gacl");
    check(bin, "--synthetic --methods gacl+gsr,slda,ncm");
    check(bin, "--synthetic --methods klda --klda-dim 1500");
    check(bin, "--expand 2500 --methods gacl+gsr");
    check(bin, "--expand 2500 --methods gacl+gsr,air --precision double");
    check(bin, "--synthetic --expand 1500 --methods gacl+gsr,ranpac --tasks 5");
    return tap_done();
}
