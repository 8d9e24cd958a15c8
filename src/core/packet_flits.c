#include "core/packet_flits.h"

#include <string.h>

uint32_t config_packet_flits(const struct saturn_config *cfg, const char **what)
{
    int64_t len = saturn_config_int(cfg, "traffic.packet_length");
    int64_t slices = saturn_config_int(cfg, "collective.slices");
    int64_t payload = saturn_config_int(cfg, "collective.payload");
    if (what)
        *what = "traffic.packet_length";
    if (strcmp(saturn_config_str(cfg, "sim.workload"), "collective") != 0 || (payload == 0 && slices == 1))
        return (uint32_t)len;
    if (what)
        *what = "floor(collective.payload / collective.slices) + 1";
    return (uint32_t)((payload ? payload : len - 1) / slices + 1);
}
