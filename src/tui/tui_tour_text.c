/* tui/tui_tour_text.c — a tour step's text with its placeholders filled from the run the screen
 * shows at that step: numbers as the panels print them, and the words a rule picks from those
 * printed numbers, so that a step cannot say what the screen does not (tui_int.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_chart.h"
#include "gs_common.h"
#include "tui_int.h"

/* A change of at least this many points is a fall or a rise ({tailstory}); less is "stays". */
#define TOUR_MOVE_POINTS 5.0

typedef struct {
    const tui_view *v;
    int ref, aug;               /* the shown pair as tui_ref_aug orders it (aug -1: none) */
} fill_ctx;

static const en_snap *snap_of(const fill_ctx *c, int m, int task)
{
    const en_results *r = c->v->r;
    if (!r || m < 0 || m >= r->n_methods || task < 1 || task > r->T) return NULL;
    return &r->m[m].snaps[task - 1];
}

/* The lens row of method m at the shown task, or -1 (not computed for this task). */
static int lens_row(const fill_ctx *c, int m)
{
    const tui_extra *ex = c->v->ex;
    if (!ex || !ex->have_lens || ex->lens.task != c->v->task) return -1;
    for (int i = 0; i < ex->lens.n; i++)
        if (ex->lens.method[i] == m) return i;
    return -1;
}

/* Quantity q of method m at the shown task as the screen prints it: acc, head, tail (the
 * parameters panel, "%.1f"), sr (its srank column, "%.4g"), df, headabove, tailabove (the ridge
 * lens: "%.1f", "%.2f"). "…" while not computed, "—" where there is none. 1 when q is known. */
static int quantity(const fill_ctx *c, const char *q, int m, char *buf, int n)
{
    snprintf(buf, (size_t)n, "…");
    if (m < 0) return 0;
    if (!strcmp(q, "df") || !strcmp(q, "headabove") || !strcmp(q, "tailabove")) {
        int i = lens_row(c, m);
        if (i < 0) return 0;
        const rl_result *l = &c->v->ex->lens;
        double x = q[0] == 'd' ? l->df[i] : q[0] == 'h' ? l->head_above[i] : l->tail_above[i];
        if (!isfinite(x)) { snprintf(buf, (size_t)n, "—"); return 0; }
        snprintf(buf, (size_t)n, q[0] == 'd' ? "%.1f" : "%.2f", x);
        return 1;
    }
    const en_snap *s = snap_of(c, m, c->v->task);
    if (!s || s->state != EN_DONE) return 0;
    double x = !strcmp(q, "acc") ? s->acc : !strcmp(q, "head") ? s->head_acc : !strcmp(q, "tail") ? s->tail_acc
             : !strcmp(q, "sr") ? s->stable_rank : NAN;
    if (!isfinite(x) || (q[0] == 's' && (s->flags & EN_NO_GRAM))) { snprintf(buf, (size_t)n, "—"); return 0; }
    snprintf(buf, (size_t)n, q[0] == 's' ? "%.4g" : "%.1f", x);
    return 1;
}

/* {cmp:q}: the second method's printed q against the reference's: "higher", "lower" or "the
 * same" (equal as printed); "…" while either is unknown. */
static void compare(const fill_ctx *c, const char *q, char *buf, int n)
{
    char a[32], b[32];
    if (!quantity(c, q, c->aug, a, sizeof a) || !quantity(c, q, c->ref, b, sizeof b)) { snprintf(buf, (size_t)n, "…"); return; }
    double x = strtod(a, NULL), y = strtod(b, NULL);
    snprintf(buf, (size_t)n, "%s", x > y ? "higher" : x < y ? "lower" : "the same");
}

/* {tailstory:X}: X's tail accuracy from its first task with tail classes to the shown task, as
 * the tail chart draws it: "falls from 100.0 % at task 2 to 0.0 % at task 3" when the shown
 * value is at least TOUR_MOVE_POINTS under the first (as printed), "rises from …" when above,
 * else "stays near 30.0 % from task 2 to task 3"; at that first task "is 100.0 % at task 2, its
 * first with tail classes". */
static void tail_story(const fill_ctx *c, int m, char *buf, int n)
{
    snprintf(buf, (size_t)n, "…");
    int t0 = 0, task = c->v->task;
    for (int t = 1; t <= task; t++) {
        const en_snap *s = snap_of(c, m, t);
        if (!s || s->state != EN_DONE) return;
        if (!t0 && isfinite(s->tail_acc)) t0 = t;
    }
    if (!t0) { snprintf(buf, (size_t)n, "has no tail classes yet"); return; }
    char a[32], b[32];
    snprintf(a, sizeof a, "%.1f", snap_of(c, m, t0)->tail_acc);
    snprintf(b, sizeof b, "%.1f", snap_of(c, m, task)->tail_acc);
    double x0 = strtod(a, NULL), x1 = strtod(b, NULL);
    if (t0 == task) snprintf(buf, (size_t)n, "is %s %% at task %d, its first with tail classes", a, t0);
    else if (x1 <= x0 - TOUR_MOVE_POINTS) snprintf(buf, (size_t)n, "falls from %s %% at task %d to %s %% at task %d", a, t0, b, task);
    else if (x1 >= x0 + TOUR_MOVE_POINTS) snprintf(buf, (size_t)n, "rises from %s %% at task %d to %s %% at task %d", a, t0, b, task);
    else snprintf(buf, (size_t)n, "stays near %s %% from task %d to task %d (%s %%)", a, t0, task, b);
}

/* One placeholder's text (key without braces, "name" or "name:X" with X = R or A). 0 when the
 * key is unknown (the braces stay, so a misspelt key shows). */
static int placeholder(const fill_ctx *c, const char *key, char *buf, int n)
{
    char name[32];
    const char *colon = strchr(key, ':');
    size_t L = colon ? (size_t)(colon - key) : strlen(key);
    if (L >= sizeof name) return 0;
    memcpy(name, key, L);
    name[L] = 0;
    const char *arg = colon ? colon + 1 : "";
    int m = !strcmp(arg, "R") ? c->ref : !strcmp(arg, "A") ? c->aug : -2;
    const en_results *r = c->v->r;
    if (!colon && (!strcmp(name, "R") || !strcmp(name, "A"))) {
        int k = name[0] == 'R' ? c->ref : c->aug;
        if (r && k >= 0) ch_display_name(r->m[k].name, buf, (size_t)n);
        else snprintf(buf, (size_t)n, "…");
        return 1;
    }
    if (!colon && !strcmp(name, "task")) { snprintf(buf, (size_t)n, "%d", c->v->task); return 1; }
    if (!strcmp(name, "cmp")) {
        compare(c, arg, buf, n);
        return 1;
    }
    if (m == -2) return 0;
    if (!strcmp(name, "tailstory")) { tail_story(c, m, buf, n); return 1; }
    static const char *const q[] = {"acc", "head", "tail", "sr", "df", "headabove", "tailabove"};
    for (size_t i = 0; i < sizeof q / sizeof *q; i++)
        if (!strcmp(name, q[i])) { quantity(c, name, m, buf, n); return 1; }
    return 0;
}

void tui_tour_fill(const tui_view *v, const char *text, char *out, int n)
{
    fill_ctx c = {v, -1, -1};
    if (v->r) tui_ref_aug(v->r, v->m0, v->m1, &c.ref, &c.aug);
    int o = 0;
    out[0] = 0;
    for (const char *p = text; *p && o < n - 1;) {
        const char *e = *p == '{' ? strchr(p, '}') : NULL;
        char key[48], val[160];
        if (e && e - p - 1 < (long)sizeof key) {
            memcpy(key, p + 1, (size_t)(e - p - 1));
            key[e - p - 1] = 0;
            if (placeholder(&c, key, val, sizeof val)) {
                o += snprintf(out + o, (size_t)(n - o), "%s", val);
                if (o > n - 1) o = n - 1;
                p = e + 1;
                continue;
            }
        }
        out[o++] = *p++;
        out[o] = 0;
    }
}
