/* gs_sweep.h — `gsrscope sweep`: a grid of runs, headless, summarized like the paper's Table 5
 * (prefix sw_).
 *
 *   gsrscope sweep --param NAME=v1,v2,... [--param ...] [--seeds 1,2,3] [--methods ...]
 *                  [--format table|csv|json] [data and protocol options]
 *
 * NAME is any name op_set accepts (tau, beta, alpha-base, xi, max-aug, pairs, augment, gauss-a,
 * gauss-b, slda-eps, rho, tasks, head-frac, tail-shots, head-shots, profile, order, expand).
 * The grid is the Cartesian product of the --param lists (the last one varies fastest), run for
 * every seed of --seeds (default: --seed). One pipeline is reused while only method parameters
 * change (τ and β re-solve from cached Grams); protocol changes rebuild the stream, a new seed
 * rebuilds stream and problem (the data are loaded once). Progress goes to stderr when it is a
 * terminal (not with --quiet). Output: per grid point and method, A_last, A_avg, and head and
 * tail accuracy at the last task, as mean ± sample std over the seeds (std blank with 1 seed).
 * Exit status: 0, 1 if some run had a failed task (its numbers are left out), 2 on bad usage.
 */
#ifndef GS_SWEEP_H
#define GS_SWEEP_H

#include "gs_opts.h"

#include <stdint.h>

#define SW_MAX_SEEDS 256

int sw_main(op_opts *o);
/* gs_mean_sd (gs_common.h) under its older name. */
void sw_stats(const double *v, int n, double *mean, double *sd, int *k);

#endif
