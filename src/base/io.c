/* base/io.c — atomic file output, output sets and output checks (see gs_io.h). */
#include "gs_io.h"
#include "gs_common.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the open output set: finished files under their temporary names, folders made ---- */

typedef struct { char *tmp, *path; } set_file;
static struct {
    int open, failed;
    set_file *f;
    int n, cap;
    char **dirs;
    int nd, capd;
} set;
static pthread_mutex_t set_lock = PTHREAD_MUTEX_INITIALIZER;

static void set_fail(void)
{
    pthread_mutex_lock(&set_lock);
    if (set.open) set.failed = 1;
    pthread_mutex_unlock(&set_lock);
}

void io_set_begin(void)
{
    pthread_mutex_lock(&set_lock);
    set.open = 1;
    set.failed = 0;
    pthread_mutex_unlock(&set_lock);
}

/* Keep a finished temporary for the set's end; 0 when no set is open (rename it now). */
static int set_keep(const char *tmp, const char *path, int *err)
{
    pthread_mutex_lock(&set_lock);
    int kept = 0;
    if (set.open) {
        kept = 1;
        if (set.n == set.cap) {
            int nc = set.cap ? 2 * set.cap : 16;
            set_file *q = realloc(set.f, (size_t)nc * sizeof *q);
            if (q) { set.f = q; set.cap = nc; }
        }
        char *t = strdup(tmp), *p = strdup(path);
        if (set.n < set.cap && t && p) {
            set.f[set.n].tmp = t;
            set.f[set.n].path = p;
            set.n++;
        } else {
            free(t);
            free(p);
            *err = ENOMEM;
            set.failed = 1;
        }
    }
    pthread_mutex_unlock(&set_lock);
    return kept;
}

static void set_made_dir(const char *dir)
{
    pthread_mutex_lock(&set_lock);
    if (set.open) {
        if (set.nd == set.capd) {
            int nc = set.capd ? 2 * set.capd : 8;
            char **q = realloc(set.dirs, (size_t)nc * sizeof *q);
            if (q) { set.dirs = q; set.capd = nc; }
        }
        char *d = strdup(dir);
        if (set.nd < set.capd && d) set.dirs[set.nd++] = d;
        else free(d);
    }
    pthread_mutex_unlock(&set_lock);
}

int io_set_end(int keep)
{
    pthread_mutex_lock(&set_lock);
    int st = GS_OK, failed = set.failed;
    keep = keep && !failed;
    for (int i = 0; i < set.n; i++) {
        if (keep && st == GS_OK && rename(set.f[i].tmp, set.f[i].path) != 0)
            st = gs_error(GS_ERUN, "%s: cannot rename into place: %s", set.f[i].path, strerror(errno));
        if (!keep || st) unlink(set.f[i].tmp);
        free(set.f[i].tmp);
        free(set.f[i].path);
    }
    /* folders made for the outputs go when the outputs do (innermost first; only if empty) */
    for (int i = set.nd - 1; i >= 0; i--) {
        if (!keep || st) rmdir(set.dirs[i]);
        free(set.dirs[i]);
    }
    free(set.f);
    free(set.dirs);
    memset(&set, 0, sizeof set);
    pthread_mutex_unlock(&set_lock);
    return st;
}

int io_set_failed(void)
{
    pthread_mutex_lock(&set_lock);
    int f = set.failed;
    pthread_mutex_unlock(&set_lock);
    return f;
}

/* ---- checking an output path before any work ---- */

/* A file can be made in `folder`: one is created and removed. */
static int probe(const char *what, const char *path, const char *folder)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/.gsrscope-probe-XXXXXX", folder);
    int fd = mkstemp(p);
    if (fd < 0)
        return gs_error(GS_ERUN, "%s %s: cannot write in %s: %s", what, path, folder, strerror(errno));
    close(fd);
    unlink(p);
    return GS_OK;
}

int io_check_output(const char *what, const char *path, int folder)
{
    char dir[4096];
    if (!path || !*path) return gs_error(GS_EINPUT, "%s: empty path", what);
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) return gs_error(GS_EINPUT, "%s %s: path too long", what, path);
    struct stat sb;
    if (folder) {
        if (stat(dir, &sb) == 0) {
            if (!S_ISDIR(sb.st_mode)) return gs_error(GS_EINPUT, "%s %s: exists and is not a folder", what, path);
            return probe(what, path, dir);
        }
        /* the nearest folder that exists must take the new one */
        for (;;) {
            size_t n = strlen(dir);
            while (n > 1 && dir[n - 1] == '/') dir[--n] = '\0';
            char *slash = strrchr(dir, '/');
            if (!slash) { snprintf(dir, sizeof dir, "."); break; }
            if (slash == dir) { dir[1] = '\0'; break; }
            *slash = '\0';
            if (stat(dir, &sb) == 0) break;
        }
        if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
            return gs_error(GS_ERUN, "%s %s: cannot create: %s is not a folder", what, path, dir);
        return probe(what, path, dir);
    }
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return gs_error(GS_EINPUT, "%s %s: is a folder; give a file name", what, path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
    if (stat(dir, &sb) != 0)
        return gs_error(GS_ERUN, "%s %s: cannot create: folder %s does not exist", what, path, dir);
    if (!S_ISDIR(sb.st_mode)) return gs_error(GS_ERUN, "%s %s: cannot create: %s is not a folder", what, path, dir);
    return probe(what, path, dir);
}

/* ---- one file ---- */

int io_atomic_open(io_atomic *a, const char *path)
{
    memset(a, 0, sizeof *a);
    if (strlen(path) + 16 >= sizeof a->tmp)
        return gs_error(GS_ERUN, "%s: path too long", path);
    snprintf(a->path, sizeof a->path, "%s", path);
    /* Temporary file in the same folder so rename() is atomic. */
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(a->tmp, sizeof a->tmp, "%.*s.%s.tmpXXXXXX", (int)(slash - path + 1), path, slash + 1);
    else
        snprintf(a->tmp, sizeof a->tmp, ".%s.tmpXXXXXX", path);
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        int e = errno;
        a->tmp[0] = '\0';
        set_fail();
        return gs_error(GS_ERUN, "%s: cannot create: %s", path, strerror(e));
    }
    fchmod(fd, 0644 & ~(mode_t)0);
    a->f = fdopen(fd, "wb");
    if (!a->f) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
        a->tmp[0] = '\0';
        set_fail();
        return gs_error(GS_ERUN, "%s: cannot open: %s", path, strerror(e));
    }
    return GS_OK;
}

void io_atomic_abort(io_atomic *a)
{
    set_fail(); /* a file of the set was not written: the set is dropped */
    if (a->f) fclose(a->f);
    a->f = NULL;
    if (a->tmp[0]) unlink(a->tmp);
    a->tmp[0] = '\0';
}

int io_atomic_commit(io_atomic *a)
{
    int err = 0;
    const char *inj = getenv("GS_FAIL_WRITE");
    if (inj && *inj) { /* ENOSPC or EIO, optionally @N: from the N-th commit of the process on */
        static int commits;
        const char *at = strchr(inj, '@');
        int from = at ? atoi(at + 1) : 1;
        if (++commits >= from) err = strncmp(inj, "EIO", 3) == 0 ? EIO : ENOSPC;
    }
    if (!err && (fflush(a->f) != 0 || ferror(a->f))) err = errno ? errno : EIO;
    if (!err && fsync(fileno(a->f)) != 0) err = errno;
    if (fclose(a->f) != 0 && !err) err = errno ? errno : EIO;
    a->f = NULL;
    if (!err && !set_keep(a->tmp, a->path, &err) && rename(a->tmp, a->path) != 0) err = errno;
    if (err) {
        unlink(a->tmp);
        a->tmp[0] = '\0';
        set_fail();
        return gs_error(GS_ERUN, "%s: write failed: %s (nothing was written)", a->path, strerror(err));
    }
    a->tmp[0] = '\0';
    return GS_OK;
}

int io_write_file(const char *path, const void *buf, size_t n)
{
    io_atomic a;
    int st = io_atomic_open(&a, path);
    if (st) return st;
    if (n && fwrite(buf, 1, n, a.f) != n) {
        int e = errno;
        io_atomic_abort(&a);
        return gs_error(GS_ERUN, "%s: write failed: %s", path, strerror(e));
    }
    return io_atomic_commit(&a);
}

int io_mkdirs(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return gs_error(GS_ERUN, "%s: path too long", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0755) == 0) set_made_dir(buf);
        else if (errno != EEXIST) { set_fail(); return gs_error(GS_ERUN, "%s: cannot create folder: %s", buf, strerror(errno)); }
        *p = '/';
    }
    if (mkdir(buf, 0755) == 0) set_made_dir(buf);
    else if (errno != EEXIST) { set_fail(); return gs_error(GS_ERUN, "%s: cannot create folder: %s", buf, strerror(errno)); }
    struct stat sb;
    if (stat(buf, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return gs_error(GS_ERUN, "%s: not a folder", buf);
    return GS_OK;
}

int io_open_regular(const char *path, FILE **fp, uint64_t *size)
{
    *fp = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return gs_error(GS_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fclose(f);
        return gs_error(GS_EINPUT, "%s: not a regular file", path);
    }
    *fp = f;
    *size = (uint64_t)sb.st_size;
    return GS_OK;
}
