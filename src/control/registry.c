/* Injection-control policies by name. */
#include <string.h>

#include "control/control.h"

extern const struct ctl_ops ctl_noth, ctl_base, ctl_hyst, ctl_gtx, ctl_gta, ctl_static,
    ctl_selftune, ctl_alo;

static const struct ctl_ops *const policies[] = {
    &ctl_noth, &ctl_base, &ctl_hyst, &ctl_gtx, &ctl_gta, &ctl_static, &ctl_selftune, &ctl_alo,
};

static const char *const model_names[] = {"noth", "base",   "hyst",     "gt.x",
                                          "gt.a", "static", "selftune", "alo", NULL};

const struct saturn_param control_params[] = {
    {"control.model", SATURN_PARAM_ENUM, "noth", 0, 0, model_names,
     "injection control: noth (none); entropy throttling base(Rth,Rn), hyst(Ron,Roff,Rn), "
     "gt.x / gt.a (hyst + fixed / random guard time) (entropy.*); global full-buffer "
     "threshold: static (static.*, gather.*), selftune (self-tuned, selftune.*, gather.*); "
     "alo (At-Least-One: a free VC on every useful channel or a wholly free one)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

const struct ctl_ops *ctl_find(const char *name)
{
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (strcmp(policies[i]->name, name) == 0)
            return policies[i];
    return NULL;
}

/* noth: no throttling. It observes nothing and draws nothing, so a run
 * with it is the run without a controller, bit for bit. */
const struct ctl_ops ctl_noth = {.name = "noth"};
