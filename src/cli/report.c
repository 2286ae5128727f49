/* cli/report.c — table/CSV/JSON output and --save-state (see gs_report.h). */
#include "gs_report.h"
#include "gs_common.h"
#include "gs_io.h"
#include "gs_json.h"
#include "gs_npy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char RP_CSV_HEADER[] =
    "method,task,classes_seen,rows_seen,aug_rows,acc,head_acc,tail_acc,stable_rank,cond,erank,"
    "lambda_max,lambda_min,seconds";
/* the last column of every row (after the validation and precision columns) */
const char RP_CSV_LAST_COLUMNS[] = ",df";
const char RP_CSV_VAL_COLUMNS[] = ",val_acc,val_head_acc,val_tail_acc";

/* A validation split exists (--val-frac and at least one held-out row). */
static int has_val(const en_problem *p) { return p && p->val_h.rows > 0; }

static const char *profile_name(op_profile p) { return p == OP_PROFILE_EXP ? "exp" : p == OP_PROFILE_NONE ? "none" : "step"; }

static void csv_num(FILE *f, double v, const char *fmt)
{
    fputc(',', f);
    if (isfinite(v)) fprintf(f, fmt, v);
    else if (isinf(v) && v > 0) fputs("inf", f);
}

static void json_num(FILE *f, const char *key, double v, int comma)
{
    if (isfinite(v)) fprintf(f, "\"%s\": %.17g", key, v);
    else fprintf(f, "\"%s\": null", key);
    if (comma) fputs(", ", f);
}

/* Method m's own values (--tuned, --set: o->method_params) that differ from o->params, as
 * "key=value" pairs (text, sep between) or JSON members; nothing without them. */
static void own_values(FILE *f, const op_opts *o, int m, int json, const char *sep)
{
    for (int i = 0, k = 0; o->method_params && i < pa_count(); i++) {
        const pa_param *r = &pa_table()[i];
        if (!r->dep || pa_params_off(r) < 0) continue;
        double v = pa_get_params(&o->method_params[m], r);
        if (v == pa_get_params(&o->params, r)) continue;
        char t[40];
        snprintf(t, sizeof t, "%.15g", v);
        if (strtod(t, NULL) != v) snprintf(t, sizeof t, "%.17g", v);
        fprintf(f, json ? "%s\"%s\": %s" : "%s%s=%s", k++ ? sep : "", pa_key(r), t);
    }
}

char *rp_params_json(const en_problem *p, const op_opts *o)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return NULL;
    const op_params *q = &o->params;
    fprintf(f, "{\n  \"software\": \"gsrscope %s\",\n", GS_VERSION);
    fprintf(f, "  \"alpha_base\": %.17g, \"xi\": %.17g, \"beta\": %.17g, \"tau\": %.17g, \"seed\": %llu,\n",
            q->alpha_base, q->xi, q->beta, q->tau, (unsigned long long)q->seed);
    char mab[24];
    if (q->max_aug == OP_MAX_AUG_ALL) snprintf(mab, sizeof mab, "\"all\"");
    else snprintf(mab, sizeof mab, "%ld", q->max_aug);
    fprintf(f, "  \"pairs\": \"%s\", \"max_aug\": %s, \"augment\": \"%s\",\n", op_pairs_name(q->pairs), mab,
            q->augment == OP_AUG_ALL ? "all" : "tail");
    fprintf(f, "  \"gauss_a\": %.17g, \"gauss_b\": %.17g, \"slda_eps\": %.17g,\n", q->gauss_a, q->gauss_b, q->slda_eps);
    if (q->ranpac_lambda > 0) fprintf(f, "  \"ranpac_lambda\": %.17g,\n", q->ranpac_lambda); /* chosen on validation */
    fprintf(f, "  \"klda_dim\": %ld, \"klda_gamma\": %.17g, \"klda_reg\": %.17g, \"fecam_alpha\": %.17g, \"fecam_tukey\": %.17g,\n",
            q->klda_dim, q->klda_gamma, q->klda_reg, q->fecam_alpha, q->fecam_tukey);
    fprintf(f, "  \"tasks\": %d, \"profile\": \"%s\", \"head_frac\": %.17g, \"tail_shots\": %ld, \"head_shots\": %ld, \"rho\": %.17g, \"order\": \"%s\",\n",
            p ? p->T : o->proto.tasks, profile_name(o->proto.profile), o->proto.head_frac, o->proto.tail_shots,
            o->proto.head_shots, o->proto.rho, o->proto.order == OP_ORDER_ORDERED ? "ordered" : "shuffled");
    fprintf(f, "  \"normalize\": %s, \"expand\": %ld, \"projection\": \"%s\", \"val_frac\": %.17g,\n",
            o->data.no_normalize ? "false" : "true", o->data.expand,
            o->data.projection == OP_PROJ_UNIFORM ? "uniform" : "gaussian", o->proto.val_frac);
    /* the arithmetic used (auto resolved when the problem is known) */
    fprintf(f, "  \"precision\": \"%s\",\n", p ? (p->single ? "single" : "double")
                                               : o->data.precision == OP_PREC_SINGLE ? "single"
                                               : o->data.precision == OP_PREC_AUTO ? "auto" : "double");
    fputs("  \"methods\": [", f);
    for (int m = 0; m < o->n_methods; m++) { if (m) fputs(", ", f); json_str(f, o->methods[m]); }
    fputs("],\n", f);
    if (o->method_params) { /* each method's own values where they differ from the ones above */
        fputs("  \"method_params\": {", f);
        for (int m = 0; m < o->n_methods; m++) {
            fputs(m ? ", " : "", f);
            json_str(f, o->methods[m]);
            fputs(": {", f);
            own_values(f, o, m, 1, ", ");
            fputc('}', f);
        }
        fputs("},\n", f);
    }
    /* the values not at their defaults, and where each came from */
    fputs("  \"not_default\": [", f);
    for (int i = 0, k = 0; i < o->n_origins; i++) {
        char v[sizeof o->origins[0].value], *end;
        if (!op_changed(o, i, v, sizeof v)) continue;
        fprintf(f, "%s{\"name\": ", k++ ? ", " : "");
        json_str(f, o->origins[i].name);
        fputs(", \"value\": ", f);
        double num = strtod(v, &end);
        if (*v && !*end && isfinite(num)) fputs(v, f); else json_str(f, v);
        fputs(", \"from\": ", f);
        json_str(f, o->origins[i].from);
        fputc('}', f);
    }
    fputs("],\n", f);
    if (p) {
        fputs("  \"data\": ", f); json_str(f, p->data_name);
        fputs(", \"data_source\": ", f); json_str(f, p->data_source);
        fprintf(f, ", \"data_checksum\": \"%016llx\",\n", (unsigned long long)p->data_checksum);
        fprintf(f, "  \"classes\": %d, \"d\": %ld, \"D\": %ld, \"rows\": %ld, \"test_rows\": %ld, \"head_classes\": %d,\n",
                p->C, p->d, p->D, p->z.rows, p->test_h.rows, p->st->n_head);
        fprintf(f, "  \"val_rows\": %ld, \"val_classes_unsplit\": %d\n", p->val_h.rows, p->st->val_no_split);
    } else {
        fputs("  \"data\": null\n", f);
    }
    fputs("}\n", f);
    fclose(f);
    return buf;
}

static void write_csv(FILE *f, const en_results *r, const en_problem *p)
{
    int val = has_val(p), single = p && p->single;
    /* single precision adds a last column: "single", or "double" for a task factored in double */
    fprintf(f, "%s%s%s%s\n", RP_CSV_HEADER, val ? RP_CSV_VAL_COLUMNS : "", single ? ",precision" : "",
            RP_CSV_LAST_COLUMNS);
    for (int m = 0; m < r->n_methods; m++)
        for (int t = 0; t < r->T; t++) {
            const en_snap *s = &r->m[m].snaps[t];
            fprintf(f, "%s,%d,%d,%ld,%ld", r->m[m].name, s->task, s->classes_seen, s->rows_seen, s->aug_rows);
            int ok = s->state == EN_DONE;
            csv_num(f, ok ? s->acc : NAN, "%.4f");
            csv_num(f, ok ? s->head_acc : NAN, "%.4f");
            csv_num(f, ok ? s->tail_acc : NAN, "%.4f");
            csv_num(f, s->stable_rank, "%.10g");
            csv_num(f, s->cond, "%.10g");
            csv_num(f, s->erank, "%.10g");
            csv_num(f, s->lambda_max, "%.10g");
            csv_num(f, s->lambda_min, "%.10g");
            csv_num(f, s->seconds, "%.4f");
            if (val) {
                csv_num(f, ok ? s->val_acc : NAN, "%.4f");
                csv_num(f, ok ? s->val_head_acc : NAN, "%.4f");
                csv_num(f, ok ? s->val_tail_acc : NAN, "%.4f");
            }
            if (single) fputs((s->flags & EN_SINGLE) && !(s->flags & EN_FALLBACK) ? ",single" : ",double", f);
            csv_num(f, s->df, "%.10g");
            fputc('\n', f);
        }
}

static void write_json(FILE *f, const en_results *r, const en_problem *p, const op_opts *o, const char *extra)
{
    char *params = rp_params_json(p, o);
    fputs("{\n\"params\": ", f);
    fputs(params ? params : "null", f);
    free(params);
    fputs(",\n\"methods\": [\n", f);
    for (int m = 0; m < r->n_methods; m++) {
        const en_method_result *mr = &r->m[m];
        fprintf(f, "  {\"name\": \"%s\", ", mr->name);
        json_num(f, "a_last", mr->a_last, 1);
        json_num(f, "a_avg", mr->a_avg, 1);
        if (has_val(p)) {
            json_num(f, "val_a_last", mr->val_a_last, 1);
            json_num(f, "val_a_avg", mr->val_a_avg, 1);
        }
        fputs("\"tasks\": [\n", f);
        for (int t = 0; t < r->T; t++) {
            const en_snap *s = &mr->snaps[t];
            int ok = s->state == EN_DONE;
            fprintf(f, "    {\"task\": %d, \"state\": \"%s\", \"classes_seen\": %d, \"rows_seen\": %ld, \"aug_rows\": %ld, "
                       "\"aug_skipped_classes\": %ld, \"aug_skipped_pairs\": %ld, \"test_rows\": %ld, ",
                    s->task, ok ? "done" : s->state == EN_FAILED ? "failed" : "pending", s->classes_seen,
                    s->rows_seen, s->aug_rows, s->aug_skipped_classes, s->aug_skipped_pairs, s->test_rows);
            json_num(f, "acc", ok ? s->acc : NAN, 1);
            json_num(f, "head_acc", ok ? s->head_acc : NAN, 1);
            json_num(f, "tail_acc", ok ? s->tail_acc : NAN, 1);
            if (has_val(p)) {
                fprintf(f, "\"val_rows\": %ld, ", s->val_rows);
                json_num(f, "val_acc", ok ? s->val_acc : NAN, 1);
                json_num(f, "val_head_acc", ok ? s->val_head_acc : NAN, 1);
                json_num(f, "val_tail_acc", ok ? s->val_tail_acc : NAN, 1);
            }
            json_num(f, "stable_rank", s->stable_rank, 1);
            json_num(f, "cond", s->cond, 1);
            json_num(f, "erank", s->erank, 1);
            json_num(f, "df", s->df, 1);
            json_num(f, "lambda_max", s->lambda_max, 1);
            json_num(f, "lambda_min", s->lambda_min, 1);
            fprintf(f, "\"estimated\": {\"lambda_max\": %s, \"lambda_min\": %s}, ",
                    s->flags & EN_LMAX_EST ? "true" : "false", s->flags & EN_LMIN_EST ? "true" : "false");
            json_num(f, "lambda_max_error_bound", s->flags & EN_LMAX_EST ? s->lmax_err : 0, 1);
            json_num(f, "lambda_min_error_bound", s->flags & EN_LMIN_EST ? s->lmin_err : 0, 1);
            if (s->flags & EN_SINGLE) /* the task's factorization: float, or double after a fallback */
                fprintf(f, "\"factored_in\": \"%s\", ", s->flags & EN_FALLBACK ? "double" : "single");
            if (s->state == EN_FAILED) { fputs("\"error\": ", f); json_str(f, s->error); fputs(", ", f); }
            json_num(f, "seconds", s->seconds, 0);
            fprintf(f, "}%s\n", t + 1 < r->T ? "," : "");
        }
        fprintf(f, "  ]}%s\n", m + 1 < r->n_methods ? "," : "");
    }
    if (extra) fprintf(f, "],\n%s\n}\n", extra);
    else fputs("]\n}\n", f);
}

static void tnum(FILE *f, double v, int width, int prec, int est)
{
    if (!isfinite(v)) {
        if (isinf(v) && v > 0) fprintf(f, " %*s", width, "inf");
        else fprintf(f, " %*s", width, "—");
        return;
    }
    char b[48];
    snprintf(b, sizeof b, "%s%.*f", est ? "~" : "", prec, v);
    fprintf(f, " %*s", width, b);
}

static void tsci(FILE *f, double v, int width, int est)
{
    if (!isfinite(v)) { fprintf(f, " %*s", width, isinf(v) ? "inf" : "—"); return; }
    char b[48];
    snprintf(b, sizeof b, "%s%.3e", est ? "~" : "", v);
    fprintf(f, " %*s", width, b);
}

static void write_table(FILE *f, const en_results *r, const en_problem *p, const op_opts *o)
{
    const op_params *q = &o->params;
    int val = has_val(p);
    char esc[2048];
    if (p) /* the data's name comes from a path: its control characters escaped (the table is for a terminal) */
        fprintf(f, "data: %s  (C=%d, d=%ld, D=%ld, %ld training rows in %d tasks, %d head classes, %ld test rows)\n",
                gs_escape_controls(p->data_name, esc, sizeof esc), p->C, p->d, p->D, p->z.rows, p->T, p->st->n_head,
                p->test_h.rows);
    if (val)
        fprintf(f, "validation: %ld rows held out (--val-frac %g; %d classes with < 2 rows keep theirs)\n",
                p->val_h.rows, o->proto.val_frac, p->st->val_no_split);
    char mab[24];
    fprintf(f, "α_base=%g  ξ=%g  β=%g  τ=%g  seed=%llu  pairs=%s  max_aug=%s  augment=%s\n", q->alpha_base, q->xi,
            q->beta, q->tau, (unsigned long long)q->seed, op_pairs_name(q->pairs),
            op_max_aug_str(q->max_aug, mab, sizeof mab), q->augment == OP_AUG_ALL ? "all" : "tail");
    char changes[2048];
    if (*op_changes(o, "; ", changes, sizeof changes))
        fprintf(f, "not at default: %s\n", gs_escape_controls(changes, esc, sizeof esc));
    if (p && p->single)
        fprintf(f, "precision: single (ridge learners: rows, Gram matrices, Cholesky and predictions in float; "
                   "--precision double for the double-precision numbers)\n");
    int est = 0;
    for (int m = 0; m < r->n_methods; m++) {
        const en_method_result *mr = &r->m[m];
        fprintf(f, "\n%s", mr->name);
        if (o->method_params && m < o->n_methods) { fputs("  (its own values: ", f); own_values(f, o, m, 0, "  "); fputc(')', f); }
        fputc('\n', f);
        fprintf(f, "%4s %7s %8s %7s %7s %7s %7s", "task", "classes", "rows", "aug", "acc%", "head%", "tail%");
        if (val) fprintf(f, " %7s %7s %7s", "v.acc%", "v.head%", "v.tail%");
        fprintf(f, " %10s %11s %8s\n", "stab.rank", "cond", "eff.rank");
        for (int t = 0; t < r->T; t++) {
            const en_snap *s = &mr->snaps[t];
            int ok = s->state == EN_DONE;
            fprintf(f, "%4d %7d %8ld %7ld", s->task, s->classes_seen, s->rows_seen, s->aug_rows);
            if (!ok) {
                fprintf(f, "  %s\n", s->state == EN_FAILED ? s->error : "pending");
                continue;
            }
            tnum(f, s->acc, 7, 2, 0);
            tnum(f, s->head_acc, 7, 2, 0);
            tnum(f, s->tail_acc, 7, 2, 0);
            if (val) {
                tnum(f, s->val_acc, 7, 2, 0);
                tnum(f, s->val_head_acc, 7, 2, 0);
                tnum(f, s->val_tail_acc, 7, 2, 0);
            }
            tnum(f, s->stable_rank, 10, 3, !!(s->flags & EN_LMAX_EST));
            tsci(f, s->cond, 11, !!(s->flags & (EN_LMAX_EST | EN_LMIN_EST)));
            tnum(f, s->erank, 8, 1, 0);
            fputc('\n', f);
            if (s->flags & (EN_LMAX_EST | EN_LMIN_EST)) est = 1;
        }
        fprintf(f, "A_last = ");
        tnum(f, mr->a_last, 0, 2, 0);
        fprintf(f, " %%   A_avg = ");
        tnum(f, mr->a_avg, 0, 2, 0);
        fprintf(f, " %%");
        if (val) {
            fprintf(f, "   validation A_last = ");
            tnum(f, mr->val_a_last, 0, 2, 0);
            fprintf(f, " %%   A_avg = ");
            tnum(f, mr->val_a_avg, 0, 2, 0);
            fprintf(f, " %%");
        }
        const en_snap *last = &mr->snaps[r->T - 1];
        if (last->aug_rows || last->aug_skipped_classes || last->aug_skipped_pairs)
            fprintf(f, "   synthetic rows %ld (classes skipped: %ld with < 2 rows; pairs skipped: %ld near-antipodal)",
                    last->aug_rows, last->aug_skipped_classes, last->aug_skipped_pairs);
        fputc('\n', f);
        int nfb = 0; /* single precision: the tasks whose conditioning asked for a double factorization */
        for (int t = 0; t < r->T; t++)
            if (mr->snaps[t].flags & EN_FALLBACK)
                fprintf(f, "%s%d", nfb++ ? ", " : "factored in double (cond(G + τI) > 1e5 or spotrf failed): task ", t + 1);
        if (nfb) fputc('\n', f);
    }
    if (est)
        fprintf(f, "\n~ estimate: λ_max and λ_min by Lanczos (relative residual ≤ 1e-10, see --format json for bounds);"
                   " --spectrum all gives exact values at every task.\n");
}

int rp_write(FILE *f, op_format fmt, const en_results *r, const en_problem *p, const op_opts *o)
{
    return rp_write_ext(f, fmt, r, p, o, NULL);
}

int rp_write_ext(FILE *f, op_format fmt, const en_results *r, const en_problem *p, const op_opts *o,
                 const char *json_extra)
{
    switch (fmt) {
    case OP_FMT_CSV: write_csv(f, r, p); break;
    case OP_FMT_JSON: write_json(f, r, p, o, json_extra); break;
    default: write_table(f, r, p, o); break;
    }
    if (fflush(f) != 0 || ferror(f)) return gs_error(GS_ERUN, "standard output: write failed");
    return GS_OK;
}

/* ---- --save-state ---------------------------------------------------------------------- */

static int path_in(char *buf, size_t n, const char *dir, const char *sub, const char *file)
{
    int k = sub ? snprintf(buf, n, "%s/%s/%s", dir, sub, file) : snprintf(buf, n, "%s/%s", dir, file);
    return k > 0 && (size_t)k < n ? GS_OK : gs_error(GS_ERUN, "%s: path too long", dir);
}

/* The training-pool index of every stream row (rows_index.npy) and, with a validation split, the
 * held-out rows: val_rows.npy / val_labels.npy (mapped like rows.npy) and val_index.npy, so the
 * stream and the split can be checked against the data files. */
static int save_index(const char *dir, const char *file, const long *ix, long n)
{
    char path[4096];
    int rc = path_in(path, sizeof path, dir, NULL, file);
    int64_t *v = rc ? NULL : gs_malloc((size_t)(n ? n : 1), sizeof(int64_t), "save-state");
    if (rc || !v) return rc ? rc : GS_ENOMEM;
    for (long i = 0; i < n; i++) v[i] = ix[i];
    rc = npy_write_i8(path, v, n);
    free(v);
    return rc;
}

static int save_val(const char *dir, const en_problem *p)
{
    const st_stream *st = p->st;
    char path[4096];
    int rc = save_index(dir, "rows_index.npy", st->row_index, st->n);
    if (rc || !has_val(p)) return rc;
    if ((rc = path_in(path, sizeof path, dir, NULL, "val_rows.npy")) ||
        (rc = npy_write_f8(path, p->val_z.v, p->val_z.rows, p->d)) ||
        (rc = path_in(path, sizeof path, dir, NULL, "val_labels.npy")) ||
        (rc = npy_write_labels(path, p->val_y, p->val_h.rows)))
        return rc;
    return save_index(dir, "val_index.npy", st->val_index, st->n_val);
}

int rp_save_state(const char *dir, en_engine *e, const en_problem *p, const op_opts *o)
{
    char path[4096];
    int rc = io_mkdirs(dir);
    if (rc) return rc;
    const st_stream *st = p->st;
    long n = p->h.rows;
    int64_t *tmp = gs_malloc((size_t)(n > p->C ? n : p->C) + 1, sizeof(int64_t), "save-state");
    if (!tmp) return GS_ENOMEM;
#define TRY(x) do { if ((rc = (x))) goto out; } while (0)
    TRY(path_in(path, sizeof path, dir, NULL, "rows.npy"));
    TRY(npy_write_f8(path, p->z.v, n, p->d));
    TRY(path_in(path, sizeof path, dir, NULL, "rows_labels.npy"));
    TRY(npy_write_labels(path, p->y, n));
    for (long i = 0; i < n; i++) tmp[i] = st->row_task[i];
    TRY(path_in(path, sizeof path, dir, NULL, "rows_task.npy"));
    TRY(npy_write_i8(path, tmp, n));
    TRY(path_in(path, sizeof path, dir, NULL, "test_rows.npy"));
    TRY(npy_write_f8(path, p->test_z.v, p->test_z.rows, p->d));
    TRY(path_in(path, sizeof path, dir, NULL, "test_labels.npy"));
    TRY(npy_write_labels(path, p->test_y, p->test_h.rows));
    if (p->test_index) TRY(save_index(dir, "test_index.npy", p->test_index, p->test_h.rows));
    TRY(save_val(dir, p));
    long k = 0;
    for (int c = 0; c < p->C; c++) if (st->is_head[c]) tmp[k++] = c;
    TRY(path_in(path, sizeof path, dir, NULL, "head_classes.npy"));
    TRY(npy_write_i8(path, tmp, k));
    for (int c = 0; c < p->C; c++) tmp[c] = st->class_order[c];
    TRY(path_in(path, sizeof path, dir, NULL, "class_order.npy"));
    TRY(npy_write_i8(path, tmp, st->n_stream_classes));
    {
        char *js = rp_params_json(p, o);
        if (!js) { rc = gs_error(GS_ENOMEM, "params.json: out of memory"); goto out; }
        TRY(path_in(path, sizeof path, dir, NULL, "params.json"));
        rc = io_write_file(path, js, strlen(js));
        free(js);
        if (rc) goto out;
    }
    for (int m = 0; m < en_get_results(e)->n_methods; m++) TRY(rp_save_method(dir, e, p, m));
#undef TRY
out:
    free(tmp);
    return rc;
}
