/* analysis/lens.c — the ridge lens: filter factors, df(τ) and each class's share above τ (gs_lens.h). */
#include "gs_lens.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gs_collapse.h"
#include "gs_common.h"
#include "gs_spectral.h"

void rl_free(rl_result *l)
{
    if (!l) return;
    for (int k = 0; k < RL_MAX; k++) {
        free(l->lam[k]);
        free(l->phi[k]);
        free(l->above[k]);
        free(l->energy[k]);
    }
    free(l->cls);
    free(l->rows);
    free(l->head);
    memset(l, 0, sizeof *l);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[k] over the classes with head[k] == want (NaN values skipped); NaN when none. */
static double median_of(const double *v, const unsigned char *head, int n, int want, double *tmp)
{
    int m = 0;
    for (int k = 0; k < n; k++)
        if ((head[k] != 0) == want && isfinite(v[k])) tmp[m++] = v[k];
    if (!m) return NAN;
    qsort(tmp, (size_t)m, sizeof *tmp, cmp_double);
    return m % 2 ? tmp[m / 2] : 0.5 * (tmp[m / 2 - 1] + tmp[m / 2]);
}

/* One method's τ-independent part: its eigenvalues lam (D, descending, rounding below 0 set to 0)
 * and P = directions × eigenvectors (nc × D: P[c][i] = vᵢᵀu_c). */
static int eig_part(const gm_mat *G, const co_dirs *d, double *lam, double *P)
{
    gm_mat U = {0};
    int st = sp_eig(G, lam, &U);
    if (st != GS_OK) return st;
    long D = G->rows;
    for (long i = 0; i < D; i++)
        if (!(lam[i] > 0)) lam[i] = 0; /* rounding below 0 */
    if (d->n > 0) /* U's columns are the vᵢ */
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, d->n, (int)D, (int)D, 1.0, d->u, (int)D, U.v, (int)D,
                    0.0, P, (int)D);
    gm_free(&U);
    return GS_OK;
}

/* Method k's numbers at τ from its τ-independent part (eig_part). */
static int tau_part(rl_result *out, int k, const double *lam, const double *P, const co_dirs *d, double tau, double *tmp)
{
    long D = out->D;
    int nc = out->ncls;
    out->tau[k] = tau;
    out->lam[k] = gs_malloc((size_t)D, sizeof(double), "ridge lens");
    out->phi[k] = gs_malloc((size_t)D, sizeof(double), "ridge lens");
    out->above[k] = gs_malloc((size_t)(nc > 0 ? nc : 1), sizeof(double), "ridge lens");
    out->energy[k] = gs_malloc((size_t)(nc > 0 ? nc : 1), sizeof(double), "ridge lens");
    if (!out->lam[k] || !out->phi[k] || !out->above[k] || !out->energy[k]) return GS_ENOMEM;
    memcpy(out->lam[k], lam, (size_t)D * sizeof(double));
    out->df[k] = sp_filter_factors(out->lam[k], D, tau, out->phi[k]);
    long kept = 0;
    while (kept < D && lam[kept] > tau) kept++;
    out->kept[k] = kept;
    for (int c = 0; c < nc; c++) {
        if (!d->ok[c]) { out->above[k][c] = out->energy[k][c] = NAN; continue; }
        const double *pc = P + (size_t)c * D;
        double a = 0, e = 0;
        for (long i = 0; i < D; i++) {
            double q = pc[i] * pc[i];
            if (i < kept) a += q;
            e += lam[i] * q;
        }
        out->above[k][c] = a;
        out->energy[k][c] = e / tau;
    }
    out->head_above[k] = median_of(out->above[k], out->head, nc, 1, tmp);
    out->tail_above[k] = median_of(out->above[k], out->head, nc, 0, tmp);
    out->tail_energy[k] = median_of(out->energy[k], out->head, nc, 0, tmp);
    out->acc[k] = out->head_acc[k] = out->tail_acc[k] = NAN;
    return GS_OK;
}

/* The class directions at task into d, their ids, rows and head flags moved into out. */
static int start_result(const en_problem *p, const unsigned char *is_head, int task, int n, co_dirs *d, rl_result *out)
{
    int st = co_class_dirs(p, is_head, task, d);
    if (st != GS_OK) return st;
    out->n = n;
    out->D = p->D;
    out->task = task;
    out->ncls = d->n;
    out->cls = d->cls;
    out->rows = d->rows;
    out->head = d->head;
    d->cls = NULL;
    d->rows = NULL;
    d->head = NULL;
    return GS_OK;
}

int rl_compute_g(const gm_mat *const *G, const double *tau, int n, const en_problem *p, const unsigned char *is_head,
                 int task, rl_result *out)
{
    memset(out, 0, sizeof *out);
    if (n < 1 || n > RL_MAX || !p) return gs_error(GS_EINPUT, "ridge lens: 1 to %d methods", RL_MAX);
    for (int k = 0; k < n; k++)
        if (!G[k] || G[k]->rows != p->D || G[k]->cols != p->D || !(tau[k] > 0))
            return gs_error(GS_EINPUT, "ridge lens: the Gram matrices do not match the rows, or τ is not > 0");
    co_dirs d;
    int st = start_result(p, is_head, task, n, &d, out);
    if (st != GS_OK) return st;
    long D = p->D;
    int nc = d.n;
    double *P = gs_malloc((size_t)(nc > 0 ? nc : 1) * (size_t)D, sizeof(double), "ridge lens");
    double *lam = gs_malloc((size_t)D, sizeof(double), "ridge lens");
    double *tmp = gs_malloc((size_t)(nc > 0 ? nc : 1), sizeof(double), "ridge lens");
    if (!P || !lam || !tmp) st = GS_ENOMEM;
    for (int k = 0; k < n && st == GS_OK; k++)
        if ((st = eig_part(G[k], &d, lam, P)) == GS_OK) st = tau_part(out, k, lam, P, &d, tau[k], tmp);
    free(P);
    free(lam);
    free(tmp);
    co_dirs_free(&d);
    if (st != GS_OK) rl_free(out);
    return st;
}

/* ---- the cache of τ-independent parts ---- */

static size_t entry_bytes(const rl_eig *x) { return ((size_t)x->D + (size_t)x->nc * (size_t)x->D) * sizeof(double); }

static void entry_free(rl_eig *x)
{
    free(x->lam);
    free(x->P);
    memset(x, 0, sizeof *x);
}

void rl_cache_clear(rl_cache *c)
{
    if (!c) return;
    for (int i = 0; i < RL_CACHE_N; i++) entry_free(&c->e[i]);
    c->clock = 0;
}

static rl_eig *cache_find(rl_cache *c, int method, int task, uint64_t key, long D, int nc)
{
    for (int i = 0; c && i < RL_CACHE_N; i++) {
        rl_eig *x = &c->e[i];
        if (x->lam && x->method == method && x->task == task && x->key == key && x->D == D && x->nc == nc) return x;
    }
    return NULL;
}

int rl_cached(const rl_cache *c, int method, int task, uint64_t key)
{
    for (int i = 0; c && i < RL_CACHE_N; i++) {
        const rl_eig *x = &c->e[i];
        if (x->lam && x->method == method && x->task == task && x->key == key) return 1;
    }
    return 0;
}

/* A slot for a new entry: a free one, else the least recently used; then older entries go while
 * the whole holds more than RL_CACHE_BYTES with `add` more bytes. */
static rl_eig *cache_slot(rl_cache *c, size_t add)
{
    for (;;) {
        size_t total = add;
        int lru = -1, nfree = -1;
        for (int i = 0; i < RL_CACHE_N; i++) {
            rl_eig *x = &c->e[i];
            if (!x->lam) { if (nfree < 0) nfree = i; continue; }
            total += entry_bytes(x);
            if (lru < 0 || x->used < c->e[lru].used) lru = i;
        }
        if (lru < 0) return nfree >= 0 ? &c->e[nfree] : NULL;
        if (nfree >= 0 && total <= RL_CACHE_BYTES) return &c->e[nfree];
        entry_free(&c->e[lru]);
    }
}

int rl_eig_of(const gm_mat *G, const co_dirs *d, int method, int task, uint64_t key, rl_eig *out)
{
    long D = G->rows;
    *out = (rl_eig){.method = method, .task = task, .key = key, .D = D, .nc = d->n};
    out->lam = gs_malloc((size_t)D, sizeof(double), "ridge lens");
    out->P = gs_malloc((size_t)(d->n > 0 ? d->n : 1) * (size_t)D, sizeof(double), "ridge lens");
    int st = out->lam && out->P ? eig_part(G, d, out->lam, out->P) : GS_ENOMEM;
    if (st != GS_OK) entry_free(out);
    return st;
}

void rl_eig_free(rl_eig *x) { if (x) entry_free(x); }

rl_eig *rl_cache_put(rl_cache *c, rl_eig *y)
{
    rl_eig *x = cache_find(c, y->method, y->task, y->key, y->D, y->nc);
    if (x) { entry_free(y); x->used = ++c->clock; return x; }
    x = cache_slot(c, entry_bytes(y));
    if (!x) { entry_free(y); return NULL; }
    if (x->lam) entry_free(x);
    *x = *y;
    memset(y, 0, sizeof *y);
    x->used = ++c->clock;
    return x;
}

/* Method m's τ-independent part at task: from the cache (key: what its G depends on), else
 * computed from its Gram matrix (and kept there when c is given; else into *own, freed by the
 * caller). */
static int method_eig(en_engine *e, int m, int task, uint64_t key, const co_dirs *d, rl_cache *c, rl_eig *own,
                      const rl_eig **out)
{
    long D = en_get_results(e)->D;
    rl_eig *x = cache_find(c, m, task, key, D, d->n);
    if (x) {
        x->used = ++c->clock;
        *out = x;
        return GS_OK;
    }
    const gm_mat *g, *q;
    int st = en_gram(e, m, task, &g, &q);
    if (st != GS_OK) return st;
    if (g->rows != D || g->cols != D) return gs_error(GS_EINPUT, "ridge lens: the Gram matrix does not match the rows");
    rl_eig y;
    if ((st = rl_eig_of(g, d, m, task, key, &y)) != GS_OK) return st;
    x = c ? rl_cache_put(c, &y) : NULL;
    if (!x && own) { *own = y; x = own; }
    if (!x) { entry_free(&y); return gs_error(GS_ENOMEM, "ridge lens: no room kept"); }
    *out = x;
    return GS_OK;
}

int rl_compute_cached(en_engine *e, const en_problem *p, const int *methods, const uint64_t *keys, int n, int task,
                      rl_cache *c, rl_result *out)
{
    memset(out, 0, sizeof *out);
    const en_results *r = en_get_results(e);
    if (!r || task < 1 || task > r->T) return gs_error(GS_EINPUT, "ridge lens: task %d not computed", task);
    double tau[RL_MAX];
    int ms[RL_MAX], k = 0;
    uint64_t ks[RL_MAX];
    for (int i = 0; i < n && k < RL_MAX; i++) {
        int m = methods[i];
        if (m < 0 || m >= r->n_methods || !r->m[m].ridge) continue;
        tau[k] = en_method_tau(e, m, task, r->params.tau);
        ks[k] = keys ? keys[i] : 0;
        ms[k++] = m;
    }
    if (k == 0)
        return gs_error(GS_EINPUT, "ridge lens: no shown method has a Gram matrix (show a ridge method such as gacl)");
    for (int i = 0; i < k; i++)
        if (!(tau[i] > 0)) return gs_error(GS_EINPUT, "ridge lens: τ is not > 0");
    co_dirs d;
    int st = start_result(p, r->is_head, task, k, &d, out);
    if (st != GS_OK) return st;
    double *tmp = gs_malloc((size_t)(d.n > 0 ? d.n : 1), sizeof(double), "ridge lens");
    if (!tmp) st = GS_ENOMEM;
    for (int i = 0; i < k && st == GS_OK; i++) {
        rl_eig own = {0};
        const rl_eig *x = NULL;
        st = method_eig(e, ms[i], task, ks[i], &d, c, &own, &x);
        if (st == GS_OK) st = tau_part(out, i, x->lam, x->P, &d, tau[i], tmp);
        entry_free(&own);
    }
    free(tmp);
    co_dirs_free(&d);
    if (st != GS_OK) { rl_free(out); return st; }
    for (int i = 0; i < k; i++) {
        int m = ms[i];
        out->method[i] = m;
        snprintf(out->key[i], sizeof out->key[i], "%s", r->m[m].name);
        const en_snap *s = &r->m[m].snaps[task - 1];
        if (s->state == EN_DONE) {
            out->acc[i] = s->acc;
            out->head_acc[i] = s->head_acc;
            out->tail_acc[i] = s->tail_acc;
        }
    }
    return GS_OK;
}

int rl_pick(const en_results *r, int ref, int aug, int *out)
{
    int n = 0;
    if (!r || ref < 0 || ref >= r->n_methods) return 0;
    out[n++] = ref;
    int ov = -1;
    for (int m = 0; m < r->n_methods; m++)
        if (m != ref && m != aug && !strcmp(r->m[m].augmenter, "oversample") && !strcmp(r->m[m].learner, r->m[ref].learner))
            ov = m;
    if (ov >= 0) out[n++] = ov;
    if (aug >= 0 && aug < r->n_methods && aug != ref) out[n++] = aug;
    return n;
}

int rl_compute(en_engine *e, const en_problem *p, const int *methods, int n, int task, rl_result *out)
{
    return rl_compute_cached(e, p, methods, NULL, n, task, NULL, out);
}
