/* chart/chart.c — the chart model shared by the TUI and the figure export: a chart and its series,
 * the task axis, notes, the CSV of the numbers behind a chart (gs_chart.h, chart_int.h).
 * No curses, no cairo; the builders are one file per chart (accuracy.c, spectrum.c, ...). */
#include "chart_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- building charts -------------------------------------------------------------------- */

void ch_free(ch_chart *c)
{
    if (!c) return;
    for (int i = 0; i < c->nseries; i++) {
        free(c->series[i].x);
        free(c->series[i].y);
        free(c->series[i].ylo);
        free(c->series[i].yhi);
        free(c->series[i].est);
    }
    memset(c, 0, sizeof *c);
    c->mark_x = NAN;
}

void ch_chart_init(ch_chart *c, const char *title)
{
    memset(c, 0, sizeof *c);
    snprintf(c->title, sizeof c->title, "%s", title);
    c->mark_x = NAN;
}

int ch_valid_method(const en_results *r, int m)
{
    return r && m >= 0 && m < r->n_methods && r->m && r->m[m].snaps;
}

/* The method of `baseline` that corresponds to method m of r (same name, else same index). */
int ch_baseline_method(const en_results *r, int m, const en_results *b)
{
    if (!b || !ch_valid_method(r, m)) return -1;
    for (int i = 0; i < b->n_methods; i++)
        if (b->m && b->m[i].snaps && strcmp(b->m[i].name, r->m[m].name) == 0) return i;
    return -1;
}

/* Two methods in one chart never share a letter: a clash (two unknown names starting alike,
 * LEARNER+AUGMENTER pairs) takes the next of the name's letters, then any free letter. */
static int letter_taken(const ch_chart *c, const ch_series *self, char l, int method)
{
    for (int i = 0; i < c->nseries; i++)
        if (&c->series[i] != self && c->series[i].method != method && c->series[i].letter == l) return 1;
    return 0;
}

static void unique_letter(ch_chart *c, ch_series *s, const char *name, int method)
{
    if (!letter_taken(c, s, s->letter, method)) return;
    for (const char *p = name ? name : ""; *p; p++) {
        char l = (char)toupper((unsigned char)*p);
        if (isalnum((unsigned char)l) && !letter_taken(c, s, l, method)) { s->letter = l; return; }
    }
    for (const char *p = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"; *p; p++)
        if (!letter_taken(c, s, *p, method)) { s->letter = *p; return; }
}

ch_series *ch_add_series(ch_chart *c, int n, const char *method_name, int slot, int method,
                             int ghost, ch_kind kind, const char *suffix)
{
    if (c->nseries >= CH_MAX_SERIES) {
        gs_error(GS_ERUN, "chart %s: too many series (at most %d)", c->title, CH_MAX_SERIES);
        return NULL;
    }
    ch_series *s = &c->series[c->nseries];
    memset(s, 0, sizeof *s);
    s->x = gs_malloc(n > 0 ? (size_t)n : 1, sizeof(double), "chart series");
    s->y = gs_malloc(n > 0 ? (size_t)n : 1, sizeof(double), "chart series");
    if (!s->x || !s->y) {
        free(s->x);
        free(s->y);
        s->x = s->y = NULL;
        return NULL;
    }
    c->nseries++;
    s->n = n;
    ch_display_name(method_name, s->method_name, sizeof s->method_name);
    ch_method_style(method_name, slot, &s->rgb, &s->dash, &s->marker, &s->letter);
    unique_letter(c, s, method_name, method);
    s->method = method;
    s->ghost = ghost;
    s->kind = kind;
    s->width_pt = ghost ? 0.8 : kind == CH_KIND_OVERALL ? 1.5 : kind == CH_KIND_NONE ? 1.25 : 1.0;
    char disp[sizeof s->method_name];
    memcpy(disp, s->method_name, sizeof disp);
    snprintf(s->name, sizeof s->name, "%s%s%s%s", disp, suffix && *suffix ? " " : "",
             suffix ? suffix : "", ghost ? " (pinned)" : "");
    return s;
}

int ch_clamp_task(const en_results *r, int task)
{
    if (task <= 0 || task > r->T) return r->T;
    return task;
}

/* Note "tasks a–b pending" (or "N tasks pending") over the shown methods. */
void ch_pending_note(ch_chart *c, const en_results *r, const int *ms, int nm)
{
    int first = 0, last = 0, count = 0;
    for (int t = 1; t <= r->T; t++) {
        int pend = 0;
        for (int k = 0; k < nm; k++)
            if (r->m[ms[k]].snaps[t - 1].state != EN_DONE) pend = 1;
        if (!pend) continue;
        if (!first) first = t;
        last = t;
        count++;
    }
    if (!count) return;
    if (count == last - first + 1) {
        if (first == last) snprintf(c->note, sizeof c->note, "task %d pending", first);
        else snprintf(c->note, sizeof c->note, "tasks %d\u2013%d pending", first, last);
    } else {
        snprintf(c->note, sizeof c->note, "%d tasks pending", count);
    }
}

void ch_task_axis(ch_chart *c, int T)
{
    c->task_x = 1;
    ch_axis_integer(&c->x, 1, T > 1 ? T : 2, 8, 0);
    c->x.lo = 0.5;
    c->x.hi = (T > 1 ? T : 1) + 0.5;
    snprintf(c->x.label, sizeof c->x.label, "task");
}

void ch_class_axis(ch_chart *c, int n, int nhead)
{
    ch_axis_integer(&c->x, 1, n > 1 ? n : 2, 8, 0);
    c->x.lo = 0.5;
    c->x.hi = (n > 1 ? n : 1) + 0.5;
    snprintf(c->x.label, sizeof c->x.label, "classes by training rows (most first)");
    c->mark_x = nhead > 0 && nhead < n ? nhead + 0.5 : NAN;
}

int ch_hide_after(ch_chart *c, int task)
{
    if (!c->task_x) return 0;
    int n = 0;
    for (int i = 0; i < c->nseries; i++) {
        ch_series *s = &c->series[i];
        for (int k = 0; k < s->n; k++) {
            if (!(s->x[k] > task + 0.5)) continue;
            n += isfinite(s->y[k]) != 0;
            s->y[k] = NAN;
            if (s->ylo) s->ylo[k] = s->yhi[k] = NAN;
        }
    }
    return n;
}

int ch_collect_methods(const en_results *r, int m0, int m1, int *ms)
{
    int nm = 0;
    if (ch_valid_method(r, m0)) ms[nm++] = m0;
    if (m1 != m0 && ch_valid_method(r, m1)) ms[nm++] = m1;
    return nm;
}

double ch_snap_value(const en_snap *s, ch_kind kind)
{
    if (s->state != EN_DONE) return NAN;
    switch (kind) {
    case CH_KIND_OVERALL: return s->acc;
    case CH_KIND_HEAD: return s->head_acc;
    case CH_KIND_TAIL: return s->tail_acc;
    default: return s->stable_rank;
    }
}

int ch_add_task_series(ch_chart *c, const en_results *src, int method, int slot, int ghost,
                           ch_kind kind, const char *suffix)
{
    ch_series *s = ch_add_series(c, src->T, src->m[method].name, slot, method, ghost, kind, suffix);
    if (!s) return GS_ENOMEM;
    for (int t = 0; t < src->T; t++) {
        s->x[t] = t + 1;
        double v = ch_snap_value(&src->m[method].snaps[t], kind);
        s->y[t] = isfinite(v) ? v : NAN;
    }
    return GS_OK;
}

/* Appends "; " (when the note has text) and the text to c's note. */
void ch_note_add(ch_chart *c, const char *text)
{
    size_t len = strlen(c->note);
    snprintf(c->note + len, sizeof c->note - len, "%s%s", len ? "; " : "", text);
}

void ch_note_full(const ch_chart *c, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s", c->note, c->note[0] && c->lacks[0] ? "; " : "", c->lacks);
}

/* The names of ms[0..nm-1] without a Gram matrix (see ch_no_gram_names). */
static int no_gram_names(const en_results *r, const int *ms, int nm, int own, char *buf, size_t n)
{
    char disp[32];
    int k = 0;
    buf[0] = '\0';
    for (int i = 0; i < nm; i++) {
        if (r->m[ms[i]].ridge || (own && r->m[ms[i]].spectrum_of[0])) continue;
        ch_display_name(r->m[ms[i]].name, disp, sizeof disp);
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", k++ ? ", " : "", disp);
    }
    return k;
}

int ch_no_gram_names(const en_results *r, int m0, int m1, int own, char *buf, size_t n, int *nshown)
{
    int ms[2], nm = ch_collect_methods(r, m0, m1, ms);
    if (nshown) *nshown = nm;
    return no_gram_names(r, ms, nm, own, buf, n);
}

/* What the shown methods without a Gram matrix lack (only those with no spectrum of their own
 * when no_spectrum), in a view of G + τI's numbers, into c->lacks: "NCM, SLDA: no Gram matrix"
 * (and what they lack beyond, when `what` is not empty). */
void ch_no_gram_note(ch_chart *c, const en_results *r, const int *ms, int nm, int no_spectrum, const char *what)
{
    char names[64];
    if (!no_gram_names(r, ms, nm, no_spectrum, names, sizeof names)) return;
    snprintf(c->lacks, sizeof c->lacks, "%s: no Gram matrix%s%s", names, what[0] ? ", " : "", what);
}

int ch_note_cut(char *note)
{
    char *cut = NULL;
    for (char *q = note; (q = strstr(q, "; ")); q++) cut = q;
    if (!cut) return 0;
    *cut = '\0';
    return 1;
}

/* ---- CSV -------------------------------------------------------------------------------- */

static int csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r")) {
        if (fputc('"', f) == EOF) return -1;
        for (const char *p = s; *p; p++) {
            if (*p == '"' && fputc('"', f) == EOF) return -1;
            if (fputc(*p, f) == EOF) return -1;
        }
        return fputc('"', f) == EOF ? -1 : 0;
    }
    return fputs(s, f) == EOF ? -1 : 0;
}

int ch_write_csv_rows(const ch_chart *c, FILE *f)
{
    char bx[40], by[40];
    for (int i = 0; i < c->nseries; i++) {
        const ch_series *s = &c->series[i];
        for (int k = 0; k < s->n; k++) {
            if (!isfinite(s->y[k]) || !isfinite(s->x[k])) continue;
            if (csv_field(f, c->title) || fputc(',', f) == EOF || csv_field(f, s->name) ||
                fprintf(f, ",%s,%s\n", ch_fmt_double(s->x[k], bx, sizeof bx),
                        ch_fmt_double(s->y[k], by, sizeof by)) < 0)
                return gs_error(GS_ERUN, "CSV: write failed: %s", strerror(errno));
        }
        /* a band: its two edges as the series "NAME −std" and "NAME +std" */
        for (int e = 0; s->ylo && e < 2; e++)
            for (int k = 0; k < s->n; k++) {
                double v = e ? s->yhi[k] : s->ylo[k];
                if (!isfinite(v) || !isfinite(s->x[k])) continue;
                if (csv_field(f, c->title) || fprintf(f, ",\"%s %s\",%s,%s\n", s->name, e ? "+std" : "\u2212std",
                                                      ch_fmt_double(s->x[k], bx, sizeof bx),
                                                      ch_fmt_double(v, by, sizeof by)) < 0)
                    return gs_error(GS_ERUN, "CSV: write failed: %s", strerror(errno));
            }
    }
    return GS_OK;
}

int ch_write_csv(const ch_chart *c, FILE *f)
{
    if (fputs("chart,series,x,y\n", f) == EOF)
        return gs_error(GS_ERUN, "CSV: write failed: %s", strerror(errno));
    return ch_write_csv_rows(c, f);
}
