/* Sliced collectives (paper 003): slice sizes, link occupation on a run
 * traced by hand, T_e and t_d, schedules and intervals, and the chart. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/chart.h"
#include "saturn/io.h"
#include "support.h"

/* A ring of 4, tornado (c -> c + 1): every node sends one 8-flit packet
 * one hop along +. Traced by hand: a head enters its router at cycle 1
 * (injection latency 1) and crosses at once (no routing delay); the 8
 * flits take the + link in cycles 1..8; the tail reaches the next router
 * at 9, crosses to the ejection port at 9 and the node at 10. */
#define RING "network.k=4", "network.n=1", "router.vcs=3", "router.buf_flits=4", \
             "sim.workload=collective", "collective.packets=1", "traffic.pattern=tornado"

static struct saturn_results run(const char *const *kv, struct saturn_link_trace *chart)
{
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct saturn_sim *sim;
    struct saturn_results r;
    assert_int_equal(saturn_sim_create(c, &sim, &err), SATURN_OK);
    if (chart)
        saturn_sim_record_chart(sim);
    if (saturn_sim_run(sim, &r, &err))
        fail_msg("%s", err.msg);
    if (chart)
        assert_int_equal(saturn_sim_chart(sim, chart), SATURN_OK);
    saturn_sim_free(sim);
    saturn_config_free(c);
    return r;
}

static void slice_sizes(void **state)
{
    (void)state;
    const struct { const char *p, *s; uint64_t flits; } cases[] = {
        {"collective.payload=28", "collective.slices=4", 8},
        {"collective.payload=14", "collective.slices=2", 8},
        {"collective.payload=32", "collective.slices=16", 3},
        {"collective.payload=32", "collective.slices=5", 7},
        {"collective.payload=7", "collective.slices=1", 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct saturn_results r = run((const char *const[]){RING, cases[i].p, cases[i].s, NULL}, NULL);
        assert_int_equal(r.slice_flits, cases[i].flits);
        saturn_results_free(&r);
    }
}

static void occupation_by_hand(void **state)
{
    (void)state;
    struct saturn_results r = run((const char *const[]){RING, "traffic.packet_length=8", NULL}, NULL);
    assert_int_equal(r.duration, 10); /* t_d */
    assert_int_equal(r.thickness, 7); /* T_e = last - first = 8 - 1 */
    assert_int_equal(r.nlinks, 4);
    for (size_t i = 0; i < r.nlinks; i++) {
        assert_int_equal(r.links[i].port, 0); /* the + port */
        assert_int_equal(r.links[i].first, 1);
        assert_int_equal(r.links[i].last, 8);
        assert_int_equal(r.links[i].busy, 8);
    }
    saturn_results_free(&r);
}

/* collective.links = all: the nodes' channels count too. On the ring each
 * node injects its 8 flits in 8 cycles and receives 8: no longer than the
 * links, T_e stays 7. With every packet to one node, that node's ejection
 * channel is busy from the first arrival to the last, longer than any one
 * of the links into it. */
static void occupation_of_node_channels(void **state)
{
    (void)state;
    struct saturn_results a = run((const char *const[]){RING, "traffic.packet_length=8",
                                                        "collective.links=all", NULL}, NULL);
    assert_int_equal(a.thickness, 7);
    saturn_results_free(&a);
    uint64_t t[2];
    for (int all = 0; all < 2; all++) {
        struct saturn_results r = run((const char *const[]){"network.k=4", "sim.workload=collective",
                                                            "collective.packets=2",
                                                            "traffic.pattern=hotspot",
                                                            "traffic.hotspot_fraction=1",
                                                            all ? "collective.links=all" : NULL,
                                                            NULL}, NULL);
        t[all] = r.thickness;
        assert_true(r.thickness < r.duration);
        saturn_results_free(&r);
    }
    assert_true(t[1] > t[0]);
}

/* A schedule delays one node; an interval spaces a node's slices. */
static void schedules_and_intervals(void **state)
{
    (void)state;
    char path[] = "/tmp/saturn-sched-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "node,offset\n2,5\n");
    fclose(f);
    char key[64];
    snprintf(key, sizeof key, "collective.schedule=%s", path);
    struct saturn_results r = run((const char *const[]){RING, "traffic.packet_length=8", key, NULL}, NULL);
    for (size_t i = 0; i < r.nlinks; i++)
        assert_int_equal(r.links[i].first, r.links[i].router == 2 ? 6 : 1);
    assert_int_equal(r.duration, 15);
    assert_int_equal(r.thickness, 7);
    saturn_results_free(&r);
    /* two slices of 4 + 1 flits, 20 cycles apart: the second slice's 5
     * flits take the link at 21..25, so T_e = 25 - 1 */
    r = run((const char *const[]){RING, "collective.payload=8", "collective.slices=2",
                                  "collective.interval=20", NULL}, NULL);
    assert_int_equal(r.slice_flits, 5);
    assert_int_equal(r.links[0].first, 1);
    assert_int_equal(r.links[0].last, 25);
    assert_int_equal(r.links[0].busy, 10);
    assert_int_equal(r.thickness, 24);
    assert_int_equal(r.duration, 27);
    saturn_results_free(&r);
    /* a byte-order mark, a blank line before the header: accepted */
    f = fopen(path, "w");
    fprintf(f, "\xef\xbb\xbf\n# offsets\nnode,offset\n2,5\n");
    fclose(f);
    r = run((const char *const[]){RING, "traffic.packet_length=8", key, NULL}, NULL);
    assert_int_equal(r.duration, 15);
    saturn_results_free(&r);
    /* a node given twice names both lines */
    f = fopen(path, "w");
    fprintf(f, "node,offset\n1,2\n1,3\n");
    fclose(f);
    {
        struct saturn_config *c2 = test_config((const char *const[]){RING, key, NULL});
        struct saturn_error e2 = {0};
        assert_int_equal(saturn_run(c2, &r, &e2), SATURN_EINPUT);
        assert_non_null(strstr(e2.msg, "already has an offset (line 2)"));
        saturn_config_free(c2);
    }
    /* a bad schedule line names the file and line */
    f = fopen(path, "w");
    fprintf(f, "node,offset\n1,2\n9,1\n");
    fclose(f);
    struct saturn_config *c = test_config((const char *const[]){RING, key, NULL});
    struct saturn_error err = {0};
    assert_int_equal(saturn_run(c, &r, &err), SATURN_EINPUT);
    char want[128];
    snprintf(want, sizeof want, "%s:3:", path);
    assert_non_null(strstr(err.msg, want));
    saturn_config_free(c);
    unlink(path);
}

/* The chart of the hand-traced run: 8 links x 9 cycles; each + link red in
 * cycles 1..8, every other cell white. */
static void chart_of_a_tiny_run(void **state)
{
    (void)state;
    struct saturn_link_trace t;
    struct saturn_results r = run((const char *const[]){RING, "traffic.packet_length=8", NULL}, &t);
    saturn_results_free(&r);
    assert_int_equal(t.links, 8);
    assert_int_equal(t.cycles, 9);
    char path[] = "/tmp/saturn-chart-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    struct saturn_error err = {0};
    assert_int_equal(saturn_chart_png(path, &t, 1, &err), SATURN_OK);
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    assert_true(png_image_begin_read_from_file(&img, path));
    img.format = PNG_FORMAT_RGB;
    struct chart_layout lay; /* the cells sit inside the axes and the key */
    assert_int_equal(chart_layout(&t, 1, &lay), SATURN_OK);
    assert_int_equal(img.width, (uint32_t)lay.width);
    assert_int_equal(img.height, (uint32_t)lay.height);
    unsigned char *px = malloc(PNG_IMAGE_SIZE(img));
    assert_true(png_image_finish_read(&img, NULL, px, 0, NULL));
    uint8_t red[3], white[3];
    saturn_chart_colour(SATURN_CELL_SLICE0, red);
    saturn_chart_colour(SATURN_CELL_IDLE, white);
    for (uint32_t l = 0; l < 8; l++)
        for (uint32_t y = 0; y < 9; y++) {
            const unsigned char *p = &px[((y + lay.y0) * img.width + l + lay.x0) * 3];
            bool plus = t.port[l] == 0;
            const uint8_t *want_px = plus && y >= 1 && y <= 8 ? red : white;
            assert_memory_equal(p, want_px, 3);
        }
    free(px);
    unlink(path);
    saturn_link_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(slice_sizes),
        cmocka_unit_test(occupation_by_hand),
        cmocka_unit_test(occupation_of_node_channels),
        cmocka_unit_test(schedules_and_intervals),
        cmocka_unit_test(chart_of_a_tiny_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
