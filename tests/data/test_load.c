/* test_load.c — CSV and IDX readers and ld_load: the same data in every format loads to the
 * same matrices, every refusal names the file, the memory limit, the bundled sample search. */
#define _GNU_SOURCE 1
#include "support/tap.h"
#include "support/numpy.h"
#include "gs_common.h"
#include "gs_csv.h"
#include "gs_idx.h"
#include "gs_load.h"
#include "gs_npy.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static char tmpdir[256];

static const char *tpath(const char *name)
{
    static char p[8][600];
    static int k;
    k = (k + 1) % 8;
    snprintf(p[k], sizeof p[k], "%s/%s", tmpdir, name);
    return p[k];
}

static void puts_file(const char *path, const char *s) { tap_put(path, s, strlen(s)); }

/* ---- the reference dataset ---- */
enum { NTR = 30, NTE = 9, D = 5, C = 3 };
static double trx[NTR * D], tex[NTE * D];
static int try_[NTR], tey[NTE];

static void make_data(void)
{
    unsigned s = 12345;
    for (int i = 0; i < NTR * D; i++) { s = s * 1103515245u + 12345u; trx[i] = ((int)(s >> 8) % 20000 - 10000) / 997.0; }
    for (int i = 0; i < NTE * D; i++) { s = s * 1103515245u + 12345u; tex[i] = ((int)(s >> 8) % 20000 - 10000) / 991.0; }
    for (int i = 0; i < NTR; i++) try_[i] = i % C;
    for (int i = 0; i < NTE; i++) tey[i] = (i * 2) % C;
}

static void write_csv(const char *path, const double *x, const int *y, long n, int header, int label_first)
{
    FILE *f = fopen(path, "w");
    if (!f) return;
    if (header) fprintf(f, "%sf1,f2,f3,f4,f5%s\n", label_first ? "label," : "", label_first ? "" : ",label");
    for (long i = 0; i < n; i++) {
        if (label_first) fprintf(f, "%d,", y[i]);
        for (int j = 0; j < D; j++) fprintf(f, "%s%.17g", j ? "," : "", x[i * D + j]);
        if (!label_first) fprintf(f, ",%d", y[i]);
        fputc('\n', f);
    }
    fclose(f);
}

static void write_npy_set(const char *dir, const char *descr, int fortran)
{
    char p[600];
    mkdir(dir, 0755);
    const double *src[2] = {trx, tex};
    long rows[2] = {NTR, NTE};
    const char *fn[2] = {"train_features.npy", "test_features.npy"};
    const char *ln[2] = {"train_labels.npy", "test_labels.npy"};
    const int *lab[2] = {try_, tey};
    for (int s = 0; s < 2; s++) {
        long n = rows[s], shape[2] = {n, D};
        double *buf = malloc(sizeof(double) * (size_t)n * D);
        float *fb = malloc(sizeof(float) * (size_t)n * D);
        for (long i = 0; i < n; i++)
            for (int j = 0; j < D; j++) {
                size_t k = fortran ? (size_t)j * (size_t)n + (size_t)i : (size_t)i * D + (size_t)j;
                buf[k] = src[s][i * D + j];
                fb[k] = (float)src[s][i * D + j];
            }
        snprintf(p, sizeof p, "%s/%s", dir, fn[s]);
        if (strcmp(descr, "<f4") == 0) npy_write(p, "<f4", fortran, 2, shape, fb, 4);
        else npy_write(p, "<f8", fortran, 2, shape, buf, 8);
        snprintf(p, sizeof p, "%s/%s", dir, ln[s]);
        npy_write_labels(p, lab[s], n);
        free(buf);
        free(fb);
    }
}

/* ld_load, then every row of features left on disk read through ds_rows (in reverse order,
 * every row twice, so the reader's sorting and repeats are used) into memory, so the checks
 * below see values; a refusal while reading (NaN, ...) is returned like a load refusal. */
static int load_all(const op_data *o, ds_data *d, ld_warn_fn warn)
{
    int st = ld_load(o, d, warn, NULL);
    for (int s = 0; s < 2 && !st; s++) {
        gm_mat *X = s ? &d->test_x : &d->train_x;
        if (X->v) continue;
        long n = X->rows, c = X->cols;
        long *idx = malloc(sizeof(long) * (size_t)(2 * n));
        double *v = malloc(sizeof(double) * (size_t)(2 * n * c));
        if (!idx || !v) { free(idx); free(v); st = GS_ENOMEM; break; }
        for (long k = 0; k < 2 * n; k++) idx[k] = n - 1 - k % n;
        st = ds_rows(d, s ? DS_TEST : DS_TRAIN, idx, 2 * n, v);
        for (long k = 0; !st && k < n * c; k++) /* both copies agree */
            if (memcmp(&v[k], &v[n * c + k], sizeof(double)) != 0) st = gs_error(GS_ERUN, "repeated rows differ");
        double *x = malloc(sizeof(double) * (size_t)(n * c));
        for (long k = 0; !st && x && k < n; k++) memcpy(x + (n - 1 - k) * c, v + k * c, sizeof(double) * (size_t)c);
        free(idx);
        free(v);
        if (!st && !x) st = GS_ENOMEM;
        if (st) { free(x); break; }
        X->v = x;
    }
    if (st) ds_free(d);
    return st;
}

static op_data opts(void)
{
    op_data o;
    memset(&o, 0, sizeof o);
    o.label_col = -1;
    return o;
}

static int warned;
static char warn_msg[512];
static void on_warn(const char *msg, void *user)
{
    (void)user;
    warned++;
    snprintf(warn_msg, sizeof warn_msg, "%s", msg);
}

/* Compare a loaded dataset with the reference; tol 0 means bit-equal. */
static void check_equal(const ds_data *d, double tol, const char *what)
{
    int ok = d->train_x.rows == NTR && d->train_x.cols == D && d->test_x.rows == NTE &&
             d->test_x.cols == D && d->n_classes == C;
    CHECK(ok, "%s: shapes %ld×%ld / %ld×%ld, C=%d", what, d->train_x.rows, d->train_x.cols,
          d->test_x.rows, d->test_x.cols, d->n_classes);
    if (!ok) return;
    double md = 0;
    for (int i = 0; i < NTR * D; i++) md = fmax(md, fabs(d->train_x.v[i] - trx[i]) / fmax(1, fabs(trx[i])));
    for (int i = 0; i < NTE * D; i++) md = fmax(md, fabs(d->test_x.v[i] - tex[i]) / fmax(1, fabs(tex[i])));
    CHECK(md <= tol, "%s: features equal (max rel diff %g, tol %g)", what, md, tol);
    int lok = 1;
    for (int i = 0; i < NTR; i++) lok &= d->train_y[i] == try_[i];
    for (int i = 0; i < NTE; i++) lok &= d->test_y[i] == tey[i];
    CHECK(lok, "%s: labels equal", what);
}

static void same_data_all_formats(void)
{
    ds_data d;
    op_data o = opts();
    uint64_t sum_f8 = 0;

    write_npy_set(tpath("f8"), "<f8", 0);
    o.data_dir = tpath("f8");
    CHECK(load_all(&o, &d, NULL) == GS_OK, "--data <f8: %s", gs_last_error());
    check_equal(&d, 0, "<f8");
    sum_f8 = d.checksum;
    CHECK(strcmp(d.name, "f8") == 0, "name is the folder's base name: %s", d.name);
    CHECK(d.checksum != 0, "checksum set");
    ds_free(&d);
    CHECK(load_all(&o, &d, NULL) == GS_OK && d.checksum == sum_f8, "same files, same checksum");
    ds_free(&d);
    trx[0] += 1; /* a changed value in the first row changes the checksum */
    write_npy_set(tpath("f8x"), "<f8", 0);
    trx[0] -= 1;
    o.data_dir = tpath("f8x");
    CHECK(load_all(&o, &d, NULL) == GS_OK && d.checksum != sum_f8, "changed first row, other checksum");
    ds_free(&d);

    write_npy_set(tpath("fo"), "<f8", 1);
    o.data_dir = tpath("fo");
    CHECK(load_all(&o, &d, NULL) == GS_OK, "--data Fortran: %s", gs_last_error());
    check_equal(&d, 0, "Fortran-order <f8");
    CHECK(d.checksum != 0 && d.checksum != sum_f8, "Fortran-order file: its own checksum (the order is part of it)");
    ds_free(&d);

    write_npy_set(tpath("f4"), "<f4", 0);
    o.data_dir = tpath("f4");
    CHECK(load_all(&o, &d, NULL) == GS_OK, "--data <f4: %s", gs_last_error());
    check_equal(&d, 6e-8, "<f4");
    CHECK(d.checksum != sum_f8, "<f4 data has a different checksum");
    ds_free(&d);

    write_npy_set(tpath("f4fo"), "<f4", 1);
    o.data_dir = tpath("f4fo");
    CHECK(load_all(&o, &d, NULL) == GS_OK, "--data <f4 Fortran: %s", gs_last_error());
    check_equal(&d, 6e-8, "<f4 Fortran");
    ds_free(&d);

    /* CSV: labels in the last column, header; via the four file options (same file twice) */
    write_csv(tpath("train.csv"), trx, try_, NTR, 1, 0);
    write_csv(tpath("test.csv"), tex, tey, NTE, 0, 0);
    o = opts();
    o.train_features = o.train_labels = tpath("train.csv");
    o.test_features = o.test_labels = tpath("test.csv");
    CHECK(load_all(&o, &d, NULL) == GS_OK, "CSV files: %s", gs_last_error());
    check_equal(&d, 0, "CSV (label last)");
    CHECK(d.checksum != 0, "CSV checksum set");
    ds_free(&d);

    /* --data DIR with train.csv/test.csv */
    mkdir(tpath("csvdir"), 0755);
    write_csv(tpath("csvdir/train.csv"), trx, try_, NTR, 0, 0);
    write_csv(tpath("csvdir/test.csv"), tex, tey, NTE, 1, 0);
    o = opts();
    o.data_dir = tpath("csvdir");
    CHECK(load_all(&o, &d, NULL) == GS_OK, "--data DIR with CSV: %s", gs_last_error());
    check_equal(&d, 0, "--data CSV");
    ds_free(&d);

    /* label column first: --label-col 0 */
    write_csv(tpath("tr0.csv"), trx, try_, NTR, 1, 1);
    write_csv(tpath("te0.csv"), tex, tey, NTE, 1, 1);
    o = opts();
    o.label_col = 0;
    o.train_features = o.train_labels = tpath("tr0.csv");
    o.test_features = o.test_labels = tpath("te0.csv");
    CHECK(load_all(&o, &d, NULL) == GS_OK, "--label-col 0: %s", gs_last_error());
    check_equal(&d, 0, "CSV --label-col 0");
    ds_free(&d);

    /* mixed: CSV features without labels + .npy labels */
    FILE *f = fopen(tpath("trf.csv"), "w");
    for (int i = 0; f && i < NTR; i++)
        for (int j = 0; j < D; j++) fprintf(f, "%.17g%c", trx[i * D + j], j == D - 1 ? '\n' : ',');
    if (f) fclose(f);
    o = opts();
    o.train_features = tpath("trf.csv");
    o.train_labels = tpath("f8/train_labels.npy");
    o.test_features = tpath("f8/test_features.npy");
    o.test_labels = tpath("f8/test_labels.npy");
    CHECK(load_all(&o, &d, NULL) == GS_OK, "CSV features + .npy labels: %s", gs_last_error());
    check_equal(&d, 0, "mixed CSV/.npy");
    ds_free(&d);
}

/* ---- NumPy-written files through ld_load (conversion of fortran order, f4, u1, i4 labels) ---- */
static const char *python(void) { return tap_numpy_python(); }

static void numpy_sets(void)
{
    const char *py = python();
    if (!py) { printf("# NumPy not available: NumPy-written datasets not checked\n"); return; }
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && %s -c \"\n"
             "import numpy as np, os\n"
             "r = np.random.default_rng(5)\n"
             "X = r.random((20, 7)); T = r.random((6, 7)); y = np.arange(20) %% 4; t = np.arange(6) %% 4\n"
             "for name, f in (('np_f8', lambda a: a), ('np_f4', lambda a: a.astype('<f4')),\n"
             "                ('np_fo', np.asfortranarray), ('np_u1', lambda a: (a * 255).astype(np.uint8)),\n"
             "                ('np_f2', lambda a: (a * 3e-4).astype('<f2')), ('np_f2f', lambda a: np.asfortranarray((a * 3e-4).astype('<f2')))):\n"
             "    os.makedirs(name, exist_ok=True)\n"
             "    np.save(name + '/train_features.npy', f(X)); np.save(name + '/test_features.npy', f(T))\n"
             "    np.save(name + '/train_labels.npy', y.astype('<i4')); np.save(name + '/test_labels.npy', t.astype('|u1'))\n"
             "np.savez('np_z.npz', train_features=X, train_labels=y.astype('<i4'), test_features=T, test_labels=t.astype('|u1'))\n"
             "f2 = lambda a: np.asfortranarray((a * 3e-4).astype('<f2'))\n"
             "np.savez_compressed('np_zc.npz', train_features=f2(X), train_labels=y, test_features=f2(T), test_labels=t)\n"
             "np.concatenate([X.ravel(), T.ravel()]).astype('<f8').tofile('np_ref.bin')\n"
             "np.concatenate([X.astype('<f4').ravel(), T.astype('<f4').ravel()]).astype('<f8').tofile('np_ref4.bin')\n"
             "np.concatenate([(X * 255).astype(np.uint8).ravel(), (T * 255).astype(np.uint8).ravel()]).astype('<f8').tofile('np_refu.bin')\n"
             "np.concatenate([(X * 3e-4).astype('<f2').ravel(), (T * 3e-4).astype('<f2').ravel()]).astype('<f8').tofile('np_ref2.bin')\n"
             "\"", tmpdir, py);
    CHECK(system(cmd) == 0, "NumPy wrote the datasets");
    static const struct { const char *dir, *ref; } sets[] = {
        {"np_f8", "np_ref.bin"}, {"np_fo", "np_ref.bin"}, {"np_f4", "np_ref4.bin"}, {"np_u1", "np_refu.bin"},
        {"np_f2", "np_ref2.bin"}, {"np_f2f", "np_ref2.bin"}, /* × 3e-4: many float16 subnormals */
        {"np_z.npz", "np_ref.bin"}, {"np_zc.npz", "np_ref2.bin"}}; /* np.savez, np.savez_compressed */
    for (int s = 0; s < 8; s++) {
        size_t rn = 0;
        double *ref = (double *)tap_slurp(tpath(sets[s].ref), &rn);
        op_data o = opts();
        o.data_dir = tpath(sets[s].dir);
        ds_data d;
        int st = load_all(&o, &d, NULL);
        CHECK(st == GS_OK && ref && rn == 26 * 7 * 8, "NumPy %s loads: %s", sets[s].dir, gs_last_error());
        if (st || !ref) { free(ref); continue; }
        int ok = d.train_x.rows == 20 && d.test_x.rows == 6 && d.train_x.cols == 7 && d.n_classes == 4;
        for (int i = 0; ok && i < 140; i++) ok = d.train_x.v[i] == ref[i];
        for (int i = 0; ok && i < 42; i++) ok = d.test_x.v[i] == ref[140 + i];
        for (int i = 0; ok && i < 20; i++) ok = d.train_y[i] == i % 4;
        CHECK(ok, "NumPy %s: values and labels exact", sets[s].dir);
        ds_free(&d);
        free(ref);
    }
}

/* ---- CSV reader details ---- */
static void csv_cases(void)
{
    csv_table t;
    const char *s = "a,b,c\n1,2,0\n3.5,-4e-2,1\n";
    CHECK(csv_parse("t.csv", s, strlen(s), -1, 0, &t) == GS_OK && t.header && t.rows == 2 &&
          t.cols == 2 && t.x[2] == 3.5 && t.x[3] == -4e-2 && t.y[1] == 1, "header detected, label last");
    csv_free(&t);
    s = "1,2,0\r\n3,4,1\r\n";
    CHECK(csv_parse("t.csv", s, strlen(s), 0, 0, &t) == GS_OK && !t.header && t.rows == 2 &&
          t.y[0] == 1 && t.y[1] == 3 && t.x[0] == 2 && t.x[3] == 1, "no header, CRLF, --label-col 0");
    csv_free(&t);
    s = "1,2\n3,4\n";
    CHECK(csv_parse("t.csv", s, strlen(s), CSV_NO_LABEL, 0, &t) == GS_OK && t.cols == 2 && !t.y,
          "no label column");
    csv_free(&t);

    static const struct { const char *text; int col; const char *needle; } bad[] = {
        {"1,2,3\n4,5\n", -1, "t.csv: line 2: ragged row: 2 columns, expected 3"},
        {"1,2,3\n4,5,6,7\n", -1, "t.csv: line 2: ragged row: 4 columns, expected 3"},
        {"1,2,0\n3,x7,1\n", -1, "t.csv: line 2, column 2: 'x7' is not a number"},
        {"1,2,0\n3,1,5,0\n", -1, "ragged"},
        {"1,2\n1;5,2\n", -1, "line 2, column 1: '1;5' is not a number"},
        {"1,2,0\n3,,1\n", -1, "t.csv: line 2, column 2: empty cell"},
        {"1,2,0\n3,nan,1\n", -1, "t.csv: line 2, column 2: value is NaN"},
        {"1,2,0\n3,-inf,1\n", -1, "t.csv: line 2, column 2: value is infinite"},
        {"1,2,0\n3,1e999,1\n", -1, "out of range"},
        {"1,2,0\n0x1p3,1,1\n", -1, "'0x1p3' is not a number"},
        {"1,2,0\n3,4,1.5\n", -1, "t.csv: line 2, column 3: label 1.5 is not an integer"},
        {"1,2,0\n3,4,1e12\n", -1, "label 1000000000000 is not an integer of at most 10 digits"},
        {"", -1, "t.csv: file is empty"},
        {"\n\n", -1, "t.csv: file is empty"},
        {"a,b\n", -1, "no data rows"},
        {"1,2\n", 5, "--label-col 5 is out of range"},
        {"\"1,2\n", -1, "unterminated quote"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gs_clear_error();
        int st = csv_parse("t.csv", bad[i].text, strlen(bad[i].text), bad[i].col, 0, &t);
        CHECK(st == GS_EINPUT && strstr(gs_last_error(), bad[i].needle), "CSV case %zu refused with '%s': %s",
              i, bad[i].needle, gs_last_error());
        if (!st) csv_free(&t);
    }
    /* memory limit */
    s = "1,2,3\n4,5,6\n";
    CHECK(csv_parse("t.csv", s, strlen(s), -1, 8, &t) == GS_EINPUT &&
          strstr(gs_last_error(), "use --max-memory"), "CSV memory limit: %s", gs_last_error());

    /* a comma-decimal locale must not change parsing */
    const char *loc = setlocale(LC_NUMERIC, "de_DE.UTF-8");
    if (!loc) {
        /* build the locale privately if its sources are installed */
        char cmd[700];
        snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 '%s/de_DE.UTF-8' >/dev/null 2>&1", tmpdir);
        if (system(cmd) == 0) {
            setenv("LOCPATH", tmpdir, 1);
            loc = setlocale(LC_NUMERIC, "de_DE.UTF-8");
        }
    }
    if (loc) {
        CHECK(strtod("1.5", NULL) == 1.0, "de_DE locale is active (strtod stops at '.')");
        s = "1.5,2.25,1\n";
        CHECK(csv_parse("t.csv", s, strlen(s), -1, 0, &t) == GS_OK && t.x[0] == 1.5 && t.x[1] == 2.25,
              "CSV under de_DE: '.' is still the decimal point");
        csv_free(&t);
        s = "1,5;2\n";
        CHECK(csv_parse("t.csv", s, strlen(s), CSV_NO_LABEL, 0, &t) == GS_EINPUT, "'1,5;2' refused under de_DE");
        setlocale(LC_NUMERIC, "C");
    } else {
        tap_skip("comma-locale check: de_DE.UTF-8 locale not available (package locales)");
    }
}

/* ---- IDX ---- */
static size_t idx_bytes(unsigned char *out, int nd, const unsigned *dims, const unsigned char *data)
{
    out[0] = out[1] = 0;
    out[2] = 8;
    out[3] = (unsigned char)nd;
    size_t n = 1, o = 4;
    for (int i = 0; i < nd; i++) {
        out[o++] = dims[i] >> 24; out[o++] = dims[i] >> 16; out[o++] = dims[i] >> 8; out[o++] = dims[i];
        n *= dims[i];
    }
    memcpy(out + o, data, n);
    return o + n;
}

static void put_gz(const char *path, const void *b, size_t n)
{
    gzFile g = gzopen(path, "wb9");
    if (g) { gzwrite(g, b, (unsigned)n); gzclose(g); }
}

static void idx_cases(void)
{
    /* the reference data as 5 "images" of 1×5 pixels: use integer pixels */
    unsigned char px[NTR * D], pt[NTE * D], ly[NTR], lt[NTE];
    for (int i = 0; i < NTR * D; i++) px[i] = (unsigned char)(i * 7 % 256);
    for (int i = 0; i < NTE * D; i++) pt[i] = (unsigned char)(i * 11 % 256);
    for (int i = 0; i < NTR; i++) ly[i] = (unsigned char)try_[i];
    for (int i = 0; i < NTE; i++) lt[i] = (unsigned char)tey[i];
    unsigned char b[4][512];
    size_t n[4];
    unsigned d1[3] = {NTR, 1, D}, d2[1] = {NTR}, d3[3] = {NTE, 1, D}, d4[1] = {NTE};
    n[0] = idx_bytes(b[0], 3, d1, px);
    n[1] = idx_bytes(b[1], 1, d2, ly);
    n[2] = idx_bytes(b[2], 3, d3, pt);
    n[3] = idx_bytes(b[3], 1, d4, lt);
    const char *names[4] = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                            "t10k-labels-idx1-ubyte"};
    mkdir(tpath("idx"), 0755);
    mkdir(tpath("idxgz"), 0755);
    char p[700];
    for (int k = 0; k < 4; k++) {
        snprintf(p, sizeof p, "%s/idx/%s", tmpdir, names[k]);
        tap_put(p, b[k], n[k]);
        snprintf(p, sizeof p, "%s/idxgz/%s.gz", tmpdir, names[k]);
        put_gz(p, b[k], n[k]);
    }
    const char *dirs[2] = {"idx", "idxgz"};
    for (int s = 0; s < 2; s++) {
        op_data o = opts();
        o.idx_dir = tpath(dirs[s]);
        ds_data d;
        int st = load_all(&o, &d, NULL);
        CHECK(st == GS_OK, "--idx %s: %s", dirs[s], gs_last_error());
        if (st) continue;
        int ok = d.train_x.rows == NTR && d.train_x.cols == D && d.test_x.rows == NTE && d.n_classes == C;
        for (int i = 0; ok && i < NTR * D; i++) ok = d.train_x.v[i] == px[i];
        for (int i = 0; ok && i < NTE * D; i++) ok = d.test_x.v[i] == pt[i];
        for (int i = 0; ok && i < NTR; i++) ok = d.train_y[i] == try_[i];
        CHECK(ok, "--idx %s: pixels as doubles and labels", dirs[s]);
        ds_free(&d);
    }

    /* every prefix of a plain and a gzip IDX file is refused, in memory and through the file path */
    snprintf(p, sizeof p, "%s/idxgz/%s.gz", tmpdir, names[0]);
    size_t gn = 0;
    unsigned char *gz = tap_slurp(p, &gn);
    CHECK(gz && gn > 20, "gzip IDX fixture");
    int ok_plain = 1, ok_gz = 1, ok_file = 1;
    idx_array a;
    for (size_t k = 0; k < n[0]; k++) {
        int st = idx_parse("i.idx", b[0], k, 0, &a);
        if (st != GS_EINPUT) { ok_plain = 0; if (!st) idx_free(&a); }
    }
    for (size_t k = 0; gz && k < gn; k++) {
        int st = idx_parse("i.idx", gz, k, 0, &a);
        if (st != GS_EINPUT) { ok_gz = 0; if (!st) idx_free(&a); }
        tap_put(tpath("pre.gz"), gz, k);
        st = idx_read(tpath("pre.gz"), 0, &a);
        if (st != GS_EINPUT || !strstr(gs_last_error(), "pre.gz")) {
            ok_file = 0;
            printf("# prefix %zu of %zu: status %d: %s\n", k, gn, st, gs_last_error());
            if (!st) idx_free(&a);
        }
    }
    CHECK(ok_plain, "every prefix of a plain IDX file refused");
    CHECK(ok_gz, "every prefix of a gzip IDX buffer refused");
    CHECK(ok_file, "every prefix of a .gz IDX file refused by idx_read");
    CHECK(gz && idx_parse("i.idx", gz, gn, 0, &a) == GS_OK && a.n == NTR && a.item == D, "whole gzip buffer parses");
    idx_free(&a);
    free(gz);

    unsigned char bad[600];
    memcpy(bad, b[0], n[0]);
    bad[2] = 0x0D;
    CHECK(idx_parse("i.idx", bad, n[0], 0, &a) == GS_EINPUT && strstr(gs_last_error(), "0x0D (float) is not supported"),
          "float IDX refused: %s", gs_last_error());
    memcpy(bad, b[0], n[0]);
    bad[0] = 1;
    CHECK(idx_parse("i.idx", bad, n[0], 0, &a) == GS_EINPUT && strstr(gs_last_error(), "bad magic"), "bad magic");
    memcpy(bad, b[0], n[0]);
    CHECK(idx_parse("i.idx", bad, n[0] + 1, 0, &a) == GS_EINPUT && strstr(gs_last_error(), "trailing"), "trailing byte");
    memcpy(bad, "\0\0\x08\x03\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 16);
    CHECK(idx_parse("i.idx", bad, 16, 0, &a) == GS_EINPUT && strstr(gs_last_error(), "too large"),
          "overflowing dims refused: %s", gs_last_error());
    CHECK(idx_parse("i.idx", b[0], n[0], 100, &a) == GS_EINPUT && strstr(gs_last_error(), "--max-memory"),
          "IDX memory limit: %s", gs_last_error());

    /* images/labels count mismatch through --idx */
    snprintf(p, sizeof p, "%s/idx/%s", tmpdir, names[3]);
    unsigned d5[1] = {NTE - 1};
    size_t m = idx_bytes(bad, 1, d5, lt);
    tap_put(p, bad, m);
    op_data o = opts();
    o.idx_dir = tpath("idx");
    ds_data d;
    CHECK(load_all(&o, &d, NULL) == GS_EINPUT && strstr(gs_last_error(), "t10k-labels-idx1-ubyte: has 8 labels but"),
          "IDX label count mismatch: %s", gs_last_error());
    o.idx_dir = tpath("nonexistent");
    CHECK(load_all(&o, &d, NULL) == GS_EINPUT && strstr(gs_last_error(), "train-images-idx3-ubyte[.gz]: cannot open"),
          "missing IDX folder: %s", gs_last_error());
}

/* ---- validation through ld_load ---- */
static void expect_load_fail(op_data *o, int status, const char *needle, const char *what)
{
    ds_data d;
    gs_clear_error();
    int st = load_all(o, &d, NULL);
    CHECK(st == status && strstr(gs_last_error(), needle), "%s: status %d, '%s': %s", what, st, needle,
          gs_last_error());
    CHECK(d.train_x.v == NULL && d.train_y == NULL && d.test_x.v == NULL, "%s: output left empty", what);
    if (!st) ds_free(&d);
}

static void validation(void)
{
    op_data o = opts();
    char trf[600], trl[600], tef[600], tel[600];
    snprintf(trf, sizeof trf, "%s/f8/train_features.npy", tmpdir);
    snprintf(trl, sizeof trl, "%s/f8/train_labels.npy", tmpdir);
    snprintf(tef, sizeof tef, "%s/f8/test_features.npy", tmpdir);
    snprintf(tel, sizeof tel, "%s/f8/test_labels.npy", tmpdir);
    o.train_features = trf; o.train_labels = trl; o.test_features = tef; o.test_labels = tel;
    ds_data d;
    CHECK(load_all(&o, &d, NULL) == GS_OK && strcmp(d.name, "train_features.npy") == 0 &&
          strstr(d.source, trf), "four files load; name %s", d.name);
    ds_free(&d);

    o.test_labels = tpath("nope.npy");
    expect_load_fail(&o, GS_EINPUT, "nope.npy: cannot open: No such file or directory", "missing labels file");
    o.test_labels = tel;

    /* label count != rows */
    int lab[NTR];
    memcpy(lab, try_, sizeof lab);
    npy_write_labels(tpath("short_labels.npy"), lab, NTR - 1);
    o.train_labels = tpath("short_labels.npy");
    expect_load_fail(&o, GS_EINPUT, "short_labels.npy: has 29 labels but", "label count");

    /* float labels are refused, whole or not (the man page's rule) */
    double fl[NTR];
    for (int i = 0; i < NTR; i++) fl[i] = try_[i];
    npy_write_f8(tpath("fl.npy"), fl, NTR, 0);
    o.train_labels = tpath("fl.npy");
    expect_load_fail(&o, GS_EINPUT, "fl.npy: labels are floating point (<f8); save class indices as integers",
                     "whole float labels");
    fl[7] = 1.5;
    npy_write_f8(tpath("fl2.npy"), fl, NTR, 0);
    o.train_labels = tpath("fl2.npy");
    expect_load_fail(&o, GS_EINPUT, "fl2.npy: labels are floating point (<f8)", "fractional label");

    /* one class */
    int one[NTR] = {0};
    for (int i = 0; i < NTR; i++) one[i] = 2;
    npy_write_labels(tpath("one.npy"), one, NTR);
    o.train_labels = tpath("one.npy");
    expect_load_fail(&o, GS_EINPUT, "one.npy: the training labels have 1 class; need at least two", "one class");
    o.train_labels = trl;

    /* dimensions differ */
    npy_write_f8(tpath("te4.npy"), tex, NTE, D - 1);
    o.test_features = tpath("te4.npy");
    o.test_labels = tpath("te4l.npy");
    int l4[NTE * D / (D - 1)];
    for (size_t i = 0; i < sizeof l4 / sizeof l4[0]; i++) l4[i] = (int)i % C;
    npy_write_labels(tpath("te4l.npy"), l4, NTE * D / (D - 1));
    /* rows differ too: NTE*D/(D-1) rows of D-1 values would need more data; write a clean one */
    npy_write_f8(tpath("te4.npy"), tex, NTE * D / (D - 1), D - 1);
    expect_load_fail(&o, GS_EINPUT, "te4.npy: has 4 columns but", "dimension mismatch");
    o.test_features = tef; o.test_labels = tel;

    /* NaN and Inf in features with row and column */
    double x2[NTR * D];
    memcpy(x2, trx, sizeof x2);
    x2[1 * D + 2] = NAN;
    npy_write_f8(tpath("nan.npy"), x2, NTR, D);
    o.train_features = tpath("nan.npy");
    expect_load_fail(&o, GS_EINPUT, "nan.npy: X[1, 2] is NaN (row and column counted from 0, as in NumPy)", "NaN");
    x2[1 * D + 2] = 0;
    x2[11 * D + 0] = -INFINITY;
    npy_write_f8(tpath("inf.npy"), x2, NTR, D);
    o.train_features = tpath("inf.npy");
    expect_load_fail(&o, GS_EINPUT, "inf.npy: X[11, 0] is infinite", "Inf");
    /* the same in float16, C and Fortran order (0x7e00 is a half NaN, 0xfc00 is -inf) */
    uint16_t h[NTR * D], hf[NTR * D];
    for (int i = 0; i < NTR * D; i++) h[i] = 0x3c00; /* 1.0 */
    h[4 * D + 1] = 0x7e00;
    for (int i = 0; i < NTR; i++)
        for (int j = 0; j < D; j++) hf[j * NTR + i] = h[i * D + j];
    long shp[2] = {NTR, D};
    npy_write(tpath("nan2.npy"), "<f2", 0, 2, shp, h, 2);
    o.train_features = tpath("nan2.npy");
    expect_load_fail(&o, GS_EINPUT, "nan2.npy: X[4, 1] is NaN", "float16 NaN");
    hf[3 * NTR + 20] = 0xfc00;
    npy_write(tpath("inf2f.npy"), "<f2", 1, 2, shp, hf, 2);
    o.train_features = tpath("inf2f.npy");
    expect_load_fail(&o, GS_EINPUT, "inf2f.npy: X[4, 1] is NaN", "float16 Fortran NaN first");
    hf[1 * NTR + 4] = 0x3c00;
    npy_write(tpath("inf2f.npy"), "<f2", 1, 2, shp, hf, 2);
    expect_load_fail(&o, GS_EINPUT, "inf2f.npy: X[20, 3] is infinite", "float16 Fortran -inf");

    /* wrong rank / integer features / unknown format */
    o.train_features = trl;
    expect_load_fail(&o, GS_EINPUT, "features must be a 2-D array", "1-D features");
    puts_file(tpath("feat.bin"), "hello");
    o.train_features = tpath("feat.bin");
    expect_load_fail(&o, GS_EINPUT, "feat.bin: unknown format", "unknown format");
    o.train_features = trf;

    /* a test class never seen in training is a warning (label 3 = C: no gap, no remapping) */
    int tl[NTE];
    for (int i = 0; i < NTE; i++) tl[i] = tey[i];
    tl[3] = 3;
    npy_write_labels(tpath("unseen.npy"), tl, NTE);
    o.test_labels = tpath("unseen.npy");
    warned = 0;
    CHECK(load_all(&o, &d, on_warn) == GS_OK && warned == 1 && d.n_classes == 4 &&
          strstr(warn_msg, "unseen.npy: 1 test class has no training rows (first: label 3, 1 test rows); its 1 "
                 "test rows are left out of every accuracy"),
          "unseen test class warns: %s", warn_msg);
    ds_free(&d);
    o.test_labels = tel;

    /* memory limit: labels are read whole and checked here (30 × (8 + 8) bytes); features stay
     * on disk and are counted by the run's estimate of the rows it keeps */
    o.max_memory = 300;
    expect_load_fail(&o, GS_EINPUT, "train_labels.npy: needs 480 B but --max-memory leaves only 300 B", "max-memory");
    o.max_memory = 0;

    /* --data errors */
    o = opts();
    o.data_dir = tpath("nodir");
    expect_load_fail(&o, GS_EINPUT, "nodir: cannot open: No such file or directory", "--data missing");
    mkdir(tpath("emptydir"), 0755);
    o.data_dir = tpath("emptydir");
    expect_load_fail(&o, GS_EINPUT, "emptydir/train_features.npy: cannot open", "--data empty folder");

    /* CSV through ld_load: message has line and column */
    puts_file(tpath("badv.csv"), "1,2,0\n3,zz,1\n");
    o = opts();
    o.train_features = o.train_labels = tpath("badv.csv");
    o.test_features = o.test_labels = tpath("badv.csv");
    expect_load_fail(&o, GS_EINPUT, "badv.csv: line 2, column 2: 'zz' is not a number", "CSV bad value");
}

/* ---- the bundled sample ---- */
/* Labels: every integer type gives the same classes; bool and float are refused; labels that are
 * not 0..C-1 become 0..C-1 in sorted order, with a note naming the mapping. */
static void label_cases(void)
{
    op_data o = opts();
    char trf[600], tef[600], tel[600];
    snprintf(trf, sizeof trf, "%s/f8/train_features.npy", tmpdir);
    snprintf(tef, sizeof tef, "%s/f8/test_features.npy", tmpdir);
    snprintf(tel, sizeof tel, "%s/f8/test_labels.npy", tmpdir);
    o.train_features = trf; o.test_features = tef; o.test_labels = tel;
    static const struct { const char *descr; size_t size; int sgn; } types[] = {
        {"|u1", 1, 0}, {"|i1", 1, 1}, {"<i2", 2, 1}, {"<u2", 2, 0}, {"<i4", 4, 1}, {"<u4", 4, 0}, {"<i8", 8, 1}, {"<u8", 8, 0},
    };
    long n = NTR;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        unsigned char raw[NTR * 8];
        for (int i = 0; i < NTR; i++) {
            uint64_t v = (uint64_t)try_[i]; /* 0..C-1, little-endian in `size` bytes */
            for (size_t b = 0; b < types[t].size; b++) raw[(size_t)i * types[t].size + b] = (unsigned char)(v >> (8 * b));
        }
        npy_write(tpath("lt.npy"), types[t].descr, 0, 1, &n, raw, types[t].size);
        o.train_labels = tpath("lt.npy");
        ds_data d;
        int st = load_all(&o, &d, NULL), same = st == GS_OK && d.n_classes == C;
        for (int i = 0; same && i < NTR; i++) same = d.train_y[i] == try_[i];
        CHECK(same, "labels %s: the same classes (%s)", types[t].descr, st ? gs_last_error() : "");
        if (!st) ds_free(&d);
    }
    /* bool, float32, float16 refused */
    unsigned char b1[NTR];
    for (int i = 0; i < NTR; i++) b1[i] = (unsigned char)(try_[i] != 0);
    npy_write(tpath("lb.npy"), "|b1", 0, 1, &n, b1, 1);
    o.train_labels = tpath("lb.npy");
    expect_load_fail(&o, GS_EINPUT, "lb.npy: labels are booleans (|b1)", "bool labels");
    float f4[NTR];
    for (int i = 0; i < NTR; i++) f4[i] = (float)try_[i];
    npy_write(tpath("lf.npy"), "<f4", 0, 1, &n, f4, 4);
    o.train_labels = tpath("lf.npy");
    expect_load_fail(&o, GS_EINPUT, "lf.npy: labels are floating point (<f4)", "float32 labels");
    /* uint64 beyond int64 */
    uint64_t big[NTR];
    for (int i = 0; i < NTR; i++) big[i] = (uint64_t)try_[i];
    big[6] = UINT64_MAX;
    npy_write(tpath("lbig.npy"), "<u8", 0, 1, &n, big, 8);
    o.train_labels = tpath("lbig.npy");
    expect_load_fail(&o, GS_EINPUT, "lbig.npy: y[6] (counted from 0) is 18446744073709551615, too large", "uint64 label");

    /* shifted labels 1..C (train and test): classes 0..C-1, one note */
    int sh[NTR], sht[NTE];
    for (int i = 0; i < NTR; i++) sh[i] = try_[i] + 1;
    for (int i = 0; i < NTE; i++) sht[i] = tey[i] + 1;
    npy_write_labels(tpath("sh.npy"), sh, NTR);
    npy_write_labels(tpath("sht.npy"), sht, NTE);
    o.train_labels = tpath("sh.npy");
    o.test_labels = tpath("sht.npy");
    ds_data d;
    warned = 0;
    int ok = load_all(&o, &d, on_warn) == GS_OK && d.n_classes == C && warned == 1 &&
             strstr(warn_msg, "labels 1..3 are classes 0..2 (each label minus 1)");
    for (int i = 0; ok && i < NTR; i++) ok = d.train_y[i] == try_[i];
    for (int i = 0; ok && i < NTE; i++) ok = d.test_y[i] == tey[i];
    CHECK(ok, "labels 1..C become 0..C-1 with a note: %s", warn_msg);
    if (d.train_y) ds_free(&d);
    /* a gap and a negative label: {-7, 0, 2} → 0, 1, 2 in sorted order */
    static const int map_from[C] = {-7, 0, 2};
    for (int i = 0; i < NTR; i++) sh[i] = map_from[try_[i]];
    for (int i = 0; i < NTE; i++) sht[i] = map_from[tey[i]];
    npy_write_labels(tpath("gap.npy"), sh, NTR);
    npy_write_labels(tpath("gapt.npy"), sht, NTE);
    o.train_labels = tpath("gap.npy");
    o.test_labels = tpath("gapt.npy");
    warned = 0;
    ok = load_all(&o, &d, on_warn) == GS_OK && d.n_classes == C && warned == 1 &&
         strstr(warn_msg, "the 3 distinct labels are not 0..2; they are classes 0..2 in sorted order: -7→0, 0→1, 2→2");
    for (int i = 0; ok && i < NTR; i++) ok = d.train_y[i] == try_[i];
    for (int i = 0; ok && i < NTE; i++) ok = d.test_y[i] == tey[i];
    CHECK(ok, "labels with a gap and a negative one become 0..C-1 in sorted order: %s", warn_msg);
    if (d.train_y) ds_free(&d);
}

/* Every row is checked whatever a run keeps: ld_load alone (no row read through ds_rows) refuses
 * a NaN in the last row; an all-zero row is named, 0-based, when rows are normalized. */
static void row_checks(void)
{
    op_data o = opts();
    char trl[600], tef[600], tel[600];
    snprintf(trl, sizeof trl, "%s/f8/train_labels.npy", tmpdir);
    snprintf(tef, sizeof tef, "%s/f8/test_features.npy", tmpdir);
    snprintf(tel, sizeof tel, "%s/f8/test_labels.npy", tmpdir);
    o.train_labels = trl; o.test_features = tef; o.test_labels = tel;
    double x[NTR * D];
    memcpy(x, trx, sizeof x);
    x[(NTR - 1) * D + 4] = INFINITY;
    for (int fortran = 0; fortran < 2; fortran++) {
        double xf[NTR * D];
        for (int i = 0; i < NTR; i++)
            for (int j = 0; j < D; j++) xf[fortran ? j * NTR + i : i * D + j] = x[i * D + j];
        long shp[2] = {NTR, D};
        npy_write(tpath("lastinf.npy"), "<f8", fortran, 2, shp, xf, 8);
        o.train_features = tpath("lastinf.npy");
        ds_data d;
        gs_clear_error();
        int st = ld_load(&o, &d, NULL, NULL);
        CHECK(st == GS_EINPUT && strstr(gs_last_error(), "lastinf.npy: X[29, 4] is infinite (row and column counted from 0"),
              "a bad last row is refused at load, no row asked for (%s order): %s", fortran ? "Fortran" : "C", gs_last_error());
        if (!st) ds_free(&d);
    }
    memcpy(x, trx, sizeof x);
    for (int j = 0; j < D; j++) x[7 * D + j] = x[12 * D + j] = 0;
    npy_write_f8(tpath("zero.npy"), x, NTR, D);
    o.train_features = tpath("zero.npy");
    ds_data d;
    warned = 0;
    int st = ld_load(&o, &d, on_warn, NULL);
    CHECK(st == GS_OK && warned == 1 && strstr(warn_msg, "zero.npy: 2 rows are all zeros (first: row 7, counted from 0)"),
          "all-zero rows named: %s", warn_msg);
    if (!st) ds_free(&d);
    o.no_normalize = 1;
    warned = 0;
    st = ld_load(&o, &d, on_warn, NULL);
    CHECK(st == GS_OK && warned == 0, "no note on zero rows with --no-normalize");
    if (!st) ds_free(&d);
}

static void sample(const char *repo)
{
    char dir[1200];
    snprintf(dir, sizeof dir, "%s/sample_features/fashion-mnist", repo);
    struct stat sb;
    if (stat(dir, &sb) != 0) {
        CHECK(0, "bundled sample present at %s", dir);
        return;
    }
    op_data o = opts();
    ds_data d;
    char old[1024];
    if (!getcwd(old, sizeof old)) return;
    unsetenv("GSRSCOPE_DATA");
    CHECK(chdir(repo) == 0, "chdir repo");
    int st = load_all(&o, &d, NULL);
    CHECK(st == GS_OK, "default data loads from ./sample_features: %s", gs_last_error());
    if (!st) {
        CHECK(d.train_x.rows == 6000 && d.train_x.cols == 784 && d.test_x.rows == 2000 &&
              d.test_x.cols == 784 && d.n_classes == 10, "sample shapes 6000×784 / 2000×784, 10 classes");
        CHECK(strcmp(d.name, "fashion-mnist pixels (sample)") == 0, "sample name: %s", d.name);
        long cnt[10] = {0};
        double mx = 0;
        for (long i = 0; i < d.train_x.rows; i++) cnt[d.train_y[i]]++;
        for (long i = 0; i < 6000L * 784; i++) mx = fmax(mx, d.train_x.v[i]);
        int ok = 1;
        for (int c = 0; c < 10; c++) ok &= cnt[c] == 600;
        CHECK(ok && mx == 255, "600 rows per class, pixels up to 255 (max %g)", mx);
        ds_free(&d);
    }
    CHECK(chdir(tmpdir) == 0, "chdir tmp");
    setenv("GSRSCOPE_DATA", dir, 1);
    st = load_all(&o, &d, NULL);
    CHECK(st == GS_OK && d.train_x.rows == 6000, "sample found through $GSRSCOPE_DATA: %s", gs_last_error());
    if (!st) ds_free(&d);
    setenv("GSRSCOPE_DATA", tmpdir, 1);
    expect_load_fail(&o, GS_EINPUT, "$GSRSCOPE_DATA must name a folder", "bad $GSRSCOPE_DATA");
    unsetenv("GSRSCOPE_DATA");
    st = load_all(&o, &d, NULL);
    if (st == GS_OK) { ds_free(&d); printf("# an installed sample was found from %s\n", tmpdir); }
    else CHECK(strstr(gs_last_error(), "bundled sample data not found (tried $GSRSCOPE_DATA, sample_features/fashion-mnist"),
               "not found: lists the places tried: %s", gs_last_error());
    CHECK(chdir(old) == 0, "chdir back");
}

int main(int argc, char **argv)
{
    char repo[1024];
    if (!getcwd(repo, sizeof repo)) return 1;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gs_test_load.XXXXXX");
    if (!mkdtemp(tmpdir)) { perror("mkdtemp"); return 1; }
    make_data();
    same_data_all_formats();
    numpy_sets();
    csv_cases();
    idx_cases();
    validation();
    label_cases();
    row_checks();
    sample(repo);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) printf("# could not remove %s\n", tmpdir);
    return tap_done();
}
