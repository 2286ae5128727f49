/* engine/prepare.c — from dataset + stream to the engine's problem (see en_prepare in gs_engine.h):
 * L2 normalization, optional random ReLU expansion, test rows ordered by task. */
#include "gs_engine.h"
#include "gs_common.h"
#include "gs_rng.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void en_problem_free(en_problem *p)
{
    if (p->h.v == p->z.v) p->h.v = NULL;
    if (p->test_h.v == p->test_z.v) p->test_h.v = NULL;
    if (p->val_h.v == p->val_z.v) p->val_h.v = NULL;
    gm_free(&p->z); gm_free(&p->h); gm_free(&p->R); gm_free(&p->hf); gm_free(&p->Rf); gm_free(&p->test_h); gm_free(&p->test_z);
    gm_free(&p->val_h); gm_free(&p->val_z); free(p->val_y); free(p->val_task_end);
    free(p->test_f); free(p->test_fn);
    free(p->y); free(p->task_row_start); free(p->test_y); free(p->test_index); free(p->test_task_end); free(p->class_test);
    memset(p, 0, sizeof *p);
}

static void normalize_row(double *x, long d)
{
    double s = cblas_dnrm2((int)d, x, 1);
    if (s > 0) cblas_dscal((int)d, 1.0 / s, x, 1);
}

void en_expand_rows(const en_problem *p, const double *X, long n, double *H)
{
    if (p->D == p->d && !p->R.v) { memcpy(H, X, (size_t)n * (size_t)p->d * sizeof(double)); return; }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)p->D, (int)p->d, 1.0, X, (int)p->d,
                p->R.v, (int)p->d, 0.0, H, (int)p->D);
    size_t m = (size_t)n * (size_t)p->D;
    for (size_t i = 0; i < m; i++) if (H[i] < 0) H[i] = 0;
}

int en_single_for(const op_data *o, long D)
{
    return o->precision == OP_PREC_SINGLE || (o->precision == OP_PREC_AUTO && D >= EN_SINGLE_MIN_D);
}

/* x := max(x, 0) without a branch (half the values are negative: a branch mispredicts on every
 * other one): the sign bit spread over the word clears a negative value (−0 becomes +0). */
static void relu_f(float *x, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        int32_t b;
        memcpy(&b, &x[k], sizeof b);
        b &= ~(b >> 31);
        memcpy(&x[k], &b, sizeof b);
    }
}

int en_expand_rows_f(const en_problem *p, const double *X, long n, float *H)
{
    long d = p->d, D = p->D;
    if (!p->Rf.f) { /* the identity map */
        for (size_t i = 0; i < (size_t)n * (size_t)d; i++) H[i] = (float)X[i];
        return GS_OK;
    }
    enum { NB = 256 }; /* rows converted to float per product */
    float *xf = gs_malloc((size_t)NB * (size_t)d, sizeof(float), "expanded rows");
    if (!xf) return GS_ENOMEM;
    for (long i0 = 0; i0 < n; i0 += NB) {
        long nb = n - i0 < NB ? n - i0 : NB;
        for (size_t k = 0; k < (size_t)nb * (size_t)d; k++) xf[k] = (float)X[(size_t)i0 * d + k];
        float *h = H + (size_t)i0 * (size_t)D;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nb, (int)D, (int)d, 1.0f, xf, (int)d, p->Rf.f, (int)d,
                    0.0f, h, (int)D);
        relu_f(h, (size_t)nb * (size_t)D);
    }
    free(xf);
    return GS_OK;
}

/* Single precision: hf = the rows in float (f set), h keeps its shape (v NULL with --expand: the
 * double rows are not kept; the identity map keeps h = z, which GSR's pairs read). */
static int rows_single(en_problem *p, gm_mat *hf, gm_mat *h, const gm_mat *z)
{
    int rc = gm_alloc_f(hf, z->rows, p->D, "expanded rows");
    if (rc) return rc;
    gs_advise_huge(hf->f, gm_nbytes(hf));
    if (z->rows && (rc = en_expand_rows_f(p, z->v, z->rows, hf->f))) return rc;
    if (p->Rf.f) { h->rows = z->rows; h->cols = p->D; h->v = NULL; } else { *h = *z; h->f = NULL; }
    return GS_OK;
}

static int check_finite_row(const double *x, long d, const char *what, long row)
{
    for (long j = 0; j < d; j++)
        if (!isfinite(x[j]))
            return gs_error(GS_EINPUT, "%s: row %ld, column %ld: value is not finite", what, row + 1, j + 1);
    return GS_OK;
}

/* Rows of a split into a matrix on two threads: destination row k (lo ≤ k < hi) is source row
 * src[k], checked finite and normalized. Rows are independent (a lazy generator is reentrant,
 * synth.c; a stored row is a copy), so the values do not depend on the split between threads;
 * rows go through ds_rows in chunks (the synthetic source shares work within a chunk), or all
 * in one call first for a source with lazy_bulk (files read once, in order: load_src.c). */
typedef struct {
    const ds_data *data;
    int split;
    const long *src;
    gm_mat *M;
    int normalize;
    float *f;      /* if set: f (rows × cols) = fl32(M) and fn = row norms, after normalization */
    double *fn;
    long lo, hi;
    int rc;
    char err[256];
    int have_rows; /* rows already in M (read in one call: a source with lazy_bulk) */
} prep_job;

#define PREP_CHUNK 32

static void *prep_rows(void *arg)
{
    prep_job *j = arg;
    long d = j->M->cols;
    const char *what = j->split == DS_TEST ? "test features" : "training features";
    for (long k0 = j->lo; k0 < j->hi && !j->rc; k0 += PREP_CHUNK) {
        long nb = j->hi - k0 < PREP_CHUNK ? j->hi - k0 : PREP_CHUNK;
        if (!j->have_rows) j->rc = ds_rows(j->data, j->split, j->src + k0, nb, gm_row(j->M, k0));
        for (long k = k0; k < k0 + nb && !j->rc; k++) {
            double *z = gm_row(j->M, k);
            /* Σx² finite ⇒ every value finite (a NaN or ±∞ makes it non-finite): one vectorized
             * dot checks the row and gives its norm; the scan (for the column in the message)
             * and the overflow-safe dnrm2 only when it is not */
            double ss = cblas_ddot((int)d, z, 1, z, 1);
            if (!isfinite(ss) && (j->rc = check_finite_row(z, d, what, j->src[k]))) break;
            if (j->normalize) {
                if (isfinite(ss) && ss >= 0x1p-900) cblas_dscal((int)d, 1.0 / sqrt(ss), z, 1);
                else normalize_row(z, d);
            }
            if (j->f) j->fn[k] = gm_to_float(z, d, j->f + (size_t)k * (size_t)d);
        }
        if (j->rc) snprintf(j->err, sizeof j->err, "%s", gs_last_error());
    }
    return NULL;
}

static int prep_all_rows(gm_mat *M, const ds_data *data, int split, const long *src, int normalize, float *f,
                         double *fn)
{
    long n = M->rows;
    int bulk = data->lazy_bulk && !(split == DS_TEST ? data->test_x.v : data->train_x.v);
    if (bulk && n > 0) {
        int rc = ds_rows(data, split, src, n, M->v);
        if (rc) return rc;
    }
    prep_job job[2] = {{data, split, src, M, normalize, f, fn, 0, n, 0, "", bulk},
                       {data, split, src, M, normalize, f, fn, n, n, 0, "", bulk}};
    if (n >= 512) {
        job[0].hi = job[1].lo = n / 2 / PREP_CHUNK * PREP_CHUNK;
        gs_run_pair(prep_rows, &job[0], &job[1]);
    } else {
        prep_rows(&job[0]);
    }
    for (int k = 0; k < 2; k++) /* the first failing row in destination order */
        if (job[k].rc) return gs_error(job[k].rc, "%s", job[k].err);
    return GS_OK;
}

/* Validation rows: the stream's held-out rows, normalized and mapped like the training rows. */
static int prepare_val(en_problem *p, const ds_data *data, const st_stream *st)
{
    long nv = st->n_val;
    int rc;
    p->val_task_end = gs_calloc((size_t)st->T, sizeof(long), "validation rows");
    p->val_y = gs_malloc((size_t)(nv ? nv : 1), sizeof(int), "validation rows");
    if (!p->val_task_end || !p->val_y) return GS_ENOMEM;
    if (nv == 0) return GS_OK;
    for (int t = 0; t < st->T; t++) p->val_task_end[t] = st->task_val_start[t + 1];
    memcpy(p->val_y, st->val_label, (size_t)nv * sizeof(int));
    gm_mat vz = {0};
    if ((rc = gm_alloc(&vz, nv, p->d, "validation rows"))) return rc;
    if ((rc = prep_all_rows(&vz, data, DS_TRAIN, st->val_index, p->normalized, NULL, NULL))) { gm_free(&vz); return rc; }
    p->val_z = vz;
    if (p->D == p->d) { p->val_h = vz; return GS_OK; }
    rc = gm_alloc(&p->val_h, nv, p->D, "validation rows");
    if (!rc) en_expand_rows(p, vz.v, nv, p->val_h.v);
    return rc;
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
    p->projection = o->projection;
    p->expand = o->expand;
    p->seed = seed;
    p->single = en_single_for(o, p->D);
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
    for (long i = 0; i < n; i++) p->y[i] = st->row_label[i];
    if ((rc = prep_all_rows(&p->z, data, DS_TRAIN, st->row_index, p->normalized, NULL, NULL))) goto fail;
    if (p->D != d && (rc = en_draw_projection(&p->R, p->D, d, o->projection, seed))) goto fail;
    if (p->single) {
        if (p->R.v) {
            if ((rc = gm_alloc_f(&p->Rf, p->D, d, "projection matrix"))) goto fail;
            for (size_t i = 0; i < (size_t)p->D * (size_t)d; i++) p->Rf.f[i] = (float)p->R.v[i];
        }
        if ((rc = rows_single(p, &p->hf, &p->h, &p->z))) goto fail;
    } else if (p->D != d) {
        if ((rc = gm_alloc(&p->h, n, p->D, "expanded rows"))) goto fail;
        gs_advise_huge(p->h.v, (size_t)p->h.rows * (size_t)p->h.cols * sizeof(double));
        if (n) en_expand_rows(p, p->z.v, n, p->h.v);
    } else {
        p->h = p->z; /* shared buffer, freed once */
    }
    if ((rc = prepare_val(p, data, st))) goto fail;

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
    long *src = gs_malloc((size_t)(nt ? nt : 1), sizeof(long), "test rows");
    if (!src || (rc = gm_alloc(&tz, nt, d, "test rows"))) { free(src); free(cnt); if (!rc) rc = GS_ENOMEM; goto fail; }
    gs_advise_huge(tz.v, (size_t)tz.rows * (size_t)tz.cols * sizeof(double));
    for (long i = 0; i < nt_all; i++) {
        int c = data->test_y[i], t = st->class_task[c];
        if (t < 0) continue;
        src[cnt[t]] = i;
        p->test_y[cnt[t]++] = c;
    }
    free(cnt);
    /* fl32 copy of the test rows for the screened predictions, made while the rows are in cache
     * (after the expansion when there is one) */
    if (gm_bytes(nt, p->D) / 2 <= EN_TEST_F_MAX || p->single) {
        p->test_f = gs_malloc((size_t)(nt ? nt : 1) * (size_t)p->D, sizeof(float), "test rows");
        p->test_fn = gs_malloc((size_t)(nt ? nt : 1), sizeof(double), "test rows");
        if (!p->test_f || !p->test_fn) { free(src); gm_free(&tz); rc = GS_ENOMEM; goto fail; }
        gs_advise_huge(p->test_f, (size_t)(nt ? nt : 1) * (size_t)p->D * sizeof(float));
    }
    int f_now = p->D == d && p->test_f;
    rc = prep_all_rows(&tz, data, DS_TEST, src, p->normalized, f_now ? p->test_f : NULL, f_now ? p->test_fn : NULL);
    p->test_index = src; /* kept: --save-state's test_index.npy */
    if (rc) { gm_free(&tz); goto fail; }
    if (p->D != d && p->single) { /* the float rows only: test_f */
        p->test_z = tz;
        p->test_h.rows = nt;
        p->test_h.cols = p->D;
        if (nt && (rc = en_expand_rows_f(p, tz.v, nt, p->test_f))) goto fail;
        for (long i = 0; i < nt; i++) {
            const float *x = p->test_f + (size_t)i * (size_t)p->D;
            double s = 0;
            for (long j = 0; j < p->D; j++) s += (double)x[j] * x[j];
            p->test_fn[i] = sqrt(s);
        }
    } else if (p->D != d) {
        if ((rc = gm_alloc(&p->test_h, nt, p->D, "expanded test rows"))) { gm_free(&tz); goto fail; }
        gs_advise_huge(p->test_h.v, (size_t)p->test_h.rows * (size_t)p->test_h.cols * sizeof(double));
        if (nt) en_expand_rows(p, tz.v, nt, p->test_h.v);
        p->test_z = tz;
        for (long i = 0; p->test_f && i < nt; i++)
            p->test_fn[i] = gm_to_float(gm_row(&p->test_h, i), p->D, p->test_f + (size_t)i * (size_t)p->D);
    } else {
        p->test_h = p->test_z = tz;
    }
    return GS_OK;
fail:
    en_problem_free(p);
    return rc;
}
