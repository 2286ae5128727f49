/* cli/per_method.c — each method's own parameters: --tuned FILE and --set METHOD.KEY=VALUE
 * (gs_tuned.h) checked against the command's methods (cli_int.h). */
#include "cli_int.h"
#include "gs_common.h"
#include "gs_tuned.h"

#include <stdio.h>
#include <string.h>

static int same_method(const en_method *a, const en_method *b) { return a->L == b->L && a->A == b->A; }

int cli_method_params(const op_opts *o, op_params *q, int say)
{
    for (int m = 0; m < o->n_methods; m++) q[m] = o->params;
    if (!o->tuned && o->n_sets == 0) return GS_OK;
    tu_list l;
    int rc = tu_read(&l, o->tuned, o->sets, o->n_sets);
    if (rc) return rc;
    en_method run[OP_MAX_METHODS];
    for (int m = 0; m < o->n_methods; m++)
        if (mt_parse(o->methods[m], &run[m])) { tu_free(&l); return GS_EINPUT; } /* mt_unknown's message */
    char unused[512] = "";
    for (int i = 0; i < l.n && !rc; i++) {
        const tu_entry *e = &l.e[i];
        en_method em;
        if (!mt_known(e->method)) {
            mt_unknown(e->method);
            char why[512];
            const char *msg = gs_last_error();
            snprintf(why, sizeof why, "%s", strncmp(msg, "--methods: ", 11) ? msg : msg + 11);
            rc = gs_error(GS_EINPUT, "%s: %s: %s", e->where, e->what, why);
            break;
        }
        mt_parse(e->method, &em);
        if (!(en_method_deps(&em) & e->row->dep)) {
            rc = gs_error(GS_EINPUT, "%s: %s: %s does not use %s", e->where, e->what, e->method, pa_key(e->row));
            break;
        }
        int found = 0;
        for (int m = 0; m < o->n_methods; m++)
            if (same_method(&em, &run[m])) { pa_put_params(&q[m], e->row, e->value); found = 1; }
        char pad[600], key[64];
        snprintf(pad, sizeof pad, ", %s, ", unused);
        snprintf(key, sizeof key, ", %s, ", e->method);
        if (!found && !strstr(pad, key)) {
            size_t L = strlen(unused);
            snprintf(unused + L, sizeof unused - L, "%s%s", L ? ", " : "", e->method);
        }
    }
    if (!rc && say && unused[0])
        fprintf(stderr, "gsrscope: %s: values for %s left out (not in --methods)\n", o->tuned ? o->tuned : "--set", unused);
    tu_free(&l);
    return rc;
}
