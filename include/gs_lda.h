/* gs_lda.h — the discriminant-analysis maths of the slda, klda and fecam learners (prefix da_).
 *
 * Weighted rows: every statistic takes rows with a weight ω (1 for real rows, β for an
 * augmenter's synthetic rows), counted as ω copies of the row (frequency weights).
 *
 * da_stats keeps, per class c, the weight w_c = Σ ω_i, the row count and the weighted sum
 * s_c = Σ ω_i x_i (so μ_c = s_c / w_c), and optionally the pooled within-class scatter
 * S = Σ_c Σ_{i∈c} ω_i (x_i − μ_c)(x_i − μ_c)ᵀ. Rows arrive in blocks of one class and one
 * weight; a block joining a class that already has rows is merged with the exact update
 * S += S_block + (w_c w_b / (w_c + w_b)) (μ_c − μ_b)(μ_c − μ_b)ᵀ, so S does not depend on how
 * the rows of a class were split into blocks (real rows, then synthetic ones).
 *
 * LDA with a shared covariance (slda, klda): A = a·S + b·I, V_k = A⁻¹ μ_k, bias_k = −½ μ_kᵀ V_k;
 * the class of x is argmax_k xᵀV_k + bias_k, i.e. the smallest Mahalanobis distance
 * (x − μ_k)ᵀ A⁻¹ (x − μ_k). A is factored by Cholesky, never inverted.
 *
 * Random Fourier features (klda): φ(x) = √(2/D) cos(x W + b), W (d × D) with entries N(0, 2γ),
 * b (D) uniform on [0, 2π), drawn from one GSL stream: W row by row, then b.
 *
 * FeCAM (fecam): a class's own covariance from its rows r_i (already Tukey-transformed):
 * μ = Σω r / W, Σ = Σ ω (r − μ)(r − μ)ᵀ / (W − 1) (W = Σ ω; NumPy's np.cov with frequency
 * weights), shrunk Σ_s = Σ + a I with a = α₁ · mean(diag Σ), normalized to a correlation matrix
 * N = Δ⁻¹ Σ_s Δ⁻¹ (Δ = diag(√diag Σ_s)). Distance of a (Tukey-transformed) row x:
 * d(x) = vᵀ N⁻¹ v = uᵀ Σ_s⁻¹ u with v = x − μ and u = Δ v. When the class has at most D rows,
 * Σ_s = a I + s UᵀU (U the √ω-weighted centered rows, s = 1/(W − 1)) is applied through
 * Woodbury, Σ_s⁻¹ = (I − BᵀB)/a with B = √s L⁻¹ U and L Lᵀ = a I + s U Uᵀ: memory and work
 * n·D instead of D². A class whose W ≤ 1 or whose rows are all equal has no covariance; its
 * distance is the Euclidean ‖v‖² (documented, never silent: da_fecam_class.euclid).
 * Tukey's power transform: t(x) = sign(x) |x|^β (FeCAM's x^β on non-negative features, made
 * odd so that signed features keep their sign); β = 1 is the identity.
 *
 * Single precision (klda, fecam: the products that dominate their time). A float scatter
 * (da_stats_init's DA_SCATTER_F) holds S in float, accumulated by ssyrk from the centred rows
 * (class sums and weights stay double). da_lda_solve_f factors A = a·S + b·I by spotrf when
 * its condition bound (a·tr S + b)/b is at most DA_SINGLE_KAPPA, else (or when spotrf fails) in
 * double, A formed from the float S in double (spd_solve, gs_spd.h); the model V is kept in
 * float and scored by sgemm. KLDA's features in float are shifted by φ(0): φ̃(x) = φ(x) − φ(0), computed without
 * cancellation as −2√(2/D) sin(t/2) (sin(t/2) cos b + cos(t/2) sin b), t = x W. The Mahalanobis
 * distance, hence the class chosen, is the same for φ and φ̃ (every mean moves by φ(0)); the
 * shift keeps float's relative precision on features that vary by a few percent around φ(0).
 * FeCAM's distances in float: the class model (fitted in double) rounded to float, the rows'
 * products by sgemm or strsm, the sums of squares accumulated in double (dsdot).
 * Agreement with double: ≥ 99.9 % identical predictions and accuracies within 0.1 point
 * (tests/t_lda_numpy.sh against NumPy in double).
 *
 * Ownership: each struct owns its arrays; *_free releases them and zeroes the struct.
 * Errors: GS_ENOMEM, or GS_ERUN with a message saying what to change (gs_error).
 */
#ifndef GS_LDA_H
#define GS_LDA_H

#include <stdint.h>
#include <stddef.h>
#include <gsl/gsl_rng.h>

typedef struct {
    int C;
    long D;
    double *sum;   /* C × D weighted sums */
    double *w;     /* C weights */
    long *n;       /* C row counts */
    double *S;     /* D × D pooled scatter (full symmetric after da_stats_add), NULL if not kept */
    float *Sf;     /* the same in float (DA_SCATTER_F): upper triangle, row-major; NULL if not kept */
    double wtot;   /* Σ_c w_c */
} da_stats;

/* scatter: 0 none, 1 (or DA_SCATTER_D) double, DA_SCATTER_F float. */
enum { DA_SCATTER_D = 1, DA_SCATTER_F = 2 };
/* Largest condition bound of A factored in float (the ridge learners' EN_SINGLE_KAPPA). */
#define DA_SINGLE_KAPPA 1e5
int da_stats_init(da_stats *s, int C, long D, int scatter);
void da_stats_zero(da_stats *s);
void da_stats_free(da_stats *s);
/* Add n rows X (n × D, row-major) of class c, each with weight omega > 0 (omega ≤ 0 or n ≤ 0:
 * nothing). */
int da_stats_add(da_stats *s, int c, const double *X, long n, double omega);

/* Add n rows H (n × D) with labels y and weights w (NULL: all 1), a run of equal label and
 * weight at a time. */
int da_add_rows(da_stats *s, const double *H, const int *y, const double *w, long n);

/* LDA model of the classes cls[0..k): A = a·S + b·I into A (D × D work, caller's), V (k × D
 * rows) and bias (k). GS_OK, GS_ENOMEM, or GS_ERUN when A is not positive definite or a class
 * has no rows (message set). */
int da_lda_solve(const da_stats *s, const int *cls, int k, double a, double b, double *A, double *V,
                 double *bias);
/* The LDA model (V, bias) of every task t of a learner, so that predicting for an earlier task
 * needs no refit. Ownership: da_models owns the per-task arrays. */
typedef struct {
    int T;
    long D;
    double **V, **bias; /* per task: k_t × D, k_t; NULL until solved */
    float **Vf;         /* per task: k_t × D in float (da_models_solve_f), NULL otherwise */
} da_models;

int da_models_init(da_models *m, int T, long D);
void da_models_clear(da_models *m); /* forget every task's model */
void da_models_free(da_models *m);
/* Model of task t from s over the classes cls[0..k) (da_lda_solve with a, b; A is work). On
 * failure the task has no model and the message says so. */
int da_models_solve(da_models *m, int t, const da_stats *s, const int *cls, int k, double a, double b, double *A);
/* pred[i] = cls[argmax_k x_iᵀV_k + bias_k] for task t's model (GS_ERUN if it has none). */
int da_models_predict(const da_models *m, int t, const double *X, long n, const int *cls, int k, int *pred);

/* Eigenvalues, descending, of a·S + b·I (S: D × D, upper triangle row-major, as da_stats keeps
 * it) by LAPACK dsyevd, eigenvalues only; work (D × D) is overwritten. */
int da_sym_eigvals(const double *S, long D, double a, double b, double *work, double *eig);

/* Single precision (see above). da_lda_solve_f: V (k × D) in float; *fallback = 1 when A was
 * factored in double. da_models_solve_f / da_models_predict_f: the same per task, X float. */
int da_lda_solve_f(const da_stats *s, const int *cls, int k, double a, double b, float *A, float *V, double *bias,
                   int *fallback);
int da_models_solve_f(da_models *m, int t, const da_stats *s, const int *cls, int k, double a, double b, float *A,
                      int *fallback);
int da_models_predict_f(const da_models *m, int t, const float *X, long n, const int *cls, int k, int *pred);
/* Eigenvalues, descending, of a·S + b·I for a float S (ssyevd; work D × D floats). */
int da_sym_eigvals_f(const float *S, long D, double a, double b, float *work, double *eig);
/* φ̃ = φ − φ(0) in float: cb, sb (D) = cos b, sin b (da_rff_shift_prep); Xf (n × d) work, Z (n × D). */
void da_rff_shift_prep(const double *b, long D, float *cb, float *sb);
void da_rff_map_shift_f(const double *X, long n, long d, const float *Wf, const float *cb, const float *sb, long D,
                        float *Xf, float *Z);

/* Random Fourier features: draw W (d × D) and b (D) from the generator r (the caller's derived
 * stream), and map rows. Z (n × D) may not alias X. */
int da_rff_draw(gsl_rng *r, long d, long D, double gamma, double *W, double *b);
void da_rff_map(const double *X, long n, long d, const double *W, const double *b, long D, double *Z);

/* End of the run of rows starting at i that share label y[i] and weight w[i] (w NULL: all 1):
 * the blocks da_stats_add takes. */
long da_run_end(const int *y, const double *w, long i, long n);

/* Tukey's power transform in place (see above). */
void da_tukey(double *x, size_t n, double beta);

typedef struct {
    long D;
    int euclid;    /* no covariance (fewer than 2 rows' weight, or no spread): d = ‖x − μ‖² */
    long r;        /* rows of B (Woodbury form), 0 for the full Cholesky form */
    double a;      /* shrinkage a = α₁ mean(diag Σ) */
    double *mu;    /* D */
    double *sd;    /* D: √diag(Σ_s) */
    double *B;     /* r × D (Woodbury) or D × D lower Cholesky factor of Σ_s (column-major) */
} da_fecam_class;

/* Fit one class from its rows R (n × D, Tukey-transformed) with weights w (n; NULL = all 1). */
int da_fecam_fit(da_fecam_class *m, const double *R, const double *w, long n, long D, double alpha1);
/* dist[i * stride] = d(x_i) for the n rows X (n × D, Tukey-transformed). */
int da_fecam_dist(const da_fecam_class *m, const double *X, long n, double *dist, long stride);
void da_fecam_free(da_fecam_class *m);
/* A fitted class rounded to float for da_fecam_dist_f (m must outlive it). */
typedef struct {
    const da_fecam_class *m;
    float *mu, *sd, *B;
} da_fecam_f;
int da_fecam_to_f(const da_fecam_class *m, da_fecam_f *f);
void da_fecam_dist_free_f(da_fecam_f *f);
/* da_fecam_dist for float rows X, in float (sums of squares in double). */
int da_fecam_dist_f(const da_fecam_f *f, const float *X, long n, double *dist, long stride);
/* Bytes one class's model takes (n rows of dimension D). */
double da_fecam_bytes(long n, long D);

#endif
