/* cli/table.c — `gsrscope table` (see gs_table.h). */
#include "cli_int.h"
#include "gs_table.h"
#include "gs_common.h"
#include "gs_engine.h"
#include "gs_json.h"
#include "gs_mtable.h"
#include "gs_pipeline.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The columns a source's group can have: test A_last, A_avg, head and tail accuracy after the last
 * task (--columns picks and orders them: OP_COL_*), then (with a validation split) the validation
 * accuracy, head and tail accuracy after the last task. */
#define TB_NTEST OP_N_COLS
#define TB_NSTAT (TB_NTEST + 3)
static const char *const STAT_KEY[TB_NSTAT] = {"a_last", "a_avg", "head", "tail", "val_a_last", "val_head", "val_tail"};
static const char *const STAT_TITLE[TB_NSTAT] = {"A_last", "A_avg", "head", "tail", "v.acc", "v.head", "v.tail"};
static const char *const STAT_TEX[TB_NSTAT] = {"$A_{\\mathrm{last}}$", "$A_{\\mathrm{avg}}$", "head", "tail", "val.\\ acc",
                                               "val.\\ head", "val.\\ tail"};

/* ---- names -------------------------------------------------------------------------------- */

/* A method's one display name: its row's in the method table (gs_mtable.h). */
void tb_display_name(const char *method, char *out, size_t n) { mt_display_name(method, out, n); }

/* ---- output --------------------------------------------------------------------------------- */

/* Value of seed k of stat j (0..TB_NSTAT) of method m on source s. */
static double value(const tb_table *t, int s, int m, int k, int j)
{
    size_t cell = ((size_t)s * t->n_methods + m) * t->n_seeds + k;
    return j < TB_NTEST ? t->v[cell * TB_NTEST + j] : t->val[cell * 3 + (j - TB_NTEST)];
}

static int n_stats(const tb_table *t) { return t->val ? TB_NSTAT : TB_NTEST; }

/* The stats of a source's group in order (js[0..return)): the chosen test columns, then the
 * validation ones; *ntest of them are test columns. */
static int group_cols(const tb_table *t, int *js, int *ntest)
{
    int n = 0;
    if (t->n_cols > 0) for (int i = 0; i < t->n_cols && i < TB_NTEST; i++) js[n++] = t->cols[i];
    else for (int j = 0; j < TB_NTEST; j++) js[n++] = j;
    if (ntest) *ntest = n;
    if (t->val) for (int j = TB_NTEST; j < TB_NSTAT; j++) js[n++] = j;
    return n;
}

typedef struct { double mean, sd; int n, rank; } tb_cell;

/* Means, stds and ranks of every cell; cells[(s * nm + m) * TB_NSTAT + j]. */
#define CELL(c, t, s, m, j) (&(c)[((size_t)(s) * (t)->n_methods + (m)) * TB_NSTAT + (j)])
static tb_cell *summarize(const tb_table *t)
{
    int nm = t->n_methods, ns = t->n_sources, nk = t->n_seeds, nj = n_stats(t);
    tb_cell *c = gs_calloc((size_t)ns * nm * TB_NSTAT, sizeof *c, "table");
    double *tmp = gs_malloc((size_t)(nk ? nk : 1), sizeof(double), "table");
    if (!c || !tmp) { free(c); free(tmp); return NULL; }
    for (int s = 0; s < ns; s++)
        for (int j = 0; j < nj; j++) {
            for (int m = 0; m < nm; m++) {
                tb_cell *x = CELL(c, t, s, m, j);
                for (int k = 0; k < nk; k++) tmp[k] = value(t, s, m, k, j);
                gs_mean_sd(tmp, nk, &x->mean, &x->sd, &x->n);
            }
            /* best and second by the means as printed (two decimals) */
            double best = -INFINITY, second = -INFINITY;
            for (int m = 0; m < nm; m++) {
                double r = round(CELL(c, t, s, m, j)->mean * 100);
                if (!isfinite(r)) continue;
                if (r > best) { second = best; best = r; }
                else if (r < best && r > second) second = r;
            }
            for (int m = 0; m < nm; m++) {
                tb_cell *x = CELL(c, t, s, m, j);
                double r = round(x->mean * 100);
                x->rank = !isfinite(r) ? 0 : r == best ? 1 : r == second ? 2 : 0;
            }
        }
    free(tmp);
    return c;
}

static void fmt_cell(const tb_cell *x, const char *pm, char *b, size_t n)
{
    if (!isfinite(x->mean)) snprintf(b, n, "—");
    else if (isfinite(x->sd)) snprintf(b, n, "%.2f%s%.2f", x->mean, pm, x->sd);
    else snprintf(b, n, "%.2f", x->mean);
}

/* Display width of UTF-8 text (one column per code point). */
static int width(const char *s)
{
    int w = 0;
    for (; *s; s++) w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void pad(FILE *f, const char *s, int w, int right)
{
    int k = w - width(s);
    if (right) fprintf(f, "%*s%s", k > 0 ? k : 0, "", s);
    else fprintf(f, "%s%*s", s, k > 0 ? k : 0, "");
}

static void seeds_list(FILE *f, const tb_table *t, const char *sep)
{
    for (int k = 0; k < t->n_seeds; k++) fprintf(f, "%s%llu", k ? sep : "", (unsigned long long)t->seeds[k]);
}

/* "A_last, A_avg, head and tail (%)": the test columns shown (the legends). */
static void test_titles(FILE *f, const tb_table *t)
{
    int js[TB_NSTAT], nt;
    group_cols(t, js, &nt);
    for (int i = 0; i < nt; i++) fprintf(f, "%s%s", i == 0 ? "" : i + 1 < nt ? ", " : " and ", STAT_TITLE[js[i]]);
    fputs(" (%)", f);
}

/* What head and tail are, when shown (the legends of every format but csv and json); "" else. */
static void head_tail_legend(FILE *f, const tb_table *t, const char *prefix, const char *end)
{
    int js[TB_NSTAT], nt, any = 0;
    group_cols(t, js, &nt);
    for (int i = 0; i < nt; i++) any |= js[i] == OP_COL_HEAD || js[i] == OP_COL_TAIL;
    if (any) fprintf(f, "%shead, tail: mean per-class accuracy (%%) over the head and over the tail classes on the test rows "
                        "after the last task%s", prefix, end);
}

/* What the validation columns are (the legends of every format but csv and json). */
static void val_legend(FILE *f, const tb_table *t, const char *acc, const char *head, const char *tail)
{
    fprintf(f, "%s, %s, %s: accuracy, head and tail accuracy (%%) after the last task on the validation rows "
               "(--val-frac %g), never on test rows", acc, head, tail, t->val_frac);
}

/* ---- the values behind the table (t->o: every method's parameters, the protocol, the data) ---- */

static int is_learner_core(const char *name)
{
    return !strcmp(name, "tau") || !strcmp(name, "beta") || !strcmp(name, "alpha-base") || !strcmp(name, "xi");
}

/* The parameter rows behind method m (method ≥ 0: τ, β, α_base, ξ, then the ones its learner and
 * augmenter read) or the protocol's (method < 0: every row outside the methods' section but
 * the seed, which --seeds gives). */
static int meta_rows(const char *method, const pa_param **rows)
{
    static const char *const CORE[] = {"tau", "beta", "alpha-base", "xi"};
    int n = 0;
    if (method) for (int i = 0; i < 4; i++) rows[n++] = pa_find(CORE[i]);
    for (int i = 0; i < pa_count(); i++) {
        const pa_param *r = &pa_table()[i];
        if (method ? r->section == PA_SEC_METHODS && !is_learner_core(r->name) && mt_uses(method, r->name)
                   : r->section != PA_SEC_METHODS && strcmp(r->name, "seed"))
            rows[n++] = r;
    }
    return n;
}

/* Control characters of a name or path as '?' (a comment line stays one line). */
static void plain_text(FILE *f, const char *s, int n)
{
    for (int i = 0; s[i] && (n < 0 || i < n); i++) fputc((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i], f);
}

/* Row `name`'s value as op_get writes it, of method `method` (its own with --tuned or --set:
 * o->method_params) or of the options (method NULL). */
static void value_of(const tb_table *t, const char *method, const char *name, char *v, size_t n)
{
    int m = 0;
    while (method && t->o->method_params && m < t->o->n_methods && strcmp(t->o->methods[m], method)) m++;
    if (!method || !t->o->method_params || m == t->o->n_methods) { op_get(t->o, name, v, n); return; }
    op_opts *w = gs_malloc(1, sizeof *w, "table"); /* op_opts is large */
    if (!w) { op_get(t->o, name, v, n); return; }
    *w = *t->o;
    w->params = t->o->method_params[m];
    op_get(w, name, v, n);
    free(w);
}

/* "name=value" of the rows from the first-th on, sep between them. */
static void meta_pairs(FILE *f, const tb_table *t, const char *method, const char *sep, int first)
{
    const pa_param *rows[64];
    int n = meta_rows(method, rows);
    for (int i = first; i < n; i++) {
        char v[64];
        value_of(t, method, rows[i]->name, v, sizeof v);
        fputs(i > first ? sep : "", f);
        fprintf(f, "%s=%s", rows[i]->name, v);
    }
}

/* The block of comment lines above LaTeX (prefix "% ") and the plain table/markdown (none). */
static void meta_comments(FILE *f, const tb_table *t, const char *prefix)
{
    if (!t->o) return;
    fprintf(f, "%sthe values behind the table (gsrscope table):\n%s  seeds: ", prefix, prefix);
    seeds_list(f, t, ",");
    fprintf(f, "\n%s  protocol: ", prefix);
    meta_pairs(f, t, NULL, " ", 0);
    fputc('\n', f);
    for (int s = 0; s < t->n_sources; s++) {
        fprintf(f, "%s  source ", prefix);
        plain_text(f, t->sources[s], -1);
        fputs(": ", f);
        plain_text(f, t->source_from ? t->source_from[s] : "", -1);
        fputc('\n', f);
    }
    for (int m = 0; m < t->n_methods; m++) {
        fprintf(f, "%s  method ", prefix);
        plain_text(f, t->methods[m], -1);
        fputs(": ", f);
        meta_pairs(f, t, t->methods[m], " ", 0);
        fputc('\n', f);
    }
}

/* A JSON value of row r as op_get writes it: a number as is, a name (enum, "all") as a string. */
static void json_param(FILE *f, const tb_table *t, const char *method, const pa_param *r)
{
    char v[64];
    value_of(t, method, r->name, v, sizeof v);
    char *end;
    strtod(v, &end);
    if (r->kind != PA_ENUM && *v && !*end) fputs(v, f);
    else json_str(f, v);
}

static void json_params(FILE *f, const tb_table *t, const char *method)
{
    const pa_param *rows[64];
    int n = meta_rows(method, rows);
    fputc('{', f);
    for (int i = 0; i < n; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, rows[i]->name);
        fputs(": ", f);
        json_param(f, t, method, rows[i]);
    }
    fputc('}', f);
}

static void latex_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '_': case '%': case '&': case '#': case '$': case '{': case '}': fprintf(f, "\\%c", *s); break;
        case '\\': fputs("\\textbackslash{}", f); break;
        case '~': fputs("\\textasciitilde{}", f); break;
        case '^': fputs("\\textasciicircum{}", f); break;
        default:
            if (!strncmp(s, "α", strlen("α"))) { fputs("$\\alpha$", f); s += strlen("α") - 1; }
            else fputc(*s, f);
        }
    }
}

static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '*' || *s == '_' || *s == '<' || *s == '\\') fputc('\\', f);
        fputc(*s, f);
    }
}

static void json_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.10g", v);
    else fputs("null", f);
}

static void write_text(FILE *f, const tb_table *t, const tb_cell *c)
{
    int nm = t->n_methods, ns = t->n_sources, js[TB_NSTAT], nj = group_cols(t, js, NULL);
    char b[64];
    int mw = (int)strlen("method"), cw = (int)strlen("A_last");
    for (int m = 0; m < nm; m++) if (width(t->methods[m]) > mw) mw = width(t->methods[m]);
    for (int s = 0; s < ns; s++)
        for (int m = 0; m < nm; m++)
            for (int i = 0; i < nj; i++) { fmt_cell(CELL(c, t, s, m, js[i]), " ± ", b, sizeof b); if (width(b) > cw) cw = width(b); }
    cw += 1; /* the mark */
    /* a group: nj columns of width cw, three spaces apart; the last one widens for a long source name */
    int gw = nj * cw + 3 * (nj - 1);
    for (int s = 0; s < ns; s++) if (width(t->sources[s]) > gw) gw = width(t->sources[s]);
    int lastw = gw - (nj - 1) * (cw + 3);
    test_titles(f, t);
    fprintf(f, " over seed%s ", t->n_seeds == 1 ? "" : "s");
    seeds_list(f, t, ",");
    fprintf(f, "%s; * best, _ second in each column\n", t->n_seeds > 1 ? " (mean ± std)" : "");
    head_tail_legend(f, t, "", "\n");
    if (t->val) { val_legend(f, t, "v.acc", "v.head", "v.tail"); fputc('\n', f); }
    pad(f, "", mw, 0);
    for (int s = 0; s < ns; s++) { fputs(" | ", f); pad(f, t->sources[s], gw, 0); }
    fputc('\n', f);
    pad(f, "method", mw, 0);
    for (int s = 0; s < ns; s++) {
        fputs(" | ", f);
        for (int i = 0; i < nj; i++) {
            char title[16];
            snprintf(title, sizeof title, "%s ", STAT_TITLE[js[i]]);
            if (i) fputs("   ", f);
            pad(f, title, i + 1 < nj ? cw : lastw, 1);
        }
    }
    fputc('\n', f);
    for (int m = 0; m < nm; m++) {
        pad(f, t->methods[m], mw, 0);
        for (int s = 0; s < ns; s++) {
            fputs(" | ", f);
            for (int i = 0; i < nj; i++) {
                const tb_cell *x = CELL(c, t, s, m, js[i]);
                char cell[80];
                fmt_cell(x, " ± ", b, sizeof b);
                snprintf(cell, sizeof cell, "%s%s", b, x->rank == 1 ? "*" : x->rank == 2 ? "_" : " ");
                if (i) fputs("   ", f);
                pad(f, cell, i + 1 < nj ? cw : lastw, 1);
            }
        }
        fputc('\n', f);
    }
    if (t->o) { fputc('\n', f); meta_comments(f, t, ""); }
}

static void write_markdown(FILE *f, const tb_table *t, const tb_cell *c)
{
    int nm = t->n_methods, ns = t->n_sources, js[TB_NSTAT], nj = group_cols(t, js, NULL);
    char b[64], name[96];
    fputs("| Method |", f);
    for (int s = 0; s < ns; s++) {
        for (int i = 0; i < nj; i++) { fputc(' ', f); md_text(f, t->sources[s]); fprintf(f, " %s |", STAT_TITLE[js[i]]); }
    }
    fputs("\n|---|", f);
    for (int s = 0; s < ns; s++) for (int i = 0; i < nj; i++) fputs("---:|", f);
    fputc('\n', f);
    for (int m = 0; m < nm; m++) {
        tb_display_name(t->methods[m], name, sizeof name);
        fputs("| ", f);
        md_text(f, name);
        fputs(" |", f);
        for (int s = 0; s < ns; s++)
            for (int i = 0; i < nj; i++) {
                const tb_cell *x = CELL(c, t, s, m, js[i]);
                fmt_cell(x, " ± ", b, sizeof b);
                fprintf(f, " %s%s%s |", x->rank == 1 ? "**" : x->rank == 2 ? "<u>" : "", b,
                        x->rank == 1 ? "**" : x->rank == 2 ? "</u>" : "");
            }
        fputc('\n', f);
    }
    fputc('\n', f);
    test_titles(f, t);
    fprintf(f, ", %s over seed%s ", t->n_seeds > 1 ? "mean ± std" : "value", t->n_seeds == 1 ? "" : "s");
    seeds_list(f, t, ",");
    fputs("; best in bold, second underlined.\n", f);
    head_tail_legend(f, t, "", ".\n");
    if (t->val) { fputc('\n', f); val_legend(f, t, "v.acc", "v.head", "v.tail"); fputs(".\n", f); }
    if (t->o) { fputs("\n<!--\n", f); meta_comments(f, t, ""); fputs("-->\n", f); }
}

static void write_latex(FILE *f, const tb_table *t, const tb_cell *c)
{
    int nm = t->n_methods, ns = t->n_sources, js[TB_NSTAT], nj = group_cols(t, js, NULL);
    char b[64], name[96];
    fputs("% gsrscope table: ", f);
    test_titles(f, t);
    fprintf(f, ", %s over seed%s ", t->n_seeds > 1 ? "mean $\\pm$ std" : "value", t->n_seeds == 1 ? "" : "s");
    seeds_list(f, t, ",");
    fputs("; needs \\usepackage{booktabs}\n", f);
    head_tail_legend(f, t, "% ", "\n");
    if (t->val) { fputs("% ", f); val_legend(f, t, "val. acc", "val. head", "val. tail"); fputc('\n', f); }
    meta_comments(f, t, "% ");
    fputs("\\begin{tabular}{l", f);
    for (int s = 0; s < ns; s++) for (int i = 0; i < nj; i++) fputc('c', f);
    fputs("}\n\\toprule\n", f);
    for (int s = 0; s < ns; s++) { fprintf(f, " & \\multicolumn{%d}{c}{", nj); latex_text(f, t->sources[s]); fputc('}', f); }
    fputs(" \\\\\n", f);
    for (int s = 0; s < ns; s++) fprintf(f, "%s\\cmidrule(lr){%d-%d}", s ? " " : "", 2 + nj * s, 1 + nj * (s + 1));
    fputs("\nMethod", f);
    for (int s = 0; s < ns; s++) for (int i = 0; i < nj; i++) fprintf(f, " & %s", STAT_TEX[js[i]]);
    fputs(" \\\\\n\\midrule\n", f);
    for (int m = 0; m < nm; m++) {
        tb_display_name(t->methods[m], name, sizeof name);
        latex_text(f, name);
        for (int s = 0; s < ns; s++)
            for (int i = 0; i < nj; i++) {
                const tb_cell *x = CELL(c, t, s, m, js[i]);
                if (!isfinite(x->mean)) { fputs(" & --", f); continue; }
                fmt_cell(x, " $\\pm$ ", b, sizeof b);
                fprintf(f, " & %s%s%s", x->rank == 1 ? "\\textbf{" : x->rank == 2 ? "\\underline{" : "", b, x->rank ? "}" : "");
            }
        fputs(" \\\\\n", f);
    }
    fputs("\\bottomrule\n\\end{tabular}\n", f);
}

/* A CSV field: quoted when it holds a comma, quote or line break. */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) { fputs(s, f); return; }
    fputc('"', f);
    for (const char *p = s; *p; p++) { if (*p == '"') fputc('"', f); fputc(*p, f); }
    fputc('"', f);
}

/* CSV: one line per method and source; the values behind the table are extra columns (with t->o):
 * data (the source as given), profile, rho, seed_list (1;2;3), tau, beta, alpha_base, xi,
 * params (the method's learner and augmenter's own, "name=v;..."), protocol (the other protocol
 * and data rows, "name=v;..."). */
static void write_csv(FILE *f, const tb_table *t, const tb_cell *c)
{
    int nm = t->n_methods, js[TB_NSTAT], nt, nj = group_cols(t, js, &nt);
    fputs("method,source,seeds", f);
    for (int i = 0; i < nt; i++) fprintf(f, ",%s_mean,%s_std", STAT_KEY[js[i]], STAT_KEY[js[i]]);
    for (int i = 0; i < nt; i++) fprintf(f, ",%s_rank", STAT_KEY[js[i]]);
    if (t->val) {
        fprintf(f, ",val_frac");
        for (int i = nt; i < nj; i++) fprintf(f, ",%s_mean,%s_std", STAT_KEY[js[i]], STAT_KEY[js[i]]);
        for (int i = nt; i < nj; i++) fprintf(f, ",%s_rank", STAT_KEY[js[i]]);
    }
    if (t->o) fputs(",data,profile,rho,seed_list,tau,beta,alpha_base,xi,params,protocol", f);
    fputc('\n', f);
    for (int s = 0; s < t->n_sources; s++)
        for (int m = 0; m < nm; m++) {
            fprintf(f, "%s,", t->methods[m]);
            csv_field(f, t->sources[s]);
            fprintf(f, ",%d", t->n_seeds);
            /* test means and stds, their ranks; then the validation ones the same way */
            for (int part = 0; part < (t->val ? 2 : 1); part++) {
                int lo = part ? nt : 0, hi = part ? nj : nt;
                if (part) fprintf(f, ",%g", t->val_frac);
                for (int i = lo; i < hi; i++) {
                    const tb_cell *x = CELL(c, t, s, m, js[i]);
                    if (isfinite(x->mean)) fprintf(f, ",%.4f", x->mean); else fputc(',', f);
                    if (isfinite(x->sd)) fprintf(f, ",%.4f", x->sd); else fputc(',', f);
                }
                for (int i = lo; i < hi; i++) {
                    const tb_cell *x = CELL(c, t, s, m, js[i]);
                    if (x->rank) fprintf(f, ",%d", x->rank); else fputc(',', f);
                }
            }
            if (t->o) {
                char v[64];
                fputc(',', f);
                csv_field(f, t->source_from ? t->source_from[s] : "");
                op_get(t->o, "profile", v, sizeof v);
                fprintf(f, ",%s,", v);
                op_get(t->o, "rho", v, sizeof v);
                fprintf(f, "%s,", v);
                seeds_list(f, t, ";");
                static const char *const CORE[] = {"tau", "beta", "alpha-base", "xi"};
                for (int i = 0; i < 4; i++) { value_of(t, t->methods[m], CORE[i], v, sizeof v); fprintf(f, ",%s", v); }
                fputc(',', f);
                meta_pairs(f, t, t->methods[m], ";", 4); /* the method's own rows, after the four */
                fputc(',', f);
                meta_pairs(f, t, NULL, ";", 0);
            }
            fputc('\n', f);
        }
}

static void write_json(FILE *f, const tb_table *t, const tb_cell *c)
{
    int nm = t->n_methods, js[TB_NSTAT], nj = group_cols(t, js, NULL);
    fputs("{\n\"seeds\": [", f);
    seeds_list(f, t, ", ");
    fputs("],\n\"columns\": [", f);
    for (int i = 0; i < nj; i++) { if (i) fputs(", ", f); json_str(f, STAT_KEY[js[i]]); }
    fputs("],\n", f);
    if (t->val) {
        fputs("\"val_frac\": ", f);
        json_num(f, t->val_frac);
        fputs(",\n", f);
    }
    if (t->o) {
        fputs("\"params\": {\"protocol\": ", f);
        json_params(f, t, NULL);
        fputs(", \"methods\": {", f);
        for (int m = 0; m < nm; m++) {
            fputs(m ? ",\n  " : "\n  ", f);
            json_str(f, t->methods[m]);
            fputs(": ", f);
            json_params(f, t, t->methods[m]);
        }
        fputs("}},\n", f);
    }
    fputs("\"sources\": [", f);
    for (int s = 0; s < t->n_sources; s++) {
        fputs(s ? ", {\"name\": " : "{\"name\": ", f);
        json_str(f, t->sources[s]);
        fputs(", \"data\": ", f);
        if (t->source_from) json_str(f, t->source_from[s]);
        else fputs("null", f);
        fputc('}', f);
    }
    fputs("],\n\"methods\": [", f);
    for (int m = 0; m < nm; m++) { if (m) fputs(", ", f); json_str(f, t->methods[m]); }
    fputs("],\n\"results\": [\n", f);
    for (int s = 0; s < t->n_sources; s++)
        for (int m = 0; m < nm; m++) {
            fputs("  {\"method\": ", f);
            json_str(f, t->methods[m]);
            fputs(", \"source\": ", f);
            json_str(f, t->sources[s]);
            for (int i = 0; i < nj; i++) {
                int j = js[i];
                const tb_cell *x = CELL(c, t, s, m, j);
                fprintf(f, ", \"%s\": {\"mean\": ", STAT_KEY[j]);
                json_num(f, x->mean);
                fputs(", \"std\": ", f);
                json_num(f, x->sd);
                fputs(", \"values\": [", f);
                for (int k = 0; k < t->n_seeds; k++) { if (k) fputs(", ", f); json_num(f, value(t, s, m, k, j)); }
                fputs("], \"rank\": ", f);
                if (x->rank) fprintf(f, "%d", x->rank);
                else fputs("null", f);
                fputc('}', f);
            }
            fprintf(f, "}%s\n", s + 1 < t->n_sources || m + 1 < nm ? "," : "");
        }
    fputs("]\n}\n", f);
}
#undef CELL

int tb_write(FILE *f, op_format fmt, const tb_table *t)
{
    tb_cell *c = summarize(t);
    if (!c) return GS_ENOMEM;
    switch (fmt) {
    case OP_FMT_CSV: write_csv(f, t, c); break;
    case OP_FMT_JSON: write_json(f, t, c); break;
    case OP_FMT_MARKDOWN: write_markdown(f, t, c); break;
    case OP_FMT_LATEX: write_latex(f, t, c); break;
    default: write_text(f, t, c); break;
    }
    free(c);
    if (fflush(f) != 0 || ferror(f)) return gs_error(GS_ERUN, "standard output: write failed");
    return GS_OK;
}

/* ---- running -------------------------------------------------------------------------------- */

/* o with only source s as its data (the four files when s is past the listed sources). */
static void one_source(const op_opts *o, int s, op_opts *w)
{
    *w = *o;
    w->n_sources = 0;
    w->data.synthetic = 0;
    w->data.data_dir = w->data.idx_dir = NULL;
    w->data.sample = NULL;
    if (s < o->n_sources) {
        w->data.train_features = w->data.train_labels = w->data.test_features = w->data.test_labels = NULL;
        const op_source *src = &o->sources[s];
        if (src->kind == OP_SRC_SYNTHETIC) w->data.synthetic = 1;
        else if (src->kind == OP_SRC_DATA) w->data.data_dir = src->arg;
        else if (src->kind == OP_SRC_IDX) w->data.idx_dir = src->arg;
        else if (src->kind == OP_SRC_SAMPLE) w->data.sample = src->arg;
    }
}

/* Method m's numbers after the last task: test head and tail accuracy (as `run` prints them:
 * head_acc, tail_acc), then the validation accuracy, head and tail accuracy. */
static void keep_last(const en_results *r, int m, double *vo)
{
    const en_snap *last = &r->m[m].snaps[r->T - 1];
    int done = last->state == EN_DONE;
    vo[0] = done ? last->head_acc : NAN;
    vo[1] = done ? last->tail_acc : NAN;
    vo[2] = r->m[m].val_a_last;
    vo[3] = done ? last->val_head_acc : NAN;
    vo[4] = done ? last->val_tail_acc : NAN;
}

/* ---- engines -------------------------------------------------------------------------------- */

/* Values of a method kept from its engine: A_last, A_avg, then keep_last's five (the first
 * TB_NTEST are the table's v, the last three its val). */
#define TB_OUT (TB_NTEST + 3)

/* A set of methods run in one engine (indices into the table's methods). */
typedef struct {
    int m[OP_MAX_METHODS];
    int n;
} tb_group;

/* The memory estimate of group g (plus method `extra` when ≥ 0) on c's data and stream. */
static double group_need(const pl_ctx *c, const op_opts *o, const tb_group *g, int extra)
{
    const char *names[OP_MAX_METHODS + 1];
    int n = 0;
    for (int k = 0; k < g->n; k++) names[n++] = o->methods[g->m[k]];
    if (extra >= 0) names[n++] = o->methods[extra];
    en_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.methods = names;
    cfg.n_methods = n;
    cfg.spectrum = OP_SPECTRUM_AUTO; /* as run_engine's */
    cfg.lean_test_rows = 1;
    cfg.accuracies_only = 1; /* its ridge methods share a work matrix */
    if (mt_resolve(&cfg)) return HUGE_VAL; /* the names were checked before */
    return pl_need(c, o, &cfg);
}

/* Pack the methods into groups (see gs_table.h): a method joins the group where it adds the least
 * to the estimate among those that hold its feature space (it adds less there than its own part
 * alone: its rows and base Gram are not counted again) and stay within the budget, else it
 * starts a group of its own; only methods of the same values share one (pl_group). Methods that share nothing run in engines of their own, which the scheduler below runs
 * side by side (a group of unrelated methods would only add their peaks together). */
static int plan_groups(const pl_ctx *c, const op_opts *o, double budget, const pl_groups *pg, tb_group *g)
{
    int ng = 0;
    tb_group none = {.n = 0};
    double base = group_need(c, o, &none, -1); /* the process and the problem, in every engine */
    for (int m = 0; m < o->n_methods; m++) {
        int best = -1;
        double best_add = 0, own = group_need(c, o, &none, m) - base;
        for (int k = 0; k < ng; k++) {
            double now = group_need(c, o, &g[k], -1), with = group_need(c, o, &g[k], m);
            if (pg->of[g[k].m[0]] == pg->of[m] && with <= budget && with - now < own && (best < 0 || with - now < best_add)) { best = k; best_add = with - now; }
        }
        if (best < 0) { best = ng++; g[best].n = 0; }
        g[best].m[g[best].n++] = m;
    }
    return ng;
}

/* ---- the schedule --------------------------------------------------------------------------- */

/* One engine's work: group g of seed k of the source at work, its memory estimate (need: the
 * process, seed k's problem and the engine, as `run` checks it) and what the engine adds to
 * seed k's problem, counted in the budget while it runs (add: need less the seed's own estimate,
 * which the schedule counts once while the seed is open). */
typedef struct {
    int k;
    tb_group g;
    double need, add;
    int state;          /* 0 waiting, 1 running, 2 done */
    op_params q;        /* its methods' values (a group of pl_group, gs_pipeline.h) at seed k */
} tb_unit;

/* The engines of a source, run by `jobs` threads (two on two or more cores), each engine then
 * with one worker: a unit starts when the estimates of the running units, plus the problems of
 * the seeds still open, stay within the budget (or when nothing else runs: then alone, as
 * `run` would, checked against the memory it may use; an engine that no waiting one fits beside
 * gets two workers, as `run` has). Every number an engine computes is the
 * same whichever engine runs beside it (engines share only the problem, which they read). */
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    const op_opts *o;
    pl_ctx *c;              /* nk contexts: seed k's stream and problem */
    op_opts *w;             /* nk options: the source alone, seed k */
    double *base;           /* nk: the estimate of seed k's problem alone (counted while open) */
    int *left;              /* nk: units of seed k not finished */
    tb_unit *u;
    int nu, nm, nk, s, threads;
    const char *source;
    const uint64_t *seeds;
    double budget, used;    /* the estimates counted now: running units and open problems */
    double peak_need;       /* the largest `used` seen (GS_TABLE_NEED: what the tests compare) */
    int running, stop, rc, failed;
    char err[512];
    double *v, *val;
    pg_state pg;
    const pl_groups *pg_of; /* the methods grouped by their own values (--tuned, --set) */
} tb_sched;

/* The progress of one engine (progress.h): a unit is a method at a seed (of a source); the engine
 * of a group of methods reports its tasks under the group's label. */
typedef struct {
    tb_sched *sc;
    char label[256];   /* the engine at work: "SOURCE seed S: m1,m2" */
} tb_progress;

static void progress_cb(double fraction, const char *what, void *user)
{
    (void)what;
    tb_progress *pr = user;
    pthread_mutex_lock(&pr->sc->mu);
    pg_work(&pr->sc->pg, pr->label, fraction);
    pthread_mutex_unlock(&pr->sc->mu);
}

/* Run the n methods idx[] in one engine on c's problem: out[TB_OUT·k ..] get method idx[k]'s A_last,
 * A_avg, head, tail and validation values (keep_last), or stay NaN with its reason in why[k] ("" when none). A failing job stops the
 * whole engine after the tasks before it: the methods it left unfinished get redo[k] = 1 (the
 * caller runs them again alone, so that only a method's own failure counts). Returns GS_OK, or the
 * error of creating the engine (the memory estimate refused it). */
static int run_engine(const pl_ctx *c, const op_opts *w, const op_params *q, const int *idx, int n, int threads,
                      tb_progress *pr, double *out, char (*why)[256], int *redo)
{
    const char *names[OP_MAX_METHODS];
    for (int k = 0; k < n; k++) names[k] = w->methods[idx[k]];
    int len = snprintf(pr->label, sizeof pr->label, "%s seed %llu:", pr->sc->source, (unsigned long long)w->params.seed);
    for (int k = 0; k < n && len > 0 && (size_t)len < sizeof pr->label; k++)
        len += snprintf(pr->label + len, sizeof pr->label - (size_t)len, "%s%s", k ? "," : " ", names[k]);
    en_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.methods = names;
    cfg.n_methods = n;
    cfg.threads = threads;
    /* the table shows accuracies only: an exact spectrum where it is cheap (as `run` does), none
     * of RanPAC's 10,000-d Gram (a dsyevd and a D×D copy per method and seed, for nothing) */
    cfg.spectrum = OP_SPECTRUM_AUTO;
    cfg.lean_test_rows = 1; /* read through its accuracies only: RanPAC's test rows mapped as scored */
    cfg.accuracies_only = 1; /* and no λ_min per task */
    for (int k = 0; k < n; k++) {
        for (int j = 0; j < TB_OUT; j++) out[TB_OUT * k + j] = NAN;
        why[k][0] = '\0';
        redo[k] = 0;
    }
    en_engine *eng;
    int rc = mt_resolve(&cfg);
    /* RanPAC's λ on the validation rows, as `run` chooses it (a unit with a ranpac method) */
    /* (with the unit's own values: its group's, --tuned/--set) */
    op_params uq = *q;
    double lam = 0, lval;
    for (int k = 0; k < n && !rc; k++)
        if (!strncmp(names[k], "ranpac", 6)) {
            op_opts *wq = malloc(sizeof *wq); /* large; units run on several threads */
            if (!wq) { rc = gs_error(GS_ENOMEM, "out of memory"); break; }
            *wq = *w;
            wq->params = *q;
            rc = cli_ranpac_lambda(c, wq, &cfg, NULL, &lam, &lval);
            free(wq);
            break;
        }
    if (lam > 0) uq.ranpac_lambda = lam;
    if (!rc) rc = pl_engine_new(c, w, &cfg, &eng);
    if (rc) return rc;
    int urc = en_update(eng, &uq, 1, NULL, progress_cb, pr);
    const en_results *r = en_get_results(eng);
    for (int k = 0; k < n; k++) {
        int complete = 1;
        for (int t = 0; t < r->T && !why[k][0]; t++) {
            if (r->m[k].snaps[t].state == EN_FAILED) snprintf(why[k], sizeof why[k], "%s", r->m[k].snaps[t].error);
            else if (r->m[k].snaps[t].state != EN_DONE) complete = 0;
        }
        if (why[k][0]) continue;
        if (complete) {
            out[TB_OUT * k] = r->m[k].a_last;
            out[TB_OUT * k + 1] = r->m[k].a_avg;
            keep_last(r, k, out + TB_OUT * k + 2);
        }
        else if (n == 1) snprintf(why[k], sizeof why[k], "%s", urc ? gs_last_error() : "not finished");
        else redo[k] = 1;
    }
    en_destroy(eng);
    gs_clear_error();
    return GS_OK;
}

/* Run unit u (its methods rerun alone where a failing job left them unfinished) and keep its
 * values; the unit lines and failures go to stderr under the lock. GS_OK or the error that
 * stops the table (a method alone refused by the memory estimate, as `run` is). */
static int run_unit(tb_sched *sc, tb_progress *pr, const tb_unit *u, int threads)
{
    int k = u->k, n = u->g.n, nm = sc->nm, nk = sc->nk, s = sc->s;
    double res[TB_OUT * OP_MAX_METHODS];
    char why[OP_MAX_METHODS][256];
    int redo[OP_MAX_METHODS];
    const pl_ctx *c = &sc->c[k];
    const op_opts *w = &sc->w[k];
    int grc = run_engine(c, w, &u->q, u->g.m, n, threads, pr, res, why, redo);
    if (grc && n == 1) return grc;
    for (int j = 0; j < n; j++) {
        int m = u->g.m[j];
        double *x = res + TB_OUT * j;
        int rc;
        if ((grc || redo[j]) && (rc = run_engine(c, w, &u->q, &m, 1, threads, pr, x, why + j, redo + j))) return rc;
        pthread_mutex_lock(&sc->mu);
        memcpy(sc->v + (((size_t)s * nm + m) * nk + k) * TB_NTEST, x, TB_NTEST * sizeof(double));
        if (sc->val) memcpy(sc->val + (((size_t)s * nm + m) * nk + k) * 3, x + TB_NTEST, 3 * sizeof(double));
        if (why[j][0]) {
            sc->failed++;
            pg_clear(&sc->pg);
            fprintf(stderr, "gsrscope: %s (%s, seed %llu): %s\n", sc->o->methods[m], sc->source,
                    (unsigned long long)sc->seeds[k], why[j]);
        }
        char unit[256];
        snprintf(unit, sizeof unit, "%s (%s, seed %llu)", sc->o->methods[m], sc->source, (unsigned long long)sc->seeds[k]);
        pg_done(&sc->pg, unit);
        pthread_mutex_unlock(&sc->mu);
    }
    return GS_OK;
}

/* Seed k's units are all done: its stream and problem go (the data stay: the first context
 * owns them and the others borrow them), and so does their count in the budget. Under the lock. */
static void release_seed(tb_sched *sc, int k)
{
    pl_ctx *c = &sc->c[k];
    if (c->have_prob) en_problem_free(&c->prob);
    if (c->have_stream) st_free(&c->st);
    c->have_prob = c->have_stream = 0;
    sc->used -= sc->base[k];
}

static void *runner(void *arg)
{
    tb_sched *sc = arg;
    tb_progress pr = {.sc = sc};
    pthread_mutex_lock(&sc->mu);
    for (;;) {
        int pick = -1, waiting = 0;
        for (int i = 0; i < sc->nu; i++) {
            if (sc->u[i].state) continue;
            waiting++;
            if (sc->running == 0 || sc->used + sc->u[i].add <= sc->budget) { pick = i; break; }
        }
        if (sc->stop || !waiting) break;
        if (pick < 0) { pthread_cond_wait(&sc->cv, &sc->mu); continue; }
        tb_unit *u = &sc->u[pick];
        u->state = 1;
        sc->running++;
        sc->used += u->add;
        if (sc->used > sc->peak_need) sc->peak_need = sc->used;
        /* an engine no waiting one fits beside (within the budget) gets both workers */
        int threads = sc->threads, alone = sc->running == 1;
        for (int i = 0; i < sc->nu && alone; i++)
            if (!sc->u[i].state && sc->used + sc->u[i].add <= sc->budget) alone = 0;
        if (alone) threads = 0;
        pthread_mutex_unlock(&sc->mu);
        int rc = run_unit(sc, &pr, u, threads);
        const char *msg = rc ? gs_last_error() : "";
        pthread_mutex_lock(&sc->mu);
        u->state = 2;
        sc->running--;
        sc->used -= u->add;
        if (--sc->left[u->k] == 0) release_seed(sc, u->k);
        if (rc && !sc->rc) { sc->rc = rc; snprintf(sc->err, sizeof sc->err, "%s", msg); sc->stop = 1; }
        pthread_cond_broadcast(&sc->cv);
    }
    pthread_mutex_unlock(&sc->mu);
    return NULL;
}

/* The threads that run a table's engines: two on two or more cores (GS_THREADS=1: one). */
static int table_jobs(void)
{
    const char *env = getenv("GS_THREADS");
    if (env && *env && atoi(env) == 1) return 1;
    return sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
}

/* Unit order: the largest estimate first (they are the longest: RanPAC's and AnaCP's), so the
 * small ones fill in beside them and at the end; ties by seed, then by first method. */
static int unit_cmp(const void *a, const void *b)
{
    const tb_unit *x = a, *y = b;
    if (x->need != y->need) return x->need < y->need ? 1 : -1;
    if (x->k != y->k) return x->k - y->k;
    return x->g.m[0] - y->g.m[0];
}

/* The seeds of source s: open every seed's stream and problem (the data once), plan each seed's
 * engines, run them (sc->jobs threads), release. */
static int run_source(tb_sched *sc, const op_opts *o, int s, char *name, size_t nname)
{
    int nk = sc->nk, rc;
    op_opts w0;
    one_source(o, s, &w0);
    en_config none;
    memset(&none, 0, sizeof none);
    none.spectrum = OP_SPECTRUM_AUTO;
    if ((rc = pl_open_seeds(sc->c, nk, sc->seeds, &w0, &none, cli_warn, NULL))) return rc;
    const op_source *src = s < o->n_sources ? &o->sources[s] : NULL;
    if (src && src->name) snprintf(name, nname, "%.*s", src->name_len, src->name); /* --data NAME=PATH */
    else snprintf(name, nname, "%s", sc->c[0].prob.data_name);
    sc->source = name;
    sc->s = s;
    sc->nu = 0;
    sc->used = 0;
    for (int k = 0; k < nk; k++) {
        sc->w[k] = w0;
        sc->w[k].params.seed = sc->seeds[k];
        sc->base[k] = pl_need(&sc->c[k], &sc->w[k], &none);
        sc->used += sc->base[k];
    }
    /* an engine's methods fit beside every seed's problem (open until its last engine ends): an
     * engine over that is split into several, a method apart (plan_groups); one alone that `run`
     * would refuse stops the table before any work */
    for (int k = 0; k < nk; k++) {
        tb_group g[OP_MAX_METHODS];
        int ng = plan_groups(&sc->c[k], &sc->w[k], sc->budget - (sc->used - sc->base[k]), sc->pg_of, g);
        sc->left[k] = ng;
        for (int q = 0; q < ng; q++) {
            double need = group_need(&sc->c[k], &sc->w[k], &g[q], -1);
            sc->u[sc->nu] = (tb_unit){.k = k, .g = g[q], .need = need, .add = need - sc->base[k],
                                      .q = sc->pg_of->params[sc->pg_of->of[g[q].m[0]]]};
            sc->u[sc->nu++].q.seed = sc->seeds[k];
            if (getenv("GS_TABLE_NEED")) { /* for the tests: each engine's methods and estimate */
                fprintf(stderr, "gsrscope: engine of seed %llu:", (unsigned long long)sc->seeds[k]);
                for (int j = 0; j < g[q].n; j++) fprintf(stderr, "%s%s", j ? "," : " ", o->methods[g[q].m[j]]);
                fprintf(stderr, " estimate %.0f bytes (its seed's problem %.0f)\n", need, sc->base[k]);
            }
            if (g[q].n == 1 && need > pl_have(&sc->w[k])) {
                char a[32], b[32];
                rc = gs_error(GS_EINPUT, "table: %s alone needs about %s (its memory estimate at seed %llu) but only %s is %s; "
                              "leave it out of --methods%s", o->methods[g[q].m[0]], gs_fmt_bytes((uint64_t)need, a, sizeof a),
                              (unsigned long long)sc->seeds[k], gs_fmt_bytes((uint64_t)pl_have(&sc->w[k]), b, sizeof b),
                              o->data.max_memory > 0 ? "allowed by --max-memory" : "available",
                              o->data.max_memory > 0 ? " or raise --max-memory" : "");
                pl_free_seeds(sc->c, nk);
                return rc;
            }
        }
    }
    if (sc->used > sc->peak_need) sc->peak_need = sc->used;
    qsort(sc->u, (size_t)sc->nu, sizeof *sc->u, unit_cmp);
    sc->running = sc->stop = 0;
    int jobs = sc->nu > 1 ? table_jobs() : 1;
    sc->threads = jobs > 1 ? 1 : 0;
    /* OpenBLAS at one thread for the whole schedule (each engine's update runs so anyway): the
     * count is global, and an engine ending must not raise it under the other */
    int nb = gs_blas_serial_begin();
    pthread_t th;
    int started = jobs > 1 && pthread_create(&th, NULL, runner, sc) == 0;
    runner(sc);
    if (started) pthread_join(th, NULL);
    gs_blas_serial_end(nb);
    pl_free_seeds(sc->c, nk);
    if (sc->rc) return gs_error(sc->rc, "%s", sc->err);
    return GS_OK;
}

/* How source s was given: "--data PATH", "--sample NAME", ... (the values behind the table); past
 * the listed sources, the data of o itself (the four files, a session's folder, the default). */
static void source_from(const op_opts *o, int s, char *out, size_t n)
{
    static const char *const KIND[] = {"--synthetic", "--data", "--idx", "--sample"}; /* op_source_kind */
    const op_data *d = &o->data;
    if (s < o->n_sources) {
        const op_source *src = &o->sources[s];
        snprintf(out, n, "%s%s%s", KIND[src->kind], src->arg ? " " : "", src->arg ? src->arg : "");
    } else if (d->train_features)
        snprintf(out, n, "--train-features %s --train-labels %s --test-features %s --test-labels %s", d->train_features,
                 d->train_labels, d->test_features, d->test_labels);
    else if (d->synthetic) snprintf(out, n, "--synthetic");
    else if (d->data_dir) snprintf(out, n, "--data %s", d->data_dir);
    else if (d->idx_dir) snprintf(out, n, "--idx %s", d->idx_dir);
    else snprintf(out, n, "--sample %s", d->sample ? d->sample : "pixels");
}

int cli_table(op_opts *o)
{
    uint64_t seeds[CLI_MAX_SEEDS];
    int nk = 0, rc = GS_OK;
    if (o->seeds) { if ((rc = op_parse_seeds(o->seeds, seeds, CLI_MAX_SEEDS, &nk))) goto done; }
    else { seeds[0] = o->params.seed; nk = 1; }
    int nm = o->n_methods;
    for (int m = 0; m < nm; m++)
        if (!mt_known(o->methods[m])) {
            rc = mt_unknown(o->methods[m]);
            goto done;
        }
    /* each method's own values (--tuned, --set): methods of other values run in other engines */
    static pl_groups pg;
    static op_params q[OP_MAX_METHODS];
    en_config all;
    if ((rc = cli_config_for(o, &all, 0)) || (rc = cli_method_params(o, q, 0))) goto done;
    pl_group(&pg, &all, &o->params, q);
    if (pg.n == 1) o->params = pg.params[0];
    else o->method_params = q;
    int nfiles = !!o->data.train_features;
    int ns = o->n_sources + nfiles;
    if (ns == 0) ns = 1; /* the default source (the bundled sample) */
    tb_sched sc;
    memset(&sc, 0, sizeof sc);
    double *v = gs_malloc((size_t)ns * nm * nk * TB_NTEST, sizeof(double), "table");
    double *val = o->proto.val_frac > 0 ? gs_malloc((size_t)ns * nm * nk * 3, sizeof(double), "table") : NULL;
    char (*names)[128] = gs_calloc((size_t)ns, sizeof *names, "table");
    char (*from)[512] = gs_calloc((size_t)ns, sizeof *from, "table");
    const char **np = gs_calloc((size_t)ns, sizeof *np, "table");
    const char **fp = gs_calloc((size_t)ns, sizeof *fp, "table");
    sc.c = gs_calloc((size_t)nk, sizeof *sc.c, "table");
    sc.w = gs_calloc((size_t)nk, sizeof *sc.w, "table");
    sc.base = gs_calloc((size_t)nk, sizeof *sc.base, "table");
    sc.left = gs_calloc((size_t)nk, sizeof *sc.left, "table");
    sc.u = gs_calloc((size_t)nk * (nm ? nm : 1), sizeof *sc.u, "table");
    if (!v || !names || !np || !from || !fp || (o->proto.val_frac > 0 && !val) || !sc.c || !sc.w || !sc.base || !sc.left || !sc.u) {
        rc = GS_ENOMEM;
        goto out;
    }
    /* the memory the engines may use at once: --max-memory, else half of what is available */
    sc.budget = o->data.max_memory > 0 ? pl_have(o) : pl_have(o) / 2;
    sc.o = o;
    sc.pg_of = &pg;
    sc.nm = nm;
    sc.nk = nk;
    sc.seeds = seeds;
    sc.v = v;
    sc.val = val;
    pthread_mutex_init(&sc.mu, NULL);
    pthread_cond_init(&sc.cv, NULL);
    pg_init(&sc.pg, "table", (long)ns * nk * nm, o->quiet);
    for (int s = 0; s < ns && !rc; s++) rc = run_source(&sc, o, s, names[s], sizeof names[s]);
    pg_clear(&sc.pg);
    pthread_cond_destroy(&sc.cv);
    pthread_mutex_destroy(&sc.mu);
    /* for the tests: the largest sum of estimates the schedule allowed at once (bytes) */
    if (getenv("GS_TABLE_NEED")) fprintf(stderr, "gsrscope: table estimate at most %.0f bytes at once\n", sc.peak_need);
    if (!rc) {
        for (int s = 0; s < ns; s++) {
            np[s] = names[s];
            source_from(o, s, from[s], sizeof from[s]);
            fp[s] = from[s];
        }
        tb_table t = {.n_methods = nm, .n_sources = ns, .n_seeds = nk, .methods = (const char *const *)o->methods,
                      .sources = np, .seeds = seeds, .v = v, .val = val, .val_frac = o->proto.val_frac,
                      .cols = o->columns, .n_cols = o->n_columns, .o = o, .source_from = fp};
        rc = tb_write(stdout, o->format, &t);
        if (!rc && sc.failed)
            rc = gs_error(GS_ERUN, "%d run%s failed (left out of the means; reasons above)", sc.failed,
                          sc.failed == 1 ? "" : "s");
    }
out:
    free(v); free(val); free(names); free(np); free(from); free(fp);
    free(sc.c); free(sc.w); free(sc.base); free(sc.left); free(sc.u);
done:
    return rc ? cli_fail(rc) : 0;
}
