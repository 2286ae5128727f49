/* engine/engine_int.h — the engine's private state, shared by its files (prefix en_; included by
 * src/engine/ only).
 *
 *   engine.c  creation, the update (what a change invalidates), spectra and the τ factor on
 *             request, access for --save-state and the checks;
 *   plan.c    the update's jobs, their dependencies and the two workers that run them;
 *   results.c the results (snapshots, copies) and each task's evaluation (accuracies);
 *   stats.c   the jobs of the learners without a Gram matrix (fit, evaluation, own spectrum);
 *   emit.c    the emitter augmenters write through, and each task's synthetic rows;
 *   rowbuf.c  growing buffers of rows with labels and weights;
 *   ridge.c   the ridge core of the EN_RIDGE learners: base Gram, assembly, statistics and
 *             spectrum, Cholesky solve, predictions;
 *   ridge_dual.c  the same solve in the N-dimensional dual (gs_rsolve.h) when that is cheaper;
 *   ridge_tri.c   the shown task's G_t in tridiagonal form, for τ changes and its spectrum;
 * and, in linalg/ (no engine state): the D×D kernels in both precisions (gs_gram.h), the
 * argmax of class scores, blocked and screened (gs_argmax.h).
 *
 * Precision (--precision, en_problem.single): in single precision a ridge space's rows (hf, test_f),
 * its D×D matrices (B, E, OB, A) and W for the predictions (Wf) are float, and so are the dual's
 * kernel, factor and kept rows (ridge_dual.c); Q, W (Wt) and every statistic stay double.
 * Storage conventions: G-type matrices are D×D, full symmetric (both triangles kept in sync
 * after each task). Q-type matrices are stored transposed, C×D row-major (row c = column c of
 * Q), so the rows of a class are contiguous and, seen column-major, the block is the D×C right
 * hand side LAPACK wants: no transposed copies on the hot path.
 *
 * A ridge method's G_t = B_t + w·E_t: B_t the Gram of the real rows (shared by every learner of
 * the same feature space without class weights; a learner with class weights, AIR, keeps its own
 * in OB), E_t the Gram of its augmenter's rows, w = the augmenter's weight (β).
 * Every method works in its space's problem ms->p (D, h, test rows); e->p is the run's.
 */
#ifndef GS_ENGINE_INT_H
#define GS_ENGINE_INT_H

#include "gs_argmax.h"
#include "gs_engine.h"
#include "gs_gram.h"
#include "gs_methods.h"
#include "gs_rsolve.h"

#include <pthread.h>

#define LANCZOS_MAXIT 120
#define LANCZOS_TOL 1e-10
#define LMIN_WORK 7.5e8          /* λ_min Lanczos: steps × D² at most (see refine_lmin) */
/* Single precision: a task whose cond(G + τI) (from the λ_max estimate) exceeds this is factored
 * in double (EN_FALLBACK): with κ ≤ 1e5 a float Cholesky solve keeps a relative error of about
 * κ·2⁻²⁴ ≤ 0.6 % in W, below what moves an argmax in practice; beyond it, double. */
#define EN_SINGLE_KAPPA 1e5

/* Rows with labels and weights, growing (collected augmented rows; a stats learner's aug rows;
 * the rows the dual keeps). rowbuf.c. */
typedef struct {
    gm_mat X;                /* doubles in X.v, or floats in X.f (the dual's rows, single precision) */
    int *y;
    double *w;               /* NULL unless weights are kept */
    long n, cap;
} en_rowbuf;

typedef struct mstate mstate;
typedef struct en_dual en_dual;
typedef struct en_tri en_tri;
struct en_emitter {
    en_engine *e;
    mstate *ms;
    gm_mat buf;
    int *lab;
    double *w;
    long n, cap;
    gm_mat *E, *QE;          /* ridge: the Gram the rows go to; NULL: rows go to ms->aug (stats) */
    long rows, skip_cls, skip_pairs;
    /* en_emit_mix: Y over the task's rows ylo..yhi-1 (allocated on the first pair) */
    double *Y;               /* = ms->ybuf while a task's pairs are generated, else NULL */
    long ylo, yhi, ny;
    /* en_emit_x with --expand: feature-space rows staged, expanded a block at a time */
    gm_mat xbuf, hbuf;       /* xcap × d, XCAP × D (allocated on the first row) */
    int *xlab;
    double *xw;
    long xn, xcap;
    int stage;               /* the whole task's feature-space rows stay in xbuf (grown as needed);
                              * the two EXP jobs expand them into buf (defer) or keep, a fixed half
                              * each (xsplit, between classes: each class's Q in one job) */
    long xsplit;
    long xoff;               /* the row of buf (or keep) staged row 0 goes to */
    int base;                /* the rows are a learner's own base (real rows), not collected */
    int defer;               /* single precision: the task's rows stay in buf (grown as needed) and
                              * the PAIRS jobs add them to E, half of the columns each */
    en_rowbuf *keep;         /* non-NULL: the rows are kept there for the dual (E untouched) */
};

#define XCAP 128

/* A feature space: the problem seen through one feature map (identity, the run's --expand, or a
 * learner's own), shared by every method whose learner maps the rows the same way. pm is a
 * shallow copy of the problem with this map's D, R, h, test_h, test_f/test_fn and val_h. */
typedef struct {
    en_problem pm;
    int own_rows;            /* pm's R, h, test_h, val_h, test_f, test_fn are this space's */
    gm_mat *B, *QB;          /* nslots each: Gram of the real rows (NULL when no learner shares it) */
    /* lazy (a learner's own map in double, en_config.lean_test_rows): pm.h is allocated whole but
     * its mapped rows are made a task at a time, when a job first needs them (en_space_rows), and
     * the pages of rows no later job reads are given back (en_space_release): rows [rows_dead,
     * rows_ready) are resident. Under rows_mu (two workers). */
    int lazy;
    long rows_ready, rows_dead;
    pthread_mutex_t rows_mu;
} en_space;

#define EN_MAX_SPACES 4

struct mstate {
    const char *name;        /* the method's name as given */
    const en_problem *p;     /* the problem in its learner's feature space (e->sp[space].pm) */
    int space;
    const en_learner *L;
    const en_augmenter *aug_def; /* NULL: the learner alone */
    en_mctx lctx, actx;      /* the learner's and the augmenter's context (each its own priv) */
    double *cw;              /* C class weights of a learner with class_weight, else NULL */
    gm_mat *OB, *OQB;        /* nslots each: own base Gram (learners with class weights) */
    gm_mat *E, *QE;          /* nslots each (ridge learners with an augmenter) */
    long *aug_rows, *skip_cls, *skip_pairs; /* cumulative per task */
    int extra_valid;         /* tasks 0..extra_valid-1 of E (and OB) are up to date */
    int fit_valid;           /* stats: tasks fitted */
    int rows_fitted;         /* stats: tasks 0..rows_fitted-1 given to fit since its last reset */
    int refit;               /* stats with a refit hook: the next fits are refits from the rows kept
                              * (only the augmenter's weight changed since every task was fitted) */
    op_params xparams;       /* params E / fit were computed with */
    double weight;           /* w used for the cached statistics */
    int *stats_valid;        /* T */
    int *lmin_ref;           /* T: lmin[t] came from the Cholesky factor (1) or is exact, 0, for
                              * fewer rows than columns (2); 0: not yet refined */
    double *fro2, *tr, *lmax, *lmaxe, *lmin, *lmine; /* T, statistics of G_t */
    double **eigG;           /* T, exact eigenvalues of G_t (descending, no τ), or NULL */
    en_snap *stage;          /* T snapshots the jobs of an update write; a task's REPORT swaps
                              * them into the results (so views never see one half written) */
    int dirty;               /* needs snapshots recomputed in this update */
    en_rowbuf collect;       /* augmented rows (collect_aug) */
    en_rowbuf aug;           /* stats learners: the augmenter's rows of the task being fitted */
    /* work of this method (methods run in parallel within a task): A holds G_t, then the
     * Cholesky factor of G_t + τI; Qw = Qᵀ_t (C × D); Wt = W rows of the seen classes */
    gm_mat A, Qw, Wt;
    int a_group;             /* the method whose A this one uses (its own index, or an earlier
                              * ridge method's of the same space when the engine shares A) */
    gm_mat Wf;               /* single precision: fl32 W rows (Cs × D) the predictions use */
    gm_mat A64;              /* single precision: the double G_t + τI of a task factored in double
                              * (EN_FALLBACK), allocated on the first such task */
    int fallback;            /* this task's factor is in A64 */
    int *pred;
    int *vpred;              /* predictions on the validation rows */
    en_emitter em;           /* synthetic rows of the task being generated (extra_rows..extra_end) */
    double *ybuf;            /* en_emit_mix's Y, sized for the largest task and kept from task to
                              * task of an update (one allocation: no page faults per task) */
    size_t ybytes;
    en_dual *dual;           /* the dual's rows, kernel and factor (ridge_dual.c), NULL until used */
    en_tri *tri;             /* one task's G_t in tridiagonal form (ridge_tri.c), NULL until asked */
    int a_stale;             /* A does not hold this task's G_t (its assembly was skipped for en_tri) */
    int used_tri;            /* the last en_solve_seen solved from ms->tri */
    int solve_failed;        /* this task's solve failed: reason in why */
    int rows_new;            /* this update computes new rows for it (its statistics go stale) */
    int again;               /* the rows being computed were computed before, the same (bounded
                              * memory): not collected again (collect_aug) */
    char why[160];
};

struct en_engine {
    const en_problem *p;
    en_config cfg;
    const char *names[OP_MAX_METHODS]; /* = name_buf: the engine's copies of cfg->methods */
    char name_buf[OP_MAX_METHODS][48];
    int nm, nslots, keep;
    /* Bounded interactive memory (roll, see en_create): the per-task matrices (B, E, OB and
     * their right-hand sides) of one task at a time: slot 0 holds the chain's task roll_task,
     * computed in place as in a batch run, slot 1 a copy of task pin_task's (the task the user
     * looks at); any other task's is recomputed from the rows when asked (en_resident). */
    int roll;
    int roll_task;           /* task in slot 0, -1: none (unknown after a stopped update) */
    int pin_task, pin_valid; /* task copied in slot 1 (by the jobs of task pin_task), and whether
                              * the copy holds the current rows */
    int pin_base;            /* task whose base Grams (B, QB: real rows only, no parameter) are in
                              * slot 1, -1: none */
    mstate *ms;
    en_space sp[EN_MAX_SPACES];
    int nsp;
    int base_valid;          /* tasks 0..base_valid-1 of every space's B are up to date */
    gm_mat G, Qext;          /* en_gram's copies (allocated on first use) */
    int workers;             /* threads per task: 1 sequential, 2 parallel methods */
    int share_a;             /* the ridge methods of a space share one work matrix A, their
                              * assemblies and solves one after the other (en_create: a batch
                              * engine read through its accuracies only, whose A is read from
                              * its task's assembly to its solve and by nothing after) */
    int spectrum_default;    /* exact spectra of the last and the looked-at task (en_spectrum_default),
                              * decided once by en_create from the configuration and D */
    en_results res;
    op_params cur;           /* the engine's copy of the last en_update's parameters: what every
                              * job, learner (lctx.params) and augmenter (actx.params) reads */
    int have_cur;
    int focus_task;          /* 0-based task of the current en_update's first_task */
};

/* en_slot: the slot a job writes task t's rows into (in place in slot 0 when the chain rolls);
 * en_slot_read: the slot task t's matrices are read from (slot 1 for the pinned task). */
static inline int en_slot(const en_engine *e, int t) { return e->keep && !e->roll ? t : 0; }
static inline int en_slot_read(const en_engine *e, int t)
{
    return e->roll ? (t == e->pin_task ? 1 : 0) : en_slot(e, t);
}
/* A method whose rows feed per-task matrices of its own (E with an augmenter, OB with class weights). */
static inline int en_has_slots(const mstate *ms) { return ms->E || ms->OB; }
static inline int en_is_ridge(const mstate *ms) { return ms->L->family == EN_RIDGE; }
/* The learner uses the shared base Gram (ridge, no class weights). */
static inline int en_shares_base(const mstate *ms) { return en_is_ridge(ms) && !ms->L->class_weight; }
/* The weight w of a method's augmented rows at parameters q (β for GSR; 1 without an augmenter). */
static inline double en_method_weight(const mstate *ms, const op_params *q)
{
    return ms->aug_def && ms->aug_def->weight ? ms->aug_def->weight(q) : 1.0;
}

/* results.c: en_snap_free frees a snapshot's arrays; en_fill_accuracy the accuracies of the n
 * predictions of task sn->task into sn; en_finish_method A_last, A_avg and their validation
 * counterparts once every task is done (NaN otherwise). */
void en_snap_free(en_snap *s);
void en_fill_accuracy(const en_problem *p, en_snap *sn, const int *pred, long n);
void en_finish_method(en_method_result *mr, int T);
/* Predictions of the seen validation rows of task t (ms->vpred) and their accuracy into sn. */
int en_predict_val(en_engine *e, mstate *ms, en_snap *sn, int t);

/* plan.c: the tasks order[0..no-1] of an update at parameters q (the engine's copy, e->cur) with
 * e->workers threads (ahead: see there). GS_OK, GS_ECANCEL, or the first failing job's status
 * (in plan order) with its message on the calling thread. */
int en_run_tasks(en_engine *e, const op_params *q, const int *order, int no, int ahead, const volatile int *cancel,
                 en_progress_fn progress, void *user);
/* plan.c, bounded memory (e->roll): an update's plan (the user's task e->focus_task first: from
 * its pinned copy when pin_ok, else after the rows of the tasks before it; then the others,
 * their rows recomputed in place), and the rows alone of tasks from..to (en_resident). */
int en_run_rolling(en_engine *e, const op_params *q, int pin_ok, const volatile int *cancel, en_progress_fn progress,
                   void *user);
int en_run_rows(en_engine *e, int from, int to, const volatile int *cancel);
/* engine.c: task t's per-task matrices readable (en_slot_read) outside an update, recomputed from
 * the rows when not held; pin: also copied into the pinned slot. GS_OK, GS_ECANCEL, GS_ENOMEM. */
int en_resident(en_engine *e, int t, int pin, const volatile int *cancel);
/* plan.c: the pinned slot := slot 0 (every per-task matrix), for task t. */
void en_pin_copy(en_engine *e, int t, int base, const mstate *only);

/* stats.c: en_job_custom fits task t if not yet (a stats learner's CUSTOM job) and evaluates it
 * into sn; en_own_spectrum the learner's own spectrum at task t into sn, when it has one and
 * holds task t (else sn stays without). */
int en_job_custom(en_engine *e, mstate *ms, en_snap *sn, int t);
int en_own_spectrum(mstate *ms, en_snap *sn, int t);

/* space.c: the space of learner L's feature map, found or built (index into e->sp). */
int en_space_find(en_engine *e, const en_learner *L, int *k);
void en_space_free(en_space *s);
/* A lazy space (else nothing): en_space_rows maps rows up to b (exclusive) of pm.h if not yet
 * (at the plan's one BLAS thread: a task's rows equal the whole product's, byte for byte);
 * en_space_release gives back the pages of rows before b, which no job reads again. */
void en_space_rows(en_space *s, long b);
void en_space_release(en_space *s, long b);

/* rowbuf.c: en_rowbuf_push appends one row, h (doubles: X.v) or hf (floats: X.f; a buffer holds
 * one kind), with its label and (weights) weight, doubling the room; en_rows_reserve gives room
 * for `need` rows (row_bytes each) with labels and weights, each pointer replaced only when its
 * realloc succeeds. GS_OK or GS_ENOMEM. */
void en_rowbuf_free(en_rowbuf *b);
int en_rowbuf_push(en_rowbuf *b, const double *h, const float *hf, long D, int c, double w, int weights);
int en_rows_reserve(void **rows, size_t row_bytes, int **lab, double **w, long *cap, long need, const char *what);

/* emit.c: a method's synthetic rows of task t in four jobs: en_extra_rows runs the augmenter
 * (row pairs into the emitter's Y; in single precision, or for the dual, feature-space rows
 * staged) with its rows kept in `keep` when the plan asks (the dual's buffer: E and the own base
 * untouched) or else folded into E, en_extra_expand(part) maps half of the staged rows to the
 * learner's space (into the emitter's buffer, or keep), en_pair_flush_part(part) forms E += Zᵀ Y
 * (or E += bufᵀ buf) for half of the column blocks, en_extra_end symmetrizes. The emitter never
 * asks the dual anything: the plan decides (run_job's EXTRA and XEND). */
int en_extra_rows(en_engine *e, mstate *ms, int t, en_rowbuf *keep);
int en_extra_expand(en_engine *e, mstate *ms, int t, int part);
void en_pair_flush_part(en_emitter *em, int part);
void en_extra_end(en_engine *e, mstate *ms, int t);

/* ridge.c */
void en_base_task(en_engine *e, en_space *sp, int t);
void en_assemble(en_engine *e, mstate *ms, int t, const op_params *q, gm_mat *G);
int en_ensure_stats(en_engine *e, mstate *ms, int t, int want_spectrum);
void en_fill_spectral(en_engine *e, mstate *ms, en_snap *sn, int t, double tau);
int en_solve_seen(en_engine *e, mstate *ms, int t, double tau, char *why, size_t nwhy);
int en_predict_rows(en_engine *e, mstate *ms, int t, long n, long lo, long hi);
double en_tau_for(en_engine *e, mstate *ms, int t, double tau);
int en_job_solve(en_engine *e, mstate *ms, en_snap *sn, int t, const op_params *q);
int en_job_lmin(en_engine *e, mstate *ms, en_snap *sn, int t, const op_params *q);
int en_job_pred(en_engine *e, mstate *ms, int t, int part);

/* ridge_dual.c: tasks of a ridge method solved in the N-dimensional dual (see there).
 *   en_dual_mode    1 when task t is solved in the dual (a function of row counts: deterministic);
 *   en_dual_keeps   1 when task t's augmented rows are kept for the dual instead of folded into E;
 *   en_dual_rows_open/close  the buffer the emitter keeps task t's rows in (NULL: no memory), and
 *                   the panel of its kernel columns prepared for en_dual_pairs (the PAIRS jobs),
 *                   or on the switch to the primal E and OB zeroed for them;
 *   en_dual_pairs   part 0 or 1 of task t's panel, or on the switch of E and OB from the kept rows
 *                   (GS_OK or GS_ENOMEM);
 *   en_dual_task_end  after task t's rows (XEND): on the switch, E's and OB's lower triangles;
 *   en_solve_dual, en_dual_stats, en_dual_gram  as en_solve_seen, en_ensure_stats, en_assemble;
 *   en_base_needed  whether the shared base Gram of a space is needed at task t (en_base_fixed:
 *                   at every task, known before the rows). */
int en_dual_mode(const en_engine *e, const mstate *ms, int t);
int en_dual_keeps(const en_engine *e, const mstate *ms, int t);
en_rowbuf *en_dual_rows_open(en_engine *e, mstate *ms, int t);
int en_dual_rows_close(en_engine *e, mstate *ms, int t);
/* Task t's kept rows computed again (bounded memory): they are still kept, the kernel holds them;
 * on the switch to the primal, E and OB zeroed for the PAIRS jobs to rebuild them. GS_OK. */
int en_dual_rows_again(en_engine *e, mstate *ms, int t);
int en_dual_pairs(en_engine *e, mstate *ms, int t, int part);
int en_dual_task_end(en_engine *e, mstate *ms, int t, int kept);
int en_solve_dual(en_engine *e, mstate *ms, int t, double tau, char *why, size_t nwhy);
int en_dual_stats(en_engine *e, mstate *ms, int t, int want_spectrum);
int en_dual_gram(en_engine *e, mstate *ms, int t, gm_mat *G);
int en_base_needed(const en_engine *e, const en_space *sp, int t);
/* 1 when en_base_needed is 1 at every task whatever the augmented rows (so BASE(t) need not wait
 * for the methods' rows of task t). */
int en_base_fixed(const en_engine *e, const en_space *sp);
void en_dual_free(mstate *ms, int T);

/* ridge_tri.c: the task the user looks at, its G_t reduced to tridiagonal form (en_prepare_tau):
 *   en_tri_begin   start (or resume) task t's reduction: *G, when not NULL, is the D×D matrix
 *                  (the method's precision) the caller fills with G_t (en_assemble) before
 *                  en_tri_factor; NULL: the same G_t is held, its reduction resumes;
 *   en_tri_factor  reduce it (stoppable between panels: GS_ECANCEL, resumable), then form Q
 *                  (stoppable too) and free the reflectors; *spectrum: T is complete;
 *   en_tri_spectrum  task t's eigenvalues from T into ms->eigG[t] (descending, xsterf);
 *   en_tri_usable  1 when ms->tri holds the complete reduction of task t's current G_t (and its
 *                  spectrum is in eigG[t]): a τ change solves from it (en_tri_solve, B as for
 *                  gr_chol_solve; 0 or the kernel's status) and A need not hold G_t;
 *   en_tri_forget  task t's G_t changed (en_ensure_stats recomputes its statistics): drop it. */
int en_tri_begin(mstate *ms, int t, gm_mat **G);
int en_tri_factor(mstate *ms, const volatile int *cancel, int *spectrum);
int en_tri_spectrum(mstate *ms, int t);
int en_tri_usable(const en_engine *e, const mstate *ms, int t);
int en_tri_solve(mstate *ms, void *B, int nrhs, double tau);
void en_tri_forget(mstate *ms, int t);
void en_tri_free(mstate *ms);

#endif
