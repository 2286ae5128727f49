/* fuzz_targets.h — the parse entry points shared by the libFuzzer targets (fuzz/fuzz_format.c,
 * one per row of the format table src/data/formats.c, and fuzz/fuzz_session.c, built with clang
 * by `make fuzz`) and the corpus replay test (tests/data/test_fuzz_replay.c, part of `make check`).
 * Each function parses one input from memory, through the row's open_mem or read_mem, and checks
 * the invariants a successful parse promises; it returns 0 when the input was accepted, 1 when it
 * was refused cleanly (status GS_EINPUT/GS_ENOMEM with a message naming "fuzz.NAME"), and aborts
 * on a broken invariant.
 */
#ifndef GS_FUZZ_TARGETS_H
#define GS_FUZZ_TARGETS_H

#include "gs_common.h"
#include "gs_opts.h"
#include "gs_session.h"
#include "../src/data/formats.h"

#include <stdio.h>

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

/* An array format: the array each role would take (one for a format that is not an archive; a
 * role an archive holds no array for is skipped), read by fz_read_src with the zero scan.
 * Accepted when at least one array reads cleanly and none is refused. */
static inline int fz_arrays(const ld_format *f, const char *name, const uint8_t *d, size_t n)
{
    int accepted = 0, refused = 0;
    for (int m = 0; m < (f->archive ? 4 : 1); m++) {
        ld_src *s;
        gs_clear_error();
        int st = f->open_mem(name, d, n, m, &s), read = 0;
        if (!st && s) st = fz_read_src(s, 1, &read);
        else if (!st) continue;
        if (st) { fz_refused(st, name); refused = 1; }
        else if (read) accepted = 1;
    }
    return !accepted || refused;
}

/* A table read whole, with the label column last, none, first and third: accepted when one of
 * them is; every value finite, every label non-negative. */
static inline int fz_tables(const ld_format *f, const char *name, const uint8_t *d, size_t n)
{
    int accepted = 0;
    static const int cols[] = {-1, LD_NO_LABEL, 0, 2};
    for (int k = 0; k < 4; k++) {
        ld_table t;
        int st = f->read_mem(name, d, n, cols[k], FZ_MAX_BYTES, &t);
        if (st) { fz_refused(st, name); continue; }
        accepted = 1;
        fz_assert(t.ndim >= 1 && t.rows >= 0 && t.cols >= 0 && t.ny >= 0);
        fz_assert((t.x != NULL) == (t.rows * t.cols > 0) && (t.y != NULL) == (t.ny > 0 || t.ndim == 1));
        fz_assert(t.y == NULL || cols[k] != LD_NO_LABEL || t.ndim == 1);
        for (long i = 0; i < t.rows * t.cols; i++) fz_assert(isfinite(t.x[i]));
        /* labels may be any int (negative ones too): the loader maps them to classes 0..C-1 */
        ld_table_free(&t);
    }
    return !accepted;
}

/* One input as a file of format f (its messages name "fuzz.NAME"). */
static inline int fz_format(const ld_format *f, const uint8_t *d, size_t n)
{
    char name[64];
    snprintf(name, sizeof name, "fuzz.%s", f->name);
    fz_assert(f->open_mem != NULL || f->read_mem != NULL);
    return f->open_mem ? fz_arrays(f, name, d, n) : fz_tables(f, name, d, n);
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
