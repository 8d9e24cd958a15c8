/* Static global threshold (paper 001, section 5.2.3, Fig. 6): every node
 * stops starting packets while the estimated number of full network VC
 * buffers (gather.h: side-band snapshots, extrapolated) exceeds a fixed
 * threshold. The estimate is global, so all nodes throttle together. */
#include <stdlib.h>

#include "control/control.h"
#include "control/gather.h"
#include "net/net.h"

const struct saturn_param static_params[] = {
    {"static.threshold", SATURN_PARAM_REAL, "250", 0, 1e12, NULL,
     "static: throttle every node while the estimated full network VC buffers exceed this "
     "(paper 001 Fig. 6: 250 = 8 % of the 16x16 torus's 3,072)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct static_gate {
    struct gather g;
    double threshold;
    bool on;
    uint32_t nodes;
};

static int static_init(void **state, const struct saturn_config *cfg, struct net *n,
                       struct saturn_error *err)
{
    struct static_gate *s = calloc(1, sizeof *s);
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = s;
    int rc;
    if ((rc = ctl_reject_keys(cfg, selftune_keys, "static", err)) ||
        (rc = ctl_reject_keys(cfg, alo_keys, "static", err)) ||
        (rc = ctl_reject_keys(cfg, entropy_keys, "static", err)))
        return rc;
    s->threshold = saturn_config_real(cfg, "static.threshold");
    s->nodes = n->nnodes;
    return gather_init(&s->g, cfg, n, err);
}

static void static_observe(void *state, struct net *n)
{
    struct static_gate *s = state;
    gather_step(&s->g, n);
    s->on = gather_estimate(&s->g) > s->threshold;
}

static bool static_may_start(void *state, const struct net *n, uint32_t node)
{
    return !((const struct static_gate *)state)->on;
}

static uint32_t static_throttled(const void *state)
{
    const struct static_gate *s = state;
    return s->on ? s->nodes : 0;
}

static void static_probe(const void *state, double *threshold, double *estimate)
{
    const struct static_gate *s = state;
    *threshold = s->threshold;
    *estimate = gather_estimate(&s->g);
}

static void static_free(void *state)
{
    struct static_gate *s = state;
    if (!s)
        return;
    gather_free(&s->g);
    free(s);
}

const struct ctl_ops ctl_static = {.name = "static",
                                   .init = static_init,
                                   .observe = static_observe,
                                   .may_start = static_may_start,
                                   .throttled = static_throttled,
                                   .probe = static_probe,
                                   .free = static_free};
