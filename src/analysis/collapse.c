/* analysis/collapse.c — energy of G + τI along each seen class's own direction (gs_collapse.h). */
#include "gs_collapse.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gs_mtable.h"
#include "gs_common.h"

void co_free(co_result *c)
{
    if (!c) return;
    free(c->cls);
    free(c->rows);
    free(c->head);
    free(c->e_ref);
    free(c->e_aug);
    memset(c, 0, sizeof *c);
}

static double energy(const gm_mat *G, const double *u, double *tmp, double tau)
{
    long D = G->rows;
    cblas_dsymv(CblasRowMajor, CblasUpper, (int)D, 1.0, G->v, (int)D, u, 1, 0.0, tmp, 1);
    return cblas_ddot((int)D, u, 1, tmp, 1) + tau;
}

int co_class_dirs(const en_problem *p, const unsigned char *is_head, int task, co_dirs *out)
{
    memset(out, 0, sizeof *out);
    if (!p || task < 1 || task > p->T) return gs_error(GS_EINPUT, "class directions: task %d not in the stream", task);
    long D = p->D, nrow = p->task_row_start[task];
    int C = p->C;
    double *mu = gs_calloc((size_t)C * (size_t)D, sizeof(double), "class means");
    double *all = gs_calloc((size_t)D, sizeof(double), "class means");
    long *cnt = gs_calloc((size_t)C, sizeof(long), "class counts");
    out->cls = gs_malloc((size_t)C, sizeof(int), "class directions");
    out->rows = gs_malloc((size_t)C, sizeof(long), "class directions");
    out->head = gs_malloc((size_t)C, 1, "class directions");
    out->ok = gs_malloc((size_t)C, 1, "class directions");
    out->u = gs_malloc((size_t)C * (size_t)D, sizeof(double), "class directions");
    int st = GS_OK;
    if (!mu || !all || !cnt || !out->cls || !out->rows || !out->head || !out->ok || !out->u) {
        st = GS_ENOMEM;
        goto done;
    }
    for (long i = 0; i < nrow; i++) {
        int c = p->y[i];
        if (c < 0 || c >= C) continue;
        if (p->h.v) { /* in single precision (h.v NULL) the rows are float, in hf */
            const double *h = gm_row(&p->h, i);
            cblas_daxpy((int)D, 1.0, h, 1, mu + (size_t)c * D, 1);
            cblas_daxpy((int)D, 1.0, h, 1, all, 1);
        } else {
            const float *h = gm_rowf(&p->hf, i);
            double *m = mu + (size_t)c * D;
            for (long j = 0; j < D; j++) { m[j] += h[j]; all[j] += h[j]; }
        }
        cnt[c]++;
    }
    if (nrow > 0) cblas_dscal((int)D, 1.0 / (double)nrow, all, 1);
    int n = 0;
    for (int c = 0; c < C; c++)
        if (cnt[c] > 0) out->cls[n++] = c;
    /* most rows first, ties by class id (insertion sort: stable) */
    for (int i = 1; i < n; i++) {
        int v = out->cls[i], j = i - 1;
        while (j >= 0 && cnt[out->cls[j]] < cnt[v]) { out->cls[j + 1] = out->cls[j]; j--; }
        out->cls[j + 1] = v;
    }
    for (int k = 0; k < n; k++) {
        int c = out->cls[k];
        double *m = mu + (size_t)c * D, *u = out->u + (size_t)k * D;
        for (long j = 0; j < D; j++) u[j] = m[j] / (double)cnt[c] - all[j];
        double nu = cblas_dnrm2((int)D, u, 1);
        out->rows[k] = cnt[c];
        out->head[k] = is_head ? is_head[c] : 0;
        out->ok[k] = nu > 0; /* one class only: no own direction */
        if (nu > 0) cblas_dscal((int)D, 1.0 / nu, u, 1);
    }
    out->n = n;
    out->D = D;
done:
    free(mu);
    free(all);
    free(cnt);
    if (st != GS_OK) co_dirs_free(out);
    return st;
}

void co_dirs_free(co_dirs *d)
{
    if (!d) return;
    free(d->cls);
    free(d->rows);
    free(d->head);
    free(d->ok);
    free(d->u);
    memset(d, 0, sizeof *d);
}

int co_compute_g(const gm_mat *g_ref, const gm_mat *g_aug, const en_problem *p, const unsigned char *is_head,
                 int task, double tau, co_result *out)
{
    memset(out, 0, sizeof *out);
    if (!g_ref || !p || task < 1 || task > p->T || g_ref->rows != p->D || g_ref->cols != p->D ||
        (g_aug && (g_aug->rows != p->D || g_aug->cols != p->D)))
        return gs_error(GS_EINPUT, "collapse: Gram matrices and rows do not match");
    co_dirs d;
    int st = co_class_dirs(p, is_head, task, &d);
    if (st != GS_OK) return st;
    long D = p->D;
    int C = p->C;
    double *tmp = gs_malloc((size_t)D, sizeof(double), "collapse direction");
    out->cls = gs_malloc((size_t)C, sizeof(int), "collapse");
    out->rows = gs_malloc((size_t)C, sizeof(long), "collapse");
    out->head = gs_malloc((size_t)C, 1, "collapse");
    out->e_ref = gs_malloc((size_t)C, sizeof(double), "collapse");
    out->e_aug = gs_malloc((size_t)C, sizeof(double), "collapse");
    if (!tmp || !out->cls || !out->rows || !out->head || !out->e_ref || !out->e_aug) {
        st = GS_ENOMEM;
        goto done;
    }
    for (int k = 0; k < d.n; k++) {
        const double *u = d.u + (size_t)k * D;
        out->cls[k] = d.cls[k];
        out->rows[k] = d.rows[k];
        out->head[k] = d.head[k];
        if (!d.ok[k]) { out->e_ref[k] = out->e_aug[k] = NAN; continue; }
        out->e_ref[k] = energy(g_ref, u, tmp, tau);
        out->e_aug[k] = g_aug ? energy(g_aug, u, tmp, tau) : NAN;
    }
    out->n = d.n;
    out->tau = tau;
    out->task = task;
done:
    free(tmp);
    co_dirs_free(&d);
    if (st != GS_OK) co_free(out);
    return st;
}

int co_compute(en_engine *e, const en_problem *p, int ref, int aug, int task, co_result *out)
{
    memset(out, 0, sizeof *out);
    const en_results *r = en_get_results(e);
    if (!r || ref < 0 || ref >= r->n_methods || !r->m[ref].ridge)
        return gs_error(GS_EINPUT, "collapse: the reference method has no Gram matrix (show a ridge method such as gacl)");
    if (aug >= 0 && (aug >= r->n_methods || !r->m[aug].ridge)) aug = -1;
    const gm_mat *G, *Q;
    gm_mat gr = {0};
    int st = en_gram(e, ref, task, &G, &Q);
    if (st == GS_OK) st = gm_copy(&gr, G, "collapse");
    if (st == GS_OK && aug >= 0) st = en_gram(e, aug, task, &G, &Q);
    if (st == GS_OK) st = co_compute_g(&gr, aug >= 0 ? G : NULL, p, r->is_head, task, r->params.tau, out);
    gm_free(&gr);
    if (st == GS_OK) {
        mt_display_name(r->m[ref].name, out->ref, sizeof out->ref);
        if (aug >= 0) mt_display_name(r->m[aug].name, out->aug, sizeof out->aug);
    }
    return st;
}
