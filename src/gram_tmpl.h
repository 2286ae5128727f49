/* gram_tmpl.h — the precision-dependent kernels of the ridge core, written once and compiled
 * for double and for float by gram.c (which defines R, K, BL, LP before each inclusion; no other
 * file includes this one). R: the element type; K(name): the function's name with its suffix;
 * BL(name), LP(name): the CBLAS / LAPACKE routine of that precision; EL(m): m's elements. */

/* Lower triangle := upper triangle of the n×n matrix v, in 64×64 tiles (the column walk of a plain
 * loop misses the cache at every element for n in the hundreds). */
static void K(symmetrize)(R *v, long n)
{
    enum { TB = 64 };
    for (long i0 = 0; i0 < n; i0 += TB)
        for (long j0 = i0; j0 < n; j0 += TB) {
            long i1 = i0 + TB < n ? i0 + TB : n, j1 = j0 + TB < n ? j0 + TB : n;
            for (long i = i0; i < i1; i++)
                for (long j = j0 > i + 1 ? j0 : i + 1; j < j1; j++) v[j * n + i] = v[i * n + j];
        }
}

/* Upper triangle (row-major) of M += Xᵀ X for the n rows X (n × D, contiguous). */
static void K(rank_update)(gm_mat *M, const R *X, long n)
{
    long D = M->rows;
    if (n > 0) BL(syrk)(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)n, 1.0, X, (int)D, 1.0, EL(M), (int)D);
}

/* y = A x for the symmetric A (upper triangle read). */
static void K(symv)(const gm_mat *A, const R *x, R *y)
{
    BL(symv)(CblasColMajor, CblasUpper, (int)A->rows, 1.0, EL(A), (int)A->rows, x, 1, 0.0, y, 1);
}

/* Cholesky solve in place: A := U with UᵀU = A + τI (upper), then the nrhs columns B (D each,
 * contiguous) := (A + τI)⁻¹ B. 0, or the LAPACK info (> 0: not positive definite at that minor). */
static int K(chol_solve)(gm_mat *A, double tau, R *B, int nrhs)
{
    long D = A->rows;
    R *a = EL(A);
    for (long i = 0; i < D; i++) a[i * D + i] += (R)tau;
    /* the _work variants: no NaN scan of A (its rows were checked finite) */
    lapack_int info = LP(potrf)(LAPACK_COL_MAJOR, 'U', (lapack_int)D, a, (lapack_int)D);
    if (info) return (int)info;
    if (nrhs > 0) info = LP(potrs)(LAPACK_COL_MAJOR, 'U', (lapack_int)D, nrhs, a, (lapack_int)D, B, (lapack_int)D);
    return info ? -1 : 0;
}
