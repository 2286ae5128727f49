/* gs_methods.h — the method table behind gs_engine.h (prefix en_, internal to the engine).
 *
 * A method is one of:
 *   ridge with base:  G_t = B_t + w·E_t, Q_t likewise, where B_t is the Gram of the real rows
 *                     (shared by every such method, computed once) and E_t the Gram of the
 *                     method's synthetic rows (its `extra` generator), w = extra_weight(params);
 *   ridge without base (e.g. AIR): G_t = E_t built entirely by `extra`, with an optional
 *                     per-task effective τ (tau_eff);
 *   custom (ncm, slda): `fit` sees each task's real rows, `predict` labels test rows.
 * Extra generators emit rows in the classifier space h (length D) with a weight ω:
 * G += ω h hᵀ, Q[:,label] += ω h. Rows are emitted through en_emit.
 * Ownership: method-private state lives in `en_mctx.priv`, freed by `destroy`.
 */
#ifndef GS_METHODS_H
#define GS_METHODS_H

#include "gs_engine.h"
#include <gsl/gsl_rng.h>

/* Parameters an extra generator depends on (a change invalidates its Gram). */
enum {
    EN_DEP_ALPHA = 1u << 0, EN_DEP_XI = 1u << 1, EN_DEP_PAIRS = 1u << 2, EN_DEP_MAXAUG = 1u << 3,
    EN_DEP_AUGMENT = 1u << 4, EN_DEP_GAUSS_A = 1u << 5, EN_DEP_GAUSS_B = 1u << 6,
    EN_DEP_SLDA = 1u << 7, EN_DEP_BETA = 1u << 8, EN_DEP_TAU = 1u << 9
};

typedef struct en_emitter en_emitter;
/* Emit one synthetic row (D values, classifier space) with label c and weight ω ≥ 0. */
int en_emit(en_emitter *em, const double *h, int c, double omega);
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

typedef struct {
    const en_problem *p;
    const op_params *params;
    void *priv;
} en_mctx;

typedef struct en_mdef {
    const char *name;
    const char *summary;            /* one line for --help */
    int kind;                       /* 0 ridge with base, 1 ridge without base, 2 custom */
    unsigned deps;                  /* parameters that invalidate `extra` / `fit` results */
    /* ridge: synthetic rows of task t (0-based) */
    int (*extra)(en_mctx *m, int t, en_emitter *em);
    double (*extra_weight)(const op_params *params); /* NULL = 1 */
    double (*tau_eff)(en_mctx *m, int t, double tau); /* NULL = tau */
    /* custom: fit task t (0-based; tasks arrive in order 0..T-1, after `reset`) and predict */
    int (*reset)(en_mctx *m);
    int (*fit)(en_mctx *m, int t);
    int (*predict)(en_mctx *m, int t, const double *X, long n, int *pred);
    void (*destroy)(en_mctx *m);
} en_mdef;

/* extra_weight for methods whose synthetic rows enter with weight β (GSR family, Gaussian,
 * interclass). */
double en_weight_beta(const op_params *params);

/* The table (src/methods.c); NULL-terminated. */
extern const en_mdef *const en_methods[];
const en_mdef *en_method_find(const char *name);

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
