/* figure/catalog.c — the one table of figures (a row each: name, help line, size and aspect, what
 * it needs computed, its build and layout) and what is read from it: names, seeds, --help's
 * lines, page size (gs_figure.h, fig_int.h). */
#include "fig_int.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* Adding a figure: its build function (build.c or its own file), a layout (draw.c) if none of
 * these fits, and its row here. Export, the TUI's `e`, --help and the page size read the row.
 * FIG_SEEDS: a mean over seeds (export --seeds): quantities of a run over tasks or τ; the others
 * show one run's spectrum, classes or matrices, where a mean hides what they show. */
static const fig_kind FIGURES[] = {
    {"accuracy", "accuracy over tasks: overall, head, tail", 3.5, 0.60, 0, FIG_SEEDS, 0,
     fig_build_accuracy, fig_layout_accuracy},
    {"spectrum", "the eigenvalues of G + \u03c4I at the task", 3.5, 0.72, 0, 0, 0, fig_build_spectrum,
     fig_layout_one},
    /* the stable rank at every task from the exact spectrum (FIG_EVERY_SPECTRUM): what a figure
     * draws depends on its inputs alone, not on the tasks a TUI view computed exactly when shown */
    {"stable-rank", "stable rank over tasks", 3.5, 0.72, 0, FIG_SEEDS | FIG_EVERY_SPECTRUM, 0, fig_build_stable_rank,
     fig_layout_one},
    {"dashboard", "the three above and a caption with the parameters", 7.0, 0.70, 1.75,
     FIG_SEEDS | FIG_EVERY_SPECTRUM, FIG_OWN_CAPTION, fig_build_dashboard, fig_layout_dashboard},
    {"tau-sweep", "accuracy and stable rank against \u03c4 at the task", 3.5, 1.15, 0, FIG_SEEDS | FIG_TAU_CURVES,
     0, fig_build_tau_sweep, fig_layout_tau_sweep},
    {"erank-cond", "effective rank and condition number over tasks", 3.5, 0.55, 0,
     FIG_SEEDS | FIG_EVERY_SPECTRUM, 0, fig_build_erank_cond, fig_layout_side},
    {"class-acc", "per-class accuracy at the task, classes by training rows", 3.5, 0.72, 0, 0, 0,
     fig_build_class_acc, fig_layout_one},
    {"eig-ratio", "eigenvalues of the second method over GACL's at the task", 3.5, 0.72, 0, 0, 0,
     fig_build_eig_ratio, fig_layout_one},
    {"theorem", "Theorem 1 at every task: stable rank before, after and bound", 3.5, 0.72, 0, 0, 0,
     fig_build_theorem, fig_layout_one},
    /* twelve claims, each two to six lines at 3.5 in (a slide holds about half: it says so) */
    {"claims", "the paper's claims at the task, each with its numbers", 3.5, 2.75, 0, FIG_AUG_ROWS, FIG_WHOLE_PAGE,
     fig_build_claims, fig_layout_claims},
    {"collapse", "each seen class's energy along its own direction", 3.5, 0.72, 0, 0, 0, fig_build_collapse,
     fig_layout_one},
    /* the filter factors above, the classes below */
    {"ridge-lens", "what the ridge keeps: filter factors, classes above \u03c4", 3.5, 1.30, 0, 0, 0,
     fig_build_ridge_lens, fig_layout_stacked},
#ifdef FIG_EXTRA_ROWS /* tests/figure/test_figure_table.c: a figure added through its row alone */
    FIG_EXTRA_ROWS
#endif
};
#define N_FIGURES ((int)(sizeof FIGURES / sizeof *FIGURES))

const fig_kind *fig_find(const char *figure)
{
    for (int i = 0; figure && i < N_FIGURES; i++)
        if (strcmp(figure, FIGURES[i].name) == 0) return &FIGURES[i];
    return NULL;
}

int fig_known(const char *figure) { return fig_find(figure) != NULL; }

unsigned fig_needs(const char *figure)
{
    const fig_kind *f = fig_find(figure);
    return f ? f->needs : 0;
}

int fig_seeds_supported(const char *figure) { return (fig_needs(figure) & FIG_SEEDS) != 0; }

/* The lists read from the table, made once (the TUI's worker thread reads them too). */
static char names[512], seed_names[256], help[4096];
static pthread_once_t lists_once = PTHREAD_ONCE_INIT;

static void append(char *buf, size_t cap, const char *fmt, const char *a, const char *b, const char *c)
{
    size_t len = strlen(buf);
    if (len + 1 < cap) snprintf(buf + len, cap - len, fmt, a, b, c);
}

static void make_lists(void)
{
    append(help, sizeof help, "%s%s%s", "  --figure NAME            the figure to draw, one of:\n", "", "");
    for (int i = 0; i < N_FIGURES; i++) {
        const fig_kind *f = &FIGURES[i];
        append(names, sizeof names, "%s%s%s", i ? ", " : "", f->name, "");
        if (f->needs & FIG_SEEDS) append(seed_names, sizeof seed_names, "%s%s%s", seed_names[0] ? ", " : "", f->name, "");
        append(help, sizeof help, "                           %-12s %s%s\n", f->name, f->help,
               f->needs & FIG_SEEDS ? " (--seeds)" : "");
    }
}

const char *fig_list(void)
{
    pthread_once(&lists_once, make_lists);
    return names;
}

const char *fig_seeds_list(void)
{
    pthread_once(&lists_once, make_lists);
    return seed_names;
}

const char *fig_help(void)
{
    pthread_once(&lists_once, make_lists);
    return help;
}

/* Height over width of figure `f` laid out `w_in` inches wide. */
static double figure_aspect(const fig_kind *f, double w_in)
{
    return f->narrow_aspect > 0 && w_in < DASH_WIDE_IN ? f->narrow_aspect : f->aspect;
}

int fig_size_in(const char *figure, double width_in, double *w_in, double *h_in)
{
    const fig_kind *f = fig_find(figure);
    if (!f) return gs_error(GS_EINPUT, "--figure %s: unknown figure (use %s)", figure ? figure : "(none)", fig_list());
    double w = width_in > 0 ? width_in : f->width_in;
    if (w_in) *w_in = w;
    if (h_in) *h_in = round(w * figure_aspect(f, w) * 100.0) / 100.0;
    return GS_OK;
}

int fig_page_size(const fig_request *req, const fig_kind *fig, fig_page *pg)
{
    double s = req->font_scale > 0 ? req->font_scale : req->slide ? FIG_SLIDE_FONT_SCALE : 1.0;
    if (!isfinite(s) || s < OP_MIN_FONT_SCALE || s > OP_MAX_FONT_SCALE)
        return gs_error(GS_EINPUT, "--font-scale %g: must be in [%g, %g]", s, OP_MIN_FONT_SCALE, OP_MAX_FONT_SCALE);
    double w, h;
    if (req->slide) {
        w = FIG_SLIDE_W_IN;
        h = FIG_SLIDE_H_IN;
    } else {
        w = req->width_in > 0 ? req->width_in : fig->width_in;
        /* the layout is that of a figure 1/s as wide, everything drawn s times as large */
        h = round(w * figure_aspect(fig, w / s) * 100.0) / 100.0;
    }
    if (s != 1.0 && w / s < OP_MIN_WIDTH_IN - 1e-9) /* (a plain width is checked with the options) */
        return gs_error(GS_EINPUT, "%s: at --font-scale %g a %g in wide %s figure lays out like one %.2f in wide, "
                        "where labels overlap (at least %g in): widen it (--width-in %g or more) or lower --font-scale",
                        fig->name, s, w, fig->name, w / s, OP_MIN_WIDTH_IN, ceil(OP_MIN_WIDTH_IN * s * 10) / 10);
    pg->W = w * 72.0;
    pg->H = h * 72.0;
    pg->scale = s;
    return GS_OK;
}
