/* method_air.c — AIR, the Analytic Imbalance Rectifier (algorithms.md §3), as a ridge method
 * without the shared base Gram (kind 1).
 *
 * AIR weights every sample of class c by π_c = (1/n_c)·C_seen / Σ_{c' seen} 1/n_{c'} and
 * solves W = (Σ_c π_c A_c + τI)⁻¹ Σ_c π_c C_c (A_c, C_c: the class's Gram and feature sum).
 * Since a class's count is final once its task is seen, we accumulate one weighted Gram
 *     S_A = Σ_i (1/n_{y_i}) h_i h_iᵀ,   S_C[:,c] = (1/n_c) Σ_{i∈c} h_i
 * (the real rows emitted with weight 1/n_c) and solve (S_A + (τ/s) I)⁻¹ S_C with
 * s = C_seen / Σ_{c seen} 1/n_c, which is exactly AIR's W with a single D×D matrix.
 * With equal counts (n_c = n for all c) s = n and AIR ≡ GACL at the same τ.
 * Note: the "aug" counters of the report count AIR's (re-weighted) real rows.
 */
#include "gs_methods.h"
#include "gs_common.h"

static int air_extra(en_mctx *m, int t, en_emitter *em)
{
    const en_problem *p = m->p;
    const st_stream *st = p->st;
    for (int k = st->task_class_start[t]; k < st->task_class_start[t + 1]; k++) {
        int c = st->class_order[k];
        long n = st->class_kept[c];
        if (n <= 0) continue;
        double w = 1.0 / (double)n;
        long first = st->class_row_start[c];
        for (long i = 0; i < n; i++) {
            int rc = en_emit(em, gm_row(&p->h, first + i), c, w);
            if (rc) return rc;
        }
    }
    return GS_OK;
}

/* τ_eff = τ / s, s = C_seen / Σ_{c seen} 1/n_c (the harmonic mean of the seen class counts). */
static double air_tau(en_mctx *m, int t, double tau)
{
    const st_stream *st = m->p->st;
    int cs = 0;
    double inv = 0;
    for (int k = 0; k < st->task_class_start[t + 1]; k++) {
        long n = st->class_kept[st->class_order[k]];
        if (n > 0) { cs++; inv += 1.0 / (double)n; }
    }
    if (cs == 0 || !(inv > 0)) return tau;
    double s = (double)cs / inv;
    return tau / s;
}

const en_mdef en_method_air = {
    .name = "air",
    .summary = "AIR: ridge with per-class weights π_c ∝ 1/n_c (one weighted Gram, τ/s)",
    .kind = 1,
    .deps = 0,
    .extra = air_extra,
    .tau_eff = air_tau,
};
