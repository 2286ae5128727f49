/* test_views.c — the issue #7 views: τ-sweep, effective rank / condition, per-class accuracy and
 * eigenvalue-ratio charts (series, axes, NaN gaps, class order), and the tau-sweep figure from a
 * real engine on the synthetic set: PNG decodes at the requested size, and the same call twice
 * gives the same bytes. */
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_chart.h"
#include "gs_common.h"
#include "gs_mtable.h"
#include "gs_figure.h"
#include "gs_opts.h"
#include "gs_pipeline.h"
#include "gs_tausweep.h"
#include "support/problem.h"
#include "support/tap.h"
#include "fig_fake.h"

#include <lapacke.h>

static void fake_curve(ts_curve *c, const char *name, int n, double shift)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->tau = calloc((size_t)n, sizeof(double));
    c->tau_eff = calloc((size_t)n, sizeof(double));
    c->acc = calloc((size_t)n, sizeof(double));
    c->head_acc = calloc((size_t)n, sizeof(double));
    c->tail_acc = calloc((size_t)n, sizeof(double));
    c->stable_rank = calloc((size_t)n, sizeof(double));
    c->lambda = calloc(1, sizeof(double));
    c->D = 1;
    c->task = 3;
    snprintf(c->method, sizeof c->method, "%s", name);
    ts_log_grid(1e-4, 1e4, n, c->tau);
    for (int i = 0; i < n; i++) {
        c->tau_eff[i] = c->tau[i];
        c->acc[i] = 80 - 5 * i + shift;
        c->head_acc[i] = 90 - 2 * i;
        c->tail_acc[i] = i == 0 ? NAN : 50 - 5 * i + shift; /* a gap */
        c->stable_rank[i] = pow(10.0, i * 0.8);
    }
    c->best = 0;
}

static int has_note(const ch_chart *c, const char *s)
{
    char full[sizeof c->note + sizeof c->lacks];
    ch_note_full(c, full, sizeof full);
    return strstr(full, s) != NULL;
}

static void test_tau_sweep_chart(void)
{
    ts_curve a, b;
    fake_curve(&a, "gsr", 9, 3);  /* GSR first: styles follow the names, not the order */
    fake_curve(&b, "gacl", 9, 0);
    ch_chart c;
    CHECK(ch_build_tau_sweep(&c, &a, &b, 0.01, CH_TS_ACCURACY) == GS_OK, "τ-sweep accuracy chart builds");
    CHECK(c.nseries == 6, "two methods × overall/head/tail = 6 series (got %d)", c.nseries);
    CHECK(c.x.scale == CH_LOG10 && c.y.scale == CH_LINEAR, "x log10, y linear");
    CHECK(fabs(c.x.lo - 1e-4) < 1e-12 && fabs(c.x.hi - 1e4) < 1e-6, "x range is the τ grid [%g, %g]", c.x.lo, c.x.hi);
    CHECK(c.mark_x == 0.01, "current τ marked (%g)", c.mark_x);
    int tail_gsr = -1, n_over = 0;
    for (int i = 0; i < c.nseries; i++) {
        const ch_series *s = &c.series[i];
        if (s->kind == CH_KIND_OVERALL) n_over++;
        if (s->kind == CH_KIND_TAIL && !strcmp(s->method_name, "GSR")) tail_gsr = i;
        if (!strcmp(s->method_name, "GACL"))
            CHECK(s->rgb == 0xe15759 && s->dash == CH_DASH_DASHED && s->marker == CH_MARK_CIRCLE,
                  "GACL: dashed red circles (%s)", s->name);
        else
            CHECK(s->rgb == 0x4e79a7 && s->dash == CH_DASH_SOLID && s->marker == CH_MARK_SQUARE,
                  "GSR: solid blue squares (%s)", s->name);
    }
    CHECK(n_over == 2, "one overall series per method");
    CHECK(tail_gsr >= 0 && isnan(c.series[tail_gsr].y[0]) && c.series[tail_gsr].y[1] == a.tail_acc[1],
          "NaN tail accuracy stays a gap, the rest is copied");
    CHECK(has_note(&c, "best"), "note names the best τ (%s)", c.note);
    ch_free(&c);
    CHECK(ch_build_tau_sweep(&c, &a, NULL, 0.01, CH_TS_STABLE_RANK) == GS_OK, "stable-rank vs τ builds");
    CHECK(c.nseries == 1 && c.x.scale == CH_LOG10, "one series, log τ axis");
    CHECK(c.y.scale == CH_LOG10, "stable rank spanning 6 decades: log y");
    CHECK(c.series[0].x[4] == a.tau[4] && c.series[0].y[4] == a.stable_rank[4], "points are (τ, sr)");
    ch_free(&c);
    CHECK(ch_build_tau_sweep(&c, NULL, NULL, 0.01, CH_TS_ACCURACY) != GS_OK, "no curve: an error");
    ts_free(&a);
    ts_free(&b);
}

/* fake_results plus the per-class fields */
static void add_classes(en_results *r, int done)
{
    r->is_head = calloc((size_t)r->C, 1);
    r->class_task = calloc((size_t)r->C, sizeof(int));
    r->class_kept = calloc((size_t)r->C, sizeof(long));
    for (int k = 0; k < r->C; k++) {
        r->class_task[k] = k / 10;                  /* 10 classes per task */
        r->class_kept[k] = (k * 37) % 101 + 1;      /* distinct counts, scrambled order */
        r->is_head[k] = r->class_kept[k] > 80;
    }
    for (int m = 0; m < r->n_methods; m++)
        for (int t = 0; t < done; t++) {
            en_snap *s = &r->m[m].snaps[t];
            s->class_acc = calloc((size_t)r->C, sizeof(double));
            for (int k = 0; k < r->C; k++)
                s->class_acc[k] = r->class_task[k] <= t ? (k == 5 ? NAN : (double)(k % 50) + m) : NAN;
            s->cond = 10.0 * pow(10.0, t);
            s->erank = NAN;
        }
    /* the spectrum exists at task `done` only: erank there */
    for (int m = 0; m < r->n_methods; m++) r->m[m].snaps[done - 1].erank = 20.0 + m;
}

static void free_classes(en_results *r)
{
    for (int m = 0; m < r->n_methods; m++)
        for (int t = 0; t < r->T; t++) free(r->m[m].snaps[t].class_acc);
    free(r->is_head);
    free(r->class_task);
    free(r->class_kept);
    r->is_head = NULL;
    r->class_task = NULL;
    r->class_kept = NULL;
}

static void test_task_charts(void)
{
    en_results r;
    fake_results(&r, 4, 64, 1.0);
    add_classes(&r, 4);
    ch_chart c;
    /* effective rank and condition number */
    CHECK(ch_build_erank_cond(&c, &r, 0, 1, 4, CH_ERANK) == GS_OK, "effective-rank chart builds");
    CHECK(c.nseries == 2 && c.series[0].n == 10, "two series over 10 tasks");
    int fin = 0;
    for (int t = 0; t < 10; t++) fin += isfinite(c.series[0].y[t]);
    CHECK(fin == 1 && c.series[0].y[3] == 20.0, "erank only where the spectrum was computed (%d)", fin);
    CHECK(has_note(&c, "spectrum at 1 of 10 tasks"), "note says where erank is known (%s)", c.note);
    CHECK(c.y.scale == CH_LINEAR, "erank: linear y");
    ch_free(&c);
    CHECK(ch_build_erank_cond(&c, &r, 0, 1, 4, CH_COND) == GS_OK, "condition chart builds");
    CHECK(c.y.scale == CH_LOG10, "condition number: log y");
    CHECK(c.series[1].y[2] == 1000.0 && isnan(c.series[1].y[5]), "κ at done tasks, gaps at pending ones");
    CHECK(c.mark_x == 4, "current task marked");
    ch_free(&c);

    /* per-class accuracy, sorted by training rows */
    CHECK(ch_build_class_acc(&c, &r, 0, 1, 3) == GS_OK, "per-class chart builds");
    CHECK(c.nseries == 2 && c.series[0].n == 30, "30 classes seen at task 3 (got %d)", c.series[0].n);
    int ord[100], n = ch_class_order(&r, 3, ord);
    int sorted = n == 30;
    for (int i = 1; i < n; i++) sorted &= r.class_kept[ord[i - 1]] >= r.class_kept[ord[i]];
    CHECK(sorted, "classes in decreasing training rows");
    int match = 1, nhead = 0;
    for (int i = 0; i < n; i++) {
        double want = r.m[1].snaps[2].class_acc[ord[i]];
        match &= (isnan(want) && isnan(c.series[1].y[i])) || c.series[1].y[i] == want;
        match &= c.series[1].x[i] == i + 1;
        nhead += r.is_head[ord[i]];
    }
    CHECK(match, "y = the class's accuracy in that order (NaN class stays a gap)");
    CHECK(c.x.scale == CH_LINEAR && c.y.lo == 0 && c.y.hi == 100, "linear axes, 0–100 %%");
    CHECK(nhead > 0 && nhead < n ? c.mark_x == nhead + 0.5 : isnan(c.mark_x), "head/tail boundary marked at %g", c.mark_x);
    ch_free(&c);
    CHECK(ch_build_class_acc(&c, &r, 0, 1, 7) == GS_OK && has_note(&c, "pending"), "pending task: note");
    ch_free(&c);

    /* eigenvalue ratio */
    CHECK(ch_build_eig_ratio(&c, &r, 0, 1, 4) == GS_OK, "eigenvalue-ratio chart builds");
    CHECK(c.nseries == 1 && c.series[0].n == 64 && !strcmp(c.series[0].method_name, "GSR"), "one GSR series");
    double worst = 0;
    for (int i = 0; i < 64; i++)
        worst = fmax(worst, fabs(c.series[0].y[i] - r.m[1].snaps[3].eig[i] / r.m[0].snaps[3].eig[i]));
    CHECK(worst == 0, "ratio = λ_gsr / λ_gacl per index");
    CHECK(c.y.scale == CH_LOG10 && c.y.lo <= 1, "log y including 1");
    ch_free(&c);
    /* GACL second: the ratio is still GSR over GACL */
    CHECK(ch_build_eig_ratio(&c, &r, 1, 0, 4) == GS_OK && c.nseries == 1 && c.series[0].y[63] > 1,
          "method order does not flip the ratio");
    ch_free(&c);
    CHECK(ch_build_eig_ratio(&c, &r, 0, 1, 2) == GS_OK && c.nseries == 0 && has_note(&c, "pending"),
          "no spectrum at task 2: no series, 'spectrum pending'");
    ch_free(&c);
    free_classes(&r);
    fake_free(&r);
}

static int png_size(const char *path, unsigned *w, unsigned *h)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) { png_destroy_read_struct(&png, &info, NULL); fclose(f); return -1; }
    png_init_io(png, f);
    png_read_png(png, info, PNG_TRANSFORM_IDENTITY, NULL); /* decodes every row */
    *w = png_get_image_width(png, info);
    *h = png_get_image_height(png, info);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
    return 0;
}

static void test_tau_sweep_figure(void)
{
    char dir[] = "/tmp/gs_test_views_XXXXXX";
    if (!mkdtemp(dir)) { CHECK(0, "mkdtemp"); return; }
    char p1[256], p2[256];
    snprintf(p1, sizeof p1, "%s/a.png", dir);
    snprintf(p2, sizeof p2, "%s/b.png", dir);
    char *argv[] = {"gsrscope", "export", "--synthetic", "--figure", "tau-sweep", "-o", p1, "--quiet", NULL};
    op_opts o;
    int rc = op_parse(&o, 8, argv);
    CHECK(rc == GS_OK, "options parse (%s)", gs_last_error());
    if (rc) return;
    en_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.methods = (const char **)o.methods;
    cfg.n_methods = o.n_methods; mt_resolve(&cfg);
    cfg.spectrum = o.spectrum;
    cfg.keep_task_grams = 1;
    pl_ctx c;
    rc = pl_open(&c, &o, &cfg, NULL, NULL);
    CHECK(rc == GS_OK, "synthetic pipeline opens (%s)", gs_last_error());
    if (rc) return;
    int task = 4;
    rc = en_update(c.eng, &o.params, task, NULL, NULL, NULL);
    CHECK(rc == GS_OK, "engine runs");
    const en_results *r = en_get_results(c.eng);
    fig_request q;
    memset(&q, 0, sizeof q);
    q.r = r;
    q.prob = &c.prob;
    q.opts = &o;
    q.m0 = 0;
    q.m1 = 1;
    q.task = task;
    q.dpi = 100;
    q.width_in = 3.5;
    CHECK(fig_export(&q, "tau-sweep", p1, NULL) != GS_OK, "tau-sweep without the engine: an error");
    CHECK(access(p1, F_OK) != 0, "nothing written on error");
    q.eng = c.eng;
    CHECK(fig_export(&q, "tau-sweep", p1, NULL) == GS_OK, "tau-sweep figure exports (%s)", gs_last_error());
    CHECK(fig_export(&q, "tau-sweep", p2, NULL) == GS_OK, "and again");
    double win, hin;
    fig_size_in("tau-sweep", 3.5, &win, &hin);
    unsigned w = 0, h = 0;
    CHECK(png_size(p1, &w, &h) == 0, "the PNG decodes with libpng");
    CHECK(w == (unsigned)lround(win * 100) && h == (unsigned)lround(hin * 100), "size %ux%u = %.2f×%.2f in at 100 dpi",
          w, h, win, hin);
    size_t n1 = 0, n2 = 0;
    unsigned char *b1 = tap_slurp(p1, &n1), *b2 = tap_slurp(p2, &n2);
    CHECK(b1 && b2 && n1 == n2 && memcmp(b1, b2, (size_t)n1) == 0, "same call twice: identical bytes (%zu, %zu)", n1, n2);
    free(b1);
    free(b2);
    /* the other new figures from the same results */
    const char *figs[3] = {"erank-cond", "class-acc", "eig-ratio"};
    CHECK(en_ensure_spectrum(c.eng, task, EN_METHODS_ALL, NULL) == GS_OK, "spectrum at the task");
    for (int i = 0; i < 3; i++) {
        CHECK(fig_known(figs[i]) && strstr(fig_list(), figs[i]), "%s is registered", figs[i]);
        CHECK(fig_export(&q, figs[i], p2, NULL) == GS_OK && png_size(p2, &w, &h) == 0, "%s exports and decodes", figs[i]);
    }
    unlink(p1);
    unlink(p2);
    rmdir(dir);
    pl_free(&c);
}

/* Learners without a Gram matrix in the views: SLDA shows the spectrum of its shared covariance
 * (checked against the covariance computed here from the rows), NCM has none and the charts say
 * so instead of "pending" or nothing. */
static void test_no_gram_views(void)
{
    tp_problem tp;
    CHECK(tp_make(&tp, 6, 12, 20, 3, 10, 3, 7, 0) == 0, "problem: %s", gs_last_error());
    const char *names[] = {"slda", "ncm", "gacl"};
    en_config cfg = {0};
    cfg.methods = names; cfg.n_methods = 3; cfg.spectrum = OP_SPECTRUM_FINAL; mt_resolve(&cfg);
    op_opts o;
    op_defaults(&o);
    en_engine *e = NULL;
    CHECK(en_create(&e, &tp.prob, &cfg) == GS_OK && en_update(e, &o.params, 1, NULL, NULL, NULL) == GS_OK,
          "slda, ncm, gacl run: %s", gs_last_error());
    if (!e) { tp_free(&tp); return; }
    const en_results *r = en_get_results(e);
    const en_problem *p = &tp.prob;
    int T = p->T, C = p->C;
    long D = p->D, N = p->task_row_start[T];
    const en_snap *sl = &r->m[0].snaps[T - 1], *nc = &r->m[1].snaps[T - 1];
    CHECK(!sl->eig, "slda: no spectrum computed by the update (only on request)");
    /* a view asks for the methods it shows: gacl's request leaves slda without its own */
    CHECK(en_ensure_spectrum(e, T, en_method_bit(2), NULL) == GS_OK && !sl->eig && !(sl->flags & EN_OWN_SPECTRUM),
          "spectrum asked for gacl only: slda's not computed");
    CHECK(en_ensure_spectrum(e, T, en_method_bit(0) | en_method_bit(1), NULL) == GS_OK &&
              en_ensure_spectrum(e, 1, EN_METHODS_ALL, NULL) == GS_OK,
          "spectra on request: %s", gs_last_error());
    CHECK(!r->m[0].snaps[0].eig, "slda at task 1: none (it keeps the last task's covariance only)");
    CHECK(r->m[0].spectrum_of[0] && !r->m[1].spectrum_of[0] && !r->m[2].spectrum_of[0],
          "slda names its matrix (\"%s\"), ncm and gacl none", r->m[0].spectrum_of);
    CHECK(sl->eig && (sl->flags & EN_OWN_SPECTRUM) && (sl->flags & EN_NO_GRAM) && !(sl->flags & EN_SPECTRUM),
          "slda, last task: its own spectrum (flags %u)", sl->flags);
    CHECK(!nc->eig && !(nc->flags & EN_OWN_SPECTRUM), "ncm: no spectrum");
    /* the shared covariance S/(N − C) + εI from the rows: class means, scatter, dsyevd */
    double *mu = calloc((size_t)C * D, sizeof(double)), *S = calloc((size_t)D * D, sizeof(double)), *w = calloc((size_t)D, sizeof(double));
    long *cnt = calloc((size_t)C, sizeof(long));
    for (long i = 0; i < N; i++) {
        cnt[p->y[i]]++;
        for (long a = 0; a < D; a++) mu[p->y[i] * D + a] += p->h.v[i * D + a];
    }
    for (int c = 0; c < C; c++) for (long a = 0; a < D; a++) mu[c * D + a] /= cnt[c] ? cnt[c] : 1;
    for (long i = 0; i < N; i++)
        for (long a = 0; a < D; a++)
            for (long b = 0; b < D; b++)
                S[a * D + b] += (p->h.v[i * D + a] - mu[p->y[i] * D + a]) * (p->h.v[i * D + b] - mu[p->y[i] * D + b]);
    for (long k = 0; k < D * D; k++) S[k] /= (double)(N - C);
    for (long a = 0; a < D; a++) S[a * D + a] += o.params.slda_eps;
    CHECK(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)D, S, (lapack_int)D, w) == 0, "dsyevd");
    double err = 0;
    for (long i = 0; sl->eig && i < D; i++) err = fmax(err, fabs(sl->eig[i] - w[D - 1 - i]) / w[D - 1]);
    CHECK(sl->eig && err < 1e-10, "slda's spectrum = eig(S/(N − C) + εI) from the rows (max rel. err %.2g)", err);
    free(mu); free(S); free(w); free(cnt);

    ch_chart c;
    CHECK(ch_build_spectrum(&c, r, NULL, 1, 0, T) == GS_OK && c.nseries == 1 && strstr(c.y.label, r->m[0].spectrum_of) &&
          has_note(&c, "SimpleCIL: no Gram matrix") && !has_note(&c, "pending"),
          "spectrum chart of ncm and slda: slda's curve, its matrix on the axis, ncm said to have none (note \"%s\")", c.note);
    ch_free(&c);
    /* both curves, and GACL's τ line (at 2τ, where G's eigenvalue equals τ; SLDA has no τ) */
    CHECK(ch_build_spectrum(&c, r, NULL, 0, 2, T) == GS_OK && c.nseries == 3 && c.series[0].method >= 0 &&
              c.series[1].method >= 0 && c.series[2].method < 0 && c.series[2].y[0] == 2 * r->m[2].snaps[T - 1].tau &&
              r->m[2].snaps[T - 1].tau == o.params.tau && has_note(&c, r->m[0].spectrum_of) && !strstr(c.y.label, "G+"),
          "spectrum chart of slda and gacl: both curves and GACL's τ line, the note names slda's matrix (\"%s\")", c.note);
    ch_free(&c);
    CHECK(ch_build_spectrum(&c, r, NULL, 1, -1, T) == GS_OK && c.nseries == 0 && has_note(&c, "SimpleCIL: no Gram matrix") &&
          !has_note(&c, "pending"), "spectrum chart of ncm alone: says it has none (\"%s\")", c.note);
    ch_free(&c);
    CHECK(ch_build_spectrum(&c, r, NULL, 0, -1, 1) == GS_OK && c.nseries == 0 && has_note(&c, "SLDA: spectrum at task 3 only") &&
          !has_note(&c, "pending"), "spectrum chart of slda at task 1: says where it has one (\"%s\")", c.note);
    ch_free(&c);
    CHECK(ch_build_stable_rank(&c, r, NULL, 0, 2, T) == GS_OK && c.nseries == 1 && has_note(&c, "SLDA: no Gram matrix"),
          "stable-rank chart of slda and gacl: gacl's curve, slda said to have no Gram matrix (\"%s\")", c.note);
    ch_free(&c);
    en_destroy(e);
    tp_free(&tp);
}

int main(void)
{
    test_no_gram_views();
    test_tau_sweep_chart();
    test_task_charts();
    test_tau_sweep_figure();
    return tap_done();
}
