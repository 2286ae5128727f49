/* gs_assets.h — finding and reading the files under assets/ (prefix as_).
 *
 * assets/ holds what is data, not code: presets (assets/presets/NAME), and later colour themes
 * and tours. A name such as "presets/teaching" is looked up, first match wins, in
 *   1. $GSRSCOPE_ASSETS (a folder laid out like assets/; when set, the only place looked in),
 *   2. the source tree next to the executable: <exe dir>/../assets (build/gsrscope),
 *      <exe dir>/../../assets (build/tests/test_x) and <exe dir>/assets,
 *   3. the installed copy: <exe dir>/../share/gsrscope, then GS_DATADIR (the build's
 *      $(PREFIX)/share/gsrscope; `make install` copies assets/ there).
 * A missing file is GS_EINPUT naming the asset and the folders tried; a file that cannot be
 * read, or holds a NUL byte or is larger than AS_MAX_BYTES, is GS_EINPUT naming the file.
 * Ownership: as_read's buffer is the caller's (free()); as_list fills the caller's array.
 */
#ifndef GS_ASSETS_H
#define GS_ASSETS_H

#include <stddef.h>

#define AS_MAX_BYTES (1 << 20)
#define AS_MAX_NAME 64
#define AS_MAX_PATH 4200

/* The installed data folders, the one rule for where `make install` puts assets/ and the bundled
 * sets: <exe dir>/../share/gsrscope (when the executable's folder is known), then GS_DATADIR
 * (the build's $(PREFIX)/share/gsrscope). Fills dirs[0..n) (at most cap) and returns n. */
int as_install_dirs(char dirs[][AS_MAX_PATH], int cap);

/* The folder assets are read from (the first of the list above that exists), into dir.
 * GS_OK, or GS_EINPUT saying where it looked. */
int as_root(char *dir, size_t cap);
/* Full path of asset `name` ("presets/teaching") into path. GS_OK or GS_EINPUT. */
int as_path(const char *name, char *path, size_t cap);
/* Read asset `name` whole: *buf (NUL-terminated, caller frees), *len bytes; path (may be NULL)
 * receives the file's path for the caller's messages. GS_OK, GS_EINPUT or GS_ENOMEM. */
int as_read(const char *name, char **buf, size_t *len, char *path, size_t cap);
/* The file names in asset folder `dir` ("presets"), sorted, skipping names starting with '.'
 * or ending in '~'; at most max. Returns the count (0 when the folder is missing) or -1 with
 * the error set. */
int as_list(const char *dir, char names[][AS_MAX_NAME], int max);

#endif
