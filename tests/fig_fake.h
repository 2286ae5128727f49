/* fig_fake.h — hand-made en_results for the chart and figure tests (no engine needed).
 * T = 10 tasks, C = 100 classes, D = 64; methods "gacl" and "gsr"; tasks 1..done are EN_DONE,
 * later tasks EN_PENDING; the spectrum (1e-3 .. 1e3, log-spaced) exists at task `done`. */
#ifndef FIG_FAKE_H
#define FIG_FAKE_H
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gs_engine.h"

static double fake_acc(int m, int t, int kind)
{
    /* plausible: accuracy falls over tasks, GSR keeps the tail better */
    double base = 92.0 - 3.0 * t;
    if (kind == 1) return base + 4.0 - 0.5 * m;             /* head */
    if (kind == 2) return (m ? 55.0 : 35.0) - 2.0 * t;      /* tail */
    return base - (m ? 1.0 : 6.0);                          /* overall */
}

static void fake_results(en_results *r, int done, long D, double scale)
{
    memset(r, 0, sizeof *r);
    r->T = 10; r->C = 100; r->D = D;
    r->params.alpha_base = 0.6; r->params.xi = 5e-3; r->params.beta = 1; r->params.tau = 0.01;
    r->params.seed = 1; r->params.max_aug = 1000;
    r->n_methods = 2;
    r->m = calloc(2, sizeof *r->m);
    strcpy(r->m[0].name, "gacl");
    strcpy(r->m[1].name, "gsr");
    for (int m = 0; m < 2; m++) {
        r->m[m].ridge = 1;
        r->m[m].D = r->D;
        strcpy(r->m[m].learner, "gacl");
        strcpy(r->m[m].augmenter, m ? "gsr" : "");
        r->m[m].snaps = calloc((size_t)r->T, sizeof(en_snap));
        r->m[m].a_last = r->m[m].a_avg = NAN;
        for (int t = 0; t < r->T; t++) {
            en_snap *s = &r->m[m].snaps[t];
            s->task = t + 1;
            s->head_acc = s->tail_acc = s->acc = s->stable_rank = NAN;
            if (t >= done) { s->state = EN_PENDING; continue; }
            s->state = EN_DONE;
            s->acc = fake_acc(m, t, 0) * scale;
            s->head_acc = fake_acc(m, t, 1) * scale;
            s->tail_acc = t == 0 ? NAN : fake_acc(m, t, 2) * scale; /* no tail class in task 1 */
            s->stable_rank = (m ? 3.0 : 1.5) + 0.4 * t * (m ? 1.5 : 1.0);
            if (t == done - 1) {
                s->flags |= EN_SPECTRUM;
                s->eig = calloc((size_t)D, sizeof(double));
                for (long i = 0; i < D; i++) /* 1e3 .. 1e-3, GSR's tail lifted */
                    s->eig[i] = pow(10.0, 3.0 - 6.0 * (double)i / (double)(D - 1)) +
                                (m ? 0.02 * (double)i / (double)D : 0.0);
            }
        }
    }
}

static void fake_free(en_results *r)
{
    for (int m = 0; m < r->n_methods; m++) {
        for (int t = 0; t < r->T; t++) free(r->m[m].snaps[t].eig);
        free(r->m[m].snaps);
    }
    free(r->m);
    memset(r, 0, sizeof *r);
}
#endif
