/* test_pipeline.c — the methods grouped by their own values (pl_group, gs_pipeline.h): methods
 * agreeing on every parameter both use share a group whatever the others' values, each group's
 * values are its members'; and pl_results_merge puts each group's results back in method order. */
#include <stdlib.h>
#include <string.h>

#include "gs_common.h"
#include "gs_mtable.h"
#include "gs_opts.h"
#include "gs_pipeline.h"
#include "support/tap.h"

/* cfg of the comma-separated names (resolved); names point into buf. */
static void config(en_config *cfg, char *buf, const char **names)
{
    memset(cfg, 0, sizeof *cfg);
    int n = 0;
    for (char *s = strtok(buf, ","); s; s = strtok(NULL, ",")) names[n++] = s;
    cfg->methods = names;
    cfg->n_methods = n;
    CHECK(mt_resolve(cfg) == GS_OK, "methods resolved");
}

int main(void)
{
    op_opts o;
    op_defaults(&o);
    static pl_groups g;
    en_config cfg;
    const char *names[OP_MAX_METHODS];
    op_params q[OP_MAX_METHODS];

    /* no values of their own: one group, the global values */
    char b1[] = "gacl,gacl+gsr,ncm,fecam";
    config(&cfg, b1, names);
    for (int m = 0; m < 4; m++) q[m] = o.params;
    pl_group(&g, &cfg, &o.params, q);
    CHECK(g.n == 1 && g.cfg[0].n_methods == 4 && !memcmp(&g.params[0], &o.params, sizeof o.params), "equal values: one group");

    /* gacl τ 2, gacl+gsr τ 3: two groups; ncm (no τ) joins gacl's; fecam α 100 joins too (no one else reads it) */
    q[0].tau = 2;
    q[1].tau = 3;
    q[3].fecam_alpha = 100;
    pl_group(&g, &cfg, &o.params, q);
    CHECK(g.n == 2, "two groups (got %d)", g.n);
    CHECK(g.of[0] == 0 && g.of[1] == 1 && g.of[2] == 0 && g.of[3] == 0, "gacl, ncm, fecam together; gacl+gsr alone");
    CHECK(g.at[0] == 0 && g.at[2] == 1 && g.at[3] == 2 && g.at[1] == 0, "indices in method order");
    CHECK(g.params[0].tau == 2 && g.params[0].fecam_alpha == 100 && g.params[1].tau == 3 && g.params[1].fecam_alpha == o.params.fecam_alpha,
          "each group's values are its members'");
    CHECK(!strcmp(g.cfg[1].methods[0], "gacl+gsr") && g.cfg[1].method[0].A != NULL, "group 1's configuration");

    /* a β only gacl+gsr reads does not split it from gacl at the same τ */
    q[1].tau = 2;
    q[1].beta = 5;
    pl_group(&g, &cfg, &o.params, q);
    CHECK(g.n == 1 && g.params[0].beta == 5 && g.params[0].tau == 2, "β of gacl+gsr alone: one group");

    /* merge: fake results of two groups, put back in method order */
    q[1].tau = 3;
    pl_group(&g, &cfg, &o.params, q);
    en_results parts[2];
    const en_results *pp[2] = {&parts[0], &parts[1]};
    for (int k = 0; k < 2; k++) {
        en_results *r = &parts[k];
        memset(r, 0, sizeof *r);
        r->T = 2;
        r->C = 3;
        r->n_methods = g.cfg[k].n_methods;
        r->params = g.params[k];
        r->m = calloc((size_t)r->n_methods, sizeof *r->m);
        r->is_head = calloc(3, 1);
        r->class_task = calloc(3, sizeof(int));
        r->class_kept = calloc(3, sizeof(long));
        for (int j = 0; j < r->n_methods; j++) {
            snprintf(r->m[j].name, sizeof r->m[j].name, "%s", g.cfg[k].methods[j]);
            r->m[j].a_last = 10 * k + j;
            r->m[j].snaps = calloc(2, sizeof(en_snap));
            r->m[j].snaps[1].acc = 100 + 10 * k + j;
        }
    }
    en_results out;
    CHECK(pl_results_merge(&g, pp, &out) == GS_OK, "merged");
    const char *want[] = {"gacl", "gacl+gsr", "ncm", "fecam"};
    int ok = out.n_methods == 4 && out.T == 2 && out.params.tau == 2;
    for (int m = 0; ok && m < 4; m++)
        ok = !strcmp(out.m[m].name, want[m]) && out.m[m].a_last == 10 * g.of[m] + g.at[m] &&
             out.m[m].snaps[1].acc == 100 + 10 * g.of[m] + g.at[m];
    CHECK(ok, "merged results in method order, each with its own snapshots");
    en_results_free(&out);
    en_results_free(&parts[0]);
    en_results_free(&parts[1]);
    return tap_done();
}
