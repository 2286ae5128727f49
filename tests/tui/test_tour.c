/* test_tour.c — the tour format (gs_tour.h): a full file parsed field by field, steps keep
 * "unchanged" markers, and every malformed line refused with FILE: line N. */
#include <string.h>

#include "gs_common.h"
#include "gs_tour.h"
#include "support/tap.h"

static int refused(const char *text, const char *want)
{
    tr_tour t;
    int st = tr_parse(text, "x.tour", &t);
    int ok = st == GS_EINPUT && strstr(gs_last_error(), want) != NULL;
    if (!ok) printf("# got: %s\n", gs_last_error());
    if (st == GS_OK) tr_free(&t);
    return ok;
}

int main(void)
{
    const char *good = "# a comment\n"
                       "title: A tour\n"
                       "data: synthetic\n"
                       "\n"
                       "step: One\n"
                       "preset: teaching\n"
                       "set: tau=10  beta=2\n"
                       "task: 3\n"
                       "view: claims\n"
                       "panel: spectrum\n"
                       "future: on\n"
                       "text: first line\n"
                       "text:   second line  \n"
                       "step: Two\n"
                       "task: last\n"
                       "text: a\n"
                       "text: b\n"
                       "text: c\n"
                       "text: d\n";
    tr_tour t;
    CHECK(tr_parse(good, "g.tour", &t) == GS_OK, "a good tour parses: %s", gs_last_error());
    CHECK(t.n == 2 && !strcmp(t.title, "A tour") && !strcmp(t.data, "synthetic"), "title, data, two steps");
    const tr_step *a = &t.steps[0], *b = &t.steps[1];
    CHECK(!strcmp(a->title, "One") && !strcmp(a->preset, "teaching") && a->nset == 2 && !strcmp(a->set[0], "tau=10") &&
              !strcmp(a->set[1], "beta=2"), "step 1: preset and set");
    CHECK(a->task == 3 && a->view == 6 && a->panel == TR_PANEL_SPECTRUM && a->future == 1, "step 1: task, view, panel, future");
    CHECK(a->ntext == 2 && !strcmp(a->text[1], "second line"), "step 1: text lines trimmed");
    CHECK(b->task == -1 && b->view == -1 && b->future == -1 && b->panel == TR_PANEL_NONE && !b->preset[0] && b->ntext == 4,
          "step 2: last task, the rest unchanged");
    tr_free(&t);
    CHECK(refused("title: x\n", "no step"), "no step");
    CHECK(refused("step: s\ntext: only one\n", "line 1: step \"s\" needs two to four"), "one text line");
    CHECK(refused("step: s\ntext: 1\ntext: 2\ntext: 3\ntext: 4\ntext: 5\n", "line 6: step \"s\" has more than 4"), "five lines");
    CHECK(refused("step: s\nview: sideways\ntext: a\ntext: b\n", "line 2: view: unknown \"sideways\""), "bad view");
    CHECK(refused("step: s\ntask: 0\ntext: a\ntext: b\n", "line 2: task:"), "task 0");
    CHECK(refused("step: s\nset: tau\ntext: a\ntext: b\n", "line 2: set:"), "set without =");
    CHECK(refused("step: s\ncolour: red\ntext: a\ntext: b\n", "line 2: unknown key \"colour\""), "unknown key");
    CHECK(refused("text: a\n", "line 1: \"text:\" before the first step"), "text before a step");
    CHECK(refused("step: s\njust words\n", "line 2: expected \"key: value\""), "no colon");
    CHECK(refused("data: mars\n", "data: expected bundled, mobilenetv2 or synthetic"), "bad data");
    CHECK(refused("step: s\npanel: left\ntext: a\ntext: b\n", "panel: expected"), "bad panel");
    CHECK(tr_load("/nonexistent/x.tour", &t) == GS_EINPUT && strstr(gs_last_error(), "/nonexistent/x.tour: cannot open"),
          "missing file named");
    return tap_done();
}
