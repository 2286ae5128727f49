/* test_stream.c — the long-tailed stream (gsrscope(7), STREAM). */
#include "tap.h"
#include "gs_common.h"
#include "gs_stream.h"

#include <stdlib.h>
#include <string.h>

static int *balanced(int C, long per)
{
    int *y = malloc(sizeof(int) * C * per);
    for (long i = 0; i < C * per; i++) y[i] = (int)(i / per);
    return y;
}

static op_protocol proto(void)
{
    op_protocol p = {0};
    p.tasks = 10; p.profile = OP_PROFILE_STEP; p.head_frac = 0.3; p.tail_shots = 5;
    return p;
}

static int same_stream(const st_stream *a, const st_stream *b)
{
    if (a->n != b->n || a->T != b->T) return 0;
    return !memcmp(a->row_index, b->row_index, sizeof(long) * a->n) &&
           !memcmp(a->class_order, b->class_order, sizeof(int) * a->C) &&
           !memcmp(a->is_head, b->is_head, (size_t)a->C);
}

int main(void)
{
    int *y = balanced(100, 500);
    op_protocol p = proto();
    st_stream s, s2, s3;
    CHECK(st_build(&s, y, 50000, 100, &p, 1) == GS_OK, "step stream: %s", gs_last_error());
    CHECK(s.n == 15350, "step: 30×500 + 70×5 = 15,350 rows (got %ld)", s.n);
    CHECK(s.n_head == 30, "30 head classes (got %d)", s.n_head);
    long heads = 0, bad = 0;
    for (int c = 0; c < 100; c++) {
        if (s.is_head[c]) { heads++; bad += s.class_kept[c] != 500; } else bad += s.class_kept[c] != 5;
    }
    CHECK(heads == 30 && bad == 0, "head classes keep 500 rows, tail classes 5");
    CHECK(s.T == 10, "10 tasks");
    int ok = 1;
    for (int t = 0; t < 10; t++) ok &= s.task_class_start[t + 1] - s.task_class_start[t] == 10;
    CHECK(ok, "10 classes per task");
    /* rows: class rows contiguous, sorted pool indices of the right class, tasks as prefix */
    ok = 1;
    for (long i = 0; i < s.n; i++) {
        ok &= y[s.row_index[i]] == s.row_label[i];
        ok &= s.class_task[s.row_label[i]] == s.row_task[i];
        if (i && s.row_label[i] == s.row_label[i - 1]) ok &= s.row_index[i] > s.row_index[i - 1];
    }
    CHECK(ok, "rows belong to their class and task, sorted within the class");

    CHECK(st_build(&s2, y, 50000, 100, &p, 1) == GS_OK, "again");
    CHECK(same_stream(&s, &s2), "same seed → same stream");
    st_free(&s2);
    CHECK(st_build(&s2, y, 50000, 100, &p, 2) == GS_OK, "seed 2");
    CHECK(!same_stream(&s, &s2), "another seed → another stream");
    st_free(&s2);

    /* ordered: head classes fill the first three tasks */
    p.order = OP_ORDER_ORDERED;
    CHECK(st_build(&s3, y, 50000, 100, &p, 1) == GS_OK, "ordered");
    ok = 1;
    for (int k = 0; k < 30; k++) ok &= s3.is_head[s3.class_order[k]];
    CHECK(ok, "ordered: head classes first");
    CHECK(s3.n == 15350, "ordered keeps the same counts");
    st_free(&s3);

    /* rho: tail = floor(500/50) = 10 */
    p = proto();
    p.rho = 50;
    CHECK(st_build(&s3, y, 50000, 100, &p, 1) == GS_OK, "rho");
    CHECK(s3.n == 30 * 500 + 70 * 10, "step with ρ = 50 keeps 10 tail rows (n = %ld)", s3.n);
    st_free(&s3);

    /* exp profile, C=100, N_max=500, ρ=100 → 10,847 */
    p = proto();
    p.profile = OP_PROFILE_EXP;
    p.rho = 100;
    CHECK(st_build(&s3, y, 50000, 100, &p, 1) == GS_OK, "exp");
    CHECK(s3.n == 10847, "exp profile totals 10,847 (got %ld)", s3.n);
    st_free(&s3);
    st_free(&s);
    free(y);

    /* uneven: 10 classes into 3 tasks → 4, 3, 3 */
    y = balanced(10, 20);
    p = proto();
    p.tasks = 3;
    CHECK(st_build(&s, y, 200, 10, &p, 4) == GS_OK, "uneven");
    CHECK(s.task_class_start[1] == 4 && s.task_class_start[2] == 7 && s.task_class_start[3] == 10,
          "first tasks get one class more (4, 3, 3)");
    st_free(&s);
    /* more tasks than classes → T = C */
    p.tasks = 50;
    CHECK(st_build(&s, y, 200, 10, &p, 4) == GS_OK && s.T == 10, "tasks clamp to C");
    st_free(&s);
    /* one class is refused */
    for (int i = 0; i < 200; i++) y[i] = 0;
    CHECK(st_build(&s, y, 200, 1, &p, 4) == GS_EINPUT, "one class is refused");
    free(y);
    return tap_done();
}
