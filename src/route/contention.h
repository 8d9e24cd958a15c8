/* Contention counters (paper 004, section III): one counter per output
 * port of every router, incremented when a head reaches the front of an
 * input queue, for the output of its minimal path, and decremented when
 * that packet's tail leaves the queue, whatever port it took. */
#ifndef SATURN_ROUTE_CONTENTION_H
#define SATURN_ROUTE_CONTENTION_H

#include "net/net.h"
#include "route/dragonfly.h"

struct contention {
    uint16_t *count; /* routers * P */
    int8_t *held;    /* routers * P * V: the port an input VC's packet counts, or -1 */
    int P, V;
};

int contention_init(struct contention *c, const struct net *n);
void contention_free(struct contention *c);
/* The head at input VC (in_port, in_vc) of router r counts for output
 * port: once, however often it is routed while it waits (routing.reroute). */
static inline void contention_add(struct contention *c, uint32_t r, int in_port, int in_vc,
                                  int port)
{
    size_t i = ((size_t)r * (size_t)c->P + (size_t)in_port) * (size_t)c->V + (size_t)in_vc;
    if (c->held[i] == (int8_t)port)
        return;
    if (c->held[i] >= 0)
        c->count[(size_t)r * (size_t)c->P + (size_t)c->held[i]]--;
    c->held[i] = (int8_t)port;
    c->count[(size_t)r * (size_t)c->P + (size_t)port]++;
}
/* The tail left that input VC. */
static inline void contention_remove(struct contention *c, uint32_t r, int in_port, int in_vc)
{
    size_t i = ((size_t)r * (size_t)c->P + (size_t)in_port) * (size_t)c->V + (size_t)in_vc;
    if (c->held[i] >= 0) {
        c->count[(size_t)r * (size_t)c->P + (size_t)c->held[i]]--;
        c->held[i] = -1;
    }
}
static inline unsigned contention_get(const struct contention *c, uint32_t r, int port)
{
    return c->count[(size_t)r * (size_t)c->P + (size_t)port];
}

/* df_contention_choice in two steps, the first inline (Base's every
 * routing): count the head for its minimal output (or ejection port) and
 * tell whether the counter fires with options to misroute to; then, only
 * if it does, the choice among the options (-1: none). */
static inline bool df_contention_count(struct contention *c, const struct df_opts *o,
                                       const struct net *n, uint32_t r, int in_port, int in_vc,
                                       const struct packet *p, const struct df_plan *plan,
                                       unsigned th)
{
    const int port = plan->min.port; /* the ejection port when min_port < 0 */
    contention_add(c, r, in_port, in_vc, port);
    return plan->min_port >= 0 && plan->nopt != 0 && df_fires(o, contention_get(c, r, port), th);
}
int df_contention_pick(struct contention *c, const struct df_opts *o, const struct net *n,
                       uint32_t r, const struct packet *p, struct df_plan *plan, unsigned th);

/* Policy states (their files), here for the tests that inspect them. */
struct df_base {
    struct contention cc;
    struct df_opts o;
    unsigned th;
};
struct df_hybrid {
    struct contention cc;
    struct df_opts o;
    unsigned th;
    double pct;
};
struct df_ectn {
    struct contention cc;
    struct df_opts o;
    unsigned th, thc;
    bool either;         /* ectn.injection = either */
    uint64_t period, delay;
    uint32_t links;      /* a h global links per group */
    uint16_t *partial;   /* routers x links */
    uint16_t *pending;   /* groups x links: the last broadcast, until it is applied */
    uint16_t *combined;  /* groups x links: what every router of the group sees */
    int32_t *held;       /* routers * P * V: the partial counter an input VC's packet counts */
};

#endif
