/* analysis/mechanism.c — the within-class spread and the mass of the real and synthetic rows per
 * head and tail class (gs_mechanism.h). */
#include "gs_mechanism.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gs_common.h"

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    if (n <= 0) return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_dbl);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* tr Σ and the mean cosine to the mean of the rows X[idx[k]] (k < n), d columns; mu scratch. */
static void spread_of(const double *X, const long *idx, long n, long d, double *mu, double *spread, double *cosm)
{
    memset(mu, 0, (size_t)d * sizeof *mu);
    for (long k = 0; k < n; k++) {
        const double *x = X + (size_t)idx[k] * (size_t)d;
        for (long j = 0; j < d; j++) mu[j] += x[j];
    }
    double mn = 0;
    for (long j = 0; j < d; j++) { mu[j] /= (double)n; mn += mu[j] * mu[j]; }
    mn = sqrt(mn);
    double s = 0, c = 0;
    for (long k = 0; k < n; k++) {
        const double *x = X + (size_t)idx[k] * (size_t)d;
        double e = 0, dot = 0, xx = 0;
        for (long j = 0; j < d; j++) {
            double t = x[j] - mu[j];
            e += t * t;
            dot += x[j] * mu[j];
            xx += x[j] * x[j];
        }
        s += e;
        c += xx > 0 && mn > 0 ? dot / (sqrt(xx) * mn) : 0;
    }
    *spread = s / (double)n;
    *cosm = c / (double)n;
}

int mc_rows_compute(const en_problem *p, const en_results *r, int task, const gm_mat *aug, const int *labels,
                    const double *omega, double beta, mc_rows *out)
{
    memset(out, 0, sizeof *out);
    for (int h = 0; h < 2; h++)
        out->spread_real[h] = out->spread_syn[h] = out->cos_real[h] = out->cos_syn[h] = out->mass_real[h] =
            out->mass_total[h] = NAN;
    out->task = task;
    if (!p || !r || !aug || task < 1 || task > r->T || (aug->rows > 0 && aug->cols != p->d) || !p->z.v)
        return gs_error(GS_EINPUT, "mechanism: no rows for task %d", task);
    int C = r->C;
    long d = p->d, n = aug->rows;
    long *cnt = gs_calloc((size_t)C, sizeof(long), "mechanism");
    double *wsum = gs_calloc((size_t)C, sizeof(double), "mechanism");
    long *start = gs_calloc((size_t)C + 1, sizeof(long), "mechanism");
    long *idx = gs_malloc((size_t)(n > 0 ? n : 1), sizeof(long), "mechanism");
    long *ridx = NULL;
    double *mu = gs_malloc((size_t)d, sizeof(double), "mechanism");
    double *acc[2][6];
    memset(acc, 0, sizeof acc);
    int rc = GS_OK;
    if (!cnt || !wsum || !start || !idx || !mu) { rc = GS_ENOMEM; goto out; }
    for (long i = 0; i < n; i++)
        if (labels[i] >= 0 && labels[i] < C) { cnt[labels[i]]++; wsum[labels[i]] += omega ? omega[i] : 1.0; }
    for (int c = 0; c < C; c++) start[c + 1] = start[c] + cnt[c];
    {
        long *pos = gs_malloc((size_t)C, sizeof(long), "mechanism");
        if (!pos) { rc = GS_ENOMEM; goto out; }
        memcpy(pos, start, (size_t)C * sizeof(long));
        for (long i = 0; i < n; i++)
            if (labels[i] >= 0 && labels[i] < C) idx[pos[labels[i]]++] = i;
        free(pos);
    }
    long maxk = 1;
    for (int c = 0; c < C; c++) if (p->st->class_kept[c] > maxk) maxk = p->st->class_kept[c];
    ridx = gs_malloc((size_t)maxk, sizeof(long), "mechanism");
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < 6; k++)
            if (!(acc[h][k] = gs_malloc((size_t)C, sizeof(double), "mechanism"))) rc = GS_ENOMEM;
    if (!ridx || rc) { rc = GS_ENOMEM; goto out; }
    for (int c = 0; c < C; c++) {
        if (r->class_task[c] < 0 || r->class_task[c] >= task || cnt[c] < 1) continue;
        long N = p->st->class_kept[c], first = p->st->class_row_start[c];
        if (N < 1) continue;
        int h = r->is_head[c] ? 0 : 1, k = out->n_cls[h]++;
        for (long i = 0; i < N; i++) ridx[i] = first + i;
        spread_of(p->z.v, ridx, N, d, mu, &acc[h][0][k], &acc[h][1][k]);
        spread_of(aug->v, idx + start[c], cnt[c], d, mu, &acc[h][2][k], &acc[h][3][k]);
        acc[h][4][k] = (double)N;
        acc[h][5][k] = (double)N + beta * wsum[c];
    }
    for (int h = 0; h < 2; h++) {
        int m = out->n_cls[h];
        if (!m) continue;
        double s[4] = {0, 0, 0, 0};
        for (int k = 0; k < m; k++)
            for (int j = 0; j < 4; j++) s[j] += acc[h][j][k];
        out->spread_real[h] = s[0] / m;
        out->cos_real[h] = s[1] / m;
        out->spread_syn[h] = s[2] / m;
        out->cos_syn[h] = s[3] / m;
        out->mass_real[h] = median(acc[h][4], m);
        out->mass_total[h] = median(acc[h][5], m);
    }
out:
    free(cnt); free(wsum); free(start); free(idx); free(ridx); free(mu);
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < 6; k++) free(acc[h][k]);
    return rc;
}
