/* main.c — the table of subcommands: parse the command line, find the subcommand's row, call it
 * (the functions: gs_cli.h, one file each in src/cli/; the TUI: gs_tui.h). */
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

/* One row per subcommand, in the order --help lists them. `name` is the word after gsrscope
 * (the option parser, gs_opts.h, knows which options each accepts); `args` and `summary` are its
 * line of --help (man/gsrscope.1's SYNOPSIS says the same, tests/t_cli.sh checks). */
typedef struct {
    const char *name;
    cli_fn fn;
    unsigned flags; /* CLI_INTERACTIVE, CLI_STOP_AT_ONCE (gs_cli.h) */
    const char *args, *summary;
} command;

static const command COMMANDS[] = {
    {"tui", tui_main, CLI_INTERACTIVE, "[OPTIONS]", "interactive TUI (bundled Fashion-MNIST sample by default)"},
    {"run", cli_run, 0, "[OPTIONS]", "headless replay, per-task results on stdout"},
    {"export", cli_export, 0, "[OPTIONS] --figure NAME -o FILE", "figure as .png, .svg, .pdf or .gif"},
    {"sweep", cli_sweep, CLI_STOP_AT_ONCE, "[OPTIONS] --param NAME=v1,v2,... [--seeds 1,2,3]", "grid of runs, mean ± std over seeds"},
    {"tune", cli_tune, 0, "--val-frac F --param NAME,... [--objective acc|tail|balanced] [--seeds 1,2,3]",
     "choose parameters on validation rows, per method"},
    {"synth", cli_synth, 0, "--out DIR", "write the synthetic set as .npy files"},
    {"table", cli_table, CLI_STOP_AT_ONCE, "[OPTIONS] --methods a,b,... [--seeds 1,2,3]", "Table 1: methods × data sources"},
};
#define N_COMMANDS (int)(sizeof COMMANDS / sizeof COMMANDS[0])

static const command *find_command(const char *name)
{
    for (int i = 0; i < N_COMMANDS; i++)
        if (!strcmp(COMMANDS[i].name, name)) return &COMMANDS[i];
    return NULL;
}

/* The subcommand lines of --help, 100 columns wide: the summary at column 44 where it fits, else
 * after the line or under it; long arguments continue under the first one. */
static void usage(void)
{
    enum { WIDTH = 100, COL = 44 };
    for (int i = 0; i < N_COMMANDS; i++) {
        const command *c = &COMMANDS[i];
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
    fputs(op_usage(mt_help(), fig_help()), stdout);
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
    int rc = op_parse_layered(&o, argc, argv, apply_layers, NULL);
    if (rc) return cli_fail(rc);
    if (o.help) { usage(); return 0; }
    if (o.version) { printf("gsrscope %s\n", GS_VERSION); return 0; }
    const command *c = find_command(op_cmd_name(o.cmd));
    if (!c) return cli_fail(gs_error(GS_EINPUT, "%s: a subcommand without a row in main.c's table", op_cmd_name(o.cmd)));
    return c->flags & CLI_INTERACTIVE ? c->fn(&o) : cli_call(c->fn, &o, c->flags);
}
