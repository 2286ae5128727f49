/* figure/meta.c — the parameters a figure carries (PNG tEXt, PDF subject, SVG desc) (fig_int.h). */
#include "fig_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void meta_add(meta *md, const char *k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void meta_add(meta *md, const char *k, const char *fmt, ...)
{
    if (md->n >= MAX_META) return;
    snprintf(md->key[md->n], sizeof md->key[0], "%s", k);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(md->val[md->n], sizeof md->val[0], fmt, ap);
    va_end(ap);
    md->n++;
}

const char *fig_num(double v, char *b) { return ch_fmt_double(v, b, 40); }

const char *fig_profile_name(op_profile p)
{
    return p == OP_PROFILE_EXP ? "exp" : p == OP_PROFILE_NONE ? "none" : "step";
}

void fig_meta_build(meta *md, const fig_request *req, const char *figure, int task)
{
    const en_results *r = req->r;
    const op_params *pp = &r->params;
    const op_opts *o = req->opts;
    char b[40];
    md->n = 0;
    meta_add(md, "Software", "gsrscope %s", GS_VERSION);
    meta_add(md, "Title", "gsrscope %s", figure);
    meta_add(md, "alpha_base", "%s", fig_num(pp->alpha_base, b));
    meta_add(md, "xi", "%s", fig_num(pp->xi, b));
    meta_add(md, "beta", "%s", fig_num(pp->beta, b));
    meta_add(md, "tau", "%s", fig_num(pp->tau, b));
    meta_add(md, "seed", "%llu", (unsigned long long)pp->seed);
    if (req->nruns > 1 && o && o->seeds) meta_add(md, "seeds", "%s (mean \u00b1 std over %d seeds)", o->seeds, req->nruns);
    char mab[24];
    meta_add(md, "pairs", "%s", op_pairs_name(pp->pairs));
    meta_add(md, "max_aug", "%s", op_max_aug_str(pp->max_aug, mab, sizeof mab));
    meta_add(md, "augment", "%s", pp->augment == OP_AUG_TAIL ? "tail" : "all");
    meta_add(md, "gauss_a", "%s", fig_num(pp->gauss_a, b));
    meta_add(md, "gauss_b", "%s", fig_num(pp->gauss_b, b));
    meta_add(md, "slda_eps", "%s", fig_num(pp->slda_eps, b));
    meta_add(md, "tasks", "%d", r->T);
    if (o) {
        const op_protocol *pr = &o->proto;
        meta_add(md, "profile", "%s", fig_profile_name(pr->profile));
        meta_add(md, "head_frac", "%s", fig_num(pr->head_frac, b));
        meta_add(md, "tail_shots", "%ld", pr->tail_shots);
        meta_add(md, "head_shots", "%ld", pr->head_shots);
        meta_add(md, "rho", "%s", fig_num(pr->rho, b));
        meta_add(md, "order", "%s", pr->order == OP_ORDER_ORDERED ? "ordered" : "shuffled");
        if (pr->val_frac > 0) meta_add(md, "val_frac", "%s", fig_num(pr->val_frac, b));
        meta_add(md, "normalize", "%s", o->data.no_normalize ? "no" : "yes");
        meta_add(md, "expand", "%ld", o->data.expand);
    }
    char ms[600] = "";
    for (int i = 0; i < r->n_methods; i++) {
        size_t l = strlen(ms);
        snprintf(ms + l, sizeof ms - l, "%s%s", i ? "," : "", r->m[i].name);
    }
    meta_add(md, "methods", "%s", ms);
    meta_add(md, "shown", "%s%s%s", req->m0 >= 0 && req->m0 < r->n_methods ? r->m[req->m0].name : "",
             req->m1 >= 0 && req->m1 < r->n_methods ? "," : "",
             req->m1 >= 0 && req->m1 < r->n_methods ? r->m[req->m1].name : "");
    meta_add(md, "figure", "%s", figure);
    char changes[2048];
    meta_add(md, "not_default", "%s", *op_changes(o, "; ", changes, sizeof changes) ? changes : "(all defaults)");
    meta_add(md, "task", "%d", task);
    meta_add(md, "classes", "%d", r->C);
    meta_add(md, "dim", "%ld", r->D);
    if (req->prob) {
        meta_add(md, "data_name", "%s", req->prob->data_name);
        meta_add(md, "data_source", "%s", req->prob->data_source);
        meta_add(md, "data_checksum", "%016llx", (unsigned long long)req->prob->data_checksum);
        if (req->prob->single) meta_add(md, "precision", "single (ridge learners in float: --precision)");
    }
    if (req->baseline) {
        const op_params *bp = &req->baseline->params;
        char b1[40], b2[40], b3[40], b4[40];
        meta_add(md, "baseline", "alpha_base=%s xi=%s beta=%s tau=%s", fig_num(bp->alpha_base, b1),
                 fig_num(bp->xi, b2), fig_num(bp->beta, b3), fig_num(bp->tau, b4));
    }
    /* frames and slides: said only when asked for (the bytes of a plain export stay the same) */
    static const char *const future[] = {"", "show", "hide", "fade"};
    if (req->frames) meta_add(md, "frames", "one per task; this one task %d", task);
    if (req->future > 0 && req->future <= FIG_FUTURE_FADE) meta_add(md, "future", "%s", future[req->future]);
    if (req->slide) meta_add(md, "size", "slide (%g x %g in)", FIG_SLIDE_W_IN, FIG_SLIDE_H_IN);
    if (req->font_scale > 0) meta_add(md, "font_scale", "%s", fig_num(req->font_scale, b));
}

/* One line "key=value; ..." of the parameters (PDF subject, SVG desc). */
void fig_meta_line(const meta *md, char *out, size_t n)
{
    size_t o = 0;
    out[0] = '\0';
    for (int i = 2; i < md->n && o < n; i++)
        o += (size_t)snprintf(out + o, n - o, "%s%s=%s", i > 2 ? "; " : "", md->key[i], md->val[i]);
}
