/* tui/tui.c — the ncurses front end: terminal setup and teardown, colors, the event loop, key
 * dispatch through the key table, UI state (task, play, parameters, undo, baseline, editor,
 * help). The only file that calls curses; frames are composed by tui_draw.c into a canvas and
 * blitted here. Computation happens in tui_worker.c. */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>

#include "gs_chart.h"
#include "gs_common.h"
#include "gs_preset.h"
#include "gs_session.h"
#include "gs_tour.h"
#include "tui_int.h"

#define UNDO_MAX 64
static const double SPEEDS[] = {0.25, 0.5, 1, 2, 4, 8};
#define NSPEEDS ((int)(sizeof SPEEDS / sizeof SPEEDS[0]))

static volatile sig_atomic_t g_quit_signal;
static int g_sig_wake_fd = -1;

static void on_signal(int sig)
{
    g_quit_signal = sig;
    if (g_sig_wake_fd >= 0) {
        char c = 2;
        ssize_t r = write(g_sig_wake_fd, &c, 1);
        (void)r;
    }
}

/* Fatal signals: put the terminal back before dying (as htop does; endwin is not strictly
 * async-signal-safe, but the process is going down anyway). */
static void on_fatal(int sig)
{
    endwin();
    signal(sig, SIG_DFL);
    raise(sig);
}

typedef struct {
    op_opts opts;
    uint64_t gen;
    int task, T;
    int playing, speed;
    double next_tick;
    int sel;
    int editing;
    char edit[48];
    int help;
    int help_scroll;
    int future;              /* show the tasks after the current one (key f) */
    int scroll;              /* first row of the claims view */
    tr_tour tour;            /* --tour: the steps (empty without a tour) */
    int tour_step;           /* 1-based step shown, 0 = no tour */
    op_opts tour_base;       /* the options when the tour started (steps apply on top) */
    char tour_name[64];
    en_results *res, *base;
    op_params base_params;
    op_opts undo[UNDO_MAX];
    int nundo;
    char msg[512];
    int msg_err;
    int preset;              /* index of the last preset applied, -1 none */
    cv_glyphs glyphs;
    int utf8;
    int color_mode;          /* 0 none, 8, 256 */
    tui_theme theme;         /* --theme (colours of text, background, GACL, GSR) */
    short bg;                /* background colour index, -1 = the terminal's */
    const char *session_path;
    char data_name[128];
    int spinner;
    tui_worker *w;
    short pair_of[257];
    short npairs;
    int view;                /* tui_lower_view of the lower-left panel */
    tui_extra *ex[TV_COUNT]; /* each view's latest computation from the worker (owned), or NULL:
                              * back on a view whose inputs did not change, it shows at once */
    int m0, m1;              /* the shown pair: indices into --methods (m1 -1 with one method) */
    int nseeds;              /* --seeds: how many (1 without); the first is the shown run's */
    en_results *seed_runs[TUI_MAX_SEEDS]; /* the other seeds' newest results (owned) */
    int nseed_runs;
} ui;

/* ---- colors ------------------------------------------------------------------------------ */
static int rgb_to_8(uint32_t rgb)
{
    int r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
    int mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
    int t = mx * 4 / 5; /* channels close to the strongest one count */
    int c = (r >= t && r > 60 ? COLOR_RED : 0) | (g >= t && g > 60 ? COLOR_GREEN : 0) |
            (b >= t && b > 60 ? COLOR_BLUE : 0);
    return c ? c : COLOR_WHITE;
}

static int colour_index(const ui *u, uint32_t rgb)
{
    return u->color_mode == 256 ? tui_rgb_to_256(rgb) : rgb_to_8(rgb);
}

static short pair_for(ui *u, uint32_t rgb)
{
    /* the theme: the figures' GACL red and GSR blue, and the default text, become its colours */
    if (rgb == 0xe15759) rgb = u->theme.gacl;
    else if (rgb == 0x4e79a7) rgb = u->theme.gsr;
    else if (rgb == CV_RGB_DEFAULT) rgb = u->theme.text;
    if (!u->color_mode || (rgb == CV_RGB_DEFAULT && u->bg < 0)) return 0;
    int idx = rgb == CV_RGB_DEFAULT ? -1 : colour_index(u, rgb);
    if (idx < 0) idx = 256; /* the terminal's own foreground on the theme's background */
    if (idx < 0 || idx > 256) return 0;
    if (!u->pair_of[idx]) {
        if (u->npairs + 1 >= COLOR_PAIRS) return 0;
        short p = ++u->npairs;
        if (init_pair(p, idx == 256 ? -1 : (short)idx, u->bg) == ERR) return 0;
        u->pair_of[idx] = p;
    }
    return u->pair_of[idx];
}

/* ---- frame -------------------------------------------------------------------------------- */
static void blit(ui *u, const cv_canvas *cv)
{
    for (int y = 0; y < cv->h; y++)
        for (int x = 0; x < cv->w; x++) {
            const cv_cell *c = &cv->cells[(long)y * cv->w + x];
            attr_t a = A_NORMAL;
            if (c->attr & CV_BOLD) a |= A_BOLD;
            if (c->attr & CV_DIM) a |= A_DIM;
            if (c->attr & CV_REVERSE) a |= A_REVERSE;
            if (c->attr & CV_UNDERLINE) a |= A_UNDERLINE;
            wchar_t wc[2] = {c->ch ? c->ch : L' ', 0};
            if (!u->utf8 && wc[0] > 126) wc[0] = L'?';
            cchar_t cc;
            setcchar(&cc, wc, a, pair_for(u, c->rgb), NULL);
            mvadd_wch(y, x, &cc); /* the bottom-right cell may report ERR: harmless */
        }
}

/* The tasks some method has not computed yet, as ranges ("3–10", "2, 5–10"); "" when none. */
static void pending_tasks(const en_results *r, char *out, size_t n)
{
    size_t len = 0;
    out[0] = 0;
    for (int t = 0; t < r->T;) {
        int pend = 0;
        for (int m = 0; m < r->n_methods; m++) pend |= r->m[m].snaps[t].state == EN_PENDING;
        if (!pend) { t++; continue; }
        int a = t;
        for (t++; t < r->T; t++) {
            int p2 = 0;
            for (int m = 0; m < r->n_methods; m++) p2 |= r->m[m].snaps[t].state == EN_PENDING;
            if (!p2) break;
        }
        int k = t == a + 1 ? snprintf(out + len, n - len, "%s%d", len ? ", " : "", a + 1)
                           : snprintf(out + len, n - len, "%s%d–%d", len ? ", " : "", a + 1, t);
        if (k < 0 || (size_t)k >= n - len) { out[len] = 0; break; }
        len += (size_t)k;
    }
}

static void draw(ui *u, cv_canvas *cv, int busy, double progress)
{
    int W = COLS, H = LINES;
    if (W < 1 || H < 1) return;
    if (cv->w != W || cv->h != H || cv->glyphs != u->glyphs) {
        cv_free(cv);
        if (cv_init(cv, W, H, u->glyphs) != GS_OK) return;
    }
    tui_view v;
    memset(&v, 0, sizeof v);
    v.r = u->res;
    v.base = u->base;
    v.params = &u->opts.params;
    v.base_params = u->base ? &u->base_params : NULL;
    v.task = u->task;
    v.T = u->T;
    v.playing = u->playing;
    v.speed = SPEEDS[u->speed];
    v.busy = busy;
    v.progress = progress;
    v.spinner = u->spinner;
    v.sel = u->sel;
    v.edit = u->editing ? u->edit : NULL;
    v.help = u->help;
    v.message = u->msg;
    v.message_error = u->msg_err;
    v.data_name = u->data_name;
    const ps_preset *p = ps_get(u->preset);
    v.preset = p ? p->name : "";
    v.color = u->color_mode != 0;
    v.m0 = u->m0;
    v.m1 = u->res && u->m1 < u->res->n_methods ? u->m1 : -1;
    v.lower = u->view;
    v.future = u->future;
    v.scroll = u->scroll;
    if (u->tour_step > 0) {
        v.tour_name = u->tour_name;
        v.tour_step = u->tour_step;
        v.tour_n = u->tour.n;
        v.tour = &u->tour.steps[u->tour_step - 1];
    }
    v.help_scroll = u->help_scroll;
    for (int m = 0; u->res && m < u->res->n_methods && !v.single; m++)
        for (int t = 0; t < u->res->T; t++) if (u->res->m[m].snaps[t].flags & EN_SINGLE) v.single = 1;
    v.factoring = u->w ? tw_factoring(u->w) : 0;
    if (busy && u->res) pending_tasks(u->res, v.pending, sizeof v.pending);
    /* --seeds: the mean over every seed, once all of them have this generation's results */
    const en_results *runs[TUI_MAX_SEEDS];
    v.nseeds = u->nseeds;
    if (u->res && u->nseeds > 1 && u->nseed_runs == u->nseeds - 1 && u->res->generation == u->gen &&
        u->seed_runs[0]->generation == u->gen) {
        runs[0] = u->res;
        for (int k = 0; k < u->nseed_runs; k++) runs[k + 1] = u->seed_runs[k];
        v.seed_runs = runs;
        v.nseed_runs = u->nseeds;
    }
    /* only numbers of exactly these parameters, view and pair, never stale ones; of this task,
     * or while playing of the last task whose computation finished (the view says which) */
    const tui_extra *x = u->view >= 0 && u->view < TV_COUNT ? u->ex[u->view] : NULL;
    v.ex = x && x->gen == u->gen && (x->task == u->task || u->playing) && x->m0 == u->m0 && x->m1 == u->m1 ? x : NULL;
    tui_draw(cv, &v);
    erase();
    blit(u, cv);
    wnoutrefresh(stdscr);
    doupdate();
}

/* ---- actions ------------------------------------------------------------------------------ */
static void message(ui *u, int err, const char *fmt, const char *a)
{
    snprintf(u->msg, sizeof u->msg, fmt, a ? a : "");
    u->msg_err = err;
}

static void request(ui *u) { tw_request(u->w, &u->opts, u->gen, u->task); }

static void push_undo(ui *u)
{
    if (u->nundo == UNDO_MAX) {
        memmove(&u->undo[0], &u->undo[1], sizeof u->undo[0] * (UNDO_MAX - 1));
        u->nundo--;
    }
    u->undo[u->nundo++] = u->opts;
}

/* With --seeds the seed parameter is the first of the list and stays: 1 (and says so) when the
 * selected parameter is the seed. */
static int seed_locked(ui *u)
{
    if (!tui_param_row(u->sel) || tui_param_row(u->sel)->kind != PA_SEED || u->nseeds < 2) return 0;
    message(u, 1, "the seeds are fixed by --seeds %s (the accuracy and stable-rank views show their mean)", u->opts.seeds);
    return 1;
}

static void free_seed_runs(ui *u)
{
    for (int k = 0; k < u->nseed_runs; k++) { en_results_free(u->seed_runs[k]); free(u->seed_runs[k]); }
    u->nseed_runs = 0;
}

/* Parameter p reads none of the run's methods (τ with AnaCP, whose ridge is fixed): say so in the
 * panel's message line and return 1; the value stays, nothing is recomputed. */
static int param_idle(ui *u, tui_param p)
{
    if (tui_param_acts(p, (const char *const *)u->opts.methods, u->opts.n_methods)) return 0;
    char list[160] = "";
    for (int m = 0, k = 0; m < u->opts.n_methods; m++) {
        size_t L = strlen(list);
        snprintf(list + L, sizeof list - L, "%s%s", k++ ? ", " : "", u->opts.methods[m]);
    }
    char b[240];
    snprintf(b, sizeof b, "%s does not act on %s: not changed, nothing to recompute", tui_param_label(p), list);
    message(u, 1, "%s", b);
    return 1;
}

static void params_changed(ui *u)
{
    u->gen++;
    request(u);
}

static void set_task(ui *u, int t)
{
    if (t < 1) t = 1;
    if (t > u->T) t = u->T;
    if (t == u->task) return;
    u->task = t;
    request(u);
}

static void editor_apply(ui *u)
{
    op_opts tmp = u->opts;
    tui_param p = (tui_param)u->sel;
    if (param_idle(u, p)) { u->editing = 0; return; }
    if (op_set(&tmp, tui_param_name(p), u->edit) != GS_OK) { /* the row's range (gs_params.h) */
        message(u, 1, "%s", gs_last_error());
        return;
    }
    u->editing = 0;
    if (memcmp(&tmp.params, &u->opts.params, sizeof tmp.params)) {
        push_undo(u);
        u->opts = tmp;
        params_changed(u);
    }
    char b[96];
    snprintf(b, sizeof b, "%s = %s", tui_param_label(p), u->edit);
    message(u, 0, "%s", b);
}

static void editor_key(ui *u, int ch)
{
    size_t n = strlen(u->edit);
    if (ch == 27) { u->editing = 0; message(u, 0, "%s", "edit cancelled"); }
    else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) editor_apply(u);
    else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) { if (n) u->edit[n - 1] = 0; }
    else if (ch == 21) u->edit[0] = 0; /* Ctrl-U */
    else if (ch >= 0x20 && ch < 0x7f && n + 1 < sizeof u->edit) { u->edit[n] = (char)ch; u->edit[n + 1] = 0; }
}

static void do_export(ui *u, int frames)
{
    const char *fig = tui_view_figure(u->view);
    char path[96];
    int fd = -1;
    for (int k = 1; k <= 999; k++) {
        snprintf(path, sizeof path, frames ? "gsrscope-%s-frames-%03d.pdf" : "gsrscope-%s-%03d.png", fig, k);
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0 || errno != EEXIST) break;
    }
    if (fd < 0) {
        char b[200];
        snprintf(b, sizeof b, "export: cannot create %s: %s", path, strerror(errno));
        message(u, 1, "%s", b);
        return;
    }
    close(fd); /* reserved; the export replaces it atomically */
    if (frames) tw_export_frames(u->w, path, fig, u->base);
    else tw_export(u->w, path, fig, u->base);
    message(u, 0, "exporting %s…", path);
}

static void do_save(ui *u)
{
    const char *path = u->session_path ? u->session_path : "gsrscope.session";
    /* The session stores the methods in order and the TUI shows the first two: put the shown
     * pair first so that loading the session shows it again (same format, same methods). */
    op_opts tmp = u->opts;
    if (u->m0 >= 0 && u->m0 < tmp.n_methods) {
        int k = 0;
        tmp.methods[k++] = u->opts.methods[u->m0];
        if (u->m1 >= 0 && u->m1 < tmp.n_methods && u->m1 != u->m0) tmp.methods[k++] = u->opts.methods[u->m1];
        for (int i = 0; i < u->opts.n_methods; i++)
            if (i != u->m0 && i != u->m1) tmp.methods[k++] = u->opts.methods[i];
    }
    if (ss_save(path, &tmp) == GS_OK) message(u, 0, "session saved to %s", path);
    else message(u, 1, "%s", gs_last_error());
}

/* P: the next preset that applies to the data and the protocol shown (one that changes them is
 * for the command line: --preset NAME). */
static void do_preset(ui *u)
{
    int n = ps_count();
    if (n < 1) { message(u, 1, "no presets found: %s", ps_list()); return; }
    op_opts tmp;
    int next = tui_preset_next(u->preset, &u->opts, &tmp);
    if (next < 0) {
        char b[240];
        snprintf(b, sizeof b, "no preset applies to this data and protocol (%.120s change them): start with --preset NAME",
                 ps_list());
        message(u, 1, "%s", b);
        return;
    }
    const ps_preset *p = ps_get(next);
    if (memcmp(&tmp.params, &u->opts.params, sizeof tmp.params)) {
        push_undo(u);
        u->opts = tmp;
        params_changed(u);
    }
    u->preset = next;
    char b[240];
    snprintf(b, sizeof b, "preset %.60s: %.160s", p->name, p->title);
    message(u, 0, "%s", b);
}

/* `t`: tune the selected parameter on the validation rows, for the second shown method when it
 * uses the parameter (GSR in the default pair), else the first. */
static void do_tune(ui *u)
{
    tui_param p = (tui_param)u->sel;
    if (!tui_param_row(p) || !tui_param_row(p)->tune_grid) {
        char list[96] = "";
        for (int i = 0, n = tui_param_count(), k = 0; i < n; i++)
            if (tui_param_row(i)->tune_grid) {
                size_t L = strlen(list);
                snprintf(list + L, sizeof list - L, "%s%s", k++ ? ", " : "", tui_param_label(i));
            }
        message(u, 1, "t tunes %s (select one with ↑/↓)", list);
        return;
    }
    if (!(u->opts.proto.val_frac > 0)) {
        message(u, 1, "%s", "t needs a validation split: --val-frac 0.2");
        return;
    }
    if (!u->res) return;
    int ms[2] = {u->m1 < u->res->n_methods ? u->m1 : -1, u->m0}, m = -1;
    for (int i = 0; i < 2 && m < 0; i++)
        if (ms[i] >= 0 && mt_uses(u->res->m[ms[i]].name, tui_param_name(p))) m = ms[i];
    if (m < 0) { message(u, 1, "neither shown method uses %s", tui_param_label(p)); return; }
    tw_tune(u->w, p, m);
    char b[160];
    snprintf(b, sizeof b, "tuning %s for %s on the validation rows…", tui_param_label(p), u->res->m[m].name);
    message(u, 0, "%s", b);
}

/* A tuning result from the worker: applied as a parameter change (u undoes it), unless the
 * parameters changed since it started. */
static void apply_tune(ui *u, int p, double v, double obj, uint64_t gen)
{
    if (gen != u->gen) { message(u, 0, "%s", "tuning result dropped: the parameters changed meanwhile"); return; }
    char b[200], val[32];
    tui_param_format((tui_param)p, v, val, sizeof val);
    if (v != tui_param_get(&u->opts.params, (tui_param)p)) {
        op_opts tmp = u->opts;
        char num[40];
        snprintf(num, sizeof num, "%.17g", v);
        if (op_set(&tmp, tui_param_name((tui_param)p), num) != GS_OK) { message(u, 1, "%s", gs_last_error()); return; }
        push_undo(u);
        u->opts = tmp;
        params_changed(u);
    }
    snprintf(b, sizeof b, "%s = %s chosen on validation (accuracy %.1f %%); u undoes", tui_param_label((tui_param)p), val, obj);
    message(u, 0, "%s", b);
}

/* "undid τ 10 → 1, β 10 → 1" (every parameter the undo changed back). */
static void undo_text(const op_params *from, const op_params *to, char *buf, size_t n)
{
    snprintf(buf, n, "undid");
    int k = 0;
    for (int p = 0; p < tui_param_count(); p++) {
        double a = tui_param_get(from, (tui_param)p), b = tui_param_get(to, (tui_param)p);
        if (a == b) continue;
        char fa[32], fb[32];
        tui_param_format((tui_param)p, a, fa, sizeof fa);
        tui_param_format((tui_param)p, b, fb, sizeof fb);
        size_t L = strlen(buf);
        snprintf(buf + L, n - L, "%s %s %s → %s", k++ ? "," : "", tui_param_label((tui_param)p), fa, fb);
    }
    if (!k) {
        size_t L = strlen(buf);
        snprintf(buf + L, n - L, " a change of the protocol (the parameters are the same)");
    }
}

/* Show step k of the tour: the presets and parameters of steps 1..k applied on the options the
 * tour started from (so p goes back exactly), then the latest task, view and future setting. */
static void tour_show(ui *u, int k)
{
    op_opts o = u->tour_base;
    int task = 0, view = -1, future = -1;
    for (int i = 0; i < k; i++) {
        const tr_step *s = &u->tour.steps[i];
        if (s->preset[0]) {
            if (ps_apply_name(s->preset, &o) != GS_OK) {
                message(u, 1, "tour: %s", gs_last_error());
                return;
            }
            u->preset = ps_find(s->preset);
        }
        for (int j = 0; j < s->nset; j++) {
            char name[64], *eq;
            snprintf(name, sizeof name, "%s", s->set[j]);
            eq = strchr(name, '=');
            *eq = 0;
            if (op_set(&o, name, eq + 1) != GS_OK) {
                message(u, 1, "tour: %s", gs_last_error());
                return;
            }
        }
        if (s->task) task = s->task;
        if (s->view >= 0) view = s->view;
        if (s->future >= 0) future = s->future;
    }
    u->tour_step = k;
    if (memcmp(&o.params, &u->opts.params, sizeof o.params)) {
        push_undo(u);
        u->opts.params = o.params;
        params_changed(u);
    }
    if (task) set_task(u, task < 0 ? u->T : task);
    if (view >= 0 && view < TV_COUNT && view != u->view) {
        u->view = view;
        u->scroll = 0;
        tw_set_view(u->w, u->view);
    }
    if (future >= 0) u->future = future;
    u->msg[0] = 0;
}

/* Keys of a running tour: n / p move, Esc leaves; 1 when the key was used. */
static int tour_key(ui *u, int ch)
{
    if (u->tour_step <= 0) return 0;
    if (ch == 'n') {
        if (u->tour_step < u->tour.n) tour_show(u, u->tour_step + 1);
        else message(u, 0, "%s", "that was the last step: Esc leaves the tour, p goes back");
        return 1;
    }
    if (ch == 'p') {
        if (u->tour_step > 1) tour_show(u, u->tour_step - 1);
        else message(u, 0, "%s", "this is the first step: n goes on, Esc leaves the tour");
        return 1;
    }
    if (ch == 27) {
        u->tour_step = 0;
        message(u, 0, "%s", "tour left: every key works as usual (? lists them)");
        return 1;
    }
    return 0;
}

/* Returns 1 to quit. */
static int dispatch(ui *u, int ch, double now)
{
    if (u->help) {
        /* the help scrolls; any other key closes it */
        int page = LINES - 6 > 1 ? LINES - 6 : 1;
        if (ch == KEY_DOWN || ch == 'j') u->help_scroll++;
        else if (ch == KEY_UP || ch == 'k') u->help_scroll--;
        else if (ch == KEY_NPAGE || ch == ' ') u->help_scroll += page;
        else if (ch == KEY_PPAGE) u->help_scroll -= page;
        else if (ch == KEY_HOME) u->help_scroll = 0;
        else if (ch != KEY_RESIZE) u->help = 0;
        static char rows[400][TUI_HELP_LEN];
        int bw = (COLS - 2 > 100 ? 100 : COLS - 2) - 4;
        int most = tui_help_rows(NULL, bw, rows, 400) - (LINES - 5);
        if (u->help_scroll > most) u->help_scroll = most;
        if (u->help_scroll < 0) u->help_scroll = 0;
        return 0;
    }
    if (u->editing) { editor_key(u, ch); return 0; }
    if (tour_key(u, ch)) return 0;
    tui_action a = tui_key_action(ch);
    switch (a) {
    case TA_PLAY:
        u->playing = !u->playing;
        u->next_tick = now + 1.0 / SPEEDS[u->speed];
        tw_set_playing(u->w, u->playing);
        break;
    case TA_SLOWER: if (u->speed > 0) u->speed--; break;
    case TA_FASTER: if (u->speed < NSPEEDS - 1) u->speed++; break;
    case TA_NEXT: set_task(u, u->task + 1); break;
    case TA_PREV: set_task(u, u->task - 1); break;
    case TA_FIRST: set_task(u, 1); break;
    case TA_LAST: set_task(u, u->T); break;
    case TA_UP: u->sel = (u->sel + tui_param_count() - 1) % tui_param_count(); break;
    case TA_DOWN: u->sel = (u->sel + 1) % tui_param_count(); break;
    case TA_INC: case TA_DEC: {
        if (seed_locked(u) || param_idle(u, (tui_param)u->sel)) break;
        op_opts tmp = u->opts;
        if (tui_param_step(&tmp.params, (tui_param)u->sel, a == TA_INC ? 1 : -1)) {
            push_undo(u);
            u->opts = tmp;
            params_changed(u);
            char b[64], m[96];
            tui_param_format((tui_param)u->sel, tui_param_get(&u->opts.params, (tui_param)u->sel), b, sizeof b);
            snprintf(m, sizeof m, "%s = %s", tui_param_label((tui_param)u->sel), b);
            message(u, 0, "%s", m);
        } else message(u, 0, "%s is at the end of its range", tui_param_label((tui_param)u->sel));
        break;
    }
    case TA_EDIT:
        if (seed_locked(u)) break;
        u->editing = 1;
        tui_param_format((tui_param)u->sel, tui_param_get(&u->opts.params, (tui_param)u->sel), u->edit, sizeof u->edit);
        break;
    case TA_BASELINE:
        if (!u->res) { message(u, 1, "%s", "nothing computed yet to pin"); break; }
        if (u->base) { en_results_free(u->base); free(u->base); u->base = NULL; }
        u->base = calloc(1, sizeof *u->base);
        if (!u->base || en_results_copy(u->base, u->res) != GS_OK) {
            free(u->base);
            u->base = NULL;
            message(u, 1, "%s", "baseline: out of memory");
            break;
        }
        u->base_params = u->res->params;
        message(u, 0, "%s", "baseline pinned (ghost curves, Δ column); B unpins it");
        break;
    case TA_UNPIN:
        if (!u->base) { message(u, 0, "%s", "no baseline pinned (b pins one)"); break; }
        en_results_free(u->base);
        free(u->base);
        u->base = NULL;
        message(u, 0, "%s", "baseline unpinned");
        break;
    case TA_FUTURE:
        u->future = !u->future;
        message(u, 0, "%s", u->future ? "showing every task (f hides the tasks after the current one)"
                                      : "showing tasks up to the current one (f shows the rest)");
        break;
    case TA_UNDO: {
        if (!u->nundo) { message(u, 0, "%s", "nothing to undo"); break; }
        op_opts before = u->opts;
        u->opts = u->undo[--u->nundo];
        params_changed(u);
        char b[400];
        undo_text(&before.params, &u->opts.params, b, sizeof b);
        message(u, 0, "%s", b);
        break;
    }
    case TA_EXPORT: do_export(u, 0); break;
    case TA_EXPORT_FRAMES: do_export(u, 1); break;
    case TA_TUNE: do_tune(u); break;
    case TA_SAVE: do_save(u); break;
    case TA_PRESET: do_preset(u); break;
    case TA_GLYPHS:
        if (!u->utf8) { message(u, 0, "%s", "ASCII only: the locale is not UTF-8"); break; }
        u->glyphs = (cv_glyphs)((u->glyphs + 1) % 3);
        message(u, 0, "glyphs: %s", u->glyphs == CV_BRAILLE ? "braille" : u->glyphs == CV_BLOCK ? "block" : "ASCII");
        break;
    case TA_SCROLL_DOWN: if (u->scroll < 200) u->scroll += 3; break;
    case TA_SCROLL_UP: u->scroll = u->scroll > 3 ? u->scroll - 3 : 0; break;
    case TA_VIEW:
        u->scroll = 0;
        u->view = (u->view + 1) % TV_COUNT;
        tw_set_view(u->w, u->view);
        message(u, 0, "view: %s", tui_view_title(u->view));
        break;
    case TA_METHOD0: case TA_METHOD1: {
        int n = u->opts.n_methods;
        int *slot = a == TA_METHOD0 ? &u->m0 : &u->m1, other = a == TA_METHOD0 ? u->m1 : u->m0;
        int next = tui_cycle_method(*slot, other, n);
        if (next == *slot) {
            message(u, 0, "%s", n < 2 ? "one method only: run with --methods gacl,gsr,air,… to compare"
                                      : "no other method to show: run with more --methods (e.g. gacl,gsr,air)");
            break;
        }
        *slot = next;
        tw_set_pair(u->w, u->m0, u->m1);
        char b[96], d0[32], d1[32] = "";
        ch_display_name(u->opts.methods[u->m0], d0, sizeof d0);
        if (u->m1 >= 0) ch_display_name(u->opts.methods[u->m1], d1, sizeof d1);
        snprintf(b, sizeof b, "showing %s%s%s", d0, d1[0] ? " vs " : "", d1);
        message(u, 0, "%s", b);
        break;
    }
    case TA_HELP: u->help = 1; u->help_scroll = 0; break;
    case TA_REDRAW: clearok(curscr, TRUE); break;
    case TA_QUIT: return 1;
    default: break;
    }
    return 0;
}

static void warn_cb(const char *msg, void *user)
{
    ui *u = user;
    fprintf(stderr, "gsrscope: warning: %s\n", msg);
    snprintf(u->msg, sizeof u->msg, "warning: %s", msg);
    u->msg_err = 1; /* stays until the next message (a re-cut of the data, for example) */
}

static void free_results(en_results **r)
{
    if (*r) { en_results_free(*r); free(*r); *r = NULL; }
}

/* --tour [NAME]: find and parse the tour before anything else (a bad tour is exit 2 without
 * touching the terminal); the synthetic tour needs --synthetic, the bundled one the bundled data,
 * and a tour for the MobileNetV2 sample opens it when no data is given (the data `make run` opens). */
static int load_tour(op_opts *o, tr_tour *t, char *name_out, size_t n)
{
    int plain = !o->data.synthetic && !o->data.data_dir && !o->data.idx_dir && !o->data.train_features;
    const char *name = *o->tour ? o->tour : o->data.synthetic ? "synthetic" : "bundled";
    char path[4200];
    int st;
    if ((st = tui_asset_find("tours", name, ".tour", path, sizeof path)) != GS_OK || (st = tr_load(path, t)) != GS_OK)
        return st;
    int mnv2 = !strcmp(t->data, "mobilenetv2");
    if (mnv2 && plain && !o->data.sample) o->data.sample = "mobilenetv2";
    if (mnv2 && (!plain || strcmp(o->data.sample, "mobilenetv2"))) {
        st = gs_error(GS_EINPUT, "%s: this tour is written for the bundled MobileNetV2 sample: run gsrscope --sample "
                      "mobilenetv2 --tour %s", path, name);
        tr_free(t);
        return st;
    }
    if ((!strcmp(t->data, "synthetic") && !o->data.synthetic) || (!strcmp(t->data, "bundled") && !plain)) {
        st = gs_error(GS_EINPUT, "%s: this tour is written for the %s data: run gsrscope%s --tour %s", path, t->data,
                      !strcmp(t->data, "synthetic") ? " --synthetic" : "", name);
        tr_free(t);
        return st;
    }
    snprintf(name_out, n, "%s", name);
    return GS_OK;
}

int tui_main(op_opts *o)
{
    tr_tour tour;
    char tour_name[64] = "";
    memset(&tour, 0, sizeof tour);
    if (o->tour && load_tour(o, &tour, tour_name, sizeof tour_name) != GS_OK) {
        fprintf(stderr, "gsrscope: %s\n", gs_last_error());
        return 2;
    }
    tui_theme theme;
    if (tui_theme_load(o->theme ? o->theme : "default", &theme) != GS_OK) {
        if (o->theme) { /* asked for: a missing or broken theme is an error */
            fprintf(stderr, "gsrscope: %s\n", gs_last_error());
            tr_free(&tour);
            return 2;
        }
        tui_theme_parse("", "default", &theme); /* no assets installed: the built-in default */
    }
    const char *term = getenv("TERM");
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || !term || !*term || !strcmp(term, "dumb")) {
        fprintf(stderr, "gsrscope: the TUI needs a terminal (use `gsrscope run` for headless output)\n");
        tr_free(&tour);
        return 2;
    }
    static ui u; /* large (undo stack): not on the stack */
    memset(&u, 0, sizeof u);
    u.preset = -1;
    int st;
    /* --preset and --session were applied under the command line's options (main.c) */
    if (o->session) u.session_path = o->session;
    if (o->preset) u.preset = ps_find(o->preset);
    u.opts = *o;
    if (o->tour) {
        u.tour = tour;
        snprintf(u.tour_name, sizeof u.tour_name, "%s", tour_name);
        u.tour_base = u.opts;
    }

    en_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.methods = o->methods;
    cfg.n_methods = o->n_methods;
    cfg.spectrum = o->spectrum;
    cfg.keep_task_grams = 1;
    /* the augmenters' rows, for the claims view's spread and mass rows (mc_rows_compute) */
    cfg.collect_aug = 1;
    if ((st = mt_resolve(&cfg)) != GS_OK) {
        fprintf(stderr, "gsrscope: %s\n", gs_last_error());
        tr_free(&tour);
        return gs_exit_code(st);
    }
    /* --seeds: one pipeline per seed (the data loaded once), the first one shown */
    uint64_t seeds[TUI_MAX_SEEDS] = {o->params.seed};
    int ns = 1;
    if (o->seeds && (st = op_parse_seeds(o->seeds, seeds, TUI_MAX_SEEDS, &ns)) != GS_OK) {
        fprintf(stderr, "gsrscope: %s\n", gs_last_error());
        tr_free(&tour);
        return gs_exit_code(st);
    }
    u.nseeds = ns;
    u.opts.params.seed = seeds[0];
    if (o->tour) u.tour_base = u.opts;
    static pl_ctx ctx[TUI_MAX_SEEDS];
    memset(ctx, 0, sizeof ctx);
    if ((st = pl_open_seeds(ctx, ns, seeds, &u.opts, &cfg, warn_cb, &u)) != GS_OK) {
        fprintf(stderr, "gsrscope: %s\n", gs_last_error());
        tr_free(&tour);
        return gs_exit_code(st);
    }
    snprintf(u.data_name, sizeof u.data_name, "%s", ctx[0].prob.data_name);
    u.T = ctx[0].prob.T;
    u.task = 1;
    u.speed = 2;
    u.gen = 1;
    u.m0 = 0;
    u.m1 = o->n_methods > 1 ? 1 : -1;

    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* numbers are always read and written with '.' */
    const char *cs = nl_langinfo(CODESET);
    u.utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
    u.glyphs = (o->ascii || !u.utf8) ? CV_ASCII : CV_BRAILLE;

    static tui_worker w;
    if ((st = tw_start(&w, ctx, ns, seeds, &cfg, &u.opts)) != GS_OK) {
        fprintf(stderr, "gsrscope: %s\n", gs_last_error());
        pl_free_seeds(ctx, ns);
        return gs_exit_code(st);
    }
    u.w = &w;
    /* the screen leads with what lifts the tail (the ridge lens); the stable rank, the paper's
     * measure, is one v away */
    u.view = TV_LENS;
    tw_set_view(&w, u.view);
    tw_request(&w, &u.opts, u.gen, u.task);
    if (u.tour.n > 0) tour_show(&u, 1);

    SCREEN *scr = newterm(NULL, stdout, stdin);
    if (!scr) {
        tw_stop(&w);
        pl_free_seeds(ctx, ns);
        fprintf(stderr, "gsrscope: cannot drive terminal type '%s' (use `gsrscope run` for headless output)\n", term);
        return 2;
    }
    set_term(scr);
    g_sig_wake_fd = w.wake[1];
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    struct sigaction old_int, old_term, old_hup;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
    struct sigaction fa, old_fatal[4];
    static const int FATAL[4] = {SIGSEGV, SIGBUS, SIGFPE, SIGABRT};
    memset(&fa, 0, sizeof fa);
    fa.sa_handler = on_fatal;
    sigemptyset(&fa.sa_mask);
    fa.sa_flags = SA_RESETHAND;
    for (int i = 0; i < 4; i++) sigaction(FATAL[i], &fa, &old_fatal[i]);
    cbreak();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    const char *nc = getenv("NO_COLOR");
    u.theme = theme;
    u.bg = -1;
    if (!(nc && *nc) && theme.colour && has_colors() && start_color() == OK) {
        use_default_colors();
        if (COLORS >= 256 && COLOR_PAIRS >= 64) u.color_mode = 256;
        else if (COLORS >= 8 && COLOR_PAIRS >= 9) u.color_mode = 8;
        if (u.color_mode && theme.background != CV_RGB_DEFAULT) {
            u.bg = (short)colour_index(&u, theme.background);
            short p = pair_for(&u, CV_RGB_DEFAULT);
            if (p) bkgd(COLOR_PAIR(p)); /* erased cells get the theme's background too */
        }
    }

    cv_canvas cv;
    memset(&cv, 0, sizeof cv);
    int quit = 0, dirty = 1, busy = 1, exit_status = 0;
    double progress = 0, msg_time = 0;
    char last_msg[512] = "";
    while (!quit) {
        if (g_quit_signal) break;
        double now = gs_now();
        /* results from the worker: newer generation only */
        en_results *r = tw_take(&w);
        if (r) {
            if (r->generation == u.gen || !u.res) {
                free_results(&u.res);
                u.res = r;
                if (r->T != u.T) { u.T = r->T; if (u.task > u.T) u.task = u.T; }
                dirty = 1;
            } else {
                en_results_free(r);
                free(r);
            }
        }
        {
            en_results *sr[TUI_MAX_SEEDS];
            int n = tw_take_seeds(&w, sr, TUI_MAX_SEEDS);
            if (n) { /* a whole generation of the other seeds: replaces the previous one */
                free_seed_runs(&u);
                for (int k = 0; k < n; k++) u.seed_runs[k] = sr[k];
                u.nseed_runs = n;
                dirty = 1;
            }
        }
        /* the worker's view computations: each kept for its view (only of these parameters) */
        tui_extra *x;
        while ((x = tw_take_extra(&w))) {
            if (x->gen == u.gen && x->view >= 0 && x->view < TV_COUNT) {
                if (u.ex[x->view]) { tui_extra_free(u.ex[x->view]); free(u.ex[x->view]); }
                u.ex[x->view] = x;
                dirty = 1;
            } else {
                tui_extra_free(x);
                free(x);
            }
        }
        {
            int tp;
            double tv, tobj;
            uint64_t tg;
            if (tw_take_tune(&w, &tp, &tv, &tobj, &tg)) { apply_tune(&u, tp, tv, tobj, tg); dirty = 1; }
        }
        char wm[512];
        int werr = 0, wbusy;
        if (tw_status(&w, &wbusy, &progress, wm, sizeof wm, &werr)) { message(&u, werr, "%s", wm); dirty = 1; }
        if (wbusy != busy) { busy = wbusy; dirty = 1; }
        if (busy) { u.spinner++; dirty = 1; }
        if (strcmp(last_msg, u.msg)) { snprintf(last_msg, sizeof last_msg, "%s", u.msg); msg_time = now; }
        else if (u.msg[0] && !u.msg_err && now - msg_time > 6) { u.msg[0] = 0; last_msg[0] = 0; dirty = 1; }
        if (u.playing && now >= u.next_tick) {
            set_task(&u, u.task % u.T + 1);
            /* the next tick one period after this one was due (a late wake-up does not slow the
             * rate the status line shows), or one period from now after a long stall */
            u.next_tick += 1.0 / SPEEDS[u.speed];
            if (u.next_tick < now) u.next_tick = now + 1.0 / SPEEDS[u.speed];
            dirty = 1;
        }
        if (dirty) { draw(&u, &cv, busy, progress); dirty = 0; }

        int timeout_ms = 1000;
        if (busy) timeout_ms = 120;
        if (u.playing) {
            int t = (int)ceil((u.next_tick - gs_now()) * 1000);
            if (t < timeout_ms) timeout_ms = t < 0 ? 0 : t;
        }
        struct pollfd pf[2] = {{STDIN_FILENO, POLLIN, 0}, {w.wake[0], POLLIN, 0}};
        int pr = poll(pf, 2, timeout_ms);
        if (pr < 0 && errno != EINTR) { exit_status = 1; break; }
        if (pr > 0 && (pf[1].revents & POLLIN)) {
            char buf[64];
            while (read(w.wake[0], buf, sizeof buf) > 0) {}
        }
        if (pr > 0 && (pf[0].revents & (POLLHUP | POLLERR | POLLNVAL)) && !(pf[0].revents & POLLIN)) {
            exit_status = 1; /* the terminal went away */
            break;
        }
        int ch;
        while ((ch = getch()) != ERR) {
            dirty = 1;
            if (ch == KEY_RESIZE) continue; /* the next draw uses the new size, whatever is open */
            /* too small ("need at least WxH"): nothing on screen to act on, so only q quits; a
             * key is never kept to act once the window grows */
            tui_layout lt;
            if (tui_layout_compute(COLS, LINES, &lt) != 0) {
                if (tui_key_action(ch) == TA_QUIT) { quit = 1; break; }
                continue;
            }
            if (dispatch(&u, ch, gs_now())) { quit = 1; break; }
        }
        if (pr < 0) dirty = 1; /* EINTR: SIGWINCH and friends; curses queues KEY_RESIZE */
    }

    curs_set(1);
    endwin();
    delscreen(scr);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    for (int i = 0; i < 4; i++) sigaction(FATAL[i], &old_fatal[i], NULL);
    g_sig_wake_fd = -1;
    tw_stop(&w);
    cv_free(&cv);
    free_results(&u.res);
    free_results(&u.base);
    for (int k = 0; k < TV_COUNT; k++)
        if (u.ex[k]) { tui_extra_free(u.ex[k]); free(u.ex[k]); u.ex[k] = NULL; }
    free_seed_runs(&u);
    pl_free_seeds(ctx, ns);
    tr_free(&u.tour);
    if (g_quit_signal) {
        int sig = g_quit_signal;
        g_quit_signal = 0;
        return sig == SIGINT ? 130 : 128 + sig;
    }
    return exit_status;
}
