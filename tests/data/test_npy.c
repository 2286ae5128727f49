/* test_npy.c — the strict .npy reader: round trips through npy_write, files written by NumPy,
 * every refusal of c_style_reliability.md B1.1, and every prefix of valid files. */
#include "support/tap.h"
#include "support/numpy.h"
#include "gs_common.h"
#include "gs_npy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[256];

static const char *tpath(const char *name)
{
    static char p[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", tmpdir, name);
    return p[k];
}

/* A raw .npy with the given header dict (padded) and data bytes. */
static size_t make_npy(unsigned char *out, int major, const char *dict, const void *data, size_t dn)
{
    size_t dl = strlen(dict), pre = major == 1 ? 10 : 12;
    size_t pad = (64 - (pre + dl + 1) % 64) % 64, hl = dl + pad + 1;
    memcpy(out, "\x93NUMPY", 6);
    out[6] = (unsigned char)major;
    out[7] = 0;
    out[8] = hl & 0xff;
    out[9] = (hl >> 8) & 0xff;
    if (major > 1) { out[10] = (hl >> 16) & 0xff; out[11] = (hl >> 24) & 0xff; }
    memcpy(out + pre, dict, dl);
    memset(out + pre + dl, ' ', pad);
    out[pre + hl - 1] = '\n';
    if (dn) memcpy(out + pre + hl, data, dn);
    return pre + hl + dn;
}

static void expect_refused(const unsigned char *b, size_t n, const char *needle, const char *what)
{
    npy_array a;
    gs_clear_error();
    int st = npy_parse("x.npy", b, n, &a);
    CHECK(st == GS_EINPUT, "%s: refused with GS_EINPUT (got %d)", what, st);
    CHECK(strncmp(gs_last_error(), "x.npy: ", 7) == 0 && strstr(gs_last_error(), needle),
          "%s: message names the file and says '%s': %s", what, needle, gs_last_error());
    if (st == GS_OK) npy_array_free(&a);
}

static void round_trips(void)
{
    double x[6] = {1.5, -2.25, 3e-300, 4e300, 0.1, -0.0};
    long shape[2] = {3, 2};
    CHECK(npy_write_f8(tpath("a.npy"), x, 3, 2) == GS_OK, "write <f8");
    npy_array a;
    CHECK(npy_read(tpath("a.npy"), &a) == GS_OK, "read <f8: %s", gs_last_error());
    CHECK(a.dtype == NPY_F8 && a.ndim == 2 && a.shape[0] == 3 && a.shape[1] == 2 && !a.fortran &&
          a.itemsize == 8, "<f8 header fields");
    CHECK(a.data && memcmp(a.data, x, sizeof x) == 0, "<f8 values bit-identical");
    npy_array_free(&a);
    CHECK(a.data == NULL, "npy_array_free zeroes");

    float f[6] = {1.5f, -2.25f, 3.0f, 4.0f, 0.1f, 7.0f};
    CHECK(npy_write(tpath("f.npy"), "<f4", 0, 2, shape, f, 4) == GS_OK, "write <f4");
    CHECK(npy_read(tpath("f.npy"), &a) == GS_OK && a.dtype == NPY_F4 && memcmp(a.data, f, sizeof f) == 0,
          "<f4 round trip");
    npy_array_free(&a);

    /* Fortran order: the writer stores column-major data; the reader reports fortran = 1 and
     * keeps file order. */
    double cm[6] = {1, 3, 5, 2, 4, 6}; /* 3×2 [[1,2],[3,4],[5,6]] column-major */
    CHECK(npy_write(tpath("fo.npy"), "<f8", 1, 2, shape, cm, 8) == GS_OK, "write fortran");
    CHECK(npy_read(tpath("fo.npy"), &a) == GS_OK && a.fortran == 1 && memcmp(a.data, cm, sizeof cm) == 0,
          "fortran round trip");
    npy_array_free(&a);

    unsigned char u[6] = {0, 1, 2, 253, 254, 255};
    CHECK(npy_write(tpath("u.npy"), "|u1", 0, 2, shape, u, 1) == GS_OK, "write |u1");
    CHECK(npy_read(tpath("u.npy"), &a) == GS_OK && a.dtype == NPY_U1 && memcmp(a.data, u, 6) == 0,
          "|u1 round trip");
    npy_array_free(&a);

    int32_t i4[3] = {0, 7, 2147483647};
    long n3[1] = {3};
    CHECK(npy_write(tpath("i4.npy"), "<i4", 0, 1, n3, i4, 4) == GS_OK, "write <i4");
    CHECK(npy_read(tpath("i4.npy"), &a) == GS_OK && a.dtype == NPY_I4 && a.ndim == 1 &&
          a.shape[0] == 3 && memcmp(a.data, i4, sizeof i4) == 0, "<i4 round trip");
    npy_array_free(&a);

    int lab[4] = {3, 0, 9, 1};
    CHECK(npy_write_labels(tpath("l.npy"), lab, 4) == GS_OK, "write labels");
    CHECK(npy_read(tpath("l.npy"), &a) == GS_OK && a.dtype == NPY_I8 && a.shape[0] == 4, "labels read");
    if (a.data) {
        int64_t *v = a.data;
        CHECK(v[0] == 3 && v[1] == 0 && v[2] == 9 && v[3] == 1, "labels values");
    }
    npy_array_free(&a);

    /* empty 0×3 is a valid file */
    long z[2] = {0, 3};
    CHECK(npy_write(tpath("z.npy"), "<f8", 0, 2, z, x, 8) == GS_OK, "write 0×3");
    CHECK(npy_read(tpath("z.npy"), &a) == GS_OK && a.shape[0] == 0 && a.shape[1] == 3, "0×3 read");
    npy_array_free(&a);

    npy_array p;
    CHECK(npy_probe(tpath("a.npy"), &p) == GS_OK && p.data == NULL && p.shape[0] == 3, "npy_probe");
    CHECK(npy_read(tpath("missing.npy"), &a) == GS_EINPUT &&
          strstr(gs_last_error(), "missing.npy: cannot open: No such file or directory"),
          "missing file message: %s", gs_last_error());
}

static void refusals(void)
{
    unsigned char b[1024];
    double d8[2] = {1, 2};
    size_t n;

    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", d8, 16);
    npy_array a;
    CHECK(npy_parse("x.npy", b, n, &a) == GS_OK, "the base file is valid: %s", gs_last_error());
    npy_array_free(&a);

    unsigned char bad[1024];
    memcpy(bad, b, n);
    bad[1] = 'X';
    expect_refused(bad, n, "bad magic", "bad magic");
    memcpy(bad, b, n);
    bad[6] = 4;
    expect_refused(bad, n, "version 4.0", "version 4");
    memcpy(bad, b, n);
    bad[7] = 1;
    expect_refused(bad, n, "version 1.1", "minor version");
    memcpy(bad, b, n);
    bad[8] = 0xff; bad[9] = 0x7f;
    expect_refused(bad, n, "runs past the end", "header length past EOF");
    expect_refused((const unsigned char *)"\x93NUMPY\x02\x00\xff\xff\xff\xff{", 13, "too large",
                   "v2 header length 4 GiB");
    expect_refused((const unsigned char *)"\x1f\x8b\x08\x00", 4, "gzip", "gzip input");

    n = make_npy(b, 1, "{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }", d8, 16);
    expect_refused(b, n, "big-endian", "big-endian");
    n = make_npy(b, 1, "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", d8, 16);
    expect_refused(b, n, "object", "object dtype");
    n = make_npy(b, 1, "{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", d8, 16);
    expect_refused(b, n, "complex", "complex dtype");
    n = make_npy(b, 1, "{'descr': '>f2', 'fortran_order': False, 'shape': (8,), }", d8, 16);
    expect_refused(b, n, "big-endian", "big-endian float16");
    n = make_npy(b, 1, "{'descr': '<f2', 'fortran_order': False, 'shape': (9,), }", d8, 16);
    expect_refused(b, n, "truncated", "float16 data short (9 × 2 bytes > 16)");
    n = make_npy(b, 1, "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2,), }", d8, 16);
    expect_refused(b, n, "structured", "structured dtype");
    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1, 2), }", d8, 16);
    expect_refused(b, n, "3-dimensional", "rank 3");
    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", d8, 8);
    expect_refused(b, n, "0-dimensional", "rank 0");
    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", d8, 16);
    expect_refused(b, n, "truncated", "data short");
    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", d8, 16);
    expect_refused(b, n, "trailing bytes", "data long");
    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", d8, 16);
    expect_refused(b, n, "too large", "shape product overflows");
    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999, 4), }", d8, 16);
    expect_refused(b, n, "too large", "dimension overflows u64");
    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2), }", d8, 16);
    expect_refused(b, n, "not a tuple", "(2) is not a tuple");
    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (-2,), }", d8, 16);
    expect_refused(b, n, "non-negative", "negative dimension");
    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': 0, 'shape': (2,), }", d8, 16);
    expect_refused(b, n, "True or False", "fortran_order not bool");
    n = make_npy(b, 1, "{'descr': '<f8', 'shape': (2,), }", d8, 16);
    expect_refused(b, n, "missing 'fortran_order'", "missing key");
    n = make_npy(b, 1, "{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", d8, 16);
    expect_refused(b, n, "twice", "duplicate key");
    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'extra': 1}", d8, 16);
    expect_refused(b, n, "unknown key", "unknown key");
    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,) ", d8, 16);
    expect_refused(b, n, "malformed", "unterminated dict");
    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), } x", d8, 16);
    expect_refused(b, n, "after the dict", "text after dict");
    n = make_npy(b, 1, "{'descr': '<f8, 'fortran_order': False, 'shape': (2,), }", d8, 16);
    expect_refused(b, n, "malformed", "broken quote");
    n = make_npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", d8, 16);
    b[n - 16 - 1] = ' '; /* header no longer ends with a newline */
    expect_refused(b, n, "newline", "header without newline");

    /* Accepted variants: key order, v2/v3, trailing comma forms, u1 spellings. */
    n = make_npy(b, 2, "{'shape': (1, 2), 'fortran_order': True, 'descr': '<f8'}", d8, 16);
    CHECK(npy_parse("x.npy", b, n, &a) == GS_OK && a.fortran && a.shape[1] == 2, "v2, other key order: %s",
          gs_last_error());
    npy_array_free(&a);
    n = make_npy(b, 3, "{\"descr\": \"u1\", \"fortran_order\": False, \"shape\": (2, 8,)}", d8, 16);
    CHECK(npy_parse("x.npy", b, n, &a) == GS_OK && a.dtype == NPY_U1 && a.shape[0] == 2, "v3, 'u1', (2, 8,): %s",
          gs_last_error());
    npy_array_free(&a);
}

/* Every proper prefix of a valid file is refused cleanly, in memory and on disk. */
static void prefixes(void)
{
    double x[6] = {1, 2, 3, 4, 5, 6};
    CHECK(npy_write_f8(tpath("p.npy"), x, 2, 3) == GS_OK, "write prefix source");
    size_t n = 0;
    unsigned char *b = tap_slurp(tpath("p.npy"), &n);
    CHECK(b && n == 128 + 48, "file size %zu", n);
    if (!b) return;
    int ok_mem = 1, ok_disk = 1;
    for (size_t k = 0; k < n; k++) {
        npy_array a;
        int st = npy_parse("x.npy", b, k, &a);
        if (st != GS_EINPUT) { ok_mem = 0; if (st == GS_OK) npy_array_free(&a); }
        tap_put(tpath("pre.npy"), b, k);
        st = npy_read(tpath("pre.npy"), &a);
        if (st != GS_EINPUT || !strstr(gs_last_error(), "pre.npy")) { ok_disk = 0; if (st == GS_OK) npy_array_free(&a); }
    }
    CHECK(ok_mem, "all %zu prefixes refused by npy_parse", n);
    CHECK(ok_disk, "all %zu prefixes refused by npy_read", n);
    free(b);
}

/* Files written by NumPy itself. */
static const char *python(void) { return tap_numpy_python(); }
static void half_floats(const char *py);

/* Run `script` (after "import numpy as np") in the temporary folder; it writes its files there
 * and the reference values to ref.bin, which must hold `bytes` bytes. Returns them (free) or NULL. */
static double *numpy_ref(const char *py, const char *script, size_t bytes)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && %s -c \"\nimport numpy as np\n%s\"", tmpdir, py, script);
    CHECK(system(cmd) == 0, "NumPy wrote the test files");
    size_t rn = 0;
    double *ref = (double *)tap_slurp(tpath("ref.bin"), &rn);
    CHECK(ref && rn == bytes, "reference values (%zu bytes)", rn);
    if (ref && rn != bytes) { free(ref); ref = NULL; }
    return ref;
}

static void numpy_files(void)
{
    const char *py = python();
    if (!py) {
        printf("# NumPy not available (install python3-numpy): NumPy-written files not checked\n");
        return;
    }
    double *ref = numpy_ref(py,
             "x = (np.arange(12).reshape(4, 3) - 5.5) / 3\n"
             "np.save('n_f8.npy', x.astype('<f8'))\n"
             "np.save('n_f4.npy', x.astype('<f4'))\n"
             "np.save('n_fo.npy', np.asfortranarray(x))\n"
             "np.save('n_u1.npy', np.arange(12, dtype=np.uint8).reshape(4, 3) * 20)\n"
             "np.save('n_i4.npy', np.array([0, 5, 2, 1], dtype='<i4'))\n"
             "np.save('n_i8.npy', np.array([0, 5, 2, 1], dtype='<i8'))\n"
             "np.save('n_be.npy', x.astype('>f8'))\n"
             "np.save('n_obj.npy', np.array([1, 'a'], dtype=object), allow_pickle=True)\n"
             "np.save('n_3d.npy', np.zeros((2, 2, 2)))\n"
             "with open('n_v2.npy', 'wb') as f: np.lib.format.write_array(f, x, version=(2, 0))\n"
             "with open('n_v3.npy', 'wb') as f: np.lib.format.write_array(f, x, version=(3, 0))\n"
             "x.astype('<f8').tofile('ref.bin')\n", 96);
    if (!ref) return;
    npy_array a;
    CHECK(npy_read(tpath("n_f8.npy"), &a) == GS_OK && a.shape[0] == 4 && a.shape[1] == 3 &&
          memcmp(a.data, ref, 96) == 0, "NumPy <f8 equals reference");
    npy_array_free(&a);
    const char *vs[2] = {"n_v2.npy", "n_v3.npy"};
    for (int i = 0; i < 2; i++) {
        CHECK(npy_read(tpath(vs[i]), &a) == GS_OK && memcmp(a.data, ref, 96) == 0, "NumPy %s: %s", vs[i],
              gs_last_error());
        npy_array_free(&a);
    }
    int ok = npy_read(tpath("n_f4.npy"), &a) == GS_OK && a.dtype == NPY_F4;
    for (int i = 0; ok && i < 12; i++) ok = ((float *)a.data)[i] == (float)ref[i];
    CHECK(ok, "NumPy <f4 equals (float) reference");
    npy_array_free(&a);
    ok = npy_read(tpath("n_fo.npy"), &a) == GS_OK && a.fortran;
    for (int i = 0; ok && i < 4; i++)
        for (int j = 0; j < 3; j++) ok = ok && ((double *)a.data)[j * 4 + i] == ref[i * 3 + j];
    CHECK(ok, "NumPy Fortran order: fortran flag and column-major data");
    npy_array_free(&a);
    ok = npy_read(tpath("n_u1.npy"), &a) == GS_OK && a.dtype == NPY_U1;
    for (int i = 0; ok && i < 12; i++) ok = ((unsigned char *)a.data)[i] == i * 20;
    CHECK(ok, "NumPy |u1");
    npy_array_free(&a);
    CHECK(npy_read(tpath("n_i4.npy"), &a) == GS_OK && a.dtype == NPY_I4 && ((int32_t *)a.data)[1] == 5, "NumPy <i4");
    npy_array_free(&a);
    CHECK(npy_read(tpath("n_i8.npy"), &a) == GS_OK && a.dtype == NPY_I8 && ((int64_t *)a.data)[1] == 5, "NumPy <i8");
    npy_array_free(&a);
    CHECK(npy_read(tpath("n_be.npy"), &a) == GS_EINPUT && strstr(gs_last_error(), "big-endian"),
          "NumPy >f8 refused: %s", gs_last_error());
    CHECK(npy_read(tpath("n_obj.npy"), &a) == GS_EINPUT && strstr(gs_last_error(), "object"),
          "NumPy object array refused: %s", gs_last_error());
    CHECK(npy_read(tpath("n_3d.npy"), &a) == GS_EINPUT && strstr(gs_last_error(), "3-dimensional"),
          "NumPy 3-D refused: %s", gs_last_error());
    free(ref);
    half_floats(py);
}

/* Every one of the 65,536 binary16 bit patterns, written by NumPy as '<f2', read back and
 * converted to double, against NumPy's own float16 → float64 conversion (exact in both: every
 * half is a double). Covers ±0, subnormals, the largest finite, ±inf and NaNs. */
static void half_floats(const char *py)
{
    double *ref = numpy_ref(py,
             "h = np.arange(65536, dtype=np.uint16).view('<f2').reshape(256, 256)\n"
             "np.save('n_f2.npy', h)\n"
             "np.save('n_f2f.npy', np.asfortranarray(h))\n"
             "h.astype('<f8').tofile('ref.bin')\n", 65536 * 8);
    if (!ref) return;
    npy_array a, f;
    int st = npy_read(tpath("n_f2.npy"), &a), stf = npy_read(tpath("n_f2f.npy"), &f);
    CHECK(st == GS_OK && a.dtype == NPY_F2 && a.itemsize == 2 && a.shape[0] == 256 && a.shape[1] == 256,
          "NumPy <f2 header: %s", gs_last_error());
    CHECK(stf == GS_OK && f.fortran && f.dtype == NPY_F2, "NumPy Fortran-order <f2 header");
    if (st == GS_OK && stf == GS_OK) {
        long bad = 0, nan = 0, sub = 0, inf = 0;
        for (size_t k = 0; k < 65536; k++) {
            double v = npy_value(NPY_F2, a.data, k), r = ref[k];
            double vf = npy_value(NPY_F2, f.data, (k % 256) * 256 + k / 256); /* column-major */
            int same = isnan(r) ? isnan(v) && isnan(vf)
                                : v == r && vf == r && signbit(v) == signbit(r);
            if (!same) bad++;
            nan += isnan(r) != 0;
            inf += isinf(r) != 0;
            sub += r != 0 && fabs(r) < 0x1p-14;
        }
        CHECK(bad == 0 && nan == 2046 && inf == 2 && sub == 2046,
              "all 65536 float16 values equal NumPy's float64 conversion (%ld differ; %ld NaN, %ld inf, "
              "%ld subnormal)", bad, nan, inf, sub);
    }
    if (st == GS_OK) npy_array_free(&a);
    if (stf == GS_OK) npy_array_free(&f);
    CHECK(npy_half(0x0001) == 0x1p-24 && npy_half(0x03ff) == 0x3ffp-24 && npy_half(0x7bff) == 65504.0 &&
          npy_half(0x3c00) == 1.0 && signbit(npy_half(0x8000)) && isinf(npy_half(0xfc00)) &&
          isnan(npy_half(0x7e00)), "npy_half: hand-checked values (smallest subnormal, largest finite, ...)");
    free(ref);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gs_test_npy.XXXXXX");
    if (!mkdtemp(tmpdir)) { perror("mkdtemp"); return 1; }
    round_trips();
    refusals();
    prefixes();
    numpy_files();
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) printf("# could not remove %s\n", tmpdir);
    return tap_done();
}
