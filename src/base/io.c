/* base/io.c — atomic file output, output sets and output checks (see gs_io.h). */
#include "gs_io.h"
#include "gs_common.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the open output set: finished files under their temporary names, folders made ---- */

typedef struct { char *tmp, *path; int through; } set_file;
static struct {
    int open, failed;
    set_file *f;
    int n, cap;
    char **dirs;
    int nd, capd;
} set;
static pthread_mutex_t set_lock = PTHREAD_MUTEX_INITIALIZER;

/* Files being written (opened, not yet committed or aborted): io_abandon removes their
 * temporary files. Under set_lock. */
#define IO_MAX_OPEN 64
static io_atomic *open_files[IO_MAX_OPEN];

static void track_open(io_atomic *a, int on)
{
    pthread_mutex_lock(&set_lock);
    for (int i = 0; i < IO_MAX_OPEN; i++) {
        if (on && !open_files[i]) { open_files[i] = a; break; }
        if (!on && open_files[i] == a) { open_files[i] = NULL; break; }
    }
    pthread_mutex_unlock(&set_lock);
}

void io_abandon(void)
{
    /* the lock is kept: the process is ending, and nothing may rename a file into place now */
    pthread_mutex_lock(&set_lock);
    for (int i = 0; i < IO_MAX_OPEN; i++)
        if (open_files[i] && open_files[i]->tmp[0]) unlink(open_files[i]->tmp);
    for (int i = 0; i < set.n; i++) unlink(set.f[i].tmp);
    for (int i = set.nd - 1; i >= 0; i--) rmdir(set.dirs[i]);
}

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
static int set_keep(const char *tmp, const char *path, int through, int *err)
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
            set.f[set.n].through = through;
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

static int copy_through(const char *tmp, const char *path);

int io_set_end(int keep)
{
    pthread_mutex_lock(&set_lock);
    int st = GS_OK, failed = set.failed;
    keep = keep && !failed;
    /* devices and FIFOs first: a write that fails there (/dev/full) leaves no file renamed */
    for (int i = 0; i < set.n; i++)
        if (set.f[i].through) {
            if (keep && st == GS_OK) st = copy_through(set.f[i].tmp, set.f[i].path);
            else unlink(set.f[i].tmp);
        }
    for (int i = 0; i < set.n; i++) {
        if (set.f[i].through) { free(set.f[i].tmp); free(set.f[i].path); continue; }
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

/* ---- what a target is: its mode bits, followed symlinks, the temporary name ---- */

/* The process's umask, read once (without changing it where /proc tells it). */
static mode_t g_umask;
static void read_umask(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "Umask:", 6)) { g_umask = (mode_t)strtoul(line + 6, NULL, 8); found = 1; break; }
    if (f) fclose(f);
    if (!found) { g_umask = umask(022); umask(g_umask); }
}
static mode_t new_file_mode(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, read_umask);
    return 0666 & ~g_umask;
}

/* The file a path names: a symlink's final target (realpath), else the path. GS_OK with
 * *exists and *sb set when it exists; GS_EINPUT for a symlink whose target is missing. */
static int resolve_target(const char *what, const char *path, char *out, size_t n, struct stat *sb, int *exists)
{
    struct stat lb;
    *exists = 0;
    if (snprintf(out, n, "%s", path) >= (int)n) return gs_error(GS_EINPUT, "%s%s%s: path too long", what, *what ? " " : "", path);
    if (lstat(path, &lb) != 0) return GS_OK;
    if (S_ISLNK(lb.st_mode)) {
        char r[PATH_MAX];
        if (!realpath(path, r) || stat(r, sb) != 0)
            return gs_error(GS_EINPUT, "%s%s%s: a symlink to a missing file; give the file itself", what, *what ? " " : "", path);
        if (snprintf(out, n, "%s", r) >= (int)n) return gs_error(GS_EINPUT, "%s%s%s: path too long", what, *what ? " " : "", path);
        *exists = 1;
        return GS_OK;
    }
    *sb = lb;
    *exists = 1;
    return GS_OK;
}

/* The temporary name of `path` in its folder: FOLDER/.NAME.tmpXXXXXX (mkstemp's pattern). */
static int tmp_name(const char *path, char *tmp, size_t n)
{
    const char *slash = strrchr(path, '/');
    int k = slash ? snprintf(tmp, n, "%.*s.%s.tmpXXXXXX", (int)(slash - path + 1), path, slash + 1)
                  : snprintf(tmp, n, ".%s.tmpXXXXXX", path);
    return k > 0 && (size_t)k < n ? GS_OK : GS_ERUN;
}

/* ---- checking an output path before any work ---- */

/* The folder `p` goes in (trailing slashes of a folder name dropped) into dir; GS_OK when it
 * exists and is a folder, else GS_EINPUT naming `what` and `path`. */
static int parent_folder(const char *what, const char *path, const char *p, char *dir, size_t n)
{
    snprintf(dir, n, "%s", p);
    size_t k = strlen(dir);
    while (k > 1 && dir[k - 1] == '/') dir[--k] = '\0';
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, n, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
    struct stat sb;
    if (stat(dir, &sb) != 0)
        return gs_error(GS_EINPUT, "%s %s: cannot create: folder %s does not exist", what, path, dir);
    if (!S_ISDIR(sb.st_mode)) return gs_error(GS_EINPUT, "%s %s: cannot create: %s is not a folder", what, path, dir);
    return GS_OK;
}

/* A file can be made in `folder` under the name `pattern` (mkstemp's): one is created and removed. */
static int probe(const char *what, const char *path, const char *folder, const char *pattern)
{
    char p[4200];
    if (pattern) snprintf(p, sizeof p, "%s", pattern);
    else snprintf(p, sizeof p, "%s/.gsrscope-probe-XXXXXX", folder);
    int fd = mkstemp(p);
    if (fd < 0)
        return gs_error(GS_EINPUT, "%s %s: cannot write in %s: %s", what, path, folder, strerror(errno));
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
            return probe(what, path, dir, NULL);
        }
        /* the folder is made, in a folder that exists (as a file's folder must exist: missing
         * parents are a typo more often than a wish) */
        int rc = parent_folder(what, path, path, dir, sizeof dir);
        return rc ? rc : probe(what, path, dir, NULL);
    }
    char target[4096];
    int exists, rc = resolve_target(what, path, target, sizeof target, &sb, &exists);
    if (rc) return rc;
    if (exists && S_ISDIR(sb.st_mode)) return gs_error(GS_EINPUT, "%s %s: is a folder; give a file name", what, path);
    if (exists && !S_ISREG(sb.st_mode)) { /* a device or FIFO: written through */
        if (access(target, W_OK) != 0)
            return gs_error(GS_EINPUT, "%s %s: cannot write: %s", what, path, strerror(errno));
        return GS_OK;
    }
    if ((rc = parent_folder(what, path, target, dir, sizeof dir))) return rc;
    char pattern[4200];
    if (tmp_name(target, pattern, sizeof pattern)) return gs_error(GS_EINPUT, "%s %s: path too long", what, path);
    return probe(what, path, dir, pattern);
}

/* ---- one file ---- */

int io_atomic_open(io_atomic *a, const char *path)
{
    memset(a, 0, sizeof *a);
    struct stat sb;
    int exists;
    int st = resolve_target("", path, a->path, sizeof a->path, &sb, &exists);
    if (st) { set_fail(); return st; }
    if (exists && S_ISDIR(sb.st_mode)) { set_fail(); return gs_error(GS_ERUN, "%s: is a folder", path); }
    a->through = exists && !S_ISREG(sb.st_mode);
    mode_t mode = exists && !a->through ? sb.st_mode & 07777 : new_file_mode();
    if (a->through) { /* the bytes wait in a temporary file; copied into the target at the commit */
        const char *td = getenv("TMPDIR");
        if (snprintf(a->tmp, sizeof a->tmp, "%s/gsrscope-out-XXXXXX", td && *td ? td : "/tmp") >= (int)sizeof a->tmp)
            snprintf(a->tmp, sizeof a->tmp, "/tmp/gsrscope-out-XXXXXX");
    } else if (tmp_name(a->path, a->tmp, sizeof a->tmp)) {
        set_fail();
        return gs_error(GS_ERUN, "%s: path too long", path);
    }
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        int e = errno;
        a->tmp[0] = '\0';
        set_fail();
        return gs_error(GS_ERUN, "%s: cannot create: %s", path, strerror(e));
    }
    if (!a->through) fchmod(fd, mode);
    a->f = fdopen(fd, "wb");
    if (!a->f) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
        a->tmp[0] = '\0';
        set_fail();
        return gs_error(GS_ERUN, "%s: cannot open: %s", path, strerror(e));
    }
    track_open(a, 1);
    return GS_OK;
}

/* The bytes of tmp written into the device or FIFO `path` (opened for writing, never created
 * or truncated); tmp removed. GS_OK or GS_ERUN naming path. */
static int copy_through(const char *tmp, const char *path)
{
    int in = open(tmp, O_RDONLY), out = in < 0 ? -1 : open(path, O_WRONLY | O_NOCTTY);
    int err = in < 0 || out < 0 ? errno : 0;
    char buf[65536];
    while (!err) {
        ssize_t k = read(in, buf, sizeof buf);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) { err = errno; break; }
        if (k == 0) break;
        for (ssize_t w = 0; w < k && !err;) {
            ssize_t r = write(out, buf + w, (size_t)(k - w));
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) err = errno;
            else w += r;
        }
    }
    if (out >= 0 && close(out) != 0 && !err) err = errno;
    if (in >= 0) close(in);
    unlink(tmp);
    return err ? gs_error(GS_ERUN, "%s: write failed: %s", path, strerror(err)) : GS_OK;
}

void io_atomic_abort(io_atomic *a)
{
    track_open(a, 0);
    set_fail(); /* a file of the set was not written: the set is dropped */
    if (a->f) fclose(a->f);
    a->f = NULL;
    if (a->tmp[0]) unlink(a->tmp);
    a->tmp[0] = '\0';
}

int io_atomic_commit(io_atomic *a)
{
    track_open(a, 0); /* from here the set (or the rename below) answers for its temporary file */
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
    if (!err && !set_keep(a->tmp, a->path, a->through, &err)) {
        if (a->through) {
            int st = copy_through(a->tmp, a->path);
            a->tmp[0] = '\0';
            if (st) set_fail();
            return st;
        }
        if (rename(a->tmp, a->path) != 0) err = errno;
    }
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
        if (mkdir(buf, 0777) == 0) set_made_dir(buf); /* the umask decides */
        else if (errno != EEXIST) { set_fail(); return gs_error(GS_ERUN, "%s: cannot create folder: %s", buf, strerror(errno)); }
        *p = '/';
    }
    if (mkdir(buf, 0777) == 0) set_made_dir(buf);
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

int io_read_line(FILE *f, const char *path, const char *kind, char *line, size_t cap, int *lineno,
                 size_t *total, size_t max_total, int *got)
{
    int c, toolong = 0, nul = 0;
    *got = 0;
    size_t len = 0;
    while ((c = fgetc(f)) != EOF) {
        *got = 1;
        if (c == '\n') break;
        if (c == 0) { nul = 1; break; }
        if (++*total > max_total) break;
        if (len + 1 < cap) line[len++] = (char)c;
        else toolong = 1;
    }
    if (!*got) return GS_OK;
    if (*total > max_total) return gs_error(GS_EINPUT, "%s: larger than %zu bytes (not a %s?)", path, max_total, kind);
    ++*lineno;
    line[len] = 0;
    if (len && line[len - 1] == '\r') line[--len] = 0;
    if (nul) return gs_error(GS_EINPUT, "%s: line %d: contains a NUL byte (not a %s?)", path, *lineno, kind);
    if (toolong) return gs_error(GS_EINPUT, "%s: line %d: longer than %zu bytes", path, *lineno, cap - 1);
    return GS_OK;
}
