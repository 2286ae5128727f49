/* synth.c — deterministic synthetic features with the geometry of pre-trained embeddings
 * (see gs_synth.h).
 *
 * Model, for class c and row i:
 *   x = a·m0 + b·u_c + B_c diag(s) g + σ n,   then x / ‖x‖
 * m0 is a shared mean direction, u_c a class direction, B_c (d×rank, orthonormal-ish columns) a
 * class-specific low-rank subspace with decaying scales s_k (anisotropic within-class spread),
 * n isotropic noise. Tail classes therefore occupy directions that only their few rows excite:
 * exactly the spectral collapse GSR targets.
 * Determinism: class parameters from RNG_SYNTH index c; row i of class c from its own stream, so
 * any subset of rows can be produced on demand (training and test rows are lazy,
 * ds_data.lazy_rows: nothing is stored but the model).
 * Row layout: training row k belongs to class k / n_train (classes in blocks); test likewise.
 */
#include "gs_synth.h"
#include "gs_common.h"
#include "gs_rng.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYN_A 0.62      /* weight of the shared mean direction */
#define SYN_B 0.36      /* weight of the class direction */
#define SYN_SPREAD 0.45 /* overall within-class spread */
#define SYN_NOISE 0.015 /* per-dimension isotropic noise */

typedef struct {
    int C, rank;
    long d, n_train, n_test;
    uint64_t seed;
    double *m0;     /* d */
    double *mu;     /* C × d: a·m0 + b·u_c */
    double *basis;  /* C × rank × d (row k of class c is basis vector k) */
    double *scale;  /* rank */
} syn_model;

void syn_defaults(syn_config *c)
{
    c->C = 100;
    c->d = 768;
    c->n_train = 500;
    c->n_test = 100;
    c->rank = 16;
}

static void syn_model_free(void *p)
{
    syn_model *m = p;
    if (!m) return;
    free(m->m0); free(m->mu); free(m->basis); free(m->scale);
    free(m);
}

static void unit_gaussian(gsl_rng *r, double *v, long d)
{
    double s = 0;
    for (long j = 0; j < d; j++) { v[j] = gsl_ran_gaussian_ziggurat(r, 1.0); s += v[j] * v[j]; }
    s = 1.0 / sqrt(s);
    for (long j = 0; j < d; j++) v[j] *= s;
}

/* Class parameters: class c from its own stream (RNG_SYNTH index c + 1), so classes can be drawn
 * on two threads with the same values. */
typedef struct {
    syn_model *m;
    int lo, hi, rc;
} syn_cjob;

static void *syn_classes(void *arg)
{
    syn_cjob *j = arg;
    syn_model *m = j->m;
    long d = m->d;
    double *u = malloc((size_t)d * sizeof(double));
    if (!u) { j->rc = GS_ENOMEM; return NULL; }
    for (int c = j->lo; c < j->hi; c++) {
        gsl_rng *rc = rng_new(m->seed, RNG_SYNTH, (uint64_t)c + 1);
        if (!rc) { j->rc = GS_ENOMEM; break; }
        unit_gaussian(rc, u, d);
        double *mu = m->mu + (size_t)c * d;
        for (long k = 0; k < d; k++) mu[k] = SYN_A * m->m0[k] + SYN_B * u[k];
        for (int k = 0; k < m->rank; k++) unit_gaussian(rc, m->basis + ((size_t)c * m->rank + k) * d, d);
        gsl_rng_free(rc);
    }
    free(u);
    return NULL;
}

static int syn_all_classes(syn_model *m)
{
    syn_cjob job[2] = {{m, 0, m->C, 0}, {m, m->C, m->C, 0}};
    if (m->C >= 8) {
        job[0].hi = job[1].lo = m->C / 2;
        gs_run_pair(syn_classes, &job[0], &job[1]);
    } else {
        syn_classes(&job[0]);
    }
    if (job[0].rc || job[1].rc) return gs_error(GS_ENOMEM, "synthetic model: out of memory");
    return GS_OK;
}

/* Row `i` (0-based within the class) of class c, split "train" (0) or "test" (1), before the
 * low-rank part: out = μ_c + σ n, and the rank coefficients s_k g_k into coef[rank]. Every row
 * has its own generator (any subset of rows comes out the same, on any thread). */
static int syn_row_start(const syn_model *m, int c, long i, int split, double *out, double *coef)
{
    uint64_t idx = ((uint64_t)c << 32) ^ ((uint64_t)split << 31) ^ (uint64_t)i;
    /* taus2: a small state seeds in a few operations (mt19937 initializes and twists 624 words
     * per row) */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
    if (!r) return gs_error(GS_ENOMEM, "synthetic rows: out of memory");
    uint64_t sd = rng_derive(m->seed, RNG_SYNTH, idx + 1000003ULL);
    gsl_rng_set(r, (unsigned long)((sd ^ (sd >> 32)) & 0xffffffffUL));
    long d = m->d;
    const double *mu = m->mu + (size_t)c * d;
    for (long j = 0; j < d; j++) out[j] = mu[j] + SYN_NOISE * gsl_ran_gaussian_ziggurat(r, 1.0);
    for (int k = 0; k < m->rank; k++) coef[k] = m->scale[k] * gsl_ran_gaussian_ziggurat(r, 1.0);
    gsl_rng_free(r);
    return GS_OK;
}

#define SYN_RUN 64 /* rows of one class per low-rank product */

/* ds_data.lazy_rows: rows idx[] of a split; row k of a split is row k % n of class k / n
 * (classes in blocks). Consecutive rows of one class share one product with the class basis
 * (coefficients × B_c, a dgemm instead of rank axpys per row); then each row is normalized. */
static int syn_lazy_rows(void *ctx, int split, const long *idx, long n, double *out)
{
    const syn_model *m = ctx;
    long d = m->d, per = split == DS_TEST ? m->n_test : m->n_train;
    double *coef = malloc((size_t)SYN_RUN * (size_t)m->rank * sizeof(double));
    if (!coef) return gs_error(GS_ENOMEM, "synthetic rows: out of memory");
    int rc = GS_OK;
    for (long k0 = 0; k0 < n && !rc;) {
        int c = (int)(idx[k0] / per);
        long k1 = k0;
        for (; k1 < n && k1 - k0 < SYN_RUN && idx[k1] / per == c && !rc; k1++)
            rc = syn_row_start(m, c, idx[k1] % per, split, out + (size_t)k1 * d, coef + (size_t)(k1 - k0) * m->rank);
        if (rc) break;
        double *o = out + (size_t)k0 * d;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)(k1 - k0), (int)d, m->rank, 1.0, coef,
                    m->rank, m->basis + (size_t)c * m->rank * d, (int)d, 1.0, o, (int)d);
        for (long k = k0; k < k1; k++) {
            double *x = out + (size_t)k * d;
            cblas_dscal((int)d, 1.0 / sqrt(cblas_ddot((int)d, x, 1, x, 1)), x, 1);
        }
        k0 = k1;
    }
    free(coef);
    return rc;
}

int syn_generate(const syn_config *cfg, uint64_t seed, ds_data *out)
{
    memset(out, 0, sizeof *out);
    if (cfg->C < 2 || cfg->d < 2 || cfg->n_train < 1 || cfg->n_test < 0 || cfg->rank < 1)
        return gs_error(GS_EINPUT, "synthetic: bad configuration");
    syn_model *m = gs_calloc(1, sizeof *m, "synthetic model");
    if (!m) return GS_ENOMEM;
    m->C = cfg->C; m->d = cfg->d; m->rank = cfg->rank; m->n_train = cfg->n_train;
    m->n_test = cfg->n_test; m->seed = seed;
    long d = m->d;
    m->m0 = gs_malloc((size_t)d, sizeof(double), "synthetic model");
    m->mu = gs_malloc((size_t)m->C * d, sizeof(double), "synthetic model");
    m->basis = gs_malloc((size_t)m->C * m->rank * d, sizeof(double), "synthetic model");
    m->scale = gs_malloc((size_t)m->rank, sizeof(double), "synthetic model");
    double *u = gs_malloc((size_t)d, sizeof(double), "synthetic model");
    if (!m->m0 || !m->mu || !m->basis || !m->scale || !u) { free(u); syn_model_free(m); return GS_ENOMEM; }
    gs_advise_huge(m->basis, (size_t)m->C * m->rank * d * sizeof(double));

    gsl_rng *r = rng_new(seed, RNG_SYNTH, 0);
    if (!r) { free(u); syn_model_free(m); return GS_ENOMEM; }
    unit_gaussian(r, m->m0, d);
    gsl_rng_free(r);
    /* Decaying scales: s_k ∝ (k+1)^-0.8, normalized so Σ s_k² = SPREAD². */
    double ss = 0;
    for (int k = 0; k < m->rank; k++) { m->scale[k] = pow(k + 1.0, -0.8); ss += m->scale[k] * m->scale[k]; }
    for (int k = 0; k < m->rank; k++) m->scale[k] *= SYN_SPREAD / sqrt(ss);
    free(u);
    if (syn_all_classes(m)) { syn_model_free(m); return GS_ENOMEM; }

    int st = GS_OK;
    long nt = (long)m->C * m->n_test;
    out->train_x.rows = (long)m->C * m->n_train;
    out->train_x.cols = d;
    out->train_y = gs_malloc((size_t)out->train_x.rows, sizeof(int), "synthetic labels");
    out->test_y = gs_malloc((size_t)(nt ? nt : 1), sizeof(int), "synthetic labels");
    if (!out->train_y || !out->test_y) { st = GS_ENOMEM; goto fail; }
    for (long i = 0; i < out->train_x.rows; i++) out->train_y[i] = (int)(i / m->n_train);
    out->test_x.rows = nt; /* lazy too: prepare generates them in task order */
    out->test_x.cols = d;
    for (long i = 0; i < nt; i++) out->test_y[i] = (int)(i / m->n_test);
    out->n_classes = m->C;
    out->lazy_rows = syn_lazy_rows;
    out->lazy_ctx = m;
    out->lazy_free = syn_model_free;
    snprintf(out->name, sizeof out->name, "synthetic");
    snprintf(out->source, sizeof out->source,
             "synthetic C=%d d=%ld train=%ld/class test=%ld/class rank=%d seed=%llu", m->C, d,
             m->n_train, m->n_test, m->rank, (unsigned long long)seed);
    uint64_t h = GS_FNV_INIT;
    h = gs_fnv1a(h, out->source, strlen(out->source));
    out->checksum = h;
    return GS_OK;
fail:
    out->lazy_free = NULL;
    ds_free(out);
    syn_model_free(m);
    return st;
}
