/* data/stream.c — the long-tailed class-incremental stream (see gs_stream.h; the protocol is in gsrscope(7)).
 *
 * Randomness (all from derived streams of one seed, gs_rng.h):
 *   RNG_ORDER      the class order (task assignment);
 *   RNG_HEAD       the "size order": which classes are head (step) or which get which count (exp);
 *   RNG_SUBSAMPLE  which rows each class keeps (index = class id);
 *   RNG_VALSPLIT   which kept rows a class holds out for validation (index = class id).
 * Head classes: step profile — the classes kept whole (H = round(h·K) of them); exp and none
 * profiles — the ⌈h·K⌉ classes with the most kept rows (ties: earlier in the size order).
 */
#include "gs_stream.h"
#include "gs_common.h"
#include "gs_rng.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void st_free(st_stream *s)
{
    free(s->class_order); free(s->class_task); free(s->task_class_start); free(s->is_head);
    free(s->class_kept); free(s->class_pool); free(s->row_index); free(s->row_label);
    free(s->row_task); free(s->task_row_start); free(s->class_row_start);
    free(s->val_index); free(s->val_label); free(s->task_val_start); free(s->class_val);
    memset(s, 0, sizeof *s);
}

static int shuffled_ids(const int *ids, int k, uint64_t seed, rng_purpose pur, int *out)
{
    memcpy(out, ids, (size_t)k * sizeof *out);
    gsl_rng *r = rng_new(seed, pur, 0);
    if (!r) return GS_ENOMEM;
    gsl_ran_shuffle(r, out, (size_t)k, sizeof *out);
    gsl_rng_free(r);
    return GS_OK;
}

/* Validation rows a class of n kept rows holds out: round(F·n), at least 1, at most n − 1. */
static long val_count(long n, double F)
{
    if (F <= 0 || n < 2) return 0;
    long v = lround(F * (double)n);
    return v < 1 ? 1 : v > n - 1 ? n - 1 : v;
}

/* Move each class's held-out rows from the stream into val_* (see gs_stream.h). */
static int split_validation(st_stream *s, double F, uint64_t seed)
{
    int C = s->C, T = s->T;
    long nv = 0;
    s->class_val = gs_calloc((size_t)C, sizeof(long), "validation split");
    s->task_val_start = gs_calloc((size_t)T + 1, sizeof(long), "validation split");
    if (!s->class_val || !s->task_val_start) return GS_ENOMEM;
    for (int c = 0; c < C; c++) {
        s->class_val[c] = val_count(s->class_kept[c], F);
        nv += s->class_val[c];
        if (s->class_task[c] >= 0 && s->class_kept[c] < 2) s->val_no_split++;
    }
    s->n_val = nv;
    s->val_index = gs_malloc((size_t)(nv ? nv : 1), sizeof(long), "validation split");
    s->val_label = gs_malloc((size_t)(nv ? nv : 1), sizeof(int), "validation split");
    long *pick = gs_malloc((size_t)(s->n ? s->n : 1), sizeof(long), "validation split");
    long *all = gs_malloc((size_t)(s->n ? s->n : 1), sizeof(long), "validation split");
    if (!s->val_index || !s->val_label || !pick || !all) { free(pick); free(all); return GS_ENOMEM; }
    long out = 0, vo = 0;
    for (int t = 0; t < T; t++) {
        long start = out;
        s->task_val_start[t] = vo;
        for (int k = s->task_class_start[t]; k < s->task_class_start[t + 1]; k++) {
            int c = s->class_order[k];
            long n = s->class_kept[c], v = s->class_val[c], at = s->class_row_start[c];
            if (v > 0) {
                /* positions 0..n-1 of the class's rows; the chosen ones (sorted) are held out */
                for (long i = 0; i < n; i++) all[i] = i;
                gsl_rng *r = rng_new(seed, RNG_VALSPLIT, (uint64_t)c);
                if (!r) { free(pick); free(all); return GS_ENOMEM; }
                gsl_ran_choose(r, pick, (size_t)v, all, (size_t)n, sizeof(long));
                gsl_rng_free(r);
            }
            s->class_row_start[c] = out;
            for (long i = 0, j = 0; i < n; i++) {
                long src = at + i;
                if (j < v && pick[j] == i) {
                    s->val_index[vo] = s->row_index[src];
                    s->val_label[vo++] = c;
                    j++;
                } else {
                    s->row_index[out] = s->row_index[src];
                    s->row_label[out] = c;
                    s->row_task[out++] = t;
                }
            }
            s->class_kept[c] = n - v;
        }
        s->task_row_start[t] = start;
    }
    s->task_row_start[T] = out;
    s->task_val_start[T] = vo;
    s->n = out;
    free(pick); free(all);
    return GS_OK;
}

int st_build(st_stream *s, const int *y, long n_pool, int C, const op_protocol *p, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    int st = GS_ENOMEM;
    int *present = NULL, *size_order = NULL, *pos = NULL, *tmp_order = NULL;
    long *fill = NULL;
    long **pool_rows = NULL;
    if (C < 1) return gs_error(GS_EINPUT, "the training data has no classes");
    s->C = C;
    s->class_pool = gs_calloc((size_t)C, sizeof(long), "stream");
    s->class_kept = gs_calloc((size_t)C, sizeof(long), "stream");
    s->class_task = gs_malloc((size_t)C, sizeof(int), "stream");
    s->class_order = gs_malloc((size_t)C, sizeof(int), "stream");
    s->is_head = gs_calloc((size_t)C, 1, "stream");
    s->class_row_start = gs_malloc((size_t)C, sizeof(long), "stream");
    present = gs_malloc((size_t)C, sizeof(int), "stream");
    size_order = gs_malloc((size_t)C, sizeof(int), "stream");
    tmp_order = gs_malloc((size_t)C, sizeof(int), "stream");
    pos = gs_malloc((size_t)C, sizeof(int), "stream");
    if (!s->class_pool || !s->class_kept || !s->class_task || !s->class_order || !s->is_head ||
        !s->class_row_start || !present || !size_order || !pos || !tmp_order)
        goto fail;
    for (long i = 0; i < n_pool; i++) {
        if (y[i] < 0 || y[i] >= C) { st = gs_error(GS_EINPUT, "label %d out of range", y[i]); goto fail; }
        s->class_pool[y[i]]++;
    }
    int K = 0;
    long nmax = 0;
    for (int c = 0; c < C; c++) {
        s->class_task[c] = -1;
        s->class_row_start[c] = -1;
        if (s->class_pool[c] > 0) present[K++] = c;
        if (s->class_pool[c] > nmax) nmax = s->class_pool[c];
    }
    if (K < 2) { st = gs_error(GS_EINPUT, "the training data has %d class(es); at least two are needed", K); goto fail; }
    s->n_stream_classes = K;
    int T = p->tasks < K ? p->tasks : K;
    s->T = T;

    /* Class order and size order. */
    if ((st = shuffled_ids(present, K, seed, RNG_ORDER, tmp_order))) goto fail;
    if ((st = shuffled_ids(present, K, seed, RNG_HEAD, size_order))) goto fail;
    st = GS_ENOMEM;
    for (int i = 0; i < K; i++) pos[size_order[i]] = i;

    /* Kept counts. */
    int H = 0;
    for (int i = 0; i < K; i++) {
        int c = size_order[i];
        long want;
        if (p->profile == OP_PROFILE_STEP) {
            H = (int)lround(p->head_frac * K);
            if (H < 1) H = 1;
            if (H > K) H = K;
            if (i < H) want = p->head_shots > 0 ? p->head_shots : s->class_pool[c];
            else want = p->rho > 0 ? (long)floor((double)nmax / p->rho) : p->tail_shots;
        } else if (p->profile == OP_PROFILE_EXP) {
            double rho = p->rho > 0 ? p->rho : 100.0;
            want = (long)floor((double)nmax * pow(rho, -(double)i / (double)(K - 1)));
        } else {
            want = s->class_pool[c];
        }
        if (want < 1) want = 1;
        if (want > s->class_pool[c]) want = s->class_pool[c];
        s->class_kept[c] = want;
    }
    if (p->profile == OP_PROFILE_STEP) {
        for (int i = 0; i < H; i++) s->is_head[size_order[i]] = 1;
        s->n_head = H;
    } else {
        /* ⌈h·K⌉ classes with the most kept rows; stable on the size order. */
        int Hh = (int)ceil(p->head_frac * K - 1e-9);
        if (Hh < 1) Hh = 1;
        int *by = tmp_order + 0; /* reuse after copying the class order */
        int *ord = gs_malloc((size_t)K, sizeof(int), "stream");
        if (!ord) goto fail;
        memcpy(ord, tmp_order, (size_t)K * sizeof(int));
        memcpy(by, size_order, (size_t)K * sizeof(int));
        /* insertion sort by kept count desc, stable */
        for (int i = 1; i < K; i++) {
            int c = by[i], j = i - 1;
            while (j >= 0 && s->class_kept[by[j]] < s->class_kept[c]) { by[j + 1] = by[j]; j--; }
            by[j + 1] = c;
        }
        for (int i = 0; i < Hh && i < K; i++) s->is_head[by[i]] = 1;
        s->n_head = Hh < K ? Hh : K;
        memcpy(tmp_order, ord, (size_t)K * sizeof(int));
        free(ord);
    }

    /* Stream class order. */
    if (p->order == OP_ORDER_ORDERED) {
        if (p->profile == OP_PROFILE_EXP) {
            memcpy(s->class_order, size_order, (size_t)K * sizeof(int));
        } else {
            int k = 0;
            for (int i = 0; i < K; i++) if (s->is_head[tmp_order[i]]) s->class_order[k++] = tmp_order[i];
            for (int i = 0; i < K; i++) if (!s->is_head[tmp_order[i]]) s->class_order[k++] = tmp_order[i];
        }
    } else {
        memcpy(s->class_order, tmp_order, (size_t)K * sizeof(int));
    }
    {
        int k = K;
        for (int c = 0; c < C; c++) if (s->class_pool[c] == 0) s->class_order[k++] = c;
    }

    /* Tasks: contiguous chunks, the first K mod T tasks one class larger. */
    s->task_class_start = gs_malloc((size_t)T + 1, sizeof(int), "stream");
    s->task_row_start = gs_malloc((size_t)T + 1, sizeof(long), "stream");
    if (!s->task_class_start || !s->task_row_start) goto fail;
    {
        int base = K / T, extra = K % T, at = 0;
        for (int t = 0; t < T; t++) {
            s->task_class_start[t] = at;
            int sz = base + (t < extra ? 1 : 0);
            for (int i = 0; i < sz; i++) s->class_task[s->class_order[at + i]] = t;
            at += sz;
        }
        s->task_class_start[T] = at;
    }

    /* Pool rows per class, then the kept subset (sorted, via gsl_ran_choose). */
    long n = 0;
    for (int c = 0; c < C; c++) n += s->class_kept[c];
    s->n = n;
    s->row_index = gs_malloc((size_t)n, sizeof(long), "stream rows");
    s->row_label = gs_malloc((size_t)n, sizeof(int), "stream rows");
    s->row_task = gs_malloc((size_t)n, sizeof(int), "stream rows");
    pool_rows = gs_calloc((size_t)C, sizeof(long *), "stream");
    fill = gs_calloc((size_t)C, sizeof(long), "stream");
    if (!s->row_index || !s->row_label || !s->row_task || !pool_rows || !fill) goto fail;
    for (int c = 0; c < C; c++)
        if (s->class_pool[c] && !(pool_rows[c] = gs_malloc((size_t)s->class_pool[c], sizeof(long), "stream")))
            goto fail;
    for (long i = 0; i < n_pool; i++) pool_rows[y[i]][fill[y[i]]++] = i;

    long at = 0;
    for (int t = 0; t < T; t++) {
        s->task_row_start[t] = at;
        for (int k = s->task_class_start[t]; k < s->task_class_start[t + 1]; k++) {
            int c = s->class_order[k];
            s->class_row_start[c] = at;
            long kept = s->class_kept[c];
            if (kept < s->class_pool[c]) {
                gsl_rng *r = rng_new(seed, RNG_SUBSAMPLE, (uint64_t)c);
                if (!r) goto fail;
                gsl_ran_choose(r, s->row_index + at, (size_t)kept, pool_rows[c],
                               (size_t)s->class_pool[c], sizeof(long));
                gsl_rng_free(r);
            } else {
                memcpy(s->row_index + at, pool_rows[c], (size_t)kept * sizeof(long));
            }
            for (long i = 0; i < kept; i++) { s->row_label[at + i] = c; s->row_task[at + i] = t; }
            at += kept;
        }
    }
    s->task_row_start[T] = at;
    if (p->val_frac > 0 && (st = split_validation(s, p->val_frac, seed))) goto fail;
    st = GS_OK;
fail:
    if (pool_rows) for (int c = 0; c < C; c++) free(pool_rows[c]);
    free(pool_rows); free(fill); free(present); free(size_order); free(pos); free(tmp_order);
    if (st) {
        if (st == GS_ENOMEM && !gs_last_error()[0]) gs_error(GS_ENOMEM, "stream: out of memory");
        st_free(s);
    }
    return st;
}
