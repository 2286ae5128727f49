/* test_claims.c — the claims and collapse computations (gs_claims.h, gs_collapse.h).
 * Collapse: energies against an independent computation, uᵀ(G+τI)u = Σ λᵢ (vᵢ·u)² + τ from the
 * eigendecomposition of G, with u from plain loops; a direction no row reaches sits at τ.
 * Claims: verdicts on hand-made results whose outcome is known: each claim both ways, and the
 * case the paper's dilemma does not cover (head flat at 100 % for every τ, tail falling to 0 %). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gs_claims.h"
#include "gs_collapse.h"
#include "gs_common.h"
#include "gs_rng.h"
#include "gs_spectral.h"
#include "support/tap.h"

static void test_collapse(void)
{
    /* D = 5, C = 3, T = 2: classes 0, 1 in task 1, class 2 in task 2; rows in 4 coordinates of 5 */
    enum { D = 5, C = 3, N = 9 };
    static const double H[N][D] = {{1, 0.2, 0, 0.1, 0}, {0.9, 0.1, 0.2, 0, 0}, {1.1, 0, 0.1, 0.2, 0},
                                   {1.0, 0.3, 0.1, 0, 0}, {0.1, 1, 0, 0.3, 0}, {0, 0.8, 0.2, 0.1, 0},
                                   {0.2, 1.1, 0.1, 0, 0}, {0.3, 0.2, 1, 0, 0}, {0.1, 0.1, 0.9, 0.2, 0}};
    static const int Y[N] = {0, 0, 0, 0, 1, 1, 1, 2, 2};
    double hv[N * D];
    memcpy(hv, H, sizeof hv);
    int y[N];
    memcpy(y, Y, sizeof y);
    long trs[3] = {0, 7, 9};
    en_problem p;
    memset(&p, 0, sizeof p);
    p.T = 2; p.C = C; p.d = D; p.D = D;
    p.h = (gm_mat){.rows = N, .cols = D, .v = hv};
    p.y = y;
    p.task_row_start = trs;
    unsigned char head[C] = {1, 0, 0};
    /* G_ref = Σ hhᵀ over task 1's rows; G_aug = G_ref + 3·e5e5ᵀ + a rank-one along (1,1,0,0,0) */
    gm_mat G = {0}, G2 = {0};
    gm_alloc(&G, D, D, "test");
    gm_alloc(&G2, D, D, "test");
    for (int i = 0; i < 7; i++)
        for (int a = 0; a < D; a++)
            for (int b = 0; b < D; b++) G.v[a * D + b] += H[i][a] * H[i][b];
    memcpy(G2.v, G.v, sizeof(double) * D * D);
    G2.v[4 * D + 4] += 3;
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) G2.v[a * D + b] += 0.5;
    double tau = 0.25;
    co_result r;
    CHECK(co_compute_g(&G, &G2, &p, head, 1, tau, &r) == GS_OK, "co_compute_g");
    CHECK(r.n == 2 && r.cls[0] == 0 && r.cls[1] == 1 && r.rows[0] == 4 && r.rows[1] == 3,
          "task 1: classes 0 (4 rows) then 1 (3 rows)");
    CHECK(r.head[0] == 1 && r.head[1] == 0, "head flags");
    /* independent: eigenvectors of G */
    double w[D], w2[D];
    gm_mat U = {0}, U2 = {0};
    sp_eig(&G, w, &U);
    sp_eig(&G2, w2, &U2);
    for (int k = 0; k < r.n; k++) {
        int c = r.cls[k];
        double m[D] = {0}, all[D] = {0}, u[D], nn = 0;
        int cnt = 0;
        for (int i = 0; i < 7; i++)
            for (int a = 0; a < D; a++) {
                all[a] += H[i][a] / 7.0;
                if (Y[i] == c) m[a] += H[i][a];
            }
        for (int i = 0; i < 7; i++) cnt += Y[i] == c;
        for (int a = 0; a < D; a++) { u[a] = m[a] / cnt - all[a]; nn += u[a] * u[a]; }
        for (int a = 0; a < D; a++) u[a] /= sqrt(nn);
        double e = tau, e2 = tau;
        for (int i = 0; i < D; i++) {
            double d1 = 0, d2 = 0;
            for (int a = 0; a < D; a++) { d1 += U.v[a * D + i] * u[a]; d2 += U2.v[a * D + i] * u[a]; }
            e += w[i] * d1 * d1;
            e2 += w2[i] * d2 * d2;
        }
        CHECK_REL(r.e_ref[k], e, 1e-10, "uᵀ(G+τI)u of the reference against Σλ(v·u)²+τ");
        CHECK_REL(r.e_aug[k], e2, 1e-10, "uᵀ(G+τI)u of the augmented G against Σλ(v·u)²+τ");
    }
    co_free(&r);
    /* task 2: class 2 appears; a direction no row reaches (the 5th coordinate) would sit at τ:
     * make class 2's own direction that one by giving G no energy there */
    CHECK(co_compute_g(&G, NULL, &p, head, 2, tau, &r) == GS_OK && r.n == 3 && isnan(r.e_aug[0]),
          "task 2: three classes, no second method");
    co_free(&r);
    double hv2[N * D];
    memcpy(hv2, hv, sizeof hv2);
    for (int i = 7; i < 9; i++) { for (int a = 0; a < D; a++) hv2[i * D + a] = 0; hv2[i * D + 4] = 1; }
    for (int i = 0; i < 7; i++) hv2[i * D + 4] = 0;
    p.h.v = hv2;
    /* with all rows at 0 in coordinate 5 except class 2's, and class means 0 elsewhere... the own
     * direction of class 2 mixes coordinate 5 with the others; G built from classes 0, 1 only
     * has no energy along coordinate 5, so e ≥ τ and e < the head class's energy */
    CHECK(co_compute_g(&G, NULL, &p, head, 2, tau, &r) == GS_OK, "task 2 with a new coordinate");
    CHECK(r.cls[2] == 2 && r.e_ref[2] >= tau && r.e_ref[2] < r.e_ref[0], "the new class's direction is weak: %g (τ %g)",
          r.e_ref[2], tau);
    co_free(&r);
    gm_mat Z = {0};
    gm_alloc(&Z, D, D, "test");
    CHECK(co_compute_g(&Z, NULL, &p, head, 2, tau, &r) == GS_OK && fabs(r.e_ref[2] - tau) < 1e-15,
          "G = 0: every direction sits exactly at τ");
    co_free(&r);
    gm_free(&Z);
    gm_free(&G);
    gm_free(&G2);
    gm_free(&U);
    gm_free(&U2);
}

static void make(en_results *r)
{
    memset(r, 0, sizeof *r);
    r->T = 2; r->C = 4; r->D = 10; r->n_methods = 2;
    r->params.tau = 1;
    r->m = calloc(2, sizeof *r->m);
    const char *nm[2] = {"gacl", "gsr"};
    for (int m = 0; m < 2; m++) {
        snprintf(r->m[m].name, sizeof r->m[m].name, "%s", nm[m]);
        r->m[m].ridge = 1;
        r->m[m].snaps = calloc(2, sizeof(en_snap));
        for (int t = 0; t < 2; t++) {
            en_snap *s = &r->m[m].snaps[t];
            s->state = EN_DONE;
            s->task = t + 1;
            s->acc = 50; s->head_acc = 80; s->tail_acc = 10;
            s->stable_rank = 1.5; s->lambda_max = 100; s->lambda_min = 1; s->cond = 100;
        }
    }
}

static void test_claims(void)
{
    en_results r;
    make(&r);
    en_snap *a = &r.m[0].snaps[1], *b = &r.m[1].snaps[1];
    /* GSR: sr lower (1.2 vs 1.5), λ_max 3.3×, tail +30, head −0.5, λ_min ×1.05 */
    b->stable_rank = 1.2; b->lambda_max = 330; b->tail_acc = 40; b->head_acc = 79.5; b->lambda_min = 1.05;
    cl_input in = {&r, 0, 1, 2, NULL, NULL};
    cl_report rep;
    CHECK(cl_claims(&in, &rep) == GS_OK && rep.n == CL_COUNT, "claims computed");
    CHECK(rep.row[CL_SR].verdict == CL_FAILS && strstr(rep.row[CL_SR].reason, "λ_max grew 3.3×") &&
              strstr(rep.row[CL_SR].reason, "fell") && strstr(rep.row[CL_SR].numbers, "1.5") &&
              strstr(rep.row[CL_SR].numbers, "1.2"), "sr fell: ✗ with λ_max 3.3×: %s / %s", rep.row[CL_SR].numbers,
          rep.row[CL_SR].reason);
    /* Σλ² grew 1.2·330² / (1.5·100²) = 8.712× */
    CHECK(strstr(rep.row[CL_SR].reason, "Σλ² grew 8.712×") != NULL, "Σλ² ratio from sr·λ_max²: %s", rep.row[CL_SR].reason);
    CHECK(rep.row[CL_THEOREM].verdict == CL_UNKNOWN && !strcmp(cl_mark(CL_UNKNOWN), "?"), "no Theorem 1 yet: ?");
    CHECK(rep.row[CL_TAIL].verdict == CL_HOLDS && strstr(rep.row[CL_TAIL].numbers, "+30.0 points"), "tail up: ✔");
    CHECK(rep.row[CL_HEAD].verdict == CL_HOLDS, "head −0.5: preserved");
    CHECK(rep.row[CL_SMALLEST].verdict == CL_FAILS && strstr(rep.row[CL_SMALLEST].numbers, "×1.05"),
          "λ_min ×1.05 only: ✗ (%s)", rep.row[CL_SMALLEST].numbers);
    CHECK(rep.row[CL_DILEMMA].verdict == CL_UNKNOWN, "no sweep yet: ?");
    /* the other way round */
    b->stable_rank = 2.8; b->lambda_max = 110; b->head_acc = 70; b->lambda_min = 3;
    sp_theorem th;
    memset(&th, 0, sizeof th);
    th.strict_condition = 1; th.lhs = 5; th.rhs = 2; th.sr_before = 1.5; th.sr_after = 2.8;
    in.th = &th;
    cl_claims(&in, &rep);
    CHECK(rep.row[CL_SR].verdict == CL_HOLDS && strstr(rep.row[CL_SR].reason, "rose"), "sr rose: ✔");
    CHECK(rep.row[CL_THEOREM].verdict == CL_HOLDS, "eq. 12 holds and sr rose: ✔");
    CHECK(rep.row[CL_HEAD].verdict == CL_FAILS && strstr(rep.row[CL_HEAD].reason, "loses 10.0 points"), "head −10: ✗");
    CHECK(rep.row[CL_SMALLEST].verdict == CL_HOLDS, "λ_min ×3: ✔");
    th.strict_condition = 0;
    cl_claims(&in, &rep);
    CHECK(rep.row[CL_THEOREM].verdict == CL_FAILS && strstr(rep.row[CL_THEOREM].reason, "eq. 12 fails"), "eq. 12 fails: ✗");
    /* the full spectrum: bottom tenth (1 of 10 eigenvalues) */
    double ea[10], eb[10];
    for (int i = 0; i < 10; i++) { ea[i] = 100.0 / (i + 1); eb[i] = ea[i]; }
    ea[9] = 1.0; eb[9] = 1.0; /* both at τ = 1: the floor */
    a->eig = ea; b->eig = eb;
    a->flags |= EN_SPECTRUM; b->flags |= EN_SPECTRUM;
    cl_claims(&in, &rep);
    CHECK(rep.row[CL_SMALLEST].verdict == CL_FAILS && strstr(rep.row[CL_SMALLEST].reason, "ridge floor"),
          "both bottoms at τ: ✗, the floor: %s", rep.row[CL_SMALLEST].reason);
    eb[9] = 2.5;
    cl_claims(&in, &rep);
    CHECK(rep.row[CL_SMALLEST].verdict == CL_HOLDS && strstr(rep.row[CL_SMALLEST].numbers, "×2.5") &&
              strstr(rep.row[CL_SMALLEST].numbers, "λ_min 1 → 2.5"), "bottom ×2.5: ✔ (%s)", rep.row[CL_SMALLEST].numbers);
    a->eig = b->eig = NULL;
    /* the dilemma: head flat at 100 %, tail falling from 60 % to 0 % as τ grows */
    enum { NT = 5 };
    double tau[NT] = {1e-4, 1e-2, 1, 1e2, 1e4}, head[NT] = {100, 100, 100, 100, 100}, tail[NT] = {60, 55, 30, 5, 0};
    ts_curve s;
    memset(&s, 0, sizeof s);
    s.n = NT; s.tau = tau; s.head_acc = head; s.tail_acc = tail; s.task = 2;
    in.sweep = &s;
    cl_claims(&in, &rep);
    CHECK(rep.row[CL_DILEMMA].verdict == CL_FAILS && strstr(rep.row[CL_DILEMMA].reason, "head stays within 0.0 points") &&
              strstr(rep.row[CL_DILEMMA].reason, "tail that dies"),
          "head 100 %% for every τ, tail to 0 %%: ✗ (%s)", rep.row[CL_DILEMMA].reason);
    CHECK(strstr(rep.row[CL_DILEMMA].numbers, "tail 60.0 → 0.0 %") != NULL, "dilemma numbers: %s", rep.row[CL_DILEMMA].numbers);
    /* as the paper says: the tail is best at a large τ where the head has fallen */
    double head2[NT] = {95, 95, 90, 70, 40}, tail2[NT] = {5, 10, 30, 45, 20};
    s.head_acc = head2; s.tail_acc = tail2;
    cl_claims(&in, &rep);
    CHECK(rep.row[CL_DILEMMA].verdict == CL_HOLDS && strstr(rep.row[CL_DILEMMA].reason, "τ = 100 (45.0 %)") &&
              strstr(rep.row[CL_DILEMMA].reason, "70.0 %"), "the dilemma as stated: ✔ (%s)", rep.row[CL_DILEMMA].reason);
    /* pending task: every data row unknown */
    b->state = EN_PENDING;
    in.th = NULL; in.sweep = NULL;
    cl_claims(&in, &rep);
    int unk = 0;
    for (int i = 0; i < CL_COUNT; i++) unk += rep.row[i].verdict == CL_UNKNOWN;
    CHECK(unk == CL_COUNT, "task not computed: every claim '?' (%d)", unk);
    in.ref = in.aug = 0;
    CHECK(cl_claims(&in, &rep) == GS_EINPUT, "same method twice refused");
    en_results_free(&r);
}

int main(void)
{
    test_collapse();
    test_claims();
    return tap_done();
}
