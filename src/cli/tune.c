/* cli/tune.c — `gsrscope tune`: hyperparameters chosen on the validation rows, per method, with
 * the search of gs_tune.h; the table, CSV or JSON of the choices (gs_cli.h).
 *
 *   gsrscope tune --val-frac F --methods a,b --param tau[,beta,alpha_base,xi]
 *                 [--objective acc|tail|balanced] [--seeds 1,2,3] [--format table|csv|json] [data, protocol options]
 *
 * The objective is read from the validation rows after the last task: acc = sample-weighted
 * accuracy, tail = mean per-class accuracy of the tail classes, balanced = the mean of the head
 * and tail per-class accuracies. Test rows are predicted by the engine as always but never read
 * to choose. Search, per method and one parameter at a time in the order given (coordinate-wise,
 * one pass; the others held at their current values): a coarse grid over the parameter's range
 * (τ and ξ on a log scale), then a golden-section refinement between the grid neighbours of the
 * best grid point; the best point evaluated wins (ties: the first evaluated). Parameters a method
 * does not use are left alone and reported as such. Each evaluation is an en_update of an engine
 * that keeps every task's Gram matrices, so a τ or β change re-solves from cached Grams and an
 * α_base/ξ change regenerates only the synthetic rows; an evaluation stops once the last task is
 * reported (with the Grams cached the engine computes that task first).
 * With --seeds every seed has its own stream, split, problem and engine (gs_pipeline.h
 * pl_open_seeds), every point is evaluated on all of them and the choice maximizes the mean
 * objective; the numbers are printed as mean ± sample std over the seeds.
 */
#include "cli_int.h"
#include "gs_tune.h"
#include "gs_common.h"
#include "gs_pipeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the command -------------------------------------------------------------------------- */

#define TN_MAX_PARAMS 4
#define TN_MAX_SEEDS 32  /* every seed keeps its own problem and engine alive during the search */

/* The numbers reported per method: the objective and validation numbers, then the test ones. */
enum { N_OBJ, N_VACC, N_VHEAD, N_VTAIL, N_VAVG, N_ALAST, N_AAVG, N_HEAD, N_TAIL, TN_NNUM, N_TEST0 = N_ALAST };
static const char *const NUM_KEY[TN_NNUM] = {"objective", "acc", "head_acc", "tail_acc", "a_avg",
                                             "a_last", "a_avg", "head_acc", "tail_acc"};
static const char *const NUM_CSV[TN_NNUM] = {"objective", "val_acc", "val_head_acc", "val_tail_acc", NULL,
                                             "test_a_last", "test_a_avg", "test_head_acc", "test_tail_acc"};

typedef struct {
    const char *name;
    op_params q;                    /* chosen */
    int used[TN_MAX_PARAMS];
    double v[TN_MAX_SEEDS][TN_NNUM]; /* per seed, at the chosen values */
    double mean[TN_NNUM], sd[TN_NNUM]; /* over the seeds (sd NaN with one seed) */
    int evals, failed;
} tn_row;

typedef struct {
    int ns;
    const uint64_t *seeds;
    const pl_ctx *c;                /* ns contexts */
} tn_seeds;

static int parse_params(const char *list, const tn_space **sp, int *n)
{
    char buf[256];
    if (strlen(list) >= sizeof buf) return gs_error(GS_EINPUT, "--param: list too long");
    snprintf(buf, sizeof buf, "%s", list);
    *n = 0;
    for (char *p = buf, *tok; (tok = strsep(&p, ","));) {
        const tn_space *s = tn_space_find(tok);
        if (!s) {
            char names[160] = "";
            int n = 0, k = 0;
            for (int i = 0; i < pa_count(); i++) n += pa_tunable(&pa_table()[i]);
            for (int i = 0; i < pa_count(); i++) /* "a, b and c": the table's tunable rows */
                if (pa_tunable(&pa_table()[i])) {
                    size_t L = strlen(names);
                    snprintf(names + L, sizeof names - L, "%s%s", k == 0 ? "" : k == n - 1 ? " and " : ", ", pa_key(&pa_table()[i]));
                    k++;
                }
            return gs_error(GS_EINPUT, "--param: tune searches %s, not '%s'", names, tok);
        }
        for (int k = 0; k < *n; k++)
            if (sp[k] == s) return gs_error(GS_EINPUT, "--param: '%s' given twice", tok);
        sp[(*n)++] = s;
    }
    return GS_OK;
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

/* -1 / +1 when the chosen value is the low / high end of the search range, else 0. */
static int at_edge(const tn_row *r, const tn_space *sp)
{
    double v = tn_get(&r->q, sp);
    return v <= sp->tune_lo ? -1 : v >= sp->tune_hi ? 1 : 0;
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

static void write_csv(FILE *f, const tn_seeds *S, const tn_row *rows, int nm, const tn_space *const *sp, int np)
{
    int several = S->ns > 1;
    fputs("method", f);
    for (int k = 0; k < np; k++) fprintf(f, ",%s", pa_key(sp[k]));
    if (several) fputs(",seeds", f);
    for (int j = 0; j < TN_NNUM; j++)
        if (NUM_CSV[j]) { fprintf(f, ",%s", NUM_CSV[j]); if (several) fprintf(f, ",%s_std", NUM_CSV[j]); }
    fputs(",evaluations\n", f);
    for (int m = 0; m < nm; m++) {
        const tn_row *r = &rows[m];
        fputs(r->name, f);
        for (int k = 0; k < np; k++) {
            fputc(',', f);
            if (r->used[k]) fprintf(f, "%.6g", tn_get(&r->q, sp[k]));
        }
        if (several) fprintf(f, ",%d", S->ns);
        for (int j = 0; j < TN_NNUM; j++)
            if (NUM_CSV[j]) { csv_num(f, r->mean[j]); if (several) csv_num(f, r->sd[j]); }
        fprintf(f, ",%d\n", r->evals);
    }
}

static void write_json(FILE *f, const op_opts *o, const tn_seeds *S, const tn_row *rows, int nm,
                       const tn_space *const *sp, int np)
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
    fprintf(f, "\"search\": {\"golden_steps\": %d, \"params\": [", TN_GOLDEN_STEPS);
    for (int k = 0; k < np; k++)
        fprintf(f, "%s{\"name\": \"%s\", \"lo\": %.17g, \"hi\": %.17g, \"scale\": \"%s\", \"grid\": %d}",
                k ? ", " : "", pa_key(sp[k]), sp[k]->tune_lo, sp[k]->tune_hi, sp[k]->tune_log ? "log" : "linear", sp[k]->tune_grid);
    fputs("]},\n\"methods\": [\n", f);
    for (int m = 0; m < nm; m++) {
        const tn_row *r = &rows[m];
        fprintf(f, "  {\"name\": \"%s\", \"chosen\": {", r->name);
        int first = 1;
        for (int k = 0; k < np; k++)
            if (r->used[k]) { fprintf(f, "%s\"%s\": %.17g", first ? "" : ", ", pa_key(sp[k]), tn_get(&r->q, sp[k])); first = 0; }
        fputs("}, \"not_used\": [", f);
        first = 1;
        for (int k = 0; k < np; k++)
            if (!r->used[k]) { fprintf(f, "%s\"%s\"", first ? "" : ", ", pa_key(sp[k])); first = 0; }
        fputs("], \"at_range_edge\": [", f);
        first = 1;
        for (int k = 0; k < np; k++)
            if (r->used[k] && at_edge(r, sp[k])) { fprintf(f, "%s\"%s\"", first ? "" : ", ", pa_key(sp[k])); first = 0; }
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
        fprintf(f, ", \"evaluations\": %d}%s\n", r->evals, m + 1 < nm ? "," : "");
    }
    fputs("]\n}\n", f);
}

static void write_table(FILE *f, const op_opts *o, const tn_seeds *S, const tn_row *rows, int nm,
                        const tn_space *const *sp, int np)
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
    for (int k = 0; k < np; k++)
        fprintf(f, "%s %s %g..%g (%d points, %s)", k ? ";" : "", pa_key(sp[k]), sp[k]->tune_lo, sp[k]->tune_hi, sp[k]->tune_grid,
                sp[k]->tune_log ? "log" : "linear");
    fprintf(f, ", then %d golden-section steps; one parameter at a time, in that order\n\n", TN_GOLDEN_STEPS);
    fprintf(f, "%-12s", "method");
    for (int k = 0; k < np; k++) fprintf(f, " %10s", pa_key(sp[k]));
    static const char *const TITLE[TN_NNUM] = {"val", "v.acc%", "v.head%", "v.tail%", NULL, "A_last", "A_avg", "head%", "tail%"};
    for (int j = 0; j < TN_NNUM; j++)
        if (TITLE[j]) fprintf(f, "%s %*s", j == N_OBJ || j == N_TEST0 ? " |" : "", w, TITLE[j]);
    fprintf(f, " | %5s\n", "evals");
    for (int m = 0; m < nm; m++) {
        const tn_row *r = &rows[m];
        fprintf(f, "%-12s", r->name);
        for (int k = 0; k < np; k++) {
            if (r->used[k]) fprintf(f, " %10.4g", tn_get(&r->q, sp[k]));
            else fprintf(f, " %12s", "—");
        }
        for (int j = 0; j < TN_NNUM; j++) {
            if (!TITLE[j]) continue;
            if (j == N_OBJ || j == N_TEST0) fputs(" |", f);
            tnum(f, r->mean[j], r->sd[j], several, w);
        }
        fprintf(f, " | %5d\n", r->evals);
    }
    fputs("\nval: the objective on the validation rows; A_last, A_avg, head%, tail%: test accuracy at the chosen values.\n", f);
    for (int m = 0; m < nm; m++)
        for (int k = 0; k < np; k++)
            if (rows[m].used[k] && at_edge(&rows[m], sp[k]))
                fprintf(f, "note: %s's %s is at the %s end of its range (%g): the best value may lie beyond it.\n",
                        rows[m].name, pa_key(sp[k]), at_edge(&rows[m], sp[k]) < 0 ? "low" : "high", tn_get(&rows[m].q, sp[k]));
}

/* Tune one method on its own engine per seed (so a τ change re-solves this method only); the
 * choice maximizes the mean objective over the seeds. */
static int tune_method(const tn_seeds *S, const op_opts *o, const tn_space *const *sp, int np,
                       const volatile int *cancel, tn_row *row)
{
    int rc, ns = S->ns;
    en_engine *eng[TN_MAX_SEEDS];
    for (int k = 0; k < ns; k++) eng[k] = S->c[k].eng;
    row->q = o->params;
    for (int k = 0; k < np; k++) {
        row->used[k] = mt_uses(row->name, pa_key(sp[k]));
        if (!row->used[k]) continue;
        double best;
        int ev;
        if ((rc = tn_search(eng, S->seeds, ns, 0, &row->q, sp[k], o->objective, cancel, &best, &ev))) return rc;
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
        x[N_OBJ] = tn_objective(r, 0, o->objective);
        x[N_VACC] = s->val_acc; x[N_VHEAD] = s->val_head_acc; x[N_VTAIL] = s->val_tail_acc;
        x[N_VAVG] = mr->val_a_avg;
        x[N_ALAST] = mr->a_last; x[N_AAVG] = mr->a_avg;
        x[N_HEAD] = done ? s->head_acc : NAN;
        x[N_TAIL] = done ? s->tail_acc : NAN;
        row->failed |= isnan(mr->a_last);
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
    const tn_space *sp[TN_MAX_PARAMS];
    int np = 0, rc = parse_params(o->tune_params, sp, &np), nm = o->n_methods, failed = 0, ns = 1;
    uint64_t seeds[TN_MAX_SEEDS] = {o->params.seed};
    tn_row *rows = gs_calloc(OP_MAX_METHODS, sizeof *rows, "tune");
    pl_ctx *c = gs_calloc(TN_MAX_SEEDS, sizeof *c, "tune");
    int open = 0;
    pg_state pg; /* a unit: a method, tuned over every seed */
    pg_init(&pg, "tune", nm, o->quiet);
    if (!rows || !c) { rc = GS_ENOMEM; goto out; }
    if (rc) goto out;
    if (o->seeds && (rc = op_parse_seeds(o->seeds, seeds, TN_MAX_SEEDS, &ns))) goto out;
    for (int m = 0; m < nm; m++) {
        int any = 0;
        for (int k = 0; k < np; k++) any |= mt_uses(o->methods[m], pa_key(sp[k]));
        if (!mt_known(o->methods[m])) { rc = mt_unknown(o->methods[m]); goto out; }
        if (!any) { rc = gs_error(GS_EINPUT, "tune: %s uses none of --param %s", o->methods[m], o->tune_params); goto out; }
    }
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
            for (int k = 0; k < ns; k++) {
                en_destroy(c[k].eng);
                c[k].eng = NULL;
                if ((rc = en_create(&c[k].eng, &c[k].prob, &cfg))) goto out;
            }
        }
        tn_seeds S = {ns, seeds, c};
        if ((rc = tune_method(&S, o, sp, np, NULL, &rows[m]))) goto out;
        failed += rows[m].failed;
        pg_done(&pg, o->methods[m]);
    }
    pg_clear(&pg);
    tn_seeds S = {ns, seeds, c};
    if (o->format == OP_FMT_CSV) write_csv(stdout, &S, rows, nm, sp, np);
    else if (o->format == OP_FMT_JSON) write_json(stdout, o, &S, rows, nm, sp, np);
    else write_table(stdout, o, &S, rows, nm, sp, np);
    if (fflush(stdout) != 0 || ferror(stdout)) rc = gs_error(GS_ERUN, "standard output: write failed");
    else if (failed) rc = gs_error(GS_ERUN, "%d method%s failed at the chosen values (see the table)", failed, failed == 1 ? "" : "s");
out:
    pg_clear(&pg);
    if (open) pl_free_seeds(c, ns);
    free(rows);
    free(c);
    return rc ? cli_fail(rc) : 0;
}
