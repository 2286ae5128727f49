/* cli/table_write.c — the table's formats: text, Markdown, LaTeX, CSV and JSON of a tb_table, with
 * the values behind it (gs_table.h tb_write; `gsrscope table` in table.c runs the engines). */
#include "gs_table.h"
#include "gs_common.h"
#include "gs_json.h"
#include "gs_mtable.h"
#include "gs_params.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The columns a source's group can have: test A_last, A_avg, head and tail accuracy after the last
 * task (--columns picks and orders them: OP_COL_*), then (with a validation split) the validation
 * accuracy, head and tail accuracy after the last task. */
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

