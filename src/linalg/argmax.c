/* linalg/argmax.c — the argmax of class scores (gs_argmax.h): blocked over GEMM products, and
 * screened in single precision with bounds that decide it exactly. */
#include "gs_argmax.h"
#include "gs_common.h"
#include "gs_mat.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
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

/* Single-precision screening, decided exactly.
 * Reference: s = the double scores of cblas_dgemm over the row blocks [i0, i0 + AM_SCORE_BLOCK),
 * best = first maximum. Screening: x̂ = fl32(x), ŵ = fl32(w), ŝ = sgemm(x̂, ŵ) over sub-blocks.
 * Error of ŝ against the exact score s* = Σ x_j w_j (any summation order, with or without FMA;
 * u = 2⁻²⁴, γ_n = n u / (1 - n u), Higham ch. 3; η = 2⁻¹²⁶ bounds the absolute error of an
 * operation or conversion in the subnormal range, also under flush-to-zero):
 *   |x̂_j ŵ_j - x_j w_j| ≤ (2u + u²)|x_j w_j| + η((1+u)|w_j| + |x̂_j|) + η²
 *   |ŝ - Σ x̂_j ŵ_j|     ≤ γ_D Σ|x̂_j ŵ_j| + 2Dη,   Σ|x̂_j ŵ_j| ≤ (1+u)² Σ|x_j w_j|
 * and the double reference: |s - s*| ≤ γ'_D Σ|x_j w_j| + 2Dη' (u' = 2⁻⁵³, η' = 2⁻¹⁰²²). With
 * Σ|x_j w_j| ≤ ‖x‖₂‖w‖₂ and ‖·‖₁ ≤ √D ‖·‖₂:
 *   |ŝ_c - s_c| ≤ e_c = F ‖x‖‖w_c‖ + η(3D + 2√D(‖x‖ + ‖w_c‖)) + 3Dη',
 *   F = γ_D(1+u)² + 2u + u² + γ'_D, inflated by 1 % (norms and this test are computed in double:
 *   their relative errors, ≈ D u', are far below that).
 * If ŝ_b - e_b > ŝ_c + e_c for every c ≠ b, then s_b > s_c for every c: b is the strict maximum
 * of the reference scores, whatever their tie rule. Any other row (near ties, non-finite values)
 * is decided from the reference scores of its block (computed once per block, only if needed). */
#define SCREEN_ROWS 256

/* The long double score x·w (D terms) in four running sums: four independent chains of x87 adds,
 * where one chain waits out each add's latency (the error bound below holds for any order of
 * summation, Higham Thm 3.1 / 4.1: each term takes part in at most D − 1 additions). */
static long double dot_long(const double *x, const double *w, long D)
{
    long double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    long j = 0;
    for (; j + 4 <= D; j += 4) {
        a0 += (long double)x[j] * (long double)w[j];
        a1 += (long double)x[j + 1] * (long double)w[j + 1];
        a2 += (long double)x[j + 2] * (long double)w[j + 2];
        a3 += (long double)x[j + 3] * (long double)w[j + 3];
    }
    for (; j < D; j++) a0 += (long double)x[j] * (long double)w[j];
    return (a0 + a1) + (a2 + a3);
}

/* A row the screen left in doubt: the maximum of the reference scores is among the candidates
 * K = {k : ŝ_k + e_k ≥ lo} (lo = ŝ_b - e_b ≤ s_b; any other k has s_k < s_b). Their scores are
 * recomputed in long double (u_l = LDBL_EPSILON/2; error ≤ γ^l_D Σ|x_j w_j|, dot_long), once each
 * (kept in a[k]: Cs doubles of the caller's), so each reference score lies within
 * E_k = 1.01(γ^l_D + γ'_D)‖x‖‖w_k‖ + 4Dη' + u_l|a_k| of a_k. If one candidate beats every other
 * by more than their bounds it is the strict maximum of the reference: 1, with *best set.
 * Otherwise 0 (the caller falls back to the reference scores). */
static int decide_close(const double *x, long D, const double *Wt, int Cs, const float *s, double F, double xr,
                        const double *wn, double ax, double aw, double lo, double *a, int *best)
{
    const long double ul = LDBL_EPSILON / 2;
    const double ud = 0x1p-53, etad = 0x1p-1022;
    double gl = (double)((long double)D * ul / (1 - (long double)D * ul)), gd = (double)D * ud / (1 - (double)D * ud);
    double G = 1.01 * (gl + gd);
    int bb = -1;
    double blo = 0, others_hi = -INFINITY;
    /* the candidates' scores and the best lower bound, then every other candidate's upper bound */
    for (int k = 0; k < Cs; k++) {
        a[k] = NAN;
        if (!((double)s[k] + (F * xr * wn[k] + ax + aw * wn[k]) >= lo)) continue; /* not a candidate */
        double ad = (double)dot_long(x, Wt + (size_t)k * D, D);
        if (!isfinite(ad)) return 0;
        a[k] = ad;
        double E = G * xr * wn[k] + 4 * (double)D * etad + 2 * (double)ul * fabs(ad) + 2 * ud * fabs(ad);
        if (!isfinite(ad - E) || !isfinite(ad + E)) return 0;
        if (bb < 0 || ad - E > blo) { bb = k; blo = ad - E; }
    }
    for (int k = 0; k < Cs; k++) {
        if (k == bb || isnan(a[k])) continue;
        double E = G * xr * wn[k] + 4 * (double)D * etad + 2 * (double)ul * fabs(a[k]) + 2 * ud * fabs(a[k]);
        if (a[k] + E > others_hi) others_hi = a[k] + E;
    }
    if (bb < 0 || !(blo > others_hi)) return 0;
    *best = bb;
    return 1;
}

int am_argmax_screened(const double *X, const float *Xf, const double *Xn, long n, long lo, long hi, long D,
                    const double *Wt, int Cs, int mode, int *best, long *n_double)
{
    long nd = 0;
    if (n_double) *n_double = 0;
    if (hi <= lo) return GS_OK;
    if (Cs <= 1) {
        for (long i = lo; i < hi; i++) best[i] = 0;
        return GS_OK;
    }
    const double u = 0x1p-24, ud = 0x1p-53, eta = 0x1p-126, etad = 0x1p-1022;
    int screen = mode == AM_SCORES_SCREEN && (double)D * u < 0.01;
    long nb_max = n < AM_SCORE_BLOCK ? n : AM_SCORE_BLOCK;
    /* rows per sgemm: with the fl32 rows given, a whole reference block (W̃ is packed once per
     * call); else SCREEN_ROWS converted at a time (the bounds hold for any summation order) */
    long srows = Xf ? nb_max : SCREEN_ROWS;
    int *ref = gs_malloc((size_t)nb_max, sizeof(int), "scores"); /* a reference block's argmax */
    float *xf = NULL, *wf = NULL, *fs = NULL;
    double *wn = NULL, *xn = NULL, *ca = NULL;
    unsigned char *doubt = NULL;
    if (screen) {
        xf = Xf ? NULL : gs_malloc((size_t)SCREEN_ROWS * (size_t)D, sizeof(float), "scores");
        wf = gs_malloc((size_t)Cs * (size_t)D, sizeof(float), "scores");
        fs = gs_malloc((size_t)srows * (size_t)Cs, sizeof(float), "scores");
        wn = gs_malloc((size_t)Cs, sizeof(double), "scores");
        ca = gs_malloc((size_t)Cs, sizeof(double), "scores");
        xn = gs_malloc((size_t)srows, sizeof(double), "scores");
        doubt = gs_malloc((size_t)nb_max, 1, "scores");
    }
    if (!ref || (screen && ((!xf && !Xf) || !wf || !fs || !wn || !ca || !xn || !doubt))) {
        free(ref); free(xf); free(wf); free(fs); free(wn); free(ca); free(xn); free(doubt);
        return GS_ENOMEM;
    }
    double gf = (double)D * u / (1 - (double)D * u), gd = (double)D * ud / (1 - (double)D * ud);
    double F = 1.01 * (gf * (1 + u) * (1 + u) + 2 * u + u * u + gd);
    double sq = 1.01 * 2 * sqrt((double)D), A0 = eta * 3 * (double)D + 3 * (double)D * etad;
    if (screen)
        for (int c = 0; c < Cs; c++) {
            const double *w = Wt + (size_t)c * D;
            float *o = wf + (size_t)c * D;
            wn[c] = gm_to_float(w, D, o);
        }
    for (long i0 = lo / AM_SCORE_BLOCK * AM_SCORE_BLOCK; i0 < hi; i0 += AM_SCORE_BLOCK) {
        long nb = n - i0 < AM_SCORE_BLOCK ? n - i0 : AM_SCORE_BLOCK;
        long a = lo > i0 ? lo - i0 : 0, z = hi - i0 < nb ? hi - i0 : nb; /* block rows a..z-1 wanted */
        const double *Xb = X + (size_t)i0 * D;
        long ndoubt = z - a;
        if (screen) {
            ndoubt = 0;
            for (long r0 = a; r0 < z; r0 += srows) {
                long nr = z - r0 < srows ? z - r0 : srows;
                const float *xs = Xf ? Xf + (size_t)(i0 + r0) * D : xf; /* converted once, or here */
                const double *ns = Xf ? Xn + i0 + r0 : xn;
                for (long r = 0; !Xf && r < nr; r++) {
                    const double *x = Xb + (size_t)(r0 + r) * D;
                    float *o = xf + (size_t)r * D;
                    xn[r] = gm_to_float(x, D, o);
                }
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nr, Cs, (int)D, 1.0f, xs, (int)D, wf,
                            (int)D, 0.0f, fs, Cs);
                for (long r = 0; r < nr; r++) {
                    const float *s = fs + (size_t)r * Cs;
                    double xr = ns[r], ax = A0 + eta * sq * xr;
                    int b = 0;
                    for (int k = 1; k < Cs; k++) if (s[k] > s[b]) b = k;
                    double slo = (double)s[b] - (F * xr * wn[b] + ax + eta * sq * wn[b]);
                    int ok = isfinite(slo) && isfinite(xr);
                    for (int k = 0; k < Cs && ok; k++) {
                        if (k == b) continue;
                        double shi = (double)s[k] + (F * xr * wn[k] + ax + eta * sq * wn[k]);
                        if (!(slo > shi)) ok = 0; /* also NaN */
                    }
                    if (!ok && isfinite(slo) && isfinite(xr))
                        ok = decide_close(Xb + (size_t)(r0 + r) * D, D, Wt, Cs, s, F, xr, wn, ax, eta * sq, slo, ca, &b);
                    doubt[r0 + r] = !ok;
                    if (ok) best[i0 + r0 + r] = b; else ndoubt++;
                }
            }
        }
        if (ndoubt == 0) continue;
        /* the reference: the block's double scores in one product (am_argmax, the whole block) */
        if (am_argmax(Xb, NULL, 0, nb, D, Wt, NULL, NULL, Cs, nb, ref)) {
            free(ref); free(xf); free(wf); free(fs); free(wn); free(ca); free(xn); free(doubt);
            return GS_ENOMEM;
        }
        for (long i = a; i < z; i++)
            if (!screen || doubt[i]) best[i0 + i] = ref[i];
        nd += ndoubt;
    }
    free(ref); free(xf); free(wf); free(fs); free(wn); free(ca); free(xn); free(doubt);
    if (n_double) *n_double = nd;
    return GS_OK;
}
