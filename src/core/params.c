/* The registry: every module's parameter table, in the order
 * `saturn config --list` prints them. A new policy adds one line here. */
#include <stddef.h>

#include "core/params.h"

extern const struct saturn_param topo_params[];
extern const struct saturn_param topo_fattree_params[];
extern const struct saturn_param topo_hyperx_params[];
extern const struct saturn_param topo_file_params[];
extern const struct saturn_param topo_slimfly_params[];
extern const struct saturn_param topo_megafly_params[];
extern const struct saturn_param route_graph_params[];
extern const struct saturn_param router_params[];
extern const struct saturn_param routing_params[];
extern const struct saturn_param route_dor_params[];
extern const struct saturn_param route_duato_params[];
extern const struct saturn_param disha_lane_params[];
extern const struct saturn_param route_val_params[];
extern const struct saturn_param route_ugal_params[];
extern const struct saturn_param route_pb_params[];
extern const struct saturn_param route_olm_params[];
extern const struct saturn_param route_base_params[];
extern const struct saturn_param route_hybrid_params[];
extern const struct saturn_param route_ectn_params[];
extern const struct saturn_param route_dragonfly_params[];
extern const struct saturn_param pattern_params[];
extern const struct saturn_param traffic_params[];
extern const struct saturn_param sim_params[];
extern const struct saturn_param steady_params[];
extern const struct saturn_param collective_params[];
extern const struct saturn_param curve_params[];
extern const struct saturn_param control_params[];
extern const struct saturn_param entropy_params[];
extern const struct saturn_param gather_params[];
extern const struct saturn_param alo_params[];
extern const struct saturn_param static_params[];
extern const struct saturn_param selftune_params[];
extern const struct saturn_param ramp_params[];
extern const struct saturn_param phases_params[];
extern const struct saturn_param trace_params[];
extern const struct saturn_param cupstack_params[];

static const struct saturn_param *const tables[] = {
    topo_params,
    topo_fattree_params,
    topo_hyperx_params,
    topo_file_params,
    topo_slimfly_params,
    topo_megafly_params,
    router_params, routing_params, route_dor_params, route_duato_params,
    disha_lane_params,
    route_val_params, route_ugal_params, route_pb_params, route_olm_params, route_base_params,
    route_hybrid_params, route_ectn_params, route_dragonfly_params,
    route_graph_params,
    pattern_params, traffic_params, sim_params,
    control_params, entropy_params, gather_params, static_params, selftune_params, alo_params,
    steady_params, collective_params, ramp_params, phases_params, curve_params, cupstack_params,
    trace_params,
};

size_t params_table_count(void) { return sizeof tables / sizeof tables[0]; }
const struct saturn_param *params_table(size_t i) { return tables[i]; }
