/* The geometry of a link chart (src/io/chart.c), for its tests: where the
 * cells are and where the colour key's swatches are. Fixed margins, not
 * measured text, so that the layout is the same on every machine. */
#ifndef SATURN_IO_CHART_H
#define SATURN_IO_CHART_H

#include <stdint.h>

#include "saturn/trace.h"

/* Neither side of the cell area may exceed this many pixels, nor its area
 * CHART_MAX_AREA (the image is drawn in memory: 4 bytes a pixel). */
#define CHART_MAX_PIXELS 30000u
#define CHART_MAX_AREA (64u << 20)

struct chart_layout {
    int width, height; /* the whole image */
    int x0, y0;        /* the cell area's top left: cell (link l, cycle t) is */
    int scale;         /* the scale x scale block at (x0 + l s, y0 + t s) */
    int key_x, key_y;  /* the colour key: entry i's swatch is the key_swatch */
    int key_row;       /* square at (key_x, key_y + i key_row) */
    int key_swatch;
    int entries;       /* idle, blocked, then a slice each (up to 10) */
    int slices;        /* slices in the trace (the largest slice + 1) */
};

/* 0, or SATURN_EINPUT when the chart would be too large. */
int chart_layout(const struct saturn_link_trace *t, int scale, struct chart_layout *l);

#endif
