/* test_estimates.c — the labelled estimates (EN_LMAX_EST / EN_LMIN_EST) against exact LAPACK:
 * sp_lanczos_extremes on several matrices, each estimate within its stated error bound of the
 * dsyevd eigenvalue, and the engine's per-task λ_max/λ_min estimates against the exact
 * eigenvalues of the same G (interactive engine, tasks before the last). */
#include "gs_common.h"
#include "gs_engine.h"
#include "gs_opts.h"
#include "gs_pipeline.h"
#include "gs_spectral.h"
#include "support/tap.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

#define MAXIT 120 /* as the engine */
#define TOL 1e-10

/* slack for rounding in the exact eigenvalues themselves */
static double slack(double lmax) { return 1e-9 * (fabs(lmax) > 1 ? fabs(lmax) : 1); }

static void check_matrix(const gm_mat *G, const char *what)
{
    long n = G->rows;
    double *w = malloc((size_t)n * sizeof *w);
    double lmax, emax, lmin, emin;
    CHECK(w != NULL, "%s: alloc", what);
    if (!w) return;
    CHECK(sp_eigvals(G, w) == GS_OK, "%s: dsyevd", what);
    int rc = sp_lanczos_extremes(G, MAXIT, TOL, &lmax, &emax, &lmin, &emin);
    CHECK(rc == GS_OK, "%s: Lanczos runs", what);
    double s = slack(w[0]);
    CHECK(isfinite(emax) && emax >= 0 && isfinite(emin) && emin >= 0, "%s: bounds finite (%g, %g)", what, emax, emin);
    CHECK(fabs(lmax - w[0]) <= emax + s, "%s: λmax %.15g vs exact %.15g, bound %g", what, lmax, w[0], emax);
    CHECK(fabs(lmin - w[n - 1]) <= emin + s, "%s: λmin %.15g vs exact %.15g, bound %g", what, lmin, w[n - 1], emin);
    /* Ritz values lie inside the spectrum */
    CHECK(lmax <= w[0] + s && lmin >= w[n - 1] - s, "%s: Ritz values inside [λmin, λmax]", what);
    /* the stated bounds are useful (converged) for these sizes */
    CHECK(emax <= 1e-6 * fabs(w[0]) + s, "%s: λmax bound %g small", what, emax);
    free(w);
}

/* G = XᵀX for X (rows × cols) Gaussian, columns scaled by `decay`^j. */
static void gram(gm_mat *G, long rows, long cols, double decay, unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    double *X = malloc((size_t)rows * cols * sizeof *X);
    for (long i = 0; i < rows; i++)
        for (long j = 0; j < cols; j++) X[i * cols + j] = gsl_ran_gaussian(r, 1.0) * pow(decay, (double)j);
    gm_alloc(G, cols, cols, "test");
    for (long a = 0; a < cols; a++)
        for (long b = a; b < cols; b++) {
            double s = 0;
            for (long i = 0; i < rows; i++) s += X[i * cols + a] * X[i * cols + b];
            G->v[a * cols + b] = G->v[b * cols + a] = s;
        }
    free(X);
    gsl_rng_free(r);
}

static void matrices(void)
{
    gm_mat G = {0};
    gram(&G, 40, 150, 1.0, 1);          /* rank-deficient: 40 rows, 150 columns, λmin = 0 */
    check_matrix(&G, "XᵀX 40×150 (rank 40)");
    gm_free(&G);
    gram(&G, 400, 120, 1.0, 2);         /* full rank, well conditioned */
    check_matrix(&G, "XᵀX 400×120");
    gm_free(&G);
    gram(&G, 300, 100, 0.96, 3);        /* decaying columns: ill conditioned */
    check_matrix(&G, "XᵀX 300×100 decaying");
    gm_free(&G);
    gram(&G, 545, 768, 1.0, 4);         /* paper-scale first task shape */
    check_matrix(&G, "XᵀX 545×768");
    gm_free(&G);
    /* diagonal with a tight top gap and a repeated smallest eigenvalue */
    long n = 200;
    gm_alloc(&G, n, n, "test");
    memset(G.v, 0, (size_t)n * n * sizeof(double));
    for (long i = 0; i < n; i++) G.v[i * n + i] = i < 3 ? 0.5 : 1.0 + (double)i / n;
    G.v[(n - 1) * n + n - 1] = 2.0 + 1e-3;
    check_matrix(&G, "diagonal, gap 1e-3 at the top");
    /* symmetric indefinite: shift the diagonal matrix */
    for (long i = 0; i < n; i++) G.v[i * n + i] -= 1.2;
    check_matrix(&G, "indefinite");
    /* 1×1 and an all-zero matrix */
    gm_free(&G);
    gm_alloc(&G, 1, 1, "test");
    G.v[0] = 3.5;
    check_matrix(&G, "1×1");
    gm_free(&G);
    gm_alloc(&G, 30, 30, "test");
    memset(G.v, 0, 900 * sizeof(double));
    check_matrix(&G, "zero");
    gm_free(&G);
}

/* The engine's labelled per-task estimates against exact eigenvalues of the same G + τI. */
static void engine(void)
{
    char *argv[] = {"gsrscope", "run", "--synthetic", "--tasks", "4", "--tau", "0.05", NULL};
    op_opts o;
    CHECK(op_parse(&o, 7, argv) == GS_OK, "options: %s", gs_last_error());
    en_config cfg = {0};
    cfg.methods = (const char **)o.methods;
    cfg.n_methods = o.n_methods;
    cfg.spectrum = OP_SPECTRUM_FINAL;
    cfg.keep_task_grams = 1;
    pl_ctx c;
    int rc = pl_open(&c, &o, &cfg, NULL, NULL);
    CHECK(rc == GS_OK, "pl_open: %s", gs_last_error());
    if (rc) return;
    rc = en_update(c.eng, &o.params, 1, NULL, NULL, NULL);
    CHECK(rc == GS_OK, "en_update: %s", gs_last_error());
    const en_results *r = en_get_results(c.eng);
    long D = c.prob.D;
    double *w = malloc((size_t)D * sizeof *w);
    for (int m = 0; !rc && m < r->n_methods; m++)
        for (int t = 1; t <= r->T; t++) {
            const en_snap *s = &r->m[m].snaps[t - 1];
            /* exact at the last task and at the focused task (en_update's first_task = 1) */
            int last = t == r->T || t == 1;
            CHECK(s->state == EN_DONE, "%s task %d done", r->m[m].name, t);
            CHECK(!!(s->flags & EN_LMAX_EST) == !last && !!(s->flags & EN_LMIN_EST) == !last,
                  "%s task %d: estimates labelled (flags %u)", r->m[m].name, t, s->flags);
            CHECK(!!(s->flags & EN_SPECTRUM) == last, "%s task %d: exact spectrum only at the last and the focused task", r->m[m].name, t);
            const gm_mat *G, *Q;
            if (en_gram(c.eng, m, t, &G, &Q) || sp_eigvals(G, w)) { CHECK(0, "exact spectrum: %s", gs_last_error()); continue; }
            double tau = o.params.tau, sl = slack(w[0]);
            CHECK(fabs(s->lambda_max - (w[0] + tau)) <= s->lmax_err + sl, "%s task %d: λmax %.12g vs %.12g (bound %g)",
                  r->m[m].name, t, s->lambda_max, w[0] + tau, s->lmax_err);
            CHECK(fabs(s->lambda_min - (w[D - 1] + tau)) <= s->lmin_err + sl, "%s task %d: λmin %.12g vs %.12g (bound %g)",
                  r->m[m].name, t, s->lambda_min, w[D - 1] + tau, s->lmin_err);
            if (last) CHECK(s->lmax_err == 0 && s->lmin_err == 0, "exact values carry no error bound");
            /* stable rank from the estimate agrees with the exact one to the estimate's accuracy */
            double S = 0;
            for (long i = 0; i < D; i++) S += (w[i] + tau) * (w[i] + tau);
            double sr = S / ((w[0] + tau) * (w[0] + tau));
            CHECK(fabs(s->stable_rank - sr) <= sr * (2 * s->lmax_err / (w[0] + tau) + 1e-9),
                  "%s task %d: stable rank %.12g vs %.12g", r->m[m].name, t, s->stable_rank, sr);
        }
    free(w);
    pl_free(&c);
}

int main(void)
{
    matrices();
    engine();
    return tap_done();
}
