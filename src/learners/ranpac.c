/* learners/ranpac.c — RanPAC: a Gaussian random ReLU projection to M dimensions (--projection draws
 * it; M = --expand when given, else 10000), then the engine's ridge (gs_learner.h).
 *
 * The reference picks λ on held-out training rows: `run --val-frac` and `table --val-frac` choose
 * it so (cli/ranpac_lambda.c: one eigendecomposition serves the whole grid, of the N × N kernel
 * while the rows are fewer than M) into params->ranpac_lambda; without a validation split τ is
 * used as given. */
#include "gs_learner.h"

static double ranpac_tau(en_mctx *m, int t, double tau)
{
    (void)t;
    return m->params && m->params->ranpac_lambda > 0 ? m->params->ranpac_lambda : tau;
}

const en_learner en_learner_ranpac = {
    .name = "ranpac", .display = "RanPAC", .letter = 'P',
    .summary = "RanPAC: random ReLU projection to M (10000, or --expand), then ridge",
    .family = EN_RIDGE, .map = EN_MAP_RELU, .map_dim = 10000, .tau_eff = ranpac_tau, .deps = EN_DEP_LAMBDA,
};
