/* Routing policies by name: a new policy is one file and one line here. */
#include <string.h>

#include "route/route.h"

extern const struct route_ops route_dor;

static const struct route_ops *const policies[] = {
    &route_dor,
};

static const char *const algorithm_names[] = {"dor", NULL};

const struct saturn_param routing_params[] = {
    {"routing.algorithm", SATURN_PARAM_ENUM, "dor", 0, 0, algorithm_names,
     "routing policy: dor (dimension order, x first)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

const struct route_ops *route_find(const char *name)
{
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (strcmp(policies[i]->name, name) == 0)
            return policies[i];
    return NULL;
}
