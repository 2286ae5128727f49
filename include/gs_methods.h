/* gs_methods.h — augmenters and the emitter API they write through (prefix en_, internal to the
 * engine). An augmenter is its file src/augmenters/<name>.c (a `const en_augmenter`: name, display
 * name, chart letter, help line, the parameters it reads, its hooks) and its row in the method
 * table (src/methods/table.c, gs_mtable.h), which also parses the method names.
 *
 * A method is LEARNER[+AUGMENTER] (gs_learner.h describes learners). An augmenter makes the
 * synthetic rows of each task: gsr (Algorithm 1) and its ablations gsr-linear and gsr-fixed
 * (here), gauss-shrink and gauss-transfer (augmenters/gauss.c), interclass (augmenters/interclass.c),
 * oversample (augmenters/oversample.c: copies of the class's own rows, GSR's count; the control
 * that separates the mass of GSR's rows from their geometry).
 * It emits rows x in the feature space of the rows z (d values) with a weight ω; the engine maps
 * them to the learner's space h and hands them to the learner with weight w·ω, w = weight(params)
 * (β): for a ridge learner G += w ω h hᵀ, Q[:,label] += w ω h, the paper's eq. 9.
 * Ownership: augmenter state lives in its `en_mctx.priv`, freed by `destroy`.
 */
#ifndef GS_METHODS_H
#define GS_METHODS_H

#include "gs_engine.h"
#include "gs_learner.h"
#include <gsl/gsl_rng.h>

typedef struct en_emitter en_emitter;
/* Emit one synthetic row given in the feature space (d values, like p->z) with label c and
 * weight ω: the engine maps it to the classifier space (ReLU(R x) with --expand), a block of rows
 * per matrix product rather than a matrix-vector product per row (in the order of the calls). */
int en_emit_x(en_emitter *em, const double *x, int c, double omega);
/* Emit the row h = a·z_i + b·z_j (given in h, D values) of two prepared rows (indices into p->z)
 * with label c and weight ω, when en_emit_mix_ok says the classifier space is the feature space
 * (no --expand). The engine accumulates E += ω h hᵀ as Zᵀ Y (Y_i += ω a h, Y_j += ω b h) with one
 * blocked product per task instead of one rank-1 term per row: same value up to rounding. */
int en_emit_mix_ok(const en_emitter *em);
int en_emit_mix(en_emitter *em, long i, long j, double a, double b, int c, double omega, const double *h);
/* Count a skipped class (fewer than 2 rows) or pair (near-antipodal) for the report. */
void en_emit_skip(en_emitter *em, long classes, long pairs);

/* An augmenter: the synthetic rows of task t (0-based), emitted in the feature space of the rows
 * z with en_emit_x (or en_emit_mix); the engine maps them to the learner's space and gives them
 * to the learner with weight weight(params)·ω (β for every augmenter of the paper). */
typedef struct en_augmenter {
    const char *name;               /* "gsr": its name in --methods (after LEARNER+) */
    const char *display;            /* "GSR": its one spelling in tables, figures, the TUI, claims */
    char letter;                    /* its chart letter (distinct across the table) */
    const char *summary;            /* its help line in --help */
    unsigned deps;                  /* parameters that invalidate its rows */
    int (*rows)(en_mctx *m, int t, en_emitter *em);
    double (*weight)(const op_params *params); /* NULL = 1 */
    void (*destroy)(en_mctx *m);    /* frees en_mctx.priv */
} en_augmenter;

/* weight for augmenters whose synthetic rows enter with weight β (all of the paper's). */
double en_weight_beta(const op_params *params);
/* Rows per class of N real rows that GSR draws (and interclass and oversample make): the pairs
 * count (--pairs all: N(N−1) ordered pairs i ≠ j; random: N; literal: N², i = j included) capped
 * at --max-aug (none with --max-aug all); 0 under 2 rows. */
long en_aug_budget(const op_params *params, long N);
/* The rows interclass and oversample give class c: 0 for a head class under --augment tail, 0
 * for a class of fewer than two rows (counted as skipped: en_emit_skip), else en_aug_budget. */
long en_aug_class_budget(const en_mctx *m, int c, en_emitter *em);


/* Shared helpers for generators. Rows of class c in the stream: [st->class_row_start[c],
 * + st->class_kept[c]) in p->z (raw, normalized) and p->h (classifier space). */
/* GSR-style mixing of class c: kind 0 spherical (normalized), 1 linear (not normalized);
 * alpha_c from the adaptive rule unless fixed_alpha. */
/* α_c = α_base + (1 − α_base)·exp(−ξ n). */
double en_gsr_alpha(double alpha_base, double xi, long n);
/* out = γ z_i + (1−γ) z_j, divided by its norm unless `linear`. Returns 0 (out undefined) when
 * the mix's norm is below 1e-12 (near-antipodal pair), else 1. */
int en_mix(const double *zi, const double *zj, long d, double gamma, int linear, double *out);
/* K distinct integers from [0, n), uniformly at random, sorted ascending (Floyd's algorithm). */
int en_choose_sorted(gsl_rng *r, long n, long K, long *out);
int en_gsr_class(en_mctx *m, int c, int linear, int fixed_alpha, en_emitter *em);

#endif
