/* gs_table.h — `gsrscope table`: the paper's Table 1 layout (prefix tb_).
 *
 *   gsrscope table [--synthetic] [--sample NAME]... [--data [NAME=]DIR]... [--idx DIR] --methods M1,M2,...
 *                  [--seeds 1,2,3] [--columns a_last,a_avg,head,tail]
 *                  [--format table|csv|json|markdown|latex] [protocol and method options]
 *
 * One row per method, one column group per data source (in the order given; without any, the
 * bundled sample; --data NAME=PATH titles its group NAME), each group A_last, A_avg and the head
 * and tail accuracy on the test rows after the last task (--columns picks and orders them) as
 * mean ± sample std over the seeds (std left out with one seed), and with --val-frac the
 * validation accuracy, head and tail accuracy after the last task next to them. In each column the best mean is bold and the second underlined, comparing the
 * means as printed (two decimals): markdown **…** and <u>…</u>, LaTeX \textbf and \underline
 * (booktabs rules, ready to paste), the plain table marks them * and _, csv and json give the
 * rank (1, 2 or empty/null). The data of a source are loaded once, its stream and problem built
 * once per seed; methods sharing a feature space share an engine (its rows and base Gram), the
 * others get one each; on two or more cores two engines run at once (the largest estimates
 * first, each engine with one worker) while the estimates of the running engines and the open
 * seeds' problems stay within --max-memory, or half the available memory without it (one that
 * no other fits beside runs alone with two workers); GS_THREADS=1 runs them one after another.
 * Engines are lean (en_config.lean_test_rows: RanPAC's mapped rows made as needed). The values do not
 * depend on the schedule. A method's values are those it has alone (no state is shared between
 * methods beyond what the engine shares exactly); when a failing job stops an engine, the methods
 * it left unfinished run again alone, so only a method's own failure counts.
 * A method that fails at some task leaves its cell empty ("—"), the reason goes to stderr and
 * the exit status is 1; a bad source or method name is refused before anything runs (exit 2).
 * Ownership: tb_table points into the caller's arrays; nothing is kept after a call.
 */
#ifndef GS_TABLE_H
#define GS_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "gs_opts.h"

/* The numbers per seed: TB_NTEST test columns (v), TB_NSTAT with the 3 validation ones (val). */
#define TB_NTEST OP_N_COLS
#define TB_NSTAT (TB_NTEST + 3)

typedef struct {
    int n_methods, n_sources, n_seeds;
    const char *const *methods;   /* names as given to --methods */
    const char *const *sources;   /* display names of the sources */
    const uint64_t *seeds;
    /* v[((s * n_methods + m) * n_seeds + k) * 4 + j]: j = OP_COL_*: 0 A_last, 1 A_avg, 2 head and
     * 3 tail accuracy on the test rows after the last task (run's head_acc, tail_acc), in %, NaN
     * if the run failed */
    const double *v;
    /* The test columns of each group in order (OP_COL_*, table --columns); NULL, 0: all four. */
    const int *cols;
    int n_cols;
    /* With a validation split (--val-frac), else NULL: the numbers after the last task on the
     * validation rows, val[((s * n_methods + m) * n_seeds + k) * 3 + j]: j = 0 accuracy, 1 head,
     * 2 tail accuracy (%), NaN if the run failed. They get their own columns (v.acc, v.head,
     * v.tail) in each source's group, after the test ones, with their own best and second. */
    const double *val;
    double val_frac;              /* for the legend */
    /* The values behind the table, or NULL: the options the table ran with (every method's τ, β,
     * α_base, ξ and the parameters its learner and augmenter read, the protocol) and how each
     * source was given (source_from[s], e.g. "--data a/npy"; may be NULL). LaTeX writes them as
     * a % comment block above the table, markdown as an HTML comment below it, the plain table
     * below it, CSV as extra columns (data, profile, rho, seed_list, tau, beta, alpha_base, xi,
     * params, protocol), JSON as "params" {"protocol", "methods"} and "sources" [{name, data}]. */
    const op_opts *o;
    const char *const *source_from;
} tb_table;

/* Write the table in format fmt. GS_OK, or GS_ERUN when the stream cannot be written. */
int tb_write(FILE *f, op_format fmt, const tb_table *t);
/* The paper's name of a method (learner names as in Table 1, "+ GSR" for the augmenter): e.g.
 * "ncm" → "SimpleCIL", "ranpac+gsr" → "RanPAC + GSR"; unknown parts are kept as given. */
void tb_display_name(const char *method, char *out, size_t n);

#endif
