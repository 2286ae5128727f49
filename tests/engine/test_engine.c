/* test_engine.c — the ridge core, GSR and the retuning caches against independent computations. */
#include "tap.h"
#include "problem.h"
#include "gs_argmax.h"
#include "gs_common.h"
#include "gs_mtable.h"
#include "gs_engine.h"
#include "gs_learner.h"
#include "gs_methods.h"
#include "gs_pipeline.h"
#include "gs_rng.h"
#include "gs_spectral.h"

#include <gsl/gsl_randist.h>
#include <lapacke.h>
#include <math.h>
#include <pthread.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

static op_params defaults(void)
{
    op_params q = {0};
    q.alpha_base = 0.6; q.xi = 5e-3; q.beta = 1.0; q.tau = 0.01; q.seed = 1;
    q.pairs = OP_PAIRS_ALL; q.max_aug = 1000; q.augment = OP_AUG_ALL;
    q.gauss_a = 0.1; q.gauss_b = 1; q.slda_eps = 1e-4;
    return q;
}

static en_engine *make_engine(const en_problem *p, int keep, int collect, const char **names, int nm)
{
    en_config cfg = {0};
    cfg.methods = names; cfg.n_methods = nm; cfg.spectrum = OP_SPECTRUM_FINAL; mt_resolve(&cfg);
    cfg.keep_task_grams = keep; cfg.collect_aug = collect;
    en_engine *e = NULL;
    int rc = en_create(&e, p, &cfg);
    CHECK(rc == GS_OK, "en_create: %s", gs_last_error());
    return e;
}

/* Joint ridge on all stream rows with naive loops and an LU solve (no Cholesky). */
static void joint_ridge(const en_problem *p, double tau, double *W /* D×C */)
{
    long D = p->D, n = p->h.rows;
    int C = p->C;
    double *A = calloc((size_t)D * D, sizeof(double));
    for (long i = 0; i < n; i++) {
        const double *h = gm_row(&p->h, i);
        for (long a = 0; a < D; a++) for (long b = 0; b < D; b++) A[a * D + b] += h[a] * h[b];
        for (long a = 0; a < D; a++) W[a * C + p->y[i]] += h[a];
    }
    for (long a = 0; a < D; a++) A[a * D + a] += tau;
    lapack_int *ipiv = malloc(sizeof(lapack_int) * D);
    lapack_int info = LAPACKE_dgesv(LAPACK_ROW_MAJOR, (lapack_int)D, C, A, (lapack_int)D, ipiv, W, C);
    CHECK(info == 0, "dgesv info %d", (int)info);
    free(A); free(ipiv);
}

static void test_joint(void)
{
    tp_problem tp;
    CHECK(tp_make(&tp, 6, 12, 8, 5, 10, 3, 3, 0) == 0, "problem: %s", gs_last_error());
    const char *names[] = {"gacl"};
    en_engine *e = make_engine(&tp.prob, 0, 0, names, 1);
    op_params q = defaults();
    q.tau = 0.05;
    CHECK(en_update(e, &q, 1, NULL, NULL, NULL) == GS_OK, "update: %s", gs_last_error());
    gm_mat W = {0};
    CHECK(en_solve_w(e, 0, tp.prob.T, &W) == GS_OK, "solve: %s", gs_last_error());
    long D = tp.prob.D;
    int C = tp.prob.C;
    double *Wj = calloc((size_t)D * C, sizeof(double));
    joint_ridge(&tp.prob, q.tau, Wj);
    CHECK(tap_maxrel(W.v, Wj, D * C) < 1e-9, "GACL after T tasks = joint ridge (rel %.3g)", tap_maxrel(W.v, Wj, D * C));

    /* Eigen route: W = U diag(1/(λ+τ)) Uᵀ Q */
    const gm_mat *G, *Q;
    CHECK(en_gram(e, 0, tp.prob.T, &G, &Q) == GS_OK, "gram");
    double *w = malloc(sizeof(double) * D);
    gm_mat U = {0};
    CHECK(sp_eig(G, w, &U) == GS_OK, "eig");
    double *We = calloc((size_t)D * C, sizeof(double));
    for (int c = 0; c < C; c++)
        for (long k = 0; k < D; k++) {
            double s = 0;
            for (long i = 0; i < D; i++) s += U.v[i * D + k] * Q->v[i * C + c];
            s /= (w[k] + q.tau);
            for (long i = 0; i < D; i++) We[i * C + c] += U.v[i * D + k] * s;
        }
    CHECK(tap_maxrel(W.v, We, D * C) < 1e-9, "Cholesky solve = eigen route (rel %.3g)", tap_maxrel(W.v, We, D * C));

    /* Accuracy from the joint W, argmax over all (all seen at T) classes. */
    long nt = tp.prob.test_task_end[tp.prob.T - 1], correct = 0;
    for (long i = 0; i < nt; i++) {
        const double *x = gm_row(&tp.prob.test_h, i);
        int best = -1;
        double bs = 0;
        for (int c = 0; c < C; c++) {
            double s = 0;
            for (long a = 0; a < D; a++) s += x[a] * Wj[a * C + c];
            if (best < 0 || s > bs) { best = c; bs = s; }
        }
        correct += best == tp.prob.test_y[i];
    }
    const en_results *r = en_get_results(e);
    CHECK_NEAR(r->m[0].snaps[tp.prob.T - 1].acc, 100.0 * correct / nt, 1e-9, "final accuracy from joint W");
    CHECK(r->m[0].snaps[tp.prob.T - 1].flags & EN_SPECTRUM, "final task has the exact spectrum");
    const en_snap *s = &r->m[0].snaps[tp.prob.T - 1];
    for (long k = 0; k < D; k++) CHECK_REL(s->eig[k], w[k] + q.tau, 1e-10, "eigenvalue of G+τI");
    free(w); free(Wj); free(We); gm_free(&U); gm_free(&W);
    en_destroy(e);
    tp_free(&tp);
}

static void test_gsr_delta(void)
{
    tp_problem tp;
    CHECK(tp_make(&tp, 5, 20, 3, 4, 6, 2, 5, 0) == 0, "problem");
    const char *names[] = {"gacl", "gsr"};
    en_engine *e = make_engine(&tp.prob, 1, 1, names, 2);
    op_params q = defaults();
    q.beta = 0.7;
    q.max_aug = 15;
    CHECK(en_update(e, &q, 1, NULL, NULL, NULL) == GS_OK, "update: %s", gs_last_error());
    long D = tp.prob.D;
    const gm_mat *G, *Q;
    gm_mat Ga = {0};
    en_gram(e, 0, tp.prob.T, &G, &Q);
    gm_copy(&Ga, G, "t");
    en_gram(e, 1, tp.prob.T, &G, &Q);
    const gm_mat *A;
    const int *ay;
    CHECK(en_aug_rows(e, 1, &A, &ay, NULL) == GS_OK, "aug rows collected");
    double *Dl = calloc((size_t)D * D, sizeof(double));
    for (long i = 0; i < A->rows; i++) {
        const double *a = gm_row(A, i);
        for (long x = 0; x < D; x++) for (long y = 0; y < D; y++) Dl[x * D + y] += q.beta * a[x] * a[y];
    }
    double md = 0, mx = 0;
    for (long i = 0; i < D * D; i++) { md = fmax(md, fabs(G->v[i] - Ga.v[i] - Dl[i])); mx = fmax(mx, fabs(Dl[i])); }
    CHECK(md <= 1e-10 * mx, "G_gsr − G_gacl = β Σ z̃ z̃ᵀ (max diff %.3g)", md);
    /* counts: every class has ≥ 3 rows, max_aug 15 → min(N(N−1), 15) per class */
    long want = 0;
    for (int c = 0; c < tp.prob.C; c++) { long N = tp.st.class_kept[c]; want += N * (N - 1) < 15 ? N * (N - 1) : 15; }
    CHECK(A->rows == want, "synthetic rows %ld == %ld", A->rows, want);
    /* each synthetic row: unit norm and in the span of its class's real rows */
    int bad_norm = 0, bad_span = 0;
    for (long i = 0; i < A->rows; i++) {
        const double *a = gm_row(A, i);
        double nn = 0;
        for (long x = 0; x < D; x++) nn += a[x] * a[x];
        if (fabs(sqrt(nn) - 1) > 1e-12) bad_norm++;
        int c = ay[i];
        long N = tp.st.class_kept[c], f = tp.st.class_row_start[c];
        /* least squares: min ‖Zᵀx − a‖ with Z the class rows (N×D) */
        double *M = malloc(sizeof(double) * D * N), *b = malloc(sizeof(double) * D);
        for (long x = 0; x < D; x++) { b[x] = a[x]; for (long k = 0; k < N; k++) M[x * N + k] = gm_row(&tp.prob.z, f + k)[x]; }
        LAPACKE_dgels(LAPACK_ROW_MAJOR, 'N', (lapack_int)D, (lapack_int)N, 1, M, (lapack_int)N, b, 1);
        double res = 0;
        for (long x = N; x < D; x++) res += b[x] * b[x];
        if (sqrt(res) > 1e-10) bad_span++;
        free(M); free(b);
    }
    CHECK(bad_norm == 0, "synthetic rows have unit norm (%d bad)", bad_norm);
    CHECK(bad_span == 0, "synthetic rows lie in the span of their class (%d bad)", bad_span);
    free(Dl); gm_free(&Ga);
    en_destroy(e);
    tp_free(&tp);
}

static int same_results(const en_results *a, const en_results *b, double tol)
{
    for (int m = 0; m < a->n_methods; m++)
        for (int t = 0; t < a->T; t++) {
            const en_snap *x = &a->m[m].snaps[t], *y = &b->m[m].snaps[t];
            if (x->state != y->state) return 0;
            if (fabs(x->acc - y->acc) > tol || fabs(x->head_acc - y->head_acc) > tol) return 0;
            if (tap_rel(x->stable_rank, y->stable_rank) > 1e-9) return 0;
            if (x->aug_rows != y->aug_rows) return 0;
        }
    return 1;
}

static void test_retune(void)
{
    tp_problem tp;
    CHECK(tp_make(&tp, 8, 16, 2, 6, 8, 4, 9, 0) == 0, "problem");
    const char *names[] = {"gacl", "gsr"};
    op_params q = defaults();
    en_engine *live = make_engine(&tp.prob, 1, 0, names, 2);
    CHECK(en_update(live, &q, 1, NULL, NULL, NULL) == GS_OK, "first update");
    en_results before;
    en_results_copy(&before, en_get_results(live));

    op_params changes[4];
    for (int k = 0; k < 4; k++) changes[k] = q;
    changes[0].tau = 0.3;        /* τ only */
    changes[1].beta = 2.5;       /* β only */
    changes[2].alpha_base = 0.2; /* α only */
    changes[3].xi = 0.5;
    const char *what[] = {"τ", "β", "α_base", "ξ"};
    for (int k = 0; k < 4; k++) {
        CHECK(en_update(live, &changes[k], 2, NULL, NULL, NULL) == GS_OK, "retune %s", what[k]);
        en_engine *fresh = make_engine(&tp.prob, 0, 0, names, 2);
        en_update(fresh, &changes[k], 1, NULL, NULL, NULL);
        CHECK(same_results(en_get_results(live), en_get_results(fresh), 1e-9),
              "retuned %s equals a fresh computation", what[k]);
        if (k >= 1) {
            /* GACL untouched by β, α_base, ξ */
            const en_results *r = en_get_results(live);
            int same = 1;
            for (int t = 0; t < r->T; t++) same &= r->m[0].snaps[t].acc == before.m[0].snaps[t].acc;
            CHECK(same, "GACL unchanged by a %s change", what[k]);
        }
        en_destroy(fresh);
        /* back to the defaults; must reproduce the first results exactly */
        en_update(live, &q, 1, NULL, NULL, NULL);
        CHECK(same_results(en_get_results(live), &before, 0), "back to the defaults after %s", what[k]);
    }
    en_results_free(&before);
    en_destroy(live);
    tp_free(&tp);
}

/* Two results, every task of every method: the same accuracies (head, tail, each class) to the bit. */
static int identical_accs(const en_results *a, const en_results *b)
{
    for (int m = 0; m < a->n_methods; m++)
        for (int t = 0; t < a->T; t++) {
            const en_snap *x = &a->m[m].snaps[t], *y = &b->m[m].snaps[t];
            if (x->state != EN_DONE || y->state != EN_DONE) return 0;
            if (memcmp(&x->acc, &y->acc, sizeof x->acc) || memcmp(&x->head_acc, &y->head_acc, sizeof x->acc) ||
                memcmp(&x->tail_acc, &y->tail_acc, sizeof x->acc) || x->aug_rows != y->aug_rows)
                return 0;
            if (memcmp(x->class_acc, y->class_acc, sizeof(double) * (size_t)a->C)) return 0;
        }
    return 1;
}

/* AnaCP's draws and replay rows (--save-state's arrays) of method m: equal bytes in both engines. */
static int identical_draws(en_engine *a, en_engine *b, int m, int *n)
{
    en_draw x, y;
    *n = 0;
    for (int k = 0; en_method_draw(a, m, k, &x); k++, (*n)++) {
        if (!en_method_draw(b, m, k, &y) || x.rows != y.rows || x.cols != y.cols) return 0;
        long cnt = x.rows * (x.cols ? x.cols : 1);
        if (x.v && memcmp(x.v, y.v, sizeof(double) * (size_t)cnt)) return 0;
        if (x.labels && memcmp(x.labels, y.labels, sizeof(int) * (size_t)x.rows)) return 0;
    }
    return en_method_draw(b, m, *n, &y) == 0;
}

/* A β change with AnaCP + GSR in the interactive engine refits AnaCP from the rows it kept (GSR's
 * rows are not made again, the heads' activations and kernels are reused): every accuracy, the
 * replay rows (made from the β-weighted means and covariance) and the last task's predictions
 * are bit for bit those of a fresh run at the new β; back at the first β, the first results. With
 * the heads in the dual throughout (D = 300) and switching to the primal on the way (D = 90). */
static void test_anacp_beta(void)
{
    const long Ds[2] = {300, 90};
    for (int c = 0; c < 2; c++) {
        tp_problem tp;
        CHECK(tp_make(&tp, 6, 12, 8, 6, 5, 3, 4, Ds[c]) == 0, "problem (AnaCP heads of %ld)", Ds[c]);
        const char *names[] = {"anacp", "anacp+gsr"};
        op_params q = defaults();
        q.max_aug = 20;
        en_engine *live = make_engine(&tp.prob, 1, 1, names, 2);
        CHECK(en_update(live, &q, 1, NULL, NULL, NULL) == GS_OK, "D %ld: first update", Ds[c]);
        en_results before;
        en_results_copy(&before, en_get_results(live));
        const double betas[2] = {2.5, 0.3};
        for (int k = 0; k < 2; k++) {
            op_params q2 = q;
            q2.beta = betas[k];
            CHECK(en_update(live, &q2, 3, NULL, NULL, NULL) == GS_OK, "D %ld: β → %g", Ds[c], q2.beta);
            en_engine *fresh = make_engine(&tp.prob, 0, 1, names, 2);
            CHECK(en_update(fresh, &q2, 1, NULL, NULL, NULL) == GS_OK, "D %ld: fresh at β %g", Ds[c], q2.beta);
            CHECK(identical_accs(en_get_results(live), en_get_results(fresh)),
                  "D %ld: after β → %g every accuracy equals a fresh run's, bit for bit", Ds[c], q2.beta);
            int nd = 0, same = identical_draws(live, fresh, 1, &nd);
            CHECK(same && nd > 4,
                  "D %ld, β %g: anacp+gsr's layers and replay rows (%d arrays) equal a fresh run's", Ds[c], q2.beta, nd);
            int *pa = NULL, *pb = NULL;
            long na = 0, nb = 0;
            int ok = en_predictions(live, 1, 3, &pa, &na) == GS_OK && en_predictions(fresh, 1, 3, &pb, &nb) == GS_OK &&
                     na == nb && na > 0 && !memcmp(pa, pb, sizeof(int) * (size_t)na);
            CHECK(ok, "D %ld, β %g: the last task's predictions equal a fresh run's", Ds[c], q2.beta);
            free(pa); free(pb);
            /* the replay rows moved with β (else the check above proves nothing) */
            en_draw x, y;
            CHECK(en_method_draw(live, 1, 4 + 2 * 2, &x) && en_method_draw(live, 0, 4 + 2 * 2, &y) &&
                      memcmp(x.v, y.v, sizeof(double) * (size_t)(x.rows * x.cols)),
                  "D %ld, β %g: anacp+gsr's replay rows differ from anacp's", Ds[c], q2.beta);
            en_destroy(fresh);
        }
        CHECK(en_update(live, &q, 3, NULL, NULL, NULL) == GS_OK && identical_accs(en_get_results(live), &before),
              "D %ld: back at β = 1, the first results", Ds[c]);
        en_results_free(&before);
        en_destroy(live);
        tp_free(&tp);
    }
}

static void test_gsr_pieces(void)
{
    CHECK_NEAR(en_gsr_alpha(0.6, 5e-3, 5), 0.990124, 5e-7, "α_c(5) at the defaults");
    CHECK_NEAR(en_gsr_alpha(0.6, 5e-3, 500), 0.632834, 5e-7, "α_c(500) at the defaults");
    double zi[4] = {1, 0, 0, 0}, zj[4] = {0, 0.6, 0.8, 0}, out[4];
    CHECK(en_mix(zi, zj, 4, 1.0, 0, out) && out[0] == 1 && out[1] == 0 && out[2] == 0, "γ = 1 returns z_i");
    CHECK(en_mix(zi, zj, 4, 0.3, 0, out), "mix ok");
    CHECK_NEAR(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3], 1.0, 1e-15, "unit norm");
    CHECK_NEAR(out[3], 0.0, 0, "in span{z_i, z_j}");
    CHECK_NEAR(out[1] / out[2], 0.75, 1e-15, "in span{z_i, z_j} (direction of z_j)");
    double anti[4] = {-1, 0, 0, 0};
    CHECK(!en_mix(zi, anti, 4, 0.5, 0, out), "antipodal pair at γ = ½ is refused");
    /* Beta(α, α) mean ½ and variance 1/(4(2α+1)) */
    double alphas[2] = {0.632834, 0.990124};
    for (int k = 0; k < 2; k++) {
        gsl_rng *r = rng_new(1, RNG_GAMMA, 3);
        double s = 0, s2 = 0;
        long n = 200000;
        for (long i = 0; i < n; i++) { double g = gsl_ran_beta(r, alphas[k], alphas[k]); s += g; s2 += g * g; }
        gsl_rng_free(r);
        double mean = s / n, var = s2 / n - mean * mean, want = 1.0 / (4 * (2 * alphas[k] + 1));
        CHECK_NEAR(mean, 0.5, 0.003, "Beta mean");
        CHECK_NEAR(var, want, 0.002, "Beta variance");
    }
}

static void test_choose(void)
{
    /* distinct, sorted, in range, and uniform: each of n=20 values chosen K/n of the time */
    gsl_rng *r = rng_new(3, RNG_PAIRS, 9);
    long n = 20, K = 7, out[7], hits[20] = {0}, trials = 40000;
    int ok = 1;
    for (long t = 0; t < trials; t++) {
        en_choose_sorted(r, n, K, out);
        for (long k = 0; k < K; k++) {
            ok &= out[k] >= 0 && out[k] < n && (k == 0 || out[k] > out[k - 1]);
            hits[out[k]]++;
        }
    }
    CHECK(ok, "choose: distinct, sorted, in range");
    double want = (double)trials * K / n, worst = 0;
    for (long i = 0; i < n; i++) worst = fmax(worst, fabs(hits[i] - want) / want);
    CHECK(worst < 0.03, "choose: uniform (worst relative deviation %.4f)", worst);
    long all[5];
    en_choose_sorted(r, 5, 5, all);
    CHECK(all[0] == 0 && all[4] == 4, "choose K = n gives every value");
    gsl_rng_free(r);
}

static void test_determinism(void)
{
    tp_problem a, b;
    tp_make(&a, 7, 10, 3, 5, 5, 3, 11, 0);
    tp_make(&b, 7, 10, 3, 5, 5, 3, 11, 0);
    const char *names[] = {"gacl", "gsr"};
    en_engine *ea = make_engine(&a.prob, 0, 0, names, 2), *eb = make_engine(&b.prob, 0, 0, names, 2);
    op_params q = defaults();
    en_update(ea, &q, 1, NULL, NULL, NULL);
    en_update(eb, &q, 1, NULL, NULL, NULL);
    CHECK(same_results(en_get_results(ea), en_get_results(eb), 0), "same inputs and seed → same numbers");
    en_destroy(ea); en_destroy(eb);
    tp_free(&a); tp_free(&b);
}

static void test_expand(void)
{
    tp_problem tp;
    CHECK(tp_make(&tp, 4, 6, 5, 3, 4, 2, 2, 24) == 0, "problem with --expand");
    CHECK(tp.prob.D == 24 && tp.prob.d == 6, "D = 24");
    double h[24];
    en_expand_rows(&tp.prob, gm_row(&tp.prob.z, 3), 1, h);
    int same = 1, relu = 1;
    for (int j = 0; j < 24; j++) { same &= fabs(h[j] - gm_row(&tp.prob.h, 3)[j]) < 1e-12; relu &= h[j] >= 0; }
    CHECK(same, "expanded rows = ReLU(R z)");
    CHECK(relu, "ReLU output is non-negative");
    /* --projection gaussian (default): N(0,1) entries; the same draw from en_draw_projection */
    double s1 = 0, s2 = 0;
    for (long i = 0; i < 24 * 6; i++) { s1 += tp.prob.R.v[i]; s2 += tp.prob.R.v[i] * tp.prob.R.v[i]; }
    double mean = s1 / 144, var = s2 / 144 - mean * mean;
    CHECK(fabs(mean) < 0.3 && var > 0.6 && var < 1.5, "R entries N(0,1): mean %.3f, variance %.3f of 144", mean, var);
    gm_mat Rg = {0}, Ru = {0};
    CHECK(en_draw_projection(&Rg, 24, 6, OP_PROJ_GAUSSIAN, tp.prob.seed) == GS_OK &&
          memcmp(Rg.v, tp.prob.R.v, sizeof(double) * 144) == 0, "the same seed draws the same R");
    CHECK(en_draw_projection(&Ru, 24, 6, OP_PROJ_UNIFORM, tp.prob.seed) == GS_OK, "uniform draw");
    double a = 1 / sqrt(6.0), umax = 0;
    for (long i = 0; i < 24 * 6; i++) umax = fmax(umax, fabs(Ru.v[i]));
    CHECK(umax <= a && umax > 0.8 * a, "--projection uniform: entries in U(−1/√d, 1/√d) (max |r| %.3f)", umax);
    gm_free(&Rg); gm_free(&Ru);
    /* a block of rows, against a plain loop */
    long n = tp.prob.z.rows;
    double *H = malloc(sizeof(double) * (size_t)n * 24);
    en_expand_rows(&tp.prob, tp.prob.z.v, n, H);
    double worst = 0;
    for (long i = 0; i < n; i++)
        for (int j = 0; j < 24; j++) {
            double r = 0;
            for (int k = 0; k < 6; k++) r += tp.prob.R.v[j * 6 + k] * gm_row(&tp.prob.z, i)[k];
            worst = fmax(worst, fabs(H[i * 24 + j] - (r > 0 ? r : 0)));
        }
    CHECK(worst < 1e-13, "en_expand_rows = ReLU(R z) row by row (worst %.1e over %ld rows)", worst, n);
    free(H);
    tp_free(&tp);
}

/* Parallel methods (en_config.threads = 2) against the sequential path: bit-identical snapshots,
 * with OpenBLAS at one thread for both (the parallel path runs BLAS single-threaded inside a
 * task; multi-threaded dsymv may round differently, which is not what is tested here). */
int openblas_get_num_threads(void);
void openblas_set_num_threads(int n);

static int same_bits(const double *a, const double *b, long n)
{
    if (!a || !b) return a == b;
    return memcmp(a, b, (size_t)n * sizeof(double)) == 0;
}

static int identical_results(const en_results *a, const en_results *b)
{
    if (a->n_methods != b->n_methods || a->T != b->T) return 0;
    for (int m = 0; m < a->n_methods; m++) {
        if (!same_bits(&a->m[m].a_last, &b->m[m].a_last, 1) || !same_bits(&a->m[m].a_avg, &b->m[m].a_avg, 1)) return 0;
        for (int t = 0; t < a->T; t++) {
            const en_snap *x = &a->m[m].snaps[t], *y = &b->m[m].snaps[t];
            double vx[11] = {x->acc, x->head_acc, x->tail_acc, x->stable_rank, x->cond, x->erank, x->lambda_max,
                             x->lambda_min, x->lmax_err, x->lmin_err, (double)x->test_rows};
            double vy[11] = {y->acc, y->head_acc, y->tail_acc, y->stable_rank, y->cond, y->erank, y->lambda_max,
                             y->lambda_min, y->lmax_err, y->lmin_err, (double)y->test_rows};
            if (x->state != y->state || x->flags != y->flags || strcmp(x->error, y->error)) return 0;
            if (x->rows_seen != y->rows_seen || x->aug_rows != y->aug_rows || x->classes_seen != y->classes_seen ||
                x->aug_skipped_pairs != y->aug_skipped_pairs || x->aug_skipped_classes != y->aug_skipped_classes)
                return 0;
            if (!same_bits(vx, vy, 11) || !same_bits(x->eig, y->eig, a->D) || !same_bits(x->class_acc, y->class_acc, a->C))
                return 0;
        }
    }
    return 1;
}

static en_engine *make_threads(const en_problem *p, int keep, const char **names, int nm, int threads)
{
    en_config cfg = {0};
    cfg.methods = names; cfg.n_methods = nm; cfg.spectrum = OP_SPECTRUM_FINAL; mt_resolve(&cfg);
    cfg.keep_task_grams = keep; cfg.threads = threads;
    en_engine *e = NULL;
    CHECK(en_create(&e, p, &cfg) == GS_OK, "en_create (threads %d): %s", threads, gs_last_error());
    return e;
}

typedef struct { int calls; double last; } progress_log;
static void log_progress(double f, const char *what, void *user)
{
    (void)what;
    progress_log *l = user;
    if (f < l->last) l->calls = -1000; /* must not go backwards */
    l->last = f;
    l->calls++;
}

/* progress callback that raises the cancel flag once `after` calls have been seen */
typedef struct { int calls, after; volatile int *stop; } cancel_after;
static void cancel_progress(double f, const char *what, void *user)
{
    (void)f; (void)what;
    cancel_after *c = user;
    if (++c->calls == c->after) __atomic_store_n(c->stop, 1, __ATOMIC_RELAXED);
}

/* progress callback doing what the TUI's does (a deep copy of the results, while the helper
 * thread may already run the next task's jobs): every snapshot the copy shows as done must be
 * whole (its accuracies and class accuracies set, its spectrum consistent with its flags) */
typedef struct { en_engine *e; int calls, bad; } copy_log;
static void copy_progress(double f, const char *what, void *user)
{
    (void)f; (void)what;
    copy_log *l = user;
    en_results c;
    if (en_results_copy(&c, en_get_results(l->e)) != GS_OK) { l->bad++; return; }
    for (int m = 0; m < c.n_methods; m++)
        for (int t = 0; t < c.T; t++) {
            const en_snap *s = &c.m[m].snaps[t];
            if (s->state != EN_DONE) continue;
            int ok = isfinite(s->acc) && s->task == t + 1 && s->test_rows > 0 && s->class_acc;
            if (c.m[m].ridge) ok &= isfinite(s->lambda_max) && isfinite(s->stable_rank) && (!(s->flags & EN_SPECTRUM) || s->eig);
            l->bad += !ok;
        }
    en_results_free(&c);
    l->calls++;
}

/* en_config.accuracies_only (table): no λ_min from the factor, every accuracy the same bits. */
static void test_accuracies_only(void)
{
    tp_problem tp;
    CHECK(tp_make(&tp, 9, 20, 12, 6, 10, 4, 5, 0) == 0, "problem: %s", gs_last_error());
    const char *names[] = {"gacl", "gsr"};
    op_params q = defaults();
    en_engine *e[2];
    for (int k = 0; k < 2; k++) {
        en_config cfg = {0};
        cfg.methods = names; cfg.n_methods = 2; cfg.spectrum = OP_SPECTRUM_AUTO; cfg.accuracies_only = k; mt_resolve(&cfg);
        CHECK(en_create(&e[k], &tp.prob, &cfg) == GS_OK, "en_create: %s", gs_last_error());
        CHECK(en_update(e[k], &q, 1, NULL, NULL, NULL) == GS_OK, "update: %s", gs_last_error());
    }
    const en_results *a = en_get_results(e[0]), *b = en_get_results(e[1]);
    int same = 1, lanczos = 0, skipped = 0;
    for (int m = 0; m < 2; m++) {
        same &= same_bits(&a->m[m].a_last, &b->m[m].a_last, 1) && same_bits(&a->m[m].a_avg, &b->m[m].a_avg, 1);
        for (int t = 0; t < a->T; t++) {
            const en_snap *x = &a->m[m].snaps[t], *y = &b->m[m].snaps[t];
            double vx[4] = {x->acc, x->head_acc, x->tail_acc, x->lambda_max}, vy[4] = {y->acc, y->head_acc, y->tail_acc, y->lambda_max};
            same &= same_bits(vx, vy, 4) && same_bits(x->class_acc, y->class_acc, a->C);
            if ((x->flags & EN_LMIN_EST) && isfinite(x->lambda_min) && x->lambda_min > 0) {
                lanczos++;
                skipped += isnan(y->lambda_min) && isnan(y->cond);
            }
        }
    }
    CHECK(same, "accuracies_only: accuracies and per-class accuracies the same bits");
    CHECK(lanczos > 0 && skipped == lanczos, "accuracies_only: no λ_min where the Lanczos ran (%d of %d NaN)", skipped, lanczos);
    en_destroy(e[0]); en_destroy(e[1]);
    tp_free(&tp);
}

static void test_threads(void)
{
    int nb = openblas_get_num_threads();
    openblas_set_num_threads(1);
    tp_problem tp;
    CHECK(tp_make(&tp, 9, 20, 12, 6, 10, 4, 5, 0) == 0, "problem: %s", gs_last_error());
    const char *names[] = {"gacl", "gsr", "gsr-linear", "ncm"};
    op_params q = defaults();
    for (int keep = 0; keep <= 1; keep++) {
        en_engine *s = make_threads(&tp.prob, keep, names, 4, 1), *par = make_threads(&tp.prob, keep, names, 4, 2);
        progress_log ls = {0, 0}, lp = {0, 0};
        CHECK(en_update(s, &q, 1, NULL, log_progress, &ls) == GS_OK, "sequential update: %s", gs_last_error());
        CHECK(en_update(par, &q, 1, NULL, log_progress, &lp) == GS_OK, "parallel update: %s", gs_last_error());
        CHECK(identical_results(en_get_results(s), en_get_results(par)), "keep %d: parallel methods = sequential, bit for bit", keep);
        CHECK(lp.calls == ls.calls && lp.calls == 4 * tp.prob.T && lp.last == 1.0,
              "keep %d: progress once per method and task, in order (%d calls)", keep, lp.calls);
        op_params r = q;
        r.tau = 0.2; r.beta = 0.5; r.alpha_base = 0.3;
        CHECK(en_update(s, &r, 3, NULL, NULL, NULL) == GS_OK && en_update(par, &r, 3, NULL, NULL, NULL) == GS_OK,
              "retune");
        CHECK(identical_results(en_get_results(s), en_get_results(par)), "keep %d: after a retune, still identical", keep);
        gm_mat Ws = {0}, Wp = {0};
        CHECK(en_solve_w(s, 1, tp.prob.T, &Ws) == GS_OK && en_solve_w(par, 1, tp.prob.T, &Wp) == GS_OK, "solve_w");
        CHECK(Ws.v && Wp.v && same_bits(Ws.v, Wp.v, Ws.rows * Ws.cols), "keep %d: GSR W identical", keep);
        gm_free(&Ws); gm_free(&Wp);
        const gm_mat *G, *Q;
        CHECK(en_gram(par, 1, tp.prob.T, &G, &Q) == GS_OK, "gram");
        int sym = 1;
        for (long i = 0; i < G->rows; i++)
            for (long k = 0; k < G->rows; k++) sym &= G->v[i * G->rows + k] == G->v[k * G->rows + i];
        CHECK(sym, "keep %d: G (base + β E) exactly symmetric", keep);
        /* a failing solve (G + τI indefinite) fails the same way on both paths, other methods go on */
        r.tau = -1e3;
        CHECK(en_update(s, &r, 1, NULL, NULL, NULL) == GS_OK && en_update(par, &r, 1, NULL, NULL, NULL) == GS_OK,
              "update with an indefinite G + τI returns GS_OK (failed snapshots)");
        const en_results *rp = en_get_results(par);
        CHECK(rp->m[0].snaps[0].state == EN_FAILED && strstr(rp->m[0].snaps[0].error, "raise --tau") &&
              rp->m[3].snaps[0].state == EN_DONE, "keep %d: ridge methods failed with a reason, ncm done", keep);
        CHECK(identical_results(en_get_results(s), rp), "keep %d: failures identical", keep);
        /* cancel before the first task */
        volatile int stop = 1;
        r.tau = 0.05;
        CHECK(en_update(par, &r, 1, &stop, NULL, NULL) == GS_ECANCEL, "keep %d: cancel honoured", keep);
        /* cancel in the middle (raised when task 2 is reported; the next tasks' jobs may already be
         * running): the reported tasks are complete, the others pending, and the next update
         * completes them with the sequential numbers */
        stop = 0;
        r.tau = 0.07;
        /* a τ change recomputes the methods that use τ (the three ridge ones): ncm keeps its results
         * in the interactive engine (keep 1); a batch engine (keep 0) recomputes every method */
        int nd = keep ? 3 : 4;
        cancel_after ca = {0, 2 * nd, &stop};
        CHECK(en_update(par, &r, 1, &stop, cancel_progress, &ca) == GS_ECANCEL, "keep %d: cancel mid-update", keep);
        rp = en_get_results(par);
        int ok = 1;
        for (int m = 0; m < 4; m++)
            for (int t = 0; t < tp.prob.T; t++)
                ok &= (rp->m[m].snaps[t].state == EN_DONE) == (t < 2 || (m == 3 && keep));
        CHECK(ok, "keep %d: tasks 1-2 done, tasks 3.. pending after the cancel (ncm: %s)", keep,
              keep ? "every task done, τ is not its" : "recomputed");
        stop = 0;
        CHECK(en_update(par, &r, 1, &stop, NULL, NULL) == GS_OK && en_update(s, &r, 1, NULL, NULL, NULL) == GS_OK,
              "update after the cancel");
        CHECK(identical_results(en_get_results(s), en_get_results(par)), "keep %d: after a cancel, identical", keep);
        /* views copy the results from the progress callback during an update */
        copy_log cl = {par, 0, 0};
        en_results before;
        CHECK(en_results_copy(&before, en_get_results(par)) == GS_OK, "results copy");
        r.tau = 0.09;
        CHECK(en_update(par, &r, 1, NULL, copy_progress, &cl) == GS_OK && en_update(s, &r, 1, NULL, NULL, NULL) == GS_OK,
              "update with copying progress");
        CHECK(cl.calls == nd * tp.prob.T && cl.bad == 0, "keep %d: copies during the update show whole snapshots only "
              "(%d calls, %d bad)", keep, cl.calls, cl.bad);
        CHECK(identical_results(en_get_results(s), en_get_results(par)), "keep %d: and the same numbers", keep);
        /* exactly the methods that use τ changed: the ridge ones' accuracies moved at some task,
         * ncm's results are the ones from before, bit for bit */
        rp = en_get_results(par);
        int moved = 0, same = 1;
        for (int m = 0; m < 3; m++) {
            CHECK(mt_uses(names[m], "tau") && !mt_uses(names[3], "tau"), "%s uses τ, ncm does not", names[m]);
            for (int t = 0; t < tp.prob.T; t++) moved += !same_bits(&rp->m[m].snaps[t].lambda_min, &before.m[m].snaps[t].lambda_min, 1);
        }
        for (int t = 0; t < tp.prob.T; t++) {
            const en_snap *x = &rp->m[3].snaps[t], *y = &before.m[3].snaps[t];
            same &= x->state == EN_DONE && same_bits(&x->acc, &y->acc, 1) && same_bits(&x->head_acc, &y->head_acc, 1) &&
                    same_bits(&x->tail_acc, &y->tail_acc, 1) && same_bits(x->class_acc, y->class_acc, tp.prob.C);
        }
        CHECK(moved == 3 * tp.prob.T && same, "keep %d: τ 0.07 → 0.09 moved λ_min(G + τI) of the ridge methods at every "
              "task (%d of %d) and left ncm's results bit-identical", keep, moved, 3 * tp.prob.T);
        en_results_free(&before);
        en_destroy(s); en_destroy(par);
    }
    tp_free(&tp);
    openblas_set_num_threads(nb);
    CHECK(openblas_get_num_threads() == nb, "OpenBLAS thread count restored");
}


/* ---- single-precision screening of the predictions (am_argmax_screened) ---------------------- */

/* Reference: first maximum of the dgemm scores over blocks of AM_SCORE_BLOCK rows. */
static void argmax_ref(const double *X, long n, long D, const double *Wt, int Cs, int *best)
{
    double *s = malloc((size_t)AM_SCORE_BLOCK * (size_t)Cs * sizeof *s);
    for (long i0 = 0; i0 < n; i0 += AM_SCORE_BLOCK) {
        long nb = n - i0 < AM_SCORE_BLOCK ? n - i0 : AM_SCORE_BLOCK;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nb, Cs, (int)D, 1.0, X + (size_t)i0 * D, (int)D,
                    Wt, (int)D, 0.0, s, Cs);
        for (long i = 0; i < nb; i++) {
            int b = 0;
            for (int k = 1; k < Cs; k++) if (s[(size_t)i * Cs + k] > s[(size_t)i * Cs + b]) b = k;
            best[i0 + i] = b;
        }
    }
    free(s);
}

/* Random rows and weights where many rows have near-tied or exactly tied leaders: class 1 is
 * class 0 perturbed by 1e-3, 1e-7 (float cannot separate), 1e-12 (about the double error) or
 * not at all (exact tie: the first index wins), on rows aligned with class 0. */
static void test_argmax_ties(long D)
{
    const long n = 5000;
    const int Cs = 12;
    double *X = malloc((size_t)n * D * sizeof *X), *W = malloc((size_t)Cs * D * sizeof *W);
    int *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b), *r = malloc((size_t)n * sizeof *r);
    gsl_rng *g = rng_new(77, RNG_SYNTH, 5);
    const double eps[] = {1e-3, 1e-7, 1e-12, 0};
    int bad_total = 0;
    long nd_total = 0;
    for (int v = 0; v < 4; v++) {
        for (long i = 0; i < (long)Cs * D; i++) W[i] = gsl_ran_gaussian(g, 1.0);
        for (long j = 0; j < D; j++) W[D + j] = W[j] * (1 + eps[v] * gsl_ran_gaussian(g, 1.0));
        for (long i = 0; i < n; i++)
            for (long j = 0; j < D; j++)
                X[i * D + j] = (i % 3 ? 3 * W[j] : 0) + gsl_ran_gaussian(g, 1.0) * (i % 7 == 0 ? 1e-3 : 0.5);
        for (long j = 0; j < D; j++) X[17 * D + j] = 0; /* all scores 0: ties everywhere */
        long nd = -1, nd2 = -1;
        argmax_ref(X, n, D, W, Cs, r);
        CHECK(am_argmax_screened(X, NULL, NULL, n, 0, n, D, W, Cs, AM_SCORES_DOUBLE, a, &nd2) == GS_OK, "double path");
        CHECK(am_argmax_screened(X, NULL, NULL, n, 0, n, D, W, Cs, AM_SCORES_SCREEN, b, &nd) == GS_OK, "screened path");
        int bad = 0, bad2 = 0, ones = 0;
        for (long i = 0; i < n; i++) { bad += a[i] != b[i]; bad2 += a[i] != r[i]; ones += r[i] == 1; }
        bad_total += bad;
        nd_total += nd;
        CHECK(bad2 == 0, "eps %g: double path = reference dgemm (%d rows differ)", eps[v], bad2);
        CHECK(bad == 0, "eps %g: screened predictions = double predictions (%d of %ld differ; %ld decided in double)",
              eps[v], bad, n, nd);
        CHECK(nd2 == n, "double path: every row in double (%ld)", nd2);
        if (eps[v] == 0) CHECK(ones == 0 && nd >= n / 2, "exact ties: the first index wins (%d), tied rows in double (%ld)", ones, nd);
        CHECK(r[17] == 0, "zero row: first class");
    }
    CHECK(bad_total == 0 && nd_total > 0, "near ties exercised the double fallback (%ld rows)", nd_total);
    /* non-finite scores: decided in double like the reference */
    for (long j = 0; j < D; j++) X[5 * D + j] = j == 3 ? INFINITY : 0;
    X[6 * D] = NAN;
    X[8 * D + 1] = 1e300; /* beyond float: decided in double (and no undefined conversion) */
    argmax_ref(X, n, D, W, Cs, r);
    am_argmax_screened(X, NULL, NULL, n, 0, n, D, W, Cs, AM_SCORES_SCREEN, b, NULL);
    CHECK(b[5] == r[5] && b[6] == r[6] && b[8] == r[8], "non-finite and huge rows as the reference (%d %d %d / %d %d %d)",
          b[5], b[6], b[8], r[5], r[6], r[8]);
    gsl_rng_free(g);
    free(X); free(W); free(a); free(b); free(r);
}

/* The synthetic set, batch mode: screened and double-only predictions give bit-identical
 * accuracies at every task and identical final predictions. */
static void test_screen_synthetic(void)
{
    char *argv[] = {"gsrscope", "run", "--synthetic", NULL};
    op_opts o;
    CHECK(op_parse(&o, 3, argv) == GS_OK, "options: %s", gs_last_error());
    en_config cfg = {0};
    cfg.methods = (const char **)o.methods;
    cfg.n_methods = o.n_methods; mt_resolve(&cfg);
    cfg.spectrum = OP_SPECTRUM_FINAL;
    pl_ctx c;
    int rc = pl_open(&c, &o, &cfg, NULL, NULL);
    CHECK(rc == GS_OK, "pl_open: %s", gs_last_error());
    if (rc) return;
    en_config cd = cfg;
    cd.exact_scores = 1;
    en_engine *ed = NULL;
    CHECK(en_create(&ed, &c.prob, &cd) == GS_OK, "engine: %s", gs_last_error());
    CHECK(en_update(c.eng, &o.params, 1, NULL, NULL, NULL) == GS_OK, "screened run: %s", gs_last_error());
    CHECK(en_update(ed, &o.params, 1, NULL, NULL, NULL) == GS_OK, "double run: %s", gs_last_error());
    const en_results *a = en_get_results(c.eng), *b = en_get_results(ed);
    int diff = 0;
    for (int m = 0; m < a->n_methods; m++)
        for (int t = 0; t < a->T; t++) {
            const en_snap *x = &a->m[m].snaps[t], *y = &b->m[m].snaps[t];
            if (x->acc != y->acc || x->test_rows != y->test_rows) diff++;
            for (int k = 0; k < a->C; k++)
                if (!(x->class_acc[k] == y->class_acc[k] || (isnan(x->class_acc[k]) && isnan(y->class_acc[k])))) diff++;
        }
    CHECK(diff == 0, "synthetic: accuracies equal at every task (%d differ)", diff);
    for (int m = 0; m < a->n_methods; m++) {
        int *pa = NULL, *pb = NULL;
        long na = 0, nb = 0;
        CHECK(en_predictions(c.eng, m, a->T, &pa, &na) == GS_OK && en_predictions(ed, m, a->T, &pb, &nb) == GS_OK,
              "predictions: %s", gs_last_error());
        CHECK(pa && pb && na == nb && na > 0 && memcmp(pa, pb, (size_t)na * sizeof(int)) == 0,
              "%s: final predictions identical (%ld rows)", a->m[m].name, na);
        /* the run's accuracy comes from predictions in two row halves (jobs): same as all at once */
        long correct = 0;
        for (long i = 0; pa && i < na; i++) correct += pa[i] == c.prob.test_y[i];
        CHECK(na > 0 && 100.0 * (double)correct / (double)na == a->m[m].snaps[a->T - 1].acc,
              "%s: accuracy of the split predictions = accuracy of en_predictions", a->m[m].name);
        free(pa); free(pb);
    }
    en_destroy(ed);
    pl_free(&c);
}

/* Fewer rows than columns: λ_min(G + τI) = τ exactly (G is singular), with no Lanczos and no
 * estimate flag, checked against LAPACK's spectrum; --spectrum auto above EN_SPECTRUM_AUTO_MAX
 * leaves the exact spectrum to a request (en_ensure_spectrum), below it computes the last task's. */
static void test_rank_and_auto_spectrum(void)
{
    tp_problem tp;
    long D = EN_SPECTRUM_AUTO_MAX + 52;
    CHECK(tp_make(&tp, 4, 6, 5, 3, 4, 2, 9, D) == 0, "problem with D = %ld", D);
    const char *names[] = {"gsr"};
    en_config cfg = {0};
    cfg.methods = names; cfg.n_methods = 1; cfg.spectrum = OP_SPECTRUM_AUTO; mt_resolve(&cfg);
    en_engine *e = NULL;
    CHECK(en_create(&e, &tp.prob, &cfg) == GS_OK, "en_create: %s", gs_last_error());
    op_params q = defaults();
    q.tau = 0.25;
    CHECK(en_update(e, &q, 0, NULL, NULL, NULL) == GS_OK, "update: %s", gs_last_error());
    const en_results *r = en_get_results(e);
    CHECK(r->spectra_on_request == 1, "auto at D = %ld: spectra on request", D);
    int T = r->T;
    for (int t = 0; t < T; t++) {
        const en_snap *s = &r->m[0].snaps[t];
        CHECK(s->state == EN_DONE && s->rows_seen + s->aug_rows < D, "task %d: %ld + %ld rows < D", t + 1,
              s->rows_seen, s->aug_rows);
        CHECK(s->lambda_min == q.tau && s->lmin_err == 0 && !(s->flags & EN_LMIN_EST),
              "task %d: λ_min = τ exactly, not an estimate (%.17g)", t + 1, s->lambda_min);
        CHECK(!(s->flags & EN_SPECTRUM) && (s->flags & EN_LMAX_EST), "task %d: no exact spectrum by default", t + 1);
    }
    double lmax_est = r->m[0].snaps[T - 1].lambda_max;
    const en_snap *s = &r->m[0].snaps[T - 1];
    CHECK(en_ensure_spectrum(e, T, en_method_bit(1), NULL) == GS_OK && !s->eig && !(s->flags & EN_SPECTRUM),
          "a request for another method leaves this one's spectrum alone");
    CHECK(en_ensure_spectrum(e, T, en_method_bit(0), NULL) == GS_OK, "spectrum on request: %s", gs_last_error());
    CHECK((s->flags & EN_SPECTRUM) && s->eig, "exact spectrum after the request");
    if (s->eig) {
        CHECK(fabs(s->eig[D - 1] - q.tau) <= 1e-12 * s->eig[0], "LAPACK: λ_min(G+τI) %.17g = τ", s->eig[D - 1]);
        CHECK_REL(s->eig[0], lmax_est, 1e-9, "LAPACK λ_max vs the Lanczos estimate");
    }
    en_destroy(e);
    tp_free(&tp);

    /* small D: auto computes the last task's spectrum; more rows than columns: λ_min estimated */
    CHECK(tp_make(&tp, 4, 6, 5, 3, 4, 2, 9, 0) == 0, "problem with D = 6");
    CHECK(en_create(&e, &tp.prob, &cfg) == GS_OK, "en_create: %s", gs_last_error());
    CHECK(en_update(e, &q, 0, NULL, NULL, NULL) == GS_OK, "update: %s", gs_last_error());
    r = en_get_results(e);
    CHECK(r->spectra_on_request == 0 && (r->m[0].snaps[r->T - 1].flags & EN_SPECTRUM), "auto at D = 6: last task exact");
    CHECK(r->m[0].snaps[0].flags & EN_LMIN_EST, "D = 6, 13 rows: λ_min is a Lanczos estimate");
    en_destroy(e);
    tp_free(&tp);
}

/* Largest difference between the seen classes' columns of W (D × C, task `task`) and the LU solve
 * of (G + τI) X = Q with en_gram's G and Q, relative to X's largest entry (∞ if X is 0). */
static double w_vs_lu(en_engine *e, const tp_problem *tp, int m, int task, const gm_mat *W, double tau)
{
    const gm_mat *G, *Q;
    long D = tp->prob.D;
    int C = tp->prob.C;
    if (en_gram(e, m, task, &G, &Q) != GS_OK) return INFINITY;
    double *A = malloc(sizeof(double) * D * D), *B = malloc(sizeof(double) * D * C);
    memcpy(A, G->v, sizeof(double) * D * D);
    memcpy(B, Q->v, sizeof(double) * D * C);
    for (long a = 0; a < D; a++) A[a * D + a] += tau;
    lapack_int *ipiv = malloc(sizeof(lapack_int) * D);
    double worst = 0, big = 0;
    if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, (lapack_int)D, C, A, (lapack_int)D, ipiv, B, C) == 0)
        for (int k = 0; k < tp->st.task_class_start[task]; k++) {
            int c = tp->st.class_order[k];
            for (long a = 0; a < D; a++) {
                worst = fmax(worst, fabs(W->v[a * C + c] - B[a * C + c]));
                big = fmax(big, fabs(B[a * C + c]));
            }
        }
    free(A); free(B); free(ipiv);
    return big > 0 ? worst / big : INFINITY;
}

/* D ≥ EN_DUAL_MIN_D with at most D/2 rows: GACL solves in the dual (N × N kernel); its W must be
 * the joint ridge solution by LU on G built with loops, at every τ (the factor is redone for a new
 * τ, and the first task then uses the leading block of the whole factor), and GSR (primal) must
 * agree with its own Gram. */
static void test_dual_engine(void)
{
    tp_problem tp;
    long D = EN_DUAL_MIN_D + 76;
    CHECK(tp_make(&tp, 5, 8, 6, 4, 6, 3, 11, D) == 0, "problem with D = %ld: %s", D, gs_last_error());
    CHECK(2 * tp.prob.h.rows <= D, "%ld rows ≤ D/2", tp.prob.h.rows);
    const char *names[] = {"gacl"};
    en_engine *e = make_engine(&tp.prob, 1, 0, names, 1);
    op_params q = defaults();
    int C = tp.prob.C, T = tp.prob.T;
    double taus[] = {0.3, 2.5};
    for (int k = 0; k < 2; k++) {
        q.tau = taus[k];
        CHECK(en_update(e, &q, T, NULL, NULL, NULL) == GS_OK, "update τ %g: %s", q.tau, gs_last_error());
        gm_mat W = {0};
        CHECK(en_solve_w(e, 0, T, &W) == GS_OK, "solve: %s", gs_last_error());
        double *Wj = calloc((size_t)D * C, sizeof(double));
        joint_ridge(&tp.prob, q.tau, Wj);
        CHECK(tap_maxrel(W.v, Wj, D * C) < 1e-9, "τ %g: dual W = joint ridge (rel %.3g)", q.tau,
              tap_maxrel(W.v, Wj, D * C));
        free(Wj);
        gm_free(&W);
        const en_results *r = en_get_results(e);
        for (int t = 0; t < T; t++) /* the last task's from its exact spectrum (LAPACK), to rounding */
            CHECK(r->m[0].snaps[t].state == EN_DONE &&
                      fabs(r->m[0].snaps[t].lambda_min - q.tau) <= (t < T - 1 ? 0 : 1e-12 * r->m[0].snaps[t].lambda_max),
                  "τ %g task %d done, λ_min = τ (%.17g)", q.tau, t + 1, r->m[0].snaps[t].lambda_min);
    }
    /* task 1 after the τ change: the leading block of the factor of every row */
    gm_mat W1 = {0};
    CHECK(en_solve_w(e, 0, 1, &W1) == GS_OK, "solve task 1: %s", gs_last_error());
    double rel = w_vs_lu(e, &tp, 0, 1, &W1, q.tau);
    CHECK(rel <= 1e-9, "task 1 after the τ change = (G₁ + τI)⁻¹Q₁ (rel %.3g)", rel);
    gm_free(&W1);
    en_destroy(e);
    tp_free(&tp);
}


/* The shown task's tridiagonal form (en_prepare_tau, the threshold lowered by GS_TAU_FACTOR_MIN_D):
 * its spectrum equals LAPACK dsyevd's of G + τI, and after a τ change that task is solved from it
 * (EN_TAU_FACTOR) with W equal to the Cholesky solve of a fresh engine and the same results; the
 * other tasks by Cholesky; a β change drops it. A cancelled reduction resumes to the same numbers. */
typedef struct { en_engine *e; int task, rc; volatile int *cancel; } prep_arg;
static void *prep_thread(void *arg)
{
    prep_arg *a = arg;
    a->rc = en_prepare_tau(a->e, a->task, a->cancel);
    return NULL;
}

static void test_tau_factor(void)
{
    setenv("GS_TAU_FACTOR_MIN_D", "1", 1);
    tp_problem tp;
    long D = 150;
    CHECK(tp_make(&tp, 6, 10, 14, 6, 6, 3, 5, D) == 0, "problem with D = %ld: %s", D, gs_last_error());
    const char *names[] = {"gacl", "gsr"};
    en_engine *e = make_engine(&tp.prob, 1, 0, names, 2);
    op_params q = defaults();
    q.tau = 0.5;
    int T = tp.prob.T;
    CHECK(en_update(e, &q, T, NULL, NULL, NULL) == GS_OK, "update: %s", gs_last_error());
    volatile int stop = 1;
    CHECK(en_prepare_tau(e, 2, &stop) == GS_ECANCEL, "a cancelled reduction says so");
    const en_results *r = en_get_results(e);
    for (int k = 0; k < 2 * 2; k++) { /* task 1 (the first reduction of the engine), then task 2 */
        int m = k % 2, task = 1 + k / 2;
        if (m == 0) CHECK(en_prepare_tau(e, task, NULL) == GS_OK, "reduce task %d: %s", task, gs_last_error());
        const en_snap *s = &r->m[m].snaps[task - 1];
        CHECK((s->flags & EN_SPECTRUM) && s->eig, "%s task %d: exact spectrum from the reduction", names[m], task);
        const gm_mat *G, *Q;
        CHECK(en_gram(e, m, task, &G, &Q) == GS_OK, "gram");
        gm_mat A = {0};
        gm_copy(&A, G, "test");
        double *w = malloc(sizeof(double) * D);
        CHECK(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)D, A.v, (lapack_int)D, w) == 0, "dsyevd");
        double worst = 0;
        for (long i = 0; s->eig && i < D; i++) worst = fmax(worst, fabs(s->eig[i] - (w[D - 1 - i] + q.tau)));
        CHECK(s->eig && worst <= 1e-12 * s->eig[0], "%s task %d: eigenvalues = dsyevd's (off by %.3g of λ_max %.3g)",
              names[m], task, worst, s->eig ? s->eig[0] : NAN);
        free(w);
        gm_free(&A);
    }
    for (int k = 0; k < 2; k++) {
        q.tau = k ? 0.5 : 3.0;
        CHECK(en_update(e, &q, 2, NULL, NULL, NULL) == GS_OK, "τ %g: %s", q.tau, gs_last_error());
        en_engine *fresh = make_engine(&tp.prob, 0, 0, names, 2);
        CHECK(en_update(fresh, &q, 1, NULL, NULL, NULL) == GS_OK, "fresh");
        CHECK(same_results(en_get_results(e), en_get_results(fresh), 1e-9), "τ %g: the same results as a fresh engine",
              q.tau);
        for (int m = 0; m < 2; m++) {
            for (int t = 0; t < T; t++)
                CHECK(!(r->m[m].snaps[t].flags & EN_TAU_FACTOR) == (t != 1), "%s task %d: %s", names[m], t + 1,
                      t == 1 ? "from the tridiagonal form" : "by Cholesky");
            gm_mat W = {0};
            CHECK(en_solve_w(e, m, 2, &W) == GS_OK, "solve: %s", gs_last_error());
            /* the fresh engine keeps the last task only: the reference by LU on task 2's G */
            double rel = w_vs_lu(e, &tp, m, 2, &W, q.tau);
            CHECK(rel <= 1e-10, "%s τ %g: W from the tridiagonal form = (G + τI)⁻¹Q (rel %.3g)", names[m], q.tau, rel);
            gm_free(&W);
        }
        en_destroy(fresh);
    }
    q.beta = 2.0; /* GSR's G changes: its reduction goes, GACL's stays */
    CHECK(en_update(e, &q, 2, NULL, NULL, NULL) == GS_OK, "β: %s", gs_last_error());
    CHECK((r->m[1].snaps[1].flags & EN_TAU_FACTOR) == 0, "gsr after a β change: by Cholesky");
    q.tau = 1.5;
    CHECK(en_update(e, &q, 2, NULL, NULL, NULL) == GS_OK, "τ: %s", gs_last_error());
    CHECK((r->m[0].snaps[1].flags & EN_TAU_FACTOR) && !(r->m[1].snaps[1].flags & EN_TAU_FACTOR),
          "then τ: gacl from its reduction, gsr (not reduced again) by Cholesky");
    en_destroy(e);
    tp_free(&tp);

    /* cancel from another thread at some point of the reduction, then resume: the same numbers */
    D = 700;
    CHECK(tp_make(&tp, 6, 10, 120, 30, 6, 3, 5, D) == 0, "problem with D = %ld: %s", D, gs_last_error());
    const char *one[] = {"gacl"};
    en_engine *a = make_engine(&tp.prob, 1, 0, one, 1), *b = make_engine(&tp.prob, 1, 0, one, 1);
    q = defaults();
    q.tau = 0.5;
    CHECK(en_update(a, &q, 3, NULL, NULL, NULL) == GS_OK && en_update(b, &q, 3, NULL, NULL, NULL) == GS_OK, "updates");
    CHECK(en_prepare_tau(a, 3, NULL) == GS_OK, "uninterrupted reduction");
    int cancelled = 0;
    for (int k = 0; k < 3; k++) {
        volatile int flag = 0;
        prep_arg pa = {b, 3, -1, &flag};
        pthread_t th;
        pthread_create(&th, NULL, prep_thread, &pa);
        struct timespec ts = {0, 2000000L * (k + 1)};
        nanosleep(&ts, NULL);
        __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
        pthread_join(th, NULL);
        CHECK(pa.rc == GS_OK || pa.rc == GS_ECANCEL, "cancel: GS_OK or GS_ECANCEL (%d)", pa.rc);
        cancelled += pa.rc == GS_ECANCEL;
    }
    CHECK(en_prepare_tau(b, 3, NULL) == GS_OK, "resumed reduction");
    printf("# %d of 3 reductions were stopped before the end\n", cancelled);
    const en_snap *sa = &en_get_results(a)->m[0].snaps[2], *sb = &en_get_results(b)->m[0].snaps[2];
    CHECK(sa->eig && sb->eig && same_bits(sa->eig, sb->eig, D), "stopped and resumed: the same spectrum bit for bit");
    q.tau = 4.0;
    CHECK(en_update(a, &q, 3, NULL, NULL, NULL) == GS_OK && en_update(b, &q, 3, NULL, NULL, NULL) == GS_OK, "τ");
    CHECK(identical_results(en_get_results(a), en_get_results(b)), "and the same results after a τ change");
    CHECK(en_get_results(b)->m[0].snaps[2].flags & EN_TAU_FACTOR, "solved from the resumed reduction");
    en_destroy(a);
    en_destroy(b);
    tp_free(&tp);
    unsetenv("GS_TAU_FACTOR_MIN_D");
}

int main(void)
{
    test_tau_factor();
    test_accuracies_only();
    test_argmax_ties(300);
    test_argmax_ties(301); /* not a multiple of four: the long double scores' last terms */
    test_screen_synthetic();
    test_threads();
    test_joint();
    test_gsr_delta();
    test_retune();
    test_anacp_beta();
    test_gsr_pieces();
    test_choose();
    test_determinism();
    test_expand();
    test_rank_and_auto_spectrum();
    test_dual_engine();
    return tap_done();
}
