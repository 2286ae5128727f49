/* analysis/claims.c — the paper's claims checked against one run's numbers (gs_claims.h). No curses,
 * no cairo: the TUI's claims view and the "claims" figure both print what this computes. */
#include "gs_claims.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_mtable.h"
#include "gs_common.h"

const char *cl_mark(cl_verdict v) { return v == CL_HOLDS ? "✔" : v == CL_FAILS ? "✗" : "?"; }

static const en_snap *snap(const cl_input *in, int m)
{
    const en_snap *s = &in->r->m[m].snaps[in->task - 1];
    return s->state == EN_DONE ? s : NULL;
}

static void row_set(cl_row *w, const char *claim, cl_verdict v)
{
    memset(w, 0, sizeof *w);
    snprintf(w->claim, sizeof w->claim, "%s", claim);
    w->verdict = v;
}

/* Compact number: 4 significant digits, exponent form beyond 1e5. */
static const char *nf(double v, char *b)
{
    if (!isfinite(v)) snprintf(b, 32, "—");
    else if (v != 0 && (fabs(v) >= 1e5 || fabs(v) < 1e-3)) snprintf(b, 32, "%.3g", v);
    else snprintf(b, 32, "%.4g", v);
    return b;
}

/* A number as printed, read back: every verdict is its rule over these (NaN for "—"). */
static double pv(const char *printed) { return isfinite(strtod(printed, NULL)) && strcmp(printed, "—") ? strtod(printed, NULL) : NAN; }

/* a and b as nf prints them, or with more significant digits (5 to 12) until they differ */
static void num_pair(double a, double b, char *sa, char *sb, size_t n)
{
    char x[32], y[32];
    snprintf(sa, n, "%s", nf(a, x));
    snprintf(sb, n, "%s", nf(b, y));
    for (int k = 5; k <= 12 && !strcmp(sa, sb) && isfinite(a) && isfinite(b); k++) {
        snprintf(sa, n, "%.*g", k, a);
        snprintf(sb, n, "%.*g", k, b);
    }
}

/* ---- the rules, one per claim, over the numbers printed on its line (man gsrscope, CLAIMS) ---- */

static int finite2(double a, double b) { return isfinite(a) && isfinite(b); }

cl_verdict cl_sr_rule(double sr_ref, double sr_aug)
{
    return !finite2(sr_ref, sr_aug) ? CL_UNKNOWN : sr_aug > sr_ref ? CL_HOLDS : CL_FAILS;
}

cl_verdict cl_theorem_rule(double lhs, double rhs, double sr_before, double sr_after)
{
    if (!finite2(lhs, rhs) || !finite2(sr_before, sr_after)) return CL_UNKNOWN;
    return lhs > rhs && sr_after > sr_before ? CL_HOLDS : CL_FAILS;
}

cl_verdict cl_smallest_rule(double ratio) { return !isfinite(ratio) ? CL_UNKNOWN : ratio >= CL_INFLATE ? CL_HOLDS : CL_FAILS; }

cl_verdict cl_tail_rule(double change) { return !isfinite(change) ? CL_UNKNOWN : change >= CL_TAIL_GAIN ? CL_HOLDS : CL_FAILS; }

cl_verdict cl_head_rule(double change) { return !isfinite(change) ? CL_UNKNOWN : change >= -CL_HEAD_LOSS ? CL_HOLDS : CL_FAILS; }

cl_verdict cl_topshare_rule(double share_delta, double share_g)
{
    return !finite2(share_delta, share_g) ? CL_UNKNOWN : share_delta < share_g ? CL_HOLDS : CL_FAILS;
}

cl_verdict cl_premise_rule(double eps_over_l1) { return !isfinite(eps_over_l1) ? CL_UNKNOWN : eps_over_l1 < 1 ? CL_HOLDS : CL_FAILS; }

cl_verdict cl_spread_rule(double ratio) { return !isfinite(ratio) ? CL_UNKNOWN : ratio >= 1 ? CL_HOLDS : CL_FAILS; }

cl_verdict cl_mass_rule(double tail_ratio, double head_ratio)
{
    if (!isfinite(tail_ratio)) return CL_UNKNOWN;
    return tail_ratio > 1 && (isnan(head_ratio) || tail_ratio > head_ratio) ? CL_HOLDS : CL_FAILS;
}

cl_verdict cl_split_rule(double mass, double geometry)
{
    return !finite2(mass, geometry) ? CL_UNKNOWN : geometry >= CL_TAIL_GAIN && geometry > mass ? CL_HOLDS : CL_FAILS;
}

int cl_find_oversample(const en_results *r, int ref)
{
    if (!r || ref < 0 || ref >= r->n_methods) return -1;
    for (int m = 0; m < r->n_methods; m++)
        if (m != ref && !strcmp(r->m[m].augmenter, "oversample") && !strcmp(r->m[m].learner, r->m[ref].learner))
            return m;
    return -1;
}

void cl_sr_pair(double a, double b, char *sa, char *sb, size_t n)
{
    for (int k = 3; k <= 9; k++) {
        snprintf(sa, n, "%.*f", k, a);
        snprintf(sb, n, "%.*f", k, b);
        if (strcmp(sa, sb) || !isfinite(a) || !isfinite(b)) return;
    }
}

static void claim_sr(const cl_input *in, const cl_report *rep, cl_row *w)
{
    row_set(w, "stable rank 1.02 → 2.80 (GACL → GSR)", CL_UNKNOWN);
    const en_snap *a = snap(in, in->ref), *b = snap(in, in->aug);
    if (!a || !b || !isfinite(a->stable_rank) || !isfinite(b->stable_rank)) {
        snprintf(w->reason, sizeof w->reason, "task %d not computed yet", in->task);
        return;
    }
    char x[32], y[32], p[32], q[32];
    const char *ea = a->flags & EN_LMAX_EST ? "~" : "", *eb = b->flags & EN_LMAX_EST ? "~" : "";
    cl_sr_pair(a->stable_rank, b->stable_rank, x, y, sizeof x);
    snprintf(w->numbers, sizeof w->numbers, "sr %s %s%s → %s %s%s", rep->ref, ea, x, rep->aug, eb, y);
    w->verdict = cl_sr_rule(pv(x), pv(y));
    /* sr = Σλ²/λ₁²: which of the two moved more */
    double l1 = b->lambda_max / a->lambda_max;
    double f2 = (b->stable_rank * b->lambda_max * b->lambda_max) / (a->stable_rank * a->lambda_max * a->lambda_max);
    if (isfinite(l1) && isfinite(f2) && l1 > 0)
        snprintf(w->reason, sizeof w->reason, "λ_max grew %s× (%s → %s) while Σλ² grew %s×: sr = Σλ²/λ_max² %s",
                 nf(l1, x), nf(a->lambda_max, p), nf(b->lambda_max, q), nf(f2, y),
                 w->verdict == CL_HOLDS ? "rose" : "fell");
    else snprintf(w->reason, sizeof w->reason, "λ_max not known");
}

static void claim_theorem(const cl_input *in, const cl_report *rep, cl_row *w)
{
    row_set(w, "Theorem 1: strictly higher stable rank", CL_UNKNOWN);
    const sp_theorem *t = in->th;
    if (!t) {
        snprintf(w->reason, sizeof w->reason, "Theorem 1 not computed yet for task %d", in->task);
        return;
    }
    char a[32], b[32], c[32], d[32], e[32];
    num_pair(t->lhs, t->rhs, a, b, sizeof a);
    cl_sr_pair(t->sr_before, t->sr_after, c, d, sizeof c);
    snprintf(w->numbers, sizeof w->numbers, "(D−r)m² = %s vs %s (eq. 12); sr %s → %s", a, b, c, d);
    int rose = pv(d) > pv(c), strict = pv(a) > pv(b);
    w->verdict = cl_theorem_rule(pv(a), pv(b), pv(c), pv(d));
    if (w->verdict == CL_HOLDS)
        snprintf(w->reason, sizeof w->reason, "eq. 12 holds and sr rose by %s", nf(t->sr_after - t->sr_before, a));
    else if (!strict)
        snprintf(w->reason, sizeof w->reason,
                 "eq. 12 fails: the least tail energy of Δ, m = %s, is small against ε = %s in the head block "
                 "(Λ₊ = %s)%s", nf(t->m, a), nf(t->eps, b), nf(t->Lambda_plus, c),
                 rose ? "; sr rose anyway" : "; sr did not rise");
    else
        snprintf(w->reason, sizeof w->reason, "eq. 12 holds but sr went %s → %s", nf(t->sr_before, a),
                 nf(t->sr_after, e));
    (void)rep;
}

/* Mean of the smallest tenth of the eigenvalues (at least one). */
static double bottom_mean(const double *eig, long D)
{
    long k = D / 10 > 0 ? D / 10 : 1;
    double s = 0;
    for (long i = D - k; i < D; i++) s += eig[i];
    return s / (double)k;
}

static void claim_smallest(const cl_input *in, const cl_report *rep, cl_row *w)
{
    row_set(w, "smallest eigenvalues inflated", CL_UNKNOWN);
    const en_snap *a = snap(in, in->ref), *b = snap(in, in->aug);
    if (!a || !b) {
        snprintf(w->reason, sizeof w->reason, "task %d not computed yet", in->task);
        return;
    }
    char x[32], y[32], z[32], t[32], u[32];
    double tau = in->r->params.tau;
    if ((a->flags & EN_SPECTRUM) && (b->flags & EN_SPECTRUM) && a->eig && b->eig && in->r->D > 0) {
        long D = in->r->D;
        double ma = bottom_mean(a->eig, D), mb = bottom_mean(b->eig, D), q = mb / ma;
        snprintf(w->numbers, sizeof w->numbers, "smallest tenth of λ(G+τI): mean %s %s → %s %s (×%s); λ_min %s → %s",
                 rep->ref, nf(ma, x), rep->aug, nf(mb, y), nf(q, z), nf(a->eig[D - 1], t), nf(b->eig[D - 1], u));
        w->verdict = cl_smallest_rule(pv(z));
        if (w->verdict == CL_HOLDS)
            snprintf(w->reason, sizeof w->reason, "%s's extra rows put ×%s more energy into the weakest directions",
                     rep->aug, nf(q, z));
        else if (ma < 1.5 * tau && mb < 1.5 * tau)
            snprintf(w->reason, sizeof w->reason,
                     "both bottoms sit at the ridge floor τ = %s: the extra rows do not reach those directions",
                     nf(tau, x));
        else
            snprintf(w->reason, sizeof w->reason, "the weakest directions changed by ×%s only (needs ×%s)", nf(q, z),
                     nf(CL_INFLATE, t));
        return;
    }
    /* without the full spectrum: λ_min alone (Lanczos estimates marked ~) */
    if (!isfinite(a->lambda_min) || !isfinite(b->lambda_min) || a->lambda_min <= 0) {
        snprintf(w->reason, sizeof w->reason, "the spectrum at task %d is not computed", in->task);
        return;
    }
    double q = b->lambda_min / a->lambda_min;
    const char *ea = a->flags & EN_LMIN_EST ? "~" : "", *eb = b->flags & EN_LMIN_EST ? "~" : "";
    snprintf(w->numbers, sizeof w->numbers, "λ_min %s %s%s → %s %s%s (×%s)", rep->ref, ea, nf(a->lambda_min, x), rep->aug,
             eb, nf(b->lambda_min, y), nf(q, z));
    w->verdict = cl_smallest_rule(pv(z));
    snprintf(w->reason, sizeof w->reason, "λ_min only (the full spectrum is computed at the last task)%s",
             w->verdict == CL_HOLDS ? ": the weakest direction gained energy" : ": no real change");
}

static void claim_acc(const cl_input *in, const cl_report *rep, cl_row *w, int tail)
{
    row_set(w, tail ? "tail accuracy up" : "head accuracy preserved", CL_UNKNOWN);
    const en_snap *a = snap(in, in->ref), *b = snap(in, in->aug);
    if (!a || !b) {
        snprintf(w->reason, sizeof w->reason, "task %d not computed yet", in->task);
        return;
    }
    double va = tail ? a->tail_acc : a->head_acc, vb = tail ? b->tail_acc : b->head_acc;
    if (!isfinite(va) || !isfinite(vb)) {
        snprintf(w->reason, sizeof w->reason, "no %s class seen by task %d", tail ? "tail" : "head", in->task);
        return;
    }
    /* the change is that of the two numbers as printed (one decimal each) */
    char pa[32], pb[32], pd[32];
    snprintf(pa, sizeof pa, "%.1f", va);
    snprintf(pb, sizeof pb, "%.1f", vb);
    snprintf(pd, sizeof pd, "%+.1f", pv(pb) - pv(pa));
    double d = pv(pd);
    snprintf(w->numbers, sizeof w->numbers, "%s %s %s %% → %s %s %% (%s points)", tail ? "tail" : "head", rep->ref, pa,
             rep->aug, pb, pd);
    if (tail) {
        w->verdict = cl_tail_rule(d);
        snprintf(w->reason, sizeof w->reason, w->verdict == CL_HOLDS ? "%s recognises more tail test rows"
                                                                      : "%s gains less than 1 point on the tail",
                 rep->aug);
    } else {
        w->verdict = cl_head_rule(d);
        if (w->verdict == CL_HOLDS)
            snprintf(w->reason, sizeof w->reason, d >= 0 ? "the head does not lose" : "the head loses %.1f points (≤ 1)",
                     -d);
        else snprintf(w->reason, sizeof w->reason, "the head loses %.1f points", -d);
    }
}

cl_verdict cl_dilemma_rule(double tau_tail, double tau_head, double head_at_tail, double head_best)
{
    if (!isfinite(tau_tail) || !isfinite(tau_head) || !isfinite(head_at_tail) || !isfinite(head_best))
        return CL_UNKNOWN;
    /* the head's loss as a reader subtracts the two printed values (1e-9: decimals in binary) */
    return tau_tail > tau_head && head_best - head_at_tail >= CL_SHRINK - 1e-9 ? CL_HOLDS : CL_FAILS;
}

static void claim_dilemma(const cl_input *in, const cl_report *rep, cl_row *w)
{
    row_set(w, "dilemma: a large τ stabilizes the tail but over-shrinks the head", CL_UNKNOWN);
    const ts_curve *s = in->sweep;
    if (!s || s->n < 2) {
        snprintf(w->reason, sizeof w->reason, "the τ sweep of %s is not computed yet", rep->ref);
        return;
    }
    /* τ*_tail and τ*_head: where each is best (the first maximum, smallest τ, on ties) */
    int bt = -1, bh = -1, cnt = 0, lo = -1;
    for (int i = 0; i < s->n; i++) {
        if (!isfinite(s->tail_acc[i]) || !isfinite(s->head_acc[i])) continue;
        cnt++;
        if (lo < 0) lo = i;
        if (bt < 0 || s->tail_acc[i] > s->tail_acc[bt]) bt = i;
        if (bh < 0 || s->head_acc[i] > s->head_acc[bh]) bh = i;
    }
    if (cnt < 2) {
        snprintf(w->reason, sizeof w->reason, "the sweep has no head and tail accuracies at task %d", in->task);
        return;
    }
    char a[32], b[32], hb[32], ht[32];
    nf(s->tau[bt], a);
    nf(s->tau[bh], b);
    snprintf(hb, sizeof hb, "%.1f", s->head_acc[bh]);
    snprintf(ht, sizeof ht, "%.1f", s->head_acc[bt]);
    double loss = pv(hb) - pv(ht);
    /* exactly the four numbers the rule reads (and the tail's best accuracy) */
    snprintf(w->numbers, sizeof w->numbers, "%s: tail best %.1f %% at τ*_tail = %s; head best %s %% at τ*_head = %s; "
             "head at τ*_tail %s %% (%.1f points below its best)", rep->ref, s->tail_acc[bt], a, hb, b, ht, loss);
    w->verdict = cl_dilemma_rule(pv(a), pv(b), pv(ht), pv(hb));
    if (s->tau[bt] < s->tau[bh] && bt == lo)
        snprintf(w->reason, sizeof w->reason, "no τ above the smallest (%s) helps the tail, and the head is best at "
                 "τ %s: the tail wants the smaller τ, so a larger τ cannot be what stabilizes it", nf(s->tau[bt], a),
                 nf(s->tau[bh], b));
    else if (s->tau[bt] < s->tau[bh])
        snprintf(w->reason, sizeof w->reason, "the tail is best at τ %s, the head at τ %s: the tail wants the smaller "
                 "τ, so a larger τ cannot be what stabilizes it", nf(s->tau[bt], a), nf(s->tau[bh], b));
    else if (bt == bh)
        snprintf(w->reason, sizeof w->reason, "head and tail are both best at τ %s: no τ trades one for the other",
                 nf(s->tau[bt], a));
    else if (w->verdict == CL_HOLDS)
        snprintf(w->reason, sizeof w->reason, "the tail wants the larger τ (%s > %s) and there the head loses %.1f "
                 "points (≥ %.0f): raising τ for the tail suppresses the head", nf(s->tau[bt], a), nf(s->tau[bh], b),
                 loss, CL_SHRINK);
    else
        snprintf(w->reason, sizeof w->reason, "the tail wants the larger τ (%s > %s), but there the head loses only "
                 "%.1f points (< %.0f)", nf(s->tau[bt], a), nf(s->tau[bh], b), loss, CL_SHRINK);
}

/* ---- why the stable rank and the tail move as they do ------------------------------------ */

cl_verdict cl_rank_rule(double outside)
{
    return !isfinite(outside) ? CL_UNKNOWN : outside > CL_REACH ? CL_HOLDS : CL_FAILS;
}

static void claim_rank(const cl_input *in, const cl_report *rep, cl_row *w)
{
    row_set(w, "the synthetic rows reach directions the real rows do not", CL_UNKNOWN);
    const sp_theorem *t = in->th;
    if (!t) { snprintf(w->reason, sizeof w->reason, "needs G and Δ at task %d (the Theorem 1 check)", in->task); return; }
    char a[32], b[32];
    /* both ranks against ONE threshold (the larger matrix's): Δ ⪰ 0 cannot lower a rank */
    long floor_n = in->r->D - t->rank1_GD;
    snprintf(w->numbers, sizeof w->numbers, "rank(G) %ld → rank(G+Δ) %ld of D = %ld (eigenvalues above %s = "
             "D·ε·λ₁(G+Δ)); share of tr Δ outside G's range %s", t->rank1_G, t->rank1_GD, in->r->D,
             nf(t->rank_tol, b), nf(t->outside, a));
    w->verdict = cl_rank_rule(pv(nf(t->outside, a)));
    /* a mix of two rows lies in their plane; with --expand the mix is expanded by ReLU(Rz), which
     * is not linear, so the expanded mix can leave the span of the expanded real rows */
    int ex = in->r->expand > 0;
    if (w->verdict == CL_HOLDS && ex)
        snprintf(w->reason, sizeof w->reason,
                 "%s puts %s of its energy where no real row reaches: its mixes pass through the nonlinear "
                 "expansion ReLU(Rz), so they leave the real rows' span (without --expand they stay in it)",
                 rep->aug, nf(t->outside, a));
    else if (w->verdict == CL_HOLDS)
        snprintf(w->reason, sizeof w->reason, "%s puts %s of its energy where no real row reaches", rep->aug, nf(t->outside, a));
    else if (t->rank1_G >= in->r->D)
        snprintf(w->reason, sizeof w->reason, "the real rows already span all D = %ld directions: none is left to reach",
                 in->r->D);
    else {
        int n = ex ? snprintf(w->reason, sizeof w->reason,
                              "the expansion ReLU(Rz) could carry %s's mixes out of the real rows' span, but they "
                              "stay in it: %ld directions of G+Δ stay at the ridge floor τ", rep->aug, floor_n)
                   : snprintf(w->reason, sizeof w->reason,
                              "%s's rows stay in the span of the real rows (a mix of two rows lies in their plane): "
                              "%ld directions of G+Δ stay at the ridge floor τ", rep->aug, floor_n);
        if (t->rank1_GD > t->rank1_G && n > 0 && n < (int)sizeof w->reason)
            snprintf(w->reason + n, sizeof w->reason - (size_t)n, "; rank(G+Δ) gains %ld, yet only %s of tr Δ lies "
                     "off G's range", t->rank1_GD - t->rank1_G, nf(t->outside, a));
    }
}

static void claim_topshare(const cl_input *in, const cl_report *rep, cl_row *w)
{
    row_set(w, "Δ spreads energy off G's top direction: u₁ᵀΔu₁/tr Δ < λ₁/tr G", CL_UNKNOWN);
    const sp_theorem *t = in->th;
    if (!t) { snprintf(w->reason, sizeof w->reason, "needs G and Δ at task %d (the Theorem 1 check)", in->task); return; }
    if (!(t->tr_Delta > 0) || !(t->tr_G > 0)) {
        snprintf(w->reason, sizeof w->reason, "tr Δ = %g: %s adds no energy", t->tr_Delta, rep->aug);
        return;
    }
    double sd = t->u1_Delta / t->tr_Delta, sg = t->lambda1 / t->tr_G;
    char a[32], b[32];
    char x[32], y[32];
    cl_sr_pair(sd, sg, x, y, sizeof x);
    snprintf(w->numbers, sizeof w->numbers, "u₁ᵀΔu₁/tr Δ = %s against λ₁/tr G = %s", x, y);
    w->verdict = cl_topshare_rule(pv(x), pv(y));
    if (w->verdict == CL_HOLDS)
        snprintf(w->reason, sizeof w->reason, "Δ puts a smaller share (%s) on u₁ than G does (%s): it can raise sr = Σλ²/λ₁²",
                 nf(sd, a), nf(sg, b));
    else
        snprintf(w->reason, sizeof w->reason,
                 "Δ is more concentrated on G's top eigenvector (%s) than G (%s): λ₁ grows faster than ‖G‖_F, "
                 "so sr = Σλ²/λ₁² falls", nf(sd, a), nf(sg, b));
}

static void claim_premise(const cl_input *in, const cl_report *rep, cl_row *w)
{
    row_set(w, "Theorem 1's setting: Δ's head block is small, ε < λ₁", CL_UNKNOWN);
    const sp_theorem *t = in->th;
    if (!t) { snprintf(w->reason, sizeof w->reason, "needs the Theorem 1 check at task %d", in->task); return; }
    char a[32], b[32], c[32];
    double q = t->lambda1 > 0 ? t->eps / t->lambda1 : NAN;
    snprintf(w->numbers, sizeof w->numbers, "ε/λ₁ = %s (ε = %s, λ₁(G) = %s)", nf(q, a), nf(t->eps, b), nf(t->lambda1, c));
    if (!isfinite(q)) { w->verdict = CL_UNKNOWN; snprintf(w->reason, sizeof w->reason, "λ₁(G) is 0"); return; }
    w->verdict = cl_premise_rule(pv(a));
    snprintf(w->reason, sizeof w->reason, w->verdict == CL_HOLDS
                 ? "%s adds less to the head directions than G already holds there"
                 : "%s adds more to the head directions than G holds there: the head's eigenvalues grow most", rep->aug);
}

static void claim_spread(const cl_input *in, const cl_report *rep, cl_row *w)
{
    row_set(w, "mixing widens the classes: synthetic spread ≥ real", CL_UNKNOWN);
    const mc_rows *m = in->mech;
    int h = m && m->n_cls[1] > 0 ? 1 : 0;
    if (!m || m->n_cls[h] < 1) {
        snprintf(w->reason, sizeof w->reason, "needs %s's synthetic rows at task %d", rep->aug, in->task);
        return;
    }
    char a[32], b[32], c[32], d[32], e[32], f[32];
    int n = 0;
    n += snprintf(w->numbers, sizeof w->numbers, "tr Σ_c, real → synthetic:");
    for (int k = 0; k < 2 && n < (int)sizeof w->numbers; k++)
        if (m->n_cls[k] > 0)
            n += snprintf(w->numbers + n, sizeof w->numbers - (size_t)n, " %s %s → %s (×%s);", k ? "tail" : "head",
                          nf(m->spread_real[k], a), nf(m->spread_syn[k], b), nf(m->spread_syn[k] / m->spread_real[k], c));
    if (n < (int)sizeof w->numbers)
        snprintf(w->numbers + n, sizeof w->numbers - (size_t)n, " cosine to the class mean %s %s → %s",
                 h ? "tail" : "head", nf(m->cos_real[h], d), nf(m->cos_syn[h], e));
    double q = pv(nf(m->spread_syn[h] / m->spread_real[h], f));
    w->verdict = cl_spread_rule(q);
    if (w->verdict == CL_HOLDS)
        snprintf(w->reason, sizeof w->reason, "%s's %s rows spread ×%s as wide as the real ones", rep->aug,
                 h ? "tail" : "head", nf(q, f));
    else
        snprintf(w->reason, sizeof w->reason, "a mix lies between its two rows: %s's %s rows keep ×%s of the real spread, "
                 "closer to their class mean", rep->aug, h ? "tail" : "head", nf(q, f));
}

static void claim_mass(const cl_input *in, const cl_report *rep, cl_row *w)
{
    row_set(w, "the tail gains weight in G and Q (mass)", CL_UNKNOWN);
    const mc_rows *m = in->mech;
    if (!m || m->n_cls[1] < 1) {
        if (m) snprintf(w->reason, sizeof w->reason, "no augmented tail class seen by task %d", in->task);
        else snprintf(w->reason, sizeof w->reason, "needs %s's synthetic rows at task %d", rep->aug, in->task);
        return;
    }
    char a[32], b[32], c[32], d[32], e[32], f[32], g[32];
    double qt = m->mass_total[1] / m->mass_real[1], qh = m->n_cls[0] ? m->mass_total[0] / m->mass_real[0] : NAN;
    if (m->n_cls[0])
        snprintf(w->numbers, sizeof w->numbers, "median tail class %s rows → %s (×%s); head %s → %s (×%s); β = %s",
                 nf(m->mass_real[1], a), nf(m->mass_total[1], b), nf(qt, c), nf(m->mass_real[0], d),
                 nf(m->mass_total[0], e), nf(qh, f), nf(in->r->params.beta, g));
    else
        snprintf(w->numbers, sizeof w->numbers, "median tail class %s rows → %s (×%s)", nf(m->mass_real[1], a),
                 nf(m->mass_total[1], b), nf(qt, c));
    w->verdict = cl_mass_rule(pv(nf(qt, c)), m->n_cls[0] ? pv(nf(qh, f)) : NAN);
    if (w->verdict == CL_HOLDS)
        snprintf(w->reason, sizeof w->reason, "β-weighted rows multiply a tail class's weight by ×%s%s", nf(qt, c),
                 m->n_cls[0] ? ", more than a head class's: the ridge leans toward the tail" : "");
    else
        snprintf(w->reason, sizeof w->reason, "the tail's weight grows by ×%s, no more than the head's", nf(qt, c));
}

static void claim_split(const cl_input *in, const cl_report *rep, cl_row *w)
{
    row_set(w, "the tail gain comes from the mix's geometry, not its mass", CL_UNKNOWN);
    const en_results *r = in->r;
    int o = in->over;
    if (!strcmp(r->m[in->aug].augmenter, "oversample")) {
        snprintf(w->reason, sizeof w->reason, "%s is the mass control itself: compare GSR with it", rep->aug);
        return;
    }
    if (o < 0 || o >= r->n_methods || o == in->ref || o == in->aug || strcmp(r->m[o].augmenter, "oversample") ||
        strcmp(r->m[o].learner, r->m[in->ref].learner)) {
        snprintf(w->reason, sizeof w->reason, "run %s+oversample too (copies of each class's rows, GSR's count) to "
                 "split mass from geometry", r->m[in->ref].learner);
        return;
    }
    const en_snap *a = snap(in, in->ref), *v = snap(in, o), *b = snap(in, in->aug);
    if (!a || !v || !b || !isfinite(a->tail_acc) || !isfinite(v->tail_acc) || !isfinite(b->tail_acc)) {
        snprintf(w->reason, sizeof w->reason, "task %d: not computed, or no tail class seen", in->task);
        return;
    }
    /* mass and geometry: the differences of the three accuracies as printed */
    char pa[16], pv1[16], pb[16], pm[16], pg[16];
    snprintf(pa, sizeof pa, "%.1f", a->tail_acc);
    snprintf(pv1, sizeof pv1, "%.1f", v->tail_acc);
    snprintf(pb, sizeof pb, "%.1f", b->tail_acc);
    snprintf(pm, sizeof pm, "%+.1f", pv(pv1) - pv(pa));
    snprintf(pg, sizeof pg, "%+.1f", pv(pb) - pv(pv1));
    double mass = pv(pm), geo = pv(pg);
    char on[32];
    mt_display_name(r->m[o].name, on, sizeof on);
    snprintf(w->numbers, sizeof w->numbers, "tail %s %s → %s %s → %s %s %%: mass %s, geometry %s points", rep->ref, pa,
             on, pv1, rep->aug, pb, pm, pg);
    w->verdict = cl_split_rule(mass, geo);
    if (w->verdict == CL_HOLDS)
        snprintf(w->reason, sizeof w->reason, "the spherical mix adds %.1f points beyond copies of the same weight "
                 "(%+.1f)", geo, mass);
    else if (geo < CL_TAIL_GAIN)
        snprintf(w->reason, sizeof w->reason, "copies of the class's own rows with the same weight give %+.1f points; "
                 "the mix adds %+.1f (under 1)", mass, geo);
    else
        snprintf(w->reason, sizeof w->reason, "the mix adds %+.1f points, but the weight alone gives more (%+.1f)", geo,
                 mass);
}

int cl_claims(const cl_input *in, cl_report *out)
{
    memset(out, 0, sizeof *out);
    if (!in || !in->r || in->r->T < 1 || in->task < 1 || in->task > in->r->T)
        return gs_error(GS_EINPUT, "claims: no results for the task");
    const en_results *r = in->r;
    if (in->ref < 0 || in->ref >= r->n_methods || in->aug < 0 || in->aug >= r->n_methods || in->ref == in->aug)
        return gs_error(GS_EINPUT, "claims: need two methods, plain ridge (gacl) and an augmenting one (gsr)");
    out->task = in->task;
    mt_display_name(r->m[in->ref].name, out->ref, sizeof out->ref);
    mt_display_name(r->m[in->aug].name, out->aug, sizeof out->aug);
    claim_sr(in, out, &out->row[CL_SR]);
    claim_theorem(in, out, &out->row[CL_THEOREM]);
    claim_smallest(in, out, &out->row[CL_SMALLEST]);
    claim_acc(in, out, &out->row[CL_TAIL], 1);
    claim_acc(in, out, &out->row[CL_HEAD], 0);
    claim_dilemma(in, out, &out->row[CL_DILEMMA]);
    claim_rank(in, out, &out->row[CL_RANK]);
    claim_topshare(in, out, &out->row[CL_TOPSHARE]);
    claim_premise(in, out, &out->row[CL_PREMISE]);
    claim_spread(in, out, &out->row[CL_SPREAD]);
    claim_mass(in, out, &out->row[CL_MASS]);
    claim_split(in, out, &out->row[CL_SPLIT]);
    out->n = CL_COUNT;
    return GS_OK;
}
