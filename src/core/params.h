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

#endif
