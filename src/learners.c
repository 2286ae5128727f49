/* learners.c — the learner table, and gacl, the first learner (see gs_learner.h).
 *
 * gacl is ridge on the real rows (and its augmenter's rows): every row weighs 1, τ as given.
 * Its statistics are the engine's ridge core (src/ridge.c), so the learner itself is only a
 * name. Learners of other files are declared here as they are added. */
#include "gs_learner.h"

#include <string.h>

static const en_learner L_GACL = {
    .name = "gacl", .summary = "GACL: ridge regression W = (G + τI)⁻¹ Q on the rows", .family = EN_RIDGE,
};

extern const en_learner en_learner_air, en_learner_ncm, en_learner_slda;

const en_learner *const en_learners[] = {&L_GACL, &en_learner_air, &en_learner_ncm, &en_learner_slda, NULL};

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
