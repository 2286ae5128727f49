/* fuzz_targets.h — the parse entry points shared by the libFuzzer targets (fuzz/fuzz_*.c, built
 * with clang by `make fuzz`) and the corpus replay test (tests/test_fuzz_replay.c, part of
 * `make check`). Each function parses one input from memory and checks the invariants a
 * successful parse promises; it returns 0 when the input was accepted, 1 when it was refused
 * cleanly (status GS_EINPUT/GS_ENOMEM with a message), and aborts on a broken invariant.
 */
#ifndef GS_FUZZ_TARGETS_H
#define GS_FUZZ_TARGETS_H

#include "gs_common.h"
#include "gs_csv.h"
#include "gs_idx.h"
#include "gs_npy.h"
#include "gs_opts.h"
#include "gs_session.h"
#include "../src/data/load_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FZ_MAX_BYTES ((uint64_t)64 << 20) /* memory cap for the parsers that take one */

static inline void fz_assert(int ok)
{
    if (!ok) abort();
}

/* A refusal must carry a message naming the input. */
static inline int fz_refused(int st, const char *name)
{
    fz_assert(st == GS_EINPUT || st == GS_ENOMEM);
    fz_assert(strncmp(gs_last_error(), name, strlen(name)) == 0);
    return 1;
}

static inline int fz_npy(const uint8_t *d, size_t n)
{
    npy_array a;
    int st = npy_parse("fuzz.npy", d, n, &a);
    if (st) return fz_refused(st, "fuzz.npy");
    fz_assert(a.ndim == 1 || a.ndim == 2);
    fz_assert(a.shape[0] >= 0 && a.shape[1] >= 0);
    size_t cnt = (size_t)a.shape[0] * (size_t)a.shape[1];
    fz_assert(a.itemsize == 1 || a.itemsize == 2 || a.itemsize == 4 || a.itemsize == 8);
    fz_assert(cnt * a.itemsize <= n);
    /* touch every byte so ASan sees an undersized buffer */
    unsigned s = 0;
    const unsigned char *p = a.data;
    for (size_t i = 0; i < cnt * a.itemsize; i++) s += p[i];
    (void)s;
    npy_array_free(&a);
    return 0;
}

static inline int fz_csv(const uint8_t *d, size_t n)
{
    int accepted = 0;
    static const int cols[] = {-1, CSV_NO_LABEL, 0, 2};
    for (int k = 0; k < 4; k++) {
        csv_table t;
        int st = csv_parse("fuzz.csv", (const char *)d, n, cols[k], FZ_MAX_BYTES, &t);
        if (st) { fz_refused(st, "fuzz.csv"); continue; }
        accepted = 1;
        fz_assert(t.rows > 0 && t.cols >= 0);
        fz_assert((t.y != NULL) == (cols[k] != CSV_NO_LABEL));
        for (long i = 0; i < t.rows * t.cols; i++) fz_assert(isfinite(t.x[i]));
        for (long i = 0; t.y && i < t.rows; i++) fz_assert(t.y[i] >= 0);
        csv_free(&t);
    }
    return !accepted;
}

static inline int fz_idx(const uint8_t *d, size_t n)
{
    idx_array a;
    int st = idx_parse("fuzz.idx", d, n, FZ_MAX_BYTES, &a);
    if (st) return fz_refused(st, "fuzz.idx");
    fz_assert(a.ndim >= 1 && a.ndim <= 3 && a.n == a.dims[0] && a.item >= 0);
    unsigned s = 0;
    for (size_t i = 0; i < (size_t)a.n * (size_t)a.item; i++) s += a.data[i];
    (void)s;
    idx_free(&a);
    return 0;
}

/* One array of an archive, opened: read as a run reads it, whole (1-D) or row by row in reverse
 * (2-D; with scan, the rows' zero scan too), every value finite. An array larger than
 * FZ_MAX_BYTES is skipped (*read = 0). Closes s; GS_OK or the refusal. */
static inline int fz_read_src(ld_src *s, int scan, int *read)
{
    const npy_array *a = ld_src_info(s);
    fz_assert(a->ndim == 1 || a->ndim == 2);
    fz_assert(a->shape[0] >= 0 && a->shape[1] >= 0 && a->data == NULL);
    size_t cnt = (size_t)a->shape[0] * (size_t)a->shape[1];
    int st = GS_OK;
    *read = !(cnt * 8 > FZ_MAX_BYTES || (uint64_t)a->shape[0] * 8 > FZ_MAX_BYTES);
    if (*read && a->ndim == 1) {
        void *buf = malloc(cnt * a->itemsize + 1);
        fz_assert(buf != NULL);
        st = ld_src_read_all(s, buf);
        free(buf);
    } else if (*read) {
        long r = a->shape[0];
        long *idx = malloc(sizeof(long) * (size_t)(r + 1));
        double *out = malloc(sizeof(double) * (cnt + 1));
        fz_assert(idx && out);
        for (long k = 0; k < r; k++) idx[k] = r - 1 - k;
        st = ld_src_rows(s, idx, r, out);
        for (size_t k = 0; st == GS_OK && k < cnt; k++) fz_assert(isfinite(out[k]));
        free(idx);
        free(out);
        long nz, first;
        if (!st && scan) st = ld_src_scan(s, &nz, &first);
        if (!st && scan) fz_assert(nz >= 0 && nz <= r && (nz == 0) == (first < 0) && first < r);
    }
    ld_src_close(s);
    return st;
}

/* An .npz archive: each of the four arrays a run reads, by name (a missing one is skipped); an
 * accepted array is read by fz_read_src. Accepted when at least one array reads cleanly and none
 * is refused. */
static inline int fz_npz(const uint8_t *d, size_t n)
{
    static const char *const member[4] = {"train_features.npy", "train_labels.npy", "test_features.npy",
                                          "test_labels.npy"};
    int accepted = 0, refused = 0;
    for (int m = 0; m < 4; m++) {
        ld_src *s;
        gs_clear_error();
        int st = ld_src_open_npz_mem("fuzz.npz", d, n, member[m], 1, &s), read = 0;
        if (!st && s) st = fz_read_src(s, 0, &read);
        else if (!st) continue;
        if (st) { fz_refused(st, "fuzz.npz"); refused = 1; }
        else if (read) accepted = 1;
    }
    return !accepted || refused;
}

/* A torch.save (.pt) archive: the tensor each of the four roles would take (a lone tensor, or the
 * dict key named after the role), its pickle interpreted without running anything; an accepted
 * tensor is read by fz_read_src (with the zero scan). Accepted when at least one tensor reads
 * cleanly and none is refused. */
static inline int fz_pt(const uint8_t *d, size_t n)
{
    int accepted = 0, refused = 0;
    for (int m = 0; m < 4; m++) {
        ld_src *s;
        gs_clear_error();
        int st = ld_src_open_pt_mem("fuzz.pt", d, n, NULL, m, &s), read = 0;
        if (!st) {
            fz_assert(s != NULL);
            st = fz_read_src(s, 1, &read);
        }
        if (st) { fz_refused(st, "fuzz.pt"); refused = 1; }
        else if (read) accepted = 1;
    }
    return !accepted || refused;
}

static inline int fz_session(const uint8_t *d, size_t n)
{
    op_opts o;
    op_defaults(&o);
    ss_store store = {0};
    int st = ss_parse("fuzz.session", (const char *)d, n, &o, &store);
    if (st) {
        ss_store_free(&store);
        return fz_refused(st, "fuzz.session");
    }
    fz_assert(o.n_methods >= 1 && o.n_methods <= OP_MAX_METHODS);
    for (int i = 0; i < o.n_methods; i++) fz_assert(o.methods[i] && o.methods[i][0]);
    const char *paths[] = {o.data.data_dir, o.data.idx_dir, o.data.train_features,
                           o.data.train_labels, o.data.test_features, o.data.test_labels};
    for (int i = 0; i < 6; i++) fz_assert(!paths[i] || (paths[i][0] && !strchr(paths[i], '\n')));
    fz_assert(op_validate(&o) == GS_OK);
    fz_assert(store.n <= SS_MAX_STRINGS);
    ss_store_free(&store);
    return 0;
}

#endif
