/* test_session.c — session files round trip exactly; corrupted files are refused with
 * "FILE: line N: problem"; presets apply through op_set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_common.h"
#include "gs_opts.h"
#include "gs_preset.h"
#include "gs_session.h"
#include "support/tap.h"

static char dir[256];

static void write_text(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    fwrite(text, 1, n, f);
    fclose(f);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void test_round_trip(void)
{
    op_opts a, b;
    op_defaults(&a);
    a.params.alpha_base = 0.37;
    a.params.xi = 0.0123456789012345;
    a.params.beta = 2.5;
    a.params.tau = 1.0 / 3.0;
    a.params.seed = 42;
    a.params.pairs = OP_PAIRS_RANDOM;
    a.params.max_aug = 77;
    a.params.augment = OP_AUG_TAIL;
    a.proto.tasks = 5;
    a.proto.profile = OP_PROFILE_EXP;
    a.proto.head_frac = 0.25;
    a.proto.tail_shots = 3;
    a.proto.head_shots = 100;
    a.proto.rho = 50;
    a.proto.order = OP_ORDER_ORDERED;
    a.data.train_features = "/tmp/a b=c/train f.npy";
    a.data.train_labels = "/tmp/y.npy";
    a.data.test_features = "tf.npy";
    a.data.test_labels = "tl.npy";
    a.data.label_col = 3;
    a.data.no_normalize = 1;
    a.data.expand = 64;
    a.methods[0] = "gsr";
    a.methods[1] = "gacl";
    a.n_methods = 2;
    char path[512];
    snprintf(path, sizeof path, "%s/s.session", dir);
    CHECK(ss_save(path, &a) == GS_OK, "save: %s", gs_last_error());
    op_defaults(&b);
    ss_store st = {0};
    CHECK(ss_load(path, &b, &st) == GS_OK, "load: %s", gs_last_error());
    CHECK(b.params.alpha_base == a.params.alpha_base && b.params.xi == a.params.xi &&
          b.params.beta == a.params.beta && b.params.tau == a.params.tau, "parameters exact");
    CHECK(b.params.seed == 42 && b.params.pairs == OP_PAIRS_RANDOM && b.params.max_aug == 77 &&
          b.params.augment == OP_AUG_TAIL, "seed, pairs, max_aug, augment");
    CHECK(b.proto.tasks == 5 && b.proto.profile == OP_PROFILE_EXP && b.proto.head_frac == 0.25 &&
          b.proto.tail_shots == 3 && b.proto.head_shots == 100 && b.proto.rho == 50 &&
          b.proto.order == OP_ORDER_ORDERED, "protocol");
    CHECK(b.data.train_features && !strcmp(b.data.train_features, a.data.train_features),
          "path with space and '=' survives");
    CHECK(b.data.data_dir == NULL && b.data.idx_dir == NULL, "unset paths stay unset");
    CHECK(b.data.label_col == 3 && b.data.no_normalize == 1 && b.data.expand == 64 && !b.data.synthetic, "data flags");
    CHECK(b.n_methods == 2 && !strcmp(b.methods[0], "gsr") && !strcmp(b.methods[1], "gacl"), "methods");
    /* save again from the loaded options: byte-identical file */
    char first[8192];
    snprintf(first, sizeof first, "%s", read_text(path));
    CHECK(ss_save(path, &b) == GS_OK, "save over an existing file");
    CHECK(!strcmp(first, read_text(path)), "save(load(save(x))) is byte-identical");
    ss_store_free(&st);
    /* unwritable target: error names the path, old file untouched */
    char bad[600];
    snprintf(bad, sizeof bad, "%s/no/such/dir/s.session", dir);
    CHECK(ss_save(bad, &a) != GS_OK && strstr(gs_last_error(), "no/such/dir"), "unwritable: %s", gs_last_error());
    a.data.test_labels = "evil\nname";
    CHECK(ss_save(path, &a) == GS_EINPUT, "path with a newline refused");
    CHECK(!strcmp(first, read_text(path)), "refused save leaves the file as it was");
}

/* Load `text` and expect a refusal whose message contains "FILE: line N:" and `what`. */
static void expect_refused(const char *text, size_t n, int line, const char *what)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bad.session", dir);
    write_text(path, text, n);
    op_opts o;
    op_defaults(&o);
    ss_store st = {0};
    int r = ss_load(path, &o, &st);
    char want[600];
    snprintf(want, sizeof want, "%s: line %d:", path, line);
    const char *msg = gs_last_error();
    CHECK(r == GS_EINPUT && strstr(msg, want) == msg && strstr(msg, what),
          "refused (%s): got %d '%s'", what, r, msg);
    ss_store_free(&st);
}

#define H SS_HEADER "\n"
static void test_corrupted(void)
{
    expect_refused("", 0, 1, "empty");
    expect_refused("alpha_base=0.5\nend\n", 19, 1, "not a gsrscope session");
    expect_refused(H "tau=0.1\nbeta=2\n", strlen(H "tau=0.1\nbeta=2\n"), 3, "truncated");
    expect_refused(H "tau=abc\nend\n", strlen(H "tau=abc\nend\n"), 2, "not a finite number");
    expect_refused(H "tau=-1\nend\n", strlen(H "tau=-1\nend\n"), 2, "tau");
    expect_refused(H "\n# c\nwibble=3\nend\n", strlen(H "\n# c\nwibble=3\nend\n"), 4, "unknown parameter");
    expect_refused(H "tau=1\ntau=2\nend\n", strlen(H "tau=1\ntau=2\nend\n"), 3, "set twice");
    expect_refused(H "tau 0.1\nend\n", strlen(H "tau 0.1\nend\n"), 2, "expected name=value");
    expect_refused(H "end\nbeta=1\n", strlen(H "end\nbeta=1\n"), 3, "after 'end'");
    expect_refused(H "beta=1\0\nend\n", strlen(H) + 9 + 4, 2, "NUL");
    expect_refused(H "alpha_base=0\nend\n", strlen(H "alpha_base=0\nend\n"), 2, "alpha-base");
    expect_refused(H "synthetic=yes\nend\n", strlen(H "synthetic=yes\nend\n"), 2, "0 or 1");
    expect_refused(H "methods=gacl,,gsr\nend\n", strlen(H "methods=gacl,,gsr\nend\n"), 2, "empty method");
    expect_refused(H "pairs=some\nend\n", strlen(H "pairs=some\nend\n"), 2, "pairs");
    char big[6000];
    memset(big, 'x', sizeof big);
    memcpy(big, H "data_dir=", strlen(H "data_dir="));
    big[sizeof big - 1] = '\n';
    expect_refused(big, sizeof big, 2, "longer than");
    /* a file that parses but leaves everything at defaults */
    char path[512];
    snprintf(path, sizeof path, "%s/min.session", dir);
    write_text(path, H "\r\n  # indented comment\nend\n\n", strlen(H "\r\n  # indented comment\nend\n\n"));
    op_opts o;
    op_defaults(&o);
    ss_store st = {0};
    CHECK(ss_load(path, &o, &st) == GS_OK && o.params.tau == 0.01, "minimal session: %s", gs_last_error());
    ss_store_free(&st);
    snprintf(path, sizeof path, "%s/missing.session", dir);
    CHECK(ss_load(path, &o, &st) == GS_EINPUT && strstr(gs_last_error(), "missing.session: cannot open"),
          "missing file: %s", gs_last_error());
}

/* A relative data path in a session means relative to the session file's folder; saving
 * writes absolute paths, so the file loads from any folder. */
static void test_relative_paths(void)
{
    char path[4200], want[4300];
    snprintf(path, sizeof path, "%s/rel.session", dir);
    FILE *f = fopen(path, "w");
    if (!f) { CHECK(0, "cannot write %s", path); return; }
    fprintf(f, "%s\ndata_dir=mydata\ntrain_features=/abs/x.npy\nend\n", SS_HEADER);
    fclose(f);
    op_opts o;
    ss_store st = {0};
    op_defaults(&o);
    CHECK(ss_load(path, &o, &st) == GS_OK, "load: %s", gs_last_error());
    snprintf(want, sizeof want, "%s/mydata", dir);
    CHECK(o.data.data_dir && !strcmp(o.data.data_dir, want), "relative data_dir is %s (got %s)", want,
          o.data.data_dir ? o.data.data_dir : "(null)");
    CHECK(o.data.train_features && !strcmp(o.data.train_features, "/abs/x.npy"), "absolute path kept");
    o.data.data_dir = "some/where";
    o.data.train_features = NULL;
    CHECK(ss_save(path, &o) == GS_OK, "save: %s", gs_last_error());
    char cwd[4096], line[4400];
    CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
    snprintf(want, sizeof want, "data_dir=%s/some/where\n", cwd);
    int found = 0;
    if ((f = fopen(path, "r"))) {
        while (fgets(line, sizeof line, f)) if (!strcmp(line, want)) found = 1;
        fclose(f);
    }
    CHECK(found, "saved data_dir is absolute: %s", want);
    ss_store_free(&st);
}

static void test_presets(void)
{
    CHECK(ps_count() >= 3, "at least three presets in assets/presets (%d)", ps_count());
    CHECK(ps_find("paper") >= 0 && ps_find("teaching") >= 0 && ps_find("reference") >= 0 && ps_find("nope") == -1, "find");
    op_opts o, d;
    op_defaults(&o);
    op_defaults(&d);
    o.params.tau = 7;
    o.params.alpha_base = 0.1;
    CHECK(ps_apply_name("paper", &o) == GS_OK, "apply paper");
    CHECK(o.params.alpha_base == 0.6 && o.params.xi == 5e-3 && o.params.beta == 1 && o.params.tau == 0.01,
          "paper = α_base 0.6, ξ 5e-3, β 1, τ 0.01");
    for (int i = 0; i < ps_count(); i++) {
        op_defaults(&o);
        CHECK(ps_apply(ps_get(i), &o) == GS_OK && op_validate(&o) == GS_OK, "preset %s valid: %s",
              ps_get(i)->name, gs_last_error());
    }
    CHECK(ps_apply_name("nope", &o) == GS_EINPUT && strstr(gs_last_error(), "paper, reference, teaching"),
          "unknown preset lists the known ones: %s", gs_last_error());
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/gs_test_session_XXXXXX");
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    test_round_trip();
    test_relative_paths();
    test_corrupted();
    test_presets();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return tap_done();
}
