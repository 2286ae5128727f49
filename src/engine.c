/* engine.c — replay, caches and per-task snapshots (see gs_engine.h, gs_methods.h).
 *
 * Storage conventions: G-type matrices are D×D, full symmetric (both triangles kept in sync
 * after each task). Q-type matrices are stored transposed, C×D row-major (row c = column c of
 * Q), so the rows of a class are contiguous and, seen column-major, the block is the D×C right
 * hand side LAPACK wants: no transposed copies on the hot path.
 *
 * Caches (interactive mode, keep_task_grams): B_t (real rows), E_t per augmenting method, the
 * τ-independent statistics of G_t (‖G‖_F², tr G, Lanczos extremes, exact eigenvalues when
 * computed). A τ change re-solves from these; an α_base/ξ change rebuilds only E of the methods
 * that depend on them; a β change only recombines G = B + βE.
 */
#include "gs_engine.h"
#include "gs_common.h"
#include "gs_methods.h"
#include "gs_spectral.h"

#include <cblas.h>
#include <lapacke.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LANCZOS_MAXIT 120
#define LANCZOS_TOL 1e-10

typedef struct mstate mstate;
struct en_emitter {
    en_engine *e;
    mstate *ms;
    gm_mat buf;
    int *lab;
    double *w;
    long n, cap;
    gm_mat *E, *QE;
    long rows, skip_cls, skip_pairs;
    /* en_emit_mix: Y over the task's rows ylo..yhi-1 (allocated on the first pair) */
    double *Y;               /* = ms->ybuf while a task's pairs are generated, else NULL */
    long ylo, yhi, ny;
    /* en_emit_x with --expand: feature-space rows staged, expanded a block at a time */
    gm_mat xbuf, hbuf;       /* XCAP × d, XCAP × D (allocated on the first row) */
    int *xlab;
    double *xw;
    long xn;
};

#define XCAP 128

struct mstate {
    const en_mdef *def;
    en_mctx ctx;
    gm_mat *E, *QE;          /* nslots each (ridge kinds) */
    long *aug_rows, *skip_cls, *skip_pairs; /* cumulative per task */
    int extra_valid;         /* tasks 0..extra_valid-1 of E are up to date */
    int fit_valid;           /* custom: tasks fitted */
    op_params xparams;       /* params E / fit were computed with */
    double weight;           /* w used for the cached statistics */
    int *stats_valid;        /* T */
    int *lmin_ref;           /* T: lmin[t] comes from the Cholesky factor (converged) */
    double *fro2, *tr, *lmax, *lmaxe, *lmin, *lmine; /* T, statistics of G_t */
    double **eigG;           /* T, exact eigenvalues of G_t (descending, no τ), or NULL */
    en_snap *stage;          /* T snapshots the jobs of an update write; a task's REPORT swaps
                              * them into the results (so views never see one half written) */
    int dirty;               /* needs snapshots recomputed in this update */
    gm_mat collect;          /* augmented rows (collect_aug) */
    int *collect_y;
    long ncollect, capcollect;
    /* work of this method (methods run in parallel within a task): A holds G_t, then the
     * Cholesky factor of G_t + τI; Qw = Qᵀ_t (C × D); Wt = W rows of the seen classes */
    gm_mat A, Qw, Wt;
    int *pred;
    int *vpred;              /* predictions on the validation rows */
    en_emitter em;           /* synthetic rows of the task being generated (extra_rows..extra_end) */
    double *ybuf;            /* en_emit_mix's Y, sized for the largest task and kept from task to
                              * task of an update (one allocation: no page faults per task) */
    size_t ybytes;
    int solve_failed;        /* this task's solve failed: reason in why */
    char why[160];
};



struct en_engine {
    const en_problem *p;
    en_config cfg;
    const char *names[OP_MAX_METHODS];
    int nm, nslots, keep;
    mstate *ms;
    gm_mat *B, *QB;
    int base_valid;
    gm_mat G, Qext;          /* en_gram's copies (allocated on first use) */
    int workers;             /* threads per task: 1 sequential, 2 parallel methods */
    en_results res;
    op_params cur;
    int have_cur;
    int focus_task;          /* 0-based task of the current en_update's first_task */
};

static int slot(const en_engine *e, int t) { return e->keep ? t : 0; }

/* Workers per task: cfg->threads, else GS_THREADS from the environment, else 2 on ≥ 2 cores. */
static int engine_workers(const en_config *cfg)
{
    int n = cfg->threads;
    const char *env = getenv("GS_THREADS");
    if (n <= 0 && env && *env) n = atoi(env);
    if (n <= 0) n = sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
    return n > 1 ? 2 : 1;
}

/* ---- emitter ------------------------------------------------------------------------ */

/* Lower triangle := upper triangle, in 64×64 tiles (the column walk of a plain loop misses the
 * cache at every element for D in the hundreds). */
static void symmetrize(gm_mat *M)
{
    long n = M->rows;
    double *v = M->v;
    enum { TB = 64 };
    for (long i0 = 0; i0 < n; i0 += TB)
        for (long j0 = i0; j0 < n; j0 += TB) {
            long i1 = i0 + TB < n ? i0 + TB : n, j1 = j0 + TB < n ? j0 + TB : n;
            for (long i = i0; i < i1; i++)
                for (long j = j0 > i + 1 ? j0 : i + 1; j < j1; j++) v[j * n + i] = v[i * n + j];
        }
}

static int emit_flush(en_emitter *em)
{
    long D = em->e->p->D;
    if (em->n == 0) return GS_OK;
    for (long k = 0; k < em->n; k++) {
        double *h = gm_row(&em->buf, k);
        double *q = gm_row(em->QE, em->lab[k]);
        cblas_daxpy((int)D, em->w[k], h, 1, q, 1);
        if (em->w[k] != 1.0) cblas_dscal((int)D, sqrt(em->w[k]), h, 1);
    }
    /* row-major upper triangle of E += bufᵀ buf */
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)em->n, 1.0, em->buf.v, (int)D,
                1.0, em->E->v, (int)D);
    em->n = 0;
    return GS_OK;
}

static int collect_row(mstate *ms, const double *h, long D, int c)
{
    if (ms->ncollect == ms->capcollect) {
        long cap = ms->capcollect ? 2 * ms->capcollect : 1024;
        double *v = realloc(ms->collect.v, (size_t)cap * (size_t)D * sizeof(double));
        int *y = realloc(ms->collect_y, (size_t)cap * sizeof(int));
        if (v) ms->collect.v = v;
        if (y) ms->collect_y = y;
        if (!v || !y) return gs_error(GS_ENOMEM, "augmented rows: out of memory");
        ms->capcollect = cap;
        ms->collect.cols = D;
    }
    memcpy(ms->collect.v + (size_t)ms->ncollect * D, h, (size_t)D * sizeof(double));
    ms->collect_y[ms->ncollect++] = c;
    ms->collect.rows = ms->ncollect;
    return GS_OK;
}

int en_emit(en_emitter *em, const double *h, int c, double omega)
{
    long D = em->e->p->D;
    if (!(omega >= 0) || !isfinite(omega)) return gs_error(GS_ERUN, "%s: invalid row weight", em->ms->def->name);
    for (long j = 0; j < D; j++)
        if (!isfinite(h[j])) return gs_error(GS_ERUN, "%s: a synthetic row is not finite", em->ms->def->name);
    if (em->n == em->cap && emit_flush(em)) return GS_ERUN;
    memcpy(gm_row(&em->buf, em->n), h, (size_t)D * sizeof(double));
    em->lab[em->n] = c;
    em->w[em->n] = omega;
    em->n++;
    em->rows++;
    if (em->e->cfg.collect_aug) return collect_row(em->ms, h, D, c);
    return GS_OK;
}

/* The staged feature-space rows: one product R·X per block (en_expand_rows), then en_emit. */
static int emit_x_flush(en_emitter *em)
{
    if (em->xn == 0) return GS_OK;
    const en_problem *p = em->e->p;
    en_expand_rows(p, em->xbuf.v, em->xn, em->hbuf.v);
    long n = em->xn;
    em->xn = 0;
    for (long k = 0; k < n; k++)
        if (en_emit(em, gm_row(&em->hbuf, k), em->xlab[k], em->xw[k])) return GS_ERUN;
    return GS_OK;
}

static void emit_x_free(en_emitter *em)
{
    gm_free(&em->xbuf); gm_free(&em->hbuf);
    free(em->xlab); free(em->xw);
    em->xlab = NULL; em->xw = NULL;
    em->xn = 0;
}

int en_emit_x(en_emitter *em, const double *x, int c, double omega)
{
    const en_problem *p = em->e->p;
    if (p->D == p->d && !p->R.v) return en_emit(em, x, c, omega);
    if (!em->xbuf.v) {
        int rc = gm_alloc(&em->xbuf, XCAP, p->d, "synthetic rows");
        if (!rc) rc = gm_alloc(&em->hbuf, XCAP, p->D, "synthetic rows");
        em->xlab = gs_malloc(XCAP, sizeof(int), "synthetic rows");
        em->xw = gs_malloc(XCAP, sizeof(double), "synthetic rows");
        if (rc || !em->xlab || !em->xw) { emit_x_free(em); return GS_ENOMEM; }
    }
    if (em->xn == XCAP && emit_x_flush(em)) return GS_ERUN;
    memcpy(gm_row(&em->xbuf, em->xn), x, (size_t)p->d * sizeof(double));
    em->xlab[em->xn] = c;
    em->xw[em->xn] = omega;
    em->xn++;
    return GS_OK;
}

int en_emit_mix_ok(const en_emitter *em)
{
    const en_problem *p = em->e->p;
    return p->D == p->d && !p->R.v && p->h.v == p->z.v;
}

/* Pairs accumulate into Y (rows lo..hi-1 of p->z, the current task's rows): Y_i += ω a h,
 * Y_j += ω b h, so that Zᵀ Y = Σ ω (a z_i + b z_j) hᵀ = Σ ω h hᵀ; pair_flush forms E += Zᵀ Y.
 * A pair outside the task's rows goes the row way (en_emit). */
int en_emit_mix(en_emitter *em, long i, long j, double a, double b, int c, double omega, const double *h)
{
    const en_problem *p = em->e->p;
    long D = p->D;
    if (!en_emit_mix_ok(em)) return gs_error(GS_ERUN, "%s: row pairs need the unexpanded feature space", em->ms->def->name);
    if (!h) return gs_error(GS_ERUN, "%s: en_emit_mix needs the mixed row", em->ms->def->name);
    if (!(omega >= 0) || !isfinite(omega) || !isfinite(a) || !isfinite(b))
        return gs_error(GS_ERUN, "%s: invalid mixing weights", em->ms->def->name);
    if (c < 0 || c >= p->C) return gs_error(GS_ERUN, "%s: label %d out of range", em->ms->def->name, c);
    if (i < em->ylo || j < em->ylo || i >= em->yhi || j >= em->yhi) return en_emit(em, h, c, omega);
    if (!isfinite(cblas_ddot((int)D, h, 1, h, 1))) /* Σh² finite ⇔ no NaN/∞ (short of overflow) */
        for (long k = 0; k < D; k++)
            if (!isfinite(h[k])) return gs_error(GS_ERUN, "%s: a synthetic row is not finite", em->ms->def->name);
    if (!em->Y) {
        mstate *ms = em->ms;
        size_t need = (size_t)(em->yhi - em->ylo) * (size_t)D * sizeof(double);
        if (ms->ybytes < need) {
            long maxrows = 0; /* the largest task: one allocation for the whole update */
            for (int t = 0; t < p->T; t++)
                if (p->task_row_start[t + 1] - p->task_row_start[t] > maxrows)
                    maxrows = p->task_row_start[t + 1] - p->task_row_start[t];
            size_t bytes = (size_t)maxrows * (size_t)D * sizeof(double);
            if (bytes < need) bytes = need;
            free(ms->ybuf);
            ms->ybytes = 0;
            ms->ybuf = gs_malloc(bytes, 1, "synthetic rows");
            if (!ms->ybuf) return GS_ENOMEM;
            gs_advise_huge(ms->ybuf, bytes);
            ms->ybytes = bytes;
        }
        memset(ms->ybuf, 0, need);
        em->Y = ms->ybuf;
    }
    cblas_daxpy((int)D, omega * a, h, 1, em->Y + (size_t)(i - em->ylo) * D, 1);
    cblas_daxpy((int)D, omega * b, h, 1, em->Y + (size_t)(j - em->ylo) * D, 1);
    cblas_daxpy((int)D, omega, h, 1, gm_row(em->QE, c), 1);
    em->ny++;
    em->rows++;
    if (em->e->cfg.collect_aug) return collect_row(em->ms, h, D, c);
    return GS_OK;
}

/* Upper triangle (row-major; with the diagonal blocks) of E += Z[lo:hi]ᵀ Y by column blocks:
 * ≈ 1.17× the flops of a rank-(hi-lo) syrk, instead of a syrk over every synthetic row (GSR:
 * about twice as many as real rows). Deterministic: fixed pair order and blocking. */
#define MIX_NB 128
/* Column blocks of part `part` (0 or 1; -1 = all): the first part ends where the blocks' cost
 * (∝ (j0 + nb)·nb, the rows above and on the diagonal) reaches half, so two workers share the
 * product. The blocks, hence the numbers, are the same whatever the split. */
static void pair_blocks(long D, int part, long *lo, long *hi)
{
    *lo = 0; *hi = D;
    if (part < 0) return;
    double total = 0, acc = 0;
    for (long j0 = 0; j0 < D; j0 += MIX_NB) total += (double)(j0 + (D - j0 < MIX_NB ? D - j0 : MIX_NB));
    long cut = D;
    double best = INFINITY; /* the block boundary nearest to half the cost */
    for (long j0 = 0; j0 < D; j0 += MIX_NB) {
        acc += (double)(j0 + (D - j0 < MIX_NB ? D - j0 : MIX_NB));
        double off = fabs(2 * acc - total);
        if (off < best) { best = off; cut = j0 + MIX_NB < D ? j0 + MIX_NB : D; }
    }
    if (part == 0) *hi = cut; else *lo = cut;
}

static void pair_flush_part(en_emitter *em, int part)
{
    const en_problem *p = em->e->p;
    long D = p->D, nr = em->yhi - em->ylo, lo, hi;
    if (!em->Y || em->ny == 0) return;
    const double *Z = gm_row(&p->z, em->ylo);
    pair_blocks(D, part, &lo, &hi);
    for (long j0 = lo; j0 < hi; j0 += MIX_NB) {
        long nb = D - j0 < MIX_NB ? D - j0 : MIX_NB;
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)(j0 + nb), (int)nb, (int)nr, 1.0, Z, (int)D,
                    em->Y + j0, (int)D, 1.0, em->E->v + j0, (int)D);
    }
}

void en_emit_skip(en_emitter *em, long classes, long pairs)
{
    em->skip_cls += classes;
    em->skip_pairs += pairs;
}

/* ---- creation ---------------------------------------------------------------------- */

static void snap_free(en_snap *s) { free(s->eig); free(s->class_acc); s->eig = s->class_acc = NULL; }

void en_results_free(en_results *r)
{
    for (int m = 0; r->m && m < r->n_methods; m++) {
        if (r->m[m].snaps)
            for (int t = 0; t < r->T; t++) snap_free(&r->m[m].snaps[t]);
        free(r->m[m].snaps);
    }
    free(r->m); free(r->is_head); free(r->class_task); free(r->class_kept);
    memset(r, 0, sizeof *r);
}

int en_results_copy(en_results *dst, const en_results *src)
{
    memset(dst, 0, sizeof *dst);
    *dst = *src;
    dst->m = NULL; dst->is_head = NULL; dst->class_task = NULL; dst->class_kept = NULL;
    dst->n_methods = 0;
    int C = src->C, T = src->T;
    dst->m = gs_calloc((size_t)src->n_methods, sizeof *dst->m, "results");
    dst->is_head = gs_malloc((size_t)C, 1, "results");
    dst->class_task = gs_malloc((size_t)C, sizeof(int), "results");
    dst->class_kept = gs_malloc((size_t)C, sizeof(long), "results");
    if (!dst->m || !dst->is_head || !dst->class_task || !dst->class_kept) goto fail;
    memcpy(dst->is_head, src->is_head, (size_t)C);
    memcpy(dst->class_task, src->class_task, (size_t)C * sizeof(int));
    memcpy(dst->class_kept, src->class_kept, (size_t)C * sizeof(long));
    dst->n_methods = src->n_methods;
    for (int m = 0; m < src->n_methods; m++) {
        dst->m[m] = src->m[m];
        dst->m[m].snaps = gs_calloc((size_t)T, sizeof(en_snap), "results");
        if (!dst->m[m].snaps) goto fail;
        for (int t = 0; t < T; t++) {
            const en_snap *a = &src->m[m].snaps[t];
            en_snap *b = &dst->m[m].snaps[t];
            *b = *a;
            b->eig = b->class_acc = NULL;
            if (a->eig) {
                if (!(b->eig = gs_malloc((size_t)src->D, sizeof(double), "results"))) goto fail;
                memcpy(b->eig, a->eig, (size_t)src->D * sizeof(double));
            }
            if (a->class_acc) {
                if (!(b->class_acc = gs_malloc((size_t)C, sizeof(double), "results"))) goto fail;
                memcpy(b->class_acc, a->class_acc, (size_t)C * sizeof(double));
            }
        }
    }
    return GS_OK;
fail:
    en_results_free(dst);
    return GS_ENOMEM;
}

static void mstate_free(mstate *ms, int nslots, int T)
{
    if (ms->ctx.priv && ms->def->destroy) ms->def->destroy(&ms->ctx);
    for (int s = 0; s < nslots; s++) {
        if (ms->E) gm_free(&ms->E[s]);
        if (ms->QE) gm_free(&ms->QE[s]);
    }
    free(ms->E); free(ms->QE);
    free(ms->aug_rows); free(ms->skip_cls); free(ms->skip_pairs); free(ms->stats_valid); free(ms->lmin_ref);
    free(ms->fro2); free(ms->tr); free(ms->lmax); free(ms->lmaxe); free(ms->lmin); free(ms->lmine);
    if (ms->eigG) for (int t = 0; t < T; t++) free(ms->eigG[t]);
    free(ms->eigG);
    if (ms->stage) for (int t = 0; t < T; t++) snap_free(&ms->stage[t]);
    free(ms->stage);
    free(ms->collect.v); free(ms->collect_y);
    gm_free(&ms->A); gm_free(&ms->Qw); gm_free(&ms->Wt);
    free(ms->pred); free(ms->vpred);
    free(ms->ybuf);
}

void en_destroy(en_engine *e)
{
    if (!e) return;
    int T = e->p->T;
    if (e->ms) for (int m = 0; m < e->nm; m++) mstate_free(&e->ms[m], e->nslots, T);
    free(e->ms);
    for (int s = 0; s < e->nslots; s++) {
        if (e->B) gm_free(&e->B[s]);
        if (e->QB) gm_free(&e->QB[s]);
    }
    free(e->B); free(e->QB);
    gm_free(&e->G); gm_free(&e->Qext);
    en_results_free(&e->res);
    free(e);
}

int en_create(en_engine **out, const en_problem *p, const en_config *cfg)
{
    *out = NULL;
    if (cfg->n_methods < 1 || cfg->n_methods > OP_MAX_METHODS)
        return gs_error(GS_EINPUT, "--methods: give between 1 and %d methods", OP_MAX_METHODS);
    for (int m = 0; m < cfg->n_methods; m++)
        if (!en_method_find(cfg->methods[m]))
            return gs_error(GS_EINPUT, "--methods: unknown method '%s' (known: %s)", cfg->methods[m], en_method_list());
    en_engine *e = gs_calloc(1, sizeof *e, "engine");
    if (!e) return GS_ENOMEM;
    e->p = p;
    e->cfg = *cfg;
    e->nm = cfg->n_methods;
    for (int m = 0; m < e->nm; m++) e->names[m] = cfg->methods[m];
    e->cfg.methods = e->names;
    e->keep = cfg->keep_task_grams;
    int T = p->T, C = p->C;
    long D = p->D;
    e->nslots = e->keep ? T : 1;
    int rc = GS_ENOMEM;
    e->ms = gs_calloc((size_t)e->nm, sizeof(mstate), "engine");
    e->B = gs_calloc((size_t)e->nslots, sizeof(gm_mat), "engine");
    e->QB = gs_calloc((size_t)e->nslots, sizeof(gm_mat), "engine");
    if (!e->ms || !e->B || !e->QB) goto fail;
    for (int s = 0; s < e->nslots; s++)
        if ((rc = gm_alloc(&e->B[s], D, D, "Gram matrices")) || (rc = gm_alloc(&e->QB[s], C, D, "Gram matrices")))
            goto fail;
        else
            gs_advise_huge(e->B[s].v, (size_t)D * (size_t)D * sizeof(double));
    rc = GS_ENOMEM;
    long nt = p->test_task_end[T - 1];
    e->workers = engine_workers(cfg);
    for (int m = 0; m < e->nm; m++) {
        mstate *ms = &e->ms[m];
        ms->def = en_method_find(cfg->methods[m]);
        ms->ctx.p = p;
        ms->aug_rows = gs_calloc((size_t)T, sizeof(long), "engine");
        ms->skip_cls = gs_calloc((size_t)T, sizeof(long), "engine");
        ms->skip_pairs = gs_calloc((size_t)T, sizeof(long), "engine");
        ms->stats_valid = gs_calloc((size_t)T, sizeof(int), "engine");
        ms->lmin_ref = gs_calloc((size_t)T, sizeof(int), "engine");
        ms->fro2 = gs_calloc((size_t)T, sizeof(double), "engine");
        ms->tr = gs_calloc((size_t)T, sizeof(double), "engine");
        ms->lmax = gs_calloc((size_t)T, sizeof(double), "engine");
        ms->lmaxe = gs_calloc((size_t)T, sizeof(double), "engine");
        ms->lmin = gs_calloc((size_t)T, sizeof(double), "engine");
        ms->lmine = gs_calloc((size_t)T, sizeof(double), "engine");
        ms->eigG = gs_calloc((size_t)T, sizeof(double *), "engine");
        ms->pred = gs_malloc((size_t)(nt ? nt : 1), sizeof(int), "predictions");
        ms->vpred = gs_malloc((size_t)(p->val_h.rows ? p->val_h.rows : 1), sizeof(int), "predictions");
        if (!ms->aug_rows || !ms->skip_cls || !ms->skip_pairs || !ms->stats_valid || !ms->lmin_ref || !ms->fro2 ||
            !ms->tr || !ms->lmax || !ms->lmaxe || !ms->lmin || !ms->lmine || !ms->eigG || !ms->pred || !ms->vpred)
            goto fail;
        if (ms->def->kind != 2) {
            if ((rc = gm_alloc(&ms->A, D, D, "work matrix")) || (rc = gm_alloc(&ms->Qw, C, D, "work matrix")) ||
                (rc = gm_alloc(&ms->Wt, C, D, "work matrix")))
                goto fail;
            gs_advise_huge(ms->A.v, (size_t)D * (size_t)D * sizeof(double));
            rc = GS_ENOMEM;
        }
        if (ms->def->kind != 2 && ms->def->extra) {
            ms->E = gs_calloc((size_t)e->nslots, sizeof(gm_mat), "engine");
            ms->QE = gs_calloc((size_t)e->nslots, sizeof(gm_mat), "engine");
            if (!ms->E || !ms->QE) goto fail;
            for (int s = 0; s < e->nslots; s++)
                if ((rc = gm_alloc(&ms->E[s], D, D, "Gram matrices")) || (rc = gm_alloc(&ms->QE[s], C, D, "Gram matrices")))
                    goto fail;
                else
                    gs_advise_huge(ms->E[s].v, (size_t)D * (size_t)D * sizeof(double));
            rc = GS_ENOMEM;
        }
    }
    /* results skeleton */
    en_results *r = &e->res;
    r->T = T; r->C = C; r->D = D; r->n_methods = e->nm;
    r->m = gs_calloc((size_t)e->nm, sizeof *r->m, "results");
    r->is_head = gs_malloc((size_t)C, 1, "results");
    r->class_task = gs_malloc((size_t)C, sizeof(int), "results");
    r->class_kept = gs_malloc((size_t)C, sizeof(long), "results");
    if (!r->m || !r->is_head || !r->class_task || !r->class_kept) goto fail;
    memcpy(r->is_head, p->st->is_head, (size_t)C);
    memcpy(r->class_task, p->st->class_task, (size_t)C * sizeof(int));
    memcpy(r->class_kept, p->st->class_kept, (size_t)C * sizeof(long));
    for (int m = 0; m < e->nm; m++) {
        snprintf(r->m[m].name, sizeof r->m[m].name, "%s", e->ms[m].def->name);
        r->m[m].ridge = e->ms[m].def->kind != 2;
        r->m[m].a_last = r->m[m].a_avg = r->m[m].val_a_last = r->m[m].val_a_avg = NAN;
        r->m[m].snaps = gs_calloc((size_t)T, sizeof(en_snap), "results");
        e->ms[m].stage = gs_calloc((size_t)T, sizeof(en_snap), "results");
        if (!r->m[m].snaps || !e->ms[m].stage) goto fail;
        for (int t = 0; t < 2 * T; t++) {
            en_snap *s = t < T ? &r->m[m].snaps[t] : &e->ms[m].stage[t - T];
            s->task = t % T + 1;
            s->val_acc = s->val_head_acc = s->val_tail_acc = NAN;
            s->class_acc = gs_malloc((size_t)C, sizeof(double), "results");
            if (!s->class_acc) goto fail;
            for (int c = 0; c < C; c++) s->class_acc[c] = NAN;
        }
    }
    *out = e;
    return GS_OK;
fail:
    if (!gs_last_error()[0]) gs_error(GS_ENOMEM, "engine: out of memory");
    en_destroy(e);
    return rc ? rc : GS_ENOMEM;
}

const en_results *en_get_results(const en_engine *e) { return &e->res; }

/* ---- accumulation -------------------------------------------------------------------- */

static void copy_mat(gm_mat *dst, const gm_mat *src)
{
    memcpy(dst->v, src->v, (size_t)src->rows * (size_t)src->cols * sizeof(double));
}

static void zero_mat(gm_mat *m) { memset(m->v, 0, (size_t)m->rows * (size_t)m->cols * sizeof(double)); }

/* B_t = B_{t-1} + H_tᵀ H_t, QB likewise. */
static void base_task(en_engine *e, int t)
{
    const en_problem *p = e->p;
    long D = p->D;
    gm_mat *B = &e->B[slot(e, t)], *QB = &e->QB[slot(e, t)];
    if (t == 0) { zero_mat(B); zero_mat(QB); }
    else if (e->keep) { copy_mat(B, &e->B[t - 1]); copy_mat(QB, &e->QB[t - 1]); }
    long a = p->task_row_start[t], b = p->task_row_start[t + 1];
    if (b > a)
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)(b - a), 1.0, gm_row(&p->h, a),
                    (int)D, 1.0, B->v, (int)D);
    symmetrize(B);
    for (long i = a; i < b; i++) cblas_daxpy((int)D, 1.0, gm_row(&p->h, i), 1, gm_row(QB, p->y[i]), 1);
}

/* A method's synthetic rows of task t in three steps (jobs): extra_rows runs the generator (row
 * pairs into the emitter's Y), extra_pairs(part) forms E += Zᵀ Y for half of the column blocks,
 * extra_end symmetrizes E and counts. The emitter lives in ms->em in between. */
static int extra_rows(en_engine *e, mstate *ms, int t)
{
    const en_problem *p = e->p;
    int s = slot(e, t);
    gm_mat *E = &ms->E[s], *QE = &ms->QE[s];
    if (t == 0) { zero_mat(E); zero_mat(QE); }
    else if (e->keep) { copy_mat(E, &ms->E[t - 1]); copy_mat(QE, &ms->QE[t - 1]); }
    if (t == 0) { ms->ncollect = 0; ms->collect.rows = 0; }
    en_emitter *em = &ms->em;
    memset(em, 0, sizeof *em);
    em->e = e; em->ms = ms; em->E = E; em->QE = QE;
    em->cap = 512;
    em->ylo = p->task_row_start[t];
    em->yhi = p->task_row_start[t + 1];
    int rc = gm_alloc(&em->buf, em->cap, p->D, "synthetic rows");
    em->lab = gs_malloc((size_t)em->cap, sizeof(int), "synthetic rows");
    em->w = gs_malloc((size_t)em->cap, sizeof(double), "synthetic rows");
    if (rc || !em->lab || !em->w) rc = GS_ENOMEM;
    if (!rc) rc = ms->def->extra(&ms->ctx, t, em);
    if (!rc) rc = emit_x_flush(em);
    if (!rc) rc = emit_flush(em);
    gm_free(&em->buf); free(em->lab); free(em->w);
    em->lab = NULL; em->w = NULL;
    emit_x_free(em);
    return rc;
}

static void extra_end(en_engine *e, mstate *ms, int t)
{
    en_emitter *em = &ms->em;
    em->Y = NULL;
    if (t == e->p->T - 1) { /* the last task: give the memory back before its spectrum */
        free(ms->ybuf);
        ms->ybuf = NULL;
        ms->ybytes = 0;
    }
    symmetrize(em->E);
    ms->aug_rows[t] = (t ? ms->aug_rows[t - 1] : 0) + em->rows;
    ms->skip_cls[t] = (t ? ms->skip_cls[t - 1] : 0) + em->skip_cls;
    ms->skip_pairs[t] = (t ? ms->skip_pairs[t - 1] : 0) + em->skip_pairs;
}

static double method_weight(const mstate *ms, const op_params *q)
{
    return ms->def->extra_weight ? ms->def->extra_weight(q) : 1.0;
}

/* Assemble G_t (into G: the method's ms->A, or e->G for en_gram) and Qᵀ_t (into ms->Qw) for a
 * ridge method. */
static void assemble(en_engine *e, mstate *ms, int t, const op_params *q, gm_mat *G)
{
    int s = slot(e, t);
    size_t nG = (size_t)e->p->D * (size_t)e->p->D, nQ = (size_t)e->p->C * (size_t)e->p->D;
    double w = method_weight(ms, q);
    if (ms->def->kind == 1) {
        memcpy(G->v, ms->E[s].v, nG * sizeof(double));
        memcpy(ms->Qw.v, ms->QE[s].v, nQ * sizeof(double));
        return;
    }
    memcpy(G->v, e->B[s].v, nG * sizeof(double));
    memcpy(ms->Qw.v, e->QB[s].v, nQ * sizeof(double));
    if (ms->E && w != 0) {
        cblas_daxpy((int)nG, w, ms->E[s].v, 1, G->v, 1);
        cblas_daxpy((int)nQ, w, ms->QE[s].v, 1, ms->Qw.v, 1);
    }
}

/* ---- per-task evaluation -------------------------------------------------------------- */

int en_accuracy(const en_problem *p, int task, const int *pred, long n, double *acc, double *head_acc,
                double *tail_acc, double *class_acc)
{
    return en_accuracy_of(p, task, p->test_y, pred, n, acc, head_acc, tail_acc, class_acc);
}

int en_accuracy_of(const en_problem *p, int task, const int *y, const int *pred, long n, double *acc,
                   double *head_acc, double *tail_acc, double *class_acc)
{
    const st_stream *st = p->st;
    int C = p->C, t = task - 1;
    long *corr = gs_calloc((size_t)C, sizeof(long), "accuracy"), *tot = gs_calloc((size_t)C, sizeof(long), "accuracy");
    if (!corr || !tot) { free(corr); free(tot); return GS_ENOMEM; }
    long correct = 0;
    for (long i = 0; i < n; i++) {
        int c = y[i];
        tot[c]++;
        if (pred[i] == c) { corr[c]++; correct++; }
    }
    *acc = n ? 100.0 * (double)correct / (double)n : NAN;
    double hs = 0, ts = 0;
    int hn = 0, tn = 0;
    for (int c = 0; c < C; c++) {
        if (class_acc) class_acc[c] = NAN;
        if (st->class_task[c] < 0 || st->class_task[c] > t || tot[c] == 0) continue;
        double a = 100.0 * (double)corr[c] / (double)tot[c];
        if (class_acc) class_acc[c] = a;
        if (st->is_head[c]) { hs += a; hn++; } else { ts += a; tn++; }
    }
    *head_acc = hn ? hs / hn : NAN;
    *tail_acc = tn ? ts / tn : NAN;
    free(corr); free(tot);
    return GS_OK;
}

static void fill_accuracy(en_engine *e, en_snap *sn, const int *pred, long n)
{
    sn->test_rows = n;
    if (en_accuracy(e->p, sn->task, pred, n, &sn->acc, &sn->head_acc, &sn->tail_acc, sn->class_acc))
        sn->acc = sn->head_acc = sn->tail_acc = NAN;
}

/* Validation accuracy of task t from the predictions vpred of the seen validation rows. */
static void fill_val_accuracy(en_engine *e, en_snap *sn, const int *vpred, long nv)
{
    sn->val_rows = nv;
    sn->val_acc = sn->val_head_acc = sn->val_tail_acc = NAN;
    if (nv > 0 && en_accuracy_of(e->p, sn->task, e->p->val_y, vpred, nv, &sn->val_acc, &sn->val_head_acc,
                                 &sn->val_tail_acc, NULL))
        sn->val_acc = sn->val_head_acc = sn->val_tail_acc = NAN;
}

static void finish_method(en_method_result *mr, int T)
{
    double s = 0;
    for (int t = 0; t < T; t++) {
        if (mr->snaps[t].state != EN_DONE) { mr->a_last = mr->a_avg = mr->val_a_last = mr->val_a_avg = NAN; return; }
        s += mr->snaps[t].acc;
    }
    mr->a_last = mr->snaps[T - 1].acc;
    mr->a_avg = s / T;
    double v = 0;
    for (int t = 0; t < T; t++) v += mr->snaps[t].val_acc;
    mr->val_a_last = mr->snaps[T - 1].val_acc;
    mr->val_a_avg = v / T;
}

static int apply_G(const double *x, double *y, void *user)
{
    const gm_mat *G = user;
    cblas_dsymv(CblasColMajor, CblasUpper, (int)G->rows, 1.0, G->v, (int)G->rows, x, 1, 0.0, y, 1);
    return GS_OK;
}

/* λ_min(G_t) from the Cholesky factor of G_t + τI left in ms->A by solve_seen: Lanczos on the
 * inverse converges fast. Stored τ-independent (λ_min(G) = λ_min(G+τI) − τ), so a τ change
 * does not recompute it. */
static int refine_lmin(en_engine *e, mstate *ms, int t, double tau)
{
    if (ms->eigG[t] || ms->lmin_ref[t]) return GS_OK;
    double lm, le;
    int rc = sp_lmin_from_cholesky(&ms->A, LANCZOS_MAXIT, LANCZOS_TOL, &lm, &le);
    if (rc) return rc;
    ms->lmin[t] = lm - tau;
    ms->lmine[t] = le;
    ms->lmin_ref[t] = 1;
    return GS_OK;
}

/* τ-independent statistics of G_t (assembled in ms->A). */
static int ensure_stats(en_engine *e, mstate *ms, int t, int want_spectrum)
{
    long D = e->p->D;
    if (!ms->stats_valid[t]) {
        free(ms->eigG[t]);
        ms->eigG[t] = NULL;
        ms->fro2[t] = sp_fro2(&ms->A);
        ms->tr[t] = sp_trace(&ms->A);
        ms->lmin_ref[t] = 0;
        if (!want_spectrum) {
            /* Converge λ_max only (well separated, a few steps); λ_min, whose end of the spectrum
             * is crowded, comes from the Cholesky factor after the solve (refine_lmin). */
            int rc = sp_lanczos_op(D, apply_G, &ms->A, SP_LANCZOS_MAX, LANCZOS_MAXIT, LANCZOS_TOL, &ms->lmax[t],
                                   &ms->lmaxe[t], &ms->lmin[t], &ms->lmine[t]);
            if (rc) return rc;
        }
        ms->stats_valid[t] = 1;
    }
    if (want_spectrum && !ms->eigG[t]) {
        double *w = gs_malloc((size_t)D, sizeof(double), "spectrum");
        if (!w) return GS_ENOMEM;
        int rc = sp_eigvals(&ms->A, w);
        if (rc) { free(w); return rc; }
        ms->eigG[t] = w;
        ms->lmax[t] = w[0]; ms->lmaxe[t] = 0;
        ms->lmin[t] = w[D - 1]; ms->lmine[t] = 0;
    }
    return GS_OK;
}

static void fill_spectral(en_engine *e, mstate *ms, en_snap *sn, int t, double tau)
{
    long D = e->p->D;
    sn->flags &= ~(unsigned)(EN_SPECTRUM | EN_LMAX_EST | EN_LMIN_EST | EN_NO_GRAM);
    double lmax = ms->lmax[t], lmin = ms->lmin[t];
    sn->lambda_max = lmax + tau;
    sn->lambda_min = lmin + tau;
    sn->lmax_err = ms->lmaxe[t];
    sn->lmin_err = ms->lmine[t];
    sn->stable_rank = sp_stable_rank_formula(ms->fro2[t], ms->tr[t], lmax, tau, D);
    sn->cond = sn->lambda_min > 0 ? sn->lambda_max / sn->lambda_min : INFINITY;
    sn->erank = NAN;
    free(sn->eig);
    sn->eig = NULL;
    if (ms->eigG[t]) {
        sn->eig = malloc((size_t)D * sizeof(double));
        if (sn->eig) {
            for (long i = 0; i < D; i++) sn->eig[i] = ms->eigG[t][i] + tau;
            sn->flags |= EN_SPECTRUM;
            sn->erank = sp_effective_rank(sn->eig, D);
            sn->stable_rank = sp_stable_rank_eig(sn->eig, D);
        }
    } else {
        sn->flags |= EN_LMAX_EST | EN_LMIN_EST;
    }
}

/* Solve (G+τI) W = Q for the seen classes of task t (G, Qᵀ assembled in ms->A, ms->Qw; A is
 * factored in place: no D×D copy); W rows into ms->Wt (Cs × D, in class_order). Returns GS_OK or
 * GS_ERUN with the reason in `why`. */
static int solve_seen(en_engine *e, mstate *ms, int t, double tau, char *why, size_t nwhy)
{
    const en_problem *p = e->p;
    long D = p->D;
    int Cs = p->st->task_class_start[t + 1];
    for (long i = 0; i < D; i++) ms->A.v[i * D + i] += tau;
    for (int k = 0; k < Cs; k++)
        memcpy(gm_row(&ms->Wt, k), gm_row(&ms->Qw, p->st->class_order[k]), (size_t)D * sizeof(double));
    /* the _work variants: no NaN scan of A (its rows were checked finite) */
    lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', (lapack_int)D, ms->A.v, (lapack_int)D);
    if (info > 0) {
        snprintf(why, nwhy, "G + τI is not positive definite (τ = %g, leading minor %d); raise --tau", tau, (int)info);
        return GS_ERUN;
    }
    if (info < 0) { snprintf(why, nwhy, "LAPACK dpotrf failed (info %d)", (int)info); return GS_ERUN; }
    info = LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'U', (lapack_int)D, Cs, ms->A.v, (lapack_int)D, ms->Wt.v, (lapack_int)D);
    if (info != 0) { snprintf(why, nwhy, "LAPACK dpotrs failed (info %d)", (int)info); return GS_ERUN; }
    for (size_t i = 0; i < (size_t)Cs * D; i++)
        if (!isfinite(ms->Wt.v[i])) { snprintf(why, nwhy, "the solution W is not finite; raise --tau"); return GS_ERUN; }
    return GS_OK;
}

static int argmax_range(const double *X, const float *Xf, const double *Xn, long n, long lo, long hi, long D,
                        const double *Wt, int Cs, int mode, int *best, long *n_double);

/* Predictions of test rows lo..hi-1 of the first n (the seen classes' rows) into ms->pred. */
static int predict_rows(en_engine *e, mstate *ms, int t, long n, long lo, long hi)
{
    const en_problem *p = e->p;
    int Cs = p->st->task_class_start[t + 1];
    int rc = argmax_range(p->test_h.v, p->test_f, p->test_fn, n, lo, hi, p->D, ms->Wt.v, Cs,
                          e->cfg.exact_scores ? EN_SCORES_DOUBLE : EN_SCORES_SCREEN, ms->pred, NULL);
    if (rc) return rc;
    for (long i = lo; i < hi; i++) ms->pred[i] = p->st->class_order[ms->pred[i]];
    return GS_OK;
}

static int predict_seen(en_engine *e, mstate *ms, int t, long n) { return predict_rows(e, ms, t, n, 0, n); }

/* Predictions of the seen validation rows of task t into ms->vpred, and their accuracy. */
static int predict_val(en_engine *e, mstate *ms, en_snap *sn, int t)
{
    const en_problem *p = e->p;
    long nv = p->val_h.rows ? p->val_task_end[t] : 0;
    if (nv > 0) {
        int rc;
        if (ms->def->kind == 2) {
            rc = ms->def->predict(&ms->ctx, t, p->val_h.v, nv, ms->vpred);
        } else {
            int Cs = p->st->task_class_start[t + 1];
            rc = argmax_range(p->val_h.v, NULL, NULL, nv, 0, nv, p->D, ms->Wt.v, Cs,
                              e->cfg.exact_scores ? EN_SCORES_DOUBLE : EN_SCORES_SCREEN, ms->vpred, NULL);
            for (long i = 0; !rc && i < nv; i++) ms->vpred[i] = p->st->class_order[ms->vpred[i]];
        }
        if (rc) return rc;
    }
    fill_val_accuracy(e, sn, ms->vpred, nv);
    return GS_OK;
}

/* The two halves of a task's predictions (jobs J_PRED, J_PRED1): split at a multiple of 256 rows. */
static void pred_half(long n, int part, long *lo, long *hi)
{
    long mid = n < 1024 ? n : (n / 2 + 128) / 256 * 256;
    *lo = part ? mid : 0;
    *hi = part ? n : mid;
}

/* ---- predictions: single-precision screening, decided exactly ------------------------------
 * Reference: s = the double scores of cblas_dgemm over the row blocks [i0, i0 + EN_SCORE_BLOCK),
 * best = first maximum. Screening: x̂ = fl32(x), ŵ = fl32(w), ŝ = sgemm(x̂, ŵ) over sub-blocks.
 * Error of ŝ against the exact score s* = Σ x_j w_j (any summation order, with or without FMA;
 * u = 2⁻²⁴, γ_n = n u / (1 - n u), Higham ch. 3; η = 2⁻¹²⁶ bounds the absolute error of an
 * operation or conversion in the subnormal range, also under flush-to-zero):
 *   |x̂_j ŵ_j - x_j w_j| ≤ (2u + u²)|x_j w_j| + η((1+u)|w_j| + |x̂_j|) + η²
 *   |ŝ - Σ x̂_j ŵ_j|     ≤ γ_D Σ|x̂_j ŵ_j| + 2Dη,   Σ|x̂_j ŵ_j| ≤ (1+u)² Σ|x_j w_j|
 * and the double reference: |s - s*| ≤ γ'_D Σ|x_j w_j| + 2Dη' (u' = 2⁻⁵³, η' = 2⁻¹⁰²²). With
 * Σ|x_j w_j| ≤ ‖x‖₂‖w‖₂ and ‖·‖₁ ≤ √D ‖·‖₂:
 *   |ŝ_c - s_c| ≤ e_c = F ‖x‖‖w_c‖ + η(3D + 2√D(‖x‖ + ‖w_c‖)) + 3Dη',
 *   F = γ_D(1+u)² + 2u + u² + γ'_D, inflated by 1 % (norms and this test are computed in double:
 *   their relative errors, ≈ D u', are far below that).
 * If ŝ_b - e_b > ŝ_c + e_c for every c ≠ b, then s_b > s_c for every c: b is the strict maximum
 * of the reference scores, whatever their tie rule. Any other row (near ties, non-finite values)
 * is decided from the reference scores of its block (computed once per block, only if needed). */
#define SCREEN_ROWS 256

/* A row the screen left in doubt: the maximum of the reference scores is among the candidates
 * K = {k : ŝ_k + e_k ≥ lo} (lo = ŝ_b - e_b ≤ s_b; any other k has s_k < s_b). Their scores are
 * recomputed in long double (u_l = LDBL_EPSILON/2; error ≤ γ^l_D Σ|x_j w_j|), so each reference
 * score lies within E_k = 1.01(γ^l_D + γ'_D)‖x‖‖w_k‖ + 4Dη' + u_l|a_k| of a_k. If one candidate
 * beats every other by more than their bounds it is the strict maximum of the reference: 1,
 * with *best set. Otherwise 0 (the caller falls back to the reference scores). */
static int decide_close(const double *x, long D, const double *Wt, int Cs, const float *s, double F, double xr,
                        const double *wn, double ax, double aw, double lo, int *best)
{
    const long double ul = LDBL_EPSILON / 2;
    const double ud = 0x1p-53, etad = 0x1p-1022;
    double gl = (double)((long double)D * ul / (1 - (long double)D * ul)), gd = (double)D * ud / (1 - (double)D * ud);
    double G = 1.01 * (gl + gd);
    int bb = -1;
    double blo = 0, others_hi = -INFINITY;
    /* two passes: the best lower bound, then every other candidate's upper bound */
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < Cs; k++) {
            if (!((double)s[k] + (F * xr * wn[k] + ax + aw * wn[k]) >= lo)) continue; /* not a candidate */
            const double *w = Wt + (size_t)k * D;
            long double a = 0;
            for (long j = 0; j < D; j++) a += (long double)x[j] * (long double)w[j];
            double ad = (double)a;
            double E = G * xr * wn[k] + 4 * (double)D * etad + 2 * (double)ul * fabs(ad) + 2 * ud * fabs(ad);
            double klo = ad - E, khi = ad + E;
            if (!isfinite(klo) || !isfinite(khi)) return 0;
            if (pass == 0) {
                if (bb < 0 || klo > blo) { bb = k; blo = klo; }
            } else if (k != bb && khi > others_hi) {
                others_hi = khi;
            }
        }
    if (bb < 0 || !(blo > others_hi)) return 0;
    *best = bb;
    return 1;
}

/* en_argmax_scores for rows lo..hi-1 of the n rows only (best[lo..hi-1]); the reference blocks
 * stay those of all n rows (a block in doubt is computed whole), so any split of [0, n) gives the
 * same predictions. */
static int argmax_range(const double *X, const float *Xf, const double *Xn, long n, long lo, long hi, long D,
                        const double *Wt, int Cs, int mode, int *best, long *n_double)
{
    long nd = 0;
    if (n_double) *n_double = 0;
    if (hi <= lo) return GS_OK;
    if (Cs <= 1) {
        for (long i = lo; i < hi; i++) best[i] = 0;
        return GS_OK;
    }
    const double u = 0x1p-24, ud = 0x1p-53, eta = 0x1p-126, etad = 0x1p-1022;
    int screen = mode == EN_SCORES_SCREEN && (double)D * u < 0.01;
    long nb_max = n < EN_SCORE_BLOCK ? n : EN_SCORE_BLOCK;
    /* rows per sgemm: with the fl32 rows given, a whole reference block (W̃ is packed once per
     * call); else SCREEN_ROWS converted at a time (the bounds hold for any summation order) */
    long srows = Xf ? nb_max : SCREEN_ROWS;
    double *ds = gs_malloc((size_t)nb_max * (size_t)Cs, sizeof(double), "scores");
    float *xf = NULL, *wf = NULL, *fs = NULL;
    double *wn = NULL, *xn = NULL;
    unsigned char *doubt = NULL;
    if (screen) {
        xf = Xf ? NULL : gs_malloc((size_t)SCREEN_ROWS * (size_t)D, sizeof(float), "scores");
        wf = gs_malloc((size_t)Cs * (size_t)D, sizeof(float), "scores");
        fs = gs_malloc((size_t)srows * (size_t)Cs, sizeof(float), "scores");
        wn = gs_malloc((size_t)Cs, sizeof(double), "scores");
        xn = gs_malloc((size_t)srows, sizeof(double), "scores");
        doubt = gs_malloc((size_t)nb_max, 1, "scores");
    }
    if (!ds || (screen && ((!xf && !Xf) || !wf || !fs || !wn || !xn || !doubt))) {
        free(ds); free(xf); free(wf); free(fs); free(wn); free(xn); free(doubt);
        return GS_ENOMEM;
    }
    double gf = (double)D * u / (1 - (double)D * u), gd = (double)D * ud / (1 - (double)D * ud);
    double F = 1.01 * (gf * (1 + u) * (1 + u) + 2 * u + u * u + gd);
    double sq = 1.01 * 2 * sqrt((double)D), A0 = eta * 3 * (double)D + 3 * (double)D * etad;
    if (screen)
        for (int c = 0; c < Cs; c++) {
            const double *w = Wt + (size_t)c * D;
            float *o = wf + (size_t)c * D;
            wn[c] = gm_to_float(w, D, o);
        }
    for (long i0 = lo / EN_SCORE_BLOCK * EN_SCORE_BLOCK; i0 < hi; i0 += EN_SCORE_BLOCK) {
        long nb = n - i0 < EN_SCORE_BLOCK ? n - i0 : EN_SCORE_BLOCK;
        long a = lo > i0 ? lo - i0 : 0, z = hi - i0 < nb ? hi - i0 : nb; /* block rows a..z-1 wanted */
        const double *Xb = X + (size_t)i0 * D;
        long ndoubt = z - a;
        if (screen) {
            ndoubt = 0;
            for (long r0 = a; r0 < z; r0 += srows) {
                long nr = z - r0 < srows ? z - r0 : srows;
                const float *xs = Xf ? Xf + (size_t)(i0 + r0) * D : xf; /* converted once, or here */
                const double *ns = Xf ? Xn + i0 + r0 : xn;
                for (long r = 0; !Xf && r < nr; r++) {
                    const double *x = Xb + (size_t)(r0 + r) * D;
                    float *o = xf + (size_t)r * D;
                    xn[r] = gm_to_float(x, D, o);
                }
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nr, Cs, (int)D, 1.0f, xs, (int)D, wf,
                            (int)D, 0.0f, fs, Cs);
                for (long r = 0; r < nr; r++) {
                    const float *s = fs + (size_t)r * Cs;
                    double xr = ns[r], ax = A0 + eta * sq * xr;
                    int b = 0;
                    for (int k = 1; k < Cs; k++) if (s[k] > s[b]) b = k;
                    double slo = (double)s[b] - (F * xr * wn[b] + ax + eta * sq * wn[b]);
                    int ok = isfinite(slo) && isfinite(xr);
                    for (int k = 0; k < Cs && ok; k++) {
                        if (k == b) continue;
                        double shi = (double)s[k] + (F * xr * wn[k] + ax + eta * sq * wn[k]);
                        if (!(slo > shi)) ok = 0; /* also NaN */
                    }
                    if (!ok && isfinite(slo) && isfinite(xr))
                        ok = decide_close(Xb + (size_t)(r0 + r) * D, D, Wt, Cs, s, F, xr, wn, ax, eta * sq, slo, &b);
                    doubt[r0 + r] = !ok;
                    if (ok) best[i0 + r0 + r] = b; else ndoubt++;
                }
            }
        }
        if (ndoubt == 0) continue;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nb, Cs, (int)D, 1.0, Xb, (int)D, Wt, (int)D,
                    0.0, ds, Cs);
        for (long i = a; i < z; i++) {
            if (screen && !doubt[i]) continue;
            const double *s = ds + (size_t)i * Cs;
            int b = 0;
            for (int k = 1; k < Cs; k++) if (s[k] > s[b]) b = k;
            best[i0 + i] = b;
        }
        nd += ndoubt;
    }
    free(ds); free(xf); free(wf); free(fs); free(wn); free(xn); free(doubt);
    if (n_double) *n_double = nd;
    return GS_OK;
}

int en_argmax_scores(const double *X, long n, long D, const double *Wt, int Cs, int mode, int *best,
                     long *n_double)
{
    return argmax_range(X, NULL, NULL, n, 0, n, D, Wt, Cs, mode, best, n_double);
}

static double tau_for(en_engine *e, mstate *ms, int t, double tau)
{
    return ms->def->tau_eff ? ms->def->tau_eff(&ms->ctx, t, tau) : tau;
}

/* ---- the update's work as jobs (methods in parallel, tasks overlapped) --------------------
 * Per task: the base Gram, each augmenting method's synthetic rows, and per ridge method the
 * solve (assemble, statistics, Cholesky), then λ_min from the factor and the predictions (two
 * halves of the test rows, then the accuracies; these only read the method's factor / W), and
 * a report (snapshot bookkeeping and progress, on the calling thread only). One plan holds every
 * task of the update; dependencies across tasks let the next task's Grams start while this
 * task's predictions and λ_min run, and keep every buffer safe:
 *   BASE(t)        after BASE(t-1) and every SOLVE(t-1) (they read the base Gram's slot);
 *   EXTRA(t, m)    after XEND(t-1, m) and SOLVE(t-1, m) (the emitter, Y and E's slot);
 *   SOLVE(t, m)    after BASE(t), XEND(t, m), and LMIN, PRED, ACC of (t-1, m) (A, W, pred);
 *   CUSTOM(t, m)   after CUSTOM(t-1, m);  REPORT(t) after every job of t and REPORT(t-1).
 * Each job's arithmetic does not depend on which thread runs it or when: every job writes its
 * own method's state and work buffers in an order the dependencies fix, so the numbers are
 * those of the sequential order (OpenBLAS at one thread inside the plan: identical to a
 * sequential run at one BLAS thread). Two workers (the caller and one helper) pick the first
 * ready job in plan order (earlier tasks first). */
enum { J_BASE, J_EXTRA, J_PAIRS0, J_PAIRS1, J_XEND, J_SOLVE, J_LMIN, J_PRED, J_CUSTOM, J_PRED1, J_ACC, J_REPORT };
enum { JS_WAIT, JS_RUN, JS_DONE };
#define JOB_DEPS (2 + OP_MAX_METHODS)
#define JOBS_PER_TASK (2 + 9 * OP_MAX_METHODS)

typedef struct {
    int kind, m, t, pos, dep[JOB_DEPS], ndep, state, rc; /* pos: the task's place in the plan */
    int after_lo; /* REPORT: also every job in [after_lo, itself) */
    double seconds;
    char err[256];
} en_job;

typedef struct {
    en_engine *e;
    const op_params *q;
    en_job *job;
    int nj, first_wait;           /* jobs; the first one not yet started (a scan hint) */
    int npos;                     /* tasks planned so far (the position of new jobs) */
    int stop_pos;                 /* jobs of task positions ≥ this are not started (failure, cancel) */
    int cancelled;
    const volatile int *cancel;
    int *done_count, total;       /* progress over the update */
    en_progress_fn progress;
    void *user;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} en_plan;

static int job_solve(en_engine *e, mstate *ms, en_snap *sn, int t, const op_params *q)
{
    const en_problem *p = e->p;
    /* Exact spectrum: every task (--spectrum all), the last task, and the task the user is
     * looking at (so an interactive view fills in without waiting for the whole stream). */
    int want_spec = e->cfg.spectrum == OP_SPECTRUM_ALL || t == p->T - 1 ||
                    (e->keep && t == e->focus_task);
    assemble(e, ms, t, q, &ms->A);
    int rc = ensure_stats(e, ms, t, want_spec);
    if (rc) return rc;
    double tau = tau_for(e, ms, t, q->tau);
    ms->solve_failed = solve_seen(e, ms, t, tau, ms->why, sizeof ms->why) != GS_OK;
    if (ms->solve_failed) {
        fill_spectral(e, ms, sn, t, tau);
        sn->state = EN_FAILED;
        snprintf(sn->error, sizeof sn->error, "%s, task %d: %s", ms->def->name, t + 1, ms->why);
        sn->acc = sn->head_acc = sn->tail_acc = NAN;
        sn->val_acc = sn->val_head_acc = sn->val_tail_acc = NAN;
    }
    return GS_OK;
}

static int job_lmin(en_engine *e, mstate *ms, en_snap *sn, int t, const op_params *q)
{
    if (ms->solve_failed) return GS_OK;
    double tau = tau_for(e, ms, t, q->tau);
    int rc = refine_lmin(e, ms, t, tau);
    if (rc) return rc;
    fill_spectral(e, ms, sn, t, tau);
    return GS_OK;
}

static int job_pred(en_engine *e, mstate *ms, int t, int part)
{
    if (ms->solve_failed) return GS_OK;
    long n = e->p->test_task_end[t], lo, hi;
    pred_half(n, part, &lo, &hi);
    return predict_rows(e, ms, t, n, lo, hi);
}

static int eval_custom(en_engine *e, mstate *ms, en_snap *sn, int t)
{
    const en_problem *p = e->p;
    long n = p->test_task_end[t];
    sn->flags = EN_NO_GRAM;
    sn->stable_rank = sn->cond = sn->erank = sn->lambda_max = sn->lambda_min = NAN;
    int rc = ms->def->predict(&ms->ctx, t, p->test_h.v, n, ms->pred);
    if (rc) {
        sn->state = EN_FAILED;
        snprintf(sn->error, sizeof sn->error, "%s, task %d: %s", ms->def->name, t + 1, gs_last_error());
        return GS_OK;
    }
    fill_accuracy(e, sn, ms->pred, n);
    if ((rc = predict_val(e, ms, sn, t))) {
        sn->state = EN_FAILED;
        snprintf(sn->error, sizeof sn->error, "%s, task %d: %s", ms->def->name, t + 1, gs_last_error());
    }
    return GS_OK; /* EN_DONE when the task is reported (report_task), as for the ridge methods */
}

static void report_task(en_plan *pl, const en_job *rj);

static int run_job(en_plan *pl, en_job *j)
{
    en_engine *e = pl->e;
    int t = j->t, rc = GS_OK;
    mstate *ms = j->m >= 0 ? &e->ms[j->m] : NULL;
    en_snap *sn = j->m >= 0 ? &e->ms[j->m].stage[t] : NULL;
    switch (j->kind) {
    case J_BASE:
        base_task(e, t);
        e->base_valid = t + 1;
        break;
    case J_EXTRA: rc = extra_rows(e, ms, t); break;
    case J_PAIRS0: case J_PAIRS1: pair_flush_part(&ms->em, j->kind == J_PAIRS1); break;
    case J_XEND:
        extra_end(e, ms, t);
        ms->extra_valid = t + 1;
        ms->stats_valid[t] = 0;
        break;
    case J_SOLVE: rc = job_solve(e, ms, sn, t, pl->q); break;
    case J_LMIN: rc = job_lmin(e, ms, sn, t, pl->q); break;
    case J_PRED: case J_PRED1: rc = job_pred(e, ms, t, j->kind == J_PRED1); break;
    case J_ACC:
        if (!ms->solve_failed) {
            fill_accuracy(e, sn, ms->pred, e->p->test_task_end[t]);
            rc = predict_val(e, ms, sn, t);
        }
        break;
    case J_CUSTOM:
        if (ms->fit_valid <= t) {
            if (t == 0 && ms->def->reset && (rc = ms->def->reset(&ms->ctx))) break;
            if ((rc = ms->def->fit(&ms->ctx, t))) break;
            ms->fit_valid = t + 1;
        }
        rc = eval_custom(e, ms, sn, t);
        break;
    case J_REPORT: report_task(pl, j); break;
    }
    return rc;
}

static int job_ready(const en_plan *pl, const en_job *j)
{
    if (j->state != JS_WAIT) return 0;
    for (int k = 0; k < j->ndep; k++)
        if (pl->job[j->dep[k]].state != JS_DONE) return 0;
    for (const en_job *i = pl->job + j->after_lo; i < j; i++)
        if (i->state != JS_DONE) return 0;
    return 1;
}

typedef struct {
    en_plan *pl;
    int caller;
} en_worker;

static void *plan_worker(void *arg)
{
    en_worker *w = arg;
    en_plan *pl = w->pl;
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        /* the flag is set by another thread (the UI, a signal handler): read it atomically */
        if (pl->cancel && __atomic_load_n(pl->cancel, __ATOMIC_RELAXED) && !pl->cancelled) {
            pl->cancelled = 1;
            pl->stop_pos = -1; /* start nothing more */
            pthread_cond_broadcast(&pl->cv);
        }
        /* Jobs are in plan order (task positions ascending). After a failure only the tasks
         * before the failing one go on, so they end complete and reported, as in a task-by-task
         * run. The helper leaves the REPORT jobs to the caller. */
        while (pl->first_wait < pl->nj && pl->job[pl->first_wait].state != JS_WAIT) pl->first_wait++;
        en_job *j = NULL;
        int left = 0;
        for (int k = pl->first_wait; k < pl->nj && !j; k++) {
            en_job *c = &pl->job[k];
            if (c->pos >= pl->stop_pos) break;
            if (c->state != JS_WAIT || (!w->caller && c->kind == J_REPORT)) continue;
            left = 1;
            if (job_ready(pl, c)) j = c;
        }
        if (!left) break;
        if (!j) { pthread_cond_wait(&pl->cv, &pl->mu); continue; }
        j->state = JS_RUN;
        pthread_mutex_unlock(&pl->mu);
        gs_clear_error();
        double t0 = gs_now();
        int rc = run_job(pl, j);
        j->seconds = gs_now() - t0;
        if (rc) snprintf(j->err, sizeof j->err, "%s", gs_last_error());
        pthread_mutex_lock(&pl->mu);
        j->state = JS_DONE;
        j->rc = rc;
        if (rc && j->pos < pl->stop_pos) pl->stop_pos = j->pos;
        pthread_cond_broadcast(&pl->cv);
    }
    pthread_mutex_unlock(&pl->mu);
    return NULL;
}

static int add_job(en_plan *pl, int kind, int m, int t)
{
    en_job *j = &pl->job[pl->nj];
    memset(j, 0, sizeof *j);
    j->kind = kind; j->m = m; j->t = t;
    j->pos = pl->npos;
    j->after_lo = pl->nj;
    return pl->nj++;
}

static void add_dep(en_plan *pl, int j, int dep)
{
    if (j >= 0 && dep >= 0) pl->job[j].dep[pl->job[j].ndep++] = dep;
}

/* The snapshots of task t after its jobs (calling thread): state, counts, seconds, progress.
 * rj is the REPORT job; the task's jobs are those just before it, from rj->after_lo. */
static void report_task(en_plan *pl, const en_job *rj)
{
    int t = rj->t;
    en_engine *e = pl->e;
    const en_problem *p = e->p;
    for (int m = 0; m < e->nm; m++) {
        mstate *ms = &e->ms[m];
        if (!ms->dirty) { (*pl->done_count)++; continue; }
        /* the task's snapshot goes live: swapped in whole, on the calling thread (a progress
         * callback may copy the results while the helper runs the next task's jobs) */
        en_snap *sn = &e->res.m[m].snaps[t], tmp = *sn;
        *sn = ms->stage[t];
        ms->stage[t] = tmp;
        if (sn->state != EN_FAILED) { /* every job of the task ran: done unless a job said failed */
            sn->state = EN_DONE;
            sn->error[0] = '\0';
        }
        sn->rows_seen = p->task_row_start[t + 1];
        sn->classes_seen = p->st->task_class_start[t + 1];
        sn->aug_rows = ms->E ? ms->aug_rows[t] : 0;
        sn->aug_skipped_classes = ms->E ? ms->skip_cls[t] : 0;
        sn->aug_skipped_pairs = ms->E ? ms->skip_pairs[t] : 0;
        sn->seconds = 0;
        for (const en_job *j = pl->job + rj->after_lo; j < rj; j++)
            if (j->m == m) sn->seconds += j->seconds;
        (*pl->done_count)++;
        if (pl->progress) pl->progress((double)*pl->done_count / pl->total, e->res.m[m].name, pl->user);
    }
}

/* Jobs of the tasks order[0..no-1] (each dirty method), with the dependencies above. */
static void plan_tasks(en_plan *pl, const int *order, int no)
{
    en_engine *e = pl->e;
    int nm = e->nm, prev_base = -1, prev_report = -1;
    int prev_solve[OP_MAX_METHODS], prev_xend[OP_MAX_METHODS], prev_custom[OP_MAX_METHODS], prev_use[OP_MAX_METHODS][4];
    for (int m = 0; m < nm; m++) {
        prev_solve[m] = prev_xend[m] = prev_custom[m] = -1;
        for (int k = 0; k < 4; k++) prev_use[m][k] = -1;
    }
    int base_valid = e->base_valid, extra_valid[OP_MAX_METHODS];
    for (int m = 0; m < nm; m++) extra_valid[m] = e->ms[m].extra_valid;
    for (int k = 0; k < no; k++) {
        int t = order[k], first = pl->nj;
        pl->npos = k;
        int jb = -1, jx[OP_MAX_METHODS];
        if (base_valid <= t) {
            jb = add_job(pl, J_BASE, -1, t);
            add_dep(pl, jb, prev_base);
            for (int m = 0; m < nm; m++) add_dep(pl, jb, prev_solve[m]);
            prev_base = jb;
            base_valid = t + 1;
        }
        for (int m = 0; m < nm; m++) {
            mstate *ms = &e->ms[m];
            jx[m] = -1;
            if (!ms->dirty) continue;
            if (ms->def->kind == 2) {
                int jc = add_job(pl, J_CUSTOM, m, t);
                add_dep(pl, jc, prev_custom[m]);
                prev_custom[m] = jc;
                continue;
            }
            if (ms->E && extra_valid[m] <= t) {
                int jr = add_job(pl, J_EXTRA, m, t);
                add_dep(pl, jr, prev_xend[m]);
                add_dep(pl, jr, prev_solve[m]);
                int j0 = add_job(pl, J_PAIRS0, m, t), j1 = add_job(pl, J_PAIRS1, m, t);
                add_dep(pl, j0, jr); add_dep(pl, j1, jr);
                jx[m] = add_job(pl, J_XEND, m, t);
                add_dep(pl, jx[m], j0); add_dep(pl, jx[m], j1);
                prev_xend[m] = jx[m];
                extra_valid[m] = t + 1;
            }
        }
        for (int m = 0; m < nm; m++) {
            mstate *ms = &e->ms[m];
            if (!ms->dirty || ms->def->kind == 2) continue;
            int js = add_job(pl, J_SOLVE, m, t);
            add_dep(pl, js, jb >= 0 ? jb : prev_base);
            add_dep(pl, js, jx[m]);
            for (int u = 0; u < 4; u++) add_dep(pl, js, prev_use[m][u]);
            int p0 = add_job(pl, J_PRED, m, t), p1 = add_job(pl, J_PRED1, m, t);
            add_dep(pl, p0, js); add_dep(pl, p1, js);
            int ja = add_job(pl, J_ACC, m, t);
            add_dep(pl, ja, p0); add_dep(pl, ja, p1);
            int jl = add_job(pl, J_LMIN, m, t);
            add_dep(pl, jl, js);
            prev_solve[m] = js;
            prev_use[m][0] = p0; prev_use[m][1] = p1; prev_use[m][2] = ja; prev_use[m][3] = jl;
        }
        int jr = add_job(pl, J_REPORT, -1, t);
        pl->job[jr].after_lo = first;
        add_dep(pl, jr, prev_report);
        prev_report = jr;
    }
}

/* Run the tasks order[0..no-1] with e->workers threads. Returns GS_OK, GS_ECANCEL, or the first
 * failing job's status (in plan order) with its message on the calling thread. */
static int run_tasks(en_engine *e, const op_params *q, const int *order, int no, const volatile int *cancel,
                     en_progress_fn progress, void *user)
{
    en_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.e = e; pl.q = q; pl.cancel = cancel; pl.progress = progress; pl.user = user;
    pl.stop_pos = INT_MAX;
    int done = 0;
    pl.done_count = &done;
    pl.total = e->p->T * e->nm;
    pl.job = gs_calloc((size_t)no * JOBS_PER_TASK, sizeof(en_job), "engine jobs");
    if (!pl.job) return GS_ENOMEM;
    plan_tasks(&pl, order, no);
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.cv, NULL);
    en_worker caller = {&pl, 1}, helper = {&pl, 0};
    if (e->workers <= 1) {
        plan_worker(&caller);
    } else {
        int nb = gs_blas_serial_begin();
        pthread_t th;
        int started = pthread_create(&th, NULL, plan_worker, &helper) == 0;
        plan_worker(&caller);
        if (started) pthread_join(th, NULL);
        gs_blas_serial_end(nb);
    }
    pthread_cond_destroy(&pl.cv);
    pthread_mutex_destroy(&pl.mu);
    int rc = GS_OK;
    for (int k = 0; k < pl.nj && !rc; k++)
        if (pl.job[k].state == JS_DONE && pl.job[k].rc) rc = gs_error(pl.job[k].rc, "%s", pl.job[k].err);
    if (!rc && pl.cancelled) rc = GS_ECANCEL;
    free(pl.job);
    return rc;
}

static int deps_changed(unsigned deps, const op_params *a, const op_params *b)
{
    if ((deps & EN_DEP_ALPHA) && a->alpha_base != b->alpha_base) return 1;
    if ((deps & EN_DEP_XI) && a->xi != b->xi) return 1;
    if ((deps & EN_DEP_PAIRS) && a->pairs != b->pairs) return 1;
    if ((deps & EN_DEP_MAXAUG) && a->max_aug != b->max_aug) return 1;
    if ((deps & EN_DEP_AUGMENT) && a->augment != b->augment) return 1;
    if ((deps & EN_DEP_GAUSS_A) && a->gauss_a != b->gauss_a) return 1;
    if ((deps & EN_DEP_GAUSS_B) && a->gauss_b != b->gauss_b) return 1;
    if ((deps & EN_DEP_SLDA) && a->slda_eps != b->slda_eps) return 1;
    if ((deps & EN_DEP_BETA) && a->beta != b->beta) return 1;
    if ((deps & EN_DEP_TAU) && a->tau != b->tau) return 1;
    return 0;
}

int en_update(en_engine *e, const op_params *q, int first_task, const volatile int *cancel,
              en_progress_fn progress, void *user)
{
    const en_problem *p = e->p;
    int T = p->T;
    if (e->have_cur && q->seed != e->cur.seed)
        return gs_error(GS_EINPUT, "the seed changed: build a new problem (the stream depends on it)");
    gs_clear_error();
    /* What is invalid? */
    int any = 0;
    for (int m = 0; m < e->nm; m++) {
        mstate *ms = &e->ms[m];
        ms->ctx.params = q;
        int first_time = !e->have_cur;
        int extra_dirty = first_time || !e->keep || deps_changed(ms->def->deps, &ms->xparams, q);
        if (extra_dirty) { ms->extra_valid = 0; ms->fit_valid = 0; }
        double w = method_weight(ms, q);
        if (extra_dirty || w != ms->weight || !e->keep)
            for (int t = 0; t < T; t++) ms->stats_valid[t] = 0;
        ms->weight = w;
        ms->dirty = first_time || extra_dirty || q->tau != e->cur.tau || w != method_weight(ms, &e->cur) ||
                    deps_changed(ms->def->deps, &e->cur, q) || !e->keep;
        for (int t = 0; t < T; t++) if (e->res.m[m].snaps[t].state != EN_DONE) ms->dirty = 1;
        if (ms->dirty) {
            any = 1;
            for (int t = 0; t < T; t++) e->res.m[m].snaps[t].state = ms->stage[t].state = EN_PENDING;
            e->res.m[m].a_last = e->res.m[m].a_avg = e->res.m[m].val_a_last = e->res.m[m].val_a_avg = NAN;
        }
        ms->xparams = *q;
    }
    if (!e->keep) e->base_valid = 0;
    e->cur = *q;
    e->have_cur = 1;
    e->res.params = *q;
    if (!any) return GS_OK;

    /* Order: when every Gram is cached, the user's task first; otherwise 1..T. */
    int cached = e->base_valid == T;
    for (int m = 0; m < e->nm; m++)
        if (e->ms[m].dirty && ((e->ms[m].E && e->ms[m].extra_valid < T) ||
                               (e->ms[m].def->kind == 2 && e->ms[m].fit_valid < T)))
            cached = 0;
    int *order = gs_malloc((size_t)T, sizeof(int), "engine"), no = 0;
    if (!order) return GS_ENOMEM;
    int ft = first_task >= 1 && first_task <= T ? first_task - 1 : 0;
    e->focus_task = ft;
    if (cached) order[no++] = ft;
    for (int t = 0; t < T; t++) if (!cached || t != ft) order[no++] = t;
    int rc = run_tasks(e, q, order, no, cancel, progress, user);
    free(order);
    if (rc) return rc;
    for (int m = 0; m < e->nm; m++) {
        finish_method(&e->res.m[m], T);
        e->ms[m].dirty = 0;
    }
    return GS_OK;
}

int en_ensure_spectrum(en_engine *e, int task, const volatile int *cancel)
{
    int t = task - 1;
    if (t < 0 || t >= e->p->T) return gs_error(GS_EINPUT, "task %d out of range", task);
    if (!e->keep && t != e->p->T - 1) return GS_OK;
    for (int m = 0; m < e->nm; m++) {
        mstate *ms = &e->ms[m];
        en_snap *sn = &e->res.m[m].snaps[t];
        if (ms->def->kind == 2 || sn->state != EN_DONE || ms->eigG[t]) continue;
        if (cancel && *cancel) return GS_ECANCEL;
        assemble(e, ms, t, &e->cur, &ms->A);
        int rc = ensure_stats(e, ms, t, 1);
        if (rc) return rc;
        fill_spectral(e, ms, sn, t, tau_for(e, ms, t, e->cur.tau));
    }
    return GS_OK;
}

/* ---- access for --save-state and the checks ------------------------------------------ */

static int ridge_method(en_engine *e, int m, int task, int *t)
{
    if (m < 0 || m >= e->nm) return gs_error(GS_EINPUT, "no method %d", m);
    if (e->ms[m].def->kind == 2) return gs_error(GS_EINPUT, "%s has no Gram matrix", e->ms[m].def->name);
    *t = task - 1;
    if (*t < 0 || *t >= e->p->T) return gs_error(GS_EINPUT, "task %d out of range", task);
    if (!e->keep && *t != e->p->T - 1) return gs_error(GS_EINPUT, "task %d is not kept (only the last task)", task);
    if (!e->have_cur || e->base_valid <= *t) return gs_error(GS_EINPUT, "task %d is not computed yet", task);
    return GS_OK;
}

int en_gram(en_engine *e, int m, int task, const gm_mat **G, const gm_mat **Q)
{
    int t, rc = ridge_method(e, m, task, &t);
    if (rc) return rc;
    long D = e->p->D;
    int C = e->p->C;
    if (!e->G.v && (rc = gm_alloc(&e->G, D, D, "G"))) return rc;
    if (!e->Qext.v && (rc = gm_alloc(&e->Qext, D, C, "Q"))) return rc;
    mstate *ms = &e->ms[m];
    assemble(e, ms, t, &e->cur, &e->G);
    for (int c = 0; c < C; c++)
        for (long i = 0; i < D; i++) e->Qext.v[i * C + c] = ms->Qw.v[(size_t)c * D + i];
    *G = &e->G;
    *Q = &e->Qext;
    return GS_OK;
}

int en_solve_w(en_engine *e, int m, int task, gm_mat *W)
{
    int t, rc = ridge_method(e, m, task, &t);
    if (rc) return rc;
    mstate *ms = &e->ms[m];
    assemble(e, ms, t, &e->cur, &ms->A);
    char why[160];
    if (solve_seen(e, ms, t, tau_for(e, ms, t, e->cur.tau), why, sizeof why))
        return gs_error(GS_ERUN, "%s, task %d: %s", ms->def->name, task, why);
    long D = e->p->D;
    int C = e->p->C, Cs = e->p->st->task_class_start[t + 1];
    if ((rc = gm_alloc(W, D, C, "W"))) return rc;
    for (int k = 0; k < Cs; k++) {
        int c = e->p->st->class_order[k];
        for (long i = 0; i < D; i++) W->v[i * C + c] = ms->Wt.v[(size_t)k * D + i];
    }
    return GS_OK;
}

int en_predictions(en_engine *e, int m, int task, int **pred, long *n_out)
{
    int t = task - 1;
    if (m < 0 || m >= e->nm || t < 0 || t >= e->p->T) return gs_error(GS_EINPUT, "bad method or task");
    mstate *ms = &e->ms[m];
    long n = e->p->test_task_end[t];
    int rc;
    if (ms->def->kind == 2) {
        if (ms->fit_valid != t + 1 && !(t == e->p->T - 1 && ms->fit_valid == e->p->T))
            return gs_error(GS_EINPUT, "%s: predictions are only available for the last fitted task", ms->def->name);
        if ((rc = ms->def->predict(&ms->ctx, t, e->p->test_h.v, n, ms->pred))) return rc;
    } else {
        if ((rc = ridge_method(e, m, task, &t))) return rc;
        assemble(e, ms, t, &e->cur, &ms->A);
        char why[160];
        if (solve_seen(e, ms, t, tau_for(e, ms, t, e->cur.tau), why, sizeof why))
            return gs_error(GS_ERUN, "%s, task %d: %s", ms->def->name, task, why);
        if ((rc = predict_seen(e, ms, t, n))) return rc;
    }
    *pred = gs_malloc((size_t)(n ? n : 1), sizeof(int), "predictions");
    if (!*pred) return GS_ENOMEM;
    memcpy(*pred, ms->pred, (size_t)n * sizeof(int));
    *n_out = n;
    return GS_OK;
}

int en_aug_rows(en_engine *e, int m, const gm_mat **rows, const int **labels)
{
    if (m < 0 || m >= e->nm || !e->ms[m].E) return gs_error(GS_EINPUT, "method has no augmented rows");
    if (!e->cfg.collect_aug) return gs_error(GS_EINPUT, "augmented rows were not collected");
    *rows = &e->ms[m].collect;
    *labels = e->ms[m].collect_y;
    return GS_OK;
}
