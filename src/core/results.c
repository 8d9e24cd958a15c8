/* Results own two allocations: the latency histogram and the link records. */
#include <stdlib.h>
#include <string.h>

#include "saturn/results.h"

void saturn_results_free(struct saturn_results *r)
{
    if (!r)
        return;
    free(r->hist);
    free(r->links);
    free(r->gen);
    memset(r, 0, sizeof *r);
}
