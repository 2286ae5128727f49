/* gs_report.h — headless views of the results: table, CSV, JSON, and --save-state (prefix rp_).
 * Reads en_results (and the engine for --save-state); writes to the given FILE* or folder.
 * NaN is never printed as a number: empty CSV field, JSON null, "—" in tables.
 */
#ifndef GS_REPORT_H
#define GS_REPORT_H

#include <stdio.h>
#include "gs_engine.h"
#include "gs_opts.h"

/* The CSV header of `run --format csv` (gsrscope(1)) (no trailing newline). */
extern const char RP_CSV_HEADER[];
/* Appended to the header (and to each row) when a validation split exists. */
extern const char RP_CSV_VAL_COLUMNS[];
/* The last columns of the header and of every row (after the validation and precision ones): df. */
extern const char RP_CSV_LAST_COLUMNS[];

int rp_write(FILE *f, op_format fmt, const en_results *r, const en_problem *p, const op_opts *o);
/* The same; with --format json, `json_extra` (a member, e.g. "\"theorem\": [...]", or NULL) is
 * added to the top-level object. */
int rp_write_ext(FILE *f, op_format fmt, const en_results *r, const en_problem *p, const op_opts *o,
                 const char *json_extra);
/* run --theorem (src/cli/theorem.c): Theorem 1 at the last task for every ridge method with an
 * augmenter whose learner ran alone (G = its Gram alone, Δ = G_method − G), and the claims' why
 * rows (ranks, shares of u₁, ε/λ₁, spread, mass, mass/geometry split); as text, or (json) as the
 * member "theorem": [...]. Reads the augmenter's rows through en_aug_rows (collect_aug). */
int rp_theorem(FILE *f, int json, en_engine *e, const en_problem *p, const st_stream *st, const op_opts *o);
/* Write the exact numbers behind a run into dir (--save-state; the files are listed in gsrscope(7)). Every file atomically. */
int rp_save_state(const char *dir, en_engine *e, const en_problem *p, const op_opts *o);
/* Method m's folder dir/<name>/ of --save-state (src/cli/save_method.c): manifest.json, proj_W.npy
 * (its feature map's draw), G, Q, W, eigvals (ridge), aug_rows/aug_labels/aug_weights (row space,
 * as the augmenter emitted them), pred.npy. */
int rp_save_method(const char *dir, en_engine *e, const en_problem *p, int m);
/* params.json text (also used as figure/session metadata); returns a malloc'd string. */
char *rp_params_json(const en_problem *p, const op_opts *o);

#endif
