/* Results own one allocation: the latency histogram. */
#include <stdlib.h>
#include <string.h>

#include "saturn/results.h"

void saturn_results_free(struct saturn_results *r)
{
    if (!r)
        return;
    free(r->hist);
    memset(r, 0, sizeof *r);
}
