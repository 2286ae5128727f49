/* gs_preset.h — named parameter presets, read from assets/presets/NAME (prefix ps_).
 *
 * A preset file is UTF-8 text: '#' comments, blank lines, and name=value lines. `title=` is
 * the one line shown when the preset is applied; every other name is applied with op_set
 * (gs_opts.h), so values go through the same validation as the command line. The files are
 * found through gs_assets.h (assets/ in the source tree, $(PREFIX)/share/gsrscope installed).
 *   paper      the paper's defaults (appendix C.3): α_base 0.6, ξ 5e-3, β 1, τ 0.01
 *   teaching   τ = 10, β = 10: GACL's tail collapses, GSR's does not (bundled sample)
 *   reference  the reference code's configuration: --expand 5000 with its ridge 1e4
 * A missing or broken file is GS_EINPUT naming the file (and the line).
 * Ownership: presets are loaded once into a static table; nothing to free.
 */
#ifndef GS_PRESET_H
#define GS_PRESET_H

#include "gs_assets.h"
#include "gs_opts.h"

#define PS_MAX_PRESETS 32
#define PS_MAX_ASSIGN 24

typedef struct {
    char name[AS_MAX_NAME];              /* the file name: "paper", "teaching", ... */
    char title[160];                     /* one line for the status bar */
    char path[512];                      /* the file, for messages */
    char assign[PS_MAX_ASSIGN][128];     /* "tau=0.01", ... */
    int lines[PS_MAX_ASSIGN];            /* line of each assignment in the file */
    int n_assign;
} ps_preset;

/* Number of presets in assets/presets (0 when there are none or they cannot be read). */
int ps_count(void);
/* Preset i in name order, loaded; NULL when out of range or broken (error set). */
const ps_preset *ps_get(int i);
/* Index of the preset called name, or -1. */
int ps_find(const char *name);
/* "paper, reference, teaching" for messages. */
const char *ps_list(void);
/* Load one preset file by name (a name not in the list is an error listing the known ones). */
int ps_load(const char *name, ps_preset *out);
/* Apply a preset onto o. GS_OK, or GS_EINPUT naming the file, the line and the problem. */
int ps_apply(const ps_preset *p, op_opts *o);
/* Load and apply. "--preset: unknown preset 'x' (known: ...)" for an unknown name. */
int ps_apply_name(const char *name, op_opts *o);

#endif
