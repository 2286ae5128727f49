/* learners/anacp_forward.c — AnaCP's forward pass (anacp_int.h): the layers GELU(x Wᵀ), the
 * heads' f(x) = mean_k normalize(GELU(x W_kᵀ) θ_k), and a block of rows through the model to
 * H = GELU(f W_finalᵀ) (the final layer's fit from the replay rows; predictions, with the argmax),
 * split in two parts at a fixed row on two threads of its own (gs_run_pair): every number is
 * computed by the same calls whatever thread runs them. The test and validation rows' head
 * activations come from and go to the learner's cache (anacp_cache) when it has one.
 */
#include "anacp_int.h"
#include "gs_argmax.h"
#include "gs_common.h"

#include <gsl/gsl_cblas.h>
#include <math.h>
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

/* Out (n × D, n ≤ ANACP_BLOCK) = GELU(X Wᵀ) for X (n × d): the product in float (W32, fl32(X):
 * sgemm, b's scratch), GELU in double from the float pre-activations. */
void anacp_fwd_layer(const anacp_state *s, const float *W32, const double *X, long n, double *Out, anacp_fwd_buf *b)
{
    long D = s->D, d = s->d;
    if (n <= 0) return;
    for (size_t i = 0; i < (size_t)n * (size_t)d; i++) b->xs[i] = (float)X[i];
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)D, (int)d, 1.0f, b->xs, (int)d, W32, (int)d, 0.0f,
                b->ys, (int)D);
    for (size_t i = 0; i < (size_t)n * (size_t)D; i++) {
        float v = b->ys[i];
        Out[i] = 0.5f * v * (1.0f + erff(v * (float)M_SQRT1_2));
    }
}

int anacp_fwd_alloc(anacp_fwd_buf *b, const anacp_state *s)
{
    long r = s->C > s->d ? s->C : s->d;
    b->Z = gs_malloc((size_t)ANACP_BLOCK * (size_t)s->D, sizeof(double), "AnaCP heads");
    b->Q = gs_malloc((size_t)ANACP_BLOCK * (size_t)r, sizeof(double), "AnaCP heads");
    b->P = gs_malloc((size_t)ANACP_BLOCK * (size_t)s->d, sizeof(double), "AnaCP heads");
    b->xs = gs_malloc((size_t)ANACP_BLOCK * (size_t)s->d, sizeof(float), "AnaCP layers");
    b->ys = gs_malloc((size_t)ANACP_BLOCK * (size_t)s->D, sizeof(float), "AnaCP layers");
    if (b->Z && b->Q && b->P && b->xs && b->ys) return GS_OK;
    free(b->Z); free(b->Q); free(b->P); free(b->xs); free(b->ys);
    memset(b, 0, sizeof *b);
    return GS_ENOMEM;
}

void anacp_fwd_free(anacp_fwd_buf *b)
{
    free(b->Z); free(b->Q); free(b->P); free(b->xs); free(b->ys);
    memset(b, 0, sizeof *b);
}

/* F (n × d, n ≤ ANACP_BLOCK) = f(X) = mean_k normalize(GELU(X W_kᵀ) θ_k) for the model md;
 * Zc[k]: head k's activations of these rows when known (NULL: computed here). */
static void heads_forward(const anacp_state *s, const anacp_model *md, const double *X, long n,
                          const double *const *Zc, anacp_fwd_buf *b, double *F)
{
    long D = s->D, d = s->d;
    memset(F, 0, (size_t)n * (size_t)d * sizeof(double));
    for (int k = 0; k < ANACP_HEADS; k++) {
        const double *Z = Zc && Zc[k] ? Zc[k] : b->Z;
        if (Z == b->Z) anacp_fwd_layer(s, s->Wk32[k], X, n, b->Z, b);
        long r = md->P[k].rows;
        double *out = md->T.v ? b->Q : b->P;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)r, (int)D, 1.0, Z, (int)D, md->P[k].v, (int)D,
                    0.0, out, (int)r);
        if (md->T.v)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)d, (int)r, 1.0, b->Q, (int)r, md->T.v,
                        (int)d, 0.0, b->P, (int)d);
        anacp_fwd_normalize(b->P, n, d);
        cblas_daxpy((int)(n * d), 1.0 / ANACP_HEADS, b->P, 1, F, 1);
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
    double *Xn, *F, *H;     /* ANACP_BLOCK × d, ANACP_BLOCK × d, the part's rows of H */
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
    const double *X = j->X;
    if (j->norm) {
        memcpy(j->Xn, X, (size_t)k * (size_t)d * sizeof(double));
        anacp_fwd_normalize(j->Xn, k, d);
        X = j->Xn;
    }
    const double *Zc[ANACP_HEADS] = {NULL};
    if (j->c) {
        long from = j->have > j->lo ? j->have : j->lo;
        for (int h = 0; h < ANACP_HEADS && from < j->hi; h++)
            anacp_fwd_layer(s, s->Wk32[h], X + (size_t)(from - j->lo) * d, j->hi - from, gm_row(&j->c->Z[h], from),
                            j->b);
        for (int h = 0; h < ANACP_HEADS; h++) Zc[h] = gm_row(&j->c->Z[h], j->lo);
    }
    heads_forward(s, j->md, X, k, j->c ? Zc : NULL, j->b, j->F);
    anacp_fwd_layer(s, s->Wf32, j->F, k, j->H, j->b);
    if (!j->pred) return NULL;
    j->rc = am_argmax(j->H, NULL, 0, k, D, j->md->theta.v, NULL, NULL, (int)j->md->theta.rows, k, j->pred); /* one product */
    for (long i = 0; !j->rc && i < k; i++) j->pred[i] = j->class_order[j->pred[i]];
    if (j->rc) snprintf(j->err, sizeof j->err, "%s", gs_last_error());
    return NULL;
}

int anacp_fwd_pair_alloc(anacp_fwd_pair *q, const anacp_state *s)
{
    int rc = anacp_fwd_alloc(&q->b1, s);
    for (int i = 0; i < 2 && !rc; i++) {
        rc = gm_alloc(&q->Xn[i], ANACP_BLOCK, s->d, "AnaCP forward pass");
        if (!rc) rc = gm_alloc(&q->F[i], ANACP_BLOCK, s->d, "AnaCP forward pass");
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
                    int norm, anacp_fwd_buf *b, anacp_fwd_pair *q, double *H, int *pred, const int *class_order)
{
    long d = s->d, D = s->D, mid = i0 + (i1 - i0 + 1) / 2;
    fwd_part j[2];
    for (int i = 0; i < 2; i++) {
        long lo = i ? mid : i0, hi = i ? i1 : mid;
        j[i] = (fwd_part){s, md, X + (size_t)lo * d, lo, hi, c, c ? c->have : 0, norm, i ? &q->b1 : b, q->Xn[i].v,
                          q->F[i].v, H + (size_t)(lo - i0) * D, pred ? pred + (lo - i0) : NULL, class_order, GS_OK, ""};
    }
    if (i1 > mid) gs_run_pair(fwd_run, &j[0], &j[1]);
    else fwd_run(&j[0]);
    if (c && c->have < i1) c->have = i1;
    for (int i = 0; i < 2; i++)
        if (j[i].rc) return gs_error(j[i].rc, "%s", j[i].err);
    return GS_OK;
}
