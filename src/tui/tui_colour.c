/* tui/tui_colour.c — the figures' colours on a 256-colour terminal: the nearest entry of the
 * xterm palette (tui_int.h). Pure: no curses. */
#include <stdlib.h>

#include "tui_int.h"

/* The xterm colour cube's levels (indices 16..231: 16 + 36 r + 6 g + b) and the grey ramp
 * (232..255: 8 + 10 i). */
static const int CUBE[6] = {0, 95, 135, 175, 215, 255};

static int cube_level(int v)
{
    int best = 0;
    for (int i = 1; i < 6; i++)
        if (abs(CUBE[i] - v) < abs(CUBE[best] - v)) best = i;
    return best;
}

static long dist2(int r, int g, int b, int r2, int g2, int b2)
{
    return (long)(r - r2) * (r - r2) + (long)(g - g2) * (g - g2) + (long)(b - b2) * (b - b2);
}

void tui_xterm_rgb(int idx, int *r, int *g, int *b)
{
    if (idx >= 232 && idx <= 255) { *r = *g = *b = 8 + 10 * (idx - 232); return; }
    if (idx < 16 || idx > 255) { *r = *g = *b = 0; return; }
    idx -= 16;
    *r = CUBE[idx / 36];
    *g = CUBE[(idx / 6) % 6];
    *b = CUBE[idx % 6];
}

int tui_rgb_to_256(uint32_t rgb)
{
    int r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
    /* each channel to its nearest cube level (the levels are not evenly spaced: 0, 95, 135, …) */
    int ri = cube_level(r), gi = cube_level(g), bi = cube_level(b);
    int best = 16 + 36 * ri + 6 * gi + bi;
    long bd = dist2(r, g, b, CUBE[ri], CUBE[gi], CUBE[bi]);
    /* or the nearest grey of the ramp, when closer */
    int mean = (r + g + b) / 3, gi2 = (mean - 8 + 5) / 10;
    if (gi2 < 0) gi2 = 0;
    if (gi2 > 23) gi2 = 23;
    int gv = 8 + 10 * gi2;
    if (dist2(r, g, b, gv, gv, gv) < bd) best = 232 + gi2;
    return best;
}
