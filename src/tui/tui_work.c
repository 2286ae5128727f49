/* tui/tui_work.c — the worker's two messages to the UI: a wake-up through the self-pipe and the
 * work it names for the status bar (tui_int.h; called by tui_worker.c and tui_lens.c). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "tui_int.h"

void tw_wake(tui_worker *w)
{
    char c = 1;
    ssize_t r = write(w->wake[1], &c, 1);
    (void)r; /* a full pipe already holds a wake-up */
}

/* What the worker computes now, for the status bar: "NAME, task T" and ": DETAIL" when given
 * (task 0: no task). */
void tw_set_work(tui_worker *w, const char *name, int task, const char *detail)
{
    pthread_mutex_lock(&w->mu);
    int L = snprintf(w->work, sizeof w->work, "%s", name);
    if (task > 0 && L > 0 && L < (int)sizeof w->work) L += snprintf(w->work + L, sizeof w->work - (size_t)L, ", task %d", task);
    if (detail && L > 0 && L < (int)sizeof w->work) snprintf(w->work + L, sizeof w->work - (size_t)L, ": %s", detail);
    pthread_mutex_unlock(&w->mu);
    tw_wake(w);
}
