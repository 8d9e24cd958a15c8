/* INI files read whole before use: see ini_read.h. */
#define _GNU_SOURCE /* getline, strdup */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "io/ini_read.h"

/* State shared by the line reader and the key handler. */
struct reader {
    struct ini_entries *r;
    const struct ini_hooks *hooks;
    int line;       /* lines handed to inih so far = current line */
    int read_errno; /* nonzero: reading failed */
    int too_long;   /* nonzero: the current line is longer than this */
    int cont_line;  /* the last line handed over as a continuation */
    bool nomem;
    size_t headers; /* section headers so far */
    char *buf;      /* getline buffer */
    size_t cap;
    size_t ecap;
};

/* Hands inih one whole line (so inih's line count is ours), without its
 * leading blanks unless the line hook asks to keep one. Returns NULL to
 * stop at the first problem. */
static char *read_line(char *str, int num, void *stream)
{
    struct reader *s = stream;
    if (s->read_errno || s->too_long || s->nomem)
        return NULL;
    errno = 0;
    if (getline(&s->buf, &s->cap, s->r->f) < 0) {
        if (ferror(s->r->f))
            s->read_errno = errno ? errno : EIO;
        return NULL;
    }
    s->line++;
    char *p = s->buf;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '[')
        s->headers++;
    int what = s->hooks->line ? s->hooks->line(s->hooks->user, p, p > s->buf, s->line)
                              : INI_LINE_KEY;
    if (what == INI_LINE_NOMEM) {
        s->nomem = true;
        return NULL;
    }
    if (what == INI_LINE_CONTINUE && p > s->buf) {
        p--;
        s->cont_line = s->line;
    }
    if (strcspn(p, "\r\n") + 3 > (size_t)num) { /* inih needs room for "\r\n\0" */
        s->too_long = num - 3;
        return NULL;
    }
    memcpy(str, p, strlen(p) + 1);
    return str;
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
    struct reader *s = user;
    struct ini_entries *r = s->r;
    if (s->nomem)
        return 1;
    value = value ? value : "";
    struct ini_entry *last = r->n ? &r->e[r->n - 1] : NULL;
    if (s->cont_line == s->line && last && last->header == s->headers) {
        if (!s->hooks->append(s->hooks->user, &last->value, value))
            s->nomem = true;
        return 1;
    }
    if (r->n == s->ecap) {
        size_t cap = s->ecap ? 2 * s->ecap : 32;
        struct ini_entry *e = realloc(r->e, cap * sizeof *e);
        if (!e) {
            s->nomem = true;
            return 1;
        }
        r->e = e;
        s->ecap = cap;
    }
    struct ini_entry *e = &r->e[r->n];
    e->key = s->hooks->key(s->hooks->user, section, name);
    e->value = strdup(value);
    e->line = s->line;
    e->header = s->headers;
    if (!e->key || !e->value) {
        free(e->key);
        free(e->value);
        s->nomem = true;
        return 1;
    }
    r->n++;
    return 1;
}

int ini_entries_read(struct ini_entries *r, const char *path,
                     const struct ini_hooks *hooks, struct saturn_error *err)
{
    *r = (struct ini_entries){.path = path};
    r->f = fopen(path, "r");
    if (!r->f)
        return saturn_error_set(err, SATURN_EINPUT, "%s: cannot read: %s",
                                path, strerror(errno));
    struct reader s = {.r = r, .hooks = hooks};
    int bad = ini_parse_stream(read_line, &s, on_key, &s);
    free(s.buf);
    int rc = SATURN_OK;
    if (s.nomem || bad == -2) {
        rc = saturn_error_set(err, SATURN_ENOMEM, "%s: out of memory", path);
    } else if (s.read_errno) {
        rc = saturn_error_set(err, SATURN_EINPUT, "%s: cannot read: %s", path,
                              strerror(s.read_errno));
    } else {
        /* The first problem line, if any: a syntax error inih reported or
         * the over-long line the reader stopped at (which inih never saw,
         * so a syntax error it reported comes before). */
        r->stop = bad > 0 ? bad : 0;
        if (s.too_long && (r->stop == 0 || s.line < r->stop)) {
            r->stop = s.line;
            r->too_long = s.too_long;
        }
    }
    if (rc != SATURN_OK)
        ini_entries_free(r);
    return rc;
}

/* The text of line n (1-based), trimmed, for quoting in a message. */
static void quote_line(FILE *f, int n, char *out, size_t cap)
{
    out[0] = 0;
    if (fseek(f, 0, SEEK_SET) != 0)
        return;
    char *buf = NULL;
    size_t bcap = 0;
    for (int i = 1; getline(&buf, &bcap, f) >= 0; i++) {
        if (i < n)
            continue;
        char *p = buf;
        while (*p == ' ' || *p == '\t')
            p++;
        p[strcspn(p, "\r\n")] = 0;
        snprintf(out, cap, "%s", p);
        break;
    }
    free(buf);
}

int ini_entries_error(const struct ini_entries *r, bool quote, const char *forms,
                      const char *long_hint, struct saturn_error *err)
{
    if (r->too_long)
        return saturn_error_set(err, SATURN_EINPUT,
                                "%s:%d: syntax error: line longer than %d characters%s",
                                r->path, r->stop, r->too_long, long_hint);
    char text[256];
    if (quote)
        quote_line(r->f, r->stop, text, sizeof text);
    return saturn_error_set(err, SATURN_EINPUT, "%s:%d: syntax error: %s%s%snot %s",
                            r->path, r->stop, quote ? "'" : "", quote ? text : "",
                            quote ? "' is " : "", forms);
}

void ini_entries_free(struct ini_entries *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->e[i].key);
        free(r->e[i].value);
    }
    free(r->e);
    if (r->f)
        fclose(r->f);
    *r = (struct ini_entries){0};
}
