/* tui/tui_assets.c — the TUI's data files: tours and colour themes, found through the project's
 * assets lookup (gs_assets.h: $GSRSCOPE_ASSETS, the source tree, the installed copy). A NAME
 * holding '/' is a path. Theme parsing is pure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_assets.h"
#include "gs_common.h"
#include "tui_int.h"

int tui_asset_find(const char *kind, const char *name, const char *ext, char *out, size_t n)
{
    if (strchr(name, '/')) {
        snprintf(out, n, "%s", name);
        if (access(out, R_OK) == 0) return GS_OK;
        return gs_error(GS_EINPUT, "%s: cannot open: %s", name, strerror(errno));
    }
    char asset[256];
    snprintf(asset, sizeof asset, "%s/%s%s", kind, name, ext);
    return as_path(asset, out, n);
}

/* ---- themes ---------------------------------------------------------------------------------- */

static int parse_colour(const char *v, uint32_t *out)
{
    if (!strcmp(v, "terminal")) { *out = CV_RGB_DEFAULT; return 1; }
    if (v[0] != '#' || strlen(v) != 7) return 0;
    char *end;
    unsigned long x = strtoul(v + 1, &end, 16);
    if (*end) return 0;
    *out = (uint32_t)x;
    return 1;
}

int tui_theme_parse(const char *text, const char *path, tui_theme *t)
{
    memset(t, 0, sizeof *t);
    t->text = t->background = CV_RGB_DEFAULT;
    t->gacl = 0xe15759;
    t->gsr = 0x4e79a7;
    t->colour = 1;
    char buf[256];
    int line = 0;
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        line++;
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), p);
        p = e ? e + 1 : p + len;
        char *s = buf;
        while (*s == ' ' || *s == '\t') s++;
        size_t n = strlen(s);
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = 0;
        if (!*s || *s == '#') continue;
        char *colon = strchr(s, ':');
        if (!colon) return gs_error(GS_EINPUT, "%s: line %d: expected \"role: colour\", got \"%s\"", path, line, s);
        *colon = 0;
        char *v = colon + 1;
        while (*v == ' ' || *v == '\t') v++;
        uint32_t c;
        if (!strcmp(s, "colour")) {
            if (strcmp(v, "on") && strcmp(v, "off"))
                return gs_error(GS_EINPUT, "%s: line %d: colour: expected on or off, got \"%s\"", path, line, v);
            t->colour = !strcmp(v, "on");
            continue;
        }
        uint32_t *dst = !strcmp(s, "text") ? &t->text : !strcmp(s, "background") ? &t->background
                        : !strcmp(s, "gacl") ? &t->gacl : !strcmp(s, "gsr") ? &t->gsr : NULL;
        if (!dst)
            return gs_error(GS_EINPUT, "%s: line %d: unknown role \"%s\" (text, background, gacl, gsr, colour)", path, line, s);
        if (!parse_colour(v, &c))
            return gs_error(GS_EINPUT, "%s: line %d: %s: expected #rrggbb or terminal, got \"%s\"", path, line, s, v);
        *dst = c;
    }
    return GS_OK;
}

int tui_theme_load(const char *name, tui_theme *t)
{
    char path[4200];
    int st = tui_asset_find("themes", name, ".theme", path, sizeof path);
    if (st) return st;
    FILE *f = fopen(path, "rb");
    if (!f) return gs_error(GS_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    int big = !feof(f);
    fclose(f);
    if (big) return gs_error(GS_EINPUT, "%s: larger than %zu bytes", path, sizeof text - 1);
    text[n] = 0;
    return tui_theme_parse(text, path, t);
}
