/* gs_io.h — atomic output files (prefix io_).
 *
 * Every file gsrscope writes goes through io_atomic: the bytes go to a temporary file in the
 * target's folder; io_atomic_commit flushes, fsyncs and renames it over the target; on any
 * failure (or io_atomic_abort) the temporary file is removed and an existing target is left
 * untouched. Errors name the target path.
 * A new file gets the mode the umask leaves of 0666; an existing regular file keeps its mode. A
 * symlink is followed: its target is written (the link stays). A target that is not a regular file
 * (a device such as /dev/null or /dev/stdout, a FIFO) is written through, never replaced: the bytes
 * are kept in a temporary file under $TMPDIR (or /tmp) and copied into it at the commit (or at
 * the end of an output set), where a write error (/dev/full: ENOSPC) fails the command.
 * Ownership: io_atomic owns the FILE* and the temporary name until commit/abort.
 */
#ifndef GS_IO_H
#define GS_IO_H

#include <stdint.h>
#include <stdio.h>

typedef struct {
    FILE *f;
    char path[4096];         /* the target (a symlink's target once followed) */
    char tmp[4096];
    int through;             /* the target is not a regular file: copied into, not renamed over */
} io_atomic;

/* GS_OK or GS_ERUN ("PATH: cannot create: reason"). */
int io_atomic_open(io_atomic *a, const char *path);
/* GS_OK, or GS_ERUN after removing the temporary file (write error, ENOSPC, EIO...). */
int io_atomic_commit(io_atomic *a);
void io_atomic_abort(io_atomic *a);
/* Write a whole buffer atomically. */
int io_write_file(const char *path, const void *buf, size_t n);
/* Make a directory (and its parents) if missing. GS_OK or GS_ERUN. */
int io_mkdirs(const char *path);
/* Open a regular file for reading: *f and its size in bytes. GS_OK, or GS_EINPUT with
 * "PATH: cannot open: reason" / "PATH: not a regular file" (nothing left open). */
int io_open_regular(const char *path, FILE **f, uint64_t *size);
/* An output set (a command's outputs, all or none): after io_set_begin, io_atomic_commit keeps
 * each finished file under its temporary name, and every failure to write (an open, a write, an
 * abort, a folder) marks the set failed. io_set_end(keep) renames them all into place when keep is
 * set and nothing failed, else removes them and the folders io_mkdirs made; GS_OK, or GS_ERUN
 * when a rename fails. One set at a time, for the process (the headless commands). */
void io_set_begin(void);
int io_set_end(int keep);
int io_set_failed(void);
/* The process is ending on a signal (gs_stop.h): remove the temporary files of every file being
 * written and of the output set, and the folders the set made; no file is renamed into place
 * after it. */
void io_abandon(void);
/* Before any work: `path` (named `what` in messages, e.g. "--csv") can be written: its folder
 * exists and takes a new file under the very temporary name io_atomic_open will use (a probe file
 * is made and removed, so a name too long or a folder without write permission is found now), or
 * it is a device or FIFO that can be opened for writing; with folder set, path is a folder to
 * write into, or to make in the nearest existing folder. GS_OK, or GS_EINPUT ("WHAT PATH: cannot
 * write in FOLDER: reason", a missing folder, a folder given for a file, a dangling symlink):
 * every refusal before work is a usage error (exit 2). */
int io_check_output(const char *what, const char *path, int folder);
/* Test hook: GS_FAIL_WRITE=ENOSPC|EIO makes io_atomic_commit fail as if the disk did;
 * GS_FAIL_WRITE=ENOSPC@N lets the first N-1 commits of the process succeed. */

/* One line of a small text file (a session, a --tuned file), read by hand so that NUL bytes,
 * over-long lines and endless inputs (/dev/zero, a FIFO that never ends) are refused: line gets up
 * to cap - 1 bytes without the '\n' (and a '\r' before it), *lineno counts lines, *total the bytes
 * read so far (at most max_total); *got 1 with a line, 0 at the end. GS_OK, or GS_EINPUT naming
 * path, the line and the problem ("(not a KIND?)" after a NUL or an input over max_total). */
int io_read_line(FILE *f, const char *path, const char *kind, char *line, size_t cap, int *lineno,
                 size_t *total, size_t max_total, int *got);

#endif
