/* cli/tune.c — `gsrscope tune`: each method's hyperparameters chosen on the validation rows, with
 * the search of gs_tune.h; the table, CSV or JSON of the choices, and with -o FILE the file of
 * chosen values `run/table/export --tuned FILE` reads (gs_cli.h).
 *
 *   gsrscope tune --val-frac F [--methods a,b] [--param NAME,...] [--objective acc|tail|balanced]
 *                 [--seeds 1,2,3] [--format table|csv|json] [-o FILE] [data, protocol options]
 *
 * The objective is read from the validation rows after the last task: acc = sample-weighted
 * accuracy, tail = mean per-class accuracy of the tail classes, balanced = the mean of the head
 * and tail per-class accuracies. Test rows are predicted by the engine as always but never read
 * to choose; the test numbers printed are those of the fit without the validation rows.
 * What is searched: each method the tunable rows of the parameter table (pa_tunable) it uses
 * (mt_uses): without --param every one, τ first, then the learner's own (SLDA ε, KLDA γ and reg,
 * FeCAM α and Tukey power), then β and the augmenter's (α_base, ξ, gauss-a, gauss-b); with --param
 * the listed ones it uses, in the order given, the others reported as skipped ("slda: tau not
 * used"); a method using none is reported ("ncm: nothing to tune"), never refused. RanPAC's ridge
 * (τ, its λ) is chosen by its own validation grid (tn_lambda_search, the grid `run --val-frac`
 * searches), not by a second search.
 * Search, per method and one parameter at a time (coordinate-wise, one pass; the others held at
 * their current values): a coarse grid over the parameter's range, then (for the ridge's and
 * the augmenters' parameters, tn_refines) a golden-section refinement between the grid
 * neighbours of the best grid point; the best point evaluated wins (ties: the first evaluated).
 * Each evaluation is an en_update of an engine that keeps every task's Gram matrices, so a τ or β
 * change re-solves from cached Grams and an α_base/ξ change regenerates only the synthetic rows;
 * an evaluation stops once the last task is reported.
 * With --seeds every seed has its own stream, split, problem and engine (gs_pipeline.h
 * pl_open_seeds), every point is evaluated on all of them and the choice maximizes the mean
 * objective; the numbers are printed as mean ± sample std over the seeds.
 * Every report ends with the command that reproduces it (tn_command).
 */
#include "cli_int.h"
#include "gs_tune.h"
#include "gs_common.h"
#include "gs_io.h"
#include "gs_json.h"
#include "gs_pipeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the command -------------------------------------------------------------------------- */

#define TN_MAX_PARAMS 32 /* the parameter table's tunable rows at most */
#define TN_MAX_SEEDS 32  /* every seed keeps its own problem and engine alive during the search */
#define TN_TRACE_CAP 512 /* the points one method's search records for the JSON */

/* What the test numbers are: the engine's fit on the training rows without the validation rows. */
static const char TEST_FIT[] = "the fit without the validation rows";

/* The numbers reported per method: the objective and validation numbers, then the test ones. */
enum { N_OBJ, N_VACC, N_VHEAD, N_VTAIL, N_VAVG, N_ALAST, N_AAVG, N_HEAD, N_TAIL, TN_NNUM, N_TEST0 = N_ALAST };
static const char *const NUM_KEY[TN_NNUM] = {"objective", "acc", "head_acc", "tail_acc", "a_avg",
                                             "a_last", "a_avg", "head_acc", "tail_acc"};
static const char *const NUM_CSV[TN_NNUM] = {"objective", "val_acc", "val_head_acc", "val_tail_acc", NULL,
                                             "test_a_last", "test_a_avg", "test_head_acc", "test_tail_acc"};

/* How a parameter stands for a method: not used, searched (grid, golden section), or RanPAC's λ
 * grid. */
enum { U_NO, U_SEARCH, U_LAMBDA };

typedef struct {
    const char *name;
    op_params q;                    /* chosen */
    int used[TN_MAX_PARAMS];        /* U_* */
    double v[TN_MAX_SEEDS][TN_NNUM]; /* per seed, at the chosen values */
    double mean[TN_NNUM], sd[TN_NNUM]; /* over the seeds (sd NaN with one seed) */
    int evals, failed;
    /* every point evaluated: parameter index, value, mean objective */
    int n_trace, trace_k[TN_TRACE_CAP];
    double trace_v[TN_TRACE_CAP], trace_f[TN_TRACE_CAP];
} tn_row;

typedef struct {
    int ns;
    const uint64_t *seeds;
    const pl_ctx *c;                /* ns contexts */
} tn_seeds;

/* The parameters tune considers: --param's names in the order given, or every tunable row
 * (sp_default's order). */
typedef struct {
    const tn_space *sp[TN_MAX_PARAMS];
    int n, given;                   /* given: from --param */
} tn_plist;

/* Without --param: τ, a learner's statistics, β, then the augmenters' rows (table order within). */
static int search_rank(const tn_space *s)
{
    if (s->dep & EN_DEP_TAU) return 0;
    if (!tn_refines(s)) return 1;
    return s->dep & EN_DEP_BETA ? 2 : 3;
}

static void sp_default(tn_plist *L)
{
    L->n = L->given = 0;
    for (int rank = 0; rank < 4; rank++)
        for (int i = 0; i < pa_count() && L->n < TN_MAX_PARAMS; i++)
            if (pa_tunable(&pa_table()[i]) && search_rank(&pa_table()[i]) == rank) L->sp[L->n++] = &pa_table()[i];
}

static int parse_params(const char *list, tn_plist *L)
{
    if (!list) { sp_default(L); return GS_OK; }
    char buf[512];
    if (strlen(list) >= sizeof buf) return gs_error(GS_EINPUT, "--param: list too long");
    snprintf(buf, sizeof buf, "%s", list);
    L->n = 0;
    L->given = 1;
    for (char *p = buf, *tok; (tok = strsep(&p, ","));) {
        const tn_space *s = tn_space_find(tok);
        if (!s) {
            char names[512] = "";
            int n = 0, k = 0;
            for (int i = 0; i < pa_count(); i++) n += pa_tunable(&pa_table()[i]);
            for (int i = 0; i < pa_count(); i++) /* "a, b and c": the table's tunable rows */
                if (pa_tunable(&pa_table()[i])) {
                    size_t len = strlen(names);
                    snprintf(names + len, sizeof names - len, "%s%s", k == 0 ? "" : k == n - 1 ? " and " : ", ", pa_key(&pa_table()[i]));
                    k++;
                }
            return gs_error(GS_EINPUT, "--param: tune searches %s, not '%s'", names, tok);
        }
        for (int k = 0; k < L->n; k++)
            if (L->sp[k] == s) return gs_error(GS_EINPUT, "--param: '%s' given twice", tok);
        if (L->n == TN_MAX_PARAMS) return gs_error(GS_EINPUT, "--param: at most %d parameters", TN_MAX_PARAMS);
        L->sp[L->n++] = s;
    }
    return GS_OK;
}

/* 1 when the method's learner chooses its own ridge on the validation rows (RanPAC's λ). */
static int own_lambda(const char *method)
{
    en_method m;
    return mt_parse(method, &m) == GS_OK && (en_method_deps(&m) & EN_DEP_LAMBDA);
}

/* How method `name` stands to parameter s (U_*). */
static int use_of(const char *name, const tn_space *s)
{
    if (!mt_uses(name, pa_key(s))) return U_NO;
    return (s->dep & EN_DEP_TAU) && own_lambda(name) ? U_LAMBDA : U_SEARCH;
}

/* 1 when the method uses any tunable row of the table (not only the listed ones). */
static int tunes_anything(const char *name)
{
    for (int i = 0; i < pa_count(); i++)
        if (pa_tunable(&pa_table()[i]) && mt_uses(name, pa_key(&pa_table()[i]))) return 1;
    return 0;
}

/* ---- the command that reproduces the report ------------------------------------------------ */

/* One argument, quoted for a POSIX shell when it holds anything but safe characters. */
static void put_arg(FILE *f, const char *s)
{
    static const char SAFE[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,+@%-";
    fputc(' ', f);
    if (s[0] && strspn(s, SAFE) == strlen(s)) { fputs(s, f); return; }
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", f);
        else fputc(*s, f);
    }
    fputc('\'', f);
}

static void put_opt(FILE *f, const char *opt, const char *v)
{
    put_arg(f, opt);
    if (v) put_arg(f, v);
}

/* "gsrscope tune ..." with the effective values (presets and sessions resolved): the data source,
 * every parameter not at its default (as op_get writes it: exact), the methods, tune's own
 * options and -o. */
static void tn_command(FILE *f, const op_opts *o)
{
    const op_data *d = &o->data;
    char v[64];
    fputs("gsrscope tune", f);
    if (d->synthetic) put_opt(f, "--synthetic", NULL);
    if (d->sample) put_opt(f, "--sample", d->sample);
    if (d->data_dir) put_opt(f, "--data", d->data_dir);
    if (d->idx_dir) put_opt(f, "--idx", d->idx_dir);
    if (d->train_features) {
        put_opt(f, "--train-features", d->train_features);
        put_opt(f, "--train-labels", d->train_labels);
        put_opt(f, "--test-features", d->test_features);
        put_opt(f, "--test-labels", d->test_labels);
    }
    if (d->label_col != -1) { snprintf(v, sizeof v, "%d", d->label_col); put_opt(f, "--label-col", v); }
    if (d->no_normalize) put_opt(f, "--no-normalize", NULL);
    if (d->max_memory > 0) { snprintf(v, sizeof v, "%.0f", d->max_memory); put_opt(f, "--max-memory", v); }
    op_opts *def = gs_malloc(1, sizeof *def, "tune");
    if (def) {
        op_defaults(def);
        for (int i = 0; i < pa_count(); i++) {
            char a[64], b[64], opt[48];
            const pa_param *r = &pa_table()[i];
            if (op_get(o, r->name, a, sizeof a) || op_get(def, r->name, b, sizeof b) || !strcmp(a, b)) continue;
            snprintf(opt, sizeof opt, "--%s", r->name);
            put_opt(f, opt, a);
        }
        free(def);
    }
    char list[OP_MAX_METHODS * 40] = "";
    for (int m = 0; m < o->n_methods; m++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", m ? "," : "", o->methods[m]);
    put_opt(f, "--methods", list);
    if (o->tune_params) put_opt(f, "--param", o->tune_params);
    static const char *const OBJ[] = {"acc", "tail", "balanced"}, *const FMT[] = {"table", "csv", "json"};
    if (o->objective != OP_OBJ_ACC) put_opt(f, "--objective", OBJ[o->objective]);
    if (o->seeds) put_opt(f, "--seeds", o->seeds);
    if (o->format != OP_FMT_TABLE && (int)o->format < 3) put_opt(f, "--format", FMT[o->format]);
    if (o->output) put_opt(f, "-o", o->output);
}

/* The command as one string (for JSON); NULL when out of memory. */
static char *command_text(const op_opts *o)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return NULL;
    tn_command(f, o);
    fclose(f);
    return buf;
}

static void csv_num(FILE *f, double v) { fputc(',', f); if (isfinite(v)) fprintf(f, "%.4f", v); }

static void json_num(FILE *f, const char *key, double v, int comma)
{
    if (isfinite(v)) fprintf(f, "\"%s\": %.17g", key, v);
    else fprintf(f, "\"%s\": null", key);
    if (comma) fputs(", ", f);
}

/* A table cell: the value, or mean ± std with several seeds, right-aligned in w columns. */
static void tnum(FILE *f, double v, double sd, int several, int w)
{
    char b[48];
    if (!isfinite(v)) snprintf(b, sizeof b, "—");
    else if (several && isfinite(sd)) snprintf(b, sizeof b, "%.2f ± %.2f", v, sd);
    else snprintf(b, sizeof b, "%.2f", v);
    int extra = 0; /* "±" and "—" are several bytes, one column */
    for (const char *p = b; *p; p++) extra += ((unsigned char)*p & 0xC0) == 0x80;
    fprintf(f, " %*s", w + extra, b);
}

static const char *const OBJ_DESC[] = {
    "validation accuracy after the last task", "validation tail accuracy after the last task",
    "mean of validation head and tail accuracy after the last task"};
static const char *const OBJ_NAME[] = {"acc", "tail", "balanced"};

/* -1 / +1 when the chosen value is the low / high end of the search range, else 0 (RanPAC's λ:
 * its own grid's ends). */
static int at_edge(const tn_row *r, const tn_space *sp, int use)
{
    double v = tn_get(&r->q, sp);
    double lo = use == U_LAMBDA ? TN_LAMBDA_LO : sp->tune_lo, hi = use == U_LAMBDA ? TN_LAMBDA_HI : sp->tune_hi;
    return v <= lo ? -1 : v >= hi ? 1 : 0;
}

/* The validation and test groups of JSON: {"objective": …, …} from values x. */
static void json_groups(FILE *f, const double *x, const char *suffix)
{
    fprintf(f, "\"validation%s\": {", suffix);
    for (int j = N_OBJ; j < N_TEST0; j++) json_num(f, NUM_KEY[j], x[j], j + 1 < N_TEST0);
    fprintf(f, "}, \"test%s\": {", suffix);
    for (int j = N_TEST0; j < TN_NNUM; j++) json_num(f, NUM_KEY[j], x[j], j + 1 < TN_NNUM);
    fputc('}', f);
}

/* Which parameters the report lists: those some method searched (with --param: every one given). */
static int shown(const tn_plist *L, const tn_row *rows, int nm, int k)
{
    if (L->given) return 1;
    for (int m = 0; m < nm; m++)
        if (rows[m].used[k]) return 1;
    return 0;
}

static void write_csv(FILE *f, const op_opts *o, const tn_seeds *S, const tn_row *rows, int nm, const tn_plist *L)
{
    int several = S->ns > 1;
    fputs("method", f);
    for (int k = 0; k < L->n; k++)
        if (shown(L, rows, nm, k)) fprintf(f, ",%s", pa_key(L->sp[k]));
    if (several) fputs(",seeds", f);
    for (int j = 0; j < TN_NNUM; j++)
        if (NUM_CSV[j]) { fprintf(f, ",%s", NUM_CSV[j]); if (several) fprintf(f, ",%s_std", NUM_CSV[j]); }
    fputs(",evaluations,skipped\n", f);
    for (int m = 0; m < nm; m++) {
        const tn_row *r = &rows[m];
        fputs(r->name, f);
        for (int k = 0; k < L->n; k++) {
            if (!shown(L, rows, nm, k)) continue;
            fputc(',', f);
            if (r->used[k]) fprintf(f, "%.6g", tn_get(&r->q, L->sp[k]));
        }
        if (several) fprintf(f, ",%d", S->ns);
        for (int j = 0; j < TN_NNUM; j++)
            if (NUM_CSV[j]) { csv_num(f, r->mean[j]); if (several) csv_num(f, r->sd[j]); }
        fprintf(f, ",%d,", r->evals);
        int first = 1;
        for (int k = 0; k < L->n; k++) /* "tau not used" / "nothing to tune", ';'-separated */
            if (!r->used[k] && (L->given || !tunes_anything(r->name))) {
                if (!tunes_anything(r->name)) { fputs("nothing to tune", f); break; }
                fprintf(f, "%s%s not used", first ? "" : ";", pa_key(L->sp[k]));
                first = 0;
            }
        fputc('\n', f);
    }
    fprintf(f, "# test_*: the test accuracy of %s\n# reproduce: ", TEST_FIT);
    tn_command(f, o);
    fputc('\n', f);
}

static void write_json(FILE *f, const op_opts *o, const tn_seeds *S, const tn_row *rows, int nm, const tn_plist *L)
{
    int several = S->ns > 1;
    fprintf(f, "{\n\"objective\": \"%s\", \"val_frac\": %.17g, ", OBJ_NAME[o->objective], o->proto.val_frac);
    if (!several) {
        fprintf(f, "\"val_rows\": %ld, \"val_classes_unsplit\": %d, \"seed\": %llu,\n", S->c[0].prob.val_h.rows,
                S->c[0].st.val_no_split, (unsigned long long)S->seeds[0]);
    } else {
        fputs("\"seeds\": [", f);
        for (int k = 0; k < S->ns; k++) fprintf(f, "%s%llu", k ? ", " : "", (unsigned long long)S->seeds[k]);
        fputs("], \"val_rows\": [", f);
        for (int k = 0; k < S->ns; k++) fprintf(f, "%s%ld", k ? ", " : "", S->c[k].prob.val_h.rows);
        fputs("], \"val_classes_unsplit\": [", f);
        for (int k = 0; k < S->ns; k++) fprintf(f, "%s%d", k ? ", " : "", S->c[k].st.val_no_split);
        fputs("],\n\"chosen_on\": \"the mean of the validation objective over the seeds\",\n", f);
    }
    fputs("\"data\": ", f);
    json_str(f, S->c[0].prob.data_name);
    fprintf(f, ",\n\"test_fit\": \"%s\",\n", TEST_FIT);
    fprintf(f, "\"search\": {\"golden_steps\": %d, \"params\": [", TN_GOLDEN_STEPS);
    for (int k = 0, first = 1; k < L->n; k++) {
        if (!shown(L, rows, nm, k)) continue;
        fprintf(f, "%s{\"name\": \"%s\", \"lo\": %.17g, \"hi\": %.17g, \"scale\": \"%s\", \"grid\": %d, \"refined\": %s}",
                first ? "" : ", ", pa_key(L->sp[k]), L->sp[k]->tune_lo, L->sp[k]->tune_hi, L->sp[k]->tune_log ? "log" : "linear",
                L->sp[k]->tune_grid, tn_refines(L->sp[k]) ? "true" : "false");
        first = 0;
    }
    fprintf(f, "], \"ranpac_lambda\": {\"lo\": %.17g, \"hi\": %.17g, \"scale\": \"log\", \"grid\": %d, \"refined\": false}},\n",
            TN_LAMBDA_LO, TN_LAMBDA_HI, TN_LAMBDA_N);
    fputs("\"methods\": [\n", f);
    for (int m = 0; m < nm; m++) {
        const tn_row *r = &rows[m];
        fprintf(f, "  {\"name\": \"%s\", \"chosen\": {", r->name);
        int first = 1;
        for (int k = 0; k < L->n; k++)
            if (r->used[k]) { fprintf(f, "%s\"%s\": %.17g", first ? "" : ", ", pa_key(L->sp[k]), tn_get(&r->q, L->sp[k])); first = 0; }
        fputs("}, \"not_used\": [", f);
        first = 1;
        for (int k = 0; k < L->n; k++)
            if (!r->used[k] && L->given) { fprintf(f, "%s\"%s\"", first ? "" : ", ", pa_key(L->sp[k])); first = 0; }
        fputs("], \"skipped\": [", f);
        first = 1;
        for (int k = 0; k < L->n; k++)
            if (!r->used[k] && (L->given || !tunes_anything(r->name))) {
                if (!tunes_anything(r->name)) { fputs("\"nothing to tune\"", f); break; }
                fprintf(f, "%s\"%s not used\"", first ? "" : ", ", pa_key(L->sp[k]));
                first = 0;
            }
        fputs("], \"own_search\": [", f);
        first = 1;
        for (int k = 0; k < L->n; k++)
            if (r->used[k] == U_LAMBDA) { fprintf(f, "%s\"%s\"", first ? "" : ", ", pa_key(L->sp[k])); first = 0; }
        fputs("], \"at_range_edge\": [", f);
        first = 1;
        for (int k = 0; k < L->n; k++)
            if (r->used[k] && at_edge(r, L->sp[k], r->used[k])) { fprintf(f, "%s\"%s\"", first ? "" : ", ", pa_key(L->sp[k])); first = 0; }
        fputs("],\n   ", f);
        json_groups(f, r->mean, "");
        if (several) {
            fputs(",\n   ", f);
            json_groups(f, r->sd, "_std");
            fputs(",\n   \"per_seed\": [", f);
            for (int k = 0; k < S->ns; k++) {
                fprintf(f, "%s{\"seed\": %llu, ", k ? ", " : "", (unsigned long long)S->seeds[k]);
                json_groups(f, r->v[k], "");
                fputc('}', f);
            }
            fputc(']', f);
        }
        fprintf(f, ",\n   \"n_evaluations\": %d, \"evaluations\": [", r->evals);
        for (int i = 0; i < r->n_trace && i < TN_TRACE_CAP; i++) {
            fprintf(f, "%s{\"param\": \"%s\", \"value\": %.17g, ", i ? ", " : "", pa_key(L->sp[r->trace_k[i]]), r->trace_v[i]);
            json_num(f, "objective", r->trace_f[i], 0);
            fputc('}', f);
        }
        fprintf(f, "]}%s\n", m + 1 < nm ? "," : "");
    }
    fputs("],\n\"tuned_file\": ", f);
    if (o->output) json_str(f, o->output); else fputs("null", f);
    fputs(",\n\"reproduce\": ", f);
    char *cmd = command_text(o);
    json_str(f, cmd ? cmd : "");
    free(cmd);
    fputs("\n}\n", f);
}

/* "tau=0.1208 beta=0.382" (λ marked), or "—". */
static void chosen_text(const tn_row *r, const tn_plist *L, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int k = 0; k < L->n && n < cap; k++)
        if (r->used[k]) n += (size_t)snprintf(buf + n, cap - n, "%s%s=%.4g%s", n ? " " : "", pa_key(L->sp[k]),
                                              tn_get(&r->q, L->sp[k]), r->used[k] == U_LAMBDA ? " (λ)" : "");
    if (!buf[0]) snprintf(buf, cap, "—");
}

static void write_table(FILE *f, const op_opts *o, const tn_seeds *S, const tn_row *rows, int nm, const tn_plist *L)
{
    int several = S->ns > 1, w = several ? 14 : 7;
    fprintf(f, "tune: %s; objective %s (%s)\n", S->c[0].prob.data_name, OBJ_NAME[o->objective], OBJ_DESC[o->objective]);
    if (several) {
        fputs("seeds", f);
        for (int k = 0; k < S->ns; k++) fprintf(f, "%c%llu", k ? ',' : ' ', (unsigned long long)S->seeds[k]);
        fputs(": each its own validation split and stream; the choice maximizes the objective's mean over them, "
              "the numbers are mean ± std over them\n", f);
        fputs("validation:", f);
        for (int k = 0; k < S->ns; k++) fprintf(f, "%s %ld", k ? "," : "", S->c[k].prob.val_h.rows);
        fprintf(f, " rows held out (--val-frac %g; classes with < 2 rows keep theirs:", o->proto.val_frac);
        for (int k = 0; k < S->ns; k++) fprintf(f, "%s %d", k ? "," : "", S->c[k].st.val_no_split);
        fputs("); test rows never read to choose\n", f);
    } else {
        fprintf(f, "validation: %ld rows held out (--val-frac %g; %d classes with < 2 rows keep theirs); test rows never read to choose\n",
                S->c[0].prob.val_h.rows, o->proto.val_frac, S->c[0].st.val_no_split);
    }
    fputs("search:", f);
    int any_lambda = 0, any_grid_only = 0, k0 = 0;
    for (int k = 0; k < L->n; k++) {
        for (int m = 0; m < nm; m++) any_lambda |= rows[m].used[k] == U_LAMBDA;
        if (!shown(L, rows, nm, k)) continue;
        any_grid_only |= !tn_refines(L->sp[k]);
        fprintf(f, "%s %s %g..%g (%d points, %s%s)", k0++ ? ";" : "", pa_key(L->sp[k]), L->sp[k]->tune_lo, L->sp[k]->tune_hi,
                L->sp[k]->tune_grid, L->sp[k]->tune_log ? "log" : "linear", tn_refines(L->sp[k]) ? "" : ", grid only");
    }
    if (!k0) fputs(" nothing", f);
    fprintf(f, ", then %d golden-section steps%s; one parameter at a time, in that order\n", TN_GOLDEN_STEPS,
            any_grid_only ? " (not after a grid only)" : "");
    if (any_lambda)
        fprintf(f, "ranpac's tau is its λ, chosen by its own validation grid (%g..%g, %d points, log; as run --val-frac), "
                   "not searched again\n", TN_LAMBDA_LO, TN_LAMBDA_HI, TN_LAMBDA_N);
    /* the two groups over their columns: "validation (chosen on)" and the test's fit */
    int vw = 4 * (w + 1), tw = 4 * (w + 1);
    fprintf(f, "\n%-12s %-*s | %-*s |\n", "", vw - 1, "validation (chosen on)", tw - 1, "test (fit without the validation rows)");
    fprintf(f, "%-12s", "method");
    static const char *const TITLE[TN_NNUM] = {"val", "v.acc%", "v.head%", "v.tail%", NULL, "A_last", "A_avg", "head%", "tail%"};
    for (int j = 0; j < TN_NNUM; j++)
        if (TITLE[j]) fprintf(f, "%s %*s", j == N_TEST0 ? " |" : "", w, TITLE[j]);
    fprintf(f, " | %5s | %s\n", "evals", "chosen");
    for (int m = 0; m < nm; m++) {
        const tn_row *r = &rows[m];
        char ch[512];
        fprintf(f, "%-12s", r->name);
        for (int j = 0; j < TN_NNUM; j++) {
            if (!TITLE[j]) continue;
            if (j == N_TEST0) fputs(" |", f);
            tnum(f, r->mean[j], r->sd[j], several, w);
        }
        chosen_text(r, L, ch, sizeof ch);
        fprintf(f, " | %5d | %s\n", r->evals, ch);
    }
    fprintf(f, "\nval: the objective on the validation rows; A_last, A_avg, head%%, tail%%: test accuracy of %s, at the chosen values.\n",
            TEST_FIT);
    for (int m = 0; m < nm; m++) {
        const tn_row *r = &rows[m];
        if (!tunes_anything(r->name)) { fprintf(f, "%s: nothing to tune (it reads none of the tunable parameters)\n", r->name); continue; }
        char skipped[512] = "";
        for (int k = 0; L->given && k < L->n; k++)
            if (!r->used[k]) snprintf(skipped + strlen(skipped), sizeof skipped - strlen(skipped), "%s%s", skipped[0] ? ", " : "", pa_key(L->sp[k]));
        if (skipped[0]) fprintf(f, "%s: %s not used (skipped)\n", r->name, skipped);
    }
    for (int m = 0; m < nm; m++)
        for (int k = 0; k < L->n; k++) {
            int e = rows[m].used[k] ? at_edge(&rows[m], L->sp[k], rows[m].used[k]) : 0;
            if (e)
                fprintf(f, "note: %s's %s is at the %s end of its range (%g): the best value may lie beyond it.\n",
                        rows[m].name, pa_key(L->sp[k]), e < 0 ? "low" : "high", tn_get(&rows[m].q, L->sp[k]));
        }
    if (o->output) fprintf(f, "chosen values written to %s (run, table and export read it with --tuned)\n", o->output);
    fputs("reproduce: ", f);
    tn_command(f, o);
    fputc('\n', f);
}

/* The file of chosen values: '#' lines saying what was tuned, on what and how, then one line
 * METHOD.KEY=VALUE per value chosen (%.17g: read back exactly), as `--tuned FILE` reads it. */
static int write_tuned(const op_opts *o, const tn_seeds *S, const tn_row *rows, int nm, const tn_plist *L)
{
    io_atomic a;
    int rc = io_atomic_open(&a, o->output);
    if (rc) return rc;
    FILE *f = a.f;
    fprintf(f, "# gsrscope tune: each method's values chosen on the validation rows (edit freely;\n"
               "# run, table and export apply them with --tuned FILE, one METHOD.KEY=VALUE a line)\n");
    fprintf(f, "# data: %s\n", S->c[0].prob.data_name);
    fprintf(f, "# objective: %s (%s); val-frac %.15g; seed%s", OBJ_NAME[o->objective], OBJ_DESC[o->objective],
            o->proto.val_frac, S->ns > 1 ? "s" : "");
    for (int k = 0; k < S->ns; k++) fprintf(f, "%c%llu", k ? ',' : ' ', (unsigned long long)S->seeds[k]);
    fputc('\n', f);
    for (int m = 0; m < nm; m++) {
        const tn_row *r = &rows[m];
        char ch[512];
        chosen_text(r, L, ch, sizeof ch);
        if (!tunes_anything(r->name)) fprintf(f, "# %s: nothing to tune\n", r->name);
        else fprintf(f, "# %s: %s (validation objective %.4f; test A_last %.2f of %s)\n", r->name, ch, r->mean[N_OBJ],
                     r->mean[N_ALAST], TEST_FIT);
    }
    fputs("# reproduce: ", f);
    tn_command(f, o);
    fputc('\n', f);
    for (int m = 0; m < nm; m++)
        for (int k = 0; k < L->n; k++)
            if (rows[m].used[k]) fprintf(f, "%s.%s=%.17g\n", rows[m].name, pa_key(L->sp[k]), tn_get(&rows[m].q, L->sp[k]));
    return io_atomic_commit(&a);
}

/* Record the points of the last search (tr, from index from) as parameter k's. */
static void trace_mark(tn_row *row, int from, int k)
{
    for (int i = from; i < row->n_trace && i < TN_TRACE_CAP; i++) row->trace_k[i] = k;
}

/* Tune one method on its own engine per seed (so a τ change re-solves this method only); the
 * choice maximizes the mean objective over the seeds. */
static int tune_method(const tn_seeds *S, const op_opts *o, const tn_plist *L, const volatile int *cancel, tn_row *row)
{
    int rc, ns = S->ns;
    en_engine *eng[TN_MAX_SEEDS];
    const en_problem *prob[TN_MAX_SEEDS];
    for (int k = 0; k < ns; k++) eng[k] = S->c[k].eng, prob[k] = &S->c[k].prob;
    row->q = o->params;
    for (int k = 0; k < L->n; k++) {
        row->used[k] = use_of(row->name, L->sp[k]);
        if (!row->used[k]) continue;
        double best;
        int ev, from = row->n_trace < TN_TRACE_CAP ? row->n_trace : TN_TRACE_CAP;
        tn_trace tr = {row->trace_v + from, row->trace_f + from, TN_TRACE_CAP - from, 0};
        if (row->used[k] == U_LAMBDA) {
            if ((rc = tn_lambda_search(eng, prob, S->seeds, ns, 0, &row->q, o->objective, cancel, &best, &ev, &tr))) return rc;
        } else if ((rc = tn_search_traced(eng, S->seeds, ns, 0, &row->q, L->sp[k], o->objective, cancel, &best, &ev, &tr))) {
            return rc;
        }
        row->n_trace = from + tr.n;
        trace_mark(row, from, k);
        row->evals += ev;
    }
    row->evals++;
    for (int k = 0; k < ns; k++) {
        op_params q = row->q;
        q.seed = S->seeds[k]; /* as the seed's problem was built (the engine's own draws) */
        if ((rc = en_update(eng[k], &q, 1, cancel, NULL, NULL))) return rc;
        const en_results *r = en_get_results(eng[k]);
        const en_method_result *mr = &r->m[0];
        const en_snap *s = &mr->snaps[r->T - 1];
        int done = s->state == EN_DONE;
        double *x = row->v[k];
        /* A_last and A_avg from the snapshots: when the search's last point was the chosen one, the
         * engine has every task done but stopped before summing them (and this update had nothing
         * to recompute) */
        double a_avg = 0, v_avg = 0;
        int all = 1;
        for (int t = 0; t < r->T; t++) {
            all &= mr->snaps[t].state == EN_DONE;
            a_avg += mr->snaps[t].acc / r->T;
            v_avg += mr->snaps[t].val_acc / r->T;
        }
        x[N_OBJ] = tn_objective(r, 0, o->objective);
        x[N_VACC] = s->val_acc; x[N_VHEAD] = s->val_head_acc; x[N_VTAIL] = s->val_tail_acc;
        x[N_VAVG] = all ? v_avg : NAN;
        x[N_ALAST] = all ? s->acc : NAN; x[N_AAVG] = all ? a_avg : NAN;
        x[N_HEAD] = done ? s->head_acc : NAN;
        x[N_TAIL] = done ? s->tail_acc : NAN;
        if (!all && !cli_report_failed(r)) /* a failed task names itself */
            fprintf(stderr, "gsrscope: %s: not every task computed at the chosen values\n", row->name);
        row->failed |= !all || isnan(s->acc);
    }
    for (int j = 0; j < TN_NNUM; j++) {
        double v[TN_MAX_SEEDS];
        int cnt;
        for (int k = 0; k < ns; k++) v[k] = row->v[k][j];
        gs_mean_sd(v, ns, &row->mean[j], &row->sd[j], &cnt);
    }
    return GS_OK;
}

int cli_tune(op_opts *o)
{
    tn_plist L;
    int rc = parse_params(o->tune_params, &L), nm = o->n_methods, failed = 0, ns = 1;
    uint64_t seeds[TN_MAX_SEEDS] = {o->params.seed};
    tn_row *rows = gs_calloc(OP_MAX_METHODS, sizeof *rows, "tune");
    pl_ctx *c = gs_calloc(TN_MAX_SEEDS, sizeof *c, "tune");
    int open = 0;
    pg_state pg; /* a unit: a method, tuned over every seed */
    pg_init(&pg, "tune", nm, o->quiet);
    if (!rows || !c) { rc = GS_ENOMEM; goto out; }
    if (rc) goto out;
    if (o->output && (rc = io_check_output("-o", o->output, 0))) goto out; /* before any work */
    if (o->seeds && (rc = op_parse_seeds(o->seeds, seeds, TN_MAX_SEEDS, &ns))) goto out;
    for (int m = 0; m < nm; m++)
        if (!mt_known(o->methods[m])) { rc = mt_unknown(o->methods[m]); goto out; }
    for (int m = 0; m < nm; m++) {
        en_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.methods = (const char **)&o->methods[m];
        cfg.n_methods = 1;
        cfg.spectrum = OP_SPECTRUM_FINAL;
        cfg.keep_task_grams = 1;
        if ((rc = mt_resolve(&cfg))) goto out;
        rows[m].name = o->methods[m];
        pg_work(&pg, o->methods[m], 0);
        if (!open) {
            rc = pl_open_seeds(c, ns, seeds, o, &cfg, NULL, NULL);
            if (rc == GS_EINPUT && strstr(gs_last_error(), "needs about")) {
                cfg.keep_task_grams = 0; /* too big to keep every task's Grams: recompute instead */
                rc = pl_open_seeds(c, ns, seeds, o, &cfg, NULL, NULL);
            }
            if (rc) goto out;
            open = 1;
            for (int k = 0; k < ns; k++)
                if (c[k].prob.val_h.rows == 0) {
                    char with[48] = "";
                    if (ns > 1) snprintf(with, sizeof with, " with seed %llu", (unsigned long long)seeds[k]);
                    rc = gs_error(GS_EINPUT, "tune: --val-frac %g holds out no rows%s (every class has fewer than 2)",
                                  o->proto.val_frac, with);
                    goto out;
                }
        } else {
            /* this method's engines, every task's Grams kept when they fit (pl_open_seeds checked
             * the first method's only) */
            double have = pl_have(o);
            if (have > 0 && ns * pl_need(&c[0], o, &cfg) > have) cfg.keep_task_grams = 0;
            for (int k = 0; k < ns; k++) {
                en_destroy(c[k].eng);
                c[k].eng = NULL;
                if ((rc = en_create(&c[k].eng, &c[k].prob, &cfg))) goto out;
            }
        }
        tn_seeds S = {ns, seeds, c};
        if ((rc = tune_method(&S, o, &L, NULL, &rows[m]))) goto out;
        failed += rows[m].failed;
        pg_done(&pg, o->methods[m]);
    }
    pg_clear(&pg);
    tn_seeds S = {ns, seeds, c};
    if (o->output && (rc = write_tuned(o, &S, rows, nm, &L))) goto out;
    if (o->format == OP_FMT_CSV) write_csv(stdout, o, &S, rows, nm, &L);
    else if (o->format == OP_FMT_JSON) write_json(stdout, o, &S, rows, nm, &L);
    else write_table(stdout, o, &S, rows, nm, &L);
    if (fflush(stdout) != 0 || ferror(stdout)) rc = gs_error(GS_ERUN, "standard output: write failed");
    else if (failed) rc = gs_error(GS_ERUN, "%d method%s failed at the chosen values (see the table)", failed, failed == 1 ? "" : "s");
out:
    pg_clear(&pg);
    if (open) pl_free_seeds(c, ns);
    free(rows);
    free(c);
    if (rc == GS_ECANCEL) return cli_interrupted();
    return rc ? cli_fail(rc) : 0;
}
