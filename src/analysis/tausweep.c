/* analysis/tausweep.c — accuracy and stable rank against τ from one eigendecomposition (gs_tausweep.h). */
#include "gs_tausweep.h"
#include "gs_common.h"
#include "gs_spectral.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ts_log_grid(double lo, double hi, int n, double *out)
{
    if (n == 1) { out[0] = lo; return; }
    double a = log10(lo), b = log10(hi);
    for (int i = 0; i < n; i++) out[i] = pow(10.0, a + (b - a) * (double)i / (double)(n - 1));
}

void ts_free(ts_curve *c)
{
    free(c->tau); free(c->tau_eff); free(c->acc); free(c->head_acc); free(c->tail_acc);
    free(c->stable_rank); free(c->lambda);
    free(c->val_acc); free(c->val_head_acc); free(c->val_tail_acc);
    memset(c, 0, sizeof *c);
}

static int curve_alloc(ts_curve *c, int n, long D)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->D = D;
    c->best = -1;
    c->tau = gs_malloc((size_t)n, sizeof(double), "τ sweep");
    c->tau_eff = gs_malloc((size_t)n, sizeof(double), "τ sweep");
    c->acc = gs_malloc((size_t)n, sizeof(double), "τ sweep");
    c->head_acc = gs_malloc((size_t)n, sizeof(double), "τ sweep");
    c->tail_acc = gs_malloc((size_t)n, sizeof(double), "τ sweep");
    c->stable_rank = gs_malloc((size_t)n, sizeof(double), "τ sweep");
    c->lambda = gs_malloc((size_t)D, sizeof(double), "τ sweep");
    c->val_acc = gs_malloc((size_t)n, sizeof(double), "τ sweep");
    c->val_head_acc = gs_malloc((size_t)n, sizeof(double), "τ sweep");
    c->val_tail_acc = gs_malloc((size_t)n, sizeof(double), "τ sweep");
    if (!c->tau || !c->tau_eff || !c->acc || !c->head_acc || !c->tail_acc || !c->stable_rank || !c->lambda ||
        !c->val_acc || !c->val_head_acc || !c->val_tail_acc) {
        ts_free(c);
        return GS_ENOMEM;
    }
    return GS_OK;
}

/* pred[i] = the seen class of the largest score of row i of XU·Pt (first maximum wins). */
static void predict(const gm_mat *XU, long n, const gm_mat *Pt, int Cs, const st_stream *st, double *sc, int *pred)
{
    long D = XU->cols;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, Cs, (int)D, 1.0, XU->v, (int)D, Pt->v, Cs, 0.0,
                sc, Cs);
    en_argmax_seen(st, sc, n, Cs, pred);
}

/* XU = X_test U for the first nt test rows: test_h, or in single precision (test_h.v NULL) its
 * float rows test_f, converted to double a block at a time. */
static int rows_times_u(const en_problem *p, long nt, const gm_mat *U, gm_mat *XU)
{
    long D = p->D;
    if (p->test_h.v) {
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)nt, (int)D, (int)D, 1.0, p->test_h.v, (int)D,
                    U->v, (int)D, 0.0, XU->v, (int)D);
        return GS_OK;
    }
    enum { NB = 512 };
    long nb0 = nt < NB ? nt : NB;
    double *x = gs_malloc((size_t)nb0 * (size_t)D, sizeof(double), "τ sweep");
    if (!x) return GS_ENOMEM;
    for (long i0 = 0; i0 < nt; i0 += NB) {
        long nb = nt - i0 < NB ? nt - i0 : NB;
        const float *f = p->test_f + (size_t)i0 * (size_t)D;
        for (size_t k = 0; k < (size_t)nb * (size_t)D; k++) x[k] = f[k];
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)nb, (int)D, (int)D, 1.0, x, (int)D, U->v,
                    (int)D, 0.0, gm_row(XU, i0), (int)D);
    }
    free(x);
    return GS_OK;
}

/* The grid of τ from G's eigenvalues out->lambda (r of them; `zeros` more that are 0, the dual's),
 * P (r × Cs: the eigenbasis's Q) and the rows in the eigenbasis XU (nt test rows × r), VU (nv
 * validation rows × r): per τ the scores XU diag(1/(λ+τ_eff)) P, accuracies, stable rank and the
 * best point (the first of equals). GS_OK, GS_ENOMEM, GS_ECANCEL or en_accuracy's error. */
static int sweep_grid(const en_problem *p, int task, long r, long zeros, const gm_mat *P, const gm_mat *XU, long nt,
                      const gm_mat *VU, long nv, const double *taus, const double *taus_eff, int n, ts_curve *out,
                      const volatile int *cancel)
{
    const st_stream *st = p->st;
    int Cs = st->task_class_start[task];
    long nmax = nt > nv ? nt : nv;
    gm_mat Pt = {0};
    int rc = gm_alloc(&Pt, r ? r : 1, Cs ? Cs : 1, "τ sweep");
    double *sc = gs_malloc((size_t)(nmax ? nmax : 1) * (size_t)(Cs ? Cs : 1), sizeof(double), "τ sweep");
    int *pred = gs_malloc((size_t)(nmax ? nmax : 1), sizeof(int), "τ sweep");
    if (rc || !sc || !pred) { rc = GS_ENOMEM; goto out; }
    out->best_by_val = nv > 0;
    double bestacc = -1;
    for (int g = 0; g < n; g++) {
        if (cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED)) { rc = GS_ECANCEL; goto out; } /* set by another thread */
        double tau = taus[g], te = taus_eff ? taus_eff[g] : taus[g];
        out->tau[g] = tau;
        out->tau_eff[g] = te;
        double l1 = out->lambda[0] + te, s2 = 0;
        int pd = 1;
        for (long i = 0; i < r; i++) {
            double l = out->lambda[i] + te;
            s2 += l * l;
            if (!(l > 0)) pd = 0;
        }
        if (zeros) { /* G's D − r zero eigenvalues (the dual) */
            s2 += (double)zeros * te * te;
            if (!(te > 0)) pd = 0;
        }
        out->stable_rank[g] = l1 != 0 ? s2 / (l1 * l1) : NAN;
        out->acc[g] = out->head_acc[g] = out->tail_acc[g] = NAN;
        out->val_acc[g] = out->val_head_acc[g] = out->val_tail_acc[g] = NAN;
        if (!pd || Cs == 0 || nt == 0) continue;
        for (long i = 0; i < r; i++) {
            double f = 1.0 / (out->lambda[i] + te);
            for (int k = 0; k < Cs; k++) Pt.v[i * Cs + k] = P->v[i * Cs + k] * f;
        }
        predict(XU, nt, &Pt, Cs, st, sc, pred);
        if ((rc = en_accuracy(p, task, pred, nt, &out->acc[g], &out->head_acc[g], &out->tail_acc[g], NULL)))
            goto out;
        if (nv > 0) {
            predict(VU, nv, &Pt, Cs, st, sc, pred);
            if ((rc = en_accuracy_of(p, task, p->val_y, pred, nv, &out->val_acc[g], &out->val_head_acc[g],
                                     &out->val_tail_acc[g], NULL)))
                goto out;
        }
        /* the best τ: by validation when there is a split, never by test then */
        double a = nv > 0 ? out->val_acc[g] : out->acc[g];
        if (a > bestacc) { bestacc = a; out->best = g; }
    }
    rc = GS_OK;
out:
    gm_free(&Pt);
    free(sc);
    free(pred);
    return rc;
}

int ts_compute_gq(const gm_mat *G, const gm_mat *Q, const en_problem *p, int task, const double *taus,
                  const double *taus_eff, int n, ts_curve *out, const volatile int *cancel)
{
    memset(out, 0, sizeof *out);
    if (task < 1 || task > p->T) return gs_error(GS_EINPUT, "τ sweep: task %d out of range 1..%d", task, p->T);
    if (n < 1) return gs_error(GS_EINPUT, "τ sweep: empty τ grid");
    long D = p->D;
    int C = p->C, t = task - 1;
    if (G->rows != D || G->cols != D || Q->rows != D || Q->cols != C)
        return gs_error(GS_EINPUT, "τ sweep: G must be %ld×%ld and Q %ld×%d", D, D, D, C);
    for (int i = 0; i < n; i++)
        if (!(taus[i] >= 0) || (taus_eff && !(taus_eff[i] >= 0)))
            return gs_error(GS_EINPUT, "τ sweep: τ must be ≥ 0");
    const st_stream *st = p->st;
    int Cs = st->task_class_start[t + 1];
    long nt = p->test_task_end[t];
    int rc = curve_alloc(out, n, D);
    if (rc) return rc;
    out->task = task;
    gm_mat U = {0}, Qs = {0}, P = {0}, XU = {0}, VU = {0};
    long nv = p->val_h.rows ? p->val_task_end[t] : 0; /* the seen validation rows */
    out->best_by_val = nv > 0;
    if ((rc = sp_eig(G, out->lambda, &U))) goto fail;
    if (cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED)) { rc = GS_ECANCEL; goto fail; } /* set by another thread */
    if ((rc = gm_alloc(&Qs, D, Cs ? Cs : 1, "τ sweep")) || (rc = gm_alloc(&P, D, Cs ? Cs : 1, "τ sweep")) ||
        (rc = gm_alloc(&XU, nt ? nt : 1, D, "τ sweep")) || (rc = gm_alloc(&VU, nv ? nv : 1, D, "τ sweep")))
        goto fail;
    for (long i = 0; i < D; i++)
        for (int k = 0; k < Cs; k++) Qs.v[i * Cs + k] = Q->v[i * C + st->class_order[k]];
    if (Cs > 0) {
        /* P = Uᵀ Q_seen (D×Cs); XU = X_test U (nt×D) */
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)D, Cs, (int)D, 1.0, U.v, (int)D, Qs.v, Cs, 0.0, P.v, Cs);
        if (nt > 0 && (rc = rows_times_u(p, nt, &U, &XU))) goto fail;
        if (nv > 0)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)nv, (int)D, (int)D, 1.0, p->val_h.v, (int)D,
                        U.v, (int)D, 0.0, VU.v, (int)D);
    }
    if ((rc = sweep_grid(p, task, D, 0, &P, &XU, nt, &VU, nv, taus, taus_eff, n, out, cancel))) goto fail;
    rc = GS_OK;
    goto done;
fail:
    ts_free(out);
done:
    gm_free(&U); gm_free(&Qs); gm_free(&P); gm_free(&XU); gm_free(&VU);
    return rc;
}

int ts_compute(en_engine *e, const en_problem *p, int method, int task, const double *taus, int n,
               ts_curve *out, const volatile int *cancel)
{
    memset(out, 0, sizeof *out);
    const en_results *r = en_get_results(e);
    if (method < 0 || method >= r->n_methods) return gs_error(GS_EINPUT, "τ sweep: no method %d", method);
    if (!r->m[method].ridge) return gs_error(GS_EINPUT, "τ sweep: %s is not a ridge method", r->m[method].name);
    if (n < 1) return gs_error(GS_EINPUT, "τ sweep: empty τ grid");
    double *te = gs_malloc((size_t)n, sizeof(double), "τ sweep");
    if (!te) return GS_ENOMEM;
    for (int i = 0; i < n; i++) te[i] = en_method_tau(e, method, task, taus[i]);
    const gm_mat *G, *Q;
    const en_problem *pm = p; /* the rows as this method sees them (its own map, e.g. ranpac's) */
    int rc = en_method_space(e, method, &pm);
    if (!rc) rc = en_gram(e, method, task, &G, &Q);
    if (!rc) rc = ts_compute_gq(G, Q, pm, task, taus, te, n, out, cancel);
    if (!rc) snprintf(out->method, sizeof out->method, "%s", r->m[method].name);
    free(te);
    return rc;
}

/* GS_TAU_SWEEP=eig: the search through G's eigendecomposition even when the dual serves (the
 * brute-force reference of tests/t_ranpac_lambda.sh). */
static int dual_allowed(void)
{
    const char *v = getenv("GS_TAU_SWEEP");
    return !(v && !strcmp(v, "eig"));
}

int ts_compute_fast(en_engine *e, const en_problem *p, int method, int task, const double *taus, int n,
                    ts_curve *out, const volatile int *cancel)
{
    memset(out, 0, sizeof *out);
    const en_problem *pm = p;
    int rc = en_method_space(e, method, &pm);
    if (rc || !dual_allowed()) return rc ? rc : ts_compute(e, p, method, task, taus, n, out, cancel);
    int t = task - 1;
    long nt = task >= 1 && task <= p->T ? pm->test_task_end[t] : 0, nv = pm->val_h.rows ? pm->val_task_end[t] : 0;
    en_rowsrc sets[2] = {{pm->test_h.v ? (const void *)pm->test_h.v : (const void *)pm->test_f, !pm->test_h.v, nt},
                         {pm->val_h.v, 0, nv}};
    gm_mat P = {0}, XV[2] = {{0}, {0}};
    double *mu = NULL, *te = NULL;
    long N = 0;
    rc = en_dual_eig(e, method, task, sets, 2, &N, &mu, &P, XV);
    if (rc == GS_EINPUT) return ts_compute(e, p, method, task, taus, n, out, cancel); /* in the primal */
    if (!rc && (te = gs_malloc((size_t)n, sizeof(double), "τ sweep")) == NULL) rc = GS_ENOMEM;
    if (!rc && !(rc = curve_alloc(out, n, pm->D))) {
        out->task = task;
        for (int i = 0; i < n; i++) te[i] = en_method_tau(e, method, task, taus[i]);
        for (long i = 0; i < pm->D; i++) out->lambda[i] = i < N ? mu[i] : 0;
        rc = sweep_grid(pm, task, N, pm->D - N, &P, &XV[0], nt, &XV[1], nv, taus, te, n, out, cancel);
        if (!rc) snprintf(out->method, sizeof out->method, "%s", en_get_results(e)->m[method].name);
        else ts_free(out);
    }
    free(te);
    free(mu);
    gm_free(&P);
    gm_free(&XV[0]);
    gm_free(&XV[1]);
    return rc;
}
