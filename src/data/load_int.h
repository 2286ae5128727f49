/* data/load_int.h — inside the loaders: an array read on demand (prefix ld_src_).
 *
 * An ld_src is one validated .npy array, a file of its own or a member of an .npz archive,
 * whose values stay on disk: rows are read when asked for (features), or all at once (labels).
 * Only load.c and load_src.c use this header.
 * Ownership: ld_src_open_* returns a source the caller closes with ld_src_close. A source may be
 * read from two threads at once.
 */
#ifndef GS_LOAD_INT_H
#define GS_LOAD_INT_H

#include "gs_npy.h"

typedef struct ld_src ld_src;

/* Open a .npy file and validate its header (every problem is GS_EINPUT "PATH: problem"). */
int ld_src_open_npy(const char *path, ld_src **out);
/* Open member `member` (e.g. "train_features.npy") of the .npz archive `path`. `missing_ok`:
 * when the archive has no such member, return GS_OK with *out = NULL (no message). */
int ld_src_open_npz(const char *path, const char *member, int missing_ok, ld_src **out);
/* The same for an archive held in memory (buf must outlive the source); `name` is used in
 * messages. For the fuzzer. */
int ld_src_open_npz_mem(const char *name, const void *buf, size_t n, const char *member, int missing_ok,
                        ld_src **out);
/* Names of the .npy members of an .npz archive: fills names[0..*n) (up to cap, each up to 255
 * characters) for the caller to choose from. */
int ld_src_npz_members(const char *path, char names[][256], int cap, int *n);
void ld_src_close(ld_src *s);

/* The header: dtype, ndim, shape, fortran, itemsize (data is NULL). */
const npy_array *ld_src_info(const ld_src *s);
/* "PATH" or "PATH: MEMBER", as messages name the source. */
const char *ld_src_name(const ld_src *s);

/* Every data byte, in file order, into buf (shape × itemsize bytes). */
int ld_src_read_all(ld_src *s, void *buf);
/* Rows idx[0..n) of a 2-D array (any order, repeats allowed) as doubles into n consecutive rows
 * of out (n × cols). The file is read once, in order: only the bytes of those rows for a C-order
 * array, the needed part of each column for a Fortran-order one. A NaN or infinity is refused
 * with the source, row and column (the first such row in file order). */
int ld_src_rows(ld_src *s, const long *idx, long n, double *out);
/* The first row (for a checksum), without inflating the rest of a compressed member. */
int ld_src_first_row(ld_src *s, double *out);

#endif
