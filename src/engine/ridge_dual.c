/* engine/ridge_dual.c — a ridge method's tasks solved in the N-dimensional dual (gs_rsolve.h) when that
 * is cheaper than the D×D Cholesky: the choice, the rows the dual keeps, its kernel grown task by
 * task, the solve and the statistics of G_t read from the kernel. State: engine_int.h (ms->dual).
 *
 * The rows of G_t = Σ w_i h_i h_iᵀ are, in task order, task 0's real rows, task 0's augmented
 * rows, task 1's real rows, ...: a real row with weight ω (its class weight, 1 without), an
 * augmented row with weight β·ω (ω as emitted, class weight included). The kernel K = H Hᵀ of
 * those rows is kept without weights (rs_dual's scales carry √w), so a new β refactors without
 * recomputing K. While a method is in the dual its augmented rows are kept (expanded, one buffer
 * per task) instead of being folded into E. The kernel of a task's new rows is computed as a
 * panel by the two PAIRS jobs (each half of the products), appended by the solve. The products
 * of real rows with real rows are also kept (khh), so new augmented rows (α_base, ξ, ...)
 * recompute only the products that involve them.
 *
 * Precision: in single precision (en_problem.single) the rows are read as float (p->hf; the kept
 * augmented rows are expanded and kept in float), the kernel, its panels and its factor are float
 * (sgemm, spotrf), W = Hᵀα is formed in float; as in the primal, a task whose cond(G + τI) (from
 * the λ_max estimate) exceeds EN_SINGLE_KAPPA, or whose float factor fails, is factored in double
 * from the float kernel and W formed in double (EN_FALLBACK).
 *
 * The choice, per task t, is a function of row counts only (not of timing): see en_dual_mode. */
#include "engine_int.h"
#include "gs_common.h"
#include "gs_spectral.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct en_dual {
    rs_dual k;            /* kernel and factor of the rows in task order */
    int tasks;            /* tasks whose rows are in k */
    en_rowbuf *ab;        /* T: each task's kept augmented rows (h, label, ω) */
    void *khh;            /* nr × nr, row-major: products of real rows (rows r < khh_rows valid);
                           * elements of the kernel's precision (es bytes) */
    long nr, khh_rows;
    void *panel[2];       /* kernel columns of task t's rows (by parity of t), from the PAIRS jobs */
    size_t pbytes[2];
    int ptask[2];         /* the task whose panel is in panel[t & 1], or -1 */
    int switch_task;      /* the task solved in the primal after the dual, whose PAIRS jobs build E
                           * (and OB) from the kept rows, or -1 */
    size_t es;            /* bytes per element of the kernel: 4 (single precision) or 8 */
};

/* The real rows from lo on of the problem: doubles (p->h), or floats (p->hf) in single
 * precision. The one place this file reads the rows. */
static const void *real_rows(const mstate *ms, long lo)
{
    return ms->p->single ? (const void *)gm_rowf(&ms->p->hf, lo) : (const void *)gm_row(&ms->p->h, lo);
}

/* GS_DUAL: "off" never, "on" whenever the rows are fewer than D, else by cost (below). */
static int dual_setting(void)
{
    const char *v = getenv("GS_DUAL");
    if (v && !strcmp(v, "off")) return 0;
    if (v && !strcmp(v, "on")) return 2;
    return 1;
}

/* Rows of G_t (real and augmented, tasks 0..t). */
static long rows_through(const mstate *ms, int t)
{
    if (t < 0) return 0;
    return ms->p->task_row_start[t + 1] + (ms->aug_def ? ms->aug_rows[t] : 0);
}

/* The cost model, in multiply-adds, of task k with N rows after it (n of them new) and C seen
 * classes, the tasks before it having been solved in the dual:
 *   dual:   N·n·D (the new rows' kernel columns) + (N³ − (N−n)³)/3 (extending the factor)
 *           + 2·N·D·C (the right-hand side and W = Hᵀα);
 *   primal: n·D² (the new rows' Gram) + D³/3 (Cholesky) + (N−n)·D² (the Gram of the rows the
 *           dual held, built once on the switch).
 * The dual is used while it is the cheaper and the rows are fewer than D (so G_t is singular and
 * λ_min(G_t) = 0 exactly), from D ≥ EN_DUAL_MIN_D on; once a task is solved in the primal the
 * later ones are too (the rows only grow). It depends on row counts only: deterministic. */
int en_dual_mode(const en_engine *e, const mstate *ms, int t)
{
    (void)e;
    int set = dual_setting();
    if (!en_is_ridge(ms) || ms->p->D < EN_DUAL_MIN_D || set == 0 || t < 0) return 0;
    double D = (double)ms->p->D, prev = 0;
    for (int k = 0; k <= t; k++) {
        double N = (double)rows_through(ms, k), n = N - prev, C = ms->p->st->task_class_start[k + 1];
        if (N >= D) return 0;
        double cd = N * n * D + (N * N * N - prev * prev * prev) / 3 + 2 * N * D * C;
        double cp = n * D * D + D * D * D / 3 + prev * D * D;
        if (set == 1 && cd > cp) return 0;
        prev = N;
    }
    return 1;
}

/* Task t's rows are generated for the dual (kept) rather than folded into E: the method is in
 * the dual up to task t-1 (if task t is not, en_dual_task_end builds E from the kept rows). */
int en_dual_keeps(const en_engine *e, const mstate *ms, int t)
{
    if (!en_is_ridge(ms) || ms->p->D < EN_DUAL_MIN_D || dual_setting() == 0) return 0;
    return t == 0 || en_dual_mode(e, ms, t - 1);
}

static int dual_get(const en_engine *e, mstate *ms)
{
    if (ms->dual) return GS_OK;
    const en_problem *p = ms->p;
    en_dual *d = gs_calloc(1, sizeof *d, "dual kernel");
    if (!d) return GS_ENOMEM;
    rs_dual_init(&d->k, p->D, p->single);
    d->es = p->single ? sizeof(float) : sizeof(double);
    d->ptask[0] = d->ptask[1] = d->switch_task = -1;
    d->nr = p->task_row_start[p->T];
    if (d->nr > p->D) d->nr = p->D; /* the dual holds fewer than D rows */
    if (ms->aug_def || ms->cw) {
        d->ab = gs_calloc((size_t)p->T, sizeof(en_rowbuf), "dual rows");
        d->khh = gs_calloc((size_t)d->nr * (size_t)d->nr, d->es, "dual kernel");
        if (!d->ab || !d->khh) { free(d->ab); free(d->khh); free(d); return GS_ENOMEM; }
    }
    (void)e;
    ms->dual = d;
    return GS_OK;
}

void en_dual_free(mstate *ms, int T)
{
    en_dual *d = ms->dual;
    if (!d) return;
    rs_dual_free(&d->k);
    for (int t = 0; d->ab && t < T; t++) en_rowbuf_free(&d->ab[t]);
    free(d->ab);
    free(d->khh);
    free(d->panel[0]);
    free(d->panel[1]);
    free(d);
    ms->dual = NULL;
}

/* Rows of task k in the dual's order: real (n_r) then augmented (n_a). */
static long task_aug(const mstate *ms, int k)
{
    const en_dual *d = ms->dual;
    return d && d->ab ? d->ab[k].n : 0;
}
static long task_pos(const mstate *ms, int t) /* position of task t's first row */
{
    long pos = ms->p->task_row_start[t];
    for (int k = 0; k < t; k++) pos += task_aug(ms, k);
    return pos;
}

/* ---- the kept rows (the plan's EXTRA job) ---------------------------------------------------------------- */

en_rowbuf *en_dual_rows_open(en_engine *e, mstate *ms, int t)
{
    if (dual_get(e, ms) || !ms->dual->ab) return NULL;
    en_dual *d = ms->dual;
    if (t == 0) { /* new rows from the first task: the kernel is rebuilt (real products kept) */
        rs_dual_truncate(&d->k, 0);
        d->tasks = 0;
        d->ptask[0] = d->ptask[1] = d->switch_task = -1;
    }
    for (int k = t; k < ms->p->T; k++) { d->ab[k].n = 0; d->ab[k].X.rows = 0; }
    return &d->ab[t];
}

/* After task t's rows are kept (their count in ms->aug_rows[t]): the buffer trimmed to its rows,
 * and either the panel of task t's kernel columns allocated for the PAIRS jobs, or, when task t
 * is solved in the primal (the switch), its E and OB zeroed for the PAIRS jobs to build from the
 * kept rows (en_dual_pairs). */
/* Task t goes to the primal: its slot's E (and AIR's own base) start from zero, no kernel panel
 * is pending, and t is where the dual ended. */
static int leave_dual(en_engine *e, mstate *ms, int t)
{
    int s = en_slot(e, t);
    if (ms->E) { gr_zero(&ms->E[s]); gr_zero(&ms->QE[s]); }
    if (ms->OB) { gr_zero(&ms->OB[s]); gr_zero(&ms->OQB[s]); }
    ms->dual->ptask[t & 1] = -1;
    ms->dual->switch_task = t;
    return GS_OK;
}

int en_dual_rows_close(en_engine *e, mstate *ms, int t)
{
    en_dual *d = ms->dual;
    en_rowbuf *b = &d->ab[t];
    long D = ms->p->D;
    if (b->n && b->n < b->cap) {
        void *v = realloc(b->X.f ? (void *)b->X.f : (void *)b->X.v, (size_t)b->n * (size_t)D * d->es);
        if (v && b->X.f) b->X.f = v;
        else if (v) b->X.v = v;
        if (v) b->cap = b->n;
    }
    if (!en_dual_mode(e, ms, t)) return leave_dual(e, ms, t);
    long P0 = task_pos(ms, t), nt = ms->p->task_row_start[t + 1] - ms->p->task_row_start[t] + b->n;
    size_t bytes = (size_t)nt * (size_t)(P0 + nt) * d->es;
    int s = t & 1;
    if (d->pbytes[s] < bytes) {
        free(d->panel[s]);
        d->pbytes[s] = 0;
        if (!(d->panel[s] = gs_malloc(bytes ? bytes : 1, 1, "dual kernel"))) return GS_ENOMEM;
        d->pbytes[s] = bytes;
    }
    d->ptask[s] = t;
    return GS_OK;
}

int en_dual_rows_again(en_engine *e, mstate *ms, int t)
{
    if (!ms->dual || en_dual_mode(e, ms, t)) return GS_OK;
    return leave_dual(e, ms, t);
}

/* ---- the kernel ------------------------------------------------------------------------------- */

/* Block b of the rows (b = 2k: task k's real rows, 2k+1: its augmented rows): rows (doubles, or
 * floats in single precision), count and position. */
static const void *block(const mstate *ms, int b, long *n, long *pos)
{
    const en_problem *p = ms->p;
    int k = b / 2;
    long r0 = p->task_row_start[k], nr = p->task_row_start[k + 1] - r0;
    *pos = task_pos(ms, k);
    if (b % 2 == 0) { *n = nr; return real_rows(ms, r0); }
    *pos += nr;
    *n = task_aug(ms, k);
    if (!*n) return NULL; /* no augmented rows: ab may be NULL (a learner without an augmenter) */
    const gm_mat *X = &ms->dual->ab[k].X;
    return X->f ? (const void *)X->f : (const void *)X->v;
}

/* out (nn × n, leading dimension ld, the kernel's precision) = Xn Xbᵀ, or its lower triangle
 * (row j: products with rows ≤ j) for a block with itself (self). */
static void products(int single, int self, long nn, long n, long D, const void *Xn, const void *Xb, void *out, long ld)
{
    if (single && self)
        cblas_ssyrk(CblasRowMajor, CblasLower, CblasNoTrans, (int)nn, (int)D, 1.0f, Xn, (int)D, 0.0f, out, (int)ld);
    else if (single)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nn, (int)n, (int)D, 1.0f, Xn, (int)D, Xb, (int)D, 0.0f,
                    out, (int)ld);
    else if (self)
        cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, (int)nn, (int)D, 1.0, Xn, (int)D, 0.0, out, (int)ld);
    else
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nn, (int)n, (int)D, 1.0, Xn, (int)D, Xb, (int)D, 0.0,
                    out, (int)ld);
}

/* The panel of task t's rows (row j: the products of new row j with rows 0..P0+j, ld = P1), the
 * products of part `part` (0 or 1: about half of the work each; -1: all). Real × real products
 * come from khh when it has them. */
static void panel_part(const mstate *ms, int t, int part, void *P)
{
    const en_dual *d = ms->dual;
    const en_problem *p = ms->p;
    size_t es = d->es;
    long D = p->D, P0 = task_pos(ms, t), P1 = P0 + p->task_row_start[t + 1] - p->task_row_start[t] + task_aug(ms, t);
    long khh_rows = __atomic_load_n(&d->khh_rows, __ATOMIC_ACQUIRE);
    /* pairs (new block nb, earlier block b ≤ nb), in a fixed order; part 0 takes them until half
     * of the products are done */
    double total = 0, acc = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int nb = 2 * t; nb <= 2 * t + 1; nb++)
            for (int b = 0; b <= nb; b++) {
                long nn, pn, n, pb;
                const void *Xn = block(ms, nb, &nn, &pn), *Xb = block(ms, b, &n, &pb);
                if (!nn || !n) continue;
                double cost = (double)nn * (double)n * (b == nb ? 0.5 : 1.0);
                int mine;
                if (pass == 0) { total += cost; continue; }
                mine = part < 0 || (part == 0) == (acc + cost / 2 <= total / 2);
                acc += cost;
                if (!mine) continue;
                char *out = (char *)P + ((size_t)(pn - P0) * P1 + pb) * es;
                long rn = p->task_row_start[nb / 2], rb = p->task_row_start[b / 2];
                if (nb % 2 == 0 && b % 2 == 0 && d->khh && rn + nn <= khh_rows) {
                    for (long j = 0; j < nn; j++)
                        memcpy(out + (size_t)j * P1 * es, (const char *)d->khh + ((size_t)(rn + j) * d->nr + rb) * es,
                               (size_t)n * es);
                    continue;
                }
                products(p->single, b == nb, nn, n, D, Xn, Xb, out, P1);
            }
}

static int switch_part(en_engine *e, mstate *ms, int t, int part);

int en_dual_pairs(en_engine *e, mstate *ms, int t, int part)
{
    en_dual *d = ms->dual;
    if (d && d->ptask[t & 1] == t) panel_part(ms, t, part, d->panel[t & 1]);
    if (d && d->switch_task == t) return switch_part(e, ms, t, part);
    return GS_OK;
}

/* The kernel through task t, and the scales √w of every row in it. */
static int kernel_through(en_engine *e, mstate *ms, int t)
{
    int rc = dual_get(e, ms);
    if (rc) return rc;
    en_dual *d = ms->dual;
    const en_problem *p = ms->p;
    for (int k = d->tasks; k <= t; k++) {
        long P0 = task_pos(ms, k), r0 = p->task_row_start[k], nr = p->task_row_start[k + 1] - r0;
        long P1 = P0 + nr + task_aug(ms, k);
        void *P = d->ptask[k & 1] == k ? d->panel[k & 1] : NULL, *own = NULL;
        if (!P) {
            if (!(own = P = gs_malloc((size_t)(P1 - P0) * (size_t)P1 + 1, d->es, "dual kernel"))) return GS_ENOMEM;
            panel_part(ms, k, -1, P);
        }
        rc = rs_dual_put(&d->k, P1, P, P1);
        if (!rc && d->khh && d->khh_rows == r0 && r0 + nr <= d->nr) {
            /* keep the real × real products of the new real rows (real rows of tasks ≤ k) */
            for (long j = 0; j < nr; j++)
                for (int b = 0; b <= k; b++) {
                    long n, pb, rb = p->task_row_start[b];
                    block(ms, 2 * b, &n, &pb);
                    memcpy((char *)d->khh + ((size_t)(r0 + j) * d->nr + rb) * d->es,
                           (const char *)P + ((size_t)j * P1 + pb) * d->es, (size_t)n * d->es);
                }
            __atomic_store_n(&d->khh_rows, r0 + nr, __ATOMIC_RELEASE);
        }
        free(own);
        if (d->ptask[k & 1] == k) d->ptask[k & 1] = -1;
        if (rc) return rc;
        d->tasks = k + 1;
    }
    /* scales: real rows √ω (class weight), augmented rows √(β ω) */
    long N = d->k.n;
    double *s = gs_malloc((size_t)(N ? N : 1), sizeof(double), "dual kernel"), beta = ms->weight;
    if (!s) return GS_ENOMEM;
    for (int k = 0; k < d->tasks; k++) {
        long n, pos;
        block(ms, 2 * k, &n, &pos);
        for (long i = 0; i < n; i++) s[pos + i] = ms->cw ? sqrt(ms->cw[p->y[p->task_row_start[k] + i]]) : 1.0;
        block(ms, 2 * k + 1, &n, &pos);
        for (long i = 0; i < n; i++) s[pos + i] = sqrt(beta * d->ab[k].w[i]);
    }
    rs_dual_set_scales(&d->k, s, N);
    free(s);
    return GS_OK;
}

/* ---- solve, statistics, Gram ------------------------------------------------------------------ */

/* W rows (ms->Wt, and ms->Wf in single precision) = αᵀ H for the N rows of tasks 0..t, block by
 * block (α, `work`, column-major N × Cs, is row-major Cs × N): in the rows' precision, or in double
 * from float rows after a double factorization (EN_FALLBACK: the rows converted a chunk at a time). */
static int dual_w(mstate *ms, int t, long N, int Cs, const double *work)
{
    enum { NB = 256 };
    const en_problem *p = ms->p;
    long D = p->D;
    size_t nw = (size_t)Cs * (size_t)D;
    int single = p->single, f64 = single && ms->dual->k.use64;
    float *af = single && !f64 ? gs_malloc((size_t)N * (size_t)Cs + 1, sizeof(float), "dual solve") : NULL;
    double *xd = f64 ? gs_malloc((size_t)NB * (size_t)D, sizeof(double), "dual solve") : NULL;
    if ((single && !f64 && !af) || (f64 && !xd)) { free(af); free(xd); return GS_ENOMEM; }
    for (size_t i = 0; af && i < (size_t)N * (size_t)Cs; i++) af[i] = (float)work[i];
    if (af) memset(ms->Wf.f, 0, nw * sizeof(float));
    else memset(ms->Wt.v, 0, nw * sizeof(double));
    for (int b = 0; b <= 2 * t + 1 && Cs; b++) {
        long n, at;
        const void *X = block(ms, b, &n, &at);
        if (!n) continue;
        if (af) {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Cs, (int)D, (int)n, 1.0f, af + at, (int)N, X, (int)D,
                        1.0f, ms->Wf.f, (int)D);
        } else if (!f64) {
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Cs, (int)D, (int)n, 1.0, work + at, (int)N, X, (int)D,
                        1.0, ms->Wt.v, (int)D);
        } else {
            for (long i0 = 0; i0 < n; i0 += NB) {
                long nb = n - i0 < NB ? n - i0 : NB;
                const float *xf = (const float *)X + (size_t)i0 * D;
                for (size_t i = 0; i < (size_t)nb * (size_t)D; i++) xd[i] = xf[i];
                cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Cs, (int)D, (int)nb, 1.0, work + at + i0, (int)N,
                            xd, (int)D, 1.0, ms->Wt.v, (int)D);
            }
        }
    }
    if (af) for (size_t i = 0; i < nw; i++) ms->Wt.v[i] = ms->Wf.f[i];
    else if (f64) for (size_t i = 0; i < nw; i++) ms->Wf.f[i] = (float)ms->Wt.v[i];
    free(af);
    free(xd);
    return GS_OK;
}

/* Single precision, a task float cannot factor: the kernel of its N rows recomputed in double from
 * the float rows (as accurate as the rows), factored in double (rs_dual_factor64). */
static int factor_double(mstate *ms, int t, long N, double tau)
{
    long D = ms->p->D;
    double *X = gs_malloc((size_t)(N ? N : 1) * (size_t)D, sizeof(double), "dual rows in double");
    if (!X) return GS_ENOMEM;
    for (int b = 0; b <= 2 * t + 1; b++) {
        long n, at;
        const float *xf = block(ms, b, &n, &at);
        for (size_t i = 0; i < (size_t)n * (size_t)D; i++) X[(size_t)at * D + i] = xf[i];
    }
    int rc = rs_dual_factor64(&ms->dual->k, N, tau, X);
    free(X);
    return rc;
}

/* The factor of the rows of tasks 0..t, extended task by task from the largest task boundary it
 * holds: the same operations, hence the same numbers, whichever tasks were solved before (the
 * user's task may be solved before the earlier ones). */
static int factor_through(mstate *ms, int t, double tau)
{
    rs_dual *k = &ms->dual->k;
    long held = 0;
    for (int b = 0; b <= t; b++) {
        long N = task_pos(ms, b + 1);
        if (N <= k->nf) held = N;
    }
    if (k->nf > held) k->nf = held; /* the leading block of a factor is that block's factor */
    for (int b = 0; b <= t; b++) {
        int rc = rs_dual_factor(k, task_pos(ms, b + 1), tau);
        if (rc) return rc;
    }
    return GS_OK;
}

/* The seen-class column (k, class_order[k] its class; -1 for an unseen class) of each of the N rows
 * of tasks 0..t in the dual's order (allocated: N ints), or NULL (no memory). */
static int *row_cols(const mstate *ms, int t, long N)
{
    const en_problem *p = ms->p;
    int C = p->C, Cs = p->st->task_class_start[t + 1];
    int *pos = gs_malloc((size_t)C + 1, sizeof(int), "dual labels"), *col = gs_malloc((size_t)N + 1, sizeof(int), "dual labels");
    if (!pos || !col) { free(pos); free(col); return NULL; }
    for (int c = 0; c < C; c++) pos[c] = -1;
    for (int k = 0; k < Cs; k++) pos[p->st->class_order[k]] = k;
    for (int k = 0; k <= t; k++) {
        long n, at;
        block(ms, 2 * k, &n, &at);
        for (long i = 0; i < n; i++) col[at + i] = pos[p->y[p->task_row_start[k] + i]];
        block(ms, 2 * k + 1, &n, &at);
        for (long i = 0; i < n; i++) col[at + i] = pos[ms->dual->ab[k].y[i]];
    }
    free(pos);
    return col;
}

/* W = Hᵀ S (S K S + τI)⁻¹ S Y for the rows of tasks 0..t: the kernel grown to task t and its
 * factor extended (or refactored after a change of τ or β). In single precision, as in the
 * primal (en_solve_seen): a double factorization when cond(G + τI) > EN_SINGLE_KAPPA by the λ_max
 * estimate, or when the float one fails (ms->fallback). */
int en_solve_dual(en_engine *e, mstate *ms, int t, double tau, char *why, size_t nwhy)
{
    const en_problem *p = ms->p;
    int Cs = p->st->task_class_start[t + 1];
    ms->fallback = 0;
    if (kernel_through(e, ms, t)) goto fail;
    en_dual *d = ms->dual;
    long N = task_pos(ms, t + 1);
    if (p->single) {
        double kappa = (ms->lmax[t] + ms->lmaxe[t] + tau) / tau;
        if (kappa > EN_SINGLE_KAPPA || factor_through(ms, t, tau)) {
            ms->fallback = 1;
            if (factor_double(ms, t, N, tau)) goto fail;
        }
    } else if (factor_through(ms, t, tau)) goto fail;
    int *col = row_cols(ms, t, N);
    double *work = gs_malloc((size_t)N * (size_t)Cs + 1, sizeof(double), "dual solve");
    int rc = col && work ? GS_OK : GS_ENOMEM;
    if (!rc) rc = rs_dual_alpha(&d->k, N, col, NULL, Cs, work);
    if (!rc) rc = dual_w(ms, t, N, Cs, work);
    free(col);
    free(work);
    if (rc) goto fail;
    for (size_t i = 0; i < (size_t)Cs * (size_t)p->D; i++)
        if (!isfinite(ms->Wt.v[i])) { snprintf(why, nwhy, "the solution W is not finite; raise --tau"); return GS_ERUN; }
    return GS_OK;
fail:
    snprintf(why, nwhy, "%s", gs_last_error());
    return GS_ERUN;
}

/* τ-independent statistics of G_t from the kernel: tr G = tr SKS, ‖G‖_F = ‖SKS‖_F, λ_max by
 * Lanczos on SKS, λ_min = 0 exactly (fewer rows than columns); the exact spectrum is that of
 * SKS followed by D − N zeros. */
int en_dual_stats(en_engine *e, mstate *ms, int t, int want_spectrum)
{
    long D = ms->p->D;
    int rc = kernel_through(e, ms, t);
    if (rc) return rc;
    const rs_dual *k = &ms->dual->k;
    long N = task_pos(ms, t + 1);
    if (!ms->stats_valid[t]) {
        free(ms->eigG[t]);
        ms->eigG[t] = NULL;
        rs_dual_stats(k, N, &ms->fro2[t], &ms->tr[t]);
        if ((rc = rs_dual_lmax(k, N, LANCZOS_MAXIT, LANCZOS_TOL, &ms->lmax[t], &ms->lmaxe[t]))) return rc;
        if (k->single) {
            /* a float kernel: each product of D terms of rounded rows is off by at most
             * (γ_D + 3u)·|h_i|·|h_j| (u = 2⁻²⁴), so ‖fl(SKS) − SKS‖₂ ≤ (γ_D + 3u)·tr SKS */
            double u = 0x1p-24, g = (double)D * u / (1 - (double)D * u);
            ms->lmaxe[t] += (g + 3 * u) * ms->tr[t];
        }
        ms->lmin[t] = ms->lmine[t] = 0;
        ms->lmin_ref[t] = 2; /* exact: G_t has fewer rows than columns */
        ms->stats_valid[t] = 1;
    }
    if (want_spectrum && !ms->eigG[t]) {
        double *w = gs_malloc((size_t)D, sizeof(double), "spectrum");
        if (!w) return GS_ENOMEM;
        if ((rc = rs_dual_eigvals(k, N, w))) { free(w); return rc; }
        ms->eigG[t] = w;
        ms->lmax[t] = w[0]; ms->lmaxe[t] = 0;
        ms->lmin[t] = w[D - 1]; ms->lmine[t] = 0;
    }
    return GS_OK;
}

/* G += Σ f·w_i h_i h_iᵀ (upper triangle; G in double or, single precision, float), Qᵀ rows
 * += f·w_i h_i (double), for n rows X (doubles, or floats when xf) with labels y and weights
 * w_i = w[i], or cw[y_i] (w NULL), or 1 (both NULL). Float rows go in as the emitter puts them:
 * fl32(√w_i·h) into G, w_i·h into Q. Part 0 or 1 (a fixed split, gr_rows_part) adds only
 * its part of G's columns, and part 1 leaves Q alone: two jobs share one update; -1: all. */
static int add_rows(gm_mat *G, gm_mat *Q, const void *X, int xf, const int *y, const double *w, const double *cw,
                    double f, long n, long D, int part)
{
    enum { NB = 256 };
    gm_mat buf;
    int rc = G->f ? gm_alloc_f(&buf, NB, D, "Gram of the dual's rows") : gm_alloc(&buf, NB, D, "Gram of the dual's rows");
    if (rc) return rc;
    for (long i0 = 0; i0 < n; i0 += NB) {
        long nb = n - i0 < NB ? n - i0 : NB;
        for (long i = 0; i < nb; i++) {
            double wi = f * (w ? w[i0 + i] : cw ? cw[y[i0 + i]] : 1.0), r = sqrt(wi), *q = gm_row(Q, y[i0 + i]);
            if (xf) {
                const float *h = (const float *)X + (size_t)(i0 + i) * D;
                if (part <= 0) for (long j = 0; j < D; j++) q[j] += wi * h[j];
                if (G->f) for (long j = 0; j < D; j++) gm_rowf(&buf, i)[j] = (float)(r * h[j]);
                else for (long j = 0; j < D; j++) gm_row(&buf, i)[j] = r * h[j];
                continue;
            }
            const double *h = (const double *)X + (size_t)(i0 + i) * D;
            if (part <= 0) cblas_daxpy((int)D, wi, h, 1, q, 1);
            if (G->f) for (long j = 0; j < D; j++) gm_rowf(&buf, i)[j] = (float)(r * h[j]);
            else for (long j = 0; j < D; j++) gm_row(&buf, i)[j] = r * h[j];
        }
        gr_rows_part(G, &buf, 0, nb, part);
    }
    gm_free(&buf);
    return GS_OK;
}

/* The rows of task k's augmented block as add_rows takes them. */
static const void *aug_rows_of(const mstate *ms, int k) { return block(ms, 2 * k + 1, &(long){0}, &(long){0}); }

/* G_t and Qᵀ_t (into ms->Qw) from the rows the dual holds, for a task solved in the dual (the
 * engine's copies for --save-state and the checks). */
int en_dual_gram(en_engine *e, mstate *ms, int t, gm_mat *G)
{
    const en_problem *p = ms->p;
    long D = p->D;
    gr_zero(G);
    gr_zero(&ms->Qw);
    for (int k = 0; k <= t; k++) {
        long r0 = p->task_row_start[k], nr = p->task_row_start[k + 1] - r0;
        int rc = add_rows(G, &ms->Qw, real_rows(ms, r0), p->single, p->y + r0, NULL, ms->cw, 1.0, nr, D, -1);
        if (!rc && task_aug(ms, k))
            rc = add_rows(G, &ms->Qw, aug_rows_of(ms, k), p->single, ms->dual->ab[k].y, ms->dual->ab[k].w, NULL,
                          ms->weight, task_aug(ms, k), D, -1);
        if (rc) return rc;
    }
    gr_symmetrize(G);
    return GS_OK;
}

/* The switch to the primal at task t (the PAIRS jobs, part 0 or 1 of the columns each): the
 * cumulative E (and own base OB, with class weights) from the rows the dual kept, zeroed by
 * en_dual_rows_close. */
static int switch_part(en_engine *e, mstate *ms, int t, int part)
{
    const en_problem *p = ms->p;
    long D = p->D;
    int s = en_slot(e, t), rc = GS_OK;
    for (int k = 0; k <= t && !rc; k++) {
        long r0 = p->task_row_start[k], nr = p->task_row_start[k + 1] - r0;
        if (ms->OB)
            rc = add_rows(&ms->OB[s], &ms->OQB[s], real_rows(ms, r0), p->single, p->y + r0, NULL, ms->cw, 1.0, nr, D,
                          part);
        if (!rc && ms->E && task_aug(ms, k))
            rc = add_rows(&ms->E[s], &ms->QE[s], aug_rows_of(ms, k), p->single, ms->dual->ab[k].y, ms->dual->ab[k].w,
                          NULL, 1.0, task_aug(ms, k), D, part);
    }
    return rc;
}

/* After task t's rows: a method whose rows were kept for the dual but whose task t is solved in
 * the primal has its cumulative E (and OB) from them (the PAIRS jobs, switch_part): the lower
 * triangles now. GS_OK. */
int en_dual_task_end(en_engine *e, mstate *ms, int t, int kept)
{
    if (!kept || en_dual_mode(e, ms, t)) return GS_OK;
    int s = en_slot(e, t);
    if (ms->E) gr_symmetrize(&ms->E[s]);
    if (ms->OB) gr_symmetrize(&ms->OB[s]);
    en_dual *d = ms->dual;
    d->ptask[t & 1] = d->switch_task = -1;
    /* a batch run frees the dual at task t's solve (en_solve_seen), not here: task t-1's solve may
     * still be reading it */
    return GS_OK;
}

/* The shared base Gram of space sp is needed at task t: every task is kept (interactive), or a
 * method sharing it solves task t in the primal, or (single precision) its real rows reach D by
 * the last task, so a later task will need it: then it is accumulated from task 0 on, task by task
 * while the dual solves (on the worker the dual leaves idle), rather than in one product over all
 * the rows at the switch to the primal. A function of row counts only. (In double the base is
 * built at the switch, as before: the same numbers bit for bit.) */
int en_base_fixed(const en_engine *e, const en_space *sp)
{
    return e->keep || (sp->pm.single && sp->pm.task_row_start[sp->pm.T] >= sp->pm.D);
}

int en_base_needed(const en_engine *e, const en_space *sp, int t)
{
    if (t < 0 || en_base_fixed(e, sp)) return 1;
    for (int m = 0; m < e->nm; m++) {
        const mstate *ms = &e->ms[m];
        if (&e->sp[ms->space] == sp && en_shares_base(ms) && !en_dual_mode(e, ms, t)) return 1;
    }
    return 0;
}

/* ---- every τ from one eigendecomposition of the kernel (the τ sweep in the dual) --------------- */

/* out (nx × N, row-major) = X Hᵀ S for the N rows of tasks 0..t (X nx × D, doubles or floats when
 * xf; the rows in double a block at a time). */
static int rows_times_h(const mstate *ms, int t, long N, const void *X, int xf, long nx, double *out)
{
    enum { NB = 256 };
    long D = ms->p->D;
    int hf = ms->p->single;
    double *xb = gs_malloc((size_t)NB * (size_t)D, sizeof(double), "τ sweep"),
           *hb = gs_malloc((size_t)NB * (size_t)D, sizeof(double), "τ sweep");
    if (!xb || !hb) { free(xb); free(hb); return GS_ENOMEM; }
    for (int b = 0; b <= 2 * t + 1; b++) {
        long n, at;
        const void *H = block(ms, b, &n, &at);
        for (long j0 = 0; j0 < n; j0 += NB) {
            long nj = n - j0 < NB ? n - j0 : NB;
            const double *h = (const double *)H + (size_t)j0 * D;
            if (hf) {
                for (size_t i = 0; i < (size_t)nj * (size_t)D; i++) hb[i] = ((const float *)H)[(size_t)j0 * D + i];
                h = hb;
            }
            for (long i0 = 0; i0 < nx; i0 += NB) {
                long ni = nx - i0 < NB ? nx - i0 : NB;
                const double *x = (const double *)X + (size_t)i0 * D;
                if (xf) {
                    for (size_t i = 0; i < (size_t)ni * (size_t)D; i++) xb[i] = ((const float *)X)[(size_t)i0 * D + i];
                    x = xb;
                }
                cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)ni, (int)nj, (int)D, 1.0, x, (int)D, h,
                            (int)D, 0.0, out + (size_t)i0 * N + at + j0, (int)N);
            }
        }
    }
    free(xb);
    free(hb);
    const double *s = ms->dual->k.s;
    for (long i = 0; i < nx; i++)
        for (long j = 0; j < N; j++) out[(size_t)i * N + j] *= s[j];
    return GS_OK;
}

int en_dual_eig(en_engine *e, int m, int task, const en_rowsrc *sets, int nsets, long *N, double **mu, gm_mat *P,
                gm_mat *XV)
{
    *N = 0;
    *mu = NULL;
    memset(P, 0, sizeof *P);
    for (int k = 0; k < nsets; k++) memset(&XV[k], 0, sizeof XV[k]);
    if (m < 0 || m >= e->nm || task < 1 || task > e->p->T) return GS_EINPUT;
    mstate *ms = &e->ms[m];
    int t = task - 1;
    if (!en_is_ridge(ms) || !ms->dual || !en_dual_mode(e, ms, t) || !e->have_cur || e->base_valid <= t ||
        (!e->keep && t != e->p->T - 1))
        return GS_EINPUT;
    int rc = kernel_through(e, ms, t);
    if (rc) return rc;
    const en_problem *p = ms->p;
    const rs_dual *k = &ms->dual->k;
    long n = task_pos(ms, t + 1);
    int Cs = p->st->task_class_start[t + 1];
    gm_mat A = {0}, V = {0};
    double *w = gs_malloc((size_t)(n ? n : 1), sizeof(double), "τ sweep"), *xs = NULL;
    int *col = row_cols(ms, t, n);
    if (!w || !col || (rc = gm_alloc(&A, n ? n : 1, n ? n : 1, "τ sweep"))) { rc = rc ? rc : GS_ENOMEM; goto done; }
    /* S K S, both triangles, from the kernel's upper triangle (column-major, leading dimension cap) */
    for (long j = 0; j < n; j++)
        for (long i = 0; i <= j; i++) {
            size_t at = (size_t)j * (size_t)k->cap + (size_t)i;
            double v = k->s[i] * k->s[j] * (k->single ? (double)k->Kf[at] : k->K[at]);
            A.v[(size_t)i * n + j] = A.v[(size_t)j * n + i] = v;
        }
    if (n && (rc = sp_eig(&A, w, &V))) goto done;
    /* P = Vᵀ S Y: row r, column col[i] gathers V[i][r]·s_i */
    if ((rc = gm_alloc(P, n ? n : 1, Cs ? Cs : 1, "τ sweep"))) goto done;
    memset(P->v, 0, (size_t)P->rows * (size_t)P->cols * sizeof(double));
    for (long i = 0; i < n; i++)
        if (col[i] >= 0)
            for (long r = 0; r < n; r++) P->v[(size_t)r * P->cols + col[i]] += V.v[(size_t)i * n + r] * k->s[i];
    for (int q = 0; q < nsets && !rc; q++) {
        long nx = sets[q].n;
        free(xs);
        xs = gs_malloc((size_t)(nx ? nx : 1) * (size_t)(n ? n : 1), sizeof(double), "τ sweep");
        if (!xs) { rc = GS_ENOMEM; break; }
        if ((rc = gm_alloc(&XV[q], nx ? nx : 1, n ? n : 1, "τ sweep"))) break;
        if (nx && n) {
            if ((rc = rows_times_h(ms, t, n, sets[q].x, sets[q].xf, nx, xs))) break;
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)nx, (int)n, (int)n, 1.0, xs, (int)n, V.v, (int)n,
                        0.0, XV[q].v, (int)n);
        }
    }
done:
    free(xs);
    free(col);
    gm_free(&A);
    gm_free(&V);
    if (rc) {
        free(w);
        gm_free(P);
        for (int q = 0; q < nsets; q++) gm_free(&XV[q]);
        return rc;
    }
    *N = n;
    *mu = w;
    return GS_OK;
}
