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
    bool nul;       /* the current line holds a NUL byte */
    int cont_line;  /* the last line handed over as a continuation */
    bool nomem;
    size_t headers; /* section headers so far */
    char *buf;      /* getline buffer: bytes up to a newline, which may */
    size_t cap;     /* hold several lines ended by a lone carriage */
    size_t len;     /* return (old Mac files): [pos, len) is what is */
    size_t pos;     /* left to hand over */
    size_t ecap;
};

/* The next line of the file in s->buf[start, *end), ended by "\n", "\r\n"
 * or a lone "\r" (all three are line ends, as for any text tool). Returns
 * false at the end of the file or on a read error. */
static bool next_line(struct reader *s, size_t *start, size_t *end)
{
    if (s->pos >= s->len) {
        errno = 0;
        ssize_t n = getline(&s->buf, &s->cap, s->r->f);
        if (n < 0) {
            if (ferror(s->r->f))
                s->read_errno = errno ? errno : EIO;
            return false;
        }
        s->len = (size_t)n;
        s->pos = 0;
    }
    size_t i = s->pos;
    while (i < s->len && s->buf[i] != '\n' && s->buf[i] != '\r')
        i++;
    if (i < s->len && s->buf[i] == '\r' && i + 1 < s->len && s->buf[i + 1] == '\n')
        i++;
    *start = s->pos;
    *end = i < s->len ? i + 1 : i;
    return true;
}

/* Hands inih one whole line (so inih's line count is ours), without its
 * leading blanks unless the line hook asks to keep one. Returns NULL to
 * stop at the first problem. */
static char *read_line(char *str, int num, void *stream)
{
    struct reader *s = stream;
    if (s->read_errno || s->too_long || s->nomem || s->nul)
        return NULL;
    size_t start, end;
    if (!next_line(s, &start, &end))
        return NULL;
    s->line++;
    s->pos = end;
    if (memchr(s->buf + start, 0, end - start)) {
        s->nul = true; /* a binary file, or a line a C string cannot hold */
        return NULL;
    }
    /* The line as a string of its own; the byte after it is put back. */
    char saved = s->buf[end];
    s->buf[end] = 0;
    char *p = s->buf + start;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '[')
        s->headers++;
    int what = s->hooks->line ? s->hooks->line(s->hooks->user, p, p > s->buf + start, s->line)
                              : INI_LINE_KEY;
    char *out = str;
    if (what == INI_LINE_NOMEM) {
        s->nomem = true;
        out = NULL;
    } else {
        if (what == INI_LINE_CONTINUE && p > s->buf + start) {
            p--;
            s->cont_line = s->line;
        }
        /* One line end at most follows the text: room for it and "\0". */
        if (strcspn(p, "\r\n") + 3 > (size_t)num) {
            s->too_long = num - 3;
            out = NULL;
        } else {
            memcpy(str, p, strlen(p) + 1);
        }
    }
    s->buf[end] = saved;
    return out;
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
        if ((s.too_long || s.nul) && (r->stop == 0 || s.line < r->stop)) {
            r->stop = s.line;
            r->too_long = s.too_long;
            r->nul = s.nul;
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
    struct ini_entries file = {.f = f};
    struct reader q = {.r = &file};
    size_t start, end;
    for (int i = 1; next_line(&q, &start, &end); i++) {
        q.pos = end;
        if (i < n)
            continue;
        char *p = q.buf + start;
        size_t len = end - start;
        while (len && (*p == ' ' || *p == '\t'))
            p++, len--;
        while (len && (p[len - 1] == '\r' || p[len - 1] == '\n'))
            len--;
        snprintf(out, cap, "%.*s", (int)(len < cap ? len : cap - 1), p);
        break;
    }
    free(q.buf);
}

int ini_entries_error(const struct ini_entries *r, bool quote, const char *forms,
                      const char *long_hint, struct saturn_error *err)
{
    if (r->nul)
        return saturn_error_set(err, SATURN_EINPUT,
                                "%s:%d: syntax error: a NUL byte (is this a text file?)",
                                r->path, r->stop);
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
