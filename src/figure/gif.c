/* figure/gif.c — the frames of a figure as one animated GIF through giflib: every frame drawn at
 * the same size, one palette for all of them (giflib's median cut over every frame, so a colour
 * never changes from frame to frame), an endless loop, frame_ms per frame and the last one held
 * three times as long (fig_int.h). */
#include "fig_int.h"
#include "gs_io.h"

#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

static int gif_out(GifFileType *g, const GifByteType *buf, int n)
{
    FILE *f = g->UserData;
    return (int)fwrite(buf, 1, (size_t)n, f);
}

/* One row of an ARGB32 image (premultiplied, on the figure's opaque white page) into planes. */
static void split_row(const unsigned char *row, int w, GifByteType *r, GifByteType *g, GifByteType *b)
{
    const uint32_t *p = (const uint32_t *)(const void *)row;
    for (int x = 0; x < w; x++) {
        r[x] = (GifByteType)(p[x] >> 16 & 0xff);
        g[x] = (GifByteType)(p[x] >> 8 & 0xff);
        b[x] = (GifByteType)(p[x] & 0xff);
    }
}

int fig_write_gif(const fig_request *req, const fig_kind *fig, const fig_frame *f, int n, const fig_page *pg, double dpi,
                  const char *path)
{
    int w = 0, h = 0, st = GS_OK;
    size_t npx = 0;
    GifByteType *planes = NULL, *idx = NULL;
    /* every frame into R, G, B planes stacked frame under frame */
    for (int k = 0; k < n && st == GS_OK; k++) {
        cairo_surface_t *s;
        if ((st = fig_image(req, fig, &f[k], pg, dpi, path, &s))) break;
        if (k == 0) {
            w = cairo_image_surface_get_width(s);
            h = cairo_image_surface_get_height(s);
            npx = (size_t)w * (size_t)h * (size_t)n;
            if (npx > 0xffffffffu / 2) st = gs_error(GS_EINPUT, "%s: %d frames of %d×%d pixels are too many for one GIF; lower --dpi", path, n, w, h);
            else if (!(planes = gs_malloc(npx, 3, "GIF frames")) || !(idx = gs_malloc(npx, 1, "GIF frames"))) st = GS_ENOMEM;
        }
        for (int y = 0; st == GS_OK && y < h; y++) {
            size_t o = ((size_t)k * (size_t)h + (size_t)y) * (size_t)w;
            split_row(cairo_image_surface_get_data(s) + (size_t)y * (size_t)cairo_image_surface_get_stride(s), w,
                      planes + o, planes + npx + o, planes + 2 * npx + o);
        }
        cairo_surface_destroy(s);
    }
    GifColorType pal[256];
    int ncol = 256;
    if (st == GS_OK && GifQuantizeBuffer((unsigned)w, (unsigned)h * (unsigned)n, &ncol, planes, planes + npx,
                                         planes + 2 * npx, idx, pal) != GIF_OK)
        st = gs_error(GS_ERUN, "%s: cannot make the GIF's palette", path);
    /* the median cut averages the white page with the near-white edges of text (248, 248, 248):
     * the colour the page's white pixels took is white again, as in the PNG and the PDF */
    for (size_t i = 0; st == GS_OK && i < npx; i++)
        if ((planes[i] & planes[npx + i] & planes[2 * npx + i]) == 255) {
            pal[idx[i]].Red = pal[idx[i]].Green = pal[idx[i]].Blue = 255;
            break;
        }
    free(planes);
    if (st) { free(idx); return st; }

    io_atomic a;
    if ((st = io_atomic_open(&a, path))) { free(idx); return st; }
    int err = 0;
    GifFileType *g = EGifOpen(a.f, gif_out, &err);
    ColorMapObject *cmap = g ? GifMakeMapObject(256, pal) : NULL;
    int ok = g && cmap;
    if (ok) {
        EGifSetGifVersion(g, true);
        ok = EGifPutScreenDesc(g, w, h, 8, 0, cmap) == GIF_OK;
    }
    if (ok) { /* loop for ever (the NETSCAPE2.0 application block) */
        static const GifByteType loop[3] = {1, 0, 0};
        ok = EGifPutExtensionLeader(g, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
             EGifPutExtensionBlock(g, 11, "NETSCAPE2.0") == GIF_OK && EGifPutExtensionBlock(g, 3, loop) == GIF_OK &&
             EGifPutExtensionTrailer(g) == GIF_OK;
    }
    int ms = req->frame_ms > 0 ? req->frame_ms : FIG_FRAME_MS;
    for (int k = 0; ok && k < n; k++) {
        GraphicsControlBlock gcb = {0};
        gcb.DisposalMode = DISPOSE_DO_NOT;
        gcb.TransparentColor = NO_TRANSPARENT_COLOR;
        gcb.DelayTime = (k == n - 1 && n > 1 ? 3 * ms : ms) / 10; /* in 1/100 s */
        GifByteType ext[4];
        size_t len = EGifGCBToExtension(&gcb, ext);
        ok = EGifPutExtension(g, GRAPHICS_EXT_FUNC_CODE, (int)len, ext) == GIF_OK &&
             EGifPutImageDesc(g, 0, 0, w, h, false, NULL) == GIF_OK;
        for (int y = 0; ok && y < h; y++)
            ok = EGifPutLine(g, idx + ((size_t)k * (size_t)h + (size_t)y) * (size_t)w, w) == GIF_OK;
    }
    if (!ok && g) err = g->Error;
    if (cmap) GifFreeMapObject(cmap);
    free(idx);
    int cerr = 0;
    if (g && EGifCloseFile(g, &cerr) != GIF_OK && ok) { ok = 0; err = cerr; }
    if (!ok) {
        io_atomic_abort(&a);
        return gs_error(GS_ERUN, "%s: cannot write the GIF: %s (nothing was written)", path,
                        GifErrorString(err) ? GifErrorString(err) : "error");
    }
    return io_atomic_commit(&a);
}
