/* methods/table.c — the method table: one row per learner and per augmenter, each the struct its
 * file defines (name, display name, chart letter, help line, parameters, hooks) (gs_mtable.h).
 *
 * A new learner or augmenter: its file (src/learners/<name>.c or src/augmenters/<name>.c) and its
 * row here. Nothing else names it. */
#include "gs_mtable.h"
#include "gs_common.h"

#include <string.h>

extern const en_learner en_learner_gacl, en_learner_air, en_learner_ranpac, en_learner_ncm, en_learner_slda,
    en_learner_anacp, en_learner_klda, en_learner_fecam;
extern const en_augmenter en_aug_gsr, en_aug_gsr_linear, en_aug_gsr_fixed, en_aug_gauss_shrink,
    en_aug_gauss_transfer, en_aug_interclass, en_aug_oversample;

/* Room for the rows below and the few a test adds (mt_test_add_*); NULL after the last. */
enum { MT_TEST_ROWS = 4 };

static const en_learner *learners[] = {
    &en_learner_gacl, &en_learner_air,   &en_learner_ranpac, &en_learner_ncm,
    &en_learner_slda, &en_learner_anacp, &en_learner_klda,   &en_learner_fecam,
    [8 + MT_TEST_ROWS] = NULL,
};

static const en_augmenter *augmenters[] = {
    &en_aug_gsr,           &en_aug_gsr_linear, &en_aug_gsr_fixed,  &en_aug_gauss_shrink,
    &en_aug_gauss_transfer, &en_aug_interclass, &en_aug_oversample,
    [7 + MT_TEST_ROWS] = NULL,
};

#define NL ((int)(sizeof learners / sizeof *learners) - 1 - MT_TEST_ROWS)
#define NA ((int)(sizeof augmenters / sizeof *augmenters) - 1 - MT_TEST_ROWS)

/* The rows in use: the listed ones and the tests' (n set to their count). */
#define COUNT(rows, n) for ((n) = 0; (rows)[n]; (n)++) {}

const en_learner *const *mt_learners(int *n)
{
    int k;
    COUNT(learners, k);
    if (n) *n = k;
    return learners;
}

const en_augmenter *const *mt_augmenters(int *n)
{
    int k;
    COUNT(augmenters, k);
    if (n) *n = k;
    return augmenters;
}

const en_learner *mt_learner(const char *name)
{
    for (int i = 0; name && learners[i]; i++)
        if (!strcmp(learners[i]->name, name)) return learners[i];
    return NULL;
}

const en_augmenter *mt_augmenter(const char *name)
{
    for (int i = 0; name && augmenters[i]; i++)
        if (!strcmp(augmenters[i]->name, name)) return augmenters[i];
    return NULL;
}

/* A test row goes in a free slot after the listed rows when its name is new. */
static int test_row_ok(const char *name, int n, int nfixed)
{
    if (mt_learner(name) || mt_augmenter(name)) return gs_error(GS_EINPUT, "method table: '%s' is already a row", name);
    if (n >= nfixed + MT_TEST_ROWS) return gs_error(GS_EINPUT, "method table: no room for test row '%s'", name);
    return GS_OK;
}

int mt_test_add_learner(const en_learner *L)
{
    int n, rc;
    COUNT(learners, n);
    if ((rc = test_row_ok(L->name, n, NL))) return rc;
    learners[n] = L;
    return GS_OK;
}

int mt_test_add_augmenter(const en_augmenter *A)
{
    int n, rc;
    COUNT(augmenters, n);
    if ((rc = test_row_ok(A->name, n, NA))) return rc;
    augmenters[n] = A;
    return GS_OK;
}

void mt_test_rows_clear(void)
{
    for (int i = NL; i < NL + MT_TEST_ROWS; i++) learners[i] = NULL;
    for (int i = NA; i < NA + MT_TEST_ROWS; i++) augmenters[i] = NULL;
}
