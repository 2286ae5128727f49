/* gs_rng.h — derived, independent random streams from one --seed (prefix rng_).
 *
 * Every random choice in gsrscope draws from a GSL generator (mt19937) seeded by
 * rng_derive(seed, purpose, index): splitmix64 over the three values. Purposes are separate so
 * that, for example, changing α_base (which only changes the γ draws) leaves the class order,
 * the head choice, the subsampling, the pairs and the expansion matrix unchanged.
 * Ownership: rng_new returns a gsl_rng the caller frees with gsl_rng_free.
 */
#ifndef GS_RNG_H
#define GS_RNG_H

#include <stdint.h>
#include <gsl/gsl_rng.h>

typedef enum {
    RNG_ORDER = 1,   /* class shuffle */
    RNG_HEAD,        /* head-class choice */
    RNG_SUBSAMPLE,   /* which rows a class keeps (index = class) */
    RNG_EXPAND,      /* expansion matrix R */
    RNG_PAIRS,       /* GSR pair choice (index = class) */
    RNG_GAMMA,       /* GSR γ draws (index = class) */
    RNG_SYNTH,       /* synthetic data generator */
    RNG_GAUSS,       /* Gaussian baselines (index = class) */
    RNG_INTERCLASS,  /* interclass's partners and anchors (index = class); the tests' own draws too */
    RNG_VALSPLIT,    /* which kept rows a class holds out for validation (index = class) */
    RNG_ANACP,       /* AnaCP's layers (index 0 final, k head k) and replay (index 1000 + task) */
    RNG_RFF          /* klda's random Fourier features */
} rng_purpose;

uint64_t rng_derive(uint64_t seed, rng_purpose purpose, uint64_t index);
/* NULL on allocation failure (message set). */
gsl_rng *rng_new(uint64_t seed, rng_purpose purpose, uint64_t index);
/* A uniform integer in [0, n), n >= 1, for any n up to 2^64 - 1: gsl_rng_uniform_int's own draw
 * (the same numbers) while n fits the generator's 32-bit range, else 64 bits from two draws with
 * rejection (GSL's own refuses n above 2^32 - 1 and aborts: a class of 65,537 rows has more pairs). */
uint64_t rng_uniform_index(gsl_rng *r, uint64_t n);

#endif
