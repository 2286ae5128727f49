/* gs_stop.h — SIGINT and SIGTERM stop a command within a second, leaving none of its outputs
 * (prefix sg_).
 *
 * sg_install sets the handlers: a signal sets *cancel (the flag the engine and the loaders poll)
 * and wakes a watchdog thread. A command that polls ends by itself (exit 130/143, its outputs
 * dropped by its caller); one busy where nothing polls (a BLAS call, a library, a blocked write)
 * is ended by the watchdog after `grace_ms`: the temporary files of every output being written
 * and of the open output set are removed (gs_io.h: io_abandon), "gsrscope: interrupted" is said
 * and the process exits 128 + the signal. A second signal ends it at once the same way.
 * Ownership: process-wide, for the headless commands (the TUI has its own handlers).
 */
#ifndef GS_STOP_H
#define GS_STOP_H

/* Install the handlers; `cancel` is set to 1 by a signal (may be NULL). GS_OK, or GS_ERUN when
 * the watchdog thread cannot start (the handlers then end the process at once). */
int sg_install(volatile int *cancel, int grace_ms);
/* The signal received (SIGINT, SIGTERM), or 0. */
int sg_signal(void);
/* 1 the first time it is called (async-signal-safe): whoever says "gsrscope: interrupted" asks
 * first, so it is said once. */
int sg_say(void);

#endif
