/* saturn — configuration: one typed registry of every parameter.
 *
 * Every key is "section.name" (INI: [section] name = value). Values keep the
 * file and line they came from so that any later error can name them. */
#ifndef SATURN_CONFIG_H
#define SATURN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "saturn/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SATURN_LIST_MAX 16 /* most values an int list may hold */

enum saturn_param_type {
    SATURN_PARAM_INT,     /* int64, inclusive range [min, max] */
    SATURN_PARAM_REAL,    /* double, inclusive range [min, max] */
    SATURN_PARAM_BOOL,    /* true/false, yes/no, on/off, 1/0 */
    SATURN_PARAM_ENUM,    /* one of choices[] (NULL-terminated) */
    SATURN_PARAM_INTLIST, /* comma-separated ints, each in [min, max] */
    SATURN_PARAM_STRING   /* free text (paths, specs) */
};

struct saturn_param {
    const char *name;             /* "section.key" */
    enum saturn_param_type type;
    const char *def;              /* default, as text */
    double min, max;              /* INT, REAL, INTLIST */
    const char *const *choices;   /* ENUM */
    const char *help;             /* one line */
};

struct saturn_config;

/* The registry: every parameter saturn knows, in a stable order. */
size_t saturn_param_count(void);
const struct saturn_param *saturn_param_at(size_t i);
const struct saturn_param *saturn_param_find(const char *name);
const char *saturn_param_type_name(enum saturn_param_type t);
/* Writes "allowed" text for a parameter ("integer in [1, 64]", "one of a|b"). */
void saturn_param_allowed(const struct saturn_param *p, char *buf, size_t n);

struct saturn_config *saturn_config_new(void);
struct saturn_config *saturn_config_clone(const struct saturn_config *c);
void saturn_config_free(struct saturn_config *c);

/* Parse and store one value. file may be NULL (command line, shown as
 * "command line"), line 0 when unknown. On error fills err (code
 * SATURN_EINPUT) naming file, line, key, value and what is allowed, with a
 * did-you-mean suggestion for unknown keys. */
int saturn_config_set(struct saturn_config *c, const char *key,
                      const char *value, const char *file, int line,
                      struct saturn_error *err);

bool saturn_config_is_set(const struct saturn_config *c, const char *key);
/* Set by the user (a file or the command line), not by a preset. */
bool saturn_config_user_set(const struct saturn_config *c, const char *key);
int64_t saturn_config_int(const struct saturn_config *c, const char *key);
double saturn_config_real(const struct saturn_config *c, const char *key);
bool saturn_config_bool(const struct saturn_config *c, const char *key);
/* ENUM and STRING: the text; ENUM also by index into choices. */
const char *saturn_config_str(const struct saturn_config *c, const char *key);
int saturn_config_enum(const struct saturn_config *c, const char *key);
/* INTLIST: number of values, copies up to max into out. */
int saturn_config_list(const struct saturn_config *c, const char *key,
                       int64_t *out, int max);
/* Where the value came from: "default", "command line" or a file; line 0 if none. */
const char *saturn_config_origin(const struct saturn_config *c,
                                 const char *key, int *line);

/* An error about a (valid alone, but impossible together) value:
 * "<file>:<line>: <key> = <value>: <message>". Returns SATURN_EINPUT. */
int saturn_config_fail(const struct saturn_config *c, const char *key,
                       struct saturn_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Named presets (a paper's model in the engine's knobs), applied before
 * files and overrides. */
size_t saturn_preset_count(void);
const char *saturn_preset_name(size_t i, const char **help);
int saturn_config_preset(struct saturn_config *c, const char *name, struct saturn_error *err);

/* Iterate the resolved configuration (every parameter, in registry order). */
const char *saturn_config_value_text(const struct saturn_config *c, size_t i);

/* Whether parameter i plays a part in a run of c: false for the keys of a
 * topology, routing, traffic pattern, workload or injection controller c
 * does not use, for test and output knobs, and for the sections of the
 * tools (curve, ga, cupstack). Summaries show these and the keys set. */
bool saturn_param_applies(const struct saturn_config *c, size_t i);

/* Warnings gathered while values were set, oldest first: a key given twice
 * in one file, or twice on the command line, and which value wins. */
size_t saturn_config_warning_count(const struct saturn_config *c);
const char *saturn_config_warning(const struct saturn_config *c, size_t i);

#ifdef __cplusplus
}
#endif
#endif
