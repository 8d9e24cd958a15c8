/* Sweep specs: an INI file whose [sweep] / [sweep NAME] sections hold lists
 * of values ("a, b", ranges "from:to:step", "quoted, items") and whose other
 * sections are the base configuration; [summary] holds summary options.
 *
 * Like ini.c, the whole file is read first (ini_read.c) and applied in
 * file order afterwards, so the first error reported is the first in the
 * file. The line hook also tracks section headers itself: inih does not
 * report sections, and two sections of the same name ([sweep] twice) are two
 * grids. */
#define _GNU_SOURCE /* asprintf, strdup, strndup */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/ini_read.h"
#include "io/sweep_values.h"
#include "saturn/io.h"
#include "saturn/sweep.h"

#define MAX_POINTS 10000000 /* a typo should not fill the memory */

struct raw_section {
    char *name; /* trimmed */
    int line;
};

/* The section headers, which inih does not report, as the line hook sees
 * them: sec[0] stands for "before any header", sec[k] is the header of the
 * entries whose header is k (struct ini_entry). */
struct spec_load {
    bool nomem, in_grid;
    struct raw_section *sec;
    size_t nsec, seccap;
};

static bool grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return true;
    size_t c = *cap ? 2 * *cap : 16;
    void *x = realloc(*p, c * size);
    if (!x)
        return false;
    *p = x;
    *cap = c;
    return true;
}

static char *trim_dup(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return strndup(s, n);
}

/* "sweep" or "sweep NAME". */
static bool is_grid(const char *section)
{
    return !strncmp(section, "sweep", 5) &&
           (section[5] == 0 || isspace((unsigned char)section[5]));
}

static void add_section(struct spec_load *s, const char *p, int line)
{
    const char *end = strchr(p, ']');
    size_t len = end ? (size_t)(end - p - 1) : strcspn(p + 1, "\r\n");
    if (!grow((void **)&s->sec, &s->seccap, s->nsec, sizeof *s->sec) ||
        !(s->sec[s->nsec].name = trim_dup(p + 1, len))) {
        s->nomem = true;
        return;
    }
    s->sec[s->nsec++].line = line;
    s->in_grid = is_grid(s->sec[s->nsec - 1].name);
}

/* An indented key is a key, but an indented line without '=' inside a grid
 * continues the previous key's list. */
static int on_line(void *user, const char *text, bool indented, int line)
{
    struct spec_load *s = user;
    if (*text == '[')
        add_section(s, text, line);
    else if (indented && s->in_grid && *text && !strchr(";#\r\n", *text) && !strchr(text, '='))
        return INI_LINE_CONTINUE;
    return s->nomem ? INI_LINE_NOMEM : INI_LINE_KEY;
}

/* Keys of grids, of [summary] and before any header are names alone,
 * other keys "section.name" as inih gives them. */
static char *spec_key(void *user, const char *section, const char *name)
{
    struct spec_load *s = user;
    const char *sec = s->sec[s->nsec - 1].name;
    char *key;
    if (s->nsec == 1 || is_grid(sec) || !strcmp(sec, "summary"))
        return strdup(name);
    return asprintf(&key, "%s.%s", section, name) < 0 ? NULL : key;
}

/* A continuation line: the list goes on, with a comma between unless one
 * of the two lines already has it. */
static bool append_list(void *user, char **value, const char *more)
{
    size_t a = strlen(*value), b = strlen(more);
    for (size_t i = 1; i < b; i++) /* inih leaves inline comments here */
        if (more[i] == ';' && (more[i - 1] == ' ' || more[i - 1] == '\t'))
            b = i;
    while (b && (more[b - 1] == ' ' || more[b - 1] == '\t'))
        b--;
    char *v = realloc(*value, a + b + 3);
    if (!v)
        return false;
    bool comma = !(a && v[a - 1] == ',') && more[0] != ',';
    memcpy(v + a, ", ", 2);
    memcpy(v + a + 2 * comma, more, b);
    v[a + 2 * comma + b] = 0;
    *value = v;
    return true;
}

static void load_free(struct spec_load *s)
{
    for (size_t i = 0; i < s->nsec; i++)
        free(s->sec[i].name);
    free(s->sec);
}

/* ---- the spec ---- */

static long key_column(const struct saturn_sweep *sw, const char *key)
{
    for (size_t i = 0; i < sw->nkeys; i++)
        if (!strcmp(sw->keys[i], key))
            return (long)i;
    return -1;
}

static struct saturn_sweep_grid *grid_for(struct saturn_sweep *sw, const struct raw_section *sec)
{
    struct saturn_sweep_grid *g = sw->ngrids ? &sw->grids[sw->ngrids - 1] : NULL;
    if (g && g->line == sec->line)
        return g;
    g = realloc(sw->grids, (sw->ngrids + 1) * sizeof *g);
    if (!g)
        return NULL;
    sw->grids = g;
    g += sw->ngrids;
    memset(g, 0, sizeof *g);
    g->line = sec->line;
    g->npoints = 1;
    g->name = trim_dup(sec->name + 5, strlen(sec->name + 5));
    if (!g->name)
        return NULL;
    sw->ngrids++;
    return g;
}

static int add_axis(struct saturn_sweep *sw, const struct raw_section *sec,
                    const struct ini_entry *e, struct saturn_config *scratch,
                    struct saturn_error *err)
{
    struct saturn_sweep_grid *g = grid_for(sw, sec);
    if (!g)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    char where[600];
    snprintf(where, sizeof where, "%s:%d", sw->path, e->line);
    for (size_t i = 0; i < g->naxes; i++)
        if (!strcmp(g->axes[i].key, e->key))
            return saturn_error_set(err, SATURN_EINPUT, "%s: %s given twice in [%s] (first at line %d)",
                                    where, e->key, sec->name, g->axes[i].line);
    struct sweep_values vals = {0};
    int rc = sweep_parse_list(where, e->key, e->value, &vals, err);
    for (size_t i = 0; rc == SATURN_OK && i < vals.n; i++) /* names file:line, key, value */
        rc = saturn_config_set(scratch, e->key, vals.v[i], sw->path, e->line, err);
    struct saturn_sweep_axis *ax = rc ? NULL : realloc(g->axes, (g->naxes + 1) * sizeof *ax);
    if (rc || !ax) {
        sweep_values_free(&vals);
        return rc ? rc : saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    }
    g->axes = ax;
    ax += g->naxes++;
    *ax = (struct saturn_sweep_axis){.key = strdup(e->key), .line = e->line,
                                     .nvalues = vals.n, .values = vals.v};
    long col = key_column(sw, e->key);
    if (col < 0) {
        char **k = realloc(sw->keys, (sw->nkeys + 1) * sizeof *k);
        if (k)
            sw->keys = k;
        if (!k || !ax->key)
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        col = (long)sw->nkeys;
        sw->keys[sw->nkeys++] = strdup(e->key);
        if (!sw->keys[col])
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    }
    ax->column = (size_t)col;
    if ((double)g->npoints * (double)vals.n > MAX_POINTS)
        return saturn_error_set(err, SATURN_EINPUT, "%s: [%s] has more than %d points",
                                where, sec->name, MAX_POINTS);
    g->npoints *= vals.n;
    return SATURN_OK;
}

/* Applies the entries before the first problem line (all without one), in
 * file order. */
static int apply(struct saturn_sweep *sw, const struct spec_load *s,
                 const struct ini_entries *r, struct saturn_error *err)
{
    struct saturn_config *scratch = saturn_config_new();
    if (!scratch)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    int rc = SATURN_OK;
    size_t next = 1; /* the next section header not yet turned into a grid */
    for (size_t i = 0; rc == SATURN_OK && i < r->n; i++) {
        const struct ini_entry *e = &r->e[i];
        if (r->stop > 0 && e->line >= r->stop)
            break;
        const struct raw_section *sec = &s->sec[e->header];
        for (; rc == SATURN_OK && next <= e->header; next++) /* grids without keys */
            if (is_grid(s->sec[next].name) && !grid_for(sw, &s->sec[next]))
                rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        if (rc)
            break;
        if (e->header && is_grid(sec->name))
            rc = add_axis(sw, sec, e, scratch, err);
        else if (e->header && !strcmp(sec->name, "summary"))
            rc = saturn_summary_opts_set(&sw->summary, e->key, e->value, sw->path, e->line, err);
        else if (e->header && !strncmp(sec->name, "sweep", 5))
            rc = saturn_error_set(err, SATURN_EINPUT, "%s:%d: [%s]: a grid section is [sweep] or [sweep NAME]",
                                  sw->path, sec->line, sec->name);
        else
            rc = saturn_config_set(sw->base, e->key, e->value, sw->path, e->line, err);
    }
    for (; rc == SATURN_OK && r->stop == 0 && next < s->nsec; next++)
        if (is_grid(s->sec[next].name) && !grid_for(sw, &s->sec[next]))
            rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    saturn_config_free(scratch);
    return rc;
}

static int finish(struct saturn_sweep *sw, struct saturn_error *err)
{
    if (sw->ngrids == 0)
        return saturn_error_set(err, SATURN_EINPUT,
                                "%s: no [sweep] section: nothing to sweep "
                                "(saturn sweep --help shows the format)", sw->path);
    for (size_t g = 0; g < sw->ngrids; g++) {
        sw->grids[g].first = sw->npoints;
        sw->npoints += sw->grids[g].npoints;
        if (sw->npoints > MAX_POINTS)
            return saturn_error_set(err, SATURN_EINPUT, "%s: more than %d points in all",
                                    sw->path, MAX_POINTS);
    }
    return SATURN_OK;
}

int saturn_sweep_load(const char *path, struct saturn_sweep **out, struct saturn_error *err)
{
    *out = NULL;
    struct saturn_sweep *sw = calloc(1, sizeof *sw);
    if (!sw || !(sw->path = strdup(path)) || !(sw->base = saturn_config_new())) {
        saturn_sweep_free(sw);
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    }
    saturn_summary_opts_default(&sw->summary);
    struct spec_load s = {0};
    add_section(&s, "[]", 0); /* section 0: keys before any header */
    struct ini_entries r;
    struct ini_hooks hooks = {.user = &s, .line = on_line, .key = spec_key, .append = append_list};
    int rc = ini_entries_read(&r, path, &hooks, err);
    if (rc == SATURN_OK && s.nomem) /* section 0 failed, and no line told */
        rc = saturn_error_set(err, SATURN_ENOMEM, "%s: out of memory", path);
    if (rc == SATURN_OK) {
        rc = apply(sw, &s, &r, err);
        if (rc == SATURN_OK && r.stop > 0)
            rc = ini_entries_error(&r, false,
                                   "'key = value', '[section]', a continued list or a comment",
                                   " (continue a list on indented lines)", err);
        if (rc == SATURN_OK)
            rc = finish(sw, err);
    }
    ini_entries_free(&r);
    load_free(&s);
    if (rc)
        saturn_sweep_free(sw);
    else
        *out = sw;
    return rc;
}

int saturn_sweep_override(struct saturn_sweep *sw, const char *arg, struct saturn_error *err)
{
    const char *eq = strchr(arg, '=');
    size_t n = eq ? (size_t)(eq - arg) : 0;
    for (size_t g = 0; g < sw->ngrids; g++)
        for (size_t a = 0; a < sw->grids[g].naxes; a++) {
            const struct saturn_sweep_axis *ax = &sw->grids[g].axes[a];
            if (n && strlen(ax->key) == n && !strncmp(ax->key, arg, n))
                return saturn_error_set(err, SATURN_EINPUT,
                                        "command line: %s: this key is varied by the sweep "
                                        "(%s:%d), whose values would win; change the spec instead",
                                        arg, sw->path, ax->line);
        }
    return saturn_config_apply_arg(sw->base, arg, err);
}

void saturn_sweep_free(struct saturn_sweep *sw)
{
    if (!sw)
        return;
    for (size_t g = 0; g < sw->ngrids; g++) {
        struct saturn_sweep_grid *gr = &sw->grids[g];
        for (size_t a = 0; a < gr->naxes; a++) {
            for (size_t v = 0; v < gr->axes[a].nvalues; v++)
                free(gr->axes[a].values[v]);
            free(gr->axes[a].values);
            free(gr->axes[a].key);
        }
        free(gr->axes);
        free(gr->name);
    }
    for (size_t k = 0; k < sw->nkeys; k++)
        free(sw->keys[k]);
    free(sw->keys);
    free(sw->grids);
    saturn_config_free(sw->base);
    free(sw->path);
    free(sw);
}

/* The grid of point p and p's index within it. */
static const struct saturn_sweep_grid *locate(const struct saturn_sweep *sw, size_t p, size_t *local)
{
    for (size_t g = 0; g < sw->ngrids; g++)
        if (p - sw->grids[g].first < sw->grids[g].npoints) {
            *local = p - sw->grids[g].first;
            return &sw->grids[g];
        }
    return NULL;
}

/* Calls fn for each axis of p's grid with its value: the last key varies
 * fastest, as in nested loops written in file order. */
static void each_value(const struct saturn_sweep *sw, size_t p,
                       void (*fn)(void *, const struct saturn_sweep_axis *, const char *), void *user)
{
    size_t local = 0; /* set by locate when it finds the grid */
    const struct saturn_sweep_grid *g = locate(sw, p, &local);
    for (size_t a = g ? g->naxes : 0; a-- > 0;) {
        const struct saturn_sweep_axis *ax = &g->axes[a];
        fn(user, ax, ax->values[local % ax->nvalues]);
        local /= ax->nvalues;
    }
}

static void put_value(void *user, const struct saturn_sweep_axis *ax, const char *v)
{
    ((const char **)user)[ax->column] = v;
}

void saturn_sweep_point_values(const struct saturn_sweep *sw, size_t p, const char **values)
{
    for (size_t k = 0; k < sw->nkeys; k++)
        values[k] = NULL;
    each_value(sw, p, put_value, values);
}

struct set_ctx {
    const struct saturn_sweep *sw;
    struct saturn_config *c;
    struct saturn_error *err;
    int rc;
};

static void set_value(void *user, const struct saturn_sweep_axis *ax, const char *v)
{
    struct set_ctx *x = user;
    if (x->rc == SATURN_OK)
        x->rc = saturn_config_set(x->c, ax->key, v, x->sw->path, ax->line, x->err);
}

int saturn_sweep_point_config(const struct saturn_sweep *sw, size_t p,
                              struct saturn_config **out, struct saturn_error *err)
{
    struct set_ctx x = {sw, saturn_config_clone(sw->base), err, SATURN_OK};
    *out = NULL;
    if (!x.c)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    each_value(sw, p, set_value, &x);
    if (x.rc)
        saturn_config_free(x.c);
    else
        *out = x.c;
    return x.rc;
}

void saturn_sweep_point_label(const struct saturn_sweep *sw, size_t p, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    const char **v = calloc(sw->nkeys ? sw->nkeys : 1, sizeof *v);
    if (!v)
        return;
    saturn_sweep_point_values(sw, p, v);
    for (size_t k = 0; k < sw->nkeys && used < n; k++)
        if (v[k]) {
            const char *q = strchr(v[k], ',') ? "\"" : "";
            used += (size_t)snprintf(buf + used, n - used, "%s%s=%s%s%s", used ? ", " : "",
                                     sw->keys[k], q, v[k], q);
        }
    if (!used)
        snprintf(buf, n, "(the base configuration)");
    free(v);
}
