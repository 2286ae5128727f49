/* data/load.c — build a ds_data from the data options (see gs_load.h).
 *
 * Each source (files, --data, --idx, the bundled sample) takes its files' formats from the table
 * of formats (formats.c: detection, the readers, the --data DIR namings and the messages that
 * list them). Labels are read as ints; a table read whole (CSV, IDX) becomes row-major doubles
 * now, array features (.npy, .npz, .pt) stay on disk as an ld_src per split (load_src.c) behind
 * ds_data.lazy_rows. Then one function validates the pair of splits and fills names and checksum.
 * Memory: every file read whole has its claimed size checked against a budget (the --max-memory
 * limit, or what /proc/meminfo says is available) before its arrays are allocated; features
 * left on disk are counted by the run's estimate of the rows it keeps (pipeline.c).
 */
#include "gs_load.h"
#include "gs_assets.h"
#include "gs_common.h"
#include "gs_csv.h"
#include "gs_idx.h"
#include "gs_npy.h"
#include "gs_synth.h"
#include "formats.h"
#include "load_int.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "load.c converts little-endian .npy data with memcpy; add byte swapping for this host"
#endif

#define LD_MAX_LABEL 999999 /* at most a million classes */

typedef struct {
    uint64_t limit; /* 0 = unknown / unlimited */
    uint64_t used;
    int from_option;
} budget;

static uint64_t budget_left(const budget *b)
{
    if (!b->limit) return 0;
    return b->used < b->limit ? b->limit - b->used : 1; /* 1 byte: refuse everything */
}

static int budget_take(budget *b, const char *file, uint64_t need)
{
    if (b->limit && need > budget_left(b)) {
        char x[32], y[32];
        gs_fmt_bytes(need, x, sizeof x);
        gs_fmt_bytes(b->used < b->limit ? b->limit - b->used : 0, y, sizeof y);
        if (b->from_option)
            return gs_error(GS_EINPUT, "%s: needs %s but --max-memory leaves only %s", file, x, y);
        return gs_error(GS_EINPUT, "%s: needs %s but only %s available (use --max-memory to change "
                        "the limit)", file, x, y);
    }
    b->used += need;
    return GS_OK;
}

static int is_file(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* "FILE:MEMBER" names a member of an .npz or .pt archive when FILE exists and the whole does
 * not: file and member into the buffers (member "" when none). */
static void split_member(const char *path, char *file, size_t fcap, char *member, size_t mcap)
{
    snprintf(file, fcap, "%s", path);
    member[0] = '\0';
    if (is_file(path)) return;
    const char *colon = strrchr(path, ':');
    if (!colon || colon == path || !colon[1]) return;
    char f[4096];
    snprintf(f, sizeof f, "%.*s", (int)(colon - path), path);
    if (!is_file(f)) return;
    snprintf(file, fcap, "%s", f);
    snprintf(member, mcap, "%s", colon + 1);
}

/* The array for `role` (0..3: train features, train labels, test features, test labels) in a
 * file of format f read on demand (f->open chooses it in an archive); PATH:MEMBER names it. */
static int open_array(const ld_format *f, const char *path, int role, ld_src **s)
{
    char file[4096], key[256];
    split_member(path, file, sizeof file, key, sizeof key);
    return f->open(file, key[0] ? key : NULL, role, s);
}

/* ---- arrays read on demand (.npy, .npz, .pt): features validated now, read later (only the
 * rows a run uses) ---- */

static int src_features(const ld_format *f, const char *path, int role, gm_mat *x, ld_src **src)
{
    int st = open_array(f, path, role, src);
    if (st) return st;
    const npy_array *a = ld_src_info(*src);
    const char *nm = ld_src_name(*src);
    long r = a->shape[0], c = a->shape[1];
    if (a->ndim != 2)
        st = gs_error(GS_EINPUT, "%s: features must be a 2-D array (rows × dimensions), this one "
                      "is 1-D with %ld values", nm, r);
    else if ((npy_is_int(a->dtype) && a->dtype != NPY_U1) || a->dtype == NPY_B1)
        st = gs_error(GS_EINPUT, "%s: features are %s (%s); save them as float16, float32, "
                      "float64 or uint8", nm, a->dtype == NPY_B1 ? "booleans" : "integers", npy_dtype_name(a->dtype));
    else if (r == 0 || c == 0)
        st = gs_error(GS_EINPUT, "%s: features array is empty (%ld × %ld)", nm, r, c);
    if (st) { ld_src_close(*src); *src = NULL; return st; }
    x->v = NULL;
    x->rows = r;
    x->cols = c;
    return GS_OK;
}

/* Labels: any integer type, read exactly (finish() maps them to classes 0..C-1). */
static int src_labels(const ld_format *f, const char *path, int role, budget *b, int64_t **y, long *n)
{
    ld_src *s;
    int st = open_array(f, path, role, &s);
    if (st) return st;
    const npy_array *a = ld_src_info(s);
    const char *nm = ld_src_name(s);
    long m = a->ndim == 1 ? a->shape[0] : a->shape[0] * a->shape[1];
    uint64_t raw = (uint64_t)m * a->itemsize;
    void *data = NULL;
    if (a->ndim == 2 && a->shape[1] != 1 && a->shape[0] != 1)
        st = gs_error(GS_EINPUT, "%s: labels must be a 1-D array, this one is %ld × %ld", nm,
                      a->shape[0], a->shape[1]);
    else if (a->dtype == NPY_B1)
        st = gs_error(GS_EINPUT, "%s: labels are booleans (%s); save class indices as integers "
                      "(y.astype('int64'))", nm, npy_dtype_name(a->dtype));
    else if (!npy_is_int(a->dtype))
        st = gs_error(GS_EINPUT, "%s: labels are floating point (%s); save class indices as integers "
                      "(y.astype('int64'), or y.long() in torch)", nm, npy_dtype_name(a->dtype));
    if (!st) st = budget_take(b, nm, raw + (uint64_t)m * sizeof(int64_t));
    if (!st && !(data = gs_malloc(raw ? raw : 1, 1, nm))) st = GS_ENOMEM;
    if (!st && !(*y = gs_malloc(m ? (size_t)m : 1, sizeof(int64_t), nm))) st = GS_ENOMEM;
    if (!st) st = ld_src_read_all(s, data);
    for (long i = 0; i < m && st == GS_OK; i++)
        if (npy_int(a->dtype, data, (size_t)i, &(*y)[i]))
            st = gs_error(GS_EINPUT, "%s: y[%ld] (counted from 0) is %llu, too large for a label", nm, i,
                          (unsigned long long)((const uint64_t *)data)[i]);
    if (data) b->used -= raw;
    free(data);
    ld_src_close(s);
    if (st) { free(*y); *y = NULL; return st; }
    *n = m;
    return GS_OK;
}

/* ---- tables read whole (CSV) ---- */

/* Features (and labels when y != NULL: taken from the label column). */
static int table_features(const ld_format *f, const char *path, int label_col, budget *b, gm_mat *x, int64_t **y,
                          long *ny)
{
    ld_table t;
    int st = f->read(path, y ? label_col : LD_NO_LABEL, budget_left(b), &t);
    if (st) return st;
    if (t.cols == 0) {
        ld_table_free(&t);
        return gs_error(GS_EINPUT, "%s: no feature columns (only the label column)", path);
    }
    if (y) {
        *y = t.y;
        *ny = t.ny;
        t.y = NULL;
    }
    free(t.y);
    b->used += (uint64_t)t.rows * (uint64_t)t.cols * 8 + (y ? (uint64_t)t.rows * sizeof(int64_t) : 0);
    x->rows = t.rows;
    x->cols = t.cols;
    x->v = t.x;
    return GS_OK;
}

/* A labels table: its labels when the format has them apart (IDX), else one column, or the
 * --label-col column of several; whole numbers. */
static int table_labels(const ld_format *f, const char *path, int label_col, budget *b, int64_t **y, long *n)
{
    ld_table t;
    int st = f->read(path, LD_NO_LABEL, budget_left(b), &t);
    if (st) return st;
    if (t.y) {
        free(t.x);
        *y = t.y;
        *n = t.ny;
        b->used += (uint64_t)*n * sizeof(int64_t);
        return GS_OK;
    }
    long col = t.cols == 1 ? 0 : label_col == -1 ? t.cols - 1 : label_col;
    if (col >= t.cols) {
        long c = t.cols;
        ld_table_free(&t);
        return gs_error(GS_EINPUT, "%s: --label-col %d is out of range: the file has %ld columns "
                        "(numbered from 0; -1 = last)", path, label_col, c);
    }
    *y = gs_malloc(t.rows ? (size_t)t.rows : 1, sizeof(int64_t), path);
    if (!*y) { ld_table_free(&t); return GS_ENOMEM; }
    for (long i = 0; i < t.rows && st == GS_OK; i++) {
        double v = t.x[(size_t)i * (size_t)t.cols + (size_t)col];
        if (v != floor(v) || fabs(v) > 9e15)
            st = gs_error(GS_EINPUT, "%s: data row %ld (counted from 1): label %g is not a whole number",
                          path, i + 1, v);
        else (*y)[i] = (int64_t)v;
    }
    *n = t.rows;
    ld_table_free(&t);
    if (st) { free(*y); *y = NULL; return st; }
    b->used += (uint64_t)*n * sizeof(int64_t);
    return GS_OK;
}

/* ---- one split from a features file and a labels file ---- */

/* split: 0 train, 1 test. Features of an array format stay on disk (*src set, x->v NULL); the
 * format of each file comes from the table (formats.c). */
static int load_split(int split, const char *fpath, const char *lpath, int label_col, budget *b,
                      gm_mat *x, ld_src **src, int64_t **y, long *ny)
{
    char ff[4096], fk[256], lf[4096], lk[256];
    split_member(fpath, ff, sizeof ff, fk, sizeof fk);
    split_member(lpath, lf, sizeof lf, lk, sizeof lk);
    if (!is_file(ff) && access(ff, F_OK) != 0)
        return gs_error(GS_EINPUT, "%s: cannot open: %s", fpath, strerror(errno));
    const ld_format *f = ld_fmt_of(ff);
    int st;
    if (f && f->open) {
        st = src_features(f, fpath, 2 * split, x, src);
    } else if (f && !fk[0]) { /* a table names no member */
        int combined = strcmp(fpath, lpath) == 0;
        st = table_features(f, fpath, label_col, b, x, combined ? y : NULL, ny);
        if (st || combined) return st;
    } else {
        return ld_fmt_unknown(fpath, "features");
    }
    if (st) return st;
    if (!is_file(lf) && access(lf, F_OK) != 0)
        return gs_error(GS_EINPUT, "%s: cannot open: %s", lpath, strerror(errno));
    if (!(f = ld_fmt_of(lf)) || (!f->open && lk[0])) return ld_fmt_unknown(lpath, "labels");
    if (f->open) return src_labels(f, lpath, 2 * split + 1, b, y, ny);
    return table_labels(f, lpath, label_col, b, y, ny);
}

/* ds_data.lazy_rows for features left on disk: one source per split. */
typedef struct { ld_src *src[2]; } lazy_files;

static int lazy_rows(void *ctx, int split, const long *idx, long n, double *out)
{
    return ld_src_rows(((lazy_files *)ctx)->src[split], idx, n, out);
}

static void lazy_free(void *ctx)
{
    lazy_files *l = ctx;
    ld_src_close(l->src[0]);
    ld_src_close(l->src[1]);
    free(l);
}

/* ---- IDX ---- */

static int idx_path(const char *dir, const char *base, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s", dir, base);
    if (is_file(out)) return GS_OK;
    snprintf(out, cap, "%s/%s.gz", dir, base);
    if (is_file(out)) return GS_OK;
    return gs_error(GS_EINPUT, "%s/%s[.gz]: cannot open: No such file or directory", dir, base);
}

static int idx_split(const ld_format *f, const char *dir, const char *img, const char *lab, budget *b,
                     gm_mat *x, int64_t **y, long *ny, char *src, size_t srccap)
{
    char ip[4096], lp[4096];
    int st;
    if ((st = idx_path(dir, img, ip, sizeof ip)) || (st = idx_path(dir, lab, lp, sizeof lp))) return st;
    ld_table t;
    if ((st = f->read(ip, LD_NO_LABEL, budget_left(b), &t))) return st;
    if (t.ndim < 2) {
        ld_table_free(&t);
        return gs_error(GS_EINPUT, "%s: not an images file (1-D; expected magic 0x00000803)", ip);
    }
    if (t.rows == 0 || t.cols == 0) {
        ld_table_free(&t);
        return gs_error(GS_EINPUT, "%s: no images", ip);
    }
    x->v = t.x;
    x->rows = t.rows;
    x->cols = t.cols;
    b->used += (uint64_t)t.rows * (uint64_t)t.cols * 8;
    if ((st = f->read(lp, LD_NO_LABEL, budget_left(b), &t))) return st;
    if (t.ndim != 1) {
        ld_table_free(&t);
        return gs_error(GS_EINPUT, "%s: not a labels file (%d-D; expected magic 0x00000801)", lp, t.ndim);
    }
    *y = t.y;
    *ny = t.ny;
    size_t L = strlen(src);
    snprintf(src + L, srccap - L, "%s%s %s", L ? " " : "", ip, lp);
    return GS_OK;
}

/* ---- validation shared by every source ---- */

/* Features in memory: every value. Features left on disk: their shape, type and order, and
 * the values of their first row (reading all of them is what we avoid). */
static uint64_t hash_features(uint64_t h, const gm_mat *x, ld_src *src)
{
    if (x->v) return gs_fnv1a(h, x->v, (size_t)x->rows * (size_t)x->cols * sizeof(double));
    const npy_array *a = ld_src_info(src);
    long facts[4] = {a->shape[0], a->shape[1], (long)a->dtype, a->fortran};
    h = gs_fnv1a(h, facts, sizeof facts);
    double *row = malloc((size_t)x->cols * sizeof(double));
    if (row && ld_src_first_row(src, row) == GS_OK) h = gs_fnv1a(h, row, (size_t)x->cols * sizeof(double));
    free(row);
    gs_clear_error();
    return h;
}

/* What the loaders of one ld_load call share. */
typedef struct {
    budget *b;
    int label_col, normalize;
    ld_warn_fn warn;
    void *user;
} ld_ctx;

static void note(const ld_ctx *cx, const char *msg)
{
    if (cx->warn) cx->warn(msg, cx->user);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The distinct labels of both splits, sorted, become classes 0..C-1; labels that are already
 * 0..C-1 (every value present) map to themselves. A note names any other mapping. */
static int map_labels(const ld_ctx *cx, ds_data *d, const char *trl, const int64_t *ytr, long ntr,
                      const int64_t *yte, long nte, int64_t **uniq_out, int *C_out)
{
    size_t n = (size_t)ntr + (size_t)nte;
    int64_t *u = gs_malloc(n ? n : 1, sizeof *u, "labels");
    if (!u) return GS_ENOMEM;
    memcpy(u, ytr, (size_t)ntr * sizeof *u);
    memcpy(u + ntr, yte, (size_t)nte * sizeof *u);
    qsort(u, n, sizeof *u, cmp_i64);
    size_t C = 0;
    for (size_t i = 0; i < n; i++) if (!C || u[i] != u[C - 1]) u[C++] = u[i];
    if (C > LD_MAX_LABEL + 1) {
        free(u);
        return gs_error(GS_EINPUT, "%s: the labels take %zu distinct values; at most %d classes", trl, C, LD_MAX_LABEL + 1);
    }
    int identity = 1;
    for (size_t k = 0; k < C && identity; k++) identity = u[k] == (int64_t)k;
    d->train_y = gs_malloc(ntr ? (size_t)ntr : 1, sizeof(int), "labels");
    d->test_y = gs_malloc(nte ? (size_t)nte : 1, sizeof(int), "labels");
    if (!d->train_y || !d->test_y) { free(u); return GS_ENOMEM; }
    for (int sp = 0; sp < 2; sp++) {
        const int64_t *y = sp ? yte : ytr;
        int *out = sp ? d->test_y : d->train_y;
        long m = sp ? nte : ntr;
        for (long i = 0; i < m; i++) {
            if (identity) { out[i] = (int)y[i]; continue; }
            const int64_t *f = bsearch(&y[i], u, C, sizeof *u, cmp_i64);
            out[i] = (int)(f - u);
        }
    }
    if (!identity) {
        char msg[1024];
        int L;
        if (u[C - 1] - u[0] == (int64_t)C - 1)
            L = snprintf(msg, sizeof msg, "labels %lld..%lld are classes 0..%zu (each label minus %lld)",
                         (long long)u[0], (long long)u[C - 1], C - 1, (long long)u[0]);
        else {
            L = snprintf(msg, sizeof msg, "the %zu distinct labels are not 0..%zu; they are classes 0..%zu in "
                         "sorted order:", C, C - 1, C - 1);
            for (size_t k = 0; k < C && L < 900; k++)
                L += snprintf(msg + L, sizeof msg - (size_t)L, "%s %lld→%zu", k ? "," : "", (long long)u[k], k);
            if (L >= 900) snprintf(msg + L, sizeof msg - (size_t)L, ", … %lld→%zu", (long long)u[C - 1], C - 1);
        }
        note(cx, msg);
    }
    *uniq_out = u;
    *C_out = (int)C;
    return GS_OK;
}

/* All-zero rows of features held in memory. */
static void zero_rows(const gm_mat *x, long *nzero, long *first)
{
    *nzero = 0;
    *first = -1;
    for (long i = 0; i < x->rows; i++) {
        const double *z = x->v + (size_t)i * (size_t)x->cols;
        long j = 0;
        while (j < x->cols && z[j] == 0) j++;
        if (j == x->cols) { if (*first < 0) *first = i; ++*nzero; }
    }
}

/* Every value of every row is read once here, whatever rows a run keeps later: a NaN or an
 * infinity refuses the file, all-zero rows are named (L2 normalization leaves them zero). */
static int check_rows(const ld_ctx *cx, const char *path, const gm_mat *x, ld_src *src)
{
    long nz = 0, first = -1;
    int st = GS_OK;
    if (x->v) zero_rows(x, &nz, &first);
    else st = ld_src_scan(src, &nz, &first);
    if (!st && nz && cx->normalize) {
        char msg[1200];
        snprintf(msg, sizeof msg, "%s: %ld row%s all zeros (first: row %ld, counted from 0); L2 normalization "
                 "leaves %s zero", src ? ld_src_name(src) : path, nz, nz == 1 ? " is" : "s are", first,
                 nz == 1 ? "it" : "them");
        note(cx, msg);
    }
    return st;
}

static int finish(const ld_ctx *cx, ds_data *d, const char *trf, const char *trl, int64_t *ytr, long ntrl,
                  const char *tef, const char *tel, int64_t *yte, long ntel)
{
    if (d->train_x.rows != ntrl)
        return gs_error(GS_EINPUT, "%s: has %ld labels but %s has %ld rows", trl, ntrl, trf,
                        d->train_x.rows);
    if (d->test_x.rows != ntel)
        return gs_error(GS_EINPUT, "%s: has %ld labels but %s has %ld rows", tel, ntel, tef,
                        d->test_x.rows);
    if (d->train_x.cols != d->test_x.cols)
        return gs_error(GS_EINPUT, "%s: has %ld columns but %s has %ld; train and test features "
                        "must have the same dimension", tef, d->test_x.cols, trf, d->train_x.cols);
    int64_t *u = NULL;
    int C = 0;
    int st = map_labels(cx, d, trl, ytr, ntrl, yte, ntel, &u, &C);
    if (st) { free(u); return st; }
    long *tr = gs_calloc((size_t)C, sizeof(long), "class counts");
    long *te = gs_calloc((size_t)C, sizeof(long), "class counts");
    if (!tr || !te) { free(tr); free(te); free(u); return GS_ENOMEM; }
    for (long i = 0; i < ntrl; i++) tr[d->train_y[i]]++;
    for (long i = 0; i < ntel; i++) te[d->test_y[i]]++;
    int seen = 0, unseen = 0, first_unseen = -1;
    long unseen_rows = 0;
    for (int c = 0; c < C; c++) {
        if (tr[c]) seen++;
        else if (te[c]) { if (first_unseen < 0) first_unseen = c; unseen++; unseen_rows += te[c]; }
    }
    if (seen < 2) {
        st = gs_error(GS_EINPUT, "%s: the training labels have %d class%s; need at least two", trl,
                      seen, seen == 1 ? "" : "es");
    } else if (unseen) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s: %d test class%s no training rows (first: label %lld, %ld test rows); "
                 "%s %ld test rows are left out of every accuracy", tel, unseen, unseen == 1 ? " has" : "es have",
                 (long long)u[first_unseen], te[first_unseen], unseen == 1 ? "its" : "their", unseen_rows);
        note(cx, msg);
    }
    free(tr);
    free(te);
    free(u);
    if (st) return st;
    d->n_classes = C;
    ld_src *s0 = d->lazy_ctx && d->lazy_rows == lazy_rows ? ((lazy_files *)d->lazy_ctx)->src[0] : NULL;
    ld_src *s1 = d->lazy_ctx && d->lazy_rows == lazy_rows ? ((lazy_files *)d->lazy_ctx)->src[1] : NULL;
    if ((st = check_rows(cx, trf, &d->train_x, s0)) || (st = check_rows(cx, tef, &d->test_x, s1))) return st;
    uint64_t h = GS_FNV_INIT;
    h = hash_features(h, &d->train_x, s0);
    h = gs_fnv1a(h, d->train_y, (size_t)ntrl * sizeof(int));
    h = hash_features(h, &d->test_x, s1);
    h = gs_fnv1a(h, d->test_y, (size_t)ntel * sizeof(int));
    d->checksum = h;
    return GS_OK;
}

static void base_name(const char *path, char *out, size_t cap)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    size_t s = n;
    while (s > 0 && path[s - 1] != '/') s--;
    snprintf(out, cap, "%.*s", (int)(n - s), path + s);
}

static int load_files(const ld_ctx *cx, const char *trf, const char *trl, const char *tef, const char *tel,
                      ds_data *d)
{
    long ntr = 0, nte = 0;
    int64_t *ytr = NULL, *yte = NULL;
    lazy_files *l = gs_calloc(1, sizeof *l, "data sources");
    if (!l) return GS_ENOMEM;
    d->lazy_rows = lazy_rows;
    d->lazy_ctx = l;
    d->lazy_free = lazy_free;
    d->lazy_bulk = 1;
    int st = load_split(0, trf, trl, cx->label_col, cx->b, &d->train_x, &l->src[0], &ytr, &ntr);
    if (!st) st = load_split(1, tef, tel, cx->label_col, cx->b, &d->test_x, &l->src[1], &yte, &nte);
    if (!st) st = finish(cx, d, trf, trl, ytr, ntr, tef, tel, yte, nte);
    free(ytr);
    free(yte);
    if (!st) {
        int n = snprintf(d->source, sizeof d->source, "%s %s %s %s", trf, trl, tef, tel);
        if (n >= (int)sizeof d->source) snprintf(d->source + sizeof d->source - 4, 4, "...");
        base_name(trf, d->name, sizeof d->name);
    }
    return st;
}

/* --data DIR: the four files of the first naming of the format table found in DIR (four .npy
 * files, four .pt files X_train.pt, ..., or train.csv and test.csv with a label column);
 * --data FILE.npz / FILE.pt: the four arrays of one archive. */
static int load_dir(const ld_ctx *cx, const char *dir, ds_data *d)
{
    const ld_format *f = is_file(dir) ? ld_fmt_of(dir) : NULL;
    if (f && f->archive) {
        int st = load_files(cx, dir, dir, dir, dir, d);
        if (!st) {
            snprintf(d->source, sizeof d->source, "%s", dir);
            base_name(dir, d->name, sizeof d->name);
        }
        return st;
    }
    char p[4][4096];
    f = NULL;
    for (int i = 0; i < ld_fmt_count && !f; i++) {
        const ld_format *r = &ld_fmt_table[i];
        if (!r->words || !r->dir[0]) continue;
        snprintf(p[0], sizeof p[0], "%s/%s", dir, r->dir[0]);
        if (is_file(p[0])) f = r;
    }
    if (!f) {
        struct stat sb;
        if (stat(dir, &sb) != 0)
            return gs_error(GS_EINPUT, "%s: cannot open: %s", dir, strerror(errno));
        char first[512], more[1024], arch[128], all[1536];
        ld_fmt_dir_names(first, sizeof first, 0, 1, 1, ", or ");
        ld_fmt_dir_names(more, sizeof more, 1, ld_fmt_count, 1, ", or ");
        ld_fmt_dir_names(all, sizeof all, 0, ld_fmt_count, 0, ", or ");
        if (!S_ISDIR(sb.st_mode)) {
            char slash[128];
            ld_fmt_archive_words(slash, sizeof slash, " / ");
            ld_fmt_archive_words(arch, sizeof arch, " or ");
            return gs_error(GS_EINPUT, "%s: not a directory or an %s archive (--data takes a folder holding %s "
                            "(or %s), or an %s archive of those four arrays)", dir, slash, first, more, arch);
        }
        for (int i = 0; i < ld_fmt_count && !f; i++)
            if (ld_fmt_table[i].words && ld_fmt_table[i].dir[0]) f = &ld_fmt_table[i];
        snprintf(p[0], sizeof p[0], "%s/%s", dir, f->dir[0]);
        return gs_error(GS_EINPUT, "%s: cannot open: No such file or directory (--data DIR needs %s)", p[0], all);
    }
    for (int k = 1; k < 4; k++) snprintf(p[k], sizeof p[k], "%s/%s", dir, f->dir[k]);
    int st = load_files(cx, p[0], p[1], p[2], p[3], d);
    if (!st && f->open) { /* a folder of tables keeps the names of its files */
        snprintf(d->source, sizeof d->source, "%s", dir);
        base_name(dir, d->name, sizeof d->name);
    }
    return st;
}

/* --idx DIR: the four files of the idx row's naming (each plain or .gz). */
static int load_idx(const ld_ctx *cx, const char *dir, ds_data *d)
{
    const ld_format *f = ld_fmt_named("idx");
    const char *const *nm = f->dir;
    long ntr = 0, nte = 0;
    int64_t *ytr = NULL, *yte = NULL;
    int st = idx_split(f, dir, nm[0], nm[1], cx->b, &d->train_x, &ytr, &ntr, d->source, sizeof d->source);
    if (!st) st = idx_split(f, dir, nm[2], nm[3], cx->b, &d->test_x, &yte, &nte, d->source, sizeof d->source);
    if (!st) {
        char p[4][4096];
        for (int k = 0; k < 4; k++) snprintf(p[k], sizeof p[k], "%s/%s", dir, nm[k]);
        st = finish(cx, d, p[0], p[1], ytr, ntr, p[2], p[3], yte, nte);
    }
    free(ytr);
    free(yte);
    if (!st) base_name(dir, d->name, sizeof d->name);
    return st;
}

/* The bundled set in folder `sub` (fashion-mnist: pixels, fashion-mnist-mobilenetv2:
 * embeddings): ./sample_features/SUB, next to the executable (../sample_features/SUB from
 * build/gsrscope), then SUB in the installed data folders (as_install_dirs: ../share/gsrscope,
 * GS_DATADIR). $GSRSCOPE_DATA, when set, replaces the default (pixel) set only. */
static int find_sample(const char *sub, int use_env, char *out, size_t cap)
{
    char tried[2048] = "";
    const char *first = ld_fmt_named("npy")->dir[0]; /* the sets are .npy files */
    const char *env = use_env ? getenv("GSRSCOPE_DATA") : NULL;
    if (env && *env) {
        snprintf(out, cap, "%s", env);
        char f[4200], names[512];
        snprintf(f, sizeof f, "%s/%s", env, first);
        if (is_file(f)) return GS_OK;
        ld_fmt_dir_names(names, sizeof names, 0, 1, 1, ", or ");
        return gs_error(GS_EINPUT, "%s: cannot open: No such file or directory ($GSRSCOPE_DATA "
                        "must name a folder holding %s)", f, names);
    }
    char cand[4][4096], inst[2][AS_MAX_PATH];
    int nc = 0;
    snprintf(cand[nc++], sizeof cand[0], "sample_features/%s", sub);
    char exe[4096];
    if (gs_exe_dir(exe, sizeof exe) == 0)
        snprintf(cand[nc++], sizeof cand[0], "%.3900s/../sample_features/%.64s", exe, sub);
    for (int i = 0, n = as_install_dirs(inst, 2); i < n; i++)
        snprintf(cand[nc++], sizeof cand[0], "%.3900s/%.64s", inst[i], sub);
    const char *cp[4];
    for (int i = 0; i < nc; i++) cp[i] = cand[i];
    int k = gs_find_folder(cp, nc, first, 0, tried, sizeof tried);
    if (k >= 0) { snprintf(out, cap, "%s", cand[k]); return GS_OK; }
    return gs_error(GS_EINPUT, "bundled sample data not found (tried %s%s); give "
                    "--data DIR, --idx DIR, the four --train-/--test- files or --synthetic",
                    use_env ? "$GSRSCOPE_DATA, " : "", tried);
}

int ld_load(const op_data *o, ds_data *out, ld_warn_fn warn, void *user)
{
    memset(out, 0, sizeof *out);
    if (o->synthetic) {
        syn_config c;
        syn_defaults(&c);
        return syn_generate(&c, SYN_DATA_SEED, out);
    }
    budget b = {0, 0, 0};
    if (o->max_memory > 0) {
        b.limit = o->max_memory >= 1.8e19 ? UINT64_MAX : (uint64_t)o->max_memory;
        b.from_option = 1;
    } else {
        b.limit = gs_mem_available();
    }
    ld_ctx cx = {&b, o->label_col, !o->no_normalize, warn, user};
    int st;
    if (o->train_features || o->train_labels || o->test_features || o->test_labels) {
        if (!o->train_features || !o->train_labels || !o->test_features || !o->test_labels)
            return gs_error(GS_EINPUT, "--train-features, --train-labels, --test-features and "
                            "--test-labels go together");
        st = load_files(&cx, o->train_features, o->train_labels, o->test_features, o->test_labels, out);
    } else if (o->data_dir) {
        st = load_dir(&cx, o->data_dir, out);
    } else if (o->idx_dir) {
        st = load_idx(&cx, o->idx_dir, out);
    } else {
        /* The bundled sets: --sample pixels (the default) or mobilenetv2. */
        int emb = o->sample && !strcmp(o->sample, "mobilenetv2");
        char dir[4096];
        st = find_sample(emb ? "fashion-mnist-mobilenetv2" : "fashion-mnist", !o->sample, dir,
                         sizeof dir);
        if (!st) st = load_dir(&cx, dir, out);
        if (!st) snprintf(out->name, sizeof out->name, "fashion-mnist %s (sample)",
                          emb ? "mobilenetv2" : "pixels");
    }
    if (st) ds_free(out);
    return st;
}
