/* data/idx.c — MNIST IDX reader, plain or gzip (see gs_idx.h).
 *
 * Files go through zlib's gzread, which reads plain files unchanged, so one path handles both.
 * Memory buffers (the fuzzer) are copied or inflated with inflateInit2(..., 15 + 32). The header
 * is read first; the data size it claims is checked against the memory limit before anything
 * is allocated, then exactly that many bytes are read and one more read must hit the end.
 */
#include "gs_idx.h"
#include "gs_common.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

typedef struct {
    const char *name;
    gzFile gz;                 /* file input, or NULL */
    const unsigned char *mem;  /* plain memory input */
    size_t mlen, mpos;
    int inflating;             /* memory input is gzip: zs is live */
    int zend;                  /* inflate reached the end of the stream */
    int truncated;             /* the gzip stream ended early (no end marker / checksum) */
    uint64_t comp_size;        /* file input: its size on disk (the gzip's bound) */
    z_stream zs;
} src;

/* Deflate turns at most 1032 bytes into one (zlib's own bound): a gzip stream of n bytes holds at
 * most this many, whatever its header claims. */
static uint64_t inflate_bound(uint64_t n) { return n * 1032 + 4096; }

/* Read up to n bytes; *got is what was read. GS_OK (short reads mean end of data) or
 * GS_EINPUT for a corrupt stream. */
static int src_read(src *s, unsigned char *dst, size_t n, size_t *got)
{
    *got = 0;
    if (s->gz) {
        while (*got < n) {
            size_t want = n - *got;
            unsigned chunk = want > (1u << 30) ? (1u << 30) : (unsigned)want;
            int r = gzread(s->gz, dst + *got, chunk);
            if (r < 0) {
                int errnum;
                const char *msg = gzerror(s->gz, &errnum);
                if (errnum == Z_BUF_ERROR) { s->truncated = 1; return GS_OK; } /* caller reports */
                if (errnum == Z_ERRNO)
                    return gs_error(GS_EINPUT, "%s: read error: %s", s->name, strerror(errno));
                return gs_error(GS_EINPUT, "%s: corrupt gzip data: %s", s->name, msg);
            }
            if (r == 0) {
                int errnum;
                gzerror(s->gz, &errnum);
                if (errnum == Z_BUF_ERROR) s->truncated = 1;
                break;
            }
            *got += (size_t)r;
        }
        return GS_OK;
    }
    if (!s->inflating) {
        size_t left = s->mlen - s->mpos;
        size_t k = n < left ? n : left;
        if (k) memcpy(dst, s->mem + s->mpos, k);
        s->mpos += k;
        *got = k;
        return GS_OK;
    }
    while (*got < n && !s->zend) {
        size_t want = n - *got;
        s->zs.next_out = dst + *got;
        s->zs.avail_out = want > (1u << 30) ? (1u << 30) : (uInt)want;
        uInt before = s->zs.avail_out;
        int r = inflate(&s->zs, Z_NO_FLUSH);
        *got += before - s->zs.avail_out;
        if (r == Z_STREAM_END) { s->zend = 1; break; }
        if (r == Z_BUF_ERROR && s->zs.avail_in == 0) { s->truncated = 1; break; }
        if (r != Z_OK && r != Z_BUF_ERROR)
            return gs_error(GS_EINPUT, "%s: corrupt gzip data: %s", s->name,
                            s->zs.msg ? s->zs.msg : "inflate failed");
    }
    return GS_OK;
}

void idx_free(idx_array *a)
{
    free(a->data);
    memset(a, 0, sizeof *a);
}

static int read_idx(src *s, uint64_t max_bytes, idx_array *a)
{
    memset(a, 0, sizeof *a);
    unsigned char h[12];
    size_t got;
    int st = src_read(s, h, 4, &got);
    if (st) return st;
    if (got < 4) return gs_error(GS_EINPUT, "%s: file is truncated (no IDX header)", s->name);
    if (h[0] != 0 || h[1] != 0)
        return gs_error(GS_EINPUT, "%s: not an IDX file (bad magic %02x %02x %02x %02x)", s->name,
                        h[0], h[1], h[2], h[3]);
    if (h[2] != 0x08) {
        static const char *names[] = {[0x09] = "signed byte", [0x0B] = "short", [0x0C] = "int",
                                      [0x0D] = "float", [0x0E] = "double"};
        const char *nm = h[2] < sizeof names / sizeof names[0] ? names[h[2]] : NULL;
        if (nm)
            return gs_error(GS_EINPUT, "%s: IDX element type 0x%02X (%s) is not supported (need "
                            "unsigned bytes, 0x08)", s->name, h[2], nm);
        return gs_error(GS_EINPUT, "%s: not an IDX file (unknown element type 0x%02X)", s->name, h[2]);
    }
    int nd = h[3];
    if (nd < 1 || nd > 3)
        return gs_error(GS_EINPUT, "%s: IDX file has %d dimensions (need 1 for labels or 2–3 for "
                        "images)", s->name, nd);
    st = src_read(s, h, (size_t)nd * 4, &got);
    if (st) return st;
    if (got < (size_t)nd * 4)
        return gs_error(GS_EINPUT, "%s: file is truncated inside the IDX header", s->name);
    size_t total = 1, item = 1;
    for (int i = 0; i < nd; i++) {
        uint32_t v = (uint32_t)h[4 * i] << 24 | (uint32_t)h[4 * i + 1] << 16 |
                     (uint32_t)h[4 * i + 2] << 8 | (uint32_t)h[4 * i + 3];
        /* a u32 always fits a long on LP64; the products are checked (a zero dimension must
         * not hide an overflowing item size) */
        if (gs_mul_size(total, v, &total) || (i > 0 && gs_mul_size(item, v, &item)) ||
            item > (size_t)LONG_MAX)
            return gs_error(GS_EINPUT, "%s: IDX dimensions are too large (size overflows)", s->name);
        a->dims[i] = (long)v;
    }
    a->ndim = nd;
    a->n = a->dims[0];
    a->item = (long)item;
    size_t need;
    if (gs_mul_size(total, 9, &need))
        return gs_error(GS_EINPUT, "%s: IDX dimensions are too large (size overflows)", s->name);
    /* a header claiming more than its gzip stream can inflate to is refused before allocating or
     * inflating anything (a decompression bomb, or a damaged file) */
    uint64_t comp = s->gz ? (gzdirect(s->gz) ? 0 : s->comp_size) : s->inflating ? s->mlen : 0;
    if (comp && total > inflate_bound(comp)) {
        char x[32], y[32];
        return gs_error(GS_EINPUT, "%s: the IDX header claims %s, more than a gzip file of %s can hold "
                        "(damaged, or a decompression bomb)", s->name, gs_fmt_bytes(total, x, sizeof x),
                        gs_fmt_bytes(comp, y, sizeof y));
    }
    if (max_bytes && need > max_bytes) {
        char x[32], y[32];
        return gs_error(GS_EINPUT, "%s: needs %s but only %s available (use --max-memory to change "
                        "the limit)", s->name, gs_fmt_bytes(need, x, sizeof x),
                        gs_fmt_bytes(max_bytes, y, sizeof y));
    }
    a->data = gs_malloc(total ? total : 1, 1, s->name);
    if (!a->data) return GS_ENOMEM;
    st = src_read(s, a->data, total, &got);
    if (st == GS_OK && got < total && s->truncated)
        st = gs_error(GS_EINPUT, "%s: gzip data is truncated (unexpected end of file)", s->name);
    else if (st == GS_OK && got < total)
        st = gs_error(GS_EINPUT, "%s: data is truncated: the IDX header claims %zu bytes, the file "
                      "has %zu", s->name, total, got);
    if (st == GS_OK) {
        unsigned char extra;
        st = src_read(s, &extra, 1, &got);
        if (st == GS_OK && got)
            st = gs_error(GS_EINPUT, "%s: trailing bytes after the %zu bytes the IDX header claims",
                          s->name, total);
        else if (st == GS_OK && (s->truncated || (s->inflating && !s->zend)))
            st = gs_error(GS_EINPUT, "%s: gzip data is truncated (unexpected end of file)", s->name);
    }
    if (st) idx_free(a);
    return st;
}

int idx_read(const char *path, uint64_t max_bytes, idx_array *a)
{
    memset(a, 0, sizeof *a);
    gzFile gz = gzopen(path, "rb");
    if (!gz) {
        int e = errno;
        return gs_error(GS_EINPUT, "%s: cannot open: %s", path, e ? strerror(e) : "out of memory");
    }
    gzbuffer(gz, 1u << 17);
    struct stat sb;
    src s = {.name = path, .gz = gz, .comp_size = stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0};
    int st = read_idx(&s, max_bytes, a);
    gzclose(gz);
    return st;
}

int idx_parse(const char *name, const unsigned char *buf, size_t n, uint64_t max_bytes, idx_array *a)
{
    memset(a, 0, sizeof *a);
    src s = {.name = name, .mem = buf, .mlen = n};
    if (n >= 2 && buf[0] == 0x1f && buf[1] == 0x8b) {
        if (n > UINT_MAX) return gs_error(GS_EINPUT, "%s: compressed input is too large", name);
        s.inflating = 1;
        s.zs.next_in = (unsigned char *)buf;
        s.zs.avail_in = (uInt)n;
        if (inflateInit2(&s.zs, 15 + 32) != Z_OK)
            return gs_error(GS_ENOMEM, "%s: cannot start zlib", name);
    }
    int st = read_idx(&s, max_bytes, a);
    if (s.inflating) inflateEnd(&s.zs);
    return st;
}
