/* learners/registry.c — the learner table, and the learners that are only a name and a feature map over
 * the engine's ridge core (src/engine/ridge.c): gacl and ranpac (see gs_learner.h).
 *
 * gacl is ridge on the real rows (and its augmenter's rows) in the run's feature space: every row
 * weighs 1, τ as given. Learners of other files are declared here as they are added. */
#include "gs_learner.h"

#include <string.h>

static const en_learner L_GACL = {
    .name = "gacl", .summary = "GACL: ridge regression W = (G + τI)⁻¹ Q on the rows", .family = EN_RIDGE,
};

/* RanPAC: a Gaussian random ReLU projection to M dimensions (--projection draws it; M = --expand
 * when given, else 10000), then the same ridge. The reference picks λ on held-out training rows:
 * `run --val-frac` chooses it so (cli/run.c, ranpac_lambda) into params->ranpac_lambda;
 * without a validation split τ is used as given. */
static double ranpac_tau(en_mctx *m, int t, double tau)
{
    (void)t;
    return m->params && m->params->ranpac_lambda > 0 ? m->params->ranpac_lambda : tau;
}

static const en_learner L_RANPAC = {
    .name = "ranpac", .summary = "RanPAC: random ReLU projection to M (10000, or --expand), then ridge",
    .family = EN_RIDGE, .map = EN_MAP_RELU, .map_dim = 10000, .tau_eff = ranpac_tau, .deps = EN_DEP_LAMBDA,
};

extern const en_learner en_learner_air, en_learner_ncm, en_learner_slda, en_learner_anacp, en_learner_klda,
    en_learner_fecam;

const en_learner *const en_learners[] = {&L_GACL,          &en_learner_air,   &L_RANPAC,        &en_learner_ncm,
                                         &en_learner_slda, &en_learner_anacp, &en_learner_klda, &en_learner_fecam,
                                         NULL};

const en_learner *en_learner_find(const char *name)
{
    for (int i = 0; en_learners[i]; i++)
        if (!strcmp(en_learners[i]->name, name)) return en_learners[i];
    return NULL;
}

double en_learner_tau(const en_learner *L, en_mctx *m, int t, double tau)
{
    return L->tau_eff ? L->tau_eff(m, t, tau) : tau;
}
