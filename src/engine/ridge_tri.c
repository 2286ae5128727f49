/* engine/ridge_tri.c — one task's G_t reduced to tridiagonal form, G_t = Q T Qᵀ (Householder, LAPACK's
 * xsytrd in panels), so that a τ change of that task solves (G_t + τI) W = Q_t with two
 * products with Q and an O(D) tridiagonal solve per column instead of a D³/3 Cholesky, and
 * gives G_t's exact spectrum (xsterf on T) on the way. Interactive engines only (keep_task_grams),
 * from D = EN_TAU_FACTOR_MIN_D on, for the task the user looks at (en_prepare_tau in engine.c,
 * which fills the G_t that en_tri_begin hands it), one task per method at a time: a D×D matrix
 * in the method's precision. The reduction stops between panels
 * when asked and resumes where it stopped while G_t is unchanged (a τ change does not change it).
 * The orthogonal Q is then formed explicitly (xormtr on the identity, GR_TRI_QCOLS columns at a time:
 * stoppable too), so a τ change costs two matrix products of D×D by D×C.
 * State: engine_int.h (ms->tri); the kernels: gram.c. */
#include "engine_int.h"
#include "gs_common.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct en_tri {
    int task;       /* 0-based task whose G_t this is, -1: none */
    long next;      /* columns reduced so far (D + 1 when complete) */
    long qnext;     /* columns of Q formed so far (D + 1 when complete) */
    gm_mat A;       /* G_t, then its reflectors (float in single precision); freed once Q is formed */
    gm_mat Q;       /* the orthogonal factor, column-major (A's precision) */
    void *d, *e, *tau, *w; /* D, D, D elements (one block) and D × GR_TRI_NB work, A's precision */
    void *qtb;      /* Qᵀ Q_t (D × seen classes; τ-independent), once a τ has been solved */
    int have_qtb;
};

int en_tau_factor_wanted(const en_engine *e)
{
    long min_d = EN_TAU_FACTOR_MIN_D;
    const char *v = getenv("GS_TAU_FACTOR_MIN_D");
    if (v && *v) min_d = atol(v);
    return e->keep && e->p->D >= min_d;
}

void en_tri_free(mstate *ms)
{
    en_tri *r = ms->tri;
    if (!r) return;
    gm_free(&r->A);
    gm_free(&r->Q);
    free(r->d); /* e and tau live in the same block */
    free(r->qtb);
    free(r->w);
    free(r);
    ms->tri = NULL;
}

void en_tri_forget(mstate *ms, int t)
{
    if (ms->tri && ms->tri->task == t) ms->tri->task = -1;
}

int en_tri_usable(const en_engine *e, const mstate *ms, int t)
{
    const en_tri *r = ms->tri;
    return e->keep && r && r->task == t && r->qnext > ms->p->D && ms->stats_valid[t] && ms->eigG[t] &&
           !en_dual_mode(e, ms, t);
}

int en_tri_begin(mstate *ms, int t, gm_mat **G)
{
    long D = ms->p->D;
    int rc;
    *G = NULL;
    if (!ms->tri) {
        if (!(ms->tri = gs_calloc(1, sizeof *ms->tri, "τ factor"))) return GS_ENOMEM;
        ms->tri->task = -1;
    }
    en_tri *r = ms->tri;
    if (r->task == t) return GS_OK; /* a stopped reduction of the same G_t resumes */
    gm_free(&r->Q); /* another task: its factor goes */
    free(r->qtb);
    r->qtb = NULL;
    r->have_qtb = 0;
    if (!r->A.rows && (rc = gr_alloc(&r->A, D, ms->p->single, "τ factor"))) return rc;
    r->task = t;
    r->next = r->qnext = 0;
    *G = &r->A;
    return GS_OK;
}

int en_tri_factor(mstate *ms, const volatile int *cancel, int *spectrum)
{
    long D = ms->p->D;
    int single = ms->p->single, rc;
    size_t el = single ? sizeof(float) : sizeof(double);
    en_tri *r = ms->tri;
    *spectrum = 0;
    if (!r->d && !(r->d = gs_malloc(3 * (size_t)D, el, "τ factor"))) return GS_ENOMEM;
    r->e = (char *)r->d + (size_t)D * el;
    r->tau = (char *)r->d + 2 * (size_t)D * el;
    if (r->next <= D) {
        if (!r->w && !(r->w = gs_malloc((size_t)D * GR_TRI_NB, el, "τ factor"))) return GS_ENOMEM;
        if ((rc = gr_tri_reduce(&r->A, r->d, r->e, r->tau, r->w, &r->next, cancel))) return rc;
        free(r->w);
        r->w = NULL;
        r->next = D + 1;
    }
    *spectrum = 1;
    if (r->qnext > D) return GS_OK;
    if (!r->Q.rows && (rc = gr_alloc(&r->Q, D, single, "τ factor"))) return rc;
    if ((rc = gr_tri_form_q(&r->A, r->tau, &r->Q, &r->qnext, cancel))) return rc;
    r->qnext = D + 1;
    gm_free(&r->A);
    return GS_OK;
}

int en_tri_spectrum(mstate *ms, int t)
{
    const en_tri *r = ms->tri;
    long D = ms->p->D;
    double *d = gs_malloc(2 * (size_t)D, sizeof(double), "spectrum");
    if (!d) return GS_ENOMEM;
    double *e = d + D;
    for (long i = 0; i < D; i++) {
        d[i] = ms->p->single ? ((const float *)r->d)[i] : ((const double *)r->d)[i];
        e[i] = i + 1 < D ? (ms->p->single ? ((const float *)r->e)[i] : ((const double *)r->e)[i]) : 0;
    }
    lapack_int info = LAPACKE_dsterf_work((lapack_int)D, d, e);
    double *w = info ? NULL : gs_malloc((size_t)D, sizeof(double), "spectrum");
    for (long i = 0; w && i < D; i++) w[i] = d[D - 1 - i];
    free(d);
    if (info) return gs_error(GS_ERUN, "LAPACK dsterf failed (info %d)", (int)info);
    if (!w) return GS_ENOMEM;
    free(ms->eigG[t]);
    ms->eigG[t] = w;
    ms->lmax[t] = w[0]; ms->lmaxe[t] = 0;
    ms->lmin[t] = w[D - 1]; ms->lmine[t] = 0;
    return GS_OK;
}

int en_tri_solve(mstate *ms, void *B, int nrhs, double tau)
{
    en_tri *r = ms->tri;
    size_t el = r->Q.f ? sizeof(float) : sizeof(double);
    if (!r->qtb && !(r->qtb = malloc((size_t)r->Q.rows * (size_t)(nrhs > 0 ? nrhs : 1) * el))) return -1;
    return gr_tri_solve(&r->Q, r->d, r->e, tau, B, nrhs, r->qtb, &r->have_qtb);
}
