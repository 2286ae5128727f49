/* tui/tui_params.c — the five tunable parameters: names, steps, ranges, formatting (gs_tui.h).
 * Pure; no curses. */
#include "gs_tui.h"

#include <math.h>
#include <stdio.h>

static const char *LABEL[TP_COUNT] = {"α_base", "ξ", "β", "τ", "seed"};
static const char *NAME[TP_COUNT] = {"alpha_base", "xi", "beta", "tau", "seed"};

const char *tui_param_label(tui_param p) { return (p >= 0 && p < TP_COUNT) ? LABEL[p] : "?"; }
const char *tui_param_name(tui_param p) { return (p >= 0 && p < TP_COUNT) ? NAME[p] : "?"; }

double tui_param_get(const op_params *p, tui_param which)
{
    switch (which) {
    case TP_ALPHA: return p->alpha_base;
    case TP_XI: return p->xi;
    case TP_BETA: return p->beta;
    case TP_TAU: return p->tau;
    case TP_SEED: return (double)p->seed;
    default: return NAN;
    }
}

/* 10^(1/4) */
#define LOG_STEP 1.7782794100389228

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Multiplicative step on [0, hi]: from 0 up goes to `smallest`; below `smallest` down goes to 0. */
static double log_step(double v, int dir, double smallest, double hi)
{
    if (dir > 0) return v <= 0 ? smallest : clampd(v * LOG_STEP, 0, hi);
    double nv = v / LOG_STEP;
    return nv < smallest * 0.999 ? 0 : nv;
}

int tui_param_step(op_params *p, tui_param which, int dir)
{
    double old = tui_param_get(p, which);
    switch (which) {
    case TP_ALPHA: {
        /* additive; snap to the 0.05 grid so repeated steps stay round */
        double v = round(p->alpha_base / 0.05) * 0.05 + (dir > 0 ? 0.05 : -0.05);
        if (v < 0.05 - 1e-12) v = 0.05;
        p->alpha_base = clampd(round(v * 1e6) / 1e6, 0.05, 1.0);
        break;
    }
    case TP_BETA: {
        double v = round(p->beta / 0.1) * 0.1 + (dir > 0 ? 0.1 : -0.1);
        p->beta = clampd(round(v * 1e6) / 1e6, 0, 100);
        break;
    }
    case TP_XI: p->xi = log_step(p->xi, dir, 1e-5, 1.0); break;
    case TP_TAU: p->tau = log_step(p->tau, dir, 1e-6, 1e6); break;
    case TP_SEED:
        if (dir > 0) p->seed++;
        else if (p->seed > 1) p->seed--;
        break;
    default: return 0;
    }
    return tui_param_get(p, which) != old;
}

void tui_param_format(tui_param which, double v, char *buf, int n)
{
    if (!isfinite(v)) { snprintf(buf, (size_t)n, "—"); return; }
    switch (which) {
    case TP_SEED: snprintf(buf, (size_t)n, "%.0f", v); break;
    case TP_ALPHA: case TP_BETA: snprintf(buf, (size_t)n, "%.4g", v); break;
    default:
        if (v == 0) snprintf(buf, (size_t)n, "0");
        else if (fabs(v) >= 1e-3 && fabs(v) < 1e4) snprintf(buf, (size_t)n, "%.4g", v);
        else snprintf(buf, (size_t)n, "%.3g", v);
        break;
    }
}
