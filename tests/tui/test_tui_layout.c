/* test_tui_layout.c — the TUI screen's layout (src/tui/tui_layout.c, gs_tui.h): too small a
 * screen refused, and at every size the panels inside it, large enough, covering it once. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gs_canvas.h"
#include "gs_common.h"
#include "gs_tui.h"
#include "support/tap.h"

static void test_layout(void)
{
    tui_layout l;
    CHECK(tui_layout_compute(TUI_MIN_COLS - 1, 40, &l) == -1, "too narrow");
    CHECK(tui_layout_compute(120, TUI_MIN_ROWS - 1, &l) == -1, "too short");
    CHECK(tui_layout_compute(80, 24, &l) == 0, "80x24 fits");
    CHECK(l.params.h - 2 >= 9, "80x24: parameters panel has 9 rows inside (%d)", l.params.h - 2);
    CHECK(tui_layout_compute(120, 40, &l) == 0, "120x40 fits");
    CHECK(l.accuracy.w >= 60 && l.accuracy.h >= 18, "120x40 accuracy %dx%d", l.accuracy.w, l.accuracy.h);
    int bad = 0, sizes = 0;
    static unsigned char cover[300 * 100];
    for (int W = TUI_MIN_COLS; W <= 300; W += 7)
        for (int H = TUI_MIN_ROWS; H <= 100; H += 3) {
            if (tui_layout_compute_msg(W, H, 1 + (W / 7 + H) % 3, &l)) { bad++; continue; }
            sizes++;
            memset(cover, 0, sizeof cover);
            tui_rect r[7] = {l.status, l.accuracy, l.spectrum, l.stable, l.params, l.hint, l.message};
            for (int k = 0; k < 7; k++) {
                if (r[k].x < 0 || r[k].y < 0 || r[k].x + r[k].w > W || r[k].y + r[k].h > H) bad++;
                if (k >= 1 && k <= 4 && (r[k].w - 2 < CV_CHART_MIN_W || r[k].h - 2 < CV_CHART_MIN_H + 1)) bad++;
                for (int y = r[k].y; y < r[k].y + r[k].h; y++)
                    for (int x = r[k].x; x < r[k].x + r[k].w; x++) cover[y * W + x]++;
            }
            if (l.params.w < 40) bad++;
            for (int i = 0; i < W * H; i++) if (cover[i] != 1) { bad++; break; }
        }
    CHECK(bad == 0 && sizes > 100, "%d sizes: panels inside, large enough, cover the screen once (%d bad)", sizes, bad);
}

int main(void)
{
    test_layout();
    return tap_done();
}
