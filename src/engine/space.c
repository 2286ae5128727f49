/* engine/space.c — the feature spaces of an engine (en_space in engine_int.h): the problem seen through
 * each distinct feature map its learners ask for (gs_learner.h, en_map_kind). The run's own space
 * (identity or --expand) is the problem itself; another map gets a shallow copy of the problem
 * with its own D, R and mapped training, test and validation rows. */
#include "engine_int.h"
#include "gs_common.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The map a learner asks for as (relu, D): relu = 0 is the identity (D = d). */
static void learner_map(const en_problem *p, const en_learner *L, int *relu, long *D)
{
    int run_relu = p->R.v != NULL;
    switch (L->map) {
    case EN_MAP_IDENTITY: *relu = 0; *D = p->d; break;
    case EN_MAP_RELU: *relu = 1; *D = run_relu ? p->D : L->map_dim; break;
    default: *relu = run_relu; *D = p->D; break;
    }
}

/* fl32 copy of the test rows for the screened predictions, when small enough (else NULL). */
static int space_test_f(en_problem *q)
{
    long nt = q->test_h.rows;
    if (q->single) return GS_OK; /* test_f holds the rows (space_build) */
    if (gm_bytes(nt, q->D) / 2 > EN_TEST_F_MAX) return GS_OK;
    q->test_f = gs_malloc((size_t)(nt ? nt : 1) * (size_t)q->D, sizeof(float), "test rows");
    q->test_fn = gs_malloc((size_t)(nt ? nt : 1), sizeof(double), "test rows");
    if (!q->test_f || !q->test_fn) return GS_ENOMEM;
    for (long i = 0; i < nt; i++) q->test_fn[i] = gm_to_float(gm_row(&q->test_h, i), q->D, q->test_f + (size_t)i * q->D);
    return GS_OK;
}

/* A space for the map (relu, D) of the problem p. */
static int space_build(en_space *s, const en_problem *p, int relu, long D, int lean)
{
    en_problem *q = &s->pm;
    *q = *p;
    q->D = D;
    memset(&q->R, 0, sizeof q->R);
    memset(&q->Rf, 0, sizeof q->Rf);
    memset(&q->hf, 0, sizeof q->hf);
    q->test_f = NULL;
    q->test_fn = NULL;
    s->own_rows = 1;
    if (!relu) { /* the problem's rows before its map: aliases, not owned (only test_f, test_fn) */
        q->single = 0; /* the stats learners' space: their own double arithmetic */
        q->h = p->z; q->test_h = p->test_z; q->val_h = p->val_z;
        s->own_rows = 2;
        return space_test_f(q);
    }
    memset(&q->h, 0, sizeof q->h); memset(&q->test_h, 0, sizeof q->test_h); memset(&q->val_h, 0, sizeof q->val_h);
    int rc = en_draw_projection(&q->R, D, p->d, p->projection, p->seed);
    if (!rc && p->val_z.rows) rc = gm_alloc(&q->val_h, p->val_z.rows, D, "projected validation rows");
    if (!rc && q->single) { /* float rows and test rows only (the validation rows stay double) */
        long nt = p->test_z.rows;
        rc = gm_alloc_f(&q->Rf, D, p->d, "projection matrix");
        if (!rc) rc = gm_alloc_f(&q->hf, p->z.rows, D, "projected rows");
        q->test_f = rc ? NULL : gs_malloc((size_t)(nt ? nt : 1) * (size_t)D, sizeof(float), "test rows");
        q->test_fn = rc ? NULL : gs_calloc((size_t)(nt ? nt : 1), sizeof(double), "test rows");
        if (rc || !q->test_f || !q->test_fn) return rc ? rc : GS_ENOMEM;
        for (size_t i = 0; i < (size_t)D * (size_t)p->d; i++) q->Rf.f[i] = (float)q->R.v[i];
        q->h.rows = p->z.rows; q->h.cols = D;
        q->test_h.rows = nt; q->test_h.cols = D;
        if (p->z.rows && (rc = en_expand_rows_f(q, p->z.v, p->z.rows, q->hf.f))) return rc;
        if (nt && (rc = en_expand_rows_f(q, p->test_z.v, nt, q->test_f))) return rc;
        if (p->val_z.rows) en_expand_rows(q, p->val_z.v, p->val_z.rows, q->val_h.v);
        return GS_OK;
    }
    if (!rc) rc = gm_alloc(&q->h, p->z.rows, D, "projected rows");
    /* lean: the test rows are mapped where they are scored (ridge.c, predict_mapped) */
    if (!rc && lean) { q->test_h.rows = p->test_z.rows; q->test_h.cols = D; }
    else if (!rc) rc = gm_alloc(&q->test_h, p->test_z.rows, D, "projected test rows");
    if (rc) return rc;
    gs_advise_huge(q->h.v, (size_t)q->h.rows * (size_t)D * sizeof(double));
    if (lean) { /* the rows a task at a time, as the jobs need them (en_space_rows) */
        s->lazy = 1;
        s->rows_ready = s->rows_dead = 0;
        pthread_mutex_init(&s->rows_mu, NULL);
    } else if (p->z.rows) en_expand_rows(q, p->z.v, p->z.rows, q->h.v);
    if (p->test_z.rows && q->test_h.v) en_expand_rows(q, p->test_z.v, p->test_z.rows, q->test_h.v);
    if (p->val_z.rows) en_expand_rows(q, p->val_z.v, p->val_z.rows, q->val_h.v);
    return q->test_h.v ? space_test_f(q) : GS_OK;
}

void en_space_rows(en_space *s, long b)
{
    if (!s->lazy) return;
    en_problem *q = &s->pm;
    pthread_mutex_lock(&s->rows_mu);
    if (b > q->h.rows) b = q->h.rows;
    if (b > s->rows_ready) {
        en_expand_rows(q, gm_row(&q->z, s->rows_ready), b - s->rows_ready, gm_row(&q->h, s->rows_ready));
        s->rows_ready = b;
    }
    pthread_mutex_unlock(&s->rows_mu);
}

void en_space_release(en_space *s, long b)
{
    if (!s->lazy) return;
    en_problem *q = &s->pm;
    pthread_mutex_lock(&s->rows_mu);
    if (b > s->rows_ready) b = s->rows_ready;
    if (b > s->rows_dead) {
        /* the whole pages inside rows [rows_dead, b): the kernel takes them back (read again
         * they would be zeros: no job reads them) */
        uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t lo = (uintptr_t)gm_row(&q->h, s->rows_dead), hi = (uintptr_t)gm_row(&q->h, b);
        lo = (lo + pg - 1) / pg * pg;
        hi = hi / pg * pg;
        if (hi > lo) madvise((void *)lo, hi - lo, MADV_DONTNEED);
        s->rows_dead = b;
    }
    pthread_mutex_unlock(&s->rows_mu);
}

void en_space_free(en_space *s)
{
    en_problem *q = &s->pm;
    if (s->lazy) { pthread_mutex_destroy(&s->rows_mu); s->lazy = 0; }
    if (s->own_rows == 1) { gm_free(&q->R); gm_free(&q->Rf); gm_free(&q->hf); gm_free(&q->h); gm_free(&q->test_h); gm_free(&q->val_h); }
    if (s->own_rows) { free(q->test_f); free(q->test_fn); }
    memset(q, 0, sizeof *q);
    s->own_rows = 0;
}

int en_space_find(en_engine *e, const en_learner *L, int *k)
{
    const en_problem *p = e->p;
    int relu, rrelu = p->R.v != NULL;
    long D;
    learner_map(p, L, &relu, &D);
    if (e->nsp == 0) { e->sp[0].pm = *p; e->nsp = 1; } /* space 0: the run's, not owned */
    for (int i = 0; i < e->nsp; i++) {
        const en_problem *q = &e->sp[i].pm;
        if ((i == 0 ? rrelu : q->R.v != NULL) == relu && q->D == D) { *k = i; return GS_OK; }
    }
    if (e->nsp == EN_MAX_SPACES) return gs_error(GS_EINPUT, "--methods: at most %d different feature maps", EN_MAX_SPACES);
    int rc = space_build(&e->sp[e->nsp], p, relu, D, e->cfg.lean_test_rows);
    if (rc) { en_space_free(&e->sp[e->nsp]); return rc; }
    *k = e->nsp++;
    return GS_OK;
}
