/* chart/style.c — how a method looks: its display name and letter (from its row of the method
 * table, gs_mtable.h), colour, dash and marker, and the style slots of the shown methods (gs_chart.h,
 * chart_int.h). */
#include "chart_int.h"
#include "gs_mtable.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

void ch_display_name(const char *name, char *out, size_t n)
{
    mt_display_name(name, out, n); /* the row's one spelling (gs_mtable.h) */
}

/* ---- styles ----------------------------------------------------------------------------- */

void ch_method_style(const char *name, int slot, uint32_t *rgb, ch_dash *dash, ch_marker *marker,
                     char *letter)
{
    /* Slot 0/1: the GACL / GSR styles of gsrscope(7), FIGURES. Further slots: Tableau colours that stay apart
     * from red and blue, each with its own dash and marker. */
    static const uint32_t more_rgb[] = {0xf28e2b, 0x59a14f, 0xb07aa1, 0x9c755f, 0x76b7b2, 0xedc948};
    static const ch_dash more_dash[] = {CH_DASH_DOTTED, CH_DASH_DASHED, CH_DASH_SOLID};
    static const ch_marker more_mark[] = {CH_MARK_TRIANGLE, CH_MARK_DIAMOND, CH_MARK_CROSS};
    uint32_t c;
    ch_dash d;
    ch_marker m;
    char l = 0;
    if (slot <= 0) {
        c = 0xe15759; d = CH_DASH_DASHED; m = CH_MARK_CIRCLE; l = 'A';
    } else if (slot == 1) {
        c = 0x4e79a7; d = CH_DASH_SOLID; m = CH_MARK_SQUARE; l = 'R';
    } else {
        int k = slot - 2;
        c = more_rgb[k % 6]; d = more_dash[k % 3]; m = more_mark[k % 3];
    }
    /* The letter names the method when it is a row of the method table, so "GSR" is always 'R'. */
    if (name) {
        char row = mt_letter(name);
        if (row) l = row;
        else if (slot >= 2) {
            for (const char *p = name; *p; p++)
                if (isalnum((unsigned char)*p)) { l = (char)toupper((unsigned char)*p); break; }
        }
    }
    if (!l) l = (char)('0' + (slot % 10));
    if (rgb) *rgb = c;
    if (dash) *dash = d;
    if (marker) *marker = m;
    if (letter) *letter = l;
}

/* Style slots for the shown methods: "gacl" always gets the GACL style (0) and "gsr" the GSR
 * style (1), whatever their position; other methods take the slot left free, so the two
 * curves of a view never share a style. */
void ch_style_slots(const en_results *r, const int *ms, int nm, int *sl)
{
    int named[2] = {-1, -1};
    for (int i = 0; i < nm; i++) {
        if (strcmp(r->m[ms[i]].name, "gacl") == 0) named[i] = 0;
        else if (strcmp(r->m[ms[i]].name, "gsr") == 0) named[i] = 1;
    }
    for (int i = 0; i < nm; i++) {
        int other = nm == 2 ? named[1 - i] : -1;
        sl[i] = named[i] >= 0 ? named[i] : other == 0 ? 1 : other == 1 ? 0 : i;
    }
    if (nm == 2 && sl[0] == sl[1]) sl[1] = 2;
}

/* Slots for two method names: "gacl" -> GACL style, "gsr" -> GSR style, others what is free. */
void ch_name_slots(const char *n0, const char *n1, int *sl)
{
    const char *nm[2] = {n0, n1};
    int named[2] = {-1, -1}, cnt = n1 ? 2 : 1;
    for (int i = 0; i < cnt; i++) {
        if (strcmp(nm[i], "gacl") == 0) named[i] = 0;
        else if (strcmp(nm[i], "gsr") == 0) named[i] = 1;
    }
    for (int i = 0; i < cnt; i++) {
        int other = cnt == 2 ? named[1 - i] : -1;
        sl[i] = named[i] >= 0 ? named[i] : other == 0 ? 1 : other == 1 ? 0 : i;
    }
    if (cnt == 2 && sl[0] == sl[1]) sl[1] = 2;
}
