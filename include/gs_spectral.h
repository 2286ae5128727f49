/* gs_spectral.h — eigenvalues and spectral metrics of symmetric PSD matrices (prefix sp_).
 *
 * Matrices are full symmetric D×D row-major (= column-major, since symmetric); routines read
 * the upper triangle in LAPACK's column-major sense ('U'). Nothing here allocates D×D
 * unless it says so.
 */
#ifndef GS_SPECTRAL_H
#define GS_SPECTRAL_H

#include "gs_mat.h"

/* All eigenvalues of symmetric A (D×D), descending, into w[D]. A is not modified (a copy is
 * made). LAPACKE_dsyevd, eigenvalues only. GS_OK, GS_ERUN (info != 0), GS_ENOMEM. */
int sp_eigvals(const gm_mat *A, double *w);
/* The same on A's own storage, which it overwrites (for a matrix that is already a copy: no
 * second D×D). */
int sp_eigvals_in_place(gm_mat *A, double *w);
/* Eigenvalues (descending) and eigenvectors: U (D×D) columns in the same order (U allocated). */
int sp_eig(const gm_mat *A, double *w, gm_mat *U);

/* ‖A‖_F² and tr A of symmetric A. */
double sp_fro2(const gm_mat *A);
double sp_trace(const gm_mat *A);

/* Stable rank of G+τI from ‖G‖_F², tr G, λ_max(G): (fro2 + 2τ tr + Dτ²) / (λmax + τ)². */
double sp_stable_rank_formula(double fro2, double trace, double lmax, double tau, long D);
/* Stable rank Σλ²/λ₁² from eigenvalues w (descending, already including τ). */
double sp_stable_rank_eig(const double *w, long D);
/* Effective rank exp(-Σ p log p), p = λ/Σλ (eigenvalues ≤ 0 are skipped). */
double sp_effective_rank(const double *w, long D);
/* The ridge's filter factors fᵢ = λᵢ/(λᵢ + τ) (into f, D values; may be NULL) and their sum, the
 * effective degrees of freedom df(τ) = Σ fᵢ = tr(G (G + τI)⁻¹), from the eigenvalues λᵢ of G
 * (without τ; values below 0 from rounding count as 0). τ = 0: the count of λᵢ > 0. */
double sp_ridge_df(const double *lambda, long D, double tau);
double sp_filter_factors(const double *lambda, long D, double tau, double *f);

/* Lanczos with full reorthogonalization for the extreme eigenvalues of symmetric G.
 * Runs until both estimates have residual bound ≤ tol·|λ_max| or maxit steps (≤ D).
 * Outputs estimates and their residual bounds (|β_k s_k|), which bound the distance to an
 * eigenvalue of G. Deterministic (fixed start vector). GS_OK or GS_ENOMEM. */
int sp_lanczos_extremes(const gm_mat *G, int maxit, double tol, double *lmax, double *lmax_err,
                        double *lmin, double *lmin_err);

/* Lanczos on an operator y = A x (A symmetric n×n), as above. `which` names the ends whose
 * convergence (bound ≤ tol·max|Ritz|) stops the iteration; both ends are reported. apply returns
 * GS_OK or an error. For speed: the engine converges only λ_max on G and
 * gets λ_min from the Cholesky factor it already has. */
enum { SP_LANCZOS_MAX = 1, SP_LANCZOS_MIN = 2 };
typedef int (*sp_apply_fn)(const double *x, double *y, void *user);
int sp_lanczos_op(long n, sp_apply_fn apply, void *user, int which, int maxit, double tol,
                  double *lmax, double *lmax_err, double *lmin, double *lmin_err);
/* λ_min of A = UᵀU from its upper Cholesky factor U (column-major, as dpotrf 'U' leaves it; only
 * the upper triangle is read; a float factor, U->f, as spotrf leaves it, is applied in float): Lanczos for the largest eigenvalue μ of A⁻¹ = U⁻¹U⁻ᵀ (two dtrsv per
 * step), λ_min = 1/μ with error bound 1/μ − 1/(μ + ρ).
 * μ is the Rayleigh quotient of the final Ritz vector y (so μ ≤ μ_max and 1/μ ≥ λ_min) and ρ the
 * residual ‖A⁻¹y − μy‖/‖y‖, both computed explicitly with one more solve; ρ bounds the distance
 * from μ to an eigenvalue of A⁻¹, which is μ_max once converged (the bound is in that sense only).
 * Stops when ρ ≤ tol·μ or after maxit Lanczos steps (maxit counts operator applications, one per
 * step, ≤ D; the explicit check adds one). Partial reorthogonalization keeps a step close to the
 * cost of its two triangular solves. Deterministic (fixed start vector), no shared state.
 * GS_OK; GS_ERUN (a pivot of U ≤ 0 or not finite, LAPACK failure); GS_ENOMEM. */
int sp_lmin_from_cholesky(const gm_mat *U, int maxit, double tol, double *lmin, double *lmin_err);

/* Theorem 1 of the paper for G (eigen-decomposed) and Δ, split r, ridge τ. */
typedef struct {
    int r;
    double eps, eta, mbar, m;      /* ‖UhᵀΔUh‖₂, ‖UhᵀΔUt‖₂, ‖UtᵀΔUt‖₂, λ_min(UtᵀΔUt) */
    double S_tau;                  /* ‖G+τI‖_F² */
    double Lambda_plus;
    double bound;                  /* (S_τ + (D-r)m²)/(Λ₊+τ)² */
    double sr_before;              /* sr(G+τI) */
    double sr_after;               /* sr(G+Δ+τI), exact */
    int bound_holds;               /* bound ≤ sr_after (up to rounding) */
    int strict_condition;          /* eq. 12 holds */
    double lhs, rhs;               /* the two sides of eq. 12 */
    /* why the stable rank moves as it does (the claims view, run --theorem): */
    double lambda1;                /* λ₁(G), without τ */
    double tr_G, tr_Delta;         /* traces of G and Δ */
    double u1_Delta;               /* u₁ᵀΔu₁, u₁ the top eigenvector of G */
    long rank_G, rank_GD;          /* numerical ranks of G and G + Δ: eigenvalues above
                                    * D·ε_mach·λ_max (NumPy's matrix_rank rule) */
    double outside;                /* the share of tr Δ on G's numerical null space (the
                                    * eigenvectors of G at or below that rule's threshold) */
    double rank_tol;               /* ONE threshold for both matrices: D·ε_mach·λ₁(G+Δ), the larger
                                    * of their two NumPy thresholds (Δ ⪰ 0) */
    long rank1_G, rank1_GD;        /* ranks of G and G + Δ against rank_tol: rank1_GD ≥ rank1_G
                                    * (Weyl: λᵢ(G+Δ) ≥ λᵢ(G); rounding is clamped to that) */
} sp_theorem;

int sp_theorem1(const gm_mat *G, const gm_mat *Delta, int r, double tau, sp_theorem *out);

#endif
