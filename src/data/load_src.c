/* data/load_src.c — .npy arrays read on demand, from a file or an .npz member (see load_int.h).
 * (A torch.save tensor is opened by pt_read.c and read here, through ld_src_zip.)
 *
 * A source reads byte ranges of its array's data at increasing offsets. A .npy file is read
 * with pread, so any range costs only its bytes and two threads can read at once. An .npz
 * member goes through libzip: a stored member (np.savez) seeks, a deflated one
 * (np.savez_compressed) has no random access, so skipped bytes are inflated and dropped, and a
 * range behind the current position reopens the member; a mutex serializes the threads.
 * ld_src_rows sorts the wanted rows and reads in file order, so a compressed member is inflated
 * at most once per call, and memory is the caller's rows plus a buffer of about a megabyte.
 * Whenever a member is read to its end (labels, any compressed member) libzip checks its CRC-32;
 * rows picked out of a stored member by seeking are not checked (that would read it all).
 */
#include "load_int.h"
#include "gs_common.h"
#include "gs_io.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#define SRC_BUF (1u << 20)       /* bytes read at once */

struct ld_src {
    char name[4400];
    npy_array a;                 /* header only */
    uint64_t data_off, data_bytes;
    int fd;                      /* a .npy file: -1 for an .npz member */
    const unsigned char *mem;    /* a .npy file held in memory (the fuzzer), mem_n bytes */
    uint64_t mem_n;
    zip_t *za;                   /* an .npz member: archive, member index, open stream */
    zip_int64_t zidx;
    zip_file_t *zf;
    uint64_t zpos;               /* position of zf in the member */
    int seekable;                /* stored (not compressed): zip_fseek works */
    long rs, cs;                 /* element strides of a row and a column (a .pt tensor may be a
                                  * view: rows rs apart, values cs apart) */
    pthread_mutex_t lock;
};

const npy_array *ld_src_info(const ld_src *s) { return &s->a; }
const char *ld_src_name(const ld_src *s) { return s->name; }

void ld_src_close(ld_src *s)
{
    if (!s) return;
    if (s->fd >= 0) close(s->fd);
    if (s->zf) zip_fclose(s->zf);
    if (s->za) zip_discard(s->za);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static ld_src *src_new(void)
{
    ld_src *s = gs_calloc(1, sizeof *s, "data source");
    if (!s) return NULL;
    s->fd = -1;
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

static size_t array_bytes(const npy_array *a)
{
    return (size_t)a->shape[0] * (size_t)a->shape[1] * a->itemsize; /* shape[1] is 1 for 1-D */
}

/* The strides of a dense .npy array. */
static void dense_strides(ld_src *s)
{
    s->rs = s->a.fortran ? 1 : s->a.shape[1];
    s->cs = s->a.fortran ? s->a.shape[0] : 1;
}

/* The values are stored densely in row order (or column order): one read gives them all. */
static int is_dense(const ld_src *s)
{
    long r = s->a.shape[0], c = s->a.shape[1];
    if (r <= 1 && c <= 1) return 1;
    if (!s->a.fortran) return (c == 1 || s->cs == 1) && (r == 1 || s->rs == c);
    return (r == 1 || s->rs == 1) && (c == 1 || s->cs == r);
}

/* ---- reading member bytes ---- */

static int zip_err(const ld_src *s, const char *what)
{
    return gs_error(GS_EINPUT, "%s: %s: %s", s->name, what,
                    s->zf ? zip_file_strerror(s->zf) : zip_strerror(s->za));
}

static int zip_reopen(ld_src *s)
{
    if (s->zf) zip_fclose(s->zf);
    s->zpos = 0;
    s->zf = zip_fopen_index(s->za, s->zidx, 0);
    return s->zf ? GS_OK : zip_err(s, "cannot read the member");
}

/* Exactly n bytes of the member from the stream's position. */
static int zip_take(ld_src *s, void *buf, uint64_t n)
{
    unsigned char *p = buf;
    while (n > 0) {
        zip_int64_t got = zip_fread(s->zf, p, n);
        if (got < 0) return zip_err(s, "read error (damaged archive?)");
        if (got == 0)
            return gs_error(GS_EINPUT, "%s: the member ends before the size its header gives "
                            "(damaged archive)", s->name);
        p += got;
        n -= (uint64_t)got;
        s->zpos += (uint64_t)got;
    }
    return GS_OK;
}

static int zip_read_at(ld_src *s, uint64_t off, void *buf, size_t n)
{
    int st;
    if (!s->zf || off < s->zpos) {
        if ((st = zip_reopen(s))) return st;
    }
    if (off - s->zpos >= SRC_BUF && s->seekable) { /* short skips read through: CRC stays checkable */
        if (zip_fseek(s->zf, (zip_int64_t)off, SEEK_SET) != 0) return zip_err(s, "cannot seek in the member");
        s->zpos = off;
    }
    if (off > s->zpos) {
        unsigned char *skip = malloc(SRC_BUF);
        if (!skip) return gs_error(GS_ENOMEM, "%s: out of memory", s->name);
        st = GS_OK;
        while (!st && off > s->zpos) {
            uint64_t k = off - s->zpos < SRC_BUF ? off - s->zpos : SRC_BUF;
            st = zip_take(s, skip, k);
        }
        free(skip);
        if (st) return st;
    }
    return zip_take(s, buf, n);
}

/* Inflate the rest of the member and read past its end, so that libzip compares the CRC-32
 * (it can only when every byte went through it, in order). */
static int zip_finish(ld_src *s)
{
    uint64_t end = s->data_off + s->data_bytes;
    unsigned char one;
    int st = end > s->zpos ? zip_read_at(s, end - 1, &one, 1) : GS_OK;
    if (st) return st;
    zip_int64_t got = zip_fread(s->zf, &one, 1);
    if (got < 0) return zip_err(s, "damaged member");
    if (got > 0) return gs_error(GS_EINPUT, "%s: the member is longer than its size says (damaged archive)", s->name);
    return GS_OK;
}

/* n bytes of the array's data from data offset off. */
static int read_at(ld_src *s, uint64_t off, void *buf, size_t n)
{
    if (off > s->data_bytes || n > s->data_bytes - off)
        return gs_error(GS_EINPUT, "%s: internal error: read past the data", s->name);
    if (s->mem) { /* npy_header checked that the data fits */
        memcpy(buf, s->mem + s->data_off + off, n);
        return GS_OK;
    }
    if (!s->za) {
        unsigned char *p = buf;
        off += s->data_off;
        while (n > 0) {
            ssize_t got = pread(s->fd, p, n, (off_t)off);
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) return gs_error(GS_EINPUT, "%s: read error: %s", s->name, strerror(errno));
            if (got == 0)
                return gs_error(GS_EINPUT, "%s: the file became shorter while it was being read",
                                s->name);
            p += got;
            n -= (size_t)got;
            off += (uint64_t)got;
        }
        return GS_OK;
    }
    return zip_read_at(s, s->data_off + off, buf, n);
}

/* An .npz member has one stream: one reader at a time. pread needs no lock. */
static void src_lock(ld_src *s) { if (s->za) pthread_mutex_lock(&s->lock); }
static void src_unlock(ld_src *s) { if (s->za) pthread_mutex_unlock(&s->lock); }

/* A strided array's values in row order (element [i, j] at (i·rs + j·cs)·itemsize), read
 * through a window of the data. */
static int gather(ld_src *s, unsigned char *buf)
{
    size_t it = s->a.itemsize;
    long r = s->a.shape[0], c = s->a.shape[1];
    unsigned char *win = malloc(SRC_BUF);
    if (!win) return gs_error(GS_ENOMEM, "%s: out of memory", s->name);
    uint64_t lo = 1, hi = 0; /* empty window */
    int st = GS_OK;
    for (long i = 0; i < r && !st; i++)
        for (long j = 0; j < c && !st; j++) {
            uint64_t off = ((uint64_t)i * (uint64_t)s->rs + (uint64_t)j * (uint64_t)s->cs) * it;
            if (off < lo || off + it > hi) {
                uint64_t n = s->data_bytes - off < SRC_BUF ? s->data_bytes - off : SRC_BUF;
                if ((st = read_at(s, off, win, (size_t)n))) break;
                lo = off;
                hi = off + n;
            }
            memcpy(buf + ((size_t)i * (size_t)c + (size_t)j) * it, win + (off - lo), it);
        }
    free(win);
    return st;
}

int ld_src_read_all(ld_src *s, void *buf)
{
    src_lock(s);
    int st;
    if (is_dense(s)) {
        st = read_at(s, 0, buf, array_bytes(&s->a));
        if (!st && s->za) st = zip_finish(s);
    } else {
        st = gather(s, buf);
    }
    src_unlock(s);
    return st;
}

/* ---- opening ---- */

int ld_src_open_npy(const char *path, ld_src **out)
{
    *out = NULL;
    FILE *f;
    uint64_t size;
    int st = io_open_regular(path, &f, &size);
    if (st) return st;
    ld_src *s = src_new();
    unsigned char *head = malloc(NPY_HEADER_MAX);
    if (!s || !head) { fclose(f); free(head); ld_src_close(s); return gs_error(GS_ENOMEM, "%s: out of memory", path); }
    snprintf(s->name, sizeof s->name, "%s", path);
    s->fd = dup(fileno(f));
    fclose(f);
    if (s->fd < 0) st = gs_error(GS_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    size_t want = size < NPY_HEADER_MAX ? (size_t)size : NPY_HEADER_MAX, got = 0;
    while (!st && got < want) {
        ssize_t k = pread(s->fd, head + got, want - got, (off_t)got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) st = gs_error(GS_EINPUT, "%s: read error: %s", path, k < 0 ? strerror(errno) : "file shrank");
        else got += (size_t)k;
    }
    size_t off = 0;
    if (!st) st = npy_header(path, head, got, size, &s->a, &off);
    free(head);
    if (st) { ld_src_close(s); return st; }
    s->data_off = off;
    s->data_bytes = array_bytes(&s->a);
    dense_strides(s);
    *out = s;
    return GS_OK;
}

int ld_src_open_npy_mem(const char *name, const void *buf, size_t n, ld_src **out)
{
    *out = NULL;
    ld_src *s = src_new();
    if (!s) return gs_error(GS_ENOMEM, "%s: out of memory", name);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->mem = buf;
    s->mem_n = n;
    size_t off = 0;
    int st = npy_header(name, buf, n < NPY_HEADER_MAX ? n : NPY_HEADER_MAX, n, &s->a, &off);
    if (st) { ld_src_close(s); return st; }
    s->data_off = off;
    s->data_bytes = array_bytes(&s->a);
    dense_strides(s);
    if (s->data_off > n || s->data_bytes > n - s->data_off) { /* npy_header's promise, kept */
        ld_src_close(s);
        return gs_error(GS_EINPUT, "%s: the data is shorter than the header says", name);
    }
    *out = s;
    return GS_OK;
}

int ld_zip_open(const char *path, const char *what, const char *hint, zip_t **za)
{
    FILE *f;
    uint64_t size;
    int st = io_open_regular(path, &f, &size); /* the same messages as for a .npy file */
    if (st) return st;
    fclose(f);
    int err = 0;
    *za = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &err);
    if (*za) return GS_OK;
    zip_error_t e;
    zip_error_init_with_code(&e, err);
    st = gs_error(GS_EINPUT, "%s: not a readable %s archive (%s)%s", path, what, zip_error_strerror(&e),
                  err == ZIP_ER_NOZIP ? hint : "");
    zip_error_fini(&e);
    return st;
}

int ld_zip_open_mem(const char *name, const void *buf, size_t n, const char *what, zip_t **za)
{
    zip_error_t e;
    zip_error_init(&e);
    zip_source_t *zs = zip_source_buffer_create(buf, n, 0, &e);
    *za = zs ? zip_open_from_source(zs, ZIP_RDONLY | ZIP_CHECKCONS, &e) : NULL;
    int st = GS_OK;
    if (!*za) {
        st = gs_error(GS_EINPUT, "%s: not a readable %s archive (%s)", name, what, zip_error_strerror(&e));
        if (zs) zip_source_free(zs);
    }
    zip_error_fini(&e);
    return st;
}

static const char NPZ_HINT[] = "; is it truncated, or not written by np.savez?";

int ld_src_zip(zip_t *za, zip_int64_t idx, int seekable, const char *name, const npy_array *a, long rs, long cs,
               uint64_t off, uint64_t bytes, ld_src **out)
{
    *out = NULL;
    ld_src *s = src_new();
    if (!s) { zip_discard(za); return GS_ENOMEM; }
    s->za = za;
    s->zidx = idx;
    s->seekable = seekable;
    snprintf(s->name, sizeof s->name, "%s", name);
    s->a = *a;
    s->a.data = NULL;
    s->rs = rs;
    s->cs = cs;
    s->data_off = off;
    s->data_bytes = bytes;
    *out = s;
    return GS_OK;
}

int ld_src_npz_members(const char *path, char names[][256], int cap, int *n)
{
    zip_t *za;
    int st = ld_zip_open(path, ".npz", NPZ_HINT, &za);
    if (st) return st;
    *n = 0;
    zip_int64_t m = zip_get_num_entries(za, 0);
    for (zip_int64_t i = 0; i < m && *n < cap; i++) {
        const char *nm = zip_get_name(za, (zip_uint64_t)i, 0);
        size_t L = nm ? strlen(nm) : 0;
        if (L > 4 && L < 256 && strcmp(nm + L - 4, ".npy") == 0) snprintf(names[(*n)++], 256, "%s", nm);
    }
    zip_discard(za);
    return GS_OK;
}

static int member_open(const char *path, zip_t *za, const char *member, int missing_ok, ld_src **out);

int ld_src_open_npz(const char *path, const char *member, int missing_ok, ld_src **out)
{
    *out = NULL;
    zip_t *za;
    int st = ld_zip_open(path, ".npz", NPZ_HINT, &za);
    if (st) return st;
    return member_open(path, za, member, missing_ok, out);
}

int ld_src_open_npz_mem(const char *name, const void *buf, size_t n, const char *member, int missing_ok,
                        ld_src **out)
{
    *out = NULL;
    zip_t *za;
    int st = ld_zip_open_mem(name, buf, n, ".npz", &za);
    if (st) return st;
    return member_open(name, za, member, missing_ok, out);
}

/* The size a member claims must be one its compressed bytes can give: equal for a stored
 * member, at most 1032 to 1 (deflate's limit) for a deflated one. A forged size (a "zip bomb",
 * or a header that no longer fits its data) is refused here, before the size is used. */
static int check_sizes(const ld_src *s, const zip_stat_t *zs)
{
    if (!(zs->valid & ZIP_STAT_COMP_SIZE) || !(zs->valid & ZIP_STAT_COMP_METHOD)) return GS_OK;
    char a[32], b[32];
    gs_fmt_bytes(zs->size, a, sizeof a);
    gs_fmt_bytes(zs->comp_size, b, sizeof b);
    if (zs->comp_method == ZIP_CM_STORE && zs->size != zs->comp_size)
        return gs_error(GS_EINPUT, "%s: stored member claims %s but holds %s (damaged archive)", s->name, a, b);
    if (zs->comp_method == ZIP_CM_DEFLATE && zs->size / 1032 > zs->comp_size + 1)
        return gs_error(GS_EINPUT, "%s: claims %s from %s of compressed data, more than deflate can give "
                        "(damaged or forged archive)", s->name, a, b);
    return GS_OK;
}

/* Takes ownership of za. */
static int member_open(const char *path, zip_t *za, const char *member, int missing_ok, ld_src **out)
{
    int st = GS_OK;
    ld_src *s = src_new();
    unsigned char *head = malloc(NPY_HEADER_MAX);
    if (!s || !head) { zip_discard(za); free(head); ld_src_close(s); return gs_error(GS_ENOMEM, "%s: out of memory", path); }
    s->za = za;
    snprintf(s->name, sizeof s->name, "%s: %s", path, member);
    s->zidx = zip_name_locate(za, member, 0);
    zip_stat_t zs;
    zip_stat_init(&zs);
    if (s->zidx < 0) {
        if (missing_ok) { free(head); ld_src_close(s); return GS_OK; }
        char list[512] = "";
        zip_int64_t m = zip_get_num_entries(za, 0);
        for (zip_int64_t i = 0; i < m && strlen(list) < 400; i++) {
            size_t L = strlen(list);
            snprintf(list + L, sizeof list - L, "%s%s", i ? ", " : "", zip_get_name(za, (zip_uint64_t)i, 0));
        }
        st = gs_error(GS_EINPUT, "%s: has no member %s (it holds: %s)", path, member, m ? list : "nothing");
    } else if (zip_stat_index(za, (zip_uint64_t)s->zidx, 0, &zs) != 0 || !(zs.valid & ZIP_STAT_SIZE)) {
        st = gs_error(GS_EINPUT, "%s: cannot read the member's size: %s", s->name, zip_strerror(za));
    } else if ((zs.valid & ZIP_STAT_ENCRYPTION_METHOD) && zs.encryption_method != ZIP_EM_NONE) {
        st = gs_error(GS_EINPUT, "%s: the member is encrypted", s->name);
    } else if ((st = check_sizes(s, &zs))) {
        /* refused before anything is allocated or inflated */
    } else {
        s->seekable = (zs.valid & ZIP_STAT_COMP_METHOD) && zs.comp_method == ZIP_CM_STORE;
        size_t want = zs.size < NPY_HEADER_MAX ? (size_t)zs.size : NPY_HEADER_MAX;
        size_t off = 0;
        st = zip_reopen(s);
        if (!st) st = zip_take(s, head, want);
        if (!st) st = npy_header(s->name, head, want, zs.size, &s->a, &off);
        s->data_off = off;
        s->data_bytes = array_bytes(&s->a);
        dense_strides(s);
    }
    free(head);
    if (st) { ld_src_close(s); return st; }
    *out = s;
    return GS_OK;
}

/* ---- rows ---- */

typedef struct { long row, pos; } want_row;

static int cmp_want(const void *a, const void *b)
{
    const want_row *x = a, *y = b;
    if (x->row != y->row) return x->row < y->row ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* n values of dtype t, `sstride` elements apart from src, to dst[0], dst[stride], ... */
static void convert(npy_dtype t, const unsigned char *src, size_t n, size_t sstride, double *dst, size_t stride)
{
    if (sstride == 1) {
        switch (t) {
        case NPY_F8: for (size_t k = 0; k < n; k++) memcpy(dst + k * stride, src + 8 * k, 8); return;
        case NPY_F4: for (size_t k = 0; k < n; k++) { float f; memcpy(&f, src + 4 * k, 4); dst[k * stride] = f; } return;
        case NPY_U1: for (size_t k = 0; k < n; k++) dst[k * stride] = src[k]; return;
        default: break;
        }
    }
    for (size_t k = 0; k < n; k++) dst[k * stride] = npy_value(t, src, k * sstride);
}

/* Rows of contiguous values (cs == 1), rs elements apart: each run of consecutive wanted rows
 * (within a buffer) is one read. */
static int rows_c(ld_src *s, const want_row *w, long n, double *out, unsigned char *buf)
{
    size_t c = (size_t)s->a.shape[1], it = s->a.itemsize, rb = c * it;
    uint64_t rsb = (uint64_t)s->rs * it; /* bytes from one row to the next */
    long cap = rsb && SRC_BUF / rsb > 0 ? (long)(SRC_BUF / rsb) : 1;
    for (long k = 0; k < n;) {
        long e = k + 1;
        while (e < n && w[e].row - w[k].row < cap && w[e].row <= w[e - 1].row + 1) e++;
        uint64_t span = (uint64_t)(w[e - 1].row - w[k].row) * rsb + rb;
        uint64_t at = (uint64_t)w[k].row * rsb;
        int st;
        if (e == k + 1 && s->a.dtype == NPY_F8) { /* straight into place */
            st = read_at(s, at, out + (size_t)w[k].pos * c, rb);
        } else {
            st = read_at(s, at, buf, (size_t)span);
            for (long i = k; !st && i < e; i++)
                convert(s->a.dtype, buf + (size_t)(w[i].row - w[k].row) * rsb, c, 1, out + (size_t)w[i].pos * c, 1);
        }
        if (st) return st;
        k = e;
    }
    return GS_OK;
}

/* Columns of contiguous values (rs == 1), cs elements apart: column by column, each window of
 * wanted rows (within a buffer) is one read. */
static int rows_f(ld_src *s, const want_row *w, long n, double *out, unsigned char *buf)
{
    size_t c = (size_t)s->a.shape[1], it = s->a.itemsize;
    long cap = (long)(SRC_BUF / it);
    for (size_t j = 0; j < c; j++) {
        uint64_t col = (uint64_t)j * (uint64_t)s->cs * it;
        for (long k = 0; k < n;) {
            long e = k + 1;
            while (e < n && w[e].row - w[k].row < cap) e++;
            long span = w[e - 1].row - w[k].row + 1;
            int st = read_at(s, col + (uint64_t)w[k].row * it, buf, (size_t)span * it);
            if (st) return st;
            for (long i = k; i < e; i++)
                convert(s->a.dtype, buf + (size_t)(w[i].row - w[k].row) * it, 1, 1, out + (size_t)w[i].pos * c + j, 1);
            k = e;
        }
    }
    return GS_OK;
}

/* Any other strides: each wanted row is one read of its span ((c-1)·cs + 1 values; bounded when
 * the source was opened). */
static int rows_g(ld_src *s, const want_row *w, long n, double *out, unsigned char *buf)
{
    size_t c = (size_t)s->a.shape[1], it = s->a.itemsize;
    uint64_t span = ((uint64_t)(c - 1) * (uint64_t)s->cs + 1) * it;
    for (long k = 0; k < n; k++) {
        int st = read_at(s, (uint64_t)w[k].row * (uint64_t)s->rs * it, buf, (size_t)span);
        if (st) return st;
        convert(s->a.dtype, buf, c, (size_t)s->cs, out + (size_t)w[k].pos * c, 1);
    }
    return GS_OK;
}

/* The buffer rows_g needs for one row (rows_c and rows_f need SRC_BUF and a row). */
static size_t row_span(const ld_src *s)
{
    size_t c = (size_t)s->a.shape[1];
    return c ? ((size_t)(c - 1) * (size_t)s->cs + 1) * s->a.itemsize : 0;
}

static int src_rows(ld_src *s, const long *idx, long n, double *out, int to_end);

int ld_src_rows(ld_src *s, const long *idx, long n, double *out) { return src_rows(s, idx, n, out, 1); }

int ld_src_first_row(ld_src *s, double *out)
{
    long first = 0;
    return src_rows(s, &first, s->a.shape[0] > 0 ? 1 : 0, out, 0);
}

static int nonfinite(const ld_src *s, long row, size_t col, double x)
{
    return gs_error(GS_EINPUT, "%s: X[%ld, %zu] is %s (row and column counted from 0, as in NumPy)", s->name,
                    row, col, isnan(x) ? "NaN" : "infinite");
}

static int read_rows(ld_src *s, want_row *w, long n, double *out, unsigned char *buf)
{
    if (s->cs == 1 || s->a.shape[1] == 1) return rows_c(s, w, n, out, buf);
    if (s->rs == 1 || s->a.shape[0] == 1) return rows_f(s, w, n, out, buf);
    return rows_g(s, w, n, out, buf);
}

static size_t buf_size(const ld_src *s)
{
    size_t c = (size_t)s->a.shape[1] * s->a.itemsize, g = row_span(s);
    size_t b = SRC_BUF > c ? SRC_BUF : c;
    return b > g ? b : g;
}

/* to_end: a compressed member is inflated to its end afterwards (CRC check). */
static int src_rows(ld_src *s, const long *idx, long n, double *out, int to_end)
{
    long R = s->a.shape[0];
    size_t c = (size_t)s->a.shape[1];
    if (n <= 0 || c == 0) return GS_OK;
    want_row *w = gs_malloc((size_t)n, sizeof *w, s->name);
    unsigned char *buf = malloc(buf_size(s));
    if (!w || !buf) { free(w); free(buf); return GS_ENOMEM; }
    int st = GS_OK;
    for (long k = 0; k < n && !st; k++) {
        if (idx[k] < 0 || idx[k] >= R) st = gs_error(GS_EINPUT, "%s: row %ld (from 0) asked for, the array has %ld", s->name, idx[k], R);
        w[k].row = idx[k];
        w[k].pos = k;
    }
    if (!st) {
        qsort(w, (size_t)n, sizeof *w, cmp_want);
        src_lock(s);
        st = read_rows(s, w, n, out, buf);
        if (!st && to_end && s->za && !s->seekable) st = zip_finish(s); /* inflated anyway: check it all */
        src_unlock(s);
    }
    /* the first non-finite value in file order */
    for (long k = 0; k < n && !st; k++) {
        const double *x = out + (size_t)w[k].pos * c;
        for (size_t j = 0; j < c; j++)
            if (!isfinite(x[j])) { st = nonfinite(s, w[k].row, j, x[j]); break; }
    }
    free(w);
    free(buf);
    return st;
}

/* ---- the whole array, once ---- */

int ld_src_scan(ld_src *s, long *nzero, long *first_zero)
{
    long R = s->a.shape[0];
    size_t c = (size_t)s->a.shape[1];
    *nzero = 0;
    *first_zero = -1;
    if (R <= 0 || c == 0) return GS_OK;
    int st = GS_OK;
    if (s->rs == 1 && s->cs != 1 && R > 1) {
        /* column-major: column by column in file order, a flag per row */
        size_t it = s->a.itemsize, per = SRC_BUF / it;
        unsigned char *nz = calloc((size_t)R, 1), *buf = malloc(SRC_BUF);
        double *v = malloc(per * sizeof(double));
        long bad_r = -1;
        size_t bad_c = 0;
        double bad_x = 0;
        if (!nz || !buf || !v) st = gs_error(GS_ENOMEM, "%s: out of memory", s->name);
        src_lock(s);
        for (size_t j = 0; j < c && !st; j++)
            for (long r0 = 0; r0 < R && !st; r0 += (long)per) {
                size_t m = (size_t)(R - r0) < per ? (size_t)(R - r0) : per;
                st = read_at(s, ((uint64_t)j * (uint64_t)s->cs + (uint64_t)r0) * it, buf, m * it);
                if (st) break;
                convert(s->a.dtype, buf, m, 1, v, 1);
                for (size_t k = 0; k < m; k++) {
                    if (v[k] != 0) nz[r0 + (long)k] = 1;
                    if (!isfinite(v[k]) && (bad_r < 0 || r0 + (long)k < bad_r)) { bad_r = r0 + (long)k; bad_c = j; bad_x = v[k]; }
                }
            }
        if (!st && s->za && !s->seekable) st = zip_finish(s);
        src_unlock(s);
        if (!st && bad_r >= 0) st = nonfinite(s, bad_r, bad_c, bad_x);
        for (long r = 0; !st && r < R; r++)
            if (!nz[r]) { if (*first_zero < 0) *first_zero = r; ++*nzero; }
        free(nz);
        free(buf);
        free(v);
        return st;
    }
    /* row order: blocks of consecutive rows */
    long per = (long)(SRC_BUF / (c * sizeof(double)));
    if (per < 1) per = 1;
    if (per > R) per = R;
    long *idx = malloc((size_t)per * sizeof(long));
    double *x = malloc((size_t)per * c * sizeof(double));
    if (!idx || !x) st = gs_error(GS_ENOMEM, "%s: out of memory", s->name);
    for (long r0 = 0; r0 < R && !st; r0 += per) {
        long m = R - r0 < per ? R - r0 : per;
        for (long k = 0; k < m; k++) idx[k] = r0 + k;
        st = src_rows(s, idx, m, x, r0 + m == R);
        for (long k = 0; k < m && !st; k++) {
            const double *z = x + (size_t)k * c;
            size_t j = 0;
            while (j < c && z[j] == 0) j++;
            if (j == c) { if (*first_zero < 0) *first_zero = r0 + k; ++*nzero; }
        }
    }
    free(idx);
    free(x);
    return st;
}
