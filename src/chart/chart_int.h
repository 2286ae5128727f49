/* chart/chart_int.h — private to src/chart/: the helpers the folder's chart builders share
 * (defined in chart.c, style.c, spectrum.c, axis.c); the public side is gs_chart.h (and gs_canvas.h
 * for the cell canvas).
 *
 *   axis.c      numbers, ticks, axis fractions, y ranges    style.c      names, colours, slots
 *   chart.c     charts, series, task axis, notes, CSV       bands.c      mean ± std over seeds
 *   accuracy.c  spectrum.c  stable_rank.c  tau_sweep.c  class_acc.c  collapse.c   one builder each
 *   canvas.c    the terminal's cell canvas (gs_canvas.h)
 */
#ifndef CHART_INT_H
#define CHART_INT_H

#include "gs_chart.h"
#include "gs_common.h"

/* An empty chart titled `title` (no current-task mark). */
void ch_chart_init(ch_chart *c, const char *title);
/* Method m of r exists and has snapshots. */
int ch_valid_method(const en_results *r, int m);
/* The method of `b` that corresponds to method m of r (same name), -1 for none. */
int ch_baseline_method(const en_results *r, int m, const en_results *b);
/* A new series of n points (x, y owned, uninitialised) styled for `method_name` in `slot`, named
 * "NAME suffix" (+ " (pinned)" for a ghost); NULL (error set) when out of room or memory. */
ch_series *ch_add_series(ch_chart *c, int n, const char *method_name, int slot, int method, int ghost,
                         ch_kind kind, const char *suffix);
/* task in 1..T, else T. */
int ch_clamp_task(const en_results *r, int task);
/* Note "tasks a–b pending" (or "N tasks pending") over the shown methods. */
void ch_pending_note(ch_chart *c, const en_results *r, const int *ms, int nm);
/* The x axis of a chart over tasks 1..T (half a task of room each side). */
void ch_task_axis(ch_chart *c, int T);
/* The x axis of a chart over n classes ordered by training rows (half a class of room each side),
 * marked between the nhead head classes and the tail when both are there. */
void ch_class_axis(ch_chart *c, int n, int nhead);
/* The valid ones of m0, m1 into ms; their count. */
int ch_collect_methods(const en_results *r, int m0, int m1, int *ms);
/* Style slots for the shown methods ms[0..nm) (gacl → 0, gsr → 1, the others what is free), and
 * for two method names (n1 may be NULL). */
void ch_style_slots(const en_results *r, const int *ms, int nm, int *sl);
void ch_name_slots(const char *n0, const char *n1, int *sl);
/* The value of `kind` in a finished snapshot (CH_KIND_NONE: its stable rank), NaN otherwise. */
double ch_snap_value(const en_snap *s, ch_kind kind);
/* A series over tasks 1..T of `kind` of method `method` of src. */
int ch_add_task_series(ch_chart *c, const en_results *src, int method, int slot, int ghost, ch_kind kind,
                       const char *suffix);
/* Appends "; " (when the note has text) and the text to c's note. */
void ch_note_add(ch_chart *c, const char *text);
/* What the shown methods without a Gram matrix lack, into c->lacks: "NCM, SLDA: no Gram
 * matrix" (only those with no spectrum of their own when no_spectrum; `what` appended). */
void ch_no_gram_note(ch_chart *c, const en_results *r, const int *ms, int nm, int no_spectrum, const char *what);
/* The snapshot whose spectrum the chart shows, NULL when there is none at that task. */
const en_snap *ch_spectrum_snap(const en_results *r, int m, int task);

#endif
