/* gs_collapse.h — spectral collapse per class: the energy of G + τI along each seen class's own
 * direction (prefix co_).
 *
 * For task t and each class c seen so far, u_c is the unit vector along μ_c − μ, the mean of
 * the class's training rows (classifier space, as they enter G) minus the mean of all rows
 * seen; its energy is e_c = u_cᵀ (G + τI) u_c = u_cᵀ G u_c + τ, for the reference method's G and
 * the augmenting method's G. A direction no row reaches sits at τ (collapsed: only the ridge
 * holds it up); rows along it lift it. Engine-side reads only (en_gram, the problem's rows): no
 * curses, no cairo. Cost: one D×D matrix-vector product per class and method.
 * Ownership: co_result owns its arrays; co_free releases them.
 */
#ifndef GS_COLLAPSE_H
#define GS_COLLAPSE_H

#include "gs_engine.h"

typedef struct {
    int n;                  /* seen classes */
    int *cls;               /* class ids, most training rows first (ties by id) */
    long *rows;             /* real training rows of each class up to the task */
    unsigned char *head;    /* 1 for head classes */
    double *e_ref, *e_aug;  /* energies uᵀ(G+τI)u (NaN when a method has no Gram matrix) */
    double tau;
    int task;
    char ref[32], aug[32];  /* display names */
} co_result;

/* The seen classes' own directions at `task`: u_c = (μ_c − μ)/‖μ_c − μ‖ in the classifier
 * space, classes most training rows first (ties by id); ok[k] = 0 where the direction is 0 (one
 * class only). Shared by the collapse and the ridge lens (gs_lens.h). */
typedef struct {
    int n;
    long D;
    int *cls;
    long *rows;
    unsigned char *head, *ok;
    double *u;              /* n × D, row k = class cls[k]'s unit direction */
} co_dirs;
int co_class_dirs(const en_problem *p, const unsigned char *is_head, int task, co_dirs *out);
void co_dirs_free(co_dirs *d);

/* From two Gram matrices (D×D, without τ; g_aug may be NULL) of task `task` (1-based). */
int co_compute_g(const gm_mat *g_ref, const gm_mat *g_aug, const en_problem *p, const unsigned char *is_head,
                 int task, double tau, co_result *out);
/* For methods ref and aug (indices in the engine's results; aug may be -1) at `task`, with τ of
 * the results' parameters. GS_OK, GS_EINPUT (not a ridge method / task not kept), GS_ENOMEM. */
int co_compute(en_engine *e, const en_problem *p, int ref, int aug, int task, co_result *out);
void co_free(co_result *c);

#endif
