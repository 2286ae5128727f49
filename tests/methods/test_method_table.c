/* test_method_table.c — the method table (gs_mtable.h): a throwaway learner and a throwaway
 * augmenter added through their rows alone (mt_test_add_*, a struct each and nothing else) are
 * seen in --help's "Methods:" section, in --methods (resolved, run: their results appear), in the
 * display names and letters the tables, figures and legends read, and in an exported figure's
 * data (the accuracy figure's CSV: its legend names). Without the rows every check fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_chart.h"
#include "gs_common.h"
#include "gs_figure.h"
#include "gs_mtable.h"
#include "gs_opts.h"
#include "problem.h"
#include "tap.h"


/* A ridge learner that only says its τ: ten times the user's (so its results are its own). */
static double toy_tau(en_mctx *m, int t, double tau)
{
    (void)m; (void)t;
    return 10 * tau;
}

static const en_learner TOY_LEARNER = {
    .name = "toyl", .display = "ToyLearner", .letter = 'Z',
    .summary = "a test-only learner: ridge with ten times tau", .family = EN_RIDGE, .tau_eff = toy_tau,
};

/* An augmenter that copies the first two rows of each class of task t (weight 1). */
static int toy_rows(en_mctx *m, int t, en_emitter *em)
{
    const en_problem *p = m->p;
    const st_stream *st = p->st;
    for (int k = st->task_class_start[t]; k < st->task_class_start[t + 1]; k++) {
        int c = st->class_order[k];
        for (long i = 0; i < 2 && i < st->class_kept[c]; i++) {
            long row = st->class_row_start[c] + i;
            int rc = en_emit_x(em, p->z.v + row * p->d, c, 1.0);
            if (rc) return rc;
        }
    }
    return GS_OK;
}

static const en_augmenter TOY_AUG = {
    .name = "toya", .display = "ToyAug", .letter = 'Q',
    .summary = "a test-only augmenter: copies of two rows per class", .deps = EN_DEP_PAIRS, .rows = toy_rows,
};

static op_params defaults(void)
{
    op_params q = {0};
    q.alpha_base = 0.6; q.xi = 5e-3; q.beta = 1; q.tau = 0.01; q.seed = 1; q.pairs = OP_PAIRS_ALL;
    q.max_aug = 1000; q.augment = OP_AUG_ALL; q.gauss_a = 0.1; q.gauss_b = 1; q.slda_eps = 1e-4;
    return q;
}

/* Whether the table knows the rows: names, help, display names, letters, parameters. */
static void check_names(int present)
{
    const char *help = op_usage(NULL, 0, mt_help(), NULL);
    const char *sec = strstr(help, "Methods:\n");
    CHECK(sec != NULL, "--help has a Methods: section");
    int in_help = sec && strstr(sec, "toyl ") && strstr(sec, "a test-only learner: ridge with ten times tau") &&
                  strstr(sec, "toya ") && strstr(sec, "a test-only augmenter: copies of two rows per class");
    CHECK(in_help == present, "--help %s the test rows' lines", present ? "lists" : "does not list");
    CHECK(mt_known("toyl") == present && mt_known("toyl+gsr") == present && mt_known("toya") == present &&
              mt_known("anacp+toya") == present && mt_known("toyl+toya") == present,
          "--methods %s toyl, toyl+gsr, toya (= gacl+toya), anacp+toya, toyl+toya", present ? "accepts" : "refuses");
    char d[64];
    mt_display_name("toyl+toya", d, sizeof d);
    CHECK(!strcmp(d, present ? "ToyLearner + ToyAug" : "toyl+toya"), "display name of toyl+toya: %s", d);
    ch_display_name("toya", d, sizeof d);
    CHECK(!strcmp(d, present ? "ToyAug" : "toya"), "chart display name of toya: %s", d);
    mt_display_name("toyl+gsr", d, sizeof d);
    CHECK(!strcmp(d, present ? "ToyLearner + GSR" : "toyl+gsr"), "display name of toyl+gsr: %s", d);
    char l = 0;
    ch_method_style("toyl", 3, NULL, NULL, NULL, &l);
    CHECK((l == 'Z') == present, "chart letter of toyl: %c", l);
    ch_method_style("toya", 4, NULL, NULL, NULL, &l);
    CHECK((l == 'Q') == present, "chart letter of toya: %c", l);
    CHECK(mt_uses("toyl", "tau") == present && !mt_uses("toyl", "pairs"), "τ acts on toyl (a ridge learner)");
    CHECK(mt_uses("toyl+toya", "pairs") == present && !mt_uses("toyl+toya", "beta"),
          "--pairs acts on toyl+toya (its augmenter's deps); β not (weight 1)");
}

/* A run of gacl, toyl, toyl+toya and toya (= gacl+toya): every method done, its own τ, its
 * augmenter's rows; then the accuracy figure of toyl and toyl+toya exported with its data. */
static void check_run(void)
{
    tp_problem tp;
    CHECK(tp_make(&tp, 6, 8, 12, 2, 5, 3, 5, 0) == GS_OK, "problem: %s", gs_last_error());
    const char *names[] = {"gacl", "toyl", "toyl+toya", "toya"};
    en_config cfg = {0};
    cfg.methods = names;
    cfg.n_methods = 4;
    cfg.spectrum = OP_SPECTRUM_FINAL;
    CHECK(mt_resolve(&cfg) == GS_OK, "resolved: %s", gs_last_error());
    CHECK(cfg.method[1].L == &TOY_LEARNER && !cfg.method[1].A && cfg.method[2].L == &TOY_LEARNER &&
              cfg.method[2].A == &TOY_AUG && cfg.method[3].A == &TOY_AUG && !strcmp(cfg.method[3].L->name, "gacl"),
          "the engine receives the rows themselves");
    en_engine *e = NULL;
    op_params q = defaults();
    int rc = en_create(&e, &tp.prob, &cfg);
    CHECK(rc == GS_OK, "en_create: %s", gs_last_error());
    if (!rc) rc = en_update(e, &q, 1, NULL, NULL, NULL);
    CHECK(rc == GS_OK, "en_update: %s", gs_last_error());
    if (rc) { en_destroy(e); tp_free(&tp); return; }
    const en_results *r = en_get_results(e);
    int T = r->T, done = 1;
    for (int m = 0; m < 4; m++)
        for (int t = 0; t < T; t++) done &= r->m[m].snaps[t].state == EN_DONE && isfinite(r->m[m].snaps[t].acc);
    CHECK(done, "every task of every method done");
    CHECK(!strcmp(r->m[1].learner, "toyl") && !strcmp(r->m[2].augmenter, "toya") && r->m[1].ridge,
          "results name the learner and augmenter (%s, %s)", r->m[1].learner, r->m[2].augmenter);
    CHECK(r->m[1].snaps[T - 1].tau == 10 * q.tau && r->m[0].snaps[T - 1].tau == q.tau,
          "toyl's solve used its own τ (%g), gacl the user's (%g)", r->m[1].snaps[T - 1].tau, r->m[0].snaps[T - 1].tau);
    CHECK(r->m[2].snaps[T - 1].aug_rows > 0 && r->m[3].snaps[T - 1].aug_rows > 0 && r->m[1].snaps[T - 1].aug_rows == 0,
          "toya's rows reached toyl+toya (%ld) and toya (%ld), none toyl", r->m[2].snaps[T - 1].aug_rows,
          r->m[3].snaps[T - 1].aug_rows);
    int ref, aug;
    CHECK(en_results_pair(r, 2, 1, &ref, &aug) && ref == 1 && aug == 2, "toyl is toyl+toya's reference");

    ch_chart c;
    CHECK(ch_build_accuracy(&c, r, NULL, 1, 2, T) == GS_OK, "accuracy chart");
    int legend = 0;
    for (int i = 0; i < c.nseries; i++)
        legend += !strcmp(c.series[i].method_name, "ToyLearner") || !strcmp(c.series[i].method_name, "ToyLearner + ToyAug");
    CHECK(legend >= 2, "the chart's legend names ToyLearner and ToyLearner + ToyAug (%d series)", legend);
    ch_free(&c);

    /* export: the accuracy figure and its data CSV, whose series carry the legend's names */
    char dir[] = "/tmp/gs_mtable_XXXXXX", png[96], csv[96];
    CHECK(mkdtemp(dir) != NULL, "temporary folder");
    snprintf(png, sizeof png, "%s/acc.png", dir);
    snprintf(csv, sizeof csv, "%s/acc.csv", dir);
    op_opts o;
    op_defaults(&o);
    fig_request req;
    memset(&req, 0, sizeof req);
    req.r = r;
    req.prob = &tp.prob;
    req.opts = &o;
    req.m0 = 1;
    req.m1 = 2;
    req.dpi = 72;
    rc = fig_export(&req, "accuracy", png, csv);
    CHECK(rc == GS_OK, "export accuracy: %s", gs_last_error());
    size_t n = 0;
    unsigned char *text = rc ? NULL : tap_slurp(csv, &n);
    char *s = text ? calloc(n + 1, 1) : NULL;
    if (s) memcpy(s, text, n);
    CHECK(s && strstr(s, "ToyLearner + ToyAug") && strstr(s, "ToyLearner"), "export's data names the methods by their rows");
    free(s);
    free(text);
    unlink(png);
    unlink(csv);
    rmdir(dir);
    en_destroy(e);
    tp_free(&tp);
}

int main(void)
{
    check_names(0);
    CHECK(mt_test_add_learner(&TOY_LEARNER) == GS_OK && mt_test_add_augmenter(&TOY_AUG) == GS_OK,
          "the two rows added: %s", gs_last_error());
    CHECK(mt_test_add_learner(&TOY_LEARNER) == GS_EINPUT, "a name is one row");
    check_names(1);
    check_run();
    mt_test_rows_clear();
    check_names(0);
    en_method m;
    CHECK(mt_parse("toyl", &m) == GS_EINPUT && strstr(gs_last_error(), "unknown method 'toyl'") &&
              strstr(gs_last_error(), "learners: gacl,air"),
          "after the rows go: the one unknown-method message (%s)", gs_last_error());
    return tap_done();
}
