/* engine/projection.c — random projection matrices (en_draw_projection in gs_engine.h), apart from
 * prepare.c because GSL's random distributions bring their own CBLAS declarations. */
#include "gs_engine.h"
#include "gs_rng.h"
#include "gs_common.h"

#include <gsl/gsl_randist.h>
#include <math.h>

int en_draw_projection(gm_mat *R, long D, long d, int projection, uint64_t seed)
{
    int rc = gm_alloc(R, D, d, "projection matrix");
    if (rc) return rc;
    gsl_rng *r = rng_new(seed, RNG_EXPAND, 0);
    if (!r) { gm_free(R); return GS_ENOMEM; }
    double a = 1.0 / sqrt((double)d);
    size_t m = (size_t)D * (size_t)d;
    if (projection == OP_PROJ_UNIFORM)
        for (size_t i = 0; i < m; i++) R->v[i] = -a + 2.0 * a * gsl_rng_uniform(r);
    else
        for (size_t i = 0; i < m; i++) R->v[i] = gsl_ran_gaussian_ziggurat(r, 1.0);
    gsl_rng_free(r);
    return GS_OK;
}
