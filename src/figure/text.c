/* figure/text.c — the drawing context (cairo + pango set up alike for PNG, PDF and SVG) and its text:
 * markup laid out, measured, drawn, escaped, wrapped (fig_int.h). */
#include "fig_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FONT_FAMILY "DejaVu Sans"

void fig_rgb(cairo_t *cr, uint32_t rgb, double alpha)
{
    cairo_set_source_rgba(cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                          (rgb & 0xff) / 255.0, alpha);
}

PangoLayout *fig_layout(fig_ctx *z, const char *markup, double size)
{
    PangoLayout *l = pango_layout_new(z->pc);
    pango_font_description_set_size(z->font, (gint)lround(size * PANGO_SCALE));
    pango_layout_set_font_description(l, z->font);
    pango_layout_set_markup(l, markup, -1);
    return l;
}

void fig_text_size(fig_ctx *z, const char *markup, double size, double *w, double *h)
{
    PangoLayout *l = fig_layout(z, markup, size);
    PangoRectangle log;
    pango_layout_get_extents(l, NULL, &log);
    if (w) *w = (double)log.width / PANGO_SCALE;
    if (h) *h = (double)log.height / PANGO_SCALE;
    g_object_unref(l);
}

/* Draw markup anchored at (x, y): halign 0 left, 0.5 centre, 1 right; valign VA_*; angle in
 * radians (the anchor is applied in the rotated frame). */
void fig_text(fig_ctx *z, double x, double y, const char *markup, double size, uint32_t rgb,
                    double halign, int valign, double angle)
{
    PangoLayout *l = fig_layout(z, markup, size);
    PangoRectangle log;
    pango_layout_get_extents(l, NULL, &log);
    double w = (double)log.width / PANGO_SCALE, h = (double)log.height / PANGO_SCALE;
    double base = (double)pango_layout_get_baseline(l) / PANGO_SCALE;
    double dx = -halign * w - (double)log.x / PANGO_SCALE, dy;
    switch (valign) {
    case VA_TOP: dy = 0; break;
    case VA_BOTTOM: dy = -h; break;
    case VA_DIGITS: dy = -(base - 0.364 * size); break; /* centre of the digit height */
    default: dy = -h / 2; break;
    }
    cairo_save(z->cr);
    cairo_translate(z->cr, x, y);
    if (angle != 0) cairo_rotate(z->cr, angle);
    cairo_move_to(z->cr, dx, dy);
    fig_rgb(z->cr, rgb, 1);
    pango_cairo_update_layout(z->cr, l);
    pango_cairo_show_layout(z->cr, l);
    cairo_restore(z->cr);
    g_object_unref(l);
}

/* Escape text for pango markup into buf. */
const char *fig_esc(const char *s, char *buf, size_t n)
{
    gchar *e = g_markup_escape_text(s, -1);
    snprintf(buf, n, "%s", e);
    g_free(e);
    return buf;
}

/* A word-wrapped paragraph of markup at (b.x, y), b.w wide, drawn when `draw`; its height. */
static double paragraph(fig_ctx *z, const char *markup, double size, box b, double y, int draw)
{
    PangoLayout *l = fig_layout(z, markup, size);
    pango_layout_set_width(l, (int)(b.w * PANGO_SCALE));
    pango_layout_set_wrap(l, PANGO_WRAP_WORD);
    PangoRectangle log;
    if (draw) {
        cairo_move_to(z->cr, b.x, y);
        fig_rgb(z->cr, 0x1a1a1a, 1);
        pango_cairo_update_layout(z->cr, l);
        pango_cairo_show_layout(z->cr, l);
    }
    pango_layout_get_extents(l, NULL, &log);
    g_object_unref(l);
    return (double)log.height / PANGO_SCALE;
}

double fig_paragraph(fig_ctx *z, const char *markup, double size, box b, double y)
{
    return paragraph(z, markup, size, b, y, 1);
}

double fig_paragraph_h(fig_ctx *z, const char *markup, double size, double w)
{
    return paragraph(z, markup, size, (box){0, 0, w, 0}, 0, 0);
}

int fig_begin(fig_ctx *z, cairo_surface_t *s)
{
    memset(z, 0, sizeof *z);
    z->cr = cairo_create(s);
    if (cairo_status(z->cr) != CAIRO_STATUS_SUCCESS) return -1;
    z->pc = pango_cairo_create_context(z->cr);
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    pango_cairo_context_set_font_options(z->pc, fo);
    cairo_font_options_destroy(fo);
    pango_cairo_context_set_resolution(z->pc, 72.0); /* 1 pt = 1 user unit */
#if PANGO_VERSION_CHECK(1, 44, 0)
    pango_context_set_round_glyph_positions(z->pc, FALSE);
#endif
    z->font = pango_font_description_from_string(FONT_FAMILY);
    return 0;
}

void fig_end(fig_ctx *z)
{
    if (z->font) pango_font_description_free(z->font);
    if (z->pc) g_object_unref(z->pc);
    if (z->cr) cairo_destroy(z->cr);
    memset(z, 0, sizeof *z);
}
