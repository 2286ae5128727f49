/* gs_csv.h — strict numeric CSV reader (prefix csv_).
 *
 * Comma-separated numbers, '.' as the decimal point whatever the locale (parsed with a "C"
 * locale_t), optional header row (detected: the first non-blank row has a non-numeric cell),
 * CRLF or LF line ends, blank lines ignored, fields may be double-quoted. Refused with
 * "FILE: line L, column C: problem": ragged rows, empty or non-numeric cells, NaN/Inf,
 * out-of-range values, labels that are not integers; also empty files and files
 * with no data rows. Columns are numbered from 1 in messages.
 * Ownership: csv_table owns x and y (csv_free).
 */
#ifndef GS_CSV_H
#define GS_CSV_H

#include <stddef.h>
#include <stdint.h>

#define CSV_NO_LABEL (-2)  /* label_col value: every column is a feature */

typedef struct {
    long rows, cols;   /* cols counts feature columns only (the label column is removed) */
    double *x;         /* rows × cols, row-major; NULL when cols == 0 */
    int *y;            /* rows labels when a label column was taken, else NULL */
    int header;        /* 1 if a header row was skipped */
} csv_table;

/* Parse buf[0..n). label_col: 0-based column holding integer labels, -1 = last column,
 * CSV_NO_LABEL = none. max_bytes > 0 refuses (GS_ENOMEM) before allocating when the values
 * need more than that. `name` is used in messages. GS_OK, GS_EINPUT, GS_ENOMEM. */
int csv_parse(const char *name, const char *buf, size_t n, int label_col, uint64_t max_bytes,
              csv_table *t);
/* Read the file and parse it (the file size counts toward max_bytes). */
int csv_read(const char *path, int label_col, uint64_t max_bytes, csv_table *t);
void csv_free(csv_table *t);

#endif
