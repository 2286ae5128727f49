#include "problem.h"
#include "gs_common.h"
#include "gs_rng.h"

#include <gsl/gsl_randist.h>
#include <string.h>

int tp_make(tp_problem *tp, int C, long d, long base, long step, long nt, int T, uint64_t seed, long expand)
{
    return tp_make_val(tp, C, d, base, step, nt, T, seed, expand, 0);
}

int tp_make_val(tp_problem *tp, int C, long d, long base, long step, long nt, int T, uint64_t seed, long expand,
                double val_frac)
{
    memset(tp, 0, sizeof *tp);
    long n = 0;
    for (int c = 0; c < C; c++) n += base + c * step;
    ds_data *ds = &tp->data;
    if (gm_alloc(&ds->train_x, n, d, "t") || gm_alloc(&ds->test_x, nt * C, d, "t")) return 1;
    ds->train_y = malloc(sizeof(int) * n);
    ds->test_y = malloc(sizeof(int) * (nt * C + 1));
    ds->n_classes = C;
    snprintf(ds->name, sizeof ds->name, "test");
    gsl_rng *r = rng_new(seed, RNG_INTERCLASS, 77);
    double *mu = malloc(sizeof(double) * C * d);
    for (long i = 0; i < C * d; i++) mu[i] = gsl_ran_gaussian(r, 1.0);
    long k = 0;
    for (int c = 0; c < C; c++)
        for (long i = 0; i < base + c * step; i++, k++) {
            ds->train_y[k] = c;
            for (long j = 0; j < d; j++) gm_row(&ds->train_x, k)[j] = mu[c * d + j] + 0.8 * gsl_ran_gaussian(r, 1.0);
        }
    for (long i = 0; i < nt * C; i++) {
        int c = (int)(i % C);
        ds->test_y[i] = c;
        for (long j = 0; j < d; j++) gm_row(&ds->test_x, i)[j] = mu[c * d + j] + 0.8 * gsl_ran_gaussian(r, 1.0);
    }
    free(mu);
    gsl_rng_free(r);
    op_protocol p = {0};
    p.tasks = T;
    p.profile = OP_PROFILE_NONE;
    p.head_frac = 0.3;
    p.tail_shots = 5;
    p.val_frac = val_frac;
    if (st_build(&tp->st, ds->train_y, n, C, &p, seed)) return 1;
    op_data od = {0};
    od.expand = expand;
    return en_prepare(&tp->prob, ds, &tp->st, &od, seed);
}

void tp_free(tp_problem *tp)
{
    en_problem_free(&tp->prob);
    st_free(&tp->st);
    ds_free(&tp->data);
}
