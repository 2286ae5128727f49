/* gs_claims.h — the paper's claims checked against the numbers of one run (prefix cl_).
 *
 * Pure computation from results the views already hold (en_results of the task, the Theorem 1
 * check and a τ sweep of the reference method): no curses, no cairo, no printing. Each claim
 * gets a verdict (✔ the data supports it, ✗ it does not, ? not known yet), the numbers it
 * rests on and a one-line reason built from those numbers only (never from the paper).
 * The claims, in order (CL_*): stable rank 1.02 → 2.80; strictly higher stable rank by
 * Theorem 1; smallest eigenvalues inflated; tail accuracy up; head preserved; the isotropic
 * dilemma (a large τ stabilizes the tail but over-shrinks the head: τ*_tail > τ*_head and the head
 * loses ≥ 2 points at τ*_tail). Then why the stable rank and
 * the tail move as they do: the synthetic rows reach new directions (rank(G + Δ) > rank(G)); Δ
 * spreads energy off G's top direction (u₁ᵀΔu₁/tr Δ < λ₁/tr G); Theorem 1's setting ε < λ₁;
 * mixing widens the classes (synthetic spread ≥ real); the tail gains weight (mass); the tail gain
 * comes from the mix's geometry rather than its mass (GACL → +oversample → +GSR).
 * Ownership: cl_report is a plain value (fixed-size strings).
 */
#ifndef GS_CLAIMS_H
#define GS_CLAIMS_H

#include "gs_engine.h"
#include "gs_mechanism.h"
#include "gs_spectral.h"
#include "gs_tausweep.h"

enum {
    CL_SR = 0, CL_THEOREM, CL_SMALLEST, CL_TAIL, CL_HEAD, CL_DILEMMA,
    CL_RANK, CL_TOPSHARE, CL_PREMISE, CL_SPREAD, CL_MASS, CL_SPLIT, CL_COUNT
};
typedef enum { CL_UNKNOWN = -1, CL_FAILS = 0, CL_HOLDS = 1 } cl_verdict;

/* Thresholds (documented in the man page): a change counts when it passes them. */
#define CL_TAIL_GAIN 1.0     /* tail accuracy up: at least +1 point */
#define CL_HEAD_LOSS 1.0     /* head preserved: at most 1 point lost */
#define CL_INFLATE 1.10      /* smallest eigenvalues inflated: bottom-decile mean ×1.1 at least */
#define CL_REACH 1e-6        /* new directions: more than this share of tr Δ outside G's range */
#define CL_SHRINK 2.0        /* dilemma: the head loses 2 points or more at the τ best for the tail */

typedef struct {
    char claim[96];      /* the paper's claim, short */
    cl_verdict verdict;
    char numbers[280];   /* what this data shows (UTF-8) */
    char reason[280];    /* why, from the numbers */
} cl_row;

typedef struct {
    int task;
    char ref[32], aug[32]; /* display names of the reference (GACL) and the augmenting method */
    int n;
    cl_row row[CL_COUNT];
} cl_report;

typedef struct {
    const en_results *r;
    int ref, aug;             /* method indices: the reference (plain ridge) and the augmenting one */
    int task;                 /* 1-based */
    const sp_theorem *th;     /* Theorem 1 at the task for (ref, aug), or NULL (not computed) */
    const ts_curve *sweep;    /* τ sweep of the reference at the task, or NULL */
    const mc_rows *mech;      /* spread and mass of the augmenting method's rows, or NULL */
    int over;                 /* the reference's learner + oversample (mass without geometry); used
                               * only when it is neither ref nor aug and its augmenter is oversample */
} cl_input;

/* Fill the report. GS_OK, or GS_EINPUT (no results, bad indices). Rows whose numbers are not
 * available yet are CL_UNKNOWN with the reason saying what is missing. */
int cl_claims(const cl_input *in, cl_report *out);
/* The method of the results that is ref's learner with the oversample augmenter, or -1. */
int cl_find_oversample(const en_results *r, int ref);
/* a and b with the fewest decimals (3 to 9) that tell them apart, "1.000228" and "1.000140" */
void cl_sr_pair(double a, double b, char *sa, char *sb, size_t n);
/* The rules, one per claim, each over the numbers printed on its claim's line, read back from
 * the text (so a reader re-derives every verdict from the line alone; the man page states them
 * in its CLAIMS section). Each is CL_UNKNOWN when a number it reads is not finite.
 * stable rank: GSR's printed sr above GACL's; */
cl_verdict cl_sr_rule(double sr_ref, double sr_aug);
/* Theorem 1: (D−r)m² above the right side of eq. 12 and the printed sr rose; */
cl_verdict cl_theorem_rule(double lhs, double rhs, double sr_before, double sr_after);
/* smallest eigenvalues: the bottom tenth's ratio (or λ_min's) CL_INFLATE or more; */
cl_verdict cl_smallest_rule(double ratio);
/* tail up: the printed change CL_TAIL_GAIN points or more; head preserved: -CL_HEAD_LOSS or more; */
cl_verdict cl_tail_rule(double change);
cl_verdict cl_head_rule(double change);
/* the dilemma: τ*_tail > τ*_head and the head at τ*_tail CL_SHRINK points or more below its best; */
cl_verdict cl_dilemma_rule(double tau_tail, double tau_head, double head_at_tail, double head_best);
/* the synthetic rows reach new directions: more than CL_REACH of tr Δ outside G's range; */
cl_verdict cl_rank_rule(double outside);
/* Δ spreads energy off G's top direction: u₁ᵀΔu₁/tr Δ below λ₁/tr G; */
cl_verdict cl_topshare_rule(double share_delta, double share_g);
/* Theorem 1's setting: ε/λ₁ below 1; */
cl_verdict cl_premise_rule(double eps_over_l1);
/* mixing widens the classes: synthetic over real spread 1 or more; */
cl_verdict cl_spread_rule(double ratio);
/* the tail gains weight: its ratio above 1 and above the head's (head_ratio NaN: no head class); */
cl_verdict cl_mass_rule(double tail_ratio, double head_ratio);
/* the tail gain is geometry: geometry CL_TAIL_GAIN points or more and above the mass. */
cl_verdict cl_split_rule(double mass, double geometry);
/* "✔", "✗" or "?" */
const char *cl_mark(cl_verdict v);

#endif
