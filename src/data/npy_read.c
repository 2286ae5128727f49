/* data/npy_read.c — strict .npy reader (format versions 1.0, 2.0, 3.0; see gs_npy.h).
 *
 * The header is a Python dict literal; we parse the small grammar ourselves and accept only
 * the keys descr, fortran_order and shape, each exactly once. Only a whitelist of dtypes is
 * read. The data size is checked against shape × itemsize (with overflow checks) before any
 * allocation, and the file must end exactly where the data ends.
 */
#include "gs_npy.h"
#include "gs_common.h"
#include "gs_io.h"

#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NPY_MAX_HEADER 65536u

typedef struct {
    const char *name;
    const unsigned char *p, *end;
} hparse;

static void skip_ws(hparse *h)
{
    while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r'))
        h->p++;
}

static int expect(hparse *h, char c)
{
    skip_ws(h);
    if (h->p >= h->end || *h->p != (unsigned char)c)
        return gs_error(GS_EINPUT, "%s: malformed .npy header (expected '%c')", h->name, c);
    h->p++;
    return GS_OK;
}

/* A quoted string (single or double quotes, no escapes) into out[cap]. */
static int parse_string(hparse *h, char *out, size_t cap)
{
    skip_ws(h);
    if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
        return gs_error(GS_EINPUT, "%s: malformed .npy header (expected a quoted string)", h->name);
    unsigned char q = *h->p++;
    size_t n = 0;
    while (h->p < h->end && *h->p != q) {
        if (*h->p == '\\' || *h->p < 0x20)
            return gs_error(GS_EINPUT, "%s: malformed .npy header (unexpected character in string)",
                            h->name);
        if (n + 1 >= cap)
            return gs_error(GS_EINPUT, "%s: malformed .npy header (string too long)", h->name);
        out[n++] = (char)*h->p++;
    }
    if (h->p >= h->end)
        return gs_error(GS_EINPUT, "%s: malformed .npy header (unterminated string)", h->name);
    h->p++;
    out[n] = '\0';
    return GS_OK;
}

static int parse_bool(hparse *h, int *v)
{
    skip_ws(h);
    size_t left = (size_t)(h->end - h->p);
    if (left >= 4 && memcmp(h->p, "True", 4) == 0) { *v = 1; h->p += 4; return GS_OK; }
    if (left >= 5 && memcmp(h->p, "False", 5) == 0) { *v = 0; h->p += 5; return GS_OK; }
    return gs_error(GS_EINPUT, "%s: malformed .npy header (fortran_order must be True or False)",
                    h->name);
}

/* A tuple of non-negative integers: (), (n,), (n, m), (n, m,) ... at most 8 entries kept. */
static int parse_shape(hparse *h, int *ndim, unsigned long long dims[8])
{
    if (expect(h, '(')) return GS_EINPUT;
    int n = 0, comma_after_last = 0;
    for (;;) {
        skip_ws(h);
        if (h->p < h->end && *h->p == ')') { h->p++; break; }
        if (h->p >= h->end || *h->p < '0' || *h->p > '9')
            return gs_error(GS_EINPUT, "%s: malformed .npy header (shape must be a tuple of "
                            "non-negative integers)", h->name);
        unsigned long long v = 0;
        while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
            unsigned d = (unsigned)(*h->p - '0');
            if (v > (0xFFFFFFFFFFFFFFFFull - d) / 10)
                return gs_error(GS_EINPUT, "%s: shape dimension is too large", h->name);
            v = v * 10 + d;
            h->p++;
        }
        skip_ws(h);
        if (h->p < h->end && *h->p == 'L') h->p++; /* Python 2 longs in very old files */
        if (n >= 8) return gs_error(GS_EINPUT, "%s: array has too many dimensions (need 1-D or 2-D)",
                                    h->name);
        dims[n++] = v;
        skip_ws(h);
        if (h->p < h->end && *h->p == ',') { h->p++; comma_after_last = 1; continue; }
        comma_after_last = 0;
        if (h->p < h->end && *h->p == ')') { h->p++; break; }
        return gs_error(GS_EINPUT, "%s: malformed .npy header (bad shape tuple)", h->name);
    }
    /* "(3)" is the integer 3 in Python, not a tuple. */
    if (n == 1 && !comma_after_last)
        return gs_error(GS_EINPUT, "%s: malformed .npy header (shape is not a tuple)", h->name);
    *ndim = n;
    return GS_OK;
}

static int dtype_of(const char *name, const char *d, npy_dtype *t, size_t *size)
{
    static const struct { const char *s; npy_dtype t; size_t size; } ok[] = {
        {"<f2", NPY_F2, 2}, {"<f4", NPY_F4, 4}, {"<f8", NPY_F8, 8}, {"|u1", NPY_U1, 1}, {"<u1", NPY_U1, 1},
        {"u1", NPY_U1, 1}, {"<i4", NPY_I4, 4}, {"<i8", NPY_I8, 8}, {"|i1", NPY_I1, 1}, {"<i1", NPY_I1, 1},
        {"i1", NPY_I1, 1}, {"<i2", NPY_I2, 2}, {"<u2", NPY_U2, 2}, {"<u4", NPY_U4, 4}, {"<u8", NPY_U8, 8},
        {"|b1", NPY_B1, 1}, {"<b1", NPY_B1, 1}, {"b1", NPY_B1, 1}, {"?", NPY_B1, 1},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (strcmp(d, ok[i].s) == 0) { *t = ok[i].t; *size = ok[i].size; return GS_OK; }
    if (d[0] == '>')
        return gs_error(GS_EINPUT, "%s: dtype '%s' is big-endian; save it little-endian "
                        "(e.g. arr.astype('<f8'))", name, d);
    if (strchr(d, 'O'))
        return gs_error(GS_EINPUT, "%s: dtype '%s' is an object (pickle) array; save a numeric "
                        "array instead", name, d);
    if (strchr(d, 'c'))
        return gs_error(GS_EINPUT, "%s: dtype '%s' is complex; only real values are supported", name, d);
    return gs_error(GS_EINPUT, "%s: unsupported dtype '%s' (features: <f2, <f4, <f8, |u1; labels: "
                    "any integer type, e.g. <i8)", name, d);
}

/* Parse the header in buf[0..n) (n may be less than the file) for a file of file_size bytes.
 * On success fills a (data NULL) and *off (where the data begins). */
static int parse_header(const char *name, const unsigned char *buf, size_t n, uint64_t file_size,
                        npy_array *a, size_t *off)
{
    memset(a, 0, sizeof *a);
    static const unsigned char magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (n >= 2 && buf[0] == 0x1f && buf[1] == 0x8b)
        return gs_error(GS_EINPUT, "%s: is gzip-compressed; decompress it first (gunzip)", name);
    if (n < 6 || memcmp(buf, magic, 6) != 0)
        return gs_error(GS_EINPUT, n < 6 && memcmp(buf, magic, n) == 0
                                       ? "%s: file is truncated (shorter than the .npy magic)"
                                       : "%s: not a .npy file (bad magic)", name);
    if (n < 8) return gs_error(GS_EINPUT, "%s: file is truncated inside the .npy header", name);
    unsigned major = buf[6], minor = buf[7];
    if (major < 1 || major > 3 || minor != 0)
        return gs_error(GS_EINPUT, "%s: unsupported .npy format version %u.%u (need 1.0, 2.0 or 3.0)",
                        name, major, minor);
    size_t pre = major == 1 ? 10 : 12;
    if (n < pre) return gs_error(GS_EINPUT, "%s: file is truncated inside the .npy header", name);
    uint64_t hlen = (uint64_t)buf[8] | (uint64_t)buf[9] << 8;
    if (major > 1) hlen |= (uint64_t)buf[10] << 16 | (uint64_t)buf[11] << 24;
    if (hlen > NPY_MAX_HEADER)
        return gs_error(GS_EINPUT, "%s: .npy header length %llu is too large (limit %u)", name,
                        (unsigned long long)hlen, NPY_MAX_HEADER);
    if (pre + hlen > file_size || pre + hlen > n)
        return gs_error(GS_EINPUT, "%s: .npy header length %llu runs past the end of the file "
                        "(%llu bytes)", name, (unsigned long long)hlen,
                        (unsigned long long)file_size);
    if (hlen == 0 || buf[pre + hlen - 1] != '\n')
        return gs_error(GS_EINPUT, "%s: malformed .npy header (does not end with a newline)", name);
    for (size_t i = pre; i < pre + hlen; i++)
        if (buf[i] == 0 || (major < 3 && buf[i] >= 0x80))
            return gs_error(GS_EINPUT, "%s: malformed .npy header (non-ASCII byte)", name);

    hparse h = {name, buf + pre, buf + pre + hlen};
    char descr[64] = "";
    int fortran = 0, ndim = -1, seen_d = 0, seen_f = 0, seen_s = 0;
    unsigned long long dims[8];
    if (expect(&h, '{')) return GS_EINPUT;
    for (;;) {
        skip_ws(&h);
        if (h.p < h.end && *h.p == '}') { h.p++; break; }
        char key[32];
        if (parse_string(&h, key, sizeof key)) return GS_EINPUT;
        if (expect(&h, ':')) return GS_EINPUT;
        int *seen;
        int st;
        if (strcmp(key, "descr") == 0) {
            seen = &seen_d;
            skip_ws(&h);
            if (h.p < h.end && (*h.p == '[' || *h.p == '('))
                return gs_error(GS_EINPUT, "%s: structured dtypes are not supported (need a plain "
                                "numeric array)", name);
            st = parse_string(&h, descr, sizeof descr);
        } else if (strcmp(key, "fortran_order") == 0) {
            seen = &seen_f;
            st = parse_bool(&h, &fortran);
        } else if (strcmp(key, "shape") == 0) {
            seen = &seen_s;
            st = parse_shape(&h, &ndim, dims);
        } else {
            return gs_error(GS_EINPUT, "%s: malformed .npy header (unknown key '%s')", name, key);
        }
        if (st) return st;
        if (*seen) return gs_error(GS_EINPUT, "%s: malformed .npy header (key '%s' twice)", name, key);
        *seen = 1;
        skip_ws(&h);
        if (h.p < h.end && *h.p == ',') { h.p++; continue; }
        if (h.p < h.end && *h.p == '}') { h.p++; break; }
        return gs_error(GS_EINPUT, "%s: malformed .npy header (expected ',' or '}')", name);
    }
    skip_ws(&h);
    if (h.p != h.end)
        return gs_error(GS_EINPUT, "%s: malformed .npy header (text after the dict)", name);
    if (!seen_d || !seen_f || !seen_s)
        return gs_error(GS_EINPUT, "%s: malformed .npy header (missing '%s')", name,
                        !seen_d ? "descr" : !seen_f ? "fortran_order" : "shape");
    if (dtype_of(name, descr, &a->dtype, &a->itemsize)) return GS_EINPUT;
    if (ndim < 1 || ndim > 2)
        return gs_error(GS_EINPUT, "%s: array is %d-dimensional; need a 1-D (labels) or 2-D "
                        "(features) array", name, ndim);
    size_t count = 1, bytes;
    for (int i = 0; i < ndim; i++) {
        if (dims[i] > (unsigned long long)LONG_MAX || gs_mul_size(count, (size_t)dims[i], &count))
            return gs_error(GS_EINPUT, "%s: shape is too large (element count overflows)", name);
        a->shape[i] = (long)dims[i];
    }
    if (ndim == 1) a->shape[1] = 1;
    if (gs_mul_size(count, a->itemsize, &bytes) || bytes > UINT64_MAX - pre - hlen)
        return gs_error(GS_EINPUT, "%s: shape is too large (byte count overflows)", name);
    uint64_t want = pre + hlen + (uint64_t)bytes;
    if (file_size < want)
        return gs_error(GS_EINPUT, "%s: data is truncated: the header's shape needs %llu bytes of "
                        "data but the file has %llu", name, (unsigned long long)bytes,
                        (unsigned long long)(file_size - pre - hlen));
    if (file_size > want)
        return gs_error(GS_EINPUT, "%s: %llu trailing bytes after the data the header describes",
                        name, (unsigned long long)(file_size - want));
    a->ndim = ndim;
    a->fortran = fortran;
    *off = pre + hlen;
    return GS_OK;
}

int npy_header(const char *name, const unsigned char *buf, size_t n, uint64_t total, npy_array *a,
               size_t *data_off)
{
    return parse_header(name, buf, n, total, a, data_off);
}

static size_t data_bytes(const npy_array *a)
{
    return (size_t)a->shape[0] * (size_t)(a->ndim == 2 ? a->shape[1] : 1) * a->itemsize;
}

int npy_parse(const char *name, const unsigned char *buf, size_t n, npy_array *a)
{
    size_t off;
    int st = parse_header(name, buf, n, n, a, &off);
    if (st) return st;
    size_t bytes = data_bytes(a);
    a->data = gs_malloc(bytes ? bytes : 1, 1, name);
    if (!a->data) return GS_ENOMEM;
    if (bytes) memcpy(a->data, buf + off, bytes);
    return GS_OK;
}

/* Open and read the header; on success *fp is positioned at the data. */
static int open_header(const char *path, npy_array *a, FILE **fp)
{
    FILE *f;
    uint64_t size;
    int ost = io_open_regular(path, &f, &size);
    if (ost) return ost;
    size_t want = size < NPY_MAX_HEADER + 12 ? (size_t)size : NPY_MAX_HEADER + 12;
    unsigned char *head = malloc(want ? want : 1);
    if (!head) { fclose(f); return gs_error(GS_ENOMEM, "%s: out of memory", path); }
    size_t got = fread(head, 1, want, f);
    if (got != want) {
        int e = ferror(f) ? errno : 0;
        free(head);
        fclose(f);
        return gs_error(GS_EINPUT, "%s: read error: %s", path, e ? strerror(e) : "file shrank");
    }
    size_t off;
    int st = parse_header(path, head, got, size, a, &off);
    free(head);
    if (st == GS_OK && fseek(f, (long)off, SEEK_SET) != 0)
        st = gs_error(GS_EINPUT, "%s: cannot seek: %s", path, strerror(errno));
    if (st) { fclose(f); return st; }
    *fp = f;
    return GS_OK;
}

int npy_probe(const char *path, npy_array *a)
{
    FILE *f;
    int st = open_header(path, a, &f);
    if (st == GS_OK) fclose(f);
    return st;
}

int npy_read(const char *path, npy_array *a)
{
    FILE *f;
    int st = open_header(path, a, &f);
    if (st) return st;
    size_t bytes = data_bytes(a);
    a->data = gs_malloc(bytes ? bytes : 1, 1, path);
    if (!a->data) { fclose(f); return GS_ENOMEM; }
    size_t got = bytes ? fread(a->data, 1, bytes, f) : 0;
    int extra = fgetc(f);
    int err = ferror(f);
    fclose(f);
    if (got != bytes || err || extra != EOF) {
        npy_array_free(a);
        return gs_error(GS_EINPUT, "%s: read error (file changed while reading?)", path);
    }
    return GS_OK;
}

void npy_array_free(npy_array *a)
{
    free(a->data);
    memset(a, 0, sizeof *a);
}

double npy_half(uint16_t h)
{
    int sign = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0x1f) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp((double)m, -24);          /* subnormal: m × 2^-24 */
    else v = ldexp((double)(m | 0x400), e - 25);         /* (1024 + m) × 2^(e-15-10) */
    return sign ? -v : v;
}

double npy_value(npy_dtype t, const void *data, size_t k)
{
    const unsigned char *p = data;
    switch (t) {
    case NPY_F2: { uint16_t h = (uint16_t)(p[2 * k] | p[2 * k + 1] << 8); return npy_half(h); }
    case NPY_F4: { float f; memcpy(&f, p + 4 * k, 4); return f; }
    case NPY_F8: { double d; memcpy(&d, p + 8 * k, 8); return d; }
    case NPY_I4: { int32_t i; memcpy(&i, p + 4 * k, 4); return i; }
    case NPY_I8: { int64_t i; memcpy(&i, p + 8 * k, 8); return (double)i; }
    case NPY_U1: return p[k];
    case NPY_BF16: { uint32_t u = (uint32_t)(p[2 * k] | p[2 * k + 1] << 8) << 16; float f; memcpy(&f, &u, 4); return f; }
    default: break;
    }
    int64_t i;
    if (npy_int(t, data, k, &i) == 0) return (double)i;
    if (t == NPY_U8) { uint64_t u; memcpy(&u, p + 8 * k, 8); return (double)u; }
    if (t == NPY_B1) return p[k] != 0;
    return NAN;
}

int npy_is_int(npy_dtype t)
{
    return t == NPY_U1 || t == NPY_I1 || t == NPY_I2 || t == NPY_U2 || t == NPY_I4 || t == NPY_U4 ||
           t == NPY_I8 || t == NPY_U8;
}

int npy_int(npy_dtype t, const void *data, size_t k, int64_t *v)
{
    const unsigned char *p = data;
    switch (t) {
    case NPY_U1: *v = p[k]; return 0;
    case NPY_I1: *v = (int8_t)p[k]; return 0;
    case NPY_I2: { int16_t x; memcpy(&x, p + 2 * k, 2); *v = x; return 0; }
    case NPY_U2: { uint16_t x; memcpy(&x, p + 2 * k, 2); *v = x; return 0; }
    case NPY_I4: { int32_t x; memcpy(&x, p + 4 * k, 4); *v = x; return 0; }
    case NPY_U4: { uint32_t x; memcpy(&x, p + 4 * k, 4); *v = x; return 0; }
    case NPY_I8: { int64_t x; memcpy(&x, p + 8 * k, 8); *v = x; return 0; }
    case NPY_U8: { uint64_t x; memcpy(&x, p + 8 * k, 8); if (x > (uint64_t)INT64_MAX) return 1; *v = (int64_t)x; return 0; }
    default: return -1;
    }
}

const char *npy_dtype_name(npy_dtype t)
{
    switch (t) {
    case NPY_F4: return "<f4";
    case NPY_F8: return "<f8";
    case NPY_F2: return "<f2";
    case NPY_U1: return "|u1";
    case NPY_I1: return "|i1";
    case NPY_I2: return "<i2";
    case NPY_U2: return "<u2";
    case NPY_I4: return "<i4";
    case NPY_U4: return "<u4";
    case NPY_I8: return "<i8";
    case NPY_U8: return "<u8";
    case NPY_B1: return "|b1";
    case NPY_BF16: return "bfloat16";
    }
    return "?";
}
