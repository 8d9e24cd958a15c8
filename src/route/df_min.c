/* Dragonfly minimal routing: at most l-g-l (local hop to the router
 * holding the global link to the destination group, the global link, a
 * local hop to the destination router). Every hop may take any VC of the
 * order above the one it arrived on that leaves room for the rest of the
 * path (dragonfly.h). */
#include <stdlib.h>

#include "route/dragonfly.h"

/* The order: L, then G L for as long as both classes have VCs left
 * (3 local and 2 global VCs: L G L G L); spare VCs join the last slot of
 * their class. */
static int min_init(void **state, const struct saturn_config *cfg, const struct net *n,
                    struct saturn_error *err)
{
    char *order = calloc(1, 2 * 64 + 2);
    if (!order)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = order;
    char *o = order;
    *o++ = 'L';
    for (int l = n->local_vcs - 1, g = n->global_vcs; l > 0 && g > 0; l--, g--) {
        *o++ = 'G';
        *o++ = 'L';
    }
    return df_check(cfg, n, 2, 1, "min", err);
}

static void min_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                      struct packet *p, struct route_result *out)
{
    df_min_route(n, state, r, in_port, in_vc, p, out);
}

const struct route_ops route_df_min = {.name = "min",
                                       .init = min_init,
                                       .route = min_route,
                                       .free = free,
                                       .dragonfly = true,
                                       .local_vcs = 2};
