/* ridge.c — the ridge core of the EN_RIDGE learners (gacl, air; see gs_learner.h): the base
 * Gram of the real rows, G_t and Qᵀ_t assembled from the cached parts, τ-independent statistics
 * and the spectrum of G_t, the Cholesky solve W = (G + τ_eff I)⁻¹ Q and the predictions, as the
 * jobs the engine schedules (engine.c). State: engine_int.h. */
#include "engine_int.h"
#include "gs_common.h"
#include "gs_spectral.h"

#include <cblas.h>
#include <lapacke.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* B_t = B_{t-1} + H_tᵀ H_t, QB likewise. */
void en_base_task(en_engine *e, en_space *sp, int t)
{
    const en_problem *p = &sp->pm;
    long D = p->D;
    gm_mat *B = &sp->B[en_slot(e, t)], *QB = &sp->QB[en_slot(e, t)];
    if (t == 0) { en_zero_mat(B); en_zero_mat(QB); }
    else if (e->keep) { en_copy_mat(B, &sp->B[t - 1]); en_copy_mat(QB, &sp->QB[t - 1]); }
    long a = p->task_row_start[t], b = p->task_row_start[t + 1];
    if (b > a)
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)(b - a), 1.0, gm_row(&p->h, a),
                    (int)D, 1.0, B->v, (int)D);
    en_symmetrize(B);
    for (long i = a; i < b; i++) cblas_daxpy((int)D, 1.0, gm_row(&p->h, i), 1, gm_row(QB, p->y[i]), 1);
}

/* Assemble G_t (into G: the method's ms->A, or e->G for en_gram) and Qᵀ_t (into ms->Qw) for a
 * ridge method. */
void en_assemble(en_engine *e, mstate *ms, int t, const op_params *q, gm_mat *G)
{
    int s = en_slot(e, t);
    size_t nG = (size_t)ms->p->D * (size_t)ms->p->D, nQ = (size_t)ms->p->C * (size_t)ms->p->D;
    double w = en_method_weight(ms, q);
    const en_space *sp = &e->sp[ms->space];
    const gm_mat *B = ms->OB ? &ms->OB[s] : &sp->B[s], *QB = ms->OB ? &ms->OQB[s] : &sp->QB[s];
    memcpy(G->v, B->v, nG * sizeof(double));
    memcpy(ms->Qw.v, QB->v, nQ * sizeof(double));
    if (ms->E && w != 0) {
        cblas_daxpy((int)nG, w, ms->E[s].v, 1, G->v, 1);
        cblas_daxpy((int)nQ, w, ms->QE[s].v, 1, ms->Qw.v, 1);
    }
}

static int apply_G(const double *x, double *y, void *user)
{
    const gm_mat *G = user;
    cblas_dsymv(CblasColMajor, CblasUpper, (int)G->rows, 1.0, G->v, (int)G->rows, x, 1, 0.0, y, 1);
    return GS_OK;
}

/* Rows in G_t: real and synthetic; G_t has rank at most that many. */
static long gram_rows(const en_engine *e, const mstate *ms, int t)
{
    return e->p->task_row_start[t + 1] + (ms->E ? ms->aug_rows[t] : 0);
}

/* λ_min(G_t) from the Cholesky factor of G_t + τI left in ms->A by solve_seen: Lanczos on the
 * inverse converges fast. Stored τ-independent (λ_min(G) = λ_min(G+τI) − τ), so a τ change
 * does not recompute it. With fewer rows than columns, G_t (a sum of that many rank-one terms)
 * is singular: λ_min(G_t) = 0 exactly, λ_min(G_t + τI) = τ, and no iteration is needed. */
static int refine_lmin(en_engine *e, mstate *ms, int t, double tau)
{
    if (ms->eigG[t] || ms->lmin_ref[t]) return GS_OK;
    if (gram_rows(e, ms, t) < e->p->D) {
        ms->lmin[t] = 0;
        ms->lmine[t] = 0;
        ms->lmin_ref[t] = 2; /* exact */
        return GS_OK;
    }
    /* Each step streams the D×D factor twice (about 10 ms of one core at D = 5000, where the
     * crowded bottom of G + τI seldom converges to LANCZOS_TOL anyway): at most LMIN_WORK / D²
     * steps (LANCZOS_MAXIT up to D ≈ 2500, 30 at D = 5000). */
    long D = e->p->D;
    double cap = LMIN_WORK / ((double)D * (double)D);
    int maxit = cap < LANCZOS_MAXIT ? (cap > 30 ? (int)cap : 30) : LANCZOS_MAXIT;
    double lm, le;
    int rc = sp_lmin_from_cholesky(&ms->A, maxit, LANCZOS_TOL, &lm, &le);
    if (rc) return rc;
    /* G is positive semidefinite, so λ_min(G + τI) ≥ τ (less G's rounding, below 4Dε·λ_max): a
     * bound on the estimate's error whether or not the iteration converged */
    double gap = lm - tau + 4.0 * (double)D * DBL_EPSILON * (ms->lmax[t] + tau);
    if (gap >= 0 && gap < le) le = gap;
    ms->lmin[t] = lm - tau;
    ms->lmine[t] = le;
    ms->lmin_ref[t] = 1;
    return GS_OK;
}

/* τ-independent statistics of G_t (assembled in ms->A). */
int en_ensure_stats(en_engine *e, mstate *ms, int t, int want_spectrum)
{
    long D = ms->p->D;
    if (!ms->stats_valid[t]) {
        free(ms->eigG[t]);
        ms->eigG[t] = NULL;
        ms->fro2[t] = sp_fro2(&ms->A);
        ms->tr[t] = sp_trace(&ms->A);
        ms->lmin_ref[t] = 0;
        if (!want_spectrum) {
            /* Converge λ_max only (well separated, a few steps); λ_min, whose end of the spectrum
             * is crowded, comes from the Cholesky factor after the solve (refine_lmin). */
            int rc = sp_lanczos_op(D, apply_G, &ms->A, SP_LANCZOS_MAX, LANCZOS_MAXIT, LANCZOS_TOL, &ms->lmax[t],
                                   &ms->lmaxe[t], &ms->lmin[t], &ms->lmine[t]);
            if (rc) return rc;
        }
        ms->stats_valid[t] = 1;
    }
    if (want_spectrum && !ms->eigG[t]) {
        double *w = gs_malloc((size_t)D, sizeof(double), "spectrum");
        if (!w) return GS_ENOMEM;
        int rc = sp_eigvals(&ms->A, w);
        if (rc) { free(w); return rc; }
        ms->eigG[t] = w;
        ms->lmax[t] = w[0]; ms->lmaxe[t] = 0;
        ms->lmin[t] = w[D - 1]; ms->lmine[t] = 0;
    }
    return GS_OK;
}

void en_fill_spectral(en_engine *e, mstate *ms, en_snap *sn, int t, double tau)
{
    long D = ms->p->D;
    sn->flags &= ~(unsigned)(EN_SPECTRUM | EN_LMAX_EST | EN_LMIN_EST | EN_NO_GRAM);
    double lmax = ms->lmax[t], lmin = ms->lmin[t];
    sn->lambda_max = lmax + tau;
    sn->lambda_min = lmin + tau;
    sn->lmax_err = ms->lmaxe[t];
    sn->lmin_err = ms->lmine[t];
    sn->stable_rank = sp_stable_rank_formula(ms->fro2[t], ms->tr[t], lmax, tau, D);
    sn->cond = sn->lambda_min > 0 ? sn->lambda_max / sn->lambda_min : INFINITY;
    sn->erank = NAN;
    free(sn->eig);
    sn->eig = NULL;
    if (ms->eigG[t]) {
        sn->eig = malloc((size_t)D * sizeof(double));
        if (sn->eig) {
            for (long i = 0; i < D; i++) sn->eig[i] = ms->eigG[t][i] + tau;
            sn->flags |= EN_SPECTRUM;
            sn->erank = sp_effective_rank(sn->eig, D);
            sn->stable_rank = sp_stable_rank_eig(sn->eig, D);
        }
    } else {
        sn->flags |= EN_LMAX_EST;
        if (ms->lmin_ref[t] != 2) sn->flags |= EN_LMIN_EST;
    }
}

/* Solve (G+τI) W = Q for the seen classes of task t (G, Qᵀ assembled in ms->A, ms->Qw; A is
 * factored in place: no D×D copy); W rows into ms->Wt (Cs × D, in class_order). Returns GS_OK or
 * GS_ERUN with the reason in `why`. */
int en_solve_seen(en_engine *e, mstate *ms, int t, double tau, char *why, size_t nwhy)
{
    const en_problem *p = ms->p;
    long D = p->D;
    int Cs = p->st->task_class_start[t + 1];
    if (en_dual_ok(e, ms, t)) return en_solve_dual(e, ms, t, tau, why, nwhy);
    for (long i = 0; i < D; i++) ms->A.v[i * D + i] += tau;
    for (int k = 0; k < Cs; k++)
        memcpy(gm_row(&ms->Wt, k), gm_row(&ms->Qw, p->st->class_order[k]), (size_t)D * sizeof(double));
    /* the _work variants: no NaN scan of A (its rows were checked finite) */
    lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', (lapack_int)D, ms->A.v, (lapack_int)D);
    if (info > 0) {
        snprintf(why, nwhy, "G + τI is not positive definite (τ = %g, leading minor %d); raise --tau", tau, (int)info);
        return GS_ERUN;
    }
    if (info < 0) { snprintf(why, nwhy, "LAPACK dpotrf failed (info %d)", (int)info); return GS_ERUN; }
    info = LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'U', (lapack_int)D, Cs, ms->A.v, (lapack_int)D, ms->Wt.v, (lapack_int)D);
    if (info != 0) { snprintf(why, nwhy, "LAPACK dpotrs failed (info %d)", (int)info); return GS_ERUN; }
    for (size_t i = 0; i < (size_t)Cs * D; i++)
        if (!isfinite(ms->Wt.v[i])) { snprintf(why, nwhy, "the solution W is not finite; raise --tau"); return GS_ERUN; }
    return GS_OK;
}

/* Predictions of test rows lo..hi-1 of the first n (the seen classes' rows) into ms->pred. */
int en_predict_rows(en_engine *e, mstate *ms, int t, long n, long lo, long hi)
{
    const en_problem *p = ms->p;
    int Cs = p->st->task_class_start[t + 1];
    int rc = en_argmax_range(p->test_h.v, p->test_f, p->test_fn, n, lo, hi, p->D, ms->Wt.v, Cs,
                          e->cfg.exact_scores ? EN_SCORES_DOUBLE : EN_SCORES_SCREEN, ms->pred, NULL);
    if (rc) return rc;
    for (long i = lo; i < hi; i++) ms->pred[i] = p->st->class_order[ms->pred[i]];
    return GS_OK;
}


/* The two halves of a task's predictions (jobs J_PRED, J_PRED1): split at a multiple of 256 rows. */
static void pred_half(long n, int part, long *lo, long *hi)
{
    long mid = n < 1024 ? n : (n / 2 + 128) / 256 * 256;
    *lo = part ? mid : 0;
    *hi = part ? n : mid;
}

double en_tau_for(en_engine *e, mstate *ms, int t, double tau)
{
    (void)e;
    return en_learner_tau(ms->L, &ms->lctx, t, tau);
}

int en_job_solve(en_engine *e, mstate *ms, en_snap *sn, int t, const op_params *q)
{
    const en_problem *p = ms->p;
    /* Exact spectrum: every task (--spectrum all), the last task, and the task the user is
     * looking at (so an interactive view fills in without waiting for the whole stream); the
     * last and the looked-at task only while that is cheap (en_spectrum_default). */
    int want_spec = e->cfg.spectrum == OP_SPECTRUM_ALL ||
                    (en_spectrum_default(e) && (t == p->T - 1 || (e->keep && t == e->focus_task)));
    int rc = en_ensure_stats(e, ms, t, want_spec); /* G_t is in ms->A: the J_ASM job before */
    if (rc) return rc;
    double tau = en_tau_for(e, ms, t, q->tau);
    ms->solve_failed = en_solve_seen(e, ms, t, tau, ms->why, sizeof ms->why) != GS_OK;
    if (ms->solve_failed) {
        en_fill_spectral(e, ms, sn, t, tau);
        sn->state = EN_FAILED;
        snprintf(sn->error, sizeof sn->error, "%s, task %d: %s", ms->name, t + 1, ms->why);
        sn->acc = sn->head_acc = sn->tail_acc = NAN;
        sn->val_acc = sn->val_head_acc = sn->val_tail_acc = NAN;
    }
    return GS_OK;
}

int en_job_lmin(en_engine *e, mstate *ms, en_snap *sn, int t, const op_params *q)
{
    if (ms->solve_failed) return GS_OK;
    double tau = en_tau_for(e, ms, t, q->tau);
    int rc = refine_lmin(e, ms, t, tau);
    if (rc) return rc;
    en_fill_spectral(e, ms, sn, t, tau);
    return GS_OK;
}

int en_job_pred(en_engine *e, mstate *ms, int t, int part)
{
    if (ms->solve_failed) return GS_OK;
    long n = ms->p->test_task_end[t], lo, hi;
    pred_half(n, part, &lo, &hi);
    return en_predict_rows(e, ms, t, n, lo, hi);
}

