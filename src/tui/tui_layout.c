/* tui/tui_layout.c — pure layout of the TUI screen (gs_tui.h). No curses. */
#include "gs_tui.h"

#include <string.h>

int tui_layout_compute(int cols, int rows, tui_layout *l) { return tui_layout_compute_msg(cols, rows, 1, l); }

int tui_layout_compute_msg(int cols, int rows, int msg_rows, tui_layout *l)
{
    memset(l, 0, sizeof *l);
    if (cols < TUI_MIN_COLS || rows < TUI_MIN_ROWS) return -1;
    if (msg_rows < 1) msg_rows = 1;
    if (msg_rows > 3) msg_rows = 3;
    if (msg_rows > 1 + (rows - TUI_MIN_ROWS) / 2) msg_rows = 1 + (rows - TUI_MIN_ROWS) / 2; /* panels keep their minimum */
    int body_y = 1, body_h = rows - 2 - msg_rows;
    int top_h = body_h / 2; /* the bottom row keeps the Parameters panel its nine rows */
    int bot_h = body_h - top_h;
    /* Parameters panel: wide enough for "α_base  current  baseline  Δ" and the five numbers
     * (label 8 + 5 × 6 cells) inside its frame. */
    int pw = cols * 38 / 100;
    if (pw < 40) pw = 40;
    if (pw > 52) pw = 52;
    /* Accuracy (three small multiples) gets the larger share of the top row. */
    int aw = cols * 60 / 100;
    l->status = (tui_rect){0, 0, cols, 1};
    l->accuracy = (tui_rect){0, body_y, aw, top_h};
    l->spectrum = (tui_rect){aw, body_y, cols - aw, top_h};
    l->stable = (tui_rect){0, body_y + top_h, cols - pw, bot_h};
    l->params = (tui_rect){cols - pw, body_y + top_h, pw, bot_h};
    l->message = (tui_rect){0, rows - 1 - msg_rows, cols, msg_rows};
    l->hint = (tui_rect){0, rows - 1, cols, 1};
    return 0;
}
