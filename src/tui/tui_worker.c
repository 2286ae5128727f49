/* tui/tui_worker.c — the TUI's compute thread: owns the pipeline and engine, runs en_update and
 * en_ensure_spectrum for the newest request, publishes results copies tagged with their
 * generation, and wakes the UI through a self-pipe; keeps the ridge lens's eigendecompositions
 * (per method and task, not τ) and computes the next task's ahead on a helper thread; names its
 * work for the status bar. Never calls curses. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_common.h"
#include "gs_chart.h"
#include "gs_figure.h"
#include "gs_tune.h"
#include "tui_int.h"

/* The cancel flags are read by the engine's helper thread while the UI sets them: every access
 * is atomic (relaxed: a flag only says "stop soon"). */
static void flag_set(volatile int *f, int v) { __atomic_store_n(f, v, __ATOMIC_RELAXED); }
static int flag_get(volatile int *f) { return __atomic_load_n(f, __ATOMIC_RELAXED); }

static void set_msg(tui_worker *w, int error, const char *fmt, const char *a, const char *b)
{
    pthread_mutex_lock(&w->mu);
    snprintf(w->msg, sizeof w->msg, fmt, a, b ? b : "");
    w->msg_error = error;
    w->msg_new = 1;
    pthread_mutex_unlock(&w->mu);
}

static void publish(tui_worker *w, uint64_t gen)
{
    const en_results *r = en_get_results(w->ctx->eng);
    en_results *c = calloc(1, sizeof *c);
    if (!c) return;
    if (en_results_copy(c, r) != GS_OK) { free(c); return; }
    c->generation = gen;
    pthread_mutex_lock(&w->mu);
    if (w->pub) { en_results_free(w->pub); free(w->pub); }
    w->pub = c;
    pthread_mutex_unlock(&w->mu);
    w->last_pub = gs_now();
    tw_wake(w);
}

static void on_progress(double f, const char *what, void *user)
{
    tui_worker *w = user;
    pthread_mutex_lock(&w->mu);
    w->progress = f;
    pthread_mutex_unlock(&w->mu);
    if (gs_now() - w->last_pub > 0.15 || f >= 1) publish(w, w->work_gen);
}

static int same_stream(const op_opts *a, const op_opts *b)
{
    return a->params.seed == b->params.seed && !memcmp(&a->proto, &b->proto, sizeof a->proto);
}

/* Is ctx[k] (k >= 1) built for the protocol of o? */
static int seed_ready(const tui_worker *w, int k, const op_opts *o)
{
    return w->xbuilt[k] && !memcmp(&w->xproto[k], &o->proto, sizeof o->proto);
}

/* --seeds: bring every other seed's engine to the parameters of o (its own seed; a new stream
 * when the protocol changed), then publish their results together. GS_OK, GS_ECANCEL (a newer
 * request) or an error (message set; nothing published). */
static int do_seeds(tui_worker *w, uint64_t gen, const op_opts *o, int task)
{
    en_results *runs[TUI_MAX_SEEDS];
    int n = 0, st = GS_OK;
    for (int k = 1; k < w->nctx && st == GS_OK; k++) {
        pl_ctx *c = &w->ctx[k];
        op_opts x = *o;
        x.params.seed = w->seeds[k];
        if (!seed_ready(w, k, o)) {
            w->xbuilt[k] = 0;
            if ((st = pl_reseed(c, &x, &w->cfg))) break;
            w->xproto[k] = o->proto;
            w->xbuilt[k] = 1;
        }
        pthread_mutex_lock(&w->mu);
        w->progress = (double)(k - 1) / (w->nctx - 1);
        pthread_mutex_unlock(&w->mu);
        tw_wake(w);
        if ((st = en_update(c->eng, &x.params, task, &w->cancel, NULL, NULL))) break;
        en_results *r = calloc(1, sizeof *r);
        if (!r) { st = gs_error(GS_ENOMEM, "seeds: out of memory"); break; }
        if ((st = en_results_copy(r, en_get_results(c->eng)))) { free(r); break; }
        r->generation = gen;
        runs[n++] = r;
    }
    if (st) {
        for (int i = 0; i < n; i++) { en_results_free(runs[i]); free(runs[i]); }
        return st;
    }
    pthread_mutex_lock(&w->mu);
    for (int i = 0; i < w->pub_nseeds; i++) { en_results_free(w->pub_seeds[i]); free(w->pub_seeds[i]); }
    for (int i = 0; i < n; i++) w->pub_seeds[i] = runs[i];
    w->pub_nseeds = n;
    pthread_mutex_unlock(&w->mu);
    tw_wake(w);
    return GS_OK;
}

/* The engines of every seed that is up to date with o (the shown one first) and their seeds. */
static int seed_engines(tui_worker *w, const op_opts *o, en_engine **eng, uint64_t *seeds)
{
    int n = 0;
    eng[n] = w->ctx[0].eng;
    seeds[n++] = o->params.seed;
    for (int k = 1; k < w->nctx; k++)
        if (seed_ready(w, k, o)) { eng[n] = w->ctx[k].eng; seeds[n++] = w->seeds[k]; }
    return n;
}

/* The methods of the shown pair, as en_ensure_spectrum takes them. */
static unsigned pair_mask(int m0, int m1) { return en_method_bit(m0) | en_method_bit(m1); }

static void run_export(tui_worker *w, const char *path, const char *figure, en_results *base, int m0, int m1,
                       int frames)
{
    fig_request q;
    memset(&q, 0, sizeof q);
    q.r = en_get_results(w->ctx->eng);
    q.baseline = base;
    q.prob = &w->ctx->prob;
    q.opts = &w->cur;
    q.m0 = m0 >= 0 && m0 < q.r->n_methods ? m0 : 0;
    q.m1 = m1 >= 0 && m1 < q.r->n_methods && m1 != q.m0 ? m1 : -1;
    q.task = w->spec_task;
    q.dpi = 300;
    q.width_in = 0; /* the figure's own default width */
    q.eng = w->ctx->eng;
    q.frames = frames;
    /* --seeds: the figures that draw a mean over seeds get every seed's run (and τ curves) */
    en_engine *eng[TUI_MAX_SEEDS];
    uint64_t seeds[TUI_MAX_SEEDS];
    const en_results *runs[TUI_MAX_SEEDS];
    ts_curve sw[TUI_MAX_SEEDS][2];
    const ts_curve *swp[TUI_MAX_SEEDS];
    /* frames: one seed (a mean over seeds of the τ sweep is at one task), each frame's spectrum */
    int ne = !frames && w->nctx > 1 && fig_seeds_supported(figure) ? seed_engines(w, &w->cur, eng, seeds) : 0, nsw = 0,
        st = GS_OK;
    unsigned needs = fig_needs(figure);
    int tau = (needs & FIG_TAU_CURVES) != 0, erank = (needs & FIG_EVERY_SPECTRUM) != 0;
    /* one run: the spectrum at every task (erank: export's set) or, frames, up to the task */
    if (frames || (erank && !(ne == w->nctx && ne > 1)))
        for (int t = 1; st == GS_OK && t <= (frames && q.task >= 1 ? q.task : q.r->T); t++)
            st = en_ensure_spectrum(w->ctx->eng, t, pair_mask(q.m0, q.m1), &w->cancel);
    if (frames || erank) q.r = en_get_results(w->ctx->eng);
    memset(sw, 0, sizeof sw);
    if (ne == w->nctx && ne > 1) {
        unsigned shown = pair_mask(q.m0, q.m1);
        for (int k = 0; k < ne && st == GS_OK; k++) {
            if (erank) /* e.g. the effective rank: the spectrum at every task */
                for (int t = 1; st == GS_OK && t <= q.r->T; t++) st = en_ensure_spectrum(eng[k], t, shown, &w->cancel);
            else if (q.task >= 1) st = en_ensure_spectrum(eng[k], q.task, shown, &w->cancel);
            runs[k] = en_get_results(eng[k]);
            if (st == GS_OK && tau) st = fig_tau_curves(eng[k], &w->ctx[k].prob, runs[k], q.m0, q.m1, q.task, sw[k], &nsw);
            swp[k] = sw[k];
        }
        q.r = runs[0];
        q.runs = runs;
        q.nruns = ne;
        q.sweeps = tau ? swp : NULL;
        q.nsweep = nsw;
    }
    if (st == GS_OK) st = fig_export(&q, figure, path, NULL);
    for (int k = 0; k < ne; k++) { ts_free(&sw[k][0]); ts_free(&sw[k][1]); }
    if (st == GS_OK) set_msg(w, 0, "exported %.400s%s", path, NULL);
    else {
        unlink(path); /* the reserved empty file */
        char e[300];
        snprintf(e, sizeof e, "%s", gs_last_error());
        set_msg(w, 1, "export failed: %s%s", e, NULL);
    }
}

void tui_extra_free(tui_extra *x)
{
    if (!x) return;
    for (int i = 0; i < x->nts; i++) ts_free(&x->ts[i]);
    x->nts = 0;
    co_free(&x->co);
    x->have_co = 0;
    rl_free(&x->lens);
    x->have_lens = 0;
}


/* Theorem 1 at `task` for the shown pair: G = the Gram matrix of the learner alone (one of the
 * two), Δ = G_method − G (the other: the same learner with an augmenter), split r = --split or the
 * number of head classes seen. A pair that does not fit says why (shown in the panel). */
static int extra_theorem(tui_worker *w, int task, const op_params *pp, tui_extra *x)
{
    const en_results *r = en_get_results(w->ctx->eng);
    int mb = -1, ma = -1;
    if (!en_results_pair(r, x->m0, x->m1, &mb, &ma))
        return gs_error(GS_EINPUT, "Theorem 1 compares a learner alone (G) with it and an augmenter (G + Δ): "
                                   "show GACL and GSR, or such a pair (keys m / M)");
    if (!tw_valid_m(r, ma))
        return gs_error(GS_EINPUT, "Theorem 1 needs a second, augmenting ridge method: run with "
                                   "--methods gacl,gsr,...");
    if (!r->m[ma].ridge) {
        char dn[32];
        ch_display_name(r->m[ma].name, dn, sizeof dn);
        return gs_error(GS_EINPUT, "Theorem 1: %s is not a ridge method (no Gram matrix); show a ridge "
                                   "augmenting method such as GSR (keys m / M)", dn);
    }
    const st_stream *st = &w->ctx->st;
    int rs = w->cur.theorem_r;
    if (rs <= 0) {
        rs = 0;
        for (int k = 0; k < st->task_class_start[task]; k++) rs += st->is_head[st->class_order[k]];
    }
    if (rs < 1) rs = 1;
    const gm_mat *G, *Q;
    gm_mat Gb = {0}, Delta = {0};
    int rc = en_gram(w->ctx->eng, mb, task, &G, &Q);
    if (!rc) rc = gm_copy(&Gb, G, "Theorem 1");
    if (!rc) rc = en_gram(w->ctx->eng, ma, task, &G, &Q);
    if (!rc) rc = gm_copy(&Delta, G, "Theorem 1");
    if (!rc) {
        for (size_t i = 0; i < (size_t)Gb.rows * Gb.cols; i++) Delta.v[i] -= Gb.v[i];
        if (rs >= Gb.rows) rs = (int)Gb.rows - 1;
        rc = sp_theorem1(&Gb, &Delta, rs, pp->tau, &x->th);
    }
    if (!rc) {
        x->have_th = 1;
        x->D = Gb.rows;
        snprintf(x->th_method, sizeof x->th_method, "%s", r->m[ma].name);
    }
    gm_free(&Gb);
    gm_free(&Delta);
    return rc;
}

static int extra_tau(tui_worker *w, int task, tui_extra *x)
{
    const en_results *r = en_get_results(w->ctx->eng);
    double taus[TS_DEFAULT_N];
    ts_log_grid(1e-4, 1e4, TS_DEFAULT_N, taus);
    int rc = GS_OK;
    int ms[2] = {x->m0, x->m1};
    for (int i = 0; i < 2 && rc == GS_OK; i++) {
        int m = ms[i];
        if (!tw_valid_m(r, m) || !r->m[m].ridge) continue;
        rc = ts_compute(w->ctx->eng, &w->ctx->prob, m, task, taus, TS_DEFAULT_N, &x->ts[x->nts], &w->ex_cancel);
        if (rc == GS_OK) x->nts++;
    }
    if (rc == GS_OK && x->nts == 0)
        rc = gs_error(GS_EINPUT, "τ sweep: no ridge method shown (NCM and SLDA have no τ); pick one with m / M");
    return rc;
}

/* The claims view: Theorem 1 for the shown pair (when it fits: GACL and a ridge method; else
 * th_error says why and that claim stays '?') and the τ sweep of the reference method. */
static int extra_claims(tui_worker *w, int task, const op_params *pp, tui_extra *x)
{
    const en_results *r = en_get_results(w->ctx->eng);
    int ref, aug;
    tui_ref_aug(r, x->m0, x->m1, &ref, &aug);
    if (ref < 0 || aug < 0)
        return gs_error(GS_EINPUT, "the claims compare two methods: run with --methods gacl,gsr and show both (m / M)");
    int rc = extra_theorem(w, task, pp, x);
    if (rc == GS_ECANCEL) return rc;
    if (rc != GS_OK) snprintf(x->th_error, sizeof x->th_error, "%s", gs_last_error());
    if (flag_get(&w->ex_cancel)) return GS_ECANCEL;
    if (!r->m[ref].ridge) return GS_OK;
    double taus[TS_DEFAULT_N];
    ts_log_grid(1e-4, 1e4, TS_DEFAULT_N, taus);
    rc = ts_compute(w->ctx->eng, &w->ctx->prob, ref, task, taus, TS_DEFAULT_N, &x->ts[0], &w->ex_cancel);
    if (rc == GS_OK) x->nts = 1;
    if (rc == GS_ECANCEL) return rc;
    /* the spread and mass of the augmenting method's rows (the engine keeps them: collect_aug) */
    const gm_mat *ar;
    const int *al;
    const double *aw;
    x->have_mech = en_aug_rows(w->ctx->eng, aug, &ar, &al, &aw) == GS_OK &&
                   mc_rows_compute(&w->ctx->prob, r, task, ar, al, aw, pp->beta, &x->mech) == GS_OK;
    return GS_OK;
}

static int extra_collapse(tui_worker *w, int task, tui_extra *x)
{
    const en_results *r = en_get_results(w->ctx->eng);
    int ref, aug;
    tui_ref_aug(r, x->m0, x->m1, &ref, &aug);
    int rc = co_compute(w->ctx->eng, &w->ctx->prob, ref, aug, task, &x->co);
    if (rc == GS_OK) x->have_co = 1;
    return rc;
}

/* Compute what `view` needs at `task` and publish it (not on cancel). */
static void do_extra(tui_worker *w, uint64_t gen, int task, int view, int m0, int m1, const op_params *pp)
{
    tui_extra *x = calloc(1, sizeof *x);
    if (!x) return;
    x->gen = gen;
    x->task = task;
    x->view = view;
    x->m0 = m0;
    x->m1 = m1;
    x->tau = pp->tau;
    if (view != TV_LENS) tw_set_work(w, tui_view_short(view), task, NULL);
    int rc = view == TV_TAU       ? extra_tau(w, task, x)
             : view == TV_CLAIMS  ? extra_claims(w, task, pp, x)
             : view == TV_COLLAPSE ? extra_collapse(w, task, x)
             : view == TV_LENS     ? tw_extra_lens(w, task, x)
                                   : extra_theorem(w, task, pp, x);
    if (rc == GS_ECANCEL) { tui_extra_free(x); free(x); return; }
    x->st = rc;
    if (rc) snprintf(x->error, sizeof x->error, "%s", gs_last_error());
    pthread_mutex_lock(&w->mu);
    if (w->pub_ex[view]) { tui_extra_free(w->pub_ex[view]); free(w->pub_ex[view]); }
    w->pub_ex[view] = x;
    w->ex_gen[view] = gen;
    w->ex_task[view] = task;
    w->ex_m0[view] = m0;
    w->ex_m1[view] = m1;
    pthread_mutex_unlock(&w->mu);
    tw_wake(w);
}

/* Under mu: the shown view needs a computation not done yet for the request. */
static int need_extra(const tui_worker *w)
{
    int v = w->req_view;
    return tui_view_needs_worker(v) && v >= 0 && v < TV_COUNT &&
           (w->ex_gen[v] != w->req_gen || w->ex_task[v] != w->req_task || w->ex_m0[v] != w->req_m0 ||
            w->ex_m1[v] != w->req_m1);
}

/* Under mu: the shown task is not yet reduced for fast τ changes (large D). */
static int need_factor(const tui_worker *w)
{
    return w->fa_wanted && (w->fa_gen != w->req_gen || w->fa_task != w->req_task);
}

/* Large D: the shown task's G_t in tridiagonal form (en_prepare_tau: seconds of one core), after
 * its results are on screen, so that a τ change of this task re-solves in a fraction of a second
 * and its exact spectrum shows. Any new request, task, export or tuning stops it between panels
 * (the reduction resumes there when the task comes back with the same Gram matrix). */
static int do_factor(tui_worker *w, uint64_t gen, int task)
{
    pthread_mutex_lock(&w->mu);
    w->factoring = task;
    pthread_mutex_unlock(&w->mu);
    tw_wake(w);
    int st = en_prepare_tau(w->ctx->eng, task, &w->fa_cancel);
    pthread_mutex_lock(&w->mu);
    w->factoring = 0;
    if (st != GS_ECANCEL) { w->fa_gen = gen; w->fa_task = task; }
    pthread_mutex_unlock(&w->mu);
    if (st == GS_OK) publish(w, gen);
    else if (st != GS_ECANCEL) {
        char e[400];
        snprintf(e, sizeof e, "%s", gs_last_error());
        set_msg(w, 1, "τ factor: %s%s", e, NULL);
    }
    tw_wake(w);
    return st;
}

/* Under mu: the Effective rank view is open and some task of the request may lack its exact
 * spectrum. */
static int need_sweep(const tui_worker *w)
{
    return w->req_view == TV_ERANK && (w->sp_gen != w->req_gen || w->sp_mask != pair_mask(w->req_m0, w->req_m1));
}

/* The shown pair changed since the shown task's spectra were asked for (under mu). */
static int need_pair_spectrum(const tui_worker *w) { return w->spec_mask != pair_mask(w->req_m0, w->req_m1); }

/* The Effective rank view: the exact spectrum (en_ensure_spectrum) of the shown pair (mask) at
 * every task, in the background, publishing as it goes. Stops when the generation, the view or
 * the pair changes (sp_cancel interrupts a running decomposition) and yields between tasks when
 * the UI asks for another task (the main loop serves it, then comes back here; finished tasks
 * are skipped). */
static void do_sweep(tui_worker *w, uint64_t gen, int task, unsigned mask)
{
    const en_results *r = en_get_results(w->ctx->eng);
    int T = r->T, added = 0, failed = 0;
    char err[300] = "";
    for (int t = 1; t <= T; t++) {
        pthread_mutex_lock(&w->mu);
        int stop = w->req_gen != gen || w->req_view != TV_ERANK || w->req_task != task || w->quit ||
                   w->export_req || pair_mask(w->req_m0, w->req_m1) != mask;
        w->progress = (double)(t - 1) / T;
        pthread_mutex_unlock(&w->mu);
        if (stop) {
            if (added) publish(w, gen);
            return;
        }
        int missing = 0;
        for (int m = 0; m < r->n_methods; m++) {
            const en_snap *sn = &r->m[m].snaps[t - 1];
            if ((mask & en_method_bit(m)) && r->m[m].ridge && sn->state == EN_DONE &&
                !(sn->flags & (EN_SPECTRUM | EN_NO_GRAM)))
                missing = 1;
        }
        if (!missing) continue;
        int rc = en_ensure_spectrum(w->ctx->eng, t, mask, &w->sp_cancel);
        if (rc == GS_ECANCEL) {
            if (added) publish(w, gen);
            return;
        }
        if (rc != GS_OK) {
            if (!failed++) snprintf(err, sizeof err, "%s", gs_last_error());
            continue;
        }
        added++;
        if (gs_now() - w->last_pub > 0.3) publish(w, gen);
    }
    if (added) publish(w, gen);
    if (failed) set_msg(w, 1, "effective rank: %s%s", err, NULL);
    pthread_mutex_lock(&w->mu);
    if (w->req_gen == gen) {
        w->sp_gen = gen;
        w->sp_mask = mask;
    }
    pthread_mutex_unlock(&w->mu);
}

/* `t`: search one parameter on the validation rows (gs_tune.h), then bring the engine back to
 * the current parameters (the tuning leaves it at its last evaluation) and hand the value to the
 * UI, which applies it as a parameter change (undoable). */
static void run_tune(tui_worker *w, int param, int m, const op_opts *o, int task, uint64_t gen)
{
    const op_params *cur = &o->params;
    const tn_space *sp = tn_space_find(tui_param_name((tui_param)param));
    op_params q = *cur;
    double best = NAN;
    int evals = 0;
    en_engine *eng[TUI_MAX_SEEDS];
    uint64_t seeds[TUI_MAX_SEEDS];
    int ne = seed_engines(w, o, eng, seeds); /* with --seeds: the mean objective over them */
    int st = sp ? tn_search(eng, seeds, ne, m, &q, sp, OP_OBJ_ACC, &w->cancel, &best, &evals)
                : gs_error(GS_EINPUT, "this parameter is not tuned");
    int st2 = GS_OK;
    for (int k = 0; k < ne && !st2; k++) {
        op_params back = *cur;
        back.seed = seeds[k];
        st2 = en_update(eng[k], &back, k ? 1 : task, NULL, NULL, NULL);
    }
    if (st == GS_ECANCEL) { set_msg(w, 0, "tuning stopped%s%s", "", NULL); return; }
    if (st || st2) {
        char e[400];
        snprintf(e, sizeof e, "%s", gs_last_error());
        set_msg(w, 1, "tuning failed: %s%s", e, NULL);
        return;
    }
    pthread_mutex_lock(&w->mu);
    w->tune_done = 1;
    w->tune_param = param;
    w->tune_value = tn_get(&q, sp);
    w->tune_obj = best;
    w->tune_gen = gen;
    pthread_mutex_unlock(&w->mu);
}

static void *worker_main(void *arg)
{
    tui_worker *w = arg;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGWINCH);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->quit && !w->export_req && !w->tune_req && w->done_gen == w->req_gen && w->spec_task == w->req_task &&
               !need_extra(w) && !need_sweep(w) && !need_factor(w) && !need_pair_spectrum(w)) {
            w->busy = 0;
            w->work[0] = 0;
            pthread_cond_wait(&w->cv, &w->mu);
        }
        if (w->quit) break;
        if (w->tune_req && w->done_gen == w->req_gen) {
            int param = w->tune_param, m = w->tune_m;
            uint64_t gen = w->req_gen;
            op_opts q = w->req_opts;
            int task = w->req_task;
            w->tune_req = 0;
            flag_set(&w->cancel, 0);
            w->busy = 1;
            snprintf(w->work, sizeof w->work, "tuning on the validation rows");
            pthread_mutex_unlock(&w->mu);
            run_tune(w, param, m, &q, task, gen);
            tw_wake(w);
            pthread_mutex_lock(&w->mu);
            continue;
        }
        if (w->export_req && w->done_gen == w->req_gen) {
            char path[4096], fig[32];
            snprintf(path, sizeof path, "%s", w->export_path);
            snprintf(fig, sizeof fig, "%s", w->export_figure);
            en_results *base = w->export_base;
            int e0 = w->req_m0, e1 = w->req_m1, frames = w->export_frames;
            w->export_base = NULL;
            w->export_req = 0;
            snprintf(w->work, sizeof w->work, "export of %s", fig);
            pthread_mutex_unlock(&w->mu);
            run_export(w, path, fig, base, e0, e1, frames);
            if (base) { en_results_free(base); free(base); }
            tw_wake(w);
            pthread_mutex_lock(&w->mu);
            continue;
        }
        uint64_t gen = w->req_gen;
        op_opts o = w->req_opts;
        int task = w->req_task;
        int view = w->req_view;
        int m0 = w->req_m0, m1 = w->req_m1;
        int fresh = gen != w->done_gen || task != w->spec_task;
        unsigned mask = pair_mask(m0, m1);
        int new_pair = mask != w->spec_mask; /* m / M: the newly shown method's spectrum */
        flag_set(&w->cancel, 0);
        flag_set(&w->ex_cancel, 0);
        flag_set(&w->sp_cancel, 0);
        flag_set(&w->fa_cancel, 0);
        w->busy = 1;
        w->progress = 0;
        w->work[0] = 0;
        pthread_mutex_unlock(&w->mu);
        tw_wake(w);

        int st = GS_OK;
        w->work_gen = gen;
        if (gen != w->done_gen) {
            int reseed = !same_stream(&o, &w->cur);
            if (reseed) {
                tw_set_work(w, "a new stream of tasks", 0, NULL);
                st = pl_reseed(w->ctx, &o, &w->cfg);
                if (st == GS_OK) w->cur = o;
            }
            if (st == GS_OK) {
                tw_lens_keys(w, &o.params, reseed);
                w->cur.params = o.params;
                tw_set_work(w, "results", 0, NULL);
                pthread_mutex_lock(&w->mu);
                w->updating = 1;
                pthread_mutex_unlock(&w->mu);
                st = en_update(w->ctx->eng, &o.params, task, &w->cancel, on_progress, w);
                pthread_mutex_lock(&w->mu);
                w->updating = 0;
                pthread_mutex_unlock(&w->mu);
            }
        }
        /* the shown pair's exact spectrum at the shown task, unless that is costly (large D,
         * --spectrum auto) */
        if (st == GS_OK && en_spectrum_default(w->ctx->eng)) {
            tw_set_work(w, "eigenvalues of G", task, NULL);
            st = en_ensure_spectrum(w->ctx->eng, task, mask, &w->cancel);
        }
        if (st != GS_ECANCEL && (fresh || new_pair)) {
            if (st != GS_OK) {
                char e[400];
                snprintf(e, sizeof e, "%s", gs_last_error());
                set_msg(w, 1, "compute failed: %s%s", e, NULL);
            }
            publish(w, gen);
        }
        /* large D: the shown task reduced for fast τ changes (a no-op when it already is) */
        if (st == GS_OK && w->fa_wanted && (w->fa_gen != gen || w->fa_task != task) && !flag_get(&w->cancel))
            do_factor(w, gen, task);
        /* --seeds: the other seeds, after the shown one */
        if (st == GS_OK && w->nctx > 1 && gen != w->done_gen && !flag_get(&w->cancel)) {
            tw_set_work(w, "the other seeds", 0, NULL);
            int sst = do_seeds(w, gen, &o, task);
            if (sst == GS_ECANCEL) st = sst;
            else if (sst != GS_OK) {
                char e[400];
                snprintf(e, sizeof e, "%s", gs_last_error());
                set_msg(w, 1, "other seeds: %s%s", e, NULL);
            }
        }
        /* the view's own computation, for exactly this generation and task */
        if (st == GS_OK && tui_view_needs_worker(view) && !flag_get(&w->cancel)) {
            pthread_mutex_lock(&w->mu);
            int todo = w->ex_gen[view] != gen || w->ex_task[view] != task || w->ex_m0[view] != m0 ||
                       w->ex_m1[view] != m1;
            if (todo) w->ex_runs++;
            pthread_mutex_unlock(&w->mu);
            if (todo) do_extra(w, gen, task, view, m0, m1, &o.params);
        }
        /* the ridge lens: the next task's eigendecompositions, ahead of a step */
        if (st == GS_OK && view == TV_LENS && !flag_get(&w->cancel) && !flag_get(&w->ex_cancel)) {
            tw_lens_ahead(w, task, m0, m1);
        }
        /* the Effective rank view: exact spectra at every task */
        if (st == GS_OK && view == TV_ERANK && !flag_get(&w->cancel)) {
            tw_set_work(w, "eigenvalues of G at every task", 0, NULL);
            do_sweep(w, gen, task, mask);
        }
        pthread_mutex_lock(&w->mu);
        if (st != GS_ECANCEL) {
            w->done_gen = gen;
            w->spec_task = task;
            w->spec_mask = mask;
        }
    }
    w->busy = 0;
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

int tw_start(tui_worker *w, pl_ctx *ctx, int nctx, const uint64_t *seeds, const en_config *cfg, const op_opts *o)
{
    memset(w, 0, sizeof *w);
    if (pipe(w->wake) != 0) return gs_error(GS_ERUN, "TUI: cannot create a pipe: %s", strerror(errno));
    for (int i = 0; i < 2; i++) {
        fcntl(w->wake[i], F_SETFL, fcntl(w->wake[i], F_GETFL) | O_NONBLOCK);
        fcntl(w->wake[i], F_SETFD, FD_CLOEXEC);
    }
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    w->ctx = ctx;
    w->nctx = nctx < 1 ? 1 : nctx > TUI_MAX_SEEDS ? TUI_MAX_SEEDS : nctx;
    for (int k = 1; k < w->nctx; k++) {
        w->seeds[k] = seeds[k];
        w->xproto[k] = o->proto;
        w->xbuilt[k] = 1; /* opened with o's protocol */
    }
    w->cfg = *cfg;
    w->cur = *o;
    w->req_opts = *o;
    w->req_gen = 1;
    w->req_task = 1;
    w->req_m0 = 0;
    w->req_m1 = o->n_methods > 1 ? 1 : -1;
    w->done_gen = 0;
    w->spec_task = 0;
    w->fa_wanted = en_tau_factor_wanted(ctx[0].eng);
    if (pthread_create(&w->th, NULL, worker_main, w) != 0) {
        close(w->wake[0]);
        close(w->wake[1]);
        return gs_error(GS_ERUN, "TUI: cannot start the worker thread");
    }
    w->started = 1;
    return GS_OK;
}

void tw_request(tui_worker *w, const op_opts *o, uint64_t gen, int task)
{
    pthread_mutex_lock(&w->mu);
    if (gen != w->req_gen) {
        w->req_opts = *o;
        w->req_gen = gen;
        flag_set(&w->cancel, 1); /* a newer request: stop the running computation */
        flag_set(&w->ex_cancel, 1);
        flag_set(&w->sp_cancel, 1);
        flag_set(&w->fa_cancel, 1);
    }
    if (task != w->req_task) {
        if (!w->playing) flag_set(&w->ex_cancel, 1); /* playing: finished, drawn when ready */
        flag_set(&w->fa_cancel, 1);
    }
    w->req_task = task;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

static void export_req(tui_worker *w, const char *path, const char *figure, const en_results *baseline, int frames)
{
    en_results *b = NULL;
    if (baseline) {
        b = calloc(1, sizeof *b);
        if (b && en_results_copy(b, baseline) != GS_OK) { free(b); b = NULL; }
    }
    pthread_mutex_lock(&w->mu);
    snprintf(w->export_path, sizeof w->export_path, "%s", path);
    snprintf(w->export_figure, sizeof w->export_figure, "%s", figure);
    if (w->export_base) { en_results_free(w->export_base); free(w->export_base); }
    w->export_base = b;
    w->export_req = 1;
    w->export_frames = frames;
    flag_set(&w->fa_cancel, 1); /* the export first; the reduction resumes after it */
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

void tw_export(tui_worker *w, const char *path, const char *figure, const en_results *baseline)
{
    export_req(w, path, figure, baseline, 0);
}

void tw_export_frames(tui_worker *w, const char *path, const char *figure, const en_results *baseline)
{
    export_req(w, path, figure, baseline, 1);
}

void tw_set_view(tui_worker *w, int view)
{
    pthread_mutex_lock(&w->mu);
    if (view != w->req_view) flag_set(&w->ex_cancel, 1);
    if (view != w->req_view && w->req_view == TV_ERANK) flag_set(&w->sp_cancel, 1);
    w->req_view = view;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

void tw_set_pair(tui_worker *w, int m0, int m1)
{
    pthread_mutex_lock(&w->mu);
    if (m0 != w->req_m0 || m1 != w->req_m1) {
        flag_set(&w->ex_cancel, 1);
        if (w->req_view == TV_ERANK) flag_set(&w->sp_cancel, 1); /* the sweep was for the old pair */
    }
    w->req_m0 = m0;
    w->req_m1 = m1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

void tw_set_playing(tui_worker *w, int on)
{
    pthread_mutex_lock(&w->mu);
    w->playing = !!on;
    pthread_mutex_unlock(&w->mu);
}

void tw_tune(tui_worker *w, int param, int m)
{
    pthread_mutex_lock(&w->mu);
    w->tune_req = 1;
    w->tune_param = param;
    w->tune_m = m;
    flag_set(&w->fa_cancel, 1);
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

int tw_take_tune(tui_worker *w, int *param, double *value, double *obj, uint64_t *gen)
{
    pthread_mutex_lock(&w->mu);
    int fresh = w->tune_done;
    if (fresh) { *param = w->tune_param; *value = w->tune_value; *obj = w->tune_obj; *gen = w->tune_gen; }
    w->tune_done = 0;
    pthread_mutex_unlock(&w->mu);
    return fresh;
}

int tw_take_seeds(tui_worker *w, en_results **out, int max)
{
    pthread_mutex_lock(&w->mu);
    int n = w->pub_nseeds <= max ? w->pub_nseeds : 0;
    for (int i = 0; i < n; i++) out[i] = w->pub_seeds[i];
    if (n) w->pub_nseeds = 0;
    pthread_mutex_unlock(&w->mu);
    return n;
}

tui_extra *tw_take_extra(tui_worker *w)
{
    pthread_mutex_lock(&w->mu);
    tui_extra *x = NULL;
    for (int v = 0; v < TV_COUNT && !x; v++) {
        x = w->pub_ex[v];
        w->pub_ex[v] = NULL;
    }
    pthread_mutex_unlock(&w->mu);
    return x;
}

en_results *tw_take(tui_worker *w)
{
    pthread_mutex_lock(&w->mu);
    en_results *r = w->pub;
    w->pub = NULL;
    pthread_mutex_unlock(&w->mu);
    return r;
}

void tw_work(tui_worker *w, char *buf, int n, int *updating, int *ahead)
{
    pthread_mutex_lock(&w->mu);
    snprintf(buf, (size_t)n, "%s", w->busy ? w->work : "");
    *ahead = w->busy ? 0 : w->ahead;
    *updating = w->busy && w->updating;
    pthread_mutex_unlock(&w->mu);
}

int tw_factoring(tui_worker *w)
{
    pthread_mutex_lock(&w->mu);
    int t = w->factoring;
    pthread_mutex_unlock(&w->mu);
    return t;
}

int tw_status(tui_worker *w, int *busy, double *progress, char *msg, int n, int *is_error)
{
    pthread_mutex_lock(&w->mu);
    *busy = w->busy || w->tune_req || w->done_gen != w->req_gen || w->spec_task != w->req_task;
    *progress = w->progress;
    int fresh = w->msg_new;
    if (fresh) {
        snprintf(msg, (size_t)n, "%s", w->msg);
        *is_error = w->msg_error;
        w->msg_new = 0;
    }
    pthread_mutex_unlock(&w->mu);
    return fresh;
}

void tw_stop(tui_worker *w)
{
    if (!w->started) return;
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    flag_set(&w->cancel, 1);
    flag_set(&w->sp_cancel, 1);
    flag_set(&w->fa_cancel, 1);
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->th, NULL);
    if (w->pub) { en_results_free(w->pub); free(w->pub); w->pub = NULL; }
    for (int i = 0; i < w->pub_nseeds; i++) { en_results_free(w->pub_seeds[i]); free(w->pub_seeds[i]); }
    w->pub_nseeds = 0;
    for (int v = 0; v < TV_COUNT; v++)
        if (w->pub_ex[v]) { tui_extra_free(w->pub_ex[v]); free(w->pub_ex[v]); w->pub_ex[v] = NULL; }
    if (w->export_base) { en_results_free(w->export_base); free(w->export_base); w->export_base = NULL; }
    tw_ahead_collect(w, 1);
    rl_cache_clear(&w->lens_cache);
    close(w->wake[0]);
    close(w->wake[1]);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    w->started = 0;
}
