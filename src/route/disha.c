/* Fully adaptive minimal routing on every VC with Disha deadlock recovery
 * (Anjan & Pinkston 1995; paper 001's "deadlock recovery"). Routing never
 * avoids deadlock: the selection function takes the free VC with the most
 * credits among all minimal ports (ties at random), and heads that wait
 * longer than disha.timeout are drained through the recovery lane
 * (src/route/disha_lane.c, on the engine's hooks). */
#include "net/net.h"
#include "route/disha_lane.h"
#include "route/route.h"

static void disha_route(void *state, const struct net *n, uint32_t router, int in_port,
                        int in_vc, struct packet *p, struct route_result *out)
{
    route_minimal_adaptive(n, router, p, 0, n->Vd - 1, out);
}

static int disha_init(void **state, const struct saturn_config *cfg, const struct net *n,
                      struct saturn_error *err)
{
    *state = NULL;
    if (n->buf_cap == 0)
        return saturn_config_fail(cfg, "router.buf_flits", err,
                                  "Disha recovers from deadlock among bounded buffers; with "
                                  "unlimited buffers nothing deadlocks (use a bounded size)");
    return SATURN_OK;
}

const struct route_ops route_disha = {
    .name = "disha",
    .init = disha_init,
    .route = disha_route,
    .attach = disha_lane_attach,
};
