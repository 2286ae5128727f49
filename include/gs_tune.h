/* gs_tune.h — one parameter of one method chosen on the validation rows only (prefix tn_;
 * src/analysis/tuning.c). Read by `gsrscope tune` (src/cli/tune.c) and the TUI's `t`.
 *
 * The objective is read from the validation rows after the last task: acc = sample-weighted
 * accuracy, tail = mean per-class accuracy of the tail classes, balanced = the mean of the head
 * and tail per-class accuracies. Test rows are predicted by the engine as always but never read
 * to choose. The search: a coarse grid over the parameter's range (τ and ξ on a log scale), then
 * a golden-section refinement between the grid neighbours of the best grid point; the best point
 * evaluated wins (ties: the first evaluated). Each evaluation is an en_update of an engine that
 * keeps every task's Gram matrices, so a τ or β change re-solves from cached Grams and an
 * α_base/ξ change regenerates only the synthetic rows; an evaluation stops once the last task is
 * reported (with the Grams cached the engine computes that task first). Over several engines
 * (one per seed, each with its own stream, split and problem) the search maximizes the mean
 * objective. A learner's statistics parameter is searched on its grid only (tn_refines); RanPAC's
 * λ by its own grid (tn_lambda_search).
 * Ownership: tn_search writes into caller-provided structs; nothing to free.
 */
#ifndef GS_TUNE_H
#define GS_TUNE_H

#include "gs_engine.h"
#include "gs_params.h"

#define TN_GOLDEN_STEPS 10

/* A search space: the parameter table's row (gs_params.h), whose tune_lo, tune_hi, tune_log
 * and tune_grid give the grid's range, scale and points. */
typedef pa_param tn_space;

/* The search space of a parameter name (also "alpha-base"), or NULL when the table gives the
 * parameter no tuning range. */
const tn_space *tn_space_find(const char *name);
/* Value of the named parameter in q, and assignment. */
double tn_get(const op_params *q, const tn_space *sp);
void tn_set(op_params *q, const tn_space *sp, double v);
/* Objective of method m's validation results after the last task (NaN if that task is not done). */
double tn_objective(const en_results *r, int m, op_objective obj);

/* 1 when tn_search refines the grid's best point with the golden section: a parameter that acts
 * through the ridge solve or the synthetic rows (τ, β, α_base, ξ, gauss-a, gauss-b: cheap to
 * re-evaluate from the cached Grams, and smooth). A learner's own statistics parameter (SLDA's
 * ε, KLDA's γ and reg, FeCAM's α and Tukey power: every point refits every task's statistics, and
 * the accuracy is flat over much of a decade) is searched on its grid only. */
int tn_refines(const tn_space *sp);

/* The points a search evaluated, in order (the caller's arrays, cap entries; n counts every
 * point, also those beyond cap): the value and the mean objective over the engines. */
typedef struct {
    double *value, *objective;
    int cap, n;
} tn_trace;

/* One parameter of method m (index in every engine): grid, then golden section (tn_refines), on
 * the mean of the objective over the ne engines e[0..ne) (one per seed, each with its own split and
 * stream; ne = 1 for one seed); engine k is updated with seed seeds[k] (NULL: q->seed for all). On
 * return q holds the best value found; *best its mean objective; *evals the points evaluated
 * (each one update of every engine). The engines' results are those of the last evaluation (call
 * en_update with q to get the chosen point's). cancel (may be NULL) is read atomically: another
 * thread may set it. GS_OK, GS_ECANCEL or an engine error. */
int tn_search(en_engine *const *e, const uint64_t *seeds, int ne, int m, op_params *q, const tn_space *sp,
              op_objective obj, const volatile int *cancel, double *best, int *evals);
/* The same, every point evaluated recorded in tr (NULL: none). */
int tn_search_traced(en_engine *const *e, const uint64_t *seeds, int ne, int m, op_params *q, const tn_space *sp,
                     op_objective obj, const volatile int *cancel, double *best, int *evals, tn_trace *tr);

/* RanPAC's λ (a learner whose ridge is chosen on the validation rows: EN_DEP_LAMBDA): the grid
 * `run --val-frac` searches, TN_LAMBDA_N points 1e-4 .. 1e5 (four a decade), every point from one
 * τ sweep of the last task (gs_tausweep.h: one eigendecomposition per engine), no refinement;
 * the first grid point with the highest mean objective over the engines wins (with one engine and
 * the objective acc: the λ run chooses). q->tau receives it (q->ranpac_lambda stays 0: the
 * learner then uses τ). Engine k is brought up to date at q with seed seeds[k] (NULL: q->seed)
 * and must keep the last task's Gram. *evals = TN_LAMBDA_N; tr as above. GS_OK or an error. */
#define TN_LAMBDA_N 37
#define TN_LAMBDA_LO 1e-4
#define TN_LAMBDA_HI 1e5
int tn_lambda_search(en_engine *const *e, const en_problem *const *p, const uint64_t *seeds, int ne, int m, op_params *q,
                     op_objective obj, const volatile int *cancel, double *best, int *evals, tn_trace *tr);

#endif
