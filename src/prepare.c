/* prepare.c — from dataset + stream to the engine's problem (see en_prepare in gs_engine.h):
 * L2 normalization, optional random ReLU expansion, test rows ordered by task. */
#include "gs_engine.h"
#include "gs_common.h"
#include "gs_rng.h"

#include <cblas.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void en_problem_free(en_problem *p)
{
    if (p->h.v == p->z.v) p->h.v = NULL;
    gm_free(&p->z); gm_free(&p->h); gm_free(&p->R); gm_free(&p->test_h);
    free(p->y); free(p->task_row_start); free(p->test_y); free(p->test_task_end); free(p->class_test);
    memset(p, 0, sizeof *p);
}

double en_estimate_bytes(long n_rows, long n_test, long d, long D, int C, int T, int n_methods,
                         int keep_task_grams)
{
    double b = gm_bytes(n_rows, d) + gm_bytes(n_test, D) + (D != d ? gm_bytes(n_rows, D) + gm_bytes(D, d) : 0);
    double grams_per_method = keep_task_grams ? T : 1;
    /* base Gram + one extra Gram per method, kept per task when interactive */
    b += gm_bytes(D, D) * grams_per_method * (1 + n_methods);
    b += gm_bytes(D, D) * 3;                       /* work: G, Cholesky factor, eigen copy */
    b += gm_bytes(C, D) * (2.0 + 2.0 * n_methods) * grams_per_method; /* Q's and W */
    b += gm_bytes(n_test, C);                      /* scores */
    b += gm_bytes(100, D) + gm_bytes(4000, D);     /* Lanczos basis, augmented rows of a task */
    return b;
}

static void normalize_row(double *x, long d)
{
    double s = cblas_dnrm2((int)d, x, 1);
    if (s > 0) cblas_dscal((int)d, 1.0 / s, x, 1);
}

void en_expand_row(const en_problem *p, const double *x, double *h)
{
    if (p->D == p->d && !p->R.v) { memcpy(h, x, (size_t)p->d * sizeof(double)); return; }
    cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)p->D, (int)p->d, 1.0, p->R.v, (int)p->d, x, 1, 0.0, h, 1);
    for (long j = 0; j < p->D; j++) if (h[j] < 0) h[j] = 0;
}

/* H = ReLU(Z Rᵀ) in row blocks. */
static void expand_rows(const en_problem *p, const gm_mat *Z, gm_mat *H)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)Z->rows, (int)p->D, (int)p->d, 1.0,
                Z->v, (int)p->d, p->R.v, (int)p->d, 0.0, H->v, (int)p->D);
    size_t n = (size_t)H->rows * (size_t)H->cols;
    for (size_t i = 0; i < n; i++) if (H->v[i] < 0) H->v[i] = 0;
}

static int check_finite_row(const double *x, long d, const char *what, long row)
{
    for (long j = 0; j < d; j++)
        if (!isfinite(x[j]))
            return gs_error(GS_EINPUT, "%s: row %ld, column %ld: value is not finite", what, row + 1, j + 1);
    return GS_OK;
}

/* Training rows of the stream on two threads (rows are independent: a lazy row generator is
 * reentrant, synth.c; a stored row is a copy), so the values do not depend on the split. */
typedef struct {
    const ds_data *data;
    const st_stream *st;
    en_problem *p;
    long lo, hi;
    int rc;
    char err[256];
} prep_job;

static void *prep_rows(void *arg)
{
    prep_job *j = arg;
    long d = j->p->d;
    for (long i = j->lo; i < j->hi; i++) {
        double *z = gm_row(&j->p->z, i);
        long src = j->st->row_index[i];
        if ((j->rc = ds_train_row(j->data, src, z)) || (j->rc = check_finite_row(z, d, "training features", src))) {
            snprintf(j->err, sizeof j->err, "%s", gs_last_error());
            break;
        }
        if (j->p->normalized) normalize_row(z, d);
        j->p->y[i] = j->st->row_label[i];
    }
    return NULL;
}

static int prep_all_rows(en_problem *p, const ds_data *data, const st_stream *st)
{
    long n = st->n;
    prep_job job[2] = {{data, st, p, 0, n, 0, ""}, {data, st, p, n, n, 0, ""}};
    pthread_t th;
    int threaded = 0;
    if (n >= 512) {
        job[0].hi = job[1].lo = n / 2;
        threaded = pthread_create(&th, NULL, prep_rows, &job[1]) == 0;
        if (!threaded) job[0].hi = n;
    }
    prep_rows(&job[0]);
    if (threaded) pthread_join(th, NULL);
    for (int k = 0; k < 2; k++) /* the first failing row in stream order */
        if (job[k].rc) return gs_error(job[k].rc, "%s", job[k].err);
    return GS_OK;
}

/* Test rows into task order (row i of the data goes to dst[i], -1: never trained), checked and
 * normalized, on two threads (rows are independent). */
typedef struct {
    const ds_data *data;
    const en_problem *p;
    gm_mat *tz;
    const long *dst;
    long lo, hi;
    int rc;
    char err[256];
} test_job;

static void *prep_test_rows(void *arg)
{
    test_job *j = arg;
    long d = j->tz->cols;
    for (long i = j->lo; i < j->hi; i++) {
        if (j->dst[i] < 0) continue;
        double *z = gm_row(j->tz, j->dst[i]);
        memcpy(z, gm_row(&j->data->test_x, i), (size_t)d * sizeof(double));
        if ((j->rc = check_finite_row(z, d, "test features", i))) {
            snprintf(j->err, sizeof j->err, "%s", gs_last_error());
            break;
        }
        if (j->p->normalized) normalize_row(z, d);
    }
    return NULL;
}

static int prep_all_test_rows(const en_problem *p, const ds_data *data, gm_mat *tz, const long *dst, long n)
{
    test_job job[2] = {{data, p, tz, dst, 0, n, 0, ""}, {data, p, tz, dst, n, n, 0, ""}};
    pthread_t th;
    int threaded = 0;
    if (n >= 512) {
        job[0].hi = job[1].lo = n / 2;
        threaded = pthread_create(&th, NULL, prep_test_rows, &job[1]) == 0;
        if (!threaded) job[0].hi = n;
    }
    prep_test_rows(&job[0]);
    if (threaded) pthread_join(th, NULL);
    for (int k = 0; k < 2; k++) /* the first failing row in data order */
        if (job[k].rc) return gs_error(job[k].rc, "%s", job[k].err);
    return GS_OK;
}

int en_prepare(en_problem *p, const ds_data *data, const st_stream *st, const op_data *o, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    int rc;
    long d = data->train_x.cols, n = st->n, nt_all = data->test_x.rows;
    if (data->test_x.rows > 0 && data->test_x.cols != d)
        return gs_error(GS_EINPUT, "train features have %ld columns but test features have %ld", d, data->test_x.cols);
    p->T = st->T;
    p->C = st->C;
    p->d = d;
    p->D = o->expand > 0 ? o->expand : d;
    p->normalized = !o->no_normalize;
    p->st = st;
    snprintf(p->data_name, sizeof p->data_name, "%s", data->name);
    snprintf(p->data_source, sizeof p->data_source, "%s", data->source);
    p->data_checksum = data->checksum;

    if ((rc = gm_alloc(&p->z, n, d, "stream rows"))) goto fail;
    gs_advise_huge(p->z.v, (size_t)p->z.rows * (size_t)p->z.cols * sizeof(double));
    p->y = gs_malloc((size_t)(n ? n : 1), sizeof(int), "stream labels");
    p->task_row_start = gs_malloc((size_t)st->T + 1, sizeof(long), "stream");
    p->class_test = gs_calloc((size_t)st->C, sizeof(long), "stream");
    if (!p->y || !p->task_row_start || !p->class_test) { rc = GS_ENOMEM; goto fail; }
    memcpy(p->task_row_start, st->task_row_start, ((size_t)st->T + 1) * sizeof(long));
    if ((rc = prep_all_rows(p, data, st))) goto fail;
    if (p->D != d) {
        if ((rc = gm_alloc(&p->R, p->D, d, "expansion matrix"))) goto fail;
        gsl_rng *r = rng_new(seed, RNG_EXPAND, 0);
        if (!r) { rc = GS_ENOMEM; goto fail; }
        double a = 1.0 / sqrt((double)d);
        for (size_t i = 0; i < (size_t)p->D * d; i++) p->R.v[i] = -a + 2.0 * a * gsl_rng_uniform(r);
        gsl_rng_free(r);
        if ((rc = gm_alloc(&p->h, n, p->D, "expanded rows"))) goto fail;
        gs_advise_huge(p->h.v, (size_t)p->h.rows * (size_t)p->h.cols * sizeof(double));
        if (n) expand_rows(p, &p->z, &p->h);
    } else {
        p->h = p->z; /* shared buffer, freed once */
    }

    /* Test rows: ordered by the task of their class; classes never trained go last. */
    long nt = 0;
    for (long i = 0; i < nt_all; i++) {
        int c = data->test_y[i];
        if (c < 0 || c >= st->C) { rc = gs_error(GS_EINPUT, "test label %d out of range", c); goto fail; }
        p->class_test[c]++;
        if (st->class_task[c] >= 0) nt++;
    }
    p->n_test_unseen = nt_all - nt;
    p->test_task_end = gs_calloc((size_t)st->T, sizeof(long), "test rows");
    p->test_y = gs_malloc((size_t)(nt ? nt : 1), sizeof(int), "test labels");
    long *cnt = gs_calloc((size_t)st->T + 1, sizeof(long), "test rows");
    if (!p->test_task_end || !p->test_y || !cnt) { free(cnt); rc = GS_ENOMEM; goto fail; }
    for (long i = 0; i < nt_all; i++) { int t = st->class_task[data->test_y[i]]; if (t >= 0) cnt[t + 1]++; }
    for (int t = 0; t < st->T; t++) cnt[t + 1] += cnt[t];
    for (int t = 0; t < st->T; t++) p->test_task_end[t] = cnt[t + 1];
    gm_mat tz = {0};
    long *dst = gs_malloc((size_t)(nt_all ? nt_all : 1), sizeof(long), "test rows");
    if (!dst || (rc = gm_alloc(&tz, nt, d, "test rows"))) { free(dst); free(cnt); if (!rc) rc = GS_ENOMEM; goto fail; }
    gs_advise_huge(tz.v, (size_t)tz.rows * (size_t)tz.cols * sizeof(double));
    for (long i = 0; i < nt_all; i++) {
        int c = data->test_y[i], t = st->class_task[c];
        dst[i] = t < 0 ? -1 : cnt[t]++;
        if (t >= 0) p->test_y[dst[i]] = c;
    }
    free(cnt);
    rc = prep_all_test_rows(p, data, &tz, dst, nt_all);
    free(dst);
    if (rc) { gm_free(&tz); goto fail; }
    if (p->D != d) {
        if ((rc = gm_alloc(&p->test_h, nt, p->D, "expanded test rows"))) { gm_free(&tz); goto fail; }
        gs_advise_huge(p->test_h.v, (size_t)p->test_h.rows * (size_t)p->test_h.cols * sizeof(double));
        if (nt) expand_rows(p, &tz, &p->test_h);
        gm_free(&tz);
    } else {
        p->test_h = tz;
    }
    return GS_OK;
fail:
    en_problem_free(p);
    return rc;
}
