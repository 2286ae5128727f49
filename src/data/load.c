/* data/load.c — build a ds_data from the data options (see gs_load.h).
 *
 * Each source (files, --data, --idx, the bundled sample) reads labels through the strict readers
 * (npy_read.c for .npy and .npz members via load_src.c, csv.c, idx.c) as ints; CSV and IDX
 * features become row-major doubles now, .npy/.npz features stay on disk as an ld_src per split
 * (load_src.c) behind ds_data.lazy_rows. Then one function validates the pair of splits and
 * fills names and checksum.
 * Memory: every file read whole has its claimed size checked against a budget (the --max-memory
 * limit, or what /proc/meminfo says is available) before its arrays are allocated; features
 * left on disk are counted by the run's estimate of the rows it keeps (pipeline.c).
 */
#include "gs_load.h"
#include "gs_common.h"
#include "gs_csv.h"
#include "gs_idx.h"
#include "gs_npy.h"
#include "gs_synth.h"
#include "load_int.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GS_DATADIR
#define GS_DATADIR "/usr/local/share/gsrscope"
#endif

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
            return gs_error(GS_ENOMEM, "%s: needs %s but --max-memory leaves only %s", file, x, y);
        return gs_error(GS_ENOMEM, "%s: needs %s but only %s available (use --max-memory to change "
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

static int ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

/* .npy / .npz by content (magic) or name; .csv/.txt by name. */
static int has_magic(const char *path, const char *ext, const char *magic, size_t n)
{
    if (ends_with(path, ext)) return 1;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    unsigned char m[8] = {0};
    size_t got = fread(m, 1, n, f);
    fclose(f);
    return got == n && memcmp(m, magic, n) == 0;
}
static int is_npy(const char *path) { return has_magic(path, ".npy", "\x93NUMPY", 6); }
static int is_npz(const char *path) { return has_magic(path, ".npz", "PK\x03\x04", 4); }

static const char *const role_name[4] = {"train_features", "train_labels", "test_features", "test_labels"};

/* The array for `role` (0..3, role_name) in a .npy file or an .npz archive: the member
 * ROLE.npy, or the archive's only array. */
static int open_array(const char *path, int role, ld_src **s)
{
    if (!is_npz(path)) return ld_src_open_npy(path, s);
    char member[64];
    snprintf(member, sizeof member, "%s.npy", role_name[role]);
    int st = ld_src_open_npz(path, member, 1, s);
    if (st || *s) return st;
    char names[2][256];
    int n = 0;
    if ((st = ld_src_npz_members(path, names, 2, &n))) return st;
    if (n == 1) return ld_src_open_npz(path, names[0], 0, s);
    return ld_src_open_npz(path, member, 0, s); /* refused, naming what it holds */
}

/* ---- .npy / .npz features: validated now, read later (only the rows a run uses) ---- */

static int npy_features(const char *path, int role, gm_mat *x, ld_src **src)
{
    int st = open_array(path, role, src);
    if (st) return st;
    const npy_array *a = ld_src_info(*src);
    const char *nm = ld_src_name(*src);
    long r = a->shape[0], c = a->shape[1];
    if (a->ndim != 2)
        st = gs_error(GS_EINPUT, "%s: features must be a 2-D array (rows × dimensions), this one "
                      "is 1-D with %ld values", nm, r);
    else if (a->dtype == NPY_I4 || a->dtype == NPY_I8)
        st = gs_error(GS_EINPUT, "%s: features are integers (%s); save them as float16, float32, "
                      "float64 or uint8", nm, a->dtype == NPY_I4 ? "<i4" : "<i8");
    else if (r == 0 || c == 0)
        st = gs_error(GS_EINPUT, "%s: features array is empty (%ld × %ld)", nm, r, c);
    if (st) { ld_src_close(*src); *src = NULL; return st; }
    x->v = NULL;
    x->rows = r;
    x->cols = c;
    return GS_OK;
}

static int label_value(const char *path, long row, double v, int *out)
{
    if (isnan(v)) return gs_error(GS_EINPUT, "%s: row %ld: label is NaN", path, row + 1);
    if (v < 0) return gs_error(GS_EINPUT, "%s: row %ld: label %g is negative", path, row + 1, v);
    if (v != floor(v))
        return gs_error(GS_EINPUT, "%s: row %ld: label %g is not an integer", path, row + 1, v);
    if (v > LD_MAX_LABEL)
        return gs_error(GS_EINPUT, "%s: row %ld: label %g is too large (labels are class indices "
                        "0..C-1, at most %d)", path, row + 1, v, LD_MAX_LABEL);
    *out = (int)v;
    return GS_OK;
}

static int npy_labels(const char *path, int role, budget *b, int **y, long *n)
{
    ld_src *s;
    int st = open_array(path, role, &s);
    if (st) return st;
    const npy_array *a = ld_src_info(s);
    const char *nm = ld_src_name(s);
    long m = a->ndim == 1 ? a->shape[0] : a->shape[0] * a->shape[1];
    uint64_t raw = (uint64_t)m * a->itemsize;
    void *data = NULL;
    if (a->ndim == 2 && a->shape[1] != 1 && a->shape[0] != 1)
        st = gs_error(GS_EINPUT, "%s: labels must be a 1-D array, this one is %ld × %ld", nm,
                      a->shape[0], a->shape[1]);
    if (!st) st = budget_take(b, nm, raw + (uint64_t)m * sizeof(int));
    if (!st && !(data = gs_malloc(raw ? raw : 1, 1, nm))) st = GS_ENOMEM;
    if (!st && !(*y = gs_malloc(m ? (size_t)m : 1, sizeof(int), nm))) st = GS_ENOMEM;
    if (!st) st = ld_src_read_all(s, data);
    for (long i = 0; i < m && st == GS_OK; i++) {
        double v = npy_value(a->dtype, data, (size_t)i); /* <i8 beyond 2^53 rounds: still too large */
        if (isinf(v)) st = gs_error(GS_EINPUT, "%s: row %ld: label is infinite", nm, i + 1);
        else st = label_value(nm, i, v, &(*y)[i]);
    }
    if (data) b->used -= raw;
    free(data);
    ld_src_close(s);
    if (st) { free(*y); *y = NULL; return st; }
    *n = m;
    return GS_OK;
}

/* ---- CSV ---- */

/* Features (and labels when y != NULL: taken from the label column). */
static int csv_features(const char *path, int label_col, budget *b, gm_mat *x, int **y, long *ny)
{
    csv_table t;
    int st = csv_read(path, y ? label_col : CSV_NO_LABEL, budget_left(b), &t);
    if (st) return st;
    if (t.cols == 0) {
        csv_free(&t);
        return gs_error(GS_EINPUT, "%s: no feature columns (only the label column)", path);
    }
    b->used += (uint64_t)t.rows * (uint64_t)t.cols * 8 + (y ? (uint64_t)t.rows * sizeof(int) : 0);
    x->rows = t.rows;
    x->cols = t.cols;
    x->v = t.x;
    if (y) { *y = t.y; *ny = t.rows; }
    return GS_OK;
}

/* A labels CSV: one column, or the --label-col column of several. */
static int csv_labels(const char *path, int label_col, budget *b, int **y, long *n)
{
    csv_table t;
    int st = csv_read(path, CSV_NO_LABEL, budget_left(b), &t);
    if (st) return st;
    long col = t.cols == 1 ? 0 : label_col == -1 ? t.cols - 1 : label_col;
    if (col >= t.cols) {
        long c = t.cols;
        csv_free(&t);
        return gs_error(GS_EINPUT, "%s: --label-col %d is out of range: the file has %ld columns "
                        "(numbered from 0; -1 = last)", path, label_col, c);
    }
    *y = gs_malloc((size_t)t.rows, sizeof(int), path);
    if (!*y) { csv_free(&t); return GS_ENOMEM; }
    for (long i = 0; i < t.rows && st == GS_OK; i++)
        st = label_value(path, i, t.x[(size_t)i * (size_t)t.cols + (size_t)col], &(*y)[i]);
    *n = t.rows;
    csv_free(&t);
    if (st) { free(*y); *y = NULL; return st; }
    b->used += (uint64_t)*n * sizeof(int);
    return GS_OK;
}

/* ---- one split from a features file and a labels file ---- */

/* split: 0 train, 1 test. Features from .npy/.npz stay on disk (*src set, x->v NULL). */
static int load_split(int split, const char *fpath, const char *lpath, int label_col, budget *b,
                      gm_mat *x, ld_src **src, int **y, long *ny)
{
    if (!is_file(fpath) && access(fpath, F_OK) != 0)
        return gs_error(GS_EINPUT, "%s: cannot open: %s", fpath, strerror(errno));
    int st;
    if (is_npy(fpath) || is_npz(fpath)) {
        st = npy_features(fpath, 2 * split, x, src);
    } else if (ends_with(fpath, ".csv") || ends_with(fpath, ".txt")) {
        int combined = strcmp(fpath, lpath) == 0;
        st = csv_features(fpath, label_col, b, x, combined ? y : NULL, ny);
        if (st || combined) return st;
    } else {
        return gs_error(GS_EINPUT, "%s: unknown format (features must be .npy, .npz or .csv)", fpath);
    }
    if (st) return st;
    if (!is_file(lpath) && access(lpath, F_OK) != 0)
        return gs_error(GS_EINPUT, "%s: cannot open: %s", lpath, strerror(errno));
    if (is_npy(lpath) || is_npz(lpath)) return npy_labels(lpath, 2 * split + 1, b, y, ny);
    if (ends_with(lpath, ".csv") || ends_with(lpath, ".txt")) return csv_labels(lpath, label_col, b, y, ny);
    return gs_error(GS_EINPUT, "%s: unknown format (labels must be .npy, .npz or .csv)", lpath);
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

static int idx_split(const char *dir, const char *img, const char *lab, budget *b, gm_mat *x,
                     int **y, long *ny, char *src, size_t srccap)
{
    char ip[4096], lp[4096];
    int st;
    if ((st = idx_path(dir, img, ip, sizeof ip)) || (st = idx_path(dir, lab, lp, sizeof lp))) return st;
    idx_array a;
    if ((st = idx_read(ip, budget_left(b), &a))) return st;
    if (a.ndim < 2) {
        idx_free(&a);
        return gs_error(GS_EINPUT, "%s: not an images file (1-D; expected magic 0x00000803)", ip);
    }
    if (a.n == 0 || a.item == 0) {
        idx_free(&a);
        return gs_error(GS_EINPUT, "%s: no images", ip);
    }
    x->v = gs_malloc((size_t)a.n * (size_t)a.item, sizeof(double), ip);
    if (!x->v) { idx_free(&a); return GS_ENOMEM; }
    x->rows = a.n;
    x->cols = a.item;
    for (size_t k = 0; k < (size_t)a.n * (size_t)a.item; k++) x->v[k] = a.data[k];
    b->used += (uint64_t)a.n * (uint64_t)a.item * 8;
    idx_free(&a);
    if ((st = idx_read(lp, budget_left(b), &a))) return st;
    if (a.ndim != 1) {
        idx_free(&a);
        return gs_error(GS_EINPUT, "%s: not a labels file (%d-D; expected magic 0x00000801)", lp, a.ndim);
    }
    *y = gs_malloc(a.n ? (size_t)a.n : 1, sizeof(int), lp);
    if (!*y) { idx_free(&a); return GS_ENOMEM; }
    for (long i = 0; i < a.n; i++) (*y)[i] = a.data[i];
    *ny = a.n;
    idx_free(&a);
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

static int finish(ds_data *d, const char *trf, const char *trl, long ntrl, const char *tef,
                  const char *tel, long ntel, ld_warn_fn warn, void *user)
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
    int maxl = -1;
    for (long i = 0; i < ntrl; i++) if (d->train_y[i] > maxl) maxl = d->train_y[i];
    for (long i = 0; i < ntel; i++) if (d->test_y[i] > maxl) maxl = d->test_y[i];
    int C = maxl + 1;
    long *tr = gs_calloc((size_t)C, sizeof(long), "class counts");
    long *te = gs_calloc((size_t)C, sizeof(long), "class counts");
    if (!tr || !te) { free(tr); free(te); return GS_ENOMEM; }
    for (long i = 0; i < ntrl; i++) tr[d->train_y[i]]++;
    for (long i = 0; i < ntel; i++) te[d->test_y[i]]++;
    int seen = 0, unseen = 0, first_unseen = -1;
    for (int c = 0; c < C; c++) {
        if (tr[c]) seen++;
        else if (te[c]) { if (first_unseen < 0) first_unseen = c; unseen++; }
    }
    int st = GS_OK;
    if (seen < 2) {
        st = gs_error(GS_EINPUT, "%s: the training labels have %d class%s; need at least two", trl,
                      seen, seen == 1 ? "" : "es");
    } else if (unseen && warn) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s: %d test class%s never seen in training (first: class %d, "
                 "%ld test rows); %s always counted as errors", tel, unseen, unseen == 1 ? " is" : "es are",
                 first_unseen, te[first_unseen], unseen == 1 ? "it is" : "they are");
        warn(msg, user);
    }
    free(tr);
    free(te);
    if (st) return st;
    d->n_classes = C;
    uint64_t h = GS_FNV_INIT;
    h = hash_features(h, &d->train_x, d->lazy_ctx ? ((lazy_files *)d->lazy_ctx)->src[0] : NULL);
    h = gs_fnv1a(h, d->train_y, (size_t)ntrl * sizeof(int));
    h = hash_features(h, &d->test_x, d->lazy_ctx ? ((lazy_files *)d->lazy_ctx)->src[1] : NULL);
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

static int load_files(const char *trf, const char *trl, const char *tef, const char *tel,
                      int label_col, budget *b, ds_data *d, ld_warn_fn warn, void *user)
{
    long ntr = 0, nte = 0;
    lazy_files *l = gs_calloc(1, sizeof *l, "data sources");
    if (!l) return GS_ENOMEM;
    d->lazy_rows = lazy_rows;
    d->lazy_ctx = l;
    d->lazy_free = lazy_free;
    d->lazy_bulk = 1;
    int st = load_split(0, trf, trl, label_col, b, &d->train_x, &l->src[0], &d->train_y, &ntr);
    if (!st) st = load_split(1, tef, tel, label_col, b, &d->test_x, &l->src[1], &d->test_y, &nte);
    if (!st) st = finish(d, trf, trl, ntr, tef, tel, nte, warn, user);
    if (!st) {
        int n = snprintf(d->source, sizeof d->source, "%s %s %s %s", trf, trl, tef, tel);
        if (n >= (int)sizeof d->source) snprintf(d->source + sizeof d->source - 4, 4, "...");
        base_name(trf, d->name, sizeof d->name);
    }
    return st;
}

/* --data DIR: four .npy files, or train.csv and test.csv with a label column; --data FILE.npz:
 * the four arrays of one archive. */
static int load_dir(const char *dir, int label_col, budget *b, ds_data *d, ld_warn_fn warn, void *user)
{
    if (is_file(dir) && is_npz(dir)) {
        int st = load_files(dir, dir, dir, dir, label_col, b, d, warn, user);
        if (!st) {
            snprintf(d->source, sizeof d->source, "%s", dir);
            base_name(dir, d->name, sizeof d->name);
        }
        return st;
    }
    char p[4][4096];
    snprintf(p[0], sizeof p[0], "%s/train_features.npy", dir);
    if (!is_file(p[0])) {
        char c0[4096], c1[4096];
        snprintf(c0, sizeof c0, "%s/train.csv", dir);
        snprintf(c1, sizeof c1, "%s/test.csv", dir);
        if (is_file(c0)) return load_files(c0, c0, c1, c1, label_col, b, d, warn, user);
        struct stat sb;
        if (stat(dir, &sb) != 0)
            return gs_error(GS_EINPUT, "%s: cannot open: %s", dir, strerror(errno));
        if (!S_ISDIR(sb.st_mode))
            return gs_error(GS_EINPUT, "%s: not a directory or an .npz archive (--data takes a folder "
                            "holding train_features.npy, train_labels.npy, test_features.npy, "
                            "test_labels.npy, or an .npz archive of those four arrays)", dir);
        return gs_error(GS_EINPUT, "%s: cannot open: No such file or directory (--data DIR needs "
                        "train_features.npy, train_labels.npy, test_features.npy, test_labels.npy, "
                        "or train.csv and test.csv)", p[0]);
    }
    snprintf(p[1], sizeof p[1], "%s/train_labels.npy", dir);
    snprintf(p[2], sizeof p[2], "%s/test_features.npy", dir);
    snprintf(p[3], sizeof p[3], "%s/test_labels.npy", dir);
    int st = load_files(p[0], p[1], p[2], p[3], label_col, b, d, warn, user);
    if (!st) {
        snprintf(d->source, sizeof d->source, "%s", dir);
        base_name(dir, d->name, sizeof d->name);
    }
    return st;
}

static int load_idx(const char *dir, budget *b, ds_data *d, ld_warn_fn warn, void *user)
{
    long ntr = 0, nte = 0;
    int st = idx_split(dir, "train-images-idx3-ubyte", "train-labels-idx1-ubyte", b, &d->train_x,
                       &d->train_y, &ntr, d->source, sizeof d->source);
    if (!st) st = idx_split(dir, "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte", b, &d->test_x,
                            &d->test_y, &nte, d->source, sizeof d->source);
    if (!st) {
        char trf[4096], trl[4096], tef[4096], tel[4096];
        snprintf(trf, sizeof trf, "%s/train-images-idx3-ubyte", dir);
        snprintf(trl, sizeof trl, "%s/train-labels-idx1-ubyte", dir);
        snprintf(tef, sizeof tef, "%s/t10k-images-idx3-ubyte", dir);
        snprintf(tel, sizeof tel, "%s/t10k-labels-idx1-ubyte", dir);
        st = finish(d, trf, trl, ntr, tef, tel, nte, warn, user);
    }
    if (!st) base_name(dir, d->name, sizeof d->name);
    return st;
}

/* The bundled set in folder `sub` (fashion-mnist: pixels, fashion-mnist-mobilenetv2:
 * embeddings): ./sample_features/SUB, next to the executable (../sample_features/SUB from
 * build/gsrscope, ../share/gsrscope/SUB when installed), then GS_DATADIR/SUB. $GSRSCOPE_DATA,
 * when set, replaces the default (pixel) set only. */
static int find_sample(const char *sub, int use_env, char *out, size_t cap)
{
    char tried[2048] = "";
    const char *env = use_env ? getenv("GSRSCOPE_DATA") : NULL;
    if (env && *env) {
        snprintf(out, cap, "%s", env);
        char f[4200];
        snprintf(f, sizeof f, "%s/train_features.npy", env);
        if (is_file(f)) return GS_OK;
        return gs_error(GS_EINPUT, "%s: cannot open: No such file or directory ($GSRSCOPE_DATA "
                        "must name a folder holding train_features.npy, train_labels.npy, "
                        "test_features.npy, test_labels.npy)", f);
    }
    char cand[4][4096];
    int nc = 0;
    snprintf(cand[nc++], sizeof cand[0], "sample_features/%s", sub);
    char exe[4096];
    if (gs_exe_dir(exe, sizeof exe) == 0) {
        snprintf(cand[nc++], sizeof cand[0], "%.3900s/../sample_features/%.64s", exe, sub);
        snprintf(cand[nc++], sizeof cand[0], "%.3900s/../share/gsrscope/%.64s", exe, sub);
    }
    snprintf(cand[nc++], sizeof cand[0], "%.3900s/%.64s", GS_DATADIR, sub);
    const char *cp[4];
    for (int i = 0; i < nc; i++) cp[i] = cand[i];
    int k = gs_find_folder(cp, nc, "train_features.npy", 0, tried, sizeof tried);
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
    int st;
    if (o->train_features || o->train_labels || o->test_features || o->test_labels) {
        if (!o->train_features || !o->train_labels || !o->test_features || !o->test_labels)
            return gs_error(GS_EINPUT, "--train-features, --train-labels, --test-features and "
                            "--test-labels go together");
        st = load_files(o->train_features, o->train_labels, o->test_features, o->test_labels,
                        o->label_col, &b, out, warn, user);
    } else if (o->data_dir) {
        st = load_dir(o->data_dir, o->label_col, &b, out, warn, user);
    } else if (o->idx_dir) {
        st = load_idx(o->idx_dir, &b, out, warn, user);
    } else {
        /* The bundled sets: --sample pixels (the default) or mobilenetv2. */
        int emb = o->sample && !strcmp(o->sample, "mobilenetv2");
        char dir[4096];
        st = find_sample(emb ? "fashion-mnist-mobilenetv2" : "fashion-mnist", !o->sample, dir,
                         sizeof dir);
        if (!st) st = load_dir(dir, o->label_col, &b, out, warn, user);
        if (!st) snprintf(out->name, sizeof out->name, "fashion-mnist %s (sample)",
                          emb ? "mobilenetv2" : "pixels");
    }
    if (st) ds_free(out);
    return st;
}
