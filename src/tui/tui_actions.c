/* tui/tui_actions.c — what the TUI's keys do (tui_int.h): the key table's actions on the UI state
 * (task, play, parameters and their undo, baseline, editor, help, tour, shown pair and view),
 * each change handed to the worker; exports and tuning are asked of the worker. No curses calls
 * (curses.h only for the KEY_* constants): tui.c, on the UI thread, draws and reads the keys. */
#include <errno.h>
#include <fcntl.h>
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

static const double SPEEDS[] = {0.25, 0.5, 1, 2, 4, 8};
#define NSPEEDS ((int)(sizeof SPEEDS / sizeof SPEEDS[0]))

double tui_speed(const tui_state *u) { return SPEEDS[u->speed]; }

void tui_message(tui_state *u, int err, const char *fmt, const char *a)
{
    snprintf(u->msg, sizeof u->msg, fmt, a ? a : "");
    u->msg_err = err;
}

static void request(tui_state *u) { tw_request(u->w, &u->opts, u->gen, u->task); }

static void push_undo(tui_state *u)
{
    if (u->nundo == TUI_UNDO_MAX) {
        memmove(&u->undo[0], &u->undo[1], sizeof u->undo[0] * (TUI_UNDO_MAX - 1));
        u->nundo--;
    }
    u->undo[u->nundo++] = u->opts;
}

/* With --seeds the seed parameter is the first of the list and stays: 1 (and says so) when the
 * selected parameter is the seed. */
static int seed_locked(tui_state *u)
{
    if (!tui_param_row(u->sel) || tui_param_row(u->sel)->kind != PA_SEED || u->nseeds < 2) return 0;
    tui_message(u, 1, "the seeds are fixed by --seeds %s (the accuracy and stable-rank views show their mean)", u->opts.seeds);
    return 1;
}

/* Parameter p reads none of the run's methods (τ with AnaCP, whose ridge is fixed): say so in the
 * panel's message line and return 1; the value stays, nothing is recomputed. */
static int param_idle(tui_state *u, tui_param p)
{
    if (tui_param_acts(p, (const char *const *)u->opts.methods, u->opts.n_methods)) return 0;
    char list[160] = "";
    for (int m = 0, k = 0; m < u->opts.n_methods; m++) {
        size_t L = strlen(list);
        snprintf(list + L, sizeof list - L, "%s%s", k++ ? ", " : "", u->opts.methods[m]);
    }
    char b[240];
    snprintf(b, sizeof b, "%s does not act on %s: not changed, nothing to recompute", tui_param_label(p), list);
    tui_message(u, 1, "%s", b);
    return 1;
}

static void params_changed(tui_state *u)
{
    u->gen++;
    request(u);
}

void tui_set_task(tui_state *u, int t)
{
    if (t < 1) t = 1;
    if (t > u->T) t = u->T;
    if (t == u->task) return;
    u->task = t;
    request(u);
}

static void editor_apply(tui_state *u)
{
    op_opts tmp = u->opts;
    tui_param p = (tui_param)u->sel;
    if (param_idle(u, p)) { u->editing = 0; return; }
    if (op_set(&tmp, tui_param_name(p), u->edit) != GS_OK) { /* the row's range (gs_params.h) */
        tui_message(u, 1, "%s", gs_last_error());
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
    tui_message(u, 0, "%s", b);
}

static void editor_key(tui_state *u, int ch)
{
    size_t n = strlen(u->edit);
    if (ch == 27) { u->editing = 0; tui_message(u, 0, "%s", "edit cancelled"); }
    else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) editor_apply(u);
    else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) { if (n) u->edit[n - 1] = 0; }
    else if (ch == 21) u->edit[0] = 0; /* Ctrl-U */
    else if (ch >= 0x20 && ch < 0x7f && n + 1 < sizeof u->edit) { u->edit[n] = (char)ch; u->edit[n + 1] = 0; }
}

static void ask_export(tui_state *u, int frames)
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
        tui_message(u, 1, "%s", b);
        return;
    }
    close(fd); /* reserved; the export replaces it atomically (or tui_main removes it, unwritten) */
    if (u->nreserved == (int)(sizeof u->reserved / sizeof u->reserved[0])) { /* forget the oldest */
        memmove(u->reserved[0], u->reserved[1], sizeof u->reserved - sizeof u->reserved[0]);
        u->nreserved--;
    }
    snprintf(u->reserved[u->nreserved++], sizeof u->reserved[0], "%s", path);
    if (frames) tw_export_frames(u->w, path, fig, u->base);
    else tw_export(u->w, path, fig, u->base);
    tui_message(u, 0, "exporting %s…", path);
}

static void save_session(tui_state *u)
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
    if (ss_save(path, &tmp) == GS_OK) tui_message(u, 0, "session saved to %s", path);
    else tui_message(u, 1, "%s", gs_last_error());
}

/* P: the next preset that applies to the data and the protocol shown (one that changes them is
 * for the command line: --preset NAME). */
static void next_preset(tui_state *u)
{
    int n = ps_count();
    if (n < 1) { tui_message(u, 1, "no presets found: %s", ps_list()); return; }
    op_opts tmp;
    int next = tui_preset_next(u->preset, &u->opts, &tmp);
    if (next < 0) {
        char b[240];
        snprintf(b, sizeof b, "no preset applies to this data and protocol (%.120s change them): start with --preset NAME",
                 ps_list());
        tui_message(u, 1, "%s", b);
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
    tui_message(u, 0, "%s", b);
}

/* `t`: tune the selected parameter on the validation rows, for the second shown method when it
 * uses the parameter (GSR in the default pair), else the first. */
static void ask_tune(tui_state *u)
{
    tui_param p = (tui_param)u->sel;
    if (!tui_param_row(p) || !tui_param_row(p)->tune_grid) {
        char list[96] = "";
        for (int i = 0, n = tui_param_count(), k = 0; i < n; i++)
            if (tui_param_row(i)->tune_grid) {
                size_t L = strlen(list);
                snprintf(list + L, sizeof list - L, "%s%s", k++ ? ", " : "", tui_param_label(i));
            }
        tui_message(u, 1, "t tunes %s (select one with ↑/↓)", list);
        return;
    }
    if (!(u->opts.proto.val_frac > 0)) {
        tui_message(u, 1, "%s", "t needs a validation split: --val-frac 0.2");
        return;
    }
    if (!u->res) return;
    int ms[2] = {u->m1 < u->res->n_methods ? u->m1 : -1, u->m0}, m = -1;
    for (int i = 0; i < 2 && m < 0; i++)
        if (ms[i] >= 0 && mt_uses(u->res->m[ms[i]].name, tui_param_name(p))) m = ms[i];
    if (m < 0) { tui_message(u, 1, "neither shown method uses %s", tui_param_label(p)); return; }
    tw_tune(u->w, p, m);
    char b[160];
    snprintf(b, sizeof b, "tuning %s for %s on the validation rows…", tui_param_label(p), u->res->m[m].name);
    tui_message(u, 0, "%s", b);
}

/* A tuning result from the worker: applied as a parameter change (u undoes it), unless the
 * parameters changed since it started. */
void tui_apply_tune(tui_state *u, int p, double v, double obj, uint64_t gen)
{
    if (gen != u->gen) { tui_message(u, 0, "%s", "tuning result dropped: the parameters changed meanwhile"); return; }
    char b[200], val[32];
    tui_param_format((tui_param)p, v, val, sizeof val);
    if (v != tui_param_get(&u->opts.params, (tui_param)p)) {
        op_opts tmp = u->opts;
        char num[40];
        snprintf(num, sizeof num, "%.17g", v);
        if (op_set(&tmp, tui_param_name((tui_param)p), num) != GS_OK) { tui_message(u, 1, "%s", gs_last_error()); return; }
        push_undo(u);
        u->opts = tmp;
        params_changed(u);
    }
    snprintf(b, sizeof b, "%s = %s chosen on validation (accuracy %.1f %%); u undoes", tui_param_label((tui_param)p), val, obj);
    tui_message(u, 0, "%s", b);
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
void tui_tour_show(tui_state *u, int k)
{
    op_opts o = u->tour_base;
    int task = 0, view = -1, future = -1;
    for (int i = 0; i < k; i++) {
        const tr_step *s = &u->tour.steps[i];
        if (s->preset[0]) {
            if (ps_apply_name(s->preset, &o) != GS_OK) {
                tui_message(u, 1, "tour: %s", gs_last_error());
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
                tui_message(u, 1, "tour: %s", gs_last_error());
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
    if (task) tui_set_task(u, task < 0 ? u->T : task);
    if (view >= 0 && view < TV_COUNT && view != u->view) {
        u->view = view;
        u->scroll = 0;
        tw_set_view(u->w, u->view);
    }
    if (future >= 0) u->future = future;
    u->msg[0] = 0;
}

/* Keys of a running tour: n / p move, Esc leaves; 1 when the key was used. */
static int tour_key(tui_state *u, int ch)
{
    if (u->tour_step <= 0) return 0;
    if (ch == 'n') {
        if (u->tour_step < u->tour.n) tui_tour_show(u, u->tour_step + 1);
        else tui_message(u, 0, "%s", "that was the last step: Esc leaves the tour, p goes back");
        return 1;
    }
    if (ch == 'p') {
        if (u->tour_step > 1) tui_tour_show(u, u->tour_step - 1);
        else tui_message(u, 0, "%s", "this is the first step: n goes on, Esc leaves the tour");
        return 1;
    }
    if (ch == 27) {
        u->tour_step = 0;
        tui_message(u, 0, "%s", "tour left: every key works as usual (? lists them)");
        return 1;
    }
    return 0;
}
/* The help scrolls (rows of a screen of cols × rows); any other key closes it. */
static void help_key(tui_state *u, int ch, int cols, int rows)
{
    int page = rows - 6 > 1 ? rows - 6 : 1;
    if (ch == KEY_DOWN || ch == 'j') u->help_scroll++;
    else if (ch == KEY_UP || ch == 'k') u->help_scroll--;
    else if (ch == KEY_NPAGE || ch == ' ') u->help_scroll += page;
    else if (ch == KEY_PPAGE) u->help_scroll -= page;
    else if (ch == KEY_HOME) u->help_scroll = 0;
    else if (ch != KEY_RESIZE) u->help = 0;
    static char lines[400][TUI_HELP_LEN];
    int bw = (cols - 2 > 100 ? 100 : cols - 2) - 4;
    int most = tui_help_rows(NULL, bw, lines, 400) - (rows - 5);
    if (u->help_scroll > most) u->help_scroll = most;
    if (u->help_scroll < 0) u->help_scroll = 0;
}

static void toggle_play(tui_state *u, double now)
{
    u->playing = !u->playing;
    u->next_tick = now + 1.0 / tui_speed(u);
    tw_set_playing(u->w, u->playing);
}

/* + and -: the selected parameter's next step up or down (its row's steps and range). */
static void step_param(tui_state *u, int up)
{
    if (seed_locked(u) || param_idle(u, (tui_param)u->sel)) return;
    op_opts tmp = u->opts;
    if (tui_param_step(&tmp.params, (tui_param)u->sel, up ? 1 : -1)) {
        push_undo(u);
        u->opts = tmp;
        params_changed(u);
        char b[64], m[96];
        tui_param_format((tui_param)u->sel, tui_param_get(&u->opts.params, (tui_param)u->sel), b, sizeof b);
        snprintf(m, sizeof m, "%s = %s", tui_param_label((tui_param)u->sel), b);
        tui_message(u, 0, "%s", m);
    } else tui_message(u, 0, "%s is at the end of its range", tui_param_label((tui_param)u->sel));
}

/* Enter: the editor opens on the selected parameter's value. */
static void edit_param(tui_state *u)
{
    if (seed_locked(u)) return;
    u->editing = 1;
    tui_param_format((tui_param)u->sel, tui_param_get(&u->opts.params, (tui_param)u->sel), u->edit, sizeof u->edit);
}

static void pin_baseline(tui_state *u)
{
    if (!u->res) { tui_message(u, 1, "%s", "nothing computed yet to pin"); return; }
    if (u->base) { en_results_free(u->base); free(u->base); u->base = NULL; }
    u->base = calloc(1, sizeof *u->base);
    if (!u->base || en_results_copy(u->base, u->res) != GS_OK) {
        free(u->base);
        u->base = NULL;
        tui_message(u, 1, "%s", "baseline: out of memory");
        return;
    }
    u->base_params = u->res->params;
    tui_message(u, 0, "%s", "baseline pinned (ghost curves, Δ column); B unpins it");
}

static void unpin_baseline(tui_state *u)
{
    if (!u->base) { tui_message(u, 0, "%s", "no baseline pinned (b pins one)"); return; }
    en_results_free(u->base);
    free(u->base);
    u->base = NULL;
    tui_message(u, 0, "%s", "baseline unpinned");
}

static void toggle_future(tui_state *u)
{
    u->future = !u->future;
    tui_message(u, 0, "%s", u->future ? "showing every task (f hides the tasks after the current one)"
                                      : "showing tasks up to the current one (f shows the rest)");
}

static void undo(tui_state *u)
{
    if (!u->nundo) { tui_message(u, 0, "%s", "nothing to undo"); return; }
    op_opts before = u->opts;
    u->opts = u->undo[--u->nundo];
    params_changed(u);
    char b[400];
    undo_text(&before.params, &u->opts.params, b, sizeof b);
    tui_message(u, 0, "%s", b);
}

static void next_glyphs(tui_state *u)
{
    if (!u->utf8) { tui_message(u, 0, "%s", "ASCII only: the locale is not UTF-8"); return; }
    u->glyphs = (cv_glyphs)((u->glyphs + 1) % 3);
    tui_message(u, 0, "glyphs: %s", u->glyphs == CV_BRAILLE ? "braille" : u->glyphs == CV_BLOCK ? "block" : "ASCII");
}

static void next_view(tui_state *u)
{
    u->scroll = 0;
    u->view = (u->view + 1) % TV_COUNT;
    tw_set_view(u->w, u->view);
    tui_message(u, 0, "view: %s", tui_view_title(u->view));
}

/* m and M: the first or the second shown method moves on among --methods (never onto the other). */
static void next_shown(tui_state *u, int first)
{
    int n = u->opts.n_methods;
    int *slot = first ? &u->m0 : &u->m1, other = first ? u->m1 : u->m0;
    int next = tui_cycle_method(*slot, other, n);
    if (next == *slot) {
        tui_message(u, 0, "%s", n < 2 ? "one method only: run with --methods gacl,gsr,air,… to compare"
                                      : "no other method to show: run with more --methods (e.g. gacl,gsr,air)");
        return;
    }
    *slot = next;
    tw_set_pair(u->w, u->m0, u->m1);
    char b[96], d0[32], d1[32] = "";
    ch_display_name(u->opts.methods[u->m0], d0, sizeof d0);
    if (u->m1 >= 0) ch_display_name(u->opts.methods[u->m1], d1, sizeof d1);
    snprintf(b, sizeof b, "showing %s%s%s", d0, d1[0] ? " vs " : "", d1);
    tui_message(u, 0, "%s", b);
}

int tui_on_key(tui_state *u, int ch, double now, int cols, int rows)
{
    if (u->help) { help_key(u, ch, cols, rows); return TUI_KEY_DONE; }
    if (u->editing) { editor_key(u, ch); return TUI_KEY_DONE; }
    if (tour_key(u, ch)) return TUI_KEY_DONE;
    tui_action a = tui_key_action(ch);
    switch (a) {
    case TA_PLAY: toggle_play(u, now); break;
    case TA_SLOWER: if (u->speed > 0) u->speed--; break;
    case TA_FASTER: if (u->speed < NSPEEDS - 1) u->speed++; break;
    case TA_NEXT: tui_set_task(u, u->task + 1); break;
    case TA_PREV: tui_set_task(u, u->task - 1); break;
    case TA_FIRST: tui_set_task(u, 1); break;
    case TA_LAST: tui_set_task(u, u->T); break;
    case TA_UP: u->sel = (u->sel + tui_param_count() - 1) % tui_param_count(); break;
    case TA_DOWN: u->sel = (u->sel + 1) % tui_param_count(); break;
    case TA_INC: case TA_DEC: step_param(u, a == TA_INC); break;
    case TA_EDIT: edit_param(u); break;
    case TA_BASELINE: pin_baseline(u); break;
    case TA_UNPIN: unpin_baseline(u); break;
    case TA_FUTURE: toggle_future(u); break;
    case TA_UNDO: undo(u); break;
    case TA_EXPORT: ask_export(u, 0); break;
    case TA_EXPORT_FRAMES: ask_export(u, 1); break;
    case TA_TUNE: ask_tune(u); break;
    case TA_SAVE: save_session(u); break;
    case TA_PRESET: next_preset(u); break;
    case TA_GLYPHS: next_glyphs(u); break;
    case TA_SCROLL_DOWN: case TA_SCROLL_UP: {
        /* a page: the claims rows visible on this screen minus one (the last stays in view) */
        int page = tui_claims_page(cols, rows, u->msg, u->glyphs);
        if (a == TA_SCROLL_DOWN) u->scroll = u->scroll + page < 200 ? u->scroll + page : 200;
        else u->scroll = u->scroll > page ? u->scroll - page : 0;
        break;
    }
    case TA_VIEW: next_view(u); break;
    case TA_METHOD0: case TA_METHOD1: next_shown(u, a == TA_METHOD0); break;
    case TA_HELP: u->help = 1; u->help_scroll = 0; break;
    case TA_REDRAW: return TUI_KEY_REDRAW;
    case TA_QUIT: return TUI_KEY_QUIT;
    default: break;
    }
    return TUI_KEY_DONE;
}
