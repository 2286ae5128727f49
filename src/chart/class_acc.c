/* chart/class_acc.c — per-class accuracy with the classes sorted by training rows (gs_chart.h). */
#include "chart_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int ch_class_order(const en_results *r, int task, int *out)
{
    if (!r || !r->class_task || !r->class_kept) return 0;
    int n = 0;
    for (int k = 0; k < r->C; k++)
        if (r->class_task[k] >= 0 && r->class_task[k] < task) out[n++] = k;
    /* insertion sort: stable, no global state (the TUI draws while the worker builds figures) */
    for (int i = 1; i < n; i++) {
        int v = out[i], j = i - 1;
        while (j >= 0 && (r->class_kept[out[j]] < r->class_kept[v] ||
                          (r->class_kept[out[j]] == r->class_kept[v] && out[j] > v))) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = v;
    }
    return n;
}

int ch_build_class_acc(ch_chart *c, const en_results *r, int m0, int m1, int task)
{
    ch_chart_init(c, "Per-class accuracy");
    if (!r || r->T < 1) return gs_error(GS_EINPUT, "per-class accuracy chart: no results");
    task = ch_clamp_task(r, task);
    int *ord = gs_malloc(r->C > 0 ? (size_t)r->C : 1, sizeof(int), "per-class chart");
    if (!ord) return GS_ENOMEM;
    int n = ch_class_order(r, task, ord);
    int ms[2], nm = ch_collect_methods(r, m0, m1, ms), sl[2];
    ch_style_slots(r, ms, nm, sl);
    int pending = 0;
    for (int i = 0; i < nm; i++) {
        const en_snap *sn = &r->m[ms[i]].snaps[task - 1];
        ch_series *s = ch_add_series(c, n, r->m[ms[i]].name, sl[i], ms[i], 0, CH_KIND_NONE, "");
        if (!s) { free(ord); ch_free(c); return GS_ENOMEM; }
        if (sn->state != EN_DONE || !sn->class_acc) pending = 1;
        for (int k = 0; k < n; k++) {
            s->x[k] = k + 1;
            double v = sn->state == EN_DONE && sn->class_acc ? sn->class_acc[ord[k]] : NAN;
            s->y[k] = isfinite(v) ? v : NAN;
        }
    }
    int nhead = 0;
    for (int k = 0; k < n; k++) nhead += r->is_head && r->is_head[ord[k]];
    ch_class_axis(c, n, nhead);
    ch_axis_linear(&c->y, 0, 100, 6, 1);
    snprintf(c->y.label, sizeof c->y.label, "accuracy (%%)");
    if (pending) snprintf(c->note, sizeof c->note, "task %d pending", task);
    else snprintf(c->note, sizeof c->note, "task %d: %d head, %d tail classes", task, nhead, n - nhead);
    free(ord);
    return GS_OK;
}
