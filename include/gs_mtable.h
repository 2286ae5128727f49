/* gs_mtable.h — the method table: every learner and augmenter as one row, and the names of
 * --methods resolved from it (prefix mt_).
 *
 * A method is LEARNER[+AUGMENTER]. Each learner (gs_learner.h, en_learner) and each augmenter
 * (gs_methods.h, en_augmenter) is one row of the table in src/methods/table.c: the struct its
 * file defines, which carries its name, display name, chart letter, help line, the parameters it
 * reads (EN_DEP_*) and its hooks. Everything that shows or parses a method reads the rows:
 * --methods (mt_resolve: names reach the engine as resolved pairs, en_config.method), --help's
 * "Methods:" section (mt_help), display names (mt_display_name: tables, figures, the TUI,
 * claims), chart letters (mt_letter), which parameters act on a method (mt_uses), and the one
 * "unknown method" message (mt_unknown).
 *
 * Aliases: an augmenter's name alone is gacl with it (gsr = gacl+gsr).
 *
 * Above the engine (it hands the engine learners and augmenters), below every front end.
 */
#ifndef GS_MTABLE_H
#define GS_MTABLE_H

#include <stddef.h>
#include "gs_engine.h"
#include "gs_learner.h"
#include "gs_methods.h"

/* The rows, in the order --help lists them; n set to their count (the extra rows added for tests
 * included). */
const en_learner *const *mt_learners(int *n);
const en_augmenter *const *mt_augmenters(int *n);
/* Tests only: one more row, as if listed in the table (a throwaway learner or augmenter), until
 * mt_test_rows_clear. GS_OK, or GS_EINPUT when the name is taken or the few extra slots are full. */
int mt_test_add_learner(const en_learner *L);
int mt_test_add_augmenter(const en_augmenter *A);
void mt_test_rows_clear(void);

/* The row named `name` (NULL if none). */
const en_learner *mt_learner(const char *name);
const en_augmenter *mt_augmenter(const char *name);

/* A method name LEARNER[+AUGMENTER] or an alias resolved: GS_OK with m->L set and m->A the
 * augmenter or NULL; GS_EINPUT with mt_unknown's message. */
int mt_parse(const char *name, en_method *m);
/* 1 for a name mt_parse accepts (no message set), else 0. */
int mt_known(const char *name);
/* The one "unknown method" refusal: sets the message (naming the rows) and returns GS_EINPUT. */
int mt_unknown(const char *name);
/* cfg->method[m] for each of cfg->methods[m] (mt_parse): GS_OK, or the first unknown name's
 * refusal. Whoever builds an en_config calls it before the engine sees it. */
int mt_resolve(en_config *cfg);

/* The method's one display name into out: a learner's display name ("GACL"), an alias's augmenter
 * ("GSR" for gsr), LEARNER+AUGMENTER as "AnaCP + GSR"; an unknown name as given. */
void mt_display_name(const char *name, char *out, size_t n);
/* The chart letter of a row's name (a learner alone, or an augmenter's alias: gsr is 'R'); 0 for
 * LEARNER+AUGMENTER and unknown names (the chart picks one from its style slot). */
char mt_letter(const char *name);
/* 1 if the method's results depend on the parameter `param` (a row name of gs_params.h: "tau",
 * "beta", ...; en_method_deps), else 0 (also for unknown names and the stream's parameters). */
int mt_uses(const char *method, const char *param);
/* --help's "Methods:" section (from the rows; op_usage prints it). */
const char *mt_help(void);

#endif
