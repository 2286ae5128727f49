/* gs_cli.h — the subcommands (src/cli/, one file each) and what wraps them (prefix cli_).
 *
 * main.c's table names each subcommand and the function in src/cli/ that runs it; every
 * function takes the parsed options and returns the process's exit status (0 done, 1 some task
 * failed, 2 bad input, 128 + N on signal N). cli_call wraps a headless command: signals, its output paths
 * checked before any work, its files committed together at its end (gs_io.h io_set_begin).
 */
#ifndef GS_CLI_H
#define GS_CLI_H

#include "gs_opts.h"

/* A subcommand's function (op_command.fn): one file each in src/cli/, declared beside its row in
 * main.c's table. */
typedef int (*cli_fn)(op_opts *o);

/* Flags of a command (main.c's table). */
#define CLI_INTERACTIVE 2u  /* the TUI: called as is, outside cli_call (its own signals, no output set) */
#define CLI_STOP_AT_ONCE 1u /* SIGINT/SIGTERM end the process at once (the command polls no
                             * cancel flag and writes only stdout, at its end) */

/* Run fn as a headless command: the signal handlers (flags), the outputs check, the output set
 * (io_set_begin .. io_set_end: kept only when fn returned below 128 without cli_fail). */
int cli_call(cli_fn fn, op_opts *o, unsigned flags);

/* The one error ending of every command: "gsrscope: <gs_last_error()>" on stderr, the command's
 * outputs marked to be dropped; returns gs_exit_code(rc). */
int cli_fail(int rc);

#endif
