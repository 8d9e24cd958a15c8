/* CSV output: see csv.h. */
#include <string.h>

#include "core/csv.h"

void csv_cell(FILE *f, const char *v)
{
    if (!strpbrk(v, ",\"\r\n")) {
        fputs(v, f);
        return;
    }
    fputc('"', f);
    for (; *v; v++) {
        if (*v == '"')
            fputc('"', f);
        fputc(*v, f);
    }
    fputc('"', f);
}
