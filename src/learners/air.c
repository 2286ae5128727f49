/* learners/air.c — AIR, the Analytic Imbalance Rectifier, a ridge learner with class weights
 * (gs_learner.h).
 *
 * AIR weights every sample of class c by π_c = (1/n_c)·C_seen / Σ_{c' seen} 1/n_{c'} and
 * solves W = (Σ_c π_c A_c + τI)⁻¹ Σ_c π_c C_c (A_c, C_c: the class's Gram and feature sum).
 * Since a class's count is final once its task is seen, we accumulate one weighted Gram
 *     S_A = Σ_i (1/n_{y_i}) h_i h_iᵀ,   S_C[:,c] = (1/n_c) Σ_{i∈c} h_i
 * (every row of class c, real or synthetic, weighted 1/n_c: class_weight) and solve
 * (S_A + (τ/s) I)⁻¹ S_C with s = C_seen / Σ_{c seen} 1/n_c, which is exactly AIR's W with a
 * single D×D matrix. With equal counts (n_c = n for all c) s = n and AIR ≡ GACL at the same τ.
 * n_c counts the real rows: an augmenter's rows of class c enter A_c and C_c with weight β·ω,
 * under the class's weight like its real rows.
 */
#include "gs_learner.h"

/* 1/n_c: the class's real rows count (final once its task is seen) */
static double air_weight(en_mctx *m, int c)
{
    long n = m->p->st->class_kept[c];
    return n > 0 ? 1.0 / (double)n : 0.0;
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

const en_learner en_learner_air = {
    .name = "air", .display = "AIR", .letter = 'W',
    .summary = "AIR: ridge with per-class weights π_c ∝ 1/n_c (one weighted Gram, τ/s)",
    .family = EN_RIDGE,
    .class_weight = air_weight,
    .tau_eff = air_tau,
};
