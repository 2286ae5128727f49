/* learners/fecam.c — FeCAM (Goswami et al., NeurIPS 2023), the learner `fecam`: one covariance per
 * class, shrunk and normalized, and the Mahalanobis distance to each class mean, as FeCAM's code
 * for frozen pretrained features does it (gs_lda.h gives the exact definition): rows go through
 * Tukey's power transform (β = --fecam-tukey, default 0.5), each class gets its mean and its
 * covariance (np.cov), shrunk by α₁·mean variance (α₁ = --fecam-alpha, default 1) and turned
 * into a correlation matrix; a test row gets the class at the smallest distance. Synthetic rows
 * enter the class's mean and covariance with their weight.
 *
 * Memory. Kept naively, C covariances of D × D are 470 MB at D = 768, C = 100 (3.7 GB with a
 * 2000-wide expansion). They are not kept: in class-incremental learning a class's rows all
 * arrive in its task and its covariance never changes afterwards, so when a class is learned its
 * distance to every test and validation row of the problem is computed at once (the class model
 * is then freed) and kept in an n × C table; predicting at any task is an argmin over the seen
 * classes' columns. The model of one class needs min(n_c, D)·D doubles while it is built (gs_lda.h's
 * Woodbury form for classes with fewer rows than dimensions). Predictions are therefore made for
 * the problem's test and validation rows only (the rows the engine evaluates); others are refused.
 * Spectrum: eigenvalues of the pooled within-class covariance S/(N − C_seen) of the transformed
 * rows (no shrinkage), at the last fitted task.
 * Single precision (gs_lda.h): a class is fitted in double, its distances to the rows (the
 * products with every test row, the time of this learner) are computed in float from float copies
 * of the transformed rows and of the model, sums of squares in double. Same predictions as double
 * to ≥ 99.9 % (tests/t_lda_numpy.sh).
 * Ownership: fecam_state in en_mctx.priv, freed by fecam_destroy.
 */
#include "gs_common.h"
#include "gs_lda.h"
#include "gs_learner.h"
#include "gs_learner.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A set of rows the engine evaluates (test rows, validation rows): its transformed copy and its
 * distance to every learned class. */
typedef struct {
    const double *X;  /* the engine's rows (identity decides which set a prediction is for) */
    long n;
    float *tk;        /* n × D transformed rows, in float */
    double *dist;     /* n × C distances (NaN for classes not learned) */
} fecam_set;

typedef struct {
    int last;
    fecam_set set[2]; /* test rows, validation rows */
    da_stats pool;    /* pooled scatter of the transformed rows, for the spectrum */
    double *work;     /* D × D for the spectrum, allocated on request */
    double *eig;
    double *row;      /* D: one row being transformed */
} fecam_state;

static void fecam_destroy(en_mctx *m)
{
    fecam_state *s = m->priv;
    if (!s) return;
    for (int k = 0; k < 2; k++) { free(s->set[k].tk); free(s->set[k].dist); }
    free(s->work); free(s->eig); free(s->row);
    da_stats_free(&s->pool);
    free(s);
    m->priv = NULL;
}

static int fecam_reset(en_mctx *m)
{
    const en_problem *p = m->p;
    fecam_state *s = m->priv;
    long D = p->D;
    if (!s) {
        if (!(s = gs_calloc(1, sizeof *s, "fecam"))) return GS_ENOMEM;
        m->priv = s;
        const gm_mat *rows[2] = {&p->test_h, &p->val_h};
        for (int k = 0; k < 2; k++) {
            fecam_set *q = &s->set[k];
            q->X = rows[k]->v;
            q->n = rows[k]->v ? rows[k]->rows : 0;
            q->tk = gs_malloc((size_t)(q->n ? q->n : 1) * (size_t)D, sizeof(float), "fecam rows");
            q->dist = gs_malloc((size_t)(q->n ? q->n : 1) * (size_t)p->C, sizeof(double), "fecam distances");
            if (!q->tk || !q->dist) { fecam_destroy(m); return GS_ENOMEM; }
        }
        if (da_stats_init(&s->pool, p->C, D, 1) || !(s->row = gs_malloc((size_t)(D ? D : 1), sizeof(double), "fecam rows"))) {
            fecam_destroy(m);
            return GS_ENOMEM;
        }
    }
    /* the transform depends on β, which may have changed since the last reset */
    for (int k = 0; k < 2; k++) {
        fecam_set *q = &s->set[k];
        for (long i = 0; i < q->n; i++) { /* a row at a time through a double buffer */
            double *r = s->row;
            memcpy(r, q->X + (size_t)i * D, (size_t)D * sizeof(double));
            da_tukey(r, (size_t)D, m->params->fecam_tukey);
            for (long j = 0; j < D; j++) q->tk[(size_t)i * D + j] = (float)r[j];
        }
        for (size_t i = 0; i < (size_t)q->n * (size_t)p->C; i++) q->dist[i] = NAN;
    }
    da_stats_zero(&s->pool);
    free(s->eig);
    s->eig = NULL;
    s->last = -1;
    return GS_OK;
}

/* Copy the rows of class c from a rowset into R (transformed) and their weights into w. */
static long gather(const en_rowset *rs, int c, long D, double *R, double *w)
{
    long k = 0;
    for (long i = 0; rs && i < rs->n; i++) {
        if (rs->y[i] != c) continue;
        memcpy(R + (size_t)k * D, rs->H + (size_t)i * D, (size_t)D * sizeof(double));
        w[k++] = rs->w ? rs->w[i] : 1.0;
    }
    return k;
}

static long count(const en_rowset *rs, int c)
{
    long k = 0;
    for (long i = 0; rs && i < rs->n; i++) k += rs->y[i] == c;
    return k;
}

static int fit_class(en_mctx *m, int c, const en_rowset *real, const en_rowset *aug)
{
    fecam_state *s = m->priv;
    long D = m->p->D, n = count(real, c) + count(aug, c);
    if (n == 0) return GS_OK;
    double *R = gs_malloc((size_t)n * (size_t)D, sizeof(double), "fecam class rows");
    double *w = gs_malloc((size_t)n, sizeof(double), "fecam class rows");
    if (!R || !w) { free(R); free(w); return GS_ENOMEM; }
    long k = gather(real, c, D, R, w);
    gather(aug, c, D, R + (size_t)k * D, w + k);
    da_tukey(R, (size_t)n * (size_t)D, m->params->fecam_tukey);
    da_fecam_class model;
    int rc = GS_OK;
    for (long i = 0, j; i < n && !rc; i = j) { /* runs of equal weight: real rows, then synthetic */
        j = i + 1;
        while (j < n && w[j] == w[i]) j++;
        rc = da_stats_add(&s->pool, c, R + (size_t)i * D, j - i, w[i]);
    }
    if (!rc) rc = da_fecam_fit(&model, R, w, n, D, m->params->fecam_alpha);
    free(R);
    free(w);
    if (rc) return gs_error(rc, "fecam: class %d: %s", c, gs_last_error());
    da_fecam_f mf;
    rc = da_fecam_to_f(&model, &mf);
    for (int k = 0; k < 2 && !rc; k++)
        rc = da_fecam_dist_f(&mf, s->set[k].tk, s->set[k].n, s->set[k].dist + c, m->p->C);
    if (mf.m) da_fecam_dist_free_f(&mf);
    da_fecam_free(&model);
    return rc;
}

static int fecam_fit(en_mctx *m, int t, const en_rowset *real, const en_rowset *aug)
{
    const st_stream *st = m->p->st;
    int rc;
    if (!m->priv && (rc = fecam_reset(m))) return rc;
    fecam_state *s = m->priv;
    for (int k = st->task_class_start[t]; k < st->task_class_start[t + 1]; k++)
        if ((rc = fit_class(m, st->class_order[k], real, aug))) return rc;
    s->last = t;
    free(s->eig);
    s->eig = NULL;
    return GS_OK;
}

static int fecam_predict(en_mctx *m, int t, const double *X, long n, int *pred)
{
    const en_problem *p = m->p;
    const st_stream *st = p->st;
    fecam_state *s = m->priv;
    if (!s || t < 0 || t > s->last) return gs_error(GS_ERUN, "fecam: task %d not fitted", t + 1);
    const fecam_set *q = X == s->set[0].X ? &s->set[0] : X == s->set[1].X ? &s->set[1] : NULL;
    if (!q || n > q->n) return gs_error(GS_ERUN, "fecam: predictions are made for the prepared test and validation rows only");
    int Cs = st->task_class_start[t + 1];
    for (long i = 0; i < n; i++) {
        const double *d = q->dist + (size_t)i * p->C;
        int best = -1;
        for (int k = 0; k < Cs; k++) {
            int c = st->class_order[k];
            if (!isnan(d[c]) && (best < 0 || d[c] < d[best])) best = c;
        }
        pred[i] = best < 0 ? st->class_order[0] : best;
    }
    return GS_OK;
}

static int fecam_spectrum(en_mctx *m, int t, double *eig, long *n)
{
    fecam_state *s = m->priv;
    long D = m->p->D;
    *n = 0;
    int Cs = m->p->st->task_class_start[t + 1];
    if (!s || t != s->last || !(s->pool.wtot > Cs)) return GS_OK;
    if (!s->eig) {
        if (!s->work) s->work = gs_malloc((size_t)D * (size_t)D, sizeof(double), "fecam spectrum");
        if (!s->work || !(s->eig = gs_malloc((size_t)D, sizeof(double), "fecam spectrum"))) return GS_ENOMEM;
        int rc = da_sym_eigvals(s->pool.S, D, 1.0 / (s->pool.wtot - Cs), 0.0, s->work, s->eig);
        if (rc) { free(s->eig); s->eig = NULL; return rc; }
    }
    memcpy(eig, s->eig, (size_t)D * sizeof(double));
    *n = D;
    return GS_OK;
}

static double fecam_bytes(const en_size *z, long D)
{
    /* the pooled scatter and the spectrum work, one class model being built (at most D × D plus
     * its rows) and its float copy; the transformed test and validation rows (float) and their
     * distance tables ((n_test + n_val) × (D/2 + C) doubles) */
    double nt = (double)(z->n_test + z->n_val), C = z->C;
    return 8.0 * (nt * D / 2.0 + nt * C + 4.5 * (double)D * D + C * D);
}

const en_learner en_learner_fecam = {
    .name = "fecam", .display = "FeCAM", .letter = 'E',
    .summary = "FeCAM: per-class covariance, shrunk and normalized (--fecam-alpha), Tukey (--fecam-tukey), Mahalanobis",
    .family = EN_STATS,
    .map = EN_MAP_IDENTITY, /* the backbone's features, as the reference (not --expand's map) */
    .deps = EN_DEP_FECAM,
    .reset = fecam_reset,
    .fit = fecam_fit,
    .predict = fecam_predict,
    .spectrum = fecam_spectrum,
    .spectrum_of = "pooled covariance",
    .destroy = fecam_destroy,
    .bytes = fecam_bytes,
};
