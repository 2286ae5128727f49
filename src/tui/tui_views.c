/* tui/tui_views.c — the views' names: titles, short names and the figure each exports; which of the
 * shown methods a view treats as the reference (tui_int.h). */
#include "tui_int.h"


static const char *const VIEW_TITLES[TV_COUNT] = {
    "Stable rank", "τ sweep — accuracy and stable rank vs τ", "Theorem 1",
    "Effective rank & condition", "Per-class accuracy (classes by training rows)",
    "Eigenvalue ratio λ(GSR)/λ(GACL)", "Claims — the paper against this data",
    "Collapse — energy of G+τI along each class's direction",
    "Ridge lens — what W = (G+τI)⁻¹Q keeps"};

static const char *const VIEW_SHORT[TV_COUNT] = {"Stable rank", "τ sweep", "Theorem 1", "erank & κ",
                                                  "Per-class acc.", "λ ratio", "Claims", "Collapse",
                                                  "Ridge lens"};

static const char *const VIEW_FIGURE[TV_COUNT] = {"dashboard", "tau-sweep", "theorem", "erank-cond",
                                                   "class-acc", "eig-ratio", "claims", "collapse",
                                                   "ridge-lens"};

const char *tui_view_figure(int view) { return view >= 0 && view < TV_COUNT ? VIEW_FIGURE[view] : "dashboard"; }

const char *tui_view_short(int view) { return view >= 0 && view < TV_COUNT ? VIEW_SHORT[view] : "?"; }

const char *tui_view_title(int view)
{
    return view >= 0 && view < TV_COUNT ? VIEW_TITLES[view] : "?";
}

int tui_view_needs_worker(int view)
{
    return view == TV_TAU || view == TV_THEOREM || view == TV_CLAIMS || view == TV_COLLAPSE || view == TV_LENS;
}

int tui_view_wide(int view) { return view == TV_CLAIMS || view == TV_COLLAPSE; }

/* The reference and the compared method of the shown pair: the one rule, en_results_pair. */
void tui_ref_aug(const en_results *r, int m0, int m1, int *ref, int *aug)
{
    en_results_pair(r, m0, m1, ref, aug);
}
