/* config/usage.c — the options part of --help (main.c's table prints the subcommand lines above
 * it): fixed text around one line per row of the parameter table (gs_opts.h; keep in step with
 * man/gsrscope.1, which tests/t_cli.sh and test_params check). */
#include "gs_opts.h"

#include <stdio.h>
#include <string.h>

/* A constant's digits in the text (EN_SINGLE_MIN_D: "2048"). */
#define STR_(x) #x
#define STR(x) STR_(x)

static const char HEAD[] =
"An option given to a subcommand it does not apply to is refused (exit 2).\n"
"Values: defaults < --preset < --session < the options given on the command line.\n"
"\n"
"Data:\n"
"  --synthetic              paper-scale synthetic features (C=100, d=768, 500+100 rows/class)\n"
"  --sample pixels|mobilenetv2   bundled Fashion-MNIST set: raw pixels (default) or MobileNetV2\n"
"                           embeddings (1280-d)\n"
"  --data DIR|FILE.npz|FILE.pt   DIR/train_features.npy, train_labels.npy, test_features.npy,\n"
"                           test_labels.npy (or X_train.pt, y_train.pt, X_test.pt, y_test.pt, or\n"
"                           train.csv, test.csv), or one .npz or .pt archive of those four arrays\n"
"  --idx DIR                MNIST IDX files (plain or .gz) in DIR\n"
"  --train-features F --train-labels F --test-features F --test-labels F   .npy, .npz, .pt or\n"
"                           .csv files; FILE.npz:NAME, FILE.pt:KEY name an archive's array\n"
"  --label-col N            CSV label column (0-based; default: last)\n"
"  --no-normalize           keep rows as loaded (default: L2-normalize every row)\n";
static const char PROTOCOL[] =
"  --max-memory SIZE        refuse runs needing more than SIZE (e.g. 2G; default: available memory)\n"
"Protocol:\n";
/* A line "@NAME" stands for the lines of the number option NAME (pa_options); "{stream}" and
 * "{compute}" for the subcommands that accept the group ("the TUI, run and export"). */
static const char TAIL[] =
"Output (run):\n"
"  --format table|csv|json  per-task results (default table)\n"
"  --spectrum auto|final|all exact eigenvalues at the last task (final) or every task (all);\n"
"                           auto (default): final while D <= " STR(EN_SPECTRUM_AUTO_MAX) " (a method's own D:\n"
"                           ranpac's 10000-d map is above), else only where asked\n"
"  --precision auto|single|double  arithmetic of the ridge learners (gacl, air, ranpac): single\n"
"                           (float rows, Gram matrices, Cholesky, predictions) or double;\n"
"                           auto (default): single from D >= " STR(EN_SINGLE_MIN_D) " (--expand), else double;\n"
"                           {compute} (the others compute in double);\n"
"                           anacp computes in single whatever it says (its\n"
"                           ill-conditioned solves in double)\n"
"  --save-state DIR         write rows, G, Q, W, eigenvalues and predictions as .npy\n"
"  --theorem                check the paper's Theorem 1 at the last task\n"
"  --split R                Theorem 1 split r (default: head classes seen)\n"
"  --quiet                  no progress on stderr\n"
"Figures (export):\n";
/* after the --figure lines, which the caller gives (main.c: the figures' table, gs_figure.h) */
static const char TAIL_FIG[] =
"  -o, --output FILE        output file; .png, .svg, .pdf or .gif (tune: the chosen values)\n"
"@dpi\n"
"  --task K                 task to show (default: last); all: one frame per task (--frames)\n"
"  --future show|hide|fade  the tasks after K (default show, with a dotted line at K;\n"
"                           frames: hide)\n"
"  --frames                 one frame per task, each drawing the tasks up to its own, the same\n"
"                           axes in all: .pdf one page each, .gif an animation, .png/.svg\n"
"                           numbered FILE-01.png ... (--csv too)\n"
"@frame-ms\n"
"@width-in\n"
"  --size column|page|slide 3.5 in, 7 in, or a 16:9 slide of 13.33 x 7.5 in with text at 18 pt\n"
"                           or more (font scale 2.25)\n"
"@font-scale\n"
"  --csv FILE, --data FILE.csv   also write the numbers behind the figure\n"
"  --seeds 1,2,3            the figures marked (--seeds) above: the mean over the seeds with a\n"
"                           ± std band (said in a caption)\n"
"Sweep:\n"
"  --param NAME=v1,v2,...   grid over a parameter (repeatable)\n"
"  --seeds 1,2,3            seeds to average over (mean ± std; sweep, tune and table)\n"
"Tune:\n";
/* after tune's --param line, made from the table's tuning columns */
static const char TAIL2[] =
"  --objective acc|tail|balanced   validation accuracy, tail accuracy, or their head/tail mean\n"
"                           after the last task (default acc); needs --val-frac\n""  --seeds 1,2,3            choose on the mean validation objective over the seeds (each its\n"
"                           own split and stream); numbers as mean ± std\n"
"  -o FILE                  write each method's chosen values, METHOD.KEY=VALUE a line\n"
"                           (run, table and export read it with --tuned FILE)\n"
"Table:\n"
"  --synthetic, --sample NAME, --data DIR, --idx DIR   one column group each, in the order\n"
"                           given (--sample, --data may repeat; default: the bundled sample)\n"
"  --data NAME=PATH         the group of folder PATH titled NAME (NAME without '/'; PATH exists)\n"
"  --columns LIST           a group's test columns, in order: a_last,a_avg,head,tail (default:\n"
"                           all four; head, tail: accuracy on head and tail classes, last task)\n"
"  --format table|csv|json|markdown|latex   (latex: booktabs; best bold, second underlined);\n"
"                           each records the parameters, seeds and sources behind the table\n"
"Synth:\n"
"  --out DIR                output folder\n"
"TUI:\n"
"  --ascii                  ASCII plots even in a UTF-8 terminal\n"
"  --theme NAME             colours: default, light (projectors), mono; or a .theme path\n""  --seeds 1,2,3            one run per seed: accuracy and stable rank as their mean with a\n"
"                           ± std band, mean rows in the parameters panel (first seed shown)\n"
"  --tour [NAME]            play a guided tour (assets/tours/NAME.tour or a path; default:\n"
"                           bundled, or synthetic with --synthetic); n / p move, Esc leaves\n"
"Each method's own values (run, table and export):\n"
"  --tuned FILE             values per method, one METHOD.KEY=VALUE a line ('#' comments; tune -o\n"
"                           writes it), e.g. gacl+gsr.tau=33.7: each method runs with its own,\n"
"                           over --tau and the like; methods of other values run in other engines\n"
"  --set METHOD.KEY=V       one method's value (repeatable; wins over --tuned)\n"
"Presets and sessions ({stream}):\n"
"  --preset NAME            values from assets/presets/NAME: paper, teaching, reference\n"
"  --session FILE           values and data from a session file (saved with s in the TUI)\n"
"General:\n"
"  -h, --help               this help\n"
"  -V, --version            version\n"
"\n"
"Exit status: 0 success, 1 failure while running, 2 bad usage or bad input.\n";

/* Appends to buf at *len (cut at cap). */
static void add(char *buf, size_t cap, size_t *len, const char *fmt, const char *a, const char *b)
{
    if (*len >= cap) return;
    int n = snprintf(buf + *len, cap - *len, fmt, a, b);
    if (n > 0) *len += (size_t)n < cap - *len ? (size_t)n : cap - *len - 1;
}

/* A row's lines: "  --name ARG" then its help with %r (range) and %d (default) filled in;
 * continuation lines ('\n' in the help) indented under the text. */
static void row_lines(const pa_param *r, char *buf, size_t cap, size_t *len)
{
    char opt[160], range[96], def[48], text[512];
    pa_range_text(r, range, sizeof range);
    pa_default_text(r, def, sizeof def);
    if (r->kind == PA_ENUM) snprintf(opt, sizeof opt, "--%s %s", r->name, range);
    else snprintf(opt, sizeof opt, "--%s %s", r->name, r->arg ? r->arg : "V");
    size_t t = 0;
    for (const char *h = r->help; *h && t + 1 < sizeof text; h++) {
        const char *ins = NULL;
        if (h[0] == '%' && h[1] == 'r') ins = range;
        else if (h[0] == '%' && h[1] == 'd') ins = def;
        else if (h[0] == '\n') ins = "\n                           ";
        if (ins) {
            t += (size_t)snprintf(text + t, sizeof text - t, "%s", ins);
            if (t >= sizeof text) t = sizeof text - 1;
            if (h[0] == '%') h++;
        } else text[t++] = *h;
    }
    text[t] = 0;
    add(buf, cap, len, strlen(opt) < 24 ? "  %-24s %s\n" : "  %s  %s\n", opt, text);
}

static void section(pa_section sec, char *buf, size_t cap, size_t *len)
{
    for (int i = 0; i < pa_count(); i++)
        if (pa_table()[i].section == sec) row_lines(&pa_table()[i], buf, cap, len);
}

/* The subcommands accepting `group`, "a, b and c" (into out). */
static void accepting(const op_command *cmds, int n, unsigned group, char *out, size_t cap)
{
    int k = 0, total = 0;
    for (int i = 0; i < n; i++) total += !!(cmds[i].groups & group);
    out[0] = 0;
    for (int i = 0; i < n; i++)
        if (cmds[i].groups & group) {
            size_t L = strlen(out);
            snprintf(out + L, cap - L, "%s%s", k == 0 ? "" : k == total - 1 ? " and " : ", ", cmds[i].title ? cmds[i].title : cmds[i].name);
            k++;
        }
}

/* A line with its "{stream}" and "{compute}" filled in. */
static void fill(const char *line, const op_command *cmds, int n, char *out, size_t cap)
{
    static const struct { const char *token; unsigned group; } TOKENS[] = {{"{stream}", OPG_STREAM}, {"{compute}", OPG_COMPUTE}};
    size_t o = 0;
    while (*line && o + 1 < cap) {
        size_t k = 0;
        while (k < sizeof TOKENS / sizeof TOKENS[0] && strncmp(line, TOKENS[k].token, strlen(TOKENS[k].token))) k++;
        if (k < sizeof TOKENS / sizeof TOKENS[0]) {
            accepting(cmds, n, TOKENS[k].group, out + o, cap - o);
            o += strlen(out + o);
            line += strlen(TOKENS[k].token);
        } else out[o++] = *line++;
    }
    out[o] = 0;
}

/* Fixed text, its "@NAME" lines replaced by the option rows' lines, its tokens filled in. */
static void text(const char *t, const op_command *cmds, int ncmd, char *buf, size_t cap, size_t *len)
{
    while (*t) {
        const char *e = strchr(t, '\n');
        size_t n = e ? (size_t)(e - t) + 1 : strlen(t);
        char name[32];
        const pa_param *r = NULL;
        if (t[0] == '@' && n - 1 < sizeof name) {
            snprintf(name, sizeof name, "%.*s", (int)(n - 2), t + 1);
            r = pa_find_option(name);
        }
        if (r) row_lines(r, buf, cap, len);
        else {
            char line[256], filled[512];
            snprintf(line, sizeof line, "%.*s", (int)n, t);
            fill(line, cmds, ncmd, filled, sizeof filled);
            add(buf, cap, len, "%s%s", filled, "");
        }
        t += n;
    }
}

/* tune's --param: the rows with a tuning grid and their grids, wrapped at 100 columns. */
static void tune_param(char *buf, size_t cap, size_t *len)
{
    char line[128] = "  --param NAME,...         parameters to search, in the order given (default: all a method uses):";
    for (int i = 0, first = 1; i < pa_count(); i++) {
        const pa_param *r = &pa_table()[i];
        if (!pa_tunable(r)) continue;
        char t[96];
        pa_tune_text(r, t, sizeof t);
        if (strlen(line) + 2 + strlen(t) > 100) {
            add(buf, cap, len, "%s%s", line, first ? "\n" : ",\n");
            snprintf(line, sizeof line, "%27s%s", "", t);
        } else {
            size_t L = strlen(line);
            snprintf(line + L, sizeof line - L, "%s%s", first ? " " : ", ", t);
        }
        first = 0;
    }
    add(buf, cap, len, "%s%s", line, "\n");
}

/* Built at each call from the tables (the tests change a row and read the help again); the
 * "Methods:" section and the --figure lines are given (the method table's, mt_help, and the
 * figures' table's, fig_help: config/ is below both), and so is the subcommand table (main.c's). */
const char *op_usage(const op_command *cmds, int n, const char *methods, const char *figures)
{
    static char buf[16384];
    size_t len = 0;
    add(buf, sizeof buf, &len, "%s%s", HEAD, "");
    section(PA_SEC_DATA, buf, sizeof buf, &len);
    add(buf, sizeof buf, &len, "%s%s", PROTOCOL, "");
    section(PA_SEC_PROTOCOL, buf, sizeof buf, &len);
    add(buf, sizeof buf, &len, "%s%s", methods ? methods : "Methods:\n", "");
    section(PA_SEC_METHODS, buf, sizeof buf, &len);
    text(TAIL, cmds, n, buf, sizeof buf, &len);
    add(buf, sizeof buf, &len, "%s%s", figures ? figures : "  --figure NAME            the figure to draw\n", "");
    text(TAIL_FIG, cmds, n, buf, sizeof buf, &len);
    tune_param(buf, sizeof buf, &len);
    text(TAIL2, cmds, n, buf, sizeof buf, &len);
    return buf;
}
