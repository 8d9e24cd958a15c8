/* Space-time charts drawn with cairo, after paper 003's Fig. 2: one column
 * per link, one row per cycle (cycle 0 at the top), each cell coloured by
 * what the link did; axes in cycles and link ids, a title, and a colour
 * key with an entry per slice. PNG (the cells painted from an image, so
 * every cell keeps its exact colour) or SVG (the cells as rectangles, a
 * rectangle per run of equal cells down a column). The image is made in
 * memory and written with saturn_write_file_atomic: a failure leaves no
 * file. */
#include <cairo.h>
#include <cairo-svg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/chart.h"
#include "saturn/io.h"
#include "saturn/trace.h"

/* Slice j is drawn in PALETTE[j % PALETTE_N]. The first four follow the
 * paper (red, green, blue, cyan); then magenta, orange, olive, purple,
 * brown, teal; slice 10 is red again. */
static const uint8_t PALETTE[][3] = {
    {230, 25, 25},   /* 0 red */
    {25, 170, 25},   /* 1 green */
    {25, 25, 230},   /* 2 blue */
    {0, 190, 190},   /* 3 cyan */
    {200, 0, 200},   /* 4 magenta */
    {255, 140, 0},   /* 5 orange */
    {128, 128, 0},   /* 6 olive */
    {120, 40, 160},  /* 7 purple */
    {140, 80, 30},   /* 8 brown */
    {0, 128, 128},   /* 9 teal */
};
#define PALETTE_N (sizeof PALETTE / sizeof PALETTE[0])

void saturn_chart_colour(uint8_t cell, uint8_t rgb[3])
{
    static const uint8_t idle[3] = {255, 255, 255};
    static const uint8_t blocked[3] = {160, 160, 160};
    const uint8_t *c;
    if (cell == SATURN_CELL_IDLE)
        c = idle;
    else if (cell == SATURN_CELL_BLOCKED)
        c = blocked;
    else
        c = PALETTE[(size_t)(cell - SATURN_CELL_SLICE0) % PALETTE_N];
    memcpy(rgb, c, 3);
}

/* Margins (pixels): tick labels and the axis titles left and below, the
 * title above, the colour key on the right. */
enum { LEFT = 84, TOP = 48, BOTTOM = 62, KEY_GAP = 28, KEY_W = 210, KEY_ROW = 22, SWATCH = 14 };

int chart_layout(const struct saturn_link_trace *t, int scale, struct chart_layout *l)
{
    memset(l, 0, sizeof *l);
    uint64_t w = (uint64_t)t->links * (uint64_t)scale;
    if (scale < 1 || w > CHART_MAX_PIXELS || t->cycles > CHART_MAX_PIXELS / (uint64_t)scale ||
        w * t->cycles * (uint64_t)scale > CHART_MAX_AREA)
        return SATURN_EINPUT;
    int h = (int)(t->cycles * (uint64_t)scale);
    unsigned top = 0;
    for (uint64_t i = 0; i < (uint64_t)t->links * t->cycles; i++)
        if (t->cell[i] >= SATURN_CELL_SLICE0 && t->cell[i] > top)
            top = t->cell[i];
    l->slices = top ? (int)(top - SATURN_CELL_SLICE0 + 1) : 0;
    l->entries = 2 + (l->slices < (int)PALETTE_N ? l->slices : (int)PALETTE_N);
    l->scale = scale;
    l->x0 = LEFT;
    l->y0 = TOP;
    l->key_x = LEFT + (int)w + KEY_GAP;
    l->key_y = TOP + 30;
    l->key_row = KEY_ROW;
    l->key_swatch = SWATCH;
    l->width = l->key_x + KEY_W;
    int key_bottom = l->key_y + l->entries * KEY_ROW + (l->slices > (int)PALETTE_N ? 2 * KEY_ROW : 0);
    l->height = TOP + h + BOTTOM > key_bottom + 16 ? TOP + h + BOTTOM : key_bottom + 16;
    return SATURN_OK;
}

static void set_rgb(cairo_t *cr, const uint8_t rgb[3])
{
    cairo_set_source_rgb(cr, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
}

/* The smallest 1, 2 or 5 x 10^k units with at least min_px pixels between
 * ticks. */
static uint64_t tick_step(int scale, int min_px)
{
    for (uint64_t p = 1;; p *= 10)
        for (int m = 0; m < 3; m++) {
            uint64_t s = p * (uint64_t[]){1, 2, 5}[m];
            if (s * (uint64_t)scale >= (uint64_t)min_px)
                return s;
        }
}

static void text_at(cairo_t *cr, double x, double y, const char *s, double align_x,
                    double align_y)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    cairo_move_to(cr, x - align_x * e.width - e.x_bearing, y - align_y * e.height - e.y_bearing);
    cairo_show_text(cr, s);
}

/* The cells as rectangles, a run of equal cells down a column each, one
 * path per cell value (an SVG element per colour, not per run); idle
 * cells are the white background. */
static void cells_vector(cairo_t *cr, const struct saturn_link_trace *t, const struct chart_layout *l)
{
    bool present[256] = {false};
    for (uint64_t i = 0; i < (uint64_t)t->links * t->cycles; i++)
        present[t->cell[i]] = true;
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    for (int v = SATURN_CELL_IDLE + 1; v < 256; v++) {
        if (!present[v])
            continue;
        for (uint32_t k = 0; k < t->links; k++)
            for (uint64_t c = 0; c < t->cycles;) {
                uint64_t e = c + 1;
                if (t->cell[c * t->links + k] != v) {
                    c = e;
                    continue;
                }
                while (e < t->cycles && t->cell[e * t->links + k] == v)
                    e++;
                cairo_rectangle(cr, l->x0 + (double)k * l->scale, l->y0 + (double)c * l->scale,
                                l->scale, (double)(e - c) * l->scale);
                c = e;
            }
        uint8_t rgb[3];
        saturn_chart_colour((uint8_t)v, rgb);
        set_rgb(cr, rgb);
        cairo_fill(cr);
    }
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
}

/* The cells from an image of one pixel a cell, scaled without smoothing. */
static int cells_raster(cairo_t *cr, const struct saturn_link_trace *t, const struct chart_layout *l)
{
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)t->links,
                                                      (int)t->cycles);
    if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(img);
        return SATURN_ENOMEM;
    }
    cairo_surface_flush(img);
    unsigned char *data = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    for (uint64_t c = 0; c < t->cycles; c++) {
        uint32_t *row = (uint32_t *)(void *)(data + c * (uint64_t)stride);
        for (uint32_t k = 0; k < t->links; k++) {
            uint8_t rgb[3];
            saturn_chart_colour(t->cell[c * t->links + k], rgb);
            row[k] = (uint32_t)rgb[0] << 16 | (uint32_t)rgb[1] << 8 | rgb[2];
        }
    }
    cairo_surface_mark_dirty(img);
    cairo_save(cr);
    cairo_translate(cr, l->x0, l->y0);
    cairo_scale(cr, l->scale, l->scale);
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
    cairo_rectangle(cr, 0, 0, t->links, (double)t->cycles);
    cairo_fill(cr);
    cairo_restore(cr);
    cairo_surface_destroy(img);
    return SATURN_OK;
}

/* Title, axes with ticks and their titles, and the colour key. */
static void decorate(cairo_t *cr, const struct saturn_link_trace *t, const struct chart_layout *l)
{
    double w = (double)t->links * l->scale, h = (double)t->cycles * l->scale;
    char buf[128];
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_set_font_size(cr, 14);
    snprintf(buf, sizeof buf, "link use by cycle: %u links, %llu cycles", t->links,
             (unsigned long long)t->cycles);
    text_at(cr, l->x0, 16, buf, 0, 0);
    /* the frame */
    cairo_set_line_width(cr, 1);
    cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
    cairo_rectangle(cr, l->x0 - 0.5, l->y0 - 0.5, w + 1, h + 1);
    cairo_stroke(cr);
    cairo_set_font_size(cr, 11);
    /* cycles down the left, a tick at the top edge of its row */
    uint64_t ys = tick_step(l->scale, 36);
    for (uint64_t c = 0; c <= t->cycles; c += ys) {
        double y = l->y0 + (double)c * l->scale - 0.5;
        cairo_move_to(cr, l->x0 - 6, y);
        cairo_line_to(cr, l->x0 - 1, y);
        cairo_stroke(cr);
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)c);
        text_at(cr, l->x0 - 9, y, buf, 1, 0.5);
    }
    /* links along the bottom, a tick at the middle of its column */
    uint64_t xs = tick_step(l->scale, 44);
    for (uint64_t k = 0; k < t->links; k += xs) {
        double x = l->x0 + ((double)k + 0.5) * l->scale;
        cairo_move_to(cr, x, l->y0 + h + 0.5);
        cairo_line_to(cr, x, l->y0 + h + 6);
        cairo_stroke(cr);
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)k);
        text_at(cr, x, l->y0 + h + 9, buf, 0.5, 0);
    }
    cairo_set_font_size(cr, 12);
    text_at(cr, l->x0 + w / 2, l->y0 + h + 32, "link (router order, then port; --links lists them)",
            0.5, 0);
    cairo_save(cr);
    cairo_translate(cr, 18, l->y0 + h / 2);
    cairo_rotate(cr, -1.5707963267948966);
    text_at(cr, 0, 0, "cycle", 0.5, 0.5);
    cairo_restore(cr);
    /* the colour key: idle, blocked, a slice each */
    text_at(cr, l->key_x, l->key_y - 22, "colour key", 0, 0);
    for (int i = 0; i < l->entries; i++) {
        uint8_t cell = i == 0 ? SATURN_CELL_IDLE : i == 1 ? SATURN_CELL_BLOCKED
                                                           : (uint8_t)(SATURN_CELL_SLICE0 + i - 2);
        uint8_t rgb[3];
        saturn_chart_colour(cell, rgb);
        double y = l->key_y + (double)i * l->key_row;
        set_rgb(cr, rgb);
        cairo_rectangle(cr, l->key_x, y, l->key_swatch, l->key_swatch);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
        cairo_rectangle(cr, l->key_x - 0.5, y - 0.5, l->key_swatch + 1, l->key_swatch + 1);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        if (i == 0)
            snprintf(buf, sizeof buf, "idle");
        else if (i == 1)
            snprintf(buf, sizeof buf, "blocked (a flit waited)");
        else
            snprintf(buf, sizeof buf, "slice %d", i - 2);
        text_at(cr, l->key_x + l->key_swatch + 8, y + l->key_swatch / 2.0, buf, 0, 0.5);
    }
    if (l->slices > (int)PALETTE_N) {
        snprintf(buf, sizeof buf, "slices %d to %d: the same", (int)PALETTE_N, l->slices - 1);
        text_at(cr, l->key_x, l->key_y + l->entries * l->key_row + 4, buf, 0, 0);
        text_at(cr, l->key_x, l->key_y + (l->entries + 1) * l->key_row + 4,
                "colours again, in turn", 0, 0);
    }
}

/* The encoded image, grown as cairo writes it. */
struct chart_out {
    unsigned char *data;
    size_t len, cap;
};

static cairo_status_t out_write(void *user, const unsigned char *bytes, unsigned int n)
{
    struct chart_out *o = user;
    if (n > o->cap - o->len) {
        size_t cap = o->cap ? o->cap : 4096;
        while (n > cap - o->len)
            cap *= 2;
        unsigned char *d = realloc(o->data, cap);
        if (!d)
            return CAIRO_STATUS_NO_MEMORY;
        o->data = d;
        o->cap = cap;
    }
    memcpy(o->data + o->len, bytes, n);
    o->len += n;
    return CAIRO_STATUS_SUCCESS;
}

static int chart_check(const char *path, const struct saturn_link_trace *t, int scale,
                       struct chart_layout *l, struct saturn_error *err)
{
    if (scale < 1)
        return saturn_error_set(err, SATURN_EINPUT,
                                "%s: chart scale %d: must be at least 1 pixel per cell",
                                path, scale);
    if (!t || t->links == 0 || t->cycles == 0 || !t->cell)
        return saturn_error_set(err, SATURN_EINPUT,
                                "%s: empty trace: no links or no cycles to chart", path);
    uint64_t w = (uint64_t)t->links * (uint64_t)scale;
    if (w > CHART_MAX_PIXELS)
        return saturn_error_set(err, SATURN_EINPUT,
                                "%s: chart would be %llu pixels wide (%u links x scale %d), "
                                "more than %u: lower the scale or chart fewer links",
                                path, (unsigned long long)w, t->links, scale,
                                CHART_MAX_PIXELS);
    if (t->cycles > CHART_MAX_PIXELS / (uint64_t)scale)
        return saturn_error_set(err, SATURN_EINPUT,
                                "%s: chart would be more than %u pixels tall "
                                "(%llu cycles x scale %d): lower the scale or chart "
                                "fewer cycles",
                                path, CHART_MAX_PIXELS, (unsigned long long)t->cycles,
                                scale);
    if (chart_layout(t, scale, l))
        return saturn_error_set(err, SATURN_EINPUT,
                                "%s: chart would be %llu x %llu pixels, more than %u million: "
                                "lower the scale or chart fewer links or cycles",
                                path, (unsigned long long)w,
                                (unsigned long long)(t->cycles * (uint64_t)scale),
                                CHART_MAX_AREA >> 20);
    return SATURN_OK;
}

static int chart_write(const char *path, const struct saturn_link_trace *t, int scale, bool svg,
                       struct saturn_error *err)
{
    struct chart_layout l;
    int rc = chart_check(path, t, scale, &l, err);
    if (rc)
        return rc;
    struct chart_out o = {0};
    cairo_surface_t *s = svg ? cairo_svg_surface_create_for_stream(out_write, &o, l.width, l.height)
                             : cairo_image_surface_create(CAIRO_FORMAT_RGB24, l.width, l.height);
    cairo_t *cr = cairo_create(s);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
        cairo_destroy(cr);
        cairo_surface_destroy(s);
        free(o.data);
        return saturn_error_set(err, SATURN_ENOMEM, "%s: out of memory for the chart", path);
    }
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    if (svg)
        cells_vector(cr, t, &l);
    else
        rc = cells_raster(cr, t, &l);
    decorate(cr, t, &l);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (!svg && !rc && st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_write_to_png_stream(s, out_write, &o);
    cairo_surface_finish(s); /* an SVG is written out here */
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (rc || st != CAIRO_STATUS_SUCCESS)
        rc = saturn_error_set(err, st == CAIRO_STATUS_NO_MEMORY || rc ? SATURN_ENOMEM : SATURN_EIO,
                              "%s: cannot draw the chart: cairo: %s", path,
                              rc ? "out of memory" : cairo_status_to_string(st));
    else
        rc = saturn_write_file_atomic(path, (const char *)o.data, o.len, err);
    free(o.data);
    return rc;
}

int saturn_chart_png(const char *path, const struct saturn_link_trace *t, int scale,
                     struct saturn_error *err)
{
    return chart_write(path, t, scale, false, err);
}

int saturn_chart_svg(const char *path, const struct saturn_link_trace *t, int scale,
                     struct saturn_error *err)
{
    return chart_write(path, t, scale, true, err);
}
