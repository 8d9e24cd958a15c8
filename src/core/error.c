#include <stdarg.h>
#include <stdio.h>

#include "saturn/error.h"

int saturn_error_set(struct saturn_error *e, int code, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        e->code = code;
    }
    return code;
}
