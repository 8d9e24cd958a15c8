#ifndef SATURN_PARAMS_H
#define SATURN_PARAMS_H
#include <stddef.h>

#include "saturn/config.h"

/* Parameter tables end with an entry whose name is NULL. */
size_t params_table_count(void);
const struct saturn_param *params_table(size_t i);
/* The keys and sections ("ugal.") saturn_param_applies has a rule for
 * (NULL past the last), so that a test can check each names something. */
const char *params_rule_key(size_t i);
/* A parameter's index in registry order (saturn_param_at, saturn_config_value_text),
 * -1 when no parameter has that name: look a key up once, then read it by index in
 * each of many configurations (config_real_at, config_str_at). */
long params_index(const char *name);
double config_real_at(const struct saturn_config *c, size_t i);
const char *config_str_at(const struct saturn_config *c, size_t i);

#endif
