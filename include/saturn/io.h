/* saturn — files: INI configurations (inih) and JSON records (cJSON).
 * Part of libsaturn_io, so that the engine itself needs libc and libm only. */
#ifndef SATURN_IO_H
#define SATURN_IO_H

#include <stdio.h>

#include "saturn/config.h"
#include "saturn/results.h"
#include "saturn/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads an INI file into c: "[section] key = value" sets "section.key";
 * keys before any section must be written in full ("section.key").
 * Errors (unreadable file, syntax, unknown key, bad value) name the file
 * and line; code SATURN_EINPUT. */
int saturn_config_load_ini(struct saturn_config *c, const char *path,
                           struct saturn_error *err);

/* Applies "key=value" words (command-line overrides). */
int saturn_config_apply_arg(struct saturn_config *c, const char *arg,
                            struct saturn_error *err);

/* The fully resolved configuration as INI text (every key). */
void saturn_config_write_ini(const struct saturn_config *c, FILE *f);

/* One JSON record: {"saturn": version, "config": {...}, "results": {...}}.
 * Returns a malloc'd string. */
char *saturn_results_json(const struct saturn_config *c,
                          const struct saturn_results *r);

/* Writes data to path atomically (temporary file in the same folder, then
 * rename): either the whole file appears or nothing does. */
int saturn_write_file_atomic(const char *path, const char *data, size_t len,
                             struct saturn_error *err);

/* A space-time chart of t drawn with cairo (paper 003, Fig. 2): one
 * column per link, one row per cycle (cycle 0 at the top), each cell a
 * scale x scale block coloured by saturn_chart_colour; a title, the cycles
 * down the left and the link ids along the bottom with their ticks, and a
 * colour key (idle, blocked, an entry per slice) on the right. PNG (8-bit
 * RGB) or SVG (the cells as rectangles, the text as outlines). Written
 * atomically. Errors: scale below 1, an empty trace, a cell area wider or
 * taller than 30000 pixels or larger than 64 million (SATURN_EINPUT,
 * saying what to lower); cairo failures (SATURN_EIO, SATURN_ENOMEM); and
 * those of saturn_write_file_atomic. */
int saturn_chart_png(const char *path, const struct saturn_link_trace *t,
                     int scale, struct saturn_error *err);
int saturn_chart_svg(const char *path, const struct saturn_link_trace *t,
                     int scale, struct saturn_error *err);

/* The chart colour of a cell: idle white (255,255,255), blocked grey
 * (160,160,160), slice j a fixed ten-colour palette starting red
 * (230,25,25), green (25,170,25), blue (25,25,230), cyan (0,190,190), then
 * magenta, orange, olive, purple, brown, teal, repeating from slice 10. */
void saturn_chart_colour(uint8_t cell, uint8_t rgb[3]);

#ifdef __cplusplus
}
#endif
#endif
