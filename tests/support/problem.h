/* problem.h — small random problems for engine tests (not part of the product). */
#ifndef GS_TEST_PROBLEM_H
#define GS_TEST_PROBLEM_H
#include "gs_data.h"
#include "gs_engine.h"
#include "gs_stream.h"

typedef struct {
    ds_data data;
    st_stream st;
    en_problem prob;
} tp_problem;

/* C classes, d dims, per-class counts n_c = base + c*step rows (train), nt test rows per class,
 * T tasks, profile none (the pool is the stream). Rows: class mean + noise (seeded). */
int tp_make(tp_problem *tp, int C, long d, long base, long step, long nt, int T, uint64_t seed,
            long expand);
/* The same with a validation split (--val-frac val_frac). */
int tp_make_val(tp_problem *tp, int C, long d, long base, long step, long nt, int T, uint64_t seed,
                long expand, double val_frac);
void tp_free(tp_problem *tp);

#endif
