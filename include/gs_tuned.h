/* gs_tuned.h — each method's own parameter values: the file of `run/table/export --tuned FILE`
 * (what `tune ... -o FILE` writes) and `--set METHOD.KEY=VALUE` (prefix tu_).
 *
 * The file is text: '#' starts a comment, blank lines are ignored, and every other line is one
 * value `METHOD.KEY=VALUE`: METHOD a name --methods takes (gacl, gacl+gsr, gsr, fecam, ...), KEY a
 * row of the parameter table (gs_params.h) that lives in op_params and acts on methods, written
 * as sessions write it (pa_key: alpha_base, xi, beta, tau, klda_gamma, fecam_alpha, slda_eps,
 * gauss_a, ...; '-' for '_' is read too), VALUE read and range-checked by the row exactly as the
 * command line reads `--KEY VALUE`. Spaces around the parts are ignored. The --set values come
 * after the file's (a later value of the same METHOD.KEY wins: --set over the file), and both
 * win over the global options (--tau, ...) for their method only.
 * This module reads the syntax, the keys and the values (config/, below the method table); whether
 * METHOD names a method and uses KEY is the command's check (cli/, which resolves the methods:
 * tu_entry keeps where each value came from for its message).
 * Ownership: tu_list owns its entries (tu_free).
 */
#ifndef GS_TUNED_H
#define GS_TUNED_H

#include "gs_params.h"

typedef struct {
    char method[48];        /* as written ("gacl+gsr") */
    const pa_param *row;    /* the key's row (pa_params_off ≥ 0, dep ≠ 0) */
    double value;           /* read and checked by the row */
    char what[112];         /* METHOD.KEY as written, for messages */
    char where[320];        /* "FILE:LINE" or "--set" */
} tu_entry;

typedef struct {
    tu_entry *e;
    int n, cap;
} tu_list;

/* The file (NULL: none), then the n_sets --set arguments, into l (emptied first): GS_OK, or
 * GS_EINPUT with one line naming the file and line (or --set) and what is wrong; GS_ENOMEM. */
int tu_read(tu_list *l, const char *file, const char *const *sets, int n_sets);
void tu_free(tu_list *l);

#endif
