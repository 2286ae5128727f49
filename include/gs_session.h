/* gs_session.h — TUI session files: parameters, protocol, methods and data paths (prefix ss_).
 *
 * Format (UTF-8 text, one assignment per line, written atomically through gs_io.h):
 *     # gsrscope session 1
 *     alpha_base=0.6
 *     ...
 *     train_features=/path/with = and spaces.npy
 *     end
 * The first line must be the header; blank lines and lines starting with '#' are ignored;
 * every other line is name=value (the value is everything after the first '='); each name at
 * most once; the file must end with the line "end" (a truncated file is refused).
 * Parameter and protocol names go through op_set (gs_opts.h), so they are validated exactly
 * like command-line options; data names (synthetic, data_dir, idx_dir, train_features,
 * train_labels, test_features, test_labels, label_col, no_normalize) and methods are handled
 * here. Errors read "FILE: line N: problem".
 * Ownership: strings a loaded session puts into op_opts (paths, method names) live in the
 * ss_store passed to ss_load; keep it alive as long as the op_opts is used, then ss_store_free.
 */
#ifndef GS_SESSION_H
#define GS_SESSION_H

#include <stddef.h>
#include "gs_opts.h"

#define SS_HEADER "# gsrscope session 1"
#define SS_MAX_STRINGS 32
#define SS_MAX_LINE 4096
#define SS_MAX_BYTES (1 << 20) /* a whole session file: larger is refused (not a session) */

typedef struct {
    char *s[SS_MAX_STRINGS];
    int n;
} ss_store;

/* Write the session of o to path atomically. GS_OK, GS_EINPUT (a path holds a newline),
 * GS_ERUN (write failed; an earlier file is left untouched). */
int ss_save(const char *path, const op_opts *o);
/* Read path onto o (values not in the file keep their current value). On error o may be
 * partly updated: load into a copy when that matters. GS_OK, GS_EINPUT, GS_ENOMEM. */
int ss_load(const char *path, op_opts *o, ss_store *store);
/* Same as ss_load for a session held in memory (buf, len bytes); `name` stands for the file in
 * messages. Used by the fuzz target (fuzz/fuzz_session.c). */
int ss_parse(const char *name, const char *buf, size_t len, op_opts *o, ss_store *store);
void ss_store_free(ss_store *store);

#endif
