/* tests/figure/test_figure_table.c — the figures' table is the one place a figure is named: a throwaway
 * figure added through its row alone (FIG_EXTRA_ROWS, compiled into this test's own copy of
 * src/figure/catalog.c) is known, listed, in --help's figure lines, takes --seeds as its row says,
 * and `export --figure throwaway` writes its file through the normal export path (cli_export).
 * Every real row is in man/gsrscope.1's --figure paragraph and, if FIG_SEEDS, in its --seeds
 * sentence (the others not), every TUI view exports a known figure
 * and every --help figure line fits in 100 columns. */

/* The row: a figure 4 in wide, half as high, drawn over seeds, built and laid out as accuracy. */
#define FIG_EXTRA_ROWS                                                                              \
    {"throwaway", "a figure added by its row alone", 4.0, 0.5, 0, FIG_SEEDS, 0, fig_build_accuracy,   \
     fig_layout_accuracy},
#include "figure/catalog.c"

#include "tui/tui_int.h"
#include "gs_cli.h"
#include "gs_opts.h"
#include "gs_png.h"
#include "support/tap.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Columns of a UTF-8 line (every character one column). */
static int columns(const char *s, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
}

static void test_lists(void)
{
    CHECK(fig_known("throwaway") && fig_find("throwaway") == &FIGURES[N_FIGURES - 1], "the row is known");
    CHECK(strstr(fig_list(), ", throwaway") != NULL, "fig_list names it: %s", fig_list());
    CHECK(fig_seeds_supported("throwaway") && strstr(fig_seeds_list(), "throwaway"), "its row's FIG_SEEDS: %s",
          fig_seeds_list());
    CHECK(!fig_seeds_supported("theorem") && !strstr(fig_seeds_list(), "theorem"), "theorem takes no seeds");
    CHECK(fig_needs("erank-cond") == (FIG_SEEDS | FIG_EVERY_SPECTRUM) && fig_needs("claims") == FIG_AUG_ROWS &&
              fig_needs("nope") == 0 && fig_needs(NULL) == 0, "fig_needs");
    double w = 0, h = 0;
    CHECK(fig_size_in("throwaway", 0, &w, &h) == GS_OK && w == 4.0 && h == 2.0, "its size: %g x %g in", w, h);
    /* --help: main.c prints op_usage(COMMANDS, N_COMMANDS, mt_help(), fig_help()) */
    const char *help = op_usage(NULL, 0, NULL, fig_help());
    const char *line = strstr(help, "\n                           throwaway    a figure added by its row alone (--seeds)\n");
    CHECK(line != NULL, "--help lists it with its help line");
    const char *fig = strstr(help, "  --figure NAME"), *out = strstr(help, "  -o, --output");
    CHECK(fig && out && line && fig < line && line < out, "between --figure and -o");
    int rows = 0;
    for (const char *p = fig_help(); *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        CHECK(columns(p, n) <= 100, "--help line fits 100 columns: '%.*s'", (int)n, p);
        rows++;
        p += n + (e != NULL);
    }
    CHECK(rows == N_FIGURES + 1, "one --help line per row and the --figure line: %d", rows);
}

/* The man page names every real figure in its --figure paragraph (troff: '-' as '\-'). */
static void test_man(void)
{
    size_t n = 0;
    char *man = (char *)tap_slurp("man/gsrscope.1", &n);
    CHECK(man != NULL, "man/gsrscope.1 readable");
    if (!man) return;
    char *start = strstr(man, ".BI \\-\\-figure \" NAME\"");
    char *end = start ? strstr(start, "\n.TP") : NULL;
    CHECK(start && end, "man: the --figure paragraph");
    /* --seeds: "With \fB\-\-figure\fR a, b or c: one run per seed", exactly the FIG_SEEDS rows */
    const char *with = "With \\fB\\-\\-figure\\fR ";
    char *seeds = strstr(man, with), *colon = seeds ? strchr(seeds, ':') : NULL;
    CHECK(seeds && colon, "man: the --seeds sentence");
    if (seeds && colon) {
        char list[256];
        snprintf(list, sizeof list, " %.*s ", (int)(colon - seeds - strlen(with)), seeds + strlen(with));
        for (int i = 0; i < N_FIGURES; i++) {
            if (!strcmp(FIGURES[i].name, "throwaway")) continue;
            char w1[40], w2[40];
            snprintf(w1, sizeof w1, " %s,", FIGURES[i].name);
            snprintf(w2, sizeof w2, " %s ", FIGURES[i].name);
            int named = strstr(list, w1) || strstr(list, w2);
            CHECK(named == !!(FIGURES[i].needs & FIG_SEEDS), "man --seeds: %s %s (%s)", FIGURES[i].name,
                  named ? "named" : "not named", list);
        }
    }
    if (start && end) {
        *end = '\0';
        for (int i = 0; i < N_FIGURES; i++) {
            if (!strcmp(FIGURES[i].name, "throwaway")) continue;
            char want[64] = "\\fB";
            size_t k = strlen(want);
            for (const char *c = FIGURES[i].name; *c && k + 3 < sizeof want; c++) {
                if (*c == '-') want[k++] = '\\';
                want[k++] = *c;
            }
            snprintf(want + k, sizeof want - k, "\\fR");
            CHECK(strstr(start, want) != NULL, "man --figure names %s (%s)", FIGURES[i].name, want);
        }
    }
    free(man);
}

static void test_tui(void)
{
    for (int v = 0; v < TV_COUNT; v++)
        CHECK(fig_known(tui_view_figure(v)), "view %d (%s) exports a known figure: %s", v, tui_view_short(v),
              tui_view_figure(v));
}

/* `gsrscope export` on the bundled sample, through cli_export (declared beside its row in main.c). */
int cli_export(op_opts *o);
static int export(const char *path, const char *seeds)
{
    char *argv[16] = {"gsrscope", "export", "--tasks", "3", "--max-aug", "20", "--quiet", "--figure", "throwaway",
                      "-o", (char *)path};
    int argc = 11;
    if (seeds) { argv[argc++] = "--seeds"; argv[argc++] = (char *)seeds; }
    op_opts o;
    if (op_parse(&o, argc, argv) != GS_OK) { CHECK(0, "options: %s", gs_last_error()); return -1; }
    return cli_export(&o);
}

static void test_export(void)
{
    char dir[] = "/tmp/gs_figtable.XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "temp dir");
    char p1[128], p2[128];
    snprintf(p1, sizeof p1, "%s/t.png", dir);
    snprintf(p2, sizeof p2, "%s/seeds.png", dir);
    int rc = export(p1, NULL);
    unsigned w = 0, h = 0;
    FILE *f = fopen(p1, "rb");
    unsigned char head[24] = {0};
    int got = f && fread(head, 1, sizeof head, f) == sizeof head;
    if (f) fclose(f);
    if (got) {
        w = (unsigned)head[16] << 24 | (unsigned)head[17] << 16 | (unsigned)head[18] << 8 | head[19];
        h = (unsigned)head[20] << 24 | (unsigned)head[21] << 16 | (unsigned)head[22] << 8 | head[23];
    }
    /* 4 in × 2 in at 300 dpi: the row's width and aspect */
    CHECK(rc == 0 && got && !memcmp(head + 1, "PNG", 3) && w == 1200 && h == 600,
          "export --figure throwaway writes a 1200 x 600 PNG: rc %d, %u x %u (%s)", rc, w, h, gs_last_error());
    rc = export(p2, "1,2");
    struct stat sb;
    CHECK(rc == 0 && stat(p2, &sb) == 0 && sb.st_size > 0, "export --figure throwaway --seeds 1,2: rc %d (%s)", rc,
          gs_last_error());
    unlink(p1);
    unlink(p2);
    rmdir(dir);
}

int main(void)
{
    test_lists();
    test_man();
    test_tui();
    test_export();
    return tap_done();
}
