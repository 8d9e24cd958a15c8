/* Target: the CSV files saturn sweep reads back: the resume scan of a
 * results file against a fixed two-key spec (saturn_sweep_csv_scan, which
 * may truncate a partial last line) and the table reader of --summarize
 * (saturn_table_read_csv) with a summary on top. Promises: errors are
 * input errors (or a refused summary); nothing else. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "saturn/io.h"
#include "saturn/saturn.h"
#include "saturn/sweep.h"

static const char spec[] = "[network]\nk = 4\n[sweep]\nrouter.vcs = 2, 3\n"
                           "traffic.pattern = uniform, transpose\nsim.seed = 1:2\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct saturn_error err = {0};
    struct saturn_sweep *sw = NULL;
    fuzz_require(saturn_sweep_load(fuzz_file(1, spec, sizeof spec - 1), &sw, &err) == SATURN_OK,
                 "setup", err.msg);
    const char *path = fuzz_file(0, data, size);
    bool done[8] = {false}, exists = false;
    int rc = saturn_sweep_csv_scan(sw, path, done, &exists, &err);
    fuzz_require(rc == SATURN_OK || rc == SATURN_EINPUT, "the scan: an input error", err.msg);
    saturn_sweep_free(sw);

    path = fuzz_file(0, data, size); /* the scan may have cut it */
    struct saturn_table *t = NULL;
    rc = saturn_table_read_csv(path, &t, &err);
    fuzz_require(rc == SATURN_OK || rc == SATURN_EINPUT, "the table: an input error", err.msg);
    if (rc == SATURN_OK) {
        struct saturn_summary_opts o;
        saturn_summary_opts_default(&o);
        fuzz_require(saturn_summary_opts_set(&o, "baseline", "router.vcs=2", NULL, 0, &err) ==
                         SATURN_OK, "setup", err.msg);
        struct saturn_summary *s = NULL;
        rc = saturn_summary_compute(t, &o, &s, &err);
        fuzz_require(rc == SATURN_OK || rc == SATURN_EINPUT, "the summary: an input error",
                     err.msg);
        if (rc == SATURN_OK)
            free(saturn_summary_csv(s));
        saturn_summary_free(s);
    }
    saturn_table_free(t);
    return 0;
}
