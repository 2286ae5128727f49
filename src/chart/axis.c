/* chart/axis.c — numbers and axes: shortest round-trip text of a double, linear, integer and
 * log ticks with their labels, the fraction of an axis a value sits at, y ranges fitted to the series
 * (gs_chart.h). */
#include "chart_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- numbers ---------------------------------------------------------------------------- */

const char *ch_fmt_double(double v, char *buf, size_t n)
{
    if (isnan(v)) { snprintf(buf, n, "nan"); return buf; }
    if (isinf(v)) { snprintf(buf, n, v > 0 ? "inf" : "-inf"); return buf; }
    snprintf(buf, n, "%.15g", v);
    if (strtod(buf, NULL) != v) snprintf(buf, n, "%.17g", v);
    return buf;
}

/* ---- ticks ------------------------------------------------------------------------------ */

/* Heckbert's nice number: 1, 2, 5 × 10^k (rounded or ceiling). */
static double nicenum(double x, int round_it)
{
    double e = floor(log10(x));
    double p = pow(10.0, e);
    double f = x / p, nf;
    if (round_it) nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
    else nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return nf * p;
}

/* The next nice step above `step` (1 -> 2 -> 5 -> 10). */
static double next_nice(double step)
{
    double e = floor(log10(step) + 1e-9);
    double p = pow(10.0, e);
    double f = step / p;
    if (f < 1.5) return 2 * p;
    if (f < 3.5) return 5 * p;
    return 10 * p;
}

static void label_linear(ch_axis *ax, double step)
{
    double mx = 0;
    for (int i = 0; i < ax->nticks; i++) mx = fmax(mx, fabs(ax->ticks[i]));
    int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    int sci = mx >= 1e6 || (mx > 0 && mx < 1e-4);
    int sig = mx > 0 ? (int)floor(log10(mx) + 1e-9) - (int)floor(log10(step) + 1e-9) + 1 : 1;
    if (sig < 1) sig = 1;
    if (sig > 9) sig = 9;
    for (int i = 0; i < ax->nticks; i++) {
        char *s = ax->tick_labels[i];
        size_t n = sizeof ax->tick_labels[i];
        if (sci) snprintf(s, n, "%.*g", sig, ax->ticks[i]);
        else snprintf(s, n, "%.*f", dec, ax->ticks[i]);
        /* never print a negative zero ("-0", "-0.00") */
        if (s[0] == '-' && strspn(s + 1, "0.") == strlen(s + 1)) memmove(s, s + 1, strlen(s));
    }
}

/* Ticks k·step inside [lo, hi]. */
static int count_ticks(double lo, double hi, double step)
{
    double a = ceil(lo / step - 1e-9), b = floor(hi / step + 1e-9);
    return b >= a ? (int)(b - a) + 1 : 0;
}

static void fill_linear(ch_axis *ax, double step)
{
    double a = ceil(ax->lo / step - 1e-9), b = floor(ax->hi / step + 1e-9);
    ax->nticks = 0;
    for (double k = a; k <= b && ax->nticks < CH_MAX_TICKS; k += 1) {
        double v = k * step;
        if (fabs(v) < step * 1e-9) v = 0;
        ax->ticks[ax->nticks++] = v;
    }
    label_linear(ax, step);
}

/* At least 3: a snapped range that straddles zero needs three ticks. */
static int clamp_maxn(int maxn)
{
    if (maxn < 3) return 3;
    if (maxn > CH_MAX_TICKS) return CH_MAX_TICKS;
    return maxn;
}

static void sane_range(double *lo, double *hi)
{
    if (!isfinite(*lo) && !isfinite(*hi)) { *lo = 0; *hi = 1; }
    else if (!isfinite(*lo)) *lo = *hi - 1;
    else if (!isfinite(*hi)) *hi = *lo + 1;
    if (*lo > *hi) { double t = *lo; *lo = *hi; *hi = t; }
    if (*hi - *lo <= 1e-12 * fmax(fabs(*lo), fabs(*hi))) {
        double d = *lo != 0 ? fabs(*lo) * 0.1 : 1;
        *lo -= d; *hi += d;
    }
}

static void linear_ticks(ch_axis *ax, double lo, double hi, int maxn, int snap)
{
    maxn = clamp_maxn(maxn);
    sane_range(&lo, &hi);
    double step = nicenum(nicenum(hi - lo, 0) / (maxn - 1), 1);
    if (ax->integer && step < 1) step = 1;
    for (int guard = 0; guard < 64; guard++) {
        double glo = snap ? floor(lo / step + 1e-9) * step : lo;
        double ghi = snap ? ceil(hi / step - 1e-9) * step : hi;
        if (count_ticks(glo, ghi, step) <= maxn) break;
        step = next_nice(step);
    }
    if (!snap) {
        /* without snapping, a coarse step may leave fewer than two ticks inside: refine */
        for (int guard = 0; guard < 64 && count_ticks(lo, hi, step) < 2; guard++) {
            double e = floor(log10(step) + 1e-9), p = pow(10.0, e), f = step / p;
            double finer = f < 1.5 ? 0.5 * p : f < 3.5 ? p : 2 * p;
            if ((ax->integer && finer < 1) || count_ticks(lo, hi, finer) > maxn) break;
            step = finer;
        }
    }
    if (snap) {
        ax->lo = floor(lo / step + 1e-9) * step;
        ax->hi = ceil(hi / step - 1e-9) * step;
    } else {
        ax->lo = lo;
        ax->hi = hi;
    }
    fill_linear(ax, step);
}

void ch_axis_linear(ch_axis *ax, double lo, double hi, int maxn, int snap)
{
    ax->shift = 0;
    ax->scale = CH_LINEAR;
    ax->minor = 0;
    ax->integer = 0;
    linear_ticks(ax, lo, hi, maxn, snap);
}

void ch_axis_integer(ch_axis *ax, double lo, double hi, int maxn, int snap)
{
    ax->shift = 0;
    ax->scale = CH_LINEAR;
    ax->minor = 0;
    ax->integer = 1;
    linear_ticks(ax, lo, hi, maxn, snap);
}

/* The label of tick shift + 10^k of a shifted log axis, as a value: "1.001", "2", "11" (far
 * decades as "1+1e-9"). */
static void shifted_label(char *s, size_t n, double shift, int k)
{
    char t[64];
    if (k >= -6 && k <= 5) snprintf(t, sizeof t, "%.12g", shift + pow(10.0, k));
    else snprintf(t, sizeof t, "%g+1e%d", shift, k);
    snprintf(s, n, "%.15s", t);
}

static void log_ticks(ch_axis *ax, int kmin, int kmax, int maxn)
{
    maxn = clamp_maxn(maxn);
    int stride = 1;
    for (;; stride++) {
        int a = (int)ceil((double)kmin / stride), b = (int)floor((double)kmax / stride);
        if (b - a + 1 <= maxn) break;
    }
    ax->nticks = 0;
    for (int k = kmin; k <= kmax && ax->nticks < CH_MAX_TICKS; k++) {
        if (((k % stride) + stride) % stride) continue;
        ax->ticks[ax->nticks] = ax->shift + pow(10.0, k);
        char *s = ax->tick_labels[ax->nticks];
        if (ax->shift != 0) shifted_label(s, sizeof ax->tick_labels[0], ax->shift, k);
        else if (k >= -2 && k <= 3) snprintf(s, sizeof ax->tick_labels[0], "%g", pow(10.0, k));
        else snprintf(s, sizeof ax->tick_labels[0], "1e%d", k);
        ax->nticks++;
    }
    ax->minor = ax->shift == 0 && stride == 1 && kmax - kmin <= 10;
}

/* Decades of [lo, hi] (values of v − shift), ticked. */
static void log_axis(ch_axis *ax, double lo, double hi, int maxn)
{
    if (!(hi > 0) || !isfinite(hi)) { lo = 1; hi = 10; }
    if (!(lo > 0) || !isfinite(lo)) lo = hi * 1e-6;
    if (lo > hi) { double t = lo; lo = hi; hi = t; }
    int kmin = (int)floor(log10(lo) + 1e-9);
    int kmax = (int)ceil(log10(hi) - 1e-9);
    if (kmax <= kmin) kmax = kmin + 1;
    ax->lo = ax->shift + pow(10.0, kmin);
    ax->hi = ax->shift + pow(10.0, kmax);
    log_ticks(ax, kmin, kmax, maxn);
}

void ch_axis_log10(ch_axis *ax, double lo, double hi, int maxn)
{
    ax->scale = CH_LOG10;
    ax->integer = 0;
    ax->shift = 0;
    log_axis(ax, lo, hi, maxn);
}

void ch_axis_log10_shift(ch_axis *ax, double lo, double hi, double shift, int maxn)
{
    ax->scale = CH_LOG10;
    ax->integer = 0;
    ax->shift = shift;
    log_axis(ax, lo - shift, hi - shift, maxn);
}

void ch_axis_retick(ch_axis *ax, int maxn)
{
    if (ax->scale == CH_LOG10) {
        double l = ax->lo - ax->shift, h = ax->hi - ax->shift;
        if (!(l > 0) || !(h > l)) { log_axis(ax, l, h, maxn); return; }
        int kmin = (int)ceil(log10(l) - 1e-9), kmax = (int)floor(log10(h) + 1e-9);
        if (kmax < kmin) kmax = kmin;
        log_ticks(ax, kmin, kmax, maxn);
        return;
    }
    linear_ticks(ax, ax->lo, ax->hi, maxn, 0);
}

double ch_axis_frac(const ch_axis *ax, double v)
{
    if (isnan(v)) return NAN;
    if (ax->scale == CH_LOG10) {
        double u = v - ax->shift, l = ax->lo - ax->shift, h = ax->hi - ax->shift;
        if (!(u > 0) || !(l > 0) || !(h > 0)) return NAN;
        double a = log10(l), b = log10(h);
        return b != a ? (log10(u) - a) / (b - a) : 0.5;
    }
    return ax->hi != ax->lo ? (v - ax->lo) / (ax->hi - ax->lo) : 0.5;
}

void ch_axis_auto_y(ch_chart *c, int allow_log)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < c->nseries; i++)
        for (int k = 0; k < c->series[i].n; k++) {
            double v = c->series[i].y[k];
            if (isfinite(v)) { lo = fmin(lo, v); hi = fmax(hi, v); }
        }
    if (lo > hi) ch_axis_linear(&c->y, 0, 1, 6, 1);
    /* near 1 with a value far above (the stable rank: 625.5 at the first task, 1.075 and 1.006
     * later): a log axis of v − 1 keeps the values near 1 apart */
    else if (allow_log && c->y_near_one && lo > 1 && lo < 2 && (hi - 1) / (lo - 1) > 20)
        ch_axis_log10_shift(&c->y, lo, hi, 1, 8);
    else if (allow_log && lo > 0 && hi / lo > 10) ch_axis_log10(&c->y, lo, hi, 8);
    else ch_axis_linear(&c->y, lo, hi, 6, 1);
    if (!c->y_near_one) return;
    size_t n = strlen(c->y.label), k = strlen(CH_NEAR_ONE_LABEL);
    int has = n >= k && strcmp(c->y.label + n - k, CH_NEAR_ONE_LABEL) == 0;
    if (has && c->y.shift == 0) c->y.label[n - k] = '\0';
    else if (!has && c->y.shift != 0 && n + k < sizeof c->y.label) memcpy(c->y.label + n, CH_NEAR_ONE_LABEL, k + 1);
}
