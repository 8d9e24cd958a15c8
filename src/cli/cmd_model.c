/* saturn model: analytic predictions for a configuration. */
#include <math.h>
#include <string.h>

#include "cli/cli.h"

static void levitin(const struct saturn_config *c)
{
    double l = (double)saturn_config_int(c, "traffic.distance");
    double m = (double)saturn_config_int(c, "traffic.packet_length");
    double cr = saturn_levitin_lambda_cr(l, m);
    printf("Levitin & Rykalova mean-field model (paper 002), l = %g hops, m = %g flits:\n", l, m);
    printf("  lambda_cr = 4/(l m) = %.5f packets/node/cycle (the paper's conclusion: 2/(l m) = %.5f)\n",
           cr, 2.0 / (l * m));
    printf("  tau(lambda) = (l+1)(rho/(1-rho) + 3) + m, rho = lambda l m / 4\n");
    printf("    %10s %8s %10s\n", "lambda", "rho", "tau");
    for (int i = 0; i <= 9; i++) {
        double lam = cr * i / 10.0;
        printf("    %10.5f %8.2f %10.2f\n", lam, lam / cr, saturn_levitin_latency(lam, l, m));
    }
}

int cmd_model(int argc, char **argv)
{
    struct cli_args a;
    int rc = cli_parse(argc, argv, &a, false);
    if (!rc && !a.help)
        rc = cli_only(&a, "model", 0);
    if (rc || a.help) {
        if (a.help)
            printf("usage: saturn model [--preset NAME] [FILE.ini] [key=value ...]\n\n"
                   "Analytic predictions for a configuration, without simulating:\n"
                   "- throughput bounds in packets/node/cycle: the average channel load (any\n"
                   "  routing), the busiest channel under the configured routing (deterministic\n"
                   "  routing only), the injection channel (1/m) and the ejection channel of the\n"
                   "  busiest node; the smallest is the predicted saturation point, and the\n"
                   "  output names the resource that binds; for a minimal adaptive routing\n"
                   "  (nca, min off the Dragonfly) an estimate of its busiest channel with\n"
                   "  every choice split evenly (not a bound);\n"
                   "- for traffic.pattern = distance on a torus, Levitin & Rykalova's\n"
                   "  saturation point 4/(l m) and mean-field latency (paper 002);\n"
                   "- the memory estimate (what saturn run refuses up front, exit 2, when it\n"
                   "  exceeds the memory available, unless sim.memory_check = false).\n");
        cli_free(&a);
        return rc;
    }
    struct saturn_error err = {0};
    struct saturn_bounds b;
    if ((rc = saturn_bounds(a.cfg, &b, &err))) {
        rc = cli_fail(&err);
        cli_free(&a);
        return rc;
    }
    double m = (double)saturn_config_int(a.cfg, "traffic.packet_length");
    char shape[256];
    saturn_topology_describe(a.cfg, 0, shape, sizeof shape);
    printf("saturn %s model: %s %s", saturn_version(), saturn_config_str(a.cfg, "network.topology"),
           shape);
    printf(", %s routing, %s traffic, %g-flit packets, mean %.3f hops\n\n",
           saturn_config_str(a.cfg, "routing.algorithm"), saturn_config_str(a.cfg, "traffic.pattern"),
           m, b.mean_hops);
    printf("throughput bounds (packets/node/cycle; flits/node/cycle = x %g):\n", m);
    printf("  %-34s %.5f\n", "channels, average load (any routing)", b.channel_any);
    if (b.channel_routing > 0)
        printf("  %-34s %.5f\n", "channels, busiest under this routing", b.channel_routing);
    else if (b.channel_split > 0)
        printf("  %-34s %.5f (an estimate: its choices split evenly)\n",
               "channels, busiest under this routing", b.channel_split);
    else
        printf("  %-34s %s\n", "channels, busiest under this routing", "- (adaptive routing)");
    printf("  %-34s %.5f\n", "injection channel (1/m)", b.injection);
    printf("  %-34s %.5f (the busiest node receives %.2f x the mean)\n", "ejection channel",
           b.ejection, b.ejection_peak);
    printf("  %-34s %.5f packets = %.4f flits/node/cycle, bound by %s\n",
           "predicted saturation", b.predicted, b.predicted * m, b.binding);
    if (b.channel_split > 0 && b.channel_split < b.predicted - 1e-12)
        printf("  %-34s %.5f packets = %.4f flits/node/cycle if the routing splits its choices "
               "evenly\n", "estimated saturation", b.channel_split, b.channel_split * m);
    printf("\n");
    struct saturn_memory mem;
    if (saturn_memory_estimate(a.cfg, &mem, &err) == SATURN_OK) {
        char t[32], bu[32], v[32], p[32], o[32], av[32];
        const char *source;
        uint64_t avail = cli_available_memory(&source);
        cli_bytes(mem.total, t, sizeof t);
        cli_bytes(mem.buffers, bu, sizeof bu);
        cli_bytes(mem.vc_state, v, sizeof v);
        cli_bytes(mem.packets, p, sizeof p);
        cli_bytes(mem.other, o, sizeof o);
        cli_bytes(avail, av, sizeof av);
        printf("memory estimate: %s (buffers %s, VC state %s, packets %s, other %s); "
               "available %s (%s)\n\n", t, bu, v, p, o, avail ? av : "unknown", source);
    }
    if (!strcmp(saturn_config_str(a.cfg, "traffic.pattern"), "distance") &&
        !strcmp(saturn_config_str(a.cfg, "network.topology"), "torus"))
        levitin(a.cfg);
    cli_free(&a);
    return 0;
}
