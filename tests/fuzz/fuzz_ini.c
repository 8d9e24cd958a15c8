/* Target: INI configuration files (saturn_config_load_ini: the reader
 * shared with sweep specs, then every key's value). Promises: an error is
 * an input error naming the file and a line of it; a file that loads
 * writes back (saturn config) as INI that loads to the same values. */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "saturn/io.h"
#include "saturn/saturn.h"

/* INI has no quoting: a string value holding a comment character, a line
 * end or outer blanks cannot be written back exactly (saturn_config_write_ini). */
static bool writable(const struct saturn_config *c)
{
    for (size_t i = 0; i < saturn_param_count(); i++) {
        const char *v = saturn_config_value_text(c, i);
        size_t n = strlen(v);
        if (strpbrk(v, ";#\r\n") || (n && (v[0] == ' ' || v[0] == '\t' || v[n - 1] == ' ' ||
                                         v[n - 1] == '\t')))
            return false;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(0, data, size);
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    int rc = saturn_config_load_ini(c, path, &err);
    fuzz_require(rc == SATURN_OK || rc == SATURN_EINPUT, "an input error", err.msg);
    if (rc) {
        fuzz_require(fuzz_names_line(err.msg, path, fuzz_count_lines(data, size)),
                     "the error names the file and one of its lines", err.msg);
    } else if (writable(c)) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        fuzz_require(f != NULL, "open_memstream", NULL);
        saturn_config_write_ini(c, f);
        fclose(f);
        const char *back = fuzz_file(1, text, len);
        struct saturn_config *d = saturn_config_new();
        rc = saturn_config_load_ini(d, back, &err);
        fuzz_require(rc == SATURN_OK, "the written configuration loads", err.msg);
        for (size_t i = 0; i < saturn_param_count(); i++)
            fuzz_require(!strcmp(saturn_config_value_text(c, i), saturn_config_value_text(d, i)),
                         "a value survives the round trip", saturn_param_at(i)->name);
        saturn_config_free(d);
        free(text);
    }
    saturn_config_free(c);
    return 0;
}
