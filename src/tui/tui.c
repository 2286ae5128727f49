/* tui/tui.c — the ncurses front end: terminal setup and teardown, colours, signals, the event
 * loop (the worker's results in, frames out, keys to tui_actions.c). The only file that calls
 * curses, on the UI thread; frames are composed by tui_draw.c into a canvas and blitted here.
 * Computation happens in tui_worker.c. */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <curses.h>

#include "gs_common.h"
#include "gs_preset.h"
#include "gs_tour.h"
#include "tui_int.h"

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

static int colour_index(const tui_state *u, uint32_t rgb)
{
    return u->color_mode == 256 ? tui_rgb_to_256(rgb) : rgb_to_8(rgb);
}

static short pair_for(tui_state *u, uint32_t rgb)
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
static void blit(tui_state *u, const cv_canvas *cv)
{
    for (int y = 0; y < cv->h; y++)
        for (int x = 0; x < cv->w; x++) {
            const cv_cell *c = &cv->cells[(long)y * cv->w + x];
            attr_t a = A_NORMAL;
            if (c->attr & CV_BOLD) a |= A_BOLD;
            if (c->attr & CV_DIM) a |= A_DIM;
            if (c->attr & CV_REVERSE) a |= A_REVERSE;
            if (c->attr & CV_UNDERLINE) a |= A_UNDERLINE;
            wchar_t wc[3] = {c->ch ? c->ch : L' ', c->mark, 0}; /* a combining mark in the cell */
            if (!u->utf8 && wc[0] > 126) wc[0] = L'?';
            if (!u->utf8) wc[1] = 0;
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

static void draw(tui_state *u, cv_canvas *cv, int busy, double progress)
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
    v.speed = tui_speed(u);
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
    v.scroll_out = &u->scroll;
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
    if (u->w) tw_work(u->w, v.work, sizeof v.work, &v.updating, &v.ahead);
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

static void free_seed_runs(tui_state *u)
{
    for (int k = 0; k < u->nseed_runs; k++) { en_results_free(u->seed_runs[k]); free(u->seed_runs[k]); }
    u->nseed_runs = 0;
}

static void warn_cb(const char *msg, void *user)
{
    tui_state *u = user;
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
/* Before anything else: the tour (--tour), the theme (--theme) and a terminal to draw on. 0, or
 * the exit status with its message printed. */
static int prepare(op_opts *o, tr_tour *tour, char *tour_name, size_t n, tui_theme *theme)
{
    memset(tour, 0, sizeof *tour);
    if (o->tour && load_tour(o, tour, tour_name, n) != GS_OK) {
        fprintf(stderr, "gsrscope: %s\n", gs_last_error());
        return 2;
    }
    if (tui_theme_load(o->theme ? o->theme : "default", theme) != GS_OK) {
        if (o->theme) { /* asked for: a missing or broken theme is an error */
            fprintf(stderr, "gsrscope: %s\n", gs_last_error());
            tr_free(tour);
            return 2;
        }
        tui_theme_parse("", "default", theme); /* no assets installed: the built-in default */
    }
    const char *term = getenv("TERM");
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || !term || !*term || !strcmp(term, "dumb")) {
        fprintf(stderr, "gsrscope: the TUI needs a terminal (use `gsrscope run` for headless output)\n");
        tr_free(tour);
        return 2;
    }
    return 0;
}

/* The UI state for options o and one pipeline per seed (--seeds: the data loaded once; seeds[0]
 * the shown one, *ns of them). 0, or the exit status with its message printed. */
static int open_runs(tui_state *u, op_opts *o, tr_tour *tour, const char *tour_name, en_config *cfg, pl_ctx *ctx,
                     uint64_t *seeds, int *ns)
{
    memset(u, 0, sizeof *u);
    u->preset = -1;
    int st;
    /* --preset and --session were applied under the command line's options (main.c) */
    if (o->session) u->session_path = o->session;
    if (o->preset) u->preset = ps_find(o->preset);
    u->opts = *o;
    if (o->tour) {
        u->tour = *tour;
        snprintf(u->tour_name, sizeof u->tour_name, "%s", tour_name);
        u->tour_base = u->opts;
    }

    memset(cfg, 0, sizeof *cfg);
    cfg->methods = o->methods;
    cfg->n_methods = o->n_methods;
    cfg->spectrum = o->spectrum;
    cfg->keep_task_grams = 1;
    /* the augmenters' rows, for the claims view's spread and mass rows (mc_rows_compute) */
    cfg->collect_aug = 1;
    if ((st = mt_resolve(cfg)) != GS_OK) {
        fprintf(stderr, "gsrscope: %s\n", gs_last_error());
        tr_free(tour);
        return gs_exit_code(st);
    }
    seeds[0] = o->params.seed;
    *ns = 1;
    if (o->seeds && (st = op_parse_seeds(o->seeds, seeds, TUI_MAX_SEEDS, ns)) != GS_OK) {
        fprintf(stderr, "gsrscope: %s\n", gs_last_error());
        tr_free(tour);
        return gs_exit_code(st);
    }
    u->nseeds = *ns;
    u->opts.params.seed = seeds[0];
    if (o->tour) u->tour_base = u->opts;
    memset(ctx, 0, sizeof *ctx * TUI_MAX_SEEDS);
    if ((st = pl_open_seeds(ctx, *ns, seeds, &u->opts, cfg, warn_cb, u)) != GS_OK) {
        fprintf(stderr, "gsrscope: %s\n", gs_last_error());
        tr_free(tour);
        return gs_exit_code(st);
    }
    snprintf(u->data_name, sizeof u->data_name, "%s", ctx[0].prob.data_name);
    u->T = ctx[0].prob.T;
    u->task = 1;
    u->speed = 2;
    u->gen = 1;
    u->m0 = 0;
    u->m1 = o->n_methods > 1 ? 1 : -1;
    return 0;
}

/* The signal handlers the TUI replaces while the terminal is in curses mode. */
static const int FATAL[4] = {SIGSEGV, SIGBUS, SIGFPE, SIGABRT};
typedef struct {
    struct sigaction old_int, old_term, old_hup, old_fatal[4];
} saved_signals;

/* Curses mode on the terminal: signals caught (SIGINT, SIGTERM and SIGHUP wake the loop through
 * wake_fd; fatal ones restore the terminal), keys unbuffered, the theme's colours. NULL when
 * curses cannot drive the terminal. */
static SCREEN *screen_open(tui_state *u, int wake_fd, saved_signals *s)
{
    SCREEN *scr = newterm(NULL, stdout, stdin);
    if (!scr) return NULL;
    set_term(scr);
    g_sig_wake_fd = wake_fd;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &s->old_int);
    sigaction(SIGTERM, &sa, &s->old_term);
    sigaction(SIGHUP, &sa, &s->old_hup);
    struct sigaction fa;
    memset(&fa, 0, sizeof fa);
    fa.sa_handler = on_fatal;
    sigemptyset(&fa.sa_mask);
    fa.sa_flags = SA_RESETHAND;
    for (int i = 0; i < 4; i++) sigaction(FATAL[i], &fa, &s->old_fatal[i]);
    cbreak();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    const char *nc = getenv("NO_COLOR");
    u->bg = -1;
    if (!(nc && *nc) && u->theme.colour && has_colors() && start_color() == OK) {
        use_default_colors();
        if (COLORS >= 256 && COLOR_PAIRS >= 64) u->color_mode = 256;
        else if (COLORS >= 8 && COLOR_PAIRS >= 9) u->color_mode = 8;
        if (u->color_mode && u->theme.background != CV_RGB_DEFAULT) {
            u->bg = (short)colour_index(u, u->theme.background);
            short p = pair_for(u, CV_RGB_DEFAULT);
            if (p) bkgd(COLOR_PAIR(p)); /* erased cells get the theme's background too */
        }
    }
    return scr;
}

/* The terminal as it was, and the signal handlers. */
static void screen_close(SCREEN *scr, const saved_signals *s)
{
    curs_set(1);
    endwin();
    delscreen(scr);
    sigaction(SIGINT, &s->old_int, NULL);
    sigaction(SIGTERM, &s->old_term, NULL);
    sigaction(SIGHUP, &s->old_hup, NULL);
    for (int i = 0; i < 4; i++) sigaction(FATAL[i], &s->old_fatal[i], NULL);
    g_sig_wake_fd = -1;
}

/* What the worker published since the last turn: results (of the shown generation, or the first
 * ones), the other seeds', the views' computations, a tuning result, its status (*busy,
 * *progress, a message). 1 when the screen changed. */
static int take_news(tui_state *u, int *busy, double *progress)
{
    tui_worker *w = u->w;
    int dirty = 0;
    en_results *r = tw_take(w);
    if (r) {
        if (r->generation == u->gen || !u->res) {
            free_results(&u->res);
            u->res = r;
            if (r->T != u->T) { u->T = r->T; if (u->task > u->T) u->task = u->T; }
            dirty = 1;
        } else {
            en_results_free(r);
            free(r);
        }
    }
    en_results *sr[TUI_MAX_SEEDS];
    int n = tw_take_seeds(w, sr, TUI_MAX_SEEDS);
    if (n) { /* a whole generation of the other seeds: replaces the previous one */
        free_seed_runs(u);
        for (int k = 0; k < n; k++) u->seed_runs[k] = sr[k];
        u->nseed_runs = n;
        dirty = 1;
    }
    /* the worker's view computations: each kept for its view (only of these parameters) */
    tui_extra *x;
    while ((x = tw_take_extra(w))) {
        if (x->gen == u->gen && x->view >= 0 && x->view < TV_COUNT) {
            if (u->ex[x->view]) { tui_extra_free(u->ex[x->view]); free(u->ex[x->view]); }
            u->ex[x->view] = x;
            dirty = 1;
        } else {
            tui_extra_free(x);
            free(x);
        }
    }
    int tp;
    double tv, tobj;
    uint64_t tg;
    if (tw_take_tune(w, &tp, &tv, &tobj, &tg)) { tui_apply_tune(u, tp, tv, tobj, tg); dirty = 1; }
    char wm[512];
    int werr = 0, wbusy;
    if (tw_status(w, &wbusy, progress, wm, sizeof wm, &werr)) { tui_message(u, werr, "%s", wm); dirty = 1; }
    if (wbusy != *busy) { *busy = wbusy; dirty = 1; }
    return dirty;
}

/* The keys waiting, each to tui_key (*dirty set when there was one); 1 to quit. */
static int read_keys(tui_state *u, int *dirty)
{
    int ch;
    while ((ch = getch()) != ERR) {
        *dirty = 1;
        if (ch == KEY_RESIZE) continue; /* the next draw uses the new size, whatever is open */
        /* too small ("need at least WxH"): nothing on screen to act on, so only q quits; a
         * key is never kept to act once the window grows */
        tui_layout lt;
        if (tui_layout_compute(COLS, LINES, &lt) != 0) {
            if (tui_key_action(ch) == TA_QUIT) return 1;
            continue;
        }
        int k = tui_on_key(u, ch, gs_now(), COLS, LINES);
        if (k == TUI_KEY_QUIT) return 1;
        if (k == TUI_KEY_REDRAW) clearok(curscr, TRUE);
    }
    return 0;
}

/* Until q or a signal: the worker's news in, a frame out when something changed, the next task
 * when playing, then a wait for a key, the worker or the next tick. The exit status (1: the wait
 * failed or the terminal went away). */
static int event_loop(tui_state *u)
{
    int wake_fd = u->w->wake[0];
    cv_canvas cv;
    memset(&cv, 0, sizeof cv);
    int quit = 0, dirty = 1, busy = 1, exit_status = 0;
    double progress = 0, msg_time = 0;
    char last_msg[512] = "";
    while (!quit) {
        if (g_quit_signal) break;
        double now = gs_now();
        if (take_news(u, &busy, &progress)) dirty = 1;
        if (busy) { u->spinner++; dirty = 1; }
        if (strcmp(last_msg, u->msg)) { snprintf(last_msg, sizeof last_msg, "%s", u->msg); msg_time = now; }
        else if (u->msg[0] && !u->msg_err && now - msg_time > 6) { u->msg[0] = 0; last_msg[0] = 0; dirty = 1; }
        if (u->playing && now >= u->next_tick) {
            tui_set_task(u, u->task % u->T + 1);
            /* the next tick one period after this one was due (a late wake-up does not slow the
             * rate the status line shows), or one period from now after a long stall */
            u->next_tick += 1.0 / tui_speed(u);
            if (u->next_tick < now) u->next_tick = now + 1.0 / tui_speed(u);
            dirty = 1;
        }
        if (dirty) { draw(u, &cv, busy, progress); dirty = 0; }

        int timeout_ms = 1000;
        if (busy) timeout_ms = 120;
        if (u->playing) {
            int t = (int)ceil((u->next_tick - gs_now()) * 1000);
            if (t < timeout_ms) timeout_ms = t < 0 ? 0 : t;
        }
        struct pollfd pf[2] = {{STDIN_FILENO, POLLIN, 0}, {wake_fd, POLLIN, 0}};
        int pr = poll(pf, 2, timeout_ms);
        if (pr < 0 && errno != EINTR) { exit_status = 1; break; }
        if (pr > 0 && (pf[1].revents & POLLIN)) {
            char buf[64];
            while (read(wake_fd, buf, sizeof buf) > 0) {}
        }
        if (pr > 0 && (pf[0].revents & (POLLHUP | POLLERR | POLLNVAL)) && !(pf[0].revents & POLLIN)) {
            exit_status = 1; /* the terminal went away */
            break;
        }
        quit = read_keys(u, &dirty);
        if (pr < 0) dirty = 1; /* EINTR: SIGWINCH and friends; curses queues KEY_RESIZE */
    }
    cv_free(&cv);
    return exit_status;
}

int tui_main(op_opts *o)
{
    tr_tour tour;
    char tour_name[64] = "";
    tui_theme theme;
    int st = prepare(o, &tour, tour_name, sizeof tour_name, &theme);
    if (st) return st;
    static tui_state u; /* large (undo stack): not on the stack */
    en_config cfg;
    uint64_t seeds[TUI_MAX_SEEDS] = {0};
    int ns;
    static pl_ctx ctx[TUI_MAX_SEEDS];
    if ((st = open_runs(&u, o, &tour, tour_name, &cfg, ctx, seeds, &ns))) return st;

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
    if (u.tour.n > 0) tui_tour_show(&u, 1);

    u.theme = theme;
    saved_signals saved;
    SCREEN *scr = screen_open(&u, w.wake[1], &saved);
    if (!scr) {
        tw_stop(&w);
        pl_free_seeds(ctx, ns);
        fprintf(stderr, "gsrscope: cannot drive terminal type '%s' (use `gsrscope run` for headless output)\n",
                getenv("TERM"));
        return 2;
    }
    int exit_status = event_loop(&u);
    screen_close(scr, &saved);
    tw_stop(&w);
    /* an export asked for but not finished when the TUI ends leaves no empty file */
    for (int k = 0; k < u.nreserved; k++) {
        struct stat sb;
        if (stat(u.reserved[k], &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0 && unlink(u.reserved[k]) == 0)
            fprintf(stderr, "gsrscope: %s: the export was not finished when the TUI ended; nothing written\n", u.reserved[k]);
    }
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
