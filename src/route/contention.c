/* Contention counters (contention.h). */
#include <stdlib.h>
#include <string.h>

#include "route/contention.h"
#include "route/dragonfly.h"

int contention_init(struct contention *c, const struct net *n)
{
    size_t ports = (size_t)n->topo.routers * (size_t)n->P;
    c->P = n->P;
    c->V = n->V;
    c->count = calloc(ports, sizeof *c->count);
    c->held = malloc(ports * (size_t)n->V);
    if (!c->count || !c->held)
        return SATURN_ENOMEM;
    memset(c->held, -1, ports * (size_t)n->V);
    return SATURN_OK;
}

void contention_free(struct contention *c)
{
    free(c->count);
    free(c->held);
    c->count = NULL;
    c->held = NULL;
}

int df_contention_choice(struct contention *c, const struct df_opts *o, const struct net *n,
                         uint32_t r, int in_port, int in_vc, const struct packet *p,
                         struct df_plan *plan, unsigned th)
{
    if (!df_contention_count(c, o, n, r, in_port, in_vc, p, plan, th))
        return -1;
    return df_contention_pick(c, o, n, r, p, plan, th);
}

int df_contention_pick(struct contention *c, const struct df_opts *o, const struct net *n,
                       uint32_t r, const struct packet *p, struct df_plan *plan, unsigned th)
{
    df_plan_options(n, o, r, p, plan);
    if (plan->nopt == 0)
        return -1;
    bool ok[64];
    for (int i = 0; i < plan->nopt; i++)
        ok[i] = contention_get(c, r, plan->opt[i].port) < th &&
                (!o->room || df_cand_open(n, r, &plan->opt[i], p->len));
    return df_pick(&n->router_rng[r], ok, plan->nopt);
}
