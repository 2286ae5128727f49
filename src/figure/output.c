/* figure/output.c — the sinks and the entry point: PNG through libpng, PDF and SVG through cairo
 * streams, the CSV behind a figure, output checks, fig_export (gs_figure.h). */
#include "fig_int.h"
#include "gs_claims.h"
#include "gs_io.h"
#include "gs_png.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define PDF_DATE "2020-01-01T00:00:00Z"

static int write_claims_csv(const cl_report *rep, FILE *f)
{
    if (fputs("claim,verdict,numbers,reason\n", f) == EOF) return -1;
    for (int i = 0; i < rep->n; i++) {
        const cl_row *c = &rep->row[i];
        const char *v = c->verdict == CL_HOLDS ? "holds" : c->verdict == CL_FAILS ? "fails" : "unknown";
        const char *cols[4] = {c->claim, v, c->numbers, c->reason};
        for (int k = 0; k < 4; k++) {
            if (fputc('"', f) == EOF) return -1;
            for (const char *p = cols[k]; *p; p++)
                if ((*p == '"' && fputc('"', f) == EOF) || fputc(*p, f) == EOF) return -1;
            if (fputs(k < 3 ? "\"," : "\"\n", f) == EOF) return -1;
        }
    }
    return 0;
}

typedef struct {
    unsigned char *p;
    size_t n, cap;
    int oom;
} membuf;

static cairo_status_t membuf_write(void *closure, const unsigned char *data, unsigned int len)
{
    membuf *m = closure;
    if (m->n + len > m->cap) {
        size_t cap = m->cap ? m->cap : 65536;
        while (cap < m->n + len) cap *= 2;
        unsigned char *q = realloc(m->p, cap);
        if (!q) { m->oom = 1; return CAIRO_STATUS_WRITE_ERROR; }
        m->p = q;
        m->cap = cap;
    }
    memcpy(m->p + m->n, data, len);
    m->n += len;
    return CAIRO_STATUS_SUCCESS;
}

static int render_png(const fig_request *req, const fig_kind *fig, const fig_frame *f, const fig_page *pg, double dpi,
                      const char *path)
{
    cairo_surface_t *s;
    int st = fig_image(req, fig, f, pg, dpi, path, &s);
    if (st) return st;
    const meta *md = &f->md;
    pw_text t[MAX_META];
    for (int i = 0; i < md->n; i++) t[i] = (pw_text){md->key[i], md->val[i]};
    st = pw_write_argb32(path, cairo_image_surface_get_data(s), cairo_image_surface_get_width(s),
                         cairo_image_surface_get_height(s), cairo_image_surface_get_stride(s), dpi, t, md->n);
    cairo_surface_destroy(s);
    return st;
}

/* cairo numbers SVG surfaces ("surface580") from a process-wide counter, so a second export
 * in the same process would differ. Renumber them 1, 2, ... in order of first appearance. */
static size_t svg_renumber(const unsigned char *in, size_t n, unsigned char *out)
{
    unsigned long seen[64];
    int nseen = 0;
    size_t o = 0, i = 0;
    while (i < n) {
        if (i + 7 < n && memcmp(in + i, "surface", 7) == 0 && in[i + 7] >= '0' && in[i + 7] <= '9') {
            size_t j = i + 7;
            unsigned long v = 0;
            while (j < n && in[j] >= '0' && in[j] <= '9') v = v * 10 + (unsigned long)(in[j++] - '0');
            int k = 0;
            while (k < nseen && seen[k] != v) k++;
            if (k == nseen && nseen < 64) seen[nseen++] = v;
            if (k < 64) {
                o += (size_t)sprintf((char *)out + o, "surface%d", k + 1);
                i = j;
                continue;
            }
        }
        out[o++] = in[i++];
    }
    return o;
}

/* Insert <title> and <desc> with the parameters after the root <svg ...> tag. */
static int svg_with_meta(const membuf *m, const meta *md, const char *path)
{
    const char *start = NULL;
    for (size_t i = 0; i + 4 < m->n; i++)
        if (memcmp(m->p + i, "<svg", 4) == 0) { start = (const char *)m->p + i; break; }
    const char *gt = start ? memchr(start, '>', m->n - (size_t)(start - (const char *)m->p)) : NULL;
    char line[8000], e1[8400], e2[400], ins[9000];
    fig_meta_line(md, line, sizeof line);
    gchar *x1 = g_markup_escape_text(line, -1), *x2 = g_markup_escape_text(md->val[1], -1);
    snprintf(e1, sizeof e1, "%s", x1);
    snprintf(e2, sizeof e2, "%s", x2);
    g_free(x1);
    g_free(x2);
    int k = gt ? snprintf(ins, sizeof ins, "\n<title>%s</title>\n<desc>%s; %s</desc>", e2, md->val[0], e1)
               : 0;
    if (k < 0 || k >= (int)sizeof ins) k = 0;
    size_t head = gt ? (size_t)(gt + 1 - (const char *)m->p) : m->n;
    /* renumbering never lengthens ("surface" + digits -> "surface" + fewer or equal digits,
     * except tiny ids; allow slack) */
    size_t cap = m->n + (size_t)k + 4096;
    unsigned char *out = gs_malloc(cap, 1, "SVG");
    if (!out) return GS_ENOMEM;
    size_t o = svg_renumber(m->p, head, out);
    memcpy(out + o, ins, (size_t)k);
    o += (size_t)k;
    o += svg_renumber(m->p + head, m->n - head, out + o);
    int st = io_write_file(path, out, o);
    free(out);
    return st;
}

/* A PDF of the frames, one page each (md: the document's metadata), or the SVG of one frame. */
static int render_vector(const fig_request *req, const fig_kind *fig, const fig_frame *f, int n, const fig_page *pg,
                         int pdf, const meta *md, const char *path)
{
    double W = pg->W, H = pg->H;
    membuf m = {0};
    cairo_surface_t *s = pdf ? cairo_pdf_surface_create_for_stream(membuf_write, &m, W, H)
                             : cairo_svg_surface_create_for_stream(membuf_write, &m, W, H);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        free(m.p);
        return gs_error(GS_ENOMEM, "%s: cannot create the %s surface", path, pdf ? "PDF" : "SVG");
    }
    if (pdf) {
        char line[8000];
        fig_meta_line(md, line, sizeof line);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, md->val[1]);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, md->val[0]);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_SUBJECT, line);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, PDF_DATE);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_MOD_DATE, PDF_DATE);
    } else {
        cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PT);
    }
    cairo_status_t st1 = CAIRO_STATUS_SUCCESS;
    for (int k = 0; k < n && st1 == CAIRO_STATUS_SUCCESS; k++) {
        fig_ctx z;
        if (k > 0) cairo_surface_show_page(s); /* the next page, the same size */
        if (fig_begin(&z, s) != 0) {
            fig_end(&z);
            cairo_surface_destroy(s);
            free(m.p);
            return gs_error(GS_ENOMEM, "%s: cannot start drawing", path);
        }
        fig_draw_page(&z, req, fig, &f[k].cs, f[k].task, pg);
        st1 = cairo_status(z.cr);
        fig_end(&z);
    }
    cairo_surface_finish(s);
    cairo_status_t st2 = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (st1 != CAIRO_STATUS_SUCCESS || st2 != CAIRO_STATUS_SUCCESS || m.oom) {
        free(m.p);
        return gs_error(m.oom ? GS_ENOMEM : GS_ERUN, "%s: drawing failed: %s", path,
                        cairo_status_to_string(st1 != CAIRO_STATUS_SUCCESS ? st1 : st2));
    }
    int st = pdf ? io_write_file(path, m.p, m.n) : svg_with_meta(&m, md, path);
    free(m.p);
    return st;
}

static int write_csv(const charts *cs, const char *path)
{
    io_atomic a;
    int st = io_atomic_open(&a, path);
    if (st) return st;
    if (cs->claims) {
        if (write_claims_csv(cs->claims, a.f)) st = gs_error(GS_ERUN, "%s: write failed", path);
    } else if (fputs("chart,series,x,y\n", a.f) == EOF) st = gs_error(GS_ERUN, "%s: write failed", path);
    if (!st && cs->have_acc) st = ch_write_csv_rows(&cs->acc, a.f);
    if (!st && cs->have_spec) st = ch_write_csv_rows(&cs->spec, a.f);
    if (!st && cs->have_sr) st = ch_write_csv_rows(&cs->sr, a.f);
    for (int i = 0; !st && i < cs->nex; i++) st = ch_write_csv_rows(&cs->ex[i], a.f);
    if (st) {
        io_atomic_abort(&a);
        return gs_error(GS_ERUN, "%s: write failed (nothing was written)", path);
    }
    return io_atomic_commit(&a);
}

/* 0 png, 1 svg, 2 pdf, 3 gif; -1 with the message set. */
static int output_kind(const char *path)
{
    if (!path || !*path) return gs_error(GS_EINPUT, "export: -o FILE (--output) is required"), -1;
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    if (dot && strcasecmp(dot, ".png") == 0) return 0;
    if (dot && strcasecmp(dot, ".svg") == 0) return 1;
    if (dot && strcasecmp(dot, ".pdf") == 0) return 2;
    if (dot && strcasecmp(dot, ".gif") == 0) return 3;
    if (dot)
        gs_error(GS_EINPUT, "%s: unknown figure format '%s' (use .png, .svg, .pdf or .gif)", path, dot);
    else
        gs_error(GS_EINPUT, "%s: no figure format in the name (use .png, .svg, .pdf or .gif)", path);
    return -1;
}

int fig_check_output(const char *figure, const char *path)
{
    if (!figure || !fig_known(figure))
        return gs_error(GS_EINPUT, "--figure %s: unknown figure (use %s)", figure ? figure : "(none)",
                        fig_list());
    if (output_kind(path) < 0) return GS_EINPUT;
    char folder[4096];
    const char *slash = strrchr(path, '/');
    if (!slash) return GS_OK;
    size_t n = (size_t)(slash - path);
    if (n == 0) return GS_OK;
    if (n >= sizeof folder) return gs_error(GS_EINPUT, "%s: path too long", path);
    memcpy(folder, path, n);
    folder[n] = '\0';
    struct stat sb;
    if (stat(folder, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return gs_error(GS_EINPUT, "%s: cannot create: folder %s does not exist", path, folder);
    return GS_OK;
}

/* The last task every shown method has finished (T if none has). */
static int last_done_task(const fig_request *req)
{
    const en_results *r = req->r;
    for (int t = r->T; t >= 1; t--) {
        int ok = 1, any = 0;
        int ms[2] = {req->m0, req->m1};
        for (int k = 0; k < 2; k++) {
            if (ms[k] < 0 || ms[k] >= r->n_methods || !r->m[ms[k]].snaps) continue;
            any = 1;
            ok &= r->m[ms[k]].snaps[t - 1].state == EN_DONE;
        }
        if (any && ok) return t;
    }
    return r->T;
}

int fig_export(const fig_request *req, const char *figure, const char *path, const char *data_csv)
{
    if (!req || !req->r || req->r->T < 1 || !req->r->m)
        return gs_error(GS_EINPUT, "%s: no results to draw", path ? path : "figure");
    const fig_kind *fig = figure ? fig_find(figure) : NULL;
    if (!fig)
        return gs_error(GS_EINPUT, "--figure %s: unknown figure (use %s)", figure ? figure : "(none)",
                        fig_list());
    int kind = output_kind(path);
    if (kind < 0) return GS_EINPUT;
    int task = req->task;
    if (task < 0 || task > req->r->T)
        return gs_error(GS_EINPUT, "--task %d: out of range (1..%d, 0 = last)", task, req->r->T);
    if (task == 0) task = last_done_task(req);
    /* PNG at 300 dpi for print; a GIF is for screens and slide programs: 100 dpi */
    double dpi = req->dpi > 0 ? req->dpi : kind == 3 ? 100.0 : 300.0;
    fig_page pg;
    int st = fig_page_size(req, fig, &pg);
    if (st) return st;
    if (!isfinite(dpi) || !isfinite(pg.W))
        return gs_error(GS_EINPUT, "%s: bad --dpi or --width-in", path);

    fig_frame *f;
    int n;
    if ((st = fig_frames_build(req, fig, task, &f, &n))) return st;
    char fp[4200];
    if (kind == 2) {
        meta md = f[n - 1].md; /* the document: the last frame's parameters */
        st = render_vector(req, fig, f, n, &pg, 1, &md, path);
    } else if (kind == 3) {
        st = fig_write_gif(req, fig, f, n, &pg, dpi, path);
    } else {
        for (int k = 0; k < n && !st; k++) {
            if ((st = fig_frame_path(path, k + 1, n, fp, sizeof fp))) break;
            st = kind == 0 ? render_png(req, fig, &f[k], &pg, dpi, fp)
                           : render_vector(req, fig, &f[k], 1, &pg, 0, &f[k].md, fp);
        }
    }
    for (int k = 0; k < n && !st && data_csv; k++)
        if (!(st = fig_frame_path(data_csv, k + 1, n, fp, sizeof fp))) st = write_csv(&f[k].cs, fp);
    fig_frames_free(f, n);
    return st;
}
