/* gs_json.h — the one JSON string writer (prefix json_): every JSON gsrscope writes (run's and
 * tune's reports, table, sweep, params.json of --save-state) quotes its strings here.
 *
 * Escaping: '"' and '\' get a backslash; control characters (below 0x20, and DEL) are written
 * \u00XX; valid UTF-8 passes through as its bytes; a byte that does not begin or continue a
 * valid UTF-8 sequence (a stray continuation byte, an overlong form, a surrogate, a code point
 * above U+10FFFF, a cut sequence) is written \ufffd, so the output is always valid JSON.
 */
#ifndef GS_JSON_H
#define GS_JSON_H

#include <stdio.h>

/* Write s as a quoted JSON string ("" for NULL). */
void json_str(FILE *f, const char *s);

#endif
