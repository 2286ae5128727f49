/* opts.c — the one command-line parser (see gs_opts.h). */
#include "gs_opts.h"
#include "gs_common.h"

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void op_defaults(op_opts *o)
{
    memset(o, 0, sizeof *o);
    o->cmd = OP_CMD_TUI;
    o->params.alpha_base = 0.6;
    o->params.xi = 5e-3;
    o->params.beta = 1.0;
    o->params.tau = 0.01;
    o->params.seed = 1;
    o->params.pairs = OP_PAIRS_ALL;
    o->params.max_aug = 1000;
    o->params.augment = OP_AUG_ALL;
    o->params.gauss_a = 0.1;
    o->params.gauss_b = 1.0;
    o->params.slda_eps = 1e-4;
    o->proto.tasks = 10;
    o->proto.profile = OP_PROFILE_STEP;
    o->proto.head_frac = 0.3;
    o->proto.tail_shots = 5;
    o->proto.order = OP_ORDER_SHUFFLED;
    o->data.label_col = -1;
    o->methods[0] = "gacl";
    o->methods[1] = "gsr";
    o->n_methods = 2;
    o->format = OP_FMT_TABLE;
    o->spectrum = OP_SPECTRUM_AUTO;
    o->dpi = 300;
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

static const char *const PROFILE_NAMES[] = {"step", "exp", "none"};
static const char *const ORDER_NAMES[] = {"shuffled", "ordered"};
static const char *const PROJ_NAMES[] = {"gaussian", "uniform"};
static const char *const PAIRS_NAMES[] = {"all", "random"};
static const char *const AUG_NAMES[] = {"all", "tail"};
static const char *const FMT_NAMES[] = {"table", "csv", "json"};
static const char *const SPEC_NAMES[] = {"final", "all", "auto"};
static const char *const OBJ_NAMES[] = {"acc", "tail", "balanced"};

/* Assign one named hyperparameter / protocol value. Names are the long option names without
 * dashes, with '-' or '_' accepted ("alpha-base", "alpha_base", "tau", "rho", ...). */
int op_set(op_opts *o, const char *name_in, const char *v)
{
    char name[64];
    snprintf(name, sizeof name, "%s", name_in);
    for (char *p = name; *p; p++) if (*p == '_') *p = '-';
    char opt[80];
    snprintf(opt, sizeof opt, "--%s", name);
    double d;
    long l;
    int e, st;
    if (!strcmp(name, "alpha-base")) { if ((st = parse_double(opt, v, &d))) return st; o->params.alpha_base = d; }
    else if (!strcmp(name, "xi")) { if ((st = parse_double(opt, v, &d))) return st; o->params.xi = d; }
    else if (!strcmp(name, "beta")) { if ((st = parse_double(opt, v, &d))) return st; o->params.beta = d; }
    else if (!strcmp(name, "tau")) { if ((st = parse_double(opt, v, &d))) return st; o->params.tau = d; }
    else if (!strcmp(name, "seed")) {
        if ((st = parse_long(opt, v, &l))) return st;
        if (l < 0) return gs_error(GS_EINPUT, "--seed: must be ≥ 0, got %ld", l);
        o->params.seed = (uint64_t)l;
    }
    else if (!strcmp(name, "max-aug")) { if ((st = parse_long(opt, v, &l))) return st; o->params.max_aug = l; }
    else if (!strcmp(name, "pairs")) { if ((st = parse_enum(opt, v, PAIRS_NAMES, 2, &e))) return st; o->params.pairs = e; }
    else if (!strcmp(name, "augment")) { if ((st = parse_enum(opt, v, AUG_NAMES, 2, &e))) return st; o->params.augment = e; }
    else if (!strcmp(name, "gauss-a")) { if ((st = parse_double(opt, v, &d))) return st; o->params.gauss_a = d; }
    else if (!strcmp(name, "gauss-b")) { if ((st = parse_double(opt, v, &d))) return st; o->params.gauss_b = d; }
    else if (!strcmp(name, "slda-eps")) { if ((st = parse_double(opt, v, &d))) return st; o->params.slda_eps = d; }
    else if (!strcmp(name, "tasks")) { if ((st = parse_long(opt, v, &l))) return st; if (l < 1 || l > 100000) return gs_error(GS_EINPUT, "--tasks: must be ≥ 1, got %s", v); o->proto.tasks = (int)l; }
    else if (!strcmp(name, "profile")) { if ((st = parse_enum(opt, v, PROFILE_NAMES, 3, &e))) return st; o->proto.profile = e; }
    else if (!strcmp(name, "head-frac")) { if ((st = parse_double(opt, v, &d))) return st; o->proto.head_frac = d; }
    else if (!strcmp(name, "tail-shots")) { if ((st = parse_long(opt, v, &l))) return st; o->proto.tail_shots = l; }
    else if (!strcmp(name, "head-shots")) { if ((st = parse_long(opt, v, &l))) return st; o->proto.head_shots = l; }
    else if (!strcmp(name, "rho")) { if ((st = parse_double(opt, v, &d))) return st; o->proto.rho = d; }
    else if (!strcmp(name, "val-frac")) { if ((st = parse_double(opt, v, &d))) return st; o->proto.val_frac = d; }
    else if (!strcmp(name, "order")) { if ((st = parse_enum(opt, v, ORDER_NAMES, 2, &e))) return st; o->proto.order = e; }
    else if (!strcmp(name, "expand")) { if ((st = parse_long(opt, v, &l))) return st; o->data.expand = l; }
    else if (!strcmp(name, "projection")) { if ((st = parse_enum(opt, v, PROJ_NAMES, 2, &e))) return st; o->data.projection = e; }
    else return gs_error(GS_EINPUT, "unknown parameter '%s'", name_in);
    return op_validate(o);
}

int op_validate(const op_opts *o)
{
    const op_params *p = &o->params;
    if (!(p->alpha_base > 0 && p->alpha_base <= 1))
        return gs_error(GS_EINPUT, "--alpha-base: must be in (0, 1], got %g", p->alpha_base);
    if (!(p->xi >= 0 && p->xi <= 1e3)) return gs_error(GS_EINPUT, "--xi: must be in [0, 1000], got %g", p->xi);
    if (!(p->beta >= 0 && p->beta <= 1e6)) return gs_error(GS_EINPUT, "--beta: must be in [0, 1e6], got %g", p->beta);
    if (!(p->tau >= 0 && p->tau <= 1e12)) return gs_error(GS_EINPUT, "--tau: must be ≥ 0, got %g", p->tau);
    if (p->max_aug < 0) return gs_error(GS_EINPUT, "--max-aug: must be ≥ 0, got %ld", p->max_aug);
    if (!(p->gauss_a >= 0 && p->gauss_a <= 1)) return gs_error(GS_EINPUT, "--gauss-a: must be in [0, 1], got %g", p->gauss_a);
    if (!(p->gauss_b >= 0)) return gs_error(GS_EINPUT, "--gauss-b: must be ≥ 0, got %g", p->gauss_b);
    if (!(p->slda_eps >= 0 && p->slda_eps <= 1)) return gs_error(GS_EINPUT, "--slda-eps: must be in [0, 1], got %g", p->slda_eps);
    const op_protocol *q = &o->proto;
    if (q->tasks < 1) return gs_error(GS_EINPUT, "--tasks: must be ≥ 1, got %d", q->tasks);
    if (!(q->head_frac > 0 && q->head_frac < 1))
        return gs_error(GS_EINPUT, "--head-frac: must be in (0, 1), got %g", q->head_frac);
    if (q->tail_shots < 1) return gs_error(GS_EINPUT, "--tail-shots: must be ≥ 1, got %ld", q->tail_shots);
    if (q->head_shots < 0) return gs_error(GS_EINPUT, "--head-shots: must be ≥ 0, got %ld", q->head_shots);
    if (!(q->val_frac >= 0 && q->val_frac < 1))
        return gs_error(GS_EINPUT, "--val-frac: must be in [0, 1), got %g", q->val_frac);
    if (q->rho != 0 && !(q->rho >= 1)) return gs_error(GS_EINPUT, "--rho: must be ≥ 1, got %g", q->rho);
    if (o->data.expand < 0) return gs_error(GS_EINPUT, "--expand: must be ≥ 0, got %ld", o->data.expand);
    if (o->dpi != 0 && !(o->dpi >= 10 && o->dpi <= 2400)) return gs_error(GS_EINPUT, "--dpi: must be in [10, 2400], got %g", o->dpi);
    if (o->width_in != 0 && !(o->width_in >= 1 && o->width_in <= 40)) return gs_error(GS_EINPUT, "--width-in: must be in [1, 40], got %g", o->width_in);
    if (o->task < 0) return gs_error(GS_EINPUT, "--task: must be ≥ 1, got %d", o->task);
    return GS_OK;
}

enum {
    O_SYNTH = 1000, O_DATA, O_IDX, O_TRF, O_TRL, O_TEF, O_TEL, O_LABELCOL, O_NONORM, O_EXPAND, O_PROJ,
    O_MAXMEM, O_METHODS, O_FORMAT, O_SAVE, O_SPECTRUM, O_THEOREM, O_SPLIT, O_QUIET, O_FIGURE,
    O_DPI, O_TASK, O_WIDTH, O_CSV, O_PARAM, O_SEEDS, O_OUTDIR, O_ASCII, O_PRESET, O_SESSION, O_TOUR,
    O_HELP, O_VERSION, O_SET, O_OBJECTIVE
};

static const struct option LONG[] = {
    {"synthetic", no_argument, 0, O_SYNTH},
    {"data", required_argument, 0, O_DATA},
    {"idx", required_argument, 0, O_IDX},
    {"train-features", required_argument, 0, O_TRF},
    {"train-labels", required_argument, 0, O_TRL},
    {"test-features", required_argument, 0, O_TEF},
    {"test-labels", required_argument, 0, O_TEL},
    {"label-col", required_argument, 0, O_LABELCOL},
    {"no-normalize", no_argument, 0, O_NONORM},
    {"expand", required_argument, 0, O_EXPAND},
    {"projection", required_argument, 0, O_PROJ},
    {"max-memory", required_argument, 0, O_MAXMEM},
    {"tasks", required_argument, 0, O_SET},
    {"profile", required_argument, 0, O_SET},
    {"head-frac", required_argument, 0, O_SET},
    {"tail-shots", required_argument, 0, O_SET},
    {"head-shots", required_argument, 0, O_SET},
    {"rho", required_argument, 0, O_SET},
    {"order", required_argument, 0, O_SET},
    {"val-frac", required_argument, 0, O_SET},
    {"seed", required_argument, 0, O_SET},
    {"alpha-base", required_argument, 0, O_SET},
    {"xi", required_argument, 0, O_SET},
    {"beta", required_argument, 0, O_SET},
    {"tau", required_argument, 0, O_SET},
    {"pairs", required_argument, 0, O_SET},
    {"max-aug", required_argument, 0, O_SET},
    {"augment", required_argument, 0, O_SET},
    {"gauss-a", required_argument, 0, O_SET},
    {"gauss-b", required_argument, 0, O_SET},
    {"slda-eps", required_argument, 0, O_SET},
    {"methods", required_argument, 0, O_METHODS},
    {"format", required_argument, 0, O_FORMAT},
    {"save-state", required_argument, 0, O_SAVE},
    {"spectrum", required_argument, 0, O_SPECTRUM},
    {"theorem", no_argument, 0, O_THEOREM},
    {"split", required_argument, 0, O_SPLIT},
    {"quiet", no_argument, 0, O_QUIET},
    {"figure", required_argument, 0, O_FIGURE},
    {"output", required_argument, 0, 'o'},
    {"dpi", required_argument, 0, O_DPI},
    {"task", required_argument, 0, O_TASK},
    {"width-in", required_argument, 0, O_WIDTH},
    {"csv", required_argument, 0, O_CSV},
    {"param", required_argument, 0, O_PARAM},
    {"seeds", required_argument, 0, O_SEEDS},
    {"objective", required_argument, 0, O_OBJECTIVE},
    {"out", required_argument, 0, O_OUTDIR},
    {"ascii", no_argument, 0, O_ASCII},
    {"preset", required_argument, 0, O_PRESET},
    {"session", required_argument, 0, O_SESSION},
    {"tour", optional_argument, 0, O_TOUR},
    {"help", no_argument, 0, O_HELP},
    {"version", no_argument, 0, O_VERSION},
    {0, 0, 0, 0}
};

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcasecmp(s + a - b, suf) == 0;
}

int op_parse(op_opts *o, int argc, char **argv)
{
    op_defaults(o);
    int first = 1;
    if (argc > 1 && argv[1][0] != '-') {
        const char *c = argv[1];
        if (!strcmp(c, "run")) o->cmd = OP_CMD_RUN;
        else if (!strcmp(c, "export")) o->cmd = OP_CMD_EXPORT;
        else if (!strcmp(c, "sweep")) o->cmd = OP_CMD_SWEEP;
        else if (!strcmp(c, "synth")) o->cmd = OP_CMD_SYNTH;
        else if (!strcmp(c, "tune")) o->cmd = OP_CMD_TUNE;
        else if (!strcmp(c, "tui")) o->cmd = OP_CMD_TUI;
        else return gs_error(GS_EINPUT, "unknown command '%s' (expected run, export, sweep, tune, synth; see --help)", c);
        first = 2;
    }
    int user_methods = 0;
    optind = 1;
    opterr = 0;
    /* getopt_long permutes argv; parse the part after the subcommand. */
    int ac = argc - first + 1;
    char **av = argv + first - 1;
    int c, li = -1;
    while ((c = getopt_long(ac, av, ":o:hV", LONG, &li)) != -1) {
        const char *name = li >= 0 ? LONG[li].name : "";
        int st = GS_OK;
        long l;
        switch (c) {
        case O_SET: st = op_set(o, name, optarg); break;
        case O_SYNTH: o->data.synthetic = 1; break;
        case O_DATA:
            /* In `export`, --data FILE.csv names the CSV with the numbers behind the figure
             * (SPEC §6); otherwise --data DIR is the input folder (SPEC §4). */
            if (o->cmd == OP_CMD_EXPORT && ends_with(optarg, ".csv")) o->data_csv = optarg;
            else o->data.data_dir = optarg;
            break;
        case O_CSV: o->data_csv = optarg; break;
        case O_IDX: o->data.idx_dir = optarg; break;
        case O_TRF: o->data.train_features = optarg; break;
        case O_TRL: o->data.train_labels = optarg; break;
        case O_TEF: o->data.test_features = optarg; break;
        case O_TEL: o->data.test_labels = optarg; break;
        case O_LABELCOL:
            if ((st = parse_long("--label-col", optarg, &l))) break;
            if (l < -1 || l > 1000000) { st = gs_error(GS_EINPUT, "--label-col: must be ≥ 0 (or -1 for the last column), got %ld", l); break; }
            o->data.label_col = (int)l;
            break;
        case O_NONORM: o->data.no_normalize = 1; break;
        case O_EXPAND:
            if ((st = parse_long("--expand", optarg, &l))) break;
            if (l < 0) { st = gs_error(GS_EINPUT, "--expand: must be ≥ 0, got %ld", l); break; }
            o->data.expand = l;
            break;
        case O_PROJ: st = parse_enum("--projection", optarg, PROJ_NAMES, 2, &o->data.projection); break;
        case O_MAXMEM: st = parse_bytes("--max-memory", optarg, &o->data.max_memory); break;
        case O_METHODS: {
            if (!user_methods) { o->n_methods = 0; user_methods = 1; }
            char *s = optarg;
            while (s && *s) {
                char *comma = strchr(s, ',');
                if (comma) *comma = '\0';
                if (*s) {
                    if (o->n_methods >= OP_MAX_METHODS) { st = gs_error(GS_EINPUT, "--methods: at most %d methods", OP_MAX_METHODS); break; }
                    for (int k = 0; k < o->n_methods; k++)
                        if (!strcmp(o->methods[k], s)) { st = gs_error(GS_EINPUT, "--methods: '%s' given twice", s); break; }
                    if (st) break;
                    o->methods[o->n_methods++] = s;
                }
                s = comma ? comma + 1 : NULL;
            }
            break;
        }
        case O_FORMAT: { int e; st = parse_enum("--format", optarg, FMT_NAMES, 3, &e); o->format = e; break; }
        case O_SAVE: o->save_state = optarg; break;
        case O_SPECTRUM: { int e; st = parse_enum("--spectrum", optarg, SPEC_NAMES, 3, &e); o->spectrum = e; break; }
        case O_THEOREM: o->theorem = 1; break;
        case O_SPLIT:
            if ((st = parse_long("--split", optarg, &l))) break;
            if (l < 1) { st = gs_error(GS_EINPUT, "--split: must be ≥ 1, got %ld", l); break; }
            o->theorem_r = (int)l;
            break;
        case O_QUIET: o->quiet = 1; break;
        case O_FIGURE: o->figure = optarg; break;
        case 'o': o->output = optarg; break;
        case O_DPI: st = parse_double("--dpi", optarg, &o->dpi); break;
        case O_TASK:
            if ((st = parse_long("--task", optarg, &l))) break;
            if (l < 1 || l > 1000000) { st = gs_error(GS_EINPUT, "--task: must be ≥ 1, got %ld", l); break; }
            o->task = (int)l;
            break;
        case O_WIDTH: st = parse_double("--width-in", optarg, &o->width_in); break;
        case O_PARAM:
            if (o->cmd == OP_CMD_TUNE) { /* tune: the names of the parameters to search */
                if (o->tune_params) { st = gs_error(GS_EINPUT, "--param: give the parameters once, comma-separated (tau,beta)"); break; }
                o->tune_params = optarg;
                break;
            }
            if (o->n_sweep >= OP_MAX_SWEEP) { st = gs_error(GS_EINPUT, "--param: at most %d parameters", OP_MAX_SWEEP); break; }
            if (!strchr(optarg, '=')) { st = gs_error(GS_EINPUT, "--param: expected NAME=v1,v2,... got '%s'", optarg); break; }
            o->sweep_params[o->n_sweep++] = optarg;
            break;
        case O_SEEDS: o->seeds = optarg; break;
        case O_OBJECTIVE: {
            int e;
            if (o->cmd != OP_CMD_TUNE) { st = gs_error(GS_EINPUT, "--objective: only for the tune command"); break; }
            st = parse_enum("--objective", optarg, OBJ_NAMES, 3, &e);
            o->objective = e;
            break;
        }
        case O_OUTDIR: o->out_dir = optarg; break;
        case O_ASCII: o->ascii = 1; break;
        case O_PRESET: o->preset = optarg; break;
        case O_SESSION: o->session = optarg; break;
        case O_TOUR:
            /* --tour, --tour NAME or --tour=NAME (a following word that is not an option) */
            if (o->cmd != OP_CMD_TUI) { st = gs_error(GS_EINPUT, "--tour: only for the TUI (gsrscope --tour)"); break; }
            if (!optarg && optind < ac && av[optind][0] && av[optind][0] != '-') optarg = av[optind++];
            o->tour = optarg ? optarg : "";
            break;
        case 'h': case O_HELP: o->help = 1; break;
        case 'V': case O_VERSION: o->version = 1; break;
        case ':':
            return gs_error(GS_EINPUT, "option %s needs a value (see --help)", av[optind - 1]);
        case '?':
        default:
            if (optopt) return gs_error(GS_EINPUT, "unknown option '-%c' (see --help)", optopt);
            return gs_error(GS_EINPUT, "unknown option '%s' (see --help)", av[optind - 1]);
        }
        if (st) return st;
        li = -1;
    }
    if (optind < ac)
        return gs_error(GS_EINPUT, "unexpected argument '%s' (see --help)", av[optind]);
    if (o->help || o->version) return GS_OK;
    int st = op_validate(o);
    if (st) return st;
    if (o->n_methods < 1) return gs_error(GS_EINPUT, "--methods: give at least one method");
    int nfiles = !!o->data.train_features + !!o->data.train_labels + !!o->data.test_features + !!o->data.test_labels;
    if (nfiles && nfiles != 4)
        return gs_error(GS_EINPUT, "--train-features, --train-labels, --test-features and --test-labels go together (got %d of 4)", nfiles);
    int nsrc = o->data.synthetic + !!o->data.data_dir + !!o->data.idx_dir + (nfiles == 4);
    if (nsrc > 1)
        return gs_error(GS_EINPUT, "give one data source: --synthetic, --data DIR, --idx DIR or the four --train-/--test- files");
    if (o->cmd == OP_CMD_EXPORT) {
        if (!o->figure) return gs_error(GS_EINPUT, "export: --figure NAME is required (accuracy, spectrum, stable-rank, dashboard, ...)");
        if (!o->output) return gs_error(GS_EINPUT, "export: -o FILE is required (.png, .svg or .pdf)");
    }
    if (o->cmd == OP_CMD_SYNTH && !o->out_dir)
        return gs_error(GS_EINPUT, "synth: --out DIR is required");
    if (o->cmd == OP_CMD_TUNE && !o->tune_params)
        return gs_error(GS_EINPUT, "tune: give the parameters to search, e.g. --param tau,beta");
    if (o->cmd == OP_CMD_TUNE && o->proto.val_frac <= 0)
        return gs_error(GS_EINPUT, "tune: needs a validation split, e.g. --val-frac 0.2 (tune never chooses on test accuracy)");
    if (o->cmd == OP_CMD_SWEEP && o->n_sweep == 0 && !o->seeds)
        return gs_error(GS_EINPUT, "sweep: give at least one --param NAME=v1,v2,...");
    return GS_OK;
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
