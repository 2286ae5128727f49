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
}

/* "about 3 min left" from the finished units' mean time ("" before the first one). */
static void time_left(const pg_state *p, double now, char *b, size_t n)
{
    b[0] = '\0';
    if (p->done <= 0 || p->done >= p->total) return;
    double left = (now - p->t0) / (double)p->done * (double)(p->total - p->done);
    if (left < 90) snprintf(b, n, "about %.0f s left", left);
    else if (left < 5400) snprintf(b, n, "about %.0f min left", left / 60);
    else snprintf(b, n, "about %.1f h left", left / 3600);
}

void pg_work(pg_state *p, const char *what, double frac)
{
    if (!p->tty) return;
    double now = gs_now();
    if (p->shown && now - p->last < 0.1) return;
    p->last = now;
    char left[48];
    time_left(p, now, left, sizeof left);
    fprintf(stderr, "\r%s %ld/%ld done  %s %3.0f%%  %s\033[K", p->cmd, p->done, p->total, what ? what : "",
            100 * frac, left);
    fflush(stderr);
    p->shown = 1;
}

void pg_done(pg_state *p, const char *what)
{
    p->done++;
    if (p->quiet) return;
    double now = gs_now();
    if (p->tty) {
        p->shown = 0; /* redraw now */
        pg_work(p, what, 1);
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
