/* base/lapack_quiet.c — quiet LAPACKE/LAPACK/CBLAS error handlers (see gs_lapack_quiet.h). */
#include "gs_lapack_quiet.h"
#include "gs_common.h"

#include <cblas.h>
#include <lapacke.h>
#include <lapacke_utils.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_long lq_n;

long lq_count(void) { return atomic_load(&lq_n); }

/* Same prototype as lapacke_utils.h; replaces the library's printf to stdout. */
void LAPACKE_xerbla(const char *name, lapack_int info)
{
    atomic_fetch_add(&lq_n, 1);
    if (info == LAPACK_WORK_MEMORY_ERROR)
        gs_error(GS_ERUN, "%s: not enough memory for the LAPACK work array", name);
    else if (info == LAPACK_TRANSPOSE_MEMORY_ERROR)
        gs_error(GS_ERUN, "%s: not enough memory to transpose the matrix", name);
    else
        gs_error(GS_ERUN, "%s: parameter %d had an illegal value", name, (int)-info);
}

/* Fortran XERBLA(SRNAME, INFO): name is blank-padded, not NUL-terminated; `len` is the hidden
 * length argument. Reference LAPACK stops the program here; OpenBLAS prints and returns. */
int xerbla_(char *name, int *info, int len)
{
    atomic_fetch_add(&lq_n, 1);
    int n = 0;
    while (n < len && n < 32 && name[n] != ' ' && name[n] != '\0') n++;
    gs_error(GS_ERUN, "LAPACK %.*s: parameter %d had an illegal value", n, name, info ? *info : 0);
    return 0;
}

/* Same prototype as OpenBLAS's cblas.h. */
void cblas_xerbla(blasint p, char *rout, char *form, ...)
{
    atomic_fetch_add(&lq_n, 1);
    char msg[160];
    va_list ap;
    va_start(ap, form);
    vsnprintf(msg, sizeof msg, form ? form : "", ap);
    va_end(ap);
    gs_error(GS_ERUN, "CBLAS %s: parameter %d had an illegal value%s%s", rout ? rout : "?", (int)p,
             msg[0] ? ": " : "", msg);
}
