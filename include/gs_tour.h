/* gs_tour.h — guided tours: plain-text files of steps for the TUI (prefix tr_).
 *
 * Format (UTF-8, one "key: value" per line; '#' starts a comment line; blank lines ignored):
 *     title: The story on the bundled sample        (once, before the first step)
 *     data: bundled | mobilenetv2 | synthetic       (optional: the data the tour was written for;
 *                                                    mobilenetv2: the bundled MobileNetV2 sample,
 *                                                    which the tour opens when no data is given)
 *     step: Ridge alone                             (starts a step; its title)
 *     preset: teaching                              (optional: a preset, applied first)
 *     set: tau=10 beta=10                           (optional: parameters, NAME=VALUE, as --param)
 *     task: 3 | last                                (optional: move to this task)
 *     view: stable | tau | theorem | erank | class | ratio | claims | collapse   (optional)
 *     panel: accuracy | spectrum | lower | params   (optional: the panel the step points at)
 *     future: on | off                              (optional: show the tasks after the current one)
 *     text: one line of explanation                 (two to four per step)
 * A step keeps what earlier steps set unless it sets it again. Pure: parsing only, no curses.
 * Errors name the file and line: "FILE: line N: ...".
 * Ownership: tr_tour owns its steps; tr_free releases them.
 */
#ifndef GS_TOUR_H
#define GS_TOUR_H

#define TR_MAX_TEXT 4
#define TR_MAX_SET 8

enum { TR_PANEL_NONE = 0, TR_PANEL_ACCURACY, TR_PANEL_SPECTRUM, TR_PANEL_LOWER, TR_PANEL_PARAMS };

typedef struct {
    char title[96];
    char preset[32];            /* "" = none */
    int nset;
    char set[TR_MAX_SET][64];   /* "tau=10" */
    int task;                   /* 0 = unchanged, -1 = last */
    int view;                   /* -1 = unchanged, else an index into tr_view_names() */
    int panel;                  /* TR_PANEL_* */
    int future;                 /* -1 unchanged, 0 off, 1 on */
    int ntext;
    char text[TR_MAX_TEXT][200];
} tr_step;

typedef struct {
    char title[128];
    char data[32];              /* "bundled", "mobilenetv2", "synthetic" or "" */
    int n;
    tr_step *steps;
} tr_tour;

/* View names in the order of the TUI's views (stable, tau, theorem, erank, class, ratio, claims,
 * collapse); *n receives the count. */
const char *const *tr_view_names(int *n);
/* Parse text (NUL-terminated) read from `path` (used in messages). GS_OK, GS_EINPUT, GS_ENOMEM. */
int tr_parse(const char *text, const char *path, tr_tour *t);
/* Read and parse a file. */
int tr_load(const char *path, tr_tour *t);
void tr_free(tr_tour *t);

#endif
