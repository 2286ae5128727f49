/* gs_mechanism.h — why GSR moves the stable rank and the tail as it does, from the rows
 * themselves (prefix mc_).
 *
 * At task t, over the seen classes that got synthetic rows, head and tail apart ([0] head,
 * [1] tail): the within-class spread of the real rows and of the augmenter's rows (rows z,
 * before any feature map: where GSR mixes), and the mass each class has in G and Q (its real
 * rows, and β times its synthetic rows' own weights). The spectral half (ranks, shares of the
 * top eigenvector, ε/λ₁) comes with the Theorem 1 check (sp_theorem in gs_spectral.h).
 * No curses, no cairo. Ownership: mc_rows is a plain value.
 */
#ifndef GS_MECHANISM_H
#define GS_MECHANISM_H

#include "gs_engine.h"

typedef struct {
    int task;
    int n_cls[2];             /* seen classes with synthetic rows: head, tail */
    double spread_real[2];    /* mean over those classes of tr Σ_c = mean ‖z − μ_c‖² of the real rows */
    double spread_syn[2];     /* the same for the synthetic rows (about their own mean) */
    double cos_real[2];       /* mean over the classes of the mean cosine of a row to its class mean */
    double cos_syn[2];
    double mass_real[2];      /* median over the classes of N_c (real rows, weight 1 each) */
    double mass_total[2];     /* median over the classes of N_c + β·Σω (real + weighted synthetic) */
} mc_rows;

/* From the problem's rows z and the augmenter's rows (aug: n × d, labels, own weights ω; the
 * whole run's, as en_aug_rows gives them) for the classes seen by `task` (1-based), β = beta.
 * Values with no class to average are NaN. GS_OK, GS_EINPUT (sizes), GS_ENOMEM. */
int mc_rows_compute(const en_problem *p, const en_results *r, int task, const gm_mat *aug, const int *labels,
                    const double *omega, double beta, mc_rows *out);

#endif
