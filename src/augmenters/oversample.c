/* augmenters/oversample.c — the oversample augmenter: β-weighted copies of each class's own real
 * rows, as many per class as GSR makes (gs_methods.h).
 *
 * The control that separates mass from geometry: GACL → gacl+oversample is what the β-weighted
 * extra rows add by their mass alone (a 5-row tail class with GSR's 20 rows at β = 10 weighs 41×
 * its real rows in G and Q), gacl+oversample → gacl+gsr what the spherical mix adds beyond it.
 * For each class c of task t (tail classes only with --augment tail) with N_c ≥ 2 rows, the
 * number GSR draws, K = en_aug_budget (min(--max-aug, N_c(N_c−1)) with --pairs all, N_c with
 * random, N_c² with literal), and row k (0-based) is a copy of the class's real row k mod N_c in
 * stream order: every real row gets ⌊K/N_c⌋ copies, the first K mod N_c one more. No random draw,
 * so an independent implementation rebuilds the rows from rows.npy alone. GSR's rare
 * near-antipodal skips are not mirrored. Each copy enters with weight β, like GSR's rows.
 */
#include "gs_methods.h"
#include "gs_common.h"

static int oversample_class(en_mctx *m, int c, en_emitter *em)
{
    const en_problem *p = m->p;
    const st_stream *st = p->st;
    long N = st->class_kept[c], K = en_aug_class_budget(m, c, em);
    long first = st->class_row_start[c];
    int mix = en_emit_mix_ok(em);
    for (long k = 0; k < K; k++) {
        long i = first + k % N;
        const double *z = gm_row(&p->z, i);
        /* a copy is the "mix" 1·z_i + 0·z_i: the engine's blocked path without --expand */
        int rc = mix ? en_emit_mix(em, i, i, 1.0, 0.0, c, 1.0, z) : en_emit_x(em, z, c, 1.0);
        if (rc) return rc;
    }
    return GS_OK;
}

static int oversample_rows(en_mctx *m, int t, en_emitter *em)
{
    const st_stream *st = m->p->st;
    for (int k = st->task_class_start[t]; k < st->task_class_start[t + 1]; k++) {
        int rc = oversample_class(m, st->class_order[k], em);
        if (rc) return rc;
    }
    return GS_OK;
}

const en_augmenter en_aug_oversample = {
    .name = "oversample", .display = "Oversample", .letter = 'O',
    .summary = "control for GSR: copies of the class's own rows, GSR's count per class, weight β",
    .deps = EN_DEP_PAIRS | EN_DEP_MAXAUG | EN_DEP_AUGMENT,
    .rows = oversample_rows,
    .weight = en_weight_beta,
};
