#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "experiment/sim.h"
#include "net/net.h"
#include "support.h"
#include "saturn/io.h"

struct saturn_config *test_config(const char *const *kv)
{
    struct saturn_config *c = saturn_config_new();
    assert_non_null(c);
    struct saturn_error err = {0};
    for (; kv && *kv; kv++) {
        if (saturn_config_apply_arg(c, *kv, &err) != SATURN_OK) {
            fprintf(stderr, "%s\n", err.msg);
            fail_msg("bad test configuration word %s", *kv);
        }
    }
    return c;
}

struct saturn_results test_run(const char *const *kv)
{
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct saturn_results r;
    if (saturn_run(c, &r, &err))
        fail_msg("%s", err.msg);
    saturn_config_free(c);
    return r;
}

int test_dir_setup(void **state)
{
    struct test_dir *d = malloc(sizeof *d);
    const char *tmp = getenv("TMPDIR");
    if (!d)
        return -1;
    snprintf(d->path, sizeof d->path, "%s/saturn_test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(d->path)) {
        free(d);
        return -1;
    }
    *state = d;
    return 0;
}

/* Removes the folder's files (tests make no subfolders), then the folder. */
int test_dir_teardown(void **state)
{
    struct test_dir *d = *state;
    DIR *dp = opendir(d->path);
    for (struct dirent *e; dp && (e = readdir(dp));) {
        char p[600];
        snprintf(p, sizeof p, "%s/%s", d->path, e->d_name);
        if (e->d_name[0] != '.')
            unlink(p);
    }
    if (dp)
        closedir(dp);
    rmdir(d->path);
    free(d);
    return 0;
}

int test_dir_entries(const struct test_dir *d)
{
    int n = 0;
    DIR *dp = opendir(d->path);
    assert_non_null(dp);
    for (struct dirent *e; (e = readdir(dp));)
        n += e->d_name[0] != '.';
    closedir(dp);
    return n;
}

const char *test_put_file(const char *dir, const char *name, const char *text)
{
    static char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

char *test_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = calloc(1, 1 << 16);
    assert_non_null(buf);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

struct net *test_net(const char *const *kv, struct saturn_config **cfg)
{
    struct net *n = calloc(1, sizeof *n);
    *cfg = test_config(kv);
    struct saturn_error err = {0};
    if (!n || sim_net_create(n, *cfg, 1, &err))
        fail_msg("%s", err.msg);
    return n;
}

void test_net_free(struct net *n, struct saturn_config *cfg)
{
    net_destroy(n);
    free(n);
    saturn_config_free(cfg);
}

bool test_graph_has_cycle(const uint8_t *edge, size_t nch)
{
    /* strip nodes with no incoming edge until none is left: a cycle remains */
    uint32_t *indeg = calloc(nch, sizeof *indeg);
    bool *gone = calloc(nch, 1);
    for (size_t x = 0; x < nch; x++)
        for (size_t y = 0; y < nch; y++)
            indeg[y] += edge[x * nch + y] != 0;
    size_t removed = 0;
    for (bool again = true; again;) {
        again = false;
        for (size_t x = 0; x < nch; x++)
            if (!gone[x] && indeg[x] == 0) {
                gone[x] = true;
                removed++;
                again = true;
                for (size_t y = 0; y < nch; y++)
                    indeg[y] -= edge[x * nch + y] != 0;
            }
    }
    free(gone);
    free(indeg);
    return removed < nch;
}
