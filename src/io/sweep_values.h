/* Value lists of sweep specs: "a, b", ranges "from:to[:step]", "quoted, items". */
#ifndef SATURN_IO_SWEEP_VALUES_H
#define SATURN_IO_SWEEP_VALUES_H

#include <stddef.h>

#include "saturn/error.h"

struct sweep_values {
    char **v;
    size_t n, cap;
};

/* Splits text into values (appended to out): commas outside double quotes
 * separate items; a quoted item is taken literally; an unquoted numeric
 * from:to or from:to:step is an inclusive range. Errors start with where
 * ("file:line") and name key and text. */
int sweep_parse_list(const char *where, const char *key, const char *text,
                     struct sweep_values *out, struct saturn_error *err);
void sweep_values_free(struct sweep_values *sv);

#endif
