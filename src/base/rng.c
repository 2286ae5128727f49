/* base/rng.c — derived GSL random streams (see gs_rng.h). */
#include "gs_rng.h"
#include "gs_common.h"

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

uint64_t rng_derive(uint64_t seed, rng_purpose purpose, uint64_t index)
{
    uint64_t h = splitmix64(seed);
    h = splitmix64(h ^ (uint64_t)purpose * 0xD6E8FEB86659FD93ULL);
    h = splitmix64(h ^ index * 0xA0761D6478BD642FULL);
    return h;
}

gsl_rng *rng_new(uint64_t seed, rng_purpose purpose, uint64_t index)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r) {
        gs_error(GS_ENOMEM, "random generator: out of memory");
        return NULL;
    }
    uint64_t s = rng_derive(seed, purpose, index);
    /* mt19937 takes an unsigned long seed; 0 maps to the default seed, so avoid it. */
    unsigned long ul = (unsigned long)(s ^ (s >> 32)) & 0xffffffffUL;
    gsl_rng_set(r, ul ? ul : 4357UL);
    return r;
}

uint64_t rng_uniform_index(gsl_rng *r, uint64_t n)
{
    if (n <= 1) return 0;
    if (n <= 0xffffffffULL) return gsl_rng_uniform_int(r, (unsigned long)n);
    /* mt19937 gives 32 bits a draw: two make 64; reject the top partial block so every value in
     * [0, n) is equally likely. */
    uint64_t lim = UINT64_MAX - UINT64_MAX % n;
    for (;;) {
        uint64_t hi = gsl_rng_get(r) & 0xffffffffULL, lo = gsl_rng_get(r) & 0xffffffffULL;
        uint64_t v = hi << 32 | lo;
        if (v < lim) return v % n;
    }
}
