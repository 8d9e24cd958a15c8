/* bench/lean_torus.c: not saturn. A limit study for issue 21's goal 1 (run
 * by bench/lean-bound.sh): the matched torus pair of bench/peers.sh (16x16
 * torus, 4 VCs x 8 flits, 16-flit packets, 1-cycle links and credits, DOR
 * with dateline VC classes, uniform traffic, Bernoulli injection at 0.13
 * flits/node/cycle) written from scratch for that one configuration and for
 * speed alone, with the per-flit work of BookSim's input-queued router at
 * speedup 1 (a head's route, VC allocation, one-iteration iSLIP switch
 * allocation, the crossing and its credit) and nothing else: no pipeline
 * delays, no statistics beyond a count, no warm-up or drain, no checks, no
 * configuration. Its ring buffers and masks are the lean layout the earlier
 * sections of docs/PERFORMANCE.md asked for; its arrivals and credits go, as
 * saturn's engine sends them, into a list of the next cycle in the order
 * sent, taken in a pass of their own before the routers' cycle (the sender
 * writes no line of the next router). How fast it runs is a floor for a
 * flit-level engine of this model on the machine; the numbers it simulates
 * are not checked against anything but themselves (throughput equal to the
 * load below saturation, every packet delivered). With -DREGISTERS they go
 * instead into double-buffered link and credit registers of the receiving
 * router, which absorbs its own as its cycle starts (a hop then touches the
 * downstream router's state once), and with -DREGISTERS -DSPLIT_PHASES the
 * registers are absorbed in a pass of their own: the same results, to
 * measure what each placement is worth (the lists are the fastest of the
 * three here). Globals: a standalone program of one network. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define K 16
#define NR (K * K)
#define P 5
#define V 4
#define B 8
#define PL 16
#define LOCAL 4
#define NONE 0xff

typedef uint32_t flit; /* pid << 4 | seq */

struct router {
    uint8_t cnt[P * V], head[P * V], outp[P * V], outv[P * V];
    uint8_t cred[P * V], busy[P * V], cls[P * V];
    uint8_t in_rr[P], out_rr[P], acc_rr[P], va_rr[P];
    uint8_t ne[P], rp;
    flit buf[P * V][B];
};

static struct router R[NR];
#ifdef REGISTERS
/* link and credit registers, double-buffered by the cycle's parity */
static flit arr_f[2][NR][P];
static uint8_t arr_v[2][NR][P], arr_m[2][NR];
static uint8_t cr_v[2][NR][P], cr_m[2][NR]; /* per output port: credited VC */
#else
/* the lists of arrivals and credits, double-buffered by the cycle's parity:
 * an arrival's router, port and VC, and its flit; a credit's router and
 * output VC */
static uint32_t arr_q[2][NR * P][2], cr_q[2][NR * P], arr_qn[2], cr_qn[2];
#endif
static uint16_t pk_dst[1 << 20], pk_src[1 << 20];
static uint32_t pk_t0[1 << 20];
static uint32_t next_pid = 1;
/* sources */
static uint32_t src_q[NR][64], src_h[NR], src_n[NR], src_seq[NR], src_vc[NR];
static uint8_t inj_cred[NR][V], inj_busy[NR][V];
static uint64_t rng_s[NR];
static uint64_t hops, delivered, lat_sum, dropped;

static inline uint64_t rnd(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}
static inline int nbr(int r, int p)
{
    int x = r % K, y = r / K;
    switch (p) {
    case 0: x = (x + 1) % K; break;
    case 1: x = (x + K - 1) % K; break;
    case 2: y = (y + 1) % K; break;
    default: y = (y + K - 1) % K; break;
    }
    return y * K + x;
}
static int NB[NR][P]; /* neighbour through port p; its input port is p ^ 1 */

/* DOR: output port and VC class of a head at router r */
static inline void route(int r, uint32_t pid, uint8_t *op, uint8_t *cls)
{
    const int d = pk_dst[pid & 0xfffff], s = pk_src[pid & 0xfffff];
    const int x = r % K, y = r / K, dx = d % K, dy = d / K;
    if (x != dx) {
        int fwd = (dx - x + K) % K;
        int plus = fwd <= K / 2;
        *op = plus ? 0 : 1;
        int sx = s % K;
        /* class 1 once the packet wraps in this dimension */
        int wrapped = plus ? (x < sx || x == K - 1) : (x > sx || x == 0);
        *cls = (uint8_t)wrapped;
    } else if (y != dy) {
        int fwd = (dy - y + K) % K;
        int plus = fwd <= K / 2;
        *op = plus ? 2 : 3;
        int sy = s / K;
        int wrapped = plus ? (y < sy || y == K - 1) : (y > sy || y == 0);
        *cls = (uint8_t)wrapped;
    } else {
        *op = LOCAL;
        *cls = 0;
    }
}

#ifdef REGISTERS
/* router r's arrivals and credits of this cycle (register parity cur), into its state */
static inline void absorb(struct router *rt, int r, int cur)
{
    /* arrivals */
    for (unsigned m = arr_m[cur][r]; m; m &= m - 1) {
        const int p = __builtin_ctz(m), v = arr_v[cur][r][p], i = p * V + v;
        rt->buf[i][(rt->head[i] + rt->cnt[i]) & (B - 1)] = arr_f[cur][r][p];
        rt->cnt[i]++;
        rt->ne[p] |= (uint8_t)(1u << v);
        rt->rp |= (uint8_t)(1u << p);
    }
    /* credits */
    for (unsigned m = cr_m[cur][r]; m; m &= m - 1) {
        const int op = __builtin_ctz(m);
        rt->cred[op * V + cr_v[cur][r][op]]++;
    }
}
/* the senders' side: an arrival at input VC (p, v) of router d, a credit
 * for output VC v of port op of router u, next cycle */
#define SEND_ARRIVAL(nx, d, p, v, f)                                                              \
    do {                                                                                          \
        arr_m[nx][d] |= (uint8_t)(1u << (p));                                                     \
        arr_v[nx][d][p] = (uint8_t)(v);                                                           \
        arr_f[nx][d][p] = (f);                                                                    \
    } while (0)
#define SEND_CREDIT(nx, u, op, v)                                                                 \
    do {                                                                                          \
        cr_m[nx][u] |= (uint8_t)(1u << (op));                                                     \
        cr_v[nx][u][op] = (uint8_t)(v);                                                           \
    } while (0)
#else
/* the lists of this cycle into the routers' state (absorb's work) */
static void absorb_lists(int cur)
{
    for (uint32_t k = 0; k < arr_qn[cur]; k++) {
        const uint32_t x = arr_q[cur][k][0], r = x >> 8, p = x >> 4 & 15, v = x & 15;
        struct router *rt = &R[r];
        const int i = (int)(p * V + v);
        rt->buf[i][(rt->head[i] + rt->cnt[i]) & (B - 1)] = arr_q[cur][k][1];
        rt->cnt[i]++;
        rt->ne[p] |= (uint8_t)(1u << v);
        rt->rp |= (uint8_t)(1u << p);
    }
    for (uint32_t k = 0; k < cr_qn[cur]; k++) {
        const uint32_t x = cr_q[cur][k];
        R[x >> 8].cred[x & 0xff]++;
    }
    arr_qn[cur] = cr_qn[cur] = 0;
}
/* the senders' side: an arrival at input VC (p, v) of router d, a credit
 * for output VC v of port op of router u, next cycle */
#define SEND_ARRIVAL(nx, d, p, v, f)                                                              \
    do {                                                                                          \
        uint32_t *e_ = arr_q[nx][arr_qn[nx]++];                                                   \
        e_[0] = (uint32_t)(d) << 8 | (uint32_t)(p) << 4 | (uint32_t)(v);                          \
        e_[1] = (f);                                                                              \
    } while (0)
#define SEND_CREDIT(nx, u, op, v) (cr_q[nx][cr_qn[nx]++] = (uint32_t)(u) << 8 | (uint32_t)((op) * V + (v)))
#endif

static void step(uint32_t now, double rate)
{
    const int cur = now & 1, nxt = cur ^ 1;
#ifndef REGISTERS
    absorb_lists(cur);
#else
    memset(arr_m[nxt], 0, sizeof arr_m[nxt]);
    memset(cr_m[nxt], 0, sizeof cr_m[nxt]);
#endif
#if defined REGISTERS && defined SPLIT_PHASES
    /* every router's registers in a pass of their own before the routers'
     * (saturn's engine takes its lists so, not registers) */
    for (int r = 0; r < NR; r++)
        absorb(&R[r], r, cur);
#endif
    for (int r = 0; r < NR; r++) {
        struct router *rt = &R[r];
#if defined REGISTERS && !defined SPLIT_PHASES
        absorb(rt, r, cur);
#endif
        /* route and VC-allocate heads; switch requests */
        uint8_t req[P], vsel[P][P];
        unsigned reqmask_out[P], outs = 0;
        for (unsigned pm = rt->rp; pm; pm &= pm - 1) {
            const int p = __builtin_ctz(pm);
            const unsigned ne = rt->ne[p], s0 = rt->in_rr[p];
            req[p] = 0;
            for (unsigned rot = ((ne >> s0) | (ne << (V - s0))) & 15; rot; rot &= rot - 1) {
                const int v = (int)((__builtin_ctz(rot) + s0) & (V - 1)), i = p * V + v;
                if (rt->outv[i] == NONE) {
                    const flit f = rt->buf[i][rt->head[i]];
                    if (rt->outp[i] == NONE)
                        route(r, f >> 4, &rt->outp[i], &rt->cls[i]);
                    const int op = rt->outp[i], cls = rt->cls[i];
                    const int base = op == LOCAL ? 0 : cls * 2, nv = op == LOCAL ? V : 2;
                    for (int j = 0; j < nv; j++) {
                        const int ov = base + ((rt->va_rr[op] + j) & (nv - 1));
                        if (!rt->busy[op * V + ov]) {
                            rt->busy[op * V + ov] = 1;
                            rt->outv[i] = (uint8_t)ov;
                            rt->va_rr[op] = (uint8_t)(rt->va_rr[op] + 1);
                            break;
                        }
                    }
                    if (rt->outv[i] == NONE)
                        continue;
                }
                const int op = rt->outp[i];
                if (op != LOCAL && !rt->cred[op * V + rt->outv[i]])
                    continue;
                if (!(req[p] >> op & 1)) {
                    req[p] |= (uint8_t)(1u << op);
                    vsel[p][op] = (uint8_t)v;
                    reqmask_out[op] = (outs >> op & 1) ? reqmask_out[op] | 1u << p : 1u << p;
                    outs |= 1u << op;
                }
            }
        }
        /* grant: each asked output one of its asking inputs, from its pointer */
        unsigned gr[P], gin = 0;
        for (unsigned om = outs; om; om &= om - 1) {
            const int op = __builtin_ctz(om);
            const unsigned m = reqmask_out[op];
            const unsigned s0 = rt->out_rr[op], rot = (m >> s0) | (m << (P - s0));
            int p = (int)(__builtin_ctz(rot & 31) + s0);
            p -= p >= P ? P : 0;
            gr[p] = (gin >> p & 1) ? gr[p] | 1u << op : 1u << op;
            gin |= 1u << p;
        }
        /* accept and cross */
        for (; gin; gin &= gin - 1) {
            const int p = __builtin_ctz(gin);
            const unsigned s0 = rt->acc_rr[p], rot = (gr[p] >> s0) | (gr[p] << (P - s0));
            int op = (int)(__builtin_ctz(rot & 31) + s0);
            op -= op >= P ? P : 0;
            const int v = vsel[p][op], i = p * V + v, ov = rt->outv[i];
            const flit f = rt->buf[i][rt->head[i]];
            rt->head[i] = (rt->head[i] + 1) & (B - 1);
            if (!--rt->cnt[i] && !(rt->ne[p] &= (uint8_t)~(1u << v)))
                rt->rp &= (uint8_t)~(1u << p);
            rt->acc_rr[p] = (uint8_t)(op + 1 == P ? 0 : op + 1);
            rt->out_rr[op] = (uint8_t)(p + 1 == P ? 0 : p + 1);
            rt->in_rr[p] = (uint8_t)((v + 1) & (V - 1));
            /* credit upstream */
            if (p == LOCAL) {
                inj_cred[r][v]++;
            } else {
                SEND_CREDIT(nxt, NB[r][p], p ^ 1, v);
            }
            hops++;
            if (op == LOCAL) {
                if ((f & 15) == PL - 1) {
                    delivered++;
                    lat_sum += now - pk_t0[(f >> 4) & 0xfffff];
                }
            } else {
                SEND_ARRIVAL(nxt, NB[r][op], op ^ 1, ov, f);
                rt->cred[op * V + ov]--;
            }
            if ((f & 15) == PL - 1) {
                rt->busy[op * V + ov] = 0;
                rt->outp[i] = NONE;
                rt->outv[i] = NONE;
            }
        }
        /* the node: a new packet, and a flit into the router's local port */
        if ((double)(rnd(&rng_s[r]) >> 11) * 0x1.0p-53 < rate / PL) {
            uint32_t pid = next_pid++;
            pk_src[pid & 0xfffff] = (uint16_t)r;
            pk_dst[pid & 0xfffff] = (uint16_t)(rnd(&rng_s[r]) % NR);
            pk_t0[pid & 0xfffff] = now;
            if (src_n[r] < 64)
                src_q[r][(src_h[r] + src_n[r]++) & 63] = pid;
            else
                dropped++;
        }
        if (src_n[r]) {
            const uint32_t pid = src_q[r][src_h[r]];
            if (src_seq[r] == 0 && src_vc[r] == NONE) {
                for (int v = 0; v < V; v++)
                    if (!inj_busy[r][v] && inj_cred[r][v] == B) {
                        src_vc[r] = (uint32_t)v;
                        inj_busy[r][v] = 1;
                        break;
                    }
            }
            const uint32_t v = src_vc[r];
            if (v != NONE && inj_cred[r][v]) {
                inj_cred[r][v]--;
                SEND_ARRIVAL(nxt, r, LOCAL, v, pid << 4 | src_seq[r]);
                if (++src_seq[r] == PL) {
                    src_seq[r] = 0;
                    inj_busy[r][v] = 0;
                    src_vc[r] = NONE;
                    src_h[r] = (src_h[r] + 1) & 63;
                    src_n[r]--;
                }
            }
        }
    }
}

int main(int argc, char **argv)
{
    const double rate = argc > 1 ? atof(argv[1]) : 0.13;
    const uint32_t cycles = argc > 2 ? (uint32_t)atoi(argv[2]) : 20000;
    for (int r = 0; r < NR; r++) {
        for (int p = 0; p < P; p++)
            NB[r][p] = p == LOCAL ? r : nbr(r, p);
        for (int i = 0; i < P * V; i++) {
            R[r].outp[i] = R[r].outv[i] = NONE;
            R[r].cred[i] = B;
        }
        for (int v = 0; v < V; v++)
            inj_cred[r][v] = B;
        src_vc[r] = NONE;
        rng_s[r] = 0x9e3779b97f4a7c15ULL * (uint64_t)(r + 1);
    }
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (uint32_t t = 0; t < cycles; t++)
        step(t, rate);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    const double s = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    const unsigned long long made = next_pid - 1 - dropped, in_window = delivered;
    const unsigned long long hops_window = hops, lat_window = lat_sum;
    uint32_t t = cycles; /* the drain, untimed: every packet made reaches its node */
    while (delivered < made && t < cycles + 100000)
        step(t++, 0.0);
    hops = hops_window;
    lat_sum = lat_window;
    const unsigned long long drained = delivered;
    delivered = in_window;
    printf("cycles %u  crossings %llu (%.1f a cycle)  delivered %llu packets (%.4f flits/node/cycle)"
           "  mean latency %.1f  dropped %llu\n",
           cycles, (unsigned long long)hops, (double)hops / cycles, (unsigned long long)delivered,
           (double)delivered * PL / NR / cycles, delivered ? (double)lat_sum / delivered : 0.0,
           (unsigned long long)dropped);
    printf("drain: %llu of %llu packets made delivered%s\n", drained, made,
           drained == made ? "" : " (NOT ALL: a deadlock?)");
    printf("CPU %.3f s: %.4f ms a cycle, %.1f ns a crossing\n", s, 1e3 * s / cycles,
           1e9 * s / (double)hops);
    return drained == made ? 0 : 1;
}
