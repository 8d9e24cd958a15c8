/* saturn selftest: a stress harness. Draws random valid configurations over
 * every topology, routing, switching mode, buffer option, workload,
 * injection controller and thread count, runs each as `saturn run ...` in a
 * child process (so a crash, a sanitizer report or a hang is caught and
 * classified, not suffered) with the invariants audited every cycle and a
 * wall-clock bound, and reruns networks of more than one 64-router block at
 * another thread count: the records must be identical.
 *
 * The draw knows the combination rules (VCs a routing needs, VCT's buffer
 * sizes, patterns a network can carry, the selftune period a multiple of
 * the gather duration...), so nearly every case runs; a refusal (exit 2) is
 * still a correct outcome as long as it is clean: one message, no output.
 * A case is a pure function of (seed, index): the same command reruns it. */
#define _GNU_SOURCE /* mkdtemp, setpgid, readlink */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include "cli/cli.h"
#include "cli/parallel.h"
#include "core/rng.h"

enum outcome {
    OUT_OK,
    OUT_REJECTED, /* exit 2, one message, no output */
    OUT_WATCHDOG, /* exit 3 on a configuration saturn accepted as deadlock-free */
    OUT_CRASH,    /* a signal or a sanitizer report */
    OUT_HANG,     /* the wall-clock bound */
    OUT_INVARIANT,
    OUT_MISMATCH, /* another thread count gave another record */
    OUT_ERROR,    /* any other failure: exit 1, an unclean refusal, output left */
    OUT_N
};
static const char *const outcome_names[OUT_N] = {
    "ok", "rejected", "watchdog", "crash", "hang", "invariant", "mismatch", "error"};

#define MAX_ARGS 96

/* One drawn case: the arguments of `saturn run`. */
struct draw {
    char *argv[MAX_ARGS];
    int argc;
    char text[6144]; /* the words, NUL-separated */
    size_t used;
    uint64_t routers;
    /* for the coverage counts */
    const char *topology, *routing, *switching, *workload, *control;
    int threads;
};

static void add(struct draw *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct draw *d, const char *fmt, ...)
{
    if (d->argc >= MAX_ARGS - 1 || d->used >= sizeof d->text)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(d->text + d->used, sizeof d->text - d->used, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof d->text - d->used)
        return;
    d->argv[d->argc++] = d->text + d->used;
    d->argv[d->argc] = NULL;
    d->used += (size_t)n + 1;
}

/* True when a word drawn so far starts with prefix. */
static bool has_word(const struct draw *d, const char *prefix)
{
    for (int i = 0; i < d->argc; i++)
        if (!strncmp(d->argv[i], prefix, strlen(prefix)))
            return true;
    return false;
}

static uint64_t below(struct rng *r, uint64_t n) { return rng_below(r, n); }
static int64_t range(struct rng *r, int64_t lo, int64_t hi) /* [lo, hi] */
{
    return lo + (int64_t)below(r, (uint64_t)(hi - lo + 1));
}
static bool chance(struct rng *r, double p) { return rng_uniform(r) < p; }
static const char *pick(struct rng *r, const char *const *list)
{
    size_t n = 0;
    while (list[n])
        n++;
    return list[below(r, n)];
}

static bool pow2(uint64_t x) { return x && !(x & (x - 1)); }

/* The network: k-ary n-cube, Dragonfly, or one of the others (fat tree,
 * HyperX, Slim Fly, Megafly: `other` names it). Sets d->routers; returns
 * nodes. groups: the period of the adversarial shift (Dragonfly and
 * Megafly groups, HyperX's dimension 0, a Slim Fly's q; 0: a pattern
 * without a shift, the fat tree's). */
struct shape {
    bool torus, mesh, df;
    const char *other;
    int n;
    int64_t k[3];
    int64_t p, a, h, groups;
    uint64_t nodes;
    bool square, adv, leaves_only;
    int diameter; /* the side-band's hops (others) */
};

static void draw_cube(struct rng *r, struct draw *d, struct shape *s)
{
    s->n = (int)range(r, 1, 3);
    bool big = chance(r, 0.3); /* more than one 64-router block: threads matter */
    for (int i = 0; i < s->n; i++) {
        if (s->n == 1)
            s->k[i] = big ? range(r, 65, 130) : range(r, 2, 16);
        else if (s->n == 2)
            s->k[i] = big ? range(r, 9, 13) : range(r, 2, 8);
        else
            s->k[i] = big ? range(r, 5, 6) : range(r, 2, 4);
    }
    s->square = true;
    if (s->n > 1 && chance(r, 0.7)) /* one k for all dimensions */
        for (int i = 1; i < s->n; i++)
            s->k[i] = s->k[0];
    d->routers = 1;
    for (int i = 0; i < s->n; i++) {
        d->routers *= (uint64_t)s->k[i];
        s->square &= s->k[i] == s->k[0];
    }
    s->nodes = d->routers;
    add(d, "network.topology=%s", s->torus ? "torus" : "mesh");
    add(d, "network.n=%d", s->n);
    if (s->square)
        add(d, "network.k=%lld", (long long)s->k[0]);
    else if (s->n == 2)
        add(d, "network.k=%lld,%lld", (long long)s->k[0], (long long)s->k[1]);
    else
        add(d, "network.k=%lld,%lld,%lld", (long long)s->k[0], (long long)s->k[1],
            (long long)s->k[2]);
}

static void draw_dragonfly(struct rng *r, struct draw *d, struct shape *s)
{
    bool big = chance(r, 0.3);
    s->p = range(r, 1, 4);
    s->a = big ? range(r, 5, 8) : range(r, 1, 5);
    s->h = big ? range(r, 2, 3) : range(r, 1, 3);
    s->groups = s->a * s->h + 1;
    d->routers = (uint64_t)(s->a * s->groups);
    s->nodes = d->routers * (uint64_t)s->p;
    add(d, "network.topology=dragonfly");
    add(d, "dragonfly.p=%lld", (long long)s->p);
    add(d, "dragonfly.a=%lld", (long long)s->a);
    add(d, "dragonfly.h=%lld", (long long)s->h);
    if (chance(r, 0.5))
        add(d, "dragonfly.arrangement=%s", chance(r, 0.5) ? "palmtree" : "consecutive");
    add(d, "dragonfly.local_latency=%lld", (long long)range(r, 1, 12));
    add(d, "dragonfly.global_latency=%lld", (long long)range(r, 1, 40));
}

/* A fat tree, a HyperX, a Slim Fly or a Megafly, small. */
static void draw_other(struct rng *r, struct draw *d, struct shape *s)
{
    static const char *const kinds[] = {"fattree", "hyperx", "slimfly", "megafly", NULL};
    s->other = pick(r, kinds);
    s->adv = true;
    bool big = chance(r, 0.3); /* more than one 64-router block: threads matter */
    add(d, "network.topology=%s", s->other);
    if (!strcmp(s->other, "fattree")) {
        int64_t k = big ? range(r, 5, 6) : range(r, 2, 4), n = big ? 3 : range(r, 1, 3), per = 1;
        for (int i = 1; i < n; i++)
            per *= k;
        add(d, "fattree.k=%lld", (long long)k);
        add(d, "fattree.n=%lld", (long long)n);
        s->nodes = (uint64_t)(per * k);
        d->routers = (uint64_t)(n * per);
        s->groups = 0;
        s->leaves_only = true;
        s->diameter = n > 1 ? 2 * (int)(n - 1) : 1; /* one router: 1 (topo.c) */
    } else if (!strcmp(s->other, "hyperx")) {
        s->n = (int)range(r, 1, 3);
        d->routers = 1;
        char w[64], l[64];
        size_t at = 0, al = 0;
        for (int i = 0; i < s->n; i++) {
            s->k[i] = range(r, 2, 4);
            d->routers *= (uint64_t)s->k[i];
            at += (size_t)snprintf(w + at, sizeof w - at, "%s%lld", i ? "," : "", (long long)s->k[i]);
            al += (size_t)snprintf(l + al, sizeof l - al, "%s%lld", i ? "," : "",
                                   (long long)range(r, 1, 2));
        }
        s->p = range(r, 1, 3);
        add(d, "hyperx.s=%s", w);
        if (chance(r, 0.5))
            add(d, "hyperx.links=%s", l);
        add(d, "hyperx.t=%lld", (long long)s->p);
        s->nodes = d->routers * (uint64_t)s->p;
        s->groups = s->k[0];
        s->diameter = s->n;
    } else if (!strcmp(s->other, "slimfly")) {
        static const int qs[] = {3, 5, 7};
        int q = qs[below(r, 3)], radix = (3 * q - (q % 4 == 1 ? 1 : -1)) / 2;
        s->p = chance(r, 0.3) ? (radix + 1) / 2 : range(r, 1, 3);
        add(d, "slimfly.q=%d", q);
        add(d, "slimfly.p=%lld", (long long)s->p);
        d->routers = 2 * (uint64_t)q * (uint64_t)q;
        s->nodes = d->routers * (uint64_t)s->p;
        s->groups = q;
        s->diameter = 2;
    } else {
        s->p = range(r, 1, 3);
        s->a = big ? range(r, 3, 4) : range(r, 1, 3);
        int64_t sp = big ? 4 : range(r, 1, 3);
        s->h = big ? range(r, 2, 3) : range(r, 1, 2);
        s->groups = sp * s->h + 1;
        add(d, "megafly.p=%lld", (long long)s->p);
        add(d, "megafly.a=%lld", (long long)s->a);
        add(d, "megafly.s=%lld", (long long)sp);
        add(d, "megafly.h=%lld", (long long)s->h);
        if (chance(r, 0.5))
            add(d, "megafly.global_latency=%lld", (long long)range(r, 1, 20));
        d->routers = (uint64_t)(s->groups * (s->a + sp));
        s->nodes = (uint64_t)(s->groups * s->a * s->p);
        s->leaves_only = true;
        s->diameter = 3;
    }
}

/* A destination pattern this network can carry. */
static const char *draw_pattern(struct rng *r, const struct shape *s, bool adv_ok)
{
    for (;;) {
        static const char *const cube[] = {"uniform", "transpose", "shuffle", "bitcomp",
                                           "bitrev", "bitrot", "tornado", "torn", "randperm",
                                           "randpair", "neighbor", "hotspot", "distance", NULL};
        static const char *const df[] = {"uniform", "adversarial", "mixed", "shuffle",
                                         "bitcomp", "bitrev", "bitrot", "randperm",
                                         "randpair", "neighbor", "hotspot", NULL};
        const char *p = pick(r, s->df || s->other ? df : cube);
        bool bits = !strcmp(p, "shuffle") || !strcmp(p, "bitcomp") || !strcmp(p, "bitrev") ||
                    !strcmp(p, "bitrot");
        if (bits && !pow2(s->nodes))
            continue;
        if (!strcmp(p, "transpose") && (s->n < 2 || !s->square))
            continue;
        if (!strcmp(p, "randpair") && s->nodes % 2)
            continue;
        if ((!strcmp(p, "adversarial") || !strcmp(p, "mixed")) &&
            (!adv_ok || (s->groups < 2 && !(s->other && !s->groups))))
            continue;
        if (!strcmp(p, "neighbor") && s->leaves_only) /* routers without nodes */
            continue;
        if (s->nodes < 2 && strcmp(p, "hotspot"))
            continue;
        return p;
    }
}

/* The largest hop count every node has a destination at (distance pattern). */
static int64_t cube_distance_max(const struct shape *s)
{
    int64_t m = 0;
    for (int i = 0; i < s->n; i++)
        m += s->k[i] / 2; /* a mesh's middle node has nothing farther in that dimension */
    return m;
}

static void draw_traffic(struct rng *r, struct draw *d, const struct shape *s, int64_t len,
                         bool set_len)
{
    const char *p = draw_pattern(r, s, true);
    add(d, "traffic.pattern=%s", p);
    if (!strcmp(p, "hotspot")) {
        add(d, "traffic.hotspot_node=%llu", (unsigned long long)below(r, s->nodes));
        add(d, "traffic.hotspot_fraction=%.3f", rng_uniform(r) * 0.5);
    } else if (!strcmp(p, "distance")) {
        add(d, "traffic.distance=%lld", (long long)range(r, 1, cube_distance_max(s)));
    } else if ((!strcmp(p, "adversarial") || !strcmp(p, "mixed")) && !s->groups) {
        if (!strcmp(p, "mixed")) /* the fat tree's rotation has no shift */
            add(d, "traffic.adv_fraction=%.3f", rng_uniform(r));
    } else if (!strcmp(p, "adversarial") || !strcmp(p, "mixed")) {
        int64_t shift;
        do
            shift = range(r, 1, s->groups + 2);
        while (shift % s->groups == 0);
        add(d, "traffic.adv_shift=%lld", (long long)shift);
        if (!strcmp(p, "mixed"))
            add(d, "traffic.adv_fraction=%.3f", rng_uniform(r));
    } else if (!strcmp(p, "uniform") && chance(r, 0.15)) {
        add(d, "traffic.uniform_self=true");
    }
    if (set_len)
        add(d, "traffic.packet_length=%lld", (long long)len);
}

/* The network's routers: routing, VCs, buffers, switching, delays. Returns
 * the packet length the buffers were sized for. */
static int64_t draw_router(struct rng *r, struct draw *d, const struct shape *s, bool *meta_ok)
{
    int64_t len = chance(r, 0.8) ? range(r, 1, 16) : range(r, 17, 40);
    static const char *const sw[] = {"wormhole", "wormhole", "vct", "unlimited", NULL};
    const char *routing;
    int64_t other_need = 1;
    if (s->other) {
        static const char *const ft[] = {"nca", "dmodk", NULL};
        static const char *const hx[] = {"dor", "min", "val", "ugal", NULL};
        static const char *const gr[] = {"min", "val", "ugal", NULL};
        routing = pick(r, !strcmp(s->other, "fattree") ? ft : !strcmp(s->other, "hyperx") ? hx : gr);
        bool two = !strcmp(routing, "val") || !strcmp(routing, "ugal");
        if (!strcmp(s->other, "hyperx"))
            other_need = !strcmp(routing, "min") ? s->n : two ? 2 : 1;
        else if (!strcmp(s->other, "slimfly"))
            other_need = two ? 4 : 2;
        else if (!strcmp(s->other, "megafly"))
            other_need = two ? 2 : 1;
    } else if (s->df) {
        static const char *const rt[] = {"min", "val", "ugal", "pb", "olm", "base", "hybrid",
                                         "ectn", NULL};
        routing = pick(r, rt);
    } else {
        static const char *const rt[] = {"dor", "dor", "table_min", "duato", "disha", NULL};
        routing = pick(r, rt);
    }
    const char *swm = pick(r, sw);
    if (!strcmp(routing, "disha") && !strcmp(swm, "unlimited"))
        swm = "wormhole"; /* Disha recovers among bounded buffers */
    d->routing = routing;
    d->switching = swm;
    add(d, "routing.algorithm=%s", routing);
    add(d, "router.switching=%s", swm);
    bool vct = !strcmp(swm, "vct"), unlimited = !strcmp(swm, "unlimited");

    int64_t buf;
    if (unlimited || (!strcmp(routing, "table_min") && chance(r, 0.5)) || chance(r, 0.08))
        buf = 0;
    else if (vct)
        buf = range(r, len, 2 * len + 4);
    else
        buf = range(r, 1, 16);
    if (!strcmp(routing, "disha") && buf == 0)
        buf = vct ? len : range(r, 1, 16);
    add(d, "router.buf_flits=%lld", (long long)buf);

    /* output buffers: none, bounded, or unlimited storage */
    bool out_unlimited = false, out_bounded = false;
    double o = rng_uniform(r);
    if (!strcmp(routing, "table_min") && buf != 0)
        o = 0.9; /* minimal adaptive without escape needs unbounded storage */
    if (o > 0.85) {
        out_unlimited = true;
        add(d, "router.out_buf_unlimited=true");
        if (chance(r, 0.4) && !s->df && !s->other)
            add(d, "router.output_order=packet");
    } else if (o > 0.7) {
        out_bounded = true;
        add(d, "router.out_buf_flits=%lld",
            (long long)(vct ? range(r, len, 2 * len) : range(r, 1, 12)));
    }
    *meta_ok = s->torus && !out_unlimited && !out_bounded && buf != 1;

    int64_t vcs;
    if (s->other) {
        vcs = range(r, other_need, other_need + 2);
    } else if (s->df) {
        vcs = range(r, 1, 4);
        int local_need = !strcmp(routing, "ugal") || !strcmp(routing, "pb") ? 4 : 3;
        if (!strcmp(routing, "val") || !strcmp(routing, "ugal") || !strcmp(routing, "pb")) {
            bool group = chance(r, 0.5);
            add(d, "val.intermediate=%s", group ? "group" : "router");
            local_need = group ? 3 : 4;
        }
        if (chance(r, 0.4))
            add(d, "dragonfly.local_vcs=%lld", (long long)range(r, local_need, local_need + 2));
        if (chance(r, 0.4))
            add(d, "dragonfly.global_vcs=%lld", (long long)range(r, 2, 4));
        if (chance(r, 0.6))
            add(d, "dragonfly.global_buf_flits=%lld",
                (long long)(vct ? range(r, len, 4 * len) : range(r, 1, 64)));
        else if (vct && len > 256)
            add(d, "dragonfly.global_buf_flits=%lld", (long long)len);
    } else {
        int64_t need = 1;
        if (!strcmp(routing, "dor") && s->torus) {
            static const char *const dl[] = {"auto", "classic", "cumulative", "entry", NULL};
            const char *l = pick(r, dl);
            if (strcmp(l, "auto"))
                add(d, "routing.dateline=%s", l);
            need = !strcmp(l, "cumulative") ? s->n + 1 : 2;
        } else if (!strcmp(routing, "dor") && chance(r, 0.3)) {
            add(d, "routing.dateline=none");
        } else if (!strcmp(routing, "duato")) {
            need = s->torus ? 3 : 2;
        }
        vcs = range(r, need, need + 3);
        if (s->torus && chance(r, 0.3))
            add(d, "routing.tie=%s", chance(r, 0.5) ? "random" : "parity");
    }
    add(d, "router.vcs=%lld", (long long)vcs);

    bool central = !s->df && !s->other && chance(r, 0.2);
    if (central)
        add(d, "router.arbiter=central");
    if (chance(r, 0.25)) {
        static const char *const rr[] = {"once", "waiting", NULL};
        const char *v = central ? "once" : pick(r, rr);
        add(d, "routing.reroute=%s", v);
    }
    if (chance(r, 0.2))
        add(d, "router.atomic_vc=true");
    if (chance(r, 0.3))
        add(d, "router.speedup=%lld", (long long)range(r, 2, 3));
    if (chance(r, 0.3))
        add(d, "router.route_delay=%lld", (long long)range(r, 1, 3));
    if (chance(r, 0.3))
        add(d, "router.xbar_delay=%lld", (long long)range(r, 1, 2));
    if (!s->df && chance(r, 0.3))
        add(d, "router.link_latency=%lld", (long long)range(r, 2, 4));
    if (!s->df && chance(r, 0.3))
        add(d, "router.credit_delay=%lld", (long long)range(r, 2, 3));
    if (chance(r, 0.2))
        add(d, "router.inject_latency=%lld", (long long)range(r, 2, 3));
    if (chance(r, 0.2))
        add(d, "router.eject_latency=%lld", (long long)range(r, 0, 3));

    /* the routing's own knobs */
    if (!strcmp(routing, "disha")) {
        add(d, "disha.timeout=%lld", (long long)range(r, 1, 32));
        if (chance(r, 0.3))
            add(d, "disha.token_hop=%lld", (long long)range(r, 1, 3));
    } else if (!strcmp(routing, "ugal")) {
        add(d, "ugal.threshold=%lld", (long long)range(r, -2, 8));
    } else if (!strcmp(routing, "pb")) {
        add(d, "pb.threshold=%lld", (long long)range(r, -2, 8));
        if (chance(r, 0.5))
            add(d, "pb.coef=%lld", (long long)range(r, 100, 300));
        if (chance(r, 0.5))
            add(d, "pb.allowance=%lld", (long long)range(r, 0, 10));
        if (chance(r, 0.5))
            add(d, "pb.delay=%lld", (long long)range(r, 0, 20));
    } else if (!strcmp(routing, "olm") || !strcmp(routing, "hybrid")) {
        if (!strcmp(routing, "olm"))
            add(d, "olm.threshold=%lld", (long long)range(r, 10, 100));
        else {
            add(d, "hybrid.threshold=%lld", (long long)range(r, 0, 10));
            add(d, "hybrid.occupancy=%lld", (long long)range(r, 10, 60));
            if (chance(r, 0.5))
                add(d, "contention.trigger=%s", chance(r, 0.5) ? "exceeds" : "reaches");
        }
        if (chance(r, 0.4))
            add(d, "olm.trigger=%s", chance(r, 0.5) ? "always" : "blocked");
        if (chance(r, 0.3))
            add(d, "olm.min_occupancy=%lld", (long long)range(r, 0, 50));
        if (chance(r, 0.3)) {
            add(d, "olm.congested_coef=%lld", (long long)range(r, 100, 200));
            add(d, "olm.congested_allowance=%lld", (long long)range(r, 0, 5));
        }
    } else if (!strcmp(routing, "base")) {
        add(d, "base.threshold=%lld", (long long)range(r, 0, 10));
        if (chance(r, 0.5))
            add(d, "contention.trigger=%s", chance(r, 0.5) ? "exceeds" : "reaches");
    } else if (!strcmp(routing, "ectn")) {
        int64_t period = range(r, 1, 150);
        add(d, "ectn.threshold=%lld", (long long)range(r, 0, 10));
        add(d, "ectn.combined_threshold=%lld", (long long)range(r, 0, 15));
        add(d, "ectn.period=%lld", (long long)period);
        if (chance(r, 0.5))
            add(d, "ectn.delay=%lld", (long long)range(r, 0, period - 1));
        if (chance(r, 0.5))
            add(d, "ectn.injection=%s", chance(r, 0.5) ? "either" : "combined");
        if (chance(r, 0.5))
            add(d, "contention.trigger=%s", chance(r, 0.5) ? "exceeds" : "reaches");
    }
    if (!strcmp(routing, "olm") || !strcmp(routing, "base") || !strcmp(routing, "hybrid") ||
        !strcmp(routing, "ectn")) {
        if (chance(r, 0.4))
            add(d, "dragonfly.global_misroute=%s", chance(r, 0.5) ? "crg" : "mm");
        if (chance(r, 0.3))
            add(d, "dragonfly.misroute_room=false");
    }
    return buf == 0 ? -len : len; /* the sign tells the controller about unbounded buffers */
}

/* The gather duration g of the side-band (see control/gather.c). */
static uint64_t gather_duration(const struct shape *s, uint64_t h)
{
    if (s->df)
        return 3 * h;
    if (s->other)
        return h * (uint64_t)s->diameter;
    uint64_t hops = 0;
    for (int i = 0; i < s->n; i++)
        hops += s->torus ? (uint64_t)(s->k[i] / 2) : (uint64_t)(s->k[i] - 1);
    return h * hops;
}

static void draw_control(struct rng *r, struct draw *d, const struct shape *s, bool unbounded,
                         bool meta_ok)
{
    static const char *const models[] = {"noth", "noth", "noth", "base", "hyst", "gt.x", "gt.a",
                                         "static", "selftune", "alo", NULL};
    const char *m = pick(r, models);
    d->control = m;
    if (strcmp(m, "noth"))
        add(d, "control.model=%s", m);
    bool meta = meta_ok && chance(r, 0.15);
    if (meta)
        add(d, "gather.mode=metapacket");
    if (!strcmp(m, "base") || !strcmp(m, "hyst") || !strcmp(m, "gt.x") || !strcmp(m, "gt.a")) {
        if (!strcmp(m, "base")) {
            add(d, "entropy.rth=%lld", (long long)range(r, 50, 99));
        } else {
            int64_t on = range(r, 30, 90);
            add(d, "entropy.ron=%lld", (long long)on);
            add(d, "entropy.roff=%lld", (long long)range(r, on, 100));
        }
        if (chance(r, 0.5))
            add(d, "entropy.rn=%lld", (long long)range(r, 0, 60));
        if (m[0] == 'g')
            add(d, "entropy.tg=%lld", (long long)range(r, 0, 32));
        static const char *const info[] = {"ideal", "circuit", "vcc", NULL};
        add(d, "entropy.info=%s", s->torus ? pick(r, info) : "ideal");
        if (chance(r, 0.3))
            add(d, "entropy.buffers=network");
    } else if (!strcmp(m, "static") || !strcmp(m, "selftune")) {
        uint64_t h = 1;
        if (!meta) {
            h = (uint64_t)range(r, 1, 3);
            add(d, "gather.hop_delay=%llu", (unsigned long long)h);
        }
        if (unbounded || chance(r, 0.3))
            add(d, "gather.full=nonempty");
        if (chance(r, 0.3))
            add(d, "gather.estimate=last");
        if (!strcmp(m, "static")) {
            add(d, "static.threshold=%llu", (unsigned long long)below(r, d->routers * 4 + 1));
        } else {
            uint64_t g = gather_duration(s, h);
            if (!meta) /* metapackets take what the network gives them: no fixed g */
                add(d, "selftune.period=%llu", (unsigned long long)(g * (uint64_t)range(r, 1, 6)));
            if (chance(r, 0.5)) {
                add(d, "selftune.initial=%lld", (long long)range(r, 0, 10));
                add(d, "selftune.increment=%lld", (long long)range(r, 0, 5));
                add(d, "selftune.decrement=%lld", (long long)range(r, 0, 10));
                add(d, "selftune.drop=%lld", (long long)range(r, 50, 95));
            }
            if (chance(r, 0.3))
                add(d, "selftune.avoid_local_max=false");
            if (chance(r, 0.3))
                add(d, "selftune.resets=%lld", (long long)range(r, 1, 6));
        }
    }
}

/* The workload, the load and the traffic. Short runs: a case is a smoke
 * test of a combination, not a measurement. */
static void draw_workload(struct rng *r, struct draw *d, const struct shape *s, int64_t len)
{
    static const char *const wl[] = {"steady", "steady", "steady", "collective", "ramp",
                                     "phases", NULL};
    const char *w = pick(r, wl);
    d->workload = w;
    if (strcmp(w, "steady"))
        add(d, "sim.workload=%s", w);
    bool set_len = true;
    if (!strcmp(w, "collective")) {
        add(d, "collective.packets=%lld", (long long)range(r, 1, 4));
        if (chance(r, 0.3) && len > 2) {
            int64_t slices = range(r, 1, len - 1 < 6 ? len - 1 : 6);
            add(d, "collective.payload=%lld", (long long)(len - 1));
            add(d, "collective.slices=%lld", (long long)slices);
            add(d, "collective.interval=%lld", (long long)range(r, 0, 40));
            set_len = false; /* the slices' length comes from the payload */
        }
        add(d, "collective.max_cycles=400000");
    }
    draw_traffic(r, d, s, len, set_len);
    if (!strcmp(w, "collective"))
        return;
    if (!strcmp(w, "phases")) {
        char list[512];
        size_t used = 0;
        int64_t total = 0, nph = range(r, 1, 3);
        for (int64_t i = 0; i < nph; i++) {
            int64_t cycles = range(r, 100, 800);
            total += cycles;
            int n = snprintf(list + used, sizeof list - used, "%s%lld:%.5f:%s", i ? "," : "",
                             (long long)cycles, rng_uniform(r) / (double)len,
                             draw_pattern(r, s, false));
            used += n > 0 ? (size_t)n : 0;
        }
        add(d, "phases.list=%s", list);
        /* a phase's distance pattern needs a distance every node has */
        if (strstr(list, ":distance") && !has_word(d, "traffic.distance="))
            add(d, "traffic.distance=%lld", (long long)range(r, 1, cube_distance_max(s)));
        int64_t repeat = range(r, 1, 2);
        if (repeat > 1)
            add(d, "phases.repeat=%lld", (long long)repeat);
        if (chance(r, 0.5))
            add(d, "phases.warmup=%lld", (long long)range(r, 0, total * repeat - 1));
        add(d, "phases.drain_max=%lld", (long long)range(r, 500, 5000));
        return;
    }
    if (!strcmp(w, "ramp")) {
        double from = rng_uniform(r) * 0.2, to = from + 0.05 + rng_uniform(r) * 0.5;
        int64_t cycles = range(r, 1000, 4000);
        if (to > 1)
            to = 1;
        add(d, "ramp.from=%.4f", from);
        add(d, "ramp.to=%.4f", to);
        add(d, "ramp.per_million=%.3f", (to - from) * 1e6 / (double)cycles);
        add(d, "ramp.sample=%lld", (long long)range(r, 10, 100));
        add(d, "ramp.smooth=%lld", (long long)range(r, 1, 10));
        if (chance(r, 0.3))
            add(d, "ramp.drop=%lld", (long long)range(r, 5, 30));
        if (chance(r, 0.3))
            add(d, "ramp.stop_at_critical=true");
        return;
    }
    /* steady: any load, at times beyond saturation (then bounded queues or not) */
    double rate = chance(r, 0.7) ? rng_uniform(r) * 0.4 : 0.4 + rng_uniform(r) * 0.6;
    if (chance(r, 0.3)) {
        double pr = rate / (double)len;
        add(d, "traffic.packet_rate=%.5f", pr);
    } else {
        add(d, "traffic.flit_rate=%.4f", rate);
    }
    if (chance(r, 0.3))
        add(d, "traffic.source_queue=%lld", (long long)range(r, 1, 20));
    add(d, "steady.warmup=%lld", (long long)range(r, 0, 600));
    add(d, "steady.measure=%lld", (long long)range(r, 100, 1500));
    add(d, "steady.drain_max=%lld", (long long)range(r, 500, 5000));
}

static void draw_case(uint64_t seed, uint64_t index, struct draw *d)
{
    memset(d, 0, sizeof *d);
    struct rng r;
    rng_seed(&r, seed, index);
    add(d, "run");
    struct shape s = {0};
    double t = rng_uniform(&r);
    s.torus = t < 0.3;
    s.mesh = t >= 0.3 && t < 0.5;
    s.df = t >= 0.5 && t < 0.7;
    if (s.df)
        draw_dragonfly(&r, d, &s);
    else if (t >= 0.7)
        draw_other(&r, d, &s);
    else
        draw_cube(&r, d, &s);
    d->topology = s.torus ? "torus" : s.mesh ? "mesh" : s.df ? "dragonfly" : s.other;
    bool meta_ok;
    int64_t len = draw_router(&r, d, &s, &meta_ok);
    bool unbounded = len < 0;
    len = len < 0 ? -len : len;
    draw_control(&r, d, &s, unbounded, meta_ok);
    draw_workload(&r, d, &s, len);
    static const int threads[] = {1, 1, 2, 3};
    d->threads = threads[below(&r, 4)];
    if (d->threads > 1)
        add(d, "sim.threads=%d", d->threads);
    if (chance(&r, 0.5)) /* a tight watchdog: any false deadlock shows */
        add(d, "sim.watchdog=%lld", (long long)range(&r, 500, 2000));
    if (chance(&r, 0.3) && strcmp(d->workload, "ramp")) /* a ramp's rows are its samples */
        add(d, "sim.series_interval=%lld", (long long)range(&r, 2, 50));
    if (chance(&r, 0.3))
        add(d, "sim.generation_bin=%lld", (long long)range(&r, 1, 200));
    add(d, "sim.seed=%llu", (unsigned long long)range(&r, 1, 1000000));
    add(d, "sim.check_invariants=true");
}

/* ---- running the cases ------------------------------------------------ */

struct job {
    uint64_t index;
    struct draw d;
    int phase; /* 0: the drawn run, 1: the same at another thread count */
    pid_t pid;
    double start;
    enum outcome out;
    char why[512];
};

struct selftest {
    const char *self; /* this executable */
    char dir[256];    /* per-batch scratch folder */
    double timeout;
    uint64_t seed;
    bool verbose;
    unsigned counts[OUT_N];
    unsigned compared; /* thread-count comparisons made */
    unsigned reported; /* cases done at the last progress line */
    /* coverage: how many cases ran ok per topology, routing, ... */
    struct cover {
        char *name;
        unsigned n;
    } cover[96];
    int ncover;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void path_of(const struct selftest *t, const struct job *j, int phase, const char *what,
                    char *out, size_t cap)
{
    snprintf(out, cap, "%s/c%llu.%d.%s", t->dir, (unsigned long long)j->index, phase, what);
}

/* `saturn run` with the case's words and its output files, in a child with
 * stdout discarded and stderr in a file. */
static int spawn(const struct selftest *t, struct job *j)
{
    char json[512], err[512], series[512], gen[512];
    path_of(t, j, j->phase, "json", json, sizeof json);
    path_of(t, j, j->phase, "err", err, sizeof err);
    path_of(t, j, j->phase, "series.csv", series, sizeof series);
    path_of(t, j, j->phase, "gen.csv", gen, sizeof gen);
    char *argv[MAX_ARGS + 16];
    char threads[32];
    int n = 0;
    argv[n++] = (char *)t->self;
    for (int i = 0; i < j->d.argc; i++)
        argv[n++] = j->d.argv[i];
    if (j->phase == 1) { /* the later word wins */
        snprintf(threads, sizeof threads, "sim.threads=%d", j->d.threads > 1 ? 1 : 2 + (int)(j->index % 2));
        argv[n++] = threads;
    }
    argv[n++] = "-q";
    argv[n++] = "--json";
    argv[n++] = json;
    argv[n++] = "--series";
    argv[n++] = series;
    argv[n++] = "--by-generation";
    argv[n++] = gen;
    argv[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);
        int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_RDWR);
        if (fd >= 0)
            dup2(fd, 2);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
        }
        execv(t->self, argv);
        _exit(127);
    }
    setpgid(pid, pid);
    j->pid = pid;
    j->start = now_s();
    return 0;
}

/* The file's text (NULL if absent), at most 4 MiB. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (len < cap || cap >= (4u << 20))
            break;
        char *b = realloc(buf, 2 * cap + 1);
        if (!b) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b;
        cap *= 2;
    }
    fclose(f);
    if (buf)
        buf[len] = 0;
    return buf;
}

/* The record without what may differ between thread counts: the run's own
 * time, memory and thread count. */
static void strip_record(char *s)
{
    static const char *const skip[] = {"\"wall_seconds\"", "\"peak_rss_kb\"", "\"threads\"",
                                       "\"sim.threads\"", NULL};
    char *out = s;
    for (char *line = s; *line;) {
        char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) + 1 : strlen(line);
        bool keep = true;
        for (int i = 0; skip[i]; i++)
            if (memmem(line, n, skip[i], strlen(skip[i])))
                keep = false;
        if (keep) {
            memmove(out, line, n);
            out += n;
        }
        line += n;
    }
    *out = 0;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The first line of a file, for the report. */
static void first_line(const char *path, char *out, size_t cap)
{
    char *s = slurp(path);
    out[0] = 0;
    if (!s)
        return;
    const char *p = strstr(s, "ERROR: ") ? strstr(s, "ERROR: ") : s; /* a sanitizer's line */
    snprintf(out, cap, "%.*s", (int)strcspn(p, "\n"), p);
    free(s);
}

/* Classifies a finished child (status from waitpid; timed_out: killed). */
static enum outcome classify(const struct selftest *t, struct job *j, int status, bool timed_out)
{
    char json[512], err[512], series[512], gen[512];
    path_of(t, j, j->phase, "json", json, sizeof json);
    path_of(t, j, j->phase, "err", err, sizeof err);
    path_of(t, j, j->phase, "series.csv", series, sizeof series);
    path_of(t, j, j->phase, "gen.csv", gen, sizeof gen);
    char line[400];
    first_line(err, line, sizeof line);
    char *text = slurp(err);
    bool sanitizer = text && (strstr(text, "Sanitizer") || strstr(text, "runtime error:"));
    size_t lines = 0;
    for (const char *p = text; p && *p; p++)
        lines += *p == '\n';
    free(text);
    if (timed_out) {
        snprintf(j->why, sizeof j->why, "no exit after %.0f s (killed)", t->timeout);
        return OUT_HANG;
    }
    if (WIFSIGNALED(status) || sanitizer) {
        if (WIFSIGNALED(status))
            snprintf(j->why, sizeof j->why, "signal %d (%s)%s%s", WTERMSIG(status),
                     strsignal(WTERMSIG(status)), line[0] ? ": " : "", line);
        else
            snprintf(j->why, sizeof j->why, "%s", line);
        return OUT_CRASH;
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    bool left = exists(json) || exists(series) || exists(gen);
    if (code == 0) {
        if (!exists(json) || !exists(series) || !exists(gen)) {
            snprintf(j->why, sizeof j->why, "exit 0 without its --json, --series or "
                                            "--by-generation file");
            return OUT_ERROR;
        }
        return OUT_OK;
    }
    if (left) {
        snprintf(j->why, sizeof j->why, "exit %d but an output file was written: %s", code, line);
        return OUT_ERROR;
    }
    if (code == EXIT_BAD_INPUT) {
        snprintf(j->why, sizeof j->why, "%s", line);
        if (lines != 1 || strncmp(line, "saturn: error: ", 15)) {
            snprintf(j->why, sizeof j->why, "exit 2 without one 'saturn: error:' line: %s", line);
            return OUT_ERROR;
        }
        return OUT_REJECTED;
    }
    snprintf(j->why, sizeof j->why, "exit %d: %s", code, line);
    if (code == EXIT_DEADLOCK)
        return OUT_WATCHDOG;
    if (code == 1 && strstr(line, "internal error"))
        return OUT_INVARIANT;
    return OUT_ERROR;
}

/* The drawn run's record against the other thread count's. */
static enum outcome compare(const struct selftest *t, struct job *j)
{
    static const char *const what[] = {"json", "series.csv", "gen.csv"};
    static const char *const names[] = {"records", "time series", "--by-generation files"};
    for (int i = 0; i < 3; i++) {
        char a[512], b[512];
        path_of(t, j, 0, what[i], a, sizeof a);
        path_of(t, j, 1, what[i], b, sizeof b);
        char *x = slurp(a), *y = slurp(b);
        if (x && y && i == 0) {
            strip_record(x);
            strip_record(y);
        }
        bool same = x && y && !strcmp(x, y);
        free(x);
        free(y);
        if (!same) {
            snprintf(j->why, sizeof j->why, "sim.threads=%d and sim.threads=%d give different %s",
                     j->d.threads, j->d.threads > 1 ? 1 : 2 + (int)(j->index % 2),
                     names[i]);
            return OUT_MISMATCH;
        }
    }
    return OUT_OK;
}

static void cleanup(const struct selftest *t, const struct job *j)
{
    static const char *const what[] = {"json", "err", "series.csv", "gen.csv"};
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < 4; i++) {
            char path[512];
            path_of(t, j, p, what[i], path, sizeof path);
            unlink(path);
        }
}

static void count_cover(struct selftest *t, const char *prefix, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "%s%s", prefix, name);
    for (int i = 0; i < t->ncover; i++)
        if (!strcmp(t->cover[i].name, key)) {
            t->cover[i].n++;
            return;
        }
    if (t->ncover < (int)(sizeof t->cover / sizeof t->cover[0])) {
        char *copy = strdup(key);
        if (copy)
            t->cover[t->ncover++] = (struct cover){copy, 1};
    }
}

static void print_case(const struct selftest *t, const struct job *j, FILE *f)
{
    fprintf(f, "selftest: case %llu %s", (unsigned long long)j->index,
            outcome_names[j->out]);
    if (j->why[0])
        fprintf(f, ": %s", j->why);
    fprintf(f, "\n  %s", t->self);
    for (int i = 0; i < j->d.argc; i++)
        fprintf(f, " %s", j->d.argv[i]);
    if (j->out == OUT_MISMATCH)
        fprintf(f, "  (and sim.threads=%d)", j->d.threads > 1 ? 1 : 2 + (int)(j->index % 2));
    fputc('\n', f);
}

/* A child finished (or was killed): classify; start the comparison run or
 * close the case. Returns true when the job is done. */
static bool finish(struct selftest *t, struct job *j, int status, bool timed_out)
{
    enum outcome o = classify(t, j, status, timed_out);
    if (j->phase == 0 && o == OUT_OK && j->d.routers > 64) {
        j->phase = 1;
        if (spawn(t, j) == 0)
            return false;
        o = OUT_ERROR;
        snprintf(j->why, sizeof j->why, "cannot start a child: %s", strerror(errno));
    } else if (j->phase == 1) {
        t->compared++;
        if (o == OUT_OK)
            o = compare(t, j);
        else if (o == OUT_REJECTED) { /* accepted at one thread count only */
            char why[sizeof j->why];
            snprintf(why, sizeof why, "refused at the other thread count: %.400s", j->why);
            memcpy(j->why, why, sizeof why);
            o = OUT_MISMATCH;
        }
    }
    j->out = o;
    t->counts[o]++;
    if (o == OUT_OK) {
        count_cover(t, "topology ", j->d.topology);
        count_cover(t, "routing ", j->d.routing);
        count_cover(t, "switching ", j->d.switching);
        count_cover(t, "workload ", j->d.workload);
        count_cover(t, "control ", j->d.control);
        char th[16];
        snprintf(th, sizeof th, "%d", j->d.threads);
        count_cover(t, "threads ", th);
    }
    if (o != OUT_OK && o != OUT_REJECTED)
        print_case(t, j, stdout);
    else if (t->verbose)
        print_case(t, j, stdout);
    fflush(stdout);
    cleanup(t, j);
    j->pid = 0;
    return true;
}

static const char *self_path(const char *argv0, char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    if (n > 0) {
        buf[n] = 0;
        return buf;
    }
    return argv0;
}

static void usage(void)
{
    printf("usage: saturn selftest --random N [--seed S] [--from I] [-j J] [--timeout SEC]\n"
           "                       [--exec SATURN] [-v]\n\n"
           "A stress test: draws N random valid configurations (cases I to I+N-1 of seed\n"
           "S; defaults 0 and 1) over every topology (torus, mesh, dragonfly, fattree,\n"
           "hyperx, slimfly, megafly; file graphs excepted), routing,\n"
           "switching mode, buffer option, workload, injection controller and thread\n"
           "count, and runs each as 'saturn run ... sim.check_invariants=true --json\n"
           "--series --by-generation' in a child process (J at a time, default 1),\n"
           "bounded by SEC seconds of wall-clock time (default 120). Networks larger\n"
           "than one 64-router block run again at another sim.threads: the records\n"
           "must be identical.\n"
           "Outcomes: ok; rejected (exit 2, one message, no output: a correct answer);\n"
           "and the failures: watchdog (exit 3), crash (a signal or a sanitizer report),\n"
           "hang (killed at the bound), invariant (an audit failed), mismatch (thread\n"
           "counts differ), error (anything else, such as output left by a failed run).\n"
           "Prints every failure with the command that reproduces it (-v: every case),\n"
           "then the counts; exit 0 when no case failed, 1 otherwise. A case depends\n"
           "on (S, its index) only: --from splits a large batch into parts. --exec\n"
           "SATURN runs the cases with another saturn binary (a sanitizer build, say).\n");
}

static bool parse_u64(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (end == v || *end || errno || v[0] == '-')
        return false;
    *out = x;
    return true;
}

int cmd_selftest(int argc, char **argv)
{
    uint64_t n = 0, from = 0, seed = 1;
    int jobs = 1;
    bool have_n = false;
    const char *exec = NULL;
    struct selftest t = {.timeout = 120};
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(w, "--help") || !strcmp(w, "-h")) {
            usage();
            return 0;
        } else if (!strcmp(w, "-v")) {
            t.verbose = true;
        } else if (v && !strcmp(w, "--random") && parse_u64(v, &n) && n <= 100000000) {
            have_n = true, i++;
        } else if (v && !strcmp(w, "--seed") && parse_u64(v, &seed)) {
            i++;
        } else if (v && !strcmp(w, "--from") && parse_u64(v, &from)) {
            i++;
        } else if (v && !strcmp(w, "-j")) {
            if ((jobs = cli_jobs_arg(v)) < 0)
                return EXIT_BAD_INPUT;
            i++;
        } else if (v && !strcmp(w, "--timeout") && (t.timeout = atof(v)) > 0) {
            i++;
        } else if (v && !strcmp(w, "--exec")) {
            exec = v, i++;
        } else {
            fprintf(stderr, "saturn: error: selftest: '%s'%s%s: not understood (saturn selftest --help)\n",
                    w, v ? " " : "", v && w[0] == '-' ? v : "");
            return EXIT_BAD_INPUT;
        }
    }
    if (!have_n) {
        fprintf(stderr, "saturn: error: selftest needs --random N (cases to draw)\n");
        return EXIT_BAD_INPUT;
    }
    char selfbuf[4096];
    t.self = exec ? exec : self_path(argv[-1], selfbuf, sizeof selfbuf); /* main passes argv + 1 */
    t.seed = seed;
    const char *tmp = getenv("TMPDIR");
    snprintf(t.dir, sizeof t.dir, "%s/saturn-selftest.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(t.dir)) {
        fprintf(stderr, "saturn: error: selftest: cannot make a scratch folder '%s': %s\n", t.dir,
                strerror(errno));
        return 1;
    }
    struct job *slots = calloc((size_t)jobs, sizeof *slots);
    if (!slots) {
        rmdir(t.dir);
        return 1;
    }
    double t0 = now_s();
    uint64_t next = from, end = from + n;
    int running = 0;
    while (next < end || running) {
        for (int s = 0; s < jobs && next < end; s++) {
            if (slots[s].pid)
                continue;
            struct job *j = &slots[s];
            memset(j, 0, sizeof *j);
            j->index = next++;
            draw_case(seed, j->index, &j->d);
            if (spawn(&t, j) != 0) {
                j->out = OUT_ERROR;
                snprintf(j->why, sizeof j->why, "cannot start a child: %s", strerror(errno));
                t.counts[OUT_ERROR]++;
                print_case(&t, j, stdout);
                continue;
            }
            running++;
        }
        unsigned doneby = 0, bad = 0; /* a line now and then on long batches */
        for (int o = 0; o < OUT_N; o++)
            doneby += t.counts[o], bad += o >= OUT_WATCHDOG ? t.counts[o] : 0;
        if (doneby && doneby % 500 == 0 && doneby != t.reported) {
            printf("selftest: %u of %llu cases done, %u failed, %.0f s\n", doneby,
                   (unsigned long long)n, bad, now_s() - t0);
            fflush(stdout);
            t.reported = doneby;
        }
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid > 0) {
            for (int s = 0; s < jobs; s++)
                if (slots[s].pid == pid && finish(&t, &slots[s], status, false))
                    running--;
            continue;
        }
        double now = now_s();
        for (int s = 0; s < jobs; s++) {
            struct job *j = &slots[s];
            if (j->pid && now - j->start > t.timeout) {
                kill(-j->pid, SIGKILL);
                kill(j->pid, SIGKILL);
                waitpid(j->pid, &status, 0);
                if (finish(&t, j, status, true))
                    running--;
            }
        }
        nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
    unsigned failed = 0;
    for (int o = OUT_WATCHDOG; o < OUT_N; o++)
        failed += t.counts[o];
    printf("selftest: seed %llu, cases %llu to %llu: %.1f s\n", (unsigned long long)seed,
           (unsigned long long)from, (unsigned long long)(end ? end - 1 : 0), now_s() - t0);
    printf("  outcomes:");
    for (int o = 0; o < OUT_N; o++)
        printf(" %s %u%s", outcome_names[o], t.counts[o], o + 1 < OUT_N ? "," : "\n");
    printf("  thread-count comparisons: %u\n", t.compared);
    static const char *const groups[] = {"topology", "routing", "switching", "workload",
                                         "control", "threads", NULL};
    for (int g = 0; groups[g]; g++) { /* what the ok cases covered */
        size_t gl = strlen(groups[g]);
        printf("  ok by %s:", groups[g]);
        for (int i = 0, first = 1; i < t.ncover; i++)
            if (!strncmp(t.cover[i].name, groups[g], gl) && t.cover[i].name[gl] == ' ') {
                printf("%s %s %u", first ? "" : ",", t.cover[i].name + gl + 1, t.cover[i].n);
                first = 0;
            }
        putchar('\n');
    }
    for (int i = 0; i < t.ncover; i++)
        free(t.cover[i].name);
    printf("selftest: %u failure%s\n", failed, failed == 1 ? "" : "s");
    free(slots);
    rmdir(t.dir);
    return failed ? 1 : 0;
}
