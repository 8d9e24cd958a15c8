/* Progress lines: rate, ETA and text (progress.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/progress.h"

void progress_init(struct progress_meter *m, enum progress_style style, double now)
{
    memset(m, 0, sizeof *m);
    m->style = style;
    m->t0 = now;
    m->last_line = now;
}

void progress_eager(struct progress_meter *m) { m->last_line = -INFINITY; }

double progress_interval(const struct progress_meter *m, double now)
{
    if (m->style == PROGRESS_LIVE)
        return PROGRESS_LIVE_INTERVAL;
    double t = (now - m->t0) / 10.0;
    return t < PROGRESS_PLAIN_MIN ? PROGRESS_PLAIN_MIN : t > PROGRESS_PLAIN_MAX ? PROGRESS_PLAIN_MAX : t;
}

double progress_eta(uint64_t done, uint64_t total, double rate)
{
    if (total == 0 || rate <= 0 || done > total)
        return -1;
    return (double)(total - done) / rate;
}

void progress_duration(double s, char *buf, size_t n)
{
    if (!(s >= 0) || s > 1e9) {
        snprintf(buf, n, "?");
        return;
    }
    unsigned long long t = (unsigned long long)(s + 0.5);
    if (t < 60)
        snprintf(buf, n, "%llus", t);
    else if (t < 3600)
        snprintf(buf, n, "%llum%02llus", t / 60, t % 60);
    else if (t < 86400)
        snprintf(buf, n, "%lluh%02llum", t / 3600, t % 3600 / 60);
    else
        snprintf(buf, n, "%llud%02lluh", t / 86400, t % 86400 / 3600);
}

void progress_rate_text(double rate, const char *unit, char *buf, size_t n)
{
    if (rate >= 1e6)
        snprintf(buf, n, "%.3g M %s/s", rate / 1e6, unit);
    else if (rate >= 1e4)
        snprintf(buf, n, "%.3g k %s/s", rate / 1e3, unit);
    else if (rate >= 10)
        snprintf(buf, n, "%.0f %s/s", rate, unit);
    else
        snprintf(buf, n, "%.2g %s/s", rate, unit);
}

void progress_count(uint64_t v, char *buf, size_t n)
{
    char digits[24], out[32];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = 0;
    snprintf(buf, n, "%s", out);
}

void progress_format(const struct saturn_progress *p, double rate, double elapsed, char *buf,
                     size_t n)
{
    char done[32], total[32], r[48], el[16], eta[16];
    size_t o = 0;
#define PUT(...) \
    do { \
        if (o < n) { \
            int w_ = snprintf(buf + o, n - o, __VA_ARGS__); \
            o += w_ > 0 ? (size_t)w_ : 0; \
        } \
    } while (0)
    if (n)
        buf[0] = 0;
    if (p->label && p->label[0])
        PUT("%s: ", p->label);
    PUT("%s", p->task ? p->task : "run");
    if (p->phase && p->phase[0] && (!p->task || strcmp(p->phase, p->task)))
        PUT(" %s", p->phase);
    progress_count(p->done, done, sizeof done);
    const char *unit = p->unit ? p->unit : "";
    if (p->total) {
        double pct = 100.0 * (double)p->done / (double)p->total;
        progress_count(p->total, total, sizeof total);
        PUT("  %5.1f%%  %s/%s %s", pct > 100 ? 100 : pct, done, total, unit);
    } else {
        PUT("  %s %s", done, unit);
    }
    if (rate > 0) {
        progress_rate_text(rate, unit, r, sizeof r);
        PUT("  %s", r);
    }
    progress_duration(elapsed, el, sizeof el);
    PUT("  elapsed %s", el);
    double left = progress_eta(p->done, p->total, rate);
    if (left >= 0) {
        progress_duration(left, eta, sizeof eta);
        PUT("  ETA %s", eta);
    }
#undef PUT
}

/* The rate: an exponential moving average of the rates between reports,
 * with time constant PROGRESS_RATE_TAU; it starts again when the unit
 * changes or the count goes back (a new phase counts something else). */
static void update_rate(struct progress_meter *m, const struct saturn_progress *p, double now)
{
    const char *unit = p->unit ? p->unit : "";
    if (!m->have_prev || strcmp(unit, m->unit) || p->done < m->done_prev) {
        snprintf(m->unit, sizeof m->unit, "%s", unit);
        m->rate = 0;
        m->t_prev = now;
        m->done_prev = p->done;
        m->have_prev = true;
        return;
    }
    double dt = now - m->t_prev;
    if (dt <= 0)
        return;
    double inst = (double)(p->done - m->done_prev) / dt;
    double a = m->rate > 0 ? 1.0 - exp(-dt / PROGRESS_RATE_TAU) : 1.0;
    m->rate += a * (inst - m->rate);
    m->t_prev = now;
    m->done_prev = p->done;
}

bool progress_update(struct progress_meter *m, const struct saturn_progress *p, double now,
                     char *buf, size_t n)
{
    if (m->style == PROGRESS_OFF)
        return false;
    update_rate(m, p, now);
    if (now - m->last_line < progress_interval(m, now))
        return false;
    progress_format(p, m->rate, now - m->t0, buf, n);
    m->last_line = now;
    m->lines++;
    return true;
}

bool progress_finish(struct progress_meter *m, const char *task, double now, bool force,
                     char *buf, size_t n)
{
    if (m->style == PROGRESS_OFF || (!m->lines && !force))
        return false;
    char el[16];
    progress_duration(now - m->t0, el, sizeof el);
    snprintf(buf, n, "%s: done in %s", task ? task : "run", el);
    m->lines++;
    return true;
}
