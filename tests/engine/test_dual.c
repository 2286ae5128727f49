/* test_dual.c — ridge tasks solved in the N-dimensional dual against the D×D primal (GS_DUAL=off)
 * through the engine: gacl, gacl+gsr, air and air+gsr at D = 1100 (≥ EN_DUAL_MIN_D), with every
 * task kept (interactive) and without, with the rows below D throughout and crossing D (the switch
 * to the primal); after the first update and after a τ change, a β change and an α_base change:
 * every task's W (rel 1e-9), accuracies, λ_max, stable rank and λ_min; and the dual's numbers
 * with one thread and two, bit for bit; an α_base change looking at a middle task (solved before
 * the earlier tasks) against a fresh sequential run, bit for bit, also after a cancel; and an
 * engine with bounded memory (two tasks' Grams kept, the others recomputed from the rows) against
 * one keeping every task's, bit for bit, through retunes. */
#include "tap.h"
#include "problem.h"
#include "gs_common.h"
#include "gs_mtable.h"
#include "gs_engine.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static op_params defaults(int max_aug)
{
    op_params q = {0};
    q.alpha_base = 0.6; q.xi = 5e-3; q.beta = 1.0; q.tau = 0.5; q.seed = 1;
    q.pairs = OP_PAIRS_ALL; q.max_aug = max_aug; q.augment = OP_AUG_ALL;
    q.gauss_a = 0.1; q.gauss_b = 1; q.slda_eps = 1e-4;
    return q;
}

static const char *names[] = {"gacl", "gsr", "air", "air+gsr"};
enum { NM = 4 };

static en_engine *make(const en_problem *p, int keep, int threads)
{
    en_config cfg = {0};
    cfg.methods = names; cfg.n_methods = NM; cfg.spectrum = OP_SPECTRUM_FINAL; mt_resolve(&cfg);
    cfg.keep_task_grams = keep; cfg.threads = threads;
    en_engine *e = NULL;
    CHECK(en_create(&e, p, &cfg) == GS_OK, "en_create: %s", gs_last_error());
    return e;
}

/* an update with GS_DUAL as given (NULL: unset, the default) */
static int update(en_engine *e, const op_params *q, const char *dual)
{
    if (dual) setenv("GS_DUAL", dual, 1); else unsetenv("GS_DUAL");
    int rc = en_update(e, q, 1, NULL, NULL, NULL);
    unsetenv("GS_DUAL");
    return rc;
}

static double rel(double a, double b) { return fabs(a - b) / (fabs(a) > 1e-300 ? fabs(a) : 1); }

/* the dual engine d against the primal engine p: every kept task's W and snapshot */
static void compare(en_engine *d, en_engine *p, int keep, const char *what)
{
    const en_results *rd = en_get_results(d), *rp = en_get_results(p);
    double wmax = 0, smax = 0, amax = 0;
    int ok = 1;
    for (int m = 0; m < NM; m++)
        for (int t = 0; t < rp->T; t++) {
            const en_snap *a = &rp->m[m].snaps[t], *b = &rd->m[m].snaps[t];
            ok &= a->state == EN_DONE && b->state == EN_DONE && a->flags == b->flags;
            if (fabs(a->acc - b->acc) > amax) amax = fabs(a->acc - b->acc);
            double s[4] = {rel(a->lambda_max, b->lambda_max), rel(a->stable_rank, b->stable_rank),
                           rel(a->lambda_min, b->lambda_min), rel(a->cond, b->cond)};
            for (int k = 0; k < 4; k++) if (s[k] > smax) smax = s[k];
            if (!keep && t != rp->T - 1) continue;
            gm_mat Wp = {0}, Wd = {0};
            setenv("GS_DUAL", "off", 1);
            int rc = en_solve_w(p, m, t + 1, &Wp);
            unsetenv("GS_DUAL");
            rc |= en_solve_w(d, m, t + 1, &Wd);
            ok &= rc == GS_OK;
            if (rc == GS_OK) {
                double big = 0, diff = 0;
                for (long i = 0; i < Wp.rows * Wp.cols; i++) {
                    if (fabs(Wp.v[i]) > big) big = fabs(Wp.v[i]);
                    if (fabs(Wp.v[i] - Wd.v[i]) > diff) diff = fabs(Wp.v[i] - Wd.v[i]);
                }
                if (diff / big > wmax) wmax = diff / big;
            }
            gm_free(&Wp); gm_free(&Wd);
        }
    CHECK(ok && wmax < 1e-9 && amax <= 0.1 && smax < 1e-7,
          "%s: dual = primal (W rel %.2g, accuracy %.2g points, spectral numbers rel %.2g)", what, wmax, amax, smax);
}

static int same_results(const en_results *a, const en_results *b)
{
    for (int m = 0; m < a->n_methods; m++)
        for (int t = 0; t < a->T; t++) {
            const en_snap *x = &a->m[m].snaps[t], *y = &b->m[m].snaps[t];
            double vx[6] = {x->acc, x->stable_rank, x->lambda_max, x->lambda_min, x->cond, x->lmax_err};
            double vy[6] = {y->acc, y->stable_rank, y->lambda_max, y->lambda_min, y->cond, y->lmax_err};
            if (memcmp(vx, vy, sizeof vx) || x->flags != y->flags) return 0;
        }
    return 1;
}

/* W of every method and task of a and b equal bit for bit */
static int same_w(en_engine *a, en_engine *b)
{
    const en_results *r = en_get_results(a);
    int same = 1;
    for (int m = 0; m < NM; m++)
        for (int t = 1; t <= r->T; t++) {
            gm_mat Wa = {0}, Wb = {0};
            same &= en_solve_w(a, m, t, &Wa) == GS_OK && en_solve_w(b, m, t, &Wb) == GS_OK &&
                    !memcmp(Wa.v, Wb.v, (size_t)Wa.rows * (size_t)Wa.cols * sizeof(double));
            gm_free(&Wa); gm_free(&Wb);
        }
    return same;
}

/* progress callback: cancel once the first task is reported */
static void cancel_after_first(double f, const char *what, void *user)
{
    (void)f; (void)what;
    __atomic_store_n((int *)user, 1, __ATOMIC_RELAXED);
}

/* New rows (an α_base change) while the user looks at a middle task: that task is solved before
 * the earlier ones (their solves follow it). Every number equals a fresh sequential run's with
 * the final parameters, bit for bit, with two workers and one; and after an update cancelled
 * once the looked-at task is reported, the next update completes to the same numbers. */
static void reordered(const tp_problem *tp, op_params q, const char *what)
{
    int T = tp->prob.T, mid = T / 2 + 1;
    en_engine *d2 = make(&tp->prob, 1, 2), *d1 = make(&tp->prob, 1, 1), *dc = make(&tp->prob, 1, 2),
              *f = make(&tp->prob, 1, 1);
    int rc = en_update(d2, &q, mid, NULL, NULL, NULL) | en_update(d1, &q, mid, NULL, NULL, NULL) |
             en_update(dc, &q, mid, NULL, NULL, NULL);
    q.alpha_base = 0.45;
    rc |= en_update(f, &q, mid, NULL, NULL, NULL); /* the looked-at task gets the exact spectrum */
    rc |= en_update(d2, &q, mid, NULL, NULL, NULL) | en_update(d1, &q, mid, NULL, NULL, NULL);
    int cancel = 0;
    int rcc = en_update(dc, &q, mid, &cancel, cancel_after_first, &cancel);
    const en_results *rd = en_get_results(dc);
    int shown = 1, pending = 0;
    for (int m = 0; m < NM; m++) {
        if (strchr(rd->m[m].name, '+') || !strcmp(rd->m[m].name, "gsr")) shown &= rd->m[m].snaps[mid - 1].state == EN_DONE;
        for (int t = 0; t < T; t++) pending += rd->m[m].snaps[t].state == EN_PENDING;
    }
    CHECK(rcc == GS_ECANCEL && shown && pending > 0,
          "%s: cancelled after the looked-at task %d: it is done, %d snapshots pending", what, mid, pending);
    rc |= en_update(dc, &q, mid, NULL, NULL, NULL);
    CHECK(rc == GS_OK, "%s: updates: %s", what, gs_last_error());
    CHECK(same_results(en_get_results(d2), en_get_results(f)) && same_w(d2, f),
          "%s: α_base change looking at task %d, two workers = a fresh sequential run, bit for bit", what, mid);
    CHECK(same_results(en_get_results(d1), en_get_results(f)) && same_w(d1, f),
          "%s: the same with one worker", what);
    CHECK(same_results(en_get_results(dc), en_get_results(f)) && same_w(dc, f),
          "%s: after a cancelled update, the next one gives the same numbers", what);
    en_destroy(d2); en_destroy(d1); en_destroy(dc); en_destroy(f);
}

/* the engine with GS_GRAM_BUDGET_MB as given (NULL: unset) */
static en_engine *make_budget(const en_problem *p, const char *budget_mb, int threads)
{
    if (budget_mb) setenv("GS_GRAM_BUDGET_MB", budget_mb, 1); else unsetenv("GS_GRAM_BUDGET_MB");
    en_engine *e = make(p, 1, threads);
    unsetenv("GS_GRAM_BUDGET_MB");
    return e;
}

/* G_t and Q_t (en_gram) of task t of every method equal bit for bit in a and b */
static int same_gram(en_engine *a, en_engine *b, int t)
{
    int same = 1;
    for (int m = 0; m < NM; m++) {
        const gm_mat *Ga, *Qa, *Gb, *Qb;
        gm_mat ga = {0}, qa = {0};
        int rc = en_gram(a, m, t, &Ga, &Qa);
        if (!rc) rc = gm_copy(&ga, Ga, "test") | gm_copy(&qa, Qa, "test");
        if (!rc) rc = en_gram(b, m, t, &Gb, &Qb);
        same &= !rc && !memcmp(ga.v, Gb->v, (size_t)ga.rows * (size_t)ga.cols * sizeof(double)) &&
                !memcmp(qa.v, Qb->v, (size_t)qa.rows * (size_t)qa.cols * sizeof(double));
        gm_free(&ga); gm_free(&qa);
    }
    return same;
}

/* Bounded memory (GS_GRAM_BUDGET_MB=0: two task slots, the other tasks' Grams recomputed from the
 * rows when asked) against the same engine keeping every task's (T slots): after each retune
 * looking at a middle task (τ, β, α_base, ξ, then τ looking at the last task and at the first),
 * every snapshot and every task's W bit for bit, and G_t of a task neither holds (recomputed) and
 * of the looked-at task; an update cancelled once the looked-at task is reported, then completed,
 * ends the same; two workers and one. */
static void rolling(const tp_problem *tp, op_params q, const char *what)
{
    int T = tp->prob.T, mid = T / 2 + 1;
    en_engine *r2 = make_budget(&tp->prob, "0", 2), *r1 = make_budget(&tp->prob, "0", 1),
              *k = make_budget(&tp->prob, NULL, 2);
    CHECK(en_task_slots(r2) == 2 && en_task_slots(r1) == 2 && en_task_slots(k) == T,
          "%s: task slots kept %d and %d (budget 0), %d (default budget), of %d tasks", what, en_task_slots(r2),
          en_task_slots(r1), en_task_slots(k), T);
    const char *step[6] = {"first update", "τ", "β", "α_base", "ξ", "τ, the last task shown"};
    for (int s = 0; s < 8; s++) {
        int first = s < 6 ? mid : s == 6 ? T : 1;
        if (s == 1 || s >= 6) q.tau *= 1.7;
        if (s == 2) q.beta = 0.7;
        if (s == 3) q.alpha_base = 0.5;
        if (s == 4) q.xi = 2e-2;
        int rc = en_update(k, &q, first, NULL, NULL, NULL) | en_update(r1, &q, first, NULL, NULL, NULL);
        if (s == 3) { /* cancelled once the looked-at task is reported, then completed */
            int cancel = 0;
            int rcc = en_update(r2, &q, first, &cancel, cancel_after_first, &cancel);
            CHECK(rcc == GS_ECANCEL, "%s, bounded: the cancelled update says so", what);
        }
        rc |= en_update(r2, &q, first, NULL, NULL, NULL);
        CHECK(rc == GS_OK, "%s: updates: %s", what, gs_last_error());
        const char *name = s < 6 ? step[s] : s == 6 ? "τ, the last task shown" : "τ, the first task shown";
        CHECK(same_results(en_get_results(r2), en_get_results(k)) && same_results(en_get_results(r1), en_get_results(k)),
              "%s, bounded memory, after the %s: every snapshot = every task's Grams kept, bit for bit", what, name);
        CHECK(same_gram(r2, k, 2) && same_gram(r2, k, first) && same_gram(r1, k, T - 1),
              "%s, bounded memory, after the %s: G_t and Q_t of tasks 2, %d, %d recomputed = kept, bit for bit", what,
              name, first, T - 1);
        if (s == 0 || s == 3 || s == 7)
            CHECK(same_w(r2, k) && same_w(r1, k), "%s, bounded memory, after the %s: every task's W, bit for bit", what,
                  name);
    }
    en_destroy(r2); en_destroy(r1); en_destroy(k);
}

static void run(int max_aug, int keep)
{
    tp_problem tp;
    CHECK(tp_make(&tp, 6, 16, 14, 6, 8, 3, 7, 1100) == 0, "problem: %s", gs_last_error());
    char what[96];
    en_engine *d = make(&tp.prob, keep, 2), *p = make(&tp.prob, keep, 2), *d1 = make(&tp.prob, keep, 1);
    op_params q = defaults(max_aug);
    CHECK(update(d, &q, NULL) == GS_OK && update(p, &q, "off") == GS_OK && update(d1, &q, NULL) == GS_OK,
          "updates: %s", gs_last_error());
    const en_results *r = en_get_results(d);
    long N = r->m[1].snaps[r->T - 1].rows_seen + r->m[1].snaps[r->T - 1].aug_rows;
    snprintf(what, sizeof what, "max-aug %d (%ld rows at the end, D 1100), keep %d", max_aug, N, keep);
    compare(d, p, keep, what);
    CHECK(same_results(en_get_results(d), en_get_results(d1)), "%s: the dual with 1 and 2 threads, bit for bit", what);
    const char *step[3] = {"τ", "β", "α_base"};
    for (int k = 0; k < 3; k++) {
        if (k == 0) q.tau = 3.0;
        if (k == 1) q.beta = 0.4;
        if (k == 2) q.alpha_base = 0.3;
        CHECK(update(d, &q, NULL) == GS_OK && update(p, &q, "off") == GS_OK, "retune: %s", gs_last_error());
        char w2[128];
        snprintf(w2, sizeof w2, "%s, after a %s change", what, step[k]);
        compare(d, p, keep, w2);
    }
    if (keep) reordered(&tp, q, what);
    if (keep) rolling(&tp, defaults(max_aug), what);
    en_destroy(d); en_destroy(p); en_destroy(d1);
    tp_free(&tp);
}

int main(void)
{
    openblas_set_num_threads(1); /* as inside the engine's plan: the numbers do not depend on threads */
    run(12, 1);   /* fewer rows than D throughout */
    run(12, 0);
    run(200, 1);  /* more rows than D in the last tasks: the switch */
    run(200, 0);
    return tap_done();
}
