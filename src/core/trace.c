/* The link-by-time record owns three allocations: cells, routers, ports. */
#include <stdlib.h>
#include <string.h>

#include "saturn/trace.h"

void saturn_link_trace_free(struct saturn_link_trace *t)
{
    if (!t)
        return;
    free(t->cell);
    free(t->router);
    free(t->port);
    memset(t, 0, sizeof *t);
}
