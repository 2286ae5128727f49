/* engine/ridge.c — the ridge core of the EN_RIDGE learners (gacl, air; see gs_learner.h): the base
 * Gram of the real rows, G_t and Qᵀ_t assembled from the cached parts, τ-independent statistics
 * and the spectrum of G_t, the Cholesky solve W = (G + τ_eff I)⁻¹ Q and the predictions, as the
 * jobs the engine schedules (engine.c). State: engine_int.h. In single precision (en_problem
 * .single) the same steps run in float through gram.c's kernels, with a double factorization for
 * a task too ill-conditioned for float (en_solve_seen) and error bounds on the λ estimates that
 * include the rounding of G. */
#include "engine_int.h"
#include "gs_argmax.h"
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
    if (!en_base_needed(e, sp, t)) return; /* every method sharing it solves task t in the dual */
    gm_mat *B = &sp->B[en_slot(e, t)], *QB = &sp->QB[en_slot(e, t)];
    /* from row 0 at task 0 and when task t-1 did not need it */
    int from0 = t == 0 || !en_base_needed(e, sp, t - 1);
    if (from0) { gr_zero(B); gr_zero(QB); }
    else if (e->keep && !e->roll) { gr_copy(B, &sp->B[t - 1]); gr_copy(QB, &sp->QB[t - 1]); }
    long a = from0 ? 0 : p->task_row_start[t], b = p->task_row_start[t + 1];
    gr_rows(B, p->single ? &p->hf : &p->h, a, b);
    gr_symmetrize(B);
    for (long i = a; i < b; i++) {
        double *q = gm_row(QB, p->y[i]);
        if (!p->single) { cblas_daxpy((int)D, 1.0, gm_row(&p->h, i), 1, q, 1); continue; }
        const float *h = gm_rowf(&p->hf, i); /* Q in double from the float rows */
        for (long j = 0; j < D; j++) q[j] += h[j];
    }
}

/* Assemble G_t (into G: the method's ms->A, or e->G for en_gram) and Qᵀ_t (into ms->Qw) for a
 * ridge method. */
void en_assemble(en_engine *e, mstate *ms, int t, const op_params *q, gm_mat *G)
{
    int s = en_slot_read(e, t);
    size_t nQ = (size_t)ms->p->C * (size_t)ms->p->D;
    double w = en_method_weight(ms, q);
    const en_space *sp = &e->sp[ms->space];
    if (en_dual_mode(e, ms, t)) { /* the dual needs no D×D matrix: G only for the engine's copy */
        if (G != &ms->A) en_dual_gram(e, ms, t, G);
        return;
    }
    if (G == &ms->A && !e->keep && ms->dual) {
        /* the first task in the primal (the rows only grow): no job reads the dual again (task
         * t-1's solve, λ_min and predictions are done, task t's switch rows are in E): its kernel
         * goes before A is first written, not after (RanPAC at the synthetic set's switch: 0.5 GB
         * of kernel beside the new 0.8 GB A) */
        en_dual_free(ms, ms->p->T);
    }
    const gm_mat *B = ms->OB ? &ms->OB[s] : &sp->B[s], *QB = ms->OB ? &ms->OQB[s] : &sp->QB[s];
    /* the task reduced for τ changes solves without G_t in A (en_solve_seen assembles it if needed) */
    int skip = G == &ms->A && en_tri_usable(e, ms, t);
    if (G == &ms->A) ms->a_stale = skip;
    if (!skip) gr_combine(G, B, w, ms->E ? &ms->E[s] : NULL);
    memcpy(ms->Qw.v, QB->v, nQ * sizeof(double));
    if (ms->E && w != 0) cblas_daxpy((int)nQ, w, ms->QE[s].v, 1, ms->Qw.v, 1);
}

typedef struct {
    const gm_mat *G;
    float *work;   /* 2D floats for a single-precision G */
} apply_ctx;

static int apply_G(const double *x, double *y, void *user)
{
    const apply_ctx *c = user;
    gr_symv(c->G, x, y, c->work);
    return GS_OK;
}

/* Single precision: a bound on ‖fl(G) − G‖₂, G the Gram of the double rows: each of the N rows
 * (real and synthetic) rounded to float and the products summed in float perturb G by at most
 * (γ_N + 3u)·‖|H|ᵀ|H|‖₂ ≤ (γ_N + 3u)·tr G (u = 2⁻²⁴, γ_N = Nu/(1 − Nu)). 0 in double. */
static double single_gram_err(const en_engine *e, const mstate *ms, int t, long N)
{
    if (!ms->p->single) return 0;
    double u = 0x1p-24, g = (double)N * u / (1 - (double)N * u);
    (void)e;
    return (g + 3 * u) * ms->tr[t];
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
    const gm_mat *U = ms->fallback ? &ms->A64 : &ms->A;
    if (U->f) {
        /* A float factor's solves are accurate to about κ·2⁻²⁴, too coarse for Lanczos to find the
         * crowded bottom of the spectrum. Bounds instead, and no sweep: 0 ≤ λ_min(G) ≤ θ, the
         * smallest Ritz value of the λ_max iteration (a Rayleigh quotient of fl(G)), plus fl(G)'s
         * distance to G; the estimate is the lower end (λ_min(G + τI) ≈ τ, right when λ_min(G) ≪ τ,
         * the ridge regime) and its error bound the interval's width. */
        ms->lmine[t] = fmax(ms->lmin[t], 0) + single_gram_err(e, ms, t, gram_rows(e, ms, t));
        ms->lmin[t] = 0;
        ms->lmin_ref[t] = 1;
        return GS_OK;
    }
    if (e->cfg.accuracies_only) { /* nobody reads it (table): not computed, and not marked done */
        ms->lmin[t] = ms->lmine[t] = NAN;
        return GS_OK;
    }
    int rc = sp_lmin_from_cholesky(U, maxit, LANCZOS_TOL, &lm, &le);
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
    if (en_dual_mode(e, ms, t)) return en_dual_stats(e, ms, t, want_spectrum);
    if (!ms->stats_valid[t]) {
        free(ms->eigG[t]);
        ms->eigG[t] = NULL;
        en_tri_forget(ms, t);
        ms->fro2[t] = gr_fro2(&ms->A);
        ms->tr[t] = gr_trace(&ms->A);
        ms->lmin_ref[t] = 0;
        if (!want_spectrum) {
            /* Converge λ_max only (well separated, a few steps); λ_min, whose end of the spectrum
             * is crowded, comes from the Cholesky factor after the solve (refine_lmin). */
            apply_ctx c = {&ms->A, ms->A.f ? gs_malloc(2 * (size_t)D, sizeof(float), "Lanczos") : NULL};
            if (ms->A.f && !c.work) return GS_ENOMEM;
            int rc = sp_lanczos_op(D, apply_G, &c, SP_LANCZOS_MAX, LANCZOS_MAXIT, LANCZOS_TOL, &ms->lmax[t],
                                   &ms->lmaxe[t], &ms->lmin[t], &ms->lmine[t]);
            free(c.work);
            if (rc) return rc;
            double ge = single_gram_err(e, ms, t, gram_rows(e, ms, t));
            ms->lmaxe[t] += ge;
            ms->lmine[t] += ge;
        }
        ms->stats_valid[t] = 1;
    }
    if (want_spectrum && !ms->eigG[t]) {
        double *w = gs_malloc((size_t)D, sizeof(double), "spectrum");
        if (!w) return GS_ENOMEM;
        gm_mat A64 = {0};
        int rc = ms->A.f ? gm_alloc(&A64, D, D, "spectrum") : GS_OK; /* of fl(G): a double copy for dsyevd */
        if (!rc && ms->A.f) gr_combine(&A64, &ms->A, 0, NULL);
        if (!rc) rc = ms->A.f ? sp_eigvals_in_place(&A64, w) : sp_eigvals(&ms->A, w); /* A64: a copy already */
        gm_free(&A64);
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
    sn->flags &= ~(unsigned)(EN_SPECTRUM | EN_LMAX_EST | EN_LMIN_EST | EN_NO_GRAM | EN_SINGLE | EN_FALLBACK);
    if (ms->p->single) sn->flags |= EN_SINGLE | (ms->fallback ? EN_FALLBACK : 0);
    double lmax = ms->lmax[t], lmin = ms->lmin[t];
    sn->tau = tau;
    sn->lambda_max = lmax + tau;
    sn->lambda_min = lmin + tau;
    sn->lmax_err = ms->lmaxe[t];
    sn->lmin_err = ms->lmine[t];
    sn->stable_rank = sp_stable_rank_formula(ms->fro2[t], ms->tr[t], lmax, tau, D);
    sn->cond = isnan(sn->lambda_min) ? NAN : sn->lambda_min > 0 ? sn->lambda_max / sn->lambda_min : INFINITY;
    sn->erank = sn->df = NAN;
    free(sn->eig);
    sn->eig = NULL;
    if (ms->eigG[t]) {
        sn->eig = malloc((size_t)D * sizeof(double));
        if (sn->eig) {
            for (long i = 0; i < D; i++) sn->eig[i] = ms->eigG[t][i] + tau;
            sn->flags |= EN_SPECTRUM;
            sn->erank = sp_effective_rank(sn->eig, D);
            sn->df = sp_ridge_df(ms->eigG[t], D, tau);
            sn->stable_rank = sp_stable_rank_eig(sn->eig, D);
        }
    } else {
        sn->flags |= EN_LMAX_EST;
        if (ms->lmin_ref[t] != 2) sn->flags |= EN_LMIN_EST;
    }
}

/* The Cholesky solve of (A + τI) W = Q for the Cs seen classes' columns of Q, in A's precision
 * (A factored in place), or with tri the same solve from the method's tridiagonal form (ms->tri,
 * ridge_tri.c; A only gives the precision, untouched); W rows into ms->Wt, and ms->Wf in single
 * precision. */
static int chol_seen(mstate *ms, gm_mat *A, int Cs, double tau, char *why, size_t nwhy, int tri)
{
    const en_problem *p = ms->p;
    long D = p->D;
    size_t n = (size_t)Cs * (size_t)D;
    for (int k = 0; k < Cs; k++) {
        const double *q = gm_row(&ms->Qw, p->st->class_order[k]);
        if (A->f) for (long j = 0; j < D; j++) gm_rowf(&ms->Wf, k)[j] = (float)q[j];
        else memcpy(gm_row(&ms->Wt, k), q, (size_t)D * sizeof(double));
    }
    void *B = A->f ? (void *)ms->Wf.f : (void *)ms->Wt.v;
    int info = tri ? en_tri_solve(ms, B, Cs, tau) : gr_chol_solve(A, tau, B, Cs);
    const char *prec = A->f ? "s" : "d";
    if (tri && info) { snprintf(why, nwhy, "tridiagonal solve failed (info %d)", info); return GS_ERUN; }
    if (info > 0) {
        snprintf(why, nwhy, "G + τI is not positive definite (τ = %g, leading minor %d); raise --tau", tau, info);
        return GS_ERUN;
    }
    if (info < 0) { snprintf(why, nwhy, "LAPACK %spotrf/%spotrs failed (info %d)", prec, prec, info); return GS_ERUN; }
    if (A->f) for (size_t i = 0; i < n; i++) ms->Wt.v[i] = ms->Wf.f[i];
    else if (ms->Wf.f) for (size_t i = 0; i < n; i++) ms->Wf.f[i] = (float)ms->Wt.v[i];
    for (size_t i = 0; i < n; i++)
        if (!isfinite(ms->Wt.v[i])) { snprintf(why, nwhy, "the solution W is not finite; raise --tau"); return GS_ERUN; }
    return GS_OK;
}

/* Solve (G+τI) W = Q for the seen classes of task t (G, Qᵀ assembled in ms->A, ms->Qw; A is
 * factored in place: no D×D copy); W rows into ms->Wt (Cs × D, in class_order). In single
 * precision the task is factored in double (ms->A64, EN_FALLBACK) when cond(G + τI) > EN_SINGLE_KAPPA
 * by the λ_max estimate, or when spotrf fails. Returns GS_OK or GS_ERUN with the reason in `why`. */
int en_solve_seen(en_engine *e, mstate *ms, int t, double tau, char *why, size_t nwhy)
{
    const en_problem *p = ms->p;
    int Cs = p->st->task_class_start[t + 1];
    ms->fallback = ms->used_tri = 0;
    if (en_dual_mode(e, ms, t)) return en_solve_dual(e, ms, t, tau, why, nwhy); /* Wt, and Wf in single */
    if (!e->keep && ms->dual) {
        /* in the primal from this task on (the rows only grow): the dual's kernel and rows are not
         * read again in this update; their memory goes (at D = 5000 a few hundred MB per method) */
        en_dual_free(ms, p->T);
    }
    long D = p->D;
    if (en_tri_usable(e, ms, t)) {
        /* from the tridiagonal form of G_t; in single precision not for a task the conditioning
         * sends to double (below); anything amiss there: the Cholesky as usual */
        int fb = p->single && (ms->lmax[t] + ms->lmaxe[t] + tau) / tau > EN_SINGLE_KAPPA;
        if (!fb && chol_seen(ms, &ms->A, Cs, tau, why, nwhy, 1) == GS_OK) { ms->used_tri = 1; return GS_OK; }
    }
    if (ms->a_stale) en_assemble(e, ms, t, &e->cur, &ms->A);
    ms->a_stale = 0;
    if (!ms->A.f) return chol_seen(ms, &ms->A, Cs, tau, why, nwhy, 0);
    float *diag = gs_malloc((size_t)D, sizeof(float), "diagonal");
    if (!diag) { snprintf(why, nwhy, "%s", gs_last_error()); return GS_ERUN; }
    for (long i = 0; i < D; i++) diag[i] = ms->A.f[i * D + i];
    double kappa = (ms->lmax[t] + ms->lmaxe[t] + tau) / tau;
    int fb = kappa > EN_SINGLE_KAPPA;
    if (!fb && chol_seen(ms, &ms->A, Cs, tau, why, nwhy, 0) == GS_OK) { free(diag); return GS_OK; }
    /* double for this task, from G_t as float: intact, or (after a failed spotrf, which wrote only
     * the upper triangle in LAPACK's column-major sense and the diagonal) its other triangle and
     * the saved diagonal. Not from B and E: the next task's BASE may be updating them. */
    if (!ms->A64.v && gm_alloc(&ms->A64, D, D, "double-precision fallback")) {
        free(diag);
        snprintf(why, nwhy, "%s", gs_last_error());
        return GS_ERUN;
    }
    const float *a = ms->A.f;
    double *g = ms->A64.v;
    for (long j = 0; j < D; j++) {
        g[j * D + j] = diag[j];
        for (long i = j + 1; i < D; i++) g[j * D + i] = g[i * D + j] = a[j * D + i]; /* column j, row i > j */
    }
    free(diag);
    ms->fallback = 1;
    return chol_seen(ms, &ms->A64, Cs, tau, why, nwhy, 0);
}

/* The screened argmax of test rows lo..hi-1 of the first n when the space keeps no mapped test rows
 * (en_config.lean_test_rows): each reference block of AM_SCORE_BLOCK rows (from row 0, as
 * am_argmax_screened cuts them) is mapped from the problem's rows and scored alone, so the blocks,
 * their products and the predictions are those of the kept rows, byte for byte (the map at one
 * BLAS thread: a block's rows equal the whole product's). */
static int predict_mapped(en_engine *e, mstate *ms, int Cs, long n, long lo, long hi)
{
    const en_problem *p = ms->p;
    long D = p->D, nb = n < AM_SCORE_BLOCK ? n : AM_SCORE_BLOCK;
    double *x = gs_malloc((size_t)(nb ? nb : 1) * (size_t)D, sizeof(double), "mapped test rows");
    if (!x) return GS_ENOMEM;
    int rc = GS_OK, bl = gs_blas_serial_begin();
    for (long b0 = lo / AM_SCORE_BLOCK * AM_SCORE_BLOCK; b0 < hi && !rc; b0 += AM_SCORE_BLOCK) {
        long b1 = b0 + AM_SCORE_BLOCK < n ? b0 + AM_SCORE_BLOCK : n;
        en_expand_rows(p, gm_row(&p->test_z, b0), b1 - b0, x);
        rc = am_argmax_screened(x, NULL, NULL, b1 - b0, (lo > b0 ? lo : b0) - b0, (hi < b1 ? hi : b1) - b0, D, ms->Wt.v,
                                Cs, e->cfg.exact_scores ? AM_SCORES_DOUBLE : AM_SCORES_SCREEN, ms->pred + b0, NULL);
    }
    gs_blas_serial_end(bl);
    free(x);
    return rc;
}

/* Predictions of test rows lo..hi-1 of the first n (the seen classes' rows) into ms->pred. */
int en_predict_rows(en_engine *e, mstate *ms, int t, long n, long lo, long hi)
{
    const en_problem *p = ms->p;
    int Cs = p->st->task_class_start[t + 1];
    if (!p->single && !p->test_h.v && p->R.v && hi > lo) {
        int rc = predict_mapped(e, ms, Cs, n, lo, hi);
        if (rc) return rc;
        for (long i = lo; i < hi; i++) ms->pred[i] = p->st->class_order[ms->pred[i]];
        return GS_OK;
    }
    /* single precision: the first maximum of the float scores, sgemm(test_f, Wf) per 256 rows */
    int rc = p->single ? am_argmax(NULL, p->test_f, lo, hi, p->D, NULL, ms->Wf.f, NULL, Cs, 256, ms->pred) : am_argmax_screened(p->test_h.v, p->test_f, p->test_fn, n, lo, hi, p->D, ms->Wt.v, Cs,
                          e->cfg.exact_scores ? AM_SCORES_DOUBLE : AM_SCORES_SCREEN, ms->pred, NULL);
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
     * last and the looked-at task only while that is cheap (e->spectrum_default), and under
     * --spectrum auto only for a method whose own matrix is: D, or N rows in the dual (RanPAC's
     * 10,000-d map at the run's D = 768 and 15,350 rows: its dsyevd was 40 % of the run; a view
     * that shows it asks, en_ensure_spectrum). */
    long dim = en_dual_mode(e, ms, t) ? gram_rows(e, ms, t) : p->D;
    int cheap = e->cfg.spectrum != OP_SPECTRUM_AUTO || dim <= EN_SPECTRUM_AUTO_MAX;
    int want_spec = e->cfg.spectrum == OP_SPECTRUM_ALL ||
                    (e->spectrum_default && cheap && (t == p->T - 1 || (e->keep && t == e->focus_task)));
    int rc = en_ensure_stats(e, ms, t, want_spec); /* G_t is in ms->A: the J_ASM job before */
    if (rc) return rc;
    double tau = en_tau_for(e, ms, t, q->tau);
    ms->solve_failed = en_solve_seen(e, ms, t, tau, ms->why, sizeof ms->why) != GS_OK;
    sn->flags = (sn->flags & ~(unsigned)EN_TAU_FACTOR) | (ms->used_tri ? EN_TAU_FACTOR : 0);
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

