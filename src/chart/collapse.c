/* chart/collapse.c — the collapse chart: uᵀ(G+τI)u along each class's direction (gs_chart.h). */
#include "chart_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ch_build_collapse(ch_chart *c, const co_result *co)
{
    ch_chart_init(c, "Collapse");
    if (!co || co->n < 1) return gs_error(GS_EINPUT, "collapse chart: no class seen");
    const char *names[2] = {co->ref, co->aug};
    const double *ys[2] = {co->e_ref, co->e_aug};
    int nser = co->aug[0] ? 2 : 1, nhead = 0;
    for (int k = 0; k < co->n; k++) nhead += co->head[k] != 0;
    /* method names back to the lower-case keys the styles use ("GACL" -> "gacl") */
    for (int i = 0; i < nser; i++) {
        char key[32];
        size_t j = 0;
        for (; names[i][j] && j + 1 < sizeof key; j++) key[j] = (char)tolower((unsigned char)names[i][j]);
        key[j] = 0;
        int slot = !strcmp(key, "gacl") ? 0 : !strcmp(key, "gsr") ? 1 : i;
        ch_series *s = ch_add_series(c, co->n, key, slot, i, 0, CH_KIND_NONE, "");
        if (!s) { ch_free(c); return GS_ENOMEM; }
        for (int k = 0; k < co->n; k++) {
            s->x[k] = k + 1;
            s->y[k] = isfinite(ys[i][k]) && ys[i][k] > 0 ? ys[i][k] : NAN;
        }
    }
    /* the ridge floor τ: what a direction no row reaches keeps */
    if (co->tau > 0) {
        ch_series *s = ch_add_series(c, 2, "tau", 2, -1, 0, CH_KIND_NONE, "");
        if (!s) { ch_free(c); return GS_ENOMEM; }
        s->x[0] = 0.5;
        s->x[1] = co->n + 0.5;
        s->y[0] = s->y[1] = co->tau;
        s->rgb = 0x7f7f7f;
        s->dash = CH_DASH_DOTTED;
        s->marker = CH_MARK_NONE;
        s->letter = 0;
        s->width_pt = 0.8;
        snprintf(s->name, sizeof s->name, "\u03c4 = %.3g (ridge floor)", co->tau);
        snprintf(s->method_name, sizeof s->method_name, "\u03c4");
    }
    ch_class_axis(c, co->n, nhead);
    ch_axis_auto_y(c, 1);
    if (c->y.scale != CH_LOG10) {
        double lo = c->y.lo > 0 ? c->y.lo : co->tau > 0 ? co->tau : 1, hi = c->y.hi > lo ? c->y.hi : lo * 10;
        ch_axis_log10(&c->y, lo, hi, 8);
    }
    snprintf(c->y.label, sizeof c->y.label, "u\u1d40(G+\u03c4I)u along each class's direction");
    /* the tail's median energy in units of τ, for each method */
    double med[2] = {NAN, NAN};
    int nt = co->n - nhead;
    if (nt > 0 && co->tau > 0) {
        double *v = gs_malloc((size_t)nt, sizeof(double), "collapse chart");
        if (!v) { ch_free(c); return GS_ENOMEM; }
        for (int i = 0; i < nser; i++) {
            int m = 0;
            for (int k = 0; k < co->n; k++)
                if (!co->head[k] && isfinite(ys[i][k])) v[m++] = ys[i][k];
            for (int a = 1; a < m; a++) { /* insertion sort */
                double t = v[a];
                int b = a - 1;
                while (b >= 0 && v[b] > t) { v[b + 1] = v[b]; b--; }
                v[b + 1] = t;
            }
            if (m) med[i] = (m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2])) / co->tau;
        }
        free(v);
        if (nser == 2)
            snprintf(c->note, sizeof c->note, "task %d: tail median %.3g\u03c4 (%s), %.3g\u03c4 (%s)", co->task, med[0],
                     co->ref, med[1], co->aug);
        else snprintf(c->note, sizeof c->note, "task %d: tail median %.3g\u03c4", co->task, med[0]);
    } else snprintf(c->note, sizeof c->note, "task %d: no tail class seen", co->task);
    return GS_OK;
}
