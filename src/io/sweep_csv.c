/* Sweep CSV files: the header and rows a sweep writes, the resume scan of
 * a file a previous (perhaps killed) run left, the final sort by point id,
 * and reading a file back as a table for the summary. */
#define _GNU_SOURCE /* getline, open_memstream */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/csv.h"
#include "saturn/io.h"
#include "saturn/sweep.h"

/* Splits one line (without its '\n') in place into *fields; quoted cells
 * may hold commas and "" for a quote. Returns the count, or -1. */
static long csv_split(char *s, char ***fields, size_t *cap)
{
    size_t n = 0;
    for (;;) {
        if (n == *cap) {
            size_t c = *cap ? 2 * *cap : 32;
            char **x = realloc(*fields, c * sizeof *x);
            if (!x)
                return -1;
            *fields = x;
            *cap = c;
        }
        char *out = s;
        (*fields)[n++] = out;
        if (*s == '"') {
            for (s++;; s++) {
                if (!*s)
                    return -1;
                if (*s == '"' && s[1] != '"')
                    break;
                if (*s == '"')
                    s++;
                *out++ = *s;
            }
            s++;
            if (*s && *s != ',')
                return -1;
        } else {
            size_t len = strcspn(s, ",");
            memmove(out, s, len);
            out += len;
            s += len;
        }
        char sep = *s;
        *out = 0;
        if (!sep)
            return (long)n;
        s++;
    }
}

/* Closes an open_memstream (which sets *buf) and returns its text. */
static char *memstream_done(FILE *f, char **buf)
{
    if (fclose(f)) {
        free(*buf);
        return NULL;
    }
    return *buf;
}

char *saturn_sweep_csv_header(const struct saturn_sweep *sw)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fputs("point", f);
    for (size_t k = 0; k < sw->nkeys; k++) {
        fputc(',', f);
        csv_cell(f, sw->keys[k]);
    }
    for (const char *const *m = saturn_sweep_metrics; *m; m++)
        fprintf(f, ",%s", *m);
    fputc('\n', f);
    return memstream_done(f, &buf);
}

char *saturn_sweep_csv_row(const struct saturn_sweep *sw, size_t p, const struct saturn_results *r)
{
    const char **v = calloc(sw->nkeys ? sw->nkeys : 1, sizeof *v);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = v ? open_memstream(&buf, &len) : NULL;
    if (!f) {
        free(v);
        return NULL;
    }
    saturn_sweep_point_values(sw, p, v);
    fprintf(f, "%zu", p);
    for (size_t k = 0; k < sw->nkeys; k++) {
        fputc(',', f);
        csv_cell(f, v[k] ? v[k] : "");
    }
    /* In saturn_sweep_metrics order; wall_seconds, the only column that
     * differs between identical runs, last. */
    fprintf(f, ",%llu,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d,%llu,%.3f\n",
            (unsigned long long)r->duration, r->accepted, r->offered, r->packet_latency.mean,
            r->packet_latency.p99, r->network_latency.mean, r->hops_mean, r->saturated ? 1 : 0,
            (unsigned long long)r->cycles, r->wall_seconds);
    free(v);
    return memstream_done(f, &buf);
}

static bool parse_id(const char *s, size_t *id)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    *id = (size_t)x;
    return s[0] >= '0' && s[0] <= '9' && *end == 0 && errno == 0;
}

/* Checks one row of an existing file against the sweep. */
static int scan_row(const struct saturn_sweep *sw, const char *path, int lineno, char *line,
                    char ***fields, size_t *cap, const char **want, bool *done,
                    struct saturn_error *err)
{
    long n = csv_split(line, fields, cap);
    size_t ncols = 1 + sw->nkeys, id;
    for (const char *const *m = saturn_sweep_metrics; *m; m++)
        ncols++;
    if (n != (long)ncols || !parse_id((*fields)[0], &id) || id >= sw->npoints)
        return saturn_error_set(err, SATURN_EINPUT,
                                "%s:%d: not a row of this sweep; remove the file or choose "
                                "another --csv", path, lineno);
    saturn_sweep_point_values(sw, id, want);
    for (size_t k = 0; k < sw->nkeys; k++)
        if (strcmp((*fields)[1 + k], want[k] ? want[k] : ""))
            return saturn_error_set(err, SATURN_EINPUT,
                                    "%s:%d: point %zu has %s = '%s' where this sweep has '%s': "
                                    "the file was written by a different sweep; remove it or "
                                    "choose another --csv", path, lineno, id, sw->keys[k],
                                    (*fields)[1 + k], want[k] ? want[k] : "");
    done[id] = true;
    return SATURN_OK;
}

int saturn_sweep_csv_scan(const struct saturn_sweep *sw, const char *path, bool *done,
                          bool *exists, struct saturn_error *err)
{
    *exists = false;
    FILE *f = fopen(path, "r");
    if (!f && errno == ENOENT)
        return SATURN_OK;
    if (!f)
        return saturn_error_set(err, SATURN_EINPUT, "%s: cannot read: %s", path, strerror(errno));
    char *header = saturn_sweep_csv_header(sw), *line = NULL, **fields = NULL;
    const char **want = calloc(sw->nkeys ? sw->nkeys : 1, sizeof *want);
    size_t cap = 0, fcap = 0;
    long off = 0, cut = -1; /* offset of the current line; where to truncate */
    int rc = header && want ? SATURN_OK : saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    ssize_t len;
    for (int lineno = 1; !rc && (len = getline(&line, &cap, f)) > 0; lineno++, off += len) {
        bool whole = line[len - 1] == '\n';
        if (lineno == 1) {
            /* A header cut short by a kill is rewritten; any other is not ours. */
            if (whole ? strcmp(line, header) : strncmp(line, header, (size_t)len))
                rc = saturn_error_set(err, SATURN_EINPUT,
                                      "%s: its header differs: the file was written by a "
                                      "different sweep; remove it or choose another --csv", path);
            else if (!whole)
                cut = 0;
            else
                *exists = true;
        } else if (!whole) {
            cut = off; /* a row cut short by a kill: drop it */
        } else {
            line[len - 1] = 0;
            rc = scan_row(sw, path, lineno, line, &fields, &fcap, want, done, err);
        }
    }
    if (!rc && ferror(f))
        rc = saturn_error_set(err, SATURN_EINPUT, "%s: cannot read: %s", path, strerror(errno));
    fclose(f);
    if (!rc && cut >= 0 && truncate(path, cut))
        rc = saturn_error_set(err, SATURN_EINPUT, "%s: cannot truncate the partial last line: %s",
                              path, strerror(errno));
    free(header);
    free(line);
    free(fields);
    free(want);
    return rc;
}

/* ---- whole files ---- */

struct row {
    size_t id, order;
    char *text;
    size_t len;
};

static int by_id(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

int saturn_sweep_csv_sort(const char *path, struct saturn_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return saturn_error_set(err, SATURN_EIO, "%s: cannot read: %s", path, strerror(errno));
    struct row *rows = NULL;
    size_t n = 0, cap = 0, total = 0;
    char *header = NULL, *line = NULL;
    size_t lcap = 0;
    ssize_t len;
    int rc = SATURN_OK;
    while (!rc && (len = getline(&line, &lcap, f)) > 0) {
        total += (size_t)len;
        if (!header) {
            header = line;
            line = NULL;
            lcap = 0;
            continue;
        }
        if (n == cap) {
            struct row *x = realloc(rows, (cap = cap ? 2 * cap : 1024) * sizeof *x);
            if (!x) {
                rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
                break;
            }
            rows = x;
        }
        char *end;
        rows[n] = (struct row){strtoull(line, &end, 10), n, line, (size_t)len};
        line = NULL;
        lcap = 0;
        n++;
    }
    fclose(f);
    free(line);
    char *out = rc || !header ? NULL : malloc(total + 1);
    if (!rc && !out)
        rc = header ? saturn_error_set(err, SATURN_ENOMEM, "out of memory")
                    : saturn_error_set(err, SATURN_EIO, "%s: empty file", path);
    if (!rc) {
        qsort(rows, n, sizeof *rows, by_id);
        size_t used = strlen(header);
        memcpy(out, header, used);
        for (size_t i = 0; i < n; i++)
            if (i == 0 || rows[i].id != rows[i - 1].id) { /* a point twice: keep the first */
                memcpy(out + used, rows[i].text, rows[i].len);
                used += rows[i].len;
            }
        rc = saturn_write_file_atomic(path, out, used, err);
    }
    for (size_t i = 0; i < n; i++)
        free(rows[i].text);
    free(rows);
    free(header);
    free(out);
    return rc;
}

static size_t first_metric(char **cols, size_t n)
{
    for (size_t c = 0; c < n; c++)
        for (const char *const *m = saturn_sweep_metrics; *m; m++)
            if (!strcmp(cols[c], *m))
                return c;
    return n;
}

int saturn_table_read_csv(const char *path, struct saturn_table **out, struct saturn_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return saturn_error_set(err, SATURN_EINPUT, "%s: cannot read: %s", path, strerror(errno));
    struct saturn_table *t = NULL;
    char *line = NULL, **fields = NULL;
    size_t cap = 0, fcap = 0;
    ssize_t len;
    int rc = SATURN_OK, lineno = 1;
    for (; !rc && (len = getline(&line, &cap, f)) > 0; lineno++) {
        if (line[len - 1] != '\n') {
            rc = saturn_error_set(err, SATURN_EINPUT,
                                  "%s:%d: incomplete last line (an interrupted sweep? run it "
                                  "again to finish it)", path, lineno);
            break;
        }
        line[len - 1] = 0;
        long n = csv_split(line, &fields, &fcap);
        if (!t) {
            size_t m = n > 0 ? first_metric(fields, (size_t)n) : 0;
            if (m == (size_t)n || m == 0)
                rc = saturn_error_set(err, SATURN_EINPUT,
                                      "%s:1: not a saturn sweep CSV (no metric columns)", path);
            else if (!(t = saturn_table_new((size_t)n, (const char *const *)fields,
                                            !strcmp(fields[0], "point"), m)))
                rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        } else if (n != (long)t->ncols) {
            rc = saturn_error_set(err, SATURN_EINPUT, "%s:%d: %ld cells, the header has %zu",
                                  path, lineno, n, t->ncols);
        } else if (saturn_table_add(t, (const char *const *)fields)) {
            rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        }
    }
    if (!rc && !t)
        rc = saturn_error_set(err, SATURN_EINPUT, "%s: empty file", path);
    fclose(f);
    free(line);
    free(fields);
    if (rc)
        saturn_table_free(t);
    else
        *out = t;
    return rc;
}
