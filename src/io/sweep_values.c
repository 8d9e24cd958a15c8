/* Value lists of sweep specs (see sweep_values.h). */
#define _GNU_SOURCE /* asprintf, strndup */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/sweep_values.h"

#define MAX_VALUES 1000000 /* a typo such as 0:1e9 should not fill the memory */

static char *trim_dup(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return strndup(s, n);
}

static int add(struct sweep_values *sv, char *owned)
{
    if (owned && sv->n == sv->cap) {
        size_t cap = sv->cap ? 2 * sv->cap : 16;
        char **x = realloc(sv->v, cap * sizeof *x);
        if (x) {
            sv->v = x;
            sv->cap = cap;
        }
    }
    if (!owned || sv->n == sv->cap) {
        free(owned);
        return SATURN_ENOMEM;
    }
    sv->v[sv->n++] = owned;
    return SATURN_OK;
}

void sweep_values_free(struct sweep_values *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
}

static bool full_int(const char *s, long long *out)
{
    char *end;
    errno = 0;
    *out = strtoll(s, &end, 10);
    return end != s && *end == 0 && errno == 0;
}

static bool full_real(const char *s, double *out)
{
    char *end;
    *out = strtod(s, &end);
    return end != s && *end == 0 && isfinite(*out);
}

static char *trim_in_place(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

/* Splits "a:b" or "a:b:step" (numeric parts) in place; 0 when item is not
 * a range, else the number of parts. */
static int split_range(char *item, char *parts[3])
{
    int n = 0;
    for (char *p = item;; p++) {
        if (n == 3)
            return 0;
        char *colon = strchr(p, ':');
        if (colon)
            *colon = 0;
        parts[n++] = trim_in_place(p);
        if (!colon)
            break;
        p = colon;
    }
    double x;
    for (int i = 0; i < n; i++)
        if (!full_real(parts[i], &x))
            return 0;
    return n >= 2 ? n : 0;
}

/* Expands one range item into out. */
static int expand_range(const char *where, const char *key, const char *item,
                        struct sweep_values *out, struct saturn_error *err)
{
    char buf[256], *parts[3];
    snprintf(buf, sizeof buf, "%s", item);
    int np = split_range(buf, parts);
    long long a, b, st = 1;
    bool ints = full_int(parts[0], &a) && full_int(parts[1], &b) &&
                (np < 3 || full_int(parts[2], &st));
    double fa, fb, fs = 1;
    full_real(parts[0], &fa);
    full_real(parts[1], &fb);
    if (np == 3)
        full_real(parts[2], &fs);
    else if (fb < fa)
        fs = -1, st = -1;
    if (fs == 0 || (fb - fa) * fs < 0)
        return saturn_error_set(err, SATURN_EINPUT,
                                "%s: %s = %s: the range never reaches its end "
                                "(from:to:step, step > 0 upwards, < 0 downwards)",
                                where, key, item);
    double count = floor((fb - fa) / fs + 1e-9) + 1;
    if (count > MAX_VALUES)
        return saturn_error_set(err, SATURN_EINPUT, "%s: %s = %s: more than %d values",
                                where, key, item, MAX_VALUES);
    for (long i = 0; i < (long)count; i++) {
        char *v = NULL;
        /* Integers stay integers; reals print without binary noise. */
        int rc = ints ? asprintf(&v, "%lld", a + (long long)i * st)
                      : asprintf(&v, "%.12g", fa + (double)i * fs);
        if (rc < 0 || add(out, v))
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    }
    return SATURN_OK;
}

int sweep_parse_list(const char *where, const char *key, const char *text,
                      struct sweep_values *out, struct saturn_error *err)
{
    const char *p = text;
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        const char *start = p;
        bool quoted = *p == '"';
        if (quoted) {
            const char *q = strchr(p + 1, '"');
            if (!q)
                return saturn_error_set(err, SATURN_EINPUT, "%s: %s = %s: unterminated quote",
                                        where, key, text);
            p = q + 1;
            while (isspace((unsigned char)*p))
                p++;
            if (*p && *p != ',')
                return saturn_error_set(err, SATURN_EINPUT,
                                        "%s: %s = %s: text after a quoted item", where, key, text);
        } else {
            p += strcspn(p, ",");
        }
        char *item = quoted ? strndup(start + 1, (size_t)(strchr(start + 1, '"') - start - 1))
                            : trim_dup(start, (size_t)(p - start));
        if (!item)
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        char tmp[256], *parts[3];
        snprintf(tmp, sizeof tmp, "%s", item);
        int rc = SATURN_OK;
        if (!quoted && !*item)
            rc = saturn_error_set(err, SATURN_EINPUT, "%s: %s = %s: empty item in the list",
                                  where, key, text);
        else if (!quoted && strlen(item) < sizeof tmp && split_range(tmp, parts))
            rc = expand_range(where, key, item, out, err);
        else if (add(out, item))
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        else
            item = NULL; /* owned by out */
        free(item);
        if (rc)
            return rc;
        if (!*p)
            return SATURN_OK;
        p++; /* the comma */
    }
}
