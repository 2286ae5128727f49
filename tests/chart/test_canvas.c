/* test_canvas.c — the terminal's cell canvas (src/chart/canvas.c, gs_canvas.h): braille/block/ASCII
 * dots, lines, dashes, text folding, chart rasterization (NaN gaps, ticks, legend, mark). The TUI's
 * layout, keys and parameter steps: test_tui_layout.c, test_tui_keys.c, test_tui_params.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gs_canvas.h"
#include "gs_common.h"
#include "gs_tui.h"
#include "support/tap.h"

static int popcount8(unsigned v) { int n = 0; for (; v; v >>= 1) n += v & 1; return n; }

static int count_dots(const cv_canvas *cv)
{
    int n = 0;
    for (int i = 0; i < cv->w * cv->h; i++) n += popcount8(cv->cells[i].dots);
    return n;
}

static void test_braille_bits(void)
{
    /* Unicode braille: left column dots 1,2,3,7; right column 4,5,6,8; dot k is bit k-1. */
    static const int dotnum[4][2] = {{1, 4}, {2, 5}, {3, 6}, {7, 8}};
    for (int dy = 0; dy < 4; dy++)
        for (int dx = 0; dx < 2; dx++) {
            cv_canvas cv;
            CHECK(cv_init(&cv, 1, 1, CV_BRAILLE) == GS_OK, "init");
            cv_dot(&cv, NULL, dx, dy, 0x123456, 0, L'*');
            wchar_t want = (wchar_t)(0x2800 + (1 << (dotnum[dy][dx] - 1)));
            CHECK(cv.cells[0].ch == want, "braille dot (%d,%d): U+%04X, want U+%04X", dx, dy,
                  (unsigned)cv.cells[0].ch, (unsigned)want);
            CHECK(cv.cells[0].rgb == 0x123456, "dot color");
            cv_free(&cv);
        }
    cv_canvas cv;
    cv_init(&cv, 2, 1, CV_BRAILLE);
    for (int dy = 0; dy < 4; dy++) cv_dot(&cv, NULL, 2, dy, CV_RGB_DEFAULT, 0, L'*');
    CHECK(cv.cells[1].ch == 0x2847, "left column of second cell = ⡇ (U+%04X)", (unsigned)cv.cells[1].ch);
    CHECK(cv.cells[0].ch == L' ', "first cell untouched");
    cv_dot(&cv, NULL, 99, 0, 0, 0, L'*');
    cv_dot(&cv, NULL, -1, 0, 0, 0, L'*');
    CHECK(count_dots(&cv) == 4, "dots outside the canvas are ignored");
    cv_free(&cv);
}

static void test_block_ascii(void)
{
    CHECK(cv_mask_glyph(CV_BLOCK, 15) == 0x2588, "block full");
    CHECK(cv_mask_glyph(CV_BLOCK, 3) == 0x2580, "upper half");
    CHECK(cv_mask_glyph(CV_BLOCK, 12) == 0x2584, "lower half");
    CHECK(cv_mask_glyph(CV_BLOCK, 5) == 0x258C, "left half");
    CHECK(cv_mask_glyph(CV_BLOCK, 10) == 0x2590, "right half");
    cv_canvas cv;
    cv_init(&cv, 2, 2, CV_BLOCK);
    cv_dot(&cv, NULL, 1, 1, 0, 0, L'*'); /* LR of cell (0,0) */
    CHECK(cv.cells[0].ch == 0x2597, "block LR quadrant ▗");
    cv_dot(&cv, NULL, 3, 3, 0, 0, L'*');
    CHECK(cv.cells[3].ch == 0x2597, "block LR quadrant in cell (1,1)");
    cv_free(&cv);
    cv_init(&cv, 3, 2, CV_ASCII);
    cv_dot(&cv, NULL, 2, 1, 0, 0, L'+');
    CHECK(cv.cells[5].ch == L'+', "ascii dot uses the series glyph");
    int n = cv_text(&cv, 0, 0, "τ", -1, 0, 0);
    char row[64];
    CHECK(n == 3 && !strcmp(cv_row_utf8(&cv, 0, row, sizeof row), "tau"), "ascii fold τ -> tau: '%s'", row);
    cv_free(&cv);
    cv_init(&cv, 20, 1, CV_ASCII);
    cv_text(&cv, 0, 0, "α_base ξ β Δ λ ─", -1, 0, 0);
    CHECK(!strcmp(cv_row_utf8(&cv, 0, row, sizeof row), "a_base xi b d l -   "), "ascii fold: '%s'", row);
    cv_free(&cv);
    cv_init(&cv, 10, 1, CV_BRAILLE);
    cv_text(&cv, 0, 0, "α_base\xff", 5, 0, 0);
    CHECK(!strcmp(cv_row_utf8(&cv, 0, row, sizeof row), "α_bas     "), "utf-8 text clipped to 5 cells: '%s'", row);
    cv_text(&cv, 0, 0, "ab\xff", -1, 0, 0);
    CHECK(cv.cells[2].ch == L'?', "invalid UTF-8 shows '?'");
    cv_free(&cv);
}

static void test_lines(void)
{
    cv_canvas cv;
    cv_init(&cv, 4, 1, CV_BRAILLE); /* 8 × 4 dots */
    cv_line(&cv, NULL, 0, 0, 7, 3, NULL, 0, 0, L'*');
    CHECK(cv.cells[0].dots & 0x01, "start dot (0,0) set");
    CHECK(cv.cells[3].dots & 0x80, "end dot (7,3) set");
    CHECK(count_dots(&cv) == 8, "line (0,0)-(7,3) has max(dx,dy)+1 = 8 dots, got %d", count_dots(&cv));
    cv_clear(&cv);
    cv_line(&cv, NULL, 7, 3, 0, 0, NULL, 0, 0, L'*');
    CHECK(count_dots(&cv) == 8 && (cv.cells[0].dots & 1) && (cv.cells[3].dots & 0x80), "reverse line");
    cv_clear(&cv);
    cv_line(&cv, NULL, 5, 0, 5, 3, NULL, 0, 0, L'*');
    CHECK(cv.cells[2].ch == 0x28B8, "vertical line in right column = ⢸ (U+%04X)", (unsigned)cv.cells[2].ch);
    cv_clear(&cv);
    cv_pen pen = {CH_DASH_DASHED, 0};
    cv_line(&cv, NULL, 0, 0, 11, 0, &pen, 0, 0, L'*');
    /* 12 dots, pattern 4 on 2 off: 8 drawn, over 3 cells?  canvas is 8 dots wide: 0..7 visible */
    CHECK(count_dots(&cv) == 4 + 2, "dashed: dots 0-3 and 6-7 visible, got %d", count_dots(&cv));
    CHECK(!(cv.cells[2].dots & 0x01) && !(cv.cells[2].dots & 0x08), "dashed gap at dots 4-5");
    cv_clear(&cv);
    pen = (cv_pen){CH_DASH_DOTTED, 0};
    cv_line(&cv, NULL, 0, 1, 7, 1, &pen, 0, 0, L'*');
    CHECK(count_dots(&cv) == 3, "dotted: 1 on 2 off over 8 dots = 3, got %d", count_dots(&cv));
    cv_rect clip = {1, 0, 3, 1};
    cv_clear(&cv);
    cv_line(&cv, &clip, 0, 2, 7, 2, NULL, 0, 0, L'*');
    CHECK(count_dots(&cv) == 4 && cv.cells[0].dots == 0 && cv.cells[3].dots == 0, "clip rectangle");
    cv_free(&cv);
}

static void set_axis_lin(ch_axis *ax, double lo, double hi, const double *t, int nt, const char *label)
{
    memset(ax, 0, sizeof *ax);
    ax->lo = lo; ax->hi = hi; ax->scale = CH_LINEAR;
    snprintf(ax->label, sizeof ax->label, "%s", label);
    ax->nticks = nt;
    for (int i = 0; i < nt; i++) {
        ax->ticks[i] = t[i];
        snprintf(ax->tick_labels[i], sizeof ax->tick_labels[i], "%g", t[i]);
    }
}

static double xs[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

static void make_chart(ch_chart *c, double *y)
{
    memset(c, 0, sizeof *c);
    snprintf(c->title, sizeof c->title, "Accuracy");
    double xt[] = {1, 4, 7, 10}, yt[] = {0, 50, 100};
    set_axis_lin(&c->x, 1, 10, xt, 4, "task");
    set_axis_lin(&c->y, 0, 100, yt, 3, "acc %");
    c->nseries = 1;
    ch_series *s = &c->series[0];
    snprintf(s->name, sizeof s->name, "GSR tail");
    s->letter = 'R';
    s->rgb = 0x4e79a7;
    s->dash = CH_DASH_SOLID;
    s->method = 1;
    s->n = 10;
    s->x = xs;
    s->y = y;
    c->mark_x = NAN;
}

static int col_of(const cv_rect *a, double x)
{
    int PW = (a->x1 - a->x0) * 2;
    return a->x0 + (int)lround((x - 1) / 9.0 * (PW - 1)) / 2;
}

static void test_chart(void)
{
    double y[10] = {90, 80, 70, 60, NAN, 40, 30, 20, 10, 0};
    ch_chart c;
    make_chart(&c, y);
    cv_canvas cv;
    cv_init(&cv, 60, 16, CV_BRAILLE);
    cv_chart_opts o = {.color = 1, .legend = 1, .markers = 0};
    CHECK(cv_draw_chart(&cv, 0, 0, 60, 16, &c, &o) == GS_OK, "draw chart");
    cv_rect a;
    cv_chart_area(&cv, 0, 0, 60, 16, &c, &a);
    CHECK(a.x0 == 4 && a.x1 == 60 && a.y0 == 1 && a.y1 == 14, "plot area %d..%d x %d..%d", a.x0, a.x1, a.y0, a.y1);
    int gap_dots = 0, line_dots = 0;
    for (int col = col_of(&a, 4) + 1; col < col_of(&a, 6); col++)
        for (int r = a.y0; r < a.y1; r++) gap_dots += popcount8(cv_cat(&cv, col, r)->dots);
    for (int col = col_of(&a, 1); col <= col_of(&a, 4); col++)
        for (int r = a.y0; r < a.y1; r++) line_dots += popcount8(cv_cat(&cv, col, r)->dots);
    CHECK(gap_dots == 0, "NaN point leaves a gap (no dots between tasks 4 and 6): %d", gap_dots);
    CHECK(line_dots > 10, "segments 1..4 drawn: %d dots", line_dots);
    /* first point: y = 90 at x = 1 → top region; last: y = 0 at x = 10 → bottom row */
    const cv_cell *last = cv_cat(&cv, a.x1 - 1, a.y1 - 1);
    CHECK(last->dots & 0x80, "last point (10, 0) is the bottom-right dot");
    CHECK(last->rgb == 0x4e79a7, "series color");
    char row[512];
    CHECK(strstr(cv_row_utf8(&cv, 0, row, sizeof row), "GSR tail") != NULL, "legend names the series: %s", row);
    CHECK(strstr(row, "acc %") == row, "legend starts with the y label");
    CHECK(strstr(cv_row_utf8(&cv, a.y0, row, sizeof row), "100┤") == row + 0, "top tick 100: '%s'", row);
    CHECK(strstr(cv_row_utf8(&cv, a.y1 - 1, row, sizeof row), "  0┤") == row, "bottom tick 0: '%s'", row);
    cv_row_utf8(&cv, a.y1 + 1, row, sizeof row);
    CHECK(strstr(row, "1") && strstr(row, "10") && strstr(row, "4"), "x labels: '%s'", row);
    CHECK(cv_cat(&cv, 3, a.y1)->ch == 0x2514, "axis corner └");
    /* a NaN point alone between gaps is still visible */
    double y2[10] = {NAN, NAN, 50, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
    c.series[0].y = y2;
    c.mark_x = 7;
    cv_clear(&cv);
    cv_draw_chart(&cv, 0, 0, 60, 16, &c, &o);
    CHECK(count_dots(&cv) == 1, "isolated point drawn as one dot, got %d", count_dots(&cv));
    CHECK(cv_cat(&cv, col_of(&a, 7), a.y0 + 1)->ch == 0x250A, "current-task mark ┊ at task 7");
    /* markers: letters at sparse points */
    o.markers = 1;
    c.series[0].y = y;
    cv_clear(&cv);
    cv_draw_chart(&cv, 0, 0, 60, 16, &c, &o);
    int letters = 0;
    for (int i = 0; i < cv.w * cv.h; i++) letters += cv.cells[i].ch == L'R' && cv.cells[i].attr & CV_BOLD;
    CHECK(letters >= 9, "9 letter markers plus legend letter, got %d", letters);
    /* ASCII: every cell ASCII, solid series glyph '*' present, no colour when color = 0 */
    cv_free(&cv);
    cv_init(&cv, 60, 16, CV_ASCII);
    snprintf(c.y.label, sizeof c.y.label, "log10 λ");
    cv_chart_opts mono = {.color = 0, .legend = 1, .markers = 0};
    cv_draw_chart(&cv, 0, 0, 60, 16, &c, &mono);
    int non_ascii = 0, stars = 0, colored = 0;
    for (int i = 0; i < cv.w * cv.h; i++) {
        non_ascii += cv.cells[i].ch > 126;
        stars += cv.cells[i].ch == L'*';
        colored += cv.cells[i].rgb != CV_RGB_DEFAULT;
    }
    CHECK(non_ascii == 0, "ASCII fallback: %d non-ASCII cells", non_ascii);
    CHECK(stars > 5, "ASCII solid line glyph '*' (%d)", stars);
    CHECK(colored == 0, "monochrome: no colored cells");
    CHECK(strstr(cv_row_utf8(&cv, 0, row, sizeof row), "log10 l") == row, "folded y label: '%s'", row);
    /* a dashed series uses '+' in ASCII */
    c.series[0].dash = CH_DASH_DASHED;
    cv_clear(&cv);
    cv_draw_chart(&cv, 0, 0, 60, 16, &c, &mono);
    int plus = 0;
    cv_chart_area(&cv, 0, 0, 60, 16, &c, &a);
    for (int r = a.y0; r < a.y1; r++)
        for (int col = a.x0; col < a.x1; col++) plus += cv_cat(&cv, col, r)->ch == L'+';
    CHECK(plus > 5, "ASCII dashed glyph '+' in the plot area (%d)", plus);
    /* the note: whole when it fits the plot's width (56 columns here), else its leading "; " parts,
     * never a part cut */
    c.series[0].dash = CH_DASH_SOLID;
    snprintf(c.note, sizeof c.note, "first part; second part");
    cv_clear(&cv);
    cv_draw_chart(&cv, 0, 0, 60, 16, &c, &mono);
    CHECK(strstr(cv_row_utf8(&cv, a.y0, row, sizeof row), "first part; second part") != NULL, "note whole: '%s'", row);
    snprintf(c.note, sizeof c.note, "first part; %s", "a second part far too long for the 56 columns of the plot");
    cv_clear(&cv);
    cv_draw_chart(&cv, 0, 0, 60, 16, &c, &mono);
    cv_row_utf8(&cv, a.y0, row, sizeof row);
    CHECK(strstr(row, "first part") && !strstr(row, ";") && !strstr(row, "second"), "note: the leading part only: '%s'", row);
    snprintf(c.note, sizeof c.note, "one part far too long for the 56 columns of the plot area here");
    cv_clear(&cv);
    cv_draw_chart(&cv, 0, 0, 60, 16, &c, &mono);
    CHECK(!strstr(cv_row_utf8(&cv, a.y0, row, sizeof row), "part"), "note: one part too long, not drawn: '%s'", row);
    c.note[0] = '\0';
    /* too small */
    CHECK(cv_draw_chart(&cv, 0, 0, 10, 4, &c, &mono) == GS_EINPUT, "too small refused");
    cv_free(&cv);
}

static void test_log_chart(void)
{
    double ev[6] = {100, 10, 1, 0.1, 0.0, 1e-3};
    double ix[6] = {1, 2, 3, 4, 5, 6};
    ch_chart c;
    memset(&c, 0, sizeof c);
    double xt[] = {1, 6};
    set_axis_lin(&c.x, 1, 6, xt, 2, "i");
    c.y.scale = CH_LOG10;
    c.y.lo = 1e-3; c.y.hi = 100;
    c.y.nticks = 6;
    for (int k = 0; k < 6; k++) {
        c.y.ticks[k] = pow(10, k - 3);
        snprintf(c.y.tick_labels[k], 16, "1e%d", k - 3);
    }
    c.nseries = 1;
    c.series[0] = (ch_series){.letter = 'G', .rgb = 0xe15759, .dash = CH_DASH_DASHED, .n = 6, .x = ix, .y = ev};
    snprintf(c.series[0].name, 48, "GACL");
    c.mark_x = NAN;
    cv_canvas cv;
    cv_init(&cv, 40, 12, CV_BRAILLE);
    cv_chart_opts o = {.color = 1, .legend = 1, .markers = 0};
    c.series[0].dash = CH_DASH_SOLID;
    CHECK(cv_draw_chart(&cv, 0, 0, 40, 12, &c, &o) == GS_OK, "log chart");
    cv_rect a;
    cv_chart_area(&cv, 0, 0, 40, 12, &c, &a);
    /* λ = 0 is outside the log domain: gap, so the last point (1e-3) is isolated */
    CHECK(cv_cat(&cv, a.x1 - 1, a.y1 - 1)->dots != 0, "isolated last eigenvalue drawn at the bottom right");
    CHECK(cv_cat(&cv, a.x0, a.y0)->dots & 0x01, "largest eigenvalue at the top left");
    char row[256];
    CHECK(strstr(cv_row_utf8(&cv, a.y0, row, sizeof row), " 1e2┤") == row, "decade label on top row: '%s'", row);
    cv_free(&cv);
}

static void test_compact_legend(void)
{
    double y[10] = {90, 80, 70, 60, 50, 40, 30, 20, 10, 0};
    ch_chart c;
    make_chart(&c, y);
    static const ch_kind kinds[3] = {CH_KIND_OVERALL, CH_KIND_HEAD, CH_KIND_TAIL};
    static const char *kn[3] = {"overall", "head", "tail"};
    c.nseries = 0;
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < 3; k++) {
            ch_series *s = &c.series[c.nseries++];
            memset(s, 0, sizeof *s);
            snprintf(s->method_name, sizeof s->method_name, "%s", m ? "GSR" : "GACL");
            snprintf(s->name, sizeof s->name, "%s %s", m ? "GSR" : "GACL", kn[k]);
            s->kind = kinds[k];
            s->letter = (char)(m ? "OHT"[k] : "oht"[k]);
            s->dash = m ? CH_DASH_SOLID : CH_DASH_DASHED;
            s->rgb = m ? 0x4e79a7 : 0xe15759;
            s->n = 10; s->x = xs; s->y = y;
        }
    cv_canvas cv;
    char r0[512], r1[512];
    cv_init(&cv, 120, 16, CV_BRAILLE);
    cv_draw_chart(&cv, 0, 0, 120, 16, &c, NULL);
    cv_row_utf8(&cv, 0, r0, sizeof r0);
    cv_row_utf8(&cv, 1, r1, sizeof r1);
    CHECK(strstr(r0, "╌o GACL overall") && (strstr(r0, "─T GSR tail") || strstr(r1, "─T GSR tail")),
          "full legend when it fits: '%s' / '%s'", r0, r1);
    cv_free(&cv);
    cv_init(&cv, 40, 10, CV_BRAILLE);
    cv_draw_chart(&cv, 0, 0, 40, 10, &c, NULL);
    cv_row_utf8(&cv, 0, r0, sizeof r0);
    cv_row_utf8(&cv, 1, r1, sizeof r1);
    char both[1100];
    snprintf(both, sizeof both, "%s|%s", r0, r1);
    CHECK(strstr(both, "╌ GACL") && strstr(both, "─ GSR") && strstr(both, "o/O overall") &&
          strstr(both, "h/H head") && strstr(both, "t/T tail"), "compact legend when narrow: '%s'", both);
    cv_free(&cv);
}

/* A combining mark (z̃: z and U+0303) shares its base's cell: "β·Σ z̃z̃ᵀ" takes 7 cells, not 9. */
static void test_combining(void)
{
    cv_canvas cv;
    cv_init(&cv, 12, 1, CV_BRAILLE);
    int n = cv_text(&cv, 0, 0, "β·Σ z̃z̃ᵀ|", -1, CV_RGB_DEFAULT, 0);
    CHECK(n == 8 && cv_text_width(&cv, "β·Σ z̃z̃ᵀ|") == 8, "8 cells written and measured (%d)", n);
    CHECK(cv_at(&cv, 4, 0)->ch == L'z' && cv_at(&cv, 4, 0)->mark == 0x303 && cv_at(&cv, 5, 0)->ch == L'z' &&
              cv_at(&cv, 5, 0)->mark == 0x303 && cv_at(&cv, 6, 0)->ch == 0x1D40 && cv_at(&cv, 7, 0)->ch == L'|',
          "z̃ z̃ in cells 4 and 5 with their marks, ᵀ next to them");
    cv_fill(&cv, 0, 0, 12, 1, L' ', CV_RGB_DEFAULT, 0);
    CHECK(cv_at(&cv, 4, 0)->mark == 0, "a fill clears the mark");
    cv_free(&cv);
}

int main(void)
{
    test_combining();
    test_braille_bits();
    test_block_ascii();
    test_lines();
    test_chart();
    test_log_chart();
    test_compact_legend();
    return tap_done();
}
