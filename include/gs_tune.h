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
 * objective.
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

/* One parameter of method m (index in every engine): grid, then golden section, on the mean of
 * the objective over the ne engines e[0..ne) (one per seed, each with its own split and stream;
 * ne = 1 for one seed); engine k is updated with seed seeds[k] (NULL: q->seed for all). On return q holds the best value found; *best its mean objective;
 * *evals the points evaluated (each one update of every engine). The engines' results are those
 * of the last evaluation (call en_update with q to get the chosen point's). cancel (may be
 * NULL) is read atomically: another thread may set it. GS_OK, GS_ECANCEL or an engine error. */
int tn_search(en_engine *const *e, const uint64_t *seeds, int ne, int m, op_params *q, const tn_space *sp,
              op_objective obj, const volatile int *cancel, double *best, int *evals);


#endif
