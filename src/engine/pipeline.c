/* engine/pipeline.c — options → data → stream → problem → engine (see gs_pipeline.h); the
 * methods arrive resolved in en_config.method. */
#include "gs_pipeline.h"
#include "gs_common.h"
#include "gs_load.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The estimate of the run's peak, or (reserved) of what its engine reserves (en_size.reserved). */
static double need_bytes(const pl_ctx *c, const op_opts *o, const en_config *cfg, int reserved)
{
    en_size z = {
        .n_rows = c->st.n, .n_test = c->data.test_x.rows, .n_val = c->st.n_val,
        .task_row_start = c->st.task_row_start, .class_kept = c->st.class_kept, .class_task = c->st.class_task,
        .d = c->data.train_x.cols, .expand = o->data.expand,
        .C = c->st.C, .T = c->st.T, .precision = o->data.precision, .spectrum = cfg->spectrum,
        .keep_task_grams = cfg->keep_task_grams, .params = &o->params, .reserved = reserved,
        .lean_test_rows = cfg->lean_test_rows, .share_work = cfg->accuracies_only,
    };
    return en_estimate_bytes(&z, cfg->method, cfg->n_methods);
}

double pl_need(const pl_ctx *c, const op_opts *o, const en_config *cfg) { return need_bytes(c, o, cfg, 0); }

double pl_have(const op_opts *o)
{
    return o->data.max_memory > 0 ? o->data.max_memory : (double)gs_mem_available();
}

/* copies: how many such streams, problems and engines will be alive at once (several seeds). */
static int check_memory(const pl_ctx *c, const op_opts *o, const en_config *cfg, int copies)
{
    long d = c->data.train_x.cols;
    /* the peak, or what the engine reserves when that is more (a method whose every task is in the
     * dual still has its D×D matrices allocated) */
    double need = copies * fmax(pl_need(c, o, cfg), need_bytes(c, o, cfg, 1)), have = pl_have(o);
    if (have > 0 && need > have) {
        char a[32], b[32];
        return gs_error(GS_EINPUT, "this run needs about %s (d = %ld input columns, --expand %ld; rows and D×D "
                        "matrices of each method's feature space%s) but only %s is %s; use a smaller --expand or fewer --methods%s%s",
                        gs_fmt_bytes((uint64_t)need, a, sizeof a), d, o->data.expand,
                        copies > 1 ? ", once per seed" : "",
                        gs_fmt_bytes((uint64_t)have, b, sizeof b),
                        o->data.max_memory > 0 ? "allowed by --max-memory" : "available",
                        copies > 1 ? " or --seeds" : "", o->data.max_memory > 0 ? ", or raise --max-memory" : "");
    }
    return GS_OK;
}

static int build_rest(pl_ctx *c, const op_opts *o, const en_config *cfg, int copies)
{
    int rc = st_build(&c->st, c->data.train_y, c->data.train_x.rows, c->data.n_classes, &o->proto,
                      o->params.seed);
    if (rc) return rc;
    c->have_stream = 1;
    if ((rc = check_memory(c, o, cfg, copies))) return rc;
    if ((rc = en_prepare(&c->prob, &c->data, &c->st, &o->data, o->params.seed))) return rc;
    c->have_prob = 1;
    return cfg->n_methods > 0 ? en_create(&c->eng, &c->prob, cfg) : GS_OK;
}

/* The user's own data re-cut by the long-tail profile: say how, and how to keep it as it is. */
static void report_recut(const pl_ctx *c, const op_opts *o, void (*warn)(const char *, void *), void *user)
{
    const op_data *d = &o->data;
    int own = d->data_dir || d->idx_dir || d->train_features;
    long pool = c->data.train_x.rows, kept = c->st.n + c->st.n_val;
    if (!warn || !own || o->proto.profile == OP_PROFILE_NONE || kept >= pool) return;
    char heads[256] = "";
    long tail_max = 0;
    for (int k = 0, n = 0; k < c->st.C; k++)
        if (!c->st.is_head[k]) {
            long kk = c->st.class_kept[k] + (c->st.class_val ? c->st.class_val[k] : 0);
            if (kk > tail_max) tail_max = kk;
        } else {
            size_t L = strlen(heads);
            if (L < sizeof heads - 16) snprintf(heads + L, sizeof heads - L, "%s%d", n++ ? ", " : "", k);
        }
    char msg[768];
    if (o->proto.profile == OP_PROFILE_STEP)
        snprintf(msg, sizeof msg, "--profile step re-cut the training data: %ld rows → %ld (%d head classes kept "
                 "whole: %s; the other classes keep at most %ld rows each); --profile none keeps the data as it is",
                 pool, kept, c->st.n_head, heads, tail_max);
    else
        snprintf(msg, sizeof msg, "--profile exp re-cut the training data: %ld rows → %ld (head classes: %s); "
                 "--profile none keeps the data as it is", pool, kept, heads);
    warn(msg, user);
}

static int open_copies(pl_ctx *c, const op_opts *o, const en_config *cfg, void (*warn)(const char *, void *),
                       void *user, int copies)
{
    memset(c, 0, sizeof *c); /* cfg's methods come resolved (gs_mtable.h: mt_resolve) */
    /* A cheap early refusal for absurd expansions, before reading any data. */
    if (o->data.expand > 0) {
        double need = 2.0 * gm_bytes(o->data.expand, o->data.expand);
        double have = o->data.max_memory > 0 ? o->data.max_memory : (double)gs_mem_available();
        if (have > 0 && need > have) {
            char a[32], b[32];
            return gs_error(GS_EINPUT, "--expand %ld needs at least %s for two %ld×%ld matrices but only %s is %s",
                            o->data.expand,
                            /* 2³⁰ and more need 2⁶⁴ bytes and more: said as the largest count, not 0 */
                            gs_fmt_bytes(need < 18446744073709549568.0 ? (uint64_t)need : UINT64_MAX, a, sizeof a), o->data.expand,
                            o->data.expand, gs_fmt_bytes((uint64_t)have, b, sizeof b),
                            o->data.max_memory > 0 ? "allowed by --max-memory" : "available");
        }
    }
    int rc = ld_load(&o->data, &c->data, warn, user);
    if (rc) return rc;
    c->have_data = 1;
    rc = build_rest(c, o, cfg, copies);
    if (rc) pl_free(c);
    else report_recut(c, o, warn, user);
    return rc;
}

int pl_open(pl_ctx *c, const op_opts *o, const en_config *cfg, void (*warn)(const char *, void *), void *user)
{
    return open_copies(c, o, cfg, warn, user, 1);
}

int pl_open_seeds(pl_ctx *c, int n, const uint64_t *seeds, const op_opts *o, const en_config *cfg,
                  void (*warn)(const char *, void *), void *user)
{
    op_opts w = *o;
    w.params.seed = seeds[0];
    int rc = open_copies(&c[0], &w, cfg, warn, user, n);
    for (int k = 1; k < n && !rc; k++) {
        memset(&c[k], 0, sizeof c[k]);
        c[k].data = c[0].data; /* borrowed: have_data stays 0, so pl_free leaves it */
        w.params.seed = seeds[k];
        rc = build_rest(&c[k], &w, cfg, 1);
        if (rc) { pl_free(&c[k]); pl_free_seeds(c, k); return rc; }
    }
    return rc;
}

void pl_free_seeds(pl_ctx *c, int n)
{
    for (int k = n - 1; k >= 0; k--) pl_free(&c[k]); /* c[0], which owns the data, last */
}

int pl_reseed(pl_ctx *c, const op_opts *o, const en_config *cfg)
{
    en_destroy(c->eng);
    c->eng = NULL;
    if (c->have_prob) en_problem_free(&c->prob);
    if (c->have_stream) st_free(&c->st);
    c->have_prob = c->have_stream = 0;
    return build_rest(c, o, cfg, 1);
}

int pl_engine(pl_ctx *c, const op_opts *o, const en_config *cfg)
{
    en_destroy(c->eng);
    c->eng = NULL;
    int rc = check_memory(c, o, cfg, 1);
    return rc ? rc : en_create(&c->eng, &c->prob, cfg);
}

int pl_engine_new(const pl_ctx *c, const op_opts *o, const en_config *cfg, en_engine **e)
{
    *e = NULL;
    int rc = check_memory(c, o, cfg, 1);
    return rc ? rc : en_create(e, &c->prob, cfg);
}

void pl_free(pl_ctx *c)
{
    en_destroy(c->eng);
    if (c->have_prob) en_problem_free(&c->prob);
    if (c->have_stream) st_free(&c->st);
    if (c->have_data) ds_free(&c->data);
    memset(c, 0, sizeof *c);
}

/* The rows of op_params a method's results can depend on: a value option acting on methods. */
static int method_row(const pa_param *r) { return r->dep && pa_params_off(r) >= 0; }

/* 1 when m (deps dm, parameters qm) agrees with group params gp whose members use `used` on every
 * parameter both read. */
static int agrees(unsigned dm, const op_params *qm, unsigned used, const op_params *gp)
{
    for (int i = 0; i < pa_count(); i++) {
        const pa_param *r = &pa_table()[i];
        if (method_row(r) && (dm & r->dep) && (used & r->dep) && pa_get_params(qm, r) != pa_get_params(gp, r)) return 0;
    }
    return 1;
}

void pl_group(pl_groups *g, const en_config *cfg, const op_params *global, const op_params *q)
{
    memset(g, 0, sizeof *g);
    unsigned used[OP_MAX_METHODS] = {0};
    for (int m = 0; m < cfg->n_methods; m++) {
        unsigned dm = en_method_deps(&cfg->method[m]);
        int k = 0;
        while (k < g->n && !agrees(dm, &q[m], used[k], &g->params[k])) k++;
        if (k == g->n) {
            g->n++;
            g->params[k] = *global;
            g->cfg[k] = *cfg;
            g->cfg[k].methods = g->names[k];
            g->cfg[k].n_methods = 0;
        }
        for (int i = 0; i < pa_count(); i++) { /* the values m reads */
            const pa_param *r = &pa_table()[i];
            if (method_row(r) && (dm & r->dep)) pa_put_params(&g->params[k], r, pa_get_params(&q[m], r));
        }
        used[k] |= dm;
        en_config *c = &g->cfg[k];
        g->of[m] = k;
        g->at[m] = c->n_methods;
        g->names[k][c->n_methods] = cfg->methods[m];
        c->method[c->n_methods++] = cfg->method[m];
    }
}

int pl_results_merge(const pl_groups *g, const en_results *const *parts, en_results *out)
{
    en_results tmp[OP_MAX_METHODS];
    memset(out, 0, sizeof *out);
    memset(tmp, 0, sizeof tmp);
    int n = 0, rc = GS_OK;
    for (int k = 0; k < g->n; k++) n += parts[k]->n_methods;
    for (int k = 0; k < g->n && !rc; k++) rc = en_results_copy(&tmp[k], parts[k]);
    en_method_result *m = rc ? NULL : gs_calloc((size_t)(n ? n : 1), sizeof *m, "results");
    if (!rc && !m) rc = GS_ENOMEM;
    if (rc) {
        for (int k = 0; k < g->n; k++) en_results_free(&tmp[k]);
        return rc;
    }
    for (int j = 0; j < n; j++) { /* each method's result moves (its snapshots with it) */
        m[j] = tmp[g->of[j]].m[g->at[j]];
        tmp[g->of[j]].m[g->at[j]].snaps = NULL;
    }
    *out = tmp[0]; /* T, C, D, params, the classes: group 0's */
    out->m = m;
    out->n_methods = n;
    tmp[0].is_head = NULL;
    tmp[0].class_task = NULL;
    tmp[0].class_kept = NULL;
    for (int k = 0; k < g->n; k++) en_results_free(&tmp[k]);
    return GS_OK;
}
