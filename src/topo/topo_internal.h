/* The registered topologies (topo.c's list) and what their files share. */
#ifndef SATURN_TOPO_INTERNAL_H
#define SATURN_TOPO_INTERNAL_H

#include "topo/topo.h"

extern const struct topo_ops topo_torus_ops, topo_mesh_ops, topo_dragonfly_ops;

#endif
