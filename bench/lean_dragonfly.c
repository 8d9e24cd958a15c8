/* bench/lean_dragonfly.c: not saturn. The Dragonfly pair of bench/peers.sh
 * (p = h = 4, a = 8: 33 groups, 264 routers, 1,056 nodes; 10-cycle local
 * and 100-cycle global links and credits; 3 VCs x 256 flits; 16-flit
 * packets; minimal routing; uniform; Bernoulli at 0.25 flits/node/cycle)
 * written from scratch for speed alone, as bench/lean_torus.c is for the
 * torus pair: BookSim's input-queued router at speedup 1 (a head's route,
 * VC allocation, one-iteration iSLIP, the crossing and its credit) and
 * nothing else. An input VC holds whole packets in order (the upstream
 * output VC is held by one packet until its tail), kept as a ring of
 * packet ids with the front's and the back's counts, not a ring of flits;
 * each link is a FIFO of flits with a per-router mask of the ports whose
 * front arrives in each cycle (a wheel of 128 slots), credits alike. The
 * global links' arrangement is a consecutive one of this program's own
 * (channel c of group g reaches group g + c + 1), the VCs a phase each
 * (source group, global link, destination group). Globals: a standalone
 * program of one network. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TP 4 /* terminals a router */
#define A 8  /* routers a group */
#define H 4  /* global links a router */
#define G (A * H + 1)
#define NR (G * A)
#define NN (NR * TP)
#define P (TP + A - 1 + H) /* 15 */
#define V 3
#define B 256
#define PL 16
#define LLOC 10
#define LGLO 100
#define WH 128 /* wheel slots, > LGLO */
#define PKQ (B / PL) /* packets an input VC holds at most */
#define LQ 128       /* a link's FIFO, > LGLO */
#define NONE 0xff

struct ivcq { /* an input VC: whole packets in order */
    uint32_t pk[PKQ];
    uint16_t flits;  /* held */
    uint8_t front, npk, sent; /* ring front, packets, the front's flits sent */
    uint8_t outp, outv;
};
struct router {
    struct ivcq q[P * V];
    uint16_t cred[P * V]; /* output VCs' credits (terminal outputs: unbounded) */
    uint8_t busy[P * V];
    uint8_t in_rr[P], out_rr[P], acc_rr[P];
    uint16_t ne[P]; /* VCs holding flits, a port */
    uint16_t rp;    /* ports holding flits */
    uint8_t credv[P];
};
static struct router R[NR];
static int NBR[NR][P], NBP[NR][P], LAT[P];
/* links: a FIFO of flits a global output port; arrivals' masks by slot */
static uint32_t lq[NR * P][LQ];
static uint8_t lq_h[NR * P], lq_n[NR * P];
static uint16_t amask[WH][NR];
/* credits: a FIFO of VCs a global output port (the credit's destination) */
static uint8_t cq[NR * P][LQ];
static uint8_t cq_h[NR * P], cq_n[NR * P];
static uint16_t cmask[WH][NR];
static uint16_t pk_dst[1 << 20];
static uint32_t pk_t0[1 << 20];
static uint32_t next_pid = 1;
static uint32_t src_q[NN][64], src_h[NN], src_n[NN], src_seq[NN], src_vc[NN];
static uint16_t inj_cred[NN][V];
static uint8_t inj_busy[NN][V];
static uint64_t rng_s[NN];
static unsigned long long hops, delivered, lat_sum, dropped;

static inline uint64_t rnd(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}
static inline int local_port(int i, int j) { return TP + (j < i ? j : j - 1); }

/* minimal route of a head at router r to node d: output port and VC */
static inline void route(int r, int d, uint8_t *op, uint8_t *ov)
{
    const int g = r / A, i = r % A, rd = d / TP, gd = rd / A, id = rd % A;
    if (g == gd) {
        *op = (uint8_t)(i == id ? d % TP : local_port(i, id));
        *ov = 2;
        return;
    }
    const int c = (gd - g - 1 + G) % G, ic = c / H;
    if (i == ic) {
        *op = (uint8_t)(TP + A - 1 + c % H);
        *ov = 1;
    } else {
        *op = (uint8_t)local_port(i, ic);
        *ov = 0;
    }
}

/* a flit onto the link of router r's output op (or, op < TP, into router
 * r's terminal input port op from its node), arriving at t */
static inline void send(int r, int op, uint32_t fw, uint32_t t)
{
    const int d = NBR[r][op], dp = NBP[r][op], gl = r * P + op;
    lq[gl][(lq_h[gl] + lq_n[gl]++) & (LQ - 1)] = fw;
    amask[t & (WH - 1)][d] |= (uint16_t)(1u << dp);
}
static inline void credit(int r, int ip, int v, uint32_t t)
{ /* a slot of router r's input (ip, v) is free: to its upstream output */
    const int u = NBR[r][ip], uop = NBP[r][ip], gl = u * P + uop;
    cq[gl][(cq_h[gl] + cq_n[gl]++) & (LQ - 1)] = (uint8_t)v;
    cmask[t & (WH - 1)][u] |= (uint16_t)(1u << uop);
}

static void step(uint32_t now, double rate)
{
    const int slot = now & (WH - 1);
    for (int r = 0; r < NR; r++) {
        struct router *rt = &R[r];
        /* arrivals: each masked port's link front */
        for (unsigned m = amask[slot][r]; m; m &= m - 1) {
            const int p = __builtin_ctz(m);
            const int u = NBR[r][p], gl = u < 0 ? r * P + p : u * P + NBP[r][p];
            const uint32_t fw = lq[gl][lq_h[gl]];
            lq_h[gl] = (uint8_t)((lq_h[gl] + 1) & (LQ - 1));
            lq_n[gl]--;
            const int v = (fw >> 4) & 3, seq = fw & 15, i = p * V + v;
            struct ivcq *q = &rt->q[i];
            if (seq == 0)
                q->pk[(q->front + q->npk++) & (PKQ - 1)] = fw >> 6;
            q->flits++;
            rt->ne[p] |= (uint16_t)(1u << v);
            rt->rp |= (uint16_t)(1u << p);
        }
        amask[slot][r] = 0;
        for (unsigned m = cmask[slot][r]; m; m &= m - 1) {
            const int op = __builtin_ctz(m), gl = r * P + op;
            const int v = cq[gl][cq_h[gl]];
            cq_h[gl] = (uint8_t)((cq_h[gl] + 1) & (LQ - 1));
            cq_n[gl]--;
            rt->cred[op * V + v]++;
        }
        cmask[slot][r] = 0;
        /* requests */
        uint8_t vsel[P][P];
        uint16_t reqmask_out[P];
        unsigned outs = 0;
        for (unsigned pm = rt->rp; pm; pm &= pm - 1) {
            const int p = __builtin_ctz(pm);
            unsigned asked = 0;
            const unsigned ne = rt->ne[p], s0 = rt->in_rr[p];
            const unsigned rot0 = ((ne >> s0) | (ne << (V - s0))) & 7;
            for (unsigned rot = rot0; rot; rot &= rot - 1) {
                int v = __builtin_ctz(rot) + (int)s0;
                v -= v >= V ? V : 0;
                const int i = p * V + v;
                struct ivcq *q = &rt->q[i];
                if (q->outv == NONE) {
                    uint8_t op, ov;
                    route(r, pk_dst[q->pk[q->front] & 0xfffff], &op, &ov);
                    if (rt->busy[op * V + ov])
                        continue;
                    rt->busy[op * V + ov] = 1;
                    q->outp = op;
                    q->outv = ov;
                }
                const int op = q->outp;
                if (op >= TP && !rt->cred[op * V + q->outv])
                    continue;
                if (!(asked >> op & 1)) {
                    asked |= 1u << op;
                    vsel[p][op] = (uint8_t)v;
                    reqmask_out[op] = (outs >> op & 1) ? reqmask_out[op] | (uint16_t)(1u << p)
                                                       : (uint16_t)(1u << p);
                    outs |= 1u << op;
                }
            }
        }
        /* grant */
        uint16_t gr[P];
        unsigned gin = 0;
        for (unsigned om = outs; om; om &= om - 1) {
            const int op = __builtin_ctz(om);
            const unsigned m = reqmask_out[op], s0 = rt->out_rr[op];
            const unsigned rot = (m >> s0) | (m << (P - s0));
            int p = __builtin_ctz(rot & ((1u << P) - 1)) + (int)s0;
            p -= p >= P ? P : 0;
            gr[p] = (gin >> p & 1) ? gr[p] | (uint16_t)(1u << op) : (uint16_t)(1u << op);
            gin |= 1u << p;
        }
        /* accept and cross */
        for (; gin; gin &= gin - 1) {
            const int p = __builtin_ctz(gin);
            const unsigned s0 = rt->acc_rr[p], g = gr[p];
            const unsigned rot = (g >> s0) | (g << (P - s0));
            int op = __builtin_ctz(rot & ((1u << P) - 1)) + (int)s0;
            op -= op >= P ? P : 0;
            const int v = vsel[p][op], i = p * V + v;
            struct ivcq *q = &rt->q[i];
            const int ov = q->outv;
            const uint32_t pid = q->pk[q->front];
            const uint32_t seq = q->sent++;
            if (!--q->flits && !(rt->ne[p] &= (uint16_t)~(1u << v)))
                rt->rp &= (uint16_t)~(1u << p);
            rt->acc_rr[p] = (uint8_t)(op + 1 == P ? 0 : op + 1);
            rt->out_rr[op] = (uint8_t)(p + 1 == P ? 0 : p + 1);
            rt->in_rr[p] = (uint8_t)(v + 1 == V ? 0 : v + 1);
            if (p < TP) /* the node's injection VC */
                inj_cred[r * TP + p][v]++;
            else
                credit(r, p, v, now + (uint32_t)LAT[p]);
            hops++;
            if (op < TP) {
                if (seq == PL - 1) {
                    delivered++;
                    lat_sum += now - pk_t0[pid & 0xfffff];
                }
            } else {
                send(r, op, pid << 6 | (uint32_t)ov << 4 | seq, now + (uint32_t)LAT[op]);
                rt->cred[op * V + ov]--;
            }
            if (seq == PL - 1) {
                rt->busy[op * V + ov] = 0;
                q->outv = NONE;
                q->sent = 0;
                q->front = (uint8_t)((q->front + 1) & (PKQ - 1));
                q->npk--;
            }
        }
        /* the router's nodes */
        for (int t = 0; t < TP; t++) {
            const int nd = r * TP + t;
            if ((double)(rnd(&rng_s[nd]) >> 11) * 0x1.0p-53 < rate / PL) {
                const uint32_t pid = next_pid++;
                pk_dst[pid & 0xfffff] = (uint16_t)(rnd(&rng_s[nd]) % NN);
                pk_t0[pid & 0xfffff] = now;
                if (src_n[nd] < 64)
                    src_q[nd][(src_h[nd] + src_n[nd]++) & 63] = pid;
                else
                    dropped++;
            }
            if (!src_n[nd])
                continue;
            if (src_seq[nd] == 0 && src_vc[nd] == NONE)
                for (int v = 0; v < V; v++)
                    if (!inj_busy[nd][v]) {
                        src_vc[nd] = (uint32_t)v;
                        inj_busy[nd][v] = 1;
                        break;
                    }
            const uint32_t v = src_vc[nd];
            if (v == NONE || !inj_cred[nd][v])
                continue;
            inj_cred[nd][v]--;
            const uint32_t pid = src_q[nd][src_h[nd]];
            /* into the router's terminal input port t, next cycle */
            const int gl = r * P + t; /* (the terminal's "link": its own FIFO) */
            lq[gl][(lq_h[gl] + lq_n[gl]++) & (LQ - 1)] = pid << 6 | v << 4 | src_seq[nd];
            amask[(now + 1) & (WH - 1)][r] |= (uint16_t)(1u << t);
            if (++src_seq[nd] == PL) {
                src_seq[nd] = 0;
                inj_busy[nd][v] = 0;
                src_vc[nd] = NONE;
                src_h[nd] = (src_h[nd] + 1) & 63;
                src_n[nd]--;
            }
        }
    }
}

int main(int argc, char **argv)
{
    const double rate = argc > 1 ? atof(argv[1]) : 0.25;
    const uint32_t cycles = argc > 2 ? (uint32_t)atoi(argv[2]) : 20000;
    for (int r = 0; r < NR; r++) {
        const int g = r / A, i = r % A;
        for (int t = 0; t < TP; t++) { /* a terminal port: its node, both ways */
            NBR[r][t] = -1;
            NBP[r][t] = t;
            LAT[t] = 1;
        }
        for (int j = 0; j < A; j++)
            if (j != i) {
                const int p = local_port(i, j);
                NBR[r][p] = g * A + j;
                NBP[r][p] = local_port(j, i);
                LAT[p] = LLOC;
            }
        for (int k = 0; k < H; k++) {
            const int p = TP + A - 1 + k, c = i * H + k, g2 = (g + c + 1) % G, c2 = A * H - 1 - c;
            NBR[r][p] = g2 * A + c2 / H;
            NBP[r][p] = TP + A - 1 + c2 % H;
            LAT[p] = LGLO;
        }
        for (int x = 0; x < P * V; x++) {
            R[r].q[x].outv = NONE;
            R[r].cred[x] = B;
        }
    }
    for (int nd = 0; nd < NN; nd++) {
        for (int v = 0; v < V; v++)
            inj_cred[nd][v] = B;
        src_vc[nd] = NONE;
        rng_s[nd] = 0x9e3779b97f4a7c15ULL * (uint64_t)(nd + 1);
    }
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (uint32_t t = 0; t < cycles; t++)
        step(t, rate);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    const double s = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    const unsigned long long made = next_pid - 1 - dropped, in_window = delivered;
    const unsigned long long hops_window = hops, lat_window = lat_sum;
    uint32_t t = cycles; /* the drain, untimed */
    while (delivered < made && t < cycles + 100000)
        step(t++, 0.0);
    const unsigned long long drained = delivered;
    hops = hops_window;
    lat_sum = lat_window;
    delivered = in_window;
    printf("cycles %u  crossings %llu (%.1f a cycle)  delivered %llu packets (%.4f "
           "flits/node/cycle)  mean latency %.1f  dropped %llu\n",
           cycles, hops, (double)hops / cycles, delivered, (double)delivered * PL / NN / cycles,
           delivered ? (double)lat_sum / (double)delivered : 0.0, dropped);
    printf("drain: %llu of %llu packets made delivered%s\n", drained, made,
           drained == made ? "" : " (NOT ALL: a deadlock?)");
    printf("CPU %.3f s: %.4f ms a cycle, %.1f ns a crossing\n", s, 1e3 * s / cycles,
           1e9 * s / (double)hops);
    return drained == made ? 0 : 1;
}
