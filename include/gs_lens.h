/* gs_lens.h — the ridge lens: what the ridge W = (G + τI)⁻¹Q keeps, per eigen-direction and per
 * class (prefix rl_).
 *
 * For each method (up to RL_MAX: the reference, its +oversample run, the augmenting method) at
 * task t: the eigenvalues λᵢ of its G (descending, without τ), the filter factors
 * φᵢ = λᵢ/(λᵢ + τ) (τ the method's own, en_method_tau) and df(τ) = Σ φᵢ; and for each class seen,
 * with u_c the unit vector along its mean row minus the mean of all rows seen (as gs_collapse.h),
 * the share of u_c on the eigen-directions the ridge keeps, those with λᵢ > τ (φᵢ > ½):
 * above_c = Σ_{λᵢ > τ} (vᵢᵀu_c)², and the energy relative to τ, u_cᵀGu_c / τ. A class whose
 * direction lies below τ is shrunk by the ridge towards zero whatever its rows say.
 * Cost per method: one D×D eigendecomposition and one (classes × D × D) product, both independent
 * of τ: rl_compute_cached keeps them (rl_cache), so another τ costs O(classes × D).
 * Ownership: rl_result owns its arrays; rl_free releases them.
 */
#ifndef GS_LENS_H
#define GS_LENS_H

#include <stdint.h>

#include "gs_collapse.h"
#include "gs_engine.h"

#define RL_MAX 3

typedef struct {
    int n;                      /* methods */
    char key[RL_MAX][48];       /* method names ("gacl", "gacl+oversample", "gsr") */
    int method[RL_MAX];         /* indices into the results */
    double tau[RL_MAX];         /* the τ each method's ridge uses */
    long D;
    double *lam[RL_MAX];        /* D eigenvalues of G, descending (values below 0 set to 0) */
    double *phi[RL_MAX];        /* D filter factors */
    double df[RL_MAX];          /* Σ φᵢ */
    long kept[RL_MAX];          /* directions with λᵢ > τ */
    int ncls;                   /* classes seen */
    int *cls;                   /* class ids, most training rows first (ties by id) */
    long *rows;                 /* their real training rows up to the task */
    unsigned char *head;        /* 1 for head classes */
    double *above[RL_MAX];      /* per class: Σ_{λᵢ>τ} (vᵢᵀu)² (NaN: no own direction) */
    double *energy[RL_MAX];     /* per class: uᵀGu / τ */
    double head_above[RL_MAX], tail_above[RL_MAX]; /* medians over head / tail classes (NaN: none) */
    double tail_energy[RL_MAX]; /* median uᵀGu/τ over the tail classes */
    double acc[RL_MAX], head_acc[RL_MAX], tail_acc[RL_MAX]; /* the methods' accuracies at the task */
    int task;
} rl_result;

/* From the methods' Gram matrices G[k] (D×D, without τ) with τ tau[k] at `task`. */
int rl_compute_g(const gm_mat *const *G, const double *tau, int n, const en_problem *p, const unsigned char *is_head,
                 int task, rl_result *out);
/* For methods (indices in the engine's results, ridge methods only; others are skipped) at
 * `task`. GS_OK, GS_EINPUT (no ridge method / task not kept), GS_ENOMEM, GS_ERUN. */
int rl_compute(en_engine *e, const en_problem *p, const int *methods, int n, int task, rl_result *out);
/* What a lens keeps of one method at one task, whatever τ: λ (D) and P = directions × eigenvectors
 * (nc × D), with the caller's key for what the method's G depends on (not τ). */
typedef struct {
    int method, task;
    uint64_t key;
    long D;
    int nc;
    double *lam, *P;
    unsigned long used;         /* the cache's clock at its last use (the oldest goes first) */
} rl_eig;
#define RL_CACHE_N 64
#define RL_CACHE_BYTES (256.0 * 1024 * 1024) /* older entries go beyond this */
typedef struct {
    rl_eig e[RL_CACHE_N];
    unsigned long clock;
} rl_cache;                     /* zeroed: empty; rl_cache_clear frees it */
/* rl_compute with a cache: keys[i] names what methods[i]'s G depends on at the task (the caller
 * changes it when a parameter its G depends on changes; τ is not one). A method found there with
 * the same task and key costs no eigendecomposition; the numbers are the same bit for bit. keys
 * NULL: 0 for every method; c NULL: nothing kept (rl_compute). */
int rl_compute_cached(en_engine *e, const en_problem *p, const int *methods, const uint64_t *keys, int n, int task,
                      rl_cache *c, rl_result *out);
/* One method's part from its G (D×D, without τ) and the task's class directions (co_class_dirs):
 * pure arithmetic (no engine), so another thread may compute it from a copy of G. */
int rl_eig_of(const gm_mat *G, const co_dirs *d, int method, int task, uint64_t key, rl_eig *out);
void rl_eig_free(rl_eig *x);
/* Move *y into the cache (y is left empty; a copy already there wins and y is freed); the entry,
 * or NULL when nothing could be kept. */
rl_eig *rl_cache_put(rl_cache *c, rl_eig *y);
/* 1 when the cache holds method's part at task for key. */
int rl_cached(const rl_cache *c, int method, int task, uint64_t key);
void rl_cache_clear(rl_cache *c);
/* The methods a lens shows for a shown pair: the reference (gacl when shown), its +oversample run
 * when the results hold one, then the other method; returns their count (0..RL_MAX). */
int rl_pick(const en_results *r, int ref, int aug, int *out);
void rl_free(rl_result *l);

#endif
