/* Target: sweep specs (saturn_sweep_load: base sections, [sweep] grids of
 * lists and ranges, continued lists, quoted items, [summary]), then the
 * first points' configurations and labels and the CSV header. Promises: an
 * error is an input error naming the file and a line of it; a loaded spec
 * has points, and each point's configuration is built or refused with an
 * input error. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "saturn/io.h"
#include "saturn/saturn.h"
#include "saturn/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(0, data, size);
    struct saturn_sweep *sw = NULL;
    struct saturn_error err = {0};
    int rc = saturn_sweep_load(path, &sw, &err);
    fuzz_require(rc == SATURN_OK || rc == SATURN_EINPUT, "an input error", err.msg);
    if (rc) {
        /* "no [sweep] section" and "too many points" concern the whole file */
        size_t n = strlen(path);
        fuzz_require(!strncmp(err.msg, path, n) && err.msg[n] == ':', "the error names the file",
                     err.msg);
        if (!strstr(err.msg, "no [sweep] section") && !strstr(err.msg, "points in all"))
            fuzz_require(fuzz_names_line(err.msg, path, fuzz_count_lines(data, size)),
                         "the error names a line of the file", err.msg);
        fuzz_require(sw == NULL, "nothing is returned on error", NULL);
        return 0;
    }
    fuzz_require(sw->npoints > 0 && sw->ngrids > 0, "a spec has points", NULL);
    for (size_t p = 0; p < sw->npoints && p < 8; p++) {
        struct saturn_config *c = NULL;
        rc = saturn_sweep_point_config(sw, p, &c, &err);
        fuzz_require(rc == SATURN_OK || rc == SATURN_EINPUT, "a point is built or refused", err.msg);
        saturn_config_free(c);
        char label[256];
        saturn_sweep_point_label(sw, p, label, sizeof label);
        const char *values[64];
        if (sw->nkeys <= 64)
            saturn_sweep_point_values(sw, p, values);
    }
    free(saturn_sweep_csv_header(sw));
    saturn_sweep_free(sw);
    return 0;
}
