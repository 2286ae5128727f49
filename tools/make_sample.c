/* make_sample.c — build sample_features/fashion-mnist from the Fashion-MNIST IDX files
 * (Debian package dataset-fashion-mnist, /usr/share/datasets/fashion-mnist).
 *
 * Rule (deterministic, no randomness): walk each split in file order and keep an image when
 * fewer than PER_CLASS images of its class have been kept so far — the first 600 training
 * images of each class and the first 200 test images of each class, in their original order.
 * Features are written as uint8 (|u1, N × 784), labels as int64 (<i8, N).
 * Usage: make_sample SRC_DIR OUT_DIR   (run by `make sample-data`)
 */
#include "gs_common.h"
#include "gs_idx.h"
#include "gs_io.h"
#include "gs_npy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int subset(const char *src, const char *img, const char *lab, long per_class,
                  const char *out, const char *fname, const char *lname)
{
    char ip[4096], lp[4096], fo[4096], lo[4096];
    snprintf(ip, sizeof ip, "%s/%s.gz", src, img);
    snprintf(lp, sizeof lp, "%s/%s.gz", src, lab);
    snprintf(fo, sizeof fo, "%s/%s", out, fname);
    snprintf(lo, sizeof lo, "%s/%s", out, lname);
    idx_array x, y;
    int st = idx_read(ip, 0, &x);
    if (st) return st;
    if ((st = idx_read(lp, 0, &y))) { idx_free(&x); return st; }
    if (x.ndim != 3 || y.ndim != 1 || x.n != y.n) {
        idx_free(&x); idx_free(&y);
        return gs_error(GS_EINPUT, "%s: unexpected shapes", ip);
    }
    unsigned char *fx = malloc((size_t)x.n * (size_t)x.item);
    int64_t *fy = malloc((size_t)x.n * sizeof *fy);
    long kept[256] = {0}, n = 0;
    for (long i = 0; fx && fy && i < x.n; i++) {
        int c = y.data[i];
        if (kept[c] >= per_class) continue;
        kept[c]++;
        memcpy(fx + (size_t)n * (size_t)x.item, x.data + (size_t)i * (size_t)x.item, (size_t)x.item);
        fy[n++] = c;
    }
    long shape[2] = {n, x.item};
    if (!fx || !fy) st = gs_error(GS_ENOMEM, "out of memory");
    if (!st) st = npy_write(fo, "|u1", 0, 2, shape, fx, 1);
    if (!st) st = npy_write_i8(lo, fy, n);
    if (!st) fprintf(stderr, "%s: %ld rows of %ld (%ld per class)\n", fo, n, x.n, per_class);
    free(fx); free(fy); idx_free(&x); idx_free(&y);
    return st;
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: make_sample SRC_DIR OUT_DIR\n"); return 2; }
    int st = io_mkdirs(argv[2]);
    if (!st) st = subset(argv[1], "train-images-idx3-ubyte", "train-labels-idx1-ubyte", 600, argv[2],
                         "train_features.npy", "train_labels.npy");
    if (!st) st = subset(argv[1], "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte", 200, argv[2],
                         "test_features.npy", "test_labels.npy");
    if (st) { fprintf(stderr, "make_sample: %s\n", gs_last_error()); return gs_exit_code(st); }
    return 0;
}
