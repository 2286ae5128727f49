/* data/formats.h — the table of feature file formats (prefix ld_fmt_; formats.c).
 *
 * One row per format: its extensions, its magic bytes, how it is opened (from a path, and from
 * memory for the fuzzer), the name of its fuzz target and how --help and messages name it. A
 * format is read either as an array on demand (open: an ld_src, load_src.c) or whole as a table
 * (read: an ld_table). A new format is its reader file and its row in formats.c; load.c, the
 * fuzz targets (fuzz/fuzz_format.c, mk/fuzz.mk) and tests/data/test_fuzz_replay.c take it from here.
 * Only load.c, the fuzz targets and the tests use this header.
 * Ownership: an ld_table's x and y are the caller's (ld_table_free).
 */
#ifndef GS_FORMATS_H
#define GS_FORMATS_H

#include "load_int.h"

#include <stdint.h>

#define LD_NO_LABEL (-2) /* read's label_col: every column is a feature (CSV_NO_LABEL) */

/* A file read whole: features (x, rows × cols, row-major) and/or labels (y, ny of them). */
typedef struct {
    double *x;
    long rows, cols;
    int64_t *y;
    long ny;
    int ndim;          /* the dimensions the file gave (IDX: 1 labels, 2-3 images; CSV: 2) */
} ld_table;

typedef struct ld_format {
    const char *name;  /* "npy": the fuzz target fuzz_NAME and its corpus fuzz/corpus/NAME */
    const char *words; /* how --help and messages name it (".npy"); NULL: not given as a file
                        * (IDX, read through --idx DIR) */
    const char *exts;  /* extensions, space-separated, matched in any case (gs_ext_in) */
    const char *magic; /* the first bytes of every such file, or NULL */
    size_t magic_len;
    /* Among formats of the same magic, whether this one holds the file (NULL: any file of the
     * magic no other row claims). */
    int (*claims)(const char *path);
    int archive;       /* one file holds the four arrays (--data FILE) */
    const char *dir[4]; /* the four files under --data DIR in this format, or NULL */
    /* An array read on demand: role 0..3 (train features, train labels, test features, test
     * labels) chooses it in an archive, key (NULL: none) names it (FILE:KEY). */
    int (*open)(const char *file, const char *key, int role, ld_src **out);
    /* The same from memory; GS_OK with *out NULL when the archive has no array for the role. */
    int (*open_mem)(const char *name, const void *buf, size_t n, int role, ld_src **out);
    /* Or a table read whole: label_col takes that column as the labels (-1 the last,
     * LD_NO_LABEL none); max_bytes > 0 refuses larger files (GS_ENOMEM). */
    int (*read)(const char *path, int label_col, uint64_t max_bytes, ld_table *t);
    int (*read_mem)(const char *name, const void *buf, size_t n, int label_col, uint64_t max_bytes, ld_table *t);
} ld_format;

/* The rows, in the order messages list them; ld_fmt_count of them. */
extern const ld_format ld_fmt_table[];
extern const int ld_fmt_count;

/* The format of the file at `path` given as --train-features etc.: by its magic first (several
 * rows of one magic: the one whose extension the name has, else the one whose claims accepts
 * it), then by its extension; NULL when none (IDX is never chosen here). */
const ld_format *ld_fmt_of(const char *path);
/* The row named `name` ("npy"), or NULL. */
const ld_format *ld_fmt_named(const char *name);
/* GS_EINPUT "PATH: unknown format (WHAT must be .npy, .npz, .pt or .csv)" from the rows. */
int ld_fmt_unknown(const char *path, const char *what);
/* The files --data DIR takes, for its messages: the namings from..to-1 (in table order, of the
 * rows that have one; only array formats when arrays_only), sep between them (", or "). */
void ld_fmt_dir_names(char *out, size_t cap, int from, int to, int arrays_only, const char *sep);
/* The archive formats' words joined by sep (".npz / .pt"). */
void ld_fmt_archive_words(char *out, size_t cap, const char *sep);
void ld_table_free(ld_table *t);

#endif
