/* Destination patterns (see pattern.h). Everything a pattern needs is
 * tabulated in pattern_init, so pattern_dest is allocation-free. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "traffic/pattern.h"

/* Primary names in enum pattern_kind order, then the short names paper 000
 * uses; choice_kind maps every choice to its pattern. */
static const char *const pattern_names[] = {
    "uniform", "transpose", "shuffle", "bitcomp", "bitrev", "bitrot", "tornado",
    "torn", "randperm", "randpair", "neighbor", "hotspot", "distance",
    "rand", "trns", "shfl", "bcmp", "brev", "brot", "rpar", "adversarial", "mixed", "adv", NULL};

static const enum pattern_kind choice_kind[] = {
    PAT_UNIFORM, PAT_TRANSPOSE, PAT_SHUFFLE, PAT_BITCOMP, PAT_BITREV,
    PAT_BITROT, PAT_TORNADO, PAT_TORN, PAT_RANDPERM, PAT_RANDPAIR,
    PAT_NEIGHBOR, PAT_HOTSPOT, PAT_DISTANCE,
    PAT_UNIFORM, PAT_TRANSPOSE, PAT_SHUFFLE, PAT_BITCOMP, PAT_BITREV,
    PAT_BITROT, PAT_RANDPAIR, PAT_ADVERSARIAL, PAT_MIXED, PAT_ADVERSARIAL};

_Static_assert(sizeof choice_kind / sizeof choice_kind[0] ==
                   sizeof pattern_names / sizeof pattern_names[0] - 1,
               "every pattern choice needs a kind");

static const char *const word_order_names[] = {"yx", "xy", NULL};

const struct saturn_param pattern_params[] = {
    {"traffic.pattern", SATURN_PARAM_ENUM, "uniform", 0, 0, pattern_names,
     "destinations: uniform (any OTHER node), transpose (coordinates reversed), "
     "shuffle (id bits rotated left), bitcomp (id bits complemented), "
     "bitrev (id bits reversed), bitrot (id bits rotated right), "
     "tornado (each c -> c+ceil(k/2)-1 mod k), torn (id -> id+k0/2 mod N), "
     "randperm (fixed random permutation), randpair (fixed random pairs), "
     "neighbor (a random neighbour), hotspot (traffic.hotspot_node with "
     "probability traffic.hotspot_fraction, else uniform), distance (uniform "
     "among nodes exactly traffic.distance hops away); aliases rand=uniform "
     "trns=transpose shfl=shuffle bcmp=bitcomp brev=bitrev brot=bitrot "
     "rpar=randpair; Dragonfly: adversarial (ADV+i: a random node of the group "
     "traffic.adv_shift groups on; alias adv), mixed (ADV+i with probability "
     "traffic.adv_fraction, else uniform)"},
    {"traffic.adv_shift", SATURN_PARAM_INT, "1", 1, 1 << 30, NULL,
     "i of ADV+i (pattern = adversarial or mixed): destination group = source group + i"},
    {"traffic.adv_fraction", SATURN_PARAM_REAL, "0.5", 0, 1, NULL,
     "pattern = mixed: share of packets sent ADV+i (the rest uniform)"},
    {"traffic.hotspot_node", SATURN_PARAM_INT, "0", 0, 1 << 30, NULL,
     "the hot node of pattern=hotspot"},
    {"traffic.hotspot_fraction", SATURN_PARAM_REAL, "0.1", 0, 1, NULL,
     "share of packets sent to the hot node (pattern=hotspot)"},
    {"traffic.uniform_self", SATURN_PARAM_BOOL, "false", 0, 0, NULL,
     "pattern = uniform: the source itself is a possible destination (BookSim 2's uniform; "
     "such a packet goes in and out of its router, 0 hops)"},
    {"traffic.distance", SATURN_PARAM_INT, "2", 1, 1 << 20, NULL,
     "minimal hop count of every destination (pattern=distance)"},
    {"traffic.word_order", SATURN_PARAM_ENUM, "yx", 0, 0, word_order_names,
     "torus or mesh: the word W the bit patterns (shuffle, bitcomp, bitrev, bitrot) and torn "
     "act on: yx (the node id: x the lowest digit, W = Y bits then X bits) or xy (the "
     "coordinates in reverse order: x the highest digit)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

/* Largest distance table we agree to build: 2^28 int32 values (1 GiB). */
#define DISTANCE_TABLE_MAX (1ULL << 28)

/* Coordinate patterns act on routers; a node keeps its local index. */
static inline uint32_t at_router(const struct pattern *p, uint32_t src,
                                 uint32_t router)
{
    uint32_t conc = (uint32_t)p->topo->conc;
    return router * conc + src % conc;
}

static inline uint32_t uniform_other(const struct pattern *p, uint32_t src,
                                     struct rng *r)
{
    uint32_t d = (uint32_t)rng_below(r, p->nodes - 1);
    return d >= src ? d + 1 : d;
}

/* traffic.word_order = xy: the word of node id, with the coordinates in
 * reverse order (dimension n-1 the lowest digit); yx: the id itself. */
static uint32_t id_to_word(const struct pattern *p, uint32_t id)
{
    const struct topo *t = p->topo;
    if (!p->word_xy)
        return id;
    uint32_t w = 0, place = 1;
    for (int d = t->n - 1; d >= 0; d--) { /* the reversed order's lowest digit first */
        const uint32_t k = (uint32_t)t->k[d];
        w += (id / t->stride[d]) % k * place;
        place *= k;
    }
    return w;
}

/* The node whose word (id_to_word) is w. */
static uint32_t word_to_id(const struct pattern *p, uint32_t w)
{
    const struct topo *t = p->topo;
    if (!p->word_xy)
        return w;
    uint32_t id = 0, place = 1;
    for (int d = t->n - 1; d >= 0; d--) {
        const uint32_t k = (uint32_t)t->k[d];
        id += (w / place) % k * t->stride[d];
        place *= k;
    }
    return id;
}

static uint32_t bit_reverse(uint32_t w, int bits)
{
    uint32_t v = 0;
    for (int i = 0; i < bits; i++, w >>= 1)
        v = (v << 1) | (w & 1);
    return v;
}

static uint32_t neighbor_dest(const struct pattern *p, uint32_t src,
                              struct rng *r)
{
    const struct topo *t = p->topo;
    uint32_t router = topo_node_router(t, src), far[2 * TOPO_MAX_DIMS];
    int n = 0, far_port;
    /* Mesh edge ports have no link; every router has at least one. */
    for (int port = 0; port < t->radix; port++)
        if (topo_link(t, router, port, &far[n], &far_port))
            n++;
    return at_router(p, src, far[rng_below(r, (uint64_t)n)]);
}

static uint32_t distance_dest(const struct pattern *p, uint32_t src,
                              struct rng *r)
{
    const struct topo *t = p->topo;
    uint32_t router = topo_node_router(t, src);
    int c[TOPO_MAX_DIMS];
    topo_coords(t, router, c);
    for (;;) {
        const int32_t *o = p->offsets + (size_t)rng_below(r, p->noffsets) * (size_t)t->n;
        uint32_t dest = 0;
        bool inside = true;
        for (int d = 0; d < t->n; d++) {
            int x = c[d] + o[d], k = t->k[d];
            if (t->kind == TOPO_TORUS) { /* |o| <= k/2: one wrap at most */
                if (x < 0)
                    x += k;
                else if (x >= k)
                    x -= k;
            } else if (x < 0 || x >= k) {
                inside = false;
                break;
            }
            dest += (uint32_t)x * t->stride[d];
        }
        /* Mesh: reject offsets that leave the mesh; each destination has
         * exactly one offset, so the accepted ones are uniform. Expected
         * tries: noffsets / (destinations of src), large only when l is
         * near the radius (e.g. a central node with a single destination). */
        if (inside)
            return at_router(p, src, dest);
    }
}

/* The adversarial destinations of src: count nodes from the first.
 * Dragonfly and Megafly ADV+i: the group adv_shift groups after src's. Fat tree: src's
 * base-k digits rotated right by one, src / k + (src mod k) k^(n-1): the k
 * nodes of a leaf send to k nodes with one lowest digit (the leaf's), so
 * D-mod-k takes them all up one port; a permutation with k fixed points
 * (the nodes of equal digits). HyperX: the router adv_shift on in
 * dimension 0, so that DOR takes a router's T nodes over its K_0 links to
 * that router. Slim Fly: router (s, a, b + adv_shift mod q) of its own
 * column (b the element's integer: for prime q the field sum, for a prime
 * power another router of the same column): every router's p nodes to
 * one router, over the column's few links. */
static uint32_t adv_first(const struct pattern *p, uint32_t src, uint32_t *count)
{
    const struct topo *t = p->topo;
    if (t->kind == TOPO_FATTREE) {
        *count = 1;
        return src / (uint32_t)t->ft_k + src % (uint32_t)t->ft_k * t->ft_pow[t->ft_n - 1];
    }
    if (t->kind == TOPO_SLIMFLY) { /* (s, a, b) -> (s, a, b + adv_shift) */
        uint32_t r = topo_node_router(t, src), q = (uint32_t)t->sf_q;
        r = r - r % q + (r % q + p->adv_shift) % q;
        *count = (uint32_t)t->conc;
        return r * (uint32_t)t->conc;
    }
    if (t->kind == TOPO_HYPERX) { /* the router adv_shift on in dimension 0 */
        uint32_t r = topo_node_router(t, src);
        int c = topo_coord(t, r, 0);
        r += (uint32_t)((c + (int)p->adv_shift) % t->k[0] - c) * t->stride[0];
        *count = (uint32_t)t->conc;
        return r * (uint32_t)t->conc;
    }
    uint32_t per = (uint32_t)t->a * (uint32_t)t->p;
    *count = per;
    return (src / per + p->adv_shift) % t->groups * per;
}

/* A random node of src's adversarial destinations. */
static uint32_t adversarial_dest(const struct pattern *p, uint32_t src, struct rng *r)
{
    uint32_t count, first = adv_first(p, src, &count);
    return first + (uint32_t)rng_below(r, count);
}

uint32_t pattern_dest(const struct pattern *p, uint32_t src, struct rng *r)
{
    const struct topo *t = p->topo;
    uint32_t mask = p->bits ? (uint32_t)((1ULL << p->bits) - 1) : 0;
    switch (p->kind) {
    case PAT_UNIFORM:
        if (p->uniform_self) /* BookSim's uniform: any node, the source too */
            return (uint32_t)rng_below(r, p->nodes);
        return uniform_other(p, src, r);
    case PAT_TRANSPOSE: {
        uint32_t router = topo_node_router(t, src), dest = 0;
        for (int d = 0; d < t->n; d++)
            dest += (uint32_t)topo_coord(t, router, t->n - 1 - d) * t->stride[d];
        return at_router(p, src, dest);
    }
    case PAT_SHUFFLE: {
        const uint32_t w = id_to_word(p, src);
        return word_to_id(p, ((w << 1) | (w >> (p->bits - 1))) & mask);
    }
    case PAT_BITCOMP:
        return word_to_id(p, ~id_to_word(p, src) & mask);
    case PAT_BITREV:
        return word_to_id(p, bit_reverse(id_to_word(p, src), p->bits));
    case PAT_BITROT: {
        const uint32_t w = id_to_word(p, src);
        return word_to_id(p, (w >> 1) | ((w & 1) << (p->bits - 1)));
    }
    case PAT_TORNADO: {
        uint32_t router = topo_node_router(t, src), dest = 0;
        for (int d = 0; d < t->n; d++) {
            int k = t->k[d];
            int x = (topo_coord(t, router, d) + (k + 1) / 2 - 1) % k;
            dest += (uint32_t)x * t->stride[d];
        }
        return at_router(p, src, dest);
    }
    case PAT_TORN: /* W + k/2 of W's lowest digit */
        return word_to_id(p, (uint32_t)(((uint64_t)id_to_word(p, src) +
                                         (uint64_t)(t->k[p->word_xy ? t->n - 1 : 0] / 2)) %
                                        p->nodes));
    case PAT_RANDPERM:
    case PAT_RANDPAIR:
        return p->perm[src];
    case PAT_NEIGHBOR:
        return neighbor_dest(p, src, r);
    case PAT_HOTSPOT:
        /* The hot node itself also sends to itself with probability f. */
        if (rng_uniform(r) < p->hot_fraction)
            return p->hot_node;
        return uniform_other(p, src, r);
    case PAT_DISTANCE:
        return distance_dest(p, src, r);
    case PAT_ADVERSARIAL:
        return adversarial_dest(p, src, r);
    case PAT_MIXED:
        if (rng_uniform(r) < p->adv_fraction)
            return adversarial_dest(p, src, r);
        return uniform_other(p, src, r);
    }
    return src;
}

/* Offset-vector enumeration for pattern=distance. */
struct offset_walk {
    const struct topo *t;
    int maxdist[TOPO_MAX_DIMS];  /* largest per-dimension hop count */
    int maxrest[TOPO_MAX_DIMS + 1]; /* sum of maxdist over dims >= d */
    int32_t cur[TOPO_MAX_DIMS];
    int32_t *out;     /* NULL: count only */
    uint64_t count;
    uint64_t limit;   /* stop counting past this */
};

/* Signed offsets at per-dimension distance h: +h and -h, once when they
 * coincide (h = 0, or h = k/2 on a torus of even k). */
static int offsets_at(const struct topo *t, int d, int h, int32_t o[2])
{
    o[0] = h;
    if (h == 0 || (t->kind == TOPO_TORUS && 2 * h == t->k[d]))
        return 1;
    o[1] = -h;
    return 2;
}

/* Every branch taken can still reach exactly `rest` hops, so the work is
 * O(n * matches) whatever the network size. */
static void walk(struct offset_walk *w, int d, int rest)
{
    const struct topo *t = w->t;
    if (w->count > w->limit)
        return;
    if (d == t->n) {
        if (w->out)
            memcpy(w->out + w->count * (uint64_t)t->n, w->cur,
                   sizeof(int32_t) * (size_t)t->n);
        w->count++;
        return;
    }
    int lo = rest - w->maxrest[d + 1], hi = rest < w->maxdist[d] ? rest : w->maxdist[d];
    for (int h = lo > 0 ? lo : 0; h <= hi; h++) {
        int32_t o[2];
        int no = offsets_at(t, d, h, o);
        for (int i = 0; i < no; i++) {
            w->cur[d] = o[i];
            walk(w, d + 1, rest - h);
        }
    }
}

static int init_distance(struct pattern *p, const struct saturn_config *cfg,
                         struct saturn_error *err)
{
    const struct topo *t = p->topo;
    int l = p->distance, diameter = topo_diameter(t), radius = 0;
    if (l > diameter)
        return saturn_config_fail(cfg, "traffic.distance", err,
                                  "no node is %d hops away: this %s has diameter %d",
                                  l, t->name, diameter);
    for (int d = 0; d < t->n; d++)
        radius += t->k[d] / 2;
    /* On a mesh, a central node sees nodes at most `radius` hops away. */
    if (t->kind == TOPO_MESH && l > radius)
        return saturn_config_fail(cfg, "traffic.distance", err,
                                  "some nodes of this mesh have no node %d hops "
                                  "away; every node has one up to %d hops",
                                  l, radius);

    struct offset_walk w;
    memset(&w, 0, sizeof w);
    w.t = t;
    w.limit = DISTANCE_TABLE_MAX / (uint64_t)t->n;
    for (int d = t->n - 1; d >= 0; d--) {
        w.maxdist[d] = t->kind == TOPO_TORUS ? t->k[d] / 2 : t->k[d] - 1;
        w.maxrest[d] = w.maxrest[d + 1] + w.maxdist[d];
    }
    walk(&w, 0, l);
    if (w.count > w.limit)
        return saturn_config_fail(cfg, "traffic.distance", err,
                                  "more than %llu offset vectors %d hops long: "
                                  "too many to tabulate",
                                  (unsigned long long)w.limit, l);
    p->noffsets = (uint32_t)w.count;
    p->offsets = malloc(sizeof(int32_t) * w.count * (uint64_t)t->n);
    if (!p->offsets)
        return saturn_error_set(err, SATURN_ENOMEM,
                                "out of memory for %u distance-%d offsets",
                                p->noffsets, l);
    w.out = p->offsets;
    w.count = 0;
    walk(&w, 0, l);
    return SATURN_OK;
}

static void shuffle_ids(uint32_t *a, uint32_t n, uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed, RNG_STREAM_SETUP);
    for (uint32_t i = 0; i < n; i++)
        a[i] = i;
    for (uint32_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
        uint32_t j = (uint32_t)rng_below(&r, (uint64_t)i + 1);
        uint32_t x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
}

static int init_tables(struct pattern *p, const struct saturn_config *cfg,
                       uint64_t seed, struct saturn_error *err)
{
    uint32_t n = p->nodes;
    if (p->kind == PAT_RANDPAIR && n % 2)
        return saturn_config_fail(cfg, "traffic.pattern", err,
                                  "needs an even node count; this network has %u nodes", n);
    p->perm = malloc(sizeof(uint32_t) * n);
    if (!p->perm)
        return saturn_error_set(err, SATURN_ENOMEM,
                                "out of memory for a %u-node permutation", n);
    shuffle_ids(p->perm, n, seed);
    if (p->kind == PAT_RANDPERM)
        return SATURN_OK;
    /* Pair consecutive entries of the shuffled list. */
    uint32_t *order = p->perm;
    p->perm = malloc(sizeof(uint32_t) * n);
    if (!p->perm) {
        free(order);
        return saturn_error_set(err, SATURN_ENOMEM,
                                "out of memory for a %u-node pairing", n);
    }
    for (uint32_t i = 0; i < n; i += 2) {
        p->perm[order[i]] = order[i + 1];
        p->perm[order[i + 1]] = order[i];
    }
    free(order);
    return SATURN_OK;
}

int pattern_init(struct pattern *p, const struct saturn_config *cfg,
                 const struct topo *t, uint64_t seed,
                 struct saturn_error *err)
{
    memset(p, 0, sizeof *p);
    p->kind = choice_kind[saturn_config_enum(cfg, "traffic.pattern")];
    p->topo = t;
    p->nodes = t->nodes;
    p->hot_node = (uint32_t)saturn_config_int(cfg, "traffic.hotspot_node");
    p->hot_fraction = saturn_config_real(cfg, "traffic.hotspot_fraction");
    p->distance = (int)saturn_config_int(cfg, "traffic.distance");
    p->adv_fraction = saturn_config_real(cfg, "traffic.adv_fraction");
    p->uniform_self = saturn_config_bool(cfg, "traffic.uniform_self");
    p->word_xy = saturn_config_enum(cfg, "traffic.word_order") == 1;
    /* a Megafly keeps groups, leaves and nodes per leaf in the Dragonfly's
     * fields: ADV+i is the same group shift */
    bool dragonfly = t->kind == TOPO_DRAGONFLY || t->kind == TOPO_MEGAFLY,
         grid = t->kind == TOPO_TORUS || t->kind == TOPO_MESH;
    if (dragonfly) {
        int64_t shift = saturn_config_int(cfg, "traffic.adv_shift");
        if (shift % (int64_t)t->groups == 0)
            return saturn_config_fail(cfg, "traffic.adv_shift", err,
                                      "a shift of %lld groups sends every packet to its own "
                                      "group in a network of %u groups", (long long)shift,
                                      t->groups);
        p->adv_shift = (uint32_t)(shift % (int64_t)t->groups);
    } else if (t->kind == TOPO_HYPERX || t->kind == TOPO_SLIMFLY) {
        int64_t shift = saturn_config_int(cfg, "traffic.adv_shift");
        int period = t->kind == TOPO_HYPERX ? t->k[0] : t->sf_q;
        if (shift % period == 0)
            return saturn_config_fail(cfg, "traffic.adv_shift", err,
                                      "a shift of %lld sends every packet to its own router "
                                      "(%s %d routers)", (long long)shift,
                                      t->kind == TOPO_HYPERX ? "hyperx.s gives dimension 0"
                                                             : "a Slim Fly column has q =",
                                      period);
        p->adv_shift = (uint32_t)(shift % period);
    } else if (t->kind == TOPO_FATTREE && saturn_config_is_set(cfg, "traffic.adv_shift")) {
        return saturn_config_fail(cfg, "traffic.adv_shift", err,
                                  "a fat tree's adversarial pattern is the digit rotation "
                                  "(no shift)");
    }
    const char *name = saturn_config_str(cfg, "traffic.pattern");
    if ((p->kind == PAT_ADVERSARIAL || p->kind == PAT_MIXED) && !dragonfly &&
        t->kind != TOPO_FATTREE && t->kind != TOPO_HYPERX && t->kind != TOPO_SLIMFLY)
        return saturn_config_fail(cfg, "traffic.pattern", err,
                                  "adversarial and mixed are defined on a dragonfly or "
                                  "megafly (ADV+i), a fat tree (digit rotation), a HyperX (a shift in "
                                  "dimension 0) and a Slim Fly (a shift in a column), not on "
                                  "a %s", t->name);
    /* a HyperX has coordinates: transpose and tornado act on them */
    bool coords = grid || (t->kind == TOPO_HYPERX && p->kind != PAT_TORN &&
                           p->kind != PAT_DISTANCE);
    if (!coords && (p->kind == PAT_TRANSPOSE || p->kind == PAT_TORNADO ||
                    p->kind == PAT_TORN || p->kind == PAT_DISTANCE))
        return saturn_config_fail(cfg, "traffic.pattern", err,
                                  dragonfly ? "%s needs torus or mesh coordinates; on a dragonfly or megafly use "
                                              "uniform, adversarial, mixed, a bit pattern, randperm, "
                                              "randpair, neighbor or hotspot"
                                            : "%s needs torus or mesh coordinates; a %s has none",
                                  name, t->name);
    if (p->word_xy && !grid)
        return saturn_config_fail(cfg, "traffic.word_order", err,
                                  "orders a torus's or mesh's coordinates in the word of the bit "
                                  "patterns; a %s has none (leave it at yx)", t->name);
    /* neighbor picks the same local index on a neighbouring router: every
     * router needs its nodes */
    if (p->kind == PAT_NEIGHBOR && (t->kind == TOPO_FATTREE || t->kind == TOPO_MEGAFLY || t->node_rt))
        return saturn_config_fail(cfg, "traffic.pattern", err,
                                  "neighbor needs nodes on every router; a %s has routers "
                                  "without nodes", t->name);

    int rc = SATURN_OK;
    switch (p->kind) {
    case PAT_SHUFFLE:
    case PAT_BITCOMP:
    case PAT_BITREV:
    case PAT_BITROT:
        if (p->nodes & (p->nodes - 1))
            return saturn_config_fail(cfg, "traffic.pattern", err,
                                      "needs a power-of-two node count; "
                                      "this network has %u nodes", p->nodes);
        while ((1u << p->bits) < p->nodes)
            p->bits++;
        break;
    case PAT_TRANSPOSE:
        if (t->n < 2)
            return saturn_config_fail(cfg, "traffic.pattern", err,
                                      "transpose needs at least two dimensions");
        for (int d = 1; d < t->n; d++)
            if (t->k[d] != t->k[0])
                return saturn_config_fail(cfg, "traffic.pattern", err,
                                          "transpose needs a square network (all k equal)");
        break;
    case PAT_RANDPERM:
    case PAT_RANDPAIR:
        rc = init_tables(p, cfg, seed, err);
        break;
    case PAT_HOTSPOT:
        if (saturn_config_int(cfg, "traffic.hotspot_node") >= (int64_t)p->nodes)
            return saturn_config_fail(cfg, "traffic.hotspot_node", err,
                                      "no such node; this network has nodes 0 to %u",
                                      p->nodes - 1);
        break;
    case PAT_DISTANCE:
        rc = init_distance(p, cfg, err);
        break;
    default:
        break;
    }
    if (rc != SATURN_OK)
        pattern_free(p);
    return rc;
}

void pattern_free(struct pattern *p)
{
    free(p->perm);
    free(p->offsets);
    p->perm = NULL;
    p->offsets = NULL;
    p->noffsets = 0;
}

double pattern_mean_hops(const struct pattern *p, uint64_t seed)
{
    if (p->kind == PAT_DISTANCE)
        return p->distance;
    struct rng r;
    rng_seed(&r, seed, RNG_STREAM_SETUP + 1);
    double sum = 0;
    const int draws = 4096;
    for (int i = 0; i < draws; i++) {
        uint32_t src = (uint32_t)rng_below(&r, p->nodes);
        sum += topo_distance(p->topo, src, pattern_dest(p, src, &r));
    }
    return sum / draws;
}

void pattern_distribution(const struct pattern *p, uint32_t src,
                          void (*fn)(void *user, uint32_t dst, double weight), void *user)
{
    const struct topo *t = p->topo;
    switch (p->kind) {
    case PAT_ADVERSARIAL:
    case PAT_MIXED: {
        uint32_t count, first = adv_first(p, src, &count);
        double f = p->kind == PAT_MIXED ? p->adv_fraction : 1.0;
        for (uint32_t d = 0; d < p->nodes; d++) {
            double w = d == src || f == 1.0 ? 0 : (1 - f) / (double)(p->nodes - 1);
            if (d >= first && d - first < count)
                w += f / count;
            if (w > 0)
                fn(user, d, w);
        }
        return;
    }
    case PAT_UNIFORM:
    case PAT_HOTSPOT: {
        double hot = p->kind == PAT_HOTSPOT ? p->hot_fraction : 0;
        for (uint32_t d = 0; d < p->nodes; d++) {
            double w = d == src ? 0 : (1 - hot) / (double)(p->nodes - 1);
            if (p->kind == PAT_HOTSPOT && d == p->hot_node)
                w += hot;
            if (w > 0)
                fn(user, d, w);
        }
        return;
    }
    case PAT_NEIGHBOR: {
        uint32_t near[2 * TOPO_MAX_DIMS];
        int nn = 0;
        uint32_t r = topo_node_router(t, src);
        for (int port = 0; port < t->radix; port++) {
            uint32_t fr;
            int fp;
            if (topo_link(t, r, port, &fr, &fp))
                near[nn++] = fr * (uint32_t)t->conc + src % (uint32_t)t->conc;
        }
        for (int i = 0; i < nn; i++)
            fn(user, near[i], 1.0 / nn);
        return;
    }
    case PAT_DISTANCE: {
        uint32_t r = topo_node_router(t, src);
        uint32_t *ok = malloc(p->noffsets * sizeof *ok);
        uint32_t nok = 0;
        for (uint32_t i = 0; ok && i < p->noffsets; i++) {
            const int32_t *off = &p->offsets[(size_t)i * (size_t)t->n];
            uint32_t dst = 0;
            bool inside = true;
            for (int d = 0; d < t->n; d++) {
                int c = topo_coord(t, r, d) + off[d], k = t->k[d];
                if (t->kind == TOPO_MESH && (c < 0 || c >= k))
                    inside = false;
                dst += (uint32_t)(((c % k) + k) % k) * t->stride[d];
            }
            if (inside)
                ok[nok++] = dst * (uint32_t)t->conc + src % (uint32_t)t->conc;
        }
        for (uint32_t i = 0; i < nok; i++)
            fn(user, ok[i], 1.0 / nok);
        free(ok);
        return;
    }
    default: { /* a fixed destination: draw it (no random number is used) */
        struct rng unused;
        rng_seed(&unused, 0, 0);
        fn(user, pattern_dest(p, src, &unused), 1.0);
        return;
    }
    }
}
