/* gs_common.h — status codes, error messages and checked allocation shared by every module.
 *
 * Conventions used across gsrscope:
 *   - Functions that can fail return an int status: GS_OK (0) or one of the GS_E* codes.
 *   - The human-readable reason is stored per thread with gs_error(); the caller that decides
 *     to give up prints it once (CLI: "gsrscope: <message>", TUI: in the status line).
 *   - Messages name the file or the option and the problem, and say what to do when possible.
 *   - The engine never prints; only main.c / the views do.
 */
#ifndef GS_COMMON_H
#define GS_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define GS_VERSION "0.1.0"

enum {
    GS_OK = 0,
    GS_EINPUT = 2,   /* bad usage or bad input: exit status 2 */
    GS_ERUN = 1,     /* failure while running (numerics, I/O while writing): exit status 1 */
    GS_ENOMEM = 3,   /* allocation failed or refused by the memory estimate: exit 1 */
    GS_ECANCEL = 4   /* cancelled by the caller (new generation, SIGINT) */
};

/* Record the message for the current thread (printf-style). Always returns `status`, so
 * `return gs_error(GS_EINPUT, "%s: bad magic", path);` reads naturally. */
int gs_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The last message recorded on this thread ("" when none). Valid until the next gs_error. */
const char *gs_last_error(void);
/* s with its control characters escaped (\xNN; C1 controls \u00NN) into out (n bytes, NUL-terminated,
 * cut at a whole escape); returns out. Every error message passes through it. */
const char *gs_escape_controls(const char *s, char *out, size_t n);
void gs_clear_error(void);
/* Exit status for a status code: 0, 1 or 2. */
int gs_exit_code(int status);

/* Checked allocation: NULL on failure or on size overflow (n * size), and the thread error is set
 * to a message naming `what`. Memory from these is released with free(). */
void *gs_malloc(size_t n, size_t size, const char *what);
void *gs_calloc(size_t n, size_t size, const char *what);
/* Fault injection for tests: when GS_FAIL_ALLOC=N is set in the environment, the N-th call
 * of gs_malloc/gs_calloc (1-based, counted per process) fails. */

/* Multiply two sizes; returns 0 and sets *out on success, -1 on overflow. */
int gs_mul_size(size_t a, size_t b, size_t *out);

/* Hint the kernel to back a large buffer not yet touched with transparent huge pages (Linux
 * "madvise" THP mode): one page fault per 2 MiB instead of per 4 KiB. Failure is harmless. */
void gs_advise_huge(void *p, size_t bytes);
/* Work split in two independent halves: fn(a) on this thread and fn(b) on a helper thread,
 * both done on return (fn(b) runs here, after fn(a), when no thread can be started). OpenBLAS
 * runs at one thread meanwhile: two threads of ours each splitting a BLAS call would put four
 * threads on the cores, spinning in sched_yield while they wait for each other. */
void gs_run_pair(void *(*fn)(void *), void *a, void *b);
/* Around code that runs BLAS from two threads of its own: OpenBLAS at one thread inside
 * (begin returns the previous count for end; both do nothing when it is already one). */
int gs_blas_serial_begin(void);
void gs_blas_serial_end(int prev);

/* The folder of the running executable (from /proc/self/exe) into buf; 0, or -1 when unknown.
 * Data files are looked for relative to it (the source tree, share/gsrscope when installed). */
int gs_exe_dir(char *buf, size_t cap);
/* The first of the folders cand[0..n) that holds `member` (a folder when want_dir, else a regular
 * file): its index; or -1, with every folder tried appended to tried[tcap] (", " between them). */
int gs_find_folder(const char *const *cand, int n, const char *member, int want_dir, char *tried,
                   size_t tcap);
/* 1 when `path` ends with one of the space-separated extensions `exts` (".csv .txt"), in any case
 * (X.CSV is a .csv); else 0. The one extension test of the data options and the loaders. */
int gs_ext_in(const char *path, const char *exts);
/* The extensions of CSV feature files: data/formats.c's csv row, and the parser's rule that CSV
 * features without a labels file hold their labels (config/opts.c). */
#define GS_CSV_EXTS ".csv .txt"

/* Monotonic wall clock in seconds. */
double gs_now(void);

/* 64-bit FNV-1a hash, continued from `h` (start with GS_FNV_INIT). Used for data checksums. */
#define GS_FNV_INIT 1469598103934665603ULL
uint64_t gs_fnv1a(uint64_t h, const void *p, size_t n);

/* Available physical memory in bytes (MemAvailable), or 0 if unknown. */
uint64_t gs_mem_available(void);
/* Mean and sample standard deviation of the finite values of v[0..n) (*k of them, k may be
 * NULL); NaN when there are none (mean) or fewer than two (sd). Over seeds, everywhere. */
void gs_mean_sd(const double *v, int n, double *mean, double *sd, int *k);
/* Human-readable byte count ("1.2 GiB") into buf. */
const char *gs_fmt_bytes(uint64_t b, char *buf, size_t n);

#endif
