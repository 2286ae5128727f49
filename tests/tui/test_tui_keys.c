/* test_tui_keys.c — the TUI's one key table (src/tui/tui_keys.c, gs_tui.h): no key bound twice,
 * one entry per action, the lookup, and the help generated from the table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gs_canvas.h"
#include "gs_common.h"
#include "gs_tui.h"
#include "support/tap.h"

static void test_keys(void)
{
    int n;
    const tui_key *k = tui_keys(&n);
    int dup = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < TUI_KEY_ALIASES && k[i].keys[j]; j++)
            for (int i2 = 0; i2 < n; i2++)
                for (int j2 = 0; j2 < TUI_KEY_ALIASES && k[i2].keys[j2]; j2++)
                    if ((i != i2 || j != j2) && k[i].keys[j] == k[i2].keys[j2]) dup++;
    CHECK(dup == 0, "no key bound twice");
    for (int a = TA_PLAY; a <= TA_QUIT; a++) {
        int found = 0;
        for (int i = 0; i < n; i++) found += k[i].act == (tui_action)a && k[i].keys[0];
        CHECK(found == 1, "action %d has exactly one table entry with keys", a);
    }
    CHECK(tui_key_action('n') == TA_NEXT && tui_key_action('p') == TA_PREV, "n/p");
    CHECK(tui_key_action(' ') == TA_PLAY && tui_key_action('q') == TA_QUIT, "space/q");
    CHECK(tui_key_action('?') == TA_HELP && tui_key_action('x') == TA_NONE, "?/unbound");
    static char lines[TUI_HELP_MAX][TUI_HELP_LEN];
    int m = tui_help_lines(lines, TUI_HELP_MAX);
    CHECK(m > n, "help has one line per key entry, then the numbers (%d vs %d)", m, n);
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= strstr(lines[i], k[i].help) != NULL && strstr(lines[i], k[i].keyname) == lines[i];
    CHECK(ok, "help lines are generated from the table");
}

int main(void)
{
    test_keys();
    return tap_done();
}
