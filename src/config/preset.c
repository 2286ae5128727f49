/* config/preset.c — presets read from assets/presets (gs_preset.h). */
#include "gs_preset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_common.h"

static char g_names[PS_MAX_PRESETS][AS_MAX_NAME];
static int g_count = -1;
static ps_preset g_loaded[PS_MAX_PRESETS];
static int g_ok[PS_MAX_PRESETS];

static void scan(void)
{
    if (g_count >= 0) return;
    int n = as_list("presets", g_names, PS_MAX_PRESETS);
    g_count = n < 0 ? 0 : n;
}

int ps_count(void) { scan(); return g_count; }

int ps_find(const char *name)
{
    scan();
    for (int i = 0; name && i < g_count; i++)
        if (!strcmp(g_names[i], name)) return i;
    return -1;
}

const char *ps_list(void)
{
    static char buf[PS_MAX_PRESETS * (AS_MAX_NAME + 2)];
    scan();
    buf[0] = 0;
    for (int i = 0; i < g_count; i++) {
        size_t L = strlen(buf);
        snprintf(buf + L, sizeof buf - L, "%s%s", i ? ", " : "", g_names[i]);
    }
    return g_count ? buf : "none found";
}

/* Parse the text of one preset file into p (values are checked when applied). */
static int parse(ps_preset *p, char *text)
{
    int lineno = 0;
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        lineno++;
        size_t L = strlen(line);
        if (L && line[L - 1] == '\r') line[--L] = 0;
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s || *s == '#') continue;
        char *eq = strchr(s, '=');
        if (!eq || eq == s)
            return gs_error(GS_EINPUT, "%s: line %d: expected name=value, got '%.60s'", p->path, lineno, s);
        if (!strncmp(s, "title=", 6)) { snprintf(p->title, sizeof p->title, "%s", s + 6); continue; }
        size_t nl = (size_t)(eq - s);
        while (nl && (s[nl - 1] == ' ' || s[nl - 1] == '\t')) nl--;
        for (int i = 0; i < p->n_assign; i++) { /* a key set twice: refused, as a session does */
            const char *a = p->assign[i];
            size_t al = strcspn(a, "= \t");
            if (al == nl && !strncmp(a, s, nl))
                return gs_error(GS_EINPUT, "%s: line %d: '%.*s' is set twice (first on line %d)", p->path, lineno,
                                (int)nl, s, p->lines[i]);
        }
        if (p->n_assign >= PS_MAX_ASSIGN)
            return gs_error(GS_EINPUT, "%s: line %d: more than %d settings", p->path, lineno, PS_MAX_ASSIGN);
        if (strlen(s) >= sizeof p->assign[0])
            return gs_error(GS_EINPUT, "%s: line %d: line too long", p->path, lineno);
        p->lines[p->n_assign] = lineno;
        snprintf(p->assign[p->n_assign++], sizeof p->assign[0], "%s", s);
    }
    if (!p->title[0]) snprintf(p->title, sizeof p->title, "preset %s", p->name);
    return GS_OK;
}

int ps_load(const char *name, ps_preset *out)
{
    memset(out, 0, sizeof *out);
    char root[4096];
    int st = as_root(root, sizeof root); /* no assets folder: say where it was looked for */
    if (st) return st;
    if (ps_find(name) < 0) return gs_error(GS_EINPUT, "--preset: unknown preset '%s' (known: %s)", name, ps_list());
    snprintf(out->name, sizeof out->name, "%s", name);
    char asset[AS_MAX_NAME + 16], *text;
    size_t len;
    snprintf(asset, sizeof asset, "presets/%s", name);
    st = as_read(asset, &text, &len, out->path, sizeof out->path);
    if (st) return st;
    st = parse(out, text);
    free(text);
    if (!st) {
        /* every value must be valid now, not only when someone applies it */
        op_opts probe;
        op_defaults(&probe);
        st = ps_apply(out, &probe);
    }
    return st;
}

const ps_preset *ps_get(int i)
{
    scan();
    if (i < 0 || i >= g_count) return NULL;
    if (!g_ok[i]) {
        if (ps_load(g_names[i], &g_loaded[i])) return NULL;
        g_ok[i] = 1;
    }
    return &g_loaded[i];
}

int ps_apply(const ps_preset *p, op_opts *o)
{
    char from[AS_MAX_NAME + 16];
    snprintf(from, sizeof from, "preset %s", p->name);
    const char *was = o->from;
    o->from = from;
    int st = GS_OK;
    for (int i = 0; i < p->n_assign && !st; i++) {
        char name[64];
        const char *a = p->assign[i], *eq = strchr(a, '=');
        size_t nl = (size_t)(eq - a);
        while (nl && (a[nl - 1] == ' ' || a[nl - 1] == '\t')) nl--;
        if (nl >= sizeof name) nl = sizeof name - 1;
        memcpy(name, a, nl);
        name[nl] = 0;
        const char *v = eq + 1;
        while (*v == ' ' || *v == '\t') v++;
        if (op_set(o, name, v) != GS_OK) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", gs_last_error());
            st = gs_error(GS_EINPUT, "%s: line %d: %s", p->path, p->lines[i], msg);
        }
    }
    o->from = was;
    return st;
}

int ps_apply_name(const char *name, op_opts *o)
{
    int i = ps_find(name);
    const ps_preset *p = ps_get(i);
    if (!p) {
        ps_preset tmp;
        return ps_load(name, &tmp); /* the reason: no assets, unknown name, broken file */
    }
    return ps_apply(p, o);
}
