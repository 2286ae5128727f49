/* test_tui_params.c — the TUI's parameters panel (src/tui/tui_params.c, gs_tui.h): each row's
 * steps and range (β, τ, ξ over 1, 2, 5, 10, ...; α_base by 0.05; the seed by 1), which
 * parameters act on the run's methods, their names and formatting. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gs_canvas.h"
#include "gs_common.h"
#include "gs_tui.h"
#include "support/tap.h"

/* The panel's steps (the parameter table's rows, gs_params.h): β, τ and ξ over 1, 2, 5, 10, ...,
 * α_base by 0.05, the seed by 1, each kept in its valid range. */
static void test_params(void)
{
    const tui_param TAU = tui_param_find("tau"), XI = tui_param_find("xi"), BETA = tui_param_find("beta"),
                    ALPHA = tui_param_find("alpha_base"), SEED = tui_param_find("seed");
    CHECK(TAU >= 0 && XI >= 0 && BETA >= 0 && ALPHA >= 0 && SEED >= 0 && tui_param_count() == 5 &&
          tui_param_find("max-aug") < 0, "the panel holds α_base, ξ, β, τ and the seed");
    op_params p = {.alpha_base = 0.6, .xi = 5e-3, .beta = 1, .tau = 0.01, .seed = 1};
    static const double up[] = {0.02, 0.05, 0.1, 0.2};
    int ok = 1;
    for (int i = 0; i < 4; i++) { tui_param_step(&p, TAU, +1); ok &= p.tau == up[i]; }
    CHECK(ok, "τ 0.01 → 0.02 → 0.05 → 0.1 → 0.2 (round values, exactly as their decimal text)");
    for (int i = 0; i < 4; i++) tui_param_step(&p, TAU, -1);
    CHECK(p.tau == 0.01, "τ back to 0.01");
    p.tau = 0;
    CHECK(tui_param_step(&p, TAU, +1) && p.tau == 1e-6, "τ from 0 goes to 1e-6");
    CHECK(tui_param_step(&p, TAU, -1) && p.tau == 0, "τ below 1e-6 goes to 0");
    CHECK(!tui_param_step(&p, TAU, -1) && p.tau == 0, "τ stays at 0");
    p.tau = 9e11;
    tui_param_step(&p, TAU, +1);
    CHECK(p.tau == 1e12 && !tui_param_step(&p, TAU, +1), "τ stops at 1e12, the end of its range");
    p.tau = 3e-3;
    tui_param_step(&p, TAU, +1);
    CHECK(p.tau == 5e-3, "τ between round values: up to the next one (0.003 → 0.005)");
    /* which parameters act on the run's methods: the panel refuses a change that acts on none */
    const char *const anacp[] = {"anacp", "anacp+gsr"}, *const solo[] = {"anacp"}, *const mix[] = {"anacp", "gacl"};
    CHECK(!tui_param_acts(TAU, anacp, 2) && tui_param_acts(BETA, anacp, 2) && tui_param_acts(XI, anacp, 2) &&
          tui_param_acts(ALPHA, anacp, 2) && tui_param_acts(SEED, anacp, 2),
          "anacp, anacp+gsr: τ acts on neither (AnaCP's ridge is fixed); β, ξ, α_base (GSR's) and the seed act");
    CHECK(!tui_param_acts(TAU, solo, 1) && !tui_param_acts(BETA, solo, 1) && !tui_param_acts(XI, solo, 1) &&
          tui_param_acts(SEED, solo, 1), "anacp alone: only the seed acts");
    CHECK(tui_param_acts(TAU, mix, 2), "anacp with gacl: τ acts (gacl's ridge)");
    p.beta = 10;
    tui_param_step(&p, BETA, +1);
    CHECK(p.beta == 20, "β 10 → 20 (not 10.1)");
    tui_param_step(&p, BETA, -1);
    tui_param_step(&p, BETA, -1);
    CHECK(p.beta == 5, "β 20 → 10 → 5");
    p.beta = 0;
    CHECK(!tui_param_step(&p, BETA, -1) && p.beta == 0, "β ≥ 0");
    p.xi = 1000;
    CHECK(!tui_param_step(&p, XI, +1) && p.xi == 1000, "ξ stops at 1000");
    p.xi = 5e-3;
    tui_param_step(&p, XI, -1);
    CHECK(p.xi == 2e-3, "ξ 0.005 → 0.002");
    p.alpha_base = 1;
    CHECK(!tui_param_step(&p, ALPHA, +1), "α_base stops at 1");
    tui_param_step(&p, ALPHA, -1);
    CHECK_NEAR(p.alpha_base, 0.95, 1e-12, "α_base - 0.05");
    p.alpha_base = 0.05;
    CHECK(!tui_param_step(&p, ALPHA, -1) && p.alpha_base > 0, "α_base stays > 0");
    p.seed = 1;
    CHECK(!tui_param_step(&p, SEED, -1) && p.seed == 1, "seed ≥ 1");
    CHECK(tui_param_step(&p, SEED, +1) && p.seed == 2, "seed + 1");
    char b[32];
    tui_param_format(XI, 5e-3, b, sizeof b);
    CHECK(!strcmp(b, "0.005"), "format ξ: %s", b);
    tui_param_format(TAU, 1e-6, b, sizeof b);
    CHECK(!strcmp(b, "1e-06"), "format τ: %s", b);
    CHECK(!strcmp(tui_param_label(ALPHA), "α_base") && !strcmp(tui_param_name(TAU), "tau"), "names");
}

int main(void)
{
    test_params();
    return tap_done();
}
