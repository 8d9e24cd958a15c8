/* Slim Fly (Besta & Hoefler 2014): the McKay-Miller-Siran graph of
 * diameter 2 for a prime q = 4w + d, d = 1 or -1 (q = 3, 5, 7, 11, 13,
 * 17, 19, 23; routers are at most 64-port, which stops at 23).
 *
 * With xi a primitive element of GF(q), the generator sets are, for
 * d = 1: X = the even powers of xi, X' = the odd ones; for d = -1:
 * X = {xi^0, xi^2, .., xi^(2w-2)} u {xi^(2w-1), xi^(2w+1), .., xi^(4w-3)},
 * X' = {xi^1, xi^3, .., xi^(2w-1)} u {xi^(2w), xi^(2w+2), .., xi^(4w-2)}
 * (both closed under negation, so the graph is undirected). Routers
 * (s, a, b), s in {0, 1} and a, b in GF(q): 2 q^2 of them, id s q^2 + a q
 * + b. (0, x, y) ~ (0, x, y') when y - y' is in X; (1, m, c) ~ (1, m, c')
 * when c - c' is in X'; (0, x, y) ~ (1, m, c) when y = m x + c. Network
 * radix k' = (3q - d)/2: |X| = |X'| = (q - d)/2 ports to the router's own
 * column (port j to b + X[j]), then q ports to the other subgraph (port
 * |X| + m of (0, x, y) to (1, m, y - m x), arriving on its port |X| + x).
 * p nodes per router (slimfly.p; 0 = ceil(k'/2), the balanced choice). */
#include <stdio.h>
#include <stdlib.h>

#include "topo/topo_internal.h"

const struct saturn_param topo_slimfly_params[] = {
    {"slimfly.q", SATURN_PARAM_INT, "5", 3, 23, NULL,
     "slimfly: the prime q = 4w +- 1 of the MMS graph (2 q^2 routers of network radix "
     "(3q -+ 1)/2): 3, 5, 7, 11, 13, 17, 19 or 23"},
    {"slimfly.p", SATURN_PARAM_INT, "0", 0, 63, NULL,
     "slimfly: nodes per router; 0 = ceil(k'/2), k' the network radix (Besta & Hoefler's "
     "balanced concentration)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

static bool prime(int q)
{
    for (int d = 2; d * d <= q; d++)
        if (q % d == 0)
            return false;
    return q >= 2;
}

struct shape {
    int q, delta, radix, p;
};

static int read_shape(const struct saturn_config *cfg, struct shape *s, struct saturn_error *err)
{
    s->q = (int)saturn_config_int(cfg, "slimfly.q");
    if (!prime(s->q))
        return saturn_config_fail(cfg, "slimfly.q", err,
                                  "must be a prime (the MMS construction here works in GF(q) "
                                  "for prime q): 3, 5, 7, 11, 13, 17, 19 or 23");
    s->delta = s->q % 4 == 1 ? 1 : -1;
    s->radix = (3 * s->q - s->delta) / 2;
    s->p = (int)saturn_config_int(cfg, "slimfly.p");
    if (s->p == 0)
        s->p = (s->radix + 1) / 2;
    if (s->radix + s->p > 64)
        return saturn_config_fail(cfg, s->p == (s->radix + 1) / 2 ? "slimfly.q" : "slimfly.p",
                                  err,
                                  "a router has k' + p = %d + %d ports; saturn's routers have "
                                  "at most 64", s->radix, s->p);
    return SATURN_OK;
}

static int slimfly_size(const struct saturn_config *cfg, struct topo_size *s,
                        struct saturn_error *err)
{
    struct shape h;
    int rc = read_shape(cfg, &h, err);
    if (rc)
        return rc;
    s->routers = 2.0 * h.q * h.q;
    s->nodes = s->routers * h.p;
    s->radix = h.radix;
    s->conc = h.p;
    s->words = (5 * h.radix + 3) / 4 + (int)(s->routers / 4) + 1; /* adjacency, distances */
    return SATURN_OK;
}

/* The smallest primitive element of GF(q), q prime. */
static int primitive(int q)
{
    for (int g = 2; g < q; g++) {
        int x = 1, order = 0;
        do {
            x = x * g % q;
            order++;
        } while (x != 1);
        if (order == q - 1)
            return g;
    }
    return 1; /* q = 2 */
}

static int slimfly_build(struct topo *t, const struct saturn_config *cfg,
                         struct saturn_error *err)
{
    struct shape h;
    int rc = read_shape(cfg, &h, err);
    if (rc)
        return rc;
    const int q = h.q, half = (q - h.delta) / 2, w = (q - h.delta) / 4;
    int pw[64], X[2][32], neg[2][32];
    pw[0] = 1;
    for (int e = 1; e < q; e++)
        pw[e] = pw[e - 1] * primitive(q) % q;
    int nx = 0, nxp = 0;
    if (h.delta == 1) {
        for (int e = 0; e < q - 1; e += 2) {
            X[0][nx++] = pw[e];
            X[1][nxp++] = pw[e + 1];
        }
    } else {
        for (int e = 0; e <= 2 * w - 2; e += 2)
            X[0][nx++] = pw[e];
        for (int e = 2 * w - 1; e <= 4 * w - 3; e += 2)
            X[0][nx++] = pw[e];
        for (int e = 1; e <= 2 * w - 1; e += 2)
            X[1][nxp++] = pw[e];
        for (int e = 2 * w; e <= 4 * w - 2; e += 2)
            X[1][nxp++] = pw[e];
    }
    /* the index of -X[j] in X (the port back) */
    for (int s = 0; s < 2; s++)
        for (int j = 0; j < half; j++) {
            neg[s][j] = -1;
            for (int i = 0; i < half; i++)
                if ((X[s][i] + X[s][j]) % q == 0)
                    neg[s][j] = i;
            if (neg[s][j] < 0)
                return saturn_error_set(err, SATURN_EINTERNAL,
                                        "slimfly: generator set %d of q = %d not closed under "
                                        "negation", s, q);
        }
    t->sf_q = q;
    t->routers = 2u * (uint32_t)(q * q);
    t->radix = h.radix;
    t->conc = h.p;
    t->nodes = t->routers * (uint32_t)h.p;
    if (graph_alloc(t))
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory (topology)");
    const uint32_t qq = (uint32_t)(q * q);
    for (int s = 0; s < 2; s++)
        for (int a = 0; a < q; a++)
            for (int b = 0; b < q; b++) {
                uint32_t r = (uint32_t)s * qq + (uint32_t)(a * q + b);
                size_t at = (size_t)r * (size_t)t->radix;
                for (int j = 0; j < half; j++) {
                    t->adj[at + (size_t)j] = (uint32_t)s * qq + (uint32_t)(a * q + (b + X[s][j]) % q);
                    t->adj_port[at + (size_t)j] = (uint8_t)neg[s][j];
                }
                for (int o = 0; o < q; o++) { /* s = 0: o is m; s = 1: o is x */
                    int other = s == 0 ? ((b - o * a) % q + q) % q /* c = y - m x */
                                       : (a * o + b) % q;           /* y = m x + c */
                    t->adj[at + (size_t)(half + o)] =
                        (uint32_t)(1 - s) * qq + (uint32_t)(o * q + other);
                    t->adj_port[at + (size_t)(half + o)] = (uint8_t)(half + a);
                }
            }
    uint32_t from, to;
    if ((rc = graph_bfs(t, &from, &to)))
        return saturn_error_set(err, rc == SATURN_ENOMEM ? rc : SATURN_EINTERNAL,
                                "slimfly: %s", rc == SATURN_ENOMEM ? "out of memory"
                                                                   : "the graph is disconnected");
    return SATURN_OK;
}

static void slimfly_describe(const struct saturn_config *cfg, uint64_t nodes, char *buf,
                             size_t size)
{
    long long q = saturn_config_int(cfg, "slimfly.q"), p = saturn_config_int(cfg, "slimfly.p");
    int delta = q % 4 == 1 ? 1 : -1, radix = (int)(3 * q - delta) / 2;
    int at = snprintf(buf, size, "q=%lld p=%lld", q, p ? p : (long long)(radix + 1) / 2);
    if (nodes && at > 0 && (size_t)at < size)
        snprintf(buf + at, size - (size_t)at, " (%llu nodes, %lld routers of network radix %d)",
                 (unsigned long long)nodes, 2 * q * q, radix);
}

const struct topo_ops topo_slimfly_ops = {
    .name = "slimfly",
    .kind = TOPO_SLIMFLY,
    .build = slimfly_build,
    .size = slimfly_size,
    .link = graph_link,
    .distance = graph_distance,
    .diameter = graph_diameter,
    .uniform_bound = graph_uniform_bound,
    .min_ports = graph_min_ports,
    .describe = slimfly_describe,
};
