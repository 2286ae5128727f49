/* chart/canvas.c — pure cell-grid raster: braille/block/ASCII dots, Bresenham lines, dash patterns,
 * text, boxes and chart rasterization (gs_canvas.h). No curses. */
#include "gs_canvas.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gs_common.h"

int cv_init(cv_canvas *cv, int w, int h, cv_glyphs glyphs)
{
    memset(cv, 0, sizeof *cv);
    if (w < 1 || h < 1) return gs_error(GS_EINPUT, "canvas: size %dx%d is empty", w, h);
    cv->cells = gs_calloc((size_t)w * (size_t)h, sizeof *cv->cells, "canvas cells");
    if (!cv->cells) return GS_ENOMEM;
    cv->w = w;
    cv->h = h;
    cv->glyphs = glyphs;
    cv_clear(cv);
    return GS_OK;
}

void cv_free(cv_canvas *cv)
{
    free(cv->cells);
    memset(cv, 0, sizeof *cv);
}

void cv_clear(cv_canvas *cv)
{
    for (long i = 0; i < (long)cv->w * cv->h; i++) {
        cv->cells[i].ch = L' ';
        cv->cells[i].rgb = CV_RGB_DEFAULT;
        cv->cells[i].attr = 0;
        cv->cells[i].dots = 0;
        cv->cells[i].mark = 0;
    }
}

cv_cell *cv_at(cv_canvas *cv, int x, int y)
{
    if (x < 0 || y < 0 || x >= cv->w || y >= cv->h) return NULL;
    return &cv->cells[(long)y * cv->w + x];
}

const cv_cell *cv_cat(const cv_canvas *cv, int x, int y)
{
    if (x < 0 || y < 0 || x >= cv->w || y >= cv->h) return NULL;
    return &cv->cells[(long)y * cv->w + x];
}

void cv_dots_per_cell(cv_glyphs g, int *sx, int *sy)
{
    switch (g) {
    case CV_BRAILLE: *sx = 2; *sy = 4; break;
    case CV_BLOCK: *sx = 2; *sy = 2; break;
    default: *sx = 1; *sy = 1; break;
    }
}

/* Braille dots: column 0 holds dots 1,2,3,7; column 1 holds dots 4,5,6,8. */
static const unsigned char braille_bit[4][2] = {
    {0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
/* Block quadrants by mask (bit0 UL, bit1 UR, bit2 LL, bit3 LR). */
static const wchar_t block_glyph[16] = {
    L' ',    0x2598, 0x259D, 0x2580, 0x2596, 0x258C, 0x259E, 0x259B,
    0x2597, 0x259A, 0x2590, 0x259C, 0x2584, 0x2599, 0x259F, 0x2588};

unsigned cv_dot_bit(cv_glyphs g, int dx, int dy)
{
    switch (g) {
    case CV_BRAILLE:
        if (dx < 0 || dx > 1 || dy < 0 || dy > 3) return 0;
        return braille_bit[dy][dx];
    case CV_BLOCK:
        if (dx < 0 || dx > 1 || dy < 0 || dy > 1) return 0;
        return 1u << (dy * 2 + dx);
    default:
        return (dx == 0 && dy == 0) ? 1u : 0u;
    }
}

wchar_t cv_mask_glyph(cv_glyphs g, unsigned mask)
{
    switch (g) {
    case CV_BRAILLE: return mask ? (wchar_t)(0x2800 + (mask & 0xFF)) : L' ';
    case CV_BLOCK: return block_glyph[mask & 15];
    default: return mask ? L'*' : L' ';
    }
}

void cv_dot(cv_canvas *cv, const cv_rect *clip, int px, int py, uint32_t rgb, unsigned char attr,
            wchar_t ascii)
{
    int sx, sy;
    cv_dots_per_cell(cv->glyphs, &sx, &sy);
    if (px < 0 || py < 0) return;
    int cx = px / sx, cy = py / sy;
    if (clip && (cx < clip->x0 || cx >= clip->x1 || cy < clip->y0 || cy >= clip->y1)) return;
    cv_cell *c = cv_at(cv, cx, cy);
    if (!c) return;
    int taken = c->dots != 0;
    c->dots |= (unsigned char)cv_dot_bit(cv->glyphs, px % sx, py % sy);
    if ((attr & CV_UNDER) && taken) { /* a curve's cell keeps the curve's colour and glyph */
        if (cv->glyphs != CV_ASCII) c->ch = cv_mask_glyph(cv->glyphs, c->dots);
        c->mark = 0;
        return;
    }
    c->ch = cv->glyphs == CV_ASCII ? ascii : cv_mask_glyph(cv->glyphs, c->dots);
    c->mark = 0;
    c->rgb = rgb;
    c->attr = attr & (unsigned char)~CV_UNDER;
}

int cv_pen_step(cv_pen *p)
{
    int k = p->count++;
    switch (p->dash) {
    case CH_DASH_DASHED: return (k % 6) < 4;  /* 4 on, 2 off */
    case CH_DASH_DOTTED: return (k % 3) == 0; /* 1 on, 2 off */
    default: return 1;
    }
}

void cv_line(cv_canvas *cv, const cv_rect *clip, int x0, int y0, int x1, int y1, cv_pen *pen,
             uint32_t rgb, unsigned char attr, wchar_t ascii)
{
    int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
    int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (;;) {
        if (!pen || cv_pen_step(pen)) cv_dot(cv, clip, x0, y0, rgb, attr, ascii);
        if (x0 == x1 && y0 == y1) break;
        int e2 = 2 * err;
        if (e2 >= dy) { err += dy; x0 += sx; }
        if (e2 <= dx) { err += dx; y0 += sy; }
    }
}

/* ---- text ------------------------------------------------------------------------------ */

/* Decode one UTF-8 code point; returns bytes consumed (>= 1), *cp = '?' when invalid. */
static int utf8_next(const unsigned char *s, uint32_t *cp)
{
    unsigned c = s[0];
    int n;
    uint32_t v;
    if (c < 0x80) { *cp = c; return 1; }
    if ((c & 0xE0) == 0xC0) { n = 2; v = c & 0x1F; }
    else if ((c & 0xF0) == 0xE0) { n = 3; v = c & 0x0F; }
    else if ((c & 0xF8) == 0xF0) { n = 4; v = c & 0x07; }
    else { *cp = '?'; return 1; }
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) { *cp = '?'; return 1; }
        v = (v << 6) | (s[i] & 0x3F);
    }
    if ((n == 2 && v < 0x80) || (n == 3 && v < 0x800) || (n == 4 && v < 0x10000) || v > 0x10FFFF
        || (v >= 0xD800 && v <= 0xDFFF)) {
        *cp = '?';
        return 1;
    }
    *cp = v;
    return n;
}

/* ASCII replacement for a code point (NULL: keep as is, it is ASCII). */
static const char *ascii_fold(uint32_t cp)
{
    static char one[2];
    if (cp < 0x80) return NULL;
    switch (cp) {
    case 0x03B1: return "a";      /* α */
    case 0x03B2: return "b";      /* β */
    case 0x03BE: return "xi";     /* ξ */
    case 0x03C4: return "tau";    /* τ */
    case 0x03BB: return "l";      /* λ */
    case 0x0394: case 0x03B4: return "d"; /* Δ δ */
    case 0x03BA: return "k";      /* κ */
    case 0x03B3: return "g";      /* γ */
    case 0x03C1: return "rho";    /* ρ */
    case 0x03C3: return "s";      /* σ */
    case 0x00D7: return "x";      /* × */
    case 0x00B7: return ".";      /* · */
    case 0x2013: case 0x2014: case 0x2212: return "-";
    case 0x2026: return "...";
    case 0x2264: return "<=";
    case 0x2265: return ">=";
    case 0x2248: return "~";
    case 0x25B8: case 0x25B6: case 0x2192: return ">";
    case 0x25C2: case 0x2190: return "<";
    case 0x2191: return "^";
    case 0x2193: return "v";
    case 0x2016: return "|";
    case 0x23F8: return "||";
    case 0x2713: return "ok";
    case 0x1D62: return "i";      /* subscript i */
    case 0x00B2: return "2";
    case 0x221A: return "sqrt";
    case 0x27F3: case 0x21BB: return "*"; /* computing mark */
    default: break;
    }
    if (cp >= 0x2500 && cp <= 0x257F) { /* box drawing */
        if (cp == 0x2502 || cp == 0x2503 || cp == 0x250A || cp == 0x2506) one[0] = '|';
        else if (cp <= 0x250B || (cp >= 0x254C && cp <= 0x254F)) one[0] = '-';
        else one[0] = '+';
        one[1] = 0;
        return one;
    }
    if (cp >= 0x2800 && cp <= 0x28FF) return "*";
    if (cp >= 0x2580 && cp <= 0x259F) return "#";
    return "?";
}

static int text_put(cv_canvas *cv, int *x, int y, int limit, uint32_t cp, uint32_t rgb,
                    unsigned char attr)
{
    const char *f = cv->glyphs == CV_ASCII ? ascii_fold(cp) : NULL;
    int n = 0;
    if (f) {
        for (; *f; f++) {
            if (*x >= limit) return n;
            cv_cell *c = cv_at(cv, *x, y);
            if (c) { c->ch = (wchar_t)(unsigned char)*f; c->rgb = rgb; c->attr = attr; c->dots = 0; c->mark = 0; }
            (*x)++;
            n++;
        }
        return n;
    }
    if (*x >= limit) return 0;
    cv_cell *c = cv_at(cv, *x, y);
    if (c) { c->ch = (wchar_t)cp; c->rgb = rgb; c->attr = attr; c->dots = 0; c->mark = 0; }
    (*x)++;
    return 1;
}

int cv_text(cv_canvas *cv, int x, int y, const char *utf8, int max_w, uint32_t rgb,
            unsigned char attr)
{
    if (!utf8 || y < 0 || y >= cv->h) return 0;
    int limit = cv->w;
    if (max_w >= 0 && x + max_w < limit) limit = x + max_w;
    int n = 0;
    const unsigned char *s = (const unsigned char *)utf8;
    while (*s && x < limit) {
        uint32_t cp;
        s += utf8_next(s, &cp);
        if (cp < 0x20 || cp == 0x7F) cp = '?';
        if (cv_combining(cp)) { /* over the cell just written (dropped in ASCII) */
            cv_cell *c = n > 0 && cv->glyphs != CV_ASCII ? cv_at(cv, x - 1, y) : NULL;
            if (c && !c->mark) c->mark = (wchar_t)cp;
            continue;
        }
        if (x < 0) { x++; continue; }
        n += text_put(cv, &x, y, limit, cp, rgb, attr);
    }
    return n;
}

int cv_combining(uint32_t cp)
{
    return (cp >= 0x300 && cp <= 0x36F) || (cp >= 0x1AB0 && cp <= 0x1AFF) || (cp >= 0x1DC0 && cp <= 0x1DFF) ||
           (cp >= 0x20D0 && cp <= 0x20FF) || (cp >= 0xFE20 && cp <= 0xFE2F);
}

int cv_text_width(const cv_canvas *cv, const char *utf8)
{
    int n = 0;
    const unsigned char *s = (const unsigned char *)utf8;
    while (s && *s) {
        uint32_t cp;
        s += utf8_next(s, &cp);
        if (cv_combining(cp)) continue; /* no column of its own */
        const char *f = cv && cv->glyphs == CV_ASCII ? ascii_fold(cp) : NULL;
        n += f ? (int)strlen(f) : 1;
    }
    return n;
}

void cv_fill(cv_canvas *cv, int x, int y, int w, int h, wchar_t ch, uint32_t rgb,
             unsigned char attr)
{
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++) {
            cv_cell *c = cv_at(cv, i, j);
            if (c) { c->ch = ch; c->rgb = rgb; c->attr = attr; c->dots = 0; c->mark = 0; }
        }
}

void cv_box(cv_canvas *cv, int x, int y, int w, int h, const char *title, uint32_t rgb,
            unsigned char attr)
{
    if (w < 2 || h < 2) return;
    int a = cv->glyphs == CV_ASCII;
    wchar_t hz = a ? L'-' : 0x2500, vt = a ? L'|' : 0x2502;
    wchar_t tl = a ? L'+' : 0x250C, tr = a ? L'+' : 0x2510;
    wchar_t bl = a ? L'+' : 0x2514, br = a ? L'+' : 0x2518;
    cv_fill(cv, x + 1, y, w - 2, 1, hz, rgb, attr);
    cv_fill(cv, x + 1, y + h - 1, w - 2, 1, hz, rgb, attr);
    cv_fill(cv, x, y + 1, 1, h - 2, vt, rgb, attr);
    cv_fill(cv, x + w - 1, y + 1, 1, h - 2, vt, rgb, attr);
    cv_fill(cv, x, y, 1, 1, tl, rgb, attr);
    cv_fill(cv, x + w - 1, y, 1, 1, tr, rgb, attr);
    cv_fill(cv, x, y + h - 1, 1, 1, bl, rgb, attr);
    cv_fill(cv, x + w - 1, y + h - 1, 1, 1, br, rgb, attr);
    if (title && *title && w > 6) {
        int n = cv_text(cv, x + 2, y, " ", 1, rgb, attr);
        n += cv_text(cv, x + 3, y, title, w - 6, rgb, attr | CV_BOLD);
        cv_text(cv, x + 2 + n, y, " ", 1, rgb, attr);
    }
}

/* ---- charts ---------------------------------------------------------------------------- */

wchar_t cv_series_glyph(const ch_series *s, cv_glyphs g)
{
    if (g == CV_ASCII) {
        if (s->ghost) return L':';
        switch (s->dash) {
        case CH_DASH_DASHED: return L'+';
        case CH_DASH_DOTTED: return L'.';
        default: return L'*';
        }
    }
    if (s->ghost) return 0x2508; /* ┈ */
    switch (s->dash) {
    case CH_DASH_DASHED: return 0x254C; /* ╌ */
    case CH_DASH_DOTTED: return 0x2508; /* ┈ */
    default: return 0x2500;             /* ─ */
    }
}

/* Marker glyphs by shape: hollow circle, filled square, triangle, diamond, cross (UTF-8), or
 * o # ^ * x in ASCII. A series whose marker is CH_MARK_NONE, or a chart that mixes kinds
 * (overall/head/tail of two methods in one plot), uses its letter instead. */
wchar_t cv_series_marker(const ch_series *s, cv_glyphs g, int mixed_kinds)
{
    if (mixed_kinds || s->marker == CH_MARK_NONE) return s->letter ? (wchar_t)(unsigned char)s->letter : 0;
    int a = g == CV_ASCII;
    switch (s->marker) {
    case CH_MARK_CIRCLE: return a ? L'o' : 0x25CB;   /* ○ */
    case CH_MARK_SQUARE: return a ? L'#' : 0x25A0;   /* ■ */
    case CH_MARK_TRIANGLE: return a ? L'^' : 0x25B2; /* ▲ */
    case CH_MARK_DIAMOND: return a ? L'*' : 0x25C6;  /* ◆ */
    case CH_MARK_CROSS: return a ? L'x' : 0x271A;    /* ✚ */
    default: return s->letter ? (wchar_t)(unsigned char)s->letter : 0;
    }
}

/* Does the chart draw series of more than one kind (overall/head/tail) together? */
static int drawn(const ch_series *s, const cv_chart_opts *o)
{
    return !o || !o->only_kind || (int)s->kind == o->only_kind;
}

static int mixed_kinds(const ch_chart *c, const cv_chart_opts *o)
{
    int seen = -1;
    for (int i = 0; i < c->nseries; i++) {
        const ch_series *s = &c->series[i];
        if (s->ghost || !drawn(s, o) || s->kind == CH_KIND_NONE) continue;
        if (seen >= 0 && seen != (int)s->kind) return 1;
        seen = (int)s->kind;
    }
    return 0;
}

typedef struct {
    int legend_rows;
    int compact;       /* compact legend (per method + marker key) */
    int lw;            /* y tick label width */
    cv_rect area;      /* plot area in cells */
} chart_geom;

/* Legend items: a sample glyph (0 = none), marker letters, a name. The full legend has one item
 * per live series; the compact one (used when the full one does not fit) has one item per
 * method plus a key of the marker letters per kind ("o/O overall"). */
typedef struct {
    wchar_t sample;
    char letters[8];
    char name[64];
    uint32_t rgb;
    unsigned char attr;
} lg_item;

#define LG_MAX (CH_MAX_SERIES + 8)

static int lg_width(const cv_canvas *cv, const lg_item *it)
{
    return (it->sample ? 1 : 0) + cv_text_width(cv, it->letters) + (it->letters[0] || it->sample ? 1 : 0)
           + cv_text_width(cv, it->name) + 2;
}

static const char *kind_name(ch_kind k)
{
    return k == CH_KIND_OVERALL ? "overall" : k == CH_KIND_HEAD ? "head" : k == CH_KIND_TAIL ? "tail" : "";
}

static void wc_utf8(wchar_t wc, char *out, size_t n)
{
    uint32_t cp = (uint32_t)wc;
    if (n < 5) { if (n) out[0] = 0; return; }
    if (!cp) out[0] = 0;
    else if (cp < 0x80) { out[0] = (char)cp; out[1] = 0; }
    else if (cp < 0x800) { out[0] = (char)(0xC0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3F)); out[2] = 0; }
    else {
        out[0] = (char)(0xE0 | (cp >> 12)); out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F)); out[3] = 0;
    }
}

static int lg_items(const cv_canvas *cv, const ch_chart *c, int compact, int color,
                    const cv_chart_opts *o, lg_item *it)
{
    int n = 0, ghost = 0, mixed = mixed_kinds(c, o);
    for (int i = 0; i < c->nseries && n < LG_MAX - 1; i++) {
        const ch_series *s = &c->series[i];
        if (!drawn(s, o)) continue;
        if (s->ghost) { ghost = 1; continue; }
        uint32_t rgb = color ? s->rgb : CV_RGB_DEFAULT;
        if (!compact || s->kind == CH_KIND_NONE) {
            it[n] = (lg_item){cv_series_glyph(s, cv->glyphs), "", "", rgb, 0};
            wchar_t mk = cv_series_marker(s, cv->glyphs, mixed);
            wc_utf8(mk, it[n].letters, sizeof it[n].letters);
            /* one kind drawn: the legend names the method only ("GSR", not "GSR tail") */
            const char *nm = !mixed && s->kind != CH_KIND_NONE && s->method_name[0] ? s->method_name : s->name;
            snprintf(it[n].name, sizeof it[n].name, "%s", nm);
            n++;
            continue;
        }
        const char *mn = s->method_name[0] ? s->method_name : s->name;
        int dup = 0;
        for (int k = 0; k < n; k++) dup |= !strcmp(it[k].name, mn) && it[k].sample;
        if (dup) continue;
        it[n] = (lg_item){cv_series_glyph(s, cv->glyphs), "", "", rgb, 0};
        snprintf(it[n].name, sizeof it[n].name, "%s", mn);
        n++;
    }
    if (compact) {
        for (int kd = CH_KIND_OVERALL; kd <= CH_KIND_TAIL && n < LG_MAX - 1; kd++) {
            char let[8] = "";
            for (int i = 0; i < c->nseries; i++) {
                const ch_series *s = &c->series[i];
                if (s->ghost || !drawn(s, o) || (int)s->kind != kd || !s->letter || strchr(let, s->letter)) continue;
                size_t L = strlen(let);
                if (L + 3 > sizeof let) break;
                if (L) let[L++] = '/';
                let[L++] = s->letter;
                let[L] = 0;
            }
            if (!let[0]) continue;
            it[n] = (lg_item){0, "", "", CV_RGB_DEFAULT, 0};
            snprintf(it[n].letters, sizeof it[n].letters, "%s", let);
            snprintf(it[n].name, sizeof it[n].name, "%s", kind_name((ch_kind)kd));
            n++;
        }
    }
    if (ghost) {
        it[n] = (lg_item){cv->glyphs == CV_ASCII ? L':' : 0x2508, "", "baseline", CV_RGB_DEFAULT, CV_DIM};
        if (c->ghost_label[0]) snprintf(it[n].name, sizeof it[n].name, "%s", c->ghost_label);
        n++;
    }
    return n;
}

/* Rows the items take when wrapped into width w after the y label (first row). */
static int lg_rows(const cv_canvas *cv, const ch_chart *c, const lg_item *it, int n, int w)
{
    int rows = 1, used = cv_text_width(cv, c->y.label) + 2;
    for (int i = 0; i < n; i++) {
        int ew = lg_width(cv, &it[i]);
        if (used + ew - 2 > w && used > 0) { rows++; used = 0; }
        used += ew;
    }
    return rows;
}

static void chart_geometry(const cv_canvas *cv, int x, int y, int w, int h, const ch_chart *c,
                           const cv_chart_opts *o, chart_geom *g)
{
    memset(g, 0, sizeof *g);
    int lw = 1;
    for (int i = 0; i < c->y.nticks; i++) {
        int tw = cv_text_width(cv, c->y.tick_labels[i]);
        if (tw > lw) lw = tw;
    }
    if (lw > w / 3) lw = w / 3;
    if (o && o->hide_yticks) lw = 0;
    g->lw = lw;
    int rows = 0;
    g->compact = 0;
    if (o && o->legend == 2) rows = 1;
    else if (!o || o->legend) {
        int allowed = h >= 9 ? 2 : 1;
        lg_item it[LG_MAX];
        int n = lg_items(cv, c, 0, 1, o, it);
        rows = lg_rows(cv, c, it, n, w);
        if (rows > allowed) {
            g->compact = 1;
            n = lg_items(cv, c, 1, 1, o, it);
            rows = lg_rows(cv, c, it, n, w);
        }
        if (rows > allowed) rows = allowed;
    }
    g->legend_rows = rows;
    g->area.x0 = x + lw + 1;
    g->area.x1 = x + w;
    g->area.y0 = y + rows;
    g->area.y1 = y + h - 2;
}

void cv_chart_area(const cv_canvas *cv, int x, int y, int w, int h, const ch_chart *c,
                   cv_rect *area)
{
    chart_geom g;
    cv_chart_opts o = {1, 1, 1, 0, 0};
    chart_geometry(cv, x, y, w, h, c, &o, &g);
    *area = g.area;
}

/* Same mapping as ch_axis_frac (gs_chart.h), kept local so the canvas links on its own. */
static double axis_frac(const ch_axis *ax, double v)
{
    if (!isfinite(v)) return NAN;
    if (ax->scale == CH_LOG10) {
        double u = v - ax->shift, lo = ax->lo - ax->shift, hi = ax->hi - ax->shift;
        if (u <= 0 || lo <= 0 || hi <= 0) return NAN;
        double l0 = log10(lo), l1 = log10(hi);
        if (l1 == l0) return 0.5;
        return (log10(u) - l0) / (l1 - l0);
    }
    if (ax->hi == ax->lo) return 0.5;
    return (v - ax->lo) / (ax->hi - ax->lo);
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int cv_draw_chart(cv_canvas *cv, int x, int y, int w, int h, const ch_chart *c,
                  const cv_chart_opts *o)
{
    cv_chart_opts def = {1, 1, 1, 0, 0};
    if (!o) o = &def;
    if (w < (o->hide_yticks ? CV_CHART_MIN_W / 2 : CV_CHART_MIN_W) || h < CV_CHART_MIN_H) {
        cv_text(cv, x, y, "(too small)", w, CV_RGB_DEFAULT, CV_DIM);
        return gs_error(GS_EINPUT, "chart: %dx%d cells is too small (need %dx%d)", w, h,
                        CV_CHART_MIN_W, CV_CHART_MIN_H);
    }
    int ascii = cv->glyphs == CV_ASCII;
    chart_geom g;
    chart_geometry(cv, x, y, w, h, c, o, &g);
    const cv_rect *a = &g.area;
    int pw = a->x1 - a->x0, ph = a->y1 - a->y0;
    int sx, sy;
    cv_dots_per_cell(cv->glyphs, &sx, &sy);
    int PW = pw * sx, PH = ph * sy;
    uint32_t axis_rgb = CV_RGB_DEFAULT;

    /* legend */
    if (g.legend_rows > 0) {
        int lx = x, ly = y;
        lx += cv_text(cv, lx, ly, c->y.label, w, axis_rgb, CV_BOLD);
        lx += 2;
        lg_item it[LG_MAX];
        int n = o->legend == 2 ? 0 : lg_items(cv, c, g.compact, o->color, o, it);
        for (int i = 0; i < n; i++) {
            int ew = lg_width(cv, &it[i]);
            if (lx + ew - 2 > x + w) {
                if (ly + 1 < y + g.legend_rows) { ly++; lx = x; }
                else break;
            }
            int k = lx;
            if (it[i].sample) cv_fill(cv, k++, ly, 1, 1, it[i].sample, it[i].rgb, it[i].attr);
            k += cv_text(cv, k, ly, it[i].letters, -1, it[i].rgb, it[i].attr | CV_BOLD);
            if (it[i].sample || it[i].letters[0]) k++;
            cv_text(cv, k, ly, it[i].name, x + w - k, it[i].rgb, it[i].attr);
            lx += ew;
        }
    }

    /* y axis: ticks and labels */
    int axcol = x + g.lw;
    cv_fill(cv, axcol, a->y0, 1, ph, ascii ? L'|' : 0x2502, axis_rgb, 0);
    for (int i = 0; i < c->y.nticks; i++) {
        double f = axis_frac(&c->y, c->y.ticks[i]);
        if (!isfinite(f) || f < -1e-9 || f > 1 + 1e-9) continue;
        int py = (int)lround((1 - clampd(f, 0, 1)) * (PH - 1));
        int row = a->y0 + py / sy;
        int tw = cv_text_width(cv, c->y.tick_labels[i]);
        if (g.lw > 0) cv_text(cv, axcol - tw < x ? x : axcol - tw, row, c->y.tick_labels[i], g.lw, axis_rgb, 0);
        cv_fill(cv, axcol, row, 1, 1, ascii ? L'+' : 0x2524, axis_rgb, 0);
    }
    /* x axis */
    int axrow = a->y1;
    cv_fill(cv, a->x0, axrow, pw, 1, ascii ? L'-' : 0x2500, axis_rgb, 0);
    cv_fill(cv, axcol, axrow, 1, 1, ascii ? L'+' : 0x2514, axis_rgb, 0);
    int last_end = x - 1;
    for (int i = 0; i < c->x.nticks; i++) {
        double f = axis_frac(&c->x, c->x.ticks[i]);
        if (!isfinite(f) || f < -1e-9 || f > 1 + 1e-9) continue;
        int px = (int)lround(clampd(f, 0, 1) * (PW - 1));
        int col = a->x0 + px / sx;
        cv_fill(cv, col, axrow, 1, 1, ascii ? L'+' : 0x252C, axis_rgb, 0);
        int tw = cv_text_width(cv, c->x.tick_labels[i]);
        int lx = col - tw / 2;
        if (lx + tw > x + w) lx = x + w - tw;
        if (lx <= last_end + 1 && last_end >= x) continue; /* would touch the previous label */
        cv_text(cv, lx, axrow + 1, c->x.tick_labels[i], tw, axis_rgb, 0);
        last_end = lx + tw - 1;
    }
    int xlw = cv_text_width(cv, c->x.label);
    if (xlw > 0 && last_end + 2 + xlw <= x + w)
        cv_text(cv, x + w - xlw, axrow + 1, c->x.label, xlw, axis_rgb, CV_DIM);

    /* current-task mark */
    if (isfinite(c->mark_x)) {
        double f = axis_frac(&c->x, c->mark_x);
        if (isfinite(f) && f >= -1e-9 && f <= 1 + 1e-9) {
            int col = a->x0 + (int)lround(clampd(f, 0, 1) * (PW - 1)) / sx;
            cv_fill(cv, col, a->y0, 1, ph, ascii ? L':' : 0x250A, axis_rgb, CV_DIM);
            cv_fill(cv, col, axrow, 1, 1, ascii ? L'^' : 0x253C, axis_rgb, CV_BOLD);
        }
    }

    /* bands (mean ± std over seeds): their two edges, dim and dotted, under every series; an
     * edge point only where the series itself has one (hidden tasks hide the band too) */
    for (int i = 0; i < c->nseries; i++) {
        const ch_series *s = &c->series[i];
        if (!s->ylo || !s->yhi || s->ghost || !drawn(s, o)) continue;
        uint32_t rgb = o->color ? s->rgb : CV_RGB_DEFAULT;
        for (int e = 0; e < 2; e++) {
            const double *ye = e ? s->yhi : s->ylo;
            cv_pen pen = {CH_DASH_DOTTED, 0};
            int have_prev = 0, ppx = 0, ppy = 0;
            for (int k = 0; k < s->n; k++) {
                double fx = axis_frac(&c->x, s->x[k]), fy = axis_frac(&c->y, ye[k]);
                if (!isfinite(s->y[k]) || !isfinite(ye[k]) || !isfinite(fx) || !isfinite(fy)) { have_prev = 0; continue; }
                int px = a->x0 * sx + (int)lround(clampd(fx, -1, 2) * (PW - 1));
                int py = a->y0 * sy + (int)lround((1 - clampd(fy, -1, 2)) * (PH - 1));
                if (have_prev) cv_line(cv, a, ppx, ppy, px, py, &pen, rgb, CV_DIM, ascii ? L'.' : L'*');
                have_prev = 1;
                ppx = px;
                ppy = py;
            }
        }
    }

    /* series: ghosts first, then the others (pass 0, 1); then every series' markers (pass 2, 3):
     * a later series' line never covers an earlier one's markers, so two curves sharing cells
     * (close spectra on a short panel) still show both. A reference line (no method's: τ) adds
     * its dots under the curves: a cell a curve drew keeps the curve's colour (CV_UNDER) */
    int mixed = mixed_kinds(c, o), nth = 0;
    for (int pass = 0; pass < 4; pass++) {
        int marks = pass >= 2;
        if (pass == 2) nth = 0;
        for (int i = 0; i < c->nseries; i++) {
            const ch_series *s = &c->series[i];
            if ((pass % 2 == 0) != (s->ghost != 0) || !drawn(s, o)) continue;
            uint32_t rgb = o->color ? s->rgb : CV_RGB_DEFAULT;
            unsigned char attr = (unsigned char)((s->ghost ? CV_DIM : 0) | (s->method < 0 ? CV_UNDER : 0));
            wchar_t glyph = cv_series_glyph(s, cv->glyphs);
            cv_pen pen = {s->ghost ? CH_DASH_DOTTED : s->dash, 0};
            int have_prev = 0, ppx = 0, ppy = 0, nvalid = 0;
            for (int k = 0; k < s->n; k++) {
                double fx = axis_frac(&c->x, s->x[k]);
                double fy = axis_frac(&c->y, s->y[k]);
                if (!isfinite(s->y[k]) || !isfinite(s->x[k]) || !isfinite(fx) || !isfinite(fy)) {
                    have_prev = 0;
                    continue;
                }
                nvalid++;
                int px = a->x0 * sx + (int)lround(clampd(fx, -1, 2) * (PW - 1));
                int py = a->y0 * sy + (int)lround((1 - clampd(fy, -1, 2)) * (PH - 1));
                int next_ok = k + 1 < s->n && isfinite(s->y[k + 1]) && isfinite(s->x[k + 1])
                              && isfinite(axis_frac(&c->y, s->y[k + 1]))
                              && isfinite(axis_frac(&c->x, s->x[k + 1]));
                if (marks) { /* the line is drawn: only count the points */
                } else if (have_prev)
                    cv_line(cv, a, ppx, ppy, px, py, &pen, rgb, attr, glyph);
                else if (!next_ok) /* isolated point: always visible */
                    cv_dot(cv, a, px, py, rgb, attr, glyph);
                have_prev = 1;
                ppx = px;
                ppy = py;
            }
            /* markers: at every point when they fit 3 cells apart, else every few cells with a
             * phase per series so two series' markers do not fall on the same cells */
            wchar_t mk = cv_series_marker(s, cv->glyphs, mixed);
            if (marks && o->markers && !s->ghost && mk && nvalid > 0) {
                /* up to one point per cell: a marker per point (two cells apart at least);
                 * denser series (spectra): one marker every `period` cells, phase per series */
                int dense = nvalid > pw, last = -1000, period = 6;
                int phase = (nth * 3) % period;
                for (int k = 0; k < s->n; k++) {
                    double fx = axis_frac(&c->x, s->x[k]);
                    double fy = axis_frac(&c->y, s->y[k]);
                    if (!isfinite(s->y[k]) || !isfinite(fx) || !isfinite(fy)) continue;
                    if (fx < -1e-9 || fx > 1 + 1e-9 || fy < -1e-9 || fy > 1 + 1e-9) continue;
                    int col = a->x0 + (int)lround(clampd(fx, 0, 1) * (PW - 1)) / sx;
                    int row = a->y0 + (int)lround((1 - clampd(fy, 0, 1)) * (PH - 1)) / sy;
                    /* letters (mixed kinds) need more room than shapes to stay readable */
                    if (dense ? (col - last < period || ((col - a->x0) % period) != phase) : col - last < (mixed ? 4 : 2))
                        continue;
                    cv_fill(cv, col, row, 1, 1, mk, rgb, CV_BOLD);
                    last = col;
                }
            }
            nth++;
        }
    }

    /* note (e.g. pending tasks) at the top right of the plot area */
    if (c->note[0]) { /* whole, else its leading "; " parts that fit: a cut part would say something else */
        char note[sizeof c->note];
        snprintf(note, sizeof note, "%s", c->note);
        int nw = cv_text_width(cv, note);
        while (nw > pw && ch_note_cut(note)) nw = cv_text_width(cv, note);
        if (nw <= pw) cv_text(cv, a->x1 - nw, a->y0, note, nw, axis_rgb, CV_DIM);
    }
    return GS_OK;
}

int cv_draw_legend(cv_canvas *cv, int x, int y, int w, const ch_chart *c, const cv_chart_opts *o)
{
    lg_item it[LG_MAX];
    int n = lg_items(cv, c, 0, o ? o->color : 1, o, it), lx = x, k;
    for (int i = 0; i < n; i++) {
        int ew = lg_width(cv, &it[i]);
        if (lx + ew - 2 > x + w) break;
        k = lx;
        if (it[i].sample) cv_fill(cv, k++, y, 1, 1, it[i].sample, it[i].rgb, it[i].attr);
        k += cv_text(cv, k, y, it[i].letters, -1, it[i].rgb, it[i].attr | CV_BOLD);
        if (it[i].sample || it[i].letters[0]) k++;
        cv_text(cv, k, y, it[i].name, x + w - k, it[i].rgb, it[i].attr);
        lx += ew;
    }
    return lx - x;
}

char *cv_row_utf8(const cv_canvas *cv, int y, char *buf, size_t n)
{
    size_t k = 0;
    if (n == 0) return buf;
    for (int x = 0; x < cv->w && y >= 0 && y < cv->h; x++) {
        uint32_t cp = (uint32_t)cv->cells[(long)y * cv->w + x].ch;
        char tmp[4];
        size_t m;
        if (cp < 0x80) { tmp[0] = (char)cp; m = 1; }
        else if (cp < 0x800) { tmp[0] = (char)(0xC0 | (cp >> 6)); tmp[1] = (char)(0x80 | (cp & 0x3F)); m = 2; }
        else if (cp < 0x10000) {
            tmp[0] = (char)(0xE0 | (cp >> 12)); tmp[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
            tmp[2] = (char)(0x80 | (cp & 0x3F)); m = 3;
        } else {
            tmp[0] = (char)(0xF0 | (cp >> 18)); tmp[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
            tmp[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); tmp[3] = (char)(0x80 | (cp & 0x3F)); m = 4;
        }
        if (k + m + 1 > n) break;
        memcpy(buf + k, tmp, m);
        k += m;
    }
    buf[k] = 0;
    return buf;
}
