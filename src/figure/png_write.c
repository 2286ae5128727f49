/* figure/png_write.c — PNG encoder on libpng's full API (see gs_png.h). */
#include "gs_png.h"
#include "gs_common.h"
#include "gs_io.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

void pw_unpremultiply_row(const uint32_t *src, unsigned char *dst, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t p = src[i];
        unsigned a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
        unsigned char *d = dst + 4 * (size_t)i;
        if (a == 0) {
            d[0] = d[1] = d[2] = d[3] = 0;
        } else if (a == 255) {
            d[0] = (unsigned char)r; d[1] = (unsigned char)g; d[2] = (unsigned char)b; d[3] = 255;
        } else {
            unsigned rr = (r * 255 + a / 2) / a, gg = (g * 255 + a / 2) / a, bb = (b * 255 + a / 2) / a;
            d[0] = (unsigned char)(rr > 255 ? 255 : rr);
            d[1] = (unsigned char)(gg > 255 ? 255 : gg);
            d[2] = (unsigned char)(bb > 255 ? 255 : bb);
            d[3] = (unsigned char)a;
        }
    }
}

unsigned long pw_ppm(double dpi) { return (unsigned long)lround(dpi / 0.0254); }

typedef struct {
    char msg[256];
    FILE *f;
    int write_errno; /* why a write failed (ENOSPC, EIO, ...), 0 if none did */
} pw_err;

/* libpng's output: the file, and the reason when the system refuses a write. */
static void pw_write(png_structp png, png_bytep d, size_t n)
{
    pw_err *e = png_get_io_ptr(png);
    if (fwrite(d, 1, n, e->f) != n) {
        e->write_errno = errno ? errno : EIO;
        png_error(png, "write error");
    }
}

static void pw_flush(png_structp png) { (void)png; }

static void pw_error_fn(png_structp png, png_const_charp msg)
{
    pw_err *e = png_get_error_ptr(png);
    if (e) snprintf(e->msg, sizeof e->msg, "%s", msg);
    png_longjmp(png, 1);
}

static void pw_warn_fn(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg; /* warnings are not errors; the library never prints */
}

static int key_ok(const char *k)
{
    size_t n = strlen(k);
    if (n < 1 || n > 79 || k[0] == ' ' || k[n - 1] == ' ' || strstr(k, "  ")) return 0;
    for (const unsigned char *p = (const unsigned char *)k; *p; p++)
        if (*p < 32 || (*p > 126 && *p < 161)) return 0;
    return 1;
}

static int ascii_printable(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 32 && *p != '\n') || *p > 126) return 0;
    return 1;
}

int pw_write_argb32(const char *path, const unsigned char *data, int width, int height,
                    int stride, double dpi, const pw_text *text, int ntext)
{
    if (width < 1 || height < 1 || stride < 4 * width || !data)
        return gs_error(GS_EINPUT, "%s: bad image size %d×%d", path, width, height);
    if (!(dpi > 0) || !isfinite(dpi))
        return gs_error(GS_EINPUT, "%s: bad resolution %g dpi", path, dpi);
    for (int i = 0; i < ntext; i++)
        if (!text[i].key || !text[i].text || !key_ok(text[i].key))
            return gs_error(GS_EINPUT, "%s: bad PNG text key '%s'", path,
                            text[i].key ? text[i].key : "(null)");

    unsigned char *row = gs_malloc((size_t)width, 4, "PNG row");
    png_text *chunks = gs_calloc(ntext > 0 ? (size_t)ntext : 1, sizeof(png_text), "PNG text");
    if (!row || !chunks) {
        free(row);
        free(chunks);
        return GS_ENOMEM;
    }
    io_atomic a;
    int st = io_atomic_open(&a, path);
    if (st) {
        free(row);
        free(chunks);
        return st;
    }
    pw_err err;
    memset(&err, 0, sizeof err);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &err, pw_error_fn, pw_warn_fn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, NULL);
        io_atomic_abort(&a);
        free(row);
        free(chunks);
        return gs_error(GS_ENOMEM, "%s: libpng could not start (out of memory)", path);
    }
    /* Locals used after a longjmp are not modified after setjmp, or are volatile. */
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        io_atomic_abort(&a);
        free(row);
        free(chunks);
        if (err.write_errno)
            return gs_error(GS_ERUN, "%s: write failed: %s (nothing was written)", path, strerror(err.write_errno));
        return gs_error(GS_ERUN, "%s: PNG encoding failed: %s (nothing was written)", path,
                        err.msg[0] ? err.msg : "libpng error");
    }
    err.f = a.f;
    png_set_write_fn(png, &err, pw_write, pw_flush);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_uint_32 ppm = (png_uint_32)pw_ppm(dpi);
    png_set_pHYs(png, info, ppm, ppm, PNG_RESOLUTION_METER);
    for (int i = 0; i < ntext; i++) {
        chunks[i].key = (png_charp)text[i].key;
        chunks[i].text = (png_charp)text[i].text;
        chunks[i].text_length = strlen(text[i].text);
        if (ascii_printable(text[i].text)) {
            chunks[i].compression = PNG_TEXT_COMPRESSION_NONE;
        } else {
            chunks[i].compression = PNG_ITXT_COMPRESSION_NONE;
            chunks[i].itxt_length = chunks[i].text_length;
            chunks[i].text_length = 0;
            chunks[i].lang = (png_charp) "";
            chunks[i].lang_key = (png_charp) "";
        }
    }
    if (ntext > 0) png_set_text(png, info, chunks, ntext);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        const uint32_t *src = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
        pw_unpremultiply_row(src, row, width);
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    free(chunks);
    return io_atomic_commit(&a);
}
