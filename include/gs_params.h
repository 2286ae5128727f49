/* gs_params.h — the one table of parameters (prefix pa_), in the manner of redis's config.c.
 *
 * Every value option (`--name V` on the command line, `name=V` in presets and sessions, with '_'
 * or '-', `--param name=v1,v2` in sweep, `--param name` in tune, a row of the TUI's parameters
 * panel) is one row of pa_table(): its name, its field in op_opts, its default, its valid range,
 * its TUI label, step and scale, its tuning range, its option group (OPG_*: a subcommand's row
 * lists the groups it accepts), the part of the replay a change invalidates (EN_DEP_* bits; 0 =
 * the stream and problem), and its --help line.
 * opts.c (parsing, op_defaults, op_validate), usage.c (--help), session.c (what a session
 * saves), tui/tui_params.c (the panel, steps and ranges), analysis/tuning.c (the search ranges),
 * cli/sweep.c (which names keep the problem) and methods/names.c (mt_uses) read it.
 *
 * The structs the rows' fields live in are here too (op_params, op_protocol, op_data, and the
 * spectrum and objective choices), below the option parser (gs_opts.h), so that the engine, the
 * stream and the loaders read their parameters without depending on the parser.
 *
 * Adding a parameter: a field in op_params (or op_protocol, op_data), one row in
 * src/config/params.c, and its line in man/gsrscope.1 (tests/config/test_params.c checks the line).
 * The table is data: pa_table_mut() exposes it to the tests, which change one row at run
 * time and check that every reader follows.
 */
#ifndef GS_PARAMS_H
#define GS_PARAMS_H

#include <stddef.h>
#include <stdint.h>

/* Option groups: every option is in one (a parameter row's `group`, a row of opts.c's option
 * table); a subcommand's row (op_command in gs_opts.h, main.c's table) lists the groups it
 * accepts, so a new subcommand edits no option's row. */
enum {
    OPG_STREAM = 1u << 0,    /* data, protocol, methods, the parameters, --preset, --session:
                              * every command that replays a stream */
    OPG_COMPUTE = 1u << 1,   /* --spectrum, --precision (without it a command computes in double) */
    OPG_FORMAT = 1u << 2,    /* --format */
    OPG_REPORT = 1u << 3,    /* --save-state, --theorem, --split (run) */
    OPG_QUIET = 1u << 4,     /* --quiet: the headless commands */
    OPG_FIGURE = 1u << 5,    /* --figure, -o, --dpi, --task, --frames, ... (export) */
    OPG_PARAM = 1u << 6,     /* --param */
    OPG_SEEDS = 1u << 7,     /* --seeds */
    OPG_OBJECTIVE = 1u << 8, /* --objective, and -o with OPG_FIGURE (tune) */
    OPG_OUT_DIR = 1u << 9,   /* --out DIR (synth) */
    OPG_TERMINAL = 1u << 10, /* --ascii, --tour, --theme (the TUI) */
    OPG_GENERAL = 1u << 11,  /* --help, --version: every command, without being listed */
    OPG_TABLE = 1u << 12,    /* --columns (table) */
    OPG_TUNED = 1u << 13     /* --tuned FILE, --set METHOD.KEY=V: each method's own values (run,
                              * table, export; gs_tuned.h) */
};

/* all: the N(N−1) ordered pairs i ≠ j (default); random: one random partner per row; literal:
 * the N² ordered pairs with i = j included, as Algorithm 1 writes it */
typedef enum { OP_PAIRS_ALL, OP_PAIRS_RANDOM, OP_PAIRS_LITERAL } op_pairs;
/* --max-aug all: no cap on the synthetic rows per class (Algorithm 1 has none) */
#define OP_MAX_AUG_ALL (-1L)
typedef enum { OP_AUG_ALL, OP_AUG_TAIL } op_augment;

/* The parts of a replay a parameter's change invalidates: an augmenter's rows or a learner's
 * statistics list the ones they depend on (gs_learner.h, gs_methods.h); the table gives each
 * parameter its bit. */
enum {
    EN_DEP_ALPHA = 1u << 0, EN_DEP_XI = 1u << 1, EN_DEP_PAIRS = 1u << 2, EN_DEP_MAXAUG = 1u << 3,
    EN_DEP_AUGMENT = 1u << 4, EN_DEP_GAUSS_A = 1u << 5, EN_DEP_GAUSS_B = 1u << 6,
    EN_DEP_SLDA = 1u << 7, EN_DEP_BETA = 1u << 8, EN_DEP_TAU = 1u << 9,
    EN_DEP_KLDA = 1u << 10,  /* --klda-dim, --klda-gamma, --klda-reg */
    EN_DEP_FECAM = 1u << 11, /* --fecam-alpha, --fecam-tukey */
    EN_DEP_LAMBDA = 1u << 12 /* RanPAC's λ chosen on the validation rows (op_params.ranpac_lambda):
                              * its solve only, never a statistic (no refit) */
};

/* The tunable hyperparameters and method options (what the TUI edits). Defaults and ranges: the
 * table. */
typedef struct {
    double alpha_base;   /* GSR α_base */
    double xi;           /* GSR ξ */
    double beta;         /* weight of the synthetic rows */
    double tau;          /* ridge τ */
    uint64_t seed;
    op_pairs pairs;
    long max_aug;        /* rows per class; OP_MAX_AUG_ALL: no cap */
    op_augment augment;
    double gauss_a;      /* gauss-shrink: (1-a)Σ_tail + aI */
    double gauss_b;      /* gauss-transfer: Σ_tail + bΣ_head */
    double slda_eps;     /* slda shrinkage */
    double ranpac_lambda;/* ranpac's ridge λ when chosen on the validation rows (run --val-frac),
                          * 0 = unset: ranpac uses τ (not an option: no row) */
    long klda_dim;       /* klda: random Fourier features */
    double klda_gamma;   /* klda: kernel width γ (W ~ N(0, 2γ)) */
    double klda_reg;     /* klda: ridge added to the shared scatter */
    double fecam_alpha;  /* fecam: shrinkage α₁ (times the mean variance) */
    double fecam_tukey;  /* fecam: Tukey power β (1 = none) */
} op_params;

typedef enum { OP_PROFILE_STEP, OP_PROFILE_EXP, OP_PROFILE_NONE } op_profile;
typedef enum { OP_ORDER_SHUFFLED, OP_ORDER_ORDERED } op_order;
/* Largest D whose exact spectrum --spectrum auto computes without being asked: LAPACK dsyevd
 * costs about D³ (measured on one core: 1 s at D = 2048, 16 s at D = 5000). */
#define EN_SPECTRUM_AUTO_MAX 2048
/* AUTO (default): FINAL when the exact spectrum is cheap (D ≤ EN_SPECTRUM_AUTO_MAX), else exact
 * spectra only where asked (en_ensure_spectrum: figures, --save-state, the TUI's views). */
typedef enum { OP_SPECTRUM_FINAL, OP_SPECTRUM_ALL, OP_SPECTRUM_AUTO } op_spectrum;
typedef enum { OP_OBJ_ACC, OP_OBJ_TAIL, OP_OBJ_BALANCED } op_objective;

/* The long-tailed protocol (gsrscope(7), STREAM). */
typedef struct {
    int tasks;           /* clamped to C; defaults and ranges: the parameter table */
    op_profile profile;  /* step, exp, or none: keep the pool as it is */
    double head_frac;
    long tail_shots;
    long head_shots;     /* 0 = all rows */
    double rho;          /* 0 = unset; step: tail = floor(Nmax/rho); exp: 100 */
    op_order order;
    double val_frac;     /* [0, 1): per-class held-out fraction of the kept training rows, 0 = none */
} op_protocol;

/* --precision auto (the engine's rule, written here for --help to print): single precision from this D of the run (--expand) on. There the D×D work
 * (syrk, Cholesky: D³/3 per task) dominates a replay and float halves its time and memory; a
 * Gram matrix with cond(G + τI) = κ loses about κ·D·ε_single in relative accuracy, checked per
 * task (EN_SINGLE_KAPPA). Below it double costs under a second and every number stays the exact
 * double one (the default D = 768 and every documented example). */
#define EN_SINGLE_MIN_D 2048
/* The arithmetic of the ridge learners (--precision: the commands with OPG_COMPUTE): double
 * everywhere, single (rows, Gram matrices, Cholesky and predictions in float), or auto: single
 * from the run's D ≥ EN_SINGLE_MIN_D (above), else double. Zero is double: the library's default. */
enum { OP_PREC_DOUBLE = 0, OP_PREC_SINGLE = 1, OP_PREC_AUTO = 2 };

/* How random projections (--expand, ranpac) are drawn. */
enum { OP_PROJ_GAUSSIAN = 0, OP_PROJ_UNIFORM = 1 };

/* Where the data comes from. */
typedef struct {
    int synthetic;
    const char *sample;  /* --sample: "pixels" or "mobilenetv2" (static strings), NULL = pixels */
    const char *data_dir;
    const char *idx_dir;
    const char *train_features, *train_labels, *test_features, *test_labels;
    int label_col;       /* CSV label column, -1 = last */
    int no_normalize;
    long expand;         /* 0 = none, else D */
    int projection;      /* OP_PROJ_GAUSSIAN (default: N(0,1) entries) or OP_PROJ_UNIFORM */
    int precision;       /* OP_PREC_*: auto for run (the default there), double for the others */
    double max_memory;   /* bytes, 0 = what the machine has */
} op_data;

/* Methods one run (one engine) holds at most (--methods). */
#define OP_MAX_METHODS 16

typedef enum { PA_DBL, PA_LONG, PA_INT, PA_SEED, PA_ENUM } pa_kind;
/* The TUI's step: none (not in the panel), additive (step), or multiplicative over the round
 * values 1, 2, 5, 10, 20, ... (down from `step`, the smallest non-zero value, goes to lo). */
typedef enum { PA_STEP_NONE, PA_STEP_ADD, PA_STEP_125 } pa_scale;
/* Bounds: open ends, 0 meaning "unset" outside the range (--rho, said in the range's text), and 0
 * meaning "the default" outside it (--dpi: the range's text does not name it). */
enum { PA_LO_OPEN = 1u, PA_HI_OPEN = 2u, PA_ZERO_UNSET = 4u, PA_ZERO_DEFAULT = 8u };
/* --help sections the rows are listed in. */
typedef enum { PA_SEC_DATA, PA_SEC_PROTOCOL, PA_SEC_METHODS } pa_section;

typedef struct {
    const char *name;        /* "alpha-base" (also read as alpha_base) */
    pa_kind kind;
    size_t off;              /* offsetof(op_opts, field) */
    const char *const *names;/* PA_ENUM: the values' names, in enum order */
    int n_names;
    double def;              /* default (PA_ENUM: the index) */
    double lo, hi;           /* valid range (hi may be HUGE_VAL) */
    unsigned bounds;         /* PA_LO_OPEN | PA_HI_OPEN | PA_ZERO_UNSET */
    const char *word;        /* a word that also stands for a value (NULL: none): --max-aug all */
    double word_val;         /* its value, valid outside the range (OP_MAX_AUG_ALL) */
    const char *label;       /* the TUI's panel label (NULL: not in the panel) */
    pa_scale scale;          /* the TUI's step */
    double step;             /* PA_STEP_ADD: the increment (also the least value stepping reaches);
                              * PA_STEP_125: the least non-zero value */
    double tune_lo, tune_hi; /* tune's search range; tune_grid 0: not tunable */
    int tune_log, tune_grid; /* log10 scale; points of the coarse grid */
    unsigned group;          /* its option group (OPG_*): the subcommands listing it accept it */
    unsigned dep;            /* EN_DEP_* a change invalidates; 0: the stream and problem */
    pa_section section;      /* --help section */
    const char *arg;         /* --help metavariable ("T"); enums: their names */
    const char *help;        /* --help text: %r the range, %d the default */
    const char *why;         /* a refusal's reason, printf'd with lo ("below %g dpi the text is
                              * unreadable"); NULL: none */
} pa_param;

/* The table and its size. */
const pa_param *pa_table(void);
int pa_count(void);
/* The tests' handle on the same rows (to change a range at run time). */
pa_param *pa_table_mut(void);
/* The number options that are not parameters (export's --dpi, --frame-ms, --width-in,
 * --font-scale): rows of the same kind, read by the parser (op_opts fields, ranges, refusals)
 * and --help (usage.c), but never saved in sessions, set by --param, shown in the TUI or tuned. */
const pa_param *pa_options(void);
int pa_option_count(void);
/* The option row of a name, or NULL. */
const pa_param *pa_find_option(const char *name);
/* The row of a name ("alpha_base" or "alpha-base"), or NULL. */
const pa_param *pa_find(const char *name);
/* The row's name as sessions and tune's output write it, with '_' for '-' ("alpha_base"). */
const char *pa_key(const pa_param *r);
/* The row's value in a whole op_opts (passed as a pointer to it), as a double, and assignment
 * (rounded to the field's type). */
double pa_get(const void *opts, const pa_param *r);
void pa_put(void *opts, const pa_param *r, double v);
/* The row's field inside op_params, or -1 when the field is not in op_params. */
long pa_params_off(const pa_param *r);
double pa_get_params(const op_params *p, const pa_param *r);
void pa_put_params(op_params *p, const pa_param *r, double v);
/* 1 when `tune` searches the row: it has a tuning grid (tune_grid > 1) and lives in op_params. */
int pa_tunable(const pa_param *r);
/* The row's tuning grid as --help and the man page write it: "tau 1e-4..1e5 (10 points, log
 * scale)", "beta 0..4 (9 points)". */
void pa_tune_text(const pa_param *r, char *buf, size_t cap);
/* 1 when v is in the row's valid range. */
int pa_in_range(const pa_param *r, double v);
/* The range as text: "(0, 1]", "[0, 1e12]", "≥ 0", "0 (unset) or ≥ 1", "≥ 0 or 'all'". */
void pa_range_text(const pa_param *r, char *buf, size_t cap);
/* A number as the table writes it: %g with a short exponent ("1e12", "0.005"). */
void pa_num_text(double v, char *buf, size_t cap);
/* The default as --help writes it ("0.6", "all", "none"). */
void pa_default_text(const pa_param *r, char *buf, size_t cap);
/* GS_OK, or GS_EINPUT with "--name: must be in RANGE (WHY), got V" when v is out of range. */
int pa_check(const pa_param *r, double v);
/* The TUI's step from v in direction dir (+1/-1): the new value, kept in the valid range (and
 * at least `step` for additive rows). Equal to v at the end of the range. */
double pa_step(const pa_param *r, double v, int dir);
/* The EN_DEP_* bits of the op_params rows whose values differ between a and b. */
unsigned pa_changed_deps(const op_params *a, const op_params *b);

#endif
