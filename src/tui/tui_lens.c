/* tui/tui_lens.c — the worker's ridge lens: each method's eigendecompositions kept per task and
 * what its G depends on (not τ), the next task's computed ahead on a helper thread (tui_int.h). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "gs_common.h"
#include "gs_chart.h"
#include "tui_int.h"

/* Ahead of a step (the ridge lens shown, its task done): the next task's eigendecompositions on a
 * helper thread of their own, from copies of its Gram matrices (rl_eig_of: no engine), while the
 * worker serves the next request; the lens of that task takes them into its cache (waiting for
 * the helper when it is still at it: the same work). One job at a time; not "computing" in the
 * status bar (the shown screen is complete): "ahead: task N's ridge lens". */
static void *ahead_main(void *arg)
{
    tui_ahead *a = arg;
    for (int i = 0; i < a->n; i++) {
        if (a->st == GS_OK) a->st = rl_eig_of(&a->G[i], &a->d, a->ms[i], a->task, a->keys[i], &a->out[i]);
        gm_free(&a->G[i]);
    }
    tui_worker *w = a->w;
    pthread_mutex_lock(&w->mu);
    w->ahead = 0;
    pthread_mutex_unlock(&w->mu);
    __atomic_store_n(&a->done, 1, __ATOMIC_RELEASE);
    tw_wake(w);
    return NULL;
}

/* The helper's results into the lens's cache: when it finished, or (wait) once it has. */
void tw_ahead_collect(tui_worker *w, int wait)
{
    tui_ahead *a = &w->ah;
    if (!a->running || (!wait && !__atomic_load_n(&a->done, __ATOMIC_ACQUIRE))) return;
    pthread_join(a->th, NULL);
    for (int i = 0; i < a->n; i++) {
        if (a->out[i].lam) rl_cache_put(&w->lens_cache, &a->out[i]);
        rl_eig_free(&a->out[i]);
    }
    co_dirs_free(&a->d);
    memset(a, 0, sizeof *a);
}

void tw_lens_ahead(tui_worker *w, int task, int m0, int m1)
{
    tw_ahead_collect(w, 0);
    const en_results *r = en_get_results(w->ctx->eng);
    int t = task + 1;
    /* bounded memory (large D): another task's G would be recomputed from its rows: not ahead */
    if (w->ah.running || t > r->T || r->spectra_on_request || en_task_slots(w->ctx->eng) < r->T) return;
    int ref, aug, ms[RL_MAX];
    tui_ref_aug(r, m0, m1, &ref, &aug);
    int n = rl_pick(r, ref, aug, ms);
    tui_ahead *a = &w->ah;
    memset(a, 0, sizeof *a);
    a->w = w;
    a->task = t;
    int st = GS_OK;
    for (int i = 0; i < n && st == GS_OK; i++) {
        int m = ms[i];
        uint64_t key = m >= 0 && m < OP_MAX_METHODS ? w->gkey[m] : 0;
        if (!tw_valid_m(r, m) || !r->m[m].ridge || r->m[m].snaps[t - 1].state != EN_DONE ||
            rl_cached(&w->lens_cache, m, t, key))
            continue;
        const gm_mat *g, *q;
        if ((st = en_gram(w->ctx->eng, m, t, &g, &q)) == GS_OK && (st = gm_copy(&a->G[a->n], g, "ridge lens")) == GS_OK) {
            a->ms[a->n] = m;
            a->keys[a->n++] = key;
        }
    }
    if (st == GS_OK && a->n) st = co_class_dirs(&w->ctx->prob, r->is_head, t, &a->d);
    if (st == GS_OK && a->n) {
        pthread_mutex_lock(&w->mu);
        w->ahead = t;
        pthread_mutex_unlock(&w->mu);
        if (pthread_create(&a->th, NULL, ahead_main, a) == 0) { a->running = 1; return; }
        pthread_mutex_lock(&w->mu);
        w->ahead = 0;
        pthread_mutex_unlock(&w->mu);
        co_dirs_free(&a->d);
    }
    for (int i = 0; i < RL_MAX; i++) gm_free(&a->G[i]);
    memset(a, 0, sizeof *a);
}

/* Bring gkey (what each method's G depends on) to the parameters q: a method keeps the key of the
 * last parameters seen (of up to TUI_GKEY_HIST) that differ from q in nothing its rows or their
 * weights depend on (en_method_deps without τ and RanPAC's λ, which only the solve reads), so
 * that undoing a change finds its eigendecompositions again; else a new key. fresh: a new
 * stream: the cache and the history go. */
void tw_lens_keys(tui_worker *w, const op_params *q, int fresh)
{
    if (fresh) {
        rl_cache_clear(&w->lens_cache);
        w->ngk = 0;
    }
    int slot = w->ngk < TUI_GKEY_HIST ? w->ngk++ : (int)(w->gk_next++ % TUI_GKEY_HIST);
    uint64_t key[OP_MAX_METHODS];
    for (int m = 0; m < w->cfg.n_methods && m < OP_MAX_METHODS; m++) {
        unsigned deps = en_method_deps(&w->cfg.method[m]) & ~(unsigned)(EN_DEP_TAU | EN_DEP_LAMBDA);
        key[m] = 0;
        for (int i = 0; i < w->ngk && !key[m]; i++)
            if (i != slot && !(pa_changed_deps(&w->gk_params[i], q) & deps)) key[m] = w->gk_key[i][m];
        if (!key[m]) key[m] = ++w->gk_count;
        w->gkey[m] = key[m];
    }
    w->gk_params[slot] = *q;
    memcpy(w->gk_key[slot], key, sizeof key);
}

/* The ridge lens: the reference, its +oversample run when the results hold one, the other method.
 * Each method's eigendecomposition is kept per task (lens_cache): a τ change, or a task seen
 * before with the same G, draws from it at once; the status bar names what is computed and its
 * estimated time (from the last ones measured). */
int tw_extra_lens(tui_worker *w, int task, tui_extra *x)
{
    const en_results *r = en_get_results(w->ctx->eng);
    int ref, aug, ms[RL_MAX];
    /* every eigenvector of G per method: where the engine keeps even the eigenvalues for request
     * (large D), the view says how to get it instead of holding the worker for minutes */
    if (r->spectra_on_request)
        return gs_error(GS_EINPUT, "ridge lens: not computed at D = %ld (every eigenvector of G, costly): "
                        "export --figure ridge-lens draws it, or start with --spectrum all", r->D);
    tw_ahead_collect(w, w->ah.running && w->ah.task == task); /* computed ahead: taken (or awaited) */
    tui_ref_aug(r, x->m0, x->m1, &ref, &aug);
    int n = rl_pick(r, ref, aug, ms), miss = 0;
    uint64_t keys[RL_MAX];
    char names[120] = "";
    for (int i = 0; i < n; i++) {
        keys[i] = ms[i] >= 0 && ms[i] < OP_MAX_METHODS ? w->gkey[ms[i]] : 0;
        if (!tw_valid_m(r, ms[i]) || !r->m[ms[i]].ridge || rl_cached(&w->lens_cache, ms[i], task, keys[i])) continue;
        char dn[32];
        ch_display_name(r->m[ms[i]].name, dn, sizeof dn);
        size_t L = strlen(names);
        snprintf(names + L, sizeof names - L, "%s%s", miss++ ? ", " : "", dn);
    }
    double D3 = (double)r->D * (double)r->D * (double)r->D, t0 = gs_now();
    if (miss) {
        /* before any measurement: about 0.3 s per method at D = 1280 (an idle core of this kind) */
        double rate = w->eig_rate > 0 ? w->eig_rate : 0.3 / (1280.0 * 1280.0 * 1280.0);
        char what[160];
        snprintf(what, sizeof what, "eigendecomposition of G (%s), about %.1f s (estimate)", names, rate * D3 * miss);
        tw_set_work(w, "ridge lens", task, what);
    }
    int rc = rl_compute_cached(w->ctx->eng, &w->ctx->prob, ms, keys, n, task, &w->lens_cache, &x->lens);
    if (rc == GS_OK && miss) w->eig_rate = (gs_now() - t0) / (D3 * miss);
    pthread_mutex_lock(&w->mu);
    w->lens_eigs += miss;
    pthread_mutex_unlock(&w->mu);
    if (rc == GS_OK) x->have_lens = 1;
    return rc;
}
