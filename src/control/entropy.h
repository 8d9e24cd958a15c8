/* Entropy throttling's decision rule, exposed for tests (entropy.c). */
#ifndef SATURN_ENTROPY_H
#define SATURN_ENTROPY_H

#include <stdbool.h>

/* The next throttle state of a node: nv, na the sums its router sees,
 * routers the router count, ron/roff/rn fractions (base: ron = roff). */
bool entropy_next_state(bool on, double nv, double na, double routers, double ron,
                        double roff, double rn);

#endif
