/* config/params.c — the one table of parameters and the rules that read a row (gs_params.h). */
#include "gs_params.h"
#include "gs_common.h"
#include "gs_opts.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const PAIRS_NAMES[] = {"all", "random", "literal"};
static const char *const AUG_NAMES[] = {"all", "tail"};
static const char *const PROFILE_NAMES[] = {"step", "exp", "none"};
static const char *const ORDER_NAMES[] = {"shuffled", "ordered"};
static const char *const PROJ_NAMES[] = {"gaussian", "uniform"};

#define F(field) offsetof(op_opts, field)
#define E(names) names, (int)(sizeof names / sizeof *names)
#define INF HUGE_VAL
#define NOTUNE 0, 0, 0, 0
#define NOSTEP NULL, PA_STEP_NONE, 0
#define NOWORD NULL, 0

/* Tuning ranges (tune's grids; log scale one point a decade where values span decades): τ 1e-4..1e5
 * as the reference configurations use; β, α_base, ξ GSR's; gauss-a over its whole [0, 1],
 * gauss-b 1e-2..1e2 around Σ_head's weight 1; SLDA's ε 1e-6..1 (default 1e-4); KLDA's γ
 * 1e-5..1e2 (unit-norm rows: ‖x − y‖² ≤ 4, so γ ≥ 1e2 is a spike and 1e-5 linear) and reg
 * 1e-6..1e2 (default 1e-3); FeCAM's α 1e-2..1e4 (the reference's shrinkage 1 is the default;
 * a Gaussian set with few tail rows wants 1e2: 22 % at 1, 69.8 % at 100), its Tukey power
 * 0.25..1 (0.5 the reference's, 1 none).
 *
 * τ: [0, 1e12], the command line's range (the TUI's editor and its steps used [0, 1e6] before
 * the table; a τ the command line, a preset or a session accepts is one the TUI shows). β and ξ
 * likewise keep the command line's ranges. Their TUI steps go over 1, 2, 5, 10, ... */
static pa_param TABLE[] = {
    /* name, kind, field, enum names, default, lo, hi, bounds, a word for a value and the value,
     *   TUI label, step scale, step, tune lo, hi, log, grid points, option group, invalidates,
     *   --help section, metavariable, help, a refusal's reason */
    {"alpha-base", PA_DBL, F(params.alpha_base), NULL, 0, 0.6, 0, 1, PA_LO_OPEN, NOWORD,
     "α_base", PA_STEP_ADD, 0.05, 0.1, 1, 0, 10, OPG_STREAM, EN_DEP_ALPHA,
     PA_SEC_METHODS, "A", "GSR α_base %r (default %d)", NULL},
    {"xi", PA_DBL, F(params.xi), NULL, 0, 5e-3, 0, 1e3, 0, NOWORD,
     "ξ", PA_STEP_125, 1e-5, 1e-4, 1, 1, 9, OPG_STREAM, EN_DEP_XI,
     PA_SEC_METHODS, "X", "GSR ξ %r (default %d)", NULL},
    {"beta", PA_DBL, F(params.beta), NULL, 0, 1, 0, 1e6, 0, NOWORD,
     "β", PA_STEP_125, 0.01, 0, 4, 0, 9, OPG_STREAM, EN_DEP_BETA,
     PA_SEC_METHODS, "B", "GSR weight β %r (default %d)", NULL},
    {"tau", PA_DBL, F(params.tau), NULL, 0, 0.01, 0, 1e12, 0, NOWORD,
     "τ", PA_STEP_125, 1e-6, 1e-4, 1e5, 1, 10, OPG_STREAM, EN_DEP_TAU,
     PA_SEC_METHODS, "T", "ridge τ %r (default %d)", NULL},
    {"seed", PA_SEED, F(params.seed), NULL, 0, 1, 0, INF, 0, NOWORD,
     "seed", PA_STEP_ADD, 1, NOTUNE, OPG_STREAM, 0,
     PA_SEC_PROTOCOL, "N", "one seed for every random choice, %r (default %d)", NULL},
    {"pairs", PA_ENUM, F(params.pairs), E(PAIRS_NAMES), OP_PAIRS_ALL, 0, 0, 0, NOWORD,
     NOSTEP, NOTUNE, OPG_STREAM, EN_DEP_PAIRS,
     PA_SEC_METHODS, NULL, "GSR pairs: every ordered pair i≠j, one random partner per row, or\n"
                           "literal: all N² ordered pairs, i=j too (Algorithm 1) (default %d)", NULL},
    {"max-aug", PA_LONG, F(params.max_aug), NULL, 0, 1000, 0, INF, 0, "all", OP_MAX_AUG_ALL,
     NOSTEP, NOTUNE, OPG_STREAM, EN_DEP_MAXAUG,
     PA_SEC_METHODS, "N|all", "at most N synthetic rows per class, %r (default %d; all: no cap)", NULL},
    {"augment", PA_ENUM, F(params.augment), E(AUG_NAMES), OP_AUG_ALL, 0, 0, 0, NOWORD,
     NOSTEP, NOTUNE, OPG_STREAM, EN_DEP_AUGMENT,
     PA_SEC_METHODS, NULL, "which classes GSR augments (default %d)", NULL},
    {"gauss-a", PA_DBL, F(params.gauss_a), NULL, 0, 0.1, 0, 1, 0, NOWORD,
     NOSTEP, 0, 1, 0, 6, OPG_STREAM, EN_DEP_GAUSS_A,
     PA_SEC_METHODS, "A", "gauss-shrink covariance (1-A)Σ_tail + A·I, A %r (default %d)", NULL},
    {"gauss-b", PA_DBL, F(params.gauss_b), NULL, 0, 1, 0, INF, 0, NOWORD,
     NOSTEP, 1e-2, 1e2, 1, 5, OPG_STREAM, EN_DEP_GAUSS_B,
     PA_SEC_METHODS, "B", "gauss-transfer covariance Σ_tail + B·Σ_head, B %r (default %d)", NULL},
    {"slda-eps", PA_DBL, F(params.slda_eps), NULL, 0, 1e-4, 0, 1, 0, NOWORD,
     NOSTEP, 1e-6, 1, 1, 7, OPG_STREAM, EN_DEP_SLDA,
     PA_SEC_METHODS, "E", "slda: covariance S/(N-C) + E·I, E %r (default %d)", NULL},
    {"klda-dim", PA_LONG, F(params.klda_dim), NULL, 0, 5000, 1, 100000, 0, NOWORD,
     NOSTEP, NOTUNE, OPG_STREAM, EN_DEP_KLDA,
     PA_SEC_METHODS, "M", "klda: random Fourier features, M %r (default %d)", NULL},
    {"klda-gamma", PA_DBL, F(params.klda_gamma), NULL, 0, 1e-4, 0, 1e6, PA_LO_OPEN, NOWORD,
     NOSTEP, 1e-5, 1e2, 1, 8, OPG_STREAM, EN_DEP_KLDA,
     PA_SEC_METHODS, "G", "klda: kernel width, W ~ N(0, 2G), G %r (default %d)", NULL},
    {"klda-reg", PA_DBL, F(params.klda_reg), NULL, 0, 1e-3, 0, 1e12, PA_LO_OPEN, NOWORD,
     NOSTEP, 1e-6, 1e2, 1, 9, OPG_STREAM, EN_DEP_KLDA,
     PA_SEC_METHODS, "R", "klda: covariance S + R·I, R %r (default %d)", NULL},
    {"fecam-alpha", PA_DBL, F(params.fecam_alpha), NULL, 0, 1, 0, 1e6, PA_LO_OPEN, NOWORD,
     NOSTEP, 1e-2, 1e4, 1, 7, OPG_STREAM, EN_DEP_FECAM,
     PA_SEC_METHODS, "A", "fecam: shrinkage A × mean variance, A %r (default %d)", NULL},
    {"fecam-tukey", PA_DBL, F(params.fecam_tukey), NULL, 0, 0.5, 0, 1, PA_LO_OPEN, NOWORD,
     NOSTEP, 0.25, 1, 0, 4, OPG_STREAM, EN_DEP_FECAM,
     PA_SEC_METHODS, "B", "fecam: Tukey power sign(x)|x|^B, B %r (default %d; 1 = none)", NULL},
    {"tasks", PA_INT, F(proto.tasks), NULL, 0, 10, 1, 100000, 0, NOWORD,
     NOSTEP, NOTUNE, OPG_STREAM, 0,
     PA_SEC_PROTOCOL, "T", "tasks, %r (default %d, at most the number of classes)", NULL},
    {"profile", PA_ENUM, F(proto.profile), E(PROFILE_NAMES), OP_PROFILE_STEP, 0, 0, 0, NOWORD,
     NOSTEP, NOTUNE, OPG_STREAM, 0,
     PA_SEC_PROTOCOL, NULL, "long-tail profile (default %d; none keeps the data as it is)", NULL},
    {"head-frac", PA_DBL, F(proto.head_frac), NULL, 0, 0.3, 0, 1, PA_LO_OPEN | PA_HI_OPEN, NOWORD,
     NOSTEP, NOTUNE, OPG_STREAM, 0,
     PA_SEC_PROTOCOL, "H", "head fraction %r (default %d)", NULL},
    {"tail-shots", PA_LONG, F(proto.tail_shots), NULL, 0, 5, 1, INF, 0, NOWORD,
     NOSTEP, NOTUNE, OPG_STREAM, 0,
     PA_SEC_PROTOCOL, "N", "rows kept per tail class, %r (default %d)", NULL},
    {"head-shots", PA_LONG, F(proto.head_shots), NULL, 0, 0, 0, INF, 0, NOWORD,
     NOSTEP, NOTUNE, OPG_STREAM, 0,
     PA_SEC_PROTOCOL, "N", "rows kept per head class, %r (default %d: all rows)", NULL},
    {"rho", PA_DBL, F(proto.rho), NULL, 0, 0, 1, INF, PA_ZERO_UNSET, NOWORD,
     NOSTEP, NOTUNE, OPG_STREAM, 0,
     PA_SEC_PROTOCOL, "R", "imbalance ratio, %r (default %d):\n"
                           "step tail = floor(Nmax/R); exp uses 100 when unset", NULL},
    {"val-frac", PA_DBL, F(proto.val_frac), NULL, 0, 0, 0, 1, PA_HI_OPEN, NOWORD,
     NOSTEP, NOTUNE, OPG_STREAM, 0,
     PA_SEC_PROTOCOL, "F", "hold out round(F*n) of each class's n kept rows for validation,\n"
                           "F %r (default %d: none); validation numbers next to test", NULL},
    {"order", PA_ENUM, F(proto.order), E(ORDER_NAMES), OP_ORDER_SHUFFLED, 0, 0, 0, NOWORD,
     NOSTEP, NOTUNE, OPG_STREAM, 0,
     PA_SEC_PROTOCOL, NULL, "class order across tasks (default %d)", NULL},
    {"expand", PA_LONG, F(data.expand), NULL, 0, 0, 0, INF, 0, NOWORD,
     NOSTEP, NOTUNE, OPG_STREAM, 0,
     PA_SEC_DATA, "D", "random ReLU expansion h = ReLU(R z) to D dimensions, %r\n"
                       "(default %d: none; for ranpac: its projection size M, default 10000)", NULL},
    {"projection", PA_ENUM, F(data.projection), E(PROJ_NAMES), OP_PROJ_GAUSSIAN, 0, 0, 0, NOWORD,
     NOSTEP, NOTUNE, OPG_STREAM, 0,
     PA_SEC_DATA, NULL, "entries of R: N(0,1) or U(-1/sqrt(d), 1/sqrt(d))\n(default %d)", NULL},
};

/* The number options that are not parameters (gs_params.h pa_options): export's. Their defaults
 * (0) are the figure's own (300 dpi, GIF 100; 3.5 in; 1000 ms; scale 1), said in their help. */
static const pa_param OPTIONS[] = {
    {"dpi", PA_DBL, F(dpi), NULL, 0, 0, OP_MIN_DPI, OP_MAX_DPI, PA_ZERO_DEFAULT, NOWORD,
     NOSTEP, NOTUNE, OPG_FIGURE, 0, PA_SEC_DATA, "N", "PNG/GIF resolution %r (default 300; GIF 100)",
     "below %g dpi the text is unreadable"},
    {"frame-ms", PA_INT, F(frame_ms), NULL, 0, 0, OP_MIN_FRAME_MS, OP_MAX_FRAME_MS, PA_ZERO_DEFAULT, NOWORD,
     NOSTEP, NOTUNE, OPG_FIGURE, 0, PA_SEC_DATA, "N", "animation: ms per frame %r (default 1000; the last 3x)", NULL},
    {"width-in", PA_DBL, F(width_in), NULL, 0, 0, OP_MIN_WIDTH_IN, OP_MAX_WIDTH_IN, PA_ZERO_DEFAULT, NOWORD,
     NOSTEP, NOTUNE, OPG_FIGURE, 0, PA_SEC_DATA, "W", "figure width %r inches (default 3.5; dashboard 7)",
     "narrower figures overlap their labels"},
    {"font-scale", PA_DBL, F(font_scale), NULL, 0, 0, OP_MIN_FONT_SCALE, OP_MAX_FONT_SCALE, PA_ZERO_DEFAULT, NOWORD,
     NOSTEP, NOTUNE, OPG_FIGURE, 0, PA_SEC_DATA, "S", "text and lines S times as large, S %r (the layout\n"
                                                       "of a figure 1/S as wide)", NULL},
};
#undef F
#undef E
#define N_ROWS ((int)(sizeof TABLE / sizeof TABLE[0]))
#define N_OPTIONS ((int)(sizeof OPTIONS / sizeof OPTIONS[0]))

const pa_param *pa_options(void) { return OPTIONS; }
int pa_option_count(void) { return N_OPTIONS; }

const pa_param *pa_table(void) { return TABLE; }
pa_param *pa_table_mut(void) { return TABLE; }
int pa_count(void) { return N_ROWS; }

const pa_param *pa_find(const char *name)
{
    char n[64];
    if (!name) return NULL;
    snprintf(n, sizeof n, "%s", name);
    for (char *p = n; *p; p++) if (*p == '_') *p = '-';
    for (int i = 0; i < N_ROWS; i++) if (!strcmp(TABLE[i].name, n)) return &TABLE[i];
    return NULL;
}

const pa_param *pa_find_option(const char *name)
{
    for (int i = 0; name && i < N_OPTIONS; i++) if (!strcmp(OPTIONS[i].name, name)) return &OPTIONS[i];
    return NULL;
}

static char KEYS[N_ROWS][32];
static pthread_once_t keys_once = PTHREAD_ONCE_INIT;

static void make_keys(void)
{
    for (int i = 0; i < N_ROWS; i++) {
        snprintf(KEYS[i], sizeof KEYS[i], "%s", TABLE[i].name);
        for (char *p = KEYS[i]; *p; p++) if (*p == '-') *p = '_';
    }
}

const char *pa_key(const pa_param *r)
{
    long i = r - TABLE;
    if (i < 0 || i >= N_ROWS) return r->name;
    pthread_once(&keys_once, make_keys); /* the TUI's worker and UI threads both ask */
    return KEYS[i];
}

static double get_at(const void *field, pa_kind k)
{
    switch (k) {
    case PA_DBL: return *(const double *)field;
    case PA_LONG: return (double)*(const long *)field;
    case PA_INT: case PA_ENUM: return (double)*(const int *)field;
    case PA_SEED: return (double)*(const uint64_t *)field;
    }
    return NAN;
}

static void put_at(void *field, pa_kind k, double v)
{
    switch (k) {
    case PA_DBL: *(double *)field = v; break;
    case PA_LONG: *(long *)field = (long)llround(v); break;
    case PA_INT: case PA_ENUM: *(int *)field = (int)lround(v); break;
    case PA_SEED: *(uint64_t *)field = v <= 0 ? 0 : (uint64_t)llround(v); break;
    }
}

double pa_get(const void *opts, const pa_param *r) { return get_at((const char *)opts + r->off, r->kind); }
void pa_put(void *opts, const pa_param *r, double v) { put_at((char *)opts + r->off, r->kind, v); }

long pa_params_off(const pa_param *r)
{
    size_t base = offsetof(op_opts, params);
    return r->off >= base && r->off < base + sizeof(op_params) ? (long)(r->off - base) : -1;
}

/* On a log scale a power of ten is written 1eK ("1e-4..1e5"), else as pa_num_text. */
static void tune_num_text(const pa_param *r, double v, char *buf, size_t cap)
{
    if (r->tune_log && v > 0) {
        int k = (int)lround(log10(v));
        snprintf(buf, cap, "1e%d", k);
        if (k != 0 && strtod(buf, NULL) == v) return;
    }
    pa_num_text(v, buf, cap);
}

int pa_tunable(const pa_param *r) { return r->tune_grid > 1 && pa_params_off(r) >= 0; }

void pa_tune_text(const pa_param *r, char *buf, size_t cap)
{
    char lo[32], hi[32];
    tune_num_text(r, r->tune_lo, lo, sizeof lo);
    tune_num_text(r, r->tune_hi, hi, sizeof hi);
    snprintf(buf, cap, "%s %s..%s (%d points%s)", pa_key(r), lo, hi, r->tune_grid, r->tune_log ? ", log scale" : "");
}

double pa_get_params(const op_params *p, const pa_param *r)
{
    long o = pa_params_off(r);
    return o < 0 ? NAN : get_at((const char *)p + o, r->kind);
}

void pa_put_params(op_params *p, const pa_param *r, double v)
{
    long o = pa_params_off(r);
    if (o >= 0) put_at((char *)p + o, r->kind, v);
}

int pa_in_range(const pa_param *r, double v)
{
    if (r->kind == PA_ENUM) return v >= 0 && v < r->n_names;
    if (isnan(v)) return 0;
    if ((r->bounds & (PA_ZERO_UNSET | PA_ZERO_DEFAULT)) && v == 0) return 1;
    if (r->word && v == r->word_val) return 1;
    int lo_ok = (r->bounds & PA_LO_OPEN) ? v > r->lo : v >= r->lo;
    int hi_ok = (r->bounds & PA_HI_OPEN) ? v < r->hi : v <= r->hi;
    return lo_ok && hi_ok;
}

void pa_num_text(double v, char *buf, size_t cap)
{
    char t[48];
    snprintf(t, sizeof t, "%g", v);
    char *e = strchr(t, 'e');
    if (e) { /* 1e+12 → 1e12, 1e-05 → 1e-5 */
        char *d = e + 1, *s = e + 1;
        if (*s == '+') s++;
        if (*s == '-') *d++ = *s++;
        while (*s == '0' && s[1]) s++;
        memmove(d, s, strlen(s) + 1);
    }
    snprintf(buf, cap, "%s", t);
}

void pa_range_text(const pa_param *r, char *buf, size_t cap)
{
    char lo[32], hi[32];
    if (r->kind == PA_ENUM) {
        size_t L = 0;
        buf[0] = 0;
        for (int i = 0; i < r->n_names && L < cap; i++)
            L += (size_t)snprintf(buf + L, cap - L, "%s%s", i ? "|" : "", r->names[i]);
        return;
    }
    pa_num_text(r->lo, lo, sizeof lo);
    pa_num_text(r->hi, hi, sizeof hi);
    const char *pre = (r->bounds & PA_ZERO_UNSET) ? "0 (unset) or " : "";
    char word[40] = "";
    if (r->word) snprintf(word, sizeof word, " or '%s'", r->word);
    if (isinf(r->hi)) snprintf(buf, cap, "%s%s %s%s", pre, (r->bounds & PA_LO_OPEN) ? ">" : "≥", lo, word);
    else snprintf(buf, cap, "%sin %c%s, %s%c%s", pre, (r->bounds & PA_LO_OPEN) ? '(' : '[', lo, hi,
                  (r->bounds & PA_HI_OPEN) ? ')' : ']', word);
}

void pa_default_text(const pa_param *r, char *buf, size_t cap)
{
    if (r->kind == PA_ENUM) {
        int e = (int)r->def;
        snprintf(buf, cap, "%s", e >= 0 && e < r->n_names ? r->names[e] : "?");
    } else pa_num_text(r->def, buf, cap);
}

int pa_check(const pa_param *r, double v)
{
    if (pa_in_range(r, v)) return GS_OK;
    char range[64], got[32], why[128] = "";
    pa_range_text(r, range, sizeof range);
    pa_num_text(v, got, sizeof got);
    if (r->why) {
        why[0] = ' ', why[1] = '(';
        snprintf(why + 2, sizeof why - 3, r->why, r->lo);
        strcat(why, ")");
    }
    return gs_error(GS_EINPUT, "--%s: must be %s%s, got %s", r->name, range, why, got);
}

/* The value of the 1-2-5 series next to v > 0 in direction dir (strictly past v), written as
 * its decimal text reads (2e-3 is the double nearest 0.002). */
static double next_125(double v, int dir)
{
    static const double M[] = {1, 2, 5};
    int e = (int)floor(log10(v)) - 1;
    double best = dir > 0 ? INFINITY : 0;
    for (int k = e; k <= e + 2; k++)
        for (int i = 0; i < 3; i++) {
            char t[32];
            snprintf(t, sizeof t, "%ge%d", M[i], k);
            double c = strtod(t, NULL);
            if (dir > 0 && c > v * (1 + 1e-9) && c < best) best = c;
            if (dir < 0 && c < v * (1 - 1e-9) && c > best) best = c;
        }
    return best;
}

double pa_step(const pa_param *r, double v, int dir)
{
    double nv = v;
    if (r->scale == PA_STEP_ADD) {
        /* snap to the step's grid so repeated steps stay round */
        nv = round(v / r->step) * r->step + (dir > 0 ? r->step : -r->step);
        nv = round(nv * 1e6) / 1e6;
        if (nv < r->step) nv = r->step;
    } else if (r->scale == PA_STEP_125) {
        if (dir > 0) nv = v < r->step ? r->step : next_125(v, +1);
        else nv = v <= r->step * (1 + 1e-9) ? r->lo : next_125(v, -1);
    } else return v;
    if (!pa_in_range(r, nv)) {
        /* the end of the range: the bound itself when it is valid, else stay */
        double b = dir > 0 ? r->hi : r->lo;
        nv = pa_in_range(r, b) ? b : v;
        if (dir > 0 ? nv < v : nv > v) nv = v;
    }
    return nv;
}

unsigned pa_changed_deps(const op_params *a, const op_params *b)
{
    unsigned d = 0;
    for (int i = 0; i < N_ROWS; i++)
        if (TABLE[i].dep && pa_params_off(&TABLE[i]) >= 0 && pa_get_params(a, &TABLE[i]) != pa_get_params(b, &TABLE[i]))
            d |= TABLE[i].dep;
    return d;
}
