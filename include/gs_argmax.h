/* gs_argmax.h — the predicted class of many rows at once: the blocked-GEMM argmax of class scores
 * (prefix am_; linalg/argmax.c). The ridge learners' predictions (engine/ridge.c), the
 * discriminant models' (linalg/lda.c: slda, klda) and the nearest class mean's (learners/ncm.c)
 * all go through it, and so do the reference blocks of the screened argmax (linalg/scores.c).
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

#endif
