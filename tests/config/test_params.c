/* test_params.c — the parameter table (gs_params.h) is the one place a parameter is written:
 * walks every row and checks that the defaults, validation, --help, the man page, the TUI's
 * panel (range and step), tune's ranges, sweep's names, sessions and presets all come from it;
 * then changes rows at run time (through pa_table_mut) and checks that every place follows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_common.h"
#include "gs_engine.h"
#include "gs_mtable.h"
#include "gs_opts.h"
#include "gs_params.h"
#include "gs_preset.h"
#include "gs_session.h"
#include "gs_tui.h"
#include "gs_tune.h"
#include "support/tap.h"

/* The lines of --help that describe `--name`: its line and the continuation lines under it. */
static void help_of(const char *help, const char *name, char *out, size_t cap)
{
    char key[64];
    snprintf(key, sizeof key, "\n  --%s ", name);
    out[0] = 0;
    const char *p = strstr(help, key);
    if (!p) return;
    p++;
    const char *e = p;
    do { e = strchr(e, '\n'); if (!e) e = p + strlen(p); else e++; } while (*e && !strncmp(e, "                           ", 27));
    size_t n = (size_t)(e - p) < cap - 1 ? (size_t)(e - p) : cap - 1;
    memcpy(out, p, n);
    out[n] = 0;
}

/* man/gsrscope.1 without troff escapes: the paragraph after `.BI \-\-name`. */
static void man_of(const char *man, const char *name, char *out, size_t cap)
{
    char key[80] = "\n.BI \\-\\-", raw[2048];
    for (const char *s = name; *s && strlen(key) + 3 < sizeof key; s++) {
        size_t L = strlen(key);
        if (*s == '-') snprintf(key + L, sizeof key - L, "\\-");
        else snprintf(key + L, sizeof key - L, "%c", *s);
    }
    out[0] = 0;
    const char *p = strstr(man, key);
    while (p && p[strlen(key)] != ' ' && p[strlen(key)] != '\n') p = strstr(p + 1, key); /* --tau, not --tau-x */
    if (!p) return;
    p++;
    const char *e = strstr(p, "\n.TP");
    const char *e2 = strstr(p, "\n.SH");
    if (!e || (e2 && e2 < e)) e = e2;
    if (!e) e = p + strlen(p);
    size_t n = (size_t)(e - p) < sizeof raw - 1 ? (size_t)(e - p) : sizeof raw - 1;
    memcpy(raw, p, n);
    raw[n] = 0;
    size_t o = 0;
    for (const char *s = raw; *s && o + 4 < cap;) {
        if (!strncmp(s, "\\-", 2)) { out[o++] = '-'; s += 2; }
        else if (!strncmp(s, "\\(>=", 4)) { memcpy(out + o, "≥", 3); o += 3; s += 4; }
        else if (!strncmp(s, "\\f", 2) && s[2]) s += 3;
        else if (*s == '"') s++;
        else if (*s == '\n') { out[o++] = ' '; s++; }
        else out[o++] = *s++;
    }
    out[o] = 0;
}

/* The text between `from` and `to` in s (both must be there), troff escapes read as the page
 * shows them (\- as -, \(em as —, fonts dropped), lines joined with spaces. */
static void section_of(const char *s, const char *from, const char *to, char *out, size_t cap)
{
    out[0] = 0;
    const char *p = s ? strstr(s, from) : NULL, *e = p ? strstr(p, to) : NULL;
    if (!e) return;
    size_t o = 0;
    for (; p < e && o + 4 < cap;) {
        if (!strncmp(p, "\\-", 2)) { out[o++] = '-'; p += 2; }
        else if (!strncmp(p, "\\(em", 4)) { memcpy(out + o, "—", 3); o += 3; p += 4; }
        else if (!strncmp(p, "\\f", 2) && p + 2 < e) p += 3;
        else if (*p == '\n') { out[o++] = ' '; p++; while (*p == ' ') p++; }
        else out[o++] = *p++;
    }
    out[o] = 0;
}

static int count_of(const char *s, const char *w)
{
    int n = 0;
    for (const char *p = strstr(s, w); p; p = strstr(p + 1, w)) n++;
    return n;
}

/* tune's parameters: --help's `--param` under "Tune:" and the man page's TUNE OPTIONS (the
 * grids and the --param entry) name the rows tune searches, each with the row's grid, and no
 * other. */
static void check_tune_lists(const char *man, const char *why)
{
    char h[1024], m[4096], t[96];
    section_of(op_usage(NULL, 0, mt_help(), NULL), "\nTune:\n", "\n  --objective", h, sizeof h);
    section_of(man, "\n.SH TUNE OPTIONS", "\n.BI \\-\\-objective", m, sizeof m);
    CHECK(h[0] && (m[0] || !man), "%s: tune's --help and man sections found", why);
    int n = 0;
    for (int i = 0; i < pa_count(); i++) {
        const pa_param *r = &pa_table()[i];
        if (!pa_tunable(r)) continue;
        n++;
        pa_tune_text(r, t, sizeof t);
        CHECK(strstr(h, t) != NULL, "%s: --help lists '%s': '%s'", why, t, h);
        if (man) {
            const char *entry = strstr(m, ".BI --param");
            CHECK(strstr(m, t) != NULL && entry && strstr(entry, pa_key(r)), "%s: the man page's TUNE OPTIONS give '%s' and list %s under --param",
                  why, t, pa_key(r));
        }
    }
    CHECK(count_of(h, " points") == n, "%s: --help lists %d grids, the table has %d tunable rows: '%s'", why, count_of(h, " points"), n, h);
    if (man) CHECK(count_of(m, " points") == n, "%s: the man page lists %d grids, the table has %d tunable rows", why, count_of(m, " points"), n);
}

/* The number options that are not parameters (pa_options: export's --dpi, --frame-ms, --width-in,
 * --font-scale): --help and the man page give each row's range, the parser refuses a value just
 * outside it (naming the range) and takes its ends and 0 (the default); no session or --param
 * knows them. */
static void test_option_rows(void)
{
    size_t mn = 0;
    char *man = (char *)tap_slurp("man/gsrscope.1", &mn);
    CHECK(pa_option_count() >= 4, "%d number options", pa_option_count());
    for (int i = 0; i < pa_option_count(); i++) {
        const pa_param *r = &pa_options()[i];
        char range[96], h[1024], m[2048], opt[64], lo[32], hi[32], below[32], above[32];
        pa_range_text(r, range, sizeof range);
        CHECK(pa_find_option(r->name) == r && !pa_find(r->name), "--%s: an option row, not a parameter", r->name);
        help_of(op_usage(NULL, 0, mt_help(), NULL), r->name, h, sizeof h);
        CHECK(h[0] && strstr(h, range), "--help: --%s shows %s: '%s'", r->name, range, h);
        if (man) {
            man_of(man, r->name, m, sizeof m);
            CHECK(m[0] && strstr(m, range + 3), "man/gsrscope.1: --%s says %s: '%.200s'", r->name, range + 3, m);
        }
        snprintf(opt, sizeof opt, "--%s", r->name);
        snprintf(lo, sizeof lo, "%.17g", r->lo);
        snprintf(hi, sizeof hi, "%.17g", r->hi);
        snprintf(below, sizeof below, "%.17g", r->kind == PA_DBL ? r->lo * 0.99 : r->lo - 1);
        snprintf(above, sizeof above, "%.17g", r->kind == PA_DBL ? r->hi * 1.01 : r->hi + 1);
        const char *vals[] = {lo, hi, "0", below, above};
        for (int k = 0; k < 5; k++) {
            char *argv[] = {"gsrscope", "export", "--frames", opt, (char *)vals[k], NULL}; /* --frame-ms needs --frames */
            op_opts o;
            int rc = op_parse(&o, 5, argv);
            if (k < 3) CHECK(rc == GS_OK && pa_get(&o, r) == strtod(vals[k], NULL), "%s %s accepted: %s", opt, vals[k], gs_last_error());
            else CHECK(rc == GS_EINPUT && strstr(gs_last_error(), range), "%s %s refused naming %s: %s", opt, vals[k], range, gs_last_error());
        }
        op_opts o;
        op_defaults(&o);
        CHECK(op_set(&o, r->name, lo) == GS_EINPUT, "%s: no parameter (sessions, --param)", r->name);
    }
    free(man);
}

static void test_rows(void)
{
    op_opts *o = malloc(sizeof *o);
    op_defaults(o);
    size_t mn = 0;
    char *man = (char *)tap_slurp("man/gsrscope.1", &mn);
    CHECK(man != NULL, "man/gsrscope.1 readable");
    const char *help = op_usage(NULL, 0, mt_help(), NULL);
    int nrow = pa_count();
    CHECK(nrow >= 26, "%d rows", nrow);
    for (int i = 0; i < nrow; i++) {
        const pa_param *r = &pa_table()[i];
        char range[96], def[48], h[1024], m[2048], want[160];
        pa_range_text(r, range, sizeof range);
        pa_default_text(r, def, sizeof def);
        /* default and validity */
        CHECK(pa_get(o, r) == r->def && pa_in_range(r, r->def), "%s: op_defaults gives the row's default %s, in its range %s", r->name, def, range);
        CHECK(pa_find(r->name) == r && pa_find(pa_key(r)) == r, "%s: found by name and as %s", r->name, pa_key(r));
        /* --help: the row's line, with its range and default */
        help_of(help, r->name, h, sizeof h);
        snprintf(want, sizeof want, "default %s", def);
        CHECK(h[0] && strstr(h, range) && strstr(h, want), "--help: --%s shows %s and %s: '%s'", r->name, range, want, h);
        /* the man page: a paragraph for the option with the same range and default */
        if (man) {
            man_of(man, r->name, m, sizeof m);
            CHECK(m[0] && strstr(m, range) && strstr(m, want), "man/gsrscope.1: --%s says %s and %s: '%.200s'", r->name, range, want, m);
        }
        /* validation: the ends of the range */
        if (r->kind != PA_ENUM) {
            char v[64];
            op_opts *t = malloc(sizeof *t);
            double below = (r->bounds & PA_LO_OPEN) ? r->lo : r->lo - 1;
            if (r->word && below == r->word_val) below -= 1; /* --max-aug -1 is `all` */
            *t = *o;
            snprintf(v, sizeof v, "%.17g", below);
            int refused = (r->bounds & PA_ZERO_UNSET) && below == 0 ? 1 : op_set(t, r->name, v) == GS_EINPUT;
            CHECK(refused, "%s=%s refused (range %s)", r->name, v, range);
            if (isfinite(r->hi)) {
                *t = *o;
                snprintf(v, sizeof v, "%.17g", (r->bounds & PA_HI_OPEN) ? r->hi : r->hi * 2 + 1);
                CHECK(op_set(t, r->name, v) == GS_EINPUT && strstr(gs_last_error(), range), "%s=%s refused: %s", r->name, v, gs_last_error());
            }
            free(t);
        }
        /* the TUI's panel: every labelled row, stepping inside the valid range */
        tui_param tp = tui_param_find(r->name);
        CHECK((r->label != NULL) == (tp >= 0), "%s: %s the TUI's panel", r->name, r->label ? "in" : "not in");
        if (tp >= 0) {
            op_params p = o->params;
            double v = r->def;
            int inside = 1;
            for (int s = 0; s < 200; s++) { tui_param_step(&p, tp, +1); v = tui_param_get(&p, tp); inside &= pa_in_range(r, v); }
            double top = v;
            for (int s = 0; s < 400; s++) { tui_param_step(&p, tp, -1); inside &= pa_in_range(r, tui_param_get(&p, tp)); }
            CHECK(inside && (isinf(r->hi) || top == r->hi || top == r->def), "%s: the TUI's steps stay in %s (top %g)", r->name, range, top);
        }
        /* tune: the rows with a tuning range, which lies inside the valid range */
        const tn_space *sp = tn_space_find(pa_key(r));
        CHECK((sp == r) == (r->tune_grid > 1), "%s: %s", r->name, r->tune_grid > 1 ? "tune searches it" : "tune refuses it");
        if (sp) CHECK(pa_in_range(r, r->tune_lo) && pa_in_range(r, r->tune_hi) && r->tune_lo < r->tune_hi, "%s: tune's range [%g, %g] within %s", r->name, r->tune_lo, r->tune_hi, range);
        /* which methods use it: the row's dependency bit */
        if (r->dep == EN_DEP_TAU) CHECK(mt_uses("gacl", r->name) && !mt_uses("ncm", r->name), "%s: gacl uses it, ncm not", r->name);
        if (r->dep == EN_DEP_ALPHA || r->dep == EN_DEP_XI || r->dep == EN_DEP_BETA)
            CHECK(mt_uses("gsr", r->name) && !mt_uses("gacl", r->name), "%s: gsr uses it, gacl not", r->name);
    }
    check_tune_lists(man, "the table as built");
    free(man);
    free(o);
}

/* Every row survives a session's save and load; every preset's value lands in the row's field. */
static void test_sessions_presets(void)
{
    char dir[] = "/tmp/gs_test_params_XXXXXX", path[64];
    if (!mkdtemp(dir)) { CHECK(0, "mkdtemp"); return; }
    snprintf(path, sizeof path, "%s/s.session", dir);
    op_opts *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    op_defaults(a);
    for (int i = 0; i < pa_count(); i++) { /* a value other than the default, inside the range */
        const pa_param *r = &pa_table()[i];
        double v = r->kind == PA_ENUM ? (double)(((int)r->def + 1) % r->n_names)
                 : pa_in_range(r, r->def + 1) ? r->def + 1 : (r->def + (isinf(r->hi) ? r->def + 1 : r->hi)) / 2;
        if (r->kind != PA_DBL && r->kind != PA_ENUM) v = floor(v);
        pa_put(a, r, v);
    }
    CHECK(op_validate(a) == GS_OK, "the changed values are valid: %s", gs_last_error());
    ss_store st = {0};
    op_defaults(b);
    CHECK(ss_save(path, a) == GS_OK && ss_load(path, b, &st) == GS_OK, "session saved and loaded: %s", gs_last_error());
    int same = 1;
    for (int i = 0; i < pa_count(); i++)
        if (pa_get(a, &pa_table()[i]) != pa_get(b, &pa_table()[i])) {
            same = 0;
            CHECK(0, "session: %s %g came back as %g", pa_table()[i].name, pa_get(a, &pa_table()[i]), pa_get(b, &pa_table()[i]));
        }
    CHECK(same, "a session keeps every row of the table");
    ss_store_free(&st);
    unlink(path);
    rmdir(dir);
    for (int k = 0; k < ps_count(); k++) {
        const ps_preset *p = ps_get(k);
        op_defaults(a);
        int ok = ps_apply(p, a) == GS_OK, rows = 0;
        for (int i = 0; i < p->n_assign && ok; i++) {
            char name[64];
            const char *eq = strchr(p->assign[i], '=');
            snprintf(name, sizeof name, "%.*s", (int)(eq - p->assign[i]), p->assign[i]);
            while (*name && name[strlen(name) - 1] == ' ') name[strlen(name) - 1] = 0;
            const pa_param *r = pa_find(name);
            if (!r || r->kind == PA_ENUM) continue;
            rows++;
            ok &= pa_get(a, r) == strtod(eq + 1, NULL);
        }
        CHECK(ok && rows > 0, "preset %s: its %d values land in their rows' fields", p->name, rows);
    }
    free(a);
    free(b);
}

/* Change one row's range, step and tuning range at run time: validation, --help, the TUI's step
 * and clamp, and tune follow. */
static void test_change_a_row(void)
{
    pa_param *tau = (pa_param *)pa_find("tau"), saved = *tau;
    tau->hi = 50;
    tau->tune_lo = 1e-2;
    tau->tune_hi = 20;
    tau->tune_grid = 4;
    op_opts *o = malloc(sizeof *o);
    op_defaults(o);
    CHECK(op_set(o, "tau", "60") == GS_EINPUT && strstr(gs_last_error(), "[0, 50]"), "--tau 60 refused: %s", gs_last_error());
    CHECK(op_set(o, "tau", "40") == GS_OK && o->params.tau == 40, "--tau 40 accepted");
    char h[512];
    help_of(op_usage(NULL, 0, mt_help(), NULL), "tau", h, sizeof h);
    CHECK(strstr(h, "in [0, 50]") != NULL, "--help follows: %s", h);
    tui_param tp = tui_param_find("tau");
    op_params p = o->params;
    CHECK(tui_param_step(&p, tp, +1) && p.tau == 50 && !tui_param_step(&p, tp, +1), "the TUI's step stops at the new end (%g)", p.tau);
    const tn_space *sp = tn_space_find("tau");
    CHECK(sp && sp->tune_lo == 1e-2 && sp->tune_hi == 20 && sp->tune_grid == 4, "tune's range follows");
    check_tune_lists(NULL, "tau's grid changed");
    CHECK(strstr(op_usage(NULL, 0, mt_help(), NULL), "tau 1e-2..20 (4 points, log scale)") != NULL, "tune's --help line follows tau's grid");
    /* a different TUI step: additive 0.5 */
    tau->scale = PA_STEP_ADD;
    tau->step = 0.5;
    p.tau = 2;
    tui_param_step(&p, tp, +1);
    CHECK(p.tau == 2.5, "the TUI's step follows the row's scale (τ 2 → %g)", p.tau);
    *tau = saved;
    /* a row without a TUI label leaves the panel; a row without a tuning range leaves tune */
    pa_param *beta = (pa_param *)pa_find("beta"), bsaved = *beta;
    int n = tui_param_count();
    beta->label = NULL;
    beta->tune_grid = 0;
    CHECK(tui_param_count() == n - 1 && tui_param_find("beta") < 0 && !tn_space_find("beta"), "β out of the panel and of tune");
    check_tune_lists(NULL, "beta untunable");
    CHECK(!strstr(op_usage(NULL, 0, mt_help(), NULL), "beta 0..4"), "β out of tune's --help line");
    *beta = bsaved;
    /* a different default */
    pa_param *xi = (pa_param *)pa_find("xi"), xsaved = *xi;
    xi->def = 0.02;
    op_defaults(o);
    CHECK(o->params.xi == 0.02, "op_defaults follows the row's default");
    help_of(op_usage(NULL, 0, mt_help(), NULL), "xi", h, sizeof h);
    CHECK(strstr(h, "default 0.02") != NULL, "--help shows the new default: %s", h);
    *xi = xsaved;
    free(o);
}

int main(void)
{
    test_rows();
    test_option_rows();
    test_sessions_presets();
    test_change_a_row();
    return tap_done();
}
