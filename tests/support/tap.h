/* tap.h — tiny test helpers. Each test binary calls the CHECK macros and ends with
 * `return tap_done();`, which prints "N passed, N failed, N skipped" (read by tests/run_tests.sh). */
#ifndef GS_TAP_H
#define GS_TAP_H
#include <math.h>
#include <stddef.h>
#include <stdio.h>

extern int tap_pass, tap_fail;
void tap_check(int ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int tap_done(void);
/* A check that cannot run here (a locale, a tool missing): counted as skipped, never as passed. */
void tap_skip(const char *reason);
/* Relative difference |a-b| / max(|a|,|b|,tiny). */
double tap_rel(double a, double b);
/* Max relative difference of two arrays, scaled by the max magnitude of b. */
double tap_maxrel(const double *a, const double *b, long n);

/* Whole file into a malloc'd, NUL-terminated buffer (*n bytes, not counting the NUL); NULL if it
 * cannot be read. */
unsigned char *tap_slurp(const char *path, size_t *n);
/* Write n bytes to path (best effort: tests check the result by reading it back). */
void tap_put(const char *path, const void *b, size_t n);

#define CHECK(cond, ...) tap_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_NEAR(a, b, tol, what)                                                       \
    do { double a_ = (a), b_ = (b);                                                       \
         tap_check(fabs(a_ - b_) <= (tol), __FILE__, __LINE__, "%s: %.12g vs %.12g (tol %g)", \
                   (what), a_, b_, (double)(tol)); } while (0)
#define CHECK_REL(a, b, tol, what)                                                        \
    do { double a_ = (a), b_ = (b);                                                       \
         tap_check(tap_rel(a_, b_) <= (tol), __FILE__, __LINE__, "%s: %.15g vs %.15g (rel %g)", \
                   (what), a_, b_, tap_rel(a_, b_)); } while (0)
#endif
