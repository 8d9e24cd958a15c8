/* Per-topology functions behind topo.h's dispatch (topo.c). */
#ifndef SATURN_TOPO_INTERNAL_H
#define SATURN_TOPO_INTERNAL_H

#include "topo/topo.h"

int torus_build(struct topo *t, const struct saturn_config *cfg, struct saturn_error *err);
bool torus_link(const struct topo *t, uint32_t router, int port, uint32_t *far_router,
                int *far_port);
int torus_distance(const struct topo *t, uint32_t a, uint32_t b);
int torus_diameter(const struct topo *t);
double torus_uniform_bound(const struct topo *t);

int dragonfly_build(struct topo *t, const struct saturn_config *cfg, struct saturn_error *err);
bool dragonfly_link(const struct topo *t, uint32_t router, int port, uint32_t *far_router,
                    int *far_port);
int dragonfly_distance(const struct topo *t, uint32_t a, uint32_t b);
double dragonfly_uniform_bound(const struct topo *t);

#endif
