/* gs_figure.h — publication figures with cairo + pango; PNG through libpng (prefix fig_).
 *
 * Figures: "accuracy", "spectrum", "stable-rank", "dashboard" (the three plus a caption), and
 * "tau-sweep" (accuracy and stable rank against τ at the task; needs req->eng),
 * "erank-cond" (effective rank and condition number over tasks), "class-acc" (per-class
 * accuracy sorted by training rows) and "eig-ratio" (λ̃ᵢ/λᵢ at the task, needs both spectra). The format follows the extension of `path` (.png .svg .pdf).
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
    double width_in;           /* default 3.5 (dashboard: 7.0) */
    en_engine *eng;            /* the engine the results came from (may be NULL); the "tau-sweep"
                                  figure needs it (and prob): it solves again from en_gram at
                                  `task` */
    const en_results *const *runs; /* several seeds (export --seeds, the figures of
                                  fig_seeds_supported): every curve over tasks is their mean with a
                                  ± std band and the caption says so; r is runs[0]. NULL = one run */
    int nruns;
    const ts_curve *const *sweeps; /* "tau-sweep" with several seeds: sweeps[k] the nsweep curves of
                                  run k (fig_tau_curves on that seed's engine); the figure draws
                                  their mean with a ± std band */
    int nsweep;
} fig_request;

/* Does `figure` take several seeds? And their names, for messages. */
int fig_seeds_supported(const char *figure);
const char *fig_seeds_list(void);
/* The τ curves of the "tau-sweep" figure (grid 1e-4 .. 1e4, TS_DEFAULT_N points) of the ridge
 * methods among m0, m1 at `task`: cv[0..*ncv) (owned by the caller: ts_free). GS_OK or an error
 * (none of the two is a ridge method: GS_EINPUT). */
int fig_tau_curves(en_engine *e, const en_problem *p, const en_results *r, int m0, int m1, int task,
                   ts_curve *cv, int *ncv);

/* Known figure name? */
int fig_known(const char *figure);
const char *fig_list(void);
/* Page size in inches of `figure` for a requested width (0 = the default: 3.5, dashboard 7.0);
 * the height follows the figure's aspect, rounded to 0.01 in. PNG pixels = round(inches × dpi).
 * GS_OK or GS_EINPUT (unknown figure). */
int fig_size_in(const char *figure, double width_in, double *w_in, double *h_in);
/* Cheap checks before computing anything: known figure, .png/.svg/.pdf extension (GS_EINPUT)
 * and an existing target folder (GS_ERUN "FILE: cannot create: folder DIR does not exist"). */
int fig_check_output(const char *figure, const char *path);
/* Render `figure` to `path`; if data_csv is not NULL also write the numbers behind it.
 * GS_OK, GS_EINPUT (unknown figure/extension), GS_ERUN (write failed; nothing left behind). */
int fig_export(const fig_request *req, const char *figure, const char *path, const char *data_csv);

#endif
