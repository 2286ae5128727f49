/* test_tuned.c — the file of --tuned and --set (gs_tuned.h): comments, blank lines and spaces,
 * '-' for '_', a later value of the same METHOD.KEY after an earlier one (--set after the file),
 * values read as the command line reads them; each refusal names the file and line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_common.h"
#include "gs_tuned.h"
#include "support/tap.h"

int main(void)
{
    char path[] = "/tmp/test_tuned_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "temporary file");
    const char *text = "# a comment\n\n  gacl.tau = 1.5  # trailing\ngacl+gsr.alpha-base=0.3\ngsr.max_aug=all\n";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text), "written");
    close(fd);
    const char *sets[] = {"gacl.tau=7"};
    tu_list l;
    CHECK(tu_read(&l, path, sets, 1) == GS_OK, "read: %s", gs_last_error());
    CHECK(l.n == 4, "four values (got %d)", l.n);
    if (l.n == 4) {
        CHECK(!strcmp(l.e[0].method, "gacl") && !strcmp(pa_key(l.e[0].row), "tau") && l.e[0].value == 1.5, "gacl.tau=1.5");
        CHECK(!strcmp(l.e[1].method, "gacl+gsr") && !strcmp(pa_key(l.e[1].row), "alpha_base") && l.e[1].value == 0.3, "'-' for '_'");
        CHECK(l.e[2].value == OP_MAX_AUG_ALL, "max_aug=all read as the command line reads it");
        CHECK(l.e[3].value == 7 && !strcmp(l.e[3].where, "--set"), "the --set after the file");
        char where[400];
        snprintf(where, sizeof where, "%s:3", path);
        CHECK(!strcmp(l.e[0].where, where), "where: FILE:LINE (%s)", l.e[0].where);
    }
    tu_free(&l);
    static const struct { const char *line, *msg; } BAD[] = {
        {"gacl.tau=-1", ":1: gacl.tau: --tau: must be"},
        {"gacl.seed=3", ":1: gacl.seed: 'seed' is not a method's parameter"},
        {"gacl.tau", ":1: expected METHOD.KEY=VALUE"},
        {".tau=1", ":1: '.tau' is not METHOD.KEY"},
        {"gacl.tau=", ":1: gacl.tau: no value"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        FILE *f = fopen(path, "w");
        fprintf(f, "%s\n", BAD[i].line);
        fclose(f);
        int rc = tu_read(&l, path, NULL, 0);
        CHECK(rc == GS_EINPUT && strstr(gs_last_error(), BAD[i].msg) && !strncmp(gs_last_error(), path, strlen(path)),
              "refused '%s': %s", BAD[i].line, gs_last_error());
        CHECK(l.n == 0 && !l.e, "nothing kept after a refusal");
    }
    unlink(path);
    CHECK(tu_read(&l, path, NULL, 0) == GS_EINPUT && strstr(gs_last_error(), "--tuned"), "a missing file");
    return tap_done();
}
