/* gs_stream.h — the long-tailed class-incremental stream of gsrscope(7), STREAM (prefix st_).
 *
 * A pure function of (class counts of the training pool, protocol options, seed): a seeded
 * shuffle of the classes cut into T contiguous tasks, the head classes, and which training rows
 * each class keeps. The stream stores indices into the training pool, never feature values.
 * Row order: task by task, within a task class by class (in class order), within a class in
 * pool order of the chosen rows (sorted ascending). So the rows of a class are contiguous and
 * the rows of tasks 1..t are a prefix.
 * Validation split (--val-frac F > 0): after the long-tail cut, each class with n ≥ 2 kept rows
 * holds out v = round(F·n) of them, at least 1 and at most n − 1, chosen with their own derived
 * random stream (RNG_VALSPLIT, index = class: no other draw changes); classes with one row keep
 * it. Held-out rows leave the stream (row_*, class_kept count training rows only) and are listed
 * in val_* in the same order (task, class, pool order), so the validation rows of tasks 1..t
 * are a prefix too. Head classes are chosen before the split.
 * Ownership: st_stream owns all its arrays; st_free releases them.
 */
#ifndef GS_STREAM_H
#define GS_STREAM_H

#include <stdint.h>
#include "gs_data.h"
#include "gs_params.h"

typedef struct {
    int T;                 /* tasks */
    int C;                 /* classes in the data (labels 0..C-1) */
    int n_stream_classes;  /* classes with at least one kept training row */
    int *class_order;      /* C: class ids in stream order; classes with no train rows last */
    int *class_task;       /* C: task (0-based) of each class, -1 if never in the stream */
    int *task_class_start; /* T+1: offsets into class_order */
    unsigned char *is_head;/* C */
    int n_head;
    long *class_kept;      /* C: training rows kept per class */
    long *class_pool;      /* C: training rows available per class */
    long n;                /* rows in the stream */
    long *row_index;       /* n: index into the training pool */
    int *row_label;        /* n */
    int *row_task;         /* n (0-based) */
    long *task_row_start;  /* T+1 */
    long *class_row_start; /* C: first stream row of the class (-1 if none); rows contiguous */
    /* validation rows (n_val = 0 without --val-frac; the arrays are then NULL) */
    long n_val;
    long *val_index;       /* n_val: index into the training pool */
    int *val_label;        /* n_val */
    long *task_val_start;  /* T+1 */
    long *class_val;       /* C: validation rows per class */
    int val_no_split;      /* stream classes with fewer than 2 rows (no validation rows) */
} st_stream;

/* Build the stream for training labels y[0..n_pool) with C classes. GS_OK or GS_EINPUT
 * (e.g. fewer than two classes) / GS_ENOMEM. */
int st_build(st_stream *s, const int *y, long n_pool, int C, const op_protocol *p, uint64_t seed);
void st_free(st_stream *s);

#endif
