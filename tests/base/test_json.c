/* test_json.c — the one JSON string writer (gs_json.h): quotes and backslashes escaped, control
 * characters as \u00XX, valid UTF-8 passed through as its bytes, invalid bytes as \ufffd. */
#include <stdlib.h>
#include <string.h>

#include "gs_json.h"
#include "support/tap.h"

/* json_str(s) into a malloc'd string. */
static char *quoted(const char *s)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return NULL;
    json_str(f, s);
    fclose(f);
    return buf;
}

static void expect(const char *in, const char *want, const char *what)
{
    char *got = quoted(in);
    CHECK(got && !strcmp(got, want), "%s: got [%s], want [%s]", what, got ? got : "(null)", want);
    free(got);
}

int main(void)
{
    expect("", "\"\"", "empty");
    expect(NULL, "\"\"", "NULL");
    expect("gacl+gsr", "\"gacl+gsr\"", "plain ASCII");
    expect("say \"hi\"", "\"say \\\"hi\\\"\"", "quotes");
    expect("a\\b", "\"a\\\\b\"", "backslash");
    expect("a\nb\tc\rd", "\"a\\u000ab\\u0009c\\u000dd\"", "newline, tab, CR");
    expect("\x01\x1f\x1b[31m", "\"\\u0001\\u001f\\u001b[31m\"", "control characters and ESC");
    expect("\x7f", "\"\\u007f\"", "DEL");
    expect("τ ± σ — ξ", "\"τ ± σ — ξ\"", "UTF-8 two and three bytes");
    expect("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"", "UTF-8 four bytes");
    expect("a\x80z", "\"a\\ufffdz\"", "stray continuation byte");
    expect("\xc3", "\"\\ufffd\"", "cut sequence at the end");
    expect("\xc3(", "\"\\ufffd(\"", "cut sequence before ASCII");
    expect("\xc0\xaf", "\"\\ufffd\\ufffd\"", "overlong form");
    expect("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"", "surrogate");
    expect("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", "above U+10FFFF");
    expect("\xff", "\"\\ufffd\"", "byte 0xff");
    return tap_done();
}
