/* gs_engine.h — prepared problem, learners, replay and per-task snapshots (prefix en_).
 *
 * Data flows one way: ds_data + st_stream --en_prepare--> en_problem --en_engine--> en_results,
 * which the views (TUI, figures, CSV/JSON) only read. No curses, no cairo here.
 *
 * Threading: an en_engine is used by one thread at a time (the TUI's worker, or main for
 * headless runs). en_update runs its jobs on a helper thread too (en_config.threads): the methods
 * of a task in parallel, and the next task's Grams while this task's predictions run. Progress
 * callbacks come from the calling thread only, once a task is complete; the jobs write staging
 * snapshots that go into the results on that thread, so a callback may copy the results
 * (en_results_copy) while the helper works. Views keep such a deep copy under their own lock.
 * Long operations poll `*cancel` (nonzero = stop, returns GS_ECANCEL; read atomically, as another
 * thread sets it) and report progress. After a cancel or a failure, the tasks reported before it
 * are complete; the others stay pending.
 *
 * Ownership: en_problem, en_engine and en_results own all their arrays; each has a free/destroy.
 */
#ifndef GS_ENGINE_H
#define GS_ENGINE_H

#include <stdint.h>
#include "gs_mat.h"
#include "gs_data.h"
#include "gs_stream.h"
#include "gs_params.h"

/* ---- the prepared problem ------------------------------------------------------------ */
typedef struct {
    int T, C;
    long d;              /* raw feature dimension */
    long D;              /* classifier input dimension (= d without --expand) */
    int normalized;      /* rows were L2-normalized */
    gm_mat z;            /* n × d stream rows after normalization, stream order (GSR mixes these) */
    gm_mat h;            /* n × D rows fed to G and Q (h = ReLU(R z) with --expand; else h.v == z.v);
                          * single: h.v is NULL (rows, cols set) and hf holds them */
    int single;          /* the ridge learners compute in single precision (--precision): rows in hf
                          * and test_f, Gram matrices, Cholesky factors and predictions in float */
    gm_mat hf;           /* single: n × D fl32 rows (f set; ReLU(fl32(z) fl32(R)ᵀ) with --expand) */
    gm_mat Rf;           /* single with --expand: fl32(R) (f set) */
    int *y;              /* n labels */
    long *task_row_start;/* T+1 */
    gm_mat R;            /* D × d expansion matrix (empty without --expand) */
    gm_mat test_h;       /* nt × D test rows, ordered by the task of their class (prefix = seen);
                          * single: test_h.v is NULL and test_f holds them */
    gm_mat test_z;       /* nt × d the same rows before the map (test_z.v == test_h.v without one) */
    gm_mat val_z;        /* nv × d validation rows before the map (val_z.v == val_h.v without one) */
    int projection;      /* OP_PROJ_* R is drawn with */
    long expand;         /* --expand (0: none); learners with their own maps size them by it */
    uint64_t seed;       /* the run's seed (other maps draw from it) */
    float *test_f;       /* nt × D fl32(test_h) and test_fn[nt] its rows' norms, for the screened
                          * predictions (converted once); NULL beyond EN_TEST_F_MAX bytes (always
                          * there in single precision: the test rows themselves) */
    double *test_fn;
    int *test_y;         /* nt */
    long *test_index;    /* nt: each test row's row in the user's test file (0-based; --save-state) */
    long *test_task_end; /* T: test rows of classes in tasks 1..t are [0, test_task_end[t-1]) */
    long n_test_unseen;  /* test rows whose class never appears in training (never evaluated) */
    gm_mat val_h;        /* nv × D validation rows held out of the stream (--val-frac), stream
                          * order, mapped like h; never in any statistic, only evaluated */
    int *val_y;          /* nv */
    long *val_task_end;  /* T: validation rows of classes in tasks 1..t are [0, val_task_end[t-1]) */
    const st_stream *st; /* not owned: must outlive the problem */
    long *class_test;    /* C: test rows per class */
    char data_name[128];
    char data_source[1024];
    uint64_t data_checksum;
} en_problem;

/* Largest fl32 copy of the test rows kept (bytes); beyond it, rows are converted per block. */
#define EN_TEST_F_MAX (256.0 * 1024 * 1024)
/* --precision auto: single from EN_SINGLE_MIN_D on (gs_params.h, which --help reads too). */
/* 1 when the problem with options o and run dimension D computes in single precision. */
int en_single_for(const op_data *o, long D);

/* Build the problem: normalize (unless o->no_normalize), expand (o->expand), reorder test rows.
 * GS_OK, GS_EINPUT, GS_ENOMEM (with the memory estimate in the message). */
/* Accuracy of predictions pred[0..n) for the first n (seen) test rows after task `task`
 * (1-based): sample-weighted acc, mean per-class accuracy over seen head / tail classes (NaN if
 * none), and per-class accuracy into class_acc[C] (NaN for unseen; may be NULL). All in %.
 * GS_OK or GS_ENOMEM. Shared by the engine and the τ sweep so both count the same way. */
int en_accuracy(const en_problem *p, int task, const int *pred, long n, double *acc, double *head_acc,
                double *tail_acc, double *class_acc);
/* The same for rows with labels y[0..n) (en_accuracy is this with y = p->test_y). */
int en_accuracy_of(const en_problem *p, int task, const int *y, const int *pred, long n, double *acc,
                   double *head_acc, double *tail_acc, double *class_acc);
int en_prepare(en_problem *p, const ds_data *data, const st_stream *st, const op_data *o,
               uint64_t seed);
void en_problem_free(en_problem *p);
/* R (D × d) drawn as --projection says (N(0,1) or U(−1/√d, 1/√d) entries) from the seed's
 * expansion stream: equal (D, d, projection, seed) give the same R whoever draws it. */
int en_draw_projection(gm_mat *R, long D, long d, int projection, uint64_t seed);
/* Map n rows X (n × d) to the classifier inputs H (n × D): ReLU(X Rᵀ) with one matrix product,
 * or a copy without --expand. */
void en_expand_rows(const en_problem *p, const double *X, long n, double *H);
/* The same in single precision: H = ReLU(fl32(X) fl32(R)ᵀ) (sgemm; p->Rf), or fl32(X). */
int en_expand_rows_f(const en_problem *p, const double *X, long n, float *H);
/* What the memory estimate of a run needs to know (en_estimate_bytes). */
typedef struct {
    long n_rows, n_test, n_val;  /* stream rows, test rows, validation rows */
    const long *task_row_start;  /* T + 1 (the stream's); NULL: rows spread evenly over the tasks */
    const long *class_kept;      /* C rows per class and C the task of each class (the stream's), */
    const int *class_task;       /* for the augmenters' rows; NULL: max_aug per class, C/T a task */
    long d, expand;              /* input columns, --expand (0: none) */
    int C, T;
    int precision;               /* --precision (OP_PREC_*): which spaces hold floats (en_single_for) */
    op_spectrum spectrum;        /* exact spectra (FINAL, ALL; AUTO at small D) copy a D×D matrix */
    int keep_task_grams;         /* every task's Gram kept (interactive), and the dual never freed */
    const op_params *params;     /* the learners' parameters (--klda-dim, max_aug, ...) */
    int lean_test_rows;          /* en_config.lean_test_rows */
    int share_work;              /* en_config.accuracies_only: a batch engine's ridge methods of a
                                  * space share one work matrix */
    int reserved;                /* count what the engine reserves when it is made, touched or not
                                  * (a ridge method's D×D matrices even when every task is in the
                                  * dual): an allocation the machine cannot make at all */
    long largest_task;           /* set by en_estimate_bytes for the learners' bytes hooks: the real
                                  * rows of the largest task (the caller leaves it 0) */
} en_size;
/* ---- resolved methods ------------------------------------------------------------------ */
/* A method as the engine receives it: its learner (gs_learner.h) and augmenter (gs_methods.h,
 * NULL: the learner alone), resolved from its name above the engine (the method table, gs_mtable.h:
 * mt_resolve); the engine never looks a name up. */
struct en_learner;
struct en_augmenter;
typedef struct {
    const struct en_learner *L;
    const struct en_augmenter *A;
} en_method;
/* The parameters (EN_DEP_* bits, gs_params.h) a method's results depend on: what its learner's
 * statistics and its augmenter's rows depend on (their deps), τ through a ridge solve, β through
 * an augmenter weighted by β (en_weight_beta). The one rule: the engine's invalidation and the
 * views' "does this parameter act on this method" (mt_uses) both read it. */
unsigned en_method_deps(const en_method *m);

/* Bytes a run of these methods needs at its peak: the process's own (libraries), the problem's
 * rows, each feature space's rows and base Gram, each ridge method's matrices (per task kept, in
 * the run's precision), its dual's kernel while it has fewer rows than columns, its augmenter's
 * buffers, the exact spectrum's copy, each stats learner's own state (en_learner.bytes). Made
 * before allocating; the loaded data (before the stream re-cuts it) is not counted. An estimate:
 * tests/t_memory.sh holds it to measured peaks within a stated band. */
double en_estimate_bytes(const en_size *z, const en_method *methods, int n_methods);

/* ---- results --------------------------------------------------------------------------- */
typedef enum { EN_PENDING = 0, EN_DONE = 1, EN_FAILED = 2 } en_state;

enum {                     /* en_snap.flags */
    EN_SPECTRUM = 1u << 0, /* eig[] holds the full spectrum of G+τI (exact, LAPACK) */
    EN_LMAX_EST = 1u << 1, /* lambda_max and stable_rank come from Lanczos (estimate) */
    EN_LMIN_EST = 1u << 2, /* lambda_min and cond come from Lanczos (estimate) */
    EN_NO_GRAM  = 1u << 3, /* non-ridge method: no spectral numbers */
    EN_SINGLE   = 1u << 4, /* computed in single precision (--precision) */
    EN_FALLBACK = 1u << 5, /* single precision, but this task's factorization was done in double
                            * (spotrf failed or cond(G + τI) too large for float: EN_SINGLE_KAPPA) */
    EN_TAU_FACTOR = 1u << 6, /* solved from the task's tridiagonal form (en_prepare_tau), not a
                              * Cholesky factorization */
    EN_OWN_SPECTRUM = 1u << 7 /* a learner without a Gram matrix (EN_NO_GRAM): eig[] holds the
                               * eigenvalues of its own matrix (en_method_result.spectrum_of),
                               * descending, NaN past the ones it has; never G + τI */
};

typedef struct {
    en_state state;
    unsigned flags;
    int task;              /* 1-based */
    int classes_seen;
    long rows_seen;        /* real training rows in G so far */
    long aug_rows;         /* synthetic rows in G so far (weighted by β) */
    long aug_skipped_classes; /* classes with < 2 rows: no augmentation (cumulative) */
    long aug_skipped_pairs;   /* near-antipodal pairs skipped (cumulative) */
    long test_rows;        /* test rows evaluated */
    double acc;            /* sample-weighted accuracy over seen classes, % */
    double head_acc;       /* mean per-class accuracy over seen head classes, % (NaN if none) */
    double tail_acc;       /* same over seen tail classes, % (NaN if none) */
    long val_rows;         /* validation rows evaluated (0 without --val-frac) */
    double val_acc, val_head_acc, val_tail_acc; /* the same three on the validation rows (NaN
                                                 * without --val-frac) */
    double stable_rank, cond, erank, lambda_max, lambda_min; /* of G+τI; erank NaN unless EN_SPECTRUM */
    double tau;            /* the τ its ridge used (the learner's own τ_eff, as en_method_tau); 0 for a
                            * learner without G and while pending */
    double df;             /* the ridge's effective degrees of freedom Σ λᵢ/(λᵢ+τ) over the eigenvalues
                            * λᵢ of G (sp_ridge_df); NaN unless EN_SPECTRUM */
    double lmax_err, lmin_err; /* error bounds of the Lanczos estimates (0 when exact) */
    double *eig;           /* D values (the method's D), descending, of G+τI (owned), NULL unless
                            * EN_SPECTRUM */
    double *class_acc;     /* C per-class accuracy % (owned), NaN for classes not seen */
    double seconds;        /* compute time for this task */
    char error[192];       /* EN_FAILED: what went wrong */
} en_snap;

typedef struct {
    char name[32];         /* "gacl", "gsr", ... as given */
    char learner[16];      /* its learner ("gacl" for gsr) */
    char augmenter[24];    /* its augmenter ("gsr"), "" for the learner alone */
    int ridge;             /* has G, Q, W */
    char spectrum_of[48];  /* a learner without G: the matrix whose spectrum EN_OWN_SPECTRUM
                            * snapshots hold ("shared covariance"); "" when it has none */
    long D;                /* its feature space's dimension (eig has D values) */
    en_snap *snaps;        /* T */
    double a_last, a_avg;  /* % (NaN until every task is done) */
    double val_a_last, val_a_avg; /* the same on the validation rows (NaN without --val-frac) */
} en_method_result;

typedef struct {
    int T, C;
    long D;
    op_params params;      /* the parameters these results were computed with */
    int n_methods;
    en_method_result *m;   /* n_methods */
    unsigned char *is_head;/* C (copied from the stream) */
    int *class_task;       /* C */
    long *class_kept;      /* C train rows per class */
    uint64_t generation;   /* set by the caller (TUI) to drop stale results */
    int spectra_on_request;/* exact spectra only where asked (en_spectrum_default is 0) */
    long expand;           /* --expand of the problem (0: the rows are the features themselves) */
} en_results;

int en_results_copy(en_results *dst, const en_results *src);
/* The method the views compare method m with: the one with the same learner and no augmenter
 * (gacl for gsr, ranpac for ranpac+gsr); -1 if none was run. */
int en_results_baseline(const en_results *r, int m);
/* The one rule for which of the shown methods m0, m1 is the reference (every view, figure and
 * claim reads it): the one that is the other's baseline (its learner alone) when they are such a
 * pair; else the one that is a learner alone, then the ridge one, then m0. *aug the other (-1
 * with one valid method; both -1 with none). Returns 1 when the two are a learner alone and it
 * with an augmenter (the pair Theorem 1 compares: G and G + Δ), else 0. */
int en_results_pair(const en_results *r, int m0, int m1, int *ref, int *aug);
void en_results_free(en_results *r);

/* ---- the engine -------------------------------------------------------------------------- */
typedef struct en_engine en_engine;
typedef void (*en_progress_fn)(double fraction, const char *what, void *user);

typedef struct {
    const char **methods; int n_methods; /* names (the results' names) */
    en_method method[OP_MAX_METHODS];    /* method[m]: methods[m] resolved (mt_resolve, gs_mtable.h);
                                          * en_create refuses a method left unresolved */
    op_spectrum spectrum;  /* FINAL: full spectrum at the last task only; ALL: at every task */
    int keep_task_grams;   /* keep G_t of every task (interactive retuning); else only the last */
    int collect_aug;       /* keep the augmented rows (for --save-state) */
    int threads;           /* methods of a task in parallel: 0 = automatic (GS_THREADS in the
                            * environment, else 2 workers on ≥ 2 cores), 1 = sequential, 2 = two
                            * workers; OpenBLAS at one thread inside the update either way. The
                            * numbers do not depend on the schedule: equal bit for bit to a
                            * sequential run (tests/engine/test_engine.c test_threads). */
    int exact_scores;      /* 1: class scores in double only (the reference path); 0: screened
                            * in single precision, same predictions (am_argmax_screened, gs_argmax.h) */
    int lean_test_rows;    /* 1: a learner's own map in double (RanPAC's 10,000-d) keeps no mapped
                            * test rows (800 MB on the synthetic set): each prediction maps the
                            * rows it scores, AM_SCORE_BLOCK at a time; and its training rows are
                            * mapped a task at a time as the jobs first need them, those no later
                            * job reads given back (from 1.2 GB to the rows through the switch
                            * from the dual, 0.8 GB, then a task's). The same bytes (a block's
                            * product at one BLAS thread equals the whole one's rows). For an
                            * engine read only through its accuracies (table); its test_h.v is
                            * NULL and its h holds zeros where rows were given back (the τ
                            * sweep, en_predictions, --save-state: not with it) */
    int accuracies_only;   /* 1: read through its accuracies only (table): no λ_min of G_t from
                            * the factor (a Lanczos of about 3 CPU-s a task at D = 10,000), so the
                            * snapshots' λ_min and condition number are NaN where it would have
                            * run; and (without keep_task_grams) the ridge methods of a feature
                            * space share one D × D work matrix, each task's assemblies and
                            * solves one method after the other (RanPAC's pair: one 10,000² in
                            * double, 0.8 GB, less). Every accuracy and prediction is the same */
} en_config;

int en_create(en_engine **e, const en_problem *p, const en_config *cfg);
void en_destroy(en_engine *e);

/* Bring results up to date with `params`, recomputing only what changed:
 *   τ only        -> re-solve every method from cached Gram matrices (no accumulation);
 *   α_base, ξ, β, pairs, max_aug, augment -> recompute the augmenting methods only;
 *   seed          -> not allowed here (the stream changes): build a new problem and engine.
 * Tasks are computed in order, except that `first_task` (1-based, 0 = 1) is reported first so
 * the view the user looks at fills in quickly: with every Gram cached it is solved first; with
 * new rows in an interactive engine (keep_task_grams; every changed method a ridge learner) the
 * rows of tasks 1..first_task are built, first_task solved, then the tasks before it and after.
 * The numbers do not depend on the order. The engine copies `params` (as en_create copies its
 * configuration and the method names) and keeps no pointer into them: they need not outlive the
 * call (the problem does: the engine reads it). Returns GS_OK, GS_ECANCEL, or an error. */
int en_update(en_engine *e, const op_params *params, int first_task,
              const volatile int *cancel, en_progress_fn progress, void *user);
/* Compute the exact spectrum for task t (1-based) of the methods in `methods` (bit m: method m of
 * the config; EN_METHODS_ALL: every one) where not yet there: eigenvalues of G+τI for a ridge
 * method, for a learner without G its own matrix's (en_learner.spectrum) when it holds task t.
 * A view asks for the methods it shows (en_method_bit), so no other method pays for one. */
#define EN_METHODS_ALL 0xffffffffu
unsigned en_method_bit(int m); /* 1u << m for 0 ≤ m < 32, else 0 (m = -1: no method) */
int en_ensure_spectrum(en_engine *e, int task, unsigned methods, const volatile int *cancel);
/* Interactive engines (keep_task_grams) from this D on: a τ change of the task the user looks at
 * solves from that task's G_t in tridiagonal form, G_t = Q T Qᵀ: W = Q (T + τI)⁻¹ Qᵀ Q_t, one
 * product of D×D by D×C per τ (Qᵀ Q_t is kept) and an O(D·C) solve instead of a D³/3 Cholesky
 * (the other tasks are re-solved after it, as below this D). Exact to rounding, like the Cholesky.
 * The environment variable GS_TAU_FACTOR_MIN_D overrides it (tests). */
#define EN_TAU_FACTOR_MIN_D 2048
int en_tau_factor_wanted(const en_engine *e);
/* Reduce task `task`'s G_t (1-based) of every ridge method solved in the primal to tridiagonal
 * form (Householder, as LAPACK xsytrd: (4/3)·D³ operations) and form Q (2·D³ more; about 12 s of
 * one core per method at D = 5000 in single precision), for the fast τ change above, and put its
 * exact spectrum (LAPACK xsterf on T) into the results as soon as T is there. One task per method
 * is kept (the newest asked: one D×D matrix, two while Q is formed), in the method's precision.
 * Only for a task whose results are done; a no-op below EN_TAU_FACTOR_MIN_D or for a task already
 * reduced. Stops between panels of 32 columns (512 of Q) when *cancel is set (GS_ECANCEL) and
 * resumes there on the next call while G_t is unchanged (a τ change keeps it; α_base, ξ, β and
 * another task replace it). */
int en_prepare_tau(en_engine *e, int task, const volatile int *cancel);
/* An interactive engine keeps every task's per-task matrices (B_t, and E_t or an own base per
 * method: T of each) while they take at most this many bytes (en_gram_budget: the environment
 * variable GS_GRAM_BUDGET_MB overrides it, tests); beyond, when every method is a ridge learner,
 * it keeps two of each (bounded memory): the chain's current task, computed in place as in a batch
 * run, and a copy of the task the user looks at (first_task of en_update, en_prepare_tau's task).
 * Any other task's are recomputed from the rows when asked, and an update solves the user's task
 * first, then recomputes the others' rows: the same numbers bit for bit, later. */
#define EN_GRAM_BUDGET (1024.0 * 1024 * 1024)
double en_gram_budget(void);
/* 1 when engines of these methods with keep_task_grams keep two slots instead of T (as above):
 * slot_bytes = the bytes of one task's per-task matrices. */
int en_gram_rolls(int all_ridge, int T, double slot_bytes);
/* Per-task matrices the engine holds of each kind: T (every task kept), 2 (bounded memory, as
 * above) or 1 (a batch run). */
int en_task_slots(const en_engine *e);
/* --spectrum auto: exact spectra up to EN_SPECTRUM_AUTO_MAX (gs_params.h, which --help reads too). */
/* From this D on, a ridge method solves task t in the N-dimensional dual, W = Hᵀ(HHᵀ + τI)⁻¹Y
 * (gs_rsolve.h; its real and synthetic rows, each weighted), when it has fewer rows than D and the
 * dual costs less than the D×D Cholesky (cost model in src/engine/ridge_dual.c); below it, and otherwise,
 * by the D×D Cholesky. Both are exact to rounding. */
#define EN_DUAL_MIN_D 1024
/* 1 when the update computes exact spectra by itself (the last task, and the task the user looks
 * at): --spectrum final or all, or auto with D ≤ EN_SPECTRUM_AUTO_MAX. Otherwise λ_max and λ_min
 * are estimates and a view that shows the spectrum asks with en_ensure_spectrum. */
int en_spectrum_default(const en_engine *e);
const en_results *en_get_results(const en_engine *e);

/* Access for --save-state, sweeps and the Theorem 1 check (final state or task t, 1-based).
 * Returned matrices are owned by the engine and valid until the next en_update.
 * G excludes τ. Returns GS_EINPUT if the method is not a ridge method or the task not kept. */
int en_gram(en_engine *e, int method, int task, const gm_mat **G, const gm_mat **Q);
/* Rows to score for en_dual_eig: n rows of the method's space (n × D, row-major), doubles or
 * floats (xf). */
typedef struct { const void *x; int xf; long n; } en_rowsrc;
/* Every τ from one eigendecomposition of the N × N kernel, for ridge method `method` at `task`
 * (1-based; the last unless tasks are kept) when that task is solved in the dual (its N rows,
 * real and augmented with their weights, fewer than D): S K S = V diag(μ) Vᵀ, μ (*mu, allocated,
 * N, descending; G's spectrum is μ and D − N zeros), P = Vᵀ S Y (N × Cs, the seen classes in
 * class_order) and, per row set X_q, XV[q] = X_q Hᵀ S V (n_q × N, allocated): the scores at τ
 * are XV diag(1/(μ + τ)) P = X (G + τI)⁻¹ Q. Cost N³ (one dsyevd) + Σ n_q·N·D. GS_EINPUT without
 * a message when the task is not in the dual (the caller then uses en_gram); GS_ENOMEM, GS_ERUN. */
int en_dual_eig(en_engine *e, int method, int task, const en_rowsrc *sets, int nsets, long *N, double **mu,
                gm_mat *P, gm_mat *XV);
/* The τ a ridge method adds to G at task (1-based) for the user's τ (AIR: τ/s); NaN for a method
 * without a Gram matrix. */
double en_method_tau(en_engine *e, int method, int task, double tau);
/* W = (G + τI)^{-1} Q for method/task into W (allocated by the call). */
int en_solve_w(en_engine *e, int method, int task, gm_mat *W);
/* Final-task predictions on the seen test rows (pred allocated, n_out set). */
int en_predictions(en_engine *e, int method, int task, int **pred, long *n_out);
/* pred[i] = the class (st->class_order[k]) of the largest of the Cs scores sc[i·Cs + k] of row
 * i, the first maximum winning: how every learner and the τ sweep turn seen-class scores into
 * predictions. */
void en_argmax_seen(const st_stream *st, const double *sc, long n, int Cs, int *pred);
/* The augmenter's rows of the last update as it emitted them (row space, d columns, before the
 * learner's map), their labels and own weights ω (the learner gives each β·ω, times its class
 * weight), if collect_aug. */
int en_aug_rows(en_engine *e, int method, const gm_mat **rows, const int **labels, const double **weights);
/* The problem as method `method` sees it: its feature map's D, R (empty for the identity), h,
 * test_h (owned by the engine, valid while it lives). */
int en_method_space(const en_engine *e, int method, const en_problem **pm);
/* The k-th random draw or generated array of the method's learner (k = 0, 1, ...; for
 * --save-state): 1 with *out set, 0 past the last. en_draw is declared in gs_learner.h. */
struct en_draw_s;
int en_method_draw(en_engine *e, int method, int k, struct en_draw_s *out);

#endif
