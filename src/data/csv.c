/* data/csv.c — strict numeric CSV reader (see gs_csv.h).
 *
 * Two passes over the text: the first counts data rows and columns (so the memory needed is
 * known before allocating), the second parses every cell with strtod_l under a "C" locale_t,
 * after checking the cell contains only characters a decimal number can have (no hex floats,
 * no "nan"/"inf" text, which get their own messages).
 */
#define _GNU_SOURCE 1
#include "gs_csv.h"
#include "gs_common.h"
#include "gs_io.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

enum { CELL_OK, CELL_EMPTY, CELL_TEXT, CELL_NAN, CELL_INF, CELL_RANGE };

typedef struct {
    const char *name;
    const char *p, *end;   /* remaining text */
    long line;             /* 1-based number of the line last returned */
} reader;

/* Next line [*ls, *le) without its line end; 0 at end of text. */
static int next_line(reader *r, const char **ls, const char **le)
{
    if (r->p >= r->end) return 0;
    const char *s = r->p;
    const char *nl = memchr(s, '\n', (size_t)(r->end - s));
    const char *e = nl ? nl : r->end;
    r->p = nl ? nl + 1 : r->end;
    if (e > s && e[-1] == '\r') e--;
    r->line++;
    *ls = s;
    *le = e;
    return 1;
}

static int is_blank(const char *s, const char *e)
{
    for (; s < e; s++)
        if (*s != ' ' && *s != '\t') return 0;
    return 1;
}

/* Split the next field off [*p, e): sets [*fs, *fe) to its content (quotes removed, "" kept
 * as two characters — a number never contains them), advances *p past the comma (NULL after
 * the last field).
 * Returns 1 if a field was produced, 0 at end of line, -1 on an unterminated quote. */
static int next_field(const char **p, const char *e, int *first, const char **fs, const char **fe)
{
    const char *s = *p;
    if (!s) return 0;
    *first = 0;
    const char *t = s;
    while (t < e && (*t == ' ' || *t == '\t')) t++;
    if (t < e && *t == '"') {
        const char *q = t + 1;
        for (;;) {
            while (q < e && *q != '"') q++;
            if (q >= e) return -1;
            if (q + 1 < e && q[1] == '"') { q += 2; continue; }
            break;
        }
        *fs = t + 1;
        *fe = q;
        q++;
        while (q < e && (*q == ' ' || *q == '\t')) q++;
        if (q < e && *q != ',') return -1;
        *p = q < e ? q + 1 : NULL;
        return 1;
    }
    const char *c = memchr(s, ',', (size_t)(e - s));
    *fs = s;
    *fe = c ? c : e;
    *p = c ? c + 1 : NULL;
    return 1;
}

static int cell_value(const char *s, const char *e, locale_t loc, double *v)
{
    while (s < e && (*s == ' ' || *s == '\t')) s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t')) e--;
    if (s == e) return CELL_EMPTY;
    char buf[128];
    size_t n = (size_t)(e - s);
    const char *b = s;
    if (*b == '+' || *b == '-') b++;
    size_t m = (size_t)(e - b);
    if ((m >= 3 && strncasecmp(b, "nan", 3) == 0)) return CELL_NAN;
    if ((m == 3 && strncasecmp(b, "inf", 3) == 0) || (m == 8 && strncasecmp(b, "infinity", 8) == 0))
        return CELL_INF;
    if (n >= sizeof buf) return CELL_TEXT;
    int digits = 0;
    for (const char *c = s; c < e; c++) {
        if (*c >= '0' && *c <= '9') digits = 1;
        else if (!strchr("+-.eE", *c)) return CELL_TEXT;
    }
    if (!digits) return CELL_TEXT;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    errno = 0;
    double x = strtod_l(buf, &end, loc);
    if (end != buf + n) return CELL_TEXT;
    if (errno == ERANGE && fabs(x) == HUGE_VAL) return CELL_RANGE;
    if (!isfinite(x)) return CELL_INF;
    *v = x;
    return CELL_OK;
}

static int cell_error(const reader *r, long col, int kind, const char *s, const char *e)
{
    while (s < e && (*s == ' ' || *s == '\t')) s++;
    int len = (int)(e - s > 40 ? 40 : e - s);
    switch (kind) {
    case CELL_EMPTY:
        return gs_error(GS_EINPUT, "%s: line %ld, column %ld: empty cell", r->name, r->line, col);
    case CELL_NAN:
        return gs_error(GS_EINPUT, "%s: line %ld, column %ld: value is NaN", r->name, r->line, col);
    case CELL_INF:
        return gs_error(GS_EINPUT, "%s: line %ld, column %ld: value is infinite", r->name, r->line,
                        col);
    case CELL_RANGE:
        return gs_error(GS_EINPUT, "%s: line %ld, column %ld: value '%.*s' is out of range",
                        r->name, r->line, col, len, s);
    default:
        return gs_error(GS_EINPUT, "%s: line %ld, column %ld: '%.*s' is not a number (use '.' as "
                        "the decimal point)", r->name, r->line, col, len, s);
    }
}

/* Fields of one line; -1 on an unterminated quote. */
static long count_fields(const char *s, const char *e)
{
    long n = 0;
    int first = 1;
    const char *fs, *fe;
    int k;
    while ((k = next_field(&s, e, &first, &fs, &fe)) == 1) n++;
    return k < 0 ? -1 : n;
}

void csv_free(csv_table *t)
{
    free(t->x);
    free(t->y);
    memset(t, 0, sizeof *t);
}

int csv_parse(const char *name, const char *buf, size_t n, int label_col, uint64_t max_bytes,
              csv_table *t)
{
    memset(t, 0, sizeof *t);
    reader r = {name, buf, buf + n, 0};
    if (n >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) r.p += 3; /* UTF-8 byte-order mark */
    if (n >= 2 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b)
        return gs_error(GS_EINPUT, "%s: is gzip-compressed; decompress it first (gunzip)", name);
    if (memchr(buf, '\0', n))
        return gs_error(GS_EINPUT, "%s: contains NUL bytes; not a text CSV file", name);
    locale_t loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (!loc) return gs_error(GS_ENOMEM, "%s: cannot create the C locale", name);

    /* Pass 1: columns of the first non-blank line, header detection, data row count. */
    const char *ls, *le;
    long cols = -1, rows = 0, first_line = 0;
    int header = 0, st = GS_OK;
    reader r1 = r;
    while (next_line(&r1, &ls, &le)) {
        if (is_blank(ls, le)) continue;
        if (cols < 0) {
            cols = count_fields(ls, le);
            first_line = r1.line;
            if (cols < 0) {
                st = gs_error(GS_EINPUT, "%s: line %ld: unterminated quote", name, r1.line);
                goto out;
            }
            const char *p = ls, *fs, *fe;
            int first = 1;
            double v;
            while (next_field(&p, le, &first, &fs, &fe) == 1) {
                int k = cell_value(fs, fe, loc, &v);
                if (k == CELL_TEXT || k == CELL_EMPTY) header = 1;
            }
            if (header) continue;
        }
        rows++;
    }
    if (cols < 0) { st = gs_error(GS_EINPUT, "%s: file is empty (no rows)", name); goto out; }
    if (rows == 0) {
        st = gs_error(GS_EINPUT, "%s: no data rows (only a header on line %ld)", name, first_line);
        goto out;
    }
    long lc = label_col == -1 ? cols - 1 : label_col;
    if (label_col != CSV_NO_LABEL && (lc < 0 || lc >= cols)) {
        st = gs_error(GS_EINPUT, "%s: --label-col %d is out of range: the file has %ld columns "
                      "(numbered from 0; -1 = last)", name, label_col, cols);
        goto out;
    }
    if (label_col == CSV_NO_LABEL) lc = -1;
    long fcols = lc >= 0 ? cols - 1 : cols;
    size_t cells, bytes;
    if (gs_mul_size((size_t)rows, (size_t)(fcols ? fcols : 1), &cells) ||
        gs_mul_size(cells, sizeof(double), &bytes)) {
        st = gs_error(GS_EINPUT, "%s: too many values", name);
        goto out;
    }
    if (max_bytes && (uint64_t)bytes > max_bytes) {
        char a[32], b[32];
        st = gs_error(GS_EINPUT, "%s: needs %s but only %s available (use --max-memory to change "
                      "the limit)", name, gs_fmt_bytes(bytes, a, sizeof a),
                      gs_fmt_bytes(max_bytes, b, sizeof b));
        goto out;
    }
    if (fcols > 0 && !(t->x = gs_malloc(cells, sizeof(double), name))) { st = GS_ENOMEM; goto out; }
    if (lc >= 0 && !(t->y = gs_malloc((size_t)rows, sizeof(int), name))) { st = GS_ENOMEM; goto out; }

    /* Pass 2: parse. */
    long row = 0;
    int skip_header = header;
    while (next_line(&r, &ls, &le)) {
        if (is_blank(ls, le)) continue;
        if (skip_header) { skip_header = 0; continue; }
        const char *p = ls, *fs, *fe;
        int first = 1, k;
        long col = 0, fc = 0;
        double *xr = t->x ? t->x + (size_t)row * (size_t)fcols : NULL;
        while ((k = next_field(&p, le, &first, &fs, &fe)) == 1) {
            if (col >= cols) break;
            double v = 0;
            int c = cell_value(fs, fe, loc, &v);
            if (c != CELL_OK) { st = cell_error(&r, col + 1, c, fs, fe); goto out; }
            if (col == lc) {
                if (v < 0 || v != floor(v) || v > INT_MAX) {
                    st = gs_error(GS_EINPUT, "%s: line %ld, column %ld: label %.17g is not a "
                                  "non-negative integer", name, r.line, col + 1, v);
                    goto out;
                }
                t->y[row] = (int)v;
            } else {
                xr[fc++] = v;
            }
            col++;
        }
        if (k < 0) { st = gs_error(GS_EINPUT, "%s: line %ld: unterminated quote", name, r.line); goto out; }
        if (k == 1 || col != cols) {
            long got = k == 1 ? col + 1 + count_fields(p, le) : col;
            st = gs_error(GS_EINPUT, "%s: line %ld: ragged row: %ld columns, expected %ld (as on "
                          "line %ld)", name, r.line, got, cols, first_line);
            goto out;
        }
        row++;
    }
    t->rows = rows;
    t->cols = fcols;
    t->header = header;
out:
    freelocale(loc);
    if (st) csv_free(t);
    return st;
}

int csv_read(const char *path, int label_col, uint64_t max_bytes, csv_table *t)
{
    memset(t, 0, sizeof *t);
    FILE *f;
    uint64_t size;
    int ost = io_open_regular(path, &f, &size);
    if (ost) return ost;
    if (max_bytes && size > max_bytes) {
        char a[32], b[32];
        fclose(f);
        return gs_error(GS_EINPUT, "%s: needs %s but only %s available (use --max-memory to change "
                        "the limit)", path, gs_fmt_bytes(size, a, sizeof a),
                        gs_fmt_bytes(max_bytes, b, sizeof b));
    }
    if (size > SIZE_MAX - 1) { fclose(f); return gs_error(GS_EINPUT, "%s: file is too large", path); }
    char *buf = gs_malloc((size_t)size + 1, 1, path);
    if (!buf) { fclose(f); return GS_ENOMEM; }
    size_t got = fread(buf, 1, (size_t)size, f);
    int err = ferror(f);
    fclose(f);
    if (got != size || err) {
        free(buf);
        return gs_error(GS_EINPUT, "%s: read error", path);
    }
    int st = csv_parse(path, buf, (size_t)size, label_col,
                       max_bytes ? max_bytes - size : 0, t);
    free(buf);
    return st;
}
