/* gs_preset.h — named parameter presets for the TUI and `--preset NAME` (prefix ps_).
 *
 * A preset is a list of "name=value" assignments applied with op_set (gs_opts.h), so every
 * value goes through the same validation as the command line.
 *   paper     the paper's defaults (appendix C.3): α_base 0.6, ξ 5e-3, β 1, τ 0.01
 *   teaching  values chosen by measuring `gsrscope run` on the bundled data so that the tail
 *             collapse under GACL and its repair by GSR are plain to see
 * Ownership: presets are static; nothing to free.
 */
#ifndef GS_PRESET_H
#define GS_PRESET_H

#include "gs_opts.h"

#define PS_MAX_ASSIGN 12

typedef struct {
    const char *name;                    /* "paper", "teaching" */
    const char *title;                   /* one line for the status bar */
    const char *assign[PS_MAX_ASSIGN];   /* "tau=0.01", ...; NULL-terminated */
} ps_preset;

int ps_count(void);
const ps_preset *ps_get(int i);          /* NULL when out of range */
/* Index of the preset called name, or -1. */
int ps_find(const char *name);
/* "paper, teaching" for messages. */
const char *ps_list(void);
/* Apply a preset onto o. GS_OK, or GS_EINPUT naming the preset and the assignment. */
int ps_apply(const ps_preset *p, op_opts *o);
/* Look a name up and apply it; unknown names give "--preset: unknown preset 'x' (known: ...)". */
int ps_apply_name(const char *name, op_opts *o);

#endif
