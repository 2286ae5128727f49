/* test_tui_worker.c — the TUI's compute thread driven without a terminal, as the UI drives it:
 * requests that supersede each other while computing (cancel), task changes, every view that
 * needs the worker (τ sweep, Theorem 1, claims, collapse, the effective-rank sweep), an export
 * and a change of the shown pair. Checks that what comes back belongs to the newest request.
 * With two seeds (--seeds): the other seed's results come after the first one's, belong to the
 * newest request and equal a run of that seed alone; `t` tunes on the mean over both seeds.
 * Fast τ changes from the shown task's tridiagonal form (GS_TAU_FACTOR_MIN_D lowers the D they
 * start at) give the numbers of a fresh run. Spectra are computed for the shown pair only.
 * `t` on RanPAC, then a task change and a τ change, reads RanPAC's λ from the engine's own copy
 * of the parameters (no pointer into the tuning's stack: AddressSanitizer, `make check-asan`).
 * Run under ThreadSanitizer by `make check-tsan`. */
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/tui_int.h"
#include "gs_common.h"
#include "gs_mtable.h"
#include "gs_tune.h"
#include "support/tap.h"

static tui_worker w;
static en_results *res;
static tui_extra *ex;

static void drain(void)
{
    struct pollfd pf = {w.wake[0], POLLIN, 0};
    if (poll(&pf, 1, 20) > 0) {
        char b[64];
        while (read(w.wake[0], b, sizeof b) > 0) {}
    }
    en_results *r = tw_take(&w);
    if (r) {
        if (res) { en_results_free(res); free(res); }
        res = r;
    }
    tui_extra *x = tw_take_extra(&w);
    if (x) {
        if (ex) { tui_extra_free(ex); free(ex); }
        ex = x;
    }
}

/* Until the worker's message says an export is written (1) or reports an error (0), at most
 * 300 s; the last message in msg. */
static int wait_exported(char *msg, size_t n)
{
    double t0 = gs_now();
    while (gs_now() - t0 < 300) {
        drain();
        int busy, err = 0;
        double prog;
        if (!tw_status(&w, &busy, &prog, msg, n, &err)) continue;
        if (strstr(msg, "exported")) return 1;
        if (err) return 0;
    }
    return 0;
}

/* Until the worker is idle with results of generation gen (at most `secs` seconds). */
static int settle(uint64_t gen, double secs)
{
    double t0 = gs_now();
    char msg[512];
    while (gs_now() - t0 < secs) {
        /* the status first, then the results: a worker seen idle has published its last results
         * for gen, and the drain takes them; drained first, a progressive (partial) publication
         * could be taken just before the final one and the idle worker seen after it */
        int busy, err;
        double prog;
        tw_status(&w, &busy, &prog, msg, sizeof msg, &err);
        drain();
        if (!busy && res && res->generation == gen) return 1;
    }
    return 0;
}

static int wait_extra(uint64_t gen, int task, int view, double secs)
{
    double t0 = gs_now();
    while (gs_now() - t0 < secs) {
        drain();
        if (ex && ex->gen == gen && ex->task == task && ex->view == view) return 1;
    }
    return 0;
}

/* The other seeds' results of generation gen (one seed: *out), at most secs seconds. */
static int wait_seeds(uint64_t gen, en_results **out, double secs)
{
    double t0 = gs_now();
    while (gs_now() - t0 < secs) {
        drain();
        en_results *sr[TUI_MAX_SEEDS];
        int n = tw_take_seeds(&w, sr, TUI_MAX_SEEDS);
        int hit = n == 1 && sr[0]->generation == gen;
        for (int i = 0; i < n; i++) {
            if (hit && !*out) { *out = sr[i]; continue; }
            en_results_free(sr[i]);
            free(sr[i]);
        }
        if (*out) return 1;
    }
    return 0;
}

/* Two seeds: ctx[0] seed 1 (shown), ctx[1] seed 2. */
static void two_seeds(op_opts *o, const en_config *cfg)
{
    static pl_ctx ctx[2], alone;
    uint64_t seeds[2] = {1, 2};
    o->params.seed = 1;
    o->proto.val_frac = 0.2;
    if (pl_open_seeds(ctx, 2, seeds, o, cfg, NULL, NULL) != GS_OK) { CHECK(0, "pl_open_seeds: %s", gs_last_error()); return; }
    CHECK(ctx[1].prob.seed == 2 && ctx[0].prob.seed == 1, "one problem per seed");
    CHECK(tw_start(&w, ctx, 2, seeds, cfg, o) == GS_OK, "worker with two seeds started");
    op_opts a = *o, b = *o;
    a.params.tau = 1;
    b.params.tau = 0.1;
    tw_request(&w, o, 1, 1);
    tw_request(&w, &a, 2, 2);
    tw_request(&w, &b, 3, 2);
    en_results *other = NULL;
    CHECK(settle(3, 300) && wait_seeds(3, &other, 300), "the other seed's results for the newest request");
    op_opts o2 = b;
    o2.params.seed = 2;
    int ok = pl_open(&alone, &o2, cfg, NULL, NULL) == GS_OK && en_update(alone.eng, &o2.params, 1, NULL, NULL, NULL) == GS_OK;
    const en_results *ra = ok ? en_get_results(alone.eng) : NULL;
    int same = other && ra && other->params.tau == 0.1 && other->params.seed == 2;
    for (int m = 0; same && m < ra->n_methods; m++)
        same = other->m[m].a_last == ra->m[m].a_last && other->m[m].val_a_last == ra->m[m].val_a_last;
    CHECK(same, "seed 2 in the worker = seed 2 alone (A_last %g, %g)", other ? other->m[0].a_last : NAN,
          ra ? ra->m[0].a_last : NAN);
    CHECK(res && res->params.seed == 1 && (!other || res->m[0].a_last != other->m[0].a_last), "the shown run is seed 1's");
    /* t: τ of method 1 on the mean validation accuracy over both seeds, as tn_search over the two */
    tw_tune(&w, tui_param_find("tau"), 1);
    int tp = -1;
    double tv = NAN, tobj = NAN;
    uint64_t tg = 0;
    double t0 = gs_now();
    while (gs_now() - t0 < 600 && !tw_take_tune(&w, &tp, &tv, &tobj, &tg)) drain();
    static pl_ctx ref[2];
    op_params q = b.params;
    double best = NAN;
    int evals = 0, st = pl_open_seeds(ref, 2, seeds, &b, cfg, NULL, NULL);
    en_engine *eng[2] = {ref[0].eng, ref[1].eng};
    if (st == GS_OK) st = tn_search(eng, seeds, 2, 1, &q, tn_space_find("tau"), OP_OBJ_ACC, NULL, &best, &evals);
    CHECK(st == GS_OK && tp == tui_param_find("tau") && tv == q.tau && tobj == best, "t with two seeds: τ %g (mean objective %g) = "
          "tn_search over both seeds (%g, %g)", tv, tobj, q.tau, best);
    if (st == GS_OK) pl_free_seeds(ref, 2);
    tw_stop(&w);
    if (other) { en_results_free(other); free(other); }
    if (ok) pl_free(&alone);
    pl_free_seeds(ctx, 2);
}


/* Fast τ changes (the threshold lowered to every D by GS_TAU_FACTOR_MIN_D): after the first
 * results the worker reduces the shown task; a τ change then solves that task from the reduction
 * (EN_TAU_FACTOR) and every number equals a fresh run at that τ (as `run --tau`); a task change
 * while it reduces stops it, and stopping the worker then does not wait for it. */
static void fast_tau(op_opts *o, const en_config *cfg)
{
    setenv("GS_TAU_FACTOR_MIN_D", "1", 1);
    static pl_ctx ctx, fresh;
    if (pl_open(&ctx, o, cfg, NULL, NULL) != GS_OK) { CHECK(0, "pl_open: %s", gs_last_error()); return; }
    CHECK(tw_start(&w, &ctx, 1, NULL, cfg, o) == GS_OK && w.fa_wanted, "worker started, reducing the shown task");
    tw_request(&w, o, 1, 2);
    CHECK(settle(1, 300), "first results");
    op_opts a = *o;
    a.params.tau = 3.0;
    tw_request(&w, &a, 2, 2);
    CHECK(settle(2, 300), "τ change served");
    en_config c1 = *cfg;
    c1.keep_task_grams = 0;
    int ok = pl_open(&fresh, &a, &c1, NULL, NULL) == GS_OK && en_update(fresh.eng, &a.params, 1, NULL, NULL, NULL) == GS_OK;
    const en_results *rf = ok ? en_get_results(fresh.eng) : NULL;
    int same = rf && res && res->params.tau == 3.0, via = res != NULL;
    for (int m = 0; same && m < res->n_methods; m++) {
        for (int t = 0; t < res->T; t++) {
            const en_snap *x = &res->m[m].snaps[t], *y = &rf->m[m].snaps[t];
            same &= x->state == EN_DONE && x->acc == y->acc && x->head_acc == y->head_acc && x->tail_acc == y->tail_acc;
            if (res->m[m].ridge) via &= !(x->flags & EN_TAU_FACTOR) == (t != 1);
        }
        same &= res->m[m].a_last == rf->m[m].a_last && res->m[m].a_avg == rf->m[m].a_avg;
    }
    CHECK(via, "task 2 solved from its tridiagonal form, the others by Cholesky");
    CHECK(same, "after the τ change every accuracy equals a fresh run at τ = 3");
    if (ok) pl_free(&fresh);
    /* another task and at once a third: the reduction of the second stops; then quit */
    tw_request(&w, &a, 2, 3);
    tw_request(&w, &a, 2, 1);
    CHECK(settle(2, 300), "task changes served");
    tw_request(&w, &a, 2, 3);
    double t0 = gs_now();
    tw_stop(&w);
    CHECK(gs_now() - t0 < 5, "stopping while it reduces takes %.2f s", gs_now() - t0);
    pl_free(&ctx);
    unsetenv("GS_TAU_FACTOR_MIN_D");
}

/* The engine configuration of the TUI for parsed options o (every task's G kept). */
static void tui_config(const op_opts *o, en_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->methods = (const char **)o->methods;
    cfg->n_methods = o->n_methods; mt_resolve(cfg);
    cfg->spectrum = o->spectrum;
    cfg->keep_task_grams = 1;
}

/* `t` with ranpac, ranpac+gsr and a small --expand, then the UI's next steps: a task change and a
 * τ change. The tuning's last update was given a parameter block that lives only inside the
 * tuning; the task change then fills task 1's spectrum (en_ensure_spectrum), which reads RanPAC's
 * λ (en_tau_for → ranpac_tau) through the parameters the engine holds. They must be its own copy:
 * through the caller's pointer this was a stack-use-after-scope (AddressSanitizer stops here), and
 * without ASan the spectrum could come from whatever the stack then held. Checked against a fresh
 * engine at the same parameters: the spectral numbers of task 1 (to rounding), then every accuracy after
 * the τ change (bit for bit). */
static void tune_ranpac(void)
{
    char ms[] = "ranpac,ranpac+gsr"; /* op_parse cuts the list in place */
    char *argv[] = {"gsrscope", "--tasks", "3", "--methods", ms, "--expand", "256", "--val-frac", "0.2", NULL};
    op_opts o;
    CHECK(op_parse(&o, 9, argv) == GS_OK, "options: %s", gs_last_error());
    en_config cfg;
    tui_config(&o, &cfg);
    static pl_ctx ctx, fresh;
    if (pl_open(&ctx, &o, &cfg, NULL, NULL) != GS_OK) { CHECK(0, "pl_open: %s", gs_last_error()); return; }
    CHECK(tw_start(&w, &ctx, 1, NULL, &cfg, &o) == GS_OK, "worker for ranpac, ranpac+gsr (--expand 256) started");
    tw_request(&w, &o, 1, 2);
    CHECK(settle(1, 300), "ranpac: first results at task 2");
    tw_tune(&w, tui_param_find("tau"), 1);
    int tp = -1;
    double tv = NAN, tobj = NAN;
    uint64_t tg = 0;
    double t0 = gs_now();
    while (gs_now() - t0 < 600 && !tw_take_tune(&w, &tp, &tv, &tobj, &tg)) drain();
    CHECK(tp == tui_param_find("tau") && tv > 0 && tg == 1, "t: τ %g chosen for ranpac+gsr (validation %g %%)", tv, tobj);
    /* the task change: task 1's spectrum, with λ read from the engine's parameters */
    tw_request(&w, &o, 1, 1);
    t0 = gs_now();
    int spec = 0;
    while (!spec && gs_now() - t0 < 300) {
        drain();
        spec = res && res->generation == 1;
        for (int m = 0; spec && m < res->n_methods; m++) spec = (res->m[m].snaps[0].flags & EN_SPECTRUM) != 0;
    }
    int ok = pl_open(&fresh, &o, &cfg, NULL, NULL) == GS_OK && en_update(fresh.eng, &o.params, 1, NULL, NULL, NULL) == GS_OK &&
             en_ensure_spectrum(fresh.eng, 1, EN_METHODS_ALL, NULL) == GS_OK;
    const en_results *rf = ok ? en_get_results(fresh.eng) : NULL;
    int same = spec && rf;
    for (int m = 0; same && m < res->n_methods; m++) {
        const en_snap *x = &res->m[m].snaps[0], *y = &rf->m[m].snaps[0];
        /* to rounding (the spectrum's LAPACK call runs outside the plan, at OpenBLAS's own thread
         * count: its last bits may vary); a λ read from elsewhere moves λ_min by τ or more */
        double tol = 1e-9 * y->lambda_max;
        same = x->eig && y->eig && fabs(x->lambda_max - y->lambda_max) <= tol && fabs(x->lambda_min - y->lambda_min) <= tol &&
               fabs(x->eig[0] - y->eig[0]) <= tol && fabs(x->erank - y->erank) <= 1e-9 * y->erank &&
               fabs(x->stable_rank - y->stable_rank) <= 1e-9 * y->stable_rank;
    }
    CHECK(same, "after t, task 1's spectrum (λ_min %.12g) equals a fresh engine's (%.12g)",
          spec ? res->m[0].snaps[0].lambda_min : NAN, rf ? rf->m[0].snaps[0].lambda_min : NAN);
    if (ok) pl_free(&fresh);
    /* the τ change: every accuracy equals a fresh run at that τ */
    op_opts a = o;
    a.params.tau = tv * 10;
    tw_request(&w, &a, 2, 1);
    CHECK(settle(2, 300), "ranpac: τ change served");
    en_config c1 = cfg;
    c1.keep_task_grams = 0;
    ok = pl_open(&fresh, &a, &c1, NULL, NULL) == GS_OK && en_update(fresh.eng, &a.params, 1, NULL, NULL, NULL) == GS_OK;
    rf = ok ? en_get_results(fresh.eng) : NULL;
    same = rf && res && res->params.tau == a.params.tau;
    char why[256] = "";
    for (int m = 0; same && m < res->n_methods; m++) {
        for (int t = 0; same && t < res->T; t++) {
            const en_snap *x = &res->m[m].snaps[t], *y = &rf->m[m].snaps[t];
            same = x->state == EN_DONE && x->acc == y->acc && x->head_acc == y->head_acc && x->val_acc == y->val_acc;
            if (!same)
                snprintf(why, sizeof why, " (first difference: %s task %d: state %d, acc %.17g vs %.17g, head %.17g vs %.17g, val %.17g vs %.17g)",
                         res->m[m].name, t + 1, (int)x->state, x->acc, y->acc, x->head_acc, y->head_acc, x->val_acc, y->val_acc);
        }
        if (same && !(res->m[m].a_last == rf->m[m].a_last && res->m[m].a_avg == rf->m[m].a_avg)) {
            same = 0;
            snprintf(why, sizeof why, " (%s: A_last %.17g vs %.17g)", res->m[m].name, res->m[m].a_last, rf->m[m].a_last);
        }
    }
    if (!res || !rf) snprintf(why, sizeof why, " (%s)", !res ? "no results published" : "the fresh engine failed");
    else if (res->params.tau != a.params.tau) snprintf(why, sizeof why, " (results at τ = %g)", res->params.tau);
    CHECK(same, "after the τ change (τ = %g) every accuracy equals a fresh run%s", a.params.tau, why);
    if (ok) pl_free(&fresh);
    tw_stop(&w);
    pl_free(&ctx);
    if (res) { en_results_free(res); free(res); res = NULL; }
}

/* Spectra only for the shown pair: with slda, gacl, fecam and slda, gacl shown, the last task's
 * published results carry slda's own spectrum and none of fecam's; m / M showing fecam brings
 * fecam's (the worker asks again for the new pair, without a new request). */
static void shown_spectra(void)
{
    char ms[] = "slda,gacl,fecam"; /* op_parse cuts the list in place */
    char *argv[] = {"gsrscope", "--tasks", "3", "--methods", ms, NULL};
    op_opts o;
    CHECK(op_parse(&o, 5, argv) == GS_OK, "options: %s", gs_last_error());
    en_config cfg;
    tui_config(&o, &cfg);
    static pl_ctx ctx;
    if (pl_open(&ctx, &o, &cfg, NULL, NULL) != GS_OK) { CHECK(0, "pl_open: %s", gs_last_error()); return; }
    CHECK(tw_start(&w, &ctx, 1, NULL, &cfg, &o) == GS_OK, "worker for slda, gacl, fecam started");
    tw_request(&w, &o, 1, 3);
    CHECK(settle(1, 300), "slda, gacl, fecam: results at task 3");
    const en_snap *sl = res ? &res->m[0].snaps[2] : NULL, *fc = res ? &res->m[2].snaps[2] : NULL;
    CHECK(res && res->m[2].spectrum_of[0], "fecam has a spectrum of its own (\"%s\")", res ? res->m[2].spectrum_of : "");
    CHECK(sl && sl->eig && (sl->flags & EN_OWN_SPECTRUM), "slda (shown): its own spectrum at task 3");
    CHECK(fc && !fc->eig && !(fc->flags & EN_OWN_SPECTRUM), "fecam (not shown): no spectrum computed");
    tw_set_pair(&w, 2, 1);
    double t0 = gs_now();
    int got = 0;
    while (!got && gs_now() - t0 < 300) {
        drain();
        got = res && res->m[2].snaps[2].eig && (res->m[2].snaps[2].flags & EN_OWN_SPECTRUM);
    }
    CHECK(got, "fecam shown (M): its own spectrum at task 3 arrives");
    tw_stop(&w);
    pl_free(&ctx);
    if (res) { en_results_free(res); free(res); res = NULL; }
}

int main(void)
{
    char *argv[] = {"gsrscope", "--tasks", "3", NULL};
    op_opts o;
    CHECK(op_parse(&o, 3, argv) == GS_OK, "options: %s", gs_last_error());
    en_config cfg;
    tui_config(&o, &cfg);
    static pl_ctx ctx;
    if (pl_open(&ctx, &o, &cfg, NULL, NULL) != GS_OK) {
        CHECK(0, "pl_open (bundled sample): %s", gs_last_error());
        return tap_done();
    }
    CHECK(tw_start(&w, &ctx, 1, NULL, &cfg, &o) == GS_OK, "worker started");
    tw_request(&w, &o, 1, 1);
    CHECK(settle(1, 300), "first results (generation 1)");
    CHECK(res && res->m[0].snaps[0].state == EN_DONE && res->m[1].snaps[0].state == EN_DONE, "task 1 computed");
    /* two requests in a row: the second cancels the first; only generation 3 counts */
    op_opts o2 = o, o3 = o;
    o2.params.tau = 1;
    o3.params.tau = 10;
    o3.params.beta = 3;
    tw_request(&w, &o2, 2, 3);
    tw_request(&w, &o3, 3, 3);
    CHECK(settle(3, 300), "newest request served (generation 3)");
    CHECK(res && res->params.tau == 10 && res->params.beta == 3, "results carry the newest parameters (τ %g, β %g)",
          res ? res->params.tau : -1, res ? res->params.beta : -1);
    int done = 1;
    for (int m = 0; res && m < res->n_methods; m++)
        for (int t = 0; t < res->T; t++) done &= res->m[m].snaps[t].state == EN_DONE;
    CHECK(done, "every task of the newest generation done");
    /* the views the worker computes, at task 3 */
    static const int views[5] = {TV_TAU, TV_THEOREM, TV_CLAIMS, TV_COLLAPSE, TV_LENS};
    for (int i = 0; i < 5; i++) {
        tw_set_view(&w, views[i]);
        tw_request(&w, &o3, 3, 3);
        int got = wait_extra(3, 3, views[i], 300);
        CHECK(got && ex->st == GS_OK, "view %d computed for generation 3, task 3: %s", views[i], got ? ex->error : "(none)");
        if (!got) continue;
        if (views[i] == TV_TAU) CHECK(ex->nts == 2 && ex->ts[0].n == TS_DEFAULT_N, "τ sweep: two curves");
        if (views[i] == TV_THEOREM) CHECK(ex->have_th && ex->th.sr_before > 0, "Theorem 1 numbers");
        if (views[i] == TV_CLAIMS) CHECK(ex->have_th && ex->nts == 1, "claims: Theorem 1 and GACL's τ sweep");
        if (views[i] == TV_COLLAPSE) CHECK(ex->have_co && ex->co.n > 0 && ex->co.task == 3, "collapse: %d classes", ex->co.n);
        if (views[i] == TV_LENS)
            CHECK(ex->have_lens && ex->lens.n >= 2 && ex->lens.task == 3 && ex->lens.ncls > 0 && ex->lens.df[0] > 0,
                  "ridge lens: %d methods, %d classes", ex->lens.n, ex->lens.ncls);
    }
    /* the ridge lens keeps each method's eigendecomposition per task, keyed by what its G depends
     * on: a τ change computes none (the eigenvalues the same bits, the filter factors at the new
     * τ), a β change only GSR's (G + Δ), undoing it none */
    if (ex && ex->view == TV_LENS && ex->have_lens) {
        rl_result l3 = ex->lens;
        memset(&ex->lens, 0, sizeof ex->lens); /* kept: l3 owns its arrays now */
        pthread_mutex_lock(&w.mu);
        int e0 = w.lens_eigs;
        pthread_mutex_unlock(&w.mu);
        op_opts o4 = o3, o5 = o3;
        o4.params.tau = 20;
        o5.params.beta = 6;
        tw_request(&w, &o4, 4, 3);
        int got = wait_extra(4, 3, TV_LENS, 300) && ex->have_lens;
        pthread_mutex_lock(&w.mu);
        int e1 = w.lens_eigs;
        pthread_mutex_unlock(&w.mu);
        int same = got && ex->lens.n == l3.n && ex->lens.D == l3.D, df_ok = same;
        for (int k = 0; same && k < l3.n; k++) {
            same &= !memcmp(ex->lens.lam[k], l3.lam[k], (size_t)l3.D * sizeof(double));
            double df = 0, tk = ex->lens.tau[k];
            for (long i = 0; i < l3.D; i++) df += l3.lam[k][i] / (l3.lam[k][i] + tk);
            df_ok &= fabs(df - ex->lens.df[k]) <= 1e-9 * (1 + df) && tk == 2 * l3.tau[k]; /* τ_eff ∝ τ */
        }
        CHECK(got && e1 == e0 && same && df_ok, "lens after τ 10 → 20: no eigendecomposition (%d), the same λ, df at τ = 20",
              e1 - e0);
        tw_request(&w, &o5, 5, 3);
        got = wait_extra(5, 3, TV_LENS, 300) && ex->have_lens;
        pthread_mutex_lock(&w.mu);
        int e2 = w.lens_eigs;
        pthread_mutex_unlock(&w.mu);
        CHECK(got && e2 - e1 == 1, "lens after β 3 → 6: one eigendecomposition (GSR's G + Δ), %d", e2 - e1);
        tw_request(&w, &o3, 6, 3);
        got = wait_extra(6, 3, TV_LENS, 300) && ex->have_lens;
        pthread_mutex_lock(&w.mu);
        int e3 = w.lens_eigs;
        pthread_mutex_unlock(&w.mu);
        same = got && ex->lens.n == l3.n;
        for (int k = 0; same && k < l3.n; k++)
            same &= !memcmp(ex->lens.lam[k], l3.lam[k], (size_t)l3.D * sizeof(double)) &&
                    !memcmp(ex->lens.above[k], l3.above[k], (size_t)l3.ncls * sizeof(double)) && ex->lens.df[k] == l3.df[k];
        CHECK(got && e3 == e2 && same, "back to β 3, τ 10: from the cache (%d), every number as first computed", e3 - e2);
        /* a step: the next task's lens was computed ahead (helper thread), the step computes none */
        tw_request(&w, &o3, 6, 1);
        got = wait_extra(6, 1, TV_LENS, 300) && ex->have_lens;
        CHECK(got && settle(6, 300), "lens at task 1");
        int ahead = 1;
        double ta = gs_now();
        while (ahead && gs_now() - ta < 300) {
            pthread_mutex_lock(&w.mu);
            ahead = w.ahead;
            pthread_mutex_unlock(&w.mu);
        }
        pthread_mutex_lock(&w.mu);
        int e4 = w.lens_eigs;
        pthread_mutex_unlock(&w.mu);
        tw_request(&w, &o3, 6, 2);
        got = wait_extra(6, 2, TV_LENS, 300) && ex->have_lens && ex->lens.task == 2;
        pthread_mutex_lock(&w.mu);
        int e5 = w.lens_eigs;
        pthread_mutex_unlock(&w.mu);
        CHECK(got && e5 == e4, "→ task 2: its lens computed ahead, none at the step (%d)", e5 - e4);
        rl_free(&l3);
    } else CHECK(0, "the lens view's result at task 3 to compare with");
    /* a task change while a view computes: the result is for the new task only */
    tw_set_view(&w, TV_CLAIMS);
    tw_request(&w, &o3, 3, 1);
    tw_request(&w, &o3, 3, 2);
    CHECK(wait_extra(3, 2, TV_CLAIMS, 300), "claims recomputed for task 2");
    /* playing: the next tasks do not stop a view's running computation; it is published for its
     * own task (drawn when ready), then the task shown by then is computed, the ones passed
     * meanwhile skipped. (No timing: the requests follow the computation's start at once.) */
    {
        if (ex) { tui_extra_free(ex); free(ex); ex = NULL; }
        tw_set_view(&w, TV_TAU);
        tw_set_playing(&w, 1);
        pthread_mutex_lock(&w.mu);
        int r0 = w.ex_runs;
        pthread_mutex_unlock(&w.mu);
        tw_request(&w, &o3, 3, 1);
        int started = 0;
        double tp = gs_now();
        while (!started && gs_now() - tp < 300) {
            pthread_mutex_lock(&w.mu);
            started = w.ex_runs > r0;
            pthread_mutex_unlock(&w.mu);
        }
        tw_request(&w, &o3, 3, 3); /* two ticks while task 1's sweep computes */
        tw_request(&w, &o3, 3, 2);
        int seen[4] = {0, 0, 0, 0}, order_ok = 1;
        while (!seen[2] && gs_now() - tp < 300) {
            tui_extra *x = tw_take_extra(&w);
            if (!x) continue;
            if (x->view == TV_TAU && x->gen == 3 && x->task >= 1 && x->task <= 3 && x->st == GS_OK) {
                if (x->task == 2 && !seen[1]) order_ok = 0;
                seen[x->task]++;
            }
            tui_extra_free(x);
            free(x);
        }
        CHECK(started, "playing: the τ sweep of task 1 started");
        CHECK(seen[1] == 1 && order_ok, "playing: task 1's sweep finished and published before task 2's (%d)", seen[1]);
        CHECK(seen[2] == 1 && seen[3] == 0, "playing: then the task shown by now (2: %d), task 3 passed over (%d)",
              seen[2], seen[3]);
        tw_set_playing(&w, 0);
    }
    /* back on a view whose inputs (generation, task, pair) did not change: not computed again
     * (the UI keeps each view's result); the next view that did change computes once */
    {
        tw_set_view(&w, TV_COLLAPSE);
        tw_request(&w, &o3, 3, 2);
        CHECK(wait_extra(3, 2, TV_COLLAPSE, 300), "collapse for task 2");
        pthread_mutex_lock(&w.mu);
        int runs0 = w.ex_runs;
        pthread_mutex_unlock(&w.mu);
        tw_set_view(&w, TV_CLAIMS);
        tw_request(&w, &o3, 3, 2);
        double tc = gs_now();
        int busy = 1, err;
        double prog;
        char m2[512];
        while (busy && gs_now() - tc < 5) { drain(); tw_status(&w, &busy, &prog, m2, sizeof m2, &err); }
        tw_set_view(&w, TV_THEOREM);
        tw_request(&w, &o3, 3, 2);
        CHECK(wait_extra(3, 2, TV_THEOREM, 300), "Theorem 1 for task 2");
        pthread_mutex_lock(&w.mu);
        int runs1 = w.ex_runs;
        pthread_mutex_unlock(&w.mu);
        CHECK(runs1 - runs0 == 1, "claims again at the same inputs: no computation (%d computations, 1 expected: Theorem 1)",
              runs1 - runs0);
        if (ex) { tui_extra_free(ex); free(ex); ex = NULL; } /* what follows waits for new results */
    }
    /* the effective-rank view: the exact spectrum at every task, in the background */
    tw_set_view(&w, TV_ERANK);
    tw_request(&w, &o3, 3, 2);
    double t0 = gs_now();
    int all = 0;
    while (!all && gs_now() - t0 < 300) {
        drain();
        all = res != NULL;
        for (int m = 0; res && m < res->n_methods; m++)
            for (int t = 0; t < res->T; t++)
                if (res->m[m].ridge && !(res->m[m].snaps[t].flags & EN_SPECTRUM)) all = 0;
    }
    CHECK(all, "erank view: the spectrum at every task");
    /* the shown pair swapped, then an export of the dashboard */
    tw_set_pair(&w, 1, 0);
    tw_set_view(&w, TV_THEOREM);
    tw_request(&w, &o3, 3, 2);
    CHECK(wait_extra(3, 2, TV_THEOREM, 300) && ex->m0 == 1 && ex->m1 == 0, "Theorem 1 for the swapped pair");
    char path[64];
    snprintf(path, sizeof path, "/tmp/gs_test_tui_worker_%ld.png", (long)getpid());
    tw_export(&w, path, "dashboard", res);
    char msg[512] = "";
    int exported = wait_exported(msg, sizeof msg);
    size_t n = 0;
    unsigned char *png = tap_slurp(path, &n);
    CHECK(exported && png && n > 8 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G', "export written (%zu bytes): %s", n, msg);
    free(png);
    unlink(path);
    /* key E: the frames of the view up to the shown task (2): a PDF of two pages */
    snprintf(path, sizeof path, "/tmp/gs_test_tui_worker_%ld.pdf", (long)getpid());
    tw_export_frames(&w, path, "dashboard", NULL);
    exported = wait_exported(msg, sizeof msg);
    unsigned char *pdf = tap_slurp(path, &n);
    int pages = 0;
    for (size_t i = 0; pdf && i + 11 < n; i++) /* "/Type /Page" of a page, not of the "/Pages" tree */
        if (!memcmp(pdf + i, "/Type /Page", 11) && pdf[i + 11] != 's') pages++;
    CHECK(exported && pdf && n > 4 && !memcmp(pdf, "%PDF", 4) && pages == 2, "frames export: a PDF of %d pages (want 2): %s",
          pages, msg);
    free(pdf);
    unlink(path);
    tw_stop(&w);
    pl_free(&ctx);
    if (res) { en_results_free(res); free(res); res = NULL; }
    if (ex) { tui_extra_free(ex); free(ex); ex = NULL; }
    fast_tau(&o, &cfg);
    if (res) { en_results_free(res); free(res); res = NULL; }
    two_seeds(&o, &cfg);
    if (res) { en_results_free(res); free(res); res = NULL; }
    shown_spectra();
    tune_ranpac();
    if (ex) { tui_extra_free(ex); free(ex); }
    return tap_done();
}
