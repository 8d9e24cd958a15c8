/* saturn as a library: a load sweep of an 8x8 torus by hand, one steady
 * run per load, the configuration set key by key. Builds with the
 * installed library alone:
 *     cc embed.c $(pkg-config --cflags --libs saturn) -o embed
 * (statically: $(pkg-config --cflags --static --libs saturn) and
 * libsaturn.a). Arguments are key=value overrides: ./embed network.k=4 */
#include <stdio.h>
#include <string.h>

#include <saturn/saturn.h>

static int set(struct saturn_config *c, const char *key, const char *value)
{
    struct saturn_error err;
    if (saturn_config_set(c, key, value, NULL, 0, &err) == SATURN_OK)
        return 0;
    fprintf(stderr, "embed: %s\n", err.msg);
    return 1;
}

int main(int argc, char **argv)
{
    struct saturn_config *c = saturn_config_new();
    if (!c)
        return 1;
    int bad = set(c, "steady.warmup", "1000") || set(c, "steady.measure", "2000");
    for (int i = 1; i < argc && !bad; i++) { /* key=value */
        char key[128];
        const char *eq = strchr(argv[i], '=');
        if (!eq || (size_t)(eq - argv[i]) >= sizeof key) {
            fprintf(stderr, "embed: '%s' is not key=value\n", argv[i]);
            bad = 1;
            break;
        }
        snprintf(key, sizeof key, "%.*s", (int)(eq - argv[i]), argv[i]);
        bad = set(c, key, eq + 1);
    }
    printf("saturn %s\n%8s %9s %9s %10s\n", saturn_version(), "load", "offered", "accepted",
           "latency");
    for (int i = 1; i <= 4 && !bad; i++) {
        char rate[16];
        snprintf(rate, sizeof rate, "%.2f", 0.1 * i);
        struct saturn_results r;
        struct saturn_error err;
        if ((bad = set(c, "traffic.flit_rate", rate)))
            break;
        if (saturn_run(c, &r, &err) != SATURN_OK) {
            fprintf(stderr, "embed: %s\n", err.msg);
            bad = 1;
            break;
        }
        printf("%8s %9.4f %9.4f %10.2f%s\n", rate, r.offered, r.accepted, r.packet_latency.mean,
               r.saturated ? "  saturated" : "");
        saturn_results_free(&r);
    }
    saturn_config_free(c);
    return bad ? 2 : 0;
}
