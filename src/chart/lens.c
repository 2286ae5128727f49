/* chart/lens.c — the ridge lens charts: the filter factors λᵢ/(λᵢ+τ) per eigen-direction, and
 * each class's share of its direction above τ (gs_chart.h). */
#include "chart_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int lens_slot(const char *key, int i) { return !strcmp(key, "gacl") ? 0 : !strcmp(key, "gsr") ? 1 : 2 + i; }

/* A dotted grey horizontal line at y from x0 to x1, named `name` (what it marks). */
static int hline(ch_chart *c, double x0, double x1, double y, const char *name, const char *short_name)
{
    ch_series *s = ch_add_series(c, 2, "tau", 2, -1, 0, CH_KIND_NONE, "");
    if (!s) return GS_ENOMEM;
    s->x[0] = x0;
    s->x[1] = x1;
    s->y[0] = s->y[1] = y;
    s->rgb = 0x7f7f7f;
    s->dash = CH_DASH_DOTTED;
    s->marker = CH_MARK_NONE;
    s->letter = 0;
    s->width_pt = 0.8;
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->method_name, sizeof s->method_name, "%s", short_name);
    return GS_OK;
}

int ch_build_lens_filter(ch_chart *c, const rl_result *l)
{
    ch_chart_init(c, "Ridge lens: filter factors");
    if (!l || l->n < 1 || l->D < 1) return gs_error(GS_EINPUT, "ridge lens chart: nothing computed");
    long D = l->D;
    for (int i = 0; i < l->n; i++) {
        ch_series *s = ch_add_series(c, (int)D, l->key[i], lens_slot(l->key[i], i), l->method[i], 0, CH_KIND_NONE, "");
        if (!s) { ch_free(c); return GS_ENOMEM; }
        for (long k = 0; k < D; k++) {
            s->x[k] = (double)(k + 1);
            s->y[k] = l->phi[i][k];
        }
        s->marker = CH_MARK_NONE;
    }
    if (hline(c, 1, (double)(D > 1 ? D : 2), 0.5, "\u03bb = \u03c4", "\u03bb=\u03c4") != GS_OK) {
        ch_free(c);
        return GS_ENOMEM;
    }
    ch_axis_log10(&c->x, 1, (double)(D > 1 ? D : 2), 6);
    snprintf(c->x.label, sizeof c->x.label, "eigen-direction i of G (largest first)");
    ch_axis_linear(&c->y, 0, 1, 3, 1);
    snprintf(c->y.label, sizeof c->y.label, "\u03bb\u1d62/(\u03bb\u1d62+\u03c4)");
    c->mark_x = NAN;
    int len = snprintf(c->note, sizeof c->note, "task %d: df(\u03c4)", l->task);
    for (int i = 0; i < l->n && len > 0 && len < (int)sizeof c->note; i++) {
        char nm[32];
        ch_display_name(l->key[i], nm, sizeof nm);
        len += snprintf(c->note + len, sizeof c->note - (size_t)len, "%s %s %.1f", i ? "," : "", nm, l->df[i]);
    }
    return GS_OK;
}

int ch_build_lens_classes(ch_chart *c, const rl_result *l)
{
    ch_chart_init(c, "Ridge lens: class directions above \u03c4");
    if (!l || l->n < 1 || l->ncls < 1) return gs_error(GS_EINPUT, "ridge lens chart: no class seen");
    int n = l->ncls, nhead = 0;
    for (int k = 0; k < n; k++) nhead += l->head[k] != 0;
    for (int i = 0; i < l->n; i++) {
        ch_series *s = ch_add_series(c, n, l->key[i], lens_slot(l->key[i], i), l->method[i], 0, CH_KIND_NONE, "");
        if (!s) { ch_free(c); return GS_ENOMEM; }
        for (int k = 0; k < n; k++) {
            s->x[k] = k + 1;
            s->y[k] = l->above[i][k];
        }
    }
    ch_class_axis(c, n, nhead);
    ch_axis_linear(&c->y, 0, 1, 3, 1);
    snprintf(c->y.label, sizeof c->y.label, "share above \u03c4");
    if (nhead < n) {
        int len = snprintf(c->note, sizeof c->note, "task %d: tail median", l->task);
        for (int i = 0; i < l->n && len > 0 && len < (int)sizeof c->note; i++) {
            char nm[32];
            ch_display_name(l->key[i], nm, sizeof nm);
            len += snprintf(c->note + len, sizeof c->note - (size_t)len, "%s %s %.2f", i ? "," : "", nm, l->tail_above[i]);
        }
    } else snprintf(c->note, sizeof c->note, "task %d: no tail class seen", l->task);
    return GS_OK;
}
