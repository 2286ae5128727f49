/* gs_spd.h — the shifted SPD solve in single precision with its fallback to double (prefix spd_;
 * linalg/spd.c): (M + reg·I) X = B for a symmetric M ⪰ 0 held in float, factored by spotrf/spotrs
 * while a cheap condition bound says float will do, else (or when spotrf fails) factored in a
 * double copy by dpotrf/dpotrs and the solution rounded back to float. Every matrix here has
 * λ_min ≥ reg, so cond(M + reg·I) ≤ (λ̄ + reg)/reg for any λ̄ ≥ λ_max(M): the bound. AnaCP's
 * heads and final layer and the float LDA of klda (gs_lda.h: da_lda_solve_f) call it; what
 * differs between them (how M and its double copy are formed, the bound, κ) comes in spd_opts.
 *
 * Storage: column-major with leading dimensions; only the triangle uplo of M is read or written.
 * A row-major upper triangle is the column-major 'L' one. Ownership: M, B and the callbacks'
 * context are the caller's; the double copy is allocated and freed inside (n × n and n × nrhs
 * doubles, two gs_malloc calls). Thread safety: none of its own (one call per M at a time).
 */
#ifndef GS_SPD_H
#define GS_SPD_H

typedef struct {
    char uplo;      /* 'L' or 'U': the column-major triangle of M stored, read and factored */
    double reg;     /* the shift, > 0 */
    double kappa;   /* the largest condition bound (λ̄ + reg)/reg factored in float */
    int force;      /* 1: in double whatever the bound (no bound computed, M not factored in float) */
    /* Writes the triangle of M (without the shift; B too if the caller likes): before the float
     * attempt, and again after a failed spotrf (which overwrote M) when the double copy is formed
     * from M. NULL: M holds the matrix on entry and cannot be written again. */
    int (*fill)(void *ctx);
    /* λ̄ ≥ λ_max(M), computed before fill (e.g. from the matrix M is formed from). NULL:
     * spd_lmax_bound of M after fill. */
    double (*bound)(void *ctx);
    /* The triangle uplo of M (without the shift: spd_solve adds reg in double) in double into Md
     * (n × n, leading dimension ldm), formed from the caller's own source (so M needs no refill
     * after a failed spotrf, and no fill when the bound sends it to double). NULL: M's floats. */
    void (*fill_d)(void *ctx, double *Md, long ldm);
    /* The right-hand sides in double into Bd (n × nrhs, leading dimension n). NULL: B's floats. */
    void (*rhs_d)(void *ctx, double *Bd, long ldb);
    void *ctx;      /* the callbacks' argument */
    const char *what; /* names the matrix in error messages, required ("the regularized covariance") */
    const char *hint; /* appended to the not-positive-definite message ("; raise --tau"), or NULL */
} spd_opts;

/* Upper bound on λ_max of the symmetric n × n matrix whose column-major triangle uplo ('L' or 'U')
 * is in M (leading dimension ld): the smaller of the largest absolute row sum (Gershgorin) and,
 * for M ⪰ 0, the trace (the trace alone when the row sums' n doubles cannot be allocated). */
double spd_lmax_bound(const float *M, long n, long ld, char uplo);

/* The same bound for a scaled kernel K̃ = diag(s) K diag(s) grown a block of rows at a time (AnaCP's
 * dual heads): K is row-major with leading dimension ld, its entries (i, j > i) above the diagonal
 * (float), its diagonal in kd; rs[0..from-1] and *tr hold the absolute row sums and the trace of
 * K̃'s first `from` rows (from = 0: nothing yet), and receive those of its first n rows, adding only
 * the terms of rows from..n-1 (O(n·(n − from))). Returns the bound of K̃'s first n rows,
 * min(max rs, *tr), as spd_lmax_bound's. */
double spd_rowsum_grow(const float *K, long ld, const float *kd, const double *s, long from, long n, double *rs,
                     double *tr);

/* Solve (M + reg·I) X = B (n × n; B: nrhs columns of n, leading dimension ldb, receives X).
 * In float (M gets the shift on its diagonal and its Cholesky factor, in place) when !force and
 * (λ̄ + reg)/reg ≤ kappa and spotrf succeeds; else in a double copy (M is then left unfactored,
 * B receives the double solution rounded to float). A failed spotrf needs fill or fill_d to form
 * the matrix again, else it is an error. *dbl (may be NULL) receives 1 when double was used.
 * GS_OK; fill's status when it fails; GS_ENOMEM (the double copy) or GS_ERUN (not positive
 * definite in double, a failed spotrf with nothing to form the matrix again, a LAPACK argument
 * error), each message naming o->what. */
int spd_solve(float *M, long n, long ld, float *B, long nrhs, long ldb, const spd_opts *o, int *dbl);

#endif
