/* saturn sweep --search: the summary's bests without running every point
 * (src/experiment/search.h says what is exact). The waves run on the
 * sweep's worker threads with shared simulations and cut-offs. Every run
 * goes to PATH.partial.csv (a sweep row; a cut-off run's lower bound to
 * PATH.cut.csv), which a rerun reads back to resume; at the end PATH gets
 * the rows of every (set, pattern) run on all its seeds, sorted, ready
 * for the summary. */
#define _GNU_SOURCE /* asprintf, getline */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/sweep_pool.h"
#include "cli/sweep_search.h"
#include "experiment/search.h"
#include "experiment/workload.h"

struct known {
    uint64_t *val;
    uint8_t *st; /* 0 none, 1 exact, 2 cut */
};

struct run_state {
    struct search *s;
    struct known *k;
    FILE *partial, *cut;
    const char *partial_path, *cut_path;
};

/* Index of the metric column "duration" in a sweep row. */
static size_t duration_col(const struct saturn_sweep *sw) { return 1 + sw->nkeys; }

static const char *field(const char *line, size_t col)
{
    for (size_t c = 0; c < col && line; c++) {
        line = strchr(line, ',');
        if (line)
            line++;
    }
    return line;
}

/* Rows from an earlier search of the same sweep (the file scan checks them). */
static int read_partial(const struct saturn_sweep *sw, const char *path, struct known *k,
                        struct saturn_error *err)
{
    bool *done = calloc(sw->npoints, sizeof *done), exists;
    int rc = done ? saturn_sweep_csv_scan(sw, path, done, &exists, err)
                  : saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    FILE *f = !rc && exists ? fopen(path, "r") : NULL;
    char *line = NULL;
    size_t cap = 0;
    for (int no = 0; f && getline(&line, &cap, f) > 0; no++) {
        if (no == 0)
            continue;
        char *end;
        size_t id = strtoull(line, &end, 10);
        const char *d = field(line, duration_col(sw));
        if (id < sw->npoints && d) {
            k->val[id] = strtoull(d, NULL, 10);
            k->st[id] = 1;
        }
    }
    if (f)
        fclose(f);
    free(line);
    free(done);
    return rc;
}

static int read_cut(const char *path, size_t npoints, struct known *k, struct saturn_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? SATURN_OK
                               : saturn_error_set(err, SATURN_EINPUT, "%s: cannot read: %s", path,
                                                  strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    int rc = SATURN_OK;
    for (int no = 1; getline(&line, &cap, f) > 0; no++) {
        unsigned long long id, v;
        if (no == 1 && !strcmp(line, "point,duration_at_least\n"))
            continue;
        if (sscanf(line, "%llu,%llu", &id, &v) != 2 || id >= npoints) {
            if (strchr(line, '\n'))
                rc = saturn_error_set(err, SATURN_EINPUT,
                                      "%s:%d: not 'point,duration_at_least' of this sweep; "
                                      "remove the file", path, no);
            break; /* a last line cut short by a kill is dropped */
        }
        if (k->st[id] != 1) {
            k->val[id] = v;
            k->st[id] = 2;
        }
    }
    fclose(f);
    free(line);
    return rc;
}

static void on_result(struct sweep_pool *p, size_t id, const char *row,
                      const struct saturn_results *r)
{
    struct run_state *rs = p->user;
    FILE *f = r->cut ? rs->cut : rs->partial;
    int bad = r->cut ? fprintf(f, "%zu,%llu\n", id, (unsigned long long)r->duration) < 0
                     : fputs(row, f) < 0;
    if (bad || fflush(f)) {
        struct saturn_error err = {0};
        saturn_error_set(&err, SATURN_EIO, "%s: cannot write: %s",
                         r->cut ? rs->cut_path : rs->partial_path, strerror(errno));
        sweep_pool_fail(p, id, &err);
        return;
    }
    search_record(rs->s, id, r->duration, r->cut);
}

/* One row per set and pattern (the seeds folded), and every point's row and
 * seed: a grid's points are a mixed-radix count, the last key fastest, so a
 * point's row is its count without the seed digit. */
static int fold_seeds(const struct saturn_sweep *sw, const char *seeds, struct saturn_table **t,
                      size_t *row, size_t *seed, size_t *nseed, struct saturn_error *err)
{
    size_t ncols = sw->nkeys + 2, nrows = 0;
    const char **cols = calloc(ncols, sizeof *cols), **cells = calloc(ncols, sizeof *cells);
    const char **sv = NULL; /* the distinct seed values, in order */
    size_t nsv = 0, svcap = 0;
    int rc = cols && cells ? SATURN_OK : SATURN_ENOMEM;
    if (!rc) {
        cols[0] = "point";
        for (size_t c = 0; c < sw->nkeys; c++)
            cols[1 + c] = sw->keys[c];
        cols[ncols - 1] = "duration";
        *t = saturn_table_new(ncols, cols, 1, 1 + sw->nkeys);
        if (!*t)
            rc = SATURN_ENOMEM;
    }
    for (size_t g = 0; !rc && g < sw->ngrids; g++) {
        const struct saturn_sweep_grid *gr = &sw->grids[g];
        long sa = -1;
        for (size_t a = 0; a < gr->naxes; a++)
            if (seeds[0] && !strcmp(gr->axes[a].key, seeds))
                sa = (long)a;
        size_t first_row = nrows;
        for (size_t p = gr->first; !rc && p < gr->first + gr->npoints; p++) {
            size_t off = p - gr->first, folded = 0, mult = 1, sdigit = 0;
            for (size_t a = gr->naxes; a-- > 0;) {
                size_t nv = gr->axes[a].nvalues, d = off % nv;
                off /= nv;
                if ((long)a == sa) {
                    sdigit = d;
                    continue;
                }
                folded += d * mult;
                mult *= nv;
            }
            const char *sval = sa >= 0 ? gr->axes[sa].values[sdigit] : "";
            size_t si = 0;
            while (si < nsv && strcmp(sv[si], sval))
                si++;
            if (si == nsv) {
                if (nsv == svcap) {
                    const char **x = realloc(sv, (svcap = svcap ? 2 * svcap : 64) * sizeof *x);
                    if (!x) {
                        rc = SATURN_ENOMEM;
                        break;
                    }
                    sv = x;
                }
                sv[nsv++] = sval;
            }
            seed[p] = si;
            row[p] = first_row + folded;
            if (row[p] == nrows) { /* the first point of its row */
                char id[32];
                snprintf(id, sizeof id, "%zu", p);
                cells[0] = id;
                saturn_sweep_point_values(sw, p, cells + 1);
                for (size_t c = 0; c < sw->nkeys; c++)
                    if (!strcmp(sw->keys[c], seeds))
                        cells[1 + c] = "";
                cells[ncols - 1] = "1";
                if (saturn_table_add(*t, cells))
                    rc = SATURN_ENOMEM;
                nrows++;
            }
        }
    }
    *nseed = nsv;
    free(cols);
    free(cells);
    free(sv);
    return rc == SATURN_ENOMEM ? saturn_error_set(err, rc, "out of memory") : rc;
}

/* The points the search checks (a simulation created for each): one per set
 * and pattern, as a seed cannot make a point invalid (rows are numbered in
 * order of their first point); of those that one grid gives and that differ
 * only in entropy thresholds (saturn_share_same), the first, as a threshold's
 * value cannot either (the run of every other one is its simulation's:
 * saturn_run_shared creates none of a follower's). */
static int check_points(const struct saturn_sweep *sw, const size_t *row, size_t *todo,
                        size_t *ntodo, struct saturn_error *err)
{
    size_t n = 0, m = 0, cap = 64;
    for (size_t i = 0; i < sw->npoints; i++)
        if (row[i] == n)
            todo[n++] = i;
    while (cap < 2 * n)
        cap *= 2;
    struct kept {
        uint64_t h;
        size_t grid;
        struct saturn_config *c;
    } *tab = calloc(cap, sizeof *tab);
    if (!tab)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    for (size_t i = 0, g = 0; i < n; i++) {
        while (todo[i] >= sw->grids[g].first + sw->grids[g].npoints)
            g++;
        struct saturn_config *c = NULL;
        struct saturn_error e = {0};
        uint64_t h = saturn_sweep_point_config(sw, todo[i], &c, &e) ? 0 : saturn_share_key(c);
        bool same = false;
        if (h) { /* open addressing on (hash, grid) */
            size_t j = (size_t)(h ^ (g * 0x9e3779b97f4a7c15ull)) & (cap - 1);
            for (; tab[j].c && !same; j = (j + 1) & (cap - 1))
                same = tab[j].h == h && tab[j].grid == g && saturn_share_same(tab[j].c, c);
            if (!same) {
                tab[j] = (struct kept){h, g, c};
                c = NULL;
            }
        }
        saturn_config_free(c);
        if (!same)
            todo[m++] = todo[i];
    }
    for (size_t j = 0; j < cap; j++)
        saturn_config_free(tab[j].c);
    free(tab);
    *ntodo = m;
    return SATURN_OK;
}

/* Per point, saturn_collective_bound, computed once per combination of the
 * keys that are not the controller's (control.*, entropy.*): they alone
 * decide the packets and their routes. */
static int bounds(const struct saturn_sweep *sw, uint64_t *lb, struct saturn_error *err)
{
    const char **v = calloc(sw->nkeys ? sw->nkeys : 1, sizeof *v);
    /* open addressing on the hash of those keys' values (0: empty slot) */
    size_t cap = 1024, used = 0;
    struct slot { uint64_t h, lb; } *tab = calloc(cap, sizeof *tab);
    int rc = v && tab ? SATURN_OK : saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    for (size_t p = 0; !rc && p < sw->npoints; p++) {
        saturn_sweep_point_values(sw, p, v);
        uint64_t h = 1469598103934665603ull;
        for (size_t c = 0; c < sw->nkeys; c++) {
            if (!strncmp(sw->keys[c], "control.", 8) || !strncmp(sw->keys[c], "entropy.", 8))
                continue;
            for (const char *s = v[c] ? v[c] : ""; *s; s++)
                h = (h ^ (unsigned char)*s) * 1099511628211ull;
            h = (h ^ 0x1f) * 1099511628211ull;
        }
        h |= 1;
        size_t i = h & (cap - 1);
        while (tab[i].h && tab[i].h != h)
            i = (i + 1) & (cap - 1);
        if (!tab[i].h) {
            struct saturn_config *c = NULL;
            uint64_t b = 0;
            rc = saturn_sweep_point_config(sw, p, &c, err);
            if (!rc)
                rc = saturn_collective_bound(c, &b, err);
            saturn_config_free(c);
            tab[i] = (struct slot){h, b};
            if (2 * ++used > cap) { /* grow */
                struct slot *t2 = calloc(2 * cap, sizeof *t2);
                if (!t2) {
                    rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
                    break;
                }
                for (size_t k = 0; k < cap; k++)
                    if (tab[k].h) {
                        size_t j = tab[k].h & (2 * cap - 1);
                        while (t2[j].h)
                            j = (j + 1) & (2 * cap - 1);
                        t2[j] = tab[k];
                    }
                free(tab);
                tab = t2;
                cap *= 2;
                i = h & (cap - 1);
                while (tab[i].h != h)
                    i = (i + 1) & (cap - 1);
            }
        }
        lb[p] = tab[i].lb;
    }
    free(tab);
    free(v);
    return rc;
}

/* The kept rows of the partial file, into csv, sorted. */
static int write_kept(const struct saturn_sweep *sw, const struct search *s, const char *partial,
                      const char *csv, struct saturn_error *err)
{
    FILE *in = fopen(partial, "r"), *out = NULL;
    char *tmp = NULL, *line = NULL, *header = saturn_sweep_csv_header(sw);
    size_t cap = 0;
    int rc = in && header && asprintf(&tmp, "%s.tmp", csv) >= 0 && (out = fopen(tmp, "w"))
                 ? SATURN_OK
                 : saturn_error_set(err, SATURN_EIO, "%s: cannot write: %s", csv, strerror(errno));
    bool *seen = rc ? NULL : calloc(sw->npoints, sizeof *seen);
    if (!rc && !seen)
        rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    if (!rc && fputs(header, out) < 0)
        rc = saturn_error_set(err, SATURN_EIO, "%s: cannot write", tmp);
    for (int no = 0; !rc && getline(&line, &cap, in) > 0; no++) {
        char *end;
        size_t id = strtoull(line, &end, 10);
        if (no == 0 || id >= sw->npoints || seen[id] || !search_kept(s, id))
            continue;
        seen[id] = true;
        if (fputs(line, out) < 0)
            rc = saturn_error_set(err, SATURN_EIO, "%s: cannot write", tmp);
    }
    if (out && fclose(out) && !rc)
        rc = saturn_error_set(err, SATURN_EIO, "%s: cannot write", tmp);
    if (!rc && rename(tmp, csv))
        rc = saturn_error_set(err, SATURN_EIO, "%s: cannot write: %s", csv, strerror(errno));
    if (!rc)
        rc = saturn_sweep_csv_sort(csv, err);
    if (in)
        fclose(in);
    free(seen);
    free(tmp);
    free(line);
    free(header);
    return rc;
}

int sweep_search(const struct saturn_sweep *sw, const struct saturn_summary_opts *o,
                 enum search_goal goal, double race_z, size_t race_min, double race_eq,
                 const char *csv,
                 int jobs, bool share, bool quiet, struct saturn_error *err)
{
    size_t np = sw->npoints;
    struct saturn_table *rows = NULL;
    struct search *s = NULL;
    struct known k = {calloc(np ? np : 1, sizeof *k.val), calloc(np ? np : 1, 1)};
    size_t *row = malloc((np ? np : 1) * sizeof *row), *seed = malloc((np ? np : 1) * sizeof *seed);
    size_t *points = malloc((np ? np : 1) * sizeof *points), *todo = malloc((np ? np : 1) * sizeof *todo);
    uint64_t *lb = malloc((np ? np : 1) * sizeof *lb), *wcut = malloc((np ? np : 1) * sizeof *wcut);
    uint64_t *cut = malloc((np ? np : 1) * sizeof *cut);
    char *partial = NULL, *cutp = NULL;
    struct run_state rs = {0};
    size_t nseed = 0, runs = 0, ncut = 0, reused = 0;
    int rc = k.val && k.st && row && seed && points && todo && lb && wcut && cut &&
                     asprintf(&partial, "%s.partial.csv", csv) >= 0 &&
                     asprintf(&cutp, "%s.cut.csv", csv) >= 0
                 ? SATURN_OK
                 : saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    if (!rc && workload_of(sw->base) != WORKLOAD_COLLECTIVE)
        rc = saturn_error_set(err, SATURN_EINPUT,
                              "--search finds the shortest collectives: sim.workload = collective");
    if (!rc)
        rc = fold_seeds(sw, o->seeds, &rows, row, seed, &nseed, err);
    if (!rc) { /* check one point per set and pattern, and per shared run */
        size_t nfirst = 0;
        rc = check_points(sw, row, todo, &nfirst, err);
        struct sweep_pool pool = {.sw = sw, .todo = todo, .ntodo = nfirst, .check_only = true,
                                  .total = nfirst};
        if (!rc && (rc = sweep_pool_run(&pool, jobs)))
            *err = pool.err;
    }
    if (!rc)
        rc = bounds(sw, lb, err);
    if (!rc)
        rc = search_new(rows, row, seed, np, nseed, o, goal, lb, &s, err);
    if (!rc && race_z > 0)
        search_race(s, race_z, race_min);
    if (!rc && race_z > 0 && race_eq > 0)
        search_race_equiv(s, race_eq);
    if (!rc)
        rc = read_partial(sw, partial, &k, err);
    if (!rc)
        rc = read_cut(cutp, np, &k, err);
    if (!rc) {
        bool fresh = true;
        FILE *t = fopen(partial, "r");
        if (t)
            fresh = fgetc(t) == EOF, fclose(t);
        rs = (struct run_state){s, &k, fopen(partial, "a"), fopen(cutp, "a"), partial, cutp};
        char *header = saturn_sweep_csv_header(sw);
        bool cut_fresh = rs.cut && ftell(rs.cut) == 0;
        if (!rs.partial || !rs.cut || !header || (fresh && fputs(header, rs.partial) < 0) ||
            (cut_fresh && fputs("point,duration_at_least\n", rs.cut) < 0))
            rc = saturn_error_set(err, SATURN_EIO, "%s: cannot write: %s", partial,
                                  strerror(errno));
        free(header);
    }
    for (size_t i = 0; i < np; i++)
        cut[i] = UINT64_MAX;
    size_t n;
    while (!rc && (n = search_next(s, points, wcut)) > 0) {
        size_t ntodo = 0;
        for (size_t i = 0; i < n; i++) {
            size_t x = points[i];
            /* an earlier search's answer, when it answers this question */
            if (k.st[x] == 1 || (k.st[x] == 2 && k.val[x] > wcut[i])) {
                search_record(s, x, k.val[x], k.st[x] == 2);
                reused++;
                continue;
            }
            todo[ntodo++] = x;
            cut[x] = wcut[i];
        }
        struct sweep_pool pool = {.sw = sw, .todo = todo, .ntodo = ntodo, .csv_path = partial,
                                  .total = np, .share = share, .cutoff = cut,
                                  .result = on_result, .user = &rs};
        if (ntodo && (rc = sweep_pool_run(&pool, jobs)))
            *err = pool.err;
        for (size_t i = 0; i < ntodo; i++)
            cut[todo[i]] = UINT64_MAX;
        runs += pool.stats.runs;
    }
    if (rs.partial && fclose(rs.partial) && !rc)
        rc = saturn_error_set(err, SATURN_EIO, "%s: cannot write", partial);
    if (rs.cut && fclose(rs.cut) && !rc)
        rc = saturn_error_set(err, SATURN_EIO, "%s: cannot write", cutp);
    if (!rc)
        rc = write_kept(sw, s, partial, csv, err);
    if (!rc && !quiet) {
        struct search_stats st;
        search_stats(s, &st);
        ncut = st.cut;
        size_t kept = 0;
        for (size_t i = 0; i < np; i++)
            kept += search_kept(s, i);
        printf("search: %zu of %zu points answered in %zu waves (%zu exact, %zu cut off, %zu from "
               "an earlier search) by %zu simulations; %zu rows of complete sets in %s\n",
               st.run, np, st.waves, st.exact, ncut, reused, runs, kept, csv);
        if (race_z > 0)
            printf("search: raced (not exact): %zu sets left a race, %.3g standard errors behind "
                   "the leader after %zu seeds or more\n", st.raced, race_z, race_min);
        if (race_z > 0 && race_eq > 0)
            printf("search: of them %zu as the leader's equal (within %.3g of its mean)\n",
                   st.equiv, race_eq);
    }
    search_free(s);
    saturn_table_free(rows);
    free(k.val);
    free(k.st);
    free(row);
    free(seed);
    free(points);
    free(todo);
    free(lb);
    free(wcut);
    free(cut);
    free(partial);
    free(cutp);
    return rc;
}
