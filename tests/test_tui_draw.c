/* test_tui_draw.c — the pure frame composer of the TUI: panel titles, status line, numbers of
 * the current task, pending tasks shown as pending (never as 0), baseline Δ column, help
 * overlay from the key table, the editor line, the too-small screen, ASCII frames. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../src/tui/tui_int.h"
#include "gs_common.h"
#include "support/tap.h"

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

static void view_defaults(tui_view *v, const en_results *r, const op_params *p)
{
    memset(v, 0, sizeof *v);
    v->r = r;
    v->params = p;
    v->task = 2;
    v->T = r ? r->T : 10;
    v->speed = 1;
    v->sel = TP_TAU;
    v->message = "";
    v->data_name = "unit-data";
    v->preset = "";
    v->color = 1;
    v->m0 = 0;
    v->m1 = 1;
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
    tui_draw(&cv, &v);
    s = dump(&cv);
    CHECK(strstr(s, "computing 40%") != NULL, "computing mark with progress");
    v.busy = 0;
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
        static char rows[400][256], joined[400 * 256];
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
        /* scrolled to the end: the last explanation is visible */
        v.help_scroll = 1000;
        tui_draw(&cv, &v);
        s = dump(&cv);
        CHECK(strstr(s, "every direction.") && !strstr(s, k[0].help), "help scrolls to its last line");
        v.help_scroll = 0;
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
