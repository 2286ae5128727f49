/* linalg/gram_tmpl.h — the precision-dependent kernels of the ridge core, written once and compiled
 * for double and for float by gram.c (no other file includes this one), which defines before each
 * inclusion GT_P (the BLAS prefix, d or s), GT_R (the element type), GT_EL (gm_mat's field of
 * that type) and GT_SUF (the kernels' suffix). From them: R the element type; K(name) the
 * function's name with its suffix (name_d, name_f); FL(name), BL(name), LP(name) the Fortran
 * LAPACK, CBLAS and LAPACKE routine of that precision; EL(m) m's elements. All of them are
 * undefined at the end. */
#define GT_CAT_(a, b) a##b
#define GT_CAT(a, b) GT_CAT_(a, b)
#define R GT_R
#define K(name) GT_CAT(name##_, GT_SUF)
#define FL(name) GT_CAT(GT_CAT(GT_P, name), _)
#define BL(name) GT_CAT(cblas_, GT_CAT(GT_P, name))
#define LP(name) GT_CAT(GT_CAT(LAPACKE_, GT_CAT(GT_P, name)), _work)
#define EL(m) ((m)->GT_EL)

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

/* The same for part `part` of the columns (-1: all): 0 the columns below c, 1 those from c on, c
 * the multiple of 64 nearest D/√2 (where the two parts' products are equal: c²/2 against
 * c(D − c) + (D − c)²/2), so two threads share one update; the split is fixed, so are the sums. */
static void K(rank_update_part)(gm_mat *M, const R *X, long n, int part)
{
    long D = M->rows, c = ((long)((double)D / sqrt(2.0)) + 32) / 64 * 64;
    if (part < 0 || c <= 0 || c >= D) {
        if (part <= 0) K(rank_update)(M, X, n);
        return;
    }
    if (n <= 0) return;
    R *m = EL(M);
    if (part == 0) {
        BL(syrk)(CblasRowMajor, CblasUpper, CblasTrans, (int)c, (int)n, 1.0, X, (int)D, 1.0, m, (int)D);
        return;
    }
    BL(gemm)(CblasRowMajor, CblasTrans, CblasNoTrans, (int)c, (int)(D - c), (int)n, 1.0, X, (int)D, X + c, (int)D, 1.0,
             m + c, (int)D);
    BL(syrk)(CblasRowMajor, CblasUpper, CblasTrans, (int)(D - c), (int)n, 1.0, X + c, (int)D, 1.0, m + c * D + c, (int)D);
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

/* Householder reduction of the symmetric n×n a (both triangles; LAPACK's uplo 'L' in column-major)
 * to tridiagonal form Qᵀ a Q = T, as xsytrd does it (panels of GR_TRI_NB columns by xlatrd, the
 * trailing update by xsyr2k, the last columns by xsytd2), from column *next on, stopping between
 * panels when *cancel is set (*next then says where to resume with the same arrays). a keeps the
 * reflectors, d the diagonal (n), e the off-diagonal (n − 1), tau the reflectors' scales (n − 1);
 * w: n × GR_TRI_NB work. GS_OK or GS_ECANCEL. */
static int K(tri_reduce)(R *a, long n, R *d, R *e, R *tau, R *w, long *next, const volatile int *cancel)
{
    long i = *next;
    int nb = GR_TRI_NB, ld = (int)n, ni, info = 0;
    for (; i < n - GR_TRI_NB; i += GR_TRI_NB) {
        if (cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED)) { *next = i; return GS_ECANCEL; } /* another thread */
        ni = (int)(n - i);
        FL(latrd)("L", &ni, &nb, a + i + i * n, &ld, e + i, tau + i, w, &ld, 1);
        BL(syr2k)(CblasColMajor, CblasLower, CblasNoTrans, (int)(n - i - GR_TRI_NB), GR_TRI_NB, -1.0, a + (i + GR_TRI_NB) + i * n,
                  ld, w + GR_TRI_NB, ld, 1.0, a + (i + GR_TRI_NB) * (n + 1), ld);
        for (long j = i; j < i + GR_TRI_NB; j++) {
            a[(j + 1) + j * n] = e[j];
            d[j] = a[j * (n + 1)];
        }
    }
    ni = (int)(n - i);
    FL(sytd2)("L", &ni, a + i * (n + 1), &ld, d + i, e + i, tau + i, &info, 1);
    *next = n;
    return GS_OK;
}

/* Columns *next.. of the n×n orthogonal factor Q of tri_reduce (a, tau: its reflectors) into q
 * (column-major), GR_TRI_QCOLS columns at a time (xormtr applied to those columns of the identity),
 * stopping between them when *cancel is set (resumable). GS_OK, GS_ECANCEL or GS_ENOMEM. */
static int K(tri_form_q)(const R *a, long n, const R *tau, R *q, long *next, const volatile int *cancel)
{
    R lq;
    lapack_int nc0 = (lapack_int)(n < GR_TRI_QCOLS ? n : GR_TRI_QCOLS);
    if (LP(ormtr)(LAPACK_COL_MAJOR, 'L', 'L', 'N', (lapack_int)n, nc0, a, (lapack_int)n, tau, q, (lapack_int)n, &lq, -1))
        return gs_error(GS_ERUN, "LAPACK ormtr: workspace query failed");
    lapack_int lw = (lapack_int)lq;
    R *work = malloc((size_t)(lw > 1 ? lw : 1) * sizeof(R));
    if (!work) return gs_error(GS_ENOMEM, "τ factor: out of memory");
    for (long j0 = *next; j0 < n; j0 += GR_TRI_QCOLS) {
        if (cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED)) { free(work); *next = j0; return GS_ECANCEL; }
        long nc = n - j0 < GR_TRI_QCOLS ? n - j0 : GR_TRI_QCOLS;
        R *c = q + j0 * n;
        memset(c, 0, (size_t)nc * (size_t)n * sizeof(R));
        for (long j = 0; j < nc; j++) c[j0 + j + j * n] = 1;
        lapack_int info = LP(ormtr)(LAPACK_COL_MAJOR, 'L', 'L', 'N', (lapack_int)n, (lapack_int)nc, a, (lapack_int)n,
                                    tau, c, (lapack_int)n, work, lw);
        if (info) { free(work); return gs_error(GS_ERUN, "LAPACK ormtr failed (info %d)", (int)info); }
    }
    free(work);
    *next = n;
    return GS_OK;
}

/* The nrhs columns B (n each, contiguous) := (Q T Qᵀ + τI)⁻¹ B = Q (T + τI)⁻¹ Qᵀ B with q the
 * explicit Q (column-major; tri_form_q) and T's diagonal d and off-diagonal e: two matrix
 * products and the LDLᵀ factors of T + τI (xpttrf/xpttrs: O(n) per column); QᵀB is kept in qtb
 * (n × nrhs) for the next τ with the same B (*have_qtb). 0; > 0 when T + τI is not positive
 * definite; < 0 on a LAPACK failure or no memory. */
static int K(tri_solve)(const R *q, long n, const R *d, const R *e, double tau, R *B, int nrhs, R *qtb, int *have_qtb)
{
    if (nrhs < 1 || n < 1) return 0;
    R *dd = malloc((size_t)n * sizeof(R) * (2 + (size_t)nrhs)), *ee = dd + n, *P = dd + 2 * n;
    if (!dd) return -1;
    if (!*have_qtb) { /* QᵀB does not depend on τ: once per reduction */
        BL(gemm)(CblasColMajor, CblasTrans, CblasNoTrans, (int)n, nrhs, (int)n, 1.0, q, (int)n, B, (int)n, 0.0, qtb, (int)n);
        *have_qtb = 1;
    }
    memcpy(P, qtb, (size_t)n * (size_t)nrhs * sizeof(R));
    for (long i = 0; i < n; i++) { dd[i] = d[i] + (R)tau; ee[i] = i + 1 < n ? e[i] : 0; }
    lapack_int info = LP(pttrf)((lapack_int)n, dd, ee);
    if (info > 0) { free(dd); return (int)info; }
    if (!info) info = LP(pttrs)(LAPACK_COL_MAJOR, (lapack_int)n, nrhs, dd, ee, P, (lapack_int)n);
    if (!info) BL(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)n, nrhs, (int)n, 1.0, q, (int)n, P, (int)n, 0.0, B, (int)n);
    free(dd);
    return info ? -1 : 0;
}

#undef R
#undef K
#undef FL
#undef BL
#undef LP
#undef EL
#undef GT_CAT
#undef GT_CAT_
#undef GT_P
#undef GT_R
#undef GT_EL
#undef GT_SUF
