/* config/session.c — save and load TUI sessions (gs_session.h). */
#include "gs_session.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_common.h"
#include "gs_io.h"


static int bad_path(const char *s) { return s && strpbrk(s, "\n\r") != NULL; }

static const char *const DATA_NAMES[] = {"data_dir", "idx_dir", "train_features",
                                         "train_labels", "test_features", "test_labels"};

/* A data path as it is saved: absolute, so the session loads from any folder. */
static void put_path(FILE *f, const char *name, const char *p)
{
    char abs[PATH_MAX + 1], cwd[PATH_MAX];
    if (!p || !*p) p = "";
    else if (p[0] != '/') {
        if (realpath(p, abs)) p = abs;
        else if (getcwd(cwd, sizeof cwd)) { snprintf(abs, sizeof abs, "%.*s/%s", PATH_MAX / 2, cwd, p); p = abs; }
    }
    fprintf(f, "%s=%s\n", name, p);
}

/* Every row of the parameter table in one --help section, as name=value (gs_params.h). */
static void put_rows(FILE *f, const op_opts *o, pa_section sec)
{
    char b[64];
    for (int i = 0; i < pa_count(); i++) {
        const pa_param *r = &pa_table()[i];
        if (r->section != sec || op_get(o, r->name, b, sizeof b) != GS_OK) continue;
        fprintf(f, "%s=%s\n", pa_key(r), b);
    }
}

int ss_save(const char *path, const op_opts *o)
{
    const char *paths[] = {o->data.data_dir, o->data.idx_dir, o->data.train_features,
                           o->data.train_labels, o->data.test_features, o->data.test_labels};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (bad_path(paths[i]))
            return gs_error(GS_EINPUT, "%s: cannot save a data path that contains a line break",
                            path);
    io_atomic a;
    int st = io_atomic_open(&a, path);
    if (st != GS_OK) return st;
    FILE *f = a.f;
    fprintf(f, "%s\n# written by gsrscope %s; load with: gsrscope --session FILE\n", SS_HEADER,
            GS_VERSION);
    fprintf(f, "# parameters\n");
    put_rows(f, o, PA_SEC_METHODS);
    fprintf(f, "# protocol\n");
    put_rows(f, o, PA_SEC_PROTOCOL);
    fprintf(f, "# methods and data (empty = not set: the bundled sample)\n");
    fprintf(f, "methods=");
    for (int i = 0; i < o->n_methods; i++) fprintf(f, "%s%s", i ? "," : "", o->methods[i]);
    fprintf(f, "\n");
    put_rows(f, o, PA_SEC_DATA);
    fprintf(f, "synthetic=%d\n", o->data.synthetic ? 1 : 0);
    fprintf(f, "sample=%s\n", o->data.sample ? o->data.sample : "");
    fprintf(f, "no_normalize=%d\n", o->data.no_normalize ? 1 : 0);
    fprintf(f, "label_col=%d\n", o->data.label_col);
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) put_path(f, DATA_NAMES[i], paths[i]);
    fprintf(f, "end\n");
    if (ferror(f)) {
        io_atomic_abort(&a);
        return gs_error(GS_ERUN, "%s: write failed", path);
    }
    return io_atomic_commit(&a);
}

void ss_store_free(ss_store *store)
{
    for (int i = 0; i < store->n; i++) free(store->s[i]);
    memset(store, 0, sizeof *store);
}

static char *store_dup(ss_store *store, const char *s)
{
    if (store->n >= SS_MAX_STRINGS) return NULL;
    char *d = strdup(s);
    if (d) store->s[store->n++] = d;
    return d;
}


static const char **data_slot(op_opts *o, int i)
{
    switch (i) {
    case 0: return &o->data.data_dir;
    case 1: return &o->data.idx_dir;
    case 2: return &o->data.train_features;
    case 3: return &o->data.train_labels;
    case 4: return &o->data.test_features;
    default: return &o->data.test_labels;
    }
}

static int parse_flag(const char *v, int *out)
{
    if (!strcmp(v, "0")) { *out = 0; return 0; }
    if (!strcmp(v, "1")) { *out = 1; return 0; }
    return -1;
}

/* Apply one assignment. Returns GS_OK or an error with a message (without file/line). */
static int load_lines(FILE *f, const char *path, const char *base, op_opts *o, ss_store *store);

static int apply(op_opts *o, ss_store *store, const char *base, const char *name, const char *v)
{
    for (int i = 0; i < 6; i++)
        if (!strcmp(name, DATA_NAMES[i])) {
            const char **slot = data_slot(o, i);
            if (!*v) { *slot = NULL; return GS_OK; }
            /* a relative path means relative to the session file's folder, as #include does */
            char full[SS_MAX_LINE + 4200];
            if (v[0] != '/' && base && *base) snprintf(full, sizeof full, "%s/%s", base, v);
            else snprintf(full, sizeof full, "%s", v);
            char *d = store_dup(store, full);
            if (!d) return gs_error(GS_ENOMEM, "out of memory for '%s'", name);
            *slot = d;
            op_note(o, name, d);
            return GS_OK;
        }
    if (!strcmp(name, "sample")) {
        if (*v && !(o->data.sample = op_sample_name(v)))
            return gs_error(GS_EINPUT, "sample must be pixels or mobilenetv2 (or empty), got '%s'", v);
        if (!*v) o->data.sample = NULL;
        return GS_OK;
    }
    if (!strcmp(name, "synthetic") || !strcmp(name, "no_normalize")) {
        int f;
        if (parse_flag(v, &f)) return gs_error(GS_EINPUT, "%s must be 0 or 1, got '%s'", name, v);
        if (name[0] == 's') o->data.synthetic = f;
        else o->data.no_normalize = f;
        if (f) op_note(o, name, v);
        return GS_OK;
    }
    if (!strcmp(name, "label_col")) {
        char *end;
        errno = 0;
        long l = strtol(v, &end, 10);
        if (!*v || *end || errno || l < -1 || l > 1000000)
            return gs_error(GS_EINPUT, "label_col must be an integer ≥ -1, got '%s'", v);
        o->data.label_col = (int)l;
        if (l != -1) op_note(o, name, v);
        return GS_OK;
    }
    if (!strcmp(name, "methods")) {
        char *d = store_dup(store, v);
        if (!d) return gs_error(GS_ENOMEM, "out of memory for 'methods'");
        int n = 0;
        for (char *s = d; s && *s;) {
            char *comma = strchr(s, ',');
            if (comma) *comma = 0;
            if (!*s) return gs_error(GS_EINPUT, "methods: empty method name");
            for (const char *c = s; *c; c++)
                if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' || *c == '+'))
                    return gs_error(GS_EINPUT, "methods: bad method name '%s'", s);
            if (n >= OP_MAX_METHODS) return gs_error(GS_EINPUT, "methods: at most %d", OP_MAX_METHODS);
            o->methods[n++] = s;
            s = comma ? comma + 1 : NULL;
        }
        if (n == 0) return gs_error(GS_EINPUT, "methods: no method given");
        o->n_methods = n;
        if (strcmp(v, "gacl,gsr")) op_note(o, name, v);
        return GS_OK;
    }
    return op_set(o, name, v);
}

/* Parse the session text read from f; `path` names it in messages and its folder is where
 * relative data paths start. Closes f. */
static int load_stream(FILE *f, const char *path, op_opts *o, ss_store *store)
{
    char base[4096] = "", from[200];
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(base, sizeof base, "%.*s", (int)(slash - path) > 4000 ? 4000 : (int)(slash - path), path);
    if (slash == path) snprintf(base, sizeof base, "/");
    snprintf(from, sizeof from, "session %.180s", path);
    const char *was = o->from;
    o->from = from;
    int st = load_lines(f, path, base, o, store);
    o->from = was;
    return st;
}

static int load_lines(FILE *f, const char *path, const char *base, op_opts *o, ss_store *store)
{
    char *line = malloc(SS_MAX_LINE + 2);
    if (!line) { fclose(f); return gs_error(GS_ENOMEM, "%s: out of memory", path); }
    char seen[64][32];
    int nseen = 0, lineno = 0, ended = 0, st = GS_OK;
    size_t total = 0;
    for (;;) {
        int got;
        if ((st = io_read_line(f, path, "session file", line, SS_MAX_LINE + 1, &lineno, &total, SS_MAX_BYTES, &got)) || !got)
            break;
        if (lineno == 1) {
            if (strcmp(line, SS_HEADER)) {
                st = gs_error(GS_EINPUT, "%s: line 1: not a gsrscope session (expected '%s')", path, SS_HEADER);
                break;
            }
            continue;
        }
        const char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (ended) {
            if (*s) { st = gs_error(GS_EINPUT, "%s: line %d: text after 'end'", path, lineno); break; }
            continue;
        }
        if (!*s || *s == '#') continue;
        if (!strcmp(s, "end")) { ended = 1; continue; }
        const char *eq = strchr(s, '=');
        if (!eq) { st = gs_error(GS_EINPUT, "%s: line %d: expected name=value, got '%.60s'", path, lineno, s); break; }
        char name[32];
        size_t nl = (size_t)(eq - s);
        while (nl && (s[nl - 1] == ' ' || s[nl - 1] == '\t')) nl--;
        if (nl == 0 || nl >= sizeof name) { st = gs_error(GS_EINPUT, "%s: line %d: bad name in '%.60s'", path, lineno, s); break; }
        memcpy(name, s, nl);
        name[nl] = 0;
        const char *v = eq + 1;
        while (*v == ' ' || *v == '\t') v++;
        int dup = 0;
        for (int i = 0; i < nseen; i++) if (!strcmp(seen[i], name)) dup = 1;
        if (dup) { st = gs_error(GS_EINPUT, "%s: line %d: '%s' is set twice", path, lineno, name); break; }
        if (nseen < 64) snprintf(seen[nseen++], sizeof seen[0], "%s", name);
        int r = apply(o, store, base, name, v);
        if (r != GS_OK) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", gs_last_error());
            st = gs_error(r == GS_ENOMEM ? GS_ENOMEM : GS_EINPUT, "%s: line %d: %s", path, lineno, msg);
            break;
        }
    }
    int rerr = ferror(f);
    fclose(f);
    free(line);
    if (st != GS_OK) return st;
    if (rerr) return gs_error(GS_EINPUT, "%s: read error", path);
    if (lineno == 0) return gs_error(GS_EINPUT, "%s: line 1: empty file (not a gsrscope session)", path);
    if (!ended)
        return gs_error(GS_EINPUT, "%s: line %d: missing the final 'end' line (file truncated?)", path, lineno);
    if (op_validate(o) != GS_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", gs_last_error());
        return gs_error(GS_EINPUT, "%s: %s", path, msg);
    }
    return GS_OK;
}

int ss_load(const char *path, op_opts *o, ss_store *store)
{
    FILE *f = fopen(path, "rb");
    if (!f) return gs_error(GS_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    return load_stream(f, path, o, store);
}

int ss_parse(const char *name, const char *buf, size_t len, op_opts *o, ss_store *store)
{
    if (len == 0) return gs_error(GS_EINPUT, "%s: line 1: empty file (not a gsrscope session)", name);
    FILE *f = fmemopen((void *)buf, len, "rb");
    if (!f) return gs_error(GS_ENOMEM, "%s: out of memory", name);
    return load_stream(f, name, o, store);
}
