/* figure/build.c — the charts a figure draws, computed from the results and, for the τ sweep,
 * Theorem 1, the claims and the collapse, from the engine (gs_figure.h, fig_int.h). */
#include "fig_int.h"
#include "gs_claims.h"
#include "gs_collapse.h"
#include "gs_lens.h"
#include "gs_spectral.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void fig_charts_free(charts *cs)
{
    if (cs->have_acc) ch_free(&cs->acc);
    if (cs->have_spec) ch_free(&cs->spec);
    if (cs->have_sr) ch_free(&cs->sr);
    for (int i = 0; i < cs->nex; i++) ch_free(&cs->ex[i]);
    free(cs->claims);
    memset(cs, 0, sizeof *cs);
}

/* τ sweep of the shown ridge methods at `task` (1e-4 … 1e4, TS_DEFAULT_N points). */
int fig_tau_curves(en_engine *e, const en_problem *p, const en_results *r, int m0, int m1, int task,
                   ts_curve *cv, int *ncv)
{
    double taus[TS_DEFAULT_N];
    ts_log_grid(1e-4, 1e4, TS_DEFAULT_N, taus);
    int ms[2] = {m0, m1}, st = GS_OK;
    *ncv = 0;
    memset(cv, 0, 2 * sizeof *cv);
    for (int i = 0; i < 2 && st == GS_OK; i++) {
        if (ms[i] < 0 || ms[i] >= r->n_methods || !r->m[ms[i]].ridge) continue;
        st = ts_compute(e, p, ms[i], task, taus, TS_DEFAULT_N, &cv[*ncv], NULL);
        if (st == GS_OK) (*ncv)++;
    }
    if (st == GS_OK && *ncv == 0)
        st = gs_error(GS_EINPUT, "tau-sweep figure: no ridge method among the shown methods");
    if (st) { for (int i = 0; i < *ncv; i++) ts_free(&cv[i]); *ncv = 0; }
    return st;
}

/* The curves' arrays a τ-sweep chart draws (ch_build_tau_sweep): acc, head, tail, validation
 * accuracy, stable rank. */
#define TS_NARR 5
static double *ts_array(const ts_curve *c, int a)
{
    double *const arr[TS_NARR] = {c->acc, c->head_acc, c->tail_acc, c->val_acc, c->stable_rank};
    return arr[a];
}

/* Mean and std over the seeds of curve i: mean (arrays owned by *buf) and sd[a][n]. The best τ is
 * chosen again on the mean (validation with a split, else test; the first of equals). */
static int ts_mean_curve(const fig_request *req, int i, ts_curve *mean, double **sd, double **buf)
{
    const ts_curve *c0 = &req->sweeps[0][i];
    int n = c0->n, k = req->nruns;
    *buf = gs_malloc((size_t)2 * TS_NARR * n + k, sizeof(double), "tau-sweep figure");
    if (!*buf) return GS_ENOMEM;
    double *m = *buf, *s = m + TS_NARR * n, *v = s + TS_NARR * n;
    *mean = *c0;
    mean->acc = m; mean->head_acc = m + n; mean->tail_acc = m + 2 * n;
    mean->val_acc = c0->val_acc ? m + 3 * n : NULL;
    mean->stable_rank = m + 4 * n;
    for (int a = 0; a < TS_NARR; a++) {
        sd[a] = s + a * n;
        for (int j = 0; j < n; j++) {
            for (int r = 0; r < k; r++) {
                const double *x = ts_array(&req->sweeps[r][i], a);
                v[r] = x && req->sweeps[r][i].n == n ? x[j] : NAN;
            }
            gs_mean_sd(v, k, &m[a * n + j], &sd[a][j], NULL);
        }
    }
    const double *by = mean->best_by_val && mean->val_acc ? mean->val_acc : mean->acc;
    mean->best = -1;
    for (int j = 0; j < n; j++)
        if (isfinite(by[j]) && (mean->best < 0 || by[j] > by[mean->best])) mean->best = j;
    return GS_OK;
}

/* Several seeds: the charts of the mean curves, with a ± std band on every test curve. */
static int tau_sweep_seed_charts(charts *cs, const fig_request *req)
{
    int ncv = req->nsweep, st = GS_OK;
    ts_curve mean[2];
    double *sd[2][TS_NARR], *buf[2] = {NULL, NULL};
    for (int i = 0; i < ncv && st == GS_OK; i++) st = ts_mean_curve(req, i, &mean[i], sd[i], &buf[i]);
    for (int w = 0; w < 2 && st == GS_OK; w++) {
        ch_chart *c = &cs->ex[w];
        st = ch_build_tau_sweep(c, &mean[0], ncv > 1 ? &mean[1] : NULL, req->r->params.tau,
                                w ? CH_TS_STABLE_RANK : CH_TS_ACCURACY);
        if (st) break;
        cs->nex = w + 1;
        for (int j = 0; j < c->nseries && st == GS_OK; j++) {
            ch_series *s = &c->series[j];
            if (s->ghost || s->method < 0 || s->method >= ncv) continue;
            int a = w ? 4 : s->kind == CH_KIND_HEAD ? 1 : s->kind == CH_KIND_TAIL ? 2 : 0;
            st = ch_set_band(s, sd[s->method][a]);
        }
        if (st == GS_OK && w) ch_axis_band_y(c);
        if (st == GS_OK) {
            size_t len = strlen(c->note);
            snprintf(c->note + len, sizeof c->note - len, "; mean \u00b1 std over %d seeds", req->nruns);
        }
    }
    free(buf[0]);
    free(buf[1]);
    return st;
}

static int tau_sweep_charts(charts *cs, const fig_request *req, int task)
{
    const en_results *r = req->r;
    if (req->nruns > 1 && req->sweeps && req->nsweep > 0) return tau_sweep_seed_charts(cs, req);
    if (!req->eng || !req->prob)
        return gs_error(GS_EINPUT, "tau-sweep figure: needs the engine (export computes it)");
    ts_curve cv[2];
    int ncv = 0, st = fig_tau_curves(req->eng, req->prob, r, req->m0, req->m1, task, cv, &ncv);
    if (st == GS_OK) st = ch_build_tau_sweep(&cs->ex[0], &cv[0], ncv > 1 ? &cv[1] : NULL, r->params.tau,
                                             CH_TS_ACCURACY);
    if (st == GS_OK) {
        cs->nex = 1;
        st = ch_build_tau_sweep(&cs->ex[1], &cv[0], ncv > 1 ? &cv[1] : NULL, r->params.tau,
                                CH_TS_STABLE_RANK);
        if (st == GS_OK) cs->nex = 2;
    }
    for (int i = 0; i < ncv; i++) ts_free(&cv[i]);
    return st;
}

/* Theorem 1 at every task: G = the reference's (GACL's) Gram matrix, Δ = G_aug − G, split r =
 * head classes seen so far; before = sr(G+τI), after = sr(G+Δ+τI), and the lower bound. */
static int theorem_charts(charts *cs, const fig_request *req, int task)
{
    const en_results *r = req->r;
    if (!req->eng) return gs_error(GS_EINPUT, "theorem figure: needs the engine (export computes it)");
    int ref = -1, aug = -1;
    if (!en_results_pair(r, req->m0, req->m1, &ref, &aug) || !r->m[aug].ridge)
        return gs_error(GS_EINPUT, "theorem figure: needs a ridge learner alone and with an augmenter "
                                   "(e.g. --methods gacl,gsr)");
    int T = r->T, st = GS_OK;
    double *v = gs_malloc((size_t)3 * T, sizeof(double), "theorem figure");
    if (!v) return GS_ENOMEM;
    double *before = v, *bound = v + T, *after = v + 2 * T;
    gm_mat G = {0}, Dl = {0};
    for (int t = 1; t <= T && st == GS_OK; t++) {
        before[t - 1] = bound[t - 1] = after[t - 1] = NAN;
        const gm_mat *Gp, *Qp;
        if ((st = en_gram(req->eng, ref, t, &Gp, &Qp)) || (st = gm_copy(&G, Gp, "theorem figure"))) break;
        if ((st = en_gram(req->eng, aug, t, &Gp, &Qp)) || (st = gm_copy(&Dl, Gp, "theorem figure"))) break;
        for (size_t i = 0; i < (size_t)G.rows * (size_t)G.cols; i++) Dl.v[i] -= G.v[i];
        int rs = 0;
        for (int c = 0; c < r->C; c++) rs += r->is_head[c] && r->class_task[c] >= 0 && r->class_task[c] < t;
        if (rs < 1) rs = 1;
        if (rs >= G.rows) rs = (int)G.rows - 1;
        sp_theorem th;
        if ((st = sp_theorem1(&G, &Dl, rs, r->params.tau, &th)) == GS_OK) {
            before[t - 1] = th.sr_before;
            bound[t - 1] = th.bound;
            after[t - 1] = th.sr_after;
        }
        gm_free(&G);
        gm_free(&Dl);
    }
    gm_free(&G);
    gm_free(&Dl);
    if (st == GS_OK && (st = ch_build_theorem(&cs->ex[0], r, ref, aug, before, bound, after, task)) == GS_OK)
        cs->nex = 1;
    free(v);
    return st;
}

/* ---- teaching figures: claims and collapse ------------------------------------------------- */

/* The reference and the other shown method (the one rule, en_results_pair); 1 for a learner
 * alone and it with an augmenter. */
static int teach_pair(const fig_request *req, int *ref, int *aug)
{
    return en_results_pair(req->r, req->m0, req->m1, ref, aug);
}

/* The claims at `task`: Theorem 1 (GACL's G, Δ = the other method's G − G, split r = head
 * classes seen) and the reference's τ sweep, computed here from the engine, then cl_claims. */
static int claims_report(charts *cs, const fig_request *req, int task)
{
    const en_results *r = req->r;
    int ref, aug, st = GS_OK;
    int pair = teach_pair(req, &ref, &aug);
    if (ref < 0 || aug < 0 || !req->eng || !req->prob)
        return gs_error(GS_EINPUT, "claims figure: needs two methods (e.g. --methods gacl,gsr) and the engine");
    cs->claims = gs_calloc(1, sizeof *cs->claims, "claims figure");
    if (!cs->claims) return GS_ENOMEM;
    sp_theorem th;
    int have_th = 0;
    if (pair && r->m[ref].ridge && r->m[aug].ridge) {
        gm_mat G = {0}, Dl = {0};
        const gm_mat *Gp, *Qp;
        if (!(st = en_gram(req->eng, ref, task, &Gp, &Qp)) && !(st = gm_copy(&G, Gp, "claims figure")) &&
            !(st = en_gram(req->eng, aug, task, &Gp, &Qp)) && !(st = gm_copy(&Dl, Gp, "claims figure"))) {
            for (size_t i = 0; i < (size_t)G.rows * (size_t)G.cols; i++) Dl.v[i] -= G.v[i];
            int rs = 0;
            for (int c = 0; c < r->C; c++) rs += r->is_head[c] && r->class_task[c] >= 0 && r->class_task[c] < task;
            if (rs < 1) rs = 1;
            if (rs >= G.rows) rs = (int)G.rows - 1;
            if ((st = sp_theorem1(&G, &Dl, rs, r->params.tau, &th)) == GS_OK) have_th = 1;
        }
        gm_free(&G);
        gm_free(&Dl);
        if (st != GS_OK) return st;
    }
    ts_curve sw;
    int have_sw = 0;
    memset(&sw, 0, sizeof sw);
    if (r->m[ref].ridge) {
        double taus[TS_DEFAULT_N];
        ts_log_grid(1e-4, 1e4, TS_DEFAULT_N, taus);
        if ((st = ts_compute(req->eng, req->prob, ref, task, taus, TS_DEFAULT_N, &sw, NULL)) != GS_OK) return st;
        have_sw = 1;
    }
    /* the spread and mass of the augmenting method's rows, when the run kept them */
    mc_rows mech;
    const gm_mat *ar;
    const int *al;
    const double *aw;
    int have_mech = en_aug_rows(req->eng, aug, &ar, &al, &aw) == GS_OK &&
                    mc_rows_compute(req->prob, r, task, ar, al, aw, r->params.beta, &mech) == GS_OK;
    cl_input in = {r, ref, aug, task, have_th ? &th : NULL, have_sw ? &sw : NULL, have_mech ? &mech : NULL,
                   cl_find_oversample(r, ref)};
    st = cl_claims(&in, cs->claims);
    if (have_sw) ts_free(&sw);
    return st;
}

static int collapse_chart(charts *cs, const fig_request *req, int task)
{
    int ref, aug;
    teach_pair(req, &ref, &aug);
    if (!req->eng || !req->prob) return gs_error(GS_EINPUT, "collapse figure: needs the engine (export computes it)");
    co_result co;
    int st = co_compute(req->eng, req->prob, ref, aug, task, &co);
    if (st == GS_OK && (st = ch_build_collapse(&cs->ex[0], &co)) == GS_OK) cs->nex = 1;
    co_free(&co);
    return st;
}

/* The ridge lens: GACL (the reference), its +oversample run when there is one, the other method. */
static int lens_charts(charts *cs, const fig_request *req, int task)
{
    int ref, aug, ms[RL_MAX];
    teach_pair(req, &ref, &aug);
    if (!req->eng || !req->prob) return gs_error(GS_EINPUT, "ridge-lens figure: needs the engine (export computes it)");
    int n = rl_pick(req->r, ref, aug, ms);
    rl_result l;
    int st = rl_compute(req->eng, req->prob, ms, n, task, &l);
    if (st != GS_OK) return st;
    if ((st = ch_build_lens_filter(&cs->ex[0], &l)) == GS_OK) {
        cs->nex = 1;
        if ((st = ch_build_lens_classes(&cs->ex[1], &l)) == GS_OK) cs->nex = 2;
    }
    rl_free(&l);
    return st;
}

/* ---- the rows' build functions (catalog.c) ------------------------------------------------- */

int fig_build_accuracy(charts *cs, const fig_request *req, int task)
{
    int st = ch_build_accuracy(&cs->acc, req->r, req->baseline, req->m0, req->m1, task);
    if (st) return st;
    cs->have_acc = 1;
    return req->nruns > 1 ? ch_add_seed_bands(&cs->acc, req->runs, req->nruns) : GS_OK;
}

int fig_build_spectrum(charts *cs, const fig_request *req, int task)
{
    int st = ch_build_spectrum(&cs->spec, req->r, req->baseline, req->m0, req->m1, task);
    if (st == GS_OK) cs->have_spec = 1;
    return st;
}

int fig_build_stable_rank(charts *cs, const fig_request *req, int task)
{
    int st = ch_build_stable_rank(&cs->sr, req->r, req->baseline, req->m0, req->m1, task);
    if (st) return st;
    cs->have_sr = 1;
    return req->nruns > 1 ? ch_add_seed_bands_of(&cs->sr, req->runs, req->nruns, CH_BAND_STABLE_RANK) : GS_OK;
}

int fig_build_dashboard(charts *cs, const fig_request *req, int task)
{
    int st = fig_build_accuracy(cs, req, task);
    if (st == GS_OK) st = fig_build_spectrum(cs, req, task);
    if (st == GS_OK) st = fig_build_stable_rank(cs, req, task);
    return st;
}

int fig_build_tau_sweep(charts *cs, const fig_request *req, int task) { return tau_sweep_charts(cs, req, task); }

int fig_build_erank_cond(charts *cs, const fig_request *req, int task)
{
    int st;
    if ((st = ch_build_erank_cond(&cs->ex[0], req->r, req->m0, req->m1, task, CH_ERANK))) return st;
    cs->nex = 1;
    if ((st = ch_build_erank_cond(&cs->ex[1], req->r, req->m0, req->m1, task, CH_COND))) return st;
    cs->nex = 2;
    if (req->nruns > 1 && ((st = ch_add_seed_bands_of(&cs->ex[0], req->runs, req->nruns, CH_BAND_ERANK)) ||
                           (st = ch_add_seed_bands_of(&cs->ex[1], req->runs, req->nruns, CH_BAND_COND))))
        return st;
    return GS_OK;
}

int fig_build_class_acc(charts *cs, const fig_request *req, int task)
{
    int st = ch_build_class_acc(&cs->ex[0], req->r, req->m0, req->m1, task);
    if (st == GS_OK) cs->nex = 1;
    return st;
}

int fig_build_eig_ratio(charts *cs, const fig_request *req, int task)
{
    int st = ch_build_eig_ratio(&cs->ex[0], req->r, req->m0, req->m1, task);
    if (st == GS_OK) cs->nex = 1;
    return st;
}

int fig_build_theorem(charts *cs, const fig_request *req, int task) { return theorem_charts(cs, req, task); }
int fig_build_claims(charts *cs, const fig_request *req, int task) { return claims_report(cs, req, task); }
int fig_build_collapse(charts *cs, const fig_request *req, int task) { return collapse_chart(cs, req, task); }
int fig_build_ridge_lens(charts *cs, const fig_request *req, int task) { return lens_charts(cs, req, task); }

int fig_charts_build(charts *cs, const fig_request *req, const fig_kind *fig, int task)
{
    memset(cs, 0, sizeof *cs);
    int st = fig->build(cs, req, task);
    if (st) fig_charts_free(cs);
    return st;
}
