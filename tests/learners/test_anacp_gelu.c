/* test_anacp_gelu.c — AnaCP's float arithmetic against double (src/learners/anacp_int.h): the GELU's erf
 * approximation against erf in double over the range the layers use, its SSE and scalar paths
 * element for element. Its ridge solves with their fallback to double are linalg's spd_solve:
 * tests/linalg/test_spd.c.
 */
#include "learners/anacp_int.h"
#include "gs_common.h"
#include "tap.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* erf over [-8, 8] (pre-activations are N(0, 1) scaled by 1/√2: |x| > 8 is beyond any draw) */
static void test_erf(void)
{
    double worst = 0, at = 0;
    for (long i = -800000; i <= 800000; i++) {
        float x = (float)(i * 1e-5);
        double e = fabs((double)anacp_erf(x) - erf((double)x));
        if (e > worst) { worst = e; at = x; }
    }
    CHECK(worst <= 4.5e-7, "anacp_erf: largest error against erf in double on [-8, 8] (step 1e-5) is %.3g at %g (≤ 4.5e-7)",
          worst, at);
    CHECK(anacp_erf(0.0f) == 0.0f && anacp_erf(50.0f) == 1.0f && anacp_erf(-50.0f) == -1.0f,
          "anacp_erf: 0 at 0, ±1 far out (%.9g, %.9g)", anacp_erf(50.0f), anacp_erf(-50.0f));
    /* the vector path and the scalar one give the same floats (1003: a remainder after blocks of 4) */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    float v[1003], w[1003];
    for (int i = 0; i < 1003; i++) v[i] = w[i] = (float)gsl_ran_gaussian(r, 3.0);
    anacp_gelu(v, 1003);
    int same = 1;
    double gw = 0;
    for (int i = 0; i < 1003; i++) {
        float x = w[i], g = 0.5f * x * (1.0f + anacp_erf(x * (float)M_SQRT1_2));
        same &= memcmp(&g, &v[i], sizeof g) == 0;
        double ref = 0.5 * x * (1.0 + erf(x / sqrt(2.0))), e = fabs(v[i] - ref) / (1.0 + fabs(ref));
        if (e > gw) gw = e;
    }
    CHECK(same, "anacp_gelu: every element as the scalar formula computes it");
    CHECK(gw <= 2e-6, "anacp_gelu: within %.3g of GELU in double (|error| / (1 + |GELU|) ≤ 2e-6)", gw);
    gsl_rng_free(r);
}

int main(void)
{
    test_erf();
    return tap_done();
}
