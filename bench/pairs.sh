# shellcheck shell=bash
# The matched pairs of bench/peers.sh (issue 21), sourced by it and by
# bench/stream-bound.sh: BookSim 2's configuration keys (*_bs, written into
# its config file) and saturn's arguments (*_sat) for each.
# shellcheck disable=SC2034  # (used by the scripts that source it)
torus_bs=(topology=torus k=16 n=2 use_noc_latency=0 routing_function=dim_order num_vcs=4
          vc_buf_size=8 packet_size=16 traffic=uniform injection_rate_uses_flits=1
          injection_rate=0.13)
torus_sat=(--preset booksim-iq network.k=16 network.n=2 router.vcs=4 router.buf_flits=8
           traffic.packet_length=16 traffic.flit_rate=0.13)
df_bs=(topology=dragonflynew k=4 n=1 routing_function=min num_vcs=3 vc_buf_size=256
       packet_size=16 traffic=uniform injection_rate_uses_flits=1 injection_rate=0.25)
df_sat=(--preset booksim-iq network.topology=dragonfly dragonfly.p=4 dragonfly.a=8
        dragonfly.h=4 dragonfly.arrangement=consecutive dragonfly.local_latency=10
        dragonfly.global_latency=100 router.vcs=3 dragonfly.local_vcs=3 dragonfly.global_vcs=3
        router.buf_flits=256 dragonfly.global_buf_flits=256 routing.algorithm=booksim_min
        routing.reroute=once traffic.packet_length=16 traffic.flit_rate=0.25)
