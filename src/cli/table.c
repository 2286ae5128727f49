/* cli/table.c — `gsrscope table`: each source's engines, per seed, scheduled within the memory budget (see gs_table.h; its formats are table_write.c). */
#include "cli_int.h"
#include "gs_table.h"
#include "gs_common.h"
#include "gs_engine.h"
#include "gs_json.h"
#include "gs_mtable.h"
#include "gs_pipeline.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* o with only source s as its data (the four files when s is past the listed sources). */
static void one_source(const op_opts *o, int s, op_opts *w)
{
    *w = *o;
    w->n_sources = 0;
    w->data.synthetic = 0;
    w->data.data_dir = w->data.idx_dir = NULL;
    w->data.sample = NULL;
    if (s < o->n_sources) {
        w->data.train_features = w->data.train_labels = w->data.test_features = w->data.test_labels = NULL;
        const op_source *src = &o->sources[s];
        if (src->kind == OP_SRC_SYNTHETIC) w->data.synthetic = 1;
        else if (src->kind == OP_SRC_DATA) w->data.data_dir = src->arg;
        else if (src->kind == OP_SRC_IDX) w->data.idx_dir = src->arg;
        else if (src->kind == OP_SRC_SAMPLE) w->data.sample = src->arg;
    }
}

/* Method m's numbers after the last task: test head and tail accuracy (as `run` prints them:
 * head_acc, tail_acc), then the validation accuracy, head and tail accuracy. */
static void keep_last(const en_results *r, int m, double *vo)
{
    const en_snap *last = &r->m[m].snaps[r->T - 1];
    int done = last->state == EN_DONE;
    vo[0] = done ? last->head_acc : NAN;
    vo[1] = done ? last->tail_acc : NAN;
    vo[2] = r->m[m].val_a_last;
    vo[3] = done ? last->val_head_acc : NAN;
    vo[4] = done ? last->val_tail_acc : NAN;
}

/* ---- engines -------------------------------------------------------------------------------- */

/* Values of a method kept from its engine: A_last, A_avg, then keep_last's five (the first
 * TB_NTEST are the table's v, the last three its val). */
#define TB_OUT (TB_NTEST + 3)

/* A set of methods run in one engine (indices into the table's methods). */
typedef struct {
    int m[OP_MAX_METHODS];
    int n;
} tb_group;

/* The memory estimate of group g (plus method `extra` when ≥ 0) on c's data and stream. */
static double group_need(const pl_ctx *c, const op_opts *o, const tb_group *g, int extra)
{
    const char *names[OP_MAX_METHODS + 1];
    int n = 0;
    for (int k = 0; k < g->n; k++) names[n++] = o->methods[g->m[k]];
    if (extra >= 0) names[n++] = o->methods[extra];
    en_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.methods = names;
    cfg.n_methods = n;
    cfg.spectrum = OP_SPECTRUM_AUTO; /* as run_engine's */
    cfg.lean_test_rows = 1;
    cfg.accuracies_only = 1; /* its ridge methods share a work matrix */
    if (mt_resolve(&cfg)) return HUGE_VAL; /* the names were checked before */
    return pl_need(c, o, &cfg);
}

/* Pack the methods into groups (see gs_table.h): a method joins the group where it adds the least
 * to the estimate among those that hold its feature space (it adds less there than its own part
 * alone: its rows and base Gram are not counted again) and stay within the budget, else it
 * starts a group of its own; only methods of the same values share one (pl_group). Methods that share nothing run in engines of their own, which the scheduler below runs
 * side by side (a group of unrelated methods would only add their peaks together). */
static int plan_groups(const pl_ctx *c, const op_opts *o, double budget, const pl_groups *pg, tb_group *g)
{
    int ng = 0;
    tb_group none = {.n = 0};
    double base = group_need(c, o, &none, -1); /* the process and the problem, in every engine */
    for (int m = 0; m < o->n_methods; m++) {
        int best = -1;
        double best_add = 0, own = group_need(c, o, &none, m) - base;
        for (int k = 0; k < ng; k++) {
            double now = group_need(c, o, &g[k], -1), with = group_need(c, o, &g[k], m);
            if (pg->of[g[k].m[0]] == pg->of[m] && with <= budget && with - now < own && (best < 0 || with - now < best_add)) { best = k; best_add = with - now; }
        }
        if (best < 0) { best = ng++; g[best].n = 0; }
        g[best].m[g[best].n++] = m;
    }
    return ng;
}

/* ---- the schedule --------------------------------------------------------------------------- */

/* One engine's work: group g of seed k of the source at work, its memory estimate (need: the
 * process, seed k's problem and the engine, as `run` checks it) and what the engine adds to
 * seed k's problem, counted in the budget while it runs (add: need less the seed's own estimate,
 * which the schedule counts once while the seed is open). */
typedef struct {
    int k;
    tb_group g;
    double need, add;
    int state;          /* 0 waiting, 1 running, 2 done */
    op_params q;        /* its methods' values (a group of pl_group, gs_pipeline.h) at seed k */
} tb_unit;

/* The engines of a source, run by `jobs` threads (two on two or more cores), each engine then
 * with one worker: a unit starts when the estimates of the running units, plus the problems of
 * the seeds still open, stay within the budget (or when nothing else runs: then alone, as
 * `run` would, checked against the memory it may use; an engine that no waiting one fits beside
 * gets two workers, as `run` has). Every number an engine computes is the
 * same whichever engine runs beside it (engines share only the problem, which they read). */
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    const op_opts *o;
    pl_ctx *c;              /* nk contexts: seed k's stream and problem */
    op_opts *w;             /* nk options: the source alone, seed k */
    double *base;           /* nk: the estimate of seed k's problem alone (counted while open) */
    int *left;              /* nk: units of seed k not finished */
    tb_unit *u;
    int nu, nm, nk, s, threads;
    const char *source;
    const uint64_t *seeds;
    double budget, used;    /* the estimates counted now: running units and open problems */
    double peak_need;       /* the largest `used` seen (GS_TABLE_NEED: what the tests compare) */
    int running, stop, rc, failed;
    char err[512];
    double *v, *val;
    pg_state pg;
    const pl_groups *pg_of; /* the methods grouped by their own values (--tuned, --set) */
} tb_sched;

/* The progress of one engine (progress.h): a unit is a method at a seed (of a source); the engine
 * of a group of methods reports its tasks under the group's label. */
typedef struct {
    tb_sched *sc;
    char label[256];   /* the engine at work: "SOURCE seed S: m1,m2" */
} tb_progress;

static void progress_cb(double fraction, const char *what, void *user)
{
    (void)what;
    tb_progress *pr = user;
    pthread_mutex_lock(&pr->sc->mu);
    pg_work(&pr->sc->pg, pr->label, fraction);
    pthread_mutex_unlock(&pr->sc->mu);
}

/* Run the n methods idx[] in one engine on c's problem: out[TB_OUT·k ..] get method idx[k]'s A_last,
 * A_avg, head, tail and validation values (keep_last), or stay NaN with its reason in why[k] ("" when none). A failing job stops the
 * whole engine after the tasks before it: the methods it left unfinished get redo[k] = 1 (the
 * caller runs them again alone, so that only a method's own failure counts). Returns GS_OK, or the
 * error of creating the engine (the memory estimate refused it). */
static int run_engine(const pl_ctx *c, const op_opts *w, const op_params *q, const int *idx, int n, int threads,
                      tb_progress *pr, double *out, char (*why)[256], int *redo)
{
    const char *names[OP_MAX_METHODS];
    for (int k = 0; k < n; k++) names[k] = w->methods[idx[k]];
    int len = snprintf(pr->label, sizeof pr->label, "%s seed %llu:", pr->sc->source, (unsigned long long)w->params.seed);
    for (int k = 0; k < n && len > 0 && (size_t)len < sizeof pr->label; k++)
        len += snprintf(pr->label + len, sizeof pr->label - (size_t)len, "%s%s", k ? "," : " ", names[k]);
    en_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.methods = names;
    cfg.n_methods = n;
    cfg.threads = threads;
    /* the table shows accuracies only: an exact spectrum where it is cheap (as `run` does), none
     * of RanPAC's 10,000-d Gram (a dsyevd and a D×D copy per method and seed, for nothing) */
    cfg.spectrum = OP_SPECTRUM_AUTO;
    cfg.lean_test_rows = 1; /* read through its accuracies only: RanPAC's test rows mapped as scored */
    cfg.accuracies_only = 1; /* and no λ_min per task */
    for (int k = 0; k < n; k++) {
        for (int j = 0; j < TB_OUT; j++) out[TB_OUT * k + j] = NAN;
        why[k][0] = '\0';
        redo[k] = 0;
    }
    en_engine *eng;
    int rc = mt_resolve(&cfg);
    /* RanPAC's λ on the validation rows, as `run` chooses it (a unit with a ranpac method) */
    /* (with the unit's own values: its group's, --tuned/--set) */
    op_params uq = *q;
    double lam = 0, lval;
    for (int k = 0; k < n && !rc; k++)
        if (!strncmp(names[k], "ranpac", 6)) {
            op_opts *wq = malloc(sizeof *wq); /* large; units run on several threads */
            if (!wq) { rc = gs_error(GS_ENOMEM, "out of memory"); break; }
            *wq = *w;
            wq->params = *q;
            rc = cli_ranpac_lambda(c, wq, &cfg, NULL, &lam, &lval);
            free(wq);
            break;
        }
    if (lam > 0) uq.ranpac_lambda = lam;
    if (!rc) rc = pl_engine_new(c, w, &cfg, &eng);
    if (rc) return rc;
    int urc = en_update(eng, &uq, 1, NULL, progress_cb, pr);
    const en_results *r = en_get_results(eng);
    for (int k = 0; k < n; k++) {
        int complete = 1;
        for (int t = 0; t < r->T && !why[k][0]; t++) {
            if (r->m[k].snaps[t].state == EN_FAILED) snprintf(why[k], sizeof why[k], "%s", r->m[k].snaps[t].error);
            else if (r->m[k].snaps[t].state != EN_DONE) complete = 0;
        }
        if (why[k][0]) continue;
        if (complete) {
            out[TB_OUT * k] = r->m[k].a_last;
            out[TB_OUT * k + 1] = r->m[k].a_avg;
            keep_last(r, k, out + TB_OUT * k + 2);
        }
        else if (n == 1) snprintf(why[k], sizeof why[k], "%s", urc ? gs_last_error() : "not finished");
        else redo[k] = 1;
    }
    en_destroy(eng);
    gs_clear_error();
    return GS_OK;
}

/* Run unit u (its methods rerun alone where a failing job left them unfinished) and keep its
 * values; the unit lines and failures go to stderr under the lock. GS_OK or the error that
 * stops the table (a method alone refused by the memory estimate, as `run` is). */
static int run_unit(tb_sched *sc, tb_progress *pr, const tb_unit *u, int threads)
{
    int k = u->k, n = u->g.n, nm = sc->nm, nk = sc->nk, s = sc->s;
    double res[TB_OUT * OP_MAX_METHODS];
    char why[OP_MAX_METHODS][256];
    int redo[OP_MAX_METHODS];
    const pl_ctx *c = &sc->c[k];
    const op_opts *w = &sc->w[k];
    int grc = run_engine(c, w, &u->q, u->g.m, n, threads, pr, res, why, redo);
    if (grc && n == 1) return grc;
    for (int j = 0; j < n; j++) {
        int m = u->g.m[j];
        double *x = res + TB_OUT * j;
        int rc;
        if ((grc || redo[j]) && (rc = run_engine(c, w, &u->q, &m, 1, threads, pr, x, why + j, redo + j))) return rc;
        pthread_mutex_lock(&sc->mu);
        memcpy(sc->v + (((size_t)s * nm + m) * nk + k) * TB_NTEST, x, TB_NTEST * sizeof(double));
        if (sc->val) memcpy(sc->val + (((size_t)s * nm + m) * nk + k) * 3, x + TB_NTEST, 3 * sizeof(double));
        if (why[j][0]) {
            sc->failed++;
            pg_clear(&sc->pg);
            fprintf(stderr, "gsrscope: %s (%s, seed %llu): %s\n", sc->o->methods[m], sc->source,
                    (unsigned long long)sc->seeds[k], why[j]);
        }
        char unit[256];
        snprintf(unit, sizeof unit, "%s (%s, seed %llu)", sc->o->methods[m], sc->source, (unsigned long long)sc->seeds[k]);
        pg_done(&sc->pg, unit);
        pthread_mutex_unlock(&sc->mu);
    }
    return GS_OK;
}

/* Seed k's units are all done: its stream and problem go (the data stay: the first context
 * owns them and the others borrow them), and so does their count in the budget. Under the lock. */
static void release_seed(tb_sched *sc, int k)
{
    pl_ctx *c = &sc->c[k];
    if (c->have_prob) en_problem_free(&c->prob);
    if (c->have_stream) st_free(&c->st);
    c->have_prob = c->have_stream = 0;
    sc->used -= sc->base[k];
}

static void *runner(void *arg)
{
    tb_sched *sc = arg;
    tb_progress pr = {.sc = sc};
    pthread_mutex_lock(&sc->mu);
    for (;;) {
        int pick = -1, waiting = 0;
        for (int i = 0; i < sc->nu; i++) {
            if (sc->u[i].state) continue;
            waiting++;
            if (sc->running == 0 || sc->used + sc->u[i].add <= sc->budget) { pick = i; break; }
        }
        if (sc->stop || !waiting) break;
        if (pick < 0) { pthread_cond_wait(&sc->cv, &sc->mu); continue; }
        tb_unit *u = &sc->u[pick];
        u->state = 1;
        sc->running++;
        sc->used += u->add;
        if (sc->used > sc->peak_need) sc->peak_need = sc->used;
        /* an engine no waiting one fits beside (within the budget) gets both workers */
        int threads = sc->threads, alone = sc->running == 1;
        for (int i = 0; i < sc->nu && alone; i++)
            if (!sc->u[i].state && sc->used + sc->u[i].add <= sc->budget) alone = 0;
        if (alone) threads = 0;
        pthread_mutex_unlock(&sc->mu);
        int rc = run_unit(sc, &pr, u, threads);
        const char *msg = rc ? gs_last_error() : "";
        pthread_mutex_lock(&sc->mu);
        u->state = 2;
        sc->running--;
        sc->used -= u->add;
        if (--sc->left[u->k] == 0) release_seed(sc, u->k);
        if (rc && !sc->rc) { sc->rc = rc; snprintf(sc->err, sizeof sc->err, "%s", msg); sc->stop = 1; }
        pthread_cond_broadcast(&sc->cv);
    }
    pthread_mutex_unlock(&sc->mu);
    return NULL;
}

/* The threads that run a table's engines: two on two or more cores (GS_THREADS=1: one). */
static int table_jobs(void)
{
    const char *env = getenv("GS_THREADS");
    if (env && *env && atoi(env) == 1) return 1;
    return sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
}

/* Unit order: the largest estimate first (they are the longest: RanPAC's and AnaCP's), so the
 * small ones fill in beside them and at the end; ties by seed, then by first method. */
static int unit_cmp(const void *a, const void *b)
{
    const tb_unit *x = a, *y = b;
    if (x->need != y->need) return x->need < y->need ? 1 : -1;
    if (x->k != y->k) return x->k - y->k;
    return x->g.m[0] - y->g.m[0];
}

/* The seeds of source s: open every seed's stream and problem (the data once), plan each seed's
 * engines, run them (sc->jobs threads), release. */
static int run_source(tb_sched *sc, const op_opts *o, int s, char *name, size_t nname)
{
    int nk = sc->nk, rc;
    op_opts w0;
    one_source(o, s, &w0);
    en_config none;
    memset(&none, 0, sizeof none);
    none.spectrum = OP_SPECTRUM_AUTO;
    if ((rc = pl_open_seeds(sc->c, nk, sc->seeds, &w0, &none, cli_warn, NULL))) return rc;
    const op_source *src = s < o->n_sources ? &o->sources[s] : NULL;
    if (src && src->name) snprintf(name, nname, "%.*s", src->name_len, src->name); /* --data NAME=PATH */
    else snprintf(name, nname, "%s", sc->c[0].prob.data_name);
    sc->source = name;
    sc->s = s;
    sc->nu = 0;
    sc->used = 0;
    for (int k = 0; k < nk; k++) {
        sc->w[k] = w0;
        sc->w[k].params.seed = sc->seeds[k];
        sc->base[k] = pl_need(&sc->c[k], &sc->w[k], &none);
        sc->used += sc->base[k];
    }
    /* an engine's methods fit beside every seed's problem (open until its last engine ends): an
     * engine over that is split into several, a method apart (plan_groups); one alone that `run`
     * would refuse stops the table before any work */
    for (int k = 0; k < nk; k++) {
        tb_group g[OP_MAX_METHODS];
        int ng = plan_groups(&sc->c[k], &sc->w[k], sc->budget - (sc->used - sc->base[k]), sc->pg_of, g);
        sc->left[k] = ng;
        for (int q = 0; q < ng; q++) {
            double need = group_need(&sc->c[k], &sc->w[k], &g[q], -1);
            sc->u[sc->nu] = (tb_unit){.k = k, .g = g[q], .need = need, .add = need - sc->base[k],
                                      .q = sc->pg_of->params[sc->pg_of->of[g[q].m[0]]]};
            sc->u[sc->nu++].q.seed = sc->seeds[k];
            if (getenv("GS_TABLE_NEED")) { /* for the tests: each engine's methods and estimate */
                fprintf(stderr, "gsrscope: engine of seed %llu:", (unsigned long long)sc->seeds[k]);
                for (int j = 0; j < g[q].n; j++) fprintf(stderr, "%s%s", j ? "," : " ", o->methods[g[q].m[j]]);
                fprintf(stderr, " estimate %.0f bytes (its seed's problem %.0f)\n", need, sc->base[k]);
            }
            if (g[q].n == 1 && need > pl_have(&sc->w[k])) {
                char a[32], b[32];
                rc = gs_error(GS_EINPUT, "table: %s alone needs about %s (its memory estimate at seed %llu) but only %s is %s; "
                              "leave it out of --methods%s", o->methods[g[q].m[0]], gs_fmt_bytes((uint64_t)need, a, sizeof a),
                              (unsigned long long)sc->seeds[k], gs_fmt_bytes((uint64_t)pl_have(&sc->w[k]), b, sizeof b),
                              o->data.max_memory > 0 ? "allowed by --max-memory" : "available",
                              o->data.max_memory > 0 ? " or raise --max-memory" : "");
                pl_free_seeds(sc->c, nk);
                return rc;
            }
        }
    }
    if (sc->used > sc->peak_need) sc->peak_need = sc->used;
    qsort(sc->u, (size_t)sc->nu, sizeof *sc->u, unit_cmp);
    sc->running = sc->stop = 0;
    int jobs = sc->nu > 1 ? table_jobs() : 1;
    sc->threads = jobs > 1 ? 1 : 0;
    /* OpenBLAS at one thread for the whole schedule (each engine's update runs so anyway): the
     * count is global, and an engine ending must not raise it under the other */
    int nb = gs_blas_serial_begin();
    pthread_t th;
    int started = jobs > 1 && pthread_create(&th, NULL, runner, sc) == 0;
    runner(sc);
    if (started) pthread_join(th, NULL);
    gs_blas_serial_end(nb);
    pl_free_seeds(sc->c, nk);
    if (sc->rc) return gs_error(sc->rc, "%s", sc->err);
    return GS_OK;
}

/* How source s was given: "--data PATH", "--sample NAME", ... (the values behind the table); past
 * the listed sources, the data of o itself (the four files, a session's folder, the default). */
static void source_from(const op_opts *o, int s, char *out, size_t n)
{
    static const char *const KIND[] = {"--synthetic", "--data", "--idx", "--sample"}; /* op_source_kind */
    const op_data *d = &o->data;
    if (s < o->n_sources) {
        const op_source *src = &o->sources[s];
        snprintf(out, n, "%s%s%s", KIND[src->kind], src->arg ? " " : "", src->arg ? src->arg : "");
    } else if (d->train_features)
        snprintf(out, n, "--train-features %s --train-labels %s --test-features %s --test-labels %s", d->train_features,
                 d->train_labels, d->test_features, d->test_labels);
    else if (d->synthetic) snprintf(out, n, "--synthetic");
    else if (d->data_dir) snprintf(out, n, "--data %s", d->data_dir);
    else if (d->idx_dir) snprintf(out, n, "--idx %s", d->idx_dir);
    else snprintf(out, n, "--sample %s", d->sample ? d->sample : "pixels");
}

int cli_table(op_opts *o)
{
    uint64_t seeds[CLI_MAX_SEEDS];
    int nk = 0, rc = GS_OK;
    if (o->seeds) { if ((rc = op_parse_seeds(o->seeds, seeds, CLI_MAX_SEEDS, &nk))) goto done; }
    else { seeds[0] = o->params.seed; nk = 1; }
    int nm = o->n_methods;
    for (int m = 0; m < nm; m++)
        if (!mt_known(o->methods[m])) {
            rc = mt_unknown(o->methods[m]);
            goto done;
        }
    /* each method's own values (--tuned, --set): methods of other values run in other engines */
    static pl_groups pg;
    static op_params q[OP_MAX_METHODS];
    en_config all;
    if ((rc = cli_config_for(o, &all, 0)) || (rc = cli_method_params(o, q, 0))) goto done;
    pl_group(&pg, &all, &o->params, q);
    if (pg.n == 1) o->params = pg.params[0];
    else o->method_params = q;
    int nfiles = !!o->data.train_features;
    int ns = o->n_sources + nfiles;
    if (ns == 0) ns = 1; /* the default source (the bundled sample) */
    tb_sched sc;
    memset(&sc, 0, sizeof sc);
    double *v = gs_malloc((size_t)ns * nm * nk * TB_NTEST, sizeof(double), "table");
    double *val = o->proto.val_frac > 0 ? gs_malloc((size_t)ns * nm * nk * 3, sizeof(double), "table") : NULL;
    char (*names)[128] = gs_calloc((size_t)ns, sizeof *names, "table");
    char (*from)[512] = gs_calloc((size_t)ns, sizeof *from, "table");
    const char **np = gs_calloc((size_t)ns, sizeof *np, "table");
    const char **fp = gs_calloc((size_t)ns, sizeof *fp, "table");
    sc.c = gs_calloc((size_t)nk, sizeof *sc.c, "table");
    sc.w = gs_calloc((size_t)nk, sizeof *sc.w, "table");
    sc.base = gs_calloc((size_t)nk, sizeof *sc.base, "table");
    sc.left = gs_calloc((size_t)nk, sizeof *sc.left, "table");
    sc.u = gs_calloc((size_t)nk * (nm ? nm : 1), sizeof *sc.u, "table");
    if (!v || !names || !np || !from || !fp || (o->proto.val_frac > 0 && !val) || !sc.c || !sc.w || !sc.base || !sc.left || !sc.u) {
        rc = GS_ENOMEM;
        goto out;
    }
    /* the memory the engines may use at once: --max-memory, else half of what is available */
    sc.budget = o->data.max_memory > 0 ? pl_have(o) : pl_have(o) / 2;
    sc.o = o;
    sc.pg_of = &pg;
    sc.nm = nm;
    sc.nk = nk;
    sc.seeds = seeds;
    sc.v = v;
    sc.val = val;
    pthread_mutex_init(&sc.mu, NULL);
    pthread_cond_init(&sc.cv, NULL);
    pg_init(&sc.pg, "table", (long)ns * nk * nm, o->quiet);
    for (int s = 0; s < ns && !rc; s++) rc = run_source(&sc, o, s, names[s], sizeof names[s]);
    pg_clear(&sc.pg);
    pthread_cond_destroy(&sc.cv);
    pthread_mutex_destroy(&sc.mu);
    /* for the tests: the largest sum of estimates the schedule allowed at once (bytes) */
    if (getenv("GS_TABLE_NEED")) fprintf(stderr, "gsrscope: table estimate at most %.0f bytes at once\n", sc.peak_need);
    if (!rc) {
        for (int s = 0; s < ns; s++) {
            np[s] = names[s];
            source_from(o, s, from[s], sizeof from[s]);
            fp[s] = from[s];
        }
        tb_table t = {.n_methods = nm, .n_sources = ns, .n_seeds = nk, .methods = (const char *const *)o->methods,
                      .sources = np, .seeds = seeds, .v = v, .val = val, .val_frac = o->proto.val_frac,
                      .cols = o->columns, .n_cols = o->n_columns, .o = o, .source_from = fp};
        rc = tb_write(stdout, o->format, &t);
        if (!rc && sc.failed)
            rc = gs_error(GS_ERUN, "%d run%s failed (left out of the means; reasons above)", sc.failed,
                          sc.failed == 1 ? "" : "s");
    }
out:
    free(v); free(val); free(names); free(np); free(from); free(fp);
    free(sc.c); free(sc.w); free(sc.base); free(sc.left); free(sc.u);
done:
    return rc ? cli_fail(rc) : 0;
}
