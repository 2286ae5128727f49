/* engine/plan.c — an update's work as a plan of jobs and the pool of two workers that runs it: per
 * task the base Gram, each method's synthetic rows (and where they go: E, or the dual's kept
 * rows), the ridge methods' assembly, solve, predictions and accuracies, the stats learners' fit,
 * and the report that swaps the task's snapshots into the results (en_run_tasks; the order and
 * the dependencies below). The jobs' work is in ridge.c, ridge_dual.c, emit.c and stats.c; en_update
 * (engine.c) decides what is dirty and calls this. State: engine_int.h. */
#include "engine_int.h"
#include "gs_common.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 *   EXTRA(t, m)    after XEND(t-1, m) and ASM(t-1, m) (the emitter, Y and E's slot); the plan
 *                  decides where the rows go: kept for the dual (en_dual_keeps, the buffer
 *                  from ridge_dual.c handed to the emitter) or folded into E (job_extra);
 *   EXP0/1(t, m)   after EXTRA(t, m): its staged rows mapped, a fixed half each;
 *   PAIRS0/1(t, m) after both EXP(t, m): E's columns (or the dual's panel), a fixed half each;
 *   XEND(t, m)     after both PAIRS(t, m): E symmetrized, and at the switch from the dual to
 *                  the primal E's and OB's lower triangles (en_dual_task_end);
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
    int again;    /* EXTRA: rows computed before with the same parameters (bounded memory) */
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
    int pin;                      /* bounded memory: the task whose BASE and XEND copy slot 0 into
                                   * the pinned slot (-1: none) */
    int replay;                   /* bounded memory: every method with per-task matrices has its
                                   * rows planned (the chain is recomputed in place) */
    en_progress_fn progress;
    void *user;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} en_plan;

/* EXTRA(t, m): the augmenter's rows of task t. The plan decides where they go: kept for the dual
 * while the method is in the dual up to task t-1 (en_dual_keeps; the buffer from
 * en_dual_rows_open, then its kernel panel or the switch prepared by en_dual_rows_close), else
 * folded into E by the emitter. */
static int job_extra(en_engine *e, mstate *ms, int t, int again)
{
    en_rowbuf *keep = NULL;
    /* rows the dual keeps are still there when computed again: at most E rebuilt from them */
    if (again && en_dual_keeps(e, ms, t)) return en_dual_rows_again(e, ms, t);
    if (en_dual_keeps(e, ms, t) && !(keep = en_dual_rows_open(e, ms, t))) return GS_ENOMEM;
    ms->again = again;
    int rc = en_extra_rows(e, ms, t, keep);
    ms->again = 0;
    return !rc && keep ? en_dual_rows_close(e, ms, t) : rc;
}

/* The rolling store's pinned slot (the TUI's shown task; engine_int.h): every per-task matrix of
 * slot 0 copied into it for task t (base: the spaces' base Grams only; only: that method's alone). */
void en_pin_copy(en_engine *e, int t, int base, const mstate *only)
{
    if (!e->roll) return;
    e->pin_task = t;
    if (base || !only) {
        for (int k = 0; k < e->nsp; k++)
            if (e->sp[k].B) { gr_copy(&e->sp[k].B[1], &e->sp[k].B[0]); gr_copy(&e->sp[k].QB[1], &e->sp[k].QB[0]); }
        e->pin_base = t;
    }
    for (int m = 0; m < e->nm; m++) {
        mstate *ms = &e->ms[m];
        if (base || (only && only != ms)) continue;
        if (ms->E) { gr_copy(&ms->E[1], &ms->E[0]); gr_copy(&ms->QE[1], &ms->QE[0]); }
        if (ms->OB) { gr_copy(&ms->OB[1], &ms->OB[0]); gr_copy(&ms->OQB[1], &ms->OQB[0]); }
    }
}

static void report_task(en_plan *pl, const en_job *rj);

/* A lazy space's rows before task t's go back (en_space_release) when a job of task t starts and
 * every method of the space solved task t-1 in the primal without class weights: the jobs that
 * read earlier rows (the dual's kernel, the base from row 0 at the switch, the switch's own base
 * OB) are behind it, and every job of task t starts after BASE(t-1), which read task t-1's rows.
 * Stats learners never use a lazy space (their maps are the identity). */
static void release_rows(en_engine *e, int k, int t)
{
    en_space *sp = &e->sp[k];
    if (!sp->lazy || t < 1) return;
    for (int m = 0; m < e->nm; m++) {
        const mstate *ms = &e->ms[m];
        if (ms->space == k && (!en_is_ridge(ms) || ms->cw || en_dual_mode(e, ms, t - 1))) return;
    }
    en_space_release(sp, e->p->task_row_start[t]);
}

static int job_work(en_plan *pl, en_job *j);

/* A job, with the rows of a lazy space through its task mapped first (the earlier ones given
 * back when no job reads them again). */
static int run_job(en_plan *pl, en_job *j)
{
    en_engine *e = pl->e;
    int t = j->t;
    if (t >= 0 && t < e->p->T) {
        long b = e->p->task_row_start[t + 1];
        for (int k = 0; k < e->nsp; k++) {
            if (j->kind != J_BASE && !(j->m >= 0 && en_is_ridge(&e->ms[j->m]) && e->ms[j->m].space == k)) continue;
            release_rows(e, k, t);
            en_space_rows(&e->sp[k], b);
        }
    }
    return job_work(pl, j);
}

static int job_work(en_plan *pl, en_job *j)
{
    en_engine *e = pl->e;
    int t = j->t, rc = GS_OK;
    mstate *ms = j->m >= 0 ? &e->ms[j->m] : NULL;
    en_snap *sn = j->m >= 0 ? &e->ms[j->m].stage[t] : NULL;
    switch (j->kind) {
    case J_BASE:
        for (int k = 0; k < e->nsp; k++)
            if (e->sp[k].B) en_base_task(e, &e->sp[k], t);
        if (e->base_valid < t + 1) e->base_valid = t + 1; /* a recomputed chain: valid beyond */
        if (t == pl->pin) en_pin_copy(e, t, 1, NULL);
        break;
    case J_EXTRA: rc = job_extra(e, ms, t, j->again); break;
    case J_EXP0: case J_EXP1: rc = en_extra_expand(e, ms, t, j->kind == J_EXP1); break;
    case J_PAIRS0: case J_PAIRS1:
        en_pair_flush_part(&ms->em, j->kind == J_PAIRS1);
        rc = en_dual_pairs(e, ms, t, j->kind == J_PAIRS1);
        break;
    case J_XEND:
        en_extra_end(e, ms, t);
        /* rows kept for the dual of a task solved in the primal (the switch): E's lower triangle */
        if ((rc = en_dual_task_end(e, ms, t, en_dual_keeps(e, ms, t)))) break;
        if (ms->extra_valid < t + 1) ms->extra_valid = t + 1;
        if (ms->rows_new) ms->stats_valid[t] = 0; /* not for rows recomputed as they were */
        if (t == pl->pin) en_pin_copy(e, t, 0, ms);
        break;
    case J_ASM: en_assemble(e, ms, t, pl->q, &ms->A); break;
    case J_SOLVE: rc = en_job_solve(e, ms, sn, t, pl->q); break;
    case J_LMIN: rc = en_job_lmin(e, ms, sn, t, pl->q); break;
    case J_PRED: case J_PRED1: rc = en_job_pred(e, ms, t, j->kind == J_PRED1); break;
    case J_ACC:
        if (!ms->solve_failed) {
            en_fill_accuracy(e->p, sn, ms->pred, e->p->test_task_end[t]);
            rc = en_predict_val(e, ms, sn, t);
        }
        break;
    case J_CUSTOM: rc = en_job_custom(e, ms, sn, t); break;
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
    int prev_a[OP_MAX_METHODS][2]; /* per a_group: the last SOLVE and LMIN of a method using its A */
    int base_valid, extra_valid[OP_MAX_METHODS];
    int ahead;                    /* plan_tasks' ahead (-1: none) */
    int again;                    /* rows planned now were computed before (bounded memory) */
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
        if (!ms->dirty && !(pl->replay && en_has_slots(ms))) continue;
        if ((ms->aug_def || ms->cw) && s->extra_valid[m] <= t) {
            int jr = add_job(pl, J_EXTRA, m, t);
            pl->job[jr].again = s->again;
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
        if (!en_is_ridge(ms) && ms->dirty) {
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
        /* a shared A (en_engine.share_a): after the solve of the method that used it last */
        add_dep(pl, ja0, s->prev_a[ms->a_group][0]);
        add_dep(pl, ja0, s->prev_a[ms->a_group][1]);
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
        s->prev_a[ms->a_group][0] = js; s->prev_a[ms->a_group][1] = jl;
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
static int plan_begin(en_plan *pl, plan_state *s, int ahead)
{
    en_engine *e = pl->e;
    int nm = e->nm, T = e->p->T;
    s->prev_base = s->prev_report = -1;
    for (int m = 0; m < nm; m++) {
        s->prev_solve[m] = s->prev_asm[m] = s->prev_xend[m] = s->prev_custom[m] = -1;
        for (int k = 0; k < 4; k++) s->prev_use[m][k] = -1;
        s->prev_a[m][0] = s->prev_a[m][1] = -1;
        s->extra_valid[m] = e->ms[m].extra_valid;
    }
    s->base_valid = e->base_valid;
    s->ahead = ahead;
    s->again = 0;
    s->xend = gs_malloc((size_t)T * (size_t)(nm + 1), sizeof(int), "engine jobs");
    if (!s->xend) return GS_ENOMEM;
    s->base = s->xend + (size_t)T * nm;
    for (int k = 0; k < T * (nm + 1); k++) s->xend[k] = -1;
    pl->npos = 0;
    return GS_OK;
}

/* Bounded memory: the rows of every task from `from` on are recomputed in place (slot 0), the
 * base's and those of every method with per-task matrices; ahead = from - 1 makes the first
 * EXTRA wait for every solve planned before (a dual task's solve reads its panel, which EXTRA
 * replaces, and the kernel, which task 0's rows reset). */
static void plan_restart(en_plan *pl, plan_state *s, int from, int again)
{
    s->again = again;
    en_engine *e = pl->e;
    s->base_valid = from;
    for (int m = 0; m < e->nm; m++)
        if (en_has_slots(&e->ms[m])) s->extra_valid[m] = from;
    s->ahead = from - 1;
}

static int plan_tasks(en_plan *pl, const int *order, int no, int ahead)
{
    en_engine *e = pl->e;
    int T = e->p->T;
    plan_state s;
    if (plan_begin(pl, &s, ahead)) return GS_ENOMEM;
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
/* The plan's frame; its jobs room for `segments` task segments. */
static int plan_init(en_plan *pl, en_engine *e, const op_params *q, int segments, const volatile int *cancel,
                     en_progress_fn progress, void *user, int *done)
{
    memset(pl, 0, sizeof *pl);
    pl->e = e; pl->q = q; pl->cancel = cancel; pl->progress = progress; pl->user = user;
    pl->stop_pos = INT_MAX;
    pl->pin = -1;
    *done = 0;
    pl->done_count = done;
    pl->total = e->p->T * e->nm;
    pl->job = gs_calloc((size_t)segments * JOBS_PER_TASK, sizeof(en_job), "engine jobs");
    return pl->job ? GS_OK : GS_ENOMEM;
}

static int plan_run(en_plan *pl);

int en_run_tasks(en_engine *e, const op_params *q, const int *order, int no, int ahead, const volatile int *cancel,
                     en_progress_fn progress, void *user)
{
    en_plan pl;
    int done;
    if (plan_init(&pl, e, q, no, cancel, progress, user, &done)) return GS_ENOMEM;
    if (plan_tasks(&pl, order, no, ahead)) { free(pl.job); return GS_ENOMEM; }
    return plan_run(&pl);
}

/* Bounded memory (e->roll; see en_update): with the user's task ft pinned and its rows unchanged
 * (pin_ok), its solves first from the pinned slot, then every task's rows from task 0 in place
 * with the solves of the others; else the rows of tasks 0..ft (ft's copied into the pinned slot
 * by its jobs), ft's solves, the tasks after it, then the rows of tasks 0..ft-1 again with their
 * solves. Each task's numbers are those of a batch run: the same rows, added in the same order. */
int en_run_rolling(en_engine *e, const op_params *q, int pin_ok, const volatile int *cancel, en_progress_fn progress,
                   void *user)
{
    int T = e->p->T, ft = e->focus_task, done;
    en_plan pl;
    plan_state s;
    if (plan_init(&pl, e, q, 2 * T, cancel, progress, user, &done)) return GS_ENOMEM;
    if (plan_begin(&pl, &s, -1)) { free(pl.job); return GS_ENOMEM; }
    pl.replay = 1;
    int last;
    if (pin_ok) {
        plan_solves(&pl, &s, ft, pl.nj);
        pl.npos++;
        plan_restart(&pl, &s, 0, 1);
        for (int t = 0; t < T; t++, pl.npos++) {
            int first = pl.nj;
            plan_rows(&pl, &s, t);
            if (t != ft) plan_solves(&pl, &s, t, first);
        }
        last = T - 1;
    } else {
        e->pin_valid = 0;
        e->pin_task = pl.pin = ft;
        plan_restart(&pl, &s, 0, 0);
        s.ahead = ft;
        if (e->pin_base == ft) {
            /* task ft's base is pinned (it depends on no parameter): slot 0 starts from it, and
             * the base of tasks 0..ft is not recomputed before ft's solves */
            for (int k = 0; k < e->nsp; k++)
                if (e->sp[k].B) { gr_copy(&e->sp[k].B[0], &e->sp[k].B[1]); gr_copy(&e->sp[k].QB[0], &e->sp[k].QB[1]); }
            s.base_valid = ft + 1;
        }
        for (int t = 0; t < ft; t++, pl.npos++) plan_rows(&pl, &s, t);
        for (int t = ft; t < T; t++, pl.npos++) {
            int first = pl.nj;
            plan_rows(&pl, &s, t);
            plan_solves(&pl, &s, t, first);
        }
        last = T - 1;
        if (ft > 0) {
            plan_restart(&pl, &s, 0, 1);
            for (int t = 0; t < ft; t++, pl.npos++) {
                int first = pl.nj;
                plan_rows(&pl, &s, t);
                plan_solves(&pl, &s, t, first);
            }
            last = ft - 1;
        }
    }
    free(s.xend);
    e->roll_task = -1;
    int rc = plan_run(&pl);
    if (rc) {
        if (!pin_ok) e->pin_task = -1;
        return rc;
    }
    e->roll_task = last;
    e->pin_valid = 1;
    return GS_OK;
}

/* Bounded memory: the rows of tasks from..to into slot 0 (the base's and every method's with
 * per-task matrices), nothing solved or reported (en_resident). */
int en_run_rows(en_engine *e, int from, int to, const volatile int *cancel)
{
    en_plan pl;
    plan_state s;
    int done;
    if (plan_init(&pl, e, &e->cur, to - from + 1, cancel, NULL, NULL, &done)) return GS_ENOMEM;
    if (plan_begin(&pl, &s, -1)) { free(pl.job); return GS_ENOMEM; }
    pl.replay = 1;
    plan_restart(&pl, &s, from, 1);
    for (int t = from; t <= to; t++, pl.npos++) plan_rows(&pl, &s, t);
    free(s.xend);
    return plan_run(&pl);
}

static int plan_run(en_plan *pl_)
{
    en_plan pl = *pl_;
    en_engine *e = pl.e;
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
