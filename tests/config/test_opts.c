/* test_opts.c — the parser reads the subcommand table it is handed (op_command, gs_opts.h): a
 * new subcommand is one row, which names the option groups it accepts and its rules; no option's
 * row changes. Two made-up rows check the default command, the names, refusals that list the
 * rows accepting an option, a required option and --precision falling back to double; table's
 * --columns (its own group: refused elsewhere) and --data NAME=PATH. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gs_common.h"
#include "gs_opts.h"
#include "support/tap.h"

static int never(op_opts *o) { (void)o; return 0; }

static const op_command ROWS[] = {
    {"home", "the home view", never, 0, OPG_STREAM | OPG_COMPUTE | OPG_TERMINAL, OPR_DEFAULT, "[OPTIONS]", "the default"},
    {"like-run", NULL, never, 0, OPG_STREAM | OPG_QUIET | OPG_FORMAT, 0, "[OPTIONS]", "accepts run's stream options"},
    {"pic", NULL, never, 0, OPG_STREAM | OPG_FIGURE, OPR_NEED_FIGURE | OPR_DATA_CSV, "[OPTIONS]", "a figure"},
    {"tab", NULL, never, 0, OPG_STREAM | OPG_TABLE, OPR_SOURCES, "[OPTIONS]", "a table: --columns, sources"},
};
#define N_ROWS (int)(sizeof ROWS / sizeof ROWS[0])

/* Parse the words of `line` (at most 15) with ROWS; *o the result. */
static int parse(const char *line, op_opts *o)
{
    static char buf[512];
    char *argv[16] = {"gsrscope"};
    int argc = 1;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *w = strtok(buf, " "); w && argc < 15; w = strtok(NULL, " ")) argv[argc++] = w;
    argv[argc] = NULL;
    return op_parse_layered(o, argc, argv, ROWS, N_ROWS, NULL, NULL);
}

static void expect_error(const char *line, const char *msg)
{
    op_opts o;
    int rc = parse(line, &o);
    CHECK(rc == GS_EINPUT && !strcmp(gs_last_error(), msg), "'%s': got %d '%s', want '%s'", line, rc, gs_last_error(), msg);
}

int main(void)
{
    op_opts o;
    CHECK(parse("--tau 0.5 --ascii", &o) == GS_OK && o.cmd == &ROWS[0] && o.params.tau == 0.5 && o.ascii,
          "no name: the default row (%s)", gs_last_error());
    CHECK(parse("like-run --synthetic --quiet --format csv", &o) == GS_OK && o.cmd == &ROWS[1] && o.quiet && o.format == OP_FMT_CSV,
          "a row's groups: its options accepted (%s)", gs_last_error());
    CHECK(o.data.precision == OP_PREC_DOUBLE, "without OPG_COMPUTE the arithmetic is double");
    CHECK(parse("home --precision single", &o) == GS_OK && o.data.precision == OP_PREC_SINGLE, "with OPG_COMPUTE --precision is read (%s)",
          gs_last_error());
    expect_error("like-run --ascii", "--ascii: not an option of `like-run` (it applies to: the home view)");
    expect_error("--quiet", "--quiet: not an option of the home view (it applies to: like-run)");
    expect_error("pic --format csv", "--format: not an option of `pic` (it applies to: like-run)");
    expect_error("run", "unknown command 'run' (expected like-run, pic, tab; see --help)");
    expect_error("pic --synthetic", "pic: --figure NAME is required (gsrscope --help lists the figures)");
    expect_error("like-run --format latex", "--format latex: use table, csv or json");
    CHECK(parse("pic --figure accuracy -o a.png --data n.csv", &o) == GS_OK && o.data_csv && !strcmp(o.data_csv, "n.csv") && !o.data.data_dir,
          "OPR_DATA_CSV: --data FILE.csv is the figure's CSV (%s)", gs_last_error());
    CHECK(parse("like-run --data d.csv", &o) == GS_OK && !o.data_csv && o.data.data_dir, "without it --data is the input (%s)", gs_last_error());
    CHECK(parse("pic --help --dpi 10", &o) == GS_OK && o.help, "--help: every row (%s)", gs_last_error());

    /* --columns: table's own group; the names in the order given, each once */
    CHECK(parse("tab --columns tail,a_last", &o) == GS_OK && o.n_columns == 2 && o.columns[0] == OP_COL_TAIL &&
          o.columns[1] == OP_COL_A_LAST, "--columns tail,a_last (%s)", gs_last_error());
    CHECK(parse("tab", &o) == GS_OK && o.n_columns == 0, "no --columns: all four (n_columns 0)");
    expect_error("like-run --columns head", "--columns: not an option of `like-run` (it applies to: tab)");
    expect_error("tab --columns head,head", "--columns: 'head' given twice");
    expect_error("tab --columns a_last,nope", "--columns: unknown column 'nope' (expected a comma-separated list of: a_last, a_avg, head, tail)");

    /* --data NAME=PATH: NAME titles the group when PATH exists and NAME has no '/'; a folder
     * whose own name holds '=' is read as it is */
    char dir[] = "/tmp/test_opts_XXXXXX", here[4096];
    CHECK(mkdtemp(dir) && getcwd(here, sizeof here) && chdir(dir) == 0, "a scratch folder");
    mkdir("w", 0700);
    mkdir("k=w", 0700);
    CHECK(parse("tab --data mine=w --data k=w", &o) == GS_OK && o.n_sources == 2 && o.sources[0].name &&
          o.sources[0].name_len == 4 && !strncmp(o.sources[0].name, "mine", 4) && !strcmp(o.sources[0].arg, "w") &&
          !o.sources[1].name && !strcmp(o.sources[1].arg, "k=w"), "--data mine=w titled mine; --data k=w is the folder k=w (%s)",
          gs_last_error());
    CHECK(parse("tab --data n=missing", &o) == GS_OK && !o.sources[0].name && !strcmp(o.sources[0].arg, "n=missing"),
          "PATH missing: the whole word is the folder");
    CHECK(parse("tab --data ./n=w", &o) == GS_OK && !o.sources[0].name, "a '/' before '=': a path, not a name");
    rmdir("w");
    rmdir("k=w");
    CHECK(chdir(here) == 0 && rmdir(dir) == 0, "scratch folder removed");
    return tap_done();
}
