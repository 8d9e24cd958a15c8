/* The topology parameters and the dispatch to each topology's file. */
#include <stdlib.h>
#include <string.h>

#include "topo/topo_internal.h"

static const char *const topo_names[] = {"torus", "mesh", "dragonfly", NULL};
static const char *const arrangements[] = {"palmtree", "consecutive", NULL};

const struct saturn_param topo_params[] = {
    {"network.topology", SATURN_PARAM_ENUM, "torus", 0, 0, topo_names,
     "torus (k-ary n-cube with wrap-around links), mesh, or dragonfly (canonical: complete "
     "graphs inside and between groups)"},
    {"network.k", SATURN_PARAM_INTLIST, "8", 2, 1 << 20, NULL,
     "torus/mesh: routers per dimension: one value for all, or one per dimension (x first)"},
    {"network.n", SATURN_PARAM_INT, "2", 1, TOPO_MAX_DIMS, NULL,
     "torus/mesh: number of dimensions"},
    {"dragonfly.p", SATURN_PARAM_INT, "2", 1, 62, NULL, "dragonfly: nodes per router"},
    {"dragonfly.a", SATURN_PARAM_INT, "4", 1, 63, NULL, "dragonfly: routers per group"},
    {"dragonfly.h", SATURN_PARAM_INT, "2", 1, 62, NULL,
     "dragonfly: global links per router (a h + 1 groups)"},
    {"dragonfly.arrangement", SATURN_PARAM_ENUM, "palmtree", 0, 0, arrangements,
     "dragonfly global links: palmtree (link k of group g to group g+k+1) or consecutive "
     "(link k of group g to the k-th other group)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

int topo_build(struct topo *t, const struct saturn_config *cfg, struct saturn_error *err)
{
    memset(t, 0, sizeof *t);
    if (saturn_config_enum(cfg, "network.topology") == 2)
        return dragonfly_build(t, cfg, err);
    return torus_build(t, cfg, err);
}

void topo_free(struct topo *t)
{
    free(t->coord);
    t->coord = NULL;
}

bool topo_link(const struct topo *t, uint32_t router, int port, uint32_t *far_router,
               int *far_port)
{
    if (port < 0 || port >= t->radix)
        return false;
    if (t->kind == TOPO_DRAGONFLY)
        return dragonfly_link(t, router, port, far_router, far_port);
    return torus_link(t, router, port, far_router, far_port);
}

int topo_distance(const struct topo *t, uint32_t a, uint32_t b)
{
    if (t->kind == TOPO_DRAGONFLY)
        return dragonfly_distance(t, a, b);
    return torus_distance(t, a, b);
}

int topo_diameter(const struct topo *t)
{
    if (t->kind == TOPO_DRAGONFLY) /* l-g-l; one group: l; one router: 0 */
        return t->groups > 1 ? (t->a > 1 ? 3 : 1) : (t->a > 1 ? 1 : 0);
    return torus_diameter(t);
}

double topo_uniform_bound(const struct topo *t)
{
    if (t->kind == TOPO_DRAGONFLY)
        return dragonfly_uniform_bound(t);
    return torus_uniform_bound(t);
}
