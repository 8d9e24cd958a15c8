#ifndef SATURN_PARAMS_H
#define SATURN_PARAMS_H
#include <stddef.h>

#include "saturn/config.h"

/* Parameter tables end with an entry whose name is NULL. */
size_t params_table_count(void);
const struct saturn_param *params_table(size_t i);

#endif
