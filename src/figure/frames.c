/* figure/frames.c — the frames of a figure: its charts at each task 1..K, the tasks after a
 * frame's own hidden or faded, the axes made the same in every frame (fig_int.h). */
#include "fig_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Frame `task` of T: a chart over tasks shows the later tasks hidden (their points become gaps,
 * no dotted line: the curves end at the task) or faded, and its note starts "task k/T". */
static void apply_future(ch_chart *c, int mode, int task, int T)
{
    if (!c->task_x || task >= T) return;
    if (mode == FIG_FUTURE_HIDE) {
        ch_hide_after(c, task);
        c->mark_x = NAN;
    } else if (mode == FIG_FUTURE_FADE) {
        c->fade_after_mark = 1;
        c->mark_x = task;
    } else {
        return;
    }
    char was[sizeof c->note];
    memcpy(was, c->note, sizeof was);
    snprintf(c->note, sizeof c->note, "task %d/%d%s%.90s", task, T, was[0] ? "; " : "", was);
}

static void charts_future(charts *cs, int mode, int task, int T)
{
    if (cs->have_acc) apply_future(&cs->acc, mode, task, T);
    if (cs->have_spec) apply_future(&cs->spec, mode, task, T);
    if (cs->have_sr) apply_future(&cs->sr, mode, task, T);
    for (int i = 0; i < cs->nex; i++) apply_future(&cs->ex[i], mode, task, T);
}

/* One axis over every frame: the union of their ranges, ticked again (a chart at a task, e.g.
 * the spectrum, would otherwise rescale from frame to frame). */
static void unify_axis(ch_axis **ax, int n)
{
    double lo = INFINITY, hi = -INFINITY, plo = INFINITY;
    int same = 1, logs = 0;
    for (int k = 0; k < n; k++) {
        same &= ax[k]->lo == ax[0]->lo && ax[k]->hi == ax[0]->hi && ax[k]->scale == ax[0]->scale;
        lo = fmin(lo, ax[k]->lo);
        hi = fmax(hi, ax[k]->hi);
        if (ax[k]->lo > 0) plo = fmin(plo, ax[k]->lo);
        logs |= ax[k]->scale == CH_LOG10;
    }
    if (same || !(lo <= hi)) return;
    ch_axis u = *ax[0];
    if (logs && u.shift != 0) ch_axis_log10_shift(&u, lo, hi, u.shift, 8);
    else if (logs) ch_axis_log10(&u, plo, hi, 8);
    else if (u.integer) {
        ch_axis_integer(&u, ceil(lo), floor(hi), 8, 0);
        u.lo = lo;
        u.hi = hi;
    } else ch_axis_linear(&u, lo, hi, 6, 1);
    memcpy(u.label, ax[0]->label, sizeof u.label);
    for (int k = 0; k < n; k++) *ax[k] = u;
}

static ch_chart *slot_chart(charts *cs, int slot)
{
    switch (slot) {
    case 0: return cs->have_acc ? &cs->acc : NULL;
    case 1: return cs->have_spec ? &cs->spec : NULL;
    case 2: return cs->have_sr ? &cs->sr : NULL;
    default: return slot - 3 < cs->nex ? &cs->ex[slot - 3] : NULL;
    }
}

static int unify_frames(fig_frame *f, int n)
{
    ch_axis **ax = malloc((size_t)n * sizeof *ax);
    if (!ax) return gs_error(GS_ENOMEM, "figure frames: out of memory");
    for (int slot = 0; slot < 5; slot++) {
        int m = 0;
        for (int k = 0; k < n; k++) m += slot_chart(&f[k].cs, slot) != NULL;
        if (m != n || n < 2) continue;
        for (int k = 0; k < n; k++) ax[k] = &slot_chart(&f[k].cs, slot)->x;
        unify_axis(ax, n);
        for (int k = 0; k < n; k++) ax[k] = &slot_chart(&f[k].cs, slot)->y;
        unify_axis(ax, n);
    }
    free(ax);
    return GS_OK;
}

void fig_frames_free(fig_frame *f, int n)
{
    for (int k = 0; f && k < n; k++) fig_charts_free(&f[k].cs);
    free(f);
}

int fig_frames_build(const fig_request *req, const fig_kind *fig, int task, fig_frame **out, int *n)
{
    int T = req->r->T, first = req->frames ? 1 : task, st = GS_OK;
    int mode = req->future ? req->future : req->frames ? FIG_FUTURE_HIDE : FIG_FUTURE_SHOW;
    int count = task - first + 1;
    fig_frame *f = calloc((size_t)count, sizeof *f);
    *out = NULL;
    *n = 0;
    if (!f) return gs_error(GS_ENOMEM, "figure frames: out of memory");
    for (int k = 0; k < count && st == GS_OK; k++) {
        f[k].task = first + k;
        if ((st = fig_charts_build(&f[k].cs, req, fig, f[k].task)) != GS_OK) break;
        *n = k + 1;
        charts_future(&f[k].cs, mode, f[k].task, T);
        fig_meta_build(&f[k].md, req, fig->name, f[k].task);
    }
    if (st == GS_OK && req->frames) st = unify_frames(f, count);
    if (st != GS_OK) {
        fig_frames_free(f, *n);
        *n = 0;
        return st;
    }
    *out = f;
    return GS_OK;
}

int fig_frame_path(const char *path, int k, int n, char *out, size_t size)
{
    if (n <= 1) return snprintf(out, size, "%s", path) < (int)size ? GS_OK : gs_error(GS_EINPUT, "%s: path too long", path);
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    size_t base = dot ? (size_t)(dot - path) : strlen(path);
    int digits = n >= 100 ? (n >= 1000 ? 4 : 3) : 2;
    int w = snprintf(out, size, "%.*s-%0*d%s", (int)base, path, digits, k, dot ? dot : "");
    return w >= 0 && w < (int)size ? GS_OK : gs_error(GS_EINPUT, "%s: path too long", path);
}
