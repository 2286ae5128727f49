/* figure/draw.c — a whole figure laid out on the page: legend, panels per figure, captions, the
 * claims as paragraphs; and the page drawn into an image (fig_image: the PNG and GIF sinks)
 * (fig_int.h). */
#include "fig_int.h"
#include "gs_claims.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The claims as a table of paragraphs: mark and claim in bold with the numbers, the reason
 * under it; those that fit in b, then "7 of 12 claims; the rest in the CSV (--csv)" when some do
 * not (a slide). Returns how many were drawn. */
int fig_draw_claims(fig_ctx *z, const cl_report *rep, box b)
{
    char title[200], ref[64], aug[64], more[96];
    snprintf(title, sizeof title, "<b>The paper's claims on this data</b> (task %d: %s against %s)", rep->task,
             fig_esc(rep->aug, aug, sizeof aug), fig_esc(rep->ref, ref, sizeof ref));
    double y = b.y + fig_paragraph(z, title, FS_TITLE, b, b.y) + 4.0;
    snprintf(more, sizeof more, "<i>%d of %d claims; the rest in the CSV (--csv)</i>", rep->n, rep->n);
    double more_h = fig_paragraph_h(z, more, FS_LABEL, b.w) + 3.0;
    int shown = 0;
    for (int i = 0; i < rep->n; i++) {
        const cl_row *c = &rep->row[i];
        char e1[300], e2[420], e3[520], m[1400];
        uint32_t col = c->verdict == CL_HOLDS ? 0x2e7d32 : c->verdict == CL_FAILS ? 0xc62828 : 0x555555;
        snprintf(m, sizeof m, "<span foreground=\"#%06x\"><b>%s</b></span> <b>%s</b>%s%s\n<span size=\"%d\">%s</span>",
                 col, cl_mark(c->verdict), fig_esc(c->claim, e1, sizeof e1), c->numbers[0] ? ": " : "",
                 fig_esc(c->numbers, e2, sizeof e2), (int)(FS_TICK * PANGO_SCALE), fig_esc(c->reason, e3, sizeof e3));
        /* the last claim needs its own room only; any other, room for the line saying the rest */
        double h = fig_paragraph_h(z, m, FS_LABEL, b.w) + 3.0;
        if (y + h + (i + 1 < rep->n ? more_h : 0) > b.y + b.h && i > 0) break;
        y += fig_paragraph(z, m, FS_LABEL, b, y) + 3.0;
        shown++;
    }
    if (shown < rep->n) {
        snprintf(more, sizeof more, "<i>%d of %d claims; the rest in the CSV (--csv)</i>", shown, rep->n);
        fig_paragraph(z, more, FS_LABEL, b, y);
    }
    return shown;
}

static double legend_h(fig_ctx *z) { double h; fig_text_size(z, "Ag", FS_LEGEND, NULL, &h); return h + 4.0; }

/* The three accuracy panels (overall, head, tail) sharing the 0–100 % axis. */
static void draw_accuracy_row(fig_ctx *z, const ch_chart *acc, box row)
{
    panel ps[3];
    fig_panel_init(&ps[0], acc, CH_KIND_OVERALL, "Overall");
    fig_panel_init(&ps[1], acc, CH_KIND_HEAD, "Head classes");
    fig_panel_init(&ps[2], acc, CH_KIND_TAIL, "Tail classes");
    /* the pending note once, on the last panel; the x label once, under the middle panel */
    ps[0].note[0] = ps[1].note[0] = '\0';
    ps[0].xlabel = ps[2].xlabel = 0;
    fig_layout_row(z, ps, 3, row, 1, 7.0);
    for (int i = 0; i < 3; i++) fig_draw_panel(z, &ps[i]);
}

/* "1, 2, 3": the seeds of the runs. */
static void seeds_text(const fig_request *req, char *out, size_t n)
{
    out[0] = '\0';
    for (int k = 0; k < req->nruns; k++) {
        size_t l = strlen(out);
        snprintf(out + l, n - l, "%s%llu", k ? ", " : "", (unsigned long long)req->runs[k]->params.seed);
    }
}

/* The caption of a figure drawn over several seeds (the dashboard has its own, longer one). */
static PangoLayout *seeds_caption(fig_ctx *z, const fig_request *req, double w)
{
    char list[300], txt[500];
    seeds_text(req, list, sizeof list);
    snprintf(txt, sizeof txt, "Mean \u00b1 std over %d seeds (%s): each curve is the mean, its band \u00b1 one "
             "sample standard deviation.", req->nruns, list);
    PangoLayout *l = fig_layout(z, txt, FS_CAPTION);
    pango_layout_set_width(l, (int)(w * PANGO_SCALE));
    pango_layout_set_wrap(l, PANGO_WRAP_WORD);
    return l;
}

/* Lay out the caption for width w (caller unrefs). */
static PangoLayout *caption_layout(fig_ctx *z, const fig_request *req, int task, double w)
{
    const en_results *r = req->r;
    const op_params *pp = &r->params;
    char b1[40], b2[40], b3[40], b4[40], name[420] = "", methods[96] = "", proto[256] = "", n0[32],
                                                  n1[32], txt[1400];
    if (req->m0 >= 0 && req->m0 < r->n_methods) ch_display_name(r->m[req->m0].name, n0, sizeof n0);
    else snprintf(n0, sizeof n0, "?");
    if (req->m1 >= 0 && req->m1 < r->n_methods) {
        ch_display_name(r->m[req->m1].name, n1, sizeof n1);
        snprintf(methods, sizeof methods, "%s vs %s", n0, n1);
    } else {
        snprintf(methods, sizeof methods, "%s", n0);
    }
    if (req->prob && req->prob->data_name[0]) {
        char e[400];
        snprintf(name, sizeof name, " on %s", fig_esc(req->prob->data_name, e, sizeof e));
    }
    if (req->opts) {
        const op_protocol *pr = &req->opts->proto;
        char h[40], rho[64] = "";
        if (pr->rho > 0) snprintf(rho, sizeof rho, ", \u03c1 = %s", fig_num(pr->rho, b4));
        snprintf(proto, sizeof proto, "; %d tasks, %s profile, head %s, %ld tail shots%s, %s order", r->T,
                 fig_profile_name(pr->profile), fig_num(pr->head_frac, h), pr->tail_shots,
                 rho, pr->order == OP_ORDER_ORDERED ? "ordered" : "shuffled");
    } else {
        snprintf(proto, sizeof proto, "; %d tasks", r->T);
    }
    char seed[512];
    if (req->nruns > 1) {
        char list[256];
        seeds_text(req, list, sizeof list);
        snprintf(seed, sizeof seed, "seeds %s (accuracy and stable rank: mean \u00b1 std over %d seeds, "
                 "bands \u00b1 one sample std; spectrum: seed %llu)", list, req->nruns, (unsigned long long)pp->seed);
    } else {
        snprintf(seed, sizeof seed, "seed %llu", (unsigned long long)pp->seed);
    }
    /* subscripts kept at 8 pt (the minimum text size) */
    char mab[24];
    snprintf(txt, sizeof txt,
             "<b>%s</b>%s. \u03b1<span size=\"%d\" rise=\"-%d\">base</span> = %s, \u03be = %s, "
             "\u03b2 = %s, \u03c4 = %s, %s; pairs %s, max_aug %s, augment %s%s. "
             "Spectrum at task %d/%d.%s gsrscope %s.",
             methods, name, (int)(FS_CAPTION * PANGO_SCALE), (int)(1.6 * PANGO_SCALE),
             fig_num(pp->alpha_base, b1), fig_num(pp->xi, b2), fig_num(pp->beta, b3), fig_num(pp->tau, b4),
             seed, op_pairs_name(pp->pairs), op_max_aug_str(pp->max_aug, mab, sizeof mab),
             pp->augment == OP_AUG_TAIL ? "tail" : "all", proto, task, r->T,
             req->prob && req->prob->single ? " Ridge learners in single precision." : "", GS_VERSION);
    PangoLayout *l = fig_layout(z, txt, FS_CAPTION + 0.5);
    pango_layout_set_width(l, (int)(w * PANGO_SCALE));
    pango_layout_set_wrap(l, PANGO_WRAP_WORD);
    return l;
}

static double caption_height(fig_ctx *z, const fig_request *req, int task, double w)
{
    PangoLayout *l = caption_layout(z, req, task, w);
    PangoRectangle log;
    pango_layout_get_extents(l, NULL, &log);
    g_object_unref(l);
    return (double)log.height / PANGO_SCALE;
}

static void draw_caption(fig_ctx *z, const fig_request *req, int task, box bx)
{
    PangoLayout *l = caption_layout(z, req, task, bx.w);
    cairo_move_to(z->cr, bx.x, bx.y);
    cairo_set_source_rgb(z->cr, 0.1, 0.1, 0.1);
    pango_cairo_update_layout(z->cr, l);
    pango_cairo_show_layout(z->cr, l);
    g_object_unref(l);
}

/* ---- the rows' layouts (catalog.c) --------------------------------------------------------- */

#define PAGE_PAD 4.0 /* the page's margin */

void fig_layout_claims(fig_ctx *z, const fig_request *req, const charts *cs, int task, box body)
{
    (void)req;
    (void)task;
    fig_draw_claims(z, cs->claims, (box){body.x + 2, body.y, body.w - 4, body.h});
}

void fig_layout_accuracy(fig_ctx *z, const fig_request *req, const charts *cs, int task, box body)
{
    (void)req;
    (void)task;
    draw_accuracy_row(z, &cs->acc, body);
}

/* One chart over the body. */
static void one_panel(fig_ctx *z, const ch_chart *c, box body)
{
    panel p;
    fig_panel_init(&p, c, -1, NULL);
    fig_layout_row(z, &p, 1, body, 0, 0);
    fig_draw_panel(z, &p);
}

/* Two charts side by side. */
static void two_panels(fig_ctx *z, const ch_chart *a, const ch_chart *b, box row)
{
    panel two[2];
    fig_panel_init(&two[0], a, -1, NULL);
    fig_panel_init(&two[1], b, -1, NULL);
    fig_layout_row(z, two, 2, row, 0, 16.0);
    fig_draw_panel(z, &two[0]);
    fig_draw_panel(z, &two[1]);
}

void fig_layout_one(fig_ctx *z, const fig_request *req, const charts *cs, int task, box body)
{
    (void)req;
    (void)task;
    one_panel(z, cs->nex ? &cs->ex[0] : cs->have_spec ? &cs->spec : &cs->sr, body);
}

void fig_layout_side(fig_ctx *z, const fig_request *req, const charts *cs, int task, box body)
{
    (void)req;
    (void)task;
    two_panels(z, &cs->ex[0], &cs->ex[1], body);
}

void fig_layout_tau_sweep(fig_ctx *z, const fig_request *req, const charts *cs, int task, box body)
{
    (void)req;
    (void)task;
    /* accuracy against τ (overall, head, tail) above, stable rank against τ below */
    double h1 = (body.h - 8.0) * 0.5;
    draw_accuracy_row(z, &cs->ex[0], (box){body.x, body.y, body.w, h1});
    one_panel(z, &cs->ex[1], (box){body.x, body.y + h1 + 8.0, body.w, body.h - h1 - 8.0});
}

void fig_layout_stacked(fig_ctx *z, const fig_request *req, const charts *cs, int task, box body)
{
    (void)req;
    (void)task;
    double h1 = (body.h - 8.0) * 0.5;
    one_panel(z, &cs->ex[0], (box){body.x, body.y, body.w, h1});
    if (cs->nex > 1) one_panel(z, &cs->ex[1], (box){body.x, body.y + h1 + 8.0, body.w, body.h - h1 - 8.0});
}

void fig_layout_dashboard(fig_ctx *z, const fig_request *req, const charts *cs, int task, box body)
{
    double ch = caption_height(z, req, task, body.w - 4);
    double rows_h = body.h - ch - 6.0;
    if (body.w + 2 * PAGE_PAD >= DASH_WIDE_IN * 72.0 - 1e-9) {
        box r1 = {body.x, body.y, body.w, rows_h * 0.5 - 3};
        box r2 = {body.x, body.y + rows_h * 0.5 + 3, body.w, rows_h * 0.5 - 3};
        draw_accuracy_row(z, &cs->acc, r1);
        two_panels(z, &cs->spec, &cs->sr, r2);
    } else {
        /* one column: accuracy row, spectrum, stable rank */
        double h3 = (rows_h - 12.0) / 3.0;
        draw_accuracy_row(z, &cs->acc, (box){body.x, body.y, body.w, h3});
        one_panel(z, &cs->spec, (box){body.x, body.y + h3 + 6.0, body.w, h3});
        one_panel(z, &cs->sr, (box){body.x, body.y + 2 * h3 + 12.0, body.w, h3});
    }
    draw_caption(z, req, task, (box){body.x + 2, body.y + rows_h + 4.0, body.w - 4, ch});
}

void fig_draw(fig_ctx *z, const fig_request *req, const fig_kind *fig, const charts *cs, int task, double W,
              double H)
{
    cairo_t *cr = z->cr;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    const double pad = PAGE_PAD;
    if (fig->layout & FIG_WHOLE_PAGE) {
        fig->draw(z, req, cs, task, (box){pad, pad, W - 2 * pad, H - 2 * pad});
        return;
    }
    double lh = legend_h(z);
    const ch_chart *first = cs->nex ? &cs->ex[0] : cs->have_acc ? &cs->acc : cs->have_spec ? &cs->spec : &cs->sr;
    fig_draw_legend(z, first, cs->have_spec ? &cs->spec : NULL, W / 2, pad, lh);
    box body = {pad, pad + lh + 2.0, W - 2 * pad, H - 2 * pad - lh - 2.0};
    if (req->nruns > 1 && !(fig->layout & FIG_OWN_CAPTION)) {
        /* several seeds: a caption line under the panels says what the curves and bands are */
        PangoLayout *l = seeds_caption(z, req, body.w - 4);
        PangoRectangle log;
        pango_layout_get_extents(l, NULL, &log);
        double ch = (double)log.height / PANGO_SCALE;
        body.h -= ch + 4.0;
        cairo_move_to(cr, body.x + 2, body.y + body.h + 4.0);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        pango_cairo_update_layout(cr, l);
        pango_cairo_show_layout(cr, l);
        g_object_unref(l);
    }
    fig->draw(z, req, cs, task, body);
}

void fig_draw_page(fig_ctx *z, const fig_request *req, const fig_kind *fig, const charts *cs, int task, const fig_page *pg)
{
    if (pg->scale == 1.0) {
        fig_draw(z, req, fig, cs, task, pg->W, pg->H);
        return;
    }
    cairo_save(z->cr);
    cairo_scale(z->cr, pg->scale, pg->scale);
    fig_draw(z, req, fig, cs, task, pg->W / pg->scale, pg->H / pg->scale);
    cairo_restore(z->cr);
}

int fig_image(const fig_request *req, const fig_kind *fig, const fig_frame *f, const fig_page *pg, double dpi,
              const char *path, cairo_surface_t **out)
{
    double W = pg->W, H = pg->H;
    int wpx = (int)lround(W / 72.0 * dpi), hpx = (int)lround(H / 72.0 * dpi);
    *out = NULL;
    if (wpx < 1 || hpx < 1 || wpx > 32767 || hpx > 32767 || (double)wpx * hpx > 1.5e8)
        return gs_error(GS_EINPUT, "%s: the image would be %d×%d pixels; lower --dpi or --width-in",
                        path, wpx, hpx);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, wpx, hpx);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return gs_error(GS_ENOMEM, "%s: cannot allocate a %d×%d image", path, wpx, hpx);
    }
    fig_ctx z;
    if (fig_begin(&z, s) != 0) {
        fig_end(&z);
        cairo_surface_destroy(s);
        return gs_error(GS_ENOMEM, "%s: cannot start drawing", path);
    }
    cairo_scale(z.cr, wpx / W, hpx / H);
    fig_draw_page(&z, req, fig, &f->cs, f->task, pg);
    cairo_status_t cs_st = cairo_status(z.cr);
    fig_end(&z);
    cairo_surface_flush(s);
    if (cs_st != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return gs_error(GS_ERUN, "%s: drawing failed: %s", path, cairo_status_to_string(cs_st));
    }
    *out = s;
    return GS_OK;
}
