/* tui_int.h — internals shared by the TUI files (src/tui*.c); not a public API.
 * tui_draw.c composes a whole frame into a cv_canvas (pure); tui_worker.c runs the engine in a
 * pthread; tui.c owns curses, the event loop and the UI state. */
#ifndef GS_TUI_INT_H
#define GS_TUI_INT_H

#include <pthread.h>
#include <stdint.h>

#include "gs_canvas.h"
#include "gs_engine.h"
#include "gs_opts.h"
#include "gs_pipeline.h"
#include "gs_tui.h"

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
} tui_view;

/* Compose the frame into cv (cleared first). Screens smaller than TUI_MIN_COLS × TUI_MIN_ROWS
 * get the "need at least WxH" message. */
void tui_draw(cv_canvas *cv, const tui_view *v);
/* Numbers of one method at one task for the parameters panel, e.g. "81.2" or "…" (pending). */
void tui_fmt_pct(const en_snap *s, double v, char *buf, int n);

/* ---- the worker (tui_worker.c) ---- */
typedef struct {
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
    int export_req;             /* 1: export the dashboard to export_path */
    char export_path[4096];
    en_results *export_base;    /* owned copy of the baseline for the export, or NULL */
    volatile int cancel;
    /* published, under mu */
    en_results *pub;            /* newest copy not yet taken by the UI (owned) */
    int busy;
    double progress;
    char msg[512];              /* message for the status line ("" none) */
    int msg_error;
    int msg_new;
    /* worker only */
    pl_ctx *ctx;
    en_config cfg;
    op_opts cur;                /* options the ctx was built with */
    uint64_t done_gen;
    int spec_task;
    double last_pub;
    uint64_t work_gen;
} tui_worker;

/* Start the worker on an opened pipeline (not owned). GS_OK or GS_ERUN. */
int tw_start(tui_worker *w, pl_ctx *ctx, const en_config *cfg, const op_opts *o);
/* New parameters/options (gen bumps: a running computation is cancelled) and current task. */
void tw_request(tui_worker *w, const op_opts *o, uint64_t gen, int task);
/* Ask for an export of the current results (baseline copied). */
void tw_export(tui_worker *w, const char *path, const en_results *baseline);
/* Newest results (ownership passes to the caller), or NULL. */
en_results *tw_take(tui_worker *w);
/* Status: busy flag, progress, and a new message (copied into msg, returns 1 if new). */
int tw_status(tui_worker *w, int *busy, double *progress, char *msg, int n, int *is_error);
void tw_stop(tui_worker *w);

#endif
