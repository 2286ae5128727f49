/* test_fuzz_replay.c — replay every committed fuzz corpus file (fuzz/corpus/TARGET/FILE)
 * through the same entry points as the libFuzzer targets (fuzz/fuzz_targets.h): a target per row
 * of the format table (src/data/formats.c), and the session files. An input that
 * breaks an invariant aborts the test; a file named ok_* / bad_* must be accepted / refused.
 * Corpus root: $GS_FUZZ_CORPUS, else fuzz/corpus (make check runs from the repository root). */
#include "support/tap.h"
#include "fuzz/fuzz_targets.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    const char *root = getenv("GS_FUZZ_CORPUS");
    if (!root) root = "fuzz/corpus";
    int nt = ld_fmt_count + 1; /* the formats, then the session files */
    for (int k = 0; k < nt; k++) {
        const ld_format *f = k < ld_fmt_count ? &ld_fmt_table[k] : NULL;
        const char *name = f ? f->name : "session";
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", root, name);
        DIR *d = opendir(dir);
        CHECK(d != NULL, "corpus folder %s exists", dir);
        if (!d) continue;
        int files = 0, good = 0, bad = 0;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char p[8192];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            size_t n = 0;
            unsigned char *buf = tap_slurp(p, &n);
            CHECK(buf != NULL, "read %s", p);
            if (!buf) continue;
            gs_clear_error();
            int refused = f ? fz_format(f, buf, n) : fz_session(buf, n); /* aborts on a broken invariant */
            files++;
            if (strncmp(e->d_name, "bad_", 4) == 0) {
                bad++;
                CHECK(refused, "%s is refused (%s)", p, gs_last_error());
            } else if (strncmp(e->d_name, "crash-", 6) != 0 && strncmp(e->d_name, "new-", 4) != 0) {
                good++;
                CHECK(!refused, "%s is accepted (%s)", p, refused ? gs_last_error() : "");
            }
            free(buf);
        }
        closedir(d);
        CHECK(files >= 5 && good >= 1 && bad >= 1, "%s corpus: %d files (%d valid, %d invalid)",
              name, files, good, bad);
    }
    return tap_done();
}
