/* gs_learner.h — learners: the classifiers a method trains (prefix en_, internal to the engine).
 *
 * A method is LEARNER[+AUGMENTER] (the method table, gs_mtable.h, lists both and parses the names). The learner is the classifier:
 * its feature map, the statistics it accumulates from rows, how it solves and predicts, the
 * spectrum it can show and the memory it needs. The augmenter (gs_methods.h, en_augmenter) only
 * makes synthetic rows. The rule that joins them: a learner sees the real rows of each task and
 * the augmenter's synthetic rows of that task, each synthetic row carrying its weight (β times the
 * augmenter's own ω), in every statistic it keeps.
 *
 * How a learner plugs in
 * ----------------------
 * Two places: its file src/learners/<name>.c, which defines a `const en_learner` (its name,
 * display name, chart letter, help line, the parameters it reads and its hooks), and its row in
 * the method table (src/methods/table.c, gs_mtable.h), which lists it. Everything else (--methods,
 * --help, tables, figures, the TUI, the claims) reads that struct through the table; the engine
 * receives it resolved (en_config.method) and never looks a name up. A learner calls nothing in
 * engine/: what it needs arrives as an argument (en_mctx, en_size). Two families:
 *
 *  EN_RIDGE — the engine owns the statistics: G = Σ ω h hᵀ and Q = Σ ω h yᵀ (one-hot y), and
 *    solves W = (G + τ_eff I)⁻¹ Q by Cholesky (src/engine/ridge.c), predicts argmax over the seen
 *    classes of hᵀW, and shows the spectrum of G + τI. The learner only says:
 *      class_weight(c)   weight of every row of class c, real or synthetic (AIR: 1/n_c);
 *                        NULL = 1. Learners with NULL share one base Gram of the real rows
 *                        (computed once per run); a learner with weights gets its own.
 *      tau_eff(t, τ)     the τ actually added at task t (AIR: τ/s); NULL = τ.
 *    gacl, air and ranpac are this family.
 *
 *  EN_STATS — the learner keeps its own statistics (class means, covariances, ...):
 *      reset()                       before task 0 (and again when its parameters change);
 *      fit(t, real, aug)             task t's rows, in order t = 0, 1, ...: `real` the task's real
 *                                    rows (weights NULL = 1), `aug` the augmenter's synthetic rows
 *                                    of task t with their weights (n = 0 without an augmenter).
 *                                    Every statistic must weight a row by its w (the rule above):
 *                                    a class sum is Σ w h, a count Σ w, a scatter Σ w (h−μ)(h−μ)ᵀ.
 *      predict(t, X, n, pred)        labels of n test rows X (n × D) for the model after task t
 *                                    (t ≤ the last fitted task; the engine may ask for an earlier
 *                                    task after a parameter change, so keep what that needs or
 *                                    refit), argmax over the classes of tasks 0..t;
 *      spectrum(t, eig, &n)          optional: eigenvalues (descending) of the matrix the learner
 *                                    would show (a covariance, named by spectrum_of), at most D
 *                                    values, for the last fitted task (n = 0 for another);
 *                                    NULL = none (the views say so). The engine asks where it
 *                                    computes the ridge spectra (EN_OWN_SPECTRUM);
 *      destroy()                     frees en_mctx.priv (the learner's state).
 *    ncm, slda, klda, fecam and anacp are this family.
 *
 * A learner with random draws of its own (AnaCP's layers, its replay rows) lists them through
 * `draw` so --save-state writes them and an independent implementation can replay the method.
 *
 * Rows are given in the learner's feature space: `map` (EN_MAP_RUN: identity, or ReLU(R z) with
 * --expand; EN_MAP_RELU: its own random ReLU projection, ranpac; EN_MAP_IDENTITY: z). The hooks'
 * en_mctx.p is the problem seen through that map: p->D columns, p->h the training rows, p->test_h
 * the test rows (p->z, p->test_z the rows before it). Learners whose maps are equal share the
 * mapped rows and, for ridge, the Gram of the real rows. `deps` lists the parameters (EN_DEP_*, gs_params.h) whose change
 * invalidates what the learner accumulated: the engine then resets and refits it. `bytes` is the
 * learner's memory beyond the rows the engine holds, for the estimate made before allocating
 * (src/engine/estimate.c; ridge learners are counted there; it reads en_size.largest_task, set there).
 *
 * Threading: the hooks of one method are called from one job at a time (never two tasks of the
 * same method concurrently), possibly on the engine's helper thread: use no global state.
 * Ownership: learner state lives in en_mctx.priv, created lazily by reset/fit, freed by destroy.
 */
#ifndef GS_LEARNER_H
#define GS_LEARNER_H

#include "gs_engine.h"

/* EN_DEP_* (the parameters an augmenter's rows or a learner's statistics depend on): gs_params.h,
 * where the parameter table gives each parameter its bit. */

/* The per-method context handed to learner and augmenter hooks. */
typedef struct {
    const en_problem *p;
    const op_params *params;
    void *priv;              /* the hook owner's state (learner and augmenter each have one) */
    int keep_draws;          /* --save-state: keep every random draw and generated row for `draw` */
} en_mctx;

/* One array a learner drew or generated (for --save-state): file name, role, rows × cols
 * (cols 0: a vector), doubles or (labels != NULL) int labels. Owned by the learner. */
typedef struct en_draw_s {
    char file[48];
    const char *role;
    const double *v;
    const int *labels;
    long rows, cols;
} en_draw;

/* Rows handed to a learner: n rows H (n × D, row-major) with labels y and weights w. */
typedef struct {
    const double *H;
    const int *y;
    const double *w;         /* NULL: every weight is 1 */
    long n;
    const double *omega;     /* synthetic rows: their own weights ω before the augmenter's weight
                              * (w = β·ω, the engine's product); NULL for real rows */
} en_rowset;

typedef enum { EN_RIDGE = 0, EN_STATS = 1 } en_family;

/* The feature map of a learner: how its rows h are made from the normalized rows z. */
typedef enum {
    EN_MAP_RUN = 0,      /* the run's map: identity, or ReLU(R z) with --expand (the default) */
    EN_MAP_IDENTITY,     /* the rows z themselves, whatever --expand says */
    EN_MAP_RELU          /* ReLU(R z), R (D × d) drawn by --projection from the seed's expansion
                          * stream; D = --expand when given, else map_dim */
} en_map_kind;

typedef struct en_learner {
    const char *name;        /* "gacl": its name in --methods */
    const char *display;     /* "GACL": its one spelling in tables, figures, the TUI and the claims */
    char letter;             /* its chart letter (distinct across the table; tests/chart/test_chart.c) */
    const char *summary;     /* its help line in --help */
    en_family family;
    unsigned deps;           /* EN_DEP_* bits that invalidate its statistics */
    en_map_kind map;         /* its feature map (EN_MAP_RUN = 0 unless set) */
    long map_dim;            /* EN_MAP_RELU: D without --expand */
    /* EN_RIDGE */
    double (*class_weight)(en_mctx *m, int c);
    double (*tau_eff)(en_mctx *m, int t, double tau);
    /* EN_STATS */
    int (*reset)(en_mctx *m);
    int (*fit)(en_mctx *m, int t, const en_rowset *real, const en_rowset *aug);
    int (*predict)(en_mctx *m, int t, const double *X, long n, int *pred);
    /* optional: task t again from the rows fit(t) was last given (the learner keeps them), the
     * synthetic rows' weights now w·ω (w: the augmenter's weight, β; ω: aug->omega of that fit).
     * When only w changed since every task was fitted, the engine calls it for t = 0, 1, ... instead
     * of reset and fit (the synthetic rows are not made again); it must give bit for bit what reset
     * and fit with weights w·ω give. What the learner keeps for it counts in `bytes`, which then
     * sees z->n_rows with the augmenter's rows added. */
    int (*refit)(en_mctx *m, int t, double w);
    int (*spectrum)(en_mctx *m, int t, double *eig, long *n);
    const char *spectrum_of; /* what `spectrum` shows, for the views ("shared covariance") */
    void (*destroy)(en_mctx *m);
    int last_model_only;     /* predict(t) works for the last fitted task only: the engine refits
                              * from task 0 when it needs the tasks again */
    /* both: the k-th array of its random draws and generated rows (k = 0, 1, ...): 1 with *out
     * set, 0 past the last; NULL = none (for --save-state, with en_mctx.keep_draws set) */
    int (*draw)(en_mctx *m, int k, en_draw *out);
    /* stats: bytes of the learner's own state at its peak for rows of D columns (its space) in the
     * run z describes (rows, classes, tasks, --expand, its parameters), for the estimate made
     * before allocating (src/engine/estimate.c); NULL = 0 */
    double (*bytes)(const en_size *z, long D);
} en_learner;

/* τ actually added to G at task t (0-based) by learner L (τ itself without a tau_eff hook). */
static inline double en_learner_tau(const en_learner *L, en_mctx *m, int t, double tau)
{
    return L->tau_eff ? L->tau_eff(m, t, tau) : tau;
}

#endif
