/* config/opts.c — the one command-line parser (see gs_opts.h). */
#include "gs_opts.h"
#include "gs_common.h"

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

void op_defaults(op_opts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < pa_count(); i++) pa_put(o, &pa_table()[i], pa_table()[i].def);
    o->data.label_col = -1;
    o->methods[0] = "gacl";
    o->methods[1] = "gsr";
    o->n_methods = 2;
    o->format = OP_FMT_TABLE;
    o->spectrum = OP_SPECTRUM_AUTO;
    o->data.precision = OP_PREC_AUTO;
    o->dpi = 0; /* the format's default: PNG 300, GIF 100 */
    o->width_in = 0;
}

/* Locale-independent strict number parsing: the whole string must be a finite number. */
static int parse_double(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    /* strtod honours LC_NUMERIC; gsrscope never changes LC_NUMERIC from "C" (only LC_CTYPE
     * for the TUI), so '.' is the decimal point. */
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return gs_error(GS_EINPUT, "%s: '%s' is not a finite number", opt, s);
    *out = v;
    return GS_OK;
}

static int parse_long(const char *opt, const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE)
        return gs_error(GS_EINPUT, "%s: '%s' is not a whole number", opt, s);
    *out = v;
    return GS_OK;
}

static int parse_bytes(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v) || v <= 0)
        return gs_error(GS_EINPUT, "%s: '%s' is not a size (e.g. 512M, 4G)", opt, s);
    double mul = 1;
    if (*end) {
        switch (*end) {
        case 'k': case 'K': mul = 1024.0; break;
        case 'm': case 'M': mul = 1024.0 * 1024; break;
        case 'g': case 'G': mul = 1024.0 * 1024 * 1024; break;
        case 't': case 'T': mul = 1024.0 * 1024 * 1024 * 1024; break;
        default: return gs_error(GS_EINPUT, "%s: '%s' is not a size (e.g. 512M, 4G)", opt, s);
        }
        if (end[1] && !(strcasecmp(end + 1, "B") == 0 || strcasecmp(end + 1, "iB") == 0))
            return gs_error(GS_EINPUT, "%s: '%s' is not a size (e.g. 512M, 4G)", opt, s);
    }
    *out = v * mul;
    return GS_OK;
}

static int parse_enum(const char *opt, const char *s, const char *const *names, int n, int *out)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0) { *out = i; return GS_OK; }
    char list[256] = "";
    for (int i = 0; i < n; i++) {
        strncat(list, names[i], sizeof list - strlen(list) - 1);
        if (i + 1 < n) strncat(list, ", ", sizeof list - strlen(list) - 1);
    }
    return gs_error(GS_EINPUT, "%s: unknown value '%s' (expected one of: %s)", opt, s, list);
}

static const char *const FMT_NAMES[] = {"table", "csv", "json", "markdown", "latex"};
static const char *const SPEC_NAMES[] = {"final", "all", "auto"};
static const char *const FUTURE_NAMES[] = {"show", "hide", "fade"}; /* FIG_FUTURE_SHOW.. - 1 */
static const char *const SIZE_NAMES[] = {"column", "page", "slide"};  /* OP_SIZE_COLUMN.. - 1 */
static const char *const OBJ_NAMES[] = {"acc", "tail", "balanced"};
static const char *const PREC_NAMES[] = {"double", "single", "auto"}; /* in OP_PREC_* order */
static const char *const COL_NAMES[] = {"a_last", "a_avg", "head", "tail"}; /* in OP_COL_* order */

/* A rule of the subcommand being parsed (none without a table: op_parse). */
static int rule(const op_opts *o, unsigned r) { return o->cmd && (o->cmd->rules & r); }

/* "alpha_base" and "alpha-base" are the same name. */
static void canon(const char *in, char *out, size_t cap)
{
    snprintf(out, cap, "%s", in);
    for (char *p = out; *p; p++) if (*p == '_') *p = '-';
}

static void record(op_opts *o, const char *name_in, const char *value)
{
    char name[sizeof o->origins[0].name];
    canon(name_in, name, sizeof name);
    int i = 0;
    while (i < o->n_origins && strcmp(o->origins[i].name, name)) i++;
    if (i == o->n_origins) {
        if (o->n_origins >= OP_MAX_ORIGINS) return;
        o->n_origins++;
    }
    op_origin *r = &o->origins[i];
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->value, sizeof r->value, "%s", value ? value : "");
    snprintf(r->from, sizeof r->from, "%s", o->from ? o->from : "command line");
}

void op_note(op_opts *o, const char *name, const char *value) { record(o, name, value); }

/* Read v into row k's field (a parameter or a number option), checked against its range. */
static int set_row(op_opts *o, const pa_param *k, const char *v)
{
    char opt[80];
    snprintf(opt, sizeof opt, "--%s", k->name);
    void *field = (char *)o + k->off;
    double d = 0;
    long l = 0;
    int e = 0, st;
    switch (k->kind) {
    case PA_DBL:
        if ((st = parse_double(opt, v, &d)) || (st = pa_check(k, d))) return st;
        *(double *)field = d;
        break;
    case PA_LONG: case PA_INT: case PA_SEED:
        if (k->word && !strcmp(v, k->word)) { pa_put(o, k, k->word_val); break; } /* --max-aug all */
        if ((st = parse_long(opt, v, &l)) || (st = pa_check(k, (double)l))) return st;
        if (k->kind == PA_LONG) *(long *)field = l;
        else if (k->kind == PA_INT) *(int *)field = (int)l;
        else *(uint64_t *)field = (uint64_t)l;
        break;
    case PA_ENUM:
        if ((st = parse_enum(opt, v, k->names, k->n_names, &e))) return st;
        *(int *)field = e;
        break;
    }
    return GS_OK;
}

/* The values are the rows of the parameter table (gs_params.h): `--name V` on the command line,
 * `name=V` in sessions and presets (with '_' for '-'), `--param name=v1,v2` in sweep. */
int op_set(op_opts *o, const char *name_in, const char *v)
{
    const pa_param *k = pa_find(name_in);
    if (!k) return gs_error(GS_EINPUT, "unknown parameter '%s'", name_in);
    int st = set_row(o, k, v);
    if (st) return st;
    record(o, k->name, v);
    return op_validate(o);
}

int op_get(const op_opts *o, const char *name, char *buf, size_t cap)
{
    const pa_param *k = pa_find(name);
    if (!k) return gs_error(GS_EINPUT, "unknown parameter '%s'", name);
    const void *field = (const char *)o + k->off;
    if (k->word && pa_get(o, k) == k->word_val) { snprintf(buf, cap, "%s", k->word); return GS_OK; }
    switch (k->kind) {
    case PA_DBL: {
        double v = *(const double *)field;
        snprintf(buf, cap, "%.15g", v);
        if (strtod(buf, NULL) != v) snprintf(buf, cap, "%.17g", v);
        break;
    }
    case PA_LONG: snprintf(buf, cap, "%ld", *(const long *)field); break;
    case PA_INT: snprintf(buf, cap, "%d", *(const int *)field); break;
    case PA_SEED: snprintf(buf, cap, "%llu", (unsigned long long)*(const uint64_t *)field); break;
    case PA_ENUM: {
        int e = *(const int *)field;
        snprintf(buf, cap, "%s", e >= 0 && e < k->n_names ? k->names[e] : "?");
        break;
    }
    }
    return GS_OK;
}

int op_changed(const op_opts *o, int i, char *value, size_t cap)
{
    if (i < 0 || i >= o->n_origins) return 0;
    const op_origin *r = &o->origins[i];
    if (pa_find(r->name)) {
        char def[64];
        op_opts *d = gs_malloc(1, sizeof *d, "options"); /* the defaults (op_opts is large) */
        if (!d) return 1;
        op_defaults(d);
        op_get(o, r->name, value, cap);
        op_get(d, r->name, def, sizeof def);
        free(d);
        return strcmp(value, def) != 0;
    }
    snprintf(value, cap, "%s", r->value);
    return r->value[0] != 0;
}

const char *op_changes(const op_opts *o, const char *sep, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < o->n_origins; i++) {
        char value[sizeof o->origins[0].value];
        if (!op_changed(o, i, value, sizeof value)) continue;
        int n = snprintf(buf + len, cap - len, "%s%s=%s (%s)", len ? sep : "", o->origins[i].name, value, o->origins[i].from);
        if (n < 0 || (size_t)n >= cap - len) break;
        len += (size_t)n;
    }
    return buf;
}

const char *op_max_aug_str(long max_aug, char *buf, size_t cap)
{
    const pa_param *r = pa_find("max-aug");
    if (r->word && (double)max_aug == r->word_val) snprintf(buf, cap, "%s", r->word);
    else snprintf(buf, cap, "%ld", max_aug);
    return buf;
}

const char *op_pairs_name(int pairs)
{
    const pa_param *r = pa_find("pairs");
    return pairs >= 0 && pairs < r->n_names ? r->names[pairs] : "?";
}

int op_validate(const op_opts *o)
{
    int st;
    for (int i = 0; i < pa_count(); i++)
        if ((st = pa_check(&pa_table()[i], pa_get(o, &pa_table()[i])))) return st;
    for (int i = 0; i < pa_option_count(); i++)
        if ((st = pa_check(&pa_options()[i], pa_get(o, &pa_options()[i])))) return st;
    if (o->task < 0) return gs_error(GS_EINPUT, "--task: must be ≥ 1, got %d", o->task);
    if (o->size && o->width_in != 0)
        return gs_error(GS_EINPUT, "--size and --width-in: give one of them (--size %s is %s)",
                        o->size == OP_SIZE_COLUMN ? "column" : o->size == OP_SIZE_PAGE ? "page" : "slide",
                        o->size == OP_SIZE_COLUMN ? "3.5 in wide" : o->size == OP_SIZE_PAGE ? "7 in wide" : "13.33 × 7.5 in");
    if (o->frame_ms && !o->frames)
        return gs_error(GS_EINPUT, "--frame-ms: the time per frame of an animation; give --frames (or --task all) and -o FILE.gif");
    return GS_OK;
}

enum {
    O_SYNTH = 1000, O_DATA, O_IDX, O_TRF, O_TRL, O_TEF, O_TEL, O_LABELCOL, O_NONORM,
    O_MAXMEM, O_METHODS, O_FORMAT, O_SAVE, O_SPECTRUM, O_THEOREM, O_SPLIT, O_QUIET, O_FIGURE,
    O_TASK, O_CSV, O_PARAM, O_SEEDS, O_OUTDIR, O_ASCII, O_PRESET, O_SESSION,
    O_TOUR, O_THEME, O_HELP, O_VERSION, O_SET, O_OBJECTIVE, O_SAMPLE, O_PRECISION,
    O_FRAMES, O_FUTURE, O_SIZE, O_NUM, O_COLUMNS, O_TUNED, O_SET_ONE
};

/* The other options (the rows of the parameter table are options too, each `--name V`, id O_SET,
 * and so are the number options of pa_options(), id O_NUM). */
typedef struct {
    const char *name;
    int has_arg;
    int id;
    unsigned group;              /* its option group (OPG_*) */
} op_def;

static const op_def DEFS[] = {
    {"synthetic", no_argument, O_SYNTH, OPG_STREAM},
    {"sample", required_argument, O_SAMPLE, OPG_STREAM},
    {"data", required_argument, O_DATA, OPG_STREAM},
    {"idx", required_argument, O_IDX, OPG_STREAM},
    {"train-features", required_argument, O_TRF, OPG_STREAM},
    {"train-labels", required_argument, O_TRL, OPG_STREAM},
    {"test-features", required_argument, O_TEF, OPG_STREAM},
    {"test-labels", required_argument, O_TEL, OPG_STREAM},
    {"label-col", required_argument, O_LABELCOL, OPG_STREAM},
    {"no-normalize", no_argument, O_NONORM, OPG_STREAM},
    {"max-memory", required_argument, O_MAXMEM, OPG_STREAM},
    {"methods", required_argument, O_METHODS, OPG_STREAM},
    {"preset", required_argument, O_PRESET, OPG_STREAM},
    {"session", required_argument, O_SESSION, OPG_STREAM},
    {"spectrum", required_argument, O_SPECTRUM, OPG_COMPUTE},
    {"precision", required_argument, O_PRECISION, OPG_COMPUTE},
    {"format", required_argument, O_FORMAT, OPG_FORMAT},
    {"save-state", required_argument, O_SAVE, OPG_REPORT},
    {"theorem", no_argument, O_THEOREM, OPG_REPORT},
    {"split", required_argument, O_SPLIT, OPG_REPORT},
    {"quiet", no_argument, O_QUIET, OPG_QUIET},
    {"figure", required_argument, O_FIGURE, OPG_FIGURE},
    {"output", required_argument, 'o', OPG_FIGURE | OPG_OBJECTIVE}, /* export's figure, tune's values */
    {"task", required_argument, O_TASK, OPG_FIGURE},
    {"csv", required_argument, O_CSV, OPG_FIGURE},
    {"frames", no_argument, O_FRAMES, OPG_FIGURE},
    {"future", required_argument, O_FUTURE, OPG_FIGURE},
    {"size", required_argument, O_SIZE, OPG_FIGURE},
    {"param", required_argument, O_PARAM, OPG_PARAM},
    {"seeds", required_argument, O_SEEDS, OPG_SEEDS},
    {"objective", required_argument, O_OBJECTIVE, OPG_OBJECTIVE},
    {"out", required_argument, O_OUTDIR, OPG_OUT_DIR},
    {"ascii", no_argument, O_ASCII, OPG_TERMINAL},
    {"tour", optional_argument, O_TOUR, OPG_TERMINAL},
    {"theme", required_argument, O_THEME, OPG_TERMINAL},
    {"columns", required_argument, O_COLUMNS, OPG_TABLE},
    {"tuned", required_argument, O_TUNED, OPG_TUNED},
    {"set", required_argument, O_SET_ONE, OPG_TUNED},
    {"help", no_argument, O_HELP, OPG_GENERAL},
    {"version", no_argument, O_VERSION, OPG_GENERAL},
};
#define N_DEFS ((int)(sizeof DEFS / sizeof DEFS[0]))

/* getopt's table: DEFS, then one row per parameter, then one per number option (gs_params.h). */
#define MAX_KEYS 64
static struct option LONG[N_DEFS + MAX_KEYS + 1];
static int n_keys; /* the parameters among them */

static void build_long(void)
{
    for (int i = 0; i < N_DEFS; i++) LONG[i] = (struct option){DEFS[i].name, DEFS[i].has_arg, 0, DEFS[i].id};
    n_keys = pa_count() < MAX_KEYS ? pa_count() : MAX_KEYS;
    for (int i = 0; i < n_keys; i++) LONG[N_DEFS + i] = (struct option){pa_table()[i].name, required_argument, 0, O_SET};
    int n = n_keys;
    for (int i = 0; i < pa_option_count() && n < MAX_KEYS; i++, n++)
        LONG[N_DEFS + n] = (struct option){pa_options()[i].name, required_argument, 0, O_NUM};
    LONG[N_DEFS + n] = (struct option){0, 0, 0, 0};
}

/* The subcommands of the parse (op_parse_layered's table; none for op_parse). */
typedef struct {
    const op_command *rows;
    int n;
} cmd_table;

static unsigned group_of(int li, int c)
{
    if (li >= N_DEFS + n_keys) return pa_options()[li - N_DEFS - n_keys].group;
    if (li >= N_DEFS) return pa_table()[li - N_DEFS].group;
    if (li >= 0) return DEFS[li].group;
    for (int i = 0; i < N_DEFS; i++) if (DEFS[i].id == c) return DEFS[i].group; /* -o, -h, -V */
    return OPG_GENERAL;
}

static int accepts(const op_command *cmd, unsigned group) { return !cmd || group == OPG_GENERAL || (cmd->groups & group); }

/* "the TUI" or `run` (lead) / "run" (in a list). */
static const char *title(const op_command *c, int lead, char *buf, size_t cap)
{
    if (c->title) snprintf(buf, cap, "%s", c->title);
    else snprintf(buf, cap, lead ? "`%s`" : "%s", c->name);
    return buf;
}

static int not_here(const char *opt, const op_command *cmd, unsigned group, cmd_table t)
{
    char list[160] = "", name[48];
    for (int c = 0; c < t.n; c++)
        if (accepts(&t.rows[c], group)) {
            size_t L = strlen(list);
            snprintf(list + L, sizeof list - L, "%s%s", L ? ", " : "", title(&t.rows[c], 0, name, sizeof name));
        }
    return gs_error(GS_EINPUT, "%s: not an option of %s (it applies to: %s)", opt, title(cmd, 1, name, sizeof name), list);
}

const char *op_sample_name(const char *s)
{
    static const char *const NAMES[] = {"pixels", "mobilenetv2"};
    for (size_t i = 0; s && i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (!strcmp(s, NAMES[i])) return NAMES[i];
    return NULL;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcasecmp(s + a - b, suf) == 0;
}

static int is_text_table(const char *path) { return gs_ext_in(path, GS_CSV_EXTS); }

/* A data source from the command line replaces one a preset or session gave. */
static void clear_source(op_opts *o, int *cleared)
{
    if (*cleared) return;
    *cleared = 1;
    o->data.synthetic = 0;
    o->data.sample = NULL;
    o->data.data_dir = o->data.idx_dir = NULL;
    o->data.train_features = o->data.train_labels = o->data.test_features = o->data.test_labels = NULL;
}

/* table --columns LIST: names of COL_NAMES, each once, in the order given. */
static int parse_columns(op_opts *o, const char *arg)
{
    o->n_columns = 0;
    const char *p = arg;
    for (;;) {
        size_t n = strcspn(p, ",");
        int e = -1;
        for (int i = 0; i < OP_N_COLS; i++)
            if (strlen(COL_NAMES[i]) == n && !strncmp(p, COL_NAMES[i], n)) e = i;
        if (e < 0)
            return gs_error(GS_EINPUT, "--columns: unknown column '%.*s' (expected a comma-separated list of: "
                            "a_last, a_avg, head, tail)", (int)n, p);
        for (int i = 0; i < o->n_columns; i++)
            if (o->columns[i] == e) return gs_error(GS_EINPUT, "--columns: '%s' given twice", COL_NAMES[e]);
        o->columns[o->n_columns++] = e;
        if (!p[n]) break;
        p += n + 1;
    }
    op_note(o, "columns", arg);
    return GS_OK;
}

static int exists(const char *path) { return access(path, F_OK) == 0; }

/* Record a data source in the order given (the column groups of `table`). */
static int add_source(op_opts *o, op_source_kind kind, const char *arg)
{
    if (o->n_sources >= OP_MAX_SOURCES) return gs_error(GS_EINPUT, "table: at most %d data sources", OP_MAX_SOURCES);
    for (int i = 0; i < o->n_sources; i++)
        if (o->sources[i].kind == kind && (!arg || !strcmp(o->sources[i].arg, arg)))
            return gs_error(GS_EINPUT, "%s%s: data source given twice",
                            kind == OP_SRC_SYNTHETIC ? "--synthetic" : kind == OP_SRC_DATA ? "--data "
                            : kind == OP_SRC_SAMPLE ? "--sample " : "--idx ", arg ? arg : "");
    o->sources[o->n_sources].kind = kind;
    o->sources[o->n_sources++].arg = arg;
    return GS_OK;
}

/* Apply one option (pass 2). */
static int apply_opt(op_opts *o, int c, const char *name, char *arg, int *user_methods, int *cleared)
{
    int st = GS_OK;
    long l;
    switch (c) {
    case O_SET: return op_set(o, name, arg);
    case O_NUM: return set_row(o, pa_find_option(name), arg);
    case O_SYNTH:
        clear_source(o, cleared);
        o->data.synthetic = 1;
        op_note(o, "synthetic", "1");
        return add_source(o, OP_SRC_SYNTHETIC, NULL);
    case O_SAMPLE:
        clear_source(o, cleared);
        if (!(o->data.sample = op_sample_name(arg)))
            return gs_error(GS_EINPUT, "--sample: expected pixels or mobilenetv2, got '%s'", arg);
        op_note(o, "sample", arg);
        return add_source(o, OP_SRC_SAMPLE, o->data.sample);
    case O_DATA:
        /* In `export`, --data FILE.csv names the CSV with the numbers behind the figure;
         * otherwise --data DIR is the input folder. */
        if (rule(o, OPR_DATA_CSV) && ends_with(arg, ".csv")) { o->data_csv = arg; break; }
        clear_source(o, cleared);
        { /* --data NAME=PATH titles the group NAME: a folder named so wins, NAME has no '/' */
            const char *eq = strchr(arg, '='), *name = NULL;
            if (eq && eq > arg && !memchr(arg, '/', (size_t)(eq - arg)) && !exists(arg) && exists(eq + 1)) {
                name = arg;
                arg = (char *)eq + 1;
            }
            o->data.data_dir = arg;
            op_note(o, "data_dir", arg);
            if ((st = add_source(o, OP_SRC_DATA, arg))) return st;
            o->sources[o->n_sources - 1].name = name;
            o->sources[o->n_sources - 1].name_len = name ? (int)(eq - name) : 0;
            return GS_OK;
        }
    case O_CSV: o->data_csv = arg; break;
    case O_IDX:
        clear_source(o, cleared);
        o->data.idx_dir = arg;
        op_note(o, "idx_dir", arg);
        return add_source(o, OP_SRC_IDX, arg);
    case O_TRF: clear_source(o, cleared); o->data.train_features = arg; op_note(o, "train_features", arg); break;
    case O_TRL: clear_source(o, cleared); o->data.train_labels = arg; op_note(o, "train_labels", arg); break;
    case O_TEF: clear_source(o, cleared); o->data.test_features = arg; op_note(o, "test_features", arg); break;
    case O_TEL: clear_source(o, cleared); o->data.test_labels = arg; op_note(o, "test_labels", arg); break;
    case O_LABELCOL:
        if ((st = parse_long("--label-col", arg, &l))) break;
        if (l < -1 || l > 1000000) { st = gs_error(GS_EINPUT, "--label-col: must be ≥ 0 (or -1 for the last column), got %ld", l); break; }
        o->data.label_col = (int)l;
        op_note(o, "label_col", arg);
        break;
    case O_NONORM: o->data.no_normalize = 1; op_note(o, "no_normalize", "1"); break;
    case O_MAXMEM: st = parse_bytes("--max-memory", arg, &o->data.max_memory); break;
    case O_METHODS: {
        if (!*user_methods) { o->n_methods = 0; *user_methods = 1; }
        op_note(o, "methods", arg);
        char *s = arg;
        while (s && *s) {
            char *comma = strchr(s, ',');
            if (comma) *comma = '\0';
            if (*s) {
                if (o->n_methods >= OP_MAX_METHODS) return gs_error(GS_EINPUT, "--methods: at most %d methods", OP_MAX_METHODS);
                for (int k = 0; k < o->n_methods; k++)
                    if (!strcmp(o->methods[k], s)) return gs_error(GS_EINPUT, "--methods: '%s' given twice", s);
                o->methods[o->n_methods++] = s;
            }
            s = comma ? comma + 1 : NULL;
        }
        break;
    }
    case O_FORMAT: { int e; st = parse_enum("--format", arg, FMT_NAMES, 5, &e); o->format = e; break; }
    case O_SAVE: o->save_state = arg; break;
    case O_SPECTRUM: { int e; st = parse_enum("--spectrum", arg, SPEC_NAMES, 3, &e); o->spectrum = e; break; }
    case O_PRECISION: { int e; st = parse_enum("--precision", arg, PREC_NAMES, 3, &e); o->data.precision = e; break; }
    case O_THEOREM: o->theorem = 1; break;
    case O_SPLIT:
        if ((st = parse_long("--split", arg, &l))) break;
        if (l < 1) { st = gs_error(GS_EINPUT, "--split: must be ≥ 1, got %ld", l); break; }
        o->theorem_r = (int)l;
        break;
    case O_QUIET: o->quiet = 1; break;
    case O_FIGURE: o->figure = arg; break;
    case 'o': o->output = arg; break;
    case O_TASK:
        if (!strcmp(arg, "all")) { o->frames = 1; o->task = 0; break; } /* every task: one frame each */
        if ((st = parse_long("--task", arg, &l))) break;
        if (l < 1 || l > 1000000) { st = gs_error(GS_EINPUT, "--task: must be ≥ 1, got %ld", l); break; }
        o->task = (int)l;
        break;
    case O_FRAMES: o->frames = 1; break;
    case O_FUTURE: { int e; st = parse_enum("--future", arg, FUTURE_NAMES, 3, &e); o->future = e + 1; break; }
    case O_SIZE: { int e; st = parse_enum("--size", arg, SIZE_NAMES, 3, &e); o->size = e + 1; break; }
    case O_PARAM:
        if (rule(o, OPR_PARAM_NAMES)) { /* tune: the names of the parameters to search */
            if (o->tune_params) return gs_error(GS_EINPUT, "--param: give the parameters once, comma-separated (tau,beta)");
            o->tune_params = arg;
            break;
        }
        if (o->n_sweep >= OP_MAX_SWEEP) return gs_error(GS_EINPUT, "--param: at most %d parameters", OP_MAX_SWEEP);
        if (!strchr(arg, '=')) return gs_error(GS_EINPUT, "--param: expected NAME=v1,v2,... got '%s'", arg);
        o->sweep_params[o->n_sweep++] = arg;
        break;
    case O_SEEDS: o->seeds = arg; break;
    case O_OBJECTIVE: { int e; st = parse_enum("--objective", arg, OBJ_NAMES, 3, &e); o->objective = e; break; }
    case O_OUTDIR: o->out_dir = arg; break;
    case O_ASCII: o->ascii = 1; break;
    case O_TOUR: o->tour = arg ? arg : ""; break;
    case O_THEME: o->theme = arg; break;
    case O_COLUMNS: return parse_columns(o, arg);
    case O_TUNED:
        if (o->tuned) return gs_error(GS_EINPUT, "--tuned: give one file (--set METHOD.KEY=V adds values to it)");
        o->tuned = arg;
        op_note(o, "tuned", arg);
        break;
    case O_SET_ONE: /* read by the command (gs_tuned.h), which knows the methods */
        if (o->n_sets >= OP_MAX_SETS) return gs_error(GS_EINPUT, "--set: at most %d values", OP_MAX_SETS);
        if (!strchr(arg, '=') || !strchr(arg, '.'))
            return gs_error(GS_EINPUT, "--set: expected METHOD.KEY=VALUE (e.g. gacl+gsr.beta=2), got '%s'", arg);
        o->sets[o->n_sets++] = arg;
        break;
    default: break; /* --preset, --session, --help, --version: pass 1 */
    }
    return st;
}

/* One getopt pass over the options after the subcommand. Pass 1 checks every option (known,
 * has its value, applies to this subcommand) and keeps --preset, --session, --help and
 * --version; pass 2 applies the others. */
static int scan(op_opts *o, int ac, char **av, int pass, cmd_table t)
{
    int c, li = -1, user_methods = 0, cleared = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(ac, av, ":o:hV", LONG, &li)) != -1) {
        const char *name = li >= 0 ? LONG[li].name : "";
        int st = GS_OK;
        /* --tour, --tour NAME or --tour=NAME (a following word that is not an option) */
        if (c == O_TOUR && !optarg && optind < ac && av[optind][0] && av[optind][0] != '-') optarg = av[optind++];
        if (c == ':') return gs_error(GS_EINPUT, "option %s needs a value (see --help)", av[optind - 1]);
        if (c == '?') {
            if (optopt) return gs_error(GS_EINPUT, "unknown option '-%c' (see --help)", optopt);
            return gs_error(GS_EINPUT, "unknown option '%s' (see --help)", av[optind - 1]);
        }
        if (pass == 1) {
            unsigned group = group_of(li, c);
            if (!accepts(o->cmd, group)) {
                char opt[80];
                if (li >= 0) snprintf(opt, sizeof opt, "--%s", name);
                else snprintf(opt, sizeof opt, "-%c", c);
                return not_here(opt, o->cmd, group, t);
            }
            switch (c) {
            case O_PRESET: o->preset = optarg; break;
            case O_SESSION: o->session = optarg; break;
            case 'h': case O_HELP: o->help = 1; break;
            case 'V': case O_VERSION: o->version = 1; break;
            default: break;
            }
        } else {
            st = apply_opt(o, c, name, optarg, &user_methods, &cleared);
        }
        if (st) return st;
        li = -1;
    }
    if (optind < ac)
        return gs_error(GS_EINPUT, "unexpected argument '%s' (see --help)", av[optind]);
    return GS_OK;
}

/* The row named `word`, or the default row for NULL; NULL with the message set when none. */
static const op_command *find_command(cmd_table t, const char *word)
{
    for (int k = 0; k < t.n; k++)
        if (word ? !strcmp(word, t.rows[k].name) : !!(t.rows[k].rules & OPR_DEFAULT)) return &t.rows[k];
    if (!word) {
        gs_error(GS_EINPUT, "give a subcommand (see --help)");
        return NULL;
    }
    char list[160] = "";
    for (int k = 0; k < t.n; k++) /* the default command is the one given without a name */
        if (!(t.rows[k].rules & OPR_DEFAULT))
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "", t.rows[k].name);
    gs_error(GS_EINPUT, "unknown command '%s' (expected %s; see --help)", word, list);
    return NULL;
}

/* The names of the rows with rule r, "a, b" (into buf, which it returns). */
static const char *names_with(cmd_table t, unsigned r, char *buf, size_t cap)
{
    buf[0] = 0;
    for (int k = 0; k < t.n; k++)
        if (t.rows[k].rules & r) snprintf(buf + strlen(buf), cap - strlen(buf), "%s%s", buf[0] ? ", " : "", t.rows[k].name);
    return buf;
}

/* The subcommand's own rules, after its options are read. */
static int check_rules(const op_opts *o)
{
    const char *name = o->cmd ? o->cmd->name : "";
    if (rule(o, OPR_NEED_FIGURE)) {
        if (!o->figure) return gs_error(GS_EINPUT, "%s: --figure NAME is required (gsrscope --help lists the figures)", name);
        if (!o->output) return gs_error(GS_EINPUT, "%s: -o FILE (--output) is required (.png, .svg or .pdf)", name);
    }
    if (rule(o, OPR_NEED_OUT_DIR) && !o->out_dir)
        return gs_error(GS_EINPUT, "%s: --out DIR is required", name);
    if (rule(o, OPR_NEED_VAL) && o->proto.val_frac <= 0)
        return gs_error(GS_EINPUT, "%s: needs a validation split, e.g. --val-frac 0.2 (%s never chooses on test accuracy)", name, name);
    if (rule(o, OPR_NEED_GRID) && o->n_sweep == 0 && !o->seeds)
        return gs_error(GS_EINPUT, "%s: give at least one --param NAME=v1,v2,...", name);
    return GS_OK;
}

int op_parse(op_opts *o, int argc, char **argv) { return op_parse_layered(o, argc, argv, NULL, 0, NULL, NULL); }

int op_parse_layered(op_opts *o, int argc, char **argv, const op_command *cmds, int n, op_layer_fn layer, void *user)
{
    cmd_table t = {cmds, cmds ? n : 0};
    char list[160];
    op_defaults(o);
    build_long();
    int first = 1;
    int named = argc > 1 && argv[1][0] != '-';
    if (cmds && !(o->cmd = find_command(t, named ? argv[1] : NULL))) return GS_EINPUT;
    if (named) first = 2;
    /* getopt_long permutes argv; parse the part after the subcommand. */
    int ac = argc - first + 1;
    char **av = argv + first - 1;
    int st = scan(o, ac, av, 1, t);
    if (st) return st;
    if (o->help || o->version) return GS_OK;
    if (layer && (st = layer(o, user))) return st;
    o->from = NULL;
    if ((st = scan(o, ac, av, 2, t))) return st;
    if ((st = op_validate(o))) return st;
    /* --precision is the TUI's, run's and export's (refused elsewhere): the others compute in double */
    if (o->cmd && !(o->cmd->groups & OPG_COMPUTE)) o->data.precision = OP_PREC_DOUBLE;
    if (o->n_methods < 1) return gs_error(GS_EINPUT, "--methods: give at least one method");
    /* CSV features hold their labels in the --label-col column unless a labels file is given */
    if (o->data.train_features && !o->data.train_labels && is_text_table(o->data.train_features))
        o->data.train_labels = o->data.train_features;
    if (o->data.test_features && !o->data.test_labels && is_text_table(o->data.test_features))
        o->data.test_labels = o->data.test_features;
    int nfiles = !!o->data.train_features + !!o->data.train_labels + !!o->data.test_features + !!o->data.test_labels;
    if (nfiles && nfiles != 4)
        return gs_error(GS_EINPUT, "--train-features, --train-labels, --test-features and --test-labels go together (got %d of 4); "
                        "CSV features without a labels file take their labels from --label-col", nfiles);
    int nsrc = o->data.synthetic + !!o->data.sample + !!o->data.data_dir + !!o->data.idx_dir + (nfiles == 4);
    if (o->format >= OP_FMT_MARKDOWN && o->cmd && !rule(o, OPR_DOC_FORMATS))
        return names_with(t, OPR_DOC_FORMATS, list, sizeof list)[0]
                   ? gs_error(GS_EINPUT, "--format %s: only for %s (use table, csv or json)", FMT_NAMES[o->format], list)
                   : gs_error(GS_EINPUT, "--format %s: use table, csv or json", FMT_NAMES[o->format]);
    if (rule(o, OPR_SOURCES)) { /* every source is a column group; the four files count as one more */
        if (nfiles == 4 && o->n_sources >= OP_MAX_SOURCES) return gs_error(GS_EINPUT, "%s: at most %d data sources", o->cmd->name, OP_MAX_SOURCES);
    } else if (nsrc > 1 || o->n_sources > 1)
        return gs_error(GS_EINPUT, "give one data source: --synthetic, --sample NAME, --data DIR, --idx DIR or the four --train-/--test- files");
    return check_rules(o);
}

int op_parse_seeds(const char *s, uint64_t *out, int max, int *n)
{
    *n = 0;
    char *buf = strdup(s), *p = buf, *tok;
    if (!buf) return gs_error(GS_ENOMEM, "--seeds: out of memory");
    while ((tok = strsep(&p, ","))) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(tok, &end, 10);
        if (!*tok || *end || tok[0] == '-' || errno) { gs_error(GS_EINPUT, "--seeds: '%s' is not a seed (use e.g. 1,2,3)", tok); free(buf); return GS_EINPUT; }
        if (*n == max) { free(buf); return gs_error(GS_EINPUT, "--seeds: at most %d seeds", max); }
        out[(*n)++] = (uint64_t)v;
    }
    free(buf);
    return *n ? GS_OK : gs_error(GS_EINPUT, "--seeds: give at least one seed");
}
