/* Space-time charts drawn with cairo as PNG and SVG (src/io/chart.c) and
 * the link trace's free (src/core/trace.c). Images are read back with
 * libpng's png_image API; files live in a fresh temporary folder per test.
 * Cells are found through the chart's layout (io/chart.h). */
#define _GNU_SOURCE /* mkdtemp */
#include <dirent.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/chart.h"
#include "support.h"
#include "saturn/io.h"
#include "saturn/trace.h"


static const char *in_dir(const struct test_dir *d, const char *name)
{
    static char path[600];
    snprintf(path, sizeof path, "%s/%s", d->path, name);
    return path;
}

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle))
        fail_msg("'%s' does not contain '%s'", haystack, needle);
}

#define S(j) (SATURN_CELL_SLICE0 + (j))

/* 3 links x 4 cycles: idle, blocked, slices 0..5, and slices 9 and 10
 * (the last palette entry and the first one past it). */
static uint8_t tiny_cells[4 * 3] = {
    SATURN_CELL_IDLE, SATURN_CELL_BLOCKED, S(0), /* cycle 0 */
    S(1), S(2), S(3),                            /* cycle 1 */
    S(4), S(5), S(10),                           /* cycle 2 */
    S(9), SATURN_CELL_IDLE, SATURN_CELL_BLOCKED, /* cycle 3 */
};

static struct saturn_link_trace tiny_trace(void)
{
    struct saturn_link_trace t = {.links = 3, .cycles = 4, .cell = tiny_cells};
    return t;
}

/* Reads path as 8-bit RGB; returns the pixels (malloc'd). */
static uint8_t *read_rgb(const char *path, uint32_t *w, uint32_t *h)
{
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&im, path))
        fail_msg("%s: %s", path, im.message);
    im.format = PNG_FORMAT_RGB;
    uint8_t *px = malloc(PNG_IMAGE_SIZE(im));
    assert_non_null(px);
    if (!png_image_finish_read(&im, NULL, px, 0, NULL))
        fail_msg("%s: %s", path, im.message);
    *w = im.width;
    *h = im.height;
    png_image_free(&im);
    return px;
}

static void assert_pixel(const uint8_t *px, uint32_t w, uint32_t x, uint32_t y,
                         uint8_t r, uint8_t g, uint8_t b)
{
    const uint8_t *p = px + ((size_t)y * w + x) * 3;
    if (p[0] != r || p[1] != g || p[2] != b)
        fail_msg("pixel (%u,%u) is (%u,%u,%u), want (%u,%u,%u)", x, y, p[0],
                 p[1], p[2], r, g, b);
}

static void test_colour(void **state)
{
    (void)state;
    static const uint8_t want[][3] = {
        {255, 255, 255}, /* idle */
        {160, 160, 160}, /* blocked */
        {230, 25, 25},   /* slice 0 red */
        {25, 170, 25},   /* slice 1 green */
        {25, 25, 230},   /* slice 2 blue */
        {0, 190, 190},   /* slice 3 cyan */
    };
    for (uint8_t c = 0; c < 6; c++) {
        uint8_t rgb[3];
        saturn_chart_colour(c, rgb);
        assert_memory_equal(rgb, want[c], 3);
    }
    /* Ten distinct slice colours, none idle or blocked grey; then they
     * repeat, through the largest cell value. */
    uint8_t pal[10][3];
    for (int j = 0; j < 10; j++) {
        saturn_chart_colour((uint8_t)S(j), pal[j]);
        assert_memory_not_equal(pal[j], want[0], 3);
        assert_memory_not_equal(pal[j], want[1], 3);
        for (int k = 0; k < j; k++)
            assert_memory_not_equal(pal[j], pal[k], 3);
    }
    for (int c = S(10); c <= 255; c++) {
        uint8_t rgb[3];
        saturn_chart_colour((uint8_t)c, rgb);
        assert_memory_equal(rgb, pal[(c - S(0)) % 10], 3);
    }
}

/* Whether the pixel is far from white: text, a tick or the frame. */
static bool inked(const uint8_t *px, uint32_t w, uint32_t x, uint32_t y)
{
    const uint8_t *p = px + ((size_t)y * w + x) * 3;
    return p[0] < 128 && p[1] < 128 && p[2] < 128;
}

static int inked_in(const uint8_t *px, uint32_t w, uint32_t x0, uint32_t y0, uint32_t x1,
                    uint32_t y1)
{
    int n = 0;
    for (uint32_t y = y0; y < y1; y++)
        for (uint32_t x = x0; x < x1; x++)
            n += inked(px, w, x, y);
    return n;
}

static void test_chart_roundtrip(void **state)
{
    struct test_dir *d = *state;
    struct saturn_link_trace t = tiny_trace();
    struct saturn_error err = {0};
    const char *path = in_dir(d, "chart.png");
    assert_int_equal(saturn_chart_png(path, &t, 2, &err), SATURN_OK);
    assert_int_equal(test_dir_entries(d), 1); /* no temporary left behind */

    struct chart_layout l;
    assert_int_equal(chart_layout(&t, 2, &l), SATURN_OK);
    uint32_t w, h;
    uint8_t *px = read_rgb(path, &w, &h);
    assert_int_equal(w, (uint32_t)l.width);
    assert_int_equal(h, (uint32_t)l.height);
    uint32_t x0 = (uint32_t)l.x0, y0 = (uint32_t)l.y0;

    /* Row 0 is cycle 0: idle white, blocked grey, slice 0 red. */
    assert_pixel(px, w, x0 + 0, y0 + 0, 255, 255, 255);
    assert_pixel(px, w, x0 + 2, y0 + 0, 160, 160, 160);
    assert_pixel(px, w, x0 + 4, y0 + 0, 230, 25, 25);
    /* Cycle 1 (rows 2-3): green, blue, cyan. */
    assert_pixel(px, w, x0 + 1, y0 + 2, 25, 170, 25);
    assert_pixel(px, w, x0 + 3, y0 + 3, 25, 25, 230);
    assert_pixel(px, w, x0 + 5, y0 + 2, 0, 190, 190);
    /* Slice 10 wraps to red; cycle 3 (bottom rows) ends idle, blocked. */
    assert_pixel(px, w, x0 + 5, y0 + 5, 230, 25, 25);
    assert_pixel(px, w, x0 + 3, y0 + 7, 255, 255, 255);
    assert_pixel(px, w, x0 + 5, y0 + 7, 160, 160, 160);

    /* Every cell pixel: each cell is a uniform 2 x 2 block of its colour. */
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 6; x++) {
            uint8_t rgb[3];
            saturn_chart_colour(tiny_cells[(y / 2) * 3 + x / 2], rgb);
            assert_pixel(px, w, x0 + x, y0 + y, rgb[0], rgb[1], rgb[2]);
        }
    /* The frame around the cells, the cycle labels left of them, the link
     * labels and the axis title below, the title above. */
    assert_true(inked(px, w, x0 - 1, y0 + 3));
    assert_true(inked(px, w, x0 + 3, y0 - 1));
    assert_true(inked_in(px, w, 0, y0 - 8, x0 - 2, y0 + 8) > 10);     /* "0" and "cycle" */
    assert_true(inked_in(px, w, x0 - 4, y0 + 10, x0 + 8, y0 + 30) > 5); /* link 0 */
    assert_true(inked_in(px, w, 0, 0, w, y0 - 20) > 50);               /* the title */
    /* The colour key: idle, blocked, then slices 0 to 9 (10 is 0 again) */
    assert_int_equal(l.slices, 11);
    assert_int_equal(l.entries, 12);
    for (int i = 0; i < l.entries; i++) {
        uint8_t rgb[3];
        saturn_chart_colour(i == 0 ? SATURN_CELL_IDLE : i == 1 ? SATURN_CELL_BLOCKED
                                                              : (uint8_t)S(i - 2), rgb);
        uint32_t sx = (uint32_t)(l.key_x + l.key_swatch / 2);
        uint32_t sy = (uint32_t)(l.key_y + i * l.key_row + l.key_swatch / 2);
        assert_pixel(px, w, sx, sy, rgb[0], rgb[1], rgb[2]);
        /* its label, right of it */
        assert_true(inked_in(px, w, sx + 12, sy - 6, sx + 80, sy + 6) > 5);
    }
    free(px);

    /* Scale 1 gives one pixel per cell. */
    assert_int_equal(saturn_chart_png(path, &t, 1, &err), SATURN_OK);
    assert_int_equal(chart_layout(&t, 1, &l), SATURN_OK);
    px = read_rgb(path, &w, &h);
    assert_int_equal(w, (uint32_t)l.width);
    assert_pixel(px, w, (uint32_t)l.x0 + 2, (uint32_t)l.y0, 230, 25, 25);
    assert_pixel(px, w, (uint32_t)l.x0, (uint32_t)l.y0 + 3, 0, 128, 128); /* slice 9, teal */
    free(px);
    assert_int_equal(test_dir_entries(d), 1);
}

/* The same chart as SVG: an SVG document of the layout's size with a path
 * per cell colour, none for idle cells, and text. */
static void test_chart_svg(void **state)
{
    struct test_dir *d = *state;
    struct saturn_link_trace t = tiny_trace();
    struct saturn_error err = {0};
    const char *path = in_dir(d, "chart.svg");
    assert_int_equal(saturn_chart_svg(path, &t, 4, &err), SATURN_OK);
    assert_int_equal(test_dir_entries(d), 1);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *svg = calloc(1 << 22, 1);
    assert_non_null(svg);
    assert_true(fread(svg, 1, (1 << 22) - 1, f) > 0);
    fclose(f);
    struct chart_layout l;
    assert_int_equal(chart_layout(&t, 4, &l), SATURN_OK);
    char size[96];
    snprintf(size, sizeof size, "width=\"%dpt\" height=\"%dpt\"", l.width, l.height);
    assert_contains(svg, "<svg");
    assert_contains(svg, size);
    assert_contains(svg, "</svg>");
    assert_contains(svg, "<symbol"); /* glyphs: the text */
    /* slice 0's red is cairo's rgb(90.196078%,9.803922%,9.803922%) */
    assert_contains(svg, "rgb(90.196078%,9.803922%,9.803922%)");
    free(svg);
    /* a bad chart writes nothing */
    assert_int_equal(saturn_chart_svg(path, &t, 0, &err), SATURN_EINPUT);
}

static void test_chart_bad_scale(void **state)
{
    struct test_dir *d = *state;
    struct saturn_link_trace t = tiny_trace();
    struct saturn_error err = {0};
    const char *path = in_dir(d, "chart.png");
    assert_int_equal(saturn_chart_png(path, &t, 0, &err), SATURN_EINPUT);
    assert_int_equal(err.code, SATURN_EINPUT);
    assert_contains(err.msg, "scale");
    assert_int_equal(saturn_chart_png(path, &t, -3, &err), SATURN_EINPUT);
    assert_int_equal(test_dir_entries(d), 0);
}

static void test_chart_missing_dir(void **state)
{
    struct test_dir *d = *state;
    struct saturn_link_trace t = tiny_trace();
    struct saturn_error err = {0};
    const char *path = in_dir(d, "no/such/dir/chart.png");
    int rc = saturn_chart_png(path, &t, 2, &err);
    assert_int_not_equal(rc, SATURN_OK);
    assert_int_equal(err.code, rc);
    assert_contains(err.msg, "chart.png");
    struct stat st;
    assert_int_not_equal(stat(path, &st), 0);
    assert_int_equal(test_dir_entries(d), 0);
}

static void test_chart_too_big(void **state)
{
    struct test_dir *d = *state;
    struct saturn_error err = {0};
    const char *path = in_dir(d, "chart.png");
    uint8_t *cells = calloc(30001, 1);
    assert_non_null(cells);

    /* 30001 links wide at scale 1; 3 links x 10001 = 30003 at scale 10001. */
    struct saturn_link_trace wide = {.links = 30001, .cycles = 1, .cell = cells};
    assert_int_equal(saturn_chart_png(path, &wide, 1, &err), SATURN_EINPUT);
    assert_contains(err.msg, "wide");
    assert_contains(err.msg, "lower the scale");
    struct saturn_link_trace t = tiny_trace();
    assert_int_equal(saturn_chart_png(path, &t, 10001, &err), SATURN_EINPUT);
    assert_contains(err.msg, "wide");

    /* 30001 cycles tall; 15001 cycles x scale 2; a count that would
     * overflow when multiplied. */
    struct saturn_link_trace tall = {.links = 1, .cycles = 30001, .cell = cells};
    assert_int_equal(saturn_chart_png(path, &tall, 1, &err), SATURN_EINPUT);
    assert_contains(err.msg, "tall");
    assert_contains(err.msg, "fewer cycles");
    tall.cycles = 15001;
    assert_int_equal(saturn_chart_png(path, &tall, 2, &err), SATURN_EINPUT);
    tall.cycles = UINT64_MAX / 2 + 1;
    assert_int_equal(saturn_chart_png(path, &tall, 2, &err), SATURN_EINPUT);
    assert_int_equal(test_dir_entries(d), 0);

    /* Exactly 30000 pixels is allowed. */
    tall.cycles = 15000;
    assert_int_equal(saturn_chart_png(path, &tall, 2, &err), SATURN_OK);
    struct chart_layout l;
    assert_int_equal(chart_layout(&tall, 2, &l), SATURN_OK);
    uint32_t w, h;
    uint8_t *px = read_rgb(path, &w, &h);
    assert_int_equal(h, (uint32_t)l.height);
    assert_int_equal(l.height, l.y0 + 30000 + 62);
    assert_pixel(px, w, (uint32_t)l.x0 + 1, (uint32_t)l.y0 + 29999, 255, 255, 255);
    free(px);
    free(cells);

    /* An area of more than 64 Mi pixels: 8,200 x 8,200 */
    uint8_t *many = calloc(8200u * 8200u, 1);
    assert_non_null(many);
    struct saturn_link_trace big = {.links = 8200, .cycles = 8200, .cell = many};
    assert_int_equal(saturn_chart_png(path, &big, 1, &err), SATURN_EINPUT);
    assert_contains(err.msg, "million");
    free(many);
}

static void test_chart_empty(void **state)
{
    struct test_dir *d = *state;
    struct saturn_error err = {0};
    const char *path = in_dir(d, "chart.png");
    struct saturn_link_trace t = {0};
    assert_int_equal(saturn_chart_png(path, &t, 1, &err), SATURN_EINPUT);
    assert_int_equal(test_dir_entries(d), 0);
}

static void test_trace_free(void **state)
{
    (void)state;
    struct saturn_link_trace t = {0};
    saturn_link_trace_free(&t); /* zeroed: nothing to free */
    saturn_link_trace_free(&t); /* and again */
    saturn_link_trace_free(NULL);
    t.links = 2;
    t.cycles = 3;
    t.cell = calloc(6, 1);
    t.router = calloc(2, sizeof *t.router);
    t.port = calloc(2, 1);
    saturn_link_trace_free(&t);
    assert_int_equal(t.links, 0);
    assert_int_equal(t.cycles, 0);
    assert_null(t.cell);
    assert_null(t.router);
    assert_null(t.port);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colour),
        cmocka_unit_test_setup_teardown(test_chart_roundtrip, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_chart_svg, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_chart_bad_scale, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_chart_missing_dir, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_chart_too_big, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_chart_empty, test_dir_setup, test_dir_teardown),
        cmocka_unit_test(test_trace_free),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
