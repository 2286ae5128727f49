/* gs_lapack_quiet.h — quiet error handlers for LAPACKE, LAPACK/BLAS and CBLAS (prefix lq_).
 *
 * Debian's LAPACKE_xerbla prints with printf to stdout and OpenBLAS's xerbla_/cblas_xerbla print
 * too; a gsrscope table, CSV or the TUI screen must never carry that text. src/base/lapack_quiet.c
 * defines LAPACKE_xerbla, xerbla_ and cblas_xerbla in the executable (mk/quiet.mk makes the
 * linker take them out of the static library), so the shared libraries call these instead: they
 * print nothing and record the message with gs_error() (GS_ERUN) on the calling thread. The
 * caller still sees the library's info/status code and reports it in its own words.
 */
#ifndef GS_LAPACK_QUIET_H
#define GS_LAPACK_QUIET_H

/* Number of library error reports received by this process (for tests). */
long lq_count(void);

#endif
