/* methods/names.c — the names of --methods read from the method table: parsing and resolving,
 * the one "unknown method" message, display names, chart letters, which parameters act on a
 * method, and --help's "Methods:" section (gs_mtable.h). */
#include "gs_mtable.h"
#include "gs_common.h"
#include "gs_params.h"

#include <stdio.h>
#include <string.h>

/* LEARNER[+AUGMENTER]; an augmenter's name alone is gacl with it (gsr = gacl+gsr). 1 when known. */
static int parse(const char *name, en_method *m)
{
    char lname[32];
    const char *plus = name ? strchr(name, '+') : NULL;
    m->L = NULL;
    m->A = NULL;
    if (!name) return 0;
    if (!plus) {
        if ((m->L = mt_learner(name))) return 1;
        m->A = mt_augmenter(name);
        m->L = mt_learner("gacl");
        return m->A && m->L;
    }
    size_t n = (size_t)(plus - name);
    if (n == 0 || n >= sizeof lname) return 0;
    memcpy(lname, name, n);
    lname[n] = '\0';
    m->L = mt_learner(lname);
    m->A = mt_augmenter(plus + 1);
    return m->L && m->A;
}

int mt_known(const char *name)
{
    en_method m;
    return parse(name, &m);
}

int mt_unknown(const char *name)
{
    char known[768];
    size_t k = (size_t)snprintf(known, sizeof known, "learners: ");
    int n;
    const en_learner *const *L = mt_learners(&n);
    for (int i = 0; i < n && k < sizeof known; i++)
        k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", i ? "," : "", L[i]->name);
    const en_augmenter *const *A = mt_augmenters(&n);
    for (int i = 0; i < n && k < sizeof known; i++)
        k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", i ? "," : "; augmenters: ", A[i]->name);
    return gs_error(GS_EINPUT, "--methods: unknown method '%s' (a method is LEARNER[+AUGMENTER]; %s)",
                    name ? name : "", known);
}

int mt_parse(const char *name, en_method *m)
{
    return parse(name, m) ? GS_OK : mt_unknown(name);
}

int mt_resolve(en_config *cfg)
{
    for (int m = 0; m < cfg->n_methods && m < OP_MAX_METHODS; m++) { /* more: en_create refuses them */
        int rc = mt_parse(cfg->methods[m], &cfg->method[m]);
        if (rc) return rc;
    }
    return GS_OK;
}

void mt_display_name(const char *name, char *out, size_t n)
{
    en_method m;
    if (!n) return;
    if (!parse(name, &m)) snprintf(out, n, "%s", name ? name : "");
    else if (!m.A) snprintf(out, n, "%s", m.L->display);
    else if (!strchr(name, '+')) snprintf(out, n, "%s", m.A->display); /* the alias: gsr is "GSR" */
    else snprintf(out, n, "%s + %s", m.L->display, m.A->display);
}

char mt_letter(const char *name)
{
    const en_learner *L = mt_learner(name);
    const en_augmenter *A = L ? NULL : mt_augmenter(name);
    return L ? L->letter : A ? A->letter : 0;
}

int mt_uses(const char *method, const char *param)
{
    en_method m;
    const pa_param *r = pa_find(param);
    return r && parse(method, &m) && (en_method_deps(&m) & r->dep);
}

/* "    NAME   summary" lines, the summary wrapped at 100 columns under its start. */
static void row_line(char *buf, size_t cap, size_t *len, const char *name, const char *summary)
{
    const int col = 27, width = 100;
    if (*len >= cap) return;
    size_t k = *len;
    k += (size_t)snprintf(buf + k, cap - k, "    %-22s ", name);
    int at = col;
    const char *s = summary;
    while (*s && k < cap) {
        const char *sp = strchr(s, ' ');
        size_t w = sp ? (size_t)(sp - s) : strlen(s);
        int cols = 0; /* the word's columns: its bytes but UTF-8 continuation bytes */
        for (size_t i = 0; i < w; i++) cols += ((unsigned char)s[i] & 0xc0) != 0x80;
        if (at > col && at + 1 + cols > width) {
            k += (size_t)snprintf(buf + k, cap - k, "\n%*s", col, "");
            at = col;
        } else if (at > col) {
            k += (size_t)snprintf(buf + k, cap - k, " ");
            at++;
        }
        if (k < cap) k += (size_t)snprintf(buf + k, cap - k, "%.*s", (int)w, s);
        at += cols;
        s += w;
        while (*s == ' ') s++;
    }
    if (k < cap) k += (size_t)snprintf(buf + k, cap - k, "\n");
    *len = k < cap ? k : cap - 1;
}

const char *mt_help(void)
{
    static char buf[8192];
    size_t len = 0;
    int n;
    len += (size_t)snprintf(buf, sizeof buf,
                            "Methods:\n"
                            "  --methods a,b,...        LEARNER[+AUGMENTER],... (default gacl,gsr); an augmenter\n"
                            "                           alone is gacl with it (gsr = gacl+gsr)\n"
                            "  learners:\n");
    const en_learner *const *L = mt_learners(&n);
    for (int i = 0; i < n; i++) row_line(buf, sizeof buf, &len, L[i]->name, L[i]->summary);
    if (len < sizeof buf) len += (size_t)snprintf(buf + len, sizeof buf - len, "  augmenters:\n");
    const en_augmenter *const *A = mt_augmenters(&n);
    for (int i = 0; i < n; i++) row_line(buf, sizeof buf, &len, A[i]->name, A[i]->summary);
    return buf;
}
