/* gs_chart.h — the chart model shared by the TUI and the figure export (prefix ch_).
 *
 * Pure data and pure functions: no curses, no cairo. A chart is a title, two axes and a set of
 * series built from en_results; the TUI rasterizes it with braille/block/ASCII glyphs
 * (gs_canvas.h), the figure module draws it with cairo (gs_figure.h). Both use the same ticks.
 * NaN y values are gaps (pending or undefined), never drawn as numbers.
 * Ownership: ch_chart owns its series arrays; ch_free releases them.
 */
#ifndef GS_CHART_H
#define GS_CHART_H

#include <stdint.h>
#include <stdio.h>
#include "gs_engine.h"
#include "gs_tausweep.h"
#include "gs_collapse.h"
#include "gs_lens.h"

#define CH_MAX_TICKS 24
#define CH_MAX_SERIES 16

typedef enum { CH_LINEAR = 0, CH_LOG10 = 1 } ch_scale;
typedef enum { CH_MARK_NONE = 0, CH_MARK_CIRCLE, CH_MARK_SQUARE, CH_MARK_TRIANGLE,
               CH_MARK_DIAMOND, CH_MARK_CROSS } ch_marker;
typedef enum { CH_DASH_SOLID = 0, CH_DASH_DASHED, CH_DASH_DOTTED } ch_dash;
/* What a series shows (accuracy charts have one series per method and kind). */
typedef enum { CH_KIND_NONE = 0, CH_KIND_OVERALL, CH_KIND_HEAD, CH_KIND_TAIL } ch_kind;

typedef struct {
    double lo, hi;                 /* data range shown (for CH_LOG10, values not logs) */
    ch_scale scale;
    char label[64];                /* UTF-8, e.g. "log10 λ" */
    int nticks;
    double ticks[CH_MAX_TICKS];    /* tick positions in data units */
    char tick_labels[CH_MAX_TICKS][16];
    int minor;                     /* log axis: draw minor ticks 2..9 */
    int integer;                   /* ticks only at whole numbers (task axes) */
    double shift;                  /* CH_LOG10: the axis is logarithmic in v − shift (0: in v);
                                    * ticks and labels stay values of v (stable rank: 1.01, 2, 11) */
} ch_axis;

typedef struct {
    char name[48];                 /* legend text, e.g. "GSR tail" */
    char letter;                   /* glyph when color is unavailable, e.g. 'R' */
    uint32_t rgb;                  /* 0xRRGGBB: GACL #e15759, GSR #4e79a7, ... */
    ch_dash dash;
    ch_marker marker;
    double width_pt;               /* line width for figures */
    int ghost;                     /* pinned-baseline curve (drawn faint) */
    int method;                    /* index into en_results.m, -1 if none */
    int n;
    double *x, *y;                 /* owned; y NaN = gap */
    double *ylo, *yhi;             /* owned band around y (mean ± std over seeds), or NULL */
    unsigned char *est;            /* owned, or NULL: est[k] = 1 when y[k] is an estimate
                                    * (Lanczos); figures draw its marker hollow, the others filled */
    ch_kind kind;                  /* overall / head / tail (accuracy), NONE elsewhere */
    char method_name[32];          /* display name for legends: "GACL", "GSR" */
} ch_series;

typedef struct {
    char title[64];                /* "Accuracy", "Eigenspectrum", "Stable rank" */
    ch_axis x, y;
    int nseries;
    ch_series series[CH_MAX_SERIES];
    double mark_x;                 /* current task marker, NaN for none */
    char note[128];                /* e.g. "tasks 7–10 pending" */
    char lacks[96];                /* what shown methods lack, e.g. "SLDA: no Gram matrix" (views of
                                    * G + τI's numbers): apart from note, so that a screen can give
                                    * it a row of its own; ch_note_full joins the two */
    char ghost_label[24];          /* legend of the faint curves: "" = the pinned baseline; the τ
                                    * sweep's faint curves are the validation accuracy */
    char mark_label[32];           /* legend of the mark_x line in figures ("" none): the τ
                                    * sweep's "current τ = 10" */
    int task_x;                    /* the x axis is tasks 1..T (ch_hide_after applies) */
    int y_near_one;                /* values ≥ 1 that may crowd near 1 (the stable rank): when
                                    * they do, ch_axis_auto_y takes a log axis of v − 1 and says
                                    * so in the y label (CH_NEAR_ONE_LABEL appended) */
    int fade_after_mark;           /* figures: the series after mark_x drawn faded (the later
                                    * tasks of a frame, export --future fade) */
} ch_chart;

/* A chart over tasks shows tasks up to `task` only: the later points (and their bands) become
 * gaps; the axes stay as built, so frames of a sequence do not move. The number of points hidden
 * (0 for a chart whose x axis is not tasks). */
int ch_hide_after(ch_chart *c, int task);

/* Style of method `name` (color, dash, marker, letter); the first two methods of a view use
 * the GACL/GSR styles of gsrscope(7) whatever their names. Slot 0 = GACL style, 1 = GSR style, 2.. =
 * further styles. The chart builders choose the slots so that "gacl" is always drawn in the
 * GACL style and "gsr" in the GSR style (another method takes the style left free); read the
 * style from ch_series (rgb, dash, marker, letter) rather than recomputing it. */
void ch_method_style(const char *name, int slot, uint32_t *rgb, ch_dash *dash, ch_marker *marker,
                     char *letter);

/* Nice ticks for [lo, hi] with at most maxn ticks (linear); decade ticks for log axes.
 * (maxn below 3 counts as 3: a snapped range across zero needs three ticks.)
 * Fills ax->ticks/labels/nticks and may widen lo/hi to tick bounds when `snap` is set. */
void ch_axis_linear(ch_axis *ax, double lo, double hi, int maxn, int snap);
void ch_axis_log10(ch_axis *ax, double lo, double hi, int maxn);
/* A log axis of v − shift for values lo..hi all above shift (decades of v − shift; the ticks are
 * shift + 10^k, labelled as values of v: "1.01", "2", "11"). Values at or below shift map to NaN. */
void ch_axis_log10_shift(ch_axis *ax, double lo, double hi, double shift, int maxn);
/* Map a data value to [0,1] along the axis (log-aware). NaN for values outside log domain. */
double ch_axis_frac(const ch_axis *ax, double v);
/* Like ch_axis_linear but ticks only at whole numbers (sets ax->integer). */
void ch_axis_integer(ch_axis *ax, double lo, double hi, int maxn, int snap);
/* The y axis from the finite y values of the chart's series, as the builders choose it: linear
 * snapped to nice ticks, or log10 (allow_log) when the values span more than a decade. */
void ch_axis_auto_y(ch_chart *c, int allow_log);
#define CH_NEAR_ONE_LABEL " (log of sr \u2212 1)"
/* Recompute the ticks of an axis for at most maxn ticks inside its current [lo, hi]
 * (keeps lo/hi, scale and integer); used by renderers to avoid overlapping labels. */
void ch_axis_retick(ch_axis *ax, int maxn);
/* Shortest "%.15g"/"%.17g" text that reads back as v ("nan" for NaN). Returns buf. */
const char *ch_fmt_double(double v, char *buf, size_t n);
/* The note and what the shown methods lack (c->lacks), joined by "; ", into buf (as a figure
 * shows them; a screen may give lacks a row of its own). */
void ch_note_full(const ch_chart *c, char *buf, size_t n);
/* The display names of the shown methods m0, m1 (m1 may be -1 or m0) without a Gram matrix (with
 * own: only those without a spectrum of their own either), ", "-joined into buf ("NCM, SLDA");
 * returns how many, and how many methods are shown in *nshown (when not NULL). */
int ch_no_gram_names(const en_results *r, int m0, int m1, int own, char *buf, size_t n, int *nshown);
/* A note too wide for its place keeps its leading "; " parts: the last one cut off (1), or 0 when
 * it has no "; " left. A cut part would say something else, so parts go whole. */
int ch_note_cut(char *note);
/* Display name of a method for legends: its row's in the method table (mt_display_name: "GACL",
 * "GSR", "AnaCP + GSR"; an unknown name as given). */
void ch_display_name(const char *name, char *out, size_t n);

/* Build the charts from results. m0, m1: the two methods shown (indices into r->m; m1 may be -1).
 * baseline: pinned results drawn as ghost curves (may be NULL). task: 1-based current task. */
/* Several seeds: every live accuracy series of c (overall/head/tail of a method) becomes the
 * mean over runs[0..n) at each task, with a band of ± the sample standard deviation (ylo/yhi;
 * NaN where fewer than two runs have the task done); the note says so. The runs must have the
 * methods of the results c was built from, in the same order. GS_OK or GS_ENOMEM. */
int ch_add_seed_bands(ch_chart *c, const en_results *const *runs, int n);
/* The same for the task charts of another quantity: CH_BAND_ACCURACY (the series with a kind, as
 * ch_add_seed_bands but keeping the note), CH_BAND_STABLE_RANK (ch_build_stable_rank's series),
 * CH_BAND_ERANK / CH_BAND_COND (ch_build_erank_cond's). The y axis is chosen again over the bands
 * (on a log axis a band edge at or below zero ends at the axis); the note gets "mean ± std over
 * N seeds" appended. GS_OK or GS_ENOMEM. */
enum { CH_BAND_ACCURACY = 0, CH_BAND_STABLE_RANK, CH_BAND_ERANK, CH_BAND_COND };
int ch_add_seed_bands_of(ch_chart *c, const en_results *const *runs, int n, int quantity);
/* After bands were added: the y axis again, over the values and the bands, keeping its scale (a
 * log axis from the smallest positive value; a band edge at or below zero then ends at the axis)
 * and its label. */
void ch_axis_band_y(ch_chart *c);
/* A band of ± sd[k] around each y[k] of s (replacing any). GS_OK or GS_ENOMEM. */
int ch_set_band(ch_series *s, const double *sd);
int ch_build_accuracy(ch_chart *c, const en_results *r, const en_results *baseline, int m0, int m1,
                      int task);
int ch_build_spectrum(ch_chart *c, const en_results *r, const en_results *baseline, int m0, int m1,
                      int task);
int ch_build_stable_rank(ch_chart *c, const en_results *r, const en_results *baseline, int m0,
                         int m1, int task);
void ch_free(ch_chart *c);

/* ---- more views ---------------------------------------------------------------- */
/* τ sweep at one task: x = τ (log10 axis), mark_x = the current τ. what = CH_TS_ACCURACY:
 * overall/head/tail accuracy (%) of each curve (kind set, like ch_build_accuracy);
 * CH_TS_STABLE_RANK: sr(G+τI) of each curve (log y when it spans more than a decade).
 * a, b: curves of the two methods (b may be NULL); styles follow the method names (ts_curve.method). */
enum { CH_TS_ACCURACY = 0, CH_TS_STABLE_RANK = 1 };
int ch_build_tau_sweep(ch_chart *c, const ts_curve *a, const ts_curve *b, double tau_mark, int what);
/* Over tasks: which = CH_ERANK effective rank of G+τI (linear y; NaN, i.e. a gap, at tasks
 * without the full spectrum: the note says at how many tasks it is known), CH_COND condition
 * number λmax/λmin (log y; the note says when it is a Lanczos estimate). Ridge methods only. */
enum { CH_ERANK = 0, CH_COND = 1 };
int ch_build_erank_cond(ch_chart *c, const en_results *r, int m0, int m1, int task, int which);
/* Per-class accuracy (%) at `task` for the classes seen so far, x = rank of the class by training
 * rows (1 = most rows; ties by class id), both methods; mark_x = the head/tail boundary
 * (number of head classes + 0.5) when both kinds are present. */
int ch_build_class_acc(ch_chart *c, const en_results *r, int m0, int m1, int task);
/* λ̃ᵢ/λᵢ at `task`: eigenvalues of G+τI of the augmenting method over those of the reference
 * (GACL if shown, else m0), index on x, log y. No series (note "spectrum pending") unless both
 * spectra exist (EN_SPECTRUM). */
int ch_build_eig_ratio(ch_chart *c, const en_results *r, int m0, int m1, int task);
/* Theorem 1 over tasks: sr(G+τI) of the reference method (GACL), the actual sr(G+Δ+τI) of the
 * augmenting method, and the theorem's lower bound (bound[t] ≤ after[t] when the theorem holds).
 * Arrays have T values (NaN = not computed). ref/aug: method indices for names and styles. */
int ch_build_theorem(ch_chart *c, const en_results *r, int ref, int aug, const double *before,
                     const double *bound, const double *after, int task);
/* Order of the seen classes at `task` by training rows, most first (ties by id) into out[C];
 * returns the count. */
int ch_class_order(const en_results *r, int task, int *out);

/* Collapse (gs_collapse.h): the energy uᵀ(G+τI)u along each seen class's own direction, x = class
 * rank by training rows (1 = most), log y, both methods, and the ridge floor τ as a dotted line;
 * mark_x = the head/tail boundary; the note gives the tail's median energy in units of τ. */
int ch_build_collapse(ch_chart *c, const co_result *co);

/* The ridge lens (gs_lens.h). Filter factors: λᵢ/(λᵢ+τ) against the eigen-direction i (log x),
 * one series per method, the line λ = τ (a factor of ½) dotted; the note gives each df(τ).
 * Classes: each seen class's share of its direction on eigen-directions with λᵢ > τ against its
 * rank by training rows, mark_x = the head/tail boundary; the note gives the tail medians. */
int ch_build_lens_filter(ch_chart *c, const rl_result *l);
int ch_build_lens_classes(ch_chart *c, const rl_result *l);

/* Write the numbers behind a chart as CSV (series,x,y; NaN rows omitted) to an open FILE*.
 * Columns: chart,series,x,y with a header line (so several charts can share one file:
 * ch_write_csv_rows appends rows without the header). GS_OK or GS_ERUN. */
int ch_write_csv(const ch_chart *c, FILE *f);
int ch_write_csv_rows(const ch_chart *c, FILE *f);

/* Eigenvalue ratio λ(aug)/λ(ref) of two shown methods: 1 when m1 is the reference (a method
 * without an augmenter, the learner alone, before one with; then a ridge one). */
int ch_ratio_second_ref(const en_results *r, int m0, int m1);

#endif
