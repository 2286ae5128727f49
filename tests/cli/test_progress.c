/* test_progress.c — the progress line's time left (pg_estimate, cli/progress.c) fed synthetic
 * progress: units of known durations scheduled on W workers after a start-up delay (data loading),
 * sampled at many moments; the estimate from the finished units' mean and the running units'
 * fractions is compared with the true time to the end (uniform units: exact), and with the
 * former rule (elapsed since the start / units done × units left), which the delay misleads. */
#include "../../src/cli/cli_int.h"
#include "support/tap.h"

#include <math.h>

enum { MAXU = 64 };

/* A schedule: unit i starts on the first free worker at start[i] (in order) and ends at end[i]. */
typedef struct { int n, w; double start[MAXU], end[MAXU], makespan; } sched;

static void plan(sched *s, int n, int w, double delay, const double *dur)
{
    double free_at[8];
    s->n = n; s->w = w; s->makespan = 0;
    for (int k = 0; k < w; k++) free_at[k] = delay;
    for (int i = 0; i < n; i++) {
        int k = 0;
        for (int j = 1; j < w; j++) if (free_at[j] < free_at[k]) k = j;
        s->start[i] = free_at[k];
        s->end[i] = free_at[k] = s->start[i] + dur[i];
        if (s->end[i] > s->makespan) s->makespan = s->end[i];
    }
}

/* What the progress line knows at time t: units done, the finished units' mean time, the running
 * units' ages and fractions; returns the estimate (-1 unknown); *old the former rule's. */
static double at(const sched *s, double t0, double t, double *old)
{
    long done = 0;
    double busy = 0, age[MAXU], frac[MAXU];
    int nrun = 0;
    for (int i = 0; i < s->n; i++) {
        if (s->end[i] <= t) { done++; busy += s->end[i] - s->start[i]; }
        else if (s->start[i] <= t) {
            age[nrun] = t - s->start[i];
            frac[nrun++] = (t - s->start[i]) / (s->end[i] - s->start[i]);
        }
    }
    *old = done > 0 && done < s->n ? (t - t0) / (double)done * (double)(s->n - done) : -1;
    return pg_estimate(done, s->n, done ? busy / (double)done : 0, age, frac, nrun, s->w);
}

int main(void)
{
    double dur[MAXU];
    sched s;

    /* one worker, ten 10-s units after 100 s of loading: exact at every moment after the first unit */
    for (int i = 0; i < 10; i++) dur[i] = 10;
    plan(&s, 10, 1, 100, dur);
    double worst = 0, old_first = 0, old;
    for (double t = 110.5; t < s.makespan; t += 3.7) {
        double e = at(&s, 0, t, &old);
        if (t < 111) old_first = old;
        worst = fmax(worst, fabs(e - (s.makespan - t)));
    }
    CHECK(worst < 1e-9, "serial uniform units: the estimate is the time left (worst error %g s)", worst);
    CHECK(old_first > 5 * (s.makespan - 110.5), "the former rule at the first unit said %.0f s for %.0f s (loading counted)",
          old_first, s.makespan - 110.5);
    CHECK(at(&s, 0, 105, &old) < 0, "before the first unit finishes: no estimate");
    CHECK(at(&s, 0, s.makespan + 1, &old) < 0, "after the last unit: no estimate");

    /* two workers, twenty 30-s units, 20 s of loading: exact while both work (list scheduling of
     * equal units) */
    for (int i = 0; i < 20; i++) dur[i] = 30;
    plan(&s, 20, 2, 20, dur);
    worst = 0;
    for (double t = 51; t < s.makespan; t += 7.3) worst = fmax(worst, fabs(at(&s, 0, t, &old) - (s.makespan - t)));
    CHECK(worst < 1e-9, "two workers, uniform units: the estimate is the time left (worst error %g s)", worst);

    /* the running units' own rates: one unit at 2 % of 1000 s, the rest done: ~980 s, not the mean's */
    double a1[1] = {20}, f1[1] = {0.02};
    double e = pg_estimate(9, 10, 10, a1, f1, 1, 1);
    CHECK(fabs(e - 980) < 1e-9, "a slow running unit at its own rate: %.1f s (980)", e);
    /* never less than the slowest running unit, whatever the workers */
    double a2[2] = {10, 10}, f2[2] = {0.5, 0.1};
    e = pg_estimate(4, 6, 10, a2, f2, 2, 2);
    CHECK(fabs(e - 90) < 1e-9, "the slowest running unit bounds it: %.1f s (90)", e);

    /* units of mixed lengths on two workers, the longest first (as table orders them: 4 × 60 s
     * then 12 × 10 s, 15 s of loading): the mean of the first units overstates the rest, but the
     * estimate is never further from the time left than the former rule */
    for (int i = 0; i < 16; i++) dur[i] = i < 4 ? 60 : 10;
    plan(&s, 16, 2, 15, dur);
    int worse = 0, n = 0;
    for (double t = 76; t < s.makespan - 1; t += 2.9, n++) {
        double left = s.makespan - t, e2 = at(&s, 0, t, &old);
        if (fabs(e2 - left) > fabs(old - left) + 1e-9) worse++;
    }
    CHECK(n > 20 && worse == 0, "mixed lengths: worse than the former rule at %d of %d moments", worse, n);
    return tap_done();
}
