/* test_rng.c — base/rng.c: derived streams and rng_uniform_index beyond GSL's 32-bit range. */
#include "gs_rng.h"
#include "gs_methods.h"
#include "support/tap.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>

/* Below 2^32 the draws are gsl_rng_uniform_int's own (so no number of a run moves). */
static void test_same_as_gsl(void)
{
    gsl_rng *a = rng_new(7, RNG_PAIRS, 3), *b = rng_new(7, RNG_PAIRS, 3);
    const uint64_t ns[] = {2, 3, 1000, 65535ULL * 65536ULL, 0xffffffffULL};
    int same = 1;
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 200; i++)
            if (rng_uniform_index(a, ns[k]) != gsl_rng_uniform_int(b, (unsigned long)ns[k])) same = 0;
    CHECK(same, "rng_uniform_index equals gsl_rng_uniform_int for n < 2^32");
    gsl_rng_free(a);
    gsl_rng_free(b);
}

/* Above: in range, both halves of the range reached, roughly uniform (a chi-square on 16 bins). */
static void test_large(void)
{
    gsl_rng *r = rng_new(11, RNG_PAIRS, 0);
    const uint64_t n = 65537ULL * 65536ULL; /* the ordered pairs of a 65,537-row class */
    long bins[16] = {0};
    int in_range = 1;
    const int draws = 160000;
    uint64_t mx = 0;
    for (int i = 0; i < draws; i++) {
        uint64_t v = rng_uniform_index(r, n);
        if (v >= n) in_range = 0;
        if (v > mx) mx = v;
        bins[v / (n / 16 + 1)]++;
    }
    CHECK(in_range, "every draw in [0, n) for n = %llu", (unsigned long long)n);
    CHECK(mx > 0xffffffffULL, "draws reach above 2^32 (largest %llu)", (unsigned long long)mx);
    double chi = 0, e = draws / 16.0;
    for (int b = 0; b < 16; b++) chi += (bins[b] - e) * (bins[b] - e) / e;
    CHECK(chi < 40.0, "16 bins roughly uniform: chi-square %.1f (15 df; 40 is p < 0.001)", chi);
    gsl_rng_free(r);
}

/* GSR's pair choice over a class of N rows: N(N-1) > 2^32 pairs (65,537 rows is the first such
 * class), K distinct and sorted. */
static void test_choose_sorted_large(long N)
{
    gsl_rng *r = rng_new(3, RNG_PAIRS, 0);
    const long n = N * (N - 1), K = 5000;
    long *out = malloc((size_t)K * sizeof *out);
    int rc = en_choose_sorted(r, n, K, out);
    int ok = rc == 0;
    for (long k = 0; ok && k < K; k++) ok = out[k] >= 0 && out[k] < n && (k == 0 || out[k] > out[k - 1]);
    CHECK(ok, "en_choose_sorted: %ld distinct sorted pairs of %ld (rc %d)", K, n, rc);
    if (N > 70000) CHECK(out[K - 1] > 0xffffffffL, "pairs beyond index 2^32 are chosen (largest %ld)", out[K - 1]);
    free(out);
    gsl_rng_free(r);
}

int main(void)
{
    test_same_as_gsl();
    test_large();
    test_choose_sorted_large(65537);
    test_choose_sorted_large(200000);
    return tap_done();
}
