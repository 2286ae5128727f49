/* figure/catalog.c — the figures export knows: their names, which take several seeds, their page
 * size and aspect (gs_figure.h, fig_int.h). */
#include "fig_int.h"

#include <math.h>
#include <string.h>

/* In the order of fig_kind (fig_int.h). */
static const char *const figure_names[] = {"accuracy", "spectrum", "stable-rank", "dashboard",
                                           "tau-sweep", "erank-cond", "class-acc", "eig-ratio", "theorem",
                                           "claims", "collapse", "ridge-lens"};

int fig_id(const char *figure)
{
    for (int i = 0; i < FIG_COUNT; i++)
        if (strcmp(figure, figure_names[i]) == 0) return i;
    return -1;
}

int fig_known(const char *figure)
{
    return figure && fig_id(figure) >= 0;
}

const char *fig_list(void)
{
    return "accuracy, spectrum, stable-rank, dashboard, tau-sweep, erank-cond, class-acc, eig-ratio, theorem, "
           "claims, collapse, ridge-lens";
}

/* The figures that draw a mean over seeds (export --seeds): quantities of a run over tasks or τ.
 * The others show one run's spectrum, classes or matrices, where a mean hides what they show. */
static const int seed_figures[] = {FIG_ACCURACY, FIG_STABLE_RANK, FIG_DASHBOARD, FIG_ERANK_COND, FIG_TAU_SWEEP};

int fig_seeds_supported(const char *figure)
{
    int f = figure ? fig_id(figure) : -1;
    for (size_t i = 0; i < sizeof seed_figures / sizeof *seed_figures; i++) if (seed_figures[i] == f) return 1;
    return 0;
}

const char *fig_seeds_list(void) { return "accuracy, stable-rank, dashboard, erank-cond, tau-sweep"; }

/* Height over width of a figure `w_in` inches wide. */
static double figure_aspect(int fig, double w_in)
{
    switch (fig) {
    case FIG_ACCURACY: return 0.60;
    case FIG_DASHBOARD: return w_in >= DASH_WIDE_IN ? 0.70 : 1.75;
    case FIG_TAU_SWEEP: return 1.15;
    case FIG_ERANK_COND: return 0.55;
    case FIG_CLAIMS: return 2.45; /* twelve claims, each two to four lines at 3.5 in */
    case FIG_RIDGE_LENS: return 1.30; /* the filter factors above, the classes below */
    default: return 0.72;
    }
}

int fig_size_in(const char *figure, double width_in, double *w_in, double *h_in)
{
    int fig = figure ? fig_id(figure) : -1;
    if (fig < 0) return gs_error(GS_EINPUT, "--figure %s: unknown figure (use %s)",
                                 figure ? figure : "(none)", fig_list());
    double w = width_in > 0 ? width_in : fig == FIG_DASHBOARD ? 7.0 : 3.5;
    if (w_in) *w_in = w;
    if (h_in) *h_in = round(w * figure_aspect(fig, w) * 100.0) / 100.0;
    return GS_OK;
}

int fig_page_size(const fig_request *req, const char *figure, int fig, fig_page *pg)
{
    double s = req->font_scale > 0 ? req->font_scale : req->slide ? FIG_SLIDE_FONT_SCALE : 1.0;
    if (!isfinite(s) || s < 0.25 || s > 8) return gs_error(GS_EINPUT, "--font-scale %g: out of range", s);
    double w, h;
    if (req->slide) {
        w = FIG_SLIDE_W_IN;
        h = FIG_SLIDE_H_IN;
    } else {
        w = req->width_in > 0 ? req->width_in : fig == FIG_DASHBOARD ? 7.0 : 3.5;
        /* the layout is that of a figure 1/s as wide, everything drawn s times as large */
        h = round(w * figure_aspect(fig, w / s) * 100.0) / 100.0;
    }
    if (s != 1.0 && w / s < OP_MIN_WIDTH_IN - 1e-9) /* (a plain width is checked with the options) */
        return gs_error(GS_EINPUT, "%s: at --font-scale %g a %g in wide %s figure lays out like one %.2f in wide, "
                        "where labels overlap (at least %g in): widen it (--width-in %g or more) or lower --font-scale",
                        figure, s, w, figure, w / s, OP_MIN_WIDTH_IN, ceil(OP_MIN_WIDTH_IN * s * 10) / 10);
    pg->W = w * 72.0;
    pg->H = h * 72.0;
    pg->scale = s;
    return GS_OK;
}
