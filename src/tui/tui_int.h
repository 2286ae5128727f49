/* tui/tui_int.h — internals shared by the TUI files (src/tui*.c); not a public API.
 * tui_draw.c composes a whole frame into a cv_canvas (pure); tui_worker.c runs the engine in a
 * pthread; tui_actions.c is what the keys do to the UI state; tui.c owns curses and the event
 * loop. */
#ifndef GS_TUI_INT_H
#define GS_TUI_INT_H

#include <pthread.h>
#include <stdint.h>

#include "gs_canvas.h"
#include "gs_claims.h"
#include "gs_collapse.h"
#include "gs_engine.h"
#include "gs_lens.h"
#include "gs_mtable.h"
#include "gs_opts.h"
#include "gs_pipeline.h"
#include "gs_preset.h"
#include "gs_spectral.h"
#include "gs_tausweep.h"
#include "gs_tour.h"
#include "gs_tui.h"

/* ---- the lower-left panel's views (key v) ---- */
typedef enum {
    TV_STABLE = 0, /* stable rank over tasks */
    TV_TAU,        /* accuracy and stable rank against τ at the task (worker: ts_compute) */
    TV_THEOREM,    /* Theorem 1 at the task (worker: sp_theorem1) */
    TV_ERANK,      /* effective rank and condition number over tasks */
    TV_CLASS,      /* per-class accuracy by class size at the task */
    TV_RATIO,      /* λ̃ᵢ/λᵢ at the task */
    TV_CLAIMS,     /* the paper's claims against this data (worker: Theorem 1, τ sweep of GACL) */
    TV_COLLAPSE,   /* energy of G+τI along each class's direction (worker: co_compute) */
    TV_LENS,       /* the ridge lens: filter factors, df(τ), class directions above τ (worker: rl_compute) */
    TV_COUNT
} tui_lower_view;
/* Panel title of a view ("Stable rank", "τ sweep", ...). */
const char *tui_view_title(int view);
/* The figure `e` exports for the view (gs_figure.h name; the stable-rank view: "dashboard"). */
const char *tui_view_figure(int view);
/* Its short name ("τ sweep", "erank & κ") for narrow panels. */
const char *tui_view_short(int view);
/* Does the view need a computation in the worker (τ sweep, Theorem 1)? */
int tui_view_needs_worker(int view);

/* What the worker computed for one (generation, task, view); owned by whoever holds it. */
typedef struct {
    uint64_t gen;
    int task, view;
    int st;                     /* GS_OK, or an error (message in error) */
    char error[256];
    ts_curve ts[2];             /* TV_TAU: curves of the shown ridge methods */
    int nts;
    double tau;                 /* τ of the parameters (marked on the τ axis) */
    sp_theorem th;              /* TV_THEOREM */
    int have_th;
    char th_method[32];         /* the augmenting method compared with GACL */
    long D;
    int m0, m1;                 /* the shown pair it was computed for */
    co_result co;               /* TV_COLLAPSE */
    int have_co;
    char th_error[256];         /* TV_CLAIMS: why Theorem 1 is missing ("" when computed) */
    mc_rows mech;               /* TV_CLAIMS: spread and mass of the augmenting method's rows */
    int have_mech;
    rl_result lens;             /* TV_LENS */
    int have_lens;
} tui_extra;
/* tui_views.c: the reference (plain ridge: "gacl" when shown, else m0) and the compared method of
 * the shown pair; *aug = -1 when there is no second method. */
void tui_ref_aug(const en_results *r, int m0, int m1, int *ref, int *aug);
/* Does the view take the whole lower row (claims, collapse)? */
int tui_view_wide(int view);
void tui_extra_free(tui_extra *x);

/* ---- what one frame shows (tui_draw.c) ---- */
typedef struct {
    const en_results *r;        /* NULL while nothing is computed */
    const en_results *base;     /* pinned baseline or NULL */
    const op_params *params;    /* current (requested) parameters */
    const op_params *base_params;
    int task, T;
    int playing;
    double speed;               /* tasks per second */
    int busy;                   /* worker computing */
    double progress;            /* 0..1 */
    int spinner;
    int sel;                    /* selected tui_param */
    const char *edit;           /* editor text, NULL when closed */
    int help;
    const char *message;        /* status message ("" for none) */
    int message_error;
    const char *data_name;
    const char *preset;         /* name of the last preset applied, or "" */
    int color;
    int m0, m1;
    int lower;                  /* tui_lower_view of the lower-left panel */
    const tui_extra *ex;        /* worker result for exactly this generation/task/view, or NULL */
    int future;                 /* 1: task-axis charts show the tasks after the current one too */
    int help_scroll;            /* first help row shown */
    const char *tour_name;      /* the tour being played, or NULL */
    int tour_step;              /* 1-based step of the tour, 0 = no tour */
    int tour_n;                 /* steps in the tour */
    const tr_step *tour;        /* the step shown (text, panel), NULL without a tour */
    int scroll;                 /* first row of a scrolled view (claims) */
    int *scroll_out;            /* or NULL: the claims view writes the first row it showed there
                                 * (scroll clamped to its last page: PgUp then moves at once) */
    int nseeds;                 /* --seeds: how many (1 without) */
    const en_results *const *seed_runs; /* every seed's results of the shown generation (r
                                 * first), or NULL while some are pending: the accuracy and
                                 * stable-rank charts then draw their mean with a ± std band */
    int nseed_runs;
    int single;                 /* the ridge learners compute in single precision (--precision) */
    int factoring;              /* the task the worker reduces for fast τ changes, 0: none */
    char pending[48];           /* tasks not yet computed ("3–10", "2, 5–10"), "" when none */
    char work[160];             /* what the worker computes (tw_work), "" when not named */
    int updating;               /* the results themselves are being updated (progress: its fraction) */
    int ahead;                  /* the task whose ridge lens is computed ahead of a step (0: none) */
} tui_view;

/* Title of the Accuracy panel for the shown pair: "Accuracy — GACL vs AIR (head, tail,
 * overall)" (display names, ch_display_name); m1 < 0: one method. */
void tui_accuracy_title(const en_results *r, int m0, int m1, char *buf, int n);
/* Next index for a slot cycling through n methods from cur, skipping `other` (never both
 * slots on the same method); returns cur when there is no other choice. */
int tui_cycle_method(int cur, int other, int n);

/* Compose the frame into cv (cleared first). Screens smaller than TUI_MIN_COLS × TUI_MIN_ROWS
 * get the "need at least WxH" message. */
void tui_draw(cv_canvas *cv, const tui_view *v);
/* Rows PgDn / PgUp move the claims view on a cols × rows screen showing message (the visible
 * rows minus one; at least 1). */
int tui_claims_page(int cols, int rows, const char *message, cv_glyphs g);
/* Help rows wrapped to w cells (keys, then what the numbers mean); returns the count. */
int tui_help_rows(const cv_canvas *cv, int w, char (*out)[TUI_HELP_LEN], int max);
/* Numbers of one method at one task for the parameters panel, e.g. "81.2" or "…" (pending). */
void tui_fmt_pct(const en_snap *s, double v, char *buf, int n);
/* Rasterize a built chart into (x, y, w, h), its ticks thinned for the cell grid. */
void tui_draw_built(cv_canvas *cv, int x, int y, int w, int h, ch_chart *c, const tui_view *v);

/* ---- the worker's text views (tui_text.c) ---- */
/* Word-wrapped text from (x, y) in w cells and at most h rows; a word longer than the line is
 * split. Returns the rows used (with h < 0: the rows needed, nothing drawn). */
int tui_wrap_text(cv_canvas *cv, int x, int y, int w, int h, const char *text, unsigned char attr);
/* The lower panel's text views in (x, y, w, h) from the worker's extra results: Theorem 1's
 * numbers, the claims and their verdicts (scrolled by v->scroll). */
void tui_theorem_text(cv_canvas *cv, int x, int y, int w, int h, const tui_extra *ex, const tui_view *v);
/* The first screen's one line (paused at task 1): what to watch, from the results, and the key to
 * see it, e.g. "GACL's tail accuracy falls to 0 % by task 4 (GSR's: 35 %) — press Space to play":
 * the first task where the reference's tail accuracy (tui_ref_aug) reaches its lowest, said only
 * when that is at least 5 points under its highest before; else what is true ("stays at X % or
 * more") or only how to play. The longest form that fits w cells (the last one otherwise). */
void tui_first_line(const cv_canvas *cv, const en_results *r, int m0, int m1, int T, int w, char *buf, int n);
/* The hint bar in rc (one row): the editor's keys while it is open, a tour's keys, else the key
 * table's hints; where the full form drops pin, undo, export or save, a compact form keeps them. */
void tui_hint_bar(cv_canvas *cv, const tui_rect *rc, const tui_view *v);
/* A tour step's text line with its placeholders filled from the run the view shows at the step
 * (tui_tour_text.c; the list and the rules: man gsrscope, TOURS): {R} and {A} the shown pair's
 * names (R the plain ridge), {task}; {acc:X} {head:X} {tail:X} {sr:X} {df:X} {headabove:X}
 * {tailabove:X} (X = R or A) as the panels print them; {cmp:q} "higher", "lower" or "the same"
 * (A's printed q against R's); {tailstory:X} how X's tail accuracy moved up to the task. "…"
 * while a number is not computed; an unknown key stays as written. */
void tui_tour_fill(const tui_view *v, const char *text, char *out, int n);
void tui_claims_text(cv_canvas *cv, int x, int y, int w, int h, const tui_extra *ex, const tui_view *v);

/* ---- presets (tui_preset.c) ---- */
/* Does preset p apply to the TUI's run o (it leaves the data and the protocol as they are)? 1 and
 * the options it gives in *out (may be NULL), else 0 (also for a broken preset). */
int tui_preset_applies(const ps_preset *p, const op_opts *o, op_opts *out);
/* The next preset after index cur (-1: none yet), in ps_get order and wrapping, that applies to o;
 * its index (and its options in *out), or -1 when none does. The key P cycles these. */
int tui_preset_next(int cur, const op_opts *o, op_opts *out);

/* ---- colours (tui_colour.c) ---- */
/* The nearest entry of the xterm 256-colour palette (cube or grey ramp) to 0xRRGGBB. */
int tui_rgb_to_256(uint32_t rgb);
/* The RGB of xterm palette entry idx (16..255; 0 for the 16 system colours, which vary). */
void tui_xterm_rgb(int idx, int *r, int *g, int *b);

/* ---- data files (tui_assets.c) ---- */
/* Path of asset NAME of KIND ("tours", "themes") with extension ext (".tour") into out; a NAME
 * with '/' is taken as a path. GS_OK, or GS_EINPUT with a message naming where it looked. */
int tui_asset_find(const char *kind, const char *name, const char *ext, char *out, size_t n);

/* Colour themes (assets/themes/NAME.theme): "role: colour" lines, colour #rrggbb or terminal. */
typedef struct {
    uint32_t text, background;  /* CV_RGB_DEFAULT: the terminal's own */
    uint32_t gacl, gsr;         /* what the figures' GACL red and GSR blue become */
    int colour;                 /* 0: no colour at all (mono) */
} tui_theme;
/* Parse a theme (defaults: the terminal's colours, the figures' GACL/GSR). GS_OK or GS_EINPUT
 * ("FILE: line N: ..."). */
int tui_theme_parse(const char *text, const char *path, tui_theme *t);
/* Find NAME (tui_asset_find "themes") and parse it. */
int tui_theme_load(const char *name, tui_theme *t);

/* ---- the worker (tui_worker.c) ---- */
#define TUI_MAX_SEEDS 16        /* --seeds: every seed keeps its own pipeline and engine */
#define TUI_GKEY_HIST 8         /* parameter sets whose lens keys the worker remembers */
struct tui_worker_s;
/* The ridge lens of the next task, computed ahead on a helper thread (tui_worker.c lens_ahead):
 * the worker fills it and starts the thread; the thread reads G, d and writes out, st, then done;
 * the worker reads them after joining it. */
typedef struct {
    struct tui_worker_s *w;
    pthread_t th;
    int running;                /* worker only: a thread to join */
    int done;                   /* atomic: the thread finished */
    int task, n, st;
    int ms[RL_MAX];
    uint64_t keys[RL_MAX];
    gm_mat G[RL_MAX];           /* copies of the methods' Gram matrices (freed by the thread) */
    co_dirs d;                  /* the task's class directions */
    rl_eig out[RL_MAX];
} tui_ahead;
typedef struct tui_worker_s {
    pthread_t th;
    int started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int wake[2];                /* self-pipe: the worker writes a byte after publishing */
    /* request, under mu */
    uint64_t req_gen;
    op_opts req_opts;
    int req_task;
    int quit;
    int export_req;             /* 1: export export_figure to export_path */
    int export_frames;          /* 1: its frames, one page per task (key E) */
    char export_path[4096];
    char export_figure[32];     /* a gs_figure.h name ("dashboard", "tau-sweep", ...) */
    en_results *export_base;    /* owned copy of the baseline for the export, or NULL */
    int tune_req;               /* 1: tune parameter tune_param of method tune_m on validation */
    int tune_param, tune_m;     /* tui_param, index into the results */
    int tune_done;              /* 1: the result below is new (taken by tw_take_tune) */
    uint64_t tune_gen;          /* generation the tuning started from */
    double tune_value, tune_obj;
    volatile int cancel;
    int req_view;               /* tui_lower_view the UI shows */
    volatile int ex_cancel;     /* stop the running view computation (task/view/gen changed) */
    int playing;                /* under mu: playback runs; a task change then lets the running
                                 * view computation finish (drawn when ready), never cancels it */
    /* published, under mu */
    en_results *pub;            /* newest copy not yet taken by the UI (owned) */
    tui_extra *pub_ex[TV_COUNT]; /* each view's newest computation not yet taken (owned) */
    int busy;
    double progress;
    char msg[512];              /* message for the status line ("" none) */
    int msg_error;
    int msg_new;
    en_results *pub_seeds[TUI_MAX_SEEDS]; /* --seeds: the other seeds' newest runs (owned), */
    int pub_nseeds;             /* all of one generation, not yet taken by the UI */
    /* worker only */
    pl_ctx *ctx;                /* ctx[0]: the shown seed; ctx[1..nctx): the other --seeds */
    int nctx;
    uint64_t seeds[TUI_MAX_SEEDS]; /* seeds[k] of ctx[k] (k >= 1) */
    op_protocol xproto[TUI_MAX_SEEDS]; /* the protocol ctx[k] was built with */
    int xbuilt[TUI_MAX_SEEDS];  /* ctx[k] holds a stream and engine for xproto[k] */
    en_config cfg;
    op_opts cur;                /* options the ctx was built with */
    uint64_t done_gen;
    int spec_task;
    unsigned spec_mask;         /* the pair whose spectra at spec_task were asked (en_method_bit) */
    double last_pub;
    uint64_t work_gen;
    /* each view's last computation done (its inputs: generation, task, shown pair): a view
     * computes again only when one of them changed */
    uint64_t ex_gen[TV_COUNT];
    int ex_task[TV_COUNT];
    int ex_runs;                /* view computations started (tests count them) */
    int req_m0, req_m1;         /* the shown pair (under mu): τ sweep, Theorem 1, export */
    int ex_m0[TV_COUNT], ex_m1[TV_COUNT];
    volatile int sp_cancel;     /* stop the all-task spectrum sweep (generation/view changed) */
    uint64_t sp_gen;            /* generation whose spectra are complete at every task, */
    unsigned sp_mask;           /* for these methods (the pair shown then) */
    /* large D (en_tau_factor_wanted): the shown task's tridiagonal form (en_prepare_tau) */
    int fa_wanted;
    volatile int fa_cancel;     /* stop it: a new request, another task, quit, export, tuning */
    uint64_t fa_gen;            /* the generation and task it was done for (resumed otherwise) */
    int fa_task;
    int factoring;              /* under mu: the task being reduced (0: none), for the status bar */
    char work[160];             /* under mu: what the worker computes now, for the status bar ("ridge
                                 * lens, task 10: eigendecomposition of G (GSR), about 0.4 s
                                 * (estimate)"; "" when idle or between steps) */
    int updating;               /* under mu: en_update runs (progress is its fraction) */
    int ahead;                  /* under mu: the task whose lens is computed ahead of a step (0: none) */
    /* worker only: the ridge lens's eigendecompositions, kept per method and task (rl_cache),
     * keyed by gkey[m], which moves on when a parameter m's G depends on changes (never τ) */
    rl_cache lens_cache;
    uint64_t gkey[OP_MAX_METHODS];
    op_params gk_params[TUI_GKEY_HIST]; /* the last parameters seen and each method's key there */
    uint64_t gk_key[TUI_GKEY_HIST][OP_MAX_METHODS];
    int ngk;
    unsigned long gk_next;      /* the next history slot to reuse */
    uint64_t gk_count;          /* keys given so far (a new key: the next) */
    int lens_eigs;              /* under mu: eigendecompositions the lens computed on the worker
                                 * (tests count them; those computed ahead are not counted) */
    double eig_rate;            /* seconds per D³ of the last eigendecompositions (0: none yet) */
    tui_ahead ah;               /* worker only: the next task's lens, computed ahead */
} tui_worker;

/* The worker's own, shared by tui_worker.c and tui_lens.c (worker thread only unless said). */
void tw_wake(tui_worker *w);                /* wakes the UI (any thread) */
void tw_set_work(tui_worker *w, const char *name, int task, const char *detail); /* for the status bar */
static inline int tw_valid_m(const en_results *r, int m) { return m >= 0 && m < r->n_methods; }
/* The ridge lens (tui_lens.c): the next task's eigendecompositions on a helper thread; their
 * results into the cache (when done, or wait); each method's key of what its G depends on (fresh:
 * a new stream); the lens of `task` into x (GS_OK or an error). */
void tw_lens_ahead(tui_worker *w, int task, int m0, int m1);
void tw_ahead_collect(tui_worker *w, int wait);
void tw_lens_keys(tui_worker *w, const op_params *q, int fresh);
int tw_extra_lens(tui_worker *w, int task, tui_extra *x);

/* Start the worker on opened pipelines (not owned): ctx[0] the shown run, ctx[1..nctx) the other
 * seeds of --seeds (seeds[k] for ctx[k]; nctx = 1 without). After every parameter change the
 * worker updates ctx[0] first (progress, publish), then each other seed in turn (cancelled by a
 * newer request like the first) and publishes their results together (tw_take_seeds).
 * GS_OK or GS_ERUN. */
int tw_start(tui_worker *w, pl_ctx *ctx, int nctx, const uint64_t *seeds, const en_config *cfg, const op_opts *o);
/* The task whose tridiagonal form the worker computes (for fast τ changes), 0 when none. */
int tw_factoring(tui_worker *w);
/* What the worker computes now into buf ("" when nothing named): see tui_worker.work; *updating
 * 1 while the results themselves are updated (progress is then that update's fraction); *ahead
 * the task whose ridge lens the worker computes ahead of a step, the screen complete (0: none). */
void tw_work(tui_worker *w, char *buf, int n, int *updating, int *ahead);
/* The other seeds' results of one generation (ownership passes to the caller: en_results_free
 * + free each); returns their count (0: nothing new). */
int tw_take_seeds(tui_worker *w, en_results **out, int max);
/* New parameters/options (gen bumps: a running computation is cancelled) and current task. */
void tw_request(tui_worker *w, const op_opts *o, uint64_t gen, int task);
/* Ask for an export of figure (gs_figure.h name) from the current results (baseline copied). */
void tw_export(tui_worker *w, const char *path, const char *figure, const en_results *baseline);
/* The same as a PDF of frames 1..the shown task (gs_figure.h, fig_request.frames; one seed). */
void tw_export_frames(tui_worker *w, const char *path, const char *figure, const en_results *baseline);
/* The view shown in the lower-left panel (the worker computes what it needs for the task). */
void tw_set_view(tui_worker *w, int view);
/* The shown pair of methods (indices into the results; m1 may be -1). */
void tw_set_pair(tui_worker *w, int m0, int m1);
/* Playback on (1) or off (0). While it plays, the shown task moves on at the rate shown and a
 * view's computation that is slower than that rate is not stopped by the next task: it finishes
 * and is published for its own task (the UI draws it labelled as such), then the worker takes up
 * the task shown by then, skipping the ones passed meanwhile. Off: a task change stops it, as any
 * other change does. */
void tw_set_playing(tui_worker *w, int on);
/* Tune parameter `param` (tui_param, not the seed) of method m on the validation rows, from the
 * current parameters (the objective: validation accuracy after the last task, as `tune`; with
 * --seeds its mean over the seeds, as `tune --seeds`). */
void tw_tune(tui_worker *w, int param, int m);
/* 1 when a tuning result is new: the parameter, its chosen value, the validation accuracy there
 * and the generation it started from (the caller drops it if the parameters changed since). */
int tw_take_tune(tui_worker *w, int *param, double *value, double *obj, uint64_t *gen);
/* A view computation not yet taken, any view, or NULL (ownership passes to the caller; free
 * with tui_extra_free + free); call until NULL. */
tui_extra *tw_take_extra(tui_worker *w);
/* Newest results (ownership passes to the caller), or NULL. */
en_results *tw_take(tui_worker *w);
/* Status: busy flag, progress, and a new message (copied into msg, returns 1 if new). */
int tw_status(tui_worker *w, int *busy, double *progress, char *msg, int n, int *is_error);
void tw_stop(tui_worker *w);


/* ---- the UI's state and what keys do (tui_actions.c); tui.c holds it, draws it and reads the keys ---- */
#define TUI_UNDO_MAX 64
typedef struct {
    op_opts opts;
    uint64_t gen;
    int task, T;
    int playing, speed;
    double next_tick;
    int sel;
    int editing;
    char edit[48];
    int help;
    int help_scroll;
    int future;              /* show the tasks after the current one (key f) */
    int scroll;              /* first row of the claims view */
    tr_tour tour;            /* --tour: the steps (empty without a tour) */
    int tour_step;           /* 1-based step shown, 0 = no tour */
    op_opts tour_base;       /* the options when the tour started (steps apply on top) */
    char tour_name[64];
    en_results *res, *base;
    op_params base_params;
    op_opts undo[TUI_UNDO_MAX];
    int nundo;
    char msg[512];
    int msg_err;
    int preset;              /* index of the last preset applied, -1 none */
    cv_glyphs glyphs;
    int utf8;
    int color_mode;          /* 0 none, 8, 256 */
    tui_theme theme;         /* --theme (colours of text, background, GACL, GSR) */
    short bg;                /* background colour index, -1 = the terminal's */
    const char *session_path;
    char data_name[128];
    int spinner;
    tui_worker *w;
    short pair_of[257];
    short npairs;
    int view;                /* tui_lower_view of the lower-left panel */
    tui_extra *ex[TV_COUNT]; /* each view's latest computation from the worker (owned), or NULL:
                              * back on a view whose inputs did not change, it shows at once */
    int m0, m1;              /* the shown pair: indices into --methods (m1 -1 with one method) */
    int nseeds;              /* --seeds: how many (1 without); the first is the shown run's */
    en_results *seed_runs[TUI_MAX_SEEDS]; /* the other seeds' newest results (owned) */
    int nseed_runs;
    char reserved[8][96];    /* names e/E reserved (an empty file each) for exports asked for; one
                              * still empty when the TUI ends was not written: it is removed */
    int nreserved;
} tui_state;
/* Tasks per second at the play speed shown ([ and ] change it). */
double tui_speed(const tui_state *u);
/* The status line's message: fmt with one %s (a, or "" when NULL); err 1 shows it as an error. */
void tui_message(tui_state *u, int err, const char *fmt, const char *a);
/* Show task t (clamped to 1..T) and ask the worker for it. */
void tui_set_task(tui_state *u, int t);
/* Show step k of the tour: the presets and parameters of steps 1..k on the options the tour
 * started from, then that step's task, view and future setting. */
void tui_tour_show(tui_state *u, int k);
/* A tuning result from the worker, applied as a parameter change (u undoes it) unless the
 * parameters changed since it started (generation gen). */
void tui_apply_tune(tui_state *u, int p, double v, double obj, uint64_t gen);
/* What key ch does (on a screen of cols × rows, at time now): TUI_KEY_DONE, TUI_KEY_QUIT, or
 * TUI_KEY_REDRAW (the caller repaints the whole terminal). */
enum { TUI_KEY_DONE, TUI_KEY_QUIT, TUI_KEY_REDRAW };
int tui_on_key(tui_state *u, int ch, double now, int cols, int rows);

#endif
