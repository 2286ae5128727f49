/* engine/emit.c — the emitter augmenters write through, and each task's synthetic rows (see
 * gs_methods.h for the API, engine_int.h for the engine's state). */
#include "engine_int.h"
#include "gs_common.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The checks every synthetic row passes: its weight and label (row_args_ok), its values (row_finite). */
static int row_args_ok(const en_emitter *em, int c, double omega)
{
    if (!(omega >= 0) || !isfinite(omega)) return gs_error(GS_ERUN, "%s: invalid row weight", em->ms->name);
    if (c < 0 || c >= em->ms->p->C) return gs_error(GS_ERUN, "%s: label %d out of range", em->ms->name, c);
    return GS_OK;
}

static int row_finite(const en_emitter *em, const double *h, const float *hf)
{
    long D = em->ms->p->D;
    for (long j = 0; j < D; j++)
        if (!isfinite(h ? h[j] : hf[j])) return gs_error(GS_ERUN, "%s: a synthetic row is not finite", em->ms->name);
    return GS_OK;
}

/* A single-precision emitter's row r: ω·h added to Q (double), fl32(√ω·h) into the float buffer. */
static void put_row_f(en_emitter *em, long r, const double *h, const float *hf, int c, double omega)
{
    long D = em->ms->p->D;
    float *o = gm_rowf(&em->buf, r);
    double *q = gm_row(em->QE, c), s = sqrt(omega);
    for (long j = 0; j < D; j++) {
        double v = h ? h[j] : hf[j];
        q[j] += omega * v;
        o[j] = (float)(s * v);
    }
}

static int emit_flush(en_emitter *em)
{
    long D = em->ms->p->D;
    if (em->n == 0) return GS_OK;
    if (!em->E) { /* a stats learner: the rows are handed to its fit */
        for (long k = 0; k < em->n; k++)
            if (en_rowbuf_push(&em->ms->aug, gm_row(&em->buf, k), NULL, D, em->lab[k], em->w[k], 1)) return GS_ENOMEM;
        em->n = 0;
        return GS_OK;
    }
    for (long k = 0; !em->buf.f && k < em->n; k++) { /* float rows: Q and the weight went in at emit_row */
        double *h = gm_row(&em->buf, k);
        double *q = gm_row(em->QE, em->lab[k]);
        cblas_daxpy((int)D, em->w[k], h, 1, q, 1);
        if (em->w[k] != 1.0) cblas_dscal((int)D, sqrt(em->w[k]), h, 1);
    }
    /* row-major upper triangle of E += bufᵀ buf */
    gr_rows(em->E, &em->buf, 0, em->n);
    em->n = 0;
    return GS_OK;
}

/* One row (D values, the learner's space: h in double, or hf in float) with label c and weight ω
 * (class weight included). A single-precision emitter (its buffer float, like E) adds ω·h to Q in
 * double here and keeps fl32(√ω·h) for E. Rows kept for the dual go to em->keep as they are (in
 * float in single precision), with ω. */
static int emit_row(en_emitter *em, const double *h, const float *hf, int c, double omega)
{
    long D = em->ms->p->D;
    if (row_args_ok(em, c, omega) || row_finite(em, h, hf)) return GS_ERUN;
    if (em->keep) {
        int single = em->ms->p->single;
        float *tmp = NULL;
        if (single && h) { /* a double row into a float buffer */
            if (!(tmp = gs_malloc((size_t)D, sizeof(float), "synthetic rows"))) return GS_ENOMEM;
            for (long j = 0; j < D; j++) tmp[j] = (float)h[j];
        }
        int rc = en_rowbuf_push(em->keep, single ? NULL : h, single ? (tmp ? tmp : hf) : NULL, D, c, omega, 1);
        free(tmp);
        if (rc) return GS_ENOMEM;
        em->rows++;
        return GS_OK;
    }
    if (em->n == em->cap && em->defer) { /* the whole task's rows stay: the buffer grows */
        void *f = em->buf.f;
        int rc = en_rows_reserve(&f, (size_t)D * sizeof(float), &em->lab, &em->w, &em->cap, 2 * em->cap, "synthetic rows");
        em->buf.f = f;
        em->buf.rows = em->cap;
        if (rc) return rc;
    }
    if (em->n == em->cap && emit_flush(em)) return GS_ERUN;
    if (em->buf.f) {
        put_row_f(em, em->n, h, hf, c, omega);
    } else {
        memcpy(gm_row(&em->buf, em->n), h, (size_t)D * sizeof(double));
    }
    em->lab[em->n] = c;
    em->w[em->n] = omega;
    em->n++;
    em->rows++;
    return GS_OK;
}

/* --save-state: the augmenter's row x (row space, d values) as emitted, with its own weight ω. */
static int collect_x(en_emitter *em, const double *x, int c, double omega)
{
    if (!em->e->cfg.collect_aug || em->base || em->ms->again) return GS_OK;
    return en_rowbuf_push(&em->ms->collect, x, NULL, em->ms->p->d, c, omega, 1);
}

/* The staged feature-space rows: one product R·X per block (en_expand_rows), then en_emit. */
static int emit_x_flush(en_emitter *em)
{
    if (em->xn == 0) return GS_OK;
    const en_problem *p = em->ms->p;
    if (em->hbuf.f) {
        if (en_expand_rows_f(p, em->xbuf.v, em->xn, em->hbuf.f)) return GS_ENOMEM;
    } else {
        en_expand_rows(p, em->xbuf.v, em->xn, em->hbuf.v);
    }
    long n = em->xn;
    em->xn = 0;
    for (long k = 0; k < n; k++)
        if (emit_row(em, em->hbuf.f ? NULL : gm_row(&em->hbuf, k), em->hbuf.f ? gm_rowf(&em->hbuf, k) : NULL,
                     em->xlab[k], em->xw[k]))
            return GS_ERUN;
    return GS_OK;
}

static void emit_x_free(en_emitter *em)
{
    gm_free(&em->xbuf); gm_free(&em->hbuf);
    free(em->xlab); free(em->xw);
    em->xlab = NULL; em->xw = NULL;
    em->xn = em->xcap = 0;
}

/* ---- staged rows: expanded by two jobs ----------------------------------------------------- */

/* Where the EXP jobs split the staged rows: the class boundary nearest the middle, when no class
 * has rows on both sides (so each class's Q is summed in one job, in row order); else all in
 * part 0. A function of the rows' labels only: the same split whoever runs the jobs. */
static long stage_split(const en_emitter *em)
{
    long n = em->xn, best = n, off = n + 1;
    for (long b = 1; b < n; b++)
        if (em->xlab[b - 1] != em->xlab[b] && labs(2 * b - n) < off) { off = labs(2 * b - n); best = b; }
    if (best == n) return n;
    unsigned char *seen = gs_calloc((size_t)em->ms->p->C, 1, "synthetic rows");
    if (!seen) return n;
    for (long k = 0; k < best; k++) seen[em->xlab[k]] = 1;
    for (long k = best; k < n && best < n; k++)
        if (seen[em->xlab[k]]) best = n;
    free(seen);
    return best;
}

/* After the augmenter (EXTRA): room for the staged rows where they go (the emitter's float buffer
 * for E, or the rows kept for the dual), their labels and weights, and the split. */
static int stage_finish(en_emitter *em)
{
    const en_problem *p = em->ms->p;
    long n = em->xn, D = p->D;
    em->xsplit = stage_split(em);
    if (n == 0) return GS_OK;
    /* the destination: the rows kept for the dual (in the run's precision), or the emitter's
     * float buffer for E */
    en_rowbuf *b = em->keep;
    int dbl = b && !p->single;
    void *rows = b ? (dbl ? (void *)b->X.v : (void *)b->X.f) : (void *)em->buf.f;
    int **lab = b ? &b->y : &em->lab;
    double **w = b ? &b->w : &em->w;
    long *cap = b ? &b->cap : &em->cap, *cnt = b ? &b->n : &em->n;
    int rc = en_rows_reserve(&rows, (size_t)D * (dbl ? sizeof(double) : sizeof(float)), lab, w, cap, *cnt + n,
                          b ? "augmented rows" : "synthetic rows");
    if (!b) { em->buf.f = rows; em->buf.rows = em->cap; }
    else if (dbl) b->X.v = rows;
    else b->X.f = rows;
    if (rc) return rc;
    em->xoff = *cnt;
    memcpy(*lab + *cnt, em->xlab, (size_t)n * sizeof(int));
    memcpy(*w + *cnt, em->xw, (size_t)n * sizeof(double));
    *cnt += n;
    if (b) { b->X.cols = D; b->X.rows = b->n; }
    em->rows += n;
    return GS_OK;
}
/* Staged row k mapped (h in double, or hf in float) into its place, as emit_row puts a row. */
static int stage_put(en_emitter *em, long k, const double *h, const float *hf)
{
    const en_problem *p = em->ms->p;
    long D = p->D, r = em->xoff + k;
    if (row_finite(em, h, hf)) return GS_ERUN;
    if (em->keep) {
        if (!p->single) memcpy(em->keep->X.v + (size_t)r * D, h, (size_t)D * sizeof(double));
        else if (hf) memcpy(em->keep->X.f + (size_t)r * D, hf, (size_t)D * sizeof(float));
        else for (long j = 0; j < D; j++) em->keep->X.f[(size_t)r * D + j] = (float)h[j];
        return GS_OK;
    }
    put_row_f(em, r, h, hf, em->xlab[k], em->xw[k]);
    return GS_OK;
}

int en_extra_expand(en_engine *e, mstate *ms, int t, int part)
{
    (void)e; (void)t;
    en_emitter *em = &ms->em;
    if (!em->stage) return GS_OK;
    const en_problem *p = ms->p;
    long D = p->D, lo = part ? em->xsplit : 0, hi = part ? em->xn : em->xsplit;
    if (lo >= hi) return GS_OK;
    int fl = !em->keep || p->single; /* float rows for a float E, and for the dual's in single */
    gm_mat h = {0};
    int rc = fl ? gm_alloc_f(&h, XCAP, D, "synthetic rows") : gm_alloc(&h, XCAP, D, "synthetic rows");
    for (long i0 = lo; !rc && i0 < hi; i0 += XCAP) {
        long nb = hi - i0 < XCAP ? hi - i0 : XCAP;
        if (fl) rc = en_expand_rows_f(p, gm_row(&em->xbuf, i0), nb, h.f);
        else en_expand_rows(p, gm_row(&em->xbuf, i0), nb, h.v);
        for (long k = 0; !rc && k < nb; k++)
            rc = stage_put(em, i0 + k, fl ? NULL : gm_row(&h, k), fl ? gm_rowf(&h, k) : NULL);
    }
    gm_free(&h);
    return rc;
}

/* The learner's class weight of class c (1 without class_weight). */
static double class_w(const en_emitter *em, int c)
{
    return em->ms->cw && c >= 0 && c < em->ms->p->C ? em->ms->cw[c] : 1.0;
}

/* The staging buffer (em->stage) twice as large. */
static int stage_grow(en_emitter *em)
{
    void *x = em->xbuf.v;
    int rc = en_rows_reserve(&x, (size_t)em->ms->p->d * sizeof(double), &em->xlab, &em->xw, &em->xcap, 2 * em->xcap,
                          "synthetic rows");
    em->xbuf.v = x;
    em->xbuf.rows = em->xcap;
    return rc;
}

int en_emit_x(en_emitter *em, const double *x, int c, double omega)
{
    const en_problem *p = em->ms->p;
    int rc = collect_x(em, x, c, omega);
    if (rc) return rc;
    omega *= class_w(em, c);
    if (p->D == p->d && !p->R.v) return emit_row(em, x, NULL, c, omega);
    if (!em->xbuf.v) {
        int rc = gm_alloc(&em->xbuf, XCAP, p->d, "synthetic rows");
        /* float rows for a float E, and for the dual's rows in single precision */
        int fl = em->buf.f || (em->keep && p->single);
        if (!rc && !em->stage)
            rc = fl ? gm_alloc_f(&em->hbuf, XCAP, p->D, "synthetic rows") : gm_alloc(&em->hbuf, XCAP, p->D, "synthetic rows");
        em->xlab = gs_malloc(XCAP, sizeof(int), "synthetic rows");
        em->xw = gs_malloc(XCAP, sizeof(double), "synthetic rows");
        if (rc || !em->xlab || !em->xw) { emit_x_free(em); return GS_ENOMEM; }
        em->xcap = XCAP;
    }
    if (em->stage) { /* checked now (emit_row's checks), expanded by the EXP jobs */
        if (row_args_ok(em, c, omega)) return GS_ERUN;
        if (em->xn == em->xcap && stage_grow(em)) return GS_ENOMEM;
    } else if (em->xn == XCAP && emit_x_flush(em)) {
        return GS_ERUN;
    }
    memcpy(gm_row(&em->xbuf, em->xn), x, (size_t)p->d * sizeof(double));
    em->xlab[em->xn] = c;
    em->xw[em->xn] = omega;
    em->xn++;
    return GS_OK;
}

int en_emit_mix_ok(const en_emitter *em)
{
    const en_problem *p = em->ms->p;
    return em->E && !em->E->f && p->D == p->d && !p->R.v && p->h.v == p->z.v;
}

/* Pairs accumulate into Y (rows lo..hi-1 of p->z, the current task's rows): Y_i += ω a h,
 * Y_j += ω b h, so that Zᵀ Y = Σ ω (a z_i + b z_j) hᵀ = Σ ω h hᵀ; pair_flush forms E += Zᵀ Y.
 * A pair outside the task's rows goes the row way (en_emit). */
int en_emit_mix(en_emitter *em, long i, long j, double a, double b, int c, double omega, const double *h)
{
    const en_problem *p = em->ms->p;
    long D = p->D;
    if (!en_emit_mix_ok(em)) return gs_error(GS_ERUN, "%s: row pairs need a ridge learner in the unexpanded feature space", em->ms->name);
    if (!h) return gs_error(GS_ERUN, "%s: en_emit_mix needs the mixed row", em->ms->name);
    if (!(omega >= 0) || !isfinite(omega) || !isfinite(a) || !isfinite(b))
        return gs_error(GS_ERUN, "%s: invalid mixing weights", em->ms->name);
    if (c < 0 || c >= p->C) return gs_error(GS_ERUN, "%s: label %d out of range", em->ms->name, c);
    int rc = collect_x(em, h, c, omega);
    if (rc) return rc;
    omega *= class_w(em, c);
    if (i < em->ylo || j < em->ylo || i >= em->yhi || j >= em->yhi) return emit_row(em, h, NULL, c, omega);
    if (!isfinite(cblas_ddot((int)D, h, 1, h, 1))) /* Σh² finite ⇔ no NaN/∞ (short of overflow) */
        for (long k = 0; k < D; k++)
            if (!isfinite(h[k])) return gs_error(GS_ERUN, "%s: a synthetic row is not finite", em->ms->name);
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

void en_pair_flush_part(en_emitter *em, int part)
{
    const en_problem *p = em->ms->p;
    long D = p->D, nr = em->yhi - em->ylo, lo, hi;
    if (part == 0 && em->stage) emit_x_free(em); /* the staged rows are mapped (the EXP jobs): their
                                                  * memory goes before E's update (part 1 reads
                                                  * none of these fields) */
    if (em->defer && em->E) { gr_rows_part(em->E, &em->buf, 0, em->n, part); return; }
    if (!em->Y || em->ny == 0 || !em->E) return;
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

/* ---- a task's synthetic rows ---------------------------------------------------------- */

static void emitter_free(en_emitter *em);

static int emitter_open(en_engine *e, mstate *ms, int t, gm_mat *E, gm_mat *QE)
{
    const en_problem *p = ms->p;
    en_emitter *em = &ms->em;
    emitter_free(em); /* what an update cancelled between a task's EXTRA and XEND left */
    emit_x_free(em);
    memset(em, 0, sizeof *em);
    em->e = e; em->ms = ms; em->E = E; em->QE = QE;
    em->cap = 512;
    em->ylo = p->task_row_start[t];
    em->yhi = p->task_row_start[t + 1];
    int rc = E && E->f ? gm_alloc_f(&em->buf, em->cap, p->D, "synthetic rows") : gm_alloc(&em->buf, em->cap, p->D, "synthetic rows");
    em->lab = gs_malloc((size_t)em->cap, sizeof(int), "synthetic rows");
    em->w = gs_malloc((size_t)em->cap, sizeof(double), "synthetic rows");
    return rc || !em->lab || !em->w ? GS_ENOMEM : GS_OK;
}

static void emitter_free(en_emitter *em)
{
    gm_free(&em->buf); free(em->lab); free(em->w);
    em->lab = NULL; em->w = NULL;
    em->n = 0;
}

/* After the rows: staged rows emitted, the buffer added to E (unless deferred to the PAIRS jobs:
 * then it is kept until en_extra_end, or freed now on an error). */
static int emitter_close(en_emitter *em, int rc)
{
    if (!rc) rc = em->stage ? stage_finish(em) : emit_x_flush(em);
    if (!rc && !em->defer) rc = emit_flush(em);
    if (rc || !em->defer) emitter_free(em);
    if (rc || !em->stage) emit_x_free(em);
    return rc;
}

/* Start task t's slot of a cumulative pair (M, QM): zero at task 0, else a copy of task t-1's
 * when every task is kept (one slot otherwise, or the rolling slot: it already holds task t-1). */
static void slot_begin(en_engine *e, gm_mat *M, gm_mat *QM, int t)
{
    int s = en_slot(e, t);
    if (t == 0) { gr_zero(&M[s]); gr_zero(&QM[s]); }
    else if (e->keep && !e->roll) { gr_copy(&M[s], &M[t - 1]); gr_copy(&QM[s], &QM[t - 1]); }
}

/* The own base Gram of a learner with class weights: task t's real rows, row i weighted cw[y_i]
 * (emitted one class at a time, in stream order). */
static int own_base_rows(en_engine *e, mstate *ms, int t)
{
    const en_problem *p = ms->p;
    const st_stream *st = p->st;
    int s = en_slot(e, t);
    slot_begin(e, ms->OB, ms->OQB, t);
    int rc = emitter_open(e, ms, t, &ms->OB[s], &ms->OQB[s]);
    ms->em.base = 1;
    for (int k = st->task_class_start[t]; !rc && k < st->task_class_start[t + 1]; k++) {
        int c = st->class_order[k];
        long first = st->class_row_start[c];
        for (long i = 0; !rc && i < st->class_kept[c]; i++)
            rc = p->single ? emit_row(&ms->em, NULL, gm_rowf(&p->hf, first + i), c, ms->cw[c])
                           : emit_row(&ms->em, gm_row(&p->h, first + i), NULL, c, ms->cw[c]);
    }
    rc = emitter_close(&ms->em, rc);
    gr_symmetrize(&ms->OB[s]);
    return rc;
}

int en_extra_rows(en_engine *e, mstate *ms, int t, en_rowbuf *keep)
{
    if (t == 0 && !ms->again) { ms->collect.n = 0; ms->collect.X.rows = 0; }
    int rc = GS_OK;
    /* rows kept (for the dual): neither E nor the own base is accumulated */
    if (ms->cw && !keep && (rc = own_base_rows(e, ms, t))) return rc;
    gm_mat *E = NULL, *QE = NULL;
    if (ms->E && !keep) {
        int s = en_slot(e, t);
        slot_begin(e, ms->E, ms->QE, t);
        E = &ms->E[s]; QE = &ms->QE[s];
    }
    ms->aug.n = 0;
    ms->aug.X.rows = 0;
    rc = emitter_open(e, ms, t, E, QE);
    /* single precision: E += the rows' Gram in the PAIRS jobs, two halves in parallel */
    ms->em.defer = !rc && E && E->f;
    if (!rc) ms->em.keep = keep;
    /* with a map to the learner's space (--expand), rows for a float E or for the dual are staged
     * here and mapped by the two EXP jobs (the product with R is most of the work) */
    ms->em.stage = !rc && (ms->em.defer || ms->em.keep) && !(ms->p->D == ms->p->d && !ms->p->R.v);
    if (!rc && ms->aug_def) rc = ms->aug_def->rows(&ms->actx, t, &ms->em);
    rc = emitter_close(&ms->em, rc);
    if (rc) return rc;
    /* the counts now: whether task t is solved in the dual (en_dual_mode) depends on them, and the
     * PAIRS jobs that follow need to know */
    ms->aug_rows[t] = (t ? ms->aug_rows[t - 1] : 0) + ms->em.rows;
    ms->skip_cls[t] = (t ? ms->skip_cls[t - 1] : 0) + ms->em.skip_cls;
    ms->skip_pairs[t] = (t ? ms->skip_pairs[t - 1] : 0) + ms->em.skip_pairs;
    return GS_OK;
}

void en_extra_end(en_engine *e, mstate *ms, int t)
{
    (void)e;
    en_emitter *em = &ms->em;
    em->Y = NULL;
    if (em->defer) emitter_free(em);
    if (em->stage) emit_x_free(em);
    em->defer = em->stage = 0;
    if (t == ms->p->T - 1) { /* the last task: give the memory back before its spectrum */
        free(ms->ybuf);
        ms->ybuf = NULL;
        ms->ybytes = 0;
    }
    if (em->E) gr_symmetrize(em->E);
}
