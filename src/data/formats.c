/* data/formats.c — the feature file formats, one row each, and what is decided from the rows: a
 * file's format, the "unknown format" message, the --data DIR namings (formats.h).
 *
 * The readers are the format's own files (load_src.c: .npy and .npz; pt_read.c: .pt; csv.c;
 * idx.c); a row binds one to the loaders with a few lines of glue here when its own interface
 * is not already the row's.
 */
#include "formats.h"
#include "gs_common.h"
#include "gs_csv.h"
#include "gs_idx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

_Static_assert(LD_NO_LABEL == CSV_NO_LABEL, "ld_table's 'no label column' is csv.c's");

static const char *const role_name[4] = {"train_features", "train_labels", "test_features", "test_labels"};
static const char *const role_alt[4] = {"X_train", "y_train", "X_test", "y_test"}; /* GACL's names */

/* ---- .npy: one array ---- */

static int npy_open(const char *file, const char *key, int role, ld_src **s)
{
    if (key) {
        char words[128];
        ld_fmt_archive_words(words, sizeof words, " or ");
        return gs_error(GS_EINPUT, "%s: a .npy file has no members; ':%s' names a member of an %s archive",
                        file, key, words);
    }
    return ld_src_open_npy(file, s);
}

static int npy_open_mem(const char *name, const void *buf, size_t n, int role, ld_src **s)
{
    return ld_src_open_npy_mem(name, buf, n, s);
}

/* ---- .npz: np.savez's archive of .npy members ---- */

/* The member ROLE's: KEY or KEY.npy when named, else X_train.npy (GACL's names) or
 * train_features.npy, else the archive's only array; refused naming what it holds. */
static int npz_open(const char *file, const char *key, int role, ld_src **s)
{
    char member[300];
    int st;
    if (key) { /* X_train or X_train.npy */
        snprintf(member, sizeof member, "%s", key);
        if ((st = ld_src_open_npz(file, member, 1, s)) || *s) return st;
        snprintf(member, sizeof member, "%s.npy", key);
        return ld_src_open_npz(file, member, 0, s);
    }
    snprintf(member, sizeof member, "%s.npy", role_alt[role]);
    st = ld_src_open_npz(file, member, 1, s);
    if (st || *s) return st;
    snprintf(member, sizeof member, "%s.npy", role_name[role]);
    st = ld_src_open_npz(file, member, 1, s);
    if (st || *s) return st;
    char names[2][256];
    int n = 0;
    if ((st = ld_src_npz_members(file, names, 2, &n))) return st;
    if (n == 1) return ld_src_open_npz(file, names[0], 0, s);
    st = ld_src_open_npz(file, member, 0, s); /* refused, naming what it holds */
    if (st) {
        char m[1200];
        snprintf(m, sizeof m, "%s; name one as %s:MEMBER", gs_last_error(), file);
        st = gs_error(GS_EINPUT, "%s", m);
    }
    return st;
}

/* From memory (the fuzzer): the role's member by either name, or none. */
static int npz_open_mem(const char *name, const void *buf, size_t n, int role, ld_src **s)
{
    char member[300];
    snprintf(member, sizeof member, "%s.npy", role_alt[role]);
    int st = ld_src_open_npz_mem(name, buf, n, member, 1, s);
    if (st || *s) return st;
    snprintf(member, sizeof member, "%s.npy", role_name[role]);
    return ld_src_open_npz_mem(name, buf, n, member, 1, s);
}

/* ---- .pt: torch.save's zip archive ---- */

/* A zip archive is a torch.save file when an entry is data.pkl or ARCHIVE/data.pkl. */
static int pt_claims(const char *path)
{
    int err = 0, found = 0;
    zip_t *za = zip_open(path, ZIP_RDONLY, &err);
    if (!za) return 0;
    zip_int64_t m = zip_get_num_entries(za, 0);
    for (zip_int64_t i = 0; i < m && !found; i++) {
        const char *nm = zip_get_name(za, (zip_uint64_t)i, 0), *sl = nm ? strchr(nm, '/') : NULL;
        found = nm && (!strcmp(nm, "data.pkl") || (sl && !strcmp(sl, "/data.pkl")));
    }
    zip_discard(za);
    return found;
}

static int pt_open_mem(const char *name, const void *buf, size_t n, int role, ld_src **s)
{
    return ld_src_open_pt_mem(name, buf, n, NULL, role, s);
}

/* ---- CSV: a text table, read whole ---- */

static int csv_take(const char *name, int st, csv_table *c, ld_table *t)
{
    memset(t, 0, sizeof *t);
    if (st) return st;
    t->x = c->x;
    t->rows = c->rows;
    t->cols = c->cols;
    t->ndim = 2;
    if (c->y) {
        t->y = gs_malloc(c->rows ? (size_t)c->rows : 1, sizeof(int64_t), name);
        if (!t->y) { csv_free(c); memset(t, 0, sizeof *t); return GS_ENOMEM; }
        for (long i = 0; i < c->rows; i++) t->y[i] = c->y[i];
        t->ny = c->rows;
        free(c->y);
    }
    return GS_OK;
}

static int csv_read_table(const char *path, int label_col, uint64_t max_bytes, ld_table *t)
{
    csv_table c;
    return csv_take(path, csv_read(path, label_col, max_bytes, &c), &c, t);
}

static int csv_read_table_mem(const char *name, const void *buf, size_t n, int label_col, uint64_t max_bytes,
                              ld_table *t)
{
    csv_table c;
    return csv_take(name, csv_parse(name, buf, n, label_col, max_bytes, &c), &c, t);
}

/* ---- IDX: MNIST's images (2-D, 3-D) or labels (1-D), read whole ---- */

static int idx_take(const char *name, int st, idx_array *a, ld_table *t)
{
    memset(t, 0, sizeof *t);
    if (st) return st;
    t->ndim = a->ndim;
    size_t m = (size_t)a->n * (size_t)a->item;
    if (a->ndim >= 2) {
        if (m && !(t->x = gs_malloc(m, sizeof(double), name))) { idx_free(a); return GS_ENOMEM; }
        for (size_t k = 0; k < m; k++) t->x[k] = a->data[k];
        t->rows = a->n;
        t->cols = a->item;
    } else {
        if (!(t->y = gs_malloc(a->n ? (size_t)a->n : 1, sizeof(int64_t), name))) { idx_free(a); return GS_ENOMEM; }
        for (long i = 0; i < a->n; i++) t->y[i] = a->data[i];
        t->ny = a->n;
    }
    idx_free(a);
    return GS_OK;
}

static int idx_read_table(const char *path, int label_col, uint64_t max_bytes, ld_table *t)
{
    idx_array a;
    return idx_take(path, idx_read(path, max_bytes, &a), &a, t);
}

static int idx_read_table_mem(const char *name, const void *buf, size_t n, int label_col, uint64_t max_bytes,
                              ld_table *t)
{
    idx_array a;
    return idx_take(name, idx_parse(name, buf, n, max_bytes, &a), &a, t);
}

/* ---- the table ---- */

const ld_format ld_fmt_table[] = {
    {.name = "npy", .words = ".npy", .exts = ".npy", .magic = "\x93NUMPY", .magic_len = 6,
     .dir = {"train_features.npy", "train_labels.npy", "test_features.npy", "test_labels.npy"},
     .open = npy_open, .open_mem = npy_open_mem},
    {.name = "npz", .words = ".npz", .exts = ".npz", .magic = "PK\x03\x04", .magic_len = 4, .archive = 1,
     .open = npz_open, .open_mem = npz_open_mem},
    {.name = "pt", .words = ".pt", .exts = ".pt .pth", .magic = "PK\x03\x04", .magic_len = 4, .claims = pt_claims,
     .archive = 1, .dir = {"X_train.pt", "y_train.pt", "X_test.pt", "y_test.pt"},
     .open = ld_src_open_pt, .open_mem = pt_open_mem},
    {.name = "csv", .words = ".csv", .exts = GS_CSV_EXTS,
     .dir = {"train.csv", "train.csv", "test.csv", "test.csv"},
     .read = csv_read_table, .read_mem = csv_read_table_mem},
    {.name = "idx", .magic = "\0\0\x08", .magic_len = 3,
     .dir = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"},
     .read = idx_read_table, .read_mem = idx_read_table_mem},
};
const int ld_fmt_count = (int)(sizeof ld_fmt_table / sizeof ld_fmt_table[0]);

const ld_format *ld_fmt_of(const char *path)
{
    unsigned char head[16];
    size_t got = 0;
    FILE *f = fopen(path, "rb");
    if (f) {
        got = fread(head, 1, sizeof head, f);
        fclose(f);
    }
    const ld_format *by_ext = NULL, *by_claim = NULL, *by_magic = NULL;
    for (int i = 0; i < ld_fmt_count; i++) {
        const ld_format *r = &ld_fmt_table[i];
        if (!r->words || !r->magic || got < r->magic_len || memcmp(head, r->magic, r->magic_len)) continue;
        if (!by_ext && gs_ext_in(path, r->exts)) by_ext = r;
        else if (!by_claim && r->claims && r->claims(path)) by_claim = r;
        else if (!by_magic && !r->claims) by_magic = r;
    }
    if (by_ext) return by_ext;
    if (by_claim) return by_claim;
    if (by_magic) return by_magic;
    for (int i = 0; i < ld_fmt_count; i++)
        if (ld_fmt_table[i].words && gs_ext_in(path, ld_fmt_table[i].exts)) return &ld_fmt_table[i];
    return NULL;
}

const ld_format *ld_fmt_named(const char *name)
{
    for (int i = 0; i < ld_fmt_count; i++)
        if (!strcmp(ld_fmt_table[i].name, name)) return &ld_fmt_table[i];
    return NULL;
}

/* Append s to out (cap bytes, kept terminated). */
static void cat(char *out, size_t cap, const char *s)
{
    size_t L = strlen(out);
    if (L < cap) snprintf(out + L, cap - L, "%s", s);
}

int ld_fmt_unknown(const char *path, const char *what)
{
    char list[256] = "";
    int n = 0, k = 0;
    for (int i = 0; i < ld_fmt_count; i++) n += ld_fmt_table[i].words != NULL;
    for (int i = 0; i < ld_fmt_count; i++) {
        if (!ld_fmt_table[i].words) continue;
        cat(list, sizeof list, k == 0 ? "" : k == n - 1 ? " or " : ", ");
        cat(list, sizeof list, ld_fmt_table[i].words);
        k++;
    }
    return gs_error(GS_EINPUT, "%s: unknown format (%s must be %s)", path, what, list);
}

/* One naming's distinct files: "A, B, C, D", or "A and B". */
static void dir_files(const ld_format *r, char *out, size_t cap)
{
    const char *u[4];
    int n = 0;
    for (int k = 0; k < 4; k++) {
        int seen = 0;
        for (int j = 0; j < n; j++) seen |= !strcmp(u[j], r->dir[k]);
        if (!seen) u[n++] = r->dir[k];
    }
    for (int j = 0; j < n; j++) {
        cat(out, cap, j == 0 ? "" : n == 2 ? " and " : ", ");
        cat(out, cap, u[j]);
    }
}

void ld_fmt_dir_names(char *out, size_t cap, int from, int to, int arrays_only, const char *sep)
{
    out[0] = '\0';
    int k = 0, put = 0;
    for (int i = 0; i < ld_fmt_count; i++) {
        const ld_format *r = &ld_fmt_table[i];
        if (!r->words || !r->dir[0]) continue;
        int at = k++;
        if (at < from || at >= to || (arrays_only && !r->open)) continue;
        if (put++) cat(out, cap, sep);
        dir_files(r, out, cap);
    }
}

void ld_fmt_archive_words(char *out, size_t cap, const char *sep)
{
    out[0] = '\0';
    int put = 0;
    for (int i = 0; i < ld_fmt_count; i++) {
        if (!ld_fmt_table[i].archive) continue;
        if (put++) cat(out, cap, sep);
        cat(out, cap, ld_fmt_table[i].words);
    }
}

void ld_table_free(ld_table *t)
{
    free(t->x);
    free(t->y);
    memset(t, 0, sizeof *t);
}
