/* learners/anacp_forward.c — AnaCP's forward pass (anacp_int.h), in float: the layers GELU(x Wᵀ),
 * the heads' f(x) = mean_k normalize(GELU(x W_kᵀ) θ_k), and a block of rows through the model to
 * H = GELU(f W_finalᵀ) (the final layer's fit from the replay rows; predictions, with the argmax),
 * split in two parts at a fixed row on two threads of its own (gs_run_pair): every number is
 * computed by the same calls whatever thread runs them. The test and validation rows' head
 * activations come from and go to the learner's cache (anacp_cache) when it has one. The rows
 * are normalized in double, then rounded to float; the products are sgemm.
 */
#include "anacp_int.h"
#include "gs_argmax.h"
#include "gs_common.h"

#include <gsl/gsl_cblas.h>
#include <math.h>
#ifdef __SSE__
#include <xmmintrin.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each row to unit L2 norm (the rows x̂ the maps take; the targets). */
void anacp_fwd_normalize(double *X, long n, long d)
{
    for (long i = 0; i < n; i++) {
        double nr = cblas_dnrm2((int)d, X + (size_t)i * d, 1);
        if (nr > 1e-12) cblas_dscal((int)d, 1.0 / nr, X + (size_t)i * d, 1);
    }
}

/* erf(x) in float without a branch per element (so the GELU loop vectorizes): the rational
 * approximation erf(x) ≈ x P(x²)/Q(x²) on |x| ≤ 4 (Eigen's generic_fast_erf_float, the
 * coefficients of a minimax fit), clamped to [-4, 4] (erf(4) = 1 − 1.5e-8 rounds to 1 in float).
 * Its largest error against erf in double is 4.2e-7 absolute on [-8, 8] (at x ≈ −3.62, about 7
 * float ulps of a value near 1; tests/learners/test_anacp_gelu.c checks ≤ 4.5e-7 on a grid of step 1e-5).
 * glibc's erff (within 1 ulp) is not vectorized and was 7 % of a run. */
static inline float erf_poly(float x)
{
    const float a1 = -1.60960333262415e-02f, a3 = -2.95459980854025e-03f, a5 = -7.34990630326855e-04f,
                a7 = -5.69250639462346e-05f, a9 = -2.10102402082508e-06f, a11 = 2.77068142495902e-08f,
                a13 = -2.72614225801306e-10f;
    const float b0 = -1.42647390514189e-02f, b2 = -7.37332916720468e-03f, b4 = -1.68282697438203e-03f,
                b6 = -2.13374055278905e-04f, b8 = -1.45660718464996e-05f;
    x = x < -4.0f ? -4.0f : x > 4.0f ? 4.0f : x;
    float x2 = x * x;
    float p = a13;
    p = p * x2 + a11; p = p * x2 + a9; p = p * x2 + a7; p = p * x2 + a5; p = p * x2 + a3; p = p * x2 + a1;
    p = p * x;
    float q = b8;
    q = q * x2 + b6; q = q * x2 + b4; q = q * x2 + b2; q = q * x2 + b0;
    return p / q;
}

float anacp_erf(float x) { return erf_poly(x); }

/* Four at a time with SSE (x86-64 has it): the same operations, in the same order, as erf_poly
 * and the scalar loop, so every element is the same whichever path computes it (C11 contracts no
 * a·b + c into an FMA). */
void anacp_gelu(float *v, size_t n)
{
    const float r = (float)M_SQRT1_2;
    size_t i = 0;
#ifdef __SSE__
    const __m128 lo = _mm_set1_ps(-4.0f), hi = _mm_set1_ps(4.0f), half = _mm_set1_ps(0.5f), one = _mm_set1_ps(1.0f);
    static const float A[7] = {-2.72614225801306e-10f, 2.77068142495902e-08f, -2.10102402082508e-06f,
                               -5.69250639462346e-05f, -7.34990630326855e-04f, -2.95459980854025e-03f,
                               -1.60960333262415e-02f};
    static const float B[5] = {-1.45660718464996e-05f, -2.13374055278905e-04f, -1.68282697438203e-03f,
                               -7.37332916720468e-03f, -1.42647390514189e-02f};
    for (; i + 4 <= n; i += 4) {
        __m128 x = _mm_loadu_ps(v + i);
        __m128 t = _mm_min_ps(_mm_max_ps(_mm_mul_ps(x, _mm_set1_ps(r)), lo), hi);
        __m128 t2 = _mm_mul_ps(t, t), p = _mm_set1_ps(A[0]), q = _mm_set1_ps(B[0]);
        for (int k = 1; k < 7; k++) p = _mm_add_ps(_mm_mul_ps(p, t2), _mm_set1_ps(A[k]));
        for (int k = 1; k < 5; k++) q = _mm_add_ps(_mm_mul_ps(q, t2), _mm_set1_ps(B[k]));
        __m128 e = _mm_div_ps(_mm_mul_ps(p, t), q);
        _mm_storeu_ps(v + i, _mm_mul_ps(_mm_mul_ps(half, x), _mm_add_ps(one, e)));
    }
#endif
    for (; i < n; i++) v[i] = 0.5f * v[i] * (1.0f + erf_poly(v[i] * r));
}

void anacp_fwd_layer(const anacp_state *s, const float *W32, const double *X, const float *Xf, long n, float *Out,
                     anacp_fwd_buf *b)
{
    long D = s->D, d = s->d;
    if (n <= 0) return;
    if (X) {
        for (size_t i = 0; i < (size_t)n * (size_t)d; i++) b->xs[i] = (float)X[i];
        Xf = b->xs;
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)D, (int)d, 1.0f, Xf, (int)d, W32, (int)d, 0.0f,
                Out, (int)D);
    anacp_gelu(Out, (size_t)n * (size_t)D);
}

int anacp_fwd_alloc(anacp_fwd_buf *b, const anacp_state *s)
{
    long r = s->C > s->d ? s->C : s->d;
    b->Z = gs_malloc((size_t)ANACP_BLOCK * (size_t)s->D, sizeof(float), "AnaCP heads");
    b->Q = gs_malloc((size_t)ANACP_BLOCK * (size_t)r, sizeof(float), "AnaCP heads");
    b->P = gs_malloc((size_t)ANACP_BLOCK * (size_t)s->d, sizeof(float), "AnaCP heads");
    b->xs = gs_malloc((size_t)ANACP_BLOCK * (size_t)s->d, sizeof(float), "AnaCP layers");
    if (b->Z && b->Q && b->P && b->xs) return GS_OK;
    free(b->Z); free(b->Q); free(b->P); free(b->xs);
    memset(b, 0, sizeof *b);
    return GS_ENOMEM;
}

void anacp_fwd_free(anacp_fwd_buf *b)
{
    free(b->Z); free(b->Q); free(b->P); free(b->xs);
    memset(b, 0, sizeof *b);
}

/* Each float row to unit L2 norm (its norm in double). */
static void normalize_f(float *X, long n, long d)
{
    for (long i = 0; i < n; i++) {
        float *x = X + (size_t)i * d;
        double nr = 0;
        for (long j = 0; j < d; j++) nr += (double)x[j] * x[j];
        nr = sqrt(nr);
        if (nr > 1e-12) for (long j = 0; j < d; j++) x[j] = (float)(x[j] / nr);
    }
}

/* F (n × d, n ≤ ANACP_BLOCK) = f(X) = mean_k normalize(GELU(X W_kᵀ) θ_k) for the model md (X:
 * float rows); Zc[k]: head k's activations of these rows when known (NULL: computed here). */
static void heads_forward(const anacp_state *s, const anacp_model *md, const float *X, long n,
                          const float *const *Zc, anacp_fwd_buf *b, float *F)
{
    long D = s->D, d = s->d;
    memset(F, 0, (size_t)n * (size_t)d * sizeof(float));
    for (int k = 0; k < ANACP_HEADS; k++) {
        const float *Z = Zc && Zc[k] ? Zc[k] : b->Z;
        if (Z == b->Z) anacp_fwd_layer(s, s->Wk32[k], NULL, X, n, b->Z, b);
        long r = md->P[k].rows;
        float *out = md->T.f ? b->Q : b->P;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)r, (int)D, 1.0f, Z, (int)D, md->P[k].f, (int)D,
                    0.0f, out, (int)r);
        if (md->T.f)
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)d, (int)r, 1.0f, b->Q, (int)r, md->T.f,
                        (int)d, 0.0f, b->P, (int)d);
        normalize_f(b->P, n, d);
        cblas_saxpy((int)(n * d), 1.0f / ANACP_HEADS, b->P, 1, F, 1);
    }
}

/* Rows [lo, hi) of a block through the model md on one thread: (predict: normalized into Xn, the
 * cached head activations of [max(have, lo), hi) computed first) f(x) into F, H = GELU(f W_finalᵀ)
 * into H, and (pred) the argmax over the seen classes. A block is split in two such parts at a
 * fixed row, whatever the threads: every row's numbers are those of one thread. */
typedef struct {
    const anacp_state *s;
    const anacp_model *md;
    const double *X;        /* the block's first row (row lo) */
    long lo, hi;
    anacp_cache *c;         /* predict: the cache of these rows (NULL: none), with `have` rows before */
    long have;
    int norm;               /* normalize the rows first (predict) */
    anacp_fwd_buf *b;
    float *Xn, *F, *H;      /* ANACP_BLOCK × d, ANACP_BLOCK × d, the part's rows of H */
    int *pred;              /* NULL: no argmax; else its labels (class_order) of rows lo.. */
    const int *class_order;
    int rc;
    char err[256];
} fwd_part;

static void *fwd_run(void *arg)
{
    fwd_part *j = arg;
    const anacp_state *s = j->s;
    long d = s->d, D = s->D, k = j->hi - j->lo;
    if (k <= 0) return NULL;
    /* the rows in float (normalized in double first when predicting) */
    for (long i = 0; i < k; i++) {
        const double *x = j->X + (size_t)i * d;
        float *o = j->Xn + (size_t)i * d;
        double sc = 1.0;
        if (j->norm) {
            double nr = cblas_dnrm2((int)d, x, 1);
            if (nr > 1e-12) sc = 1.0 / nr;
        }
        for (long c = 0; c < d; c++) o[c] = (float)(x[c] * sc);
    }
    const float *X = j->Xn;
    const float *Zc[ANACP_HEADS] = {NULL};
    if (j->c) {
        long from = j->have > j->lo ? j->have : j->lo;
        for (int h = 0; h < ANACP_HEADS && from < j->hi; h++)
            anacp_fwd_layer(s, s->Wk32[h], NULL, X + (size_t)(from - j->lo) * d, j->hi - from,
                            gm_rowf(&j->c->Z[h], from), j->b);
        for (int h = 0; h < ANACP_HEADS; h++) Zc[h] = gm_rowf(&j->c->Z[h], j->lo);
    }
    heads_forward(s, j->md, X, k, j->c ? Zc : NULL, j->b, j->F);
    anacp_fwd_layer(s, s->Wf32, NULL, j->F, k, j->H, j->b);
    if (!j->pred) return NULL;
    j->rc = am_argmax(NULL, j->H, 0, k, D, NULL, j->md->theta.f, NULL, (int)j->md->theta.rows, k, j->pred); /* one product */
    for (long i = 0; !j->rc && i < k; i++) j->pred[i] = j->class_order[j->pred[i]];
    if (j->rc) snprintf(j->err, sizeof j->err, "%s", gs_last_error());
    return NULL;
}

int anacp_fwd_pair_alloc(anacp_fwd_pair *q, const anacp_state *s)
{
    int rc = anacp_fwd_alloc(&q->b1, s);
    for (int i = 0; i < 2 && !rc; i++) {
        rc = gm_alloc_f(&q->Xn[i], ANACP_BLOCK, s->d, "AnaCP forward pass");
        if (!rc) rc = gm_alloc_f(&q->F[i], ANACP_BLOCK, s->d, "AnaCP forward pass");
    }
    return rc;
}

void anacp_fwd_pair_free(anacp_fwd_pair *q)
{
    anacp_fwd_free(&q->b1);
    for (int i = 0; i < 2; i++) { gm_free(&q->Xn[i]); gm_free(&q->F[i]); }
}

/* Rows [i0, i1) (at most ANACP_BLOCK) in two parts at the middle row, on two threads; H: the
 * block's rows of H (row i0 first), pred: the block's labels or NULL. */
int anacp_fwd_block(const anacp_state *s, const anacp_model *md, const double *X, long i0, long i1, anacp_cache *c,
                    int norm, anacp_fwd_buf *b, anacp_fwd_pair *q, float *H, int *pred, const int *class_order)
{
    long d = s->d, D = s->D, mid = i0 + (i1 - i0 + 1) / 2;
    fwd_part j[2];
    for (int i = 0; i < 2; i++) {
        long lo = i ? mid : i0, hi = i ? i1 : mid;
        j[i] = (fwd_part){s, md, X + (size_t)lo * d, lo, hi, c, c ? c->have : 0, norm, i ? &q->b1 : b, q->Xn[i].f,
                          q->F[i].f, H + (size_t)(lo - i0) * D, pred ? pred + (lo - i0) : NULL, class_order, GS_OK, ""};
    }
    if (i1 > mid) gs_run_pair(fwd_run, &j[0], &j[1]);
    else fwd_run(&j[0]);
    if (c && c->have < i1) c->have = i1;
    for (int i = 0; i < 2; i++)
        if (j[i].rc) return gs_error(j[i].rc, "%s", j[i].err);
    return GS_OK;
}
