#include <stdio.h>

#include "support.h"
#include "saturn/io.h"

struct saturn_config *test_config(const char *const *kv)
{
    struct saturn_config *c = saturn_config_new();
    assert_non_null(c);
    struct saturn_error err = {0};
    for (; kv && *kv; kv++) {
        if (saturn_config_apply_arg(c, *kv, &err) != SATURN_OK) {
            fprintf(stderr, "%s\n", err.msg);
            fail_msg("bad test configuration word %s", *kv);
        }
    }
    return c;
}
