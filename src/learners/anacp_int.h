/* learners/anacp_int.h — inside AnaCP: its constants, its state and model, the forward pass that
 * anacp.c (the learner: fit, refit, predict) calls in anacp_forward.c (prefix anacp_, the forward
 * pass anacp_fwd_); its factorizations are linalg's spd_solve (gs_spd.h). Only
 * src/learners/anacp*.c include it (and tests/learners/test_anacp_gelu.c, which checks the float arithmetic);
 * the learner's one public name is en_learner_anacp (gs_learner.h). The maps and how they are computed: anacp.c's header.
 * Ownership: anacp_state lives in en_mctx.priv (anacp.c allocates and frees it). A forward pass's
 * buffers are the caller's: anacp_fwd_alloc / anacp_fwd_pair_alloc fill them, anacp_fwd_free /
 * anacp_fwd_pair_free free them (also after a failed allocation; {0} is freed as nothing).
 */
#ifndef GS_ANACP_INT_H
#define GS_ANACP_INT_H

#include "gs_common.h"
#include "gs_learner.h"

#include <pthread.h>

#define ANACP_HEADS 3
#define ANACP_D 5000
#define ANACP_REG 100.0
#define ANACP_SAMPLES 100
#define ANACP_BLOCK 1024                      /* rows per block of a forward pass */
#define ANACP_CACHE_MAX (768.0 * 1024 * 1024) /* bytes of kept head activations of the test rows */
/* A matrix M + reg I (M ⪰ 0) is factored in float while its condition bound (λ̄ + reg)/reg, λ̄ ≥
 * λ_max(M) (spd_lmax_bound), is at most this; above it, or when spotrf fails, in double.
 * GS_ANACP_KAPPA (environment) replaces it (the tests: 0 = always double). Ten times the ridge
 * learners' EN_SINGLE_KAPPA: AnaCP's matrices are formed in float (their entries carry float's
 * rounding whoever factors them), and on the synthetic set its primal heads' bounds are 1.2e5 to
 * 3.3e5 (the activations' mean direction; the other eigenvalues are far smaller): factored in
 * float there, every task's accuracy equals double's and 100 % (anacp) and 99.99 % (anacp+gsr)
 * of the last task's predictions are identical, where 1e5 would send every primal head to
 * double (1.2 times the run's CPU time) for the same predictions. */
#define ANACP_KAPPA 1e6

/* The model after one task (every matrix in float, gm_mat.f): head k's projection θ_k = P_kᵀ T
 * (factored: P_k is C_seen × D, T the C_seen × d targets) or θ_k = P_kᵀ (P_k is d × D, T empty);
 * the final layer θᵀ (C_seen × D). */
typedef struct {
    gm_mat P[ANACP_HEADS];
    gm_mat T;
    gm_mat theta;
} anacp_model;

/* The task's rows (real then synthetic), normalized, with their labels and weights; nreal: how many
 * are real (kept rows: w holds the real rows' weights and the synthetic rows' own ω). */
typedef struct { gm_mat X; int *y; double *w; long n, nreal; } anacp_rows;

/* GELU(x̂ W_kᵀ) of the leading rows of a row set the engine evaluates (test, validation). */
typedef struct {
    const double *X;          /* the engine's rows it belongs to; NULL before the first use */
    long cap, have;           /* rows it holds at most, rows computed */
    gm_mat Z[ANACP_HEADS];    /* cap × D (float) */
} anacp_cache;

/* The learner's state (en_mctx.priv). The heads' and the final layer's matrices are float (gm_mat.f);
 * the rows, the means, the covariance and the targets double. */
typedef struct {
    long d, D;
    int C, T, fitted;          /* fitted: tasks 0..fitted-1 */
    uint64_t seed;
    gm_mat Wf, Wk[ANACP_HEADS];/* D × d (as drawn: --save-state) */
    float *Wf32, *Wk32[ANACP_HEADS]; /* the same in float (the layers' products) */
    gm_mat Ak[ANACP_HEADS];    /* D × D float, upper triangle (row-major); allocated when the heads go primal */
    int primal;                /* the heads' A_k hold every row seen (else: the dual's rows) */
    gm_mat Zr[ANACP_HEADS];    /* dual: nr × D float activations Z of the rows seen (cap rows; unweighted) */
    float *Kk[ANACP_HEADS];    /* dual: kn × kn, row-major: above the diagonal the kernel Z Zᵀ of the
                                * unweighted rows, on and below it the Cholesky factor of the weighted
                                * kernel + reg I of the first fn rows (column-major upper U, UᵀU; fn = 0
                                * after a task factored in double) */
    float *Kd[ANACP_HEADS];    /* dual: the kernel's diagonal (kn) */
    long kn[ANACP_HEADS];      /* dual: the rows Kk[k] holds (its leading dimension) */
    long fn[ANACP_HEADS];      /* dual: the rows factored with the weights now */
    double *brs[ANACP_HEADS];  /* dual: per row of the weighted kernel, Σ_j |K̃_ij| over its first bn
                                * rows (kernel_bound's row sums, grown with the rows; bcap held) */
    double btr[ANACP_HEADS];   /* dual: the trace of the same */
    long bn[ANACP_HEADS], bcap[ANACP_HEADS];
    long zc;                   /* dual: store rows whose Z and kernel rows are already computed (a
                                * refit: they do not depend on the weights) */
    anacp_rows *kept;          /* T: the rows each task was fitted with, for a refit */
    int *ry;                   /* dual: labels of the kept rows */
    double *rsw;               /* dual: √w of the kept rows */
    long nr, rcap;             /* dual: rows kept, rows allocated */
    gm_mat Zs[ANACP_HEADS];    /* C × D float: weighted class sums of Z */
    gm_mat work;               /* D × D float: the matrix being factored */
    double kappa;              /* ANACP_KAPPA or GS_ANACP_KAPPA */
    pthread_mutex_t fb;        /* one dual head at a time factors in double (one double copy) */
    gm_mat mean, cov;          /* C × d class means, d × d shared covariance */
    double *cnt, ntot;         /* C weights seen per class, their sum */
    int have_cov;
    anacp_model *mod;          /* T: the model after each task */
    gm_mat *replay;            /* T replay rows (keep_draws), labels below */
    int **replay_y;
    anacp_cache cache[2];      /* test rows, validation rows */
} anacp_state;

/* Buffers of a forward pass over at most ANACP_BLOCK rows (one set per thread), all float: Z, Q, P
 * of the heads, xs (ANACP_BLOCK × d) a layer's rows. */
typedef struct { float *Z, *Q, *P, *xs; } anacp_fwd_buf;

/* The buffers of a block's two parts (anacp_fwd_block): b1 the second part's (the first part's is
 * the caller's), Xn and F (float) of both. */
typedef struct { anacp_fwd_buf b1; gm_mat Xn[2], F[2]; } anacp_fwd_pair;

/* Normalize each of the n rows of X (n × d, row-major) to unit L2 norm (rows of norm ≤ 1e-12 stay). */
void anacp_fwd_normalize(double *X, long n, long d);
/* Out (n × D float, n ≤ ANACP_BLOCK) = GELU(X Wᵀ) for the rows X (n × d, double; fl32(X) in b's
 * scratch) or Xf (the same in float; X NULL): sgemm, then GELU (anacp_gelu) in place. */
void anacp_fwd_layer(const anacp_state *s, const float *W32, const double *X, const float *Xf, long n, float *Out,
                     anacp_fwd_buf *b);
/* GELU(v[i]) = v Φ(v) in place for n floats, with erf from anacp_erf. */
void anacp_gelu(float *v, size_t n);
/* erf(x) in float, vectorizable (anacp_forward.c states its error against erf in double). */
float anacp_erf(float x);

/* One thread's buffers of a forward pass (GS_ENOMEM: none kept). */
int anacp_fwd_alloc(anacp_fwd_buf *b, const anacp_state *s);
void anacp_fwd_free(anacp_fwd_buf *b);
/* The second part's buffers and both parts' Xn, F (on failure some may be held: free them). */
int anacp_fwd_pair_alloc(anacp_fwd_pair *q, const anacp_state *s);
void anacp_fwd_pair_free(anacp_fwd_pair *q);
/* Rows [i0, i1) (at most ANACP_BLOCK) of X through the model md, in two parts at the middle row, on
 * two threads: normalized first when norm (predict); c: the activation cache of X's row set (NULL:
 * none), its missing rows computed and kept; H: the block's rows of H = GELU(f W_finalᵀ) (row i0
 * first); pred: NULL, or the block's labels (argmax over the seen classes, mapped by class_order).
 * b: the first part's buffers, q the second's. */
int anacp_fwd_block(const anacp_state *s, const anacp_model *md, const double *X, long i0, long i1, anacp_cache *c,
                    int norm, anacp_fwd_buf *b, anacp_fwd_pair *q, float *H, int *pred, const int *class_order);

#endif
