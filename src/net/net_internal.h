/* Engine-private helpers shared by net.c and router.c. */
#ifndef SATURN_NET_INTERNAL_H
#define SATURN_NET_INTERNAL_H

#include "net/net.h"

void net_push_event(struct net *n, uint64_t when, uint32_t kind,
                    uint32_t target, flit_t f);
bool net_ring_grow(flit_t **buf, uint32_t *head, uint32_t count, uint32_t *mask);
void router_step(struct net *n, uint32_t r);

#endif
