/* base/common.c — thread-local error text, checked allocation, clock, hashing, memory probe. */
#include "gs_common.h"

#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static _Thread_local char err_buf[512];

int gs_error(int status, const char *fmt, ...)
{
    /* Format into a local buffer first: callers may pass gs_last_error() as an argument. */
    char tmp[sizeof err_buf];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    gs_escape_controls(tmp, err_buf, sizeof err_buf);
    return status;
}

/* Control characters from input (a file name, a .pt key, a CSV cell, a session value) never reach
 * the terminal raw: C0 bytes and DEL as \xNN, the C1 controls U+0080..U+009F (C2 80..C2 9F in
 * UTF-8) as \u00NN; everything else, UTF-8 included, as it is. */
const char *gs_escape_controls(const char *s, char *out, size_t n)
{
    if (!n) return out;
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        int k;
        if (*p < 0x20 || *p == 0x7f) k = snprintf(esc, sizeof esc, "\\x%02x", *p);
        else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) { k = snprintf(esc, sizeof esc, "\\u%04x", p[1]); p++; }
        else { esc[0] = (char)*p; esc[1] = 0; k = 1; }
        if (o + (size_t)k >= n) break;
        memcpy(out + o, esc, (size_t)k);
        o += (size_t)k;
    }
    out[o] = 0;
    return out;
}

const char *gs_last_error(void) { return err_buf; }
void gs_clear_error(void) { err_buf[0] = '\0'; }

int gs_exit_code(int status)
{
    switch (status) {
    case GS_OK: return 0;
    case GS_EINPUT: return 2;
    default: return 1;
    }
}

int gs_mul_size(size_t a, size_t b, size_t *out)
{
    if (a && b > SIZE_MAX / a) return -1;
    *out = a * b;
    return 0;
}

/* GS_FAIL_ALLOC=N: the N-th checked allocation fails (fault-injection tests). */
static long fail_at = -2;
static atomic_long alloc_count;

static int inject_failure(void)
{
    if (fail_at == -2) {
        const char *s = getenv("GS_FAIL_ALLOC");
        fail_at = s ? atol(s) : -1;
    }
    if (fail_at <= 0) return 0;
    return atomic_fetch_add(&alloc_count, 1) + 1 == fail_at;
}

void *gs_malloc(size_t n, size_t size, const char *what)
{
    size_t bytes;
    if (gs_mul_size(n, size, &bytes) != 0) {
        gs_error(GS_ENOMEM, "%s: size overflows (%zu × %zu bytes)", what, n, size);
        return NULL;
    }
    void *p = inject_failure() ? NULL : malloc(bytes ? bytes : 1);
    if (!p) {
        char b[32];
        gs_error(GS_ENOMEM, "%s: out of memory allocating %s", what, gs_fmt_bytes(bytes, b, sizeof b));
    }
    return p;
}

void *gs_calloc(size_t n, size_t size, const char *what)
{
    size_t bytes;
    if (gs_mul_size(n, size, &bytes) != 0) {
        gs_error(GS_ENOMEM, "%s: size overflows (%zu × %zu bytes)", what, n, size);
        return NULL;
    }
    void *p = inject_failure() ? NULL : calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        char b[32];
        gs_error(GS_ENOMEM, "%s: out of memory allocating %s", what, gs_fmt_bytes(bytes, b, sizeof b));
    }
    return p;
}

double gs_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t gs_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h ^= c[i];
        h *= 1099511628211ULL;
    }
    return h;
}

void gs_mean_sd(const double *v, int n, double *mean, double *sd, int *k)
{
    int cnt = 0;
    double sum = 0, sq = 0;
    for (int i = 0; i < n; i++) if (isfinite(v[i])) { sum += v[i]; cnt++; }
    *mean = cnt ? sum / cnt : NAN;
    for (int i = 0; i < n && cnt >= 2; i++) if (isfinite(v[i])) sq += (v[i] - *mean) * (v[i] - *mean);
    *sd = cnt >= 2 ? sqrt(sq / (cnt - 1)) : NAN;
    if (k) *k = cnt;
}

uint64_t gs_mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
    fclose(f);
    return (uint64_t)kb * 1024u;
}

const char *gs_fmt_bytes(uint64_t b, char *buf, size_t n)
{
    const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = (double)b;
    int i = 0;
    while (v >= 1024 && i < 5) { v /= 1024; i++; }
    if (i == 0) snprintf(buf, n, "%llu B", (unsigned long long)b);
    else snprintf(buf, n, "%.1f %s", v, u[i]);
    return buf;
}

void gs_advise_huge(void *v, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    size_t H = (size_t)2 << 20;
    uintptr_t a = ((uintptr_t)v + H - 1) & ~(uintptr_t)(H - 1), b = ((uintptr_t)v + bytes) & ~(uintptr_t)(H - 1);
    if (v && b > a) (void)madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
    (void)v; (void)bytes;
#endif
}

void gs_run_pair(void *(*fn)(void *), void *a, void *b)
{
    int nb = gs_blas_serial_begin(); /* two threads of our own: OpenBLAS at one inside them */
    pthread_t th;
    int threaded = pthread_create(&th, NULL, fn, b) == 0;
    fn(a);
    if (threaded) pthread_join(th, NULL);
    else fn(b);
    gs_blas_serial_end(nb);
}

/* OpenBLAS's thread count (the library is linked directly; see the Makefile). */
int openblas_get_num_threads(void);
void openblas_set_num_threads(int n);

int gs_blas_serial_begin(void)
{
    int nb = openblas_get_num_threads();
    if (nb > 1) openblas_set_num_threads(1);
    return nb;
}

void gs_blas_serial_end(int prev)
{
    if (prev > 1) openblas_set_num_threads(prev);
}

int gs_exe_dir(char *buf, size_t cap)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = '\0';
    if ((size_t)snprintf(buf, cap, "%s", exe) >= cap) return -1;
    return 0;
}

int gs_ext_in(const char *path, const char *exts)
{
    size_t n = strlen(path);
    for (const char *e = exts; *e;) {
        size_t m = strcspn(e, " ");
        if (m && n >= m && strncasecmp(path + n - m, e, m) == 0) return 1;
        e += m;
        e += strspn(e, " ");
    }
    return 0;
}

int gs_find_folder(const char *const *cand, int n, const char *member, int want_dir, char *tried,
                   size_t tcap)
{
    for (int i = 0; i < n; i++) {
        char probe[8400];
        struct stat sb;
        snprintf(probe, sizeof probe, "%.4200s/%.4000s", cand[i], member);
        if (stat(probe, &sb) == 0 && (want_dir ? S_ISDIR(sb.st_mode) : S_ISREG(sb.st_mode))) return i;
        size_t L = strlen(tried);
        if (L < tcap) snprintf(tried + L, tcap - L, "%s%.1000s", L ? ", " : "", cand[i]);
    }
    return -1;
}
