/* engine/estimate.c — the memory a run needs at its peak, estimated before allocating (en_estimate_bytes
 * in gs_engine.h). It follows the allocations term by term: the problem's rows (src/engine/prepare.c),
 * each feature space's mapped rows (src/engine/space.c), each ridge method's matrices (src/engine/engine.c
 * mstate_init, in the space's precision), its augmenter's buffers (src/engine/emit.c), its dual's kernel
 * (src/engine/ridge_dual.c, src/linalg/rsolve.c), the exact spectrum's copy (src/engine/ridge.c), and each stats
 * learner's own state (its en_learner.bytes). Memory the kernel never maps (calloc'd pages not yet
 * written) does not count: a ridge method in the dual has not touched its primal matrices, so the
 * two phases count as the larger of the two (both when the dual is kept: keep_task_grams). */
#include "engine_int.h"
#include "gs_methods.h"

#include <math.h>
#include <string.h>

/* The process before any array: libraries, OpenBLAS's buffers, the stream and results (measured:
 * up to 26 MiB of peak RSS above the arrays counted here under OpenBLAS's Haswell kernel, up to
 * 43 MiB under its Cooperlake kernel (larger buffers: run --expand 2500 --methods gacl+gsr peaked
 * at 286 MiB against 285 estimated with 32 MiB here); with a margin, so that the estimate stays
 * above the peak: tests/engine/test_memory.c). */
#define EST_PROCESS (48.0 * 1024 * 1024)
#define LANCZOS_ROWS 122 /* sp_lanczos_op's basis: maxit + 1 rows of D, plus its vectors */

/* A feature space as src/engine/space.c builds it: (relu, D) and whether its rows are float;
 * lazy: its rows mapped a task at a time (lean_test_rows, not the run's space, in double), then
 * keep: the last task whose rows its ridge methods still read from row 0 (their switch to the
 * primal; T − 1 when one stays in the dual or has class weights: nothing goes back). */
typedef struct {
    long D;
    int relu, single, based, lazy, keep;
} est_space;

/* The dimension and map of learner L's feature space (as src/engine/space.c chooses it). */
static long space_dim(const en_learner *L, const en_size *z, int *relu)
{
    if (L->map == EN_MAP_IDENTITY) { *relu = 0; return z->d; }
    if (L->map == EN_MAP_RELU) { *relu = 1; return z->expand > 0 ? z->expand : L->map_dim; }
    *relu = z->expand > 0;
    return z->expand > 0 ? z->expand : z->d;
}

static int single_for(const en_size *z, long D)
{
    op_data o;
    memset(&o, 0, sizeof o);
    o.precision = z->precision;
    return en_single_for(&o, D);
}

/* fl32 copy of the test rows (and their norms) when small enough (EN_TEST_F_MAX) or single. */
static double test_f(const en_size *z, long D, int single)
{
    double b = 4.0 * (double)z->n_test * (double)D;
    return single || b <= EN_TEST_F_MAX ? b + 8.0 * (double)z->n_test : 0;
}

static long rows_through(const en_size *z, int t);
static long largest_task(const en_size *z);

/* A lazy space's mapped rows resident at once (space.c, plan.c release_rows): every row through
 * task keep (its methods' dual reads them all, and so does the switch's base), later the rows of
 * a task and of the next (mapped before the earlier ones go back), and at most all of them. */
static double lazy_rows(const en_size *z, int keep)
{
    double pair = 0;
    for (int t = 0; t + 1 < z->T; t++) pair = fmax(pair, (double)(rows_through(z, t + 1) - (t ? rows_through(z, t - 1) : 0)));
    if (z->T == 1) pair = (double)z->n_rows;
    return fmin((double)z->n_rows, fmax((double)rows_through(z, keep < z->T ? keep : z->T - 1), pair));
}

/* The rows a space holds beyond the problem's z, test_z, val_z (run: the run's own space). A
 * learner's own map in double with lean_test_rows keeps no test rows: two prediction jobs at once
 * map AM_SCORE_BLOCK of them each (ridge.c, predict_mapped). */
static double space_rows(const en_size *z, const est_space *s, int run)
{
    double n = (double)z->n_rows, nt = (double)z->n_test, nv = (double)z->n_val, d = (double)z->d, D = (double)s->D;
    if (!s->relu) /* identity: the rows themselves; float copies in single precision (run space) */
        return (run && s->single ? 4.0 * n * d : 0) + test_f(z, s->D, s->single);
    double b = 8.0 * D * d + 8.0 * nv * D; /* R, the mapped validation rows */
    if (s->single) return b + 4.0 * D * d + 4.0 * n * D + test_f(z, s->D, 1);
    if (!run && z->lean_test_rows) return b + 2.0 * 8.0 * fmin(nt, AM_SCORE_BLOCK) * D; /* + lazy_rows' */
    return b + 8.0 * n * D + 8.0 * nt * D + test_f(z, s->D, 0);
}

/* Real rows of tasks 0..t and the largest task's rows. */
static long rows_through(const en_size *z, int t)
{
    if (z->task_row_start) return z->task_row_start[t + 1];
    return (long)((double)z->n_rows * (t + 1) / (z->T > 0 ? z->T : 1));
}
static long largest_task(const en_size *z)
{
    long m = 0;
    for (int t = 0; t < z->T; t++) {
        long r = rows_through(z, t) - (t ? rows_through(z, t - 1) : 0);
        if (r > m) m = r;
    }
    return m;
}

/* Augmented rows of task t at most: per class of the task, GSR's pairs (N(N − 1) of N rows, or N
 * with --pairs random; none under 2 rows) up to max_aug, the cap every augmenter keeps to (without
 * the stream's classes: max_aug for each of C/T classes). */
static double aug_rows(const en_size *z, int t)
{
    double cap = !z->params ? 1000.0 : z->params->max_aug == OP_MAX_AUG_ALL ? HUGE_VAL : (double)z->params->max_aug;
    if (!z->class_kept || !z->class_task) {
        double cls = (double)z->C / (z->T > 0 ? z->T : 1);
        return cap * (cls < 1 ? 1 : cls);
    }
    int pairs = z->params ? (int)z->params->pairs : OP_PAIRS_ALL;
    double n = 0;
    for (int c = 0; c < z->C; c++) {
        double N = (double)z->class_kept[c];
        double k = pairs == OP_PAIRS_RANDOM ? N : pairs == OP_PAIRS_LITERAL ? N * N : N * (N - 1);
        if (z->class_task[c] == t && N >= 2) n += k < cap ? k : cap;
    }
    return n;
}
static double aug_max(const en_size *z)
{
    double m = 0;
    for (int t = 0; t < z->T; t++) if (aug_rows(z, t) > m) m = aug_rows(z, t);
    return m;
}

/* A ridge method's dual (src/engine/ridge_dual.c) at its largest: the leading tasks whose rows (real and
 * augmented) stay under D (the dual's cost model keeps them there: a switch before is rare).
 * K and its factor U: the upper triangles of N × N touched (each of a D × D allocation); the
 * products of real rows khh (Nr rows of min(n, D)) and the kept augmented rows (with an augmenter
 * or class weights); the panels of a task's kernel columns, two buffers (even and odd tasks),
 * each grown to its largest (ridge_dual.c, en_dual_rows_close); all float in single precision,
 * where a task factored in double (EN_FALLBACK) adds its rows and kernel in double. When no task
 * is in the dual, task 0's augmented rows (kept for it all the same; E is built from them, no
 * kernel panel); *all = 1 when every task is in the dual (the primal is never used); *sw: the
 * first task in the primal (T: none). */
static double dual_bytes(const en_size *z, long D, int single, int aug, int cw, int *all, int *sw)
{
    *all = 0;
    *sw = 0;
    if (D < EN_DUAL_MIN_D || z->T < 1) return 0;
    double Dd = (double)D, Nr = 0, N = 0, A = 0, panel[2] = {0, 0};
    int t;
    for (t = 0; t < z->T; t++) {
        double At = aug ? aug_rows(z, t) : 0, Nt = (double)rows_through(z, t) + A + At;
        if (Nt >= Dd) break;
        panel[t & 1] = fmax(panel[t & 1], (Nt - N) * Nt);
        A += At;
        Nr = (double)rows_through(z, t);
        N = Nt;
    }
    /* task 0's augmented rows are kept for the dual whatever it turns out to be (then folded into
     * E by the PAIRS jobs) */
    double e = single ? 4.0 : 8.0;
    *sw = t;
    if (t == 0) return aug || cw ? e * (aug ? aug_rows(z, 0) : 0) * Dd : 0;
    *all = t == z->T;
    double nr = (double)(z->n_rows < D ? z->n_rows : D);
    double b = e * N * N + e * (panel[0] + panel[1]);
    if (aug || cw) b += e * Nr * nr + e * A * Dd;
    if (single) b += 8.0 * N * Dd + 8.0 * N * N; /* EN_FALLBACK's rows and factor in double */
    return b;
}

/* A ridge method of a space whose ridge methods share one work matrix (z->share_work): its dual
 * at its largest, its A64, the first task it solves in the primal, whether it never leaves the
 * dual; the space's sum of them is share_bytes'. */
typedef struct {
    double dual, a64;
    int sw, all;
} est_share;

/* A ridge method's matrices in a space of D columns; base: the bytes of the space's shared base
 * Gram when this method is the first to use it (else 0). sh: non-NULL when the space's ridge
 * methods share one work matrix A (z->share_work): A, the dual and A64 go there (share_bytes),
 * not into the sum returned. */
static double ridge_bytes(const en_size *z, const en_learner *L, const en_augmenter *A, est_space *s,
                          double slots, double base, est_share *sh)
{
    double D = (double)s->D, C = (double)z->C, g = s->single ? 4.0 : 8.0;
    /* Qw, Wt, Wf; the right-hand sides QE, OQB; the Lanczos basis */
    double b = 2.0 * 8.0 * C * D + (s->single ? 4.0 * C * D : 0) + 8.0 * LANCZOS_ROWS * D;
    if (A) b += 8.0 * C * D * slots;
    if (L->class_weight) b += 8.0 * C * D * slots;
    if (A) { /* the emitter: Y over the largest task, its row buffer, the expansion staging (a
              * task's feature-space rows, and a block of mapped rows per EXP job) */
        b += 8.0 * (double)largest_task(z) * D + 512.0 * g * D;
        double most = 0;
        for (int t = 0; s->relu && t < z->T; t++) most = fmax(most, aug_rows(z, t));
        if (s->relu) b += 8.0 * (double)z->d * fmax(most, XCAP) + 2.0 * XCAP * g * D;
    }
    /* the primal's D×D matrices: A, E, OB, the shared base, and A64 (a task factored in double in
     * single precision: EN_SINGLE_KAPPA). None is touched while the method is in the dual; a batch
     * run frees the dual when the first primal task assembles A, after E, OB and the base of that
     * task are formed, and before A and A64 are: the larger of the two moments counts (everything
     * when the dual is kept, the dual alone when every task is in it) */
    double a64 = s->single ? 8.0 * D * D : 0;
    double primal = g * D * D * ((sh ? 0 : 1) + (A ? slots : 0) + (L->class_weight ? slots : 0)) + base;
    int all, sw;
    double dual = dual_bytes(z, s->D, s->single, A != NULL, L->class_weight != NULL, &all, &sw);
    int keep = L->class_weight || all ? z->T - 1 : sw;
    if (keep > s->keep) s->keep = keep;
    if (sh) {
        *sh = (est_share){dual, a64, sw, all && !z->reserved};
        return sh->all ? b : b + primal;
    }
    if (all && !z->reserved) return b + dual;
    if (z->keep_task_grams) return b + primal + a64 + dual;
    /* the dual goes before the first primal task writes A (ridge.c, en_assemble), A64 after */
    return b + primal + fmax(dual - g * D * D, a64);
}

/* The exact spectrum's transient copy of G_t + τI for dsyevd (in double: a float matrix's double
 * copy is the one dsyevd works on), as many at once as the engine runs methods (two);
 * copy[i]: method i's (0 when it gets no exact spectrum). Under --spectrum auto above
 * EN_SPECTRUM_AUTO_MAX no job computes one, but an interactive engine still does on request
 * (en_ensure_spectrum: the TUI's spectrum panel at a task without its τ factor), one method at a
 * time. */
static double spectrum_bytes(const en_size *z, const double *copy, int n)
{
    int on_request = z->spectrum == OP_SPECTRUM_AUTO && (z->expand > 0 ? z->expand : z->d) > EN_SPECTRUM_AUTO_MAX;
    if (on_request && !z->keep_task_grams) return 0;
    double a = 0, b = 0;
    for (int i = 0; i < n; i++) {
        if (copy[i] > a) { b = a; a = copy[i]; }
        else if (copy[i] > b) b = copy[i];
    }
    return on_request ? a : a + b;
}

/* The bytes of one task's per-task matrices (each space's base, each method's E and OB) and
 * whether every method is a ridge learner: the engine's choice between T slots and two
 * (en_gram_rolls; engine.c task_slot_bytes, from the spaces as below). */
static double task_slot_bytes(const en_size *z, const en_method *methods, int n_methods, int *all_ridge)
{
    est_space sp[EN_MAX_SPACES + 1];
    int ns = 1;
    double b = 0;
    sp[0].relu = z->expand > 0;
    sp[0].D = z->expand > 0 ? z->expand : z->d;
    sp[0].single = single_for(z, sp[0].D);
    sp[0].based = 0;
    *all_ridge = 1;
    for (int m = 0; m < n_methods && m < OP_MAX_METHODS; m++) {
        const en_learner *L = methods[m].L;
        const en_augmenter *A = methods[m].A;
        if (!L) continue;
        int relu, k;
        long D = space_dim(L, z, &relu);
        for (k = 0; k < ns && !(sp[k].D == D && sp[k].relu == relu); k++) {}
        if (k == ns) {
            if (ns == EN_MAX_SPACES + 1) continue;
            sp[ns++] = (est_space){D, relu, relu ? sp[0].single : 0, 0, 0, 0};
        }
        if (L->family != EN_RIDGE) { *all_ridge = 0; continue; }
        double g = (sp[k].single ? 4.0 : 8.0) * (double)D * (double)D;
        if (!L->class_weight && !sp[k].based) { sp[k].based = 1; b += g; }
        if (A) b += g;
        if (L->class_weight) b += g;
    }
    return b;
}

/* The shared work matrix A (g·D² bytes) of n ridge methods sh[0..n-1] (in the engine's order)
 * with their duals and A64s, at the worst of three moments: every method in its dual (A not
 * written yet); the first to solve in the primal (the earliest sw, the first in order on a tie:
 * a task's assemblies run in method order) writing A, which it frees its dual for, beside the
 * duals of the others and every A64; and all of them in the primal. A lazy space's rows: rd
 * while a dual is at its largest (every row through the last switch), rp once A is written (rd,
 * or two tasks' rows when more). */
static double share_bytes(const est_share *sh, int n, double gD2, double rd, double rp)
{
    double duals = 0, a64 = 0, rest;
    int first = -1;
    for (int i = 0; i < n; i++) {
        duals += sh[i].dual;
        a64 += sh[i].a64;
        if (!sh[i].all && (first < 0 || sh[i].sw < sh[first].sw)) first = i;
    }
    if (first < 0) return duals + rd; /* every method in the dual throughout: A is never written */
    rest = duals - sh[first].dual;
    return fmax(duals + rd, gD2 + rest + a64 + rp);
}

double en_estimate_bytes(const en_size *z, const en_method *methods, int n_methods)
{
    int all_ridge;
    double slot_bytes = task_slot_bytes(z, methods, n_methods, &all_ridge);
    double slots = !z->keep_task_grams ? 1 : en_gram_rolls(all_ridge, z->T, slot_bytes) ? 2 : z->T;
    double n = (double)z->n_rows, d = (double)z->d;
    double b = EST_PROCESS + 8.0 * d * (n + (double)z->n_test + (double)z->n_val);
    b += 8.0 * (double)z->n_test * (double)z->C; /* scores */
    est_space sp[EN_MAX_SPACES + 1];
    double copy[OP_MAX_METHODS];
    int ns = 1, nc = 0;
    double tri = 0;
    sp[0].relu = z->expand > 0;
    sp[0].D = z->expand > 0 ? z->expand : z->d;
    sp[0].single = single_for(z, sp[0].D);
    sp[0].based = sp[0].lazy = sp[0].keep = 0;
    b += space_rows(z, &sp[0], 1);
    est_share sh[EN_MAX_SPACES + 1][OP_MAX_METHODS]; /* a space's methods sharing A (z->share_work) */
    int nsh[EN_MAX_SPACES + 1] = {0};
    for (int m = 0; m < n_methods && m < OP_MAX_METHODS; m++) {
        const en_learner *L = methods[m].L;
        const en_augmenter *A = methods[m].A;
        if (!L) continue; /* unresolved: en_create refuses it */
        int relu, k;
        long D = space_dim(L, z, &relu);
        for (k = 0; k < ns && !(sp[k].D == D && sp[k].relu == relu); k++) {}
        if (k == ns) {
            if (ns == EN_MAX_SPACES + 1) continue; /* refused by en_space_find */
            /* another map: float rows as the run's (a learner's own ReLU map), none for the identity */
            sp[ns] = (est_space){D, relu, relu ? sp[0].single : 0, 0, 0, 0};
            sp[ns].lazy = relu && !sp[ns].single && z->lean_test_rows;
            b += space_rows(z, &sp[ns], 0);
            ns++;
        }
        if (L->family == EN_RIDGE) {
            double g = sp[k].single ? 4.0 : 8.0, Dd = (double)D, base = 0;
            if (!L->class_weight && !sp[k].based) { /* B (a D×D in the primal), QB */
                base = g * Dd * Dd * slots;
                b += 8.0 * z->C * Dd * slots;
                sp[k].based = 1;
            }
            /* a method alone in its space counts the same either way: share_bytes of one method is
             * max(dual, A + A64), ridge_bytes' A + max(dual − A, A64) */
            int shared = z->share_work && !z->keep_task_grams;
            b += ridge_bytes(z, L, A, &sp[k], slots, base, shared ? &sh[k][nsh[k]++] : NULL);
            /* under --spectrum auto a method's own matrix above EN_SPECTRUM_AUTO_MAX gets no exact
             * spectrum (ridge.c, en_job_solve), unless it is the dual's N × N kernel of at most
             * that many rows at the last task (N: every real row and every augmented row) */
            double dim = Dd;
            if (z->spectrum == OP_SPECTRUM_AUTO && D > EN_SPECTRUM_AUTO_MAX && !z->keep_task_grams) {
                double N = n;
                for (int t = 0; A && t < z->T; t++) N += aug_rows(z, t);
                dim = N <= EN_SPECTRUM_AUTO_MAX ? N : 0;
            }
            copy[nc++] = 8.0 * dim * dim;
            /* an interactive engine's τ factor of the shown task (ridge_tri.c): Q per method, and
             * G_t's reflectors of the method whose Q is being formed */
            if (z->keep_task_grams && D >= EN_TAU_FACTOR_MIN_D) { b += g * Dd * Dd; tri = fmax(tri, g * Dd * Dd); }
        } else {
            en_size zl = *z; /* a learner that keeps its rows for a refit sees the augmenter's too */
            for (int t = 0; A && L->refit && t < z->T; t++) zl.n_rows += (long)fmin(aug_rows(z, t), 1e15);
            zl.largest_task = largest_task(&zl);
            if (L->bytes) b += L->bytes(&zl, D);
            if (A) b += 8.0 * aug_max(z) * (double)D + 512.0 * 8.0 * (double)D; /* a task's synthetic rows */
        }
    }
    for (int k = 0; k < ns; k++) { /* each shared A once, with its methods' duals (and a lazy space's rows) */
        double D = (double)sp[k].D, rp = sp[k].lazy ? 8.0 * lazy_rows(z, sp[k].keep) * D : 0;
        double rd = sp[k].lazy ? 8.0 * fmin((double)z->n_rows, (double)rows_through(z, sp[k].keep)) * D : 0;
        if (nsh[k]) b += share_bytes(sh[k], nsh[k], (sp[k].single ? 4.0 : 8.0) * D * D, rd, rp);
        else b += rp;
    }
    return b + tri + spectrum_bytes(z, copy, nc);
}
