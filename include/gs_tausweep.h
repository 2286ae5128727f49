/* gs_tausweep.h — the isotropic-ridge dilemma made visible: accuracy (overall, head, tail) and
 * stable rank against τ, at one task, for one ridge method, from ONE eigendecomposition
 * G = U diag(λ) Uᵀ: W(τ) = U diag(1/(λ+τ)) Uᵀ Q (prefix ts_).
 *
 * Pure computation: no printing, no curses, no cairo. The TUI and the figure exporter plot the
 * arrays of a ts_curve. Predictions follow the engine exactly (seen classes in stream order,
 * first maximum wins), so the value at the engine's τ equals the engine's own accuracy.
 * For a method with an effective τ (AIR: τ/s) the curve is indexed by the user τ and solved
 * with τ_eff; stable_rank is sr(G + τ_eff I).
 * Cost: one dsyevd (D³), then per grid point one n_test×D×C_seen product.
 * Ownership: ts_curve owns its arrays; ts_free releases them.
 *
 * Typical use (engine created with keep_task_grams for tasks before the last):
 *     double taus[TS_DEFAULT_N]; ts_log_grid(1e-4, 1e4, TS_DEFAULT_N, taus);
 *     ts_curve cv; rc = ts_compute(eng, &prob, method_index, task, taus, TS_DEFAULT_N, &cv, &cancel);
 *     ... plot cv.tau vs cv.acc / cv.head_acc / cv.tail_acc / cv.stable_rank ... ts_free(&cv);
 */
#ifndef GS_TAUSWEEP_H
#define GS_TAUSWEEP_H

#include "gs_engine.h"
#include "gs_mat.h"

#define TS_DEFAULT_N 33   /* 1e-4 … 1e4, four points per decade */

typedef struct {
    int n;               /* grid points */
    double *tau;         /* n: the τ of the grid (as given) */
    double *tau_eff;     /* n: the τ actually added to G (= tau except for AIR) */
    double *acc;         /* n: sample-weighted accuracy over seen classes, % (NaN: not PD) */
    double *head_acc;    /* n: mean per-class accuracy of seen head classes, % (NaN if none) */
    double *tail_acc;    /* n: same for tail classes */
    double *val_acc;     /* n: the three on the validation rows (--val-frac), NaN without a split */
    double *val_head_acc, *val_tail_acc;
    double *stable_rank; /* n: sr(G + τ_eff I) = Σ(λ+τ)²/(λ₁+τ)² */
    double *lambda;      /* D: eigenvalues of G (no τ), descending */
    long D;
    int task;            /* 1-based */
    int best;            /* index of the highest validation acc with a split (best_by_val = 1),
                          * else of the highest test acc (first one); -1 if none */
    int best_by_val;
    char method[32];
} ts_curve;

/* n values from lo to hi, evenly spaced in log10 (n ≥ 2, 0 < lo < hi). */
void ts_log_grid(double lo, double hi, int n, double *out);

/* From G (D×D, no τ) and Q (D×C row-major) of task `task` (1-based) of problem p. taus_eff may
 * be NULL (= taus). GS_OK, GS_EINPUT, GS_ENOMEM, GS_ERUN (eigensolver), GS_ECANCEL. */
int ts_compute_gq(const gm_mat *G, const gm_mat *Q, const en_problem *p, int task, const double *taus,
                  const double *taus_eff, int n, ts_curve *out, const volatile int *cancel);

/* For ridge method `method` (index in the engine's results) at `task` (1-based), using en_gram
 * and the method's τ_eff rule. The engine must be up to date (en_update). */
int ts_compute(en_engine *e, const en_problem *p, int method, int task, const double *taus, int n,
               ts_curve *out, const volatile int *cancel);

/* ts_compute, in the dual when the method's task is solved there (its N rows fewer than D): one
 * eigendecomposition of the N × N kernel serves every τ (cost N³ + (n_test + n_val)·N·D, memory
 * N² + (n_test + n_val)·N, no D × D matrix); otherwise ts_compute (one D × D eigendecomposition,
 * cost about 9·D³ flops and 3 D × D matrices: RanPAC at M = 10,000 above 10,000 rows takes
 * minutes and 2.4 GB). The same curve up to rounding; GS_TAU_SWEEP=eig forces ts_compute. */
int ts_compute_fast(en_engine *e, const en_problem *p, int method, int task, const double *taus, int n,
                    ts_curve *out, const volatile int *cancel);
void ts_free(ts_curve *c);

#endif
