/* INI configurations: load (inih), command-line overrides, and write back.
 *
 * Loading reads the whole file first and applies its keys only afterwards:
 * inih keeps parsing past a syntax error, and "stop at the first error"
 * must mean the first error in file order, whatever its kind. Within one
 * file a repeated key is allowed and the later line wins. */
#define _GNU_SOURCE /* getline */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "saturn/io.h"
#include "saturn/saturn.h"

struct ini_entry {
    char *key; /* "section.name" */
    char *value;
    int line;
};

/* State shared by the line reader and the key handler. */
struct ini_load {
    FILE *f;
    const char *path;
    int line;         /* lines handed to inih so far = current line */
    int read_errno;   /* nonzero: reading failed */
    int too_long;     /* nonzero: the current line is longer than this */
    bool nomem;
    char *buf;        /* getline buffer */
    size_t cap;
    struct ini_entry *e;
    size_t n, ecap;
};

/* Hands inih one whole line (so inih's line count is ours), without its
 * leading blanks: an indented line would otherwise continue the previous
 * value (inih's multi-line mode), and indenting keys under a section is a
 * common style. Returns NULL to stop at the first problem. */
static char *read_line(char *str, int num, void *stream)
{
    struct ini_load *s = stream;
    if (s->read_errno || s->too_long || s->nomem)
        return NULL;
    errno = 0;
    ssize_t got = getline(&s->buf, &s->cap, s->f);
    if (got < 0) {
        if (ferror(s->f))
            s->read_errno = errno ? errno : EIO;
        return NULL;
    }
    s->line++;
    const char *p = s->buf;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t len = strlen(p);
    /* inih needs room for "\r\n" and the terminator after the text. */
    if (strcspn(p, "\r\n") + 3 > (size_t)num) {
        s->too_long = num - 3;
        return NULL;
    }
    memcpy(str, p, len + 1);
    return str;
}

static char *join_key(const char *section, const char *name)
{
    size_t ns = strlen(section), nn = strlen(name);
    char *key = malloc(ns + nn + 2);
    if (!key)
        return NULL;
    if (ns) {
        memcpy(key, section, ns);
        key[ns] = '.';
        ns++;
    }
    memcpy(key + ns, name, nn + 1);
    return key;
}

static int on_key(void *user, const char *section, const char *name,
                  const char *value)
{
    struct ini_load *s = user;
    if (s->nomem)
        return 1;
    if (s->n == s->ecap) {
        size_t cap = s->ecap ? 2 * s->ecap : 32;
        struct ini_entry *e = realloc(s->e, cap * sizeof *e);
        if (!e) {
            s->nomem = true;
            return 1;
        }
        s->e = e;
        s->ecap = cap;
    }
    struct ini_entry *e = &s->e[s->n];
    e->key = join_key(section, name);
    e->value = strdup(value ? value : "");
    e->line = s->line;
    if (!e->key || !e->value) {
        free(e->key);
        free(e->value);
        s->nomem = true;
        return 1;
    }
    s->n++;
    return 1;
}

static void load_free(struct ini_load *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->e[i].key);
        free(s->e[i].value);
    }
    free(s->e);
    free(s->buf);
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

/* Applies the entries read before line `stop` (0: all of them). */
static int apply_entries(struct saturn_config *c, const struct ini_load *s,
                         int stop, struct saturn_error *err)
{
    for (size_t i = 0; i < s->n; i++) {
        if (stop > 0 && s->e[i].line >= stop)
            break;
        int rc = saturn_config_set(c, s->e[i].key, s->e[i].value, s->path,
                                   s->e[i].line, err);
        if (rc != SATURN_OK)
            return rc;
    }
    return SATURN_OK;
}

static int syntax_error(struct ini_load *s, int line, struct saturn_error *err)
{
    char text[256];
    quote_line(s->f, line, text, sizeof text);
    return saturn_error_set(err, SATURN_EINPUT,
                            "%s:%d: syntax error: '%s' is not 'key = value', "
                            "'[section]' or a comment",
                            s->path, line, text);
}

int saturn_config_load_ini(struct saturn_config *c, const char *path,
                           struct saturn_error *err)
{
    struct ini_load s = {.path = path};
    s.f = fopen(path, "r");
    if (!s.f)
        return saturn_error_set(err, SATURN_EINPUT, "%s: cannot read: %s",
                                path, strerror(errno));
    int bad = ini_parse_stream(read_line, &s, on_key, &s);
    int rc;
    if (s.nomem || bad == -2) {
        rc = saturn_error_set(err, SATURN_ENOMEM, "%s: out of memory", path);
    } else if (s.read_errno) {
        rc = saturn_error_set(err, SATURN_EINPUT, "%s: cannot read: %s", path,
                              strerror(s.read_errno));
    } else {
        /* The first problem line, if any: a syntax error inih reported or
         * the over-long line the reader stopped at. */
        int stop = bad > 0 ? bad : 0;
        if (s.too_long && (stop == 0 || s.line < stop))
            stop = s.line;
        rc = apply_entries(c, &s, stop, err);
        if (rc == SATURN_OK && stop > 0 && stop == bad)
            rc = syntax_error(&s, stop, err);
        else if (rc == SATURN_OK && stop > 0)
            rc = saturn_error_set(err, SATURN_EINPUT,
                                  "%s:%d: syntax error: line longer than %d characters",
                                  path, stop, s.too_long);
    }
    fclose(s.f);
    load_free(&s);
    return rc;
}

int saturn_config_apply_arg(struct saturn_config *c, const char *arg,
                            struct saturn_error *err)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return saturn_error_set(err, SATURN_EINPUT,
                                "command line: '%s' is not key=value", arg);
    size_t n = (size_t)(eq - arg);
    char *key = malloc(n + 1);
    if (!key)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    memcpy(key, arg, n);
    key[n] = 0;
    int rc = saturn_config_set(c, key, eq + 1, NULL, 0, err);
    free(key);
    return rc;
}

/* Length of the section part of "section.name" (0: no section). */
static size_t section_len(const char *key)
{
    const char *dot = strchr(key, '.');
    return dot ? (size_t)(dot - key) : 0;
}

static bool same_section(const char *a, const char *b)
{
    size_t n = section_len(a);
    return n == section_len(b) && strncmp(a, b, n) == 0;
}

/* True when an earlier parameter already had this key's section, so the
 * section was written with that one. */
static bool section_seen(size_t i)
{
    const char *key = saturn_param_at(i)->name;
    for (size_t j = 0; j < i; j++)
        if (same_section(saturn_param_at(j)->name, key))
            return true;
    return false;
}

/* Sections appear in the order of their first parameter; each holds its
 * parameters in registry order (tables of one section need not be adjacent).
 * INI has no quoting: a value containing " ;" (an inline comment to inih)
 * or a line break cannot be written back exactly. */
void saturn_config_write_ini(const struct saturn_config *c, FILE *f)
{
    size_t n = saturn_param_count();
    fprintf(f, "; saturn %s: the fully resolved configuration\n", SATURN_VERSION);
    for (size_t i = 0; i < n; i++) { /* keys without a section come first */
        const char *key = saturn_param_at(i)->name;
        if (section_len(key) == 0)
            fprintf(f, "%s = %s\n", key, saturn_config_value_text(c, i));
    }
    for (size_t i = 0; i < n; i++) {
        const char *key = saturn_param_at(i)->name;
        size_t sl = section_len(key);
        if (sl == 0 || section_seen(i))
            continue;
        fprintf(f, "\n[%.*s]\n", (int)sl, key);
        for (size_t j = i; j < n; j++) {
            const char *other = saturn_param_at(j)->name;
            if (same_section(key, other))
                fprintf(f, "%s = %s\n", other + sl + 1,
                        saturn_config_value_text(c, j));
        }
    }
}
