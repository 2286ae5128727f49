/* method_uses.c — which of the tunable hyperparameters a method depends on (en_method_uses in
 * gs_engine.h), read from the method table: τ for the ridge methods, β for methods whose
 * synthetic rows enter with weight β, α_base and ξ for the generators that depend on them. */
#include "gs_engine.h"
#include "gs_methods.h"

#include <string.h>

int en_method_uses(const char *method, const char *param)
{
    const en_mdef *d = en_method_find(method);
    if (!d) return 0;
    if (!strcmp(param, "tau")) return d->kind != 2;
    if (!strcmp(param, "beta")) return d->extra_weight == en_weight_beta;
    if (!strcmp(param, "alpha_base") || !strcmp(param, "alpha-base")) return !!(d->deps & EN_DEP_ALPHA);
    if (!strcmp(param, "xi")) return !!(d->deps & EN_DEP_XI);
    return 0;
}
