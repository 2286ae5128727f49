/* gs_png.h — PNG encoder on libpng's full API for cairo images (prefix pw_).
 *
 * Input is a cairo CAIRO_FORMAT_ARGB32 buffer: each pixel a native-endian uint32_t
 * 0xAARRGGBB with premultiplied colour. Output is 8-bit RGBA, un-premultiplied, with pHYs
 * (dpi -> pixels per metre, rounded) and one text chunk per key (tEXt when the value is
 * Latin-1 printable ASCII, else iTXt UTF-8). No tIME chunk: the same pixels and text give the
 * same bytes. The file is written atomically (gs_io.h): on any error nothing is left behind
 * and an existing file is untouched.
 * Ownership: borrows everything.
 */
#ifndef GS_PNG_H
#define GS_PNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *key;   /* 1..79 Latin-1 characters, no leading/trailing/double spaces */
    const char *text;  /* UTF-8 */
} pw_text;

/* GS_OK, GS_EINPUT (bad size, dpi or key), GS_ERUN (libpng or I/O error; message names path). */
int pw_write_argb32(const char *path, const unsigned char *data, int width, int height,
                    int stride, double dpi, const pw_text *text, int ntext);
/* Un-premultiply n ARGB32 pixels into RGBA bytes (cairo's rounding: (c·255 + a/2) / a). */
void pw_unpremultiply_row(const uint32_t *src, unsigned char *dst, int n);
/* Pixels per metre written to pHYs for a dpi (lround(dpi / 0.0254)). */
unsigned long pw_ppm(double dpi);

#endif
