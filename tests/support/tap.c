#include "tap.h"
#include <stdarg.h>

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

int tap_done(void)
{
    printf("%d passed, %d failed\n", tap_pass, tap_fail);
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
