/* base/assets.c — where assets/ and the installed data folder are, and reading assets (gs_assets.h). */
#include "gs_assets.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gs_common.h"

/* The one definition of the install data folder: the Makefile passes $(DATADIR) (that is
 * $(PREFIX)/share/gsrscope) to this file only. */
#ifndef GS_DATADIR
#define GS_DATADIR "/usr/local/share/gsrscope"
#endif

int as_install_dirs(char dirs[][AS_MAX_PATH], int cap)
{
    int n = 0;
    char exe[4096];
    if (cap > 1 && gs_exe_dir(exe, sizeof exe) == 0) snprintf(dirs[n++], AS_MAX_PATH, "%.3900s/../share/gsrscope", exe);
    if (n < cap) snprintf(dirs[n++], AS_MAX_PATH, "%.3900s", GS_DATADIR);
    return n;
}

static int is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int as_root(char *dir, size_t cap)
{
    const char *env = getenv("GSRSCOPE_ASSETS");
    if (env && *env) {
        if (is_dir(env)) { snprintf(dir, cap, "%s", env); return GS_OK; }
        return gs_error(GS_EINPUT, "%s: not a folder ($GSRSCOPE_ASSETS must name a folder laid out like assets/)", env);
    }
    char cand[6][AS_MAX_PATH];
    int nc = 0;
    char exe[4096];
    if (gs_exe_dir(exe, sizeof exe) == 0) {
        /* the source tree: build/gsrscope, build/tests/test_x, or next to the binary */
        snprintf(cand[nc++], sizeof cand[0], "%.3900s/../assets", exe);
        snprintf(cand[nc++], sizeof cand[0], "%.3900s/../../assets", exe);
        snprintf(cand[nc++], sizeof cand[0], "%.3900s/assets", exe);
    }
    nc += as_install_dirs(cand + nc, 6 - nc); /* installed: assets/ is copied there */
    char tried[4096] = "";
    const char *cp[6];
    for (int i = 0; i < nc; i++) cp[i] = cand[i];
    int k = gs_find_folder(cp, nc, "presets", 1, tried, sizeof tried);
    if (k >= 0) { snprintf(dir, cap, "%.4200s", cand[k]); return GS_OK; }
    return gs_error(GS_EINPUT, "assets not found (tried %s); set GSRSCOPE_ASSETS to the assets folder "
                    "or reinstall with `make install`", tried);
}

int as_path(const char *name, char *path, size_t cap)
{
    if (!name || !*name || strstr(name, "..") || name[0] == '/')
        return gs_error(GS_EINPUT, "asset '%s': not a name under assets/", name ? name : "");
    char root[4096];
    int st = as_root(root, sizeof root);
    if (st) return st;
    if ((size_t)snprintf(path, cap, "%s/%s", root, name) >= cap)
        return gs_error(GS_EINPUT, "asset '%s': path too long", name);
    if (access(path, F_OK) != 0)
        return gs_error(GS_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    return GS_OK;
}

int as_read(const char *name, char **buf, size_t *len, char *path_out, size_t cap)
{
    *buf = NULL;
    *len = 0;
    char path[4400];
    int st = as_path(name, path, sizeof path);
    if (path_out && cap) snprintf(path_out, cap, "%s", st ? name : path);
    if (st) return st;
    FILE *f = fopen(path, "rb");
    if (!f) return gs_error(GS_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    char *b = gs_malloc(AS_MAX_BYTES + 1, 1, path);
    if (!b) { fclose(f); return GS_ENOMEM; }
    size_t n = fread(b, 1, AS_MAX_BYTES + 1, f);
    int err = ferror(f);
    fclose(f);
    if (err) { free(b); return gs_error(GS_EINPUT, "%s: read error", path); }
    if (n > AS_MAX_BYTES) { free(b); return gs_error(GS_EINPUT, "%s: larger than %d bytes (not an asset file?)", path, AS_MAX_BYTES); }
    if (memchr(b, 0, n)) { free(b); return gs_error(GS_EINPUT, "%s: contains a NUL byte (not a text file)", path); }
    b[n] = 0;
    *buf = b;
    *len = n;
    return GS_OK;
}

static int cmp_name(const void *a, const void *b) { return strcmp(a, b); }

int as_list(const char *dir, char names[][AS_MAX_NAME], int max)
{
    char root[4096], path[4200];
    if (as_root(root, sizeof root)) return -1;
    snprintf(path, sizeof path, "%s/%s", root, dir);
    DIR *d = opendir(path);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t L = strlen(e->d_name);
        if (e->d_name[0] == '.' || L == 0 || L >= AS_MAX_NAME || e->d_name[L - 1] == '~') continue;
        snprintf(names[n++], AS_MAX_NAME, "%s", e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_name);
    return n;
}
