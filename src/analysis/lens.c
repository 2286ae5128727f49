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

int rl_compute_g(const gm_mat *const *G, const double *tau, int n, const en_problem *p, const unsigned char *is_head,
                 int task, rl_result *out)
{
    memset(out, 0, sizeof *out);
    if (n < 1 || n > RL_MAX || !p) return gs_error(GS_EINPUT, "ridge lens: 1 to %d methods", RL_MAX);
    for (int k = 0; k < n; k++)
        if (!G[k] || G[k]->rows != p->D || G[k]->cols != p->D || !(tau[k] > 0))
            return gs_error(GS_EINPUT, "ridge lens: the Gram matrices do not match the rows, or τ is not > 0");
    co_dirs d;
    int st = co_class_dirs(p, is_head, task, &d);
    if (st != GS_OK) return st;
    long D = p->D;
    int nc = d.n;
    out->n = n;
    out->D = D;
    out->task = task;
    out->ncls = nc;
    out->cls = d.cls;
    out->rows = d.rows;
    out->head = d.head;
    d.cls = NULL;
    d.rows = NULL;
    d.head = NULL;
    gm_mat U = {0};
    double *P = gs_malloc((size_t)(nc > 0 ? nc : 1) * (size_t)D, sizeof(double), "ridge lens");
    double *tmp = gs_malloc((size_t)(nc > 0 ? nc : 1), sizeof(double), "ridge lens");
    if (!P || !tmp) { st = GS_ENOMEM; goto done; }
    for (int k = 0; k < n && st == GS_OK; k++) {
        out->tau[k] = tau[k];
        out->lam[k] = gs_malloc((size_t)D, sizeof(double), "ridge lens");
        out->phi[k] = gs_malloc((size_t)D, sizeof(double), "ridge lens");
        out->above[k] = gs_malloc((size_t)(nc > 0 ? nc : 1), sizeof(double), "ridge lens");
        out->energy[k] = gs_malloc((size_t)(nc > 0 ? nc : 1), sizeof(double), "ridge lens");
        if (!out->lam[k] || !out->phi[k] || !out->above[k] || !out->energy[k]) { st = GS_ENOMEM; break; }
        if ((st = sp_eig(G[k], out->lam[k], &U)) != GS_OK) break;
        for (long i = 0; i < D; i++)
            if (!(out->lam[k][i] > 0)) out->lam[k][i] = 0; /* rounding below 0 */
        out->df[k] = sp_filter_factors(out->lam[k], D, tau[k], out->phi[k]);
        long kept = 0;
        while (kept < D && out->lam[k][kept] > tau[k]) kept++;
        out->kept[k] = kept;
        /* P = directions × eigenvectors: P[c][i] = vᵢᵀu_c (U's columns are the vᵢ) */
        if (nc > 0)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nc, (int)D, (int)D, 1.0, d.u, (int)D, U.v, (int)D,
                        0.0, P, (int)D);
        for (int c = 0; c < nc; c++) {
            if (!d.ok[c]) { out->above[k][c] = out->energy[k][c] = NAN; continue; }
            const double *pc = P + (size_t)c * D;
            double a = 0, e = 0;
            for (long i = 0; i < D; i++) {
                double q = pc[i] * pc[i];
                if (i < kept) a += q;
                e += out->lam[k][i] * q;
            }
            out->above[k][c] = a;
            out->energy[k][c] = e / tau[k];
        }
        out->head_above[k] = median_of(out->above[k], out->head, nc, 1, tmp);
        out->tail_above[k] = median_of(out->above[k], out->head, nc, 0, tmp);
        out->tail_energy[k] = median_of(out->energy[k], out->head, nc, 0, tmp);
        out->acc[k] = out->head_acc[k] = out->tail_acc[k] = NAN;
        gm_free(&U);
    }
done:
    gm_free(&U);
    free(P);
    free(tmp);
    co_dirs_free(&d);
    if (st != GS_OK) rl_free(out);
    return st;
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
    memset(out, 0, sizeof *out);
    const en_results *r = en_get_results(e);
    if (!r || task < 1 || task > r->T) return gs_error(GS_EINPUT, "ridge lens: task %d not computed", task);
    gm_mat G[RL_MAX] = {{0}};
    const gm_mat *Gp[RL_MAX];
    double tau[RL_MAX];
    int ms[RL_MAX], k = 0, st = GS_OK;
    for (int i = 0; i < n && k < RL_MAX && st == GS_OK; i++) {
        int m = methods[i];
        if (m < 0 || m >= r->n_methods || !r->m[m].ridge) continue;
        const gm_mat *g, *q;
        if ((st = en_gram(e, m, task, &g, &q)) == GS_OK && (st = gm_copy(&G[k], g, "ridge lens")) == GS_OK) {
            Gp[k] = &G[k];
            tau[k] = en_method_tau(e, m, task, r->params.tau);
            ms[k++] = m;
        }
    }
    if (st == GS_OK && k == 0)
        st = gs_error(GS_EINPUT, "ridge lens: no shown method has a Gram matrix (show a ridge method such as gacl)");
    if (st == GS_OK) st = rl_compute_g(Gp, tau, k, p, r->is_head, task, out);
    for (int i = 0; i < RL_MAX; i++) gm_free(&G[i]);
    if (st != GS_OK) return st;
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
