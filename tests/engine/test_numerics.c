/* test_numerics.c — numerical failures are reported, never printed by the libraries (issue #8):
 * a singular G with τ = 0 gives EN_FAILED snapshots naming the method and task; a NaN in a row
 * is refused by en_prepare before any LAPACK call; deliberate invalid LAPACKE, LAPACK and CBLAS
 * calls print nothing on stdout or stderr (src/base/lapack_quiet.c) and record a message instead. */
#define _GNU_SOURCE
#include "tap.h"
#include "problem.h"
#include "gs_common.h"
#include "gs_mtable.h"
#include "gs_engine.h"
#include "gs_lapack_quiet.h"

#include <cblas.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Count the engine's Cholesky calls: this definition in the executable replaces the library's
 * for every caller; it forwards to the real one. */
static long n_potrf;
lapack_int LAPACKE_dpotrf(int layout, char uplo, lapack_int n, double *a, lapack_int lda)
{
    static lapack_int (*real)(int, char, lapack_int, double *, lapack_int);
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "LAPACKE_dpotrf");
    n_potrf++;
    return real(layout, uplo, n, a, lda);
}

static op_params defaults(double tau)
{
    op_params q = {0};
    q.alpha_base = 0.6; q.xi = 5e-3; q.beta = 1.0; q.tau = tau; q.seed = 1;
    q.pairs = OP_PAIRS_ALL; q.max_aug = 1000; q.augment = OP_AUG_ALL;
    q.gauss_a = 0.1; q.gauss_b = 1; q.slda_eps = 1e-4;
    return q;
}

static int reprepare(tp_problem *tp)
{
    en_problem_free(&tp->prob);
    op_data od = {0};
    return en_prepare(&tp->prob, &tp->data, &tp->st, &od, 3);
}

/* Feature 0 constant zero in every row: G is singular, τ = 0 cannot be factored. */
static void test_singular(void)
{
    tp_problem tp;
    CHECK(tp_make(&tp, 4, 10, 12, 3, 6, 2, 3, 0) == 0, "problem: %s", gs_last_error());
    for (long i = 0; i < tp.data.train_x.rows; i++) gm_row(&tp.data.train_x, i)[0] = 0;
    for (long i = 0; i < tp.data.test_x.rows; i++) gm_row(&tp.data.test_x, i)[0] = 0;
    CHECK(reprepare(&tp) == GS_OK, "prepare: %s", gs_last_error());
    const char *names[] = {"gacl", "gsr"};
    en_config cfg = {0};
    cfg.methods = names; cfg.n_methods = 2; cfg.spectrum = OP_SPECTRUM_ALL; mt_resolve(&cfg);
    en_engine *e = NULL;
    CHECK(en_create(&e, &tp.prob, &cfg) == GS_OK, "en_create: %s", gs_last_error());
    op_params q = defaults(0);
    long before = lq_count();
    int rc = en_update(e, &q, 0, NULL, NULL, NULL);
    CHECK(rc == GS_OK, "en_update with a singular G returns GS_OK (failures are per task): %d %s", rc,
          gs_last_error());
    CHECK(lq_count() == before, "no library error handler was called (%ld)", lq_count() - before);
    const en_results *r = en_get_results(e);
    for (int m = 0; m < r->n_methods; m++) {
        CHECK(isnan(r->m[m].a_last) && isnan(r->m[m].a_avg), "%s: A_last/A_avg NaN (not a number)",
              r->m[m].name);
        for (int t = 0; t < r->T; t++) {
            const en_snap *s = &r->m[m].snaps[t];
            char want[64];
            snprintf(want, sizeof want, "%s, task %d: ", r->m[m].name, t + 1);
            CHECK(s->state == EN_FAILED, "%s task %d failed (state %d)", r->m[m].name, t + 1, s->state);
            CHECK(strncmp(s->error, want, strlen(want)) == 0, "message names method and task: '%s'", s->error);
            CHECK(strstr(s->error, "not positive definite") && strstr(s->error, "--tau"),
                  "message says what to do: '%s'", s->error);
            CHECK(isnan(s->acc) && isnan(s->head_acc) && isnan(s->tail_acc), "no accuracy for a failed task");
        }
    }
    /* the same engine recovers when τ is raised */
    q.tau = 0.1;
    CHECK(en_update(e, &q, 0, NULL, NULL, NULL) == GS_OK, "τ = 0.1: %s", gs_last_error());
    r = en_get_results(e);
    for (int m = 0; m < r->n_methods; m++)
        for (int t = 0; t < r->T; t++)
            CHECK(r->m[m].snaps[t].state == EN_DONE && isfinite(r->m[m].snaps[t].acc),
                  "τ = 0.1: %s task %d done", r->m[m].name, t + 1);
    en_destroy(e);
    tp_free(&tp);
}

/* A NaN in a training or test row: refused with row and column, before any factorization. */
static void test_nan_rows(void)
{
    for (int which = 0; which < 2; which++) {
        tp_problem tp;
        CHECK(tp_make(&tp, 3, 6, 10, 2, 4, 3, 5, 0) == 0, "problem: %s", gs_last_error());
        gm_mat *x = which ? &tp.data.test_x : &tp.data.train_x;
        gm_row(x, 2)[4] = which ? INFINITY : NAN;
        long n0 = n_potrf;
        int rc = reprepare(&tp);
        CHECK(rc == GS_EINPUT, "%s NaN/Inf refused: %d", which ? "test" : "train", rc);
        CHECK(strstr(gs_last_error(), "column 5") && strstr(gs_last_error(), "not finite"),
              "message names the column: '%s'", gs_last_error());
        CHECK(n_potrf == n0, "no Cholesky before the refusal");
        tp_free(&tp);
    }
}

/* Run fn with stdout and stderr redirected to a pipe; return what was written. */
static void capture(void (*fn)(void), char *out, size_t nout)
{
    int pfd[2];
    CHECK(pipe(pfd) == 0, "pipe");
    fflush(stdout); fflush(stderr);
    int o1 = dup(1), o2 = dup(2);
    dup2(pfd[1], 1); dup2(pfd[1], 2);
    close(pfd[1]);
    fn();
    fflush(stdout); fflush(stderr);
    dup2(o1, 1); dup2(o2, 2);
    close(o1); close(o2);
    fcntl(pfd[0], F_SETFL, O_NONBLOCK);
    ssize_t n = read(pfd[0], out, nout - 1);
    out[n > 0 ? n : 0] = '\0';
    close(pfd[0]);
}

static lapack_int bad_info[4];
static char bad_msg[4][200];

static void bad_calls(void)
{
    double a[4] = {1, 0, 0, 1}, b[2] = {1, 1};
    /* LAPACKE argument check: invalid layout -> LAPACKE_xerbla */
    gs_clear_error();
    bad_info[0] = LAPACKE_dpotrf(12345, 'U', 2, a, 2);
    snprintf(bad_msg[0], sizeof bad_msg[0], "%s", gs_last_error());
    /* row-major lda < n -> LAPACKE_dpotrf_work's xerbla */
    gs_clear_error();
    bad_info[1] = LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', 2, 1, a, 1, b, 1);
    snprintf(bad_msg[1], sizeof bad_msg[1], "%s", gs_last_error());
    /* Fortran argument check (column-major lda < n goes straight to LAPACK) -> xerbla_ */
    gs_clear_error();
    bad_info[2] = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', 2, a, 1);
    snprintf(bad_msg[2], sizeof bad_msg[2], "%s", gs_last_error());
    /* CBLAS argument check: negative dimension */
    gs_clear_error();
    double c[4] = {0};
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, -1, 2, 2, 1.0, a, 2, a, 2, 0.0, c, 2);
    snprintf(bad_msg[3], sizeof bad_msg[3], "%s", gs_last_error());
    bad_info[3] = 0;
}

static void test_quiet(void)
{
    char out[4096];
    long before = lq_count();
    capture(bad_calls, out, sizeof out);
    CHECK(out[0] == '\0', "invalid LAPACKE/LAPACK/CBLAS calls print nothing (got '%s')", out);
    CHECK(lq_count() - before >= 4, "every bad call reached a quiet handler (%ld)", lq_count() - before);
    CHECK(bad_info[0] == -1, "bad layout: info %d", (int)bad_info[0]);
    CHECK(bad_info[1] < 0, "row-major lda < n: info %d", (int)bad_info[1]);
    CHECK(bad_info[2] < 0, "column-major lda < n: info %d", (int)bad_info[2]);
    for (int k = 0; k < 4; k++)
        CHECK(strstr(bad_msg[k], "illegal value") != NULL, "call %d recorded: '%s'", k, bad_msg[k]);
    CHECK(strstr(bad_msg[0], "LAPACKE_dpotrf") && strstr(bad_msg[0], "parameter 1"), "'%s'", bad_msg[0]);
}

/* LAPACKE's NaN scan refuses silently (no print), returning -k. */
static void nan_call(void)
{
    double a[4] = {1, NAN, 0, 1}; /* (1,0): in the lower triangle */
    bad_info[0] = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', 2, a, 2);
}

static void test_nancheck(void)
{
    char out[1024];
    capture(nan_call, out, sizeof out);
    CHECK(out[0] == '\0', "LAPACKE NaN check prints nothing ('%s')", out);
    CHECK(bad_info[0] < 0, "LAPACKE NaN check refuses: info %d", (int)bad_info[0]);
}

/* gs_run_pair: OpenBLAS at one thread in both halves (two threads of ours each splitting a BLAS
 * call put four threads on the cores, spinning while they wait), its count restored after. */
int openblas_get_num_threads(void);
void openblas_set_num_threads(int n);
static void *blas_threads_seen(void *arg)
{
    *(int *)arg = openblas_get_num_threads();
    return NULL;
}

static void test_run_pair_blas(void)
{
    int before = openblas_get_num_threads();
    if (before < 2) openblas_set_num_threads(2);
    int outer = openblas_get_num_threads(), a = -1, b = -1;
    gs_run_pair(blas_threads_seen, &a, &b);
    CHECK(a == 1 && b == 1, "gs_run_pair: OpenBLAS at one thread in both halves (saw %d and %d)", a, b);
    CHECK(openblas_get_num_threads() == outer, "gs_run_pair: OpenBLAS's thread count restored (%d, was %d)",
          openblas_get_num_threads(), outer);
    openblas_set_num_threads(before);
}

int main(void)
{
    test_run_pair_blas();
    test_singular();
    test_nan_rows();
    test_quiet();
    test_nancheck();
    return tap_done();
}
