/* config/tuned.c — the per-method values of --tuned FILE and --set METHOD.KEY=VALUE read and
 * checked against the parameter table (gs_tuned.h). */
#include "gs_tuned.h"
#include "gs_common.h"
#include "gs_opts.h"
#include "gs_io.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TU_MAX_BYTES (1 << 20) /* a tuned file is a few lines: larger is refused */

void tu_free(tu_list *l)
{
    free(l->e);
    memset(l, 0, sizeof *l);
}

/* s without its leading and trailing white space (in place). */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    return s;
}

/* One value "METHOD.KEY=VALUE" (text, modified) from `where` appended to l. The value is read by
 * the row as the command line reads it (op_set on the defaults): its refusal, after where and
 * METHOD.KEY, is the message. */
static int add_value(tu_list *l, char *text, const char *where, op_opts *scratch)
{
    char *eq = strchr(text, '=');
    if (!eq) return gs_error(GS_EINPUT, "%s: expected METHOD.KEY=VALUE (e.g. gacl.tau=1.5), got '%s'", where, trim(text));
    *eq = '\0';
    char *lhs = trim(text), *val = trim(eq + 1);
    char *dot = strrchr(lhs, '.');
    if (!dot || dot == lhs || !dot[1])
        return gs_error(GS_EINPUT, "%s: '%s' is not METHOD.KEY (e.g. gacl.tau=1.5)", where, lhs);
    *dot = '\0';
    char *method = trim(lhs), *key = trim(dot + 1);
    char what[112];
    snprintf(what, sizeof what, "%s.%s", method, key);
    const pa_param *r = pa_find(key);
    if (!r || pa_params_off(r) < 0 || !r->dep) {
        char keys[512] = "";
        for (int i = 0; i < pa_count(); i++) {
            const pa_param *k = &pa_table()[i];
            if (pa_params_off(k) < 0 || !k->dep) continue;
            size_t L = strlen(keys);
            snprintf(keys + L, sizeof keys - L, "%s%s", L ? ", " : "", pa_key(k));
        }
        return gs_error(GS_EINPUT, "%s: %s: '%s' is not a method's parameter (keys: %s)", where, what, key, keys);
    }
    if (!*method || strlen(method) >= sizeof l->e[0].method)
        return gs_error(GS_EINPUT, "%s: %s: give a method name before the '.'", where, what);
    if (!*val) return gs_error(GS_EINPUT, "%s: %s: no value after '='", where, what);
    op_defaults(scratch);
    if (op_set(scratch, r->name, val)) {
        char why[512];
        snprintf(why, sizeof why, "%s", gs_last_error());
        return gs_error(GS_EINPUT, "%s: %s: %s", where, what, why);
    }
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        tu_entry *e = realloc(l->e, (size_t)cap * sizeof *e);
        if (!e) return gs_error(GS_ENOMEM, "%s: out of memory", where);
        l->e = e;
        l->cap = cap;
    }
    tu_entry *e = &l->e[l->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->method, sizeof e->method, "%s", method);
    e->row = r;
    e->value = pa_get(scratch, r);
    snprintf(e->what, sizeof e->what, "%s", what);
    snprintf(e->where, sizeof e->where, "%s", where);
    return GS_OK;
}

static int read_file(tu_list *l, const char *file, op_opts *scratch)
{
    FILE *f = fopen(file, "r");
    if (!f) return gs_error(GS_EINPUT, "--tuned %s: %s", file, strerror(errno));
    char line[4096], where[320];
    int rc = GS_OK, n = 0, got;
    size_t total = 0;
    while (!(rc = io_read_line(f, file, "tuned file", line, sizeof line, &n, &total, TU_MAX_BYTES, &got)) && got) {
        snprintf(where, sizeof where, "%s:%d", file, n);
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *s = trim(line);
        if (*s && (rc = add_value(l, s, where, scratch))) break;
    }
    if (!rc && ferror(f)) rc = gs_error(GS_EINPUT, "--tuned %s: read error", file);
    fclose(f);
    return rc;
}

int tu_read(tu_list *l, const char *file, const char *const *sets, int n_sets)
{
    memset(l, 0, sizeof *l);
    op_opts *scratch = gs_malloc(1, sizeof *scratch, "--tuned"); /* op_opts is large */
    if (!scratch) return GS_ENOMEM;
    int rc = file ? read_file(l, file, scratch) : GS_OK;
    for (int i = 0; !rc && i < n_sets; i++) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", sets[i]);
        rc = add_value(l, buf, "--set", scratch);
    }
    free(scratch);
    if (rc) tu_free(l);
    return rc;
}
