/* tui/tui_views.c — the views' table: titles, short names, the figure each exports (`e`), which
 * the worker computes; which of the shown methods a view treats as the reference (tui_int.h). */
#include "tui_int.h"


/* A view's row: its title, its short name, the figure `e` exports (a gs_figure.h name: the
 * figures' table says what it draws and needs), whether the worker computes it, whether it wants
 * the wide layout. Indexed by TV_* (tui_int.h), not by order. */
typedef struct {
    const char *title, *short_name, *figure;
    int worker, wide;
} view_row;

static const view_row VIEWS[TV_COUNT] = {
    [TV_STABLE] = {"Stable rank", "Stable rank", "dashboard", 0, 0},
    [TV_TAU] = {"τ sweep — accuracy and stable rank vs τ", "τ sweep", "tau-sweep", 1, 0},
    [TV_THEOREM] = {"Theorem 1", "Theorem 1", "theorem", 1, 0},
    [TV_ERANK] = {"Effective rank & condition", "erank & κ", "erank-cond", 0, 0},
    [TV_CLASS] = {"Per-class accuracy (classes by training rows)", "Per-class acc.", "class-acc", 0, 0},
    [TV_RATIO] = {"Eigenvalue ratio λ(GSR)/λ(GACL)", "λ ratio", "eig-ratio", 0, 0},
    [TV_CLAIMS] = {"Claims — the paper against this data", "Claims", "claims", 1, 1},
    [TV_COLLAPSE] = {"Collapse — energy of G+τI along each class's direction", "Collapse", "collapse", 1, 1},
    [TV_LENS] = {"Ridge lens — what W = (G+τI)⁻¹Q keeps", "Ridge lens", "ridge-lens", 1, 0},
};

static const view_row *view_of(int view) { return view >= 0 && view < TV_COUNT ? &VIEWS[view] : NULL; }

const char *tui_view_figure(int view) { return view_of(view) ? view_of(view)->figure : "dashboard"; }

const char *tui_view_short(int view) { return view_of(view) ? view_of(view)->short_name : "?"; }

const char *tui_view_title(int view) { return view_of(view) ? view_of(view)->title : "?"; }

int tui_view_needs_worker(int view) { return view_of(view) && view_of(view)->worker; }

int tui_view_wide(int view) { return view_of(view) && view_of(view)->wide; }

/* The reference and the compared method of the shown pair: the one rule, en_results_pair. */
void tui_ref_aug(const en_results *r, int m0, int m1, int *ref, int *aug)
{
    en_results_pair(r, m0, m1, ref, aug);
}
