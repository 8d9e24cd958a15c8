/* Space-time charts as PNG images (libpng), after paper 003's Fig. 2:
 * one column per link, one row per cycle (cycle 0 at the top), each cell
 * coloured by what the link did. The image is built in memory and then
 * written with saturn_write_file_atomic, so a failure leaves no file. */
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "saturn/io.h"
#include "saturn/trace.h"

/* Neither dimension may exceed this many pixels. */
#define CHART_MAX_PIXELS 30000u

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

/* The encoder's state: the growing PNG buffer and the first libpng error. */
struct chart_out {
    png_bytep data;
    size_t len, cap;
    int nomem;
    char msg[256];
};

static void chart_write(png_structp png, png_bytep bytes, png_size_t n)
{
    struct chart_out *o = png_get_io_ptr(png);
    if (n > o->cap - o->len) {
        size_t cap = o->cap ? o->cap : 4096;
        while (n > cap - o->len) {
            if (cap > SIZE_MAX / 2) {
                o->nomem = 1;
                png_error(png, "out of memory");
            }
            cap *= 2;
        }
        png_bytep d = realloc(o->data, cap);
        if (!d) {
            o->nomem = 1;
            png_error(png, "out of memory");
        }
        o->data = d;
        o->cap = cap;
    }
    memcpy(o->data + o->len, bytes, n);
    o->len += n;
}

static void chart_flush(png_structp png)
{
    (void)png;
}

/* libpng calls these instead of printing; errors must not return. */
static void chart_error(png_structp png, png_const_charp msg)
{
    struct chart_out *o = png_get_error_ptr(png);
    if (o && !o->msg[0])
        snprintf(o->msg, sizeof o->msg, "%s", msg ? msg : "unknown error");
    png_longjmp(png, 1);
}

static void chart_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* Encodes the chart into o; SATURN_OK or a libpng / memory failure. Every
 * local that is live across the setjmp is set before it and not changed
 * after (rows are filled through the heap pointer row). */
static int chart_encode(const char *path, struct chart_out *o,
                        const struct saturn_link_trace *t, uint32_t scale,
                        png_bytep row, struct saturn_error *err)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, o,
                                              chart_error, chart_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, NULL);
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        if (o->nomem)
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        return saturn_error_set(err, SATURN_EIO, "%s: cannot encode PNG: libpng: %s",
                                path, o->msg);
    }
    png_set_write_fn(png, o, chart_write, chart_flush);
    png_set_IHDR(png, info, t->links * scale, (png_uint_32)(t->cycles * scale), 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint64_t c = 0; c < t->cycles; c++) {
        const uint8_t *cells = t->cell + c * t->links;
        png_bytep p = row;
        for (uint32_t l = 0; l < t->links; l++) {
            uint8_t rgb[3];
            saturn_chart_colour(cells[l], rgb);
            for (uint32_t k = 0; k < scale; k++, p += 3)
                memcpy(p, rgb, 3);
        }
        for (uint32_t k = 0; k < scale; k++)
            png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return SATURN_OK;
}

int saturn_chart_png(const char *path, const struct saturn_link_trace *t,
                     int scale, struct saturn_error *err)
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

    struct chart_out o = {0};
    png_bytep row = malloc((size_t)w * 3);
    if (!row)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    int rc = chart_encode(path, &o, t, (uint32_t)scale, row, err);
    free(row);
    if (rc == SATURN_OK)
        rc = saturn_write_file_atomic(path, (const char *)o.data, o.len, err);
    free(o.data);
    return rc;
}
