/* gs_figure.h — publication figures with cairo + pango; PNG through libpng (prefix fig_).
 *
 * The figures are the rows of one table (src/figure/catalog.c): fig_list() names them, fig_help()
 * gives their --help lines (what each draws), fig_needs() what export and the TUI compute for
 * one before drawing it. The format follows the extension of `path` (.png .svg .pdf .gif).
 * PNG carries pHYs (dpi) and tEXt metadata (software, every parameter, data source, checksum);
 * no time chunk, so the same inputs give the same bytes. Written atomically (gs_io.h).
 * Ownership: borrows everything; writes only `path` (and `data_csv` if given).
 */
#ifndef GS_FIGURE_H
#define GS_FIGURE_H

#include "gs_engine.h"
#include "gs_opts.h"
#include "gs_tausweep.h"

typedef struct {
    const en_results *r;       /* results to draw (required) */
    const en_results *baseline;/* ghost curves, may be NULL */
    const en_problem *prob;    /* data name/source/checksum for metadata (may be NULL) */
    const op_opts *opts;       /* parameters and protocol for metadata and caption */
    int m0, m1;                /* methods shown (indices into r->m), m1 may be -1 */
    int task;                  /* 1-based current task (0 = last) */
    double dpi;                /* default 300 */
    double width_in;           /* 0: the figure's default (3.5; dashboard 7.0) */
    en_engine *eng;            /* the engine the results came from (may be NULL); the figures
                                  that solve again (tau-sweep, theorem, claims, collapse,
                                  ridge-lens) need it and prob */
    const en_results *const *runs; /* several seeds (export --seeds, the figures of
                                  fig_seeds_supported): every curve over tasks is their mean with a
                                  ± std band and the caption says so; r is runs[0]. NULL = one run */
    int nruns;
    const ts_curve *const *sweeps; /* FIG_TAU_CURVES with several seeds: sweeps[k] the nsweep curves of
                                  run k (fig_tau_curves on that seed's engine); the figure draws
                                  their mean with a ± std band */
    int nsweep;
    /* Frames and slides (all 0 = one figure as before). */
    int frames;                /* 1: one frame per task 1..task (export --frames, --task all) */
    int future;                /* FIG_FUTURE_*: the tasks after the shown one */
    int frame_ms;              /* animation: time per frame in ms (0 = FIG_FRAME_MS) */
    int slide;                 /* 1: a 16:9 slide, FIG_SLIDE_W_IN × FIG_SLIDE_H_IN (export --size slide) */
    double font_scale;         /* text and lines × this (0 = 1; a slide: FIG_SLIDE_FONT_SCALE) */
} fig_request;

/* The tasks after the shown one: FIG_FUTURE_DEFAULT is SHOW for one figure (the dotted line at
 * the task) and HIDE for frames (each frame draws the tasks up to its own). */
enum { FIG_FUTURE_DEFAULT = 0, FIG_FUTURE_SHOW, FIG_FUTURE_HIDE, FIG_FUTURE_FADE };
#define FIG_FRAME_MS 1000      /* default time per frame of an animation (the last one: 3×) */
#define FIG_SLIDE_W_IN 13.33
#define FIG_SLIDE_H_IN 7.5
/* The smallest text of a figure is 8 pt: × 2.25 = 18 pt on a slide, read from the back row. */
#define FIG_MIN_FONT_PT 8.0
#define FIG_SLIDE_FONT_SCALE 2.25

/* What a figure needs computed before it is drawn (its row's needs; 0 for an unknown name). */
enum {
    FIG_SEEDS = 1u,            /* draws a mean over seeds (export --seeds; req->runs) */
    FIG_EVERY_SPECTRUM = 2u,   /* the exact spectrum at every task, not only at req->task */
    FIG_TAU_CURVES = 4u,       /* over seeds: each seed's τ curves (fig_tau_curves; req->sweeps),
                                  so a mean over seeds is at one task (no frames) */
    FIG_AUG_ROWS = 8u,         /* the augmenting method's rows, kept by the engine
                                  (en_config.collect_aug; en_aug_rows) */
};
unsigned fig_needs(const char *figure);
/* Does `figure` take several seeds (FIG_SEEDS)? And their names, for messages. */
int fig_seeds_supported(const char *figure);
const char *fig_seeds_list(void);
/* The τ curves of the "tau-sweep" figure (grid 1e-4 .. 1e4, TS_DEFAULT_N points) of the ridge
 * methods among m0, m1 at `task`: cv[0..*ncv) (owned by the caller: ts_free). GS_OK or an error
 * (none of the two is a ridge method: GS_EINPUT). */
int fig_tau_curves(en_engine *e, const en_problem *p, const en_results *r, int m0, int m1, int task,
                   ts_curve *cv, int *ncv);

/* Known figure name? Their names, "accuracy, spectrum, ..."; their --help lines ("  --figure
 * NAME ..." then one line per figure, FIG_SEEDS marked "(--seeds)"; main.c gives them to
 * op_usage). */
int fig_known(const char *figure);
const char *fig_list(void);
const char *fig_help(void);
/* Page size in inches of `figure` for a requested width (0 = the figure's default: 3.5, dashboard 7.0);
 * the height follows the figure's aspect, rounded to 0.01 in. PNG pixels = round(inches × dpi).
 * GS_OK or GS_EINPUT (unknown figure). */
int fig_size_in(const char *figure, double width_in, double *w_in, double *h_in);
/* Cheap checks before computing anything: known figure, .png/.svg/.pdf extension (GS_EINPUT)
 * and an existing target folder (GS_ERUN "FILE: cannot create: folder DIR does not exist"). */
int fig_check_output(const char *figure, const char *path);
/* Render `figure` to `path`; if data_csv is not NULL also write the numbers behind it.
 * With req->frames: one frame per task 1..task, each drawing the tasks up to its own (or the
 * later ones faded: req->future), the axes the same in every frame: a .pdf gets one page per
 * frame, a .gif one animation (req->frame_ms per frame), .png and .svg one numbered file per frame
 * (PATH-01.png, ...; the CSV likewise). A .gif without frames is the one figure.
 * GS_OK, GS_EINPUT (unknown figure/extension), GS_ERUN (write failed; nothing left behind). */
int fig_export(const fig_request *req, const char *figure, const char *path, const char *data_csv);

#endif
