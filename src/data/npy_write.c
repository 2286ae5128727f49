/* data/npy_write.c — .npy writer (format 1.0, little-endian), atomic (see gs_npy.h). */
#include "gs_npy.h"
#include "gs_common.h"
#include "gs_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int npy_write(const char *path, const char *descr, int fortran, int ndim, const long *shape,
              const void *data, size_t itemsize)
{
    char dict[256];
    if (ndim == 1)
        snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': (%ld,), }",
                 descr, fortran ? "True" : "False", shape[0]);
    else
        snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': (%ld, %ld), }",
                 descr, fortran ? "True" : "False", shape[0], shape[1]);
    size_t dlen = strlen(dict);
    /* magic(6) + version(2) + len(2) + dict + padding + '\n', total multiple of 64 */
    size_t total = 10 + dlen + 1;
    size_t pad = (64 - total % 64) % 64;
    size_t hlen = dlen + pad + 1;
    unsigned char head[512];
    memcpy(head, "\x93NUMPY\x01\x00", 8);
    head[8] = (unsigned char)(hlen & 0xff);
    head[9] = (unsigned char)(hlen >> 8);
    memcpy(head + 10, dict, dlen);
    memset(head + 10 + dlen, ' ', pad);
    head[10 + dlen + pad] = '\n';

    size_t count = (size_t)shape[0] * (ndim == 2 ? (size_t)shape[1] : 1);
    io_atomic a;
    int st = io_atomic_open(&a, path);
    if (st) return st;
    if (fwrite(head, 1, 10 + hlen, a.f) != 10 + hlen ||
        (count && fwrite(data, itemsize, count, a.f) != count)) {
        int e = errno;
        io_atomic_abort(&a);
        return gs_error(GS_ERUN, "%s: write failed: %s", path, strerror(e));
    }
    return io_atomic_commit(&a);
}

int npy_write_f8(const char *path, const double *v, long rows, long cols)
{
    long shape[2] = {rows, cols};
    return npy_write(path, "<f8", 0, cols ? 2 : 1, shape, v, sizeof(double));
}

int npy_write_i8(const char *path, const int64_t *v, long n)
{
    long shape[1] = {n};
    return npy_write(path, "<i8", 0, 1, shape, v, sizeof(int64_t));
}

int npy_write_labels(const char *path, const int *v, long n)
{
    int64_t *t = gs_malloc(n ? (size_t)n : 1, sizeof *t, path);
    if (!t) return GS_ERUN;
    for (long i = 0; i < n; i++) t[i] = v[i];
    int st = npy_write_i8(path, t, n);
    free(t);
    return st;
}
