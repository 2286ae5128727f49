/* augmenters/interclass.c — inter-class mixup (ablation of GSR's intra-class pairing), an augmenter
 * (gs_methods.h), weight β.
 *
 * For each class c of task t (tail classes only with --augment tail) with n_c ≥ 2 rows, the
 * same budget as GSR: K = min(--max-aug, n_c(n_c−1)) with --pairs all (anchors cycle through
 * the class's rows), K = min(--max-aug, n_c) with --pairs random (each row once). Each anchor
 * z_i is mixed with a partner z_j drawn uniformly from the rows of the OTHER classes seen so
 * far (tasks 1..t): z̃ = (γz_i + (1−γ)z_j)/‖·‖ (spherical, as GSR), γ ~ Beta(α_c, α_c) with
 * GSR's adaptive α_c of the anchor class. The label is soft, as in mixup: the row enters G
 * once (h̃h̃ᵀ) and Q with γ·h̃ in column c and (1−γ)·h̃ in column y_j. It is emitted as two
 * rows with weights γ and 1−γ (their Gram contributions add up to h̃h̃ᵀ), so the "aug" row
 * counters of the report count every mixed row twice. A class with no partner (nothing else
 * seen yet) gets no rows. Randomness: rng_new(seed, RNG_INTERCLASS, c) for partners and anchors,
 * rng_new(seed, RNG_GAMMA, c) for γ.
 */
#include "gs_methods.h"
#include "gs_common.h"
#include "gs_rng.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>

static int inter_class(en_mctx *m, int t, int c, en_emitter *em)
{
    const en_problem *p = m->p;
    const st_stream *st = p->st;
    const op_params *q = m->params;
    long N = st->class_kept[c], K = en_aug_class_budget(m, c, em);
    long first = st->class_row_start[c];
    long R = p->task_row_start[t + 1]; /* rows of tasks 0..t: a prefix */
    long others = R - N;
    if (K == 0 || others <= 0) return GS_OK;
    double alpha = q->alpha_base + (1.0 - q->alpha_base) * exp(-q->xi * (double)N);
    long d = p->d;
    double *zt = gs_malloc((size_t)d, sizeof(double), "interclass row");
    gsl_rng *rp = rng_new(q->seed, RNG_INTERCLASS, (uint64_t)c);
    gsl_rng *rg = rng_new(q->seed, RNG_GAMMA, (uint64_t)c);
    int rc = GS_OK;
    long skipped = 0;
    if (!zt || !rp || !rg) { rc = GS_ENOMEM; goto out; }
    for (long k = 0; k < K; k++) {
        long i = first + k % N;
        long u = (long)rng_uniform_index(rp, (uint64_t)others);
        long j = u < first ? u : u + N;
        double g = gsl_ran_beta(rg, alpha, alpha);
        const double *zi = gm_row(&p->z, i), *zj = gm_row(&p->z, j);
        double s = 0;
        for (long x = 0; x < d; x++) { zt[x] = g * zi[x] + (1.0 - g) * zj[x]; s += zt[x] * zt[x]; }
        s = sqrt(s);
        if (!(s >= 1e-12)) { skipped++; continue; }
        for (long x = 0; x < d; x++) zt[x] /= s;
        if ((rc = en_emit_x(em, zt, c, g))) goto out;
        if ((rc = en_emit_x(em, zt, p->y[j], 1.0 - g))) goto out;
    }
    if (skipped) en_emit_skip(em, 0, skipped);
out:
    free(zt);
    if (rp) gsl_rng_free(rp);
    if (rg) gsl_rng_free(rg);
    return rc;
}

static int inter_rows(en_mctx *m, int t, en_emitter *em)
{
    const st_stream *st = m->p->st;
    for (int k = st->task_class_start[t]; k < st->task_class_start[t + 1]; k++) {
        int rc = inter_class(m, t, st->class_order[k], em);
        if (rc) return rc;
    }
    return GS_OK;
}


const en_augmenter en_aug_interclass = {
    .name = "interclass", .display = "Interclass", .letter = 'C',
    .summary = "ablation: spherical mixup with partners from other classes, soft labels, weight β",
    .deps = EN_DEP_ALPHA | EN_DEP_XI | EN_DEP_PAIRS | EN_DEP_MAXAUG | EN_DEP_AUGMENT,
    .rows = inter_rows,
    .weight = en_weight_beta,
};
