/* data/load_int.h — inside the loaders: an array read on demand (prefixes ld_src_, pt_).
 *
 * An ld_src is one validated array, a .npy file of its own, a member of an .npz archive or a
 * tensor of a torch.save (.pt) file, whose values stay on disk: rows are read when asked for
 * (features), or all at once (labels). A .pt tensor may be a strided view of its storage.
 * Only the loaders (load.c, load_src.c, pt_read.c, formats.c), the fuzz targets and tests use it.
 * Ownership: ld_src_open_* returns a source the caller closes with ld_src_close. A source may be
 * read from two threads at once.
 */
#ifndef GS_LOAD_INT_H
#define GS_LOAD_INT_H

#include "gs_npy.h"

#include <zip.h>

typedef struct ld_src ld_src;

/* Open a .npy file and validate its header (every problem is GS_EINPUT "PATH: problem"). */
int ld_src_open_npy(const char *path, ld_src **out);
/* The same for a .npy file held in memory (buf must outlive the source); `name` in messages. */
int ld_src_open_npy_mem(const char *name, const void *buf, size_t n, ld_src **out);
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

/* A tensor of a torch.save file: `key` names the dict key or list index ("0", "1", ...); NULL
 * takes the archive's only tensor, else the one named after role (0..3: train_features,
 * train_labels, test_features, test_labels, or X_train, y_train, X_test, y_test). Refusals
 * name the file and what it holds. */
int ld_src_open_pt(const char *path, const char *key, int role, ld_src **out);
/* The same from memory (for the fuzzer). */
int ld_src_open_pt_mem(const char *name, const void *buf, size_t n, const char *key, int role, ld_src **out);

/* ---- zip archives (.npz, .pt) and their members as sources (load_src.c) ---- */
/* Open the archive `path` (a regular file; `what` names its kind in messages: ".npz"); `hint`
 * is appended when it is not a zip archive at all. GS_OK or GS_EINPUT. */
int ld_zip_open(const char *path, const char *what, const char *hint, zip_t **za);
/* The same for an archive held in memory (buf must outlive the archive). */
int ld_zip_open_mem(const char *name, const void *buf, size_t n, const char *what, zip_t **za);
/* A source over member idx of za (taken over, also on failure): the array a (its header; data is
 * not used), values rs and cs elements apart, the data at bytes [off, off + bytes) of the member
 * (seekable: stored, not compressed); name for messages. */
int ld_src_zip(zip_t *za, zip_int64_t idx, int seekable, const char *name, const npy_array *a, long rs, long cs,
               uint64_t off, uint64_t bytes, ld_src **out);

/* ---- the pickle of a .pt file (pt_read.c, which also opens .pt files) ---- */
#define PT_MAX_DIM 8
#define PT_MAX_TENSORS 256
#define PT_PICKLE_MAX ((uint64_t)64 << 20)
/* The pickle machine's objects and container items, in all: a saved dict of PT_MAX_TENSORS
 * tensors needs some thousands; the caps bound its memory to about 20 MB whatever the pickle. */
#define PT_MAX_OBJECTS (1 << 18)
#define PT_MAX_ITEMS (1 << 20)
enum { PT_ONE, PT_DICT, PT_LIST };
typedef struct {
    char key[128];         /* dict key, list index, or "" for a lone tensor */
    npy_dtype dtype;
    size_t itemsize;
    int ndim;
    long shape[PT_MAX_DIM], stride[PT_MAX_DIM]; /* stride in elements */
    uint64_t offset;       /* storage offset, in elements */
    char storage[64];      /* the storage's key: member ARCHIVE/data/KEY */
    uint64_t numel;        /* the storage's size, in elements */
} pt_tensor;
/* Interpret the pickle buf[0..n) (name for messages) without running anything: out[0..*nt) the
 * tensors (at most cap) of a lone tensor (*kind PT_ONE) or of a dict / list / tuple (values that
 * are not tensors are skipped). Refuses any global but _rebuild_tensor_v2, the storage classes
 * and OrderedDict, naming it. */
int pt_pickle(const char *name, const unsigned char *buf, size_t n, pt_tensor *out, int cap, int *nt, int *kind);
/* Bytes per element of a storage dtype (0 if none). */
size_t pt_itemsize(npy_dtype t);

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
/* Every row of a 2-D array, once, in file order, through a buffer: the first NaN or infinity is
 * refused (GS_EINPUT naming the source and the 0-based position); *nzero and *first_zero (-1 if
 * none) count the all-zero rows. Memory: a buffer and, for a column-major array, a byte a row. */
int ld_src_scan(ld_src *s, long *nzero, long *first_zero);

#endif
