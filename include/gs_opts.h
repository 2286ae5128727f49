/* gs_opts.h — every command-line option of gsrscope, parsed once by one parser (prefix op_).
 *
 * One struct serves every subcommand (the TUI included), so every data, protocol and
 * method option means the same everywhere. op_parse validates ranges and returns GS_EINPUT with
 * a one-line message (gs_last_error) naming the option and what is wrong.
 *
 * Two tables describe the options: the parameters (gs_params.h, src/config/params.c: name,
 * field, default, range, TUI step, tuning range, help; settable as `--name V`, as `name=V` in
 * sessions and presets, and by sweep's --param) and the other options (opts.c); each row names
 * its option group (OPG_*, gs_params.h). The subcommands are the rows of a table the caller
 * hands to the parser (op_command: main.c's), each listing the groups it accepts and the rules
 * its options follow (OPR_*). An option given to a subcommand that does not accept its group is
 * refused: "--seeds: not an option of `run` (it applies to: sweep, ...)".
 * Values are layered: defaults < --preset < --session < the options on the command line,
 * and each value set records where it came from (op_changes lists those not at default).
 * Ownership: strings point into argv (not copied) except where noted; op_opts owns nothing.
 */
#ifndef GS_OPTS_H
#define GS_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "gs_params.h"

/* markdown and latex: `table` only */
typedef enum { OP_FMT_TABLE, OP_FMT_CSV, OP_FMT_JSON, OP_FMT_MARKDOWN, OP_FMT_LATEX } op_format;

/* Where a value came from: "preset teaching", "session FILE" or "command line". */
#define OP_MAX_ORIGINS 48
typedef struct {
    char name[24];       /* "tau", "methods", "data_dir", ... */
    char value[160];     /* as given (cut at 159 bytes) */
    char from[96];
} op_origin;

/* export's number options: their ranges (rows of pa_options(), which --help prints and the
 * parser checks; the figures read them too: figure/catalog.c the font scale). 0 is the default
 * of each. */
#define OP_MIN_DPI 72.0        /* below it a PNG's text is a few pixels high */
#define OP_MAX_DPI 2400.0
#define OP_MIN_WIDTH_IN 3.0    /* narrower figures overlap their labels */
#define OP_MAX_WIDTH_IN 40.0
#define OP_MIN_FONT_SCALE 0.5
#define OP_MAX_FONT_SCALE 4.0
#define OP_MIN_FRAME_MS 20     /* animation: ms per frame */
#define OP_MAX_FRAME_MS 60000
enum { OP_SIZE_NONE = 0, OP_SIZE_COLUMN, OP_SIZE_PAGE, OP_SIZE_SLIDE }; /* export --size */
#define OP_MAX_SWEEP 8
#define OP_MAX_SETS 64 /* --set METHOD.KEY=V given at most so many times */
#define OP_MAX_SOURCES 8

/* A data source of `table` (its column group), in the order given. */
typedef enum { OP_SRC_SYNTHETIC, OP_SRC_DATA, OP_SRC_IDX, OP_SRC_SAMPLE } op_source_kind;
typedef struct {
    op_source_kind kind;
    const char *arg;     /* the folder (data, idx), the bundled set's name (sample); NULL for synthetic */
    const char *name;    /* --data NAME=PATH: the group's title, its first name_len bytes (arg is PATH); */
    int name_len;        /* else NULL, 0 (the data's own name) */
} op_source;

/* table --columns: the test columns of a source's group, in the order given (default all four) */
enum { OP_COL_A_LAST, OP_COL_A_AVG, OP_COL_HEAD, OP_COL_TAIL, OP_N_COLS };

struct op_opts;

/* How the parser reads a subcommand's options, and what it requires (op_command.rules). The
 * messages name the command ("export: --figure NAME is required ..."). */
enum {
    OPR_DEFAULT = 1u << 0,      /* the command given without a name (the TUI) */
    OPR_SOURCES = 1u << 1,      /* every data source is a column group: several may be given (table) */
    OPR_DATA_CSV = 1u << 2,     /* --data FILE.csv names the CSV of the numbers behind the figure (export) */
    OPR_PARAM_NAMES = 1u << 3,  /* --param NAME,...: the names to search (tune; none: all); without
                                 * it --param NAME=v1,v2,... is a grid */
    OPR_DOC_FORMATS = 1u << 4,  /* --format also markdown and latex (table) */
    OPR_NEED_FIGURE = 1u << 5,  /* --figure NAME and -o FILE are required (export) */
    OPR_NEED_OUT_DIR = 1u << 6, /* --out DIR is required (synth) */
    OPR_NEED_VAL = 1u << 7,     /* --val-frac F > 0 is required (tune) */
    OPR_NEED_GRID = 1u << 8     /* --param NAME=v1,v2,... or --seeds is required (sweep) */
};

/* A subcommand: one row of the caller's table (main.c), handed to op_parse_layered. */
typedef struct op_command {
    const char *name;           /* the word after gsrscope */
    const char *title;          /* how messages name it, NULL: `name` ("the TUI") */
    int (*fn)(struct op_opts *o); /* what runs it (the caller's) */
    unsigned flags;             /* the caller's (main.c: CLI_* of gs_cli.h) */
    unsigned groups;            /* the option groups it accepts (OPG_*; --help, --version always) */
    unsigned rules;             /* OPR_* */
    const char *args, *summary; /* its line of --help */
} op_command;

typedef struct op_opts {
    const op_command *cmd;      /* the row of the table given to the parser; NULL: op_parse */
    op_data data;
    op_protocol proto;
    op_params params;
    const char *methods[OP_MAX_METHODS]; /* names, default {"gacl","gsr"} */
    int n_methods;
    op_spectrum spectrum;
    /* run */
    op_format format;
    const char *save_state;
    int theorem;         /* --theorem */
    int theorem_r;       /* --split r, 0 = number of head classes seen */
    int quiet;
    /* export */
    const char *figure;
    const char *output;
    double dpi;
    int task;            /* 1-based, 0 = last */
    double width_in;
    const char *data_csv; /* --data FILE.csv for export: the numbers behind the figure */
    int frames;          /* --frames (or --task all): one frame per task */
    int future;          /* --future: FIG_FUTURE_* of gs_figure.h (0 = the default) */
    int frame_ms;        /* --frame-ms: animation time per frame (0 = default) */
    int size;            /* --size: OP_SIZE_* (0 = --width-in or the figure's default) */
    double font_scale;   /* --font-scale (0 = 1, a slide 2.25) */
    /* sweep */
    const char *sweep_params[OP_MAX_SWEEP]; /* "name=v1,v2,..." */
    int n_sweep;
    const char *seeds;   /* "1,2,3" (sweep, tune and table) */
    /* tune */
    const char *tune_params; /* --param tau,beta,... (names, comma-separated) */
    op_objective objective;  /* --objective, default acc */
    /* table: --synthetic, --sample NAME, --data DIR and --idx DIR each add a source (--data and
     * --sample may repeat) */
    op_source sources[OP_MAX_SOURCES];
    int n_sources;
    int columns[OP_N_COLS]; /* --columns a_last,a_avg,head,tail: OP_COL_* in order; n_columns 0 = all */
    int n_columns;
    /* run, table, export: each method's own values (gs_tuned.h): --tuned FILE, then the --set
     * METHOD.KEY=V in the order given (a --set wins over the file, both over --tau and the like
     * for that method only) */
    const char *tuned;
    const char *sets[OP_MAX_SETS];
    int n_sets;
    /* Set by the command once resolved (NULL: every method runs with `params`): n_methods entries,
     * method m's own parameters where --tuned or --set gave it values that differ (the reports
     * record them per method). Not owned. */
    const op_params *method_params;
    /* synth */
    const char *out_dir;
    /* tui */
    int ascii;
    const char *preset;
    const char *session;
    const char *tour;            /* --tour [NAME]: NULL none, "" the default tour for the data */
    const char *theme;           /* --theme NAME (TUI colours: default, light, mono), NULL = default */
    int help, version;
    /* provenance: op_set and op_note record here, labelled with `from` (NULL: command line) */
    const char *from;
    op_origin origins[OP_MAX_ORIGINS];
    int n_origins;
} op_opts;

/* Applies --preset and --session between the defaults and the command line (op_parse_layered);
 * GS_OK or an error. main.c gives one that reads the asset and the session file. */
typedef int (*op_layer_fn)(op_opts *o, void *user);

/* Fill defaults. */
void op_defaults(op_opts *o);
/* Parse argv with the subcommands cmds[0..n) (argv[1], when not an option, names one; else the
 * row with OPR_DEFAULT): o->cmd is its row. GS_OK, or GS_EINPUT with the message set. layer
 * (may be NULL) is called after the defaults and before the command line's options. */
int op_parse_layered(op_opts *o, int argc, char **argv, const op_command *cmds, int n, op_layer_fn layer,
                     void *user);
/* The tests' parser: no table (o->cmd NULL), argv[1] when not an option is skipped as the
 * command's name, every option is accepted and no rule applies; --preset and --session are only
 * recorded. */
int op_parse(op_opts *o, int argc, char **argv);
/* The options part of --help, after main.c's subcommand lines (agrees with man/gsrscope.1): the
 * subcommands cmds[0..n) name which commands accept the presets and --precision (NULL, 0: none);
 * `methods` is its "Methods:" section, the method table's (gs_mtable.h: mt_help); `figures` the
 * --figure lines (the figures' table's: fig_help() in gs_figure.h; NULL: one line without the list). */
const char *op_usage(const op_command *cmds, int n, const char *methods, const char *figures);
/* Parse one "name=value" hyperparameter/protocol assignment onto o (used by sweep, sessions
 * and the TUI editor). GS_OK or GS_EINPUT. */
int op_set(op_opts *o, const char *name, const char *value);
/* --seeds "1,2,3": at most max seeds into out, *n of them. GS_OK or GS_EINPUT (message set). */
int op_parse_seeds(const char *s, uint64_t *out, int max, int *n);
/* The current value of a name op_set knows, formatted as op_set reads it. GS_OK or GS_EINPUT. */
int op_get(const op_opts *o, const char *name, char *buf, size_t cap);
/* Record that `name` was set to `value` (for options op_set does not handle: data, methods). */
void op_note(op_opts *o, const char *name, const char *value);
/* 1 when origins[i]'s value differs from its default; value receives the value now. */
int op_changed(const op_opts *o, int i, char *value, size_t cap);
/* "name=value (from); ..." for every recorded value that differs from its default, joined by
 * sep; "" when all are defaults. Returns buf. */
const char *op_changes(const op_opts *o, const char *sep, char *buf, size_t cap);
/* The bundled set named `s` ("pixels" or "mobilenetv2"): its canonical static name, or NULL
 * for any other text. */
const char *op_sample_name(const char *s);
/* Validate ranges after parsing (also after op_set). */
int op_validate(const op_opts *o);

/* --max-aug as written: "all" for OP_MAX_AUG_ALL, else the number (into buf, which it returns). */
const char *op_max_aug_str(long max_aug, char *buf, size_t cap);
/* --pairs as written: "all", "random" or "literal". */
const char *op_pairs_name(int pairs);

#endif
