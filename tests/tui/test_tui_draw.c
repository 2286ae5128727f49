/* test_tui_draw.c — the pure frame composer of the TUI: panel titles, status line, numbers of
 * the current task, pending tasks shown as pending (never as 0), baseline Δ column, help
 * overlay from the key table, the editor line, the too-small screen, ASCII frames. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/tui_int.h"
#include "gs_common.h"
#include "support/tap.h"

#ifndef TUI_HELP_LEN /* (before the help kept its lines whole) */
#define TUI_HELP_LEN 256
#endif

static char screen[200 * 80 * 4];

static const char *dump(const cv_canvas *cv)
{
    size_t k = 0;
    for (int y = 0; y < cv->h; y++) {
        cv_row_utf8(cv, y, screen + k, sizeof screen - k - 2);
        k += strlen(screen + k);
        screen[k++] = '\n';
    }
    screen[k] = 0;
    return screen;
}

/* T tasks, 2 methods; tasks > done are pending. */
static void make_results(en_results *r, int T, int done, double tail_gacl)
{
    memset(r, 0, sizeof *r);
    r->T = T;
    r->C = T;
    r->D = 4;
    r->n_methods = 2;
    r->m = calloc(2, sizeof *r->m);
    r->is_head = calloc((size_t)T, 1);
    r->class_task = calloc((size_t)T, sizeof(int));
    r->class_kept = calloc((size_t)T, sizeof(long));
    r->is_head[0] = 1;
    for (int c = 0; c < T; c++) { r->class_task[c] = c; r->class_kept[c] = c ? 5 : 100; }
    const char *names[2] = {"gacl", "gsr"};
    for (int m = 0; m < 2; m++) {
        snprintf(r->m[m].name, sizeof r->m[m].name, "%s", names[m]);
        r->m[m].ridge = 1;
        r->m[m].D = r->D;
        strcpy(r->m[m].learner, "gacl");
        strcpy(r->m[m].augmenter, m ? "gsr" : "");
        r->m[m].snaps = calloc((size_t)T, sizeof(en_snap));
        r->m[m].a_last = r->m[m].a_avg = NAN;
        for (int t = 0; t < T; t++) {
            en_snap *s = &r->m[m].snaps[t];
            s->task = t + 1;
            s->acc = s->head_acc = s->tail_acc = s->stable_rank = s->cond = NAN;
            s->erank = s->lambda_max = s->lambda_min = NAN;
            if (t >= done) { s->state = EN_PENDING; continue; }
            s->state = EN_DONE;
            s->acc = 70 + m;
            s->head_acc = 90;
            s->tail_acc = m ? 41.5 : tail_gacl;
            s->stable_rank = 1.5 + t;
            s->cond = 12345.0;
            s->flags = m ? EN_LMAX_EST : 0;
            if (t == 0) {
                s->flags |= EN_SPECTRUM;
                s->eig = malloc(4 * sizeof(double));
                for (int i = 0; i < 4; i++) s->eig[i] = pow(10, 2 - i);
            }
        }
    }
}

/* A third method, slda (no Gram matrix), appended to results from make_results. */
static void add_slda(en_results *r)
{
    r->m = realloc(r->m, 3 * sizeof *r->m);
    en_method_result *m = &r->m[2];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "slda");
    m->ridge = 0;
    m->a_last = m->a_avg = NAN;
    m->snaps = calloc((size_t)r->T, sizeof(en_snap));
    for (int t = 0; t < r->T; t++) {
        en_snap *sn = &m->snaps[t];
        *sn = r->m[1].snaps[t];
        sn->eig = NULL;
        sn->class_acc = NULL;
        sn->flags = EN_NO_GRAM;
        sn->acc = sn->state == EN_DONE ? 66.5 : NAN;
        sn->stable_rank = sn->cond = NAN;
    }
    r->n_methods = 3;
}

/* The text inside a panel's frame, its rows joined with one space, runs of spaces made single:
 * a word-wrapped sentence reads whole in it. */
static char region[200 * 80 * 4];
static const char *rect_text(const cv_canvas *cv, tui_rect rc)
{
    size_t k = 0;
    for (int y = rc.y + 1; y < rc.y + rc.h - 1; y++) {
        if (k && region[k - 1] != ' ') region[k++] = ' ';
        for (int x = rc.x + 1; x < rc.x + rc.w - 1 && k + 8 < sizeof region; x++) {
            const cv_cell *c = cv_cat(cv, x, y);
            unsigned ch = c && c->ch ? (unsigned)c->ch : ' ';
            if (ch == ' ' && (!k || region[k - 1] == ' ')) continue;
            if (ch < 0x80) region[k++] = (char)ch;
            else if (ch < 0x800) { region[k++] = (char)(0xC0 | ch >> 6); region[k++] = (char)(0x80 | (ch & 63)); }
            else if (ch < 0x10000) {
                region[k++] = (char)(0xE0 | ch >> 12); region[k++] = (char)(0x80 | ((ch >> 6) & 63));
                region[k++] = (char)(0x80 | (ch & 63));
            } else {
                region[k++] = (char)(0xF0 | ch >> 18); region[k++] = (char)(0x80 | ((ch >> 12) & 63));
                region[k++] = (char)(0x80 | ((ch >> 6) & 63)); region[k++] = (char)(0x80 | (ch & 63));
            }
        }
    }
    region[k] = 0;
    return region;
}

static void view_defaults(tui_view *v, const en_results *r, const op_params *p)
{
    memset(v, 0, sizeof *v);
    v->r = r;
    v->params = p;
    v->task = 2;
    v->T = r ? r->T : 10;
    v->speed = 1;
    v->sel = tui_param_find("tau");
    v->message = "";
    v->data_name = "unit-data";
    v->preset = "";
    v->color = 1;
    v->m0 = 0;
    v->m1 = 1;
}


/* One row of the canvas as UTF-8 (cells x0..x1-1). */
static char rowbuf[4 * 400];
static const char *row_text(const cv_canvas *cv, int y, int x0, int x1)
{
    char full[4 * 400];
    cv_row_utf8(cv, y, full, sizeof full);
    /* walk x0 cells in (each cell one code point) */
    const unsigned char *p = (const unsigned char *)full;
    for (int x = 0; x < x0 && *p; x++) { p++; while ((*p & 0xC0) == 0x80) p++; }
    const unsigned char *q = p;
    for (int x = x0; x < x1 && *q; x++) { q++; while ((*q & 0xC0) == 0x80) q++; }
    snprintf(rowbuf, sizeof rowbuf, "%.*s", (int)(q - p), (const char *)p);
    return rowbuf;
}

/* The first screen (issue #35): at cols × rows, paused at task 1, the message row holds one line
 * computed from the results; the legend in the Accuracy panel's top edge leaves its corner and the
 * edge before it; the hint bar keeps b, u, e, s; the spectrum's top decade is labelled. */
static void first_screen(int cols, int rows)
{
    op_params p = {.alpha_base = 0.6, .xi = 5e-3, .beta = 1, .tau = 0.01, .seed = 1};
    en_results r;
    make_results(&r, 10, 10, 0.0);
    /* GACL's tail: 100, 60, 0 from task 3 on; GSR's: 100 then 41.5 */
    for (int t = 0; t < 10; t++) {
        r.m[0].snaps[t].tail_acc = t == 0 ? 100 : t == 1 ? 60 : 0;
        if (t == 0) r.m[1].snaps[t].tail_acc = 100;
    }
    /* spectrum 1000 … 1 at task 1: four decades, more ticks than the panel's rows take */
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < 4; i++) r.m[m].snaps[0].eig[i] = pow(10, 3 - i);
    tui_view v;
    view_defaults(&v, &r, &p);
    v.task = 1;
    v.T = 10;
    cv_canvas cv;
    cv_init(&cv, cols, rows, CV_BRAILLE);
    tui_draw(&cv, &v);
    tui_layout l;
    tui_layout_compute_msg(cols, rows, 1, &l);
    const char *msg = row_text(&cv, l.message.y, 0, cols);
    CHECK(strstr(msg, "GACL") && strstr(msg, "falls") && strstr(msg, "to 0 % by task 3") && strstr(msg, "Space"),
          "%dx%d: first-screen line says GACL's tail falls to 0 %% by task 3 and the key: '%s'", cols, rows, msg);
    CHECK(strstr(msg, "41.5") != NULL || cols < 80, "%dx%d: with GSR's tail there (41.5): '%s'", cols, rows, msg);
    /* the legend in the Accuracy panel's top edge: the corner, one cell of the edge and a space
     * (or edge) before it; the rows of both top panels keep their side borders */
    const char *top = row_text(&cv, l.accuracy.y, l.accuracy.x + l.accuracy.w - 3, l.accuracy.x + l.accuracy.w);
    CHECK(!strcmp(top, " ─┐") || !strcmp(top, "──┐"), "%dx%d: legend ends before the corner: '%s'", cols, rows, top);
    CHECK(strstr(row_text(&cv, l.accuracy.y, l.accuracy.x, l.accuracy.x + l.accuracy.w), "GSR") != NULL,
          "%dx%d: both methods in the legend: '%s'", cols, rows, rowbuf);
    int sides = 1;
    for (int y = l.accuracy.y + 1; y < l.accuracy.y + l.accuracy.h - 1; y++) {
        tui_rect rc[2] = {l.accuracy, l.spectrum};
        for (int k = 0; k < 2; k++) {
            const cv_cell *a = cv_cat(&cv, rc[k].x, y), *b = cv_cat(&cv, rc[k].x + rc[k].w - 1, y);
            if (!a || !b || a->ch != 0x2502 || b->ch != 0x2502) sides = 0;
        }
    }
    CHECK(sides, "%dx%d: the top panels' side borders intact", cols, rows);
    const char *hint = row_text(&cv, l.hint.y, 0, cols);
    CHECK(strstr(hint, "b ") && strstr(hint, "u undo") && strstr(hint, "e export") && strstr(hint, "s save") &&
              strstr(hint, "? help") && strstr(hint, "q quit") && strstr(hint, "Space play"),
          "%dx%d: hint bar keeps Space, b, u, e, s, ?, q: '%s'", cols, rows, hint);
    CHECK(strstr(rect_text(&cv, l.spectrum), "1000┤") != NULL, "%dx%d: spectrum's top decade labelled: %s", cols, rows,
          region);
    CHECK(strstr(dump(&cv), "srank = stable rank") != NULL, "%dx%d: srank named", cols, rows);
    CHECK(rows < 40 || strstr(rect_text(&cv, l.params), "srank: stable rank of G+τI") != NULL,
          "%dx%d: the Parameters panel's foot says what srank and κ are: %s", cols, rows, region);
    /* stepped on: the line makes room for the messages */
    v.task = 2;
    tui_draw(&cv, &v);
    CHECK(strstr(row_text(&cv, l.message.y, 0, cols), "falls") == NULL, "%dx%d: line gone at task 2", cols, rows);
    /* the tail does not fall (GACL 30 % at every task): the line never says it falls */
    for (int t = 0; t < 10; t++) r.m[0].snaps[t].tail_acc = 30;
    v.task = 1;
    tui_draw(&cv, &v);
    msg = row_text(&cv, l.message.y, 0, cols);
    CHECK(!strstr(msg, "fall") && strstr(msg, "Space"), "%dx%d: no fall, none claimed: '%s'", cols, rows, msg);
    CHECK(strstr(msg, "stays at 30 %") != NULL || cols < 100, "%dx%d: says what is true: '%s'", cols, rows, msg);
    /* no tail class at task 1 (its tail accuracy "—"): the fall is counted from task 2 */
    for (int t = 0; t < 10; t++) r.m[0].snaps[t].tail_acc = t == 0 ? NAN : t == 1 ? 50 : t < 5 ? 20 : 0;
    tui_draw(&cv, &v);
    msg = row_text(&cv, l.message.y, 0, cols);
    CHECK(strstr(msg, "falls") && strstr(msg, "to 0 % by task 6"), "%dx%d: tail from task 2: '%s'", cols, rows, msg);
    for (int t = 0; t < 10; t++) r.m[0].snaps[t].tail_acc = t == 0 ? NAN : 30;
    /* a small dip (3 points) is no fall either; results still computing: only how to play */
    r.m[0].snaps[4].tail_acc = 27;
    for (int t = 6; t < 10; t++) r.m[0].snaps[t].state = r.m[1].snaps[t].state = EN_PENDING;
    tui_draw(&cv, &v);
    msg = row_text(&cv, l.message.y, 0, cols);
    CHECK(!strstr(msg, "fall") && !strstr(msg, "stays") && strstr(msg, "Space"), "%dx%d: computing: '%s'", cols, rows, msg);
    cv_free(&cv);
    en_results_free(&r);
}

int main(void)
{
    op_params p = {.alpha_base = 0.6, .xi = 5e-3, .beta = 1, .tau = 0.01, .seed = 1};
    en_results r;
    make_results(&r, 5, 2, 0.0);
    tui_view v;
    view_defaults(&v, &r, &p);
    cv_canvas cv;
    CHECK(cv_init(&cv, 120, 40, CV_BRAILLE) == GS_OK, "canvas");
    tui_draw(&cv, &v);
    const char *s = dump(&cv);
    CHECK(strstr(s, "Accuracy") && strstr(s, "Eigenspectrum") && strstr(s, "Stable rank") &&
          strstr(s, "Parameters"), "four panel titles");
    CHECK(strstr(s, "Task 2/5") && strstr(s, "paused") && strstr(s, "unit-data"), "status line");
    CHECK(strstr(s, "α_base") && strstr(s, "ξ") && strstr(s, "β") && strstr(s, "τ") && strstr(s, "seed"),
          "parameter symbols");
    CHECK(strstr(s, "▸τ") != NULL, "selected parameter marked");
    CHECK(strstr(s, "GACL   70.0   90.0   0.0") != NULL, "GACL numbers at task 2 (tail 0.0 is a real zero)");
    CHECK(strstr(s, "~2.5") != NULL, "Lanczos estimate marked with ~");
    CHECK(strstr(s, "1.2e4") != NULL, "κ in compact scientific form");
    CHECK(strstr(s, "tasks 3–5 pending") != NULL, "pending tasks named in the chart note");
    CHECK(strstr(s, "Space") && strstr(s, "quit"), "hint bar");
    CHECK(strstr(s, "  val ") == NULL, "no validation row without a split");
    /* with a validation split: a dim "val" row under the method with its three numbers */
    {
        en_snap *vs = &r.m[0].snaps[1];
        vs->val_rows = 30;
        vs->val_acc = 55.5; vs->val_head_acc = 77.25; vs->val_tail_acc = 12.5;
        tui_draw(&cv, &v);
        s = dump(&cv);
        CHECK(strstr(s, "  val  55.5   77.2   12.5") != NULL, "validation numbers under GACL");
        vs->val_rows = 0;
        tui_draw(&cv, &v);
        s = dump(&cv);
    }
    /* the current task pending: numbers show "…", never 0 */
    v.task = 4;
    tui_draw(&cv, &v);
    s = dump(&cv);
    CHECK(strstr(s, "GACL   …      …      …      …      …") != NULL, "pending task shows … not 0");
    /* computing mark */
    v.busy = 1;
    v.progress = 0.4;
    v.updating = 1;
    snprintf(v.work, sizeof v.work, "results");
    tui_draw(&cv, &v);
    s = dump(&cv);
    CHECK(strstr(s, "computing results 40%") != NULL, "computing mark with the update's progress");
    /* the update done, the lens still computing: named with its estimate, never "100%" */
    v.progress = 1;
    v.updating = 0;
    snprintf(v.work, sizeof v.work, "ridge lens, task 4: eigendecomposition of G (GSR), about 0.4 s (estimate)");
    tui_draw(&cv, &v);
    s = dump(&cv);
    CHECK(strstr(s, "computing ridge lens, task 4: eigendecomposition of G (GSR), about 0.4 s (estimate)") &&
              !strstr(s, "100%"), "the work named with its estimate, no 100%%");
    /* nothing named: no percentage either */
    v.work[0] = 0;
    tui_draw(&cv, &v);
    s = dump(&cv);
    CHECK(strstr(s, "computing") && !strstr(s, "computing 100%"), "unnamed work: no percentage");
    v.busy = 0;
    v.progress = 0;
    /* baseline: Δ column */
    en_results b;
    make_results(&b, 5, 5, 10.0);
    op_params bp = p;
    bp.tau = 0.1;
    v.task = 2;
    v.base = &b;
    v.base_params = &bp;
    tui_draw(&cv, &v);
    s = dump(&cv);
    CHECK(strstr(s, "baseline") && strstr(s, "×0.1"), "τ Δ as a ratio against the baseline");
    CHECK(strstr(s, "ΔGACL  +0.0   +0.0   -10.0") != NULL, "accuracy Δ against the baseline");
    CHECK(strstr(s, "(pinned)") == NULL, "ghost curves stay out of the legend text");
    /* editor and help */
    v.edit = "0.5";
    tui_draw(&cv, &v);
    s = dump(&cv);
    CHECK(strstr(s, "τ = 0.5▏") && strstr(s, "Esc cancel"), "editor line");
    v.edit = NULL;
    v.help = 1;
    tui_draw(&cv, &v);
    s = dump(&cv);
    int n;
    const tui_key *k = tui_keys(&n);
    CHECK(strstr(s, k[0].help) && strstr(s, "lines 1–") && strstr(s, "scroll"), "help overlay: first key, scroll note");
    /* every key and every number's explanation is in the wrapped help rows, at 80 columns too */
    {
        static char rows[400][TUI_HELP_LEN], joined[400 * 256];
        int nr = tui_help_rows(&cv, 74, rows, 400), over = 0;
        size_t L = 0;
        for (int i = 0; i < nr; i++) {
            const char *q = rows[i];
            over += cv_text_width(&cv, rows[i]) > 74;
            if (i && rows[i][0] == ' ') { while (*q == ' ') q++; joined[L++] = ' '; }
            else if (i) joined[L++] = '\n';
            L += (size_t)snprintf(joined + L, sizeof joined - L, "%s", q);
        }
        int all = 1;
        for (int i = 0; i < n; i++) all &= strstr(joined, k[i].help) != NULL;
        CHECK(all && over == 0, "help rows at 74 cells: every key's whole text, no row wider (%d wider)", over);
        static const char *terms[] = {"stable rank", "effective rank", "condition number", "Lanczos estimate", "ε ",
                                      "η:", "m̄", "Λ₊", "Claims", "Collapse"};
        int known = 1;
        for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++) known &= strstr(joined, terms[i]) != NULL;
        CHECK(known, "help explains every number on screen");
        /* a combining mark takes no column: "m̄ mbar" lines its text up with "ε" (9 cells in) */
        int col_m = -1, col_e = -1;
        for (int i = 0; i < nr; i++) {
            char *bar = strstr(rows[i], "‖");
            if (!bar) continue;
            char pre[64];
            snprintf(pre, sizeof pre, "%.*s", (int)(bar - rows[i]) < 63 ? (int)(bar - rows[i]) : 63, rows[i]);
            if (!strncmp(rows[i], "m̄ mbar", strlen("m̄ mbar"))) col_m = cv_text_width(&cv, pre);
            if (!strncmp(rows[i], "ε ", 3)) col_e = cv_text_width(&cv, pre);
        }
        CHECK(col_m == 9 && col_e == 9, "help: m̄'s and ε's text start in one column (%d, %d)", col_m, col_e);
        /* scrolled to the end: the last explanation is visible */
        v.help_scroll = 1000;
        tui_draw(&cv, &v);
        s = dump(&cv);
        CHECK(strstr(s, "every direction.") && !strstr(s, k[0].help), "help scrolls to its last line");
        v.help_scroll = 0;
    }
    /* every help entry whole, wrapped and never cut, at every terminal width the TUI accepts up to
     * 160 (the box is min(cols − 2, 100) cells wide, 4 of them frame and margin): each line of the
     * key table and the glossary is found in the rows joined again, and each glossary entry ends
     * its sentence (the seeds entry was cut at 255 bytes: "Changing a parameter reco") */
    {
        static char lines[TUI_HELP_MAX][TUI_HELP_LEN], rows[400][TUI_HELP_LEN], joined[400 * 300], want[TUI_HELP_LEN];
        int nl = tui_help_lines(lines, TUI_HELP_MAX), widths_bad = 0, first_bad = 0, unended = 0;
        for (int i = n; i < nl; i++) {
            size_t L = strlen(lines[i]);
            /* the glossary's entries are sentences; its title and blank lines are not */
            if (L && strcmp(lines[i], "What the numbers mean") && lines[i][L - 1] != '.') unended++;
        }
        CHECK(unended == 0, "every glossary entry of the help ends its sentence (%d cut)", unended);
        for (int cols = TUI_MIN_COLS; cols <= 160; cols++) {
            int bw = (cols - 2 > 100 ? 100 : cols - 2) - 4;
            int nr = tui_help_rows(&cv, bw, rows, 400), wide = 0;
            size_t L = 0;
            for (int i = 0; i < nr; i++) {
                wide |= cv_text_width(&cv, rows[i]) > bw;
                /* runs of spaces made single (the key column's padding, continuation indents) */
                if (i && L && joined[L - 1] != ' ') joined[L++] = ' ';
                for (const char *q = rows[i]; *q && L + 2 < sizeof joined; q++)
                    if (!(*q == ' ' && (!L || joined[L - 1] == ' '))) joined[L++] = *q;
                joined[L] = 0;
            }
            int whole = !wide;
            for (int i = 0; i < nl && whole; i++) {
                /* the line with its runs of spaces (the key column's padding) made single */
                size_t k2 = 0;
                for (const char *q = lines[i]; *q; q++)
                    if (!(*q == ' ' && k2 && want[k2 - 1] == ' ')) want[k2++] = *q;
                want[k2] = 0;
                if (want[0] && !strstr(joined, want)) whole = 0;
            }
            whole &= strstr(joined, "Changing a parameter recomputes every seed.") != NULL;
            if (!whole) { widths_bad++; if (!first_bad) first_bad = cols; }
        }
        CHECK(widths_bad == 0, "help at every width %d..160: every entry whole, no row too wide (%d widths bad, first %d)",
              TUI_MIN_COLS, widths_bad, first_bad);
    }
    v.help = 0;
    cv_free(&cv);
    /* 80x24 still shows everything */
    cv_init(&cv, 80, 24, CV_BRAILLE);
    tui_draw(&cv, &v);
    s = dump(&cv);
    CHECK(strstr(s, "Accuracy") && strstr(s, "Eigenspectrum") && strstr(s, "Stable rank") &&
          strstr(s, "GSR    71.0"), "80x24 shows the panels and the numbers");
    cv_free(&cv);
    /* too small */
    cv_init(&cv, 60, 15, CV_BRAILLE);
    tui_draw(&cv, &v);
    s = dump(&cv);
    CHECK(strstr(s, "need at least 72x20") && strstr(s, "60x15"), "too-small screen names both sizes");
    cv_free(&cv);
    /* 10x5: the needed size is still readable (wrapped) */
    cv_init(&cv, 10, 5, CV_BRAILLE);
    tui_draw(&cv, &v);
    s = dump(&cv);
    CHECK(strstr(s, "72x20") != NULL, "10x5 screen shows the size it needs: %s", s);
    cv_free(&cv);
    /* a failed solve at the current task is explained in the hint bar */
    {
        en_snap *fs = &((en_results *)v.r)->m[0].snaps[v.task - 1];
        en_state keep = fs->state;
        fs->state = EN_FAILED;
        snprintf(fs->error, sizeof fs->error, "gacl, task %d: G + τI is not positive definite; raise --tau", v.task);
        cv_init(&cv, 120, 40, CV_BRAILLE);
        tui_draw(&cv, &v);
        s = dump(&cv);
        CHECK(strstr(s, "not positive definite; raise --tau") != NULL, "failure message on screen");
        cv_free(&cv);
        fs->state = keep;
        fs->error[0] = 0;
    }
    /* ASCII frame: nothing outside printable ASCII */
    cv_init(&cv, 120, 40, CV_ASCII);
    v.color = 0;
    tui_draw(&cv, &v);
    int bad = 0, colored = 0;
    for (int i = 0; i < cv.w * cv.h; i++) {
        bad += cv.cells[i].ch < 32 || cv.cells[i].ch > 126;
        colored += cv.cells[i].rgb != CV_RGB_DEFAULT;
    }
    CHECK(bad == 0, "ASCII frame: %d non-ASCII cells", bad);
    CHECK(colored == 0, "monochrome frame: no colors");
    s = dump(&cv);
    CHECK(strstr(s, "a_base") && strstr(s, "tau"), "ASCII symbols");
    cv_free(&cv);
    /* the shown pair (keys m / M): titles, parameter rows and spectral panels follow it */
    {
        CHECK(tui_cycle_method(1, 0, 3) == 2 && tui_cycle_method(2, 0, 3) == 1 && tui_cycle_method(0, 2, 3) == 1 &&
                  tui_cycle_method(1, 2, 3) == 0,
              "cycling skips the other slot and wraps");
        CHECK(tui_cycle_method(0, 1, 2) == 0 && tui_cycle_method(0, -1, 1) == 0, "no other method: unchanged");
        en_results r3;
        make_results(&r3, 5, 2, 0.0);
        add_slda(&r3);
        char t[160];
        tui_accuracy_title(&r3, 0, 2, t, sizeof t);
        CHECK(!strcmp(t, "Accuracy — GACL vs SLDA (head, tail, overall)"), "accuracy title: %s", t);
        tui_accuracy_title(&r3, 1, -1, t, sizeof t);
        CHECK(!strcmp(t, "Accuracy — GSR (head, tail, overall)"), "one method: %s", t);
        view_defaults(&v, &r3, &p);
        cv_init(&cv, 120, 40, CV_BRAILLE);
        tui_draw(&cv, &v);
        s = dump(&cv);
        CHECK(strstr(s, "Accuracy (%) — GACL vs GSR") && strstr(s, "Eigenspectrum — GACL vs GSR") &&
                  !strstr(s, "no spectrum"), "default pair GACL vs GSR");
        v.m0 = 1;
        v.m1 = 2;
        tui_draw(&cv, &v);
        s = dump(&cv);
        CHECK(strstr(s, "Accuracy (%) — GSR vs SLDA") && strstr(s, "Eigenspectrum — GSR vs SLDA"), "titles follow m0/m1");
        CHECK(strstr(s, "SLDA: no Gram matrix, no spectrum") != NULL, "non-ridge method without a spectrum of its own: said so");
        CHECK(strstr(s, "SLDA   66.5") && strstr(s, "GSR    71.0") && !strstr(s, "GACL   70.0"),
              "parameter rows follow the pair");
        CHECK(strstr(s, "Stable rank") != NULL, "stable rank panel still drawn for GSR");
        v.m0 = 2;
        v.m1 = -1;
        v.lower = TV_ERANK;
        tui_draw(&cv, &v);
        s = dump(&cv);
        CHECK(strstr(s, "Accuracy (%) — SLDA") != NULL, "single non-ridge method title");
        const char *a = strstr(s, "SLDA: no Gram matrix, no spectrum");
        CHECK(a && strstr(a + 1, "SLDA: no Gram matrix"), "spectrum and erank panels both say there is no Gram matrix");
        CHECK(!strstr(s, "index i"), "no eigenspectrum chart for a non-ridge method");
        /* SLDA beside GACL, the future shown (no "hidden" note in its place): each panel of G + τI's
         * numbers says once that SLDA has no Gram matrix, the charts' notes never repeat it */
        v.m0 = 2;
        v.m1 = 0;
        v.future = 1;
        for (int lw = 0; lw < 2; lw++) {
            v.lower = lw ? TV_ERANK : TV_STABLE;
            tui_draw(&cv, &v);
            s = dump(&cv);
            int n = 0;
            for (const char *q = s; (q = strstr(q, "SLDA: no Gram matrix")); q++) n++;
            CHECK(n == 2, "%s view, SLDA with GACL: \"SLDA: no Gram matrix\" %d times (want 2: the spectrum "
                  "panel and the lower panel)", lw ? "Effective rank" : "Stable rank", n);
        }
        v.future = 0;
        v.m0 = 1;
        v.m1 = 0;
        v.lower = TV_RATIO;
        tui_draw(&cv, &v);
        s = dump(&cv);
        CHECK(strstr(s, "Eigenvalue ratio λ(GSR)/λ(GACL)") != NULL, "ratio title: GACL is the reference");
        v.m0 = 2;
        v.m1 = 0;
        tui_draw(&cv, &v);
        s = dump(&cv);
        CHECK(strstr(s, "Eigenvalue ratio λ(SLDA)/λ(GACL)") && strstr(s, "the ratio needs two ridge methods"),
              "ratio with a non-ridge method explains");
        /* a worker result for another pair is never shown */
        tui_extra ex;
        memset(&ex, 0, sizeof ex);
        ex.task = 2;
        ex.view = TV_THEOREM;
        ex.st = GS_EINPUT;
        snprintf(ex.error, sizeof ex.error, "THEOREM-MSG");
        ex.m0 = 0;
        ex.m1 = 1;
        v.lower = TV_THEOREM;
        v.ex = &ex;
        tui_draw(&cv, &v);
        s = dump(&cv);
        CHECK(!strstr(s, "THEOREM-MSG") && strstr(s, "computing… (task 2)"), "other pair's result not shown");
        ex.m0 = 2;
        ex.m1 = 0;
        tui_draw(&cv, &v);
        s = dump(&cv);
        CHECK(strstr(s, "THEOREM-MSG") != NULL, "same pair's result shown");
        /* an earlier task's result: paused, not shown; playing, shown and labelled with its task */
        ex.task = v.task - 1;
        tui_draw(&cv, &v);
        s = dump(&cv);
        CHECK(!strstr(s, "THEOREM-MSG") && strstr(s, "computing… (task"), "paused: an earlier task's result not shown");
        v.playing = 1;
        tui_draw(&cv, &v);
        s = dump(&cv);
        char lab[96];
        snprintf(lab, sizeof lab, "drawn for task %d while playing; task %d's is next", v.task - 1, v.task);
        CHECK(strstr(s, "THEOREM-MSG") && strstr(s, lab), "playing: the last finished task's result, labelled");
        v.playing = 0;
        ex.task = v.task;
        cv_free(&cv);
        en_results_free(&r3);
    }
    /* live stepping: at task 2 of 5 with every task computed, the task-axis charts draw exactly
     * the dots of results where tasks 3..5 are not computed yet; f (future = 1) shows them */
    {
        en_results all, two;
        make_results(&all, 5, 5, 0.0);
        make_results(&two, 5, 2, 0.0);
        /* GSR's curves apart from GACL's, so that both markers show */
        for (int t = 0; t < 5; t++) all.m[1].snaps[t].stable_rank += 1;
        for (int t = 0; t < 2; t++) two.m[1].snaps[t].stable_rank += 1;
        for (int i = 0; i < 4; i++) all.m[1].snaps[0].eig[i] *= 3;
        for (int lower = 0; lower < 2; lower++) {
            cv_canvas a, b;
            cv_init(&a, 120, 40, CV_BRAILLE);
            cv_init(&b, 120, 40, CV_BRAILLE);
            view_defaults(&v, &all, &p);
            v.lower = lower ? TV_ERANK : TV_STABLE;
            tui_draw(&a, &v);
            v.r = &two;
            tui_draw(&b, &v);
            int diff = 0, dots = 0;
            for (int i = 0; i < a.w * a.h; i++) {
                diff += a.cells[i].dots != b.cells[i].dots;
                dots += a.cells[i].dots != 0;
            }
            CHECK(diff == 0 && dots > 0, "view %d, task 2: the future is hidden (%d cells differ, %d with dots)",
                  v.lower, diff, dots);
            v.r = &all;
            v.future = 1;
            tui_draw(&b, &v);
            diff = 0;
            for (int i = 0; i < a.w * a.h; i++) diff += a.cells[i].dots != b.cells[i].dots;
            CHECK(diff > 0, "view %d: f shows the later tasks (%d cells differ)", v.lower, diff);
            s = dump(&a);
            CHECK(strstr(s, "3–5 hidden (f)") != NULL, "the note says which tasks are hidden");
            /* GSR's λ_max is a Lanczos estimate: the hidden tasks' note keeps that label after it */
            CHECK(strstr(s, "3–5 hidden (f); Lanczos estimate") != NULL, "view %d, future hidden: still labelled "
                  "an estimate", v.lower);
            v.future = 0;
            v.task = 5;
            tui_draw(&a, &v);
            v.future = 1;
            tui_draw(&b, &v);
            diff = 0;
            for (int i = 0; i < a.w * a.h; i++) diff += a.cells[i].dots != b.cells[i].dots || a.cells[i].ch != b.cells[i].ch;
            CHECK(diff == 0, "at the last task nothing is hidden (%d cells differ)", diff);
            cv_free(&a);
            cv_free(&b);
        }
        /* without colour the two methods differ by their markers in every chart: ○ GACL, ■ GSR */
        cv_canvas m;
        cv_init(&m, 120, 40, CV_BRAILLE);
        view_defaults(&v, &all, &p);
        v.color = 0;
        v.task = 5;
        tui_draw(&m, &v);
        tui_layout l;
        tui_layout_compute(120, 40, &l);
        const tui_rect *pr[3] = {&l.accuracy, &l.spectrum, &l.stable};
        for (int k = 0; k < 3; k++) {
            if (k == 1) { v.task = 1; v.future = 1; tui_draw(&m, &v); } /* the spectrum is known at task 1 */
            int circ = 0, sq = 0;
            for (int y = pr[k]->y + 2; y < pr[k]->y + pr[k]->h - 1; y++)
                for (int x = pr[k]->x + 1; x < pr[k]->x + pr[k]->w - 1; x++) {
                    circ += cv_cat(&m, x, y)->ch == 0x25CB;
                    sq += cv_cat(&m, x, y)->ch == 0x25A0;
                }
            CHECK(circ >= 1 && sq >= 1, "panel %d without colour: GACL ○ (%d) and GSR ■ (%d) markers", k, circ, sq);
        }
        v.task = 5;
        v.future = 0;
        /* the footer keeps "? help" and "q quit", the status line never cuts a part */
        v.message = "exported gsrscope-dashboard-001.png (a long message that has to wrap onto a second line at "
                    "eighty columns, every word of it kept)";
        for (int W = 72; W <= 200; W += 4) {
            cv_canvas f;
            cv_init(&f, W, 24, CV_BRAILLE);
            tui_draw(&f, &v);
            char last[1024], top[1024];
            cv_row_utf8(&f, 23, last, sizeof last);
            cv_row_utf8(&f, 0, top, sizeof top);
            CHECK(strstr(last, "? help") && strstr(last, "q quit"), "%d cols: footer has help and quit: %s", W, last);
            CHECK(strstr(top, "Task 5/5") && (!strstr(top, "data") || strstr(top, "data: unit-data")),
                  "%d cols: status parts whole: %s", W, top);
            const char *d = dump(&f);
            CHECK(strstr(d, "exported gsrscope") && strstr(d, "kept)"), "%d cols: the whole message is on screen\n%s", W, d);
            cv_free(&f);
        }
        cv_free(&m);
        en_results_free(&all);
        en_results_free(&two);
    }
    /* themes: "role: colour" lines */
    {
        tui_theme th;
        CHECK(tui_theme_parse("# c\ntext: #000000\nbackground: #ffffff\ngacl: #b2182b\ngsr: terminal\n", "t", &th) == GS_OK &&
                  th.text == 0 && th.background == 0xffffff && th.gacl == 0xb2182b && th.gsr == CV_RGB_DEFAULT && th.colour,
              "theme parsed");
        CHECK(tui_theme_parse("colour: off\n", "t", &th) == GS_OK && !th.colour && th.gacl == 0xe15759, "mono theme, defaults kept");
        CHECK(tui_theme_parse("gacl: red\n", "x.theme", &th) == GS_EINPUT && strstr(gs_last_error(), "x.theme: line 1: gacl: expected #rrggbb"),
              "bad colour refused: %s", gs_last_error());
        CHECK(tui_theme_parse("\nfoo: #000000\n", "x.theme", &th) == GS_EINPUT && strstr(gs_last_error(), "line 2: unknown role"),
              "unknown role refused");
    }
    /* a learner without a Gram matrix (AnaCP's name) beside GACL: its note in the spectral panels
     * is word-wrapped, never cut ("no Gram matrix, no spectru"), at every size from the smallest
     * the TUI accepts to 160×50; so is the λ-ratio view's reason */
    {
        static const int sizes[][2] = {{TUI_MIN_COLS, TUI_MIN_ROWS}, {80, 24}, {100, 30}, {120, 40}, {160, 50}};
        en_results ra;
        make_results(&ra, 5, 5, 0.0);
        add_slda(&ra);
        snprintf(ra.m[2].name, sizeof ra.m[2].name, "anacp");
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            int W = sizes[i][0], H = sizes[i][1];
            view_defaults(&v, &ra, &p);
            v.m0 = 0;
            v.m1 = 2;
            v.task = 5;
            tui_layout l;
            tui_layout_compute(W, H, &l);
            cv_init(&cv, W, H, CV_BRAILLE);
            tui_draw(&cv, &v);
            const char *sp = rect_text(&cv, l.spectrum);
            CHECK(strstr(sp, "AnaCP: no Gram matrix, no spectrum") != NULL, "%dx%d: spectrum panel's note whole: %s", W, H, sp);
            const char *st = rect_text(&cv, l.stable);
            CHECK(strstr(st, "AnaCP: no Gram matrix") != NULL, "%dx%d: stable-rank panel's note whole", W, H);
            v.lower = TV_ERANK;
            tui_draw(&cv, &v);
            st = rect_text(&cv, l.stable);
            CHECK(strstr(st, "AnaCP: no Gram matrix") != NULL, "%dx%d: erank panel's note whole: %s", W, H, st);
            v.lower = TV_RATIO;
            tui_draw(&cv, &v);
            st = rect_text(&cv, l.stable);
            CHECK(strstr(st, "the ratio needs two ridge methods (keys m / M)") && strstr(st, "AnaCP: no Gram matrix"),
                  "%dx%d: λ-ratio view's reason whole: %s", W, H, st);
            cv_free(&cv);
        }
        en_results_free(&ra);
    }
    /* the status line says what the rate is: the playback's ([ ]), with "playing" while it plays */
    {
        en_results rs;
        make_results(&rs, 5, 5, 0.0);
        static const int widths[] = {80, 160};
        for (int i = 0; i < 2; i++) {
            view_defaults(&v, &rs, &p);
            cv_init(&cv, widths[i], i ? 50 : 24, CV_BRAILLE);
            char row[2048];
            v.playing = 1;
            v.speed = 8;
            tui_draw(&cv, &v);
            cv_row_utf8(&cv, 0, row, sizeof row);
            CHECK(strstr(row, "▶ playing 8 tasks/s") != NULL, "%d cols, playing: %s", widths[i], row);
            v.speed = 1;
            tui_draw(&cv, &v);
            cv_row_utf8(&cv, 0, row, sizeof row);
            CHECK(strstr(row, "▶ playing 1 task/s") != NULL, "%d cols, playing at 1: %s", widths[i], row);
            v.playing = 0;
            v.speed = 0.5;
            tui_draw(&cv, &v);
            cv_row_utf8(&cv, 0, row, sizeof row);
            CHECK(strstr(row, "⏸ paused") && !strstr(row, "playing") &&
                      (i == 0 || strstr(row, "play speed 0.5 task/s")) && !strstr(row, "│ 0.5 task/s"),
                  "%d cols, paused: %s", widths[i], row);
            cv_free(&cv);
        }
        en_results_free(&rs);
    }
    /* the ridge lens (the first lower view, beside the parameters) at every size from the smallest:
     * the table's header, each method's row with its df whole, and the explanation whole to its
     * last word (word-wrapped, never cut) */
    {
        static const int sizes[][2] = {{TUI_MIN_COLS, TUI_MIN_ROWS}, {80, 24}, {120, 40}};
        static const char *keys[3] = {"gacl", "gacl+oversample", "gsr"};
        static const double dfs[3] = {21.3, 126.8, 110.8};
        en_results rl;
        make_results(&rl, 5, 5, 0.0);
        tui_extra ex;
        memset(&ex, 0, sizeof ex);
        ex.task = 2; ex.view = TV_LENS; ex.m0 = 0; ex.m1 = 1; ex.have_lens = 1;
        rl_result *L = &ex.lens;
        L->n = 3; L->D = 400; L->ncls = 4; L->task = 2;
        for (int k = 0; k < 3; k++) {
            snprintf(L->key[k], sizeof L->key[k], "%s", keys[k]);
            L->tau[k] = 10;
            L->df[k] = dfs[k];
            L->lam[k] = malloc(400 * sizeof(double));
            L->phi[k] = malloc(400 * sizeof(double));
            for (int i = 0; i < 400; i++) {
                L->lam[k][i] = pow(10, 3 - 5.0 * i / 400) * (k ? 6 : 1);
                L->phi[k][i] = L->lam[k][i] / (L->lam[k][i] + 10);
            }
            L->head_above[k] = 0.99; L->tail_above[k] = k ? 0.98 : 0.52; L->tail_acc[k] = k ? 39.2 : 0.0;
        }
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            int W = sizes[i][0], H = sizes[i][1];
            view_defaults(&v, &rl, &p);
            v.lower = TV_LENS;
            v.ex = &ex;
            cv_init(&cv, W, H, CV_BRAILLE);
            tui_draw(&cv, &v);
            const char *d = dump(&cv);
            int rows_ok = 1;
            for (int k = 0; k < 3; k++) {
                char want[16];
                snprintf(want, sizeof want, "%.1f", dfs[k]);
                rows_ok &= strstr(d, want) != NULL;
            }
            /* at 72 columns the lower-left panel drops the tail accuracy (the parameters show it) */
            CHECK(strstr(d, "Ridge lens") && strstr(d, W < 80 ? "df(τ)  head>τ tail>τ" : "df(τ)  head>τ tail>τ tail%") &&
                      rows_ok && strstr(d, "GSR") && strstr(d, "0.52") && (W < 80 || strstr(d, "39.2")) &&
                      (strstr(d, "shrinks it away.") || (W < 80 && strstr(d, "? explains these numbers"))),
                  "%dx%d: the ridge lens table and its explanation whole", W, H);
            cv_free(&cv);
        }
        rl_free(L);
        en_results_free(&rl);
    }
    /* the stable rank, labelled as the paper's measure; where the panel is wide enough, with why GSR
     * cannot raise it (without --expand only: with it the mixes can leave their rows' span) */
    {
        en_results rs2;
        make_results(&rs2, 5, 5, 0.0);
        for (int e = 0; e < 2; e++) {
            rs2.expand = e ? 5000 : 0;
            view_defaults(&v, &rs2, &p);
            v.lower = TV_STABLE;
            cv_init(&cv, 160, 50, CV_BRAILLE);
            tui_draw(&cv, &v);
            const char *d = dump(&cv);
            CHECK(strstr(d, "Stable rank (paper's measure") &&
                      (e ? !strstr(d, "cannot raise") : strstr(d, "GSR cannot raise it: its rows stay in their class's span") != NULL),
                  "160x50, %s --expand: the stable rank's title", e ? "with" : "without");
            cv_free(&cv);
            cv_init(&cv, 80, 24, CV_BRAILLE);
            tui_draw(&cv, &v);
            d = dump(&cv);
            CHECK(strstr(d, "Stable rank (paper's measure)") != NULL, "80x24: the stable rank labelled the paper's measure");
            cv_free(&cv);
        }
        en_results_free(&rs2);
    }
    /* two close spectra (GSR 1.5 × GACL, 400 eigenvalues over four decades) on short panels: their
     * lines share cells, and each keeps its markers visible (a later line drew over the earlier
     * series' markers: GACL's ○ vanished at 80×24) */
    {
        static const int sizes[][2] = {{80, 24}, {120, 40}, {160, 50}};
        en_results rsp;
        make_results(&rsp, 5, 5, 0.0);
        rsp.D = 400;
        for (int m = 0; m < 2; m++) {
            en_snap *sn = &rsp.m[m].snaps[0];
            rsp.m[m].D = 400;
            free(sn->eig);
            sn->eig = malloc(400 * sizeof(double));
            for (int i = 0; i < 400; i++) sn->eig[i] = pow(10, 2 - 4.0 * i / 400) * (m ? 1.5 : 1);
        }
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            int W = sizes[i][0], H = sizes[i][1];
            view_defaults(&v, &rsp, &p);
            v.task = 1;
            tui_layout l;
            tui_layout_compute(W, H, &l);
            cv_init(&cv, W, H, CV_BRAILLE);
            tui_draw(&cv, &v);
            int circles = 0, squares = 0;
            for (int y = l.spectrum.y + 2; y < l.spectrum.y + l.spectrum.h - 1; y++) /* below the legend */
                for (int x = l.spectrum.x + 1; x < l.spectrum.x + l.spectrum.w - 1; x++) {
                    const cv_cell *c = cv_cat(&cv, x, y);
                    circles += c->ch == 0x25CB;
                    squares += c->ch == 0x25A0;
                }
            CHECK(circles >= 2 && squares >= 2, "%dx%d: both close spectra keep their markers (%d ○ GACL, %d ■ GSR)", W, H,
                  circles, squares);
            cv_free(&cv);
        }
        en_results_free(&rsp);
    }
    /* the figures' GACL red and GSR blue on a 256-colour terminal: the nearest palette entry (by an
     * exhaustive search here), which keeps them far apart (was: 174 and 103, two pale tints) */
    {
        static const uint32_t cols[] = {0xe15759, 0x4e79a7, 0x59a14f, 0xf28e2b, 0x000000, 0xffffff, 0x808080, 0x76b7b2};
        int nearest_ok = 1;
        for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
            int r = (int)(cols[i] >> 16) & 255, g = (int)(cols[i] >> 8) & 255, b = (int)cols[i] & 255, best = 16;
            long bd = -1;
            for (int idx = 16; idx < 256; idx++) {
                int pr, pg, pb;
                if (idx < 232) {
                    static const int lv[6] = {0, 95, 135, 175, 215, 255};
                    pr = lv[(idx - 16) / 36]; pg = lv[((idx - 16) / 6) % 6]; pb = lv[(idx - 16) % 6];
                } else pr = pg = pb = 8 + 10 * (idx - 232);
                long d = (long)(r - pr) * (r - pr) + (long)(g - pg) * (g - pg) + (long)(b - pb) * (b - pb);
                if (bd < 0 || d < bd) { bd = d; best = idx; }
            }
            int got = tui_rgb_to_256(cols[i]), gr, gg, gb;
            tui_xterm_rgb(got, &gr, &gg, &gb);
            long gd = (long)(r - gr) * (r - gr) + (long)(g - gg) * (g - gg) + (long)(b - gb) * (b - gb);
            if (gd != bd) { nearest_ok = 0; printf("# %06x: %d (distance² %ld), nearest %d (%ld)\n", cols[i], got, gd, best, bd); }
        }
        CHECK(nearest_ok, "256-colour mapping picks the nearest palette entry");
        int a = tui_rgb_to_256(0xe15759), b = tui_rgb_to_256(0x4e79a7), ar, ag, ab, br, bg, bb;
        tui_xterm_rgb(a, &ar, &ag, &ab);
        tui_xterm_rgb(b, &br, &bg, &bb);
        CHECK(ar > ab + 80 && bb > br + 60, "GACL stays red (%d: %d,%d,%d), GSR blue (%d: %d,%d,%d)", a, ar, ag, ab, b, br, bg, bb);
    }
    first_screen(80, 24);
    first_screen(120, 40);
    /* PgDn / PgUp in the claims view: a page (8 rows visible at 80×24: 7) */
    CHECK(tui_claims_page(80, 24, "", CV_BRAILLE) == 7, "claims page at 80x24: %d", tui_claims_page(80, 24, "", CV_BRAILLE));
    /* nothing computed yet */
    view_defaults(&v, NULL, &p);
    v.busy = 1;
    cv_init(&cv, 120, 40, CV_BRAILLE);
    tui_draw(&cv, &v);
    s = dump(&cv);
    CHECK(strstr(s, "computing…") && strstr(s, "Accuracy"), "frame before the first results");
    cv_free(&cv);
    en_results_free(&r);
    en_results_free(&b);
    return tap_done();
}
