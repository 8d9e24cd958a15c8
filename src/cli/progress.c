/* Progress on stderr for the saturn command: a live line on a terminal, a
 * plain line now and then otherwise (core/progress.c decides when and
 * what); never on stdout, so results stay as they are. */
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

static double clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

enum progress_style cli_progress_style(int requested, bool quiet)
{
    if (requested >= 0)
        return (enum progress_style)requested;
    if (quiet)
        return PROGRESS_OFF;
    return isatty(STDERR_FILENO) ? PROGRESS_LIVE : PROGRESS_PLAIN;
}

int cli_progress_arg(const char *w, int *style)
{
    if (!strcmp(w, "--progress"))
        *style = isatty(STDERR_FILENO) ? PROGRESS_LIVE : PROGRESS_PLAIN;
    else if (!strcmp(w, "--progress=live"))
        *style = PROGRESS_LIVE;
    else if (!strcmp(w, "--progress=plain"))
        *style = PROGRESS_PLAIN;
    else if (!strcmp(w, "--no-progress") || !strcmp(w, "--progress=off"))
        *style = PROGRESS_OFF;
    else
        return 0;
    return 1;
}

void cli_progress_start(struct cli_progress *p, enum progress_style style, bool forced)
{
    memset(p, 0, sizeof *p);
    progress_init(&p->m, style, clock_now());
    if (forced)
        progress_eager(&p->m);
    p->forced = forced;
    pthread_mutex_init(&p->lock, NULL);
}

static void copy(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src ? src : "");
}

/* Writes a line: redrawn in place (cut to the terminal's width, so that it
 * never wraps) or on a line of its own. */
static void emit(const struct cli_progress *p, const char *line)
{
    if (p->m.style == PROGRESS_LIVE) {
        struct winsize ws;
        int cols = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 8 ? ws.ws_col : 100;
        fprintf(stderr, "\r\033[K%.*s", cols - 1, line);
    } else {
        fprintf(stderr, "saturn: %s\n", line);
    }
    fflush(stderr);
}

void cli_progress_report(void *user, const struct saturn_progress *r)
{
    struct cli_progress *p = user;
    if (p->m.style == PROGRESS_OFF)
        return;
    pthread_mutex_lock(&p->lock);
    copy(p->task, sizeof p->task, r->task);
    copy(p->phase, sizeof p->phase, r->phase);
    copy(p->label, sizeof p->label, r->label);
    copy(p->unit, sizeof p->unit, r->unit);
    p->last = *r;
    p->last.task = p->task;
    p->last.phase = p->phase;
    p->last.label = r->label ? p->label : NULL;
    p->last.unit = p->unit;
    p->reported = true;
    char line[512];
    if (progress_update(&p->m, &p->last, clock_now(), line, sizeof line))
        emit(p, line);
    pthread_mutex_unlock(&p->lock);
}

void cli_progress_end(struct cli_progress *p, bool ok)
{
    char line[512];
    if (p->m.style == PROGRESS_LIVE)
        cli_progress_clear();
    if (ok && p->reported && p->m.style == PROGRESS_PLAIN &&
        progress_finish(&p->m, p->name ? p->name : p->task, clock_now(), p->forced, line,
                        sizeof line))
        emit(p, line);
    pthread_mutex_destroy(&p->lock);
}

void cli_progress_clear(void)
{
    if (isatty(STDERR_FILENO)) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}
