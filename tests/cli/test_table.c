/* test_table.c — `gsrscope table`'s output (tb_write) on a hand-made table: means and sample
 * stds against values worked out by hand, the best and second of each column (ties share the
 * mark, a failed cell has none), LaTeX (booktabs, escaping, bold/underline), markdown, CSV ranks,
 * JSON values, the head and tail columns, --columns (which and in what order), the values behind
 * the table (LaTeX comment block, CSV columns, JSON fields), and the paper's method names. */
#include "gs_common.h"
#include "gs_opts.h"
#include "gs_table.h"
#include "support/tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *render(op_format fmt, const tb_table *t)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    int rc = tb_write(f, fmt, t);
    fclose(f);
    CHECK(rc == GS_OK, "tb_write format %d", (int)fmt);
    return buf;
}

/* The CSV line of method m / source s. */
static const char *csv_line(const char *csv, const char *prefix, char *out, size_t n)
{
    const char *p = strstr(csv, prefix);
    if (!p) return NULL;
    const char *e = strchr(p, '\n');
    snprintf(out, n, "%.*s", (int)(e - p), p);
    return out;
}

int main(void)
{
    /* 3 methods × 2 sources × 3 seeds; v[((s*3 + m)*3 + k)*4 + j], j: A_last, A_avg, head, tail */
    const char *methods[] = {"gacl", "ranpac+gsr", "ncm"};
    const char *sources[] = {"synthetic", "my_feats%"};
    uint64_t seeds[] = {1, 2, 3};
    double v[2 * 3 * 3 * 4];
    /* source 0: A_last of gacl 10,20,30 (mean 20, sd 10); ranpac+gsr 40,41,42 (41, 1);
     * ncm 41,41,41 (41, 0): ranpac+gsr and ncm tie for best, gacl second.
     * A_avg: gacl 50 ×3, ranpac+gsr 60 ×3, ncm 55 ×3 → best ranpac+gsr, second ncm.
     * source 1: ncm failed on seed 2 (NaN: its mean is over 2 seeds); gacl all NaN.
     * head: 90, 89, 88 (gacl best, ranpac+gsr second); tail: 0, 30, 20 (ranpac+gsr best, ncm
     * second); on source 1 head and tail as A_last. */
    double s0_last[3][3] = {{10, 20, 30}, {40, 41, 42}, {41, 41, 41}};
    double s0_avg[3] = {50, 60, 55};
    double s1_last[3][3] = {{NAN, NAN, NAN}, {70, 70, 70}, {80, NAN, 82}};
    double s1_avg[3][3] = {{NAN, NAN, NAN}, {1, 2, 3}, {0, 0, 0}};
    for (int m = 0; m < 3; m++)
        for (int k = 0; k < 3; k++) {
            double *c0 = &v[((0 * 3 + m) * 3 + k) * 4], *c1 = &v[((1 * 3 + m) * 3 + k) * 4];
            c0[0] = s0_last[m][k];
            c0[1] = s0_avg[m];
            c0[2] = 90 - m;
            c0[3] = m == 0 ? 0 : m == 1 ? 30 : 20;
            c1[0] = c1[2] = c1[3] = s1_last[m][k];
            c1[1] = s1_avg[m][k];
        }
    /* first A_last and A_avg only (--columns a_last,a_avg) */
    const int two[] = {OP_COL_A_LAST, OP_COL_A_AVG};
    tb_table t = {.n_methods = 3, .n_sources = 2, .n_seeds = 3, .methods = methods, .sources = sources,
                  .seeds = seeds, .v = v, .cols = two, .n_cols = 2};
    char line[256];
    char *csv = render(OP_FMT_CSV, &t);
    CHECK(csv && !strncmp(csv, "method,source,seeds,a_last_mean,a_last_std,a_avg_mean,a_avg_std,a_last_rank,a_avg_rank\n", 85),
          "csv header");
    CHECK(csv_line(csv, "gacl,synthetic,", line, sizeof line) && !strcmp(line, "gacl,synthetic,3,20.0000,10.0000,50.0000,0.0000,2,"),
          "gacl/synthetic: mean 20, sd 10, second in A_last, unranked A_avg (%s)", line);
    CHECK(csv_line(csv, "ranpac+gsr,synthetic,", line, sizeof line) && !strcmp(line, "ranpac+gsr,synthetic,3,41.0000,1.0000,60.0000,0.0000,1,1"),
          "ranpac+gsr/synthetic: ties for best A_last, best A_avg (%s)", line);
    CHECK(csv_line(csv, "ncm,synthetic,", line, sizeof line) && !strcmp(line, "ncm,synthetic,3,41.0000,0.0000,55.0000,0.0000,1,2"),
          "ncm/synthetic: tie for best, second A_avg (%s)", line);
    CHECK(csv_line(csv, "gacl,my_feats%,", line, sizeof line) && !strcmp(line, "gacl,my_feats%,3,,,,,,"),
          "failed everywhere: empty cells, no rank (%s)", line);
    CHECK(csv_line(csv, "ncm,my_feats%,", line, sizeof line) && !strcmp(line, "ncm,my_feats%,3,81.0000,1.4142,0.0000,0.0000,1,2"),
          "mean and sd over the seeds that ran (%s)", line);
    free(csv);

    char *tex = render(OP_FMT_LATEX, &t);
    CHECK(tex && strstr(tex, "\\toprule") && strstr(tex, "\\midrule") && strstr(tex, "\\bottomrule") &&
          strstr(tex, "\\begin{tabular}{lcccc}"), "booktabs tabular, 1 + 2×2 columns");
    CHECK(tex && strstr(tex, "\\multicolumn{2}{c}{my\\_feats\\%}"), "source names escaped");
    CHECK(tex && strstr(tex, "\\cmidrule(lr){2-3} \\cmidrule(lr){4-5}"), "one rule per column group");
    CHECK(tex && strstr(tex, "RanPAC + GSR & \\textbf{41.00 $\\pm$ 1.00} & \\textbf{60.00 $\\pm$ 0.00}"),
          "best in bold, paper names");
    CHECK(tex && strstr(tex, "GACL & \\underline{20.00 $\\pm$ 10.00} & 50.00 $\\pm$ 0.00 & -- & --"),
          "second underlined, failed cells --");
    CHECK(tex && strstr(tex, "SimpleCIL & \\textbf{41.00 $\\pm$ 0.00} & \\underline{55.00 $\\pm$ 0.00}"), "ncm is SimpleCIL");
    free(tex);

    char *md = render(OP_FMT_MARKDOWN, &t);
    CHECK(md && strstr(md, "| RanPAC + GSR | **41.00 ± 1.00** | **60.00 ± 0.00** | <u>70.00 ± 0.00</u> | **2.00 ± 1.00** |"),
          "markdown row");
    free(md);

    char *js = render(OP_FMT_JSON, &t);
    CHECK(js && strstr(js, "\"a_last\": {\"mean\": 81, \"std\": 1.414213562, \"values\": [80, null, 82], \"rank\": 1}"),
          "json values with null for the failed seed");
    free(js);

    char *txt = render(OP_FMT_TABLE, &t);
    CHECK(txt && strstr(txt, "41.00 ± 1.00*") && strstr(txt, "20.00 ± 10.00_"), "plain table marks * and _");
    free(txt);

    /* all four columns (the default): head and tail after A_last and A_avg, each ranked on its own */
    t.cols = NULL;
    t.n_cols = 0;
    csv = render(OP_FMT_CSV, &t);
    CHECK(csv && !strncmp(csv, "method,source,seeds,a_last_mean,a_last_std,a_avg_mean,a_avg_std,head_mean,head_std,"
                               "tail_mean,tail_std,a_last_rank,a_avg_rank,head_rank,tail_rank\n",
                               strlen("method,source,seeds,a_last_mean,a_last_std,a_avg_mean,a_avg_std,head_mean,head_std,"
                                      "tail_mean,tail_std,a_last_rank,a_avg_rank,head_rank,tail_rank\n")), "csv header, four columns");
    CHECK(csv_line(csv, "gacl,synthetic,", line, sizeof line) &&
          !strcmp(line, "gacl,synthetic,3,20.0000,10.0000,50.0000,0.0000,90.0000,0.0000,0.0000,0.0000,2,,1,"),
          "gacl: best head, unranked tail (%s)", line);
    CHECK(csv_line(csv, "ncm,synthetic,", line, sizeof line) &&
          !strcmp(line, "ncm,synthetic,3,41.0000,0.0000,55.0000,0.0000,88.0000,0.0000,20.0000,0.0000,1,2,,2"),
          "ncm: second tail (%s)", line);
    free(csv);
    tex = render(OP_FMT_LATEX, &t);
    CHECK(tex && strstr(tex, "\\begin{tabular}{lcccccccc}") && strstr(tex, "\\multicolumn{4}{c}{synthetic}") &&
          strstr(tex, "Method & $A_{\\mathrm{last}}$ & $A_{\\mathrm{avg}}$ & head & tail & ") &&
          strstr(tex, "GACL & \\underline{20.00 $\\pm$ 10.00} & 50.00 $\\pm$ 0.00 & \\textbf{90.00 $\\pm$ 0.00} & 0.00 $\\pm$ 0.00 & ") &&
          strstr(tex, "% head, tail: "), "latex: head and tail columns, bold and underlined per column");
    free(tex);
    md = render(OP_FMT_MARKDOWN, &t);
    CHECK(md && strstr(md, "| synthetic head | synthetic tail |") &&
          strstr(md, "| RanPAC + GSR | **41.00 ± 1.00** | **60.00 ± 0.00** | <u>89.00 ± 0.00</u> | **30.00 ± 0.00** |"),
          "markdown: head and tail columns");
    free(md);
    js = render(OP_FMT_JSON, &t);
    CHECK(js && strstr(js, "\"columns\": [\"a_last\", \"a_avg\", \"head\", \"tail\"]") &&
          strstr(js, "\"tail\": {\"mean\": 30, \"std\": 0, \"values\": [30, 30, 30], \"rank\": 1}"), "json head and tail");
    free(js);
    txt = render(OP_FMT_TABLE, &t);
    CHECK(txt && strstr(txt, "A_last, A_avg, head and tail (%)") && strstr(txt, "90.00 ± 0.00*") && strstr(txt, "30.00 ± 0.00*"),
          "plain table: head and tail columns");
    free(txt);

    /* --columns tail,a_last: those two, in that order */
    const int order[] = {OP_COL_TAIL, OP_COL_A_LAST};
    t.cols = order;
    t.n_cols = 2;
    csv = render(OP_FMT_CSV, &t);
    CHECK(csv && !strncmp(csv, "method,source,seeds,tail_mean,tail_std,a_last_mean,a_last_std,tail_rank,a_last_rank\n",
                               strlen("method,source,seeds,tail_mean,tail_std,a_last_mean,a_last_std,tail_rank,a_last_rank\n")) &&
          csv_line(csv, "ranpac+gsr,synthetic,", line, sizeof line) && !strcmp(line, "ranpac+gsr,synthetic,3,30.0000,0.0000,41.0000,1.0000,1,1"),
          "--columns tail,a_last: csv (%s)", line);
    free(csv);
    tex = render(OP_FMT_LATEX, &t);
    CHECK(tex && strstr(tex, "\\begin{tabular}{lcccc}") && strstr(tex, "Method & tail & $A_{\\mathrm{last}}$ & tail & ") &&
          strstr(tex, "% gsrscope table: tail and A_last (%)"), "--columns tail,a_last: latex");
    free(tex);
    js = render(OP_FMT_JSON, &t);
    CHECK(js && strstr(js, "\"columns\": [\"tail\", \"a_last\"]") && !strstr(js, "\"a_avg\"") && !strstr(js, "\"head\""),
          "--columns tail,a_last: json");
    free(js);

    /* the values behind the table: the options, the seeds, how each source was given */
    static op_opts o;
    op_defaults(&o);
    const char *from[] = {"--synthetic", "--data my_feats%=/x/y"};
    t.o = &o;
    t.source_from = from;
    t.cols = NULL;
    t.n_cols = 0;
    tex = render(OP_FMT_LATEX, &t);
    const char *block = tex ? strstr(tex, "% the values behind the table") : NULL;
    CHECK(block && block < strstr(tex, "\\begin{tabular}") && strstr(block, "%   seeds: 1,2,3\n") &&
          strstr(block, "%   protocol: ") && strstr(block, " profile=step ") && strstr(block, " rho=0 ") &&
          strstr(block, "%   source my_feats%: --data my_feats%=/x/y\n") &&
          strstr(block, "%   method gacl: tau=0.01 beta=1 alpha-base=0.6 xi=0.005\n") &&
          strstr(block, "%   method ranpac+gsr: tau=0.01 beta=1 alpha-base=0.6 xi=0.005 pairs=all"),
          "latex: a %% comment block above the table");
    free(tex);
    js = render(OP_FMT_JSON, &t);
    CHECK(js && strstr(js, "\"params\": {\"protocol\": {") && strstr(js, "\"profile\": \"step\"") && strstr(js, "\"rho\": 0") &&
          strstr(js, "\"gacl\": {\"tau\": 0.01, \"beta\": 1, \"alpha-base\": 0.6, \"xi\": 0.005}") &&
          strstr(js, "\"seeds\": [1, 2, 3]") &&
          strstr(js, "\"sources\": [{\"name\": \"synthetic\", \"data\": \"--synthetic\"}, {\"name\": \"my_feats%\", \"data\": "),
          "json: params, seeds, sources");
    free(js);
    csv = render(OP_FMT_CSV, &t);
    CHECK(csv && strstr(csv, "tail_rank,data,profile,rho,seed_list,tau,beta,alpha_base,xi,params,protocol\n") &&
          csv_line(csv, "gacl,synthetic,", line, sizeof line) && strstr(line, ",--synthetic,step,0,1;2;3,0.01,1,0.6,0.005,,tasks=10;"),
          "csv: the values as extra columns (%s)", line);
    free(csv);
    t.o = NULL;
    t.source_from = NULL;
    t.cols = two;
    t.n_cols = 2;

    /* one seed (the first of each cell): no ± */
    double v1[2 * 3 * 4];
    for (int i = 0; i < 2 * 3; i++) for (int j = 0; j < 4; j++) v1[i * 4 + j] = v[i * 3 * 4 + j];
    t.n_seeds = 1;
    t.v = v1;
    char *one = render(OP_FMT_CSV, &t);
    CHECK(one && csv_line(one, "gacl,synthetic,", line, sizeof line) && !strcmp(line, "gacl,synthetic,1,10.0000,,50.0000,,,"),
          "one seed: no std (%s)", line);
    free(one);

    /* validation columns: 2 methods × 1 source × 2 seeds; val[((m)*2 + k)*3 + j] = acc, head, tail.
     * gacl: acc 80, 90 (85 ± 7.07), head 70 ×2, tail NaN on seed 2 (over one seed: no std);
     * ncm: acc 60 ×2, head 75 ×2 (best head), tail 10, 30 (20 ± 14.14). */
    const char *vm[] = {"gacl", "ncm"};
    double tv[2 * 2 * 4] = {40, 50, 0, 0, 41, 51, 0, 0, 60, 70, 0, 0, 60, 70, 0, 0};
    double vv[2 * 2 * 3] = {80, 70, 5, 90, 70, NAN, 60, 75, 10, 60, 75, 30};
    tb_table w = {.n_methods = 2, .n_sources = 1, .n_seeds = 2, .methods = vm, .sources = sources, .seeds = seeds,
                  .v = tv, .val = vv, .val_frac = 0.25, .cols = two, .n_cols = 2};
    csv = render(OP_FMT_CSV, &w);
    CHECK(csv && strstr(csv, "a_avg_rank,val_frac,val_a_last_mean,val_a_last_std,val_head_mean,val_head_std,"
                             "val_tail_mean,val_tail_std,val_a_last_rank,val_head_rank,val_tail_rank\n"), "csv: validation columns");
    CHECK(csv && csv_line(csv, "gacl,synthetic,", line, sizeof line) &&
          !strcmp(line, "gacl,synthetic,2,40.5000,0.7071,50.5000,0.7071,2,2,0.25,85.0000,7.0711,70.0000,0.0000,5.0000,,1,2,2"),
          "csv gacl: validation mean ± std, a failed seed left out, ranks per column (%s)", line);
    CHECK(csv && csv_line(csv, "ncm,synthetic,", line, sizeof line) &&
          !strcmp(line, "ncm,synthetic,2,60.0000,0.0000,70.0000,0.0000,1,1,0.25,60.0000,0.0000,75.0000,0.0000,20.0000,14.1421,2,1,1"),
          "csv ncm (%s)", line);
    free(csv);
    js = render(OP_FMT_JSON, &w);
    CHECK(js && strstr(js, "\"val_frac\": 0.25") &&
          strstr(js, "\"val_tail\": {\"mean\": 5, \"std\": null, \"values\": [5, null], \"rank\": 2}"), "json validation cells");
    free(js);
    tex = render(OP_FMT_LATEX, &w);
    CHECK(tex && strstr(tex, "\\begin{tabular}{lccccc}") && strstr(tex, "\\multicolumn{5}{c}{synthetic}") &&
          strstr(tex, "\\cmidrule(lr){2-6}") && strstr(tex, "& val.\\ acc & val.\\ head & val.\\ tail \\\\") &&
          strstr(tex, "SimpleCIL & \\textbf{60.00 $\\pm$ 0.00} & \\textbf{70.00 $\\pm$ 0.00} & \\underline{60.00 $\\pm$ 0.00} & "
                      "\\textbf{75.00 $\\pm$ 0.00} & \\textbf{20.00 $\\pm$ 14.14} \\\\") &&
          strstr(tex, "% val. acc, val. head, val. tail: "), "latex: five columns a group, validation legend");
    free(tex);
    md = render(OP_FMT_MARKDOWN, &w);
    CHECK(md && strstr(md, "| synthetic v.acc | synthetic v.head | synthetic v.tail |\n|---|---:|---:|---:|---:|---:|\n") &&
          strstr(md, "| GACL | <u>40.50 ± 0.71</u> | <u>50.50 ± 0.71</u> | **85.00 ± 7.07** | <u>70.00 ± 0.00</u> | <u>5.00</u> |"),
          "markdown validation columns");
    free(md);
    txt = render(OP_FMT_TABLE, &w);
    CHECK(txt && strstr(txt, "v.acc, v.head, v.tail: ") && strstr(txt, "A_last            A_avg            v.acc ") &&
          strstr(txt, "85.00 ± 7.07*") && strstr(txt, "20.00 ± 14.14*"), "plain table: validation columns and legend");
    free(txt);
    /* without a split the output has no validation column */
    txt = render(OP_FMT_CSV, &t);
    CHECK(txt && !strstr(txt, "val_"), "no split: no validation columns");
    free(txt);

    char name[96];
    const char *cases[][2] = {{"gsr", "GSR"}, {"fecam", "FeCAM"}, {"anacp+gsr", "AnaCP + GSR"},
                              {"klda+gsr-linear", "KLDA + GSR (linear)"}, {"foo+bar", "foo+bar"}, {"gacl+gsr", "GACL + GSR"}, {"air", "AIR"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tb_display_name(cases[i][0], name, sizeof name);
        CHECK(!strcmp(name, cases[i][1]), "display name of %s: %s", cases[i][0], name);
    }
    return tap_done();
}
