/* gs_pipeline.h — options → data → stream → problem → engine, shared by run, export, sweep and
 * the TUI so every front end builds the same thing (prefix pl_).
 * Ownership: pl_ctx owns the data, stream, problem and engine; pl_free releases them in order
 * (the contexts pl_open_seeds opens after the first borrow the first one's data).
 */
#ifndef GS_PIPELINE_H
#define GS_PIPELINE_H

#include "gs_data.h"
#include "gs_engine.h"
#include "gs_opts.h"
#include "gs_stream.h"

typedef struct {
    ds_data data;
    st_stream st;
    en_problem prob;
    en_engine *eng;
    int have_data, have_stream, have_prob;
} pl_ctx;

/* Load data (ld_load), build the stream, check the memory estimate, prepare the problem and
 * create the engine (no computation yet; no engine when cfg has no methods). warn may be NULL.
 * GS_OK or an error (message set). */
int pl_open(pl_ctx *c, const op_opts *o, const en_config *cfg, void (*warn)(const char *, void *),
            void *user);
/* Rebuild stream, problem and engine for a new seed (data kept). */
int pl_reseed(pl_ctx *c, const op_opts *o, const en_config *cfg);
/* Replace the engine by one for cfg's methods on the same data, stream and problem (the memory
 * estimate checked first, as pl_open does). */
int pl_engine(pl_ctx *c, const op_opts *o, const en_config *cfg);
/* The same check, then an engine of cfg's methods on c's problem into *e, owned by the caller
 * (en_destroy before c is freed): several engines may share one problem at once, each on its
 * own thread (the problem is only read). */
int pl_engine_new(const pl_ctx *c, const op_opts *o, const en_config *cfg, en_engine **e);
/* The memory estimate (bytes) of cfg's methods on c's data and stream (en_estimate_bytes), and the
 * memory a run may use: --max-memory, else what the machine has available. */
double pl_need(const pl_ctx *c, const op_opts *o, const en_config *cfg);
double pl_have(const op_opts *o);
void pl_free(pl_ctx *c);
/* Several seeds alive at once (tune --seeds, the TUI's --seeds): c[0] as pl_open with seeds[0];
 * c[1..n) each with its own seed's stream, validation split, problem and engine on c[0]'s data
 * (loaded once, with seeds[0], as sweep and table do; the others borrow it). The memory check
 * counts n copies. On error nothing is left open. Free with pl_free_seeds (c[0] last). */
int pl_open_seeds(pl_ctx *c, int n, const uint64_t *seeds, const op_opts *o, const en_config *cfg,
                  void (*warn)(const char *, void *), void *user);
void pl_free_seeds(pl_ctx *c, int n);

/* The methods of one command grouped by their own parameters (--tuned, --set: an engine takes one
 * op_params): methods whose values agree on every parameter both use (en_method_deps) share a
 * group, whatever the values of the ones only one of them reads; one engine per group. Groups in
 * the order of their first method, each group's methods in --methods order (method 0 is the
 * first of group 0). Holds pointers into itself (cfg[k].methods): not copied once made. */
typedef struct {
    int n;                                /* groups (1 when every method shares its values) */
    int of[OP_MAX_METHODS];               /* method m's group */
    int at[OP_MAX_METHODS];               /* its index in its group's engine */
    op_params params[OP_MAX_METHODS];     /* group k's parameters: for each parameter, the value of
                                           * the members that use it, else the global one */
    en_config cfg[OP_MAX_METHODS];        /* group k's configuration: cfg's with its methods */
    const char *names[OP_MAX_METHODS][OP_MAX_METHODS];
} pl_groups;
/* Group cfg's methods (resolved), method m's parameters q[m], the others' `global`. */
void pl_group(pl_groups *g, const en_config *cfg, const op_params *global, const op_params *q);
/* The results of group k's engines parts[k] (k < g->n) as one engine of every method would give
 * them, in method order, into out (its own copy: en_results_free). The shared fields (T, C, the
 * classes, params) are group 0's. GS_OK or GS_ENOMEM. */
int pl_results_merge(const pl_groups *g, const en_results *const *parts, en_results *out);

#endif
