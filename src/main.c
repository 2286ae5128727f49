/* main.c — the table of subcommands: parse the command line with it (the parser finds the
 * subcommand's row), call the row's function (one file each in src/cli/; the TUI: gs_tui.h). */
#include "gs_cli.h"
#include "gs_common.h"
#include "gs_mtable.h"
#include "gs_figure.h"
#include "gs_opts.h"
#include "gs_preset.h"
#include "gs_session.h"
#include "gs_tui.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

/* The subcommands: one file each in src/cli/ (its function declared here, beside its row) and
 * one row of COMMANDS; the TUI's function is gs_tui.h's. */
int cli_run(op_opts *o);    /* cli/run.c: headless replay, per-task results on stdout */
int cli_export(op_opts *o); /* cli/export.c: one figure (or one frame per task) */
int cli_sweep(op_opts *o);  /* cli/sweep.c: a grid of runs, mean ± std over seeds */
int cli_tune(op_opts *o);   /* cli/tune.c: parameters chosen on the validation rows */
int cli_synth(op_opts *o);  /* cli/synth.c: the synthetic set as .npy files */
int cli_table(op_opts *o);  /* cli/table.c: the paper's Table 1, methods × data sources */

/* One row per subcommand, in the order --help lists them (op_command, gs_opts.h): the word after
 * gsrscope, how messages name it, its function, its flags (CLI_INTERACTIVE, CLI_STOP_AT_ONCE:
 * gs_cli.h), the option groups it accepts (OPG_*, gs_params.h), the parser's rules for it
 * (OPR_*, gs_opts.h), and its line of --help (man/gsrscope.1's SYNOPSIS says the same,
 * tests/t_cli.sh checks). The parser receives this table. */
#define REPLAY (OPG_STREAM | OPG_QUIET) /* a headless command that replays a stream */
static const op_command COMMANDS[] = {
    {"tui", "the TUI", tui_main, CLI_INTERACTIVE, OPG_STREAM | OPG_COMPUTE | OPG_SEEDS | OPG_TERMINAL, OPR_DEFAULT,
     "[OPTIONS]", "interactive TUI (bundled Fashion-MNIST sample by default)"},
    {"run", NULL, cli_run, 0, REPLAY | OPG_COMPUTE | OPG_FORMAT | OPG_REPORT | OPG_TUNED, 0,
     "[OPTIONS]", "headless replay, per-task results on stdout"},
    {"export", NULL, cli_export, 0, REPLAY | OPG_COMPUTE | OPG_FIGURE | OPG_SEEDS | OPG_TUNED, OPR_DATA_CSV | OPR_NEED_FIGURE,
     "[OPTIONS] --figure NAME -o FILE", "figure as .png, .svg, .pdf or .gif"},
    {"sweep", NULL, cli_sweep, CLI_STOP_AT_ONCE, REPLAY | OPG_FORMAT | OPG_PARAM | OPG_SEEDS, OPR_NEED_GRID,
     "[OPTIONS] --param NAME=v1,v2,... [--seeds 1,2,3]", "grid of runs, mean ± std over seeds"},
    {"tune", NULL, cli_tune, 0, REPLAY | OPG_FORMAT | OPG_PARAM | OPG_SEEDS | OPG_OBJECTIVE, OPR_PARAM_NAMES | OPR_NEED_VAL,
     "--val-frac F [--param NAME,...] [--objective acc|tail|balanced] [--seeds 1,2,3] [-o FILE]",
     "choose parameters on validation rows, per method"},
    {"synth", NULL, cli_synth, 0, OPG_QUIET | OPG_OUT_DIR, OPR_NEED_OUT_DIR,
     "--out DIR", "write the synthetic set as .npy files"},
    {"table", NULL, cli_table, CLI_STOP_AT_ONCE, REPLAY | OPG_FORMAT | OPG_SEEDS | OPG_TABLE | OPG_TUNED, OPR_SOURCES | OPR_DOC_FORMATS,
     "[OPTIONS] --methods a,b,... [--seeds 1,2,3]", "Table 1: methods × data sources"},
};
#undef REPLAY
#define N_COMMANDS (int)(sizeof COMMANDS / sizeof COMMANDS[0])

/* The subcommand lines of --help, 100 columns wide: the summary at column 44 where it fits, else
 * after the line or under it; long arguments continue under the first one. */
static void usage(void)
{
    enum { WIDTH = 100, COL = 44 };
    for (int i = 0; i < N_COMMANDS; i++) {
        const op_command *c = &COMMANDS[i];
        char line[256];
        /* the TUI: the command given without a name */
        int named = !(c->flags & CLI_INTERACTIVE);
        int n = snprintf(line, sizeof line, "%s gsrscope %s%s%s", i == 0 ? "Usage:" : "      ", named ? c->name : "",
                         named ? " " : "", c->args);
        int indent = n - (int)strlen(c->args);
        while (n > WIDTH) { /* break the arguments at the last space that fits */
            int k = WIDTH;
            while (k > indent && line[k] != ' ') k--;
            char rest[sizeof line];
            snprintf(rest, sizeof rest, "%s", line + k + 1);
            printf("%.*s\n", k, line);
            n = snprintf(line, sizeof line, "%*s%s", indent, "", rest);
        }
        int sw = (int)strlen(c->summary); /* bytes: at least its width */
        if (n < COL) printf("%-*s%s\n", COL, line, c->summary);
        else if (n + 3 + sw <= WIDTH) printf("%s   %s\n", line, c->summary);
        else printf("%s\n%*s%s\n", line, COL, "", c->summary);
    }
    fputs(op_usage(COMMANDS, N_COMMANDS, mt_help(), fig_help()), stdout);
}

/* The session's strings (paths, method names) live as long as the process. */
static ss_store g_session_store;

/* Between the defaults and the command line: --preset, then --session. */
static int apply_layers(op_opts *o, void *user)
{
    (void)user;
    int rc = GS_OK;
    if (o->preset) rc = ps_apply_name(o->preset, o);
    if (!rc && o->session) rc = ss_load(o->session, o, &g_session_store);
    return rc;
}

int main(int argc, char **argv)
{
    /* Numbers are always read and written with '.'; only the character type follows the user. */
    setlocale(LC_CTYPE, "");
    static op_opts o;
    int rc = op_parse_layered(&o, argc, argv, COMMANDS, N_COMMANDS, apply_layers, NULL);
    if (rc) return cli_fail(rc);
    if (o.help) { usage(); return 0; }
    if (o.version) { printf("gsrscope %s\n", GS_VERSION); return 0; }
    const op_command *c = o.cmd; /* the row of COMMANDS the parser found */
    return c->flags & CLI_INTERACTIVE ? c->fn(&o) : cli_call(c->fn, &o, c->flags);
}
