/* tui/tui_keys.c — the one key table of the TUI: dispatch and the `?` help both read it
 * (gs_tui.h). Uses curses only for the KEY_* constants; makes no curses calls. */
#include "gs_tui.h"

#include <curses.h>
#include <stdio.h>

#define CTRL_L 12

static const tui_key KEYS[] = {
    {TA_PLAY, {' ', 0}, "Space", "play / pause (advance one task per tick)", "play"},
    {TA_SLOWER, {'[', 0}, "[", "play slower", NULL},
    {TA_FASTER, {']', 0}, "]", "play faster", NULL},
    {TA_NEXT, {KEY_RIGHT, 'n', 0}, "→ n", "next task", "step"},
    {TA_PREV, {KEY_LEFT, 'p', 0}, "← p", "previous task", NULL},
    {TA_FIRST, {KEY_HOME, 0}, "Home", "first task", NULL},
    {TA_LAST, {KEY_END, 0}, "End", "last task", NULL},
    {TA_UP, {KEY_UP, 'k', 0}, "↑ k", "select the previous parameter (α_base, ξ, β, τ, seed)", "select"},
    {TA_DOWN, {KEY_DOWN, 'j', 0}, "↓ j", "select the next parameter", NULL},
    {TA_INC, {'+', '=', 0}, "+", "increase the parameter (β, τ, ξ to the next of 1, 2, 5, 10, ...; α_base +0.05; seed +1)", "adjust"},
    {TA_DEC, {'-', '_', 0}, "-", "decrease the parameter", NULL},
    {TA_EDIT, {'\n', '\r', KEY_ENTER, 0}, "Enter", "type a value for the parameter (Esc cancels)", "type"},
    {TA_FUTURE, {'f', 0}, "f", "show / hide the tasks after the current one (hidden by default: charts grow as you step)", "future"},
    {TA_BASELINE, {'b', 0}, "b", "pin the current results as baseline (ghost curves, Δ column)", "baseline"},
    {TA_UNPIN, {'B', 0}, "B", "unpin the baseline", NULL},
    {TA_UNDO, {'u', 0}, "u", "undo the last parameter change (the message says what it undid)", "undo"},
    {TA_TUNE, {'t', 0}, "t", "tune the selected parameter on the validation rows (needs --val-frac; u undoes)", NULL},
    {TA_EXPORT, {'e', 0}, "e", "export the current view as a 300 dpi PNG (gsrscope-VIEW-NNN.png; the stable-rank view exports the dashboard)", "export"},
    {TA_EXPORT_FRAMES, {'E', 0}, "E", "export the current view's frames: a PDF with one page per task up to the current one, each drawing the tasks up to its own (gsrscope-VIEW-frames-NNN.pdf)", NULL},
    {TA_SAVE, {'s', 0}, "s", "save the session (parameters, protocol, data paths)", "save"},
    {TA_PRESET, {'P', 0}, "P", "cycle the presets that fit the data shown (paper defaults, teaching demo; one that changes the data or the protocol, such as reference, is for --preset)", "preset"},
    {TA_VIEW, {'v', 0}, "v", "next lower view: ridge lens (the first), stable rank (the paper's measure), τ sweep, Theorem 1, erank & κ, per class, λ ratio, claims, collapse", "view"},
    {TA_SCROLL_DOWN, {KEY_NPAGE, 0}, "PgDn", "scroll the claims view down (PgUp: up)", NULL},
    {TA_SCROLL_UP, {KEY_PPAGE, 0}, "PgUp", "scroll the claims view up", NULL},
    {TA_METHOD0, {'m', 0}, "m", "cycle the first shown method among --methods (never the second one)", NULL},
    {TA_METHOD1, {'M', 0}, "M", "cycle the second shown method among --methods", NULL},
    {TA_GLYPHS, {'g', 0}, "g", "cycle plot glyphs (braille, block, ASCII)", NULL},
    {TA_HELP, {'?', KEY_F(1), 0}, "? F1", "this help (↑ ↓ PgUp PgDn scroll; any other key closes it)", "help"},
    {TA_REDRAW, {CTRL_L, 0}, "Ctrl-L", "redraw the screen", NULL},
    {TA_QUIT, {'q', KEY_F(10), 0}, "q F10", "quit", "quit"},
};

const tui_key *tui_keys(int *n)
{
    *n = (int)(sizeof KEYS / sizeof KEYS[0]);
    return KEYS;
}

tui_action tui_key_action(int key)
{
    int n;
    const tui_key *k = tui_keys(&n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < TUI_KEY_ALIASES && k[i].keys[j]; j++)
            if (k[i].keys[j] == key) return k[i].act;
    return TA_NONE;
}

/* What the numbers on screen mean (after the keys in the help). */
static const char *const GLOSSARY[] = {
    "",
    "What the numbers mean",
    "acc      sample-weighted accuracy (%) on the test rows of the classes seen so far.",
    "head     mean per-class accuracy (%) over the seen head classes (those kept whole); tail: "
    "the same over the seen tail classes (a few rows each).",
    "srank    stable rank of G+τI: Σλᵢ²/λ₁² = ‖G+τI‖²_F / λ_max². Near 1: one direction (the shared "
    "mean of the rows) dominates the spectrum; it counts directions of energy comparable to the largest. "
    "The paper's measure: GSR cannot raise it (its mixes stay in their class's span and pull towards "
    "the class mean); what lifts the tail is the ridge lens's share above τ.",
    "erank    effective rank (Roy & Vetterli): exp(−Σ pᵢ log pᵢ) with pᵢ = λᵢ/Σλ; needs every "
    "eigenvalue, so it is shown only where the exact spectrum is computed.",
    "κ        condition number λ_max/λ_min of G+τI; large κ: the solve amplifies noise along the "
    "weakest directions.",
    "seeds    with --seeds 1,2,3 the accuracy and stable-rank charts draw the mean over the seeds "
    "with a dotted ± std band, and the mean row under each method gives the mean acc, head and "
    "tail; every other number is the first seed's. Changing a parameter recomputes every seed.",
    "~        a Lanczos estimate: λ_max (and λ_min) from a few Lanczos iterations with an error "
    "bound, not the full eigendecomposition; exact values (LAPACK) come at the last task or "
    "wherever the spectrum is computed.",
    "λᵢ       eigenvalues of G+τI (G = Σ zzᵀ over the rows seen, plus β·Σ z̃z̃ᵀ for GSR's rows), "
    "largest first, on a log axis.",
    "Theorem 1 (view v): G's eigenvectors split into r head directions Uh and D−r tail "
    "directions Ut; Δ = the augmenting method's G minus GACL's.",
    "ε        ‖UhᵀΔUh‖₂, what Δ adds inside the head block;  η: ‖UhᵀΔUt‖₂, the head–tail coupling.",
    "m̄ mbar   ‖UtᵀΔUt‖₂, the largest energy Δ puts into the tail block;  m: λ_min(UtᵀΔUt), the least.",
    "Λ₊       the bound on the new largest eigenvalue: λ₁ + ε + η²/(gap); the theorem's lower "
    "bound is (S_τ + (D−r)m²)/(Λ₊+τ)² with S_τ = ‖G+τI‖²_F.",
    "eq. 12   the strict condition (D−r)m² > (Λ₊+τ)²·sr(G+τI) − S_τ: when it holds, GSR raises "
    "the stable rank for sure.",
    "Claims   each of the paper's claims with ✔ (this data supports it) or ✗ (it does not), the "
    "numbers, and why.",
    "Collapse per seen class: the energy uᵀ(G+τI)u along the class's own direction u (its "
    "mean, centred on the mean of all rows seen) against its training rows; the τ line is "
    "the floor ridge gives every direction.",
    "Ridge lens the filter factor λᵢ/(λᵢ+τ) of each eigen-direction of G: how much of it W = "
    "(G+τI)⁻¹Q keeps (½ at λ = τ). df(τ) = Σ λᵢ/(λᵢ+τ), the directions kept. head>τ, tail>τ: the "
    "median share of a class's direction (as in Collapse) on eigen-directions with λ > τ; a tail "
    "class below τ is shrunk away whatever its rows say.",
};

int tui_help_lines(char (*lines)[TUI_HELP_LEN], int max)
{
    int n, m = 0;
    const tui_key *k = tui_keys(&n);
    for (int i = 0; i < n && m < max; i++) {
        /* pad the key column to 8 cells (key names may hold multi-byte arrows) */
        int cells = 0;
        for (const unsigned char *s = (const unsigned char *)k[i].keyname; *s; s++)
            if ((*s & 0xC0) != 0x80) cells++;
        int pad = cells < 8 ? 8 - cells : 1;
        snprintf(lines[m++], TUI_HELP_LEN, "%s%*s %s", k[i].keyname, pad, "", k[i].help);
    }
    for (size_t g = 0; g < sizeof GLOSSARY / sizeof GLOSSARY[0] && m < max; g++)
        snprintf(lines[m++], TUI_HELP_LEN, "%s", GLOSSARY[g]);
    return m;
}
