/* engine/method_uses.c — which of the tunable hyperparameters a method depends on (en_method_uses in
 * gs_engine.h), read from its learner and augmenter: τ for the ridge learners, β for an
 * augmenter whose rows enter with weight β, α_base and ξ for the augmenters that depend on them. */
#include "gs_common.h"
#include "gs_engine.h"
#include "gs_learner.h"
#include "gs_methods.h"

#include <string.h>

int en_method_uses(const char *method, const char *param)
{
    const en_learner *L = NULL;
    const en_augmenter *A = NULL;
    if (en_method_parse(method, &L, &A) != GS_OK || !L) return 0;
    unsigned deps = L->deps | (A ? A->deps : 0);
    if (!strcmp(param, "tau")) return L->family == EN_RIDGE || !!(deps & EN_DEP_TAU);
    if (!strcmp(param, "beta")) return A && A->weight == en_weight_beta;
    if (!strcmp(param, "alpha_base") || !strcmp(param, "alpha-base")) return !!(deps & EN_DEP_ALPHA);
    if (!strcmp(param, "xi")) return !!(deps & EN_DEP_XI);
    return 0;
}
