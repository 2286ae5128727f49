/* gs_tui.h — the interactive ncurses front end (prefix tui_).
 * Only the UI thread calls curses; computation runs in a worker thread through gs_pipeline.h.
 * The layout, the key table and the parameter stepping below are pure (no curses) so tests
 * can check them; src/tui/tui.c is the only file that talks to the terminal.
 */
#ifndef GS_TUI_H
#define GS_TUI_H

#include "gs_opts.h"

/* Run the TUI until the user quits. Returns a process exit status (0, 1 or 2). */
int tui_main(op_opts *o);

/* ---- layout (src/tui/tui_layout.c) --------------------------------------------------------- */
#define TUI_MIN_COLS 72
#define TUI_MIN_ROWS 20

typedef struct { int x, y, w, h; } tui_rect;
typedef struct {
    tui_rect status;     /* top line: Task k/T, play state, computing mark, data name */
    tui_rect accuracy;   /* panel "Accuracy" (frame included) */
    tui_rect spectrum;   /* panel "Eigenspectrum" */
    tui_rect stable;     /* panel "Stable rank" */
    tui_rect params;     /* panel "Parameters" */
    tui_rect message;    /* the line(s) above the hint bar: messages, word-wrapped, never cut */
    tui_rect hint;       /* bottom line: main keys; "? help" and "q quit" always at its right */
} tui_layout;

/* Split a cols×rows terminal into the panels. 0, or -1 when smaller than
 * TUI_MIN_COLS × TUI_MIN_ROWS (the caller shows "need at least WxH"). Panels never overlap
 * and together with the two bars cover the screen. */
int tui_layout_compute(int cols, int rows, tui_layout *l);
/* The same with msg_rows (1..3) lines for the message (a long message wraps onto them). */
int tui_layout_compute_msg(int cols, int rows, int msg_rows, tui_layout *l);

/* ---- keys (src/tui/tui_keys.c) ------------------------------------------------------------- */
typedef enum {
    TA_NONE = 0, TA_PLAY, TA_SLOWER, TA_FASTER, TA_NEXT, TA_PREV, TA_FIRST, TA_LAST,
    TA_UP, TA_DOWN, TA_INC, TA_DEC, TA_EDIT, TA_BASELINE, TA_UNDO, TA_EXPORT, TA_SAVE,
    TA_PRESET, TA_GLYPHS, TA_HELP, TA_REDRAW, TA_QUIT,
    TA_VIEW, /* cycle the lower-left panel's view */
    TA_METHOD0, TA_METHOD1, /* cycle the first / second shown method */
    TA_TUNE,                /* tune the selected parameter on the validation rows */
    TA_FUTURE,              /* show / hide the tasks after the current one */
    TA_EXPORT_FRAMES,       /* export the current view's frames, one PDF page per task */
    TA_UNPIN,               /* drop the pinned baseline */
    TA_SCROLL_DOWN, TA_SCROLL_UP /* scroll the claims view */
} tui_action;

#define TUI_KEY_ALIASES 4
typedef struct {
    tui_action act;
    int keys[TUI_KEY_ALIASES]; /* curses key codes or characters, 0-terminated */
    const char *keyname;       /* as shown in help, e.g. "→ n" */
    const char *help;          /* one line */
    const char *hint;          /* short label for the hint bar, NULL = not in the hint bar */
} tui_key;

/* The one key table: dispatch and the help screen both read it. */
const tui_key *tui_keys(int *n);
/* Action bound to a key code (TA_NONE if unbound). */
tui_action tui_key_action(int key);
/* Help text: one line per key from the table ("KEYS  help"), then what every number on the
 * screen means. Returns the line count; a line is at most TUI_HELP_LEN - 1 bytes, whole (the
 * help box wraps it, never cuts it). */
#define TUI_HELP_MAX 160
#define TUI_HELP_LEN 1024
int tui_help_lines(char (*lines)[TUI_HELP_LEN], int max);

/* ---- parameters (src/tui/tui_params.c) ----------------------------------------------------- */
/* The panel's rows: the rows of the parameter table (gs_params.h) with a TUI label, in table
 * order; a tui_param is an index into them (0 .. tui_param_count() - 1). */
typedef int tui_param;
int tui_param_count(void);
const pa_param *tui_param_row(tui_param p);      /* NULL outside the panel */
tui_param tui_param_find(const char *name);      /* "tau", "alpha_base", ...; -1 if not in the panel */
/* Display name (the row's label: "α_base", "ξ", "β", "τ", "seed") and option name ("alpha-base"). */
const char *tui_param_label(tui_param p);
const char *tui_param_name(tui_param p);
double tui_param_get(const op_params *p, tui_param which);
/* One step up (dir > 0) or down, as the row says (pa_step): additive rows by their step (α_base
 * 0.05, seed 1), the others over 1, 2, 5, 10, ... (β, τ, ξ; from 0, + goes to the row's least
 * step, below it - goes to 0), kept in the row's valid range. Returns 1 if the value changed. */
int tui_param_step(op_params *p, tui_param which, int dir);
/* Format a value for the panel ("0.6", "0.005", "1", "0.01", "1"). */
void tui_param_format(tui_param which, double v, char *buf, int n);
/* 1 when the panel shows a change of p as a ratio (×2) rather than a difference. */
int tui_param_ratio(tui_param p);
/* 1 when parameter p acts on some of the n methods (mt_uses), or is the stream's and the
 * problem's (the seed: its row invalidates no single part); 0 when none of them reads it (τ with
 * AnaCP, whose ridge is fixed): the panel says so and nothing is recomputed. */
int tui_param_acts(tui_param p, const char *const *methods, int n);

#endif
