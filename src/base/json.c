/* base/json.c — the one JSON string writer: quoting and escaping (gs_json.h). */
#include "gs_json.h"

#include <stddef.h>

/* The length of the valid UTF-8 sequence at s (2 to 4), or 0 when s does not start one. */
static int utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    int n;
    unsigned min;
    if (c >= 0xC2 && c <= 0xDF) n = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, min = 0x10000;
    else return 0;
    unsigned cp = c & (0x7Fu >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0; /* also stops at the terminating 0 */
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        unsigned c = *p;
        if (c == '"' || c == '\\') { fputc('\\', f); fputc((int)c, f); p++; }
        else if (c < 0x20 || c == 0x7F) { fprintf(f, "\\u%04x", c); p++; }
        else if (c < 0x80) { fputc((int)c, f); p++; }
        else {
            int n = utf8_len(p);
            if (n) { fwrite(p, 1, (size_t)n, f); p += n; }
            else { fputs("\\ufffd", f); p++; }
        }
    }
    fputc('"', f);
}
