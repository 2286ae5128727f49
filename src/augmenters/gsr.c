/* augmenters/gsr.c — the GSR family of augmenters: gsr (Algorithm 1) and its ablations gsr-linear
 * and gsr-fixed, listed in the method table (gs_methods.h, gs_mtable.h). */
#include "gs_methods.h"
#include "gs_common.h"
#include "gs_rng.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* K distinct integers from [0, n), uniformly, sorted ascending: Floyd's algorithm with an
 * open-addressing set, O(K log K) whatever n is (a head class has N(N-1) ≈ 250,000 pairs). */
int en_choose_sorted(gsl_rng *r, long n, long K, long *out)
{
    size_t cap = 16;
    while (cap < (size_t)K * 2) cap <<= 1;
    long *set = gs_malloc(cap, sizeof(long), "GSR pairs");
    if (!set) return GS_ENOMEM;
    for (size_t i = 0; i < cap; i++) set[i] = -1;
    long m = 0;
    for (long j = n - K; j < n; j++) {
        long t = (long)rng_uniform_index(r, (uint64_t)j + 1);
        /* insert t, or j if t is already there (j is never there yet) */
        for (int pass = 0; pass < 2; pass++) {
            long v = pass ? j : t;
            size_t h = ((uint64_t)v * 0x9E3779B97F4A7C15ULL) & (cap - 1);
            while (set[h] != -1 && set[h] != v) h = (h + 1) & (cap - 1);
            if (set[h] == v) continue; /* t taken: insert j */
            set[h] = v;
            out[m++] = v;
            break;
        }
    }
    free(set);
    qsort(out, (size_t)K, sizeof(long), cmp_long);
    return GS_OK;
}

/* ---- GSR: spherical intra-class mixup (Algorithm 1) ---------------------------------- */

double en_gsr_alpha(double alpha_base, double xi, long n)
{
    return alpha_base + (1.0 - alpha_base) * exp(-xi * (double)n);
}

/* en_mix, also giving the norm s of the unnormalized mixture */
static int mix_norm(const double *zi, const double *zj, long d, double gamma, int linear, double *out, double *norm)
{
    /* one pass to form the mixture, then OpenBLAS's vectorized dot and scale: a plain
     * Σ out² loop is one dependency chain (latency-bound), and d divisions are slow */
    double b = 1.0 - gamma;
    for (long j = 0; j < d; j++) out[j] = gamma * zi[j] + b * zj[j];
    double s = sqrt(cblas_ddot((int)d, out, 1, out, 1));
    *norm = s;
    if (!(s >= 1e-12)) return 0;
    if (!linear) cblas_dscal((int)d, 1.0 / s, out, 1);
    return 1;
}

int en_mix(const double *zi, const double *zj, long d, double gamma, int linear, double *out)
{
    double s;
    return mix_norm(zi, zj, d, gamma, linear, out, &s);
}

int en_gsr_class(en_mctx *m, int c, int linear, int fixed_alpha, en_emitter *em)
{
    const en_problem *p = m->p;
    const st_stream *st = p->st;
    const op_params *q = m->params;
    long N = st->class_kept[c];
    if (N < 2) { en_emit_skip(em, 1, 0); return GS_OK; }
    if (q->augment == OP_AUG_TAIL && st->is_head[c]) return GS_OK;
    long K = en_aug_budget(q, N);
    if (K == 0) return GS_OK;
    double alpha = fixed_alpha ? q->alpha_base : en_gsr_alpha(q->alpha_base, q->xi, N);
    long first = st->class_row_start[c];
    long d = p->d;
    /* Pair list: (i, j) indices within the class, i ≠ j (--pairs literal: i = j too). */
    int lit = q->pairs == OP_PAIRS_LITERAL;
    long npairs = q->pairs == OP_PAIRS_RANDOM ? N : lit ? N * N : N * (N - 1);
    long *pi = gs_malloc((size_t)K, sizeof(long), "GSR pairs");
    long *pj = gs_malloc((size_t)K, sizeof(long), "GSR pairs");
    double *zt = gs_malloc((size_t)d, sizeof(double), "GSR row");
    gsl_rng *rp = rng_new(q->seed, RNG_PAIRS, (uint64_t)c);
    gsl_rng *rg = rng_new(q->seed, RNG_GAMMA, (uint64_t)c);
    int rc = GS_OK;
    if (!pi || !pj || !zt || !rp || !rg) { rc = GS_ENOMEM; goto out; }
    if (q->pairs != OP_PAIRS_RANDOM) {
        /* K of the N(N-1) ordered pairs (N² with literal), without replacement, in enumeration
         * order: i-major, j ascending */
        long *sel = NULL;
        if (K < npairs) {
            sel = gs_malloc((size_t)K, sizeof(long), "GSR pairs");
            if (!sel) { rc = GS_ENOMEM; goto out; }
            if ((rc = en_choose_sorted(rp, npairs, K, sel))) { free(sel); goto out; }
        }
        for (long k = 0; k < K; k++) {
            long idx = sel ? sel[k] : k;
            if (lit) {
                pi[k] = idx / N;
                pj[k] = idx % N;
                continue;
            }
            long i = idx / (N - 1), jj = idx % (N - 1);
            pi[k] = i;
            pj[k] = jj < i ? jj : jj + 1;
        }
        free(sel);
    } else {
        /* One random partner per real row; then at most max_aug of those rows. */
        long *part = gs_malloc((size_t)N, sizeof(long), "GSR pairs");
        if (!part) { rc = GS_ENOMEM; goto out; }
        for (long i = 0; i < N; i++) {
            long j = (long)rng_uniform_index(rp, (uint64_t)(N - 1));
            part[i] = j < i ? j : j + 1;
        }
        if (K < N) {
            long *all = gs_malloc((size_t)N, sizeof(long), "GSR pairs");
            if (!all) { free(part); rc = GS_ENOMEM; goto out; }
            for (long i = 0; i < N; i++) all[i] = i;
            gsl_ran_choose(rp, pi, (size_t)K, all, (size_t)N, sizeof(long));
            free(all);
        } else {
            for (long i = 0; i < N; i++) pi[i] = i;
        }
        for (long k = 0; k < K; k++) pj[k] = part[pi[k]];
        free(part);
    }
    long skipped = 0;
    int mix = en_emit_mix_ok(em);
    for (long k = 0; k < K; k++) {
        double g = gsl_ran_beta(rg, alpha, alpha);
        const double *zi = gm_row(&p->z, first + pi[k]);
        const double *zj = gm_row(&p->z, first + pj[k]);
        double nrm;
        if (!mix_norm(zi, zj, d, g, linear, zt, &nrm)) { skipped++; continue; }
        if (mix) {
            /* zt = (γ z_i + (1-γ) z_j) / s: the engine forms E from the pair (see en_emit_mix) */
            double s = linear ? 1.0 : 1.0 / nrm;
            if ((rc = en_emit_mix(em, first + pi[k], first + pj[k], g * s, (1.0 - g) * s, c, 1.0, zt))) goto out;
            continue;
        }
        if ((rc = en_emit_x(em, zt, c, 1.0))) goto out;
    }
    if (skipped) en_emit_skip(em, 0, skipped);
out:
    free(pi); free(pj); free(zt);
    if (rp) gsl_rng_free(rp);
    if (rg) gsl_rng_free(rg);
    return rc;
}

static int gsr_task(en_mctx *m, int t, en_emitter *em, int linear, int fixed)
{
    const st_stream *st = m->p->st;
    for (int k = st->task_class_start[t]; k < st->task_class_start[t + 1]; k++) {
        int rc = en_gsr_class(m, st->class_order[k], linear, fixed, em);
        if (rc) return rc;
    }
    return GS_OK;
}

static int gsr_rows(en_mctx *m, int t, en_emitter *em) { return gsr_task(m, t, em, 0, 0); }
static int gsr_linear_rows(en_mctx *m, int t, en_emitter *em) { return gsr_task(m, t, em, 1, 0); }
static int gsr_fixed_rows(en_mctx *m, int t, en_emitter *em) { return gsr_task(m, t, em, 0, 1); }
double en_weight_beta(const op_params *q) { return q->beta; }

long en_aug_budget(const op_params *q, long N)
{
    if (N < 2) return 0;
    long n = q->pairs == OP_PAIRS_RANDOM ? N : q->pairs == OP_PAIRS_LITERAL ? N * N : N * (N - 1);
    return q->max_aug == OP_MAX_AUG_ALL || n < q->max_aug ? n : q->max_aug;
}

long en_aug_class_budget(const en_mctx *m, int c, en_emitter *em)
{
    const st_stream *st = m->p->st;
    long N = st->class_kept[c];
    if (m->params->augment == OP_AUG_TAIL && st->is_head[c]) return 0;
    if (N < 2) { en_emit_skip(em, 1, 0); return 0; }
    return en_aug_budget(m->params, N);
}

#define GSR_DEPS (EN_DEP_ALPHA | EN_DEP_XI | EN_DEP_PAIRS | EN_DEP_MAXAUG | EN_DEP_AUGMENT)

const en_augmenter en_aug_gsr = {
    .name = "gsr", .display = "GSR", .letter = 'R', .summary = "GSR: spherical intra-class mixup, adaptive α_c, weight β",
    .deps = GSR_DEPS, .rows = gsr_rows, .weight = en_weight_beta,
};
const en_augmenter en_aug_gsr_linear = {
    .name = "gsr-linear", .display = "GSR (linear)", .letter = 'M', .summary = "ablation: linear mixup, no normalization",
    .deps = GSR_DEPS, .rows = gsr_linear_rows, .weight = en_weight_beta,
};
const en_augmenter en_aug_gsr_fixed = {
    .name = "gsr-fixed", .display = "GSR (fixed α)", .letter = 'F', .summary = "ablation: spherical mixup with α_c = α_base",
    .deps = GSR_DEPS & ~EN_DEP_XI, .rows = gsr_fixed_rows, .weight = en_weight_beta,
};
