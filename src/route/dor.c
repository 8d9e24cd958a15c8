/* Dimension-order routing on k-ary n-cubes and meshes (x first).
 *
 * On a torus the ring channels are cut into acyclic pieces by datelines:
 *   classic    (Dally & Towles 14.2): one dateline per ring, on the wrap
 *              link (k-1 <-> 0); a packet uses VC class 0 in each dimension
 *              until it takes the wrap link, class 1 from then on, and
 *              starts again at class 0 in the next dimension. Needs 2 VCs.
 *   cumulative (Yokota et al., paper 000): datelines on the wrap link and on
 *              the link k/2-1 <-> k/2 of every dimension; a packet starts on
 *              VC 0 and moves up one VC at every dateline it crosses, in any
 *              dimension. A minimal route crosses at most one per dimension,
 *              so n dimensions need n + 1 VCs (3 for 2D). The paper puts its
 *              datelines "at x = 0 and x = N/2", which reads three ways
 *              (routing.dateline_at): the links just below those
 *              coordinates, as above (link: the hop into 0 or k/2 going +,
 *              out of them going -); the nodes, crossed by the hop into
 *              them from either side (arrive); or by the hop out of them
 *              (depart). Each cuts both rings of a dimension twice, k/2
 *              links apart, so every reading is deadlock-free with n + 1 VCs.
 *   entry      (BookSim 2's dim_order): the class is chosen when the packet
 *              enters a ring and kept for the whole ring: class 1 when its
 *              coordinate there is above the destination's (going + that
 *              means it will wrap; going -, that it will not), else 0.
 *              Minimal paths never go more than halfway round, so neither
 *              class closes a ring. Needs 2 VCs.
 *   balanced   (BookSim 2's dim_order_bal, two datelines): also chosen on
 *              entering a ring and kept: class 1 when the path will take the
 *              wrap link, else 0 when it will take the middle link
 *              (k-1)/2 <-> (k-1)/2 + 1, else a random class per packet and
 *              dimension (drawn at the source). Class 0 never takes the wrap
 *              link and class 1 never the middle one (a minimal path that
 *              wraps is too short to reach it), so neither closes a ring.
 * With more VCs than classes, class c owns an even share of the VCs
 * (a range the VC allocator chooses from). A packet takes a dateline's
 * class on the hop that crosses it. Ties (distance exactly k/2) go the
 * + way, a per-packet random way per dimension (routing.tie = random), or
 * the - way from odd source coordinates (parity). */
#include <stdlib.h>
#include <string.h>

#include "net/vc_alloc.h"
#include "route/route.h"

enum dateline { DL_AUTO, DL_CLASSIC, DL_CUMULATIVE, DL_NONE, DL_ENTRY, DL_BALANCED };

/* Where a cumulative dateline at coordinate 0 or k/2 is crossed
 * (routing.dateline_at): the links below them, or the hops into or out of
 * those nodes. */
enum dateline_at { AT_LINK, AT_ARRIVE, AT_DEPART };

/* The two schemes routed fast, inline (classic datelines, the default, and
 * the cumulative ones from their tables: paper 000's): dor_route's first
 * case, and the instances of the speedup-1 loop's VC allocation that DOR
 * installs (route_ops.alloc_vc1), which then route a head without the call
 * through struct route_ops. Their state: the scheme's classes (fewer than
 * it needs with too few VCs under debug.allow_deadlock), class c's VC range
 * vc[2c] .. vc[2c + 1], and with cumulative datelines dimension d's tables
 * cum[d] (struct dor's). */
struct dor_fast {
    bool cumulative; /* else classic */
    int classes;
    const uint8_t *cum[TOPO_MAX_DIMS];
    uint8_t vc[2 * (TOPO_MAX_DIMS + 1)];
};

/* DOR's route for p's head at router r: one candidate, the ejection port
 * (any data VC) at the destination router, else the first dimension whose
 * coordinate differs, the way round of the fewer hops (a tie: + unless
 * p's tie bit of that dimension says -). Classic: class 1 once the packet
 * has taken the ring's wrap link k-1 <-> 0 or takes it now, else 0.
 * Cumulative: the datelines crossed in the finished dimensions and in this
 * one up to and including this hop, from the tables. */
static inline __attribute__((always_inline)) void
dor_fast_route_as(const struct dor_fast *s, const struct net *n, uint32_t r,
                  const struct packet *p, struct route_result *out, const bool cumulative)
{
    const struct topo *t = &n->topo;
    const uint32_t dst_router = topo_node_router(t, p->dst);
    out->n = 1;
    if (r == dst_router) {
        out->c[0] = (struct route_cand){(uint16_t)topo_node_port(t, p->dst), 0,
                                        (uint8_t)(n->Vd - 1)};
        return;
    }
    const uint32_t src_router = topo_node_router(t, p->src);
    const int32_t *rc = &t->coord[(size_t)r * t->n], *gc = &t->coord[(size_t)dst_router * t->n],
                  *sc = &t->coord[(size_t)src_router * t->n];
    int cls = 0, d;
    for (d = 0; rc[d] == gc[d]; d++) /* r != dst_router: some coordinate differs */
        if (cumulative) /* datelines crossed in finished dimensions */
            cls += s->cum[d][sc[d] * t->k[d] + gc[d]];
    const int k = t->k[d], c = rc[d], g = gc[d], a = sc[d];
    int fw = g - a; /* |g - a| < k */
    if (fw < 0)
        fw += k;
    const int bw = k - fw;
    const bool plus = fw < bw || (fw == bw && !(p->route[0] & (1u << d)));
    if (cumulative)
        cls += s->cum[d][k * k + ((plus ? 0 : 1) * k + a) * k + c];
    else /* the wrap link k-1 -> 0 (going +) or 0 -> k-1 (going -) taken already or now */
        cls = plus ? c < a || c == k - 1 : c > a || c == 0;
    if (cls >= s->classes) /* fewer VCs than the scheme needs (debug only) */
        cls = s->classes - 1;
    out->c[0] = (struct route_cand){(uint16_t)(2 * d + (plus ? 0 : 1)), s->vc[2 * cls],
                                    s->vc[2 * cls + 1]};
}

/* dor_fast_route_as, one copy a scheme (the test once a route, not once a
 * dimension) */
static inline __attribute__((always_inline)) void
dor_fast_route(const struct dor_fast *s, const struct net *n, uint32_t r,
               const struct packet *p, struct route_result *out)
{
    if (s->cumulative)
        dor_fast_route_as(s, n, r, p, out, true);
    else
        dor_fast_route_as(s, n, r, p, out, false);
}

/* p->route[0]: bit d the tie direction in dimension d, bit BAL_BIT + d the
 * balanced scheme's random class there. */
#define BAL_BIT 16

enum tie { TIE_POSITIVE, TIE_RANDOM, TIE_PARITY };

/* Rings up to this size get the cumulative scheme's tables (3 k^2 bytes
 * a dimension: 12 KiB at 64); larger ones count the datelines each hop. */
#define DOR_TAB_K 64

struct dor {
    enum dateline dl;
    enum dateline_at at; /* cumulative only */
    int classes;
    enum tie tie;
    bool fast_on; /* classic, or cumulative with tables: dor_fast_route */
    struct dor_fast fast;
    /* DL_CUMULATIVE with every k <= DOR_TAB_K: dimension d's datelines
     * (crossings) counted once at creation, cum[d][sc * k + g] those of
     * the whole ring path sc -> g (a finished dimension; the same either
     * way at a tie: the two datelines are k/2 links apart, so any k/2
     * links in a row hold one), cum[d][k^2 + (m * k + sc) * k + c] those
     * from sc up to and including the link leaving c, going + (m = 0) or
     * - (m = 1); else NULL */
    uint8_t *cum[TOPO_MAX_DIMS];
    uint8_t vc[]; /* class c's VC range: vc[2c] .. vc[2c + 1] (route_vc_class) */
};

/* Crossings of the dateline links among the m links taken from s in
 * direction dir (+1 or -1): the links pos -> pos+1 going +, pos+1 -> pos
 * going -. pos = k-1 and k/2-1 (the links below 0 and k/2), except where
 * the dateline is a node's and this direction meets it on the link above
 * it: the hop arriving at it going - (1 -> 0), or departing going +
 * (0 -> 1). Classic: the wrap link alone. */
static int crossings(int s, int m, int dir, int k, bool cumulative, enum dateline_at at)
{
    int count = 0;
    const bool above = (at == AT_ARRIVE && dir < 0) || (at == AT_DEPART && dir > 0);
    int pos[2] = {above ? 0 : k - 1, above ? k / 2 : k / 2 - 1};
    int npos = cumulative ? 2 : 1;
    if (cumulative && pos[1] == pos[0])
        npos = 1;
    for (int j = 0; j < npos; j++) {
        /* the hops before the dateline's, mod k: 0 <= s < k and 0 <= pos < k,
         * so i0 lies in [-k, k) and one k added makes it the residue */
        int i0 = dir > 0 ? pos[j] - s : s - (pos[j] + 1); /* going -, from pos+1 down to pos */
        if (i0 < 0)
            i0 += k;
        if (i0 < m)
            count++;
    }
    return count;
}

/* Direction (+1/-1) and hop count from a to b in dimension d. */
static inline __attribute__((always_inline)) int direction(const struct topo *t,
                                                          const struct packet *p, int d,
                                                          int a, int b, int *hops)
{
    int k = t->k[d];
    if (t->kind == TOPO_MESH) {
        *hops = abs(b - a);
        return b > a ? 1 : -1;
    }
    int fw = b - a; /* |b - a| < k */
    if (fw < 0)
        fw += k;
    int bw = k - fw;
    if (fw < bw || (fw == bw && !(p->route[0] & (1u << d)))) {
        *hops = fw;
        return 1;
    }
    *hops = bw;
    return -1;
}

/* dor_route past its two fast cases (classic datelines, cumulative ones
 * from the tables: dor_fast_route), out of line: those then save no registers. */
static __attribute__((noinline)) void dor_route_general(const struct dor *s, const struct net *n,
                                                        uint32_t router, uint32_t dst_router,
                                                        uint32_t src_router, struct packet *p,
                                                        struct route_result *out)
{
    const struct topo *t = &n->topo;
    int cls = 0, d;
    for (d = 0; d < t->n; d++) {
        int c = topo_coord(t, router, d), g = topo_coord(t, dst_router, d);
        if (c != g)
            break;
        if (s->dl == DL_CUMULATIVE) { /* datelines crossed in finished dimensions */
            int sc = topo_coord(t, src_router, d), h;
            int dir = direction(t, p, d, sc, g, &h);
            cls += crossings(sc, h, dir, t->k[d], true, s->at);
        }
    }
    int c = topo_coord(t, router, d), g = topo_coord(t, dst_router, d);
    int sc = topo_coord(t, src_router, d), h, k = t->k[d];
    int dir = direction(t, p, d, sc, g, &h);
    /* hops already taken in dimension d */
    int done = dir > 0 ? c - sc : sc - c; /* in (-k, k): one k added is the residue */
    if (done < 0)
        done += k;
    if (s->dl == DL_CLASSIC)
        cls = crossings(sc, done + 1, dir, t->k[d], false, AT_LINK) > 0;
    else if (s->dl == DL_ENTRY) /* DOR enters ring d at the source's coordinate */
        cls = sc > g;
    else if (s->dl == DL_BALANCED) {
        int m = (k - 1) / 2;
        if (dir > 0 ? sc > g : sc < g) /* wraps */
            cls = 1;
        else if (dir > 0 ? sc <= m && m < g : g <= m && m < sc) /* crosses the middle */
            cls = 0;
        else
            cls = (int)((p->route[0] >> (BAL_BIT + d)) & 1u);
    }
    else if (s->dl == DL_CUMULATIVE)
        cls += crossings(sc, done + 1, dir, t->k[d], true, s->at);
    if (cls >= s->classes) /* fewer VCs than the scheme needs (debug only) */
        cls = s->classes - 1;
    out->c[0] = (struct route_cand){(uint16_t)(2 * d + (dir > 0 ? 0 : 1)), s->vc[2 * cls],
                                    s->vc[2 * cls + 1]};
}

static void dor_route(void *state, const struct net *n, uint32_t router,
                      int in_port, int in_vc, struct packet *p,
                      struct route_result *out)
{
    const struct dor *s = state;
    if (s->fast_on) { /* classic (the default), or cumulative from the tables */
        dor_fast_route(&s->fast, n, router, p, out);
        return;
    }
    const struct topo *t = &n->topo;
    uint32_t dst_router = topo_node_router(t, p->dst);
    uint32_t src_router = topo_node_router(t, p->src);
    out->n = 1;
    if (router == dst_router) {
        out->c[0] = (struct route_cand){(uint16_t)topo_node_port(t, p->dst), 0,
                                        (uint8_t)(n->Vd - 1)};
        return;
    }
    dor_route_general(s, n, router, dst_router, src_router, p, out);
}

static void dor_at_source(void *state, const struct net *n, struct packet *p,
                          uint64_t draw)
{
    const struct dor *s = state;
    if (s->tie == TIE_RANDOM) {
        p->route[0] = (uint32_t)draw;
    } else if (s->tie == TIE_PARITY) { /* odd source coordinate: the - way */
        p->route[0] = 0;
        uint32_t r = topo_node_router(&n->topo, p->src);
        for (int d = 0; d < n->topo.n; d++)
            if (topo_coord(&n->topo, r, d) & 1)
                p->route[0] |= 1u << d;
    } else {
        p->route[0] = 0;
    }
    if (s->dl == DL_BALANCED) /* the random classes, from the draw's other half */
        p->route[0] = (p->route[0] & ((1u << BAL_BIT) - 1)) | (uint32_t)(draw >> 32) << BAL_BIT;
}

static const char *const dateline_names[] = {"auto",  "classic",  "cumulative", "none",
                                             "entry", "balanced", NULL};
static const char *const tie_names[] = {"positive", "random", "parity", NULL};
static const char *const dateline_at_names[] = {"link", "arrive", "depart", NULL};

static int dor_init(void **state, const struct saturn_config *cfg,
                    const struct net *n, struct saturn_error *err)
{
    /* at most n + 1 classes (cumulative), each with its VC range */
    struct dor *s = calloc(1, sizeof *s + 2 * ((size_t)n->topo.n + 1));
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = s;
    s->dl = (enum dateline)saturn_config_enum(cfg, "routing.dateline");
    s->tie = (enum tie)saturn_config_enum(cfg, "routing.tie");
    s->at = (enum dateline_at)saturn_config_enum(cfg, "routing.dateline_at");
    bool torus = n->topo.kind == TOPO_TORUS;
    if (s->dl == DL_AUTO)
        s->dl = torus ? DL_CLASSIC : DL_NONE;
    /* BookSim's mesh dim_order: every VC, no classes */
    if (!torus && (s->dl == DL_ENTRY || s->dl == DL_BALANCED))
        s->dl = DL_NONE;
    if (!torus && s->dl != DL_NONE)
        return saturn_config_fail(cfg, "routing.dateline", err,
                                  "datelines apply to a torus; a mesh is deadlock-free "
                                  "under DOR without them (use auto or none)");
    if (torus && s->dl == DL_NONE && !saturn_config_bool(cfg, "debug.allow_deadlock"))
        return saturn_config_fail(cfg, "routing.dateline", err,
                                  "DOR on a torus without datelines can deadlock; "
                                  "use classic (2 VCs) or cumulative (n+1 VCs)");
    if (s->at != AT_LINK && s->dl != DL_CUMULATIVE)
        return saturn_config_fail(cfg, "routing.dateline_at", err,
                                  "applies to routing.dateline = cumulative (the two datelines "
                                  "of paper 000); leave it at link for the other schemes");
    s->classes = s->dl == DL_CLASSIC || s->dl == DL_ENTRY || s->dl == DL_BALANCED ? 2
                 : s->dl == DL_CUMULATIVE            ? n->topo.n + 1
                                                     : 1;
    if (n->Vd < s->classes && !saturn_config_bool(cfg, "debug.allow_deadlock"))
        return saturn_config_fail(cfg, "router.vcs", err,
                                  "too few VCs for DOR with %s datelines on a %d-D torus: "
                                  "needs at least %d to be deadlock-free",
                                  s->dl == DL_CLASSIC ? "classic"
                                  : s->dl == DL_ENTRY ? "entry"
                                  : s->dl == DL_BALANCED ? "balanced"
                                                         : "cumulative",
                                  n->topo.n, s->classes);
    if (n->Vd < s->classes)
        s->classes = n->Vd;
    bool tab = s->dl == DL_CUMULATIVE;
    for (int d = 0; d < n->topo.n; d++)
        tab &= n->topo.k[d] <= DOR_TAB_K;
    for (int d = 0; tab && d < n->topo.n; d++) {
        const int k = n->topo.k[d];
        uint8_t *c = s->cum[d] = malloc(3 * (size_t)k * (size_t)k);
        if (!c)
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        struct packet q = {0};
        for (int sc = 0; sc < k; sc++)
            for (int x = 0; x < k; x++) {
                int cnt[2];
                for (int m = 0; m < 2; m++) {
                    int h;
                    q.route[0] = (uint32_t)m << d; /* the tie bit */
                    const int dir = direction(&n->topo, &q, d, sc, x, &h);
                    cnt[m] = crossings(sc, h, dir, k, true, s->at);
                    const int way = m ? -1 : 1; /* leaving x this way */
                    int done = way > 0 ? x - sc : sc - x;
                    if (done < 0)
                        done += k;
                    c[k * k + (m * k + sc) * k + x] =
                        (uint8_t)crossings(sc, done + 1, way, k, true, s->at);
                }
                c[sc * k + x] = (uint8_t)cnt[0];
                tab &= cnt[0] == cnt[1]; /* as argued above (else no tables) */
            }
    }
    for (int d = 0; !tab && d < n->topo.n; d++) {
        free(s->cum[d]);
        s->cum[d] = NULL;
    }
    for (int c = 0; c < s->classes; c++) {
        int lo, hi;
        route_vc_class(s->classes, n->Vd, c, &lo, &hi);
        s->vc[2 * c] = (uint8_t)lo;
        s->vc[2 * c + 1] = (uint8_t)hi;
    }
    s->fast_on = s->dl == DL_CLASSIC || (s->dl == DL_CUMULATIVE && s->cum[0]);
    s->fast.cumulative = s->dl == DL_CUMULATIVE;
    s->fast.classes = s->classes; /* (at most n + 1 <= TOPO_MAX_DIMS + 1) */
    memcpy(s->fast.vc, s->vc, 2 * (size_t)s->classes);
    for (int d = 0; d < TOPO_MAX_DIMS; d++)
        s->fast.cum[d] = s->cum[d];
    return SATURN_OK;
}

static void dor_free(void *state)
{
    struct dor *s = state;
    if (s)
        for (int d = 0; d < TOPO_MAX_DIMS; d++)
            free(s->cum[d]);
    free(state);
}

/* The speedup-1 loop's VC allocation of a single head with DOR's route
 * inline, one instance a fast scheme (net/vc_alloc.h). */
static inline __attribute__((always_inline)) void
dor_route_classic(const struct net *n, uint32_t r, const struct packet *p, struct route_result *out)
{
    const struct dor *s = n->rstate;
    dor_fast_route_as(&s->fast, n, r, p, out, false);
}

static inline __attribute__((always_inline)) void
dor_route_cumulative(const struct net *n, uint32_t r, const struct packet *p,
                     struct route_result *out)
{
    const struct dor *s = n->rstate;
    dor_fast_route_as(&s->fast, n, r, p, out, true);
}

static __attribute__((noinline)) bool dor_alloc_vc1_classic(struct net *n, struct net_part *w,
                                                            uint32_t r, int p, int v)
{
    return net_alloc_vc1_as(n, w, r, p, v, true, dor_route_classic);
}

static __attribute__((noinline)) bool dor_alloc_vc1_cumulative(struct net *n, struct net_part *w,
                                                               uint32_t r, int p, int v)
{
    return net_alloc_vc1_as(n, w, r, p, v, true, dor_route_cumulative);
}

static route_alloc_vc1_fn dor_alloc_vc1(const void *state)
{
    const struct dor *s = state;
    if (!s->fast_on)
        return NULL;
    return s->fast.cumulative ? dor_alloc_vc1_cumulative : dor_alloc_vc1_classic;
}

const struct route_ops route_dor = {
    .name = "dor",
    .init = dor_init,
    .at_source = dor_at_source,
    .route = dor_route,
    .free = dor_free,
    .single_path = true,
    .alloc_vc1 = dor_alloc_vc1,
};

const struct saturn_param route_dor_params[] = {
    {"routing.dateline", SATURN_PARAM_ENUM, "auto", 0, 0, dateline_names,
     "torus VC scheme for DOR: classic (2 classes per dimension, class 1 from the wrap link "
     "on), cumulative (datelines at 0 and k/2, n+1 VCs), entry (BookSim's dim_order: the "
     "class is chosen on entering a ring, 1 when the coordinate is above the destination's, "
     "and kept for the ring; 2 VCs), balanced (BookSim's dim_order_bal: chosen on entering a "
     "ring, 1 when the path wraps, 0 when it crosses the middle link (k-1)/2 -> (k-1)/2+1, "
     "else random per packet; 2 VCs), none; auto = classic on a torus, none on a mesh"},
    {"routing.dateline_at", SATURN_PARAM_ENUM, "link", 0, 0, dateline_at_names,
     "cumulative datelines (\"at x = 0 and x = N/2\"): where a packet crosses one: link "
     "(the links k-1 <-> 0 and k/2-1 <-> k/2, either way), arrive (the hop into node 0 or "
     "k/2, from either side) or depart (the hop out of it)"},
    {"routing.tie", SATURN_PARAM_ENUM, "positive", 0, 0, tie_names,
     "direction when a torus distance is exactly k/2: positive; random per packet; parity "
     "(- when the source's coordinate in that dimension is odd: balanced and deterministic)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};
