/* tui/tui_text.c — the TUI's text, drawn into a cell canvas (pure: no curses, no threads): the
 * worker's text views (Theorem 1's numbers, the claims with their verdicts), the word wrapping
 * every panel uses for its messages, the first screen's line and the hint bar (tui_int.h). The
 * ridge lens, a chart beside its table, is tui_draw.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_chart.h"
#include "gs_common.h"
#include "tui_int.h"

#define FG CV_RGB_DEFAULT

/* Word-wrapped text from (x, y) in w cells and at most h rows (messages in panels); a word
 * longer than the line is split. Returns the rows used (with h < 0: rows needed, nothing drawn). */
int tui_wrap_text(cv_canvas *cv, int x, int y, int w, int h, const char *text, unsigned char attr)
{
    char line[1024] = "", cand[1024];
    int row = 0, measure = h < 0;
    const char *p = text;
    if (w < 1) return 0;
    while (*p && (measure || row < h)) {
        while (*p == ' ') p++;
        const char *e = p;
        while (*e && *e != ' ') e++;
        if (e == p) break;
        snprintf(cand, sizeof cand, "%s%s%.*s", line, line[0] ? " " : "", (int)(e - p), p);
        if (cv_text_width(cv, cand) > w) {
            if (line[0]) {
                if (!measure) cv_text(cv, x, y + row, line, w, FG, attr);
                row++;
                line[0] = 0;
                continue; /* the word starts the next line */
            }
            /* one word wider than the line: cut it at w cells (whole UTF-8 sequences) */
            int cells = 0;
            const char *q = p;
            while (q < e && cells < w) {
                q++;
                while (q < e && (*(const unsigned char *)q & 0xC0) == 0x80) q++;
                cells++;
            }
            snprintf(line, sizeof line, "%.*s", (int)(q - p), p);
            if (!measure) cv_text(cv, x, y + row, line, w, FG, attr);
            row++;
            line[0] = 0;
            p = q;
            continue;
        }
        snprintf(line, sizeof line, "%s", cand);
        p = e;
    }
    if (line[0] && (measure || row < h)) {
        if (!measure) cv_text(cv, x, y + row, line, w, FG, attr);
        row++;
    }
    return row;
}

/* Numbers for the Theorem 1 panel: 4 significant digits, compact exponents. */
static void th_num(double v, char *b, int n)
{
    if (!isfinite(v)) snprintf(b, (size_t)n, "—");
    else if (v != 0 && (fabs(v) >= 1e5 || fabs(v) < 1e-3)) snprintf(b, (size_t)n, "%.3e", v);
    else snprintf(b, (size_t)n, "%.4g", v);
}

void tui_theorem_text(cv_canvas *cv, int x, int y, int w, int h, const tui_extra *ex, const tui_view *v)
{
    const sp_theorem *t = &ex->th;
    char nm[32], l[8][200], a[8][32];
    ch_display_name(ex->th_method, nm, sizeof nm);
    th_num(t->eps, a[0], 32); th_num(t->eta, a[1], 32); th_num(t->mbar, a[2], 32); th_num(t->m, a[3], 32);
    snprintf(l[0], 200, "%s vs GACL · task %d · r = %d head classes · D = %ld · τ = %.4g", nm, ex->task,
             t->r, ex->D, ex->tau);
    snprintf(l[1], 200, "ε = %s   η = %s   mbar = %s   m = %s", a[0], a[1], a[2], a[3]);
    th_num(t->S_tau, a[0], 32); th_num(t->Lambda_plus, a[1], 32);
    snprintf(l[2], 200, "S_τ = ‖G+τI‖²_F = %s   Λ₊ = %s", a[0], a[1]);
    th_num(t->sr_before, a[0], 32); th_num(t->bound, a[1], 32); th_num(t->sr_after, a[2], 32);
    snprintf(l[3], 200, "sr(G+τI) = %s   bound = %s   sr(G+Δ+τI) = %s", a[0], a[1], a[2]);
    snprintf(l[4], 200, "bound ≤ actual: %s", t->bound_holds ? "yes" : "NO");
    th_num(t->lhs, a[0], 32); th_num(t->rhs, a[1], 32);
    snprintf(l[5], 200, "strict condition (eq. 12): (D−r)m² = %s %s %s: %s", a[0],
             t->strict_condition ? ">" : "≤", a[1], t->strict_condition ? "holds" : "does not hold");
    snprintf(l[6], 200, "sr change: %+.4g (%s the stable rank)", t->sr_after - t->sr_before,
             t->sr_after > t->sr_before ? "raises" : "does not raise");
    int row = y;
    for (int i = 0; i < 7 && row < y + h; i++) {
        unsigned char at = i == 4 || i == 5 ? CV_BOLD : 0;
        row += tui_wrap_text(cv, x + 1, row, w - 2, y + h - row, l[i], at);
    }
    (void)v;
}

/* The claims view: each claim with ✔ / ✗ / ? and its numbers on one line (wrapped), the reason
 * indented under it; scrolled with PgUp / PgDn when it does not fit. */
void tui_claims_text(cv_canvas *cv, int x, int y, int w, int h, const tui_extra *ex, const tui_view *v)
{
    int ref, aug;
    tui_ref_aug(v->r, v->m0, v->m1, &ref, &aug);
    cl_input in = {v->r, ref, aug, v->task, ex->have_th ? &ex->th : NULL, ex->nts > 0 ? &ex->ts[0] : NULL,
                   ex->have_mech ? &ex->mech : NULL, cl_find_oversample(v->r, ref)};
    cl_report rep;
    if (cl_claims(&in, &rep) != GS_OK) {
        tui_wrap_text(cv, x + 1, y + 1, w - 2, h - 1, gs_last_error(), CV_DIM);
        return;
    }
    if (!ex->have_th && ex->th_error[0]) {
        snprintf(rep.row[CL_THEOREM].reason, sizeof rep.row[CL_THEOREM].reason, "%.230s", ex->th_error);
    }
    /* lay the rows out on a scratch canvas of the panel's width, then copy the visible part */
    cv_canvas sc;
    if (cv_init(&sc, w, 200, cv->glyphs) != GS_OK) return;
    int row = 0;
    char head[400];
    snprintf(head, sizeof head, "task %d: %s against %s; ✔ the numbers support the claim, ✗ they do not", v->task,
             rep.aug, rep.ref);
    row += tui_wrap_text(&sc, 1, row, w - 2, 200 - row, head, CV_DIM);
    for (int i = 0; i < rep.n && row < 190; i++) {
        const cl_row *c = &rep.row[i];
        char l1[600];
        snprintf(l1, sizeof l1, "%s %s%s%s", cl_mark(c->verdict), c->claim, c->numbers[0] ? ": " : "", c->numbers);
        row += tui_wrap_text(&sc, 1, row, w - 2, 200 - row, l1, c->verdict == CL_UNKNOWN ? CV_DIM : CV_BOLD);
        row += tui_wrap_text(&sc, 4, row, w - 5, 200 - row, c->reason, 0);
    }
    int top = v->scroll, shown = h;
    if (row > h) {
        shown = h - 1;
        if (top > row - shown) top = row - shown;
    } else top = 0;
    if (top < 0) top = 0;
    if (v->scroll_out) *v->scroll_out = top;
    for (int r = 0; r < shown && top + r < row; r++)
        for (int c = 0; c < w; c++) {
            const cv_cell *src = cv_cat(&sc, c, top + r);
            cv_cell *dst = cv_at(cv, x + c, y + r);
            if (src && dst) *dst = *src;
        }
    if (row > h) {
        char more[96];
        snprintf(more, sizeof more, "rows %d–%d of %d · PgUp PgDn scroll", top + 1, top + shown, row);
        cv_text(cv, x + 1, y + h - 1, more, w - 2, FG, CV_DIM);
    }
    cv_free(&sc);
}


/* A percentage as the panels say it: "0", "28", "41.5". */
static void pct_text(double v, char *buf, int n)
{
    snprintf(buf, (size_t)n, v == round(v) ? "%.0f" : "%.1f", v);
}

void tui_first_line(const cv_canvas *cv, const en_results *r, int m0, int m1, int T, int w, char *buf, int n)
{
    char cand[5][320];
    int nc = 0, ref = -1, aug = -1;
    if (r) tui_ref_aug(r, m0, m1, &ref, &aug);
    /* the reference's tail accuracy over the tasks computed so far (the first ones in a row;
     * a task before any tail class has none) */
    int done = 0, kmin = 0;
    double peak = NAN, lo = NAN, peak_before = NAN;
    for (int t = 1; ref >= 0 && t <= r->T; t++) {
        const en_snap *s = &r->m[ref].snaps[t - 1];
        if (s->state != EN_DONE) break;
        done = t;
        if (!isfinite(s->tail_acc)) continue;
        if (!(s->tail_acc <= peak)) peak = s->tail_acc;
        if (!(s->tail_acc >= lo)) { lo = s->tail_acc; kmin = t; peak_before = peak; }
    }
    char R[32] = "", A[32] = "", P[16], M[16], X[16] = "";
    if (ref >= 0) ch_display_name(r->m[ref].name, R, sizeof R);
    if (aug >= 0) {
        ch_display_name(r->m[aug].name, A, sizeof A);
        const en_snap *s = kmin ? &r->m[aug].snaps[kmin - 1] : NULL;
        if (s && s->state == EN_DONE && isfinite(s->tail_acc)) pct_text(s->tail_acc, X, sizeof X);
    }
    /* a fall: the lowest value at least 5 points under the highest one before it */
    if (kmin && peak_before - lo >= 5) {
        pct_text(peak_before, P, sizeof P);
        pct_text(lo, M, sizeof M);
        if (X[0]) {
            snprintf(cand[nc++], 320, "%s's tail accuracy falls from %s %% to %s %% by task %d, %s's is %s %% there — press Space to play",
                     R, P, M, kmin, A, X);
            snprintf(cand[nc++], 320, "%s's tail accuracy falls to %s %% by task %d (%s's: %s %%) — press Space to play", R, M,
                     kmin, A, X);
            snprintf(cand[nc++], 320, "%s's tail accuracy falls to %s %% by task %d (%s: %s %%) — Space plays", R, M, kmin, A, X);
        } else {
            snprintf(cand[nc++], 320, "%s's tail accuracy falls from %s %% to %s %% by task %d — press Space to play", R, P, M,
                     kmin);
        }
        snprintf(cand[nc++], 320, "%s's tail falls to %s %% by task %d — Space plays", R, M, kmin);
    } else {
        /* no fall: what is true of the tasks computed, or only how to play */
        if (done && done == r->T && isfinite(lo)) {
            pct_text(lo, M, sizeof M);
            snprintf(cand[nc++], 320, "%s's tail accuracy stays at %s %% or more through task %d — press Space to play the %d tasks",
                     R, M, done, T);
        }
        snprintf(cand[nc++], 320, "press Space to play the %d tasks and watch the tail accuracy", T);
        snprintf(cand[nc++], 320, "Space plays the %d tasks", T);
    }
    int k = 0;
    while (k + 1 < nc && cv_text_width(cv, cand[k]) > w) k++;
    snprintf(buf, (size_t)n, "%s", cand[k]);
}

static int hint_item(cv_canvas *cv, int x, int y, const char *key, const char *label, int gap)
{
    int n = cv_text(cv, x, y, key, -1, FG, CV_REVERSE | CV_BOLD);
    n += 1;
    n += cv_text(cv, x + n, y, label, -1, FG, 0);
    return n + gap;
}

static int hint_width(const cv_canvas *cv, const char *key, const char *label, int gap)
{
    return cv_text_width(cv, key) + 1 + cv_text_width(cv, label) + gap;
}

/* The keys' order of importance in a narrow hint bar (what a lecturer needs first: play, step,
 * change a parameter, pin, undo, export, save), and the shorter label said there (NULL: the key
 * table's own). Keys not listed come last. */
static int hint_rank(tui_action a, const char **shorter)
{
    static const struct { tui_action a; const char *s; } P[] = {
        {TA_PLAY, NULL},    {TA_NEXT, NULL},   {TA_UP, NULL},     {TA_INC, NULL},
        {TA_BASELINE, "pin"}, {TA_UNDO, NULL}, {TA_EXPORT, NULL}, {TA_SAVE, NULL},
        {TA_FUTURE, NULL},  {TA_EDIT, NULL},   {TA_VIEW, NULL},   {TA_PRESET, NULL}};
    for (int i = 0; i < (int)(sizeof P / sizeof P[0]); i++)
        if (P[i].a == a) {
            if (shorter) *shorter = P[i].s;
            return i;
        }
    if (shorter) *shorter = NULL;
    return 99;
}

/* The key's name in the hint bar: its first alias only ("→ n" shows "→"; Space stays whole). */
static void hint_key(const tui_key *k, char *key, int n)
{
    snprintf(key, (size_t)n, "%s", k->keyname);
    char *sp = strchr(key, ' ');
    if (sp && k->act != TA_PLAY) *sp = 0;
}

/* The hints kept (keep[i] for the key table's row i) in room cells: the full form takes the
 * table's hints in order while they fit; the compact one (one space between items, the shorter
 * labels) takes them by importance, each that fits. */
static void hint_pick(const cv_canvas *cv, const tui_key *k, int n, int compact, int room, int *keep)
{
    char key[16];
    int used = 0;
    for (int i = 0; i < n; i++) keep[i] = 0;
    for (int r = 0; r <= (compact ? 99 : 0); r++)
        for (int i = 0; i < n; i++) {
            const char *sh = NULL;
            if (!k[i].hint || k[i].act == TA_HELP || k[i].act == TA_QUIT) continue;
            if (compact && hint_rank(k[i].act, &sh) != r) continue;
            hint_key(&k[i], key, sizeof key);
            int need = hint_width(cv, key, compact && sh ? sh : k[i].hint, compact ? 1 : 2);
            if (used + need <= room) { keep[i] = 1; used += need; }
            else if (!compact) return;
        }
}

void tui_hint_bar(cv_canvas *cv, const tui_rect *rc, const tui_view *v)
{
    cv_fill(cv, rc->x, rc->y, rc->w, 1, L' ', FG, 0);
    if (v->edit) {
        char b[256];
        snprintf(b, sizeof b, " %s = %s▏   Enter apply   Esc cancel", tui_param_label((tui_param)v->sel), v->edit);
        cv_text(cv, rc->x, rc->y, b, rc->w, FG, CV_BOLD);
        return;
    }
    int n;
    const tui_key *k = tui_keys(&n);
    enum { NK = 64 };
    if (n > NK) n = NK;
    int keep[NK], gap = 2;
    /* "? help" and "q quit" at the right end; the full form unless it drops pin, undo, export or
     * save: then the compact one */
    for (int compact = 0; compact < 2; compact++) {
        gap = compact ? 1 : 2;
        hint_pick(cv, k, n, compact, rc->w - 1 - hint_width(cv, "?", "help", gap) - hint_width(cv, "q", "quit", gap), keep);
        int all = 1;
        for (int i = 0; i < n; i++)
            if (k[i].hint && hint_rank(k[i].act, NULL) <= hint_rank(TA_SAVE, NULL) && !keep[i]) all = 0;
        if (all) break;
    }
    int right = hint_width(cv, "?", "help", gap) + hint_width(cv, "q", "quit", gap);
    int rx = rc->x + rc->w - right + 1;
    rx += hint_item(cv, rx, rc->y, "?", "help", gap);
    hint_item(cv, rx, rc->y, "q", "quit", gap);
    int x = rc->x + 1;
    if (v->tour_step > 0) {
        x += hint_item(cv, x, rc->y, "n", "next step", 2);
        x += hint_item(cv, x, rc->y, "p", "back", 2);
        hint_item(cv, x, rc->y, "Esc", "leave tour", 2);
        return;
    }
    char key[16];
    for (int i = 0; i < n; i++) {
        if (!keep[i]) continue;
        const char *sh = NULL;
        hint_rank(k[i].act, &sh);
        hint_key(&k[i], key, sizeof key);
        x += hint_item(cv, x, rc->y, key, gap == 1 && sh ? sh : k[i].hint, gap);
    }
}
