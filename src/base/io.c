/* base/io.c — atomic file output (see gs_io.h). */
#include "gs_io.h"
#include "gs_common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
        return gs_error(GS_ERUN, "%s: cannot create: %s", path, strerror(e));
    }
    fchmod(fd, 0644 & ~(mode_t)0);
    a->f = fdopen(fd, "wb");
    if (!a->f) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
        a->tmp[0] = '\0';
        return gs_error(GS_ERUN, "%s: cannot open: %s", path, strerror(e));
    }
    return GS_OK;
}

void io_atomic_abort(io_atomic *a)
{
    if (a->f) fclose(a->f);
    a->f = NULL;
    if (a->tmp[0]) unlink(a->tmp);
    a->tmp[0] = '\0';
}

int io_atomic_commit(io_atomic *a)
{
    int err = 0;
    const char *inj = getenv("GS_FAIL_WRITE");
    if (inj && *inj) err = strcmp(inj, "EIO") == 0 ? EIO : ENOSPC;
    if (!err && (fflush(a->f) != 0 || ferror(a->f))) err = errno ? errno : EIO;
    if (!err && fsync(fileno(a->f)) != 0) err = errno;
    if (fclose(a->f) != 0 && !err) err = errno ? errno : EIO;
    a->f = NULL;
    if (!err && rename(a->tmp, a->path) != 0) err = errno;
    if (err) {
        unlink(a->tmp);
        a->tmp[0] = '\0';
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
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return gs_error(GS_ERUN, "%s: cannot create folder: %s", buf, strerror(errno));
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return gs_error(GS_ERUN, "%s: cannot create folder: %s", buf, strerror(errno));
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
