/* learners/gacl.c — GACL, the learner that is only ridge over the engine's core (src/engine/ridge.c)
 * in the run's feature space (gs_learner.h).
 *
 * Every row weighs 1, τ as given: W = (G + τI)⁻¹ Q on the real rows and its augmenter's rows. */
#include "gs_learner.h"

const en_learner en_learner_gacl = {
    .name = "gacl", .display = "GACL", .letter = 'A',
    .summary = "GACL: ridge regression W = (G + τI)⁻¹ Q on the rows", .family = EN_RIDGE,
};
