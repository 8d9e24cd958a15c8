/* saturn — files: INI configurations (inih) and JSON records (cJSON).
 * Part of libsaturn_io, so that the engine itself needs libc and libm only. */
#ifndef SATURN_IO_H
#define SATURN_IO_H

#include <stdio.h>

#include "saturn/config.h"
#include "saturn/results.h"

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

#ifdef __cplusplus
}
#endif
#endif
