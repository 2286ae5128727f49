/* engine/engine.c — the engine's life and its update: creation (methods, feature spaces, caches,
 * the results skeleton), en_update (what a parameter change invalidates, then the plan of jobs in
 * plan.c), spectra and the τ factor on request, and the access for --save-state and the checks
 * (see gs_engine.h; the state and the other files of the engine: engine_int.h).
 *
 * Caches (interactive mode, keep_task_grams): B_t (real rows), E_t per augmenting method, the
 * τ-independent statistics of G_t (‖G‖_F², tr G, Lanczos extremes, exact eigenvalues when
 * computed). A τ change re-solves from these; an α_base/ξ change rebuilds only E of the methods
 * that depend on them; a β change only recombines G = B + βE. When every task's B_t and E_t would
 * take more than en_gram_budget() (GACL and GSR at D = 5000: 2 GB), two of each are kept instead
 * (e->roll): the chain's current task in slot 0, computed in place as a batch run does, and the
 * task the user looks at copied in slot 1; that task is solved first, the others' rows are
 * recomputed after it (plan.c en_run_rolling), and a task asked for later (en_gram, a spectrum,
 * the τ factor) is recomputed from the rows then (en_resident).
 */
#include "engine_int.h"
#include "gs_common.h"

#include <math.h>
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

/* Method m's state (its A unless borrowed: a_group, en_engine.share_a). */
static void mstate_free(mstate *ms, int m, int nslots, int T)
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
    if (ms->stage) for (int t = 0; t < T; t++) en_snap_free(&ms->stage[t]);
    free(ms->stage);
    en_rowbuf_free(&ms->collect);
    en_rowbuf_free(&ms->aug);
    if (ms->a_group == m) gm_free(&ms->A); /* else borrowed */
    gm_free(&ms->Qw); gm_free(&ms->Wt); gm_free(&ms->Wf); gm_free(&ms->A64);
    free(ms->pred); free(ms->vpred);
    free(ms->ybuf);
    en_dual_free(ms, T);
    en_tri_free(ms);
}

void en_destroy(en_engine *e)
{
    if (!e) return;
    int T = e->p->T;
    if (e->ms) for (int m = 0; m < e->nm; m++) mstate_free(&e->ms[m], m, e->nslots, T);
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
        int rc = gr_alloc(&(*M)[s], D, single, "Gram matrices");
        if (!rc) rc = gm_alloc(&(*QM)[s], C, D, "Gram matrices");
        if (rc) return rc;
    }
    return GS_OK;
}

/* A method's state: its learner and augmenter, per-task counters and caches, work matrices. */
static int mstate_init(en_engine *e, mstate *ms, const char *name, const en_method *def)
{
    const en_problem *p = e->p;
    int T = p->T, C = p->C, rc;
    long D, nt = p->test_task_end[T - 1];
    ms->L = def->L;
    ms->aug_def = def->A;
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
    ms->a_group = (int)(ms - e->ms);
    for (int k = 0; e->share_a && k < ms->a_group; k++)
        if (en_is_ridge(&e->ms[k]) && e->ms[k].space == ms->space && e->ms[k].a_group == k) {
            ms->A = e->ms[k].A; /* borrowed: freed by its owner */
            ms->a_group = k;
            break;
        }
    if ((ms->a_group == (int)(ms - e->ms) && (rc = gr_alloc(&ms->A, D, p->single, "work matrix"))) ||
        (rc = gm_alloc(&ms->Qw, C, D, "work matrix")) ||
        (rc = gm_alloc(&ms->Wt, C, D, "work matrix")) || (p->single && (rc = gm_alloc_f(&ms->Wf, C, D, "work matrix"))))
        return rc;
    if (ms->L->class_weight && !(ms->cw = gs_malloc((size_t)C, sizeof(double), "engine"))) return GS_ENOMEM;
    return GS_OK;
}

/* A method's per-task matrices (E with an augmenter, OB with class weights): e->nslots of each. */
static int mstate_slots(en_engine *e, mstate *ms)
{
    long D = ms->p->D;
    int C = e->p->C, rc;
    if (!en_is_ridge(ms)) return GS_OK;
    if (ms->aug_def && (rc = alloc_slots(&ms->E, &ms->QE, e->nslots, D, C, ms->p->single))) return rc;
    if (ms->L->class_weight && (rc = alloc_slots(&ms->OB, &ms->OQB, e->nslots, D, C, ms->p->single))) return rc;
    return GS_OK;
}

int en_task_slots(const en_engine *e) { return e->nslots; }

double en_gram_budget(void)
{
    const char *v = getenv("GS_GRAM_BUDGET_MB");
    if (v && *v) return atof(v) * 1024.0 * 1024.0;
    return EN_GRAM_BUDGET;
}

int en_gram_rolls(int all_ridge, int T, double slot_bytes)
{
    return all_ridge && T > 2 && (double)T * slot_bytes > en_gram_budget();
}

/* The bytes of one task's per-task matrices (D×D in the space's precision: each space's shared
 * base, each method's E and OB), to choose between T slots and two (en_gram_rolls). */
static double task_slot_bytes(const en_engine *e, int *all_ridge)
{
    double b = 0;
    int based[EN_MAX_SPACES] = {0};
    *all_ridge = 1;
    for (int m = 0; m < e->nm; m++) {
        const mstate *ms = &e->ms[m];
        double D = (double)ms->p->D, g = (ms->p->single ? 4.0 : 8.0) * D * D;
        if (!en_is_ridge(ms)) { *all_ridge = 0; continue; }
        if (en_shares_base(ms) && !based[ms->space]) { based[ms->space] = 1; b += g; }
        if (ms->aug_def) b += g;
        if (ms->L->class_weight) b += g;
    }
    return b;
}


int en_resident(en_engine *e, int t, int pin, const volatile int *cancel)
{
    if (!e->roll || !e->have_cur) return GS_OK;
    if (t == e->pin_task && e->pin_valid) return GS_OK;
    if (t != e->roll_task) {
        int from = e->roll_task >= 0 && e->roll_task < t ? e->roll_task + 1 : 0;
        e->roll_task = -1;
        int rc = en_run_rows(e, from, t, cancel);
        if (rc) return rc;
        e->roll_task = t;
    }
    if (pin) {
        e->pin_valid = 0;
        en_pin_copy(e, t, 0, NULL);
        e->pin_valid = 1;
    }
    return GS_OK;
}

int en_create(en_engine **out, const en_problem *p, const en_config *cfg)
{
    *out = NULL;
    if (cfg->n_methods < 1 || cfg->n_methods > OP_MAX_METHODS)
        return gs_error(GS_EINPUT, "--methods: give between 1 and %d methods", OP_MAX_METHODS);
    for (int m = 0; m < cfg->n_methods; m++) /* resolved above the engine (gs_mtable.h: mt_resolve) */
        if (!cfg->method[m].L)
            return gs_error(GS_EINPUT, "method '%s' reached the engine unresolved (mt_resolve)", cfg->methods[m]);
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
    int rc = GS_ENOMEM;
    e->roll_task = e->pin_task = e->pin_base = -1;
    e->ms = gs_calloc((size_t)e->nm, sizeof(mstate), "engine");
    if (!e->ms) goto fail;
    e->workers = engine_workers(cfg);
    e->spectrum_default = cfg->spectrum != OP_SPECTRUM_AUTO || p->D <= EN_SPECTRUM_AUTO_MAX;
    e->share_a = !e->keep && cfg->accuracies_only;
    for (int m = 0; m < e->nm; m++)
        if ((rc = mstate_init(e, &e->ms[m], e->names[m], &cfg->method[m]))) goto fail;
    /* T slots of per-task matrices, or two when they would take more than the budget (roll) */
    int all_ridge;
    double slot_bytes = task_slot_bytes(e, &all_ridge);
    e->roll = e->keep && en_gram_rolls(all_ridge, T, slot_bytes);
    e->nslots = e->roll ? 2 : e->keep ? T : 1;
    for (int m = 0; m < e->nm; m++) {
        mstate *ms = &e->ms[m];
        if ((rc = mstate_slots(e, ms))) goto fail;
        en_space *sp = &e->sp[ms->space];
        if (en_shares_base(ms) && !sp->B && (rc = alloc_slots(&sp->B, &sp->QB, e->nslots, sp->pm.D, C, sp->pm.single)))
            goto fail;
    }
    rc = GS_ENOMEM;
    /* results skeleton */
    en_results *r = &e->res;
    r->T = T; r->C = C; r->D = D; r->n_methods = e->nm;
    r->spectra_on_request = !e->spectrum_default;
    r->expand = p->expand;
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

/* A change of a parameter whose row (gs_params.h) names one of deps. */
static int deps_changed(unsigned deps, const op_params *a, const op_params *b)
{
    return (pa_changed_deps(a, b) & deps) != 0;
}

/* What invalidates a method's rows and statistics (a τ or β change does not: en_method_deps). */
static unsigned method_deps(const mstate *ms)
{
    return ms->L->deps | (ms->aug_def ? ms->aug_def->deps : 0);
}

unsigned en_method_deps(const en_method *m)
{
    unsigned deps = m->L->deps | (m->A ? m->A->deps : 0);
    if (m->L->family == EN_RIDGE) deps |= EN_DEP_TAU;
    if (m->A && m->A->weight == en_weight_beta) deps |= EN_DEP_BETA;
    return deps;
}

/* τ reaches a method's results through a ridge solve or a statistic that names it (EN_DEP_TAU),
 * RanPAC's λ through its solve (EN_DEP_LAMBDA): a change of either recomputes only the methods
 * that use it; the others keep their results, bit for bit. */
static int solve_params_changed(const mstate *ms, const op_params *a, const op_params *b)
{
    en_method m = {ms->L, ms->aug_def};
    unsigned deps = en_method_deps(&m);
    return ((deps & EN_DEP_TAU) && a->tau != b->tau) || ((deps & EN_DEP_LAMBDA) && a->ranpac_lambda != b->ranpac_lambda);
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
        /* a stats learner's statistics hold the weighted rows: a new weight refits it, from the rows
         * it keeps when it can (refit: the augmenter's rows are not made again), else from new rows */
        int rows_same = first_time || !e->keep || deps_changed(deps, &ms->xparams, q) ? 0 : 1;
        int reweight = rows_same && !en_is_ridge(ms) && w != ms->weight && ms->L->refit && ms->aug_def &&
                       ms->extra_valid == T && ms->rows_fitted == T;
        int extra_dirty = !rows_same || (!en_is_ridge(ms) && w != ms->weight && !reweight);
        if (extra_dirty) { ms->extra_valid = 0; ms->fit_valid = 0; ms->refit = 0; class_weights(ms, p->C); }
        if (reweight) { ms->fit_valid = 0; ms->refit = 1; }
        ms->rows_new = extra_dirty;
        ms->lctx.keep_draws = e->cfg.collect_aug;
        if (extra_dirty || w != ms->weight || !e->keep)
            for (int t = 0; t < T; t++) ms->stats_valid[t] = 0;
        ms->weight = w;
        ms->dirty = first_time || extra_dirty || solve_params_changed(ms, &prev, q) || w != en_method_weight(ms, &prev) ||
                    deps_changed(deps, &prev, q) || !e->keep;
        for (int t = 0; t < T; t++) if (e->res.m[m].snaps[t].state != EN_DONE) ms->dirty = 1;
        if (ms->dirty && ms->L->last_model_only) { /* refit from task 0 */
            ms->extra_valid = ms->fit_valid = 0;
            ms->rows_new = 1;
        }
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
    int ft0 = first_task >= 1 && first_task <= T ? first_task - 1 : 0;
    if (e->roll) {
        /* the user's task from its pinned copy when its rows are unchanged (the copy, or slot 0,
         * holds them); then every other task, its rows recomputed in place */
        int rows_valid = e->base_valid == T;
        for (int m = 0; m < e->nm; m++)
            if (en_has_slots(&e->ms[m]) && e->ms[m].extra_valid < T) rows_valid = 0;
        if (rows_valid && !(e->pin_task == ft0 && e->pin_valid) && e->roll_task == ft0) {
            en_pin_copy(e, ft0, 0, NULL);
            e->pin_valid = 1;
        }
        int pin_ok = rows_valid && e->pin_task == ft0 && e->pin_valid;
        e->focus_task = ft0;
        int rc = en_run_rolling(e, q, pin_ok, cancel, progress, user);
        for (int m = 0; m < e->nm; m++) e->ms[m].rows_new = 0;
        if (rc) return rc;
        for (int m = 0; m < e->nm; m++) {
            en_finish_method(&e->res.m[m], T);
            e->ms[m].dirty = 0;
        }
        return GS_OK;
    }

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
    int rc = en_run_tasks(e, q, order, no, ahead, cancel, progress, user);
    for (int m = 0; m < e->nm; m++) e->ms[m].rows_new = 0;
    free(order);
    if (rc) return rc;
    for (int m = 0; m < e->nm; m++) {
        en_finish_method(&e->res.m[m], T);
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
        /* the task the user looks at: its matrices pinned (recomputed from the rows if need be)
         * before a reduction starts from them */
        int spectrum = 0, rc = en_resident(e, t, 1, cancel);
        if (rc) return rc;
        rc = en_tri_begin(ms, t, &G);
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
            int rc = en_own_spectrum(ms, sn, t); /* the learner's own, for the task it holds */
            if (rc) return rc;
            continue;
        }
        if (!en_is_ridge(ms) || sn->state != EN_DONE || ms->eigG[t]) continue;
        if (cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED)) return GS_ECANCEL; /* set by another thread */
        int rc = en_resident(e, t, 0, cancel);
        if (rc) return rc;
        en_assemble(e, ms, t, &e->cur, &ms->A);
        rc = en_ensure_stats(e, ms, t, 1);
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
    return en_resident(e, *t, 0, NULL);
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
