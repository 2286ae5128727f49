/* tune.c — `gsrscope tune`: hyperparameters chosen on the validation rows (see gs_tune.h). */
#include "gs_tune.h"
#include "gs_common.h"
#include "gs_pipeline.h"
#include "gs_tausweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Ranges: τ over nine decades as in the reference configurations (1e-2 .. 1e4 are all in use);
 * β from none to four times the paper's weight; α_base over (0, 1]; ξ from "α_c ≈ 1 for every
 * class" to "α_c ≈ α_base from a handful of rows". */
static const tn_space SPACES[] = {
    {"tau", 1e-4, 1e5, 1, 10},
    {"beta", 0, 4, 0, 9},
    {"alpha_base", 0.1, 1, 0, 10},
    {"xi", 1e-4, 1, 1, 9},
};
#define NSPACES (int)(sizeof SPACES / sizeof *SPACES)

const tn_space *tn_space_find(const char *name)
{
    for (int i = 0; i < NSPACES; i++) if (!strcmp(name, SPACES[i].name)) return &SPACES[i];
    if (!strcmp(name, "alpha-base")) return &SPACES[2];
    return NULL;
}

double tn_get(const op_params *q, const tn_space *sp)
{
    return sp == &SPACES[0] ? q->tau : sp == &SPACES[1] ? q->beta : sp == &SPACES[2] ? q->alpha_base : q->xi;
}

void tn_set(op_params *q, const tn_space *sp, double v)
{
    if (sp == &SPACES[0]) q->tau = v;
    else if (sp == &SPACES[1]) q->beta = v;
    else if (sp == &SPACES[2]) q->alpha_base = v;
    else q->xi = v;
}

double tn_objective(const en_results *r, int m, op_objective obj)
{
    const en_snap *s = &r->m[m].snaps[r->T - 1];
    if (s->state != EN_DONE) return NAN;
    switch (obj) {
    case OP_OBJ_TAIL: return s->val_tail_acc;
    case OP_OBJ_BALANCED: return 0.5 * (s->val_head_acc + s->val_tail_acc);
    default: return s->val_acc;
    }
}

/* The search variable u (log10 for log-scale parameters) and back. */
static double to_value(const tn_space *sp, double u) { return sp->log ? pow(10.0, u) : u; }

typedef struct {
    en_engine *e;
    int m;
    op_params *q;
    const tn_space *sp;
    op_objective obj;
    const volatile int *cancel;
    double best_u, best_f;
    int have_best, evals;
    volatile int stop;       /* set once the last task is reported (or on an outside cancel) */
} tn_ctx;

/* The outside cancel flag, set by another thread (the TUI's worker): read atomically, as the
 * engine reads its own flags. */
static int cancelled(const tn_ctx *c) { return c->cancel && __atomic_load_n(c->cancel, __ATOMIC_RELAXED); }

/* Progress of an evaluation: the objective needs the last task only, so the update stops once
 * that task is reported. With every Gram cached (a τ or β change) the engine computes the task
 * asked for first, so an evaluation solves and predicts one task instead of all of them. */
static void stop_after_last(double frac, const char *what, void *user)
{
    (void)frac; (void)what;
    tn_ctx *c = user;
    const en_results *r = en_get_results(c->e);
    if (r->m[c->m].snaps[r->T - 1].state == EN_DONE || cancelled(c))
        __atomic_store_n(&c->stop, 1, __ATOMIC_RELAXED); /* the engine reads it with __atomic_load_n */
}

/* Objective at u (NaN counts as worst); remembers the best point evaluated. */
static int eval_at(tn_ctx *c, double u, double *f)
{
    op_params q = *c->q;
    tn_set(&q, c->sp, to_value(c->sp, u));
    __atomic_store_n(&c->stop, 0, __ATOMIC_RELAXED);
    int T = en_get_results(c->e)->T;
    int rc = en_update(c->e, &q, T, &c->stop, stop_after_last, c);
    if (rc == GS_ECANCEL && !cancelled(c)) rc = GS_OK;
    if (rc) return rc;
    c->evals++;
    double v = tn_objective(en_get_results(c->e), c->m, c->obj);
    *f = isnan(v) ? -INFINITY : v;
    if (!c->have_best || *f > c->best_f) { c->best_f = *f; c->best_u = u; c->have_best = 1; }
    return GS_OK;
}

int tn_search(en_engine *e, int m, op_params *q, const tn_space *sp, op_objective obj,
              const volatile int *cancel, double *best, int *evals)
{
    tn_ctx c = {e, m, q, sp, obj, cancel, 0, -INFINITY, 0, 0, 0};
    double ulo = sp->log ? log10(sp->lo) : sp->lo, uhi = sp->log ? log10(sp->hi) : sp->hi;
    double step = (uhi - ulo) / (sp->n_grid - 1), f;
    int rc, ibest = 0;
    for (int i = 0; i < sp->n_grid; i++) {
        double prev = c.best_f;
        if ((rc = eval_at(&c, ulo + i * step, &f))) return rc;
        if (i == 0 || c.best_f > prev) ibest = i;
    }
    /* golden section between the best grid point's neighbours (maximizing) */
    const double g = 0.5 * (sqrt(5.0) - 1);
    double a = ulo + (ibest > 0 ? ibest - 1 : 0) * step;
    double b = ulo + (ibest < sp->n_grid - 1 ? ibest + 1 : sp->n_grid - 1) * step;
    double x1 = b - g * (b - a), x2 = a + g * (b - a), f1, f2;
    if ((rc = eval_at(&c, x1, &f1)) || (rc = eval_at(&c, x2, &f2))) return rc;
    for (int k = 0; k < TN_GOLDEN_STEPS; k++) {
        if (f1 >= f2) { /* the maximum is in [a, x2] */
            b = x2; x2 = x1; f2 = f1;
            x1 = b - g * (b - a);
            if ((rc = eval_at(&c, x1, &f1))) return rc;
        } else {
            a = x1; x1 = x2; f1 = f2;
            x2 = a + g * (b - a);
            if ((rc = eval_at(&c, x2, &f2))) return rc;
        }
    }
    tn_set(q, sp, to_value(sp, c.best_u));
    *best = c.best_f;
    *evals = c.evals;
    return GS_OK;
}

int tn_ranpac_lambda(pl_ctx *c, const op_opts *o, const en_config *cfg, const volatile int *cancel,
                     double *lambda, double *val)
{
    *lambda = 0;
    *val = NAN;
    const char *name = NULL;
    for (int m = 0; m < o->n_methods && !name; m++)
        if (!strncmp(o->methods[m], "ranpac", 6) && (o->methods[m][6] == '\0' || o->methods[m][6] == '+'))
            name = o->methods[m];
    if (!name || c->prob.val_h.rows == 0) return GS_OK;
    en_config one = *cfg;
    one.methods = &name;
    one.n_methods = 1;
    one.collect_aug = 0;
    op_params q = o->params;
    q.ranpac_lambda = 0; /* the search is over τ itself */
    enum { NG = 37 };
    double taus[NG];
    ts_log_grid(1e-4, 1e5, NG, taus);
    en_destroy(c->eng); /* one engine at a time: ranpac's M×M matrices are large */
    c->eng = NULL;
    int rc = en_create(&c->eng, &c->prob, &one);
    if (!rc) rc = en_update(c->eng, &q, c->prob.T, cancel, NULL, NULL);
    ts_curve cv;
    memset(&cv, 0, sizeof cv);
    if (!rc) rc = ts_compute(c->eng, &c->prob, 0, c->prob.T, taus, NG, &cv, cancel);
    if (!rc && cv.best_by_val && cv.best >= 0) {
        *lambda = taus[cv.best];
        *val = cv.val_acc[cv.best];
    }
    ts_free(&cv);
    en_destroy(c->eng);
    c->eng = NULL;
    int rc2 = en_create(&c->eng, &c->prob, cfg);
    return rc ? rc : rc2;
}

/* ---- the command -------------------------------------------------------------------------- */

#define TN_MAX_PARAMS 4

typedef struct {
    const char *name;
    op_params q;                    /* chosen */
    int used[TN_MAX_PARAMS];
    double objective;
    double val_acc, val_head, val_tail, val_a_avg;
    double a_last, a_avg, head, tail;
    int evals, failed;
} tn_row;

static int parse_params(const char *list, const tn_space **sp, int *n)
{
    char buf[256];
    if (strlen(list) >= sizeof buf) return gs_error(GS_EINPUT, "--param: list too long");
    snprintf(buf, sizeof buf, "%s", list);
    *n = 0;
    for (char *p = buf, *tok; (tok = strsep(&p, ","));) {
        const tn_space *s = tn_space_find(tok);
        if (!s) return gs_error(GS_EINPUT, "--param: tune searches tau, beta, alpha_base and xi, not '%s'", tok);
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

static void tnum(FILE *f, double v, int w)
{
    if (isfinite(v)) fprintf(f, " %*.2f", w, v);
    else fprintf(f, " %*s", w + 2, "—"); /* "—" is 3 bytes, one column */
}

static const char *const OBJ_DESC[] = {
    "validation accuracy after the last task", "validation tail accuracy after the last task",
    "mean of validation head and tail accuracy after the last task"};
static const char *const OBJ_NAME[] = {"acc", "tail", "balanced"};

/* -1 / +1 when the chosen value is the low / high end of the search range, else 0. */
static int at_edge(const tn_row *r, const tn_space *sp)
{
    double v = tn_get(&r->q, sp);
    return v <= sp->lo ? -1 : v >= sp->hi ? 1 : 0;
}

static void write_out(FILE *f, const op_opts *o, const pl_ctx *c, const tn_row *rows, int nm,
                      const tn_space *const *sp, int np)
{
    if (o->format == OP_FMT_CSV) {
        fputs("method", f);
        for (int k = 0; k < np; k++) fprintf(f, ",%s", sp[k]->name);
        fputs(",objective,val_acc,val_head_acc,val_tail_acc,test_a_last,test_a_avg,test_head_acc,test_tail_acc,"
              "evaluations\n", f);
        for (int m = 0; m < nm; m++) {
            const tn_row *r = &rows[m];
            fputs(r->name, f);
            for (int k = 0; k < np; k++) {
                fputc(',', f);
                if (r->used[k]) fprintf(f, "%.6g", tn_get(&r->q, sp[k]));
            }
            csv_num(f, r->objective); csv_num(f, r->val_acc); csv_num(f, r->val_head); csv_num(f, r->val_tail);
            csv_num(f, r->a_last); csv_num(f, r->a_avg); csv_num(f, r->head); csv_num(f, r->tail);
            fprintf(f, ",%d\n", r->evals);
        }
        return;
    }
    if (o->format == OP_FMT_JSON) {
        fprintf(f, "{\n\"objective\": \"%s\", \"val_frac\": %.17g, \"val_rows\": %ld, \"val_classes_unsplit\": %d, "
                   "\"seed\": %llu,\n\"search\": {\"golden_steps\": %d, \"params\": [",
                OBJ_NAME[o->objective], o->proto.val_frac, c->prob.val_h.rows, c->st.val_no_split,
                (unsigned long long)o->params.seed, TN_GOLDEN_STEPS);
        for (int k = 0; k < np; k++)
            fprintf(f, "%s{\"name\": \"%s\", \"lo\": %.17g, \"hi\": %.17g, \"scale\": \"%s\", \"grid\": %d}",
                    k ? ", " : "", sp[k]->name, sp[k]->lo, sp[k]->hi, sp[k]->log ? "log" : "linear", sp[k]->n_grid);
        fputs("]},\n\"methods\": [\n", f);
        for (int m = 0; m < nm; m++) {
            const tn_row *r = &rows[m];
            fprintf(f, "  {\"name\": \"%s\", \"chosen\": {", r->name);
            int first = 1;
            for (int k = 0; k < np; k++)
                if (r->used[k]) { fprintf(f, "%s\"%s\": %.17g", first ? "" : ", ", sp[k]->name, tn_get(&r->q, sp[k])); first = 0; }
            fputs("}, \"not_used\": [", f);
            first = 1;
            for (int k = 0; k < np; k++)
                if (!r->used[k]) { fprintf(f, "%s\"%s\"", first ? "" : ", ", sp[k]->name); first = 0; }
            fputs("], \"at_range_edge\": [", f);
            first = 1;
            for (int k = 0; k < np; k++)
                if (r->used[k] && at_edge(r, sp[k])) { fprintf(f, "%s\"%s\"", first ? "" : ", ", sp[k]->name); first = 0; }
            fputs("],\n   \"validation\": {", f);
            json_num(f, "objective", r->objective, 1);
            json_num(f, "acc", r->val_acc, 1);
            json_num(f, "head_acc", r->val_head, 1);
            json_num(f, "tail_acc", r->val_tail, 1);
            json_num(f, "a_avg", r->val_a_avg, 0);
            fputs("},\n   \"test\": {", f);
            json_num(f, "a_last", r->a_last, 1);
            json_num(f, "a_avg", r->a_avg, 1);
            json_num(f, "head_acc", r->head, 1);
            json_num(f, "tail_acc", r->tail, 0);
            fprintf(f, "}, \"evaluations\": %d}%s\n", r->evals, m + 1 < nm ? "," : "");
        }
        fputs("]\n}\n", f);
        return;
    }
    fprintf(f, "tune: %s; objective %s (%s)\n", c->prob.data_name, OBJ_NAME[o->objective], OBJ_DESC[o->objective]);
    fprintf(f, "validation: %ld rows held out (--val-frac %g; %d classes with < 2 rows keep theirs); test rows never read to choose\n",
            c->prob.val_h.rows, o->proto.val_frac, c->st.val_no_split);
    fputs("search:", f);
    for (int k = 0; k < np; k++)
        fprintf(f, "%s %s %g..%g (%d points, %s)", k ? ";" : "", sp[k]->name, sp[k]->lo, sp[k]->hi, sp[k]->n_grid,
                sp[k]->log ? "log" : "linear");
    fprintf(f, ", then %d golden-section steps; one parameter at a time, in that order\n\n", TN_GOLDEN_STEPS);
    fprintf(f, "%-12s", "method");
    for (int k = 0; k < np; k++) fprintf(f, " %10s", sp[k]->name);
    fprintf(f, " | %7s %7s %7s %7s | %7s %7s %7s %7s | %5s\n", "val", "v.acc%", "v.head%", "v.tail%", "A_last", "A_avg",
            "head%", "tail%", "evals");
    for (int m = 0; m < nm; m++) {
        const tn_row *r = &rows[m];
        fprintf(f, "%-12s", r->name);
        for (int k = 0; k < np; k++) {
            if (r->used[k]) fprintf(f, " %10.4g", tn_get(&r->q, sp[k]));
            else fprintf(f, " %12s", "—");
        }
        fputs(" |", f);
        tnum(f, r->objective, 7); tnum(f, r->val_acc, 7); tnum(f, r->val_head, 7); tnum(f, r->val_tail, 7);
        fputs(" |", f);
        tnum(f, r->a_last, 7); tnum(f, r->a_avg, 7); tnum(f, r->head, 7); tnum(f, r->tail, 7);
        fprintf(f, " | %5d\n", r->evals);
    }
    fputs("\nval: the objective on the validation rows; A_last, A_avg, head%, tail%: test accuracy at the chosen values.\n", f);
    for (int m = 0; m < nm; m++)
        for (int k = 0; k < np; k++)
            if (rows[m].used[k] && at_edge(&rows[m], sp[k]))
                fprintf(f, "note: %s's %s is at the %s end of its range (%g): the best value may lie beyond it.\n",
                        rows[m].name, sp[k]->name, at_edge(&rows[m], sp[k]) < 0 ? "low" : "high", tn_get(&rows[m].q, sp[k]));
}

/* Tune one method on its own engine (so a τ change re-solves this method only). */
static int tune_method(pl_ctx *c, const op_opts *o, const en_config *cfg, const tn_space *const *sp, int np,
                       const volatile int *cancel, tn_row *row)
{
    int rc;
    row->q = o->params;
    for (int k = 0; k < np; k++) {
        row->used[k] = en_method_uses(row->name, sp[k]->name);
        if (!row->used[k]) continue;
        double best;
        int ev;
        if ((rc = tn_search(c->eng, 0, &row->q, sp[k], o->objective, cancel, &best, &ev))) return rc;
        row->evals += ev;
    }
    if ((rc = en_update(c->eng, &row->q, 1, cancel, NULL, NULL))) return rc;
    row->evals++;
    const en_results *r = en_get_results(c->eng);
    const en_method_result *mr = &r->m[0];
    const en_snap *s = &mr->snaps[r->T - 1];
    row->objective = tn_objective(r, 0, o->objective);
    row->failed = isnan(mr->a_last);
    row->val_acc = s->val_acc; row->val_head = s->val_head_acc; row->val_tail = s->val_tail_acc;
    row->val_a_avg = mr->val_a_avg;
    row->a_last = mr->a_last; row->a_avg = mr->a_avg;
    row->head = s->state == EN_DONE ? s->head_acc : NAN;
    row->tail = s->state == EN_DONE ? s->tail_acc : NAN;
    (void)cfg;
    return GS_OK;
}

int tn_main(op_opts *o)
{
    const tn_space *sp[TN_MAX_PARAMS];
    int np = 0, rc = parse_params(o->tune_params, sp, &np), nm = o->n_methods, failed = 0;
    tn_row rows[OP_MAX_METHODS];
    memset(rows, 0, sizeof rows);
    pl_ctx c;
    memset(&c, 0, sizeof c);
    int open = 0;
    if (rc) goto out;
    for (int m = 0; m < nm; m++) {
        int any = 0;
        for (int k = 0; k < np; k++) any |= en_method_uses(o->methods[m], sp[k]->name);
        if (!en_method_known(o->methods[m]))
            { rc = gs_error(GS_EINPUT, "--methods: unknown method '%s' (known: %s)", o->methods[m], en_method_list()); goto out; }
        if (!any) { rc = gs_error(GS_EINPUT, "tune: %s uses none of --param %s", o->methods[m], o->tune_params); goto out; }
    }
    int tty = isatty(2) && !o->quiet;
    for (int m = 0; m < nm; m++) {
        en_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.methods = (const char **)&o->methods[m];
        cfg.n_methods = 1;
        cfg.spectrum = OP_SPECTRUM_FINAL;
        cfg.keep_task_grams = 1;
        rows[m].name = o->methods[m];
        if (tty) fprintf(stderr, "\rtune %s (%d/%d)\033[K", o->methods[m], m + 1, nm);
        if (!open) {
            rc = pl_open(&c, o, &cfg, NULL, NULL);
            if (rc == GS_EINPUT && strstr(gs_last_error(), "needs about")) {
                cfg.keep_task_grams = 0; /* too big to keep every task's Grams: recompute instead */
                rc = pl_open(&c, o, &cfg, NULL, NULL);
            }
            if (rc) goto out;
            open = 1;
            if (c.prob.val_h.rows == 0) { rc = gs_error(GS_EINPUT, "tune: --val-frac %g holds out no rows (every class has fewer than 2)", o->proto.val_frac); goto out; }
        } else {
            en_destroy(c.eng);
            c.eng = NULL;
            if ((rc = en_create(&c.eng, &c.prob, &cfg))) goto out;
        }
        if ((rc = tune_method(&c, o, &cfg, sp, np, NULL, &rows[m]))) goto out;
        failed += rows[m].failed;
    }
    if (tty) fputs("\r\033[K", stderr);
    write_out(stdout, o, &c, rows, nm, sp, np);
    if (fflush(stdout) != 0 || ferror(stdout)) rc = gs_error(GS_ERUN, "standard output: write failed");
    else if (failed) rc = gs_error(GS_ERUN, "%d method%s failed at the chosen values (see the table)", failed, failed == 1 ? "" : "s");
out:
    if (open) pl_free(&c);
    if (rc) {
        const char *msg = gs_last_error();
        fprintf(stderr, "gsrscope: %s\n", msg[0] ? msg : "tune failed");
        return gs_exit_code(rc);
    }
    return 0;
}
