/* base/stop.c — SIGINT and SIGTERM end a command within a second, outputs removed (gs_stop.h). */
#include "gs_stop.h"
#include "gs_common.h"
#include "gs_io.h"

#include <errno.h>
#include <stdatomic.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t g_sig, g_count;
static atomic_flag g_said = ATOMIC_FLAG_INIT; /* "interrupted" was said (once, by whoever first) */
static volatile int *g_cancel;
static int g_grace_ms;
static sem_t g_wake;
static int g_watching; /* the watchdog thread runs */

int sg_say(void) { return !atomic_flag_test_and_set(&g_said); }

static void say_and_exit(int sig)
{
    static const char msg[] = "gsrscope: interrupted\n";
    if (sg_say()) {
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
    }
    _exit(128 + sig);
}

static void on_signal(int sig)
{
    if (!g_sig) g_sig = sig;
    g_count++;
    if (g_cancel) *g_cancel = 1;
    if (g_watching) sem_post(&g_wake); /* async-signal-safe */
    else { io_abandon(); say_and_exit(sig); }
}

static void *watchdog(void *arg)
{
    (void)arg;
    while (sem_wait(&g_wake) != 0 && errno == EINTR) {}
    /* the command has grace_ms to end by itself; a second signal ends it now */
    struct timespec step = {0, 20 * 1000000L};
    for (int waited = 0; waited < g_grace_ms && g_count < 2; waited += 20) nanosleep(&step, NULL);
    io_abandon(); /* blocks while an output set is being renamed into place */
    say_and_exit(g_sig ? (int)g_sig : SIGINT);
    return NULL;
}

int sg_install(volatile int *cancel, int grace_ms)
{
    g_cancel = cancel;
    g_grace_ms = grace_ms > 0 ? grace_ms : 0;
    int st = GS_OK;
    if (!g_watching && sem_init(&g_wake, 0, 0) == 0) {
        pthread_t th;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&at, 64 * 1024);
        /* the watchdog must not take the signals itself: it is their reader */
        sigset_t block, old;
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &block, &old);
        if (pthread_create(&th, &at, watchdog, NULL) == 0) g_watching = 1;
        else st = gs_error(GS_ERUN, "cannot start the signal watchdog: out of memory");
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        pthread_attr_destroy(&at);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return st;
}

int sg_signal(void) { return (int)g_sig; }
