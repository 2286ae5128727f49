/* test_chart.c — the pure chart model: nice ticks, decade ticks, axis mapping, chart building
 * from hand-made results, CSV. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_chart.h"
#include "gs_common.h"
#include "gs_engine.h"
#include "gs_mtable.h"
#include "support/tap.h"
#include "fig_fake.h"

/* Is step a 1, 2 or 5 times a power of ten? */
static int is_nice(double step)
{
    double e = floor(log10(step) + 1e-9);
    double f = step / pow(10.0, e);
    return fabs(f - 1) < 1e-6 || fabs(f - 2) < 1e-6 || fabs(f - 5) < 1e-6 || fabs(f - 10) < 1e-6;
}

static void check_linear(double lo, double hi, int maxn, int snap)
{
    ch_axis ax;
    memset(&ax, 0, sizeof ax);
    ch_axis_linear(&ax, lo, hi, maxn, snap);
    char what[128];
    snprintf(what, sizeof what, "[%g, %g] maxn %d snap %d", lo, hi, maxn, snap);
    /* with snapping always two or more; without, 1-2-5 steps guarantee two from maxn 6 */
    CHECK(ax.nticks >= ((snap || maxn >= 6) ? 2 : 1), "%s: enough ticks (got %d)", what, ax.nticks);
    CHECK(ax.nticks <= (maxn < 3 ? 3 : maxn), "%s: at most maxn ticks (got %d)", what, ax.nticks);
    CHECK(ax.hi > ax.lo, "%s: non-empty range [%g, %g]", what, ax.lo, ax.hi);
    if (lo < hi) {
        if (snap) {
            CHECK(ax.lo <= lo && ax.hi >= hi, "%s: snapped range [%g, %g] covers data", what,
                  ax.lo, ax.hi);
            CHECK(ax.nticks >= 2 && fabs(ax.ticks[0] - ax.lo) <= 1e-9 * (ax.hi - ax.lo) &&
                      fabs(ax.ticks[ax.nticks - 1] - ax.hi) <= 1e-9 * (ax.hi - ax.lo),
                  "%s: end ticks at the snapped bounds", what);
        } else {
            CHECK(ax.lo == lo && ax.hi == hi, "%s: bounds kept", what);
        }
    }
    int inside = 1, even = 1, nice = 1;
    double step = 1;
    if (ax.nticks >= 2) {
        /* the step the ticks imply, rounded to 3 significant digits */
        double raw = (ax.ticks[ax.nticks - 1] - ax.ticks[0]) / (ax.nticks - 1);
        double p = pow(10.0, floor(log10(raw)) - 2);
        step = round(raw / p) * p;
    }
    for (int i = 0; i < ax.nticks; i++) {
        double tol = 1e-9 * (ax.hi - ax.lo);
        if (ax.ticks[i] < ax.lo - tol || ax.ticks[i] > ax.hi + tol) inside = 0;
        if (i && fabs(ax.ticks[i] - ax.ticks[i - 1] - step) > 1e-6 * step) even = 0;
        /* ticks are multiples of the step */
        double k = ax.ticks[i] / step;
        if (ax.nticks >= 2 && fabs(k - round(k)) > 1e-6 * fmax(1, fabs(k))) nice = 0;
    }
    CHECK(inside, "%s: ticks inside the axis", what);
    CHECK(even, "%s: evenly spaced", what);
    CHECK(nice && (ax.nticks < 2 || is_nice(step)), "%s: step %g is 1/2/5×10^k", what, step);
    /* labels distinct and parse back close to the tick */
    int distinct = 1, parse = 1;
    for (int i = 0; i < ax.nticks; i++) {
        if (i && strcmp(ax.tick_labels[i], ax.tick_labels[i - 1]) == 0) distinct = 0;
        double v = strtod(ax.tick_labels[i], NULL);
        if (fabs(v - ax.ticks[i]) > 0.01 * step + 1e-300) parse = 0;
        if (strstr(ax.tick_labels[i], "nan")) parse = 0;
    }
    CHECK(distinct, "%s: tick labels distinct", what);
    CHECK(parse, "%s: tick labels read back as the ticks", what);
}

static void test_linear(void)
{
    ch_axis ax;
    memset(&ax, 0, sizeof ax);
    ch_axis_linear(&ax, 0, 100, 6, 1);
    CHECK(ax.nticks == 6, "0..100 in 6: got %d ticks", ax.nticks);
    for (int i = 0; i < 6 && i < ax.nticks; i++) CHECK_NEAR(ax.ticks[i], 20.0 * i, 1e-12, "0..100 tick");
    CHECK(strcmp(ax.tick_labels[5], "100") == 0, "label '100' (got '%s')", ax.tick_labels[5]);

    ch_axis_linear(&ax, 0.13, 0.87, 5, 1);
    CHECK_NEAR(ax.lo, 0.0, 1e-12, "0.13..0.87 snapped lo");
    CHECK_NEAR(ax.hi, 1.0, 1e-12, "0.13..0.87 snapped hi");
    CHECK(strcmp(ax.tick_labels[1], "0.2") == 0 || strcmp(ax.tick_labels[1], "0.5") == 0,
          "decimal labels (got '%s')", ax.tick_labels[1]);

    double ranges[][2] = {{0, 1},      {0, 100},     {-3.7, 12.2}, {1e-12, 3e-12}, {5, 5},
                          {-1, -1},    {0, 0},       {1e6, 1e6 + 1}, {-250, -10}, {0.001, 1000},
                          {1, 10},     {2.5, 97.5},  {123456, 987654}, {-1e-9, 1e-9}, {3, 7}};
    int maxns[] = {2, 3, 5, 8, 12};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        for (size_t k = 0; k < sizeof maxns / sizeof maxns[0]; k++)
            for (int snap = 0; snap < 2; snap++) check_linear(ranges[i][0], ranges[i][1], maxns[k], snap);
    /* pseudo-random ranges (fixed LCG, deterministic) */
    unsigned long s = 12345;
    for (int i = 0; i < 200; i++) {
        s = s * 6364136223846793005UL + 1442695040888963407UL;
        double a = ((double)(s >> 11) / 9007199254740992.0 - 0.5) * pow(10, (int)(s % 9) - 4);
        s = s * 6364136223846793005UL + 1442695040888963407UL;
        double b = a + (double)(s >> 11) / 9007199254740992.0 * pow(10, (int)(s % 7) - 3);
        check_linear(a, b, 3 + (int)(s % 8), (int)(s >> 60) & 1);
    }
    /* NaN / infinite input never produces NaN ticks */
    ch_axis_linear(&ax, NAN, NAN, 5, 1);
    CHECK(ax.nticks >= 2 && isfinite(ax.lo) && isfinite(ax.hi), "NaN range falls back to finite");

    /* integer axis: whole-number ticks only, even for a short range */
    ch_axis_integer(&ax, 1, 3, 10, 0);
    int whole = ax.integer == 1;
    for (int i = 0; i < ax.nticks; i++) whole &= ax.ticks[i] == floor(ax.ticks[i]);
    CHECK(whole && ax.nticks == 3, "integer axis 1..3: %d whole ticks", ax.nticks);
    ch_axis_integer(&ax, 1, 10, 4, 0);
    CHECK(ax.nticks <= 4 && ax.nticks >= 2, "integer axis 1..10 maxn 4: %d ticks", ax.nticks);

    /* retick keeps the bounds and respects the new limit */
    ch_axis_linear(&ax, 0, 100, 11, 1);
    CHECK(ax.nticks == 11, "0..100 in 11: %d", ax.nticks);
    ch_axis_retick(&ax, 3);
    CHECK(ax.nticks <= 3 && ax.lo == 0 && ax.hi == 100, "retick to 3: %d ticks", ax.nticks);
}

static void test_log(void)
{
    ch_axis ax;
    memset(&ax, 0, sizeof ax);
    ch_axis_log10(&ax, 1e-3, 1e3, 8);
    CHECK(ax.scale == CH_LOG10, "log scale set");
    CHECK(ax.nticks == 7, "1e-3..1e3: 7 decade ticks (got %d)", ax.nticks);
    int dec = 1;
    for (int i = 0; i < ax.nticks; i++) dec &= fabs(log10(ax.ticks[i]) - (i - 3)) < 1e-12;
    CHECK(dec, "ticks are the decades 1e-3..1e3");
    CHECK(ax.minor == 1, "minor ticks on a 6-decade axis");
    CHECK(strcmp(ax.tick_labels[0], "1e-3") == 0 && strcmp(ax.tick_labels[3], "1") == 0 &&
              strcmp(ax.tick_labels[5], "100") == 0,
          "log labels '%s' '%s' '%s'", ax.tick_labels[0], ax.tick_labels[3], ax.tick_labels[5]);

    ch_axis_log10(&ax, 0.37, 2345, 8);
    CHECK_NEAR(ax.lo, 0.1, 1e-15, "log lo widened to the decade below");
    CHECK_NEAR(ax.hi, 1e4, 1e-9, "log hi widened to the decade above");
    CHECK(ax.nticks == 6, "0.37..2345: 6 ticks (got %d)", ax.nticks);

    /* count limit: 1e-12..1e12 (24 decades) in at most 5 ticks, all decades, equal stride */
    ch_axis_log10(&ax, 1e-12, 1e12, 5);
    CHECK(ax.nticks <= 5 && ax.nticks >= 2, "24 decades in <=5 ticks (got %d)", ax.nticks);
    int ok = 1;
    for (int i = 0; i < ax.nticks; i++) {
        double k = log10(ax.ticks[i]);
        ok &= fabs(k - round(k)) < 1e-9;
        if (i >= 2)
            ok &= fabs((log10(ax.ticks[i]) - log10(ax.ticks[i - 1])) -
                       (log10(ax.ticks[i - 1]) - log10(ax.ticks[i - 2]))) < 1e-9;
    }
    CHECK(ok, "strided decade ticks");
    CHECK(ax.minor == 0, "no minor ticks when decades are skipped");

    /* inside one decade: still two decade ticks bracketing the data */
    ch_axis_log10(&ax, 2, 5, 8);
    CHECK(ax.lo == 1 && ax.hi == 10 && ax.nticks == 2, "2..5 -> [1, 10], 2 ticks");
    /* non-positive lower bound does not produce NaN */
    ch_axis_log10(&ax, 0, 100, 8);
    CHECK(ax.lo > 0 && isfinite(ax.lo), "log lo=0 replaced by a positive decade");
    ch_axis_log10(&ax, -5, -1, 8);
    CHECK(ax.lo > 0 && ax.hi > ax.lo, "all-negative range falls back");
}

static void test_frac(void)
{
    ch_axis ax;
    memset(&ax, 0, sizeof ax);
    ch_axis_linear(&ax, 0, 100, 6, 1);
    CHECK_NEAR(ch_axis_frac(&ax, 25), 0.25, 1e-15, "linear frac 25 of 0..100");
    CHECK_NEAR(ch_axis_frac(&ax, 0), 0.0, 1e-15, "linear frac lo");
    CHECK_NEAR(ch_axis_frac(&ax, 100), 1.0, 1e-15, "linear frac hi");
    CHECK_NEAR(ch_axis_frac(&ax, 150), 1.5, 1e-15, "linear frac beyond (not clamped)");
    CHECK(isnan(ch_axis_frac(&ax, NAN)), "NaN maps to NaN");
    ch_axis_log10(&ax, 1, 100, 8);
    CHECK_NEAR(ch_axis_frac(&ax, 10), 0.5, 1e-15, "log frac 10 of 1..100");
    CHECK_NEAR(ch_axis_frac(&ax, sqrt(10.0)), 0.25, 1e-15, "log frac sqrt(10)");
    CHECK(isnan(ch_axis_frac(&ax, 0)) && isnan(ch_axis_frac(&ax, -1)), "log of <=0 is NaN");
}

static void test_style(void)
{
    uint32_t rgb;
    ch_dash d;
    ch_marker m;
    char l;
    ch_method_style("gacl", 0, &rgb, &d, &m, &l);
    CHECK(rgb == 0xe15759 && d == CH_DASH_DASHED && m == CH_MARK_CIRCLE, "slot 0 = GACL style");
    ch_method_style("gsr", 1, &rgb, &d, &m, &l);
    CHECK(rgb == 0x4e79a7 && d == CH_DASH_SOLID && m == CH_MARK_SQUARE && l == 'R', "slot 1 = GSR style");
    ch_method_style("whatever", 0, &rgb, &d, &m, &l);
    CHECK(rgb == 0xe15759 && d == CH_DASH_DASHED, "slot 0 style whatever the name");
    char l0, l1;
    ch_method_style("gacl", 0, NULL, NULL, NULL, &l0);
    ch_method_style("gsr", 1, NULL, NULL, NULL, &l1);
    CHECK(l0 != l1 && l0 && l1, "letters differ (%c, %c)", l0, l1);
    /* every row of the method table has its own letter, whatever its slot */
    const char *seen[64];
    char lt[64];
    int nn = 0, nl, na;
    const en_learner *const *Ls = mt_learners(&nl);
    const en_augmenter *const *As = mt_augmenters(&na);
    for (int i = 0; i < nl + na && nn < 64; i++) {
        const char *tok = i < nl ? Ls[i]->name : As[i - nl]->name;
        seen[nn] = tok;
        ch_method_style(tok, 2 + nn, NULL, NULL, NULL, &lt[nn]);
        for (int j = 0; j < nn; j++)
            CHECK(lt[j] != lt[nn], "%s and %s have different letters (%c, %c)", seen[j], tok, lt[j], lt[nn]);
        nn++;
    }
    CHECK(nn >= 10, "at least 10 methods listed (%d)", nn);
    uint32_t r2, r3;
    ch_method_style("slda", 2, &r2, NULL, NULL, NULL);
    ch_method_style("ncm", 3, &r3, NULL, NULL, NULL);
    CHECK(r2 != 0xe15759 && r2 != 0x4e79a7 && r3 != r2, "further slots get other colours");
    char b[32];
    ch_display_name("gsr", b, sizeof b);
    CHECK(strcmp(b, "GSR") == 0, "display name GSR");
}

static const ch_series *find(const ch_chart *c, int method, ch_kind kind, int ghost)
{
    for (int i = 0; i < c->nseries; i++)
        if (c->series[i].method == method && c->series[i].kind == kind && c->series[i].ghost == ghost)
            return &c->series[i];
    return NULL;
}

static void test_accuracy(void)
{
    en_results r, b;
    fake_results(&r, 7, 64, 1.0);
    ch_chart c;
    CHECK(ch_build_accuracy(&c, &r, NULL, 0, 1, 7) == GS_OK, "build accuracy");
    CHECK(c.nseries == 6, "accuracy: 6 series (got %d)", c.nseries);
    CHECK(c.y.lo == 0 && c.y.hi == 100, "shared 0..100 axis");
    CHECK(c.mark_x == 7, "mark at task 7");
    CHECK(strstr(c.note, "8") && strstr(c.note, "10") && strstr(c.note, "pending"),
          "note names pending tasks ('%s')", c.note);
    static const ch_kind kinds[3] = {CH_KIND_OVERALL, CH_KIND_HEAD, CH_KIND_TAIL};
    int vals = 1, gaps = 1, styles = 1;
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < 3; k++) {
            const ch_series *s = find(&c, m, kinds[k], 0);
            if (!s) { vals = 0; continue; }
            styles &= s->rgb == (m ? 0x4e79a7u : 0xe15759u);
            for (int t = 0; t < 10; t++) {
                double want = t >= 7 ? NAN : (k == 2 && t == 0) ? NAN : fake_acc(m, t, k);
                if (isnan(want)) gaps &= isnan(s->y[t]);
                else vals &= fabs(s->y[t] - want) < 1e-12 && s->x[t] == t + 1;
            }
        }
    CHECK(vals, "accuracy values equal the snapshots");
    CHECK(gaps, "pending tasks and empty tails are NaN gaps");
    CHECK(styles, "series colours follow the method slot");
    const ch_series *o = find(&c, 1, CH_KIND_OVERALL, 0), *t = find(&c, 1, CH_KIND_TAIL, 0);
    CHECK(o && t && strcmp(o->name, "GSR overall") == 0 && strcmp(t->name, "GSR tail") == 0,
          "series names");
    CHECK(o && t && o->width_pt > t->width_pt, "overall drawn heavier than head/tail");
    ch_free(&c);

    fake_results(&b, 10, 64, 0.9);
    CHECK(ch_build_accuracy(&c, &r, &b, 0, 1, 0) == GS_OK, "build accuracy with baseline");
    CHECK(c.nseries == 12, "baseline adds 6 ghost series (got %d)", c.nseries);
    const ch_series *g = find(&c, 1, CH_KIND_HEAD, 1);
    CHECK(g && g->ghost && fabs(g->y[9] - 0.9 * fake_acc(1, 9, 1)) < 1e-12, "ghost values from baseline");
    CHECK(c.mark_x == 10, "task 0 = last task");
    ch_free(&c);

    /* order reversed: gsr stays blue/solid, gacl red/dashed */
    CHECK(ch_build_accuracy(&c, &r, NULL, 1, 0, 3) == GS_OK, "build reversed");
    const ch_series *rg = find(&c, 1, CH_KIND_OVERALL, 0), *ra = find(&c, 0, CH_KIND_OVERALL, 0);
    CHECK(rg && ra && rg->rgb == 0x4e79a7 && rg->dash == CH_DASH_SOLID && ra->rgb == 0xe15759,
          "styles follow the names, not the order");
    ch_free(&c);
    /* gsr alone is still blue; another method next to gsr takes the GACL style */
    CHECK(ch_build_accuracy(&c, &r, NULL, 1, -1, 3) == GS_OK && c.series[0].rgb == 0x4e79a7,
          "gsr alone keeps the GSR style");
    ch_free(&c);
    strcpy(r.m[0].name, "slda");
    CHECK(ch_build_accuracy(&c, &r, NULL, 1, 0, 3) == GS_OK, "build gsr vs slda");
    ra = find(&c, 0, CH_KIND_OVERALL, 0);
    CHECK(ra && ra->rgb == 0xe15759 && ra->marker == CH_MARK_CIRCLE && ra->letter == 'L',
          "slda next to gsr takes the free GACL style, letter L");
    ch_free(&c);
    strcpy(r.m[0].name, "gacl");
    /* one method only */
    CHECK(ch_build_accuracy(&c, &r, NULL, 1, -1, 3) == GS_OK && c.nseries == 3, "m1 = -1: 3 series");
    ch_free(&c);
    fake_free(&b);
    fake_free(&r);
}

static void test_spectrum(void)
{
    en_results r;
    fake_results(&r, 7, 64, 1.0);
    ch_chart c;
    CHECK(ch_build_spectrum(&c, &r, NULL, 0, 1, 7) == GS_OK, "build spectrum");
    CHECK(c.nseries == 2, "spectrum: 2 series (got %d)", c.nseries);
    CHECK(c.y.scale == CH_LOG10, "log y axis");
    CHECK(c.y.lo <= 1e-3 * 1.0000001 && c.y.hi >= 1e3, "y axis covers 1e-3..1e3 [%g, %g]", c.y.lo, c.y.hi);
    int ok = c.nseries == 2;
    for (int m = 0; ok && m < 2; m++) {
        const ch_series *s = find(&c, m, CH_KIND_NONE, 0);
        ok &= s && s->n == 64;
        for (int i = 0; ok && i < 64; i++) ok &= s->y[i] == r.m[m].snaps[6].eig[i] && s->x[i] == i + 1;
    }
    CHECK(ok, "spectrum values are the eigenvalues, index 1..D");
    CHECK(c.x.lo == 1 && c.x.hi == 64, "x axis 1..D");
    ch_free(&c);

    /* at a task without EN_SPECTRUM: no series, note "spectrum pending" */
    CHECK(ch_build_spectrum(&c, &r, NULL, 0, 1, 3) == GS_OK, "build spectrum at task 3");
    CHECK(c.nseries == 0 && strcmp(c.note, "spectrum pending") == 0, "no spectrum: note '%s'", c.note);
    ch_free(&c);
    fake_free(&r);
}

static void test_stable_rank(void)
{
    en_results r;
    fake_results(&r, 7, 64, 1.0);
    ch_chart c;
    CHECK(ch_build_stable_rank(&c, &r, NULL, 0, 1, 5) == GS_OK, "build stable rank");
    CHECK(c.nseries == 2 && c.mark_x == 5, "2 series, mark at 5");
    const ch_series *s = find(&c, 1, CH_KIND_NONE, 0);
    CHECK(s && fabs(s->y[4] - r.m[1].snaps[4].stable_rank) < 1e-15 && isnan(s->y[8]),
          "stable rank values and gaps");
    CHECK(c.y.scale == CH_LINEAR && c.y.lo <= 1.5 && c.y.hi >= 3.0 + 0.6 * 6, "linear y covers data");
    ch_free(&c);
    /* more than a decade apart: log axis with decade ticks covering the data */
    for (int t = 0; t < 7; t++) r.m[1].snaps[t].stable_rank = pow(10.0, 0.35 * t);
    CHECK(ch_build_stable_rank(&c, &r, NULL, 0, 1, 5) == GS_OK && c.y.scale == CH_LOG10 &&
              c.y.lo <= 1 && c.y.hi >= pow(10.0, 2.1),
          "stable rank over 2 decades: log axis [%g, %g]", c.y.lo, c.y.hi);
    ch_free(&c);
    /* a method without a Gram matrix has no stable-rank curve */
    r.m[0].ridge = 0;
    CHECK(ch_build_stable_rank(&c, &r, NULL, 0, 1, 5) == GS_OK && c.nseries == 1, "non-ridge skipped");
    ch_free(&c);
    fake_free(&r);
}

/* The teaching run's stable ranks (issue #35): task 1's few rows give 625.5 (GACL) and 4.42
 * (GSR), later tasks 1.075 and 1.006. On a log axis of sr the two last points sat on one row;
 * the chart takes a log axis of sr − 1, on which they are rows apart, and marks the Lanczos
 * estimates (tasks 1–9) apart from the exact last task. */
static void test_stable_rank_near_one(void)
{
    en_results r;
    fake_results(&r, 10, 64, 1.0);
    for (int t = 0; t < 10; t++) {
        r.m[0].snaps[t].stable_rank = t == 0 ? 625.5135632 : t == 1 ? 1.525608553 : 1.07473038 + 0.001 * (9 - t);
        r.m[1].snaps[t].stable_rank = t == 0 ? 4.418122254 : 1.005828426;
        for (int m = 0; m < 2; m++) {
            if (t < 9) r.m[m].snaps[t].flags |= EN_LMAX_EST;
            else r.m[m].snaps[t].flags &= ~EN_LMAX_EST;
        }
    }
    ch_chart c;
    CHECK(ch_build_stable_rank(&c, &r, NULL, 0, 1, 10) == GS_OK, "build the teaching run's stable rank");
    const ch_series *ga = find(&c, 0, CH_KIND_NONE, 0), *gs = find(&c, 1, CH_KIND_NONE, 0);
    CHECK(c.y.scale == CH_LOG10 && c.y.shift == 1 && strstr(c.y.label, "sr \u2212 1"),
          "log axis of sr − 1, said in the label ('%s', shift %g)", c.y.label, c.y.shift);
    double rows = ga && gs ? fabs(ch_axis_frac(&c.y, ga->y[9]) - ch_axis_frac(&c.y, gs->y[9])) * 24 : 0;
    CHECK(rows >= 2, "task 10 on 24 rows: GACL 1.075 and GSR 1.006 are %.2f rows apart (≥ 2)", rows);
    CHECK(ga && fabs(ga->y[0] - 625.5135632) < 1e-9 && fabs(ch_axis_frac(&c.y, ga->y[0]) - 1) < 0.2,
          "the values stay stable ranks (CSV), task 1 near the top");
    int labels = 0;
    for (int i = 0; i < c.y.nticks; i++)
        labels += strcmp(c.y.tick_labels[i], "1.01") == 0 || strcmp(c.y.tick_labels[i], "2") == 0 ||
                  strcmp(c.y.tick_labels[i], "1001") == 0;
    CHECK(labels == 3, "ticks labelled as stable ranks: 1.01, 2, 1001 (%d of 3)", labels);
    int est = ga && gs && ga->est && gs->est;
    for (int t = 0; est && t < 10; t++) est &= ga->est[t] == (t < 9) && gs->est[t] == (t < 9);
    CHECK(est, "tasks 1–9 marked estimates, task 10 exact");
    CHECK(strstr(c.note, "Lanczos estimates: tasks 1\u20139") != NULL, "note: '%s'", c.note);
    /* hiding the later tasks and fitting y again keeps the same choice and its label */
    ch_hide_after(&c, 5);
    ch_axis_auto_y(&c, 1);
    CHECK(c.y.shift == 1 && strstr(c.y.label, "sr \u2212 1"), "tasks 1–5: still sr − 1 ('%s')", c.y.label);
    ch_axis_auto_y(&c, 0);
    CHECK(c.y.scale == CH_LINEAR && c.y.shift == 0 && strcmp(c.y.label, "stable rank of G+\u03c4I") == 0,
          "a linear axis drops the shift and its words ('%s')", c.y.label);
    ch_free(&c);
    /* values far from 1 keep the plain axes */
    fake_free(&r);
    fake_results(&r, 7, 64, 1.0);
    CHECK(ch_build_stable_rank(&c, &r, NULL, 0, 1, 5) == GS_OK && c.y.shift == 0 && !strstr(c.y.label, "\u2212"),
          "1.5 .. 6.6: no shift ('%s')", c.y.label);
    ch_free(&c);
    fake_free(&r);
}

static void test_csv(void)
{
    en_results r;
    fake_results(&r, 7, 64, 1.0);
    ch_chart c;
    ch_build_accuracy(&c, &r, NULL, 0, 1, 7);
    FILE *f = tmpfile();
    CHECK(f && ch_write_csv(&c, f) == GS_OK, "write csv");
    rewind(f);
    char line[256];
    int rows = 0, header = 0, match = 1;
    while (fgets(line, sizeof line, f)) {
        if (!header) { header = strcmp(line, "chart,series,x,y\n") == 0; continue; }
        char chart[64], series[64];
        double x, y;
        if (sscanf(line, "%63[^,],%63[^,],%lf,%lf", chart, series, &x, &y) != 4) { match = 0; continue; }
        rows++;
        int found = 0;
        for (int i = 0; i < c.nseries; i++)
            if (strcmp(c.series[i].name, series) == 0) {
                int k = (int)x - 1;
                found = k >= 0 && k < c.series[i].n && c.series[i].y[k] == y; /* exact round trip */
            }
        match &= found && strcmp(chart, "Accuracy") == 0;
    }
    int want = 0;
    for (int i = 0; i < c.nseries; i++)
        for (int k = 0; k < c.series[i].n; k++) want += isfinite(c.series[i].y[k]);
    CHECK(header, "csv header");
    CHECK(rows == want, "csv rows = finite points (%d vs %d)", rows, want);
    CHECK(match, "csv values read back exactly");
    CHECK(want == 2 * (7 + 7 + 6), "finite points counted independently (%d)", want);
    fclose(f);
    ch_free(&c);
    char b[40];
    CHECK(strcmp(ch_fmt_double(0.1, b, sizeof b), "0.1") == 0, "fmt 0.1");
    CHECK(strtod(ch_fmt_double(1.0 / 3, b, sizeof b), NULL) == 1.0 / 3, "fmt 1/3 round-trips");
    CHECK(strcmp(ch_fmt_double(NAN, b, sizeof b), "nan") == 0, "fmt NaN");
    fake_free(&r);
}

int main(void)
{
    test_linear();
    test_log();
    test_frac();
    test_style();
    test_accuracy();
    test_spectrum();
    test_stable_rank();
    test_stable_rank_near_one();
    test_csv();
    return tap_done();
}
