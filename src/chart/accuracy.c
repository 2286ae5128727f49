/* chart/accuracy.c — the accuracy chart: overall, head and tail accuracy per task (gs_chart.h). */
#include "chart_int.h"

#include <math.h>
#include <stdio.h>

int ch_build_accuracy(ch_chart *c, const en_results *r, const en_results *baseline, int m0, int m1,
                      int task)
{
    ch_chart_init(c, "Accuracy");
    if (!r || r->T < 1) return gs_error(GS_EINPUT, "accuracy chart: no results");
    static const ch_kind kinds[3] = {CH_KIND_OVERALL, CH_KIND_HEAD, CH_KIND_TAIL};
    static const char *kname[3] = {"overall", "head", "tail"};
    int ms[2], nm = ch_collect_methods(r, m0, m1, ms), sl[2];
    ch_style_slots(r, ms, nm, sl);
    ch_task_axis(c, r->T);
    ch_axis_linear(&c->y, 0, 100, 6, 1);
    snprintf(c->y.label, sizeof c->y.label, "accuracy (%%)");
    c->mark_x = ch_clamp_task(r, task);
    int st;
    /* Ghosts first, so the live curves are drawn on top of them. */
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < nm; i++) {
            int bm = ch_baseline_method(r, ms[i], baseline);
            if (bm >= 0 && baseline->T == r->T &&
                (st = ch_add_task_series(c, baseline, bm, sl[i], 1, kinds[k], kname[k])) != GS_OK) {
                ch_free(c);
                return st;
            }
        }
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < nm; i++)
            if ((st = ch_add_task_series(c, r, ms[i], sl[i], 0, kinds[k], kname[k])) != GS_OK) {
                ch_free(c);
                return st;
            }
    ch_pending_note(c, r, ms, nm);
    return GS_OK;
}
