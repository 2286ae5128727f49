/* engine/method_uses.c — which of the parameters a method depends on (en_method_uses in
 * gs_engine.h): the parameter table's row names the part of the replay it invalidates
 * (gs_params.h, EN_DEP_*), and the method uses it when its learner or augmenter depends on that
 * part; τ reaches every ridge learner through its solve, β every augmenter whose rows enter with
 * weight β. */
#include "gs_common.h"
#include "gs_engine.h"
#include "gs_learner.h"
#include "gs_methods.h"
#include "gs_params.h"

int en_method_uses(const char *method, const char *param)
{
    const en_learner *L = NULL;
    const en_augmenter *A = NULL;
    const pa_param *r = pa_find(param);
    if (!r || en_method_parse(method, &L, &A) != GS_OK || !L) return 0;
    unsigned deps = L->deps | (A ? A->deps : 0);
    if (L->family == EN_RIDGE) deps |= EN_DEP_TAU;
    if (A && A->weight == en_weight_beta) deps |= EN_DEP_BETA;
    return !!(deps & r->dep);
}
