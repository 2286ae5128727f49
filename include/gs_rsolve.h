/* gs_rsolve.h — ridge solves for large D (prefix rs_): the dual for fewer rows than columns, and
 * a single-precision Cholesky refined to double accuracy.
 *
 * The dual. With N rows X (N × D), each with a scale s_i (√ of its weight: rows X̃ = S X), and
 * one-hot labels Y (weighted likewise, Ỹ = S Y), G = X̃ᵀX̃ and Q = X̃ᵀỸ, and
 *     W = (G + τI)⁻¹ Q = X̃ᵀ (K̃ + τI)⁻¹ Ỹ = Xᵀ S (S K S + τI)⁻¹ S Y,   K = X Xᵀ (N × N),
 * so when N < D the work is N-dimensional: G + τI has D − N eigenvalues equal to τ (so
 * λ_min(G + τI) = τ exactly), and the other N are those of S K S plus τ; ‖G‖_F = ‖SKS‖_F,
 * tr G = tr SKS. K is kept without the scales, so new weights (a new β) only refactor.
 * Rows are appended in task order, so the kernel of tasks 1..t is the leading N_t × N_t block
 * of K, and the Cholesky factor of K_t + τI is the leading block of the factor of K + τI: one
 * factorization serves every task (rs_dual_factor extends it as rows arrive, and refactors from
 * the first changed row when τ or a scale changes).
 *
 * Storage: K and its factor U (S K S + τI = UᵀU) are column-major with leading dimension cap,
 * upper triangles; s holds the scales (1 unless set). In single precision (rs_dual_init's single)
 * K and U are float (Kf, Uf: sgemm kernels, spotrf) and everything read from them (statistics,
 * Lanczos, eigenvalues, the dual coefficients) is returned in double; a task too ill-conditioned
 * for float is factored in double from the float kernel (rs_dual_factor64, U64). Ownership:
 * rs_dual owns K, U, U64 and s; X stays the caller's. Thread safety: an rs_dual is used by one
 * thread at a time.
 */
#ifndef GS_RSOLVE_H
#define GS_RSOLVE_H

typedef struct {
    long D;        /* columns of the rows */
    int single;    /* K and U in float (Kf, Uf), else double (K, U) */
    long n;        /* rows whose kernel columns are in K */
    long cap;      /* leading dimension of K and U */
    double *K;     /* cap × cap, upper triangle of X Xᵀ (columns 0..n-1) */
    double *U;     /* cap × cap, upper Cholesky factor of S K S + τI (columns 0..nf-1) */
    float *Kf, *Uf;/* the same in single precision */
    double *s;     /* cap scales (rows 0..n-1) */
    long nf;       /* factored columns */
    double tau;    /* τ of the factor */
    double *U64;   /* single precision: n64 × n64 double factor of the last rs_dual_factor64 */
    long n64;
    int use64;     /* the last factorization was rs_dual_factor64: rs_dual_alpha solves with U64 */
} rs_dual;

/* Empty state for rows of D columns (no allocation yet), in double or (single = 1) float. */
void rs_dual_init(rs_dual *k, long D, int single);
void rs_dual_free(rs_dual *k);
/* Forget every row (keeps the memory). */
void rs_dual_reset(rs_dual *k);
/* Append rows n..n1-1 of X (n1 × D, row-major: every row so far, in order) to the kernel: the new
 * columns K(0:n1, n:n1) in one matrix product. GS_OK or GS_ENOMEM (capacity grows as needed).
 * Double precision only (rs_dual_put serves both). */
int rs_dual_append(rs_dual *k, const double *X, long n1);
/* Capacity for n rows (K, U and s re-laid when it grows). GS_OK or GS_ENOMEM. */
int rs_dual_reserve(rs_dual *k, long n);
/* Append the kernel columns of rows n..n1-1 (n = the rows so far) from a panel P (doubles, or
 * floats in single precision): row j − n of P (leading dimension ldp) holds K(0..j, j), the new
 * row's products with every row up to itself. The new rows' scales are 1. GS_OK or GS_ENOMEM. */
int rs_dual_put(rs_dual *k, long n1, const void *P, long ldp);
/* Forget the rows from n on (their columns of K and of the factor). */
void rs_dual_truncate(rs_dual *k, long n);
/* Scales of rows 0..m-1 (m ≤ n); the factor is kept up to the first row whose scale changed. */
void rs_dual_set_scales(rs_dual *k, const double *s, long m);
/* Make U the factor of the leading m × m block of K + τI (m ≤ n): extends the factor when τ is
 * that of the factor (bordered Cholesky: a triangular solve, a rank update and a Cholesky of the
 * new block), else refactors from column 0. GS_OK, or GS_ERUN when K + τI is not positive
 * definite (with the reason in gs_last_error). */
int rs_dual_factor(rs_dual *k, long m, double tau);
/* Single precision: the factor of S K_m S + τI in double (U64), for a task float cannot factor
 * (the float factor is left as it was), with K_m = X Xᵀ recomputed in double from the m rows X
 * (m × D, row-major), or taken from the float kernel (X NULL). GS_OK, GS_ENOMEM, or GS_ERUN as
 * rs_dual_factor. */
int rs_dual_factor64(rs_dual *k, long m, double tau, const double *X);
/* The dual coefficients of the first m rows (m ≤ nf, or n64 after rs_dual_factor64: solved with
 * that factor, in double; else in K's precision): work (m × cs, column-major) =
 * S (S K_m S + τI)⁻¹ S Y, where Y's row i is sw[i] (NULL: 1) at column col[i] (col[i] < 0 or
 * ≥ cs: a zero row), so that W = Xᵀ work. GS_OK or GS_ERUN. */
int rs_dual_alpha(const rs_dual *k, long m, const int *col, const double *sw, int cs, double *work);
/* W for the first m rows (m ≤ nf) of a contiguous X: Wt (cs × D, row-major: row c = column c of
 * W) = (rs_dual_alpha's work)ᵀ X. X as given to rs_dual_append. work: m × cs doubles. GS_OK or
 * GS_ERUN. */
int rs_dual_solve(const rs_dual *k, long m, const double *X, const int *col, const double *sw, int cs,
                  double *Wt, double *work);
/* Statistics of G_m = X̃_mᵀ X̃_m from the leading m × m block of S K S: ‖G‖_F², tr G. */
void rs_dual_stats(const rs_dual *k, long m, double *fro2, double *trace);
/* Eigenvalues of G_m (D of them, descending: those of S K_m S, then D − m zeros when m < D) into
 * w[D]. Allocates an m × m copy. GS_OK, GS_ENOMEM, GS_ERUN. */
int rs_dual_eigvals(const rs_dual *k, long m, double *w);
/* λ_max(G_m) by Lanczos on S K_m S (see sp_lanczos_op), with its error bound. */
int rs_dual_lmax(const rs_dual *k, long m, int maxit, double tol, double *lmax, double *err);

/* Single-precision Cholesky, refined to double accuracy. Solves A X = B for symmetric positive
 * definite A (n × n, column-major, upper triangle read; not modified) and nrhs right-hand sides
 * B (column-major n × nrhs) into X: factor fl32(A) = ÛᵀÛ (spotrf, into fwork: n × n floats),
 * X₀ = Û⁻¹Û⁻ᵀB, then refine X += Û⁻¹Û⁻ᵀ(B − A X) with the residual in double until every column
 * satisfies ‖b − A x‖∞ ≤ ‖x‖∞ ‖A‖∞ ε √n (ε = DBL_EPSILON/2: LAPACK dsposv's test, the accuracy
 * of a double-precision Cholesky solve), at most 30 steps. *iters gets the steps taken.
 * rwork: n × nrhs doubles. GS_OK; RS_NOCONV when fl32(A) is not positive definite or the
 * refinement does not converge (κ(A) too large for single precision): solve in double then. */
enum { RS_NOCONV = 100 };
int rs_solve_mixed(const double *A, long n, const double *B, int nrhs, double *X, float *fwork, double *rwork,
                   int *iters);

#endif
