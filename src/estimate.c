/* estimate.c — the memory a run needs, estimated before allocating (en_estimate_bytes in
 * gs_engine.h), learner by learner: each feature space's rows and base Gram, each ridge method's
 * Gram matrices and work, each stats learner's own state (en_learner.bytes). */
#include "gs_engine.h"
#include "gs_methods.h"

#include <string.h>

/* The dimension of learner L's feature space (as src/space.c chooses it). */
static long space_dim(const en_learner *L, long d, long expand, int *relu)
{
    if (L->map == EN_MAP_IDENTITY) { *relu = 0; return d; }
    if (L->map == EN_MAP_RELU) { *relu = 1; return expand > 0 ? expand : L->map_dim; }
    *relu = expand > 0;
    return expand > 0 ? expand : d;
}

double en_estimate_bytes(long n_rows, long n_test, long d, long expand, int C, int T, const char *const *methods,
                         int n_methods, int keep_task_grams)
{
    double slots = keep_task_grams ? T : 1, b = gm_bytes(n_rows, d) + gm_bytes(n_test, d);
    long dims[OP_MAX_METHODS];
    int relus[OP_MAX_METHODS], based[OP_MAX_METHODS], ns = 0;
    for (int m = 0; m < n_methods && m < OP_MAX_METHODS; m++) {
        const en_learner *L;
        const en_augmenter *A;
        if (en_method_parse(methods[m], &L, &A)) continue; /* refused later with its message */
        int relu, k;
        long D = space_dim(L, d, expand, &relu);
        for (k = 0; k < ns && !(dims[k] == D && relus[k] == relu); k++) {}
        if (k == ns) { /* a new space: mapped rows (training, test), fl32 test copy, projection */
            dims[ns] = D; relus[ns] = relu; based[ns] = 0; ns++;
            if (relu) b += gm_bytes(n_rows, D) + gm_bytes(n_test, D) + gm_bytes(D, d);
            if (gm_bytes(n_test, D) / 2 <= EN_TEST_F_MAX) b += gm_bytes(n_test, D) / 2;
        }
        if (L->family == EN_RIDGE) {
            if (!L->class_weight && !based[k]) { b += (gm_bytes(D, D) + gm_bytes(C, D)) * slots; based[k] = 1; }
            double grams = (A ? 1 : 0) + (L->class_weight ? 1 : 0);
            b += (gm_bytes(D, D) + gm_bytes(C, D)) * grams * slots;
            b += gm_bytes(D, D) + 2 * gm_bytes(C, D); /* work: G then its factor, Q, W */
            b += gm_bytes(100, D);                    /* Lanczos basis */
        } else if (L->bytes) {
            b += L->bytes(D, expand, C, T);
        }
        if (A) b += gm_bytes(4000, D);                /* a task's synthetic rows */
    }
    b += gm_bytes(n_test, C);                         /* scores */
    return b;
}
