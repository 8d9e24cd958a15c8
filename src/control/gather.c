/* Global congestion estimation on a dedicated side-band (paper 001,
 * section 3.1, Fig. 2).
 *
 * What counts as full (gather.full): no_free_slot = the VC buffer holds
 * port.cap flits (default; meaningless with unlimited buffers, refused),
 * or nonempty = it holds at least one flit.
 *
 * Timing. The side-band moves a value one neighbour per h cycles
 * (gather.hop_delay) and aggregates dimension by dimension: each phase
 * takes as many hops as a ring (floor(k/2), both directions at once) or a
 * line (k - 1) needs, so the all-to-all sum completes in
 * g = h x sum_d hops_d = (k/2) h n cycles on a k-ary n-cube (32 for the
 * paper's 16x16 with h = 2). Snapshot j holds the full-buffer count at the
 * end of cycle j g's observe (after the routers) and the flits delivered
 * in cycles [(j-1) g, j g); every node knows it from cycle (j+1) g on,
 * before the nodes inject in that cycle. The side-band is dedicated and
 * contention-free, so every partial sum arrives at a fixed time and
 * summing centrally, then publishing the total g cycles later, is exactly
 * what the hop-by-hop exchange delivers to every node; nothing per router
 * needs modelling.
 *
 * Estimate for cycle t (gather.estimate): last = the newest visible
 * snapshot S1; linear (default) = S1 + (S1 - S0) (t - t1) / (t1 - t0)
 * from the two newest visible snapshots (t1 - t0 = g on the side-band),
 * clamped at 0; S1 alone with one snapshot, 0 with none. linear_visible
 * extrapolates the same line from the cycle S1 became visible instead of
 * the cycle it describes (t - v1 for t - t1): the reading in which a node
 * takes each snapshot as the network's state when it arrives, so it looks
 * 0 to 1 gather ahead instead of 1 to 2. */
#include <stdlib.h>
#include <string.h>

#include "control/gather.h"
#include "control/metapacket.h"
#include "net/net.h"

static const char *const full_names[] = {"no_free_slot", "nonempty", NULL};
static const char *const est_names[] = {"linear", "last", "linear_visible", NULL};
static const char *const mode_names[] = {"sideband", "metapacket", NULL};
static const char *const forward_names[] = {"store", "cut_through", NULL};
static const char *const arbiter_names[] = {"shared", "priority", NULL};

const struct saturn_param gather_params[] = {
    {"gather.mode", SATURN_PARAM_ENUM, "sideband", 0, 0, mode_names,
     "any control.model: how the global full-buffer and delivered-flit counts are gathered: "
     "sideband (a dedicated, contention-free network, gather.hop_delay) or metapacket (2-flit "
     "metapackets on one extra high-priority VC per data link, gathers back to back; torus "
     "only; runs with every controller, so control.model = noth gathers without using it)"},
    {"gather.meta_forward", SATURN_PARAM_ENUM, "store", 0, 0, forward_names,
     "gather.mode = metapacket: when a node forwards a passing metapacket: store (after its "
     "tail and the one-cycle adder: route + crossbar + link + 2 cycles a hop) or cut_through "
     "(the head carries the sums: one adder cycle after the head, the tail following: "
     "route + crossbar + link + 1)"},
    {"gather.meta_arbiter", SATURN_PARAM_ENUM, "shared", 0, 0, arbiter_names,
     "gather.mode = metapacket with router.arbiter = central: metapacket heads queue for the "
     "central arbiter round-robin with data heads (shared) or are served first (priority)"},
    {"gather.hop_delay", SATURN_PARAM_INT, "2", 1, 1000000, NULL,
     "static, selftune: side-band neighbour-to-neighbour delay h (cycles); gather duration "
     "g = h x sum of per-dimension hops ((k/2) h n on a k-ary n-cube; 3 h on a Dragonfly: "
     "local, global, local)"},
    {"gather.full", SATURN_PARAM_ENUM, "no_free_slot", 0, 0, full_names,
     "static, selftune: a network input VC buffer is full when it has no free slot, or when "
     "it is nonempty"},
    {"gather.estimate", SATURN_PARAM_ENUM, "linear", 0, 0, est_names,
     "static, selftune: current full-buffer estimate from the snapshots: linear extrapolation "
     "of the last two to the current cycle (linear), the same line from the cycle the last "
     "one became visible (linear_visible: the gather delay ignored, 0-1 gathers ahead "
     "instead of 1-2), or the last one"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

const char *const gather_keys[] = {"gather.hop_delay", "gather.full", "gather.estimate", NULL};
const char *const static_keys[] = {"static.threshold", NULL};
const char *const selftune_keys[] = {"selftune.period",   "selftune.initial",
                                     "selftune.increment", "selftune.decrement",
                                     "selftune.drop",     "selftune.avoid_local_max",
                                     "selftune.resets",   NULL};
const char *const alo_keys[] = {"alo.free", NULL};
const char *const entropy_keys[] = {"entropy.rth", "entropy.ron", "entropy.roff", "entropy.rn",
                                    "entropy.tg",  "entropy.info", NULL};

int ctl_reject_keys(const struct saturn_config *cfg, const char *const *keys, const char *model,
                    struct saturn_error *err)
{
    for (; *keys; keys++)
        if (saturn_config_is_set(cfg, *keys))
            return saturn_config_fail(cfg, *keys, err, "is not a parameter of control.model = %s",
                                      model);
    return SATURN_OK;
}

uint64_t gather_g(const struct topo *t, uint64_t hop_delay)
{
    /* The side-band has the network's shape, and an all-to-all sum over it
     * takes as many side-band hops as the farthest count travels: the
     * diameter on a torus (sum of k/2), a mesh (sum of k - 1), a fat tree,
     * a HyperX, a Slim Fly or a file graph. A Dragonfly's is 3 whatever its
     * size: every router sends its count to the a - 1 others of its group
     * (one local hop: each knows the group's sum), the owner of the global
     * link to each other group sends that sum across (one global hop), and
     * the receiver shares it in its group (one local hop). A Megafly's is
     * 3 the same way between its leaves (up to the spines, across, down). */
    return hop_delay * (uint64_t)topo_sideband_hops(t);
}

double gather_extrapolate(double s0, uint64_t t0, double s1, uint64_t t1, uint64_t t)
{
    double v = s1;
    if (t1 > t0)
        v += (s1 - s0) * ((double)t - (double)t1) / (double)(t1 - t0);
    return v < 0 ? 0 : v;
}

uint64_t gather_buffers(const struct net *n)
{
    uint64_t ports = 0;
    for (size_t gp = 0; gp < (size_t)n->topo.routers * (size_t)n->P; gp++)
        ports += (int)(gp % (size_t)n->P) < n->topo.radix && n->ports[gp].kind == PORT_NET;
    return ports * (uint64_t)n->Vd;
}

uint64_t gather_count_full(const struct net *n, enum gather_full mode)
{
    uint64_t full = 0;
    for (uint32_t r = 0; r < n->topo.routers; r++) {
        for (int p = 0; p < n->topo.radix; p++) {
            size_t gp = (size_t)r * (size_t)n->P + (size_t)p;
            const struct port *pt = &n->ports[gp];
            if (pt->kind != PORT_NET)
                continue;
            const struct ivc *v = &n->ivcs[gp * (size_t)n->V];
            for (int i = 0; i < n->Vd; i++) /* data VCs */
                full += mode == GATHER_FULL_NONEMPTY ? v[i].count > 0 : v[i].count >= pt->cap;
        }
    }
    return full;
}

int gather_init(struct gather *g, const struct saturn_config *cfg, const struct net *n,
                struct saturn_error *err)
{
    memset(g, 0, sizeof *g);
    g->full_mode = (enum gather_full)saturn_config_enum(cfg, "gather.full");
    g->est_mode = (enum gather_est)saturn_config_enum(cfg, "gather.estimate");
    g->g = gather_g(&n->topo, (uint64_t)saturn_config_int(cfg, "gather.hop_delay"));
    g->sideband = !n->meta_bit; /* else metapackets (control/metapacket.c) feed it */
    if (!g->sideband && saturn_config_is_set(cfg, "gather.hop_delay"))
        return saturn_config_fail(cfg, "gather.hop_delay", err,
                                  "is the side-band's; metapackets (gather.mode = metapacket) "
                                  "take the time the data network gives them");
    g->buffers = gather_buffers(n);
    if (g->full_mode == GATHER_FULL_NO_FREE_SLOT && n->buf_cap == 0)
        return saturn_config_fail(cfg, "gather.full", err,
                                  "unlimited buffers (router.buf_flits = 0) are never full; "
                                  "use gather.full = nonempty");
    /* the side-band has one snapshot in flight at a time; room for a few
     * more for sources with irregular delays */
    g->cap = 4;
    g->pending = malloc(g->cap * sizeof *g->pending);
    if (!g->pending)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    g->ej_mark = g->ej_prev = n->flits_ejected;
    return SATURN_OK;
}

void gather_free(struct gather *g)
{
    free(g->pending);
    g->pending = NULL;
}

int gather_publish(struct gather *g, uint64_t sample_cycle, double full, double delivered,
                   uint64_t visible_from)
{
    if (g->npending == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 4;
        struct gather_snap *p = realloc(g->pending, cap * sizeof *p);
        if (!p)
            return SATURN_ENOMEM;
        g->pending = p;
        g->cap = cap;
    }
    g->pending[g->npending++] =
        (struct gather_snap){sample_cycle, visible_from, full, delivered};
    return SATURN_OK;
}

/* A snapshot reaches the nodes: the two newest by sample cycle drive the
 * estimate (a late arrival older than both only counts for the tuner). */
static void make_visible(struct gather *g, const struct gather_snap *s)
{
    g->new_delivered += s->delivered;
    g->new_full += s->full;
    g->new_count++;
    if (g->nvis == 0) {
        g->s[1] = *s;
        g->nvis = 1;
    } else if (s->sample > g->s[1].sample) {
        g->s[0] = g->s[1];
        g->s[1] = *s;
        g->nvis = 2;
    } else if (s->sample < g->s[1].sample && (g->nvis == 1 || s->sample > g->s[0].sample)) {
        g->s[0] = *s;
        g->nvis = 2;
    }
}

void gather_step(struct gather *g, const struct net *n)
{
    const uint64_t t = n->now;
    /* due snapshots, oldest sample first so that ties keep their order */
    for (;;) {
        size_t best = g->npending;
        for (size_t i = 0; i < g->npending; i++)
            if (g->pending[i].visible <= t &&
                (best == g->npending || g->pending[i].sample < g->pending[best].sample))
                best = i;
        if (best == g->npending)
            break;
        struct gather_snap s = g->pending[best];
        g->pending[best] = g->pending[--g->npending];
        make_visible(g, &s);
    }
    if (!g->sideband) { /* gathers the metapackets completed since the last look */
        size_t count;
        const struct meta_record *rec = meta_records(n, &count);
        for (; g->meta_seen < count; g->meta_seen++)
            if (gather_publish(g, rec[g->meta_seen].start, rec[g->meta_seen].full,
                               rec[g->meta_seen].delivered, rec[g->meta_seen].end))
                break; /* out of memory: retried next cycle */
    } else if (t % g->g == 0) {
        /* ej_prev: delivered up to the end of cycle t - 1, so this interval is [t - g, t) */
        double delivered = (double)(g->ej_prev - g->ej_mark);
        g->ej_mark = g->ej_prev;
        /* cannot fail: the side-band's snapshot of t - g became visible above */
        (void)gather_publish(g, t, (double)gather_count_full(n, g->full_mode), delivered,
                             t + g->g);
    }
    g->ej_prev = n->flits_ejected;
    if (g->nvis == 0)
        g->estimate = 0;
    else if (g->nvis == 1 || g->est_mode == GATHER_EST_LAST)
        g->estimate = g->s[1].full;
    else if (g->est_mode == GATHER_EST_LINEAR_VISIBLE)
        g->estimate = gather_extrapolate(g->s[0].full, g->s[0].sample, g->s[1].full,
                                         g->s[1].sample, t - (g->s[1].visible - g->s[1].sample));
    else
        g->estimate = gather_extrapolate(g->s[0].full, g->s[0].sample, g->s[1].full,
                                         g->s[1].sample, t);
}

uint32_t gather_take(struct gather *g, double *delivered, double *full)
{
    uint32_t c = g->new_count;
    *delivered = g->new_delivered;
    *full = g->new_full;
    g->new_delivered = g->new_full = 0;
    g->new_count = 0;
    return c;
}
