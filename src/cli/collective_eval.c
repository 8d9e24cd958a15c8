#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/collective_eval.h"
#include "saturn/io.h"

int collective_eval(const struct saturn_config *cfg, const int64_t *offsets, uint64_t *duration,
                    uint64_t *thickness, size_t *nodes, struct saturn_error *err)
{
    struct saturn_sim *sim;
    int rc = saturn_sim_create(cfg, &sim, err);
    if (rc)
        return rc;
    if (nodes) /* any topology's (not the product of network.k: a Dragonfly's too) */
        *nodes = saturn_sim_nodes(sim);
    if (offsets && (rc = saturn_sim_set_offsets(sim, offsets, saturn_sim_nodes(sim))))
        rc = saturn_error_set(err, rc, "cannot set the start offsets");
    struct saturn_results r;
    if (!rc && !(rc = saturn_sim_run(sim, &r, err))) {
        *duration = r.duration;
        *thickness = r.thickness;
        saturn_results_free(&r);
    }
    saturn_sim_free(sim);
    return rc;
}

int schedule_write(const char *path, const int64_t *off, size_t n, struct saturn_error *err)
{
    size_t cap = 32 + n * 24, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    len += (size_t)snprintf(buf, cap, "node,offset\n");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%zu,%lld\n", i, (long long)off[i]);
    int rc = saturn_write_file_atomic(path, buf, len, err);
    free(buf);
    return rc;
}
