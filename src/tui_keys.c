/* tui_keys.c — the one key table of the TUI: dispatch and the `?` help both read it
 * (gs_tui.h). Uses curses only for the KEY_* constants; makes no curses calls. */
#include "gs_tui.h"

#include <curses.h>
#include <stdio.h>

#define CTRL_L 12

static const tui_key KEYS[] = {
    {TA_PLAY, {' ', 0}, "Space", "play / pause (advance one task per tick)", "play"},
    {TA_SLOWER, {'[', 0}, "[", "play slower", NULL},
    {TA_FASTER, {']', 0}, "]", "play faster", NULL},
    {TA_NEXT, {KEY_RIGHT, 'n', 0}, "→ n", "next task", "step"},
    {TA_PREV, {KEY_LEFT, 'p', 0}, "← p", "previous task", NULL},
    {TA_FIRST, {KEY_HOME, 0}, "Home", "first task", NULL},
    {TA_LAST, {KEY_END, 0}, "End", "last task", NULL},
    {TA_UP, {KEY_UP, 'k', 0}, "↑ k", "select the previous parameter (α_base, ξ, β, τ, seed)", "select"},
    {TA_DOWN, {KEY_DOWN, 'j', 0}, "↓ j", "select the next parameter", NULL},
    {TA_INC, {'+', '=', 0}, "+", "increase the parameter (τ, ξ ×10^¼; α_base +0.05; β +0.1; seed +1)", "adjust"},
    {TA_DEC, {'-', '_', 0}, "-", "decrease the parameter", NULL},
    {TA_EDIT, {'\n', '\r', KEY_ENTER, 0}, "Enter", "type a value for the parameter (Esc cancels)", "type"},
    {TA_BASELINE, {'b', 0}, "b", "pin the current results as baseline (ghost curves, Δ column)", "baseline"},
    {TA_UNDO, {'u', 0}, "u", "undo the last parameter change", "undo"},
    {TA_TUNE, {'t', 0}, "t", "tune the selected parameter on the validation rows (needs --val-frac; u undoes)", NULL},
    {TA_EXPORT, {'e', 0}, "e", "export the dashboard PNG (gsrscope-dashboard-NNN.png)", "export"},
    {TA_SAVE, {'s', 0}, "s", "save the session (parameters, protocol, data paths)", "save"},
    {TA_PRESET, {'P', 0}, "P", "cycle presets (paper defaults, teaching demo)", "preset"},
    {TA_VIEW, {'v', 0}, "v", "next lower-left view: stable rank, τ sweep, Theorem 1, erank & κ, per class, λ ratio", NULL},
    {TA_METHOD0, {'m', 0}, "m", "cycle the first shown method among --methods (never the second one)", NULL},
    {TA_METHOD1, {'M', 0}, "M", "cycle the second shown method among --methods", NULL},
    {TA_GLYPHS, {'g', 0}, "g", "cycle plot glyphs (braille, block, ASCII)", NULL},
    {TA_HELP, {'?', KEY_F(1), 0}, "? F1", "this help (any key closes it)", "help"},
    {TA_REDRAW, {CTRL_L, 0}, "Ctrl-L", "redraw the screen", NULL},
    {TA_QUIT, {'q', KEY_F(10), 0}, "q F10", "quit", "quit"},
};

const tui_key *tui_keys(int *n)
{
    *n = (int)(sizeof KEYS / sizeof KEYS[0]);
    return KEYS;
}

tui_action tui_key_action(int key)
{
    int n;
    const tui_key *k = tui_keys(&n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < TUI_KEY_ALIASES && k[i].keys[j]; j++)
            if (k[i].keys[j] == key) return k[i].act;
    return TA_NONE;
}

int tui_help_lines(char (*lines)[128], int max)
{
    int n, m = 0;
    const tui_key *k = tui_keys(&n);
    for (int i = 0; i < n && m < max; i++) {
        /* pad the key column to 8 cells (key names may hold multi-byte arrows) */
        int cells = 0;
        for (const unsigned char *s = (const unsigned char *)k[i].keyname; *s; s++)
            if ((*s & 0xC0) != 0x80) cells++;
        int pad = cells < 8 ? 8 - cells : 1;
        snprintf(lines[m++], 128, "%s%*s%s", k[i].keyname, pad, "", k[i].help);
    }
    return m;
}
