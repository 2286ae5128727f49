/* tui/tui_preset.c — which presets the TUI's P cycles through: those that apply to the data and
 * the protocol the TUI runs on (tui_int.h). Pure: no curses. */
#include <string.h>

#include "gs_common.h"
#include "gs_preset.h"
#include "tui_int.h"

int tui_preset_applies(const ps_preset *p, const op_opts *o, op_opts *out)
{
    op_opts tmp = *o;
    if (!p || ps_apply(p, &tmp) != GS_OK) return 0;
    /* the stream and the data are fixed once the TUI runs: a preset that changes them is for
     * the command line (--preset) */
    if (memcmp(&tmp.proto, &o->proto, sizeof tmp.proto) || tmp.data.expand != o->data.expand ||
        tmp.data.projection != o->data.projection)
        return 0;
    if (out) *out = tmp;
    return 1;
}

int tui_preset_next(int cur, const op_opts *o, op_opts *out)
{
    int n = ps_count();
    for (int k = 1; k <= n; k++) {
        int i = ((cur < 0 ? -1 : cur) + k) % n;
        if (i < 0) i += n;
        if (tui_preset_applies(ps_get(i), o, out)) return i;
    }
    return -1;
}
