/* cli/progress.c — the progress line of run, table, sweep, tune and export on stderr (cli_int.h). */
#include "cli_int.h"
#include "gs_common.h"

#include <stdio.h>
#include <unistd.h>

void pg_init(pg_state *p, const char *cmd, long total, int quiet)
{
    p->cmd = cmd;
    p->quiet = quiet;
    p->tty = !quiet && isatty(2);
    p->done = 0;
    p->total = total;
    p->t0 = gs_now();
    p->last = 0;
    p->shown = 0;
    p->nrun = 0;
    p->workers = 1;
    p->busy = 0;
    p->busy_units = 0;
}

double pg_estimate(long done, long total, double mean, const double *age, const double *frac, int nrun, int workers)
{
    if (done <= 0 || done >= total || !(mean >= 0)) return -1;
    double sum = 0, slow = 0;
    for (int i = 0; i < nrun; i++) {
        double f = frac[i] < 0 ? 0 : frac[i] > 1 ? 1 : frac[i];
        double r = f >= 0.02 ? age[i] * (1 - f) / f : (1 - f) * mean;
        sum += r;
        if (r > slow) slow = r;
    }
    long waiting = total - done - nrun;
    if (waiting > 0) sum += (double)waiting * mean;
    double left = sum / (double)(workers > 1 ? workers : 1);
    return left > slow ? left : slow;
}

/* FNV-1a of a label */
static unsigned long long label_id(const char *s)
{
    unsigned long long h = 1469598103934665603ULL;
    for (; s && *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* The item `what` at work, frac of it done: followed (the stalest replaced when PG_RUN are). */
static void track(pg_state *p, const char *what, double frac, double now)
{
    unsigned long long id = label_id(what);
    int i = 0;
    while (i < p->nrun && p->run[i].id != id) i++;
    if (i == p->nrun) {
        if (p->nrun == PG_RUN) {
            i = 0;
            for (int k = 1; k < p->nrun; k++) if (p->run[k].seen < p->run[i].seen) i = k;
        } else p->nrun++;
        p->run[i].id = id;
        p->run[i].t0 = now;
    }
    p->run[i].seen = now;
    p->run[i].frac = frac;
    if (p->nrun > p->workers) p->workers = p->nrun;
}

/* A unit finished: the item that ended (the one named `what`, else the one at 100 %) leaves, its
 * time counted; further units an item's end finishes (a table's engine of several methods) share
 * it (they find no item: the first unit's end removed it). */
static void finish(pg_state *p, const char *what, double now)
{
    unsigned long long id = label_id(what);
    int end = -1;
    for (int i = 0; i < p->nrun && end < 0; i++) if (p->run[i].id == id) end = i;
    for (int i = 0; i < p->nrun && end < 0; i++) if (p->run[i].frac >= 1) end = i;
    if (end >= 0) {
        p->busy += now - p->run[end].t0;
        p->run[end] = p->run[--p->nrun];
    } else if (p->busy_units == 0 && p->busy == 0)
        p->busy = (now - p->t0) * p->workers; /* nothing followed: the time since the start */
    p->busy_units++;
}

/* "about 3 min left" from the work itself (pg_estimate; "" before the first finished unit). */
static void time_left(const pg_state *p, double now, char *b, size_t n)
{
    b[0] = '\0';
    double age[PG_RUN], frac[PG_RUN];
    for (int i = 0; i < p->nrun; i++) { age[i] = now - p->run[i].t0; frac[i] = p->run[i].frac; }
    double mean = p->busy_units > 0 ? p->busy / (double)p->busy_units : 0;
    double left = pg_estimate(p->done, p->total, mean, age, frac, p->nrun, p->workers);
    if (left < 0) return;
    if (left < 90) snprintf(b, n, "about %.0f s left", left);
    else if (left < 5400) snprintf(b, n, "about %.0f min left", left / 60);
    else snprintf(b, n, "about %.1f h left", left / 3600);
}

/* The terminal line (at most ten redraws a second). */
static void draw(pg_state *p, const char *what, double frac, double now)
{
    if (!p->tty) return;
    if (p->shown && now - p->last < 0.1) return;
    p->last = now;
    char left[48];
    time_left(p, now, left, sizeof left);
    fprintf(stderr, "\r%s %ld/%ld done  %s %3.0f%%  %s\033[K", p->cmd, p->done, p->total, what ? what : "",
            100 * frac, left);
    fflush(stderr);
    p->shown = 1;
}

void pg_work(pg_state *p, const char *what, double frac)
{
    double now = gs_now();
    track(p, what, frac, now);
    draw(p, what, frac, now);
}

void pg_done(pg_state *p, const char *what)
{
    double now = gs_now();
    finish(p, what, now);
    p->done++;
    if (p->quiet) return;
    if (p->tty) {
        p->shown = 0; /* redraw now */
        draw(p, what, 1, now);
        return;
    }
    char left[48];
    time_left(p, now, left, sizeof left);
    fprintf(stderr, "gsrscope: %s %ld/%ld %s done (%.1f s%s%s)\n", p->cmd, p->done, p->total, what ? what : "",
            now - p->t0, left[0] ? "; " : "", left);
    fflush(stderr);
}

void pg_clear(pg_state *p)
{
    if (!p->tty || !p->shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->shown = 0;
}

void pg_engine_cb(double fraction, const char *what, void *user)
{
    pg_unit *u = user;
    pg_work(u->p, u->what ? u->what : what, fraction);
}
