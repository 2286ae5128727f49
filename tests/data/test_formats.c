/* test_formats.c — the table of feature file formats (src/data/formats.c, formats.h) and the one
 * extension test (gs_ext_in, base/common.c): every row a file is given in is found by each of its
 * extensions, in any case, and by its magic; IDX (read through --idx DIR only) never is; a file of
 * no format is refused by the loader with the message built from the rows; the --help text names
 * every format of the table; CSV's extensions are the parser's. */
#include "support/tap.h"
#include "data/formats.h"
#include "gs_common.h"
#include "gs_load.h"
#include "gs_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static char dir[64];

/* A file dir/NAME holding n bytes of b; its path into out. */
static void put(const char *name, const void *b, size_t n, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s", dir, name);
    tap_put(out, b, n);
}

/* The row found for a file named `name` holding b[0..n). */
static const ld_format *found(const char *name, const void *b, size_t n)
{
    char p[256];
    put(name, b, n, p, sizeof p);
    const ld_format *f = ld_fmt_of(p);
    unlink(p);
    return f;
}

static void test_ext_in(void)
{
    CHECK(gs_ext_in("a/x.csv", ".csv .txt") && gs_ext_in("X.CSV", ".csv .txt") && gs_ext_in("x.Txt", ".csv .txt"),
          "gs_ext_in: .csv, .CSV and .Txt are CSV extensions");
    CHECK(!gs_ext_in("x.csvx", ".csv .txt") && !gs_ext_in("csv", ".csv .txt") && !gs_ext_in("x.csv", "") &&
          !gs_ext_in("x.pt", ".pth"), "gs_ext_in: x.csvx, csv, an empty list and .pt for .pth are not");
    const ld_format *csv = ld_fmt_named("csv");
    CHECK(csv && !strcmp(csv->exts, GS_CSV_EXTS), "the csv row's extensions are GS_CSV_EXTS, the parser's");
}

/* Every row given as a file: each extension (as written and upper case) on a file of no magic. */
static void test_by_extension(void)
{
    const char junk[] = "not the magic of any format\n";
    for (int i = 0; i < ld_fmt_count; i++) {
        const ld_format *r = &ld_fmt_table[i];
        if (!r->words) continue;
        CHECK(r->exts && r->exts[0] && gs_ext_in(r->words, r->exts), "%s: its words %s are one of its extensions %s",
              r->name, r->words, r->exts ? r->exts : "(none)");
        for (const char *e = r->exts; e && *e;) {
            size_t m = strcspn(e, " ");
            char name[64], up[64];
            snprintf(name, sizeof name, "x%.*s", (int)m, e);
            snprintf(up, sizeof up, "%s", name);
            for (char *c = up; *c; c++) *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
            CHECK(found(name, junk, sizeof junk - 1) == r, "%s: a file named %s is %s", r->name, name, r->name);
            CHECK(found(up, junk, sizeof junk - 1) == r, "%s: a file named %s is %s", r->name, up, r->name);
            e += m;
            e += strspn(e, " ");
        }
    }
}

/* Every row with a magic: a file named without an extension holding the magic. A row that tells
 * itself apart from others of its magic by content (claims) is tried on a real file of it. */
static void test_by_magic(void)
{
    for (int i = 0; i < ld_fmt_count; i++) {
        const ld_format *r = &ld_fmt_table[i];
        if (!r->magic) continue;
        unsigned char b[64] = {0};
        memcpy(b, r->magic, r->magic_len);
        if (!r->words) {
            CHECK(found("plain", b, sizeof b) == NULL, "%s (no file option): its magic alone is no file format",
                  r->name);
            continue;
        }
        if (!r->claims) {
            CHECK(found("plain", b, sizeof b) == r, "%s: a file starting with its magic is %s", r->name, r->name);
            continue;
        }
        char fixture[128];
        snprintf(fixture, sizeof fixture, "tests/%s/other.%s", r->name, r->name);
        size_t n = 0;
        unsigned char *real = tap_slurp(fixture, &n);
        CHECK(real != NULL, "%s: fixture %s", r->name, fixture);
        if (!real) continue;
        CHECK(real && found("plain", real, n) == r, "%s: %s named without an extension is %s", r->name, fixture,
              r->name);
        CHECK(found("plain", b, sizeof b) != r, "%s: its magic alone, unclaimed, is another format", r->name);
        char npz[32];
        snprintf(npz, sizeof npz, "x%.*s", (int)strcspn(ld_fmt_named("npz")->exts, " "), ld_fmt_named("npz")->exts);
        CHECK(found(npz, real, n) == ld_fmt_named("npz"), "%s: the same file named %s is .npz (the extension "
              "decides among formats of one magic)", r->name, npz);
        free(real);
    }
    unsigned char npy[16] = "\x93NUMPY";
    CHECK(found("x.csv", npy, sizeof npy) == ld_fmt_named("npy"), "magic first: a .npy file named x.csv is .npy");
}

static void test_unknown(void)
{
    char p[256], want[512];
    const char junk[] = "\x01\x02 what is this";
    put("feat.bin", junk, sizeof junk - 1, p, sizeof p);
    CHECK(ld_fmt_of(p) == NULL, "feat.bin is no format");
    ld_fmt_unknown(p, "features");
    snprintf(want, sizeof want, "%s", gs_last_error());
    for (int i = 0; i < ld_fmt_count; i++)
        if (ld_fmt_table[i].words)
            CHECK(strstr(want, ld_fmt_table[i].words) != NULL, "the message names %s: %s", ld_fmt_table[i].words, want);
    CHECK(strstr(want, ": unknown format (features must be ") != NULL, "the message: %s", want);
    op_data o;
    memset(&o, 0, sizeof o);
    o.train_features = o.train_labels = o.test_features = o.test_labels = p;
    o.label_col = -1;
    ds_data d;
    int st = ld_load(&o, &d, NULL, NULL);
    CHECK(st == GS_EINPUT && !strcmp(gs_last_error(), want), "the loader refuses it with the table's message (%s)",
          gs_last_error());
    unlink(p);
}

/* config/ may not call data/: the --help text is written by hand, and checked here. */
static void test_help(void)
{
    const char *u = op_usage(NULL, 0, NULL, NULL);
    const char *data = strstr(u, "Data:\n");
    CHECK(data != NULL, "--help has a Data: section");
    for (int i = 0; data && i < ld_fmt_count; i++) {
        const ld_format *r = &ld_fmt_table[i];
        const char *w = r->words ? r->words : "--idx";
        CHECK(strstr(data, w) != NULL, "--help's Data: section names %s (%s)", r->name, w);
    }
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/gs_test_formats.XXXXXX");
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    test_ext_in();
    test_by_extension();
    test_by_magic();
    test_unknown();
    test_help();
    rmdir(dir);
    return tap_done();
}
