/* Megafly / Dragonfly+ routing (routing.algorithm = min, val, ugal on
 * network.topology = megafly; topo/megafly.c numbers the routers).
 *
 *   min   up from the source leaf to the spine holding the global link to
 *         the destination group (to any spine, as one adaptive group, when
 *         the destination is in the same group), over that link, down to
 *         the destination leaf: at most 3 hops (Shpiner et al. 2017).
 *   val   Valiant over a random intermediate group I (neither the source's
 *         nor the destination's; traffic inside a group goes minimally):
 *         up, global to I; at I's spine either its global link to the
 *         destination group or, when it has none, down to a leaf of I (the
 *         least occupied, adaptively) and up to the spine that has it;
 *         global; down. At most 6 hops.
 *   ugal  UGAL-L (Singh 2005) at the source leaf: minimal when q_min H_min
 *         <= q_val H_val + T, q the phits waiting for the up port of each
 *         path (class 0 VCs), H its hops, T = ugal.threshold packets (0
 *         unless set).
 *
 * Deadlock: every minimal path is up, global, down (or up, down), so in
 * the channel dependency graph up channels lead only to global or down
 * ones, global ones only to down ones, and down ones only to ejection: no
 * cycle, on any number of VCs (min uses them all). Valiant's leaf in I adds
 * a down-to-up turn; it takes VC class 1 from that up hop on (and on the
 * global hop from I's spine when it goes straight on), class 0 before:
 * each class alone is up/global/down-ordered as above and a packet only
 * goes from class 0 to class 1, so 2 VC classes suffice (the Dragonfly+
 * scheme). tests/test_topologies.c checks every path and VC.
 *
 * p->route[0]: the target group of the first phase (I, or the destination
 * group when minimal); p->route[1]: MF_DECIDED (ugal's choice made),
 * MF_PHASE2 (group route[0] reached), MF_CLASS1 (on VC class 1). */
#include <stdlib.h>

#include "net/net.h"
#include "route/dragonfly.h" /* df_occupancy */
#include "route/route.h"

enum { MF_DECIDED = 1, MF_PHASE2 = 2, MF_CLASS1 = 4 };
enum mf_mode { MF_MIN, MF_VAL, MF_UGAL };

struct mf {
    enum mf_mode mode;
    int classes;
    double threshold; /* ugal: phits */
};

static uint32_t group_of(const struct topo *t, uint32_t r)
{
    const uint32_t leaves = t->groups * (uint32_t)t->a;
    return r < leaves ? r / (uint32_t)t->a : (r - leaves) / (uint32_t)t->mf_s;
}

/* The spine index (= a leaf's up port) and the spine's global port that
 * carry group g's link to group to != g. */
static void link_to(const struct topo *t, uint32_t g, uint32_t to, int *spine, int *port)
{
    uint32_t k = (to + t->groups - g - 1) % t->groups;
    *spine = (int)(k / (uint32_t)t->h);
    *port = t->a + (int)(k % (uint32_t)t->h);
}

static void one(struct route_result *out, int port, int lo, int hi)
{
    out->n = 1;
    out->sel = 0;
    out->c[0] = (struct route_cand){(uint16_t)port, (uint8_t)lo, (uint8_t)hi};
}

/* The hops from spine j of group i (arrived by a global link) to the
 * destination leaf: straight on when j holds the link, else down and up. */
static int hops_on(const struct topo *t, uint32_t i, int j, uint32_t gd)
{
    int sp, port;
    link_to(t, i, gd, &sp, &port);
    return sp == j ? 2 : 4;
}

static void ugal_decide(const struct mf *s, const struct net *n, uint32_t r, uint32_t gd,
                        struct packet *p)
{
    const struct topo *t = &n->topo;
    const uint32_t gs = group_of(t, r), mid = p->route[0];
    p->route[1] |= MF_DECIDED;
    if (mid == gd)
        return;
    int lo, hi, smin, smid, pmin, pmid;
    route_vc_class(2, n->Vd, 0, &lo, &hi);
    link_to(t, gs, gd, &smin, &pmin);
    link_to(t, gs, mid, &smid, &pmid);
    /* where the link to mid arrives: that group's link G - 2 - k */
    uint32_t k = (mid + t->groups - gs - 1) % t->groups, back = t->groups - 2 - k;
    double hmin = 3, hval = 2 + hops_on(t, mid, (int)(back / (uint32_t)t->h), gd);
    double qmin = df_occupancy(n, r, smin, lo, hi), qval = df_occupancy(n, r, smid, lo, hi);
    if (qmin * hmin > qval * hval + s->threshold)
        p->misroute |= PACKET_MISROUTED_GLOBAL;
    else
        p->route[0] = gd;
}

static void mf_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                     struct packet *p, struct route_result *out)
{
    const struct mf *s = state;
    const struct topo *t = &n->topo;
    const uint32_t x = topo_node_router(t, p->dst), gd = group_of(t, x), g = group_of(t, r);
    const bool leaf = r < t->groups * (uint32_t)t->a;
    if (r == x) {
        one(out, topo_node_port(t, p->dst), 0, n->Vd - 1);
        return;
    }
    if (s->mode == MF_UGAL && !(p->route[1] & MF_DECIDED))
        ugal_decide(s, n, r, gd, p);
    if (!(p->route[1] & MF_PHASE2) && g == p->route[0])
        p->route[1] |= MF_PHASE2;
    int lo0, hi0, lo1, hi1, sp, gp;
    route_vc_class(s->classes, n->Vd, 0, &lo0, &hi0);
    route_vc_class(s->classes, n->Vd, s->classes - 1, &lo1, &hi1);
    if (leaf) {
        if (p->route[1] & MF_PHASE2 && g != gd) /* I's leaf: up on class 1 */
            p->route[1] |= MF_CLASS1;
        const bool c1 = p->route[1] & MF_CLASS1;
        const uint32_t to = p->route[1] & MF_PHASE2 ? gd : p->route[0];
        if (to == g) /* the destination's group: any spine */
            route_adaptive_span(n, r, 0, t->mf_s, c1 ? lo1 : lo0, c1 ? hi1 : hi0, out);
        else {
            link_to(t, g, to, &sp, &gp);
            one(out, sp, c1 ? lo1 : lo0, c1 ? hi1 : hi0);
        }
        return;
    }
    const int j = (int)((r - t->groups * (uint32_t)t->a) % (uint32_t)t->mf_s);
    if (!(p->route[1] & MF_PHASE2)) { /* the source group's spine: to the target group */
        link_to(t, g, p->route[0], &sp, &gp);
        one(out, gp, lo0, hi0);
        return;
    }
    if (g == gd) { /* down to the destination leaf */
        const bool c1 = p->route[1] & MF_CLASS1;
        one(out, (int)(x % (uint32_t)t->a), c1 ? lo1 : lo0, c1 ? hi1 : hi0);
        return;
    }
    /* I's spine, arrived by its global link */
    link_to(t, g, gd, &sp, &gp);
    if (sp == j) {
        p->route[1] |= MF_CLASS1;
        one(out, gp, lo1, hi1);
    } else
        route_adaptive_span(n, r, 0, t->a, lo0, hi0, out);
}

static void mf_at_source(void *state, const struct net *n, struct packet *p, uint64_t draw)
{
    const struct mf *s = state;
    const struct topo *t = &n->topo;
    const uint32_t gs = group_of(t, topo_node_router(t, p->src)),
                   gd = group_of(t, topo_node_router(t, p->dst));
    p->route[1] = 0;
    p->route[0] = gd;
    if (s->mode == MF_MIN || gs == gd || t->groups < 3)
        return;
    /* a group other than both ends */
    uint32_t mid = (uint32_t)(draw % (t->groups - 2)), lo = gs < gd ? gs : gd, hi = gs ^ gd ^ lo;
    mid += mid >= lo;
    mid += mid >= hi;
    p->route[0] = mid;
    if (s->mode == MF_VAL)
        p->misroute |= PACKET_MISROUTED_GLOBAL;
}

static int mf_init(void **state, const struct saturn_config *cfg, const struct net *n,
                   enum mf_mode mode, struct saturn_error *err)
{
    struct mf *s = calloc(1, sizeof *s);
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = s;
    s->mode = mode;
    s->classes = mode == MF_MIN ? 1 : 2;
    if (saturn_config_is_set(cfg, "val.intermediate"))
        return saturn_config_fail(cfg, "val.intermediate", err,
                                  "applies to the Dragonfly; on a megafly Valiant's "
                                  "intermediate is a random group");
    if (mode != MF_UGAL && saturn_config_is_set(cfg, "ugal.threshold"))
        return saturn_config_fail(cfg, "ugal.threshold", err,
                                  "applies to routing.algorithm = ugal");
    s->threshold = saturn_config_is_set(cfg, "ugal.threshold")
                       ? saturn_config_real(cfg, "ugal.threshold") *
                             (double)saturn_config_int(cfg, "traffic.packet_length")
                       : 0;
    if (n->Vd < s->classes)
        return saturn_config_fail(cfg, "router.vcs", err,
                                  "too few VCs: %s on a megafly needs 2 VC classes (class 1 "
                                  "from the up hop in the intermediate group on)",
                                  mode == MF_VAL ? "val" : "ugal");
    return SATURN_OK;
}

static int min_init(void **st, const struct saturn_config *c, const struct net *n,
                    struct saturn_error *e)
{
    return mf_init(st, c, n, MF_MIN, e);
}
static int val_init(void **st, const struct saturn_config *c, const struct net *n,
                    struct saturn_error *e)
{
    return mf_init(st, c, n, MF_VAL, e);
}
static int ugal_init(void **st, const struct saturn_config *c, const struct net *n,
                     struct saturn_error *e)
{
    return mf_init(st, c, n, MF_UGAL, e);
}

const struct route_ops route_mf_min = {.name = "min", .init = min_init,
                                       .at_source = mf_at_source, .route = mf_route,
                                       .free = free, .topologies = 1u << TOPO_MEGAFLY,
                                       .reroute = true, .minimal_split = true};
const struct route_ops route_mf_val = {.name = "val", .init = val_init,
                                       .at_source = mf_at_source, .route = mf_route,
                                       .free = free, .topologies = 1u << TOPO_MEGAFLY};
const struct route_ops route_mf_ugal = {.name = "ugal", .init = ugal_init,
                                        .at_source = mf_at_source, .route = mf_route,
                                        .free = free, .topologies = 1u << TOPO_MEGAFLY,
                                        .reroute = true};
