/* Slim Fly (Besta & Hoefler 2014): the McKay-Miller-Siran graph of
 * diameter 2 for a prime power q = 4w + d, d in {-1, 0, 1} (q = 3, 4, 5,
 * 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32, 37, 41; routers
 * have at most 64 ports, which stops at 41, and from 29 on only with
 * fewer nodes than the balanced slimfly.p). GF(q) is gf.c's.
 *
 * With xi a primitive element of GF(q), the generator sets are, for
 * d = 1: X = the even powers of xi, X' = the odd ones; for d = -1:
 * X = {xi^0, xi^2, .., xi^(2w-2)} u {xi^(2w-1), xi^(2w+1), .., xi^(4w-3)},
 * X' = {xi^1, xi^3, .., xi^(2w-1)} u {xi^(2w), xi^(2w+2), .., xi^(4w-2)};
 * for d = 0 (q = 2^m): X = {xi^0, xi^2, .., xi^(q-2)}, X' = {xi^1, xi^3,
 * .., xi^(q-1)} (xi^(q-1) = 1 is in both). All are closed under negation
 * (for d = 0 trivially: -x = x in characteristic 2), so the graph is
 * undirected. Routers (s, a, b), s in {0, 1} and a, b in GF(q): 2 q^2 of
 * them, id s q^2 + a q + b (a, b gf.c's integers). (0, x, y) ~ (0, x, y')
 * when y - y' is in X; (1, m, c) ~ (1, m, c') when c - c' is in X';
 * (0, x, y) ~ (1, m, c) when y = m x + c. Network radix k' = (3q - d)/2:
 * |X| = |X'| = (q - d)/2 ports to the router's own column (port j to
 * b + X[j]), then q ports to the other subgraph (port |X| + m of
 * (0, x, y) to (1, m, y - m x), arriving on its port |X| + x). p nodes per
 * router (slimfly.p; 0 = ceil(k'/2), the balanced choice). */
#include <stdio.h>
#include <stdlib.h>

#include "topo/topo_internal.h"

const struct saturn_param topo_slimfly_params[] = {
    {"slimfly.q", SATURN_PARAM_INT, "5", 2, 41, NULL,
     "slimfly: the prime power q = 4w + d, d in {-1, 0, 1}, of the MMS graph (2 q^2 routers "
     "of network radix (3q - d)/2): 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, "
     "31, 32, 37 or 41"},
    {"slimfly.p", SATURN_PARAM_INT, "0", 0, 63, NULL,
     "slimfly: nodes per router; 0 = ceil(k'/2), k' the network radix (Besta & Hoefler's "
     "balanced concentration)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

/* d of q = 4w + d; 2 when there is none (q = 2 mod 4) */
static int sf_delta(long long q)
{
    return q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : q % 4 == 0 ? 0 : 2;
}

struct shape {
    int q, delta, radix, p;
};

static int read_shape(const struct saturn_config *cfg, struct shape *s, struct saturn_error *err)
{
    s->q = (int)saturn_config_int(cfg, "slimfly.q");
    struct gf f;
    if (gf_init(&f, s->q))
        return saturn_config_fail(cfg, "slimfly.q", err,
                                  "must be a prime power p^m (the MMS construction works in "
                                  "the field GF(q), which exists only for those): 3, 4, 5, 7, "
                                  "8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32, 37 or 41");
    s->delta = sf_delta(s->q);
    if (s->delta == 2)
        return saturn_config_fail(cfg, "slimfly.q", err,
                                  "%d = 2 mod 4 is not 4w + d for any d in {-1, 0, 1} (the MMS "
                                  "construction needs one); 3, 4, 5, 7, 8, 9, ...", s->q);
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

static int slimfly_build(struct topo *t, const struct saturn_config *cfg,
                         struct saturn_error *err)
{
    struct shape h;
    int rc = read_shape(cfg, &h, err);
    if (rc)
        return rc;
    const int q = h.q, half = (q - h.delta) / 2, w = (q - h.delta) / 4;
    struct gf f;
    gf_init(&f, q); /* read_shape checked it */
    int pw[GF_MAX], X[2][GF_MAX / 2 + 1], neg[2][GF_MAX / 2 + 1];
    pw[0] = 1;
    for (int e = 1; e < q; e++)
        pw[e] = f.mul[pw[e - 1]][f.xi];
    int nx = 0, nxp = 0;
    if (h.delta >= 0) { /* d = 0: the last odd power is xi^(q-1) = pw[q-1] = 1 */
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
                if (f.add[X[s][i]][X[s][j]] == 0)
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
                    t->adj[at + (size_t)j] =
                        (uint32_t)s * qq + (uint32_t)(a * q + f.add[b][X[s][j]]);
                    t->adj_port[at + (size_t)j] = (uint8_t)neg[s][j];
                }
                for (int o = 0; o < q; o++) { /* s = 0: o is m; s = 1: o is x */
                    int other = s == 0 ? f.add[b][f.neg[f.mul[o][a]]] /* c = y - m x */
                                       : f.add[f.mul[a][o]][b];           /* y = m x + c */
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
    int radix = (int)(3 * q - sf_delta(q)) / 2;
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
