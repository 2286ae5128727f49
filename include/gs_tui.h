/* gs_tui.h — the interactive ncurses front end (prefix tui_).
 * Only the UI thread calls curses; computation runs in a worker thread through gs_pipeline.h.
 */
#ifndef GS_TUI_H
#define GS_TUI_H

#include "gs_opts.h"

/* Run the TUI until the user quits. Returns a process exit status (0, 1 or 2). */
int tui_main(op_opts *o);

#endif
