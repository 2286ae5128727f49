/* tui/tui_params.c — the parameters panel: the rows of the parameter table (gs_params.h) that
 * have a TUI label, in table order; their steps, ranges and formatting come from the row
 * (gs_tui.h). Pure; no curses. */
#include "gs_tui.h"
#include "gs_engine.h"
#include "gs_mtable.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int tui_param_count(void)
{
    int n = 0;
    for (int i = 0; i < pa_count(); i++) n += pa_table()[i].label != NULL;
    return n;
}

const pa_param *tui_param_row(tui_param p)
{
    for (int i = 0, k = 0; i < pa_count(); i++)
        if (pa_table()[i].label && k++ == p) return &pa_table()[i];
    return NULL;
}

tui_param tui_param_find(const char *name)
{
    const pa_param *r = pa_find(name);
    for (int p = 0, n = tui_param_count(); r && p < n; p++)
        if (tui_param_row(p) == r) return p;
    return -1;
}

const char *tui_param_label(tui_param p) { const pa_param *r = tui_param_row(p); return r ? r->label : "?"; }
const char *tui_param_name(tui_param p) { const pa_param *r = tui_param_row(p); return r ? r->name : "?"; }

double tui_param_get(const op_params *p, tui_param which)
{
    const pa_param *r = tui_param_row(which);
    return r ? pa_get_params(p, r) : NAN;
}

int tui_param_step(op_params *p, tui_param which, int dir)
{
    const pa_param *r = tui_param_row(which);
    if (!r || pa_params_off(r) < 0) return 0;
    double old = pa_get_params(p, r);
    pa_put_params(p, r, pa_step(r, old, dir));
    return pa_get_params(p, r) != old;
}

void tui_param_format(tui_param which, double v, char *buf, int n)
{
    const pa_param *r = tui_param_row(which);
    if (!isfinite(v) || !r) { snprintf(buf, (size_t)n, "—"); return; }
    if (r->kind != PA_DBL) snprintf(buf, (size_t)n, "%.0f", v);
    else if (r->scale == PA_STEP_ADD) snprintf(buf, (size_t)n, "%.4g", v);
    else if (v == 0) snprintf(buf, (size_t)n, "0");
    else if (fabs(v) >= 1e-3 && fabs(v) < 1e4) snprintf(buf, (size_t)n, "%.4g", v);
    else snprintf(buf, (size_t)n, "%.3g", v);
}

int tui_param_ratio(tui_param p)
{
    const pa_param *r = tui_param_row(p);
    return r && r->scale == PA_STEP_125;
}

int tui_param_acts(tui_param p, const char *const *methods, int n)
{
    const pa_param *r = tui_param_row(p);
    if (!r || !r->dep) return 1;
    for (int m = 0; m < n; m++)
        if (mt_uses(methods[m], r->name)) return 1;
    return 0;
}
