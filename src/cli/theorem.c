/* cli/theorem.c — `run --theorem`: Theorem 1 at the last task and why the stable rank and the
 * tail move as they do, as text after the table or as the "theorem" member of the JSON
 * (gs_report.h). */
#include "gs_claims.h"
#include "gs_common.h"
#include "gs_json.h"
#include "gs_mechanism.h"
#include "gs_report.h"
#include "gs_spectral.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void jnum(FILE *f, const char *key, double v, int comma)
{
    if (isfinite(v)) fprintf(f, "\"%s\": %.17g%s", key, v, comma ? ", " : "");
    else fprintf(f, "\"%s\": null%s", key, comma ? ", " : "");
}

static const char *verdict_word(cl_verdict v) { return v == CL_HOLDS ? "holds" : v == CL_FAILS ? "fails" : "unknown"; }

static void json_method(FILE *f, const en_results *r, int m, int T, const sp_theorem *th, const mc_rows *mc,
                        const cl_report *rep, int first)
{
    fprintf(f, "%s    {\"method\": ", first ? "" : ",\n");
    json_str(f, r->m[m].name);
    fprintf(f, ", \"task\": %d, \"r\": %d, ", T, th->r);
    jnum(f, "eps", th->eps, 1); jnum(f, "eta", th->eta, 1); jnum(f, "mbar", th->mbar, 1); jnum(f, "m", th->m, 1);
    jnum(f, "S_tau", th->S_tau, 1); jnum(f, "Lambda_plus", th->Lambda_plus, 1); jnum(f, "bound", th->bound, 1);
    jnum(f, "sr_before", th->sr_before, 1); jnum(f, "sr_after", th->sr_after, 1);
    fprintf(f, "\"bound_holds\": %s, \"strict_condition\": %s, ", th->bound_holds ? "true" : "false",
            th->strict_condition ? "true" : "false");
    jnum(f, "lhs", th->lhs, 1); jnum(f, "rhs", th->rhs, 1);
    fprintf(f, "\n     \"rank_G\": %ld, \"rank_G_Delta\": %ld, ", th->rank_G, th->rank_GD);
    jnum(f, "outside", th->outside, 1);
    jnum(f, "lambda1", th->lambda1, 1); jnum(f, "tr_G", th->tr_G, 1); jnum(f, "tr_Delta", th->tr_Delta, 1);
    jnum(f, "u1_Delta_u1", th->u1_Delta, 1);
    jnum(f, "share_u1_Delta", th->tr_Delta > 0 ? th->u1_Delta / th->tr_Delta : NAN, 1);
    jnum(f, "share_lambda1_G", th->tr_G > 0 ? th->lambda1 / th->tr_G : NAN, 1);
    jnum(f, "eps_over_lambda1", th->lambda1 > 0 ? th->eps / th->lambda1 : NAN, 1);
    fputs("\n     \"rows\": {", f);
    static const char *const HT[2] = {"head", "tail"};
    for (int h = 0; h < 2; h++) {
        fprintf(f, "\"%s\": {\"classes\": %d, ", HT[h], mc ? mc->n_cls[h] : 0);
        jnum(f, "spread_real", mc ? mc->spread_real[h] : NAN, 1);
        jnum(f, "spread_synthetic", mc ? mc->spread_syn[h] : NAN, 1);
        jnum(f, "cos_to_mean_real", mc ? mc->cos_real[h] : NAN, 1);
        jnum(f, "cos_to_mean_synthetic", mc ? mc->cos_syn[h] : NAN, 1);
        jnum(f, "mass_real", mc ? mc->mass_real[h] : NAN, 1);
        jnum(f, "mass_total", mc ? mc->mass_total[h] : NAN, 0);
        fprintf(f, "}%s", h ? "" : ", ");
    }
    fputs("},\n     \"claims\": [", f);
    for (int i = CL_RANK; i < rep->n; i++) {
        const cl_row *c = &rep->row[i];
        fprintf(f, "%s\n       {\"claim\": ", i == CL_RANK ? "" : ",");
        json_str(f, c->claim);
        fprintf(f, ", \"verdict\": \"%s\", \"numbers\": ", verdict_word(c->verdict));
        json_str(f, c->numbers);
        fputs(", \"reason\": ", f);
        json_str(f, c->reason);
        fputs("}", f);
    }
    fputs("]}", f);
}

int rp_theorem(FILE *f, int json, en_engine *e, const en_problem *p, const st_stream *st, const op_opts *o)
{
    const en_results *r = en_get_results(e);
    int T = p->T, any = 0;
    int r_split = o->theorem_r;
    if (r_split == 0)
        for (int k = 0; k < st->task_class_start[T]; k++) r_split += st->is_head[st->class_order[k]];
    if (r_split < 1) r_split = 1;
    const gm_mat *G, *Q;
    gm_mat Gb = {0}, Delta = {0};
    int rc = GS_OK;
    if (json) fputs("\"theorem\": [\n", f);
    else
        fprintf(f, "\nTheorem 1 (task %d, split r = %d, τ = %g; Δ = G_method − G of the same learner alone)\n", T,
                r_split, o->params.tau);
    for (int m = 0; m < r->n_methods; m++) {
        int mb = en_results_baseline(r, m);
        if (mb < 0 || !r->m[m].ridge || !r->m[m].augmenter[0]) continue;
        gm_free(&Gb);
        if ((rc = en_gram(e, mb, T, &G, &Q)) || (rc = gm_copy(&Gb, G, "Theorem 1"))) break;
        if ((rc = en_gram(e, m, T, &G, &Q))) break;
        if ((rc = gm_copy(&Delta, G, "Theorem 1"))) break;
        for (size_t i = 0; i < (size_t)Gb.rows * Gb.cols; i++) Delta.v[i] -= Gb.v[i];
        sp_theorem th;
        int rs = r_split < Gb.rows ? r_split : (int)Gb.rows - 1;
        rc = sp_theorem1(&Gb, &Delta, rs, o->params.tau, &th);
        gm_free(&Delta);
        if (rc) break;
        /* the spread and mass of the method's rows (collected for --theorem), the claims' why rows */
        mc_rows mc;
        const gm_mat *ar;
        const int *al;
        const double *aw;
        int have_mc = en_aug_rows(e, m, &ar, &al, &aw) == GS_OK &&
                      mc_rows_compute(p, r, T, ar, al, aw, o->params.beta, &mc) == GS_OK;
        cl_input in = {r, mb, m, T, &th, NULL, have_mc ? &mc : NULL, cl_find_oversample(r, mb)};
        cl_report rep;
        if ((rc = cl_claims(&in, &rep))) break;
        if (json) {
            json_method(f, r, m, T, &th, have_mc ? &mc : NULL, &rep, !any);
            any = 1;
            continue;
        }
        any = 1;
        fprintf(f, "%s: ε=%.6g η=%.6g m̄=%.6g m=%.6g  S_τ=%.6g Λ₊=%.6g\n", r->m[m].name, th.eps, th.eta, th.mbar,
                th.m, th.S_tau, th.Lambda_plus);
        fprintf(f, "  sr(G+τI) = %.6f   bound = %.6f   sr(G+Δ+τI) = %.6f   bound holds: %s\n", th.sr_before,
                th.bound, th.sr_after, th.bound_holds ? "yes" : "NO");
        fprintf(f, "  strict-improvement condition (eq. 12): (D−r)m² = %.6g %s %.6g → %s\n", th.lhs,
                th.strict_condition ? ">" : "≤", th.rhs, th.strict_condition ? "holds" : "does not hold");
        fprintf(f, "  why:\n");
        for (int i = CL_RANK; i < rep.n; i++)
            fprintf(f, "  %s %s: %s\n      %s\n", cl_mark(rep.row[i].verdict), rep.row[i].claim,
                    rep.row[i].numbers[0] ? rep.row[i].numbers : "—", rep.row[i].reason);
    }
    gm_free(&Gb);
    if (json) fputs("\n  ]", f);
    else if (!rc && !any) fprintf(f, "(no augmenting ridge method with its learner alone in --methods, e.g. gacl,gsr)\n");
    return rc;
}
