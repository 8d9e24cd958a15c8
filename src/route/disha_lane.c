/* Disha progressive deadlock recovery (Anjan & Pinkston 1995), sequential
 * form, for routing policies that do not avoid deadlock (route_ops.recovery).
 *
 * Every router has one flit-sized deadlock buffer (DB); the DBs form a
 * recovery lane over the same physical links. A token circulates among the
 * routers on a dedicated token path (a Hamiltonian path of the k-ary n-cube,
 * boustrophedon order, one router every disha.token_hop cycles). A head that
 * has waited at the front of its input VC for more than disha.timeout cycles
 * without an output VC is presumed deadlocked (disha.timeout_from = routed:
 * counted from when its routing was done, so that a wait for the central
 * arbiter is not taken for blocking). When the free token reaches
 * its router, the router keeps the token and the presumed-deadlocked packet
 * (the one waiting longest there) leaves through the lane: its head goes DB
 * to DB along the dimension-order path to its destination and the rest of
 * the packet follows, one flit per cycle as it arrives through the ordinary
 * VCs behind it. Only the token holder uses the lane, so the lane never
 * blocks and never deadlocks; each lane hop takes route + crossbar + link
 * delay, and a lane flit takes its link (or the ejection channel) with
 * priority: the router's own flits cannot use that link in that cycle. The
 * token goes on, from the router after the one that caught it, when the
 * tail leaves the last DB for the node.
 *
 * A head is blocked while it waits for an output VC, or, with eager VC
 * allocation, while it holds one it cannot enter for want of credits (the
 * recovery gives that VC back). Every packet in a real deadlock has its
 * head blocked one of these two ways, so each
 * recovery removes one packet from every knot it is part of; the buffers it
 * frees let the others move. Presumed deadlocks that were only congestion
 * are recovered too (time-outs cannot tell them apart): that is the cost
 * Disha pays beyond saturation, and what paper 001's Fig. 4 shows.
 *
 * The lane runs on the engine's hooks (net.h, struct net_hook_ops): each
 * cycle after the arrivals and before the routers, and it moves flits
 * only through the net_hook_* primitives. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route/disha_lane.h"
#include "net/net_internal.h"

static const char *const timeout_from_names[] = {"front", "routed", NULL};

const struct saturn_param disha_lane_params[] = {
    {"disha.timeout", SATURN_PARAM_INT, "8", 1, 1e9, NULL,
     "a head waiting longer than this (cycles) for an output VC is presumed deadlocked "
     "(routing.algorithm = disha)"},
    {"disha.timeout_from", SATURN_PARAM_ENUM, "front", 0, 0, timeout_from_names,
     "when a head's wait starts counting towards disha.timeout: front (it reached the front "
     "of its input VC: time queued for router.arbiter = central counts) or routed (its "
     "routing was done: only the wait for an output VC counts)"},
    {"disha.token_hop", SATURN_PARAM_INT, "1", 1, 1e6, NULL,
     "cycles for the recovery token to move to the next router on its path"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct lane_flit {
    flit_t f;
    uint16_t hop;
    uint64_t due; /* cycle it takes the link of path[hop] */
};

struct recovery {
    uint64_t timeout;
    bool from_routed;  /* disha.timeout_from = routed */
    uint32_t token_hop, hop_time;
    uint32_t *ring;    /* token path: routers in boustrophedon order */
    uint32_t *ring_at; /* router -> position on the path */
    uint32_t pos;      /* where the free token is */
    uint64_t next_move;
    bool held;
    uint64_t held_since, busy_cycles, count;
    /* the packet in recovery */
    uint32_t pid, r0;
    int p0, v0;
    uint64_t next_pull;
    uint32_t *path; /* global output ports, one per lane hop; the last is the ejection port */
    int hops;       /* entries in path */
    struct lane_flit *lane;
    uint32_t lane_n, lane_cap;
};

/* Routers in boustrophedon order: consecutive routers are neighbours. */
static void token_path(const struct topo *t, uint32_t *ring)
{
    int c[TOPO_MAX_DIMS] = {0}, dir[TOPO_MAX_DIMS];
    for (int d = 0; d < t->n; d++)
        dir[d] = 1;
    for (uint32_t i = 0; i < t->routers; i++) {
        ring[i] = topo_id(t, c);
        for (int d = 0; d < t->n; d++) {
            int x = c[d] + dir[d];
            if (x >= 0 && x < t->k[d]) {
                c[d] = x;
                break;
            }
            dir[d] = -dir[d]; /* this dimension turns; the next one steps */
        }
    }
}

static void lane_step(struct net *n, void *state);
static void lane_destroy(void *state);

static const struct net_hook_ops disha_lane_ops = {
    .name = "disha lane",
    .before_routers = lane_step, /* its links are taken before the routers move */
    .destroy = lane_destroy,
};

int disha_lane_attach(struct net *n, const struct saturn_config *cfg, struct saturn_error *err)
{
    struct recovery *rc = calloc(1, sizeof *rc);
    if (!rc)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    int e = net_hook_add(n, &disha_lane_ops, rc, err);
    if (e)
        return e;
    n->links_taken = true;
    const struct topo *t = &n->topo;
    rc->timeout = (uint64_t)saturn_config_int(cfg, "disha.timeout");
    rc->from_routed = saturn_config_enum(cfg, "disha.timeout_from") == 1;
    if (rc->from_routed && !n->ivc_routed &&
        !(n->ivc_routed = calloc((size_t)n->topo.routers * n->P * n->V, sizeof *n->ivc_routed)))
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    rc->token_hop = (uint32_t)saturn_config_int(cfg, "disha.token_hop");
    uint32_t hop = n->route_delay + n->xbar_delay + n->link_latency;
    rc->hop_time = hop ? hop : 1;
    rc->ring = malloc(t->routers * sizeof *rc->ring);
    rc->ring_at = malloc(t->routers * sizeof *rc->ring_at);
    rc->path = malloc(((size_t)topo_diameter(t) + 1) * sizeof *rc->path);
    rc->lane_cap = 64;
    rc->lane = malloc(rc->lane_cap * sizeof *rc->lane);
    if (!rc->ring || !rc->ring_at || !rc->path || !rc->lane)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    token_path(t, rc->ring);
    for (uint32_t i = 0; i < t->routers; i++)
        rc->ring_at[rc->ring[i]] = i;
    return SATURN_OK;
}

static void lane_destroy(void *state)
{
    struct recovery *rc = state;
    free(rc->ring);
    free(rc->ring_at);
    free(rc->path);
    free(rc->lane);
    free(rc);
}

uint64_t disha_lane_count(const struct net *n)
{
    const struct recovery *rc = net_hook_state(n, &disha_lane_ops);
    return rc ? rc->count : 0;
}

uint64_t disha_lane_busy_cycles(const struct net *n)
{
    const struct recovery *rc = net_hook_state(n, &disha_lane_ops);
    if (!rc)
        return 0;
    return rc->busy_cycles + (rc->held ? n->now - rc->held_since : 0);
}

/* The lane's path from router a to node dst: dimension order, the +
 * way on ties; ports as global output port ids. */
static void lane_path(struct net *n, struct recovery *rc, uint32_t a, uint32_t dst)
{
    const struct topo *t = &n->topo;
    uint32_t b = topo_node_router(t, dst), r = a;
    rc->hops = 0;
    for (int d = 0; d < t->n; d++) {
        int c = topo_coord(t, r, d), g = topo_coord(t, b, d), k = t->k[d];
        if (c == g)
            continue;
        int port, steps;
        if (t->kind == TOPO_MESH) {
            port = g > c ? 2 * d : 2 * d + 1;
            steps = abs(g - c);
        } else {
            int fw = ((g - c) % k + k) % k, bw = k - fw;
            port = fw <= bw ? 2 * d : 2 * d + 1;
            steps = fw <= bw ? fw : bw;
        }
        for (int s = 0; s < steps; s++) {
            rc->path[rc->hops++] = r * (uint32_t)n->P + (uint32_t)port;
            uint32_t fr;
            int fp;
            topo_link(t, r, port, &fr, &fp);
            r = fr;
        }
    }
    rc->path[rc->hops++] = r * (uint32_t)n->P + (uint32_t)topo_node_port(t, dst);
}

/* The presumed-deadlocked head of router r waiting longest, if any. */
static bool find_victim(const struct net *n, const struct recovery *rc, uint32_t r, int *pp,
                        int *pv)
{
    const int P = n->P, V = n->V;
    uint64_t oldest = UINT64_MAX;
    for (uint64_t pm = n->rports[r]; pm; pm &= pm - 1) {
        int p = __builtin_ctzll(pm);
        const struct port *pt = &n->ports[(size_t)r * P + p];
        for (uint64_t m = pt->nonempty & n->data_mask; m; m &= m - 1) { /* data only */
            int v = __builtin_ctzll(m);
            size_t i = ((size_t)r * P + p) * V + v;
            const struct ivc *iv = &n->ivcs[i];
            uint8_t st = iv->state;
            /* a head still waiting for a VC, or one that holds a VC it has
             * not been able to enter (eager allocation: its credits) */
            if (st == IVC_ACTIVE ? !(net_ivc_front(iv).flags & FLIT_HEAD)
                                 : st != IVC_WAIT && st != IVC_ROUTING && st != IVC_VA)
                continue;
            const struct ivc_route *ir = &n->iroute[i];
            uint64_t t = ir->t_front;
            if (rc->from_routed) { /* the arbiter's queue is no blocking */
                if (st == IVC_WAIT && ir->route.n == 0)
                    continue;
                t = n->ivc_routed[i] + n->route_delay;
                if (n->now < t)
                    continue;
            }
            if (n->now - t > rc->timeout && t < oldest) {
                oldest = t;
                *pp = p;
                *pv = v;
            }
        }
    }
    return oldest != UINT64_MAX;
}

static void lane_push(struct recovery *rc, struct lane_flit lf)
{
    if (rc->lane_n == rc->lane_cap) {
        uint32_t cap = rc->lane_cap * 2;
        struct lane_flit *x = realloc(rc->lane, cap * sizeof *x);
        if (!x) {
            fprintf(stderr, "saturn: out of memory (recovery lane)\n");
            abort();
        }
        rc->lane = x;
        rc->lane_cap = cap;
    }
    rc->lane[rc->lane_n++] = lf;
}

static void token_release(struct net *n, struct recovery *rc)
{
    rc->held = false;
    rc->busy_cycles += n->now - rc->held_since;
    rc->pos = (rc->ring_at[rc->r0] + 1) % n->topo.routers;
    rc->next_move = n->now + rc->token_hop;
}

static void lane_step(struct net *n, void *state)
{
    struct recovery *rc = state;
    const uint64_t now = n->now;

    /* The packet in recovery feeds the lane, one flit per cycle. */
    if (rc->held && rc->pid != NET_NONE && now >= rc->next_pull) {
        const uint32_t gp = rc->r0 * (uint32_t)n->P + (uint32_t)rc->p0;
        struct ivc *iv = &n->ivcs[(size_t)gp * n->V + rc->v0];
        if (iv->count) {
            flit_t f = net_hook_pop(n, rc->r0, rc->p0, rc->v0);
            n->lane_flits++;
            lane_push(rc, (struct lane_flit){f, 0, now});
            if (f.flags & FLIT_TAIL) /* net_hook_pop gave the VC back */
                rc->pid = NET_NONE;
        }
    }

    /* Lane flits take their links with priority; the last hop is the
     * ejection channel. */
    for (uint32_t i = 0; i < rc->lane_n;) {
        struct lane_flit *lf = &rc->lane[i];
        if (lf->due != now) {
            i++;
            continue;
        }
        const uint32_t gop = rc->path[lf->hop];
        if (lf->hop + 1 < rc->hops) {
            net_hook_take_link(n, gop, lf->f, true);
            lf->hop++;
            lf->due = now + rc->hop_time;
            i++;
            continue;
        }
        flit_t f = lf->f;
        rc->lane[i] = rc->lane[--rc->lane_n]; /* due times keep the order, not positions */
        n->lane_flits--;
        net_hook_take_link(n, gop, f, false); /* the ejection channel */
        net_hook_eject(n, gop, f, n->xbar_delay + n->eject_latency);
        if (f.flags & FLIT_TAIL) /* the lane is free: the token goes on */
            token_release(n, rc);
    }

    /* The free token visits the next router and stops where a head has
     * waited too long. */
    if (rc->held || now < rc->next_move)
        return;
    uint32_t r = rc->ring[rc->pos];
    int p = 0, v = 0; /* set by find_victim when it finds one */
    if (net_router_holds(n, r) && find_victim(n, rc, r, &p, &v)) {
        const uint32_t gp = r * (uint32_t)n->P + (uint32_t)p;
        struct ivc *iv = &n->ivcs[(size_t)gp * n->V + v];
        rc->held = true;
        rc->held_since = now;
        rc->count++;
        rc->pid = net_ivc_front(iv).pid;
        rc->r0 = r;
        rc->p0 = p;
        rc->v0 = v;
        rc->next_pull = now + n->route_delay; /* the head is routed into the DB */
        net_hook_seize(n, r, p, v);
        lane_path(n, rc, r, n->pk[rc->pid].dst);
        return;
    }
    rc->pos = rc->pos + 1 == n->topo.routers ? 0 : rc->pos + 1;
    rc->next_move = now + rc->token_hop;
}
