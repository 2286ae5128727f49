/* test_fuzz_replay.c — replay every committed fuzz corpus file (fuzz/corpus/TARGET/FILE)
 * through the same entry points as the libFuzzer targets (fuzz/fuzz_targets.h). An input that
 * breaks an invariant aborts the test; a file named ok_* / bad_* must be accepted / refused.
 * Corpus root: $GS_FUZZ_CORPUS, else fuzz/corpus (make check runs from the repository root). */
#include "support/tap.h"
#include "../fuzz/fuzz_targets.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    const char *root = getenv("GS_FUZZ_CORPUS");
    if (!root) root = "fuzz/corpus";
    static const struct { const char *name; int (*fn)(const uint8_t *, size_t); } t[] = {
        {"npy", fz_npy}, {"npz", fz_npz}, {"pt", fz_pt}, {"csv", fz_csv}, {"idx", fz_idx}, {"session", fz_session},
    };
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", root, t[k].name);
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
            int refused = t[k].fn(buf, n); /* aborts on a broken invariant */
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
              t[k].name, files, good, bad);
    }
    return tap_done();
}
