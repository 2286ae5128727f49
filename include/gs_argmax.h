/* gs_argmax.h — the predicted class of many rows at once: the blocked-GEMM argmax of class scores
 * (prefix am_; linalg/argmax.c). The ridge learners' predictions (engine/ridge.c), the
 * discriminant models' (linalg/lda.c: slda, klda), the nearest class mean's (learners/ncm.c) and
 * AnaCP's all go through am_argmax, and so do the reference blocks of the screened argmax
 * (am_argmax_screened: the ridge predictions in double).
 *
 * Scores s_ik = x_i·w_k (+ bias_k) of rows x_i (row-major, D columns) and classes w_k (K rows of
 * D, row-major) are formed by one GEMM per `block` rows, from row lo on: dgemm for double rows
 * and classes (the bias, K doubles or NULL, added in the product: C = bias, β = 1), sgemm for
 * float rows and classes (a bias, when given, added to each float score in double: klda). best[i] is the first k of the largest score. The blocks are
 * part of the result (a product's rounding may depend on its shape): a caller keeps its block.
 */
#ifndef GS_ARGMAX_H
#define GS_ARGMAX_H

#define AM_BLOCK 512 /* rows per product for a caller with no block of its own */

/* Rows lo..hi-1 of X (doubles; or Xf, floats, with Wf), best[lo..hi-1] (indices of X). K ≤ 0:
 * best untouched. GS_OK or GS_ENOMEM. */
int am_argmax(const double *X, const float *Xf, long lo, long hi, long D, const double *W, const float *Wf,
              const double *bias, int K, long block, int *best);

/* The screened argmax, exact with respect to a double reference. best[i] = the first k of the
 * largest score among s_ik = x_i·w_k (X: n × D rows, Wt: Cs × D rows, both row-major), the scores
 * being those of one dgemm per block of AM_SCORE_BLOCK rows (the reference; am_argmax).
 * AM_SCORES_DOUBLE computes them so. AM_SCORES_SCREEN computes single-precision scores (sgemm)
 * and a rigorous bound on each one's distance to the double scores; a row whose winner is not
 * proven by the bounds is decided from the double scores of its block: the same best[] as
 * AM_SCORES_DOUBLE, bit for bit. Rows lo..hi-1 of the n only (best[lo..hi-1]); the reference
 * blocks stay those of all n rows (a block in doubt is computed whole), so any split of [0, n)
 * gives the same predictions. Xf, Xn: the rows already in float and their norms (‖x‖₂, double),
 * or NULL (converted here). *n_double (may be NULL) receives the number of rows decided in
 * double. GS_OK or GS_ENOMEM. */
#define AM_SCORE_BLOCK 2048
enum { AM_SCORES_SCREEN = 0, AM_SCORES_DOUBLE = 1 };
int am_argmax_screened(const double *X, const float *Xf, const double *Xn, long n, long lo, long hi, long D,
                       const double *Wt, int Cs, int mode, int *best, long *n_double);

#endif
