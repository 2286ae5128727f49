# quiet.mk — take the quiet LAPACKE/LAPACK/CBLAS error handlers (src/base/lapack_quiet.c) out of the
# static library even though nothing in gsrscope calls them: the shared libraries do, and the
# executable's definitions replace theirs (which print to stdout).
LDFLAGS += -Wl,-u,LAPACKE_xerbla -Wl,-u,xerbla_ -Wl,-u,cblas_xerbla
