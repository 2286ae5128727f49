/* learners/slda.c — streaming LDA, the learner `slda`, as the reference code (SalehMomeni/AnaCP
 * models/slda.py) does it.
 *
 * State after task t: per class the weighted sum and weight, and the pooled within-class scatter
 * S = Σ_c Σ_{i∈c} ω_i (h_i − μ_c)(h_i − μ_c)ᵀ (gs_lda.h: exact whatever the order of the rows;
 * ω = 1 for real rows, the augmenter's weight for synthetic ones). The shared covariance is
 * Σ = S / (N − C_seen) + ε I (N = Σ ω, C_seen the classes seen, ε = --slda-eps, default 1e-4 as
 * the reference's scripts); scores s_c(x) = xᵀΣ⁻¹μ_c − ½ μ_cᵀΣ⁻¹μ_c, argmax over seen classes.
 * Σ is applied by Cholesky, never inverted. The model of every task (V = Σ⁻¹M, biases) is kept,
 * so predicting for an earlier task needs no refit (memory: Σ_t D·C_seen(t) doubles).
 * Spectrum: eigenvalues of Σ at the last fitted task (computed on request).
 * Ownership: slda_state in en_mctx.priv, freed by slda_destroy.
 */
#include "gs_common.h"
#include "gs_lda.h"
#include "gs_learner.h"
#include "gs_learner.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int T, last;
    da_stats st;
    double *A;            /* D × D work */
    da_models mod;        /* per task: V = Σ⁻¹M, biases */
    double *eig;          /* eigenvalues of Σ at task `last`, or NULL */
} slda_state;

static void drop_models(slda_state *s)
{
    da_models_clear(&s->mod);
    free(s->eig);
    s->eig = NULL;
}

static void slda_destroy(en_mctx *m)
{
    slda_state *s = m->priv;
    if (!s) return;
    free(s->eig);
    da_models_free(&s->mod);
    free(s->A);
    da_stats_free(&s->st);
    free(s);
    m->priv = NULL;
}

static int slda_reset(en_mctx *m)
{
    const en_problem *p = m->p;
    slda_state *s = m->priv;
    if (!s) {
        s = gs_calloc(1, sizeof *s, "slda");
        if (!s) return GS_ENOMEM;
        m->priv = s;
        s->T = p->T;
        s->A = gs_malloc((size_t)p->D * (size_t)p->D, sizeof(double), "slda covariance");
        if (!s->A || da_models_init(&s->mod, p->T, p->D) || da_stats_init(&s->st, p->C, p->D, 1)) {
            slda_destroy(m);
            return GS_ENOMEM;
        }
    }
    drop_models(s);
    da_stats_zero(&s->st);
    s->last = -1;
    return GS_OK;
}

/* Σ = a·S + ε I with a = 1/(N − C_seen). */
static int slda_scale(const slda_state *s, int Cs, double *a)
{
    double dof = s->st.wtot - (double)Cs;
    if (!(dof > 0))
        return gs_error(GS_ERUN, "slda: the rows seen (weight %g) do not exceed the classes seen (%d): no covariance",
                        s->st.wtot, Cs);
    *a = 1.0 / dof;
    return GS_OK;
}

static int slda_fit(en_mctx *m, int t, const en_rowset *real, const en_rowset *aug)
{
    const st_stream *st = m->p->st;
    int rc;
    if (!m->priv && (rc = slda_reset(m))) return rc;
    slda_state *s = m->priv;
    if ((rc = da_add_rows(&s->st, real->H, real->y, real->w, real->n)) ||
        (aug && (rc = da_add_rows(&s->st, aug->H, aug->y, aug->w, aug->n))))
        return rc;
    s->last = t;
    free(s->eig);
    s->eig = NULL;
    int Cs = st->task_class_start[t + 1];
    double a = 0;
    if ((rc = slda_scale(s, Cs, &a))) return rc;
    rc = da_models_solve(&s->mod, t, &s->st, st->class_order, Cs, a, m->params->slda_eps, s->A);
    return rc ? gs_error(rc, "slda: %s (--slda-eps)", gs_last_error()) : GS_OK;
}

static int slda_predict(en_mctx *m, int t, const double *X, long n, int *pred)
{
    const st_stream *st = m->p->st;
    slda_state *s = m->priv;
    if (!s || t > s->last) return gs_error(GS_ERUN, "slda: task %d not fitted", t + 1);
    int rc = da_models_predict(&s->mod, t, X, n, st->class_order, st->task_class_start[t + 1], pred);
    return rc ? gs_error(rc, "slda: %s", gs_last_error()) : GS_OK;
}

static int slda_spectrum(en_mctx *m, int t, double *eig, long *n)
{
    slda_state *s = m->priv;
    long D = m->p->D;
    *n = 0;
    if (!s || t != s->last) return GS_OK; /* only the current covariance is kept */
    if (!s->eig) {
        double a = 0;
        int rc = slda_scale(s, m->p->st->task_class_start[t + 1], &a);
        if (rc) return rc;
        if (!(s->eig = gs_malloc((size_t)D, sizeof(double), "slda spectrum"))) return GS_ENOMEM;
        if ((rc = da_sym_eigvals(s->st.S, D, a, m->params->slda_eps, s->A, s->eig))) { free(s->eig); s->eig = NULL; return rc; }
    }
    memcpy(eig, s->eig, (size_t)D * sizeof(double));
    *n = D;
    return GS_OK;
}

/* the scatter and its work matrix, the class sums and every task's model, and the centred rows
 * of the largest task stacked for one rank-k update (src/linalg/lda.c) */
static double slda_bytes(const en_size *z, long D)
{
    double rows = (double)z->largest_task + z->C;
    return 8.0 * (2.0 * (double)D * D + (double)z->C * D * (z->T + 2) + (double)D + rows * D);
}

const en_learner en_learner_slda = {
    .name = "slda", .display = "SLDA", .letter = 'L',
    .summary = "streaming LDA: shared covariance S/(N − C) + εI, ε = --slda-eps",
    .family = EN_STATS,
    .map = EN_MAP_IDENTITY, /* the backbone's features, as the reference (not --expand's map) */
    .deps = EN_DEP_SLDA,
    .reset = slda_reset,
    .fit = slda_fit,
    .predict = slda_predict,
    .spectrum = slda_spectrum,
    .spectrum_of = "shared covariance + εI",
    .destroy = slda_destroy,
    .bytes = slda_bytes,
};
