/* saturn — a link-by-time record of a run (paper 003, Fig. 2): for every
 * network link (an output port with a link) and every cycle, what the
 * link did. */
#ifndef SATURN_TRACE_H
#define SATURN_TRACE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum saturn_cell {
    SATURN_CELL_IDLE = 0,    /* nothing used or wanted the link */
    SATURN_CELL_BLOCKED = 1, /* a flit wanted the link but could not take it */
    SATURN_CELL_SLICE0 = 2   /* a flit of slice j crossed it: SATURN_CELL_SLICE0 + j */
};

struct saturn_link_trace {
    uint32_t links;    /* chart columns, in router order then port order */
    uint64_t cycles;   /* chart rows: cycles 0 .. cycles - 1 */
    uint8_t *cell;     /* cycles x links, row-major: cell[t * links + link] */
    uint32_t *router;  /* per link: its router */
    uint8_t *port;     /* per link: its output port */
};

void saturn_link_trace_free(struct saturn_link_trace *t);

#ifdef __cplusplus
}
#endif
#endif
