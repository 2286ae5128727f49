/* tui_assets.c — where the TUI finds its data files (tours, themes): one small interface, to be
 * switched to the project's assets lookup when there is one. Order: $GSRSCOPE_ASSETS/KIND, the
 * source tree next to the binary (build/gsrscope -> assets/KIND), the installed tree
 * (bin/gsrscope -> share/gsrscope/KIND), ./assets/KIND. A NAME holding '/' is a path. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_common.h"
#include "tui_int.h"

static int readable(const char *p) { return access(p, R_OK) == 0; }

int tui_asset_find(const char *kind, const char *name, const char *ext, char *out, size_t n)
{
    if (strchr(name, '/')) {
        snprintf(out, n, "%s", name);
        if (readable(out)) return GS_OK;
        return gs_error(GS_EINPUT, "%s: cannot open: %s", name, strerror(errno));
    }
    char exe[4096] = "", dirs[4][4200];
    int nd = 0;
    const char *env = getenv("GSRSCOPE_ASSETS");
    if (env && *env) snprintf(dirs[nd++], sizeof dirs[0], "%s/%s", env, kind);
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k > 0) {
        exe[k] = 0;
        char *sl = strrchr(exe, '/');
        if (sl) *sl = 0;
        snprintf(dirs[nd++], sizeof dirs[0], "%s/../assets/%s", exe, kind);
        snprintf(dirs[nd++], sizeof dirs[0], "%s/../share/gsrscope/%s", exe, kind);
    }
    snprintf(dirs[nd++], sizeof dirs[0], "assets/%s", kind);
    for (int i = 0; i < nd; i++) {
        snprintf(out, n, "%s/%s%s", dirs[i], name, ext);
        if (readable(out)) return GS_OK;
    }
    return gs_error(GS_EINPUT, "%s %s: not found (looked for %s%s in %s%s, assets/%s next to the binary, "
                    "share/gsrscope/%s, ./assets/%s)", kind, name, name, ext, env && *env ? env : "",
                    env && *env ? "/" : "$GSRSCOPE_ASSETS/", kind, kind, kind);
}
