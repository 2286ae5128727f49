/* gs_idx.h — MNIST IDX files, plain or gzip-compressed (prefix idx_). Owned by the loaders.
 *
 * Format: magic 00 00 08 NDIM (unsigned-byte data, NDIM 1–3), then NDIM big-endian u32
 * dimensions, then the bytes in C order. Images are 0x00000803 (n, rows, cols), labels
 * 0x00000801 (n). Other element types are refused. The data size must equal the product of the
 * dimensions exactly (truncated or trailing bytes are refused); for .gz input the decompressed
 * size is capped by the header's claim. Every problem is GS_EINPUT "FILE: problem"; a memory
 * refusal is GS_ENOMEM.
 * Ownership: idx_array owns data (idx_free).
 */
#ifndef GS_IDX_H
#define GS_IDX_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int ndim;            /* 1–3 */
    long dims[3];
    long n;              /* dims[0] */
    long item;           /* product of dims[1..]: 784 for 28×28 images, 1 for labels */
    unsigned char *data; /* n × item bytes */
} idx_array;

/* max_bytes > 0: refuse before allocating when 9 × the data bytes (the bytes plus the doubles
 * the loader converts them to) exceed it. */
int idx_read(const char *path, uint64_t max_bytes, idx_array *a);
/* The same from memory; buf may be gzip data (detected by its magic bytes). */
int idx_parse(const char *name, const unsigned char *buf, size_t n, uint64_t max_bytes, idx_array *a);
void idx_free(idx_array *a);

#endif
