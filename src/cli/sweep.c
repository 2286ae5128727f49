/* cli/sweep.c — `gsrscope sweep`: a grid of runs, headless, summarized like the paper's Table 5
 * (gs_cli.h).
 *
 *   gsrscope sweep --param NAME=v1,v2,... [--param ...] [--seeds 1,2,3] [--methods ...]
 *                  [--format table|csv|json] [data and protocol options]
 *
 * NAME is any name op_set accepts (tau, beta, alpha-base, xi, max-aug, pairs, augment, gauss-a,
 * gauss-b, slda-eps, rho, tasks, head-frac, tail-shots, head-shots, profile, order, expand).
 * The grid is the Cartesian product of the --param lists (the last one varies fastest), run for
 * every seed of --seeds (default: --seed). One pipeline is reused while only method parameters
 * change (τ and β re-solve from cached Grams); protocol changes rebuild the stream, a new seed
 * rebuilds stream and problem (the data are loaded once). Progress goes to stderr (pg_*: a line
 * on a terminal, a line per grid point and seed otherwise; not with --quiet). Output: per grid point and method, A_last, A_avg, and head and
 * tail accuracy at the last task, as mean ± sample std over the seeds (std blank with 1 seed).
 * Exit status: 0, 1 if some run had a failed task (its numbers are left out), 2 on bad usage.
 */
#include "cli_int.h"
#include "gs_common.h"
#include "gs_engine.h"
#include "gs_json.h"
#include "gs_pipeline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SW_MAX_VALUES 256
#define SW_NSTAT 7 /* A_last, A_avg, head, tail (last task); with a validation split the same
                    * three last-task numbers on the validation rows */
#define SW_NTEST 4

typedef struct {
    char name[48];
    int n;
    char *val[SW_MAX_VALUES]; /* point into `buf` */
    char *buf;
} sw_axis;

static const char *const STAT_NAMES[SW_NSTAT] = {"a_last", "a_avg", "head", "tail", "val_a_last", "val_head", "val_tail"};
static const char *const STAT_TITLES[SW_NSTAT] = {"A_last", "A_avg", "head", "tail", "v.acc", "v.head", "v.tail"};
#define SW_VAL 4 /* index of the validation A_last: the best row is marked by it */

/* Names whose change keeps the stream and problem: the table's rows that invalidate only a
 * method's rows or statistics (gs_params.h). */
static int is_method_param(const char *name)
{
    const pa_param *r = pa_find(name);
    return r && r->dep != 0;
}

static int parse_axis(const char *spec, sw_axis *ax, const op_opts *o)
{
    memset(ax, 0, sizeof *ax);
    const char *eq = strchr(spec, '=');
    size_t nl = eq ? (size_t)(eq - spec) : 0;
    if (!eq || nl == 0 || nl >= sizeof ax->name)
        return gs_error(GS_EINPUT, "--param: expected NAME=v1,v2,... got '%s'", spec);
    memcpy(ax->name, spec, nl);
    ax->name[nl] = '\0';
    if (!strcmp(ax->name, "seed")) return gs_error(GS_EINPUT, "--param: use --seeds 1,2,3 to sweep the seed");
    ax->buf = strdup(eq + 1);
    if (!ax->buf) return gs_error(GS_ENOMEM, "--param: out of memory");
    for (char *p = ax->buf, *tok; (tok = strsep(&p, ","));) {
        if (!*tok) { gs_error(GS_EINPUT, "--param %s: empty value in '%s'", ax->name, eq + 1); free(ax->buf); ax->buf = NULL; return GS_EINPUT; }
        if (ax->n == SW_MAX_VALUES) { free(ax->buf); ax->buf = NULL; return gs_error(GS_EINPUT, "--param %s: at most %d values", ax->name, SW_MAX_VALUES); }
        ax->val[ax->n++] = tok;
        op_opts t = *o;
        int rc = op_set(&t, ax->name, tok);
        if (rc) {
            gs_error(GS_EINPUT, "--param %s=%s: %s", ax->name, tok, gs_last_error());
            free(ax->buf);
            ax->buf = NULL;
            return GS_EINPUT;
        }
    }
    return GS_OK;
}

/* Same stream and problem? (everything but the method parameters) */
static int same_problem(const op_opts *a, const op_opts *b)
{
    return a->params.seed == b->params.seed && !memcmp(&a->proto, &b->proto, sizeof a->proto) &&
           !memcmp(&a->data, &b->data, sizeof a->data);
}

static int same_data(const op_opts *a, const op_opts *b) { return !memcmp(&a->data, &b->data, sizeof a->data); }


static void cell(FILE *f, double mean, double sd, int width)
{
    char b[64];
    if (!isfinite(mean)) snprintf(b, sizeof b, "—");
    else if (isfinite(sd)) snprintf(b, sizeof b, "%.2f ± %.2f", mean, sd);
    else snprintf(b, sizeof b, "%.2f", mean);
    /* "±" and "—" take several bytes but one column: pad by display width */
    int extra = 0;
    for (const char *p = b; *p; p++) extra += ((unsigned char)*p & 0xC0) == 0x80;
    fprintf(f, " %*s", width + extra, b);
}

static void json_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.10g", v);
    else fputs("null", f);
}

/* A parameter value: a JSON number when it reads as one (tau=1e-2 gives 0.01), else a string
 * (pairs=all). */
static void json_value(FILE *f, const char *v)
{
    char *end;
    double x = strtod(v, &end);
    if (*v && !*end && isfinite(x)) json_num(f, x);
    else json_str(f, v);
}

int cli_sweep(op_opts *o)
{
    sw_axis ax[OP_MAX_SWEEP];
    int na = 0, rc = GS_OK;
    uint64_t seeds[CLI_MAX_SEEDS];
    int ns = 0;
    double *res = NULL;
    pl_ctx c;
    int open = 0;
    op_opts cur;
    pg_state pg; /* a unit: a grid point at a seed (every method in one engine) */
    pg_init(&pg, "sweep", 0, 1); /* silent until the grid is known */
    memset(&c, 0, sizeof c);
    for (int i = 0; i < o->n_sweep; i++) {
        if ((rc = parse_axis(o->sweep_params[i], &ax[na], o))) goto out;
        for (int j = 0; j < na; j++)
            if (!strcmp(ax[j].name, ax[na].name)) { free(ax[na].buf); rc = gs_error(GS_EINPUT, "--param %s: given twice", ax[na].name); goto out; }
        na++;
    }
    if (o->seeds) { if ((rc = op_parse_seeds(o->seeds, seeds, CLI_MAX_SEEDS, &ns))) goto out; }
    else { seeds[0] = o->params.seed; ns = 1; }
    long npts = 1;
    for (int i = 0; i < na; i++) {
        npts *= ax[i].n;
        if (npts > 100000) { rc = gs_error(GS_EINPUT, "sweep: the grid has more than 100000 points"); goto out; }
    }
    int nm = o->n_methods, keep = 0;
    for (int i = 0; i < na; i++) if (is_method_param(ax[i].name)) keep = 1;
    /* res[((pt*ns + s)*nm + m)*SW_NSTAT + k] */
    res = gs_malloc((size_t)npts * ns * nm * SW_NSTAT, sizeof(double), "sweep results");
    if (!res) { rc = GS_ENOMEM; goto out; }
    for (size_t i = 0; i < (size_t)npts * ns * nm * SW_NSTAT; i++) res[i] = NAN;
    int failed_runs = 0, nstat = SW_NTEST;
    char data_name[128] = "";
    pg_init(&pg, "sweep", npts * ns, o->quiet);
    for (int s = 0; s < ns; s++)
        for (long pt = 0; pt < npts; pt++) {
            op_opts w = *o;
            w.params.seed = seeds[s];
            char label[1024] = "";
            long rem = pt;
            int idx[OP_MAX_SWEEP];
            for (int i = na - 1; i >= 0; i--) { idx[i] = (int)(rem % ax[i].n); rem /= ax[i].n; }
            for (int i = 0; i < na; i++) {
                if ((rc = op_set(&w, ax[i].name, ax[i].val[idx[i]]))) goto out;
                size_t l = strlen(label);
                snprintf(label + l, sizeof label - l, "%s%.40s=%.40s", i ? " " : "", ax[i].name, ax[i].val[idx[i]]);
            }
            char unit[1100];
            snprintf(unit, sizeof unit, "%s seed=%llu", label, (unsigned long long)seeds[s]);
            pg_unit pu = {&pg, unit};
            pg_work(&pg, unit, 0);
            en_config cfg;
            memset(&cfg, 0, sizeof cfg);
            cfg.methods = (const char **)w.methods;
            cfg.n_methods = w.n_methods;
            cfg.spectrum = OP_SPECTRUM_FINAL;
            cfg.keep_task_grams = keep;
            if ((rc = mt_resolve(&cfg))) goto out;
            if (open && same_problem(&cur, &w)) {
                /* reuse: only method parameters changed */
            } else if (open && same_data(&cur, &w)) {
                if ((rc = pl_reseed(&c, &w, &cfg))) { pl_free(&c); open = 0; goto out; }
            } else {
                if (open) { pl_free(&c); open = 0; }
                rc = pl_open(&c, &w, &cfg, NULL, NULL);
                if (rc && keep) { cfg.keep_task_grams = keep = 0; rc = pl_open(&c, &w, &cfg, NULL, NULL); }
                if (rc) goto out;
                open = 1;
                snprintf(data_name, sizeof data_name, "%s", c.prob.data_name);
                if (c.prob.val_h.rows > 0) nstat = SW_NSTAT;
            }
            cur = w;
            rc = en_update(c.eng, &w.params, 1, NULL, pg_engine_cb, &pu);
            if (rc) goto out;
            const en_results *r = en_get_results(c.eng);
            int bad = 0;
            for (int m = 0; m < nm; m++) {
                double *v = res + (((size_t)pt * ns + s) * nm + m) * SW_NSTAT;
                const en_snap *last = &r->m[m].snaps[r->T - 1];
                for (int t = 0; t < r->T; t++) if (r->m[m].snaps[t].state != EN_DONE) bad = 1;
                v[0] = r->m[m].a_last;
                v[1] = r->m[m].a_avg;
                v[2] = last->state == EN_DONE ? last->head_acc : NAN;
                v[3] = last->state == EN_DONE ? last->tail_acc : NAN;
                v[4] = r->m[m].val_a_last;
                v[5] = last->state == EN_DONE ? last->val_head_acc : NAN;
                v[6] = last->state == EN_DONE ? last->val_tail_acc : NAN;
                if (bad && !o->quiet) {
                    for (int t = 0; t < r->T; t++)
                        if (r->m[m].snaps[t].state == EN_FAILED) {
                            pg_clear(&pg);
                            fprintf(stderr, "gsrscope: %s (%s seed=%llu)\n", r->m[m].snaps[t].error, label,
                                    (unsigned long long)seeds[s]);
                            break;
                        }
                }
            }
            failed_runs += bad;
            pg_done(&pg, unit);
        }
    pg_clear(&pg);

    /* ---- output ---- */
    FILE *f = stdout;
    double *tmp = gs_malloc((size_t)ns, sizeof(double), "sweep");
    if (!tmp) { rc = GS_ENOMEM; goto out; }
#define VAL(pt, s, m, k) res[(((size_t)(pt) * ns + (s)) * nm + (m)) * SW_NSTAT + (k)]
#define STAT(pt, m, k, mean, sd, cnt) do { for (int s_ = 0; s_ < ns; s_++) tmp[s_] = VAL(pt, s_, m, k); gs_mean_sd(tmp, ns, mean, sd, cnt); } while (0)
    /* With a validation split, each method's best grid point by the mean validation A_last
     * (the first of equals): marked, never chosen by a test number. */
    long best[OP_MAX_METHODS];
    for (int m = 0; m < nm; m++) {
        best[m] = -1;
        double bv = -INFINITY, mean, sd;
        int cnt;
        for (long pt = 0; nstat > SW_VAL && pt < npts; pt++) {
            STAT(pt, m, SW_VAL, &mean, &sd, &cnt);
            if (isfinite(mean) && mean > bv) { bv = mean; best[m] = pt; }
        }
    }
    if (o->format == OP_FMT_CSV) {
        for (int i = 0; i < na; i++) fprintf(f, "%s,", ax[i].name);
        fputs("seeds", f);
        for (int m = 0; m < nm; m++)
            for (int k = 0; k < nstat; k++) fprintf(f, ",%s_%s_mean,%s_%s_std", o->methods[m], STAT_NAMES[k], o->methods[m], STAT_NAMES[k]);
        for (int m = 0; nstat > SW_VAL && m < nm; m++) fprintf(f, ",%s_best_by_val", o->methods[m]);
        fputc('\n', f);
        for (long pt = 0; pt < npts; pt++) {
            long rem = pt;
            int idx[OP_MAX_SWEEP];
            for (int i = na - 1; i >= 0; i--) { idx[i] = (int)(rem % ax[i].n); rem /= ax[i].n; }
            for (int i = 0; i < na; i++) fprintf(f, "%s,", ax[i].val[idx[i]]);
            fprintf(f, "%d", ns);
            for (int m = 0; m < nm; m++)
                for (int k = 0; k < nstat; k++) {
                    double mean, sd;
                    int cnt;
                    STAT(pt, m, k, &mean, &sd, &cnt);
                    fputc(',', f);
                    if (isfinite(mean)) fprintf(f, "%.4f", mean);
                    fputc(',', f);
                    if (isfinite(sd)) fprintf(f, "%.4f", sd);
                }
            for (int m = 0; nstat > SW_VAL && m < nm; m++) fprintf(f, ",%d", best[m] == pt);
            fputc('\n', f);
        }
    } else if (o->format == OP_FMT_JSON) {
        fputs("{\n\"data\": ", f);
        json_str(f, data_name);
        fputs(",\n\"params\": [", f);
        for (int i = 0; i < na; i++) { if (i) fputs(", ", f); json_str(f, ax[i].name); }
        fputs("],\n\"seeds\": [", f);
        for (int s = 0; s < ns; s++) fprintf(f, "%s%llu", s ? ", " : "", (unsigned long long)seeds[s]);
        fputs("],\n\"methods\": [", f);
        for (int m = 0; m < nm; m++) { if (m) fputs(", ", f); json_str(f, o->methods[m]); }
        fputs("],\n\"points\": [\n", f);
        for (long pt = 0; pt < npts; pt++) {
            long rem = pt;
            int idx[OP_MAX_SWEEP];
            for (int i = na - 1; i >= 0; i--) { idx[i] = (int)(rem % ax[i].n); rem /= ax[i].n; }
            fputs("  {\"point\": {", f);
            for (int i = 0; i < na; i++) {
                if (i) fputs(", ", f);
                json_str(f, ax[i].name);
                fputs(": ", f);
                json_value(f, ax[i].val[idx[i]]);
            }
            fputs("}, \"results\": {", f);
            for (int m = 0; m < nm; m++) {
                if (m) fputs(", ", f);
                json_str(f, o->methods[m]);
                fputs(": {", f);
                for (int k = 0; k < nstat; k++) {
                    double mean, sd;
                    int cnt;
                    STAT(pt, m, k, &mean, &sd, &cnt);
                    fprintf(f, "%s\"%s\": {\"mean\": ", k ? ", " : "", STAT_NAMES[k]);
                    json_num(f, mean);
                    fputs(", \"std\": ", f);
                    json_num(f, sd);
                    fprintf(f, ", \"n\": %d, \"values\": [", cnt);
                    for (int s = 0; s < ns; s++) { if (s) fputs(", ", f); json_num(f, VAL(pt, s, m, k)); }
                    fputs("]}", f);
                }
                if (nstat > SW_VAL) fprintf(f, ", \"best_by_validation\": %s", best[m] == pt ? "true" : "false");
                fputc('}', f);
            }
            fprintf(f, "}}%s\n", pt + 1 < npts ? "," : "");
        }
        fputs("]\n}\n", f);
    } else {
        fprintf(f, "sweep: %s; %ld grid point%s × %d seed%s", data_name, npts, npts == 1 ? "" : "s", ns, ns == 1 ? "" : "s");
        if (ns > 1) fputs(" (mean ± std over seeds)", f);
        fputs("; head/tail: per-class accuracy at the last task, %\n", f);
        if (nstat > SW_VAL)
            fputs("v.acc, v.head, v.tail: the same on the validation rows; * marks each method's best row by v.acc\n", f);
        int lw = 0;
        for (int i = 0; i < na; i++) { int l = (int)strlen(ax[i].name); for (int v = 0; v < ax[i].n; v++) if ((int)strlen(ax[i].val[v]) > l) l = (int)strlen(ax[i].val[v]); lw += l + 2; }
        int cw = ns > 1 ? 14 : 7;
        for (int m0 = 0; m0 < nm; m0 += 2) {
            int m1 = m0 + 2 < nm ? m0 + 2 : nm;
            fputc('\n', f);
            /* header line 1: method names centered over their columns */
            fprintf(f, "%*s", lw, "");
            for (int m = m0; m < m1; m++) fprintf(f, " | %-*s", nstat * (cw + 1) - 1, o->methods[m]);
            fputc('\n', f);
            for (int i = 0; i < na; i++) {
                int l = (int)strlen(ax[i].name);
                for (int v = 0; v < ax[i].n; v++) if ((int)strlen(ax[i].val[v]) > l) l = (int)strlen(ax[i].val[v]);
                fprintf(f, "%-*s", l + 2, ax[i].name);
            }
            for (int m = m0; m < m1; m++) {
                fputs(" |", f);
                for (int k = 0; k < nstat; k++) fprintf(f, " %*s", cw, STAT_TITLES[k]);
            }
            fputc('\n', f);
            for (long pt = 0; pt < npts; pt++) {
                long rem = pt;
                int idx[OP_MAX_SWEEP];
                for (int i = na - 1; i >= 0; i--) { idx[i] = (int)(rem % ax[i].n); rem /= ax[i].n; }
                for (int i = 0; i < na; i++) {
                    int l = (int)strlen(ax[i].name);
                    for (int v = 0; v < ax[i].n; v++) if ((int)strlen(ax[i].val[v]) > l) l = (int)strlen(ax[i].val[v]);
                    fprintf(f, "%-*s", l + 2, ax[i].val[idx[i]]);
                }
                for (int m = m0; m < m1; m++) {
                    fputs(best[m] == pt ? " *" : " |", f);
                    for (int k = 0; k < nstat; k++) {
                        double mean, sd;
                        int cnt;
                        STAT(pt, m, k, &mean, &sd, &cnt);
                        cell(f, mean, sd, cw);
                    }
                }
                fputc('\n', f);
            }
        }
    }
#undef STAT
#undef VAL
    free(tmp);
    if (fflush(f) != 0 || ferror(f)) { rc = gs_error(GS_ERUN, "standard output: write failed"); goto out; }
    if (failed_runs) rc = gs_error(GS_ERUN, "%d run%s had failed tasks (left out of the means)", failed_runs, failed_runs == 1 ? "" : "s");
out:
    pg_clear(&pg);
    if (open) pl_free(&c);
    for (int i = 0; i < na; i++) free(ax[i].buf);
    free(res);
    return rc ? cli_fail(rc) : 0;
}
