/* tui/tour.c — guided tours in plain text (gs_tour.h): parsing and validation only. */
#include "gs_tour.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_common.h"

static const char *const VIEWS[] = {"stable", "tau", "theorem", "erank", "class", "ratio", "claims", "collapse", "lens"};

const char *const *tr_view_names(int *n)
{
    *n = (int)(sizeof VIEWS / sizeof VIEWS[0]);
    return VIEWS;
}

void tr_free(tr_tour *t)
{
    if (!t) return;
    free(t->steps);
    memset(t, 0, sizeof *t);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

static int step_done(const tr_step *s, const char *path, int line)
{
    if (s->ntext < 2)
        return gs_error(GS_EINPUT, "%s: line %d: step \"%s\" needs two to four text: lines (has %d)", path, line,
                        s->title, s->ntext);
    return GS_OK;
}

int tr_parse(const char *text, const char *path, tr_tour *t)
{
    memset(t, 0, sizeof *t);
    int cap = 0, st = GS_OK, line = 0, step_line = 0;
    const char *p = text;
    char buf[512];
    while (*p && st == GS_OK) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        line++;
        if (len >= sizeof buf) { st = gs_error(GS_EINPUT, "%s: line %d: longer than %zu bytes", path, line, sizeof buf - 1); break; }
        memcpy(buf, p, len);
        buf[len] = 0;
        p = e ? e + 1 : p + len;
        char *s = trim(buf);
        if (!*s || *s == '#') continue;
        char *colon = strchr(s, ':');
        if (!colon) { st = gs_error(GS_EINPUT, "%s: line %d: expected \"key: value\", got \"%s\"", path, line, s); break; }
        *colon = 0;
        char *key = trim(s), *val = trim(colon + 1);
        tr_step *cur = t->n ? &t->steps[t->n - 1] : NULL;
        if (!strcmp(key, "title") && !cur) snprintf(t->title, sizeof t->title, "%s", val);
        else if (!strcmp(key, "data") && !cur) {
            if (strcmp(val, "bundled") && strcmp(val, "mobilenetv2") && strcmp(val, "synthetic")) {
                st = gs_error(GS_EINPUT, "%s: line %d: data: expected bundled, mobilenetv2 or synthetic, got \"%s\"", path,
                              line, val);
                break;
            }
            snprintf(t->data, sizeof t->data, "%s", val);
        } else if (!strcmp(key, "step")) {
            if (cur && (st = step_done(cur, path, step_line))) break;
            if (t->n == cap) {
                cap = cap ? 2 * cap : 16;
                tr_step *ns = realloc(t->steps, (size_t)cap * sizeof *ns);
                if (!ns) { st = gs_error(GS_ENOMEM, "%s: out of memory", path); break; }
                t->steps = ns;
            }
            cur = &t->steps[t->n++];
            memset(cur, 0, sizeof *cur);
            cur->view = -1;
            cur->future = -1;
            step_line = line;
            snprintf(cur->title, sizeof cur->title, "%s", val);
        } else if (!cur) {
            st = gs_error(GS_EINPUT, "%s: line %d: \"%s:\" before the first step: line", path, line, key);
        } else if (!strcmp(key, "preset")) {
            snprintf(cur->preset, sizeof cur->preset, "%s", val);
        } else if (!strcmp(key, "set")) {
            char *save = NULL;
            for (char *w = strtok_r(val, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
                if (!strchr(w, '=') || cur->nset == TR_MAX_SET) {
                    st = gs_error(GS_EINPUT, "%s: line %d: set: expected up to %d NAME=VALUE words, got \"%s\"", path,
                                  line, TR_MAX_SET, w);
                    break;
                }
                snprintf(cur->set[cur->nset++], sizeof cur->set[0], "%s", w);
            }
        } else if (!strcmp(key, "task")) {
            char *end;
            long v = strtol(val, &end, 10);
            if (!strcmp(val, "last")) cur->task = -1;
            else if (end != val && !*end && v >= 1 && v <= 100000) cur->task = (int)v;
            else st = gs_error(GS_EINPUT, "%s: line %d: task: expected a number ≥ 1 or last, got \"%s\"", path, line, val);
        } else if (!strcmp(key, "view")) {
            int nv, k = -1;
            const char *const *names = tr_view_names(&nv);
            for (int i = 0; i < nv; i++)
                if (!strcmp(val, names[i])) k = i;
            if (k < 0)
                st = gs_error(GS_EINPUT, "%s: line %d: view: unknown \"%s\" (stable, tau, theorem, erank, class, ratio, "
                              "claims, collapse)", path, line, val);
            cur->view = k;
        } else if (!strcmp(key, "panel")) {
            static const char *P[] = {"", "accuracy", "spectrum", "lower", "params"};
            int k = -1;
            for (int i = 1; i < 5; i++)
                if (!strcmp(val, P[i])) k = i;
            if (k < 0) st = gs_error(GS_EINPUT, "%s: line %d: panel: expected accuracy, spectrum, lower or params, got \"%s\"",
                                     path, line, val);
            cur->panel = k;
        } else if (!strcmp(key, "future")) {
            if (!strcmp(val, "on")) cur->future = 1;
            else if (!strcmp(val, "off")) cur->future = 0;
            else st = gs_error(GS_EINPUT, "%s: line %d: future: expected on or off, got \"%s\"", path, line, val);
        } else if (!strcmp(key, "text")) {
            if (cur->ntext == TR_MAX_TEXT)
                st = gs_error(GS_EINPUT, "%s: line %d: step \"%s\" has more than %d text: lines", path, line, cur->title,
                              TR_MAX_TEXT);
            else snprintf(cur->text[cur->ntext++], sizeof cur->text[0], "%s", val);
        } else {
            st = gs_error(GS_EINPUT, "%s: line %d: unknown key \"%s\" (title, data, step, preset, set, task, view, panel, "
                          "future, text)", path, line, key);
        }
    }
    if (st == GS_OK && t->n == 0) st = gs_error(GS_EINPUT, "%s: no step: line", path);
    if (st == GS_OK) st = step_done(&t->steps[t->n - 1], path, step_line);
    if (st != GS_OK) tr_free(t);
    return st;
}

int tr_load(const char *path, tr_tour *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f) return gs_error(GS_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    char *buf = malloc(1 << 20);
    if (!buf) { fclose(f); return gs_error(GS_ENOMEM, "%s: out of memory", path); }
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    int err = ferror(f), more = !feof(f) && fgetc(f) != EOF;
    fclose(f);
    if (err || more) {
        free(buf);
        return gs_error(GS_EINPUT, "%s: %s", path, err ? "read error" : "larger than 1 MiB");
    }
    buf[n] = 0;
    if (memchr(buf, 0, n)) {
        free(buf);
        return gs_error(GS_EINPUT, "%s: not a text file (holds a NUL byte)", path);
    }
    int st = tr_parse(buf, path, t);
    free(buf);
    return st;
}
