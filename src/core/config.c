/* The typed configuration: parse, check against the registry, remember
 * where every value came from. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/params.h"
#include "saturn/config.h"

struct value {
    char *text;
    int64_t i;
    double r;
    int64_t list[SATURN_LIST_MAX];
    int nlist;
    bool set;
    bool borrowed; /* text and file live in the configuration's arena (a clone's) */
    char *file; /* NULL: default or command line (see line) */
    int line;   /* -1: command line, 0: default */
};

struct saturn_config {
    size_t n;
    struct value *v;
    char *arena; /* a clone's texts and files, one block (see saturn_config_clone) */
    char **warn; /* saturn_config_warning */
    size_t nwarn;
};

size_t saturn_param_count(void)
{
    size_t n = 0;
    for (size_t t = 0; t < params_table_count(); t++)
        for (const struct saturn_param *p = params_table(t); p->name; p++)
            n++;
    return n;
}

const struct saturn_param *saturn_param_at(size_t i)
{
    for (size_t t = 0; t < params_table_count(); t++)
        for (const struct saturn_param *p = params_table(t); p->name; p++)
            if (i-- == 0)
                return p;
    return NULL;
}

static long param_index(const char *name)
{
    long i = 0;
    for (size_t t = 0; t < params_table_count(); t++)
        for (const struct saturn_param *p = params_table(t); p->name; p++, i++)
            if (p->name[0] == name[0] && strcmp(p->name, name) == 0) /* the first byte: cheap */
                return i;
    return -1;
}

long params_index(const char *name) { return param_index(name); }

const struct saturn_param *saturn_param_find(const char *name)
{
    long i = param_index(name);
    return i < 0 ? NULL : saturn_param_at((size_t)i);
}

const char *saturn_param_type_name(enum saturn_param_type t)
{
    switch (t) {
    case SATURN_PARAM_INT: return "int";
    case SATURN_PARAM_REAL: return "real";
    case SATURN_PARAM_BOOL: return "bool";
    case SATURN_PARAM_ENUM: return "enum";
    case SATURN_PARAM_INTLIST: return "int list";
    case SATURN_PARAM_STRING: return "string";
    }
    return "?";
}

static void fmt_num(char *buf, size_t n, double x)
{
    if (x == floor(x) && fabs(x) < 1e15)
        snprintf(buf, n, "%.0f", x);
    else
        snprintf(buf, n, "%g", x);
}

void saturn_param_allowed(const struct saturn_param *p, char *buf, size_t n)
{
    char lo[32], hi[32];
    fmt_num(lo, sizeof lo, p->min);
    fmt_num(hi, sizeof hi, p->max);
    switch (p->type) {
    case SATURN_PARAM_INT:
        snprintf(buf, n, "an integer in [%s, %s]", lo, hi);
        break;
    case SATURN_PARAM_REAL:
        snprintf(buf, n, "a number in [%s, %s]", lo, hi);
        break;
    case SATURN_PARAM_BOOL:
        snprintf(buf, n, "true or false");
        break;
    case SATURN_PARAM_INTLIST:
        snprintf(buf, n, "integers in [%s, %s], comma-separated (at most %d)",
                 lo, hi, SATURN_LIST_MAX);
        break;
    case SATURN_PARAM_STRING:
        snprintf(buf, n, "any text");
        break;
    case SATURN_PARAM_ENUM: {
        size_t used = (size_t)snprintf(buf, n, "one of ");
        for (const char *const *c = p->choices; *c && used < n; c++)
            used += (size_t)snprintf(buf + used, n - used, "%s%s",
                                     c == p->choices ? "" : "|", *c);
        break;
    }
    }
}

static const char *origin_text(const char *file, int line, char *buf, size_t n)
{
    if (file && line > 0)
        snprintf(buf, n, "%s:%d", file, line);
    else if (file) /* a preset: no line to name */
        snprintf(buf, n, "%s", file);
    else if (line < 0)
        snprintf(buf, n, "command line");
    else
        snprintf(buf, n, "default");
    return buf;
}

static bool parse_int(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (end != s && *end == 0 && errno == 0) {
        *out = v;
        return true;
    }
    /* Allow 1e6 and similar when the value is integral. */
    double d = strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (end == s || *end || !isfinite(d) || d != floor(d) || fabs(d) > 9e18)
        return false;
    *out = (int64_t)d;
    return true;
}

static bool parse_real(const char *s, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (end == s || *end || !isfinite(d) || errno == ERANGE)
        return false;
    *out = d;
    return true;
}

static bool parse_bool(const char *s, int64_t *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(s, yes[i]) == 0) { *out = 1; return true; }
        if (strcasecmp(s, no[i]) == 0) { *out = 0; return true; }
    }
    return false;
}

static char *dup_trim(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* Parse text into v for parameter p; on failure writes the reason. */
/* A value refused: why = "<what>; allowed: <the parameter's allowed text>"
 * (written only here: a value that parses costs no snprintf). */
static bool refuse(const struct saturn_param *p, const char *what, char *why, size_t nwhy)
{
    char allowed[512];
    saturn_param_allowed(p, allowed, sizeof allowed);
    snprintf(why, nwhy, "%s; allowed: %s", what, allowed);
    return false;
}

static bool parse_value(const struct saturn_param *p, const char *text,
                        struct value *v, char *why, size_t nwhy)
{
    switch (p->type) {
    case SATURN_PARAM_INT:
        if (!parse_int(text, &v->i))
            return refuse(p, "not an integer", why, nwhy);
        if ((double)v->i < p->min || (double)v->i > p->max)
            return refuse(p, "out of range", why, nwhy);
        v->r = (double)v->i;
        return true;
    case SATURN_PARAM_REAL:
        if (!parse_real(text, &v->r))
            return refuse(p, "not a number", why, nwhy);
        if (v->r < p->min || v->r > p->max)
            return refuse(p, "out of range", why, nwhy);
        return true;
    case SATURN_PARAM_BOOL:
        if (!parse_bool(text, &v->i))
            return refuse(p, "not a boolean", why, nwhy);
        return true;
    case SATURN_PARAM_ENUM:
        for (int i = 0; p->choices[i]; i++)
            if (strcmp(p->choices[i], text) == 0) {
                v->i = i;
                return true;
            }
        return refuse(p, "unknown choice", why, nwhy);
    case SATURN_PARAM_INTLIST: {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", text);
        v->nlist = 0;
        char *save = NULL;
        for (char *tok = strtok_r(buf, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save)) {
            int64_t x;
            if (v->nlist == SATURN_LIST_MAX || !parse_int(tok, &x) ||
                (double)x < p->min || (double)x > p->max)
                return refuse(p, "bad list", why, nwhy);
            v->list[v->nlist++] = x;
        }
        if (v->nlist == 0)
            return refuse(p, "empty list", why, nwhy);
        v->i = v->list[0];
        return true;
    }
    case SATURN_PARAM_STRING:
        return true;
    }
    return false;
}

static void value_clear(struct value *v)
{
    if (!v->borrowed) {
        free(v->text);
        free(v->file);
    }
    memset(v, 0, sizeof *v);
}

struct saturn_config *saturn_config_new(void)
{
    struct saturn_config *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->n = saturn_param_count();
    c->v = calloc(c->n, sizeof *c->v);
    if (!c->v) {
        free(c);
        return NULL;
    }
    for (size_t i = 0; i < c->n; i++) {
        const struct saturn_param *p = saturn_param_at(i);
        char why[600];
        c->v[i].text = dup_trim(p->def);
        if (!c->v[i].text || !parse_value(p, c->v[i].text, &c->v[i], why, sizeof why)) {
            /* A default that does not parse is a bug in the registry. */
            fprintf(stderr, "saturn: internal error: default of %s: %s\n", p->name, why);
            abort();
        }
    }
    return c;
}

/* One block for every text and file of the copy (they are set once here and
 * replaced, not edited, by saturn_config_set): two allocations a clone, not
 * two a parameter. */
struct saturn_config *saturn_config_clone(const struct saturn_config *src)
{
    struct saturn_config *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->n = src->n;
    c->v = malloc((c->n ? c->n : 1) * sizeof *c->v);
    size_t bytes = 0;
    for (size_t i = 0; i < src->n; i++)
        bytes += (src->v[i].text ? strlen(src->v[i].text) + 1 : 0) +
                 (src->v[i].file ? strlen(src->v[i].file) + 1 : 0);
    c->arena = malloc(bytes ? bytes : 1);
    if (!c->v || !c->arena) {
        free(c->v);
        free(c->arena);
        free(c);
        return NULL;
    }
    char *at = c->arena;
    for (size_t i = 0; i < c->n; i++) {
        c->v[i] = src->v[i];
        c->v[i].borrowed = true;
        const char *const from[2] = {src->v[i].text, src->v[i].file};
        char **to[2] = {&c->v[i].text, &c->v[i].file};
        for (int k = 0; k < 2; k++)
            if (from[k]) {
                size_t len = strlen(from[k]) + 1;
                memcpy(at, from[k], len);
                *to[k] = at;
                at += len;
            }
    }
    if (src->nwarn && (c->warn = calloc(src->nwarn, sizeof *c->warn)))
        for (; c->nwarn < src->nwarn; c->nwarn++)
            c->warn[c->nwarn] = strdup(src->warn[c->nwarn]);
    return c;
}

void saturn_config_free(struct saturn_config *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        value_clear(&c->v[i]);
    for (size_t i = 0; i < c->nwarn; i++)
        free(c->warn[i]);
    free(c->warn);
    free(c->v);
    free(c->arena);
    free(c);
}

size_t saturn_config_warning_count(const struct saturn_config *c) { return c->nwarn; }

const char *saturn_config_warning(const struct saturn_config *c, size_t i)
{
    return i < c->nwarn && c->warn[i] ? c->warn[i] : "";
}

/* A key set twice from one source: a file (two lines) or the command line
 * (two words). Setting it again from a later source (a file after a
 * preset, the command line after a file) is what overrides are for. */
static void warn_repeat(struct saturn_config *c, const struct value *old, const char *key,
                        const struct value *nv)
{
    char msg[1200];
    if (!old->set)
        return;
    if (old->file && nv->file && old->line > 0 && nv->line > 0 && !strcmp(old->file, nv->file))
        snprintf(msg, sizeof msg, "%s:%d: %s is given again (first at line %d, = %s); "
                 "the later line wins: %s = %s", nv->file, nv->line, key, old->line, old->text,
                 key, nv->text);
    else if (!old->file && !nv->file && old->line < 0 && nv->line < 0)
        snprintf(msg, sizeof msg, "command line: %s is given twice (%s=%s, then %s=%s); "
                 "the last wins: %s = %s", key, key, old->text, key, nv->text, key, nv->text);
    else
        return;
    char **w = realloc(c->warn, (c->nwarn + 1) * sizeof *w);
    if (!w)
        return; /* a warning lost to a lack of memory is no error */
    c->warn = w;
    if ((c->warn[c->nwarn] = strdup(msg)))
        c->nwarn++;
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (na > 64 || nb > 64)
        return 99;
    size_t d[65][65];
    for (size_t i = 0; i <= na; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= nb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= na; i++)
        for (size_t j = 1; j <= nb; j++) {
            size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[na][nb];
}

/* A hint for an unknown key, into buf ("" when there is none): the known
 * keys nearest to it when they are near for its length (a quarter of its
 * characters wrong at most: 'router.vc' -> router.vcs, 'netwrok.k' ->
 * network.k), or with the same name in another section ('buf_flits',
 * 'threshold'); else, when its section exists, that section's keys; else
 * nothing ('foo.bar' is close to nothing). */
static void key_hint(const char *key, char *buf, size_t n)
{
    size_t count = saturn_param_count(), best = 99, nbest = 0;
    const char *kdot = strchr(key, '.'), *kname = kdot ? kdot + 1 : key;
    size_t klen = strlen(key), nlen = strlen(kname);
    size_t near = klen / 4 > 1 ? klen / 4 : 1, near_name = nlen / 4;
    buf[0] = 0;
    for (int pass = 0; pass < 2; pass++) /* the best distance, then its keys */
        for (size_t i = 0; i < count; i++) {
            const char *name = saturn_param_at(i)->name, *dot = strchr(name, '.');
            size_t d = edit_distance(key, name) <= near ? edit_distance(key, name) : 99;
            size_t ds = dot ? edit_distance(kname, dot + 1) : 99;
            /* the name, in another section (not for names of a letter or
             * three: 'netwrok.k' means network.k, not fattree.k) */
            if ((!kdot || nlen >= 4) && ds <= near_name && ds + 1 < d)
                d = ds + 1;
            if (pass == 0 && d < best)
                best = d;
            else if (pass == 1 && d == best && best < 99 && nbest < 6) {
                size_t used = strlen(buf);
                snprintf(buf + used, n - used, "%s'%s'", nbest ? ", " : "; did you mean ", name);
                nbest++;
            }
        }
    if (nbest) {
        size_t used = strlen(buf);
        snprintf(buf + used, n - used, "?");
        return;
    }
    if (!kdot)
        return;
    size_t sl = (size_t)(kdot - key), listed = 0;
    for (size_t i = 0; i < count; i++) {
        const char *name = saturn_param_at(i)->name;
        if (strncmp(name, key, sl + 1) != 0)
            continue;
        size_t used = strlen(buf);
        snprintf(buf + used, n - used, "%s%s", listed++ ? ", " : "", name + sl + 1);
        if (listed == 1) { /* the header, now that the section exists */
            char first[128];
            snprintf(first, sizeof first, "%s", buf);
            snprintf(buf, n, "; [%.*s] has: %s", (int)sl, key, first);
        }
    }
}

int saturn_config_set(struct saturn_config *c, const char *key,
                      const char *value, const char *file, int line,
                      struct saturn_error *err)
{
    char where[600];
    origin_text(file, file ? line : -1, where, sizeof where);
    long i = param_index(key);
    if (i < 0) {
        char hint[1024];
        key_hint(key, hint, sizeof hint);
        return saturn_error_set(err, SATURN_EINPUT,
                                "%s: unknown key '%s'%s (saturn config --list shows every key)",
                                where, key, hint);
    }
    const struct saturn_param *p = saturn_param_at((size_t)i);
    struct value nv;
    memset(&nv, 0, sizeof nv);
    nv.text = dup_trim(value);
    if (!nv.text)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    char why[700];
    if (!parse_value(p, nv.text, &nv, why, sizeof why)) {
        int rc = saturn_error_set(err, SATURN_EINPUT, "%s: %s = %s: %s", where,
                                  key, nv.text, why);
        free(nv.text);
        return rc;
    }
    nv.set = true;
    nv.file = file ? strdup(file) : NULL;
    nv.line = file ? line : -1;
    warn_repeat(c, &c->v[i], key, &nv);
    value_clear(&c->v[i]);
    c->v[i] = nv;
    return SATURN_OK;
}

static const struct value *get(const struct saturn_config *c, const char *key)
{
    long i = param_index(key);
    if (i < 0) {
        fprintf(stderr, "saturn: internal error: no parameter named %s\n", key);
        abort();
    }
    return &c->v[i];
}

bool saturn_config_is_set(const struct saturn_config *c, const char *key) { return get(c, key)->set; }
bool saturn_config_user_set(const struct saturn_config *c, const char *key)
{
    const struct value *v = get(c, key);
    return v->set && !(v->file && v->line == 0); /* a preset's values have no line */
}
int64_t saturn_config_int(const struct saturn_config *c, const char *key) { return get(c, key)->i; }
double saturn_config_real(const struct saturn_config *c, const char *key) { return get(c, key)->r; }
bool saturn_config_bool(const struct saturn_config *c, const char *key) { return get(c, key)->i != 0; }
const char *saturn_config_str(const struct saturn_config *c, const char *key) { return get(c, key)->text; }
int saturn_config_enum(const struct saturn_config *c, const char *key) { return (int)get(c, key)->i; }

int saturn_config_list(const struct saturn_config *c, const char *key,
                       int64_t *out, int max)
{
    const struct value *v = get(c, key);
    for (int i = 0; i < v->nlist && i < max; i++)
        out[i] = v->list[i];
    return v->nlist;
}

const char *saturn_config_origin(const struct saturn_config *c,
                                 const char *key, int *line)
{
    const struct value *v = get(c, key);
    if (line)
        *line = v->line > 0 ? v->line : 0;
    if (v->file)
        return v->file;
    return v->line < 0 ? "command line" : "default";
}

int saturn_config_fail(const struct saturn_config *c, const char *key,
                       struct saturn_error *err, const char *fmt, ...)
{
    const struct value *v = get(c, key);
    char where[600], msg[2048];
    origin_text(v->file, v->line, where, sizeof where);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return saturn_error_set(err, SATURN_EINPUT, "%s: %s = %s: %s", where, key,
                            v->text, msg);
}

double config_real_at(const struct saturn_config *c, size_t i) { return c->v[i].r; }
const char *config_str_at(const struct saturn_config *c, size_t i) { return c->v[i].text; }

const char *saturn_config_value_text(const struct saturn_config *c, size_t i)
{
    return i < c->n ? c->v[i].text : NULL;
}
