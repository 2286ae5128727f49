/* cli/save_method.c — one method's part of --save-state (rp_save_method in gs_report.h): its own
 * folder with every matrix it solved with, every random draw of its feature map, the augmenter's
 * rows as emitted, its predictions, and manifest.json listing each file with its role and shape,
 * so that an independent implementation given the folder reproduces the method's predictions. */
#include "gs_report.h"
#include "gs_learner.h"
#include "gs_common.h"
#include "gs_io.h"
#include "gs_npy.h"
#include "gs_spectral.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *dir, *name;
    FILE *files;             /* the manifest's "files" entries, as written */
    int nfiles;
    char path[4096];
} saver;

static int file_path(saver *s, const char *file)
{
    int k = snprintf(s->path, sizeof s->path, "%s/%s/%s", s->dir, s->name, file);
    return k > 0 && (size_t)k < sizeof s->path ? GS_OK : gs_error(GS_ERUN, "%s: path too long", s->dir);
}

static void entry(saver *s, const char *file, const char *role, long rows, long cols)
{
    fprintf(s->files, "%s\n    {\"file\": \"%s\", \"role\": \"%s\", \"shape\": [%ld", s->nfiles++ ? "," : "", file, role, rows);
    if (cols > 0) fprintf(s->files, ", %ld", cols);
    fputs("]}", s->files);
}

static int put_f8(saver *s, const char *file, const char *role, const double *v, long rows, long cols)
{
    int rc = file_path(s, file);
    if (!rc) rc = npy_write_f8(s->path, v, rows, cols);
    if (!rc) entry(s, file, role, rows, cols);
    return rc;
}

static int put_labels(saver *s, const char *file, const char *role, const int *v, long n)
{
    int rc = file_path(s, file);
    if (!rc) rc = npy_write_labels(s->path, v, n);
    if (!rc) entry(s, file, role, n, 0);
    return rc;
}

/* G, Q, W and the spectrum of a ridge method after the last task. */
static int save_ridge(saver *s, en_engine *e, const en_problem *p, int m)
{
    const gm_mat *G, *Q;
    int rc = en_gram(e, m, p->T, &G, &Q);
    if (!rc) rc = put_f8(s, "G.npy", "Gram G = Σ w h hᵀ after the last task (without τ)", G->v, G->rows, G->cols);
    if (!rc) rc = put_f8(s, "Q.npy", "Q = Σ w h yᵀ after the last task", Q->v, Q->rows, Q->cols);
    if (rc) return rc;
    gm_mat W = {0};
    if ((rc = en_solve_w(e, m, p->T, &W))) return rc;
    rc = put_f8(s, "W.npy", "W = (G + τ_eff I)⁻¹ Q (columns of unseen classes zero)", W.v, W.rows, W.cols);
    gm_free(&W);
    if (rc || (rc = en_ensure_spectrum(e, p->T, en_method_bit(m), NULL))) return rc;
    const en_method_result *mr = &en_get_results(e)->m[m];
    const en_snap *sn = &mr->snaps[p->T - 1];
    if (sn->eig) rc = put_f8(s, "eigvals.npy", "eigenvalues of G + τ_eff I, descending", sn->eig, mr->D, 0);
    if (!rc && sn->eig) {
        /* the ridge lens: filter factors λᵢ/(λᵢ + τ_eff) of the eigenvalues λᵢ of G */
        double tau = en_method_tau(e, m, p->T, en_get_results(e)->params.tau);
        double *f = gs_malloc((size_t)mr->D, sizeof(double), "filter factors");
        if (!f) return GS_ENOMEM;
        for (long i = 0; i < mr->D; i++) f[i] = sn->eig[i] - tau;
        sp_filter_factors(f, mr->D, tau, f);
        rc = put_f8(s, "filter_factors.npy", "ridge filter factors λᵢ/(λᵢ + τ_eff), λᵢ the eigenvalues of G, descending",
                    f, mr->D, 0);
        free(f);
    }
    return rc;
}

static int save_files(saver *s, en_engine *e, const en_problem *p, int m, const en_problem *pm)
{
    const en_method_result *mr = &en_get_results(e)->m[m];
    int rc = GS_OK;
    if (pm->R.v && (rc = put_f8(s, "proj_W.npy", "feature map W (D×d): h = relu(z Wᵀ), z the rows of rows.npy",
                                pm->R.v, pm->R.rows, pm->R.cols)))
        return rc;
    if (mr->ridge && (rc = save_ridge(s, e, p, m))) return rc;
    en_draw dr;
    for (int k = 0; !rc && en_method_draw(e, m, k, &dr); k++)
        rc = dr.labels ? put_labels(s, dr.file, dr.role, dr.labels, dr.rows) : put_f8(s, dr.file, dr.role, dr.v, dr.rows, dr.cols);
    if (rc) return rc;
    const gm_mat *A;
    const int *ay;
    const double *aw;
    if (en_aug_rows(e, m, &A, &ay, &aw) == GS_OK) {
        if ((rc = put_f8(s, "aug_rows.npy", "the augmenter's rows z̃ of every task (before the feature map)", A->v, A->rows, p->d)) ||
            (rc = put_labels(s, "aug_labels.npy", "labels of aug_rows", ay, A->rows)) ||
            (rc = put_f8(s, "aug_weights.npy", "each aug row's own weight ω (the learner uses β·ω)", aw, A->rows, 0)))
            return rc;
    }
    gs_clear_error();
    int *pred = NULL;
    long np = 0;
    if ((rc = en_predictions(e, m, p->T, &pred, &np))) return rc;
    rc = put_labels(s, "pred.npy", "predicted class of each test row of the seen classes after the last task", pred, np);
    free(pred);
    return rc;
}

int rp_save_method(const char *dir, en_engine *e, const en_problem *p, int m)
{
    const en_results *r = en_get_results(e);
    const en_method_result *mr = &r->m[m];
    const en_problem *pm;
    saver s = {dir, mr->name, NULL, 0, ""};
    char *body = NULL;
    size_t nbody = 0;
    int rc = en_method_space(e, m, &pm);
    if (rc || (rc = file_path(&s, "")) || (rc = io_mkdirs(s.path))) return rc;
    if (!(s.files = open_memstream(&body, &nbody))) return gs_error(GS_ENOMEM, "manifest.json: out of memory");
    rc = save_files(&s, e, p, m, pm);
    fclose(s.files);
    if (rc) { free(body); return rc; }
    char *js = NULL;
    size_t njs = 0;
    FILE *f = open_memstream(&js, &njs);
    if (!f) { free(body); return gs_error(GS_ENOMEM, "manifest.json: out of memory"); }
    const op_params *q = &r->params;
    fprintf(f, "{\n  \"method\": \"%s\", \"learner\": \"%s\", \"augmenter\": %s%s%s,\n", mr->name, mr->learner,
            mr->augmenter[0] ? "\"" : "", mr->augmenter[0] ? mr->augmenter : "null", mr->augmenter[0] ? "\"" : "");
    fprintf(f, "  \"family\": \"%s\",\n", mr->ridge ? "ridge" : "stats");
    fprintf(f, "  \"map\": {\"kind\": \"%s\", \"D\": %ld, \"d\": %ld, \"activation\": %s, \"projection\": \"%s\"},\n",
            pm->R.v ? "projection" : "identity", pm->D, pm->d, pm->R.v ? "\"relu\"" : "null",
            pm->projection == OP_PROJ_UNIFORM ? "uniform" : "gaussian");
    if (mr->ridge)
        fprintf(f, "  \"tau\": %.17g, \"tau_eff_last\": %.17g,\n", q->tau, en_method_tau(e, m, p->T, q->tau));
    fprintf(f, "  \"beta\": %.17g,\n  \"files\": [%s\n  ]\n}\n", q->beta, body);
    fclose(f);
    free(body);
    if (!js) return gs_error(GS_ENOMEM, "manifest.json: out of memory");
    rc = file_path(&s, "manifest.json");
    if (!rc) rc = io_write_file(s.path, js, strlen(js));
    free(js);
    return rc;
}
