/* test_figure.c — figure export: the libpng writer (pixels, pHYs, text round trip), PNG/SVG/PDF
 * files from hand-made results (size, metadata, determinism, well-formedness, embedded fonts),
 * failures that leave nothing behind, and the CSV behind a figure. */
#include <dirent.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gs_common.h"
#include "gs_figure.h"
#include "gs_png.h"
#include "support/tap.h"
#include "fig_fake.h"
#include "figure/fig_int.h"

#include <cairo-pdf.h>

static char dir[256];

/* ---- reading PNGs back with libpng -------------------------------------------------------- */

typedef struct {
    int ok;
    png_uint_32 w, h;
    int bit_depth, color_type;
    png_uint_32 ppm_x, ppm_y;
    int phys_unit, has_phys, has_time;
    int ntext;
    char keys[64][80];
    char vals[64][1200];
    unsigned char *rgba; /* w*h*4 */
} png_info_t;

static void png_info_free(png_info_t *p) { free(p->rgba); memset(p, 0, sizeof *p); }

static int read_png(const char *path, png_info_t *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(rows);
        fclose(f);
        return -1;
    }
    png_init_io(png, f);
    png_read_info(png, info);
    int unit;
    png_get_IHDR(png, info, &out->w, &out->h, &out->bit_depth, &out->color_type, NULL, NULL, NULL);
    out->has_phys = png_get_pHYs(png, info, &out->ppm_x, &out->ppm_y, &unit) != 0;
    out->phys_unit = unit;
    out->rgba = malloc((size_t)out->w * out->h * 4);
    rows = malloc(out->h * sizeof *rows);
    for (png_uint_32 y = 0; y < out->h; y++) rows[y] = out->rgba + (size_t)y * out->w * 4;
    png_read_image(png, rows);
    png_read_end(png, info);
    png_textp t;
    int n = 0;
    png_get_text(png, info, &t, &n);
    for (int i = 0; i < n && i < 64; i++) {
        snprintf(out->keys[i], sizeof out->keys[i], "%s", t[i].key);
        snprintf(out->vals[i], sizeof out->vals[i], "%s", t[i].text);
    }
    out->ntext = n;
    out->has_time = png_get_valid(png, info, PNG_INFO_tIME) != 0;
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    fclose(f);
    out->ok = 1;
    return 0;
}

static const char *text_of(const png_info_t *p, const char *key)
{
    for (int i = 0; i < p->ntext; i++)
        if (strcmp(p->keys[i], key) == 0) return p->vals[i];
    return NULL;
}

static int contains(const unsigned char *b, size_t n, const char *s)
{
    size_t k = strlen(s);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(b + i, s, k) == 0) return 1;
    return 0;
}

static int same_bytes(const char *a, const char *b)
{
    size_t na, nb;
    unsigned char *x = tap_slurp(a, &na), *y = tap_slurp(b, &nb);
    int same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

static int dir_entries(const char *d)
{
    DIR *dp = opendir(d);
    if (!dp) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(dp);
    return n;
}

static int have_tool(const char *name)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", name);
    return system(cmd) == 0;
}

/* ---- the PNG writer on its own -------------------------------------------------------------- */

static void test_png_writer(void)
{
    /* 3×2 ARGB32 premultiplied pixels, including semi-transparent and transparent ones */
    uint32_t px[6] = {0xffe15759u, 0xff4e79a7u, 0x80402000u, 0x00000000u, 0x40101010u, 0xc0c08040u};
    char path[512];
    snprintf(path, sizeof path, "%s/writer.png", dir);
    pw_text t[4] = {{"Software", "gsrscope test"}, {"tau", "0.01"}, {"data_source", "caf\u00e9 \u03bb.npy"},
                    {"Comment", "two words"}};
    int st = pw_write_argb32(path, (const unsigned char *)px, 3, 2, 12, 300, t, 4);
    CHECK(st == GS_OK, "pw_write_argb32: %s", gs_last_error());
    png_info_t p;
    CHECK(read_png(path, &p) == 0, "writer output decodes with libpng");
    CHECK(p.w == 3 && p.h == 2 && p.bit_depth == 8 && p.color_type == PNG_COLOR_TYPE_RGB_ALPHA,
          "IHDR 3x2 8-bit RGBA (%ux%u, %d, %d)", p.w, p.h, p.bit_depth, p.color_type);
    CHECK(p.has_phys && p.ppm_x == 11811 && p.ppm_y == 11811 && p.phys_unit == PNG_RESOLUTION_METER,
          "pHYs 300 dpi = 11811 px/m (got %u)", p.ppm_x);
    CHECK(!p.has_time, "no tIME chunk");
    int good = 1;
    for (int i = 0; i < 6 && p.rgba; i++) {
        unsigned a = px[i] >> 24;
        for (int c = 0; c < 3; c++) {
            unsigned v = (px[i] >> (16 - 8 * c)) & 0xff;
            /* independent: straight colour = premultiplied / alpha, in doubles */
            double want = a ? fmin(255.0, v * 255.0 / a) : 0;
            if (fabs(p.rgba[4 * i + c] - want) > 1.0) good = 0;
        }
        if (p.rgba[4 * i + 3] != a) good = 0;
    }
    CHECK(good, "pixels un-premultiplied (within 1 of c*255/a), alpha kept");
    CHECK(p.rgba && p.rgba[0] == 0xe1 && p.rgba[1] == 0x57 && p.rgba[2] == 0x59, "opaque pixel exact");
    const char *v = text_of(&p, "tau"), *d = text_of(&p, "data_source"), *s = text_of(&p, "Software");
    CHECK(v && strcmp(v, "0.01") == 0, "tEXt tau round trip");
    CHECK(s && strcmp(s, "gsrscope test") == 0, "tEXt Software round trip");
    CHECK(d && strcmp(d, "caf\u00e9 \u03bb.npy") == 0, "UTF-8 value round trip (iTXt)");
    png_info_free(&p);
    CHECK(pw_ppm(600) == 23622 && pw_ppm(72) == 2835, "ppm for 600 and 72 dpi");

    /* bad key refused, nothing written */
    snprintf(path, sizeof path, "%s/badkey.png", dir);
    pw_text bad[1] = {{" lead", "x"}};
    CHECK(pw_write_argb32(path, (const unsigned char *)px, 3, 2, 12, 300, bad, 1) == GS_EINPUT,
          "bad keyword refused");
    CHECK(access(path, F_OK) != 0, "nothing written for a bad keyword");
}

/* ---- figures -------------------------------------------------------------------------------- */

static en_results R, B;
static op_opts O;
static en_problem P;

static fig_request request(void)
{
    fig_request q;
    memset(&q, 0, sizeof q);
    q.r = &R;
    q.prob = &P;
    q.opts = &O;
    q.m0 = 0;
    q.m1 = 1;
    q.dpi = 300;
    return q;
}

static void setup(void)
{
    fake_results(&R, 7, 64, 1.0);
    fake_results(&B, 10, 64, 0.9);
    memset(&O, 0, sizeof O);
    O.proto.tasks = 10;
    O.proto.head_frac = 0.3;
    O.proto.tail_shots = 5;
    O.proto.profile = OP_PROFILE_STEP;
    O.proto.order = OP_ORDER_SHUFFLED;
    memset(&P, 0, sizeof P);
    snprintf(P.data_name, sizeof P.data_name, "synthetic");
    snprintf(P.data_source, sizeof P.data_source, "synthetic seed=1");
    P.data_checksum = 0x00c0ffee1234abcdULL;
}

/* count pixels of exactly this colour */
static long count_rgb(const png_info_t *p, uint32_t rgb)
{
    long n = 0;
    for (size_t i = 0; p->rgba && i < (size_t)p->w * p->h; i++)
        n += p->rgba[4 * i] == (rgb >> 16) && p->rgba[4 * i + 1] == ((rgb >> 8) & 0xff) &&
             p->rgba[4 * i + 2] == (rgb & 0xff) && p->rgba[4 * i + 3] == 255;
    return n;
}

static void test_png_figure(void)
{
    static const char *figs[] = {"accuracy", "spectrum", "stable-rank", "dashboard"};
    for (int i = 0; i < 4; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.png", dir, figs[i]);
        fig_request q = request();
        int st = fig_export(&q, figs[i], path, NULL);
        CHECK(st == GS_OK, "export %s: %s", figs[i], gs_last_error());
        double w_in, h_in;
        CHECK(fig_size_in(figs[i], 0, &w_in, &h_in) == GS_OK, "size of %s", figs[i]);
        CHECK(w_in == (i == 3 ? 7.0 : 3.5), "%s default width %g in", figs[i], w_in);
        CHECK(h_in > 0.3 * w_in && h_in < w_in, "%s height %g in by aspect", figs[i], h_in);
        png_info_t p;
        CHECK(read_png(path, &p) == 0, "%s.png decodes", figs[i]);
        CHECK(p.w == (png_uint_32)lround(w_in * 300) && p.h == (png_uint_32)lround(h_in * 300),
              "%s: %ux%u px = inches x 300 dpi (%ldx%ld)", figs[i], p.w, p.h, lround(w_in * 300),
              lround(h_in * 300));
        CHECK(p.ppm_x == 11811 && p.ppm_y == 11811, "%s pHYs 11811 px/m", figs[i]);
        CHECK(!p.has_time, "%s has no tIME", figs[i]);
        CHECK(p.rgba && p.rgba[0] == 255 && p.rgba[1] == 255 && p.rgba[2] == 255 && p.rgba[3] == 255,
              "%s white opaque background", figs[i]);
        long blue = count_rgb(&p, 0x4e79a7), red = count_rgb(&p, 0xe15759);
        CHECK(blue > 100 && red > 100, "%s draws GSR blue (%ld px) and GACL red (%ld px)", figs[i], blue, red);
        struct { const char *k, *v; } want[] = {
            {"Software", "gsrscope " GS_VERSION}, {"alpha_base", "0.6"}, {"xi", "0.005"}, {"beta", "1"},
            {"tau", "0.01"}, {"seed", "1"}, {"pairs", "all"}, {"max_aug", "1000"}, {"augment", "all"},
            {"tasks", "10"}, {"profile", "step"}, {"head_frac", "0.3"}, {"tail_shots", "5"},
            {"order", "shuffled"}, {"normalize", "yes"}, {"expand", "0"}, {"methods", "gacl,gsr"},
            {"figure", figs[i]}, {"task", "7"}, {"data_source", "synthetic seed=1"},
            {"data_checksum", "00c0ffee1234abcd"}, {"rho", "0"}};
        int allok = 1;
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
            const char *v = text_of(&p, want[k].k);
            if (!v || strcmp(v, want[k].v) != 0) {
                allok = 0;
                printf("# %s: %s = '%s' (want '%s')\n", figs[i], want[k].k, v ? v : "(missing)", want[k].v);
            }
        }
        CHECK(allok, "%s tEXt chunks carry every parameter", figs[i]);
        png_info_free(&p);
    }
    /* dpi and width: 2 in at 150 dpi = 300 px */
    char path[512];
    snprintf(path, sizeof path, "%s/small.png", dir);
    fig_request q = request();
    q.dpi = 150;
    q.width_in = 2.0;
    CHECK(fig_export(&q, "spectrum", path, NULL) == GS_OK, "export 2 in at 150 dpi");
    png_info_t p;
    double w_in, h_in;
    fig_size_in("spectrum", 2.0, &w_in, &h_in);
    CHECK(read_png(path, &p) == 0 && p.w == 300 && p.h == (png_uint_32)lround(h_in * 150),
          "2 in x 150 dpi = 300 px wide (%u x %u)", p.w, p.h);
    CHECK(p.ppm_x == 5906, "pHYs 150 dpi = 5906 px/m (%u)", p.ppm_x);
    png_info_free(&p);
}

static void test_determinism(void)
{
    static const char *ext[] = {"png", "svg", "pdf"};
    for (int i = 0; i < 3; i++) {
        char a[512], b[512], c[512];
        snprintf(a, sizeof a, "%s/det_a.%s", dir, ext[i]);
        snprintf(b, sizeof b, "%s/det_b.%s", dir, ext[i]);
        snprintf(c, sizeof c, "%s/det_c.%s", dir, ext[i]);
        fig_request q = request();
        q.baseline = &B;
        CHECK(fig_export(&q, "dashboard", a, NULL) == GS_OK, "dashboard .%s: %s", ext[i], gs_last_error());
        CHECK(fig_export(&q, "dashboard", b, NULL) == GS_OK, "dashboard .%s again", ext[i]);
        CHECK(same_bytes(a, b), "same call twice gives identical .%s bytes", ext[i]);
        R.params.tau = 0.02;
        CHECK(fig_export(&q, "dashboard", c, NULL) == GS_OK, "dashboard .%s with tau 0.02", ext[i]);
        R.params.tau = 0.01;
        CHECK(!same_bytes(a, c), "a different tau gives different .%s bytes", ext[i]);
    }
}

static void test_svg_pdf(void)
{
    char path[512], cmd[1200];
    snprintf(path, sizeof path, "%s/det_a.svg", dir);
    size_t n;
    unsigned char *b = tap_slurp(path, &n);
    CHECK(b && contains(b, n, "<svg") && contains(b, n, "</svg>"), "SVG has a root element");
    CHECK(b && contains(b, n, "<title>gsrscope dashboard</title>") && contains(b, n, "tau=0.01"),
          "SVG carries title and parameters");
    free(b);
    if (have_tool("xmllint")) {
        snprintf(cmd, sizeof cmd, "xmllint --noout '%s'", path);
        CHECK(system(cmd) == 0, "SVG is well-formed (xmllint)");
    } else {
        printf("# xmllint not installed (libxml2-utils): well-formedness not checked\n");
    }
    snprintf(path, sizeof path, "%s/det_a.pdf", dir);
    b = tap_slurp(path, &n);
    CHECK(b && n > 5 && memcmp(b, "%PDF-", 5) == 0, "PDF starts with %%PDF-");
    CHECK(b && (contains(b, n, "/FontFile2") || contains(b, n, "/FontFile3")), "PDF embeds font files");
    CHECK(b && !contains(b, n, "/Type3"), "PDF has no Type 3 fonts");
    CHECK(b && contains(b, n, "20200101000000"), "PDF has the fixed creation date");
    free(b);
    if (have_tool("pdffonts")) {
        snprintf(cmd, sizeof cmd, "pdffonts '%s' > '%s/fonts.txt' 2>&1", path, dir);
        CHECK(system(cmd) == 0, "pdffonts runs");
        char fp[512];
        snprintf(fp, sizeof fp, "%s/fonts.txt", dir);
        unsigned char *t = tap_slurp(fp, &n);
        int lines = 0, emb = 1;
        for (char *l = t ? strtok((char *)t, "\n") : NULL; l; l = strtok(NULL, "\n")) {
            if (!strstr(l, "DejaVu")) continue;
            lines++;
            if (!strstr(l, " yes yes ") || strstr(l, "Type 3")) emb = 0;
        }
        CHECK(lines >= 1 && emb, "pdffonts: %d DejaVu fonts, all embedded subsets, none Type 3", lines);
        free(t);
    } else {
        printf("# pdffonts not installed (poppler-utils): font check by bytes only\n");
    }
}

static void test_failures(void)
{
    char path[512], sub[512];
    fig_request q = request();
    /* missing folder: GS_ERUN, nothing created */
    snprintf(sub, sizeof sub, "%s/missing", dir);
    static const char *ext[] = {"png", "svg", "pdf"};
    int before = dir_entries(dir);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/missing/fig.%s", dir, ext[i]);
        gs_clear_error();
        int st = fig_export(&q, "accuracy", path, NULL);
        CHECK(st == GS_ERUN, "missing folder .%s -> GS_ERUN (got %d)", ext[i], st);
        CHECK(strstr(gs_last_error(), path) != NULL, "message names the path: %s", gs_last_error());
    }
    CHECK(access(sub, F_OK) != 0 && dir_entries(dir) == before, "nothing left behind");
    /* unknown extension and figure */
    snprintf(path, sizeof path, "%s/fig.xyz", dir);
    CHECK(fig_export(&q, "accuracy", path, NULL) == GS_EINPUT, "unknown extension -> GS_EINPUT");
    CHECK(strstr(gs_last_error(), "unknown figure format '.xyz' (use .png, .svg, .pdf or .gif)") != NULL,
          "extension message: %s", gs_last_error());
    snprintf(path, sizeof path, "%s/noext", dir);
    CHECK(fig_export(&q, "accuracy", path, NULL) == GS_EINPUT, "no extension -> GS_EINPUT");
    snprintf(path, sizeof path, "%s/x.png", dir);
    CHECK(fig_export(&q, "histogram", path, NULL) == GS_EINPUT, "unknown figure -> GS_EINPUT");
    CHECK(fig_check_output("accuracy", path) == GS_OK, "check_output ok for %s", path);
    CHECK(fig_check_output("accuracy", "nofolder/x.png") == GS_EINPUT, "check_output: missing folder (refused before work: exit 2)");
    CHECK(fig_check_output("accuracy", "x.tif") == GS_EINPUT, "check_output: bad extension");
    CHECK(fig_check_output("pie", "x.png") == GS_EINPUT, "check_output: unknown figure");
    CHECK(!fig_known("histogram") && fig_known("dashboard") && fig_known("stable-rank"), "fig_known");
    CHECK(strstr(fig_list(), "dashboard") != NULL, "fig_list names dashboard");
    q.task = 11;
    CHECK(fig_export(&q, "spectrum", path, NULL) == GS_EINPUT, "--task 11 of 10 -> GS_EINPUT");
    q.task = 0;
    CHECK(access(path, F_OK) != 0 && dir_entries(dir) == before, "failed calls wrote nothing");

    /* a failing disk: the old file is untouched and no temporary file is left */
    snprintf(path, sizeof path, "%s/keep.png", dir);
    FILE *f = fopen(path, "wb");
    fputs("old", f);
    fclose(f);
    before = dir_entries(dir);
    setenv("GS_FAIL_WRITE", "ENOSPC", 1);
    for (int i = 0; i < 3; i++) {
        char p2[512];
        snprintf(p2, sizeof p2, "%s/keep.%s", dir, ext[i]);
        if (i) { f = fopen(p2, "wb"); fputs("old", f); fclose(f); before = dir_entries(dir); }
        CHECK(fig_export(&q, "dashboard", p2, NULL) == GS_ERUN, "ENOSPC .%s -> GS_ERUN", ext[i]);
        size_t n;
        unsigned char *b = tap_slurp(p2, &n);
        CHECK(b && n == 3 && memcmp(b, "old", 3) == 0, "old .%s file untouched", ext[i]);
        free(b);
        CHECK(dir_entries(dir) == before, "no temporary file left (.%s)", ext[i]);
    }
    unsetenv("GS_FAIL_WRITE");
}

static void test_csv(void)
{
    char path[512], csv[512];
    snprintf(path, sizeof path, "%s/csv.png", dir);
    snprintf(csv, sizeof csv, "%s/csv.csv", dir);
    fig_request q = request();
    CHECK(fig_export(&q, "dashboard", path, csv) == GS_OK, "export with --data csv");
    size_t n;
    unsigned char *b = tap_slurp(csv, &n);
    CHECK(b && strncmp((char *)b, "chart,series,x,y\n", 17) == 0, "csv header");
    int acc = 0, spec = 0, sr = 0, nan = 0;
    for (char *l = b ? strtok((char *)b, "\n") : NULL; l; l = strtok(NULL, "\n")) {
        if (strncmp(l, "Accuracy,", 9) == 0) acc++;
        else if (strncmp(l, "Eigenspectrum,", 14) == 0) spec++;
        else if (strncmp(l, "Stable rank,", 12) == 0) sr++;
        if (strstr(l, "nan")) nan++;
    }
    /* independent counts: accuracy 2 methods × (7 overall + 7 head + 6 tail); spectrum 2 × 64;
     * stable rank 2 × 7 */
    CHECK(acc == 40 && spec == 128 && sr == 14, "csv rows: accuracy %d, spectrum %d, stable rank %d",
          acc, spec, sr);
    CHECK(nan == 0, "NaN never written as a number");
    free(b);
    /* the spectrum at a task without one: still a figure, no spectrum rows */
    fig_request q2 = request();
    q2.task = 3;
    snprintf(path, sizeof path, "%s/pending.png", dir);
    snprintf(csv, sizeof csv, "%s/pending.csv", dir);
    CHECK(fig_export(&q2, "spectrum", path, csv) == GS_OK, "spectrum pending exports");
    b = tap_slurp(csv, &n);
    CHECK(b && n == 17, "pending spectrum: header only (%zu bytes)", n);
    free(b);
}

/* The claims on a slide (13.33 × 7.5 in at × 2.25 text: 427 × 240 pt of 1×-text room): fewer
 * than the twelve fit, and the figure says so ("6 of 12 claims; the rest in the CSV (--csv)");
 * on a tall page all twelve and no such line. */
static int claims_pdf(const cl_report *rep, double w, double h, const char *path)
{
    cairo_surface_t *s = cairo_pdf_surface_create(path, w, h);
    fig_ctx z;
    int shown = -1;
    if (fig_begin(&z, s) == 0) shown = fig_draw_claims(&z, rep, (box){4, 4, w - 8, h - 8});
    fig_end(&z);
    cairo_surface_destroy(s);
    return shown;
}

static void test_claims_slide(void)
{
    static cl_report rep;
    memset(&rep, 0, sizeof rep);
    rep.task = 10;
    snprintf(rep.ref, sizeof rep.ref, "GACL");
    snprintf(rep.aug, sizeof rep.aug, "GSR");
    rep.n = CL_COUNT;
    for (int i = 0; i < rep.n; i++) {
        cl_row *c = &rep.row[i];
        c->verdict = i % 2 ? CL_HOLDS : CL_FAILS;
        snprintf(c->claim, sizeof c->claim, "claim number %d of the paper", i + 1);
        snprintf(c->numbers, sizeof c->numbers, "GACL 1.075 \u2192 GSR 1.006 at task 10, with a few more numbers to wrap");
        snprintf(c->reason, sizeof c->reason, "the reason for claim %d, in a sentence about as long as the ones cl_claims writes", i + 1);
    }
    char path[512], cmd[1200], out[512];
    snprintf(path, sizeof path, "%s/claims_slide.pdf", dir);
    int shown = claims_pdf(&rep, FIG_SLIDE_W_IN * 72 / FIG_SLIDE_FONT_SCALE, FIG_SLIDE_H_IN * 72 / FIG_SLIDE_FONT_SCALE, path);
    CHECK(shown >= 1 && shown < 12, "a slide holds %d of the 12 claims", shown);
    snprintf(path, sizeof path, "%s/claims_tall.pdf", dir);
    CHECK(claims_pdf(&rep, 427, 2000, path) == 12, "a tall page holds all 12");
    if (!have_tool("pdftotext")) { printf("# pdftotext not installed (poppler-utils): the slide's text unchecked\n"); return; }
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "pdftotext '%s/claims_%s.pdf' - | tr '\\n' ' ' > '%s/claims.txt'", dir, k ? "tall" : "slide", dir);
        CHECK(system(cmd) == 0, "pdftotext runs");
        snprintf(out, sizeof out, "%s/claims.txt", dir);
        FILE *f = fopen(out, "r");
        char text[20000] = "";
        size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
        text[n] = '\0';
        if (f) fclose(f);
        char want[96];
        snprintf(want, sizeof want, "%d of 12 claims; the rest in the CSV (--csv)", shown);
        if (!k) CHECK(strstr(text, want) != NULL, "the slide says '%s'", want);
        else CHECK(!strstr(text, "of 12 claims") && strstr(text, "claim number 12"), "the tall page: all 12, no such line");
    }
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/gs_test_figure_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    setup();
    test_png_writer();
    test_png_figure();
    test_determinism();
    test_svg_pdf();
    test_failures();
    test_csv();
    test_claims_slide();
    fake_free(&R);
    fake_free(&B);
    char cmd[400];
    if (getenv("KEEP")) return tap_done();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) printf("# could not remove %s\n", dir);
    return tap_done();
}
