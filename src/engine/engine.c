/* engine/engine.c — the update as a plan of jobs, caches, per-task snapshots and results (see
 * gs_engine.h; the state and the other files of the engine: engine_int.h).
 *
 * Caches (interactive mode, keep_task_grams): B_t (real rows), E_t per augmenting method, the
 * τ-independent statistics of G_t (‖G‖_F², tr G, Lanczos extremes, exact eigenvalues when
 * computed). A τ change re-solves from these; an α_base/ξ change rebuilds only E of the methods
 * that depend on them; a β change only recombines G = B + βE.
 */
#include "engine_int.h"
#include "gs_common.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Workers per task: cfg->threads, else GS_THREADS from the environment, else 2 on ≥ 2 cores. */
static int engine_workers(const en_config *cfg)
{
    int n = cfg->threads;
    const char *env = getenv("GS_THREADS");
    if (n <= 0 && env && *env) n = atoi(env);
    if (n <= 0) n = sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
    return n > 1 ? 2 : 1;
}


/* ---- creation ---------------------------------------------------------------------- */

static void snap_free(en_snap *s) { free(s->eig); free(s->class_acc); s->eig = s->class_acc = NULL; }

void en_results_free(en_results *r)
{
    for (int m = 0; r->m && m < r->n_methods; m++) {
        if (r->m[m].snaps)
            for (int t = 0; t < r->T; t++) snap_free(&r->m[m].snaps[t]);
        free(r->m[m].snaps);
    }
    free(r->m); free(r->is_head); free(r->class_task); free(r->class_kept);
    memset(r, 0, sizeof *r);
}

int en_results_copy(en_results *dst, const en_results *src)
{
    memset(dst, 0, sizeof *dst);
    *dst = *src;
    dst->m = NULL; dst->is_head = NULL; dst->class_task = NULL; dst->class_kept = NULL;
    dst->n_methods = 0;
    int C = src->C, T = src->T;
    dst->m = gs_calloc((size_t)src->n_methods, sizeof *dst->m, "results");
    dst->is_head = gs_malloc((size_t)C, 1, "results");
    dst->class_task = gs_malloc((size_t)C, sizeof(int), "results");
    dst->class_kept = gs_malloc((size_t)C, sizeof(long), "results");
    if (!dst->m || !dst->is_head || !dst->class_task || !dst->class_kept) goto fail;
    memcpy(dst->is_head, src->is_head, (size_t)C);
    memcpy(dst->class_task, src->class_task, (size_t)C * sizeof(int));
    memcpy(dst->class_kept, src->class_kept, (size_t)C * sizeof(long));
    dst->n_methods = src->n_methods;
    for (int m = 0; m < src->n_methods; m++) {
        dst->m[m] = src->m[m];
        dst->m[m].snaps = gs_calloc((size_t)T, sizeof(en_snap), "results");
        if (!dst->m[m].snaps) goto fail;
        for (int t = 0; t < T; t++) {
            const en_snap *a = &src->m[m].snaps[t];
            en_snap *b = &dst->m[m].snaps[t];
            *b = *a;
            b->eig = b->class_acc = NULL;
            if (a->eig) {
                long D = src->m[m].D;
                if (!(b->eig = gs_malloc((size_t)D, sizeof(double), "results"))) goto fail;
                memcpy(b->eig, a->eig, (size_t)D * sizeof(double));
            }
            if (a->class_acc) {
                if (!(b->class_acc = gs_malloc((size_t)C, sizeof(double), "results"))) goto fail;
                memcpy(b->class_acc, a->class_acc, (size_t)C * sizeof(double));
            }
        }
    }
    return GS_OK;
fail:
    en_results_free(dst);
    return GS_ENOMEM;
}

int en_results_baseline(const en_results *r, int m)
{
    if (m < 0 || m >= r->n_methods) return -1;
    for (int k = 0; k < r->n_methods; k++)
        if (k != m && !r->m[k].augmenter[0] && !strcmp(r->m[k].learner, r->m[m].learner)) return k;
    return -1;
}

int en_results_pair(const en_results *r, int m0, int m1, int *ref, int *aug)
{
    if (m0 < 0 || m1 < 0 || m0 >= r->n_methods || m1 >= r->n_methods || m0 == m1) return 0;
    if (r->m[m1].augmenter[0] && !r->m[m0].augmenter[0] && en_results_baseline(r, m1) == m0) { *ref = m0; *aug = m1; return 1; }
    if (r->m[m0].augmenter[0] && !r->m[m1].augmenter[0] && en_results_baseline(r, m0) == m1) { *ref = m1; *aug = m0; return 1; }
    return 0;
}

static void mstate_free(mstate *ms, int nslots, int T)
{
    if (ms->lctx.priv && ms->L && ms->L->destroy) ms->L->destroy(&ms->lctx);
    if (ms->actx.priv && ms->aug_def && ms->aug_def->destroy) ms->aug_def->destroy(&ms->actx);
    for (int s = 0; s < nslots; s++) {
        if (ms->E) { gm_free(&ms->E[s]); gm_free(&ms->QE[s]); }
        if (ms->OB) { gm_free(&ms->OB[s]); gm_free(&ms->OQB[s]); }
    }
    free(ms->E); free(ms->QE); free(ms->OB); free(ms->OQB); free(ms->cw);
    free(ms->aug_rows); free(ms->skip_cls); free(ms->skip_pairs); free(ms->stats_valid); free(ms->lmin_ref);
    free(ms->fro2); free(ms->tr); free(ms->lmax); free(ms->lmaxe); free(ms->lmin); free(ms->lmine);
    if (ms->eigG) for (int t = 0; t < T; t++) free(ms->eigG[t]);
    free(ms->eigG);
    if (ms->stage) for (int t = 0; t < T; t++) snap_free(&ms->stage[t]);
    free(ms->stage);
    en_rowbuf_free(&ms->collect);
    en_rowbuf_free(&ms->aug);
    gm_free(&ms->A); gm_free(&ms->Qw); gm_free(&ms->Wt); gm_free(&ms->Wf); gm_free(&ms->A64);
    free(ms->pred); free(ms->vpred);
    free(ms->ybuf);
    en_dual_free(ms, T);
    en_tri_free(ms);
}

void en_destroy(en_engine *e)
{
    if (!e) return;
    int T = e->p->T;
    if (e->ms) for (int m = 0; m < e->nm; m++) mstate_free(&e->ms[m], e->nslots, T);
    free(e->ms);
    for (int k = 0; k < e->nsp; k++) {
        en_space *sp = &e->sp[k];
        for (int s = 0; sp->B && s < e->nslots; s++) { gm_free(&sp->B[s]); gm_free(&sp->QB[s]); }
        free(sp->B); free(sp->QB);
        en_space_free(sp);
    }
    gm_free(&e->G); gm_free(&e->Qext);
    en_results_free(&e->res);
    free(e);
}

/* nslots D×D Gram matrices (float in single precision) and C×D right-hand sides (double). */
static int alloc_slots(gm_mat **M, gm_mat **QM, int nslots, long D, int C, int single)
{
    *M = gs_calloc((size_t)nslots, sizeof(gm_mat), "engine");
    *QM = gs_calloc((size_t)nslots, sizeof(gm_mat), "engine");
    if (!*M || !*QM) return GS_ENOMEM;
    for (int s = 0; s < nslots; s++) {
        int rc = en_gram_alloc(&(*M)[s], D, single, "Gram matrices");
        if (!rc) rc = gm_alloc(&(*QM)[s], C, D, "Gram matrices");
        if (rc) return rc;
    }
    return GS_OK;
}

/* A method's state: its learner and augmenter, per-task counters and caches, work matrices. */
static int mstate_init(en_engine *e, mstate *ms, const char *name)
{
    const en_problem *p = e->p;
    int T = p->T, C = p->C, rc;
    long D, nt = p->test_task_end[T - 1];
    if ((rc = en_method_parse(name, &ms->L, &ms->aug_def))) return rc;
    if ((rc = en_space_find(e, ms->L, &ms->space))) return rc;
    p = ms->p = &e->sp[ms->space].pm;
    D = p->D;
    ms->name = name;
    ms->lctx.p = ms->actx.p = p;
    ms->aug_rows = gs_calloc((size_t)T, sizeof(long), "engine");
    ms->skip_cls = gs_calloc((size_t)T, sizeof(long), "engine");
    ms->skip_pairs = gs_calloc((size_t)T, sizeof(long), "engine");
    ms->stats_valid = gs_calloc((size_t)T, sizeof(int), "engine");
    ms->lmin_ref = gs_calloc((size_t)T, sizeof(int), "engine");
    ms->fro2 = gs_calloc((size_t)T, sizeof(double), "engine");
    ms->tr = gs_calloc((size_t)T, sizeof(double), "engine");
    ms->lmax = gs_calloc((size_t)T, sizeof(double), "engine");
    ms->lmaxe = gs_calloc((size_t)T, sizeof(double), "engine");
    ms->lmin = gs_calloc((size_t)T, sizeof(double), "engine");
    ms->lmine = gs_calloc((size_t)T, sizeof(double), "engine");
    ms->eigG = gs_calloc((size_t)T, sizeof(double *), "engine");
    ms->pred = gs_malloc((size_t)(nt ? nt : 1), sizeof(int), "predictions");
    ms->vpred = gs_malloc((size_t)(p->val_h.rows ? p->val_h.rows : 1), sizeof(int), "predictions");
    if (!ms->aug_rows || !ms->skip_cls || !ms->skip_pairs || !ms->stats_valid || !ms->lmin_ref || !ms->fro2 ||
        !ms->tr || !ms->lmax || !ms->lmaxe || !ms->lmin || !ms->lmine || !ms->eigG || !ms->pred || !ms->vpred)
        return GS_ENOMEM;
    if (!en_is_ridge(ms)) return GS_OK;
    if ((rc = en_gram_alloc(&ms->A, D, p->single, "work matrix")) || (rc = gm_alloc(&ms->Qw, C, D, "work matrix")) ||
        (rc = gm_alloc(&ms->Wt, C, D, "work matrix")) || (p->single && (rc = gm_alloc_f(&ms->Wf, C, D, "work matrix"))))
        return rc;
    if (ms->aug_def && (rc = alloc_slots(&ms->E, &ms->QE, e->nslots, D, C, p->single))) return rc;
    if (ms->L->class_weight) {
        if ((rc = alloc_slots(&ms->OB, &ms->OQB, e->nslots, D, C, p->single))) return rc;
        if (!(ms->cw = gs_malloc((size_t)C, sizeof(double), "engine"))) return GS_ENOMEM;
    }
    return GS_OK;
}

int en_create(en_engine **out, const en_problem *p, const en_config *cfg)
{
    *out = NULL;
    if (cfg->n_methods < 1 || cfg->n_methods > OP_MAX_METHODS)
        return gs_error(GS_EINPUT, "--methods: give between 1 and %d methods", OP_MAX_METHODS);
    const en_learner *L;
    const en_augmenter *A;
    for (int m = 0; m < cfg->n_methods; m++)
        if (en_method_parse(cfg->methods[m], &L, &A)) return GS_EINPUT;
    en_engine *e = gs_calloc(1, sizeof *e, "engine");
    if (!e) return GS_ENOMEM;
    e->p = p;
    e->cfg = *cfg;
    e->nm = cfg->n_methods;
    for (int m = 0; m < e->nm; m++) { /* copies: the caller's strings need not outlive the engine */
        snprintf(e->name_buf[m], sizeof e->name_buf[m], "%s", cfg->methods[m]);
        e->names[m] = e->name_buf[m];
    }
    e->cfg.methods = e->names;
    e->keep = cfg->keep_task_grams;
    int T = p->T, C = p->C;
    long D = p->D;
    e->nslots = e->keep ? T : 1;
    int rc = GS_ENOMEM;
    e->ms = gs_calloc((size_t)e->nm, sizeof(mstate), "engine");
    if (!e->ms) goto fail;
    e->workers = engine_workers(cfg);
    e->spectrum_default = cfg->spectrum != OP_SPECTRUM_AUTO || p->D <= EN_SPECTRUM_AUTO_MAX;
    for (int m = 0; m < e->nm; m++) {
        mstate *ms = &e->ms[m];
        if ((rc = mstate_init(e, ms, e->names[m]))) goto fail;
        en_space *sp = &e->sp[ms->space];
        if (en_shares_base(ms) && !sp->B && (rc = alloc_slots(&sp->B, &sp->QB, e->nslots, sp->pm.D, C, sp->pm.single)))
            goto fail;
    }
    rc = GS_ENOMEM;
    /* results skeleton */
    en_results *r = &e->res;
    r->T = T; r->C = C; r->D = D; r->n_methods = e->nm;
    r->spectra_on_request = !e->spectrum_default;
    r->m = gs_calloc((size_t)e->nm, sizeof *r->m, "results");
    r->is_head = gs_malloc((size_t)C, 1, "results");
    r->class_task = gs_malloc((size_t)C, sizeof(int), "results");
    r->class_kept = gs_malloc((size_t)C, sizeof(long), "results");
    if (!r->m || !r->is_head || !r->class_task || !r->class_kept) goto fail;
    memcpy(r->is_head, p->st->is_head, (size_t)C);
    memcpy(r->class_task, p->st->class_task, (size_t)C * sizeof(int));
    memcpy(r->class_kept, p->st->class_kept, (size_t)C * sizeof(long));
    for (int m = 0; m < e->nm; m++) {
        snprintf(r->m[m].name, sizeof r->m[m].name, "%s", e->ms[m].name);
        r->m[m].D = e->ms[m].p->D;
        r->m[m].ridge = en_is_ridge(&e->ms[m]);
        if (e->ms[m].L->spectrum && e->ms[m].L->spectrum_of)
            snprintf(r->m[m].spectrum_of, sizeof r->m[m].spectrum_of, "%s", e->ms[m].L->spectrum_of);
        snprintf(r->m[m].learner, sizeof r->m[m].learner, "%s", e->ms[m].L->name);
        snprintf(r->m[m].augmenter, sizeof r->m[m].augmenter, "%s", e->ms[m].aug_def ? e->ms[m].aug_def->name : "");
        r->m[m].a_last = r->m[m].a_avg = r->m[m].val_a_last = r->m[m].val_a_avg = NAN;
        r->m[m].snaps = gs_calloc((size_t)T, sizeof(en_snap), "results");
        e->ms[m].stage = gs_calloc((size_t)T, sizeof(en_snap), "results");
        if (!r->m[m].snaps || !e->ms[m].stage) goto fail;
        for (int t = 0; t < 2 * T; t++) {
            en_snap *s = t < T ? &r->m[m].snaps[t] : &e->ms[m].stage[t - T];
            s->task = t % T + 1;
            s->val_acc = s->val_head_acc = s->val_tail_acc = NAN;
            s->class_acc = gs_malloc((size_t)C, sizeof(double), "results");
            if (!s->class_acc) goto fail;
            for (int c = 0; c < C; c++) s->class_acc[c] = NAN;
        }
    }
    *out = e;
    return GS_OK;
fail:
    if (!gs_last_error()[0]) gs_error(GS_ENOMEM, "engine: out of memory");
    en_destroy(e);
    return rc ? rc : GS_ENOMEM;
}

const en_results *en_get_results(const en_engine *e) { return &e->res; }

/* ---- per-task evaluation -------------------------------------------------------------- */

int en_accuracy(const en_problem *p, int task, const int *pred, long n, double *acc, double *head_acc,
                double *tail_acc, double *class_acc)
{
    return en_accuracy_of(p, task, p->test_y, pred, n, acc, head_acc, tail_acc, class_acc);
}

int en_accuracy_of(const en_problem *p, int task, const int *y, const int *pred, long n, double *acc,
                   double *head_acc, double *tail_acc, double *class_acc)
{
    const st_stream *st = p->st;
    int C = p->C, t = task - 1;
    long *corr = gs_calloc((size_t)C, sizeof(long), "accuracy"), *tot = gs_calloc((size_t)C, sizeof(long), "accuracy");
    if (!corr || !tot) { free(corr); free(tot); return GS_ENOMEM; }
    long correct = 0;
    for (long i = 0; i < n; i++) {
        int c = y[i];
        tot[c]++;
        if (pred[i] == c) { corr[c]++; correct++; }
    }
    *acc = n ? 100.0 * (double)correct / (double)n : NAN;
    double hs = 0, ts = 0;
    int hn = 0, tn = 0;
    for (int c = 0; c < C; c++) {
        if (class_acc) class_acc[c] = NAN;
        if (st->class_task[c] < 0 || st->class_task[c] > t || tot[c] == 0) continue;
        double a = 100.0 * (double)corr[c] / (double)tot[c];
        if (class_acc) class_acc[c] = a;
        if (st->is_head[c]) { hs += a; hn++; } else { ts += a; tn++; }
    }
    *head_acc = hn ? hs / hn : NAN;
    *tail_acc = tn ? ts / tn : NAN;
    free(corr); free(tot);
    return GS_OK;
}

static void fill_accuracy(en_engine *e, en_snap *sn, const int *pred, long n)
{
    sn->test_rows = n;
    if (en_accuracy(e->p, sn->task, pred, n, &sn->acc, &sn->head_acc, &sn->tail_acc, sn->class_acc))
        sn->acc = sn->head_acc = sn->tail_acc = NAN;
}

/* Validation accuracy of task t from the predictions vpred of the seen validation rows. */
static void fill_val_accuracy(en_engine *e, en_snap *sn, const int *vpred, long nv)
{
    sn->val_rows = nv;
    sn->val_acc = sn->val_head_acc = sn->val_tail_acc = NAN;
    if (nv > 0 && en_accuracy_of(e->p, sn->task, e->p->val_y, vpred, nv, &sn->val_acc, &sn->val_head_acc,
                                 &sn->val_tail_acc, NULL))
        sn->val_acc = sn->val_head_acc = sn->val_tail_acc = NAN;
}

int en_predict_val(en_engine *e, mstate *ms, en_snap *sn, int t)
{
    const en_problem *p = ms->p;
    long nv = p->val_h.rows ? p->val_task_end[t] : 0;
    if (nv > 0) {
        int rc;
        if (!en_is_ridge(ms)) {
            rc = ms->L->predict(&ms->lctx, t, p->val_h.v, nv, ms->vpred);
        } else {
            int Cs = p->st->task_class_start[t + 1];
            rc = en_argmax_range(p->val_h.v, NULL, NULL, nv, 0, nv, p->D, ms->Wt.v, Cs,
                                 e->cfg.exact_scores ? EN_SCORES_DOUBLE : EN_SCORES_SCREEN, ms->vpred, NULL);
            for (long i = 0; !rc && i < nv; i++) ms->vpred[i] = p->st->class_order[ms->vpred[i]];
        }
        if (rc) return rc;
    }
    fill_val_accuracy(e, sn, ms->vpred, nv);
    return GS_OK;
}

static void finish_method(en_method_result *mr, int T)
{
    double s = 0;
    for (int t = 0; t < T; t++) {
        if (mr->snaps[t].state != EN_DONE) { mr->a_last = mr->a_avg = mr->val_a_last = mr->val_a_avg = NAN; return; }
        s += mr->snaps[t].acc;
    }
    mr->a_last = mr->snaps[T - 1].acc;
    mr->a_avg = s / T;
    double v = 0;
    for (int t = 0; t < T; t++) v += mr->snaps[t].val_acc;
    mr->val_a_last = mr->snaps[T - 1].val_acc;
    mr->val_a_avg = v / T;
}

/* ---- the update's work as jobs (methods in parallel, tasks overlapped) --------------------
 * Per task: the base Gram, each augmenting method's synthetic rows, and per ridge method the
 * assembly of G_t = B_t + w·E_t into its work matrix, the solve (statistics, Cholesky), then
 * λ_min from the factor and the predictions (two halves of the test rows, then the accuracies;
 * these only read the method's factor / W), and a report (snapshot bookkeeping and progress, on
 * the calling thread only). One plan holds every task of the update; dependencies across tasks
 * let the next task's Grams start as soon as this task's are copied into the work matrices (so
 * BASE(t+1) runs while SOLVE(t) factors), and keep every buffer safe:
 *   BASE(t)        after BASE(t-1) and every ASM(t-1) (they read the base Gram's slot), and
 *                  after XEND(t, m) of the methods sharing it when whether it is needed
 *                  depends on their rows (en_base_needed, en_base_fixed);
 *   EXTRA(t, m)    after XEND(t-1, m) and ASM(t-1, m) (the emitter, Y and E's slot);
 *   EXP0/1(t, m)   after EXTRA(t, m): its staged rows mapped, a fixed half each;
 *   PAIRS0/1(t, m) after both EXP(t, m): E's columns (or the dual's panel), a fixed half each;
 *   XEND(t, m)     after both PAIRS(t, m);
 *   ASM(t, m)      after BASE(t), XEND(t, m), SOLVE(t-1, m) and LMIN, PRED, ACC of (t-1, m)
 *                  (A and Qᵀ: the factor of t-1 is read by LMIN);
 *   SOLVE(t, m)    after ASM(t, m) (and through it everything of t-1);
 *   CUSTOM(t, m)   after CUSTOM(t-1, m);  REPORT(t) after every job of t and REPORT(t-1).
 * Each job's arithmetic does not depend on which thread runs it or when: every job writes its
 * own method's state and work buffers in an order the dependencies fix, so the numbers are
 * those of the sequential order (OpenBLAS at one thread inside the plan: identical to a
 * sequential run at one BLAS thread). Two workers (the caller and one helper) pick the first
 * ready job in plan order (earlier tasks first). */
enum { J_BASE, J_EXTRA, J_PAIRS0, J_PAIRS1, J_XEND, J_ASM, J_SOLVE, J_LMIN, J_PRED, J_CUSTOM, J_PRED1, J_ACC, J_REPORT,
       J_EXP0, J_EXP1 };
enum { JS_WAIT, JS_RUN, JS_DONE };
#define JOB_DEPS (2 + 2 * OP_MAX_METHODS)
#define JOBS_PER_TASK (2 + 12 * OP_MAX_METHODS)

typedef struct {
    int kind, m, t, pos, dep[JOB_DEPS], ndep, state, rc; /* pos: the task's place in the plan */
    int after_lo; /* REPORT: also every job in [after_lo, itself) */
    double seconds;
    char err[256];
} en_job;

typedef struct {
    en_engine *e;
    const op_params *q;
    en_job *job;
    int nj, first_wait;           /* jobs; the first one not yet started (a scan hint) */
    int npos;                     /* tasks planned so far (the position of new jobs) */
    int stop_pos;                 /* jobs of task positions ≥ this are not started (failure, cancel) */
    int cancelled;
    const volatile int *cancel;
    int *done_count, total;       /* progress over the update */
    en_progress_fn progress;
    void *user;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} en_plan;

/* A stats learner's fit of task t: the task's real rows, and its augmenter's rows with weight
 * w·ω (w = β: the augmenter's weight, ω the row's own). */
static int fit_stats(en_engine *e, mstate *ms, int t)
{
    const en_problem *p = ms->p;
    long a = p->task_row_start[t], b = p->task_row_start[t + 1];
    en_rowset real = {gm_row(&p->h, a), p->y + a, NULL, b - a};
    en_rowset aug = {ms->aug.X.v, ms->aug.y, ms->aug.w, ms->aug.n};
    double w = en_method_weight(ms, ms->lctx.params);
    for (long i = 0; i < ms->aug.n; i++) ms->aug.w[i] *= w;
    if (t == 0 && ms->L->reset) {
        int rc = ms->L->reset(&ms->lctx);
        if (rc) return rc;
    }
    return ms->L->fit(&ms->lctx, t, &real, &aug);
}

/* A learner without G: the spectrum of its own matrix (en_learner.spectrum) into sn at task t, when
 * it has one and still holds task t's matrix (the last fitted task); else sn stays without (the
 * views say so). Only on request (en_ensure_spectrum): a view that shows it asks, a run that
 * prints numbers never pays for it (KLDA's is of a --klda-dim square matrix). */
static int own_spectrum(mstate *ms, en_snap *sn, int t)
{
    if (!ms->L->spectrum || sn->eig) return GS_OK;
    long D = ms->p->D, n = 0;
    double *eig = gs_malloc((size_t)D, sizeof(double), "spectrum");
    if (!eig) return GS_ENOMEM;
    int rc = ms->L->spectrum(&ms->lctx, t, eig, &n);
    if (rc || n <= 0) { free(eig); return rc; }
    for (long i = n; i < D; i++) eig[i] = NAN; /* fewer than D (klda with M < D) */
    sn->eig = eig;
    sn->flags |= EN_OWN_SPECTRUM;
    return GS_OK;
}

static int eval_custom(en_engine *e, mstate *ms, en_snap *sn, int t)
{
    const en_problem *p = ms->p;
    long n = p->test_task_end[t];
    sn->flags = EN_NO_GRAM;
    sn->stable_rank = sn->cond = sn->erank = sn->lambda_max = sn->lambda_min = NAN;
    free(sn->eig);
    sn->eig = NULL;
    int rc = ms->L->predict(&ms->lctx, t, p->test_h.v, n, ms->pred); /* its spectrum: on request */
    if (rc) {
        sn->state = EN_FAILED;
        snprintf(sn->error, sizeof sn->error, "%s, task %d: %s", ms->name, t + 1, gs_last_error());
        return GS_OK;
    }
    fill_accuracy(e, sn, ms->pred, n);
    if ((rc = en_predict_val(e, ms, sn, t))) {
        sn->state = EN_FAILED;
        snprintf(sn->error, sizeof sn->error, "%s, task %d: %s", ms->name, t + 1, gs_last_error());
    }
    return GS_OK; /* EN_DONE when the task is reported (report_task), as for the ridge methods */
}

/* EXTRA(t, m): the augmenter's rows of task t. The plan decides where they go: kept for the dual
 * while the method is in the dual up to task t-1 (en_dual_keeps; the buffer from
 * en_dual_rows_open, then its kernel panel or the switch prepared by en_dual_rows_close), else
 * folded into E by the emitter. */
static int job_extra(en_engine *e, mstate *ms, int t)
{
    en_rowbuf *keep = NULL;
    if (en_dual_keeps(e, ms, t) && !(keep = en_dual_rows_open(e, ms, t))) return GS_ENOMEM;
    int rc = en_extra_rows(e, ms, t, keep);
    return !rc && keep ? en_dual_rows_close(e, ms, t) : rc;
}

static void report_task(en_plan *pl, const en_job *rj);

static int run_job(en_plan *pl, en_job *j)
{
    en_engine *e = pl->e;
    int t = j->t, rc = GS_OK;
    mstate *ms = j->m >= 0 ? &e->ms[j->m] : NULL;
    en_snap *sn = j->m >= 0 ? &e->ms[j->m].stage[t] : NULL;
    switch (j->kind) {
    case J_BASE:
        for (int k = 0; k < e->nsp; k++)
            if (e->sp[k].B) en_base_task(e, &e->sp[k], t);
        e->base_valid = t + 1;
        break;
    case J_EXTRA: rc = job_extra(e, ms, t); break;
    case J_EXP0: case J_EXP1: rc = en_extra_expand(e, ms, t, j->kind == J_EXP1); break;
    case J_PAIRS0: case J_PAIRS1:
        en_pair_flush_part(&ms->em, j->kind == J_PAIRS1);
        rc = en_dual_pairs(e, ms, t, j->kind == J_PAIRS1);
        break;
    case J_XEND:
        en_extra_end(e, ms, t);
        /* rows kept for the dual of a task solved in the primal (the switch): E's lower triangle */
        if ((rc = en_dual_task_end(e, ms, t, en_dual_keeps(e, ms, t)))) break;
        ms->extra_valid = t + 1;
        ms->stats_valid[t] = 0;
        break;
    case J_ASM: en_assemble(e, ms, t, pl->q, &ms->A); break;
    case J_SOLVE: rc = en_job_solve(e, ms, sn, t, pl->q); break;
    case J_LMIN: rc = en_job_lmin(e, ms, sn, t, pl->q); break;
    case J_PRED: case J_PRED1: rc = en_job_pred(e, ms, t, j->kind == J_PRED1); break;
    case J_ACC:
        if (!ms->solve_failed) {
            fill_accuracy(e, sn, ms->pred, e->p->test_task_end[t]);
            rc = en_predict_val(e, ms, sn, t);
        }
        break;
    case J_CUSTOM:
        if (ms->fit_valid <= t) {
            if ((rc = fit_stats(e, ms, t))) break;
            ms->fit_valid = t + 1;
        }
        rc = eval_custom(e, ms, sn, t);
        break;
    case J_REPORT: report_task(pl, j); break;
    }
    return rc;
}

static int job_ready(const en_plan *pl, const en_job *j)
{
    if (j->state != JS_WAIT) return 0;
    for (int k = 0; k < j->ndep; k++)
        if (pl->job[j->dep[k]].state != JS_DONE) return 0;
    for (const en_job *i = pl->job + j->after_lo; i < j; i++)
        if (i->state != JS_DONE) return 0;
    return 1;
}

typedef struct {
    en_plan *pl;
    int caller;
} en_worker;

static void *plan_worker(void *arg)
{
    en_worker *w = arg;
    en_plan *pl = w->pl;
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        /* the flag is set by another thread (the UI, a signal handler): read it atomically */
        if (pl->cancel && __atomic_load_n(pl->cancel, __ATOMIC_RELAXED) && !pl->cancelled) {
            pl->cancelled = 1;
            pl->stop_pos = -1; /* start nothing more */
            pthread_cond_broadcast(&pl->cv);
        }
        /* Jobs are in plan order (task positions ascending). After a failure only the tasks
         * before the failing one go on, so they end complete and reported, as in a task-by-task
         * run. The helper leaves the REPORT jobs to the caller. */
        while (pl->first_wait < pl->nj && pl->job[pl->first_wait].state != JS_WAIT) pl->first_wait++;
        en_job *j = NULL;
        int left = 0;
        for (int k = pl->first_wait; k < pl->nj && !j; k++) {
            en_job *c = &pl->job[k];
            if (c->pos >= pl->stop_pos) break;
            if (c->state != JS_WAIT || (!w->caller && c->kind == J_REPORT)) continue;
            left = 1;
            if (job_ready(pl, c)) j = c;
        }
        if (!left) break;
        if (!j) { pthread_cond_wait(&pl->cv, &pl->mu); continue; }
        j->state = JS_RUN;
        pthread_mutex_unlock(&pl->mu);
        gs_clear_error();
        double t0 = gs_now();
        int rc = run_job(pl, j);
        j->seconds = gs_now() - t0;
        if (rc) snprintf(j->err, sizeof j->err, "%s", gs_last_error());
        pthread_mutex_lock(&pl->mu);
        j->state = JS_DONE;
        j->rc = rc;
        if (rc && j->pos < pl->stop_pos) pl->stop_pos = j->pos;
        pthread_cond_broadcast(&pl->cv);
    }
    pthread_mutex_unlock(&pl->mu);
    return NULL;
}

static int add_job(en_plan *pl, int kind, int m, int t)
{
    en_job *j = &pl->job[pl->nj];
    memset(j, 0, sizeof *j);
    j->kind = kind; j->m = m; j->t = t;
    j->pos = pl->npos;
    j->after_lo = pl->nj;
    return pl->nj++;
}

static void add_dep(en_plan *pl, int j, int dep)
{
    if (j >= 0 && dep >= 0) pl->job[j].dep[pl->job[j].ndep++] = dep;
}

/* The snapshots of task t after its jobs (calling thread): state, counts, seconds, progress.
 * rj is the REPORT job; the task's jobs are those just before it, from rj->after_lo. */
static void report_task(en_plan *pl, const en_job *rj)
{
    int t = rj->t;
    en_engine *e = pl->e;
    const en_problem *p = e->p;
    for (int m = 0; m < e->nm; m++) {
        mstate *ms = &e->ms[m];
        if (!ms->dirty) { (*pl->done_count)++; continue; }
        /* the task's snapshot goes live: swapped in whole, on the calling thread (a progress
         * callback may copy the results while the helper runs the next task's jobs) */
        en_snap *sn = &e->res.m[m].snaps[t], tmp = *sn;
        *sn = ms->stage[t];
        ms->stage[t] = tmp;
        if (sn->state != EN_FAILED) { /* every job of the task ran: done unless a job said failed */
            sn->state = EN_DONE;
            sn->error[0] = '\0';
        }
        sn->rows_seen = p->task_row_start[t + 1];
        sn->classes_seen = p->st->task_class_start[t + 1];
        sn->aug_rows = ms->aug_def ? ms->aug_rows[t] : 0;
        sn->aug_skipped_classes = ms->aug_def ? ms->skip_cls[t] : 0;
        sn->aug_skipped_pairs = ms->aug_def ? ms->skip_pairs[t] : 0;
        sn->seconds = 0;
        for (const en_job *j = pl->job + rj->after_lo; j < rj; j++)
            if (j->m == m) sn->seconds += j->seconds;
        (*pl->done_count)++;
        if (pl->progress) pl->progress((double)*pl->done_count / pl->total, e->res.m[m].name, pl->user);
    }
}

/* What planning has placed so far: the last job of each kind per method (the dependencies above
 * follow plan order), and each task's XEND and BASE jobs (a task's solves may be planned in a
 * later segment than its rows). */
typedef struct {
    int prev_base, prev_report;
    int prev_solve[OP_MAX_METHODS], prev_asm[OP_MAX_METHODS], prev_xend[OP_MAX_METHODS], prev_custom[OP_MAX_METHODS];
    int prev_use[OP_MAX_METHODS][4];
    int base_valid, extra_valid[OP_MAX_METHODS];
    int ahead;                    /* plan_tasks' ahead (-1: none) */
    int *xend;                    /* T × nm: XEND(t, m) in this plan, or -1 */
    int *base;                    /* T: BASE(t) in this plan, or -1 */
} plan_state;

/* Task t's rows: BASE, and per dirty method EXTRA, EXP, PAIRS, XEND (and a stats learner's CUSTOM). */
static void plan_rows(en_plan *pl, plan_state *s, int t)
{
    en_engine *e = pl->e;
    int nm = e->nm;
    for (int m = 0; m < nm; m++) {
        mstate *ms = &e->ms[m];
        int jx = -1;
        if (!ms->dirty) continue;
        if ((ms->aug_def || ms->cw) && s->extra_valid[m] <= t) {
            int jr = add_job(pl, J_EXTRA, m, t);
            add_dep(pl, jr, s->prev_xend[m]);
            add_dep(pl, jr, s->prev_asm[m]);
            add_dep(pl, jr, s->prev_custom[m]); /* a stats learner's rows of t-1 are fitted */
            /* the first task after the one planned ahead: every earlier solve is done (a dual
             * task's solve reads the kernel panel of its parity, which EXTRA replaces) */
            if (t == s->ahead + 1) add_dep(pl, jr, s->prev_solve[m]);
            int x0 = add_job(pl, J_EXP0, m, t), x1 = add_job(pl, J_EXP1, m, t);
            add_dep(pl, x0, jr); add_dep(pl, x1, jr);
            int j0 = add_job(pl, J_PAIRS0, m, t), j1 = add_job(pl, J_PAIRS1, m, t);
            add_dep(pl, j0, x0); add_dep(pl, j0, x1); add_dep(pl, j1, x0); add_dep(pl, j1, x1);
            jx = add_job(pl, J_XEND, m, t);
            add_dep(pl, jx, j0); add_dep(pl, jx, j1);
            s->prev_xend[m] = s->xend[t * nm + m] = jx;
            s->extra_valid[m] = t + 1;
        }
        if (!en_is_ridge(ms)) {
            int jc = add_job(pl, J_CUSTOM, m, t);
            add_dep(pl, jc, s->prev_custom[m]);
            add_dep(pl, jc, jx);
            s->prev_custom[m] = jc;
        }
    }
    if (s->base_valid <= t) {
        int jb = add_job(pl, J_BASE, -1, t);
        add_dep(pl, jb, s->prev_base);
        for (int m = 0; m < nm; m++) add_dep(pl, jb, s->prev_asm[m]);
        /* whether the base is needed may depend on the methods' rows of t (en_base_needed) */
        for (int m = 0; m < nm; m++)
            if (en_shares_base(&e->ms[m]) && !en_base_fixed(e, &e->sp[e->ms[m].space])) add_dep(pl, jb, s->xend[t * nm + m]);
        s->prev_base = s->base[t] = jb;
        s->base_valid = t + 1;
    }
}

/* Task t's solves (ASM, SOLVE, PRED, ACC, LMIN per dirty ridge method) and its REPORT, which also
 * waits for every job from `first` on (this segment's). */
static void plan_solves(en_plan *pl, plan_state *s, int t, int first)
{
    en_engine *e = pl->e;
    int nm = e->nm;
    for (int m = 0; m < nm; m++) {
        mstate *ms = &e->ms[m];
        if (!ms->dirty || !en_is_ridge(ms)) continue;
        int ja0 = add_job(pl, J_ASM, m, t);
        add_dep(pl, ja0, s->base[t] >= 0 ? s->base[t] : s->prev_base);
        add_dep(pl, ja0, s->xend[t * nm + m]);
        add_dep(pl, ja0, s->prev_solve[m]);
        for (int u = 0; u < 4; u++) add_dep(pl, ja0, s->prev_use[m][u]);
        int js = add_job(pl, J_SOLVE, m, t);
        add_dep(pl, js, ja0);
        int p0 = add_job(pl, J_PRED, m, t), p1 = add_job(pl, J_PRED1, m, t);
        add_dep(pl, p0, js); add_dep(pl, p1, js);
        int ja = add_job(pl, J_ACC, m, t);
        add_dep(pl, ja, p0); add_dep(pl, ja, p1);
        int jl = add_job(pl, J_LMIN, m, t);
        add_dep(pl, jl, js);
        s->prev_solve[m] = js;
        s->prev_asm[m] = ja0;
        s->prev_use[m][0] = p0; s->prev_use[m][1] = p1; s->prev_use[m][2] = ja; s->prev_use[m][3] = jl;
    }
    int jr = add_job(pl, J_REPORT, -1, t);
    pl->job[jr].after_lo = first;
    add_dep(pl, jr, s->prev_report);
    s->prev_report = jr;
}

/* Jobs of the tasks order[0..no-1] (each dirty method), with the dependencies above, one segment
 * (a position in the plan) per task. With `ahead` ≥ 0 (order is 0..T-1; every dirty method a ridge
 * learner, every base Gram cached, every task kept) the task the user looks at comes first: the
 * rows of tasks 0..ahead (each needs the one before), then task ahead's solves and report, then
 * the solves of tasks 0..ahead-1 (their rows and Grams are kept in their own slots), then the
 * tasks after it. Its numbers do not depend on the order: each task's solve reads only its own
 * slots (and the dual's factor, built through the task boundaries in order: en_solve_dual).
 * GS_OK or GS_ENOMEM. */
static int plan_tasks(en_plan *pl, const int *order, int no, int ahead)
{
    en_engine *e = pl->e;
    int nm = e->nm, T = e->p->T;
    plan_state s;
    s.prev_base = s.prev_report = -1;
    for (int m = 0; m < nm; m++) {
        s.prev_solve[m] = s.prev_asm[m] = s.prev_xend[m] = s.prev_custom[m] = -1;
        for (int k = 0; k < 4; k++) s.prev_use[m][k] = -1;
        s.extra_valid[m] = e->ms[m].extra_valid;
    }
    s.base_valid = e->base_valid;
    s.ahead = ahead;
    s.xend = gs_malloc((size_t)T * (size_t)(nm + 1), sizeof(int), "engine jobs");
    if (!s.xend) return GS_ENOMEM;
    s.base = s.xend + (size_t)T * nm;
    for (int k = 0; k < T * (nm + 1); k++) s.xend[k] = -1;
    pl->npos = 0;
    if (ahead < 0) {
        for (int k = 0; k < no; k++, pl->npos++) {
            int first = pl->nj;
            plan_rows(pl, &s, order[k]);
            plan_solves(pl, &s, order[k], first);
        }
    } else {
        for (int t = 0; t < ahead; t++, pl->npos++) plan_rows(pl, &s, t);
        int first = pl->nj;
        plan_rows(pl, &s, ahead);
        plan_solves(pl, &s, ahead, first);
        pl->npos++;
        for (int t = 0; t < ahead; t++, pl->npos++) plan_solves(pl, &s, t, pl->nj);
        for (int t = ahead + 1; t < T; t++, pl->npos++) {
            first = pl->nj;
            plan_rows(pl, &s, t);
            plan_solves(pl, &s, t, first);
        }
    }
    free(s.xend);
    return GS_OK;
}

/* Run the tasks order[0..no-1] with e->workers threads. Returns GS_OK, GS_ECANCEL, or the first
 * failing job's status (in plan order) with its message on the calling thread. */
static int run_tasks(en_engine *e, const op_params *q, const int *order, int no, int ahead, const volatile int *cancel,
                     en_progress_fn progress, void *user)
{
    en_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.e = e; pl.q = q; pl.cancel = cancel; pl.progress = progress; pl.user = user;
    pl.stop_pos = INT_MAX;
    int done = 0;
    pl.done_count = &done;
    pl.total = e->p->T * e->nm;
    pl.job = gs_calloc((size_t)no * JOBS_PER_TASK, sizeof(en_job), "engine jobs");
    if (!pl.job) return GS_ENOMEM;
    if (plan_tasks(&pl, order, no, ahead)) { free(pl.job); return GS_ENOMEM; }
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.cv, NULL);
    en_worker caller = {&pl, 1}, helper = {&pl, 0};
    /* OpenBLAS at one thread for every schedule: a product split between BLAS threads (sgemm,
     * ssymv) may round differently, so a sequential plan runs at one BLAS thread too */
    int nb = gs_blas_serial_begin();
    if (e->workers <= 1) {
        plan_worker(&caller);
    } else {
        pthread_t th;
        int started = pthread_create(&th, NULL, plan_worker, &helper) == 0;
        plan_worker(&caller);
        if (started) pthread_join(th, NULL);
    }
    gs_blas_serial_end(nb);
    pthread_cond_destroy(&pl.cv);
    pthread_mutex_destroy(&pl.mu);
    int rc = GS_OK;
    for (int k = 0; k < pl.nj && !rc; k++)
        if (pl.job[k].state == JS_DONE && pl.job[k].rc) rc = gs_error(pl.job[k].rc, "%s", pl.job[k].err);
    if (!rc && pl.cancelled) rc = GS_ECANCEL;
    free(pl.job);
    return rc;
}

static int deps_changed(unsigned deps, const op_params *a, const op_params *b)
{
    if ((deps & EN_DEP_ALPHA) && a->alpha_base != b->alpha_base) return 1;
    if ((deps & EN_DEP_XI) && a->xi != b->xi) return 1;
    if ((deps & EN_DEP_PAIRS) && a->pairs != b->pairs) return 1;
    if ((deps & EN_DEP_MAXAUG) && a->max_aug != b->max_aug) return 1;
    if ((deps & EN_DEP_AUGMENT) && a->augment != b->augment) return 1;
    if ((deps & EN_DEP_GAUSS_A) && a->gauss_a != b->gauss_a) return 1;
    if ((deps & EN_DEP_GAUSS_B) && a->gauss_b != b->gauss_b) return 1;
    if ((deps & EN_DEP_SLDA) && a->slda_eps != b->slda_eps) return 1;
    if ((deps & EN_DEP_KLDA) && (a->klda_dim != b->klda_dim || a->klda_gamma != b->klda_gamma || a->klda_reg != b->klda_reg))
        return 1;
    if ((deps & EN_DEP_FECAM) && (a->fecam_alpha != b->fecam_alpha || a->fecam_tukey != b->fecam_tukey)) return 1;
    if ((deps & EN_DEP_BETA) && a->beta != b->beta) return 1;
    if ((deps & EN_DEP_TAU) && a->tau != b->tau) return 1;
    return 0;
}

static unsigned method_deps(const mstate *ms)
{
    return ms->L->deps | (ms->aug_def ? ms->aug_def->deps : 0);
}

/* τ reaches a method's results through a ridge solve or a statistic that names it (EN_DEP_TAU),
 * RanPAC's λ through its solve (EN_DEP_LAMBDA): a change of either recomputes only the methods
 * that use it; the others keep their results, bit for bit. */
static int solve_params_changed(const mstate *ms, const op_params *a, const op_params *b)
{
    unsigned deps = method_deps(ms);
    int tau = en_is_ridge(ms) || (deps & EN_DEP_TAU);
    return (tau && a->tau != b->tau) || ((deps & EN_DEP_LAMBDA) && a->ranpac_lambda != b->ranpac_lambda);
}

/* The class weights of a learner with class_weight (final once the stream is built). */
static void class_weights(mstate *ms, int C)
{
    for (int c = 0; ms->cw && c < C; c++) ms->cw[c] = ms->L->class_weight(&ms->lctx, c);
}

int en_update(en_engine *e, const op_params *q, int first_task, const volatile int *cancel,
              en_progress_fn progress, void *user)
{
    const en_problem *p = e->p;
    int T = p->T;
    if (e->have_cur && q->seed != e->cur.seed)
        return gs_error(GS_EINPUT, "the seed changed: build a new problem (the stream depends on it)");
    gs_clear_error();
    /* The engine keeps its own copy of the parameters (e->cur): the learners, the augmenters and
     * every later job (en_ensure_spectrum, en_prepare_tau, en_solve_w, ...) read it, never the
     * caller's block, which may not outlive this call (the TUI's tuning passes a local). */
    op_params prev = e->cur;
    int first_time = !e->have_cur;
    e->cur = *q;
    q = &e->cur;
    /* What is invalid? */
    int any = 0;
    for (int m = 0; m < e->nm; m++) {
        mstate *ms = &e->ms[m];
        ms->lctx.params = ms->actx.params = &e->cur;
        unsigned deps = method_deps(ms);
        double w = en_method_weight(ms, q);
        /* a stats learner's statistics hold the weighted rows: a new weight refits it */
        int extra_dirty = first_time || !e->keep || deps_changed(deps, &ms->xparams, q) ||
                          (!en_is_ridge(ms) && w != ms->weight);
        if (extra_dirty) { ms->extra_valid = 0; ms->fit_valid = 0; class_weights(ms, p->C); }
        ms->lctx.keep_draws = e->cfg.collect_aug;
        if (extra_dirty || w != ms->weight || !e->keep)
            for (int t = 0; t < T; t++) ms->stats_valid[t] = 0;
        ms->weight = w;
        ms->dirty = first_time || extra_dirty || solve_params_changed(ms, &prev, q) || w != en_method_weight(ms, &prev) ||
                    deps_changed(deps, &prev, q) || !e->keep;
        for (int t = 0; t < T; t++) if (e->res.m[m].snaps[t].state != EN_DONE) ms->dirty = 1;
        if (ms->dirty && ms->L->last_model_only) ms->extra_valid = ms->fit_valid = 0; /* refit from task 0 */
        if (ms->dirty) {
            any = 1;
            for (int t = 0; t < T; t++) e->res.m[m].snaps[t].state = ms->stage[t].state = EN_PENDING;
            e->res.m[m].a_last = e->res.m[m].a_avg = e->res.m[m].val_a_last = e->res.m[m].val_a_avg = NAN;
        }
        ms->xparams = *q;
    }
    if (!e->keep) e->base_valid = 0;
    e->have_cur = 1;
    e->res.params = *q;
    if (!any) return GS_OK;

    /* Order: when every Gram is cached, the user's task first; otherwise 1..T. */
    int cached = e->base_valid == T;
    for (int m = 0; m < e->nm; m++)
        if (e->ms[m].dirty && (((e->ms[m].aug_def || e->ms[m].cw) && e->ms[m].extra_valid < T) ||
                               (!en_is_ridge(&e->ms[m]) && e->ms[m].fit_valid < T)))
            cached = 0;
    int *order = gs_malloc((size_t)T, sizeof(int), "engine"), no = 0;
    if (!order) return GS_ENOMEM;
    int ft = first_task >= 1 && first_task <= T ? first_task - 1 : 0;
    e->focus_task = ft;
    if (cached) order[no++] = ft;
    for (int t = 0; t < T; t++) if (!cached || t != ft) order[no++] = t;
    /* New rows (α_base, ξ, ...) with every Gram kept: the rows of every task up to the user's are
     * needed before its solve, but not the earlier tasks' solves: those come after it */
    int ahead = !cached && e->keep && e->base_valid == T && ft > 0 ? ft : -1;
    for (int m = 0; m < e->nm; m++)
        if (e->ms[m].dirty && !en_is_ridge(&e->ms[m])) ahead = -1;
    int rc = run_tasks(e, q, order, no, ahead, cancel, progress, user);
    free(order);
    if (rc) return rc;
    for (int m = 0; m < e->nm; m++) {
        finish_method(&e->res.m[m], T);
        e->ms[m].dirty = 0;
    }
    return GS_OK;
}

int en_spectrum_default(const en_engine *e) { return e->spectrum_default; }

/* Large D: the shown task's G_t in tridiagonal form for fast τ changes, per ridge method (ridge_tri.c
 * reduces what it is given; the spectrum as soon as T is there, Q, if stopped, formed on the next call). */
int en_prepare_tau(en_engine *e, int task, const volatile int *cancel)
{
    int t = task - 1;
    if (t < 0 || t >= e->p->T) return gs_error(GS_EINPUT, "task %d out of range", task);
    if (!en_tau_factor_wanted(e)) return GS_OK;
    for (int m = 0; m < e->nm; m++) {
        mstate *ms = &e->ms[m];
        en_snap *sn = &e->res.m[m].snaps[t];
        if (!en_is_ridge(ms) || sn->state != EN_DONE || !ms->stats_valid[t] || en_dual_mode(e, ms, t)) continue;
        if (en_tri_usable(e, ms, t) && ms->eigG[t]) continue;
        gm_mat *G;
        int spectrum = 0, rc = en_tri_begin(ms, t, &G);
        if (!rc && G) en_assemble(e, ms, t, &e->cur, G); /* a new task: its G_t to reduce */
        if (!rc) rc = en_tri_factor(ms, cancel, &spectrum);
        /* the spectrum as soon as T is there (Q, if stopped, is formed on the next call) */
        if (spectrum && !ms->eigG[t]) {
            int rs = en_tri_spectrum(ms, t);
            if (!rs) en_fill_spectral(e, ms, sn, t, en_tau_for(e, ms, t, e->cur.tau));
            if (!rc) rc = rs;
        }
        if (rc) return rc;
    }
    return GS_OK;
}

_Static_assert(OP_MAX_METHODS <= 32, "en_method_bit: a method per bit of an unsigned");
unsigned en_method_bit(int m) { return m >= 0 && m < 32 ? 1u << m : 0; }

int en_ensure_spectrum(en_engine *e, int task, unsigned methods, const volatile int *cancel)
{
    int t = task - 1;
    if (t < 0 || t >= e->p->T) return gs_error(GS_EINPUT, "task %d out of range", task);
    if (!e->keep && t != e->p->T - 1) return GS_OK;
    for (int m = 0; m < e->nm; m++) {
        if (!(methods & en_method_bit(m))) continue; /* not shown: not asked for */
        mstate *ms = &e->ms[m];
        en_snap *sn = &e->res.m[m].snaps[t];
        if (!en_is_ridge(ms) && sn->state == EN_DONE) {
            int rc = own_spectrum(ms, sn, t); /* the learner's own, for the task it holds */
            if (rc) return rc;
            continue;
        }
        if (!en_is_ridge(ms) || sn->state != EN_DONE || ms->eigG[t]) continue;
        if (cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED)) return GS_ECANCEL; /* set by another thread */
        en_assemble(e, ms, t, &e->cur, &ms->A);
        int rc = en_ensure_stats(e, ms, t, 1);
        if (rc) return rc;
        en_fill_spectral(e, ms, sn, t, en_tau_for(e, ms, t, e->cur.tau));
    }
    return GS_OK;
}

/* ---- access for --save-state and the checks ------------------------------------------ */

static int ridge_method(en_engine *e, int m, int task, int *t)
{
    if (m < 0 || m >= e->nm) return gs_error(GS_EINPUT, "no method %d", m);
    if (!en_is_ridge(&e->ms[m])) return gs_error(GS_EINPUT, "%s has no Gram matrix", e->ms[m].name);
    *t = task - 1;
    if (*t < 0 || *t >= e->p->T) return gs_error(GS_EINPUT, "task %d out of range", task);
    if (!e->keep && *t != e->p->T - 1) return gs_error(GS_EINPUT, "task %d is not kept (only the last task)", task);
    if (!e->have_cur || e->base_valid <= *t) return gs_error(GS_EINPUT, "task %d is not computed yet", task);
    return GS_OK;
}

int en_gram(en_engine *e, int m, int task, const gm_mat **G, const gm_mat **Q)
{
    int t, rc = ridge_method(e, m, task, &t);
    if (rc) return rc;
    mstate *ms = &e->ms[m];
    long D = ms->p->D;
    int C = e->p->C;
    if (e->G.v && e->G.rows != D) { gm_free(&e->G); gm_free(&e->Qext); }
    if (!e->G.v && (rc = gm_alloc(&e->G, D, D, "G"))) return rc;
    if (!e->Qext.v && (rc = gm_alloc(&e->Qext, D, C, "Q"))) return rc;
    en_assemble(e, ms, t, &e->cur, &e->G);
    for (int c = 0; c < C; c++)
        for (long i = 0; i < D; i++) e->Qext.v[i * C + c] = ms->Qw.v[(size_t)c * D + i];
    *G = &e->G;
    *Q = &e->Qext;
    return GS_OK;
}

int en_method_draw(en_engine *e, int m, int k, struct en_draw_s *out)
{
    if (m < 0 || m >= e->nm || !e->ms[m].L->draw) return 0;
    return e->ms[m].L->draw(&e->ms[m].lctx, k, out);
}

int en_method_space(const en_engine *e, int m, const en_problem **pm)
{
    if (m < 0 || m >= e->nm) return gs_error(GS_EINPUT, "no method %d", m);
    *pm = e->ms[m].p;
    return GS_OK;
}

double en_method_tau(en_engine *e, int m, int task, double tau)
{
    if (m < 0 || m >= e->nm || !en_is_ridge(&e->ms[m]) || task < 1 || task > e->p->T) return NAN;
    mstate *ms = &e->ms[m];
    en_mctx ctx = ms->lctx;
    ctx.params = &e->cur;
    return en_learner_tau(ms->L, &ctx, task - 1, tau);
}

int en_solve_w(en_engine *e, int m, int task, gm_mat *W)
{
    int t, rc = ridge_method(e, m, task, &t);
    if (rc) return rc;
    mstate *ms = &e->ms[m];
    en_assemble(e, ms, t, &e->cur, &ms->A);
    char why[160];
    if (en_solve_seen(e, ms, t, en_tau_for(e, ms, t, e->cur.tau), why, sizeof why))
        return gs_error(GS_ERUN, "%s, task %d: %s", ms->name, task, why);
    long D = ms->p->D;
    int C = e->p->C, Cs = e->p->st->task_class_start[t + 1];
    if ((rc = gm_alloc(W, D, C, "W"))) return rc;
    for (int k = 0; k < Cs; k++) {
        int c = e->p->st->class_order[k];
        for (long i = 0; i < D; i++) W->v[i * C + c] = ms->Wt.v[(size_t)k * D + i];
    }
    return GS_OK;
}

int en_predictions(en_engine *e, int m, int task, int **pred, long *n_out)
{
    int t = task - 1;
    if (m < 0 || m >= e->nm || t < 0 || t >= e->p->T) return gs_error(GS_EINPUT, "bad method or task");
    mstate *ms = &e->ms[m];
    long n = e->p->test_task_end[t];
    int rc;
    if (!en_is_ridge(ms)) {
        if (ms->fit_valid != t + 1 && !(t == e->p->T - 1 && ms->fit_valid == e->p->T))
            return gs_error(GS_EINPUT, "%s: predictions are only available for the last fitted task", ms->name);
        if ((rc = ms->L->predict(&ms->lctx, t, ms->p->test_h.v, n, ms->pred))) return rc;
    } else {
        if ((rc = ridge_method(e, m, task, &t))) return rc;
        en_assemble(e, ms, t, &e->cur, &ms->A);
        char why[160];
        if (en_solve_seen(e, ms, t, en_tau_for(e, ms, t, e->cur.tau), why, sizeof why))
            return gs_error(GS_ERUN, "%s, task %d: %s", ms->name, task, why);
        if ((rc = en_predict_rows(e, ms, t, n, 0, n))) return rc;
    }
    *pred = gs_malloc((size_t)(n ? n : 1), sizeof(int), "predictions");
    if (!*pred) return GS_ENOMEM;
    memcpy(*pred, ms->pred, (size_t)n * sizeof(int));
    *n_out = n;
    return GS_OK;
}

int en_aug_rows(en_engine *e, int m, const gm_mat **rows, const int **labels, const double **weights)
{
    if (m < 0 || m >= e->nm || !e->ms[m].aug_def) return gs_error(GS_EINPUT, "method has no augmented rows");
    if (!e->cfg.collect_aug) return gs_error(GS_EINPUT, "augmented rows were not collected");
    *rows = &e->ms[m].collect.X;
    *labels = e->ms[m].collect.y;
    if (weights) *weights = e->ms[m].collect.w;
    return GS_OK;
}
