/* linalg/argmax.c — the blocked-GEMM argmax of class scores (gs_argmax.h). */
#include "gs_argmax.h"
#include "gs_common.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

int am_argmax(const double *X, const float *Xf, long lo, long hi, long D, const double *W, const float *Wf,
              const double *bias, int K, long block, int *best)
{
    if (hi <= lo || K <= 0) return GS_OK;
    long nb_max = hi - lo < block ? hi - lo : block;
    size_t el = Xf ? sizeof(float) : sizeof(double);
    void *sc = gs_malloc((size_t)nb_max * (size_t)K, el, "class scores");
    if (!sc) return GS_ENOMEM;
    for (long i0 = lo; i0 < hi; i0 += nb_max) {
        long nb = hi - i0 < nb_max ? hi - i0 : nb_max;
        if (Xf) {
            float *s = sc;
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nb, K, (int)D, 1.0f, Xf + (size_t)i0 * D, (int)D,
                        Wf, (int)D, 0.0f, s, K);
            for (long i = 0; i < nb; i++) {
                const float *r = s + (size_t)i * K;
                int b = 0;
                if (bias) { /* the float score plus its double bias, compared in double */
                    double bs = (double)r[0] + bias[0];
                    for (int k = 1; k < K; k++) {
                        double v = (double)r[k] + bias[k];
                        if (v > bs) { bs = v; b = k; }
                    }
                } else
                    for (int k = 1; k < K; k++) if (r[k] > r[b]) b = k;
                best[i0 + i] = b;
            }
            continue;
        }
        double *s = sc;
        for (long i = 0; bias && i < nb; i++) memcpy(s + (size_t)i * K, bias, (size_t)K * sizeof(double));
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nb, K, (int)D, 1.0, X + (size_t)i0 * D, (int)D, W,
                    (int)D, bias ? 1.0 : 0.0, s, K);
        for (long i = 0; i < nb; i++) {
            const double *r = s + (size_t)i * K;
            int b = 0;
            for (int k = 1; k < K; k++) if (r[k] > r[b]) b = k;
            best[i0 + i] = b;
        }
    }
    free(sc);
    return GS_OK;
}
