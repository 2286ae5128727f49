#include "tap.h"
#include <stdarg.h>
#include <stdlib.h>

int tap_pass, tap_fail;

void tap_check(int ok, const char *file, int line, const char *fmt, ...)
{
    if (ok) { tap_pass++; return; }
    tap_fail++;
    fprintf(stdout, "FAIL %s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
}

int tap_skipped;

void tap_skip(const char *reason)
{
    tap_skipped++;
    printf("SKIP - %s\n", reason);
}

int tap_done(void)
{
    printf("%d passed, %d failed, %d skipped\n", tap_pass, tap_fail, tap_skipped);
    return tap_fail ? 1 : 0;
}

double tap_rel(double a, double b)
{
    double s = fmax(fmax(fabs(a), fabs(b)), 1e-300);
    return fabs(a - b) / s;
}

double tap_maxrel(const double *a, const double *b, long n)
{
    double mx = 0, md = 0;
    for (long i = 0; i < n; i++) {
        mx = fmax(mx, fabs(b[i]));
        md = fmax(md, fabs(a[i] - b[i]));
    }
    return mx > 0 ? md / mx : md;
}

unsigned char *tap_slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0, r;
    unsigned char *b = malloc(cap + 1);
    while (b && (r = fread(b + len, 1, cap - len, f)) > 0) {
        len += r;
        if (len == cap) {
            unsigned char *nb = realloc(b, (cap *= 2) + 1);
            if (!nb) { free(b); b = NULL; } else b = nb;
        }
    }
    fclose(f);
    if (b) b[len] = 0;
    *n = len;
    return b;
}

void tap_put(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f) { fwrite(b, 1, n, f); fclose(f); }
}
