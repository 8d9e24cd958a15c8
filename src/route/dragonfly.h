/* What every Dragonfly routing policy shares: minimal next hops, the VC
 * order of each path family, output occupancy, and the in-transit
 * adaptive engine of OLM and the contention-counter policies.
 *
 * Deadlock freedom by VC order (every policy's channel dependency graph is
 * checked acyclic by tests/test_dragonfly.c). Each family has a total
 * order of slots (slot s of a link class is VC s; the last slot of a class
 * also takes the class's spare VCs):
 *   min:                       L G L G L (as many as the VCs allow)
 *   val (router), ugal, pb:    L G L L G L
 *   val (group), olm, base,    L G L G L
 *   hybrid, ectn:
 * and a hop may use any slot of its class above the one it arrived on that
 * leaves room, in order, for the rest of its path (df_vcs). In the OLM
 * family the intermediate group's local hops all use L1 and a local
 * misroute's second hop may stay on its first hop's VC, so two hops of a
 * group can share a VC. They stay acyclic because a two-hop
 * local path x -> y -> z (router indices in the group) is taken only when
 * (y - x) mod a < (z - y) mod a: every dependency between two local
 * channels of one VC climbs in (to - from) mod a. (saturn's restriction;
 * the paper's OLM relies on an escape path instead, see docs/DRAGONFLY.md.) */
#ifndef SATURN_ROUTE_DRAGONFLY_H
#define SATURN_ROUTE_DRAGONFLY_H

#include <stdbool.h>
#include <stdint.h>

#include "net/net.h"
#include "route/route.h"

/* p->route[1] bits. */
enum {
    DF_DECIDED = 1,   /* the source decision (val, ugal, pb) is made */
    DF_PHASE2 = 2,    /* the intermediate router or group is reached */
    DF_MANDATORY = 4, /* OLM family, global misrouting mm: a local hop in the source
                         group committed the packet to a global link of the next router */
};

/* The rests of a path df_plan asks df_vcs about (DF_ORDER_OLM). */
enum df_rest { DF_REST_NONE, DF_REST_L, DF_REST_GL, DF_REST_LGL, DF_REST_GLGL, DF_RESTS };

/* The OLM family's mechanisms that paper 004 leaves to its simulator
 * (docs/DRAGONFLY.md, "Mechanisms and knobs"): read once by each policy. */
struct df_opts {
    bool mm;        /* dragonfly.global_misroute = mm: in transit in the source group a
                       global misroute goes through another router's global link (MM+L);
                       crg: through this router's other global links */
    bool mm_all;    /* dragonfly.mm_targets = all: an mm local hop may go to every other
                       router of the group (FOGSim), not only the climbing ones */
    bool room;      /* dragonfly.misroute_room: a nonminimal option must be available
                       (a free VC with room for the packet) to be chosen */
    bool reaches;   /* contention.trigger = reaches: counter >= threshold (FOGSim, and
                       section VI-A's th <= p); exceeds: counter > threshold */
    bool blocked;   /* olm.trigger = blocked: the occupancy trigger (OLM, Hybrid) only
                       when the minimal output cannot take the packet now */
    bool busy;      /* olm.trigger = busy: ... or a flit crossed into it this cycle or the
                       last (FOGSim's CGA: its output queue still receiving a packet) */
    double min_occ;  /* olm.min_occupancy / 100: ... and is at least this full */
    bool occ_first;  /* olm.occupancy_vcs = first: occupancies of a candidate's first VC only
                        (FOGSim's per-VC credits); range: of all its VCs together */
    bool occ_next;   /* olm.occupancy_max = next_input: an occupancy is a fraction of the next
                        input buffer alone (FOGSim); buffers: of output and next input buffers */
    bool lowest;     /* dragonfly.vc_choice = lowest: a hop takes the lowest legal VC only */
    double cong_coef, cong_allow; /* olm.congested_*: a minimal global link in the source
                                     group must exceed cong_coef x mean + cong_allow phits */
    /* df_vcs under DF_ORDER_OLM, computed once: [global][same][rest][arrival + 1] (the
     * port left 0), and df_arrival: [global input][min(in_vc, 63)]. Routing asks for
     * them at every head and, with routing.reroute, every cycle it waits. */
    struct route_cand olm_vcs[2][2][DF_RESTS][8];
    int8_t olm_arrival[2][64];
};
extern const struct saturn_param route_dragonfly_params[];
/* Reads the options and fills the tables for network n. */
void df_opts_read(const struct saturn_config *cfg, const struct net *n, struct df_opts *o);
/* Does the contention counter value c fire against threshold th? */
static inline bool df_fires(const struct df_opts *o, unsigned c, unsigned th)
{
    return o->reaches ? c >= th : c > th;
}
/* Can output candidate c of router r take a packet of len flits now (a
 * free VC in its range with room for it)? */
bool df_cand_open(const struct net *n, uint32_t r, const struct route_cand *c, uint32_t len);

/* The minimal port from router r towards router d (r != d): the local port
 * to d, the global port to d's group, or the local port to the router
 * of r's group holding that global link. */
int df_port_to_router(const struct topo *t, uint32_t r, uint32_t d);
/* The port from r towards group tg (tg != r's group). */
int df_port_to_group(const struct topo *t, uint32_t r, uint32_t tg);

/* VC orders: the classes of the slots, lowest first. */
#define DF_ORDER_OLM "LGLGL"  /* olm, base, hybrid, ectn, val (group) */
#define DF_ORDER_VAL "LGLLGL" /* val (router), ugal, pb */

/* The position in `order` of the channel a head arrived on (-1: injected). */
int df_arrival(const struct net *n, const char *order, int in_port, int in_vc);
/* The VCs port may use: every slot of its class above the arrival (or at
 * it, when same) that leaves room for the classes of rest after it. */
struct route_cand df_vcs(const struct net *n, int port, const char *order, int arrival,
                         bool same, const char *rest);
/* The minimal (l-g-l) candidate under a VC order. */
void df_min_route(const struct net *n, const char *order, uint32_t r, int in_port, int in_vc,
                  const struct packet *p, struct route_result *out);

/* Checks that the configuration has the VCs a path family needs, and that
 * the router is one Dragonfly policies support. */
int df_check(const struct saturn_config *cfg, const struct net *n, int local_slots,
             int global_slots, const char *policy, struct saturn_error *err);

/* Phits waiting for output VCs lo..hi of router r's port: in the output
 * buffer, in flight and in the next router's input buffer (its capacity
 * less the credits). Injection-side congestion as UGAL-L and OLM see it. */
uint32_t df_occupancy(const struct net *n, uint32_t r, int port, int lo, int hi);

/* The ejection candidate (any VC). */
void df_eject(const struct net *n, const struct packet *p, struct route_result *out);

/* Valiant-family paths (val, ugal, pb): p->route[0] is the intermediate
 * router (p's destination router for a minimal packet); local_slots is 4
 * for the router variant. Fills the one candidate from router r. */
void df_val_route(const struct net *n, uint32_t r, int in_port, int in_vc, struct packet *p,
                  struct route_result *out);
/* The same with an intermediate group in p->route[0] (val.intermediate =
 * group): L0 G0 L1 G1 L2. */
void df_valg_route(const struct net *n, uint32_t r, int in_port, int in_vc, struct packet *p,
                   struct route_result *out);
/* Hop counts of a Valiant path through router mid, and of the minimal one. */
int df_router_hops(const struct topo *t, uint32_t a, uint32_t b);
/* val.intermediate = group (val, ugal, pb): Valiant paths go to a random
 * intermediate group (p->route[0] a group; a minimal packet's is its
 * destination group) and use df_valg_route; router: df_val_route. */
bool df_valiant_group(const struct saturn_config *cfg);
void df_valiant_route(const struct net *n, bool group, uint32_t r, int in_port, int in_vc,
                      struct packet *p, struct route_result *out);
/* The router hops of the group path from router r through group gm to router d. */
int df_group_path_hops(const struct topo *t, uint32_t r, uint32_t gm, uint32_t d);

/* In-transit adaptive routing (OLM family). At router r the plan holds
 * the minimal output and the nonminimal options the family allows here:
 * global misrouting (another global port of r) at the source router or
 * after the first local hop in the source group; local misrouting (one
 * extra local hop, restricted as above) on arrival in the intermediate
 * or destination group, or at the source router of an intra-group
 * packet. A policy fills `choice` (-1: minimal) and applies it. */
struct df_plan {
    int min_port;             /* -1: eject here */
    struct route_cand min;    /* the minimal candidate (port, slot VCs); ejecting, df_eject's */
    bool global;              /* the options are global misroutes (else local) */
    bool mm;                  /* the options are local hops that commit the packet to a
                                 global link of the next router (global misroute, mm) */
    bool forced;              /* the packet must take one of the options (DF_MANDATORY) */
    int nopt;
    struct route_cand opt[64];
    uint32_t min_link;        /* the group's global link on the minimal path, or NET_NONE
                                 when the packet is in its destination group */
    int in_port, in_vc;       /* the head's input VC (for df_plan_options) */
};
void df_plan(const struct net *n, const struct df_opts *o, uint32_t r, int in_port, int in_vc,
             const struct packet *p, struct df_plan *plan);
/* The same without listing the nonminimal options where there are some
 * (nopt = DF_OPTS_LATER; a forced plan lists them): most heads take the
 * minimal path, and a policy that decides on the minimal output first
 * asks for them (df_plan_options) only when it considers misrouting. */
#define DF_OPTS_LATER (-1)
void df_plan_min(const struct net *n, const struct df_opts *o, uint32_t r, int in_port,
                 int in_vc, const struct packet *p, struct df_plan *plan);
void df_plan_options(const struct net *n, const struct df_opts *o, uint32_t r,
                     const struct packet *p, struct df_plan *plan);
/* Routes to the minimal candidate (choice < 0) or option `choice`;
 * records misrouting in p. A forced plan ignores choice < 0 and takes a
 * random open option (any option when none is open: the head waits). */
void df_apply(const struct net *n, uint32_t r, const struct df_plan *plan, int choice,
              struct packet *p, struct route_result *out);
/* df_apply's minimal hop (choice < 0, a plan not forced, min_port >= 0), inline. */
static inline void df_apply_min(const struct net *n, uint32_t r, const struct df_plan *plan,
                                struct packet *p, struct route_result *out)
{
    if (p->route[0] != NET_NONE && df_group(&n->topo, r) == p->route[0])
        p->route[1] |= DF_PHASE2;
    out->n = 1;
    out->sel = 0;
    out->c[0] = plan->min;
}
/* One of the options whose flag is set, uniformly (-1: none). */
int df_pick(struct rng *rng, const bool *ok, int nopt);

/* at_source of the OLM family: no intermediate group yet. */
void df_inflight_init(void *state, const struct net *n, struct packet *p, uint64_t draw);
/* OLM's trigger (also Hybrid's): a random option whose occupancy is below
 * pct percent of the minimal output's, or -1. */
/* route_ops.reads_crossings of the policies using it: olm.trigger = busy
 * reads net->xbar_last. */
bool df_occupancy_reads_crossings(const struct saturn_config *cfg);
int df_occupancy_choice(const struct net *n, const struct df_opts *o, uint32_t r,
                        struct df_plan *plan, const struct packet *p, double pct);
/* Base's trigger (also Hybrid's and ECtN's in transit): counts the head at
 * (in_port, in_vc) for its minimal output; when that counter exceeds th, a
 * random option whose counter is under th, else -1. A plan from
 * df_plan_min gets its options listed here when they are needed. */
struct contention;
int df_contention_choice(struct contention *c, const struct df_opts *o, const struct net *n,
                         uint32_t r, int in_port, int in_vc, const struct packet *p,
                         struct df_plan *plan, unsigned th);

/* Valiant-family helpers (val, ugal, pb): a random router outside the
 * groups of routers s and d (anywhere when there are fewer than three
 * groups), from draw; and, from the source router r, the products q H of
 * the minimal path and of the Valiant path through p->route[0]. */
uint32_t df_val_intermediate(const struct topo *t, uint32_t s, uint32_t d, uint64_t draw,
                             bool src_only);
/* dragonfly.valiant_exclude = source: Valiant intermediates may lie in the destination group */
bool df_valiant_src_only(const struct saturn_config *cfg);
void df_ugal_costs(const struct net *n, bool group, uint32_t r, const struct packet *p,
                   double *cmin, double *cval);

#endif
