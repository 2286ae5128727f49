/* ridge_dual.c — the N-dimensional dual of a ridge method's solve (gs_rsolve.h): when to use it
 * and the solve itself, for ridge.c. State: engine_int.h (ms->dual). */
#include "engine_int.h"
#include "gs_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The first N real rows of the problem as doubles, row 0 first (the tasks so far): the one place
 * this file reads the rows. p->h; in single precision (p->h.v NULL, the rows float in p->hf)
 * double copies of them in ms->hd, extended as tasks arrive. NULL when out of memory. */
static const double *real_rows(const en_problem *p, mstate *ms, long N)
{
    if (!p->single) return p->h.v;
    if (ms->hd.rows < N) {
        long have = ms->hd.rows;
        double *v = realloc(ms->hd.v, (size_t)N * (size_t)p->D * sizeof(double));
        if (!v) { gs_error(GS_ENOMEM, "dual rows: out of memory"); return NULL; }
        ms->hd.v = v;
        for (size_t i = (size_t)have * p->D; i < (size_t)N * p->D; i++) v[i] = p->hf.f[i];
        ms->hd.rows = N;
        ms->hd.cols = p->D;
    }
    return ms->hd.v;
}

/* The dual instead of the D×D Cholesky when G_t is the Gram of at most D/2 real rows with unit
 * weights (a learner without class weights and without augmenter: its rows are the first N of
 * p->h) and D ≥ EN_DUAL_MIN_D: W = Hᵀ(HHᵀ + τI)⁻¹Y costs N²D + N³/3 instead of D³/3 (at
 * D = 5000 and N = 1835, 0.1 s of one core instead of 1 s). The kernel and its factor stay in
 * ms->dual from task to task: task t's rows are a prefix of task t+1's. */
int en_dual_ok(const en_engine *e, const mstate *ms, int t)
{
    return e->p->D >= EN_DUAL_MIN_D && !ms->E && en_shares_base(ms) && 2 * e->p->task_row_start[t + 1] <= e->p->D;
}

int en_solve_dual(en_engine *e, mstate *ms, int t, double tau, char *why, size_t nwhy)
{
    const en_problem *p = e->p;
    long N = p->task_row_start[t + 1];
    int Cs = p->st->task_class_start[t + 1], C = p->C;
    const double *X = real_rows(p, ms, N);
    if (!X) goto fail;
    if (!ms->dual) {
        if (!(ms->dual = gs_malloc(1, sizeof(rs_dual), "dual kernel"))) goto fail;
        rs_dual_init(ms->dual, p->D);
    }
    if (ms->dual->n < N && rs_dual_append(ms->dual, X, N)) goto fail;
    if (rs_dual_factor(ms->dual, N, tau)) goto fail;
    int *pos = gs_malloc((size_t)C + (size_t)N, sizeof(int), "dual labels"), *col = pos + C;
    double *work = gs_malloc((size_t)N * (size_t)Cs + 1, sizeof(double), "dual solve");
    int rc = pos && work ? GS_OK : GS_ENOMEM;
    if (!rc) {
        for (int c = 0; c < C; c++) pos[c] = -1;
        for (int k = 0; k < Cs; k++) pos[p->st->class_order[k]] = k;
        for (long i = 0; i < N; i++) col[i] = pos[p->y[i]];
        rc = rs_dual_solve(ms->dual, N, X, col, NULL, Cs, ms->Wt.v, work);
    }
    free(pos);
    free(work);
    if (rc) goto fail;
    for (size_t i = 0; i < (size_t)Cs * (size_t)p->D; i++)
        if (!isfinite(ms->Wt.v[i])) { snprintf(why, nwhy, "the solution W is not finite; raise --tau"); return GS_ERUN; }
    return GS_OK;
fail:
    snprintf(why, nwhy, "%s", gs_last_error());
    return GS_ERUN;
}
