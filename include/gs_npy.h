/* gs_npy.h — NumPy .npy files (prefix npy_).
 *
 * Writing: little-endian, C order, format version 1.0, written atomically
 * through gs_io.h. Reading is strict: see npy_read below.
 * Ownership: npy_array owns its data (free with npy_array_free).
 */
#ifndef GS_NPY_H
#define GS_NPY_H

#include <stddef.h>
#include <stdint.h>

/* Write a 1-D (cols == 0) or 2-D float64 array. GS_OK or GS_ERUN. */
int npy_write_f8(const char *path, const double *v, long rows, long cols);
/* Write a 1-D int64 array. */
int npy_write_i8(const char *path, const int64_t *v, long n);
/* Write int labels as int64 (converting). */
int npy_write_labels(const char *path, const int *v, long n);
/* Generic writer: descr is a NumPy dtype string ("<f8", "<f4", "<i8", "<i4", "|u1"), ndim 1 or 2,
 * fortran = 1 writes fortran_order: True (data must then be column-major). */
int npy_write(const char *path, const char *descr, int fortran, int ndim, const long *shape,
              const void *data, size_t itemsize);

/* ---- reading ---- */
/* Every dtype the readers recognize. Features take F2, F4, F8, U1 (and BF16 from a .pt file);
 * labels take the integer types; B1 (bool) is recognized only to be refused by name. */
typedef enum { NPY_F4, NPY_F8, NPY_U1, NPY_I4, NPY_I8, NPY_F2, NPY_I1, NPY_I2, NPY_U2, NPY_U4, NPY_U8,
               NPY_B1, NPY_BF16 } npy_dtype;
typedef struct {
    npy_dtype dtype;
    int ndim;              /* 1 or 2 */
    long shape[2];
    int fortran;
    void *data;            /* raw little-endian values in file order */
    size_t itemsize;
} npy_array;

/* Read and validate `path` (versions 1–3). Every problem is GS_EINPUT with "PATH: problem". */
int npy_read(const char *path, npy_array *a);
/* Parse from memory (used by the fuzzer); `name` is used in messages. */
int npy_parse(const char *name, const unsigned char *buf, size_t n, npy_array *a);
/* Read and validate only the header of `path` (the file size must match it); a->data stays NULL.
 * Used to check the memory a file needs before reading it. */
int npy_probe(const char *path, npy_array *a);
/* Validate a header held in buf[0..n) (the first n bytes of an array of `total` bytes, n may be
 * less than total): fills a (data NULL) and *data_off, where the data begins. The same checks
 * as npy_read, including data size == shape × itemsize. Used to read rows on demand. */
int npy_header(const char *name, const unsigned char *buf, size_t n, uint64_t total, npy_array *a,
               size_t *data_off);
/* The most header bytes npy_header needs to see (it reads no further). */
#define NPY_HEADER_MAX (65536u + 12u)
void npy_array_free(npy_array *a);
/* One IEEE 754 binary16 value (the bits of a '<f2' element) as a double. Exact for every
 * value, subnormals included; infinities and NaNs come out as infinities and NaNs. */
double npy_half(uint16_t h);
/* Element k of little-endian data of dtype t as a double (exact for every dtype; <i8 values
 * beyond 2^53 round to the nearest double). */
double npy_value(npy_dtype t, const void *data, size_t k);
/* Element k of little-endian integer data of dtype t, exactly. 0 on success; -1 when t is not an
 * integer type (floats, bool); 1 when a uint64 value exceeds INT64_MAX. */
int npy_int(npy_dtype t, const void *data, size_t k, int64_t *v);
/* "<f4", "<i2", "|b1", "bfloat16", ... as NumPy (or torch, for bfloat16) names the dtype. */
const char *npy_dtype_name(npy_dtype t);
/* 1 for the integer dtypes (signed or unsigned, 1-8 bytes; not bool). */
int npy_is_int(npy_dtype t);

#endif
