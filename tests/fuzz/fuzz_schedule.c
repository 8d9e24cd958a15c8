/* Target: collective schedule files (collective.schedule: "node,offset"
 * lines, a header, comments, blank lines, a byte-order mark), read when a
 * collective starts on a 4x4 torus whose run stops after its first cycle.
 * Promises: the run ends in an input error (a bad line names the file and
 * a line of it; a good file meets collective.max_cycles = 1). */
#include <string.h>

#include "fuzz.h"
#include "saturn/io.h"
#include "saturn/saturn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(0, data, size);
    static const char *const words[] = {"network.k=4", "sim.workload=collective",
                                        "collective.packets=1", "collective.max_cycles=1", NULL};
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    for (int i = 0; words[i]; i++)
        fuzz_require(saturn_config_apply_arg(c, words[i], &err) == SATURN_OK, "setup", err.msg);
    fuzz_require(saturn_config_set(c, "collective.schedule", path, NULL, 0, &err) == SATURN_OK,
                 "setup", err.msg);
    struct saturn_sim *sim = NULL;
    fuzz_require(saturn_sim_create(c, &sim, &err) == SATURN_OK, "setup", err.msg);
    struct saturn_results r;
    int rc = saturn_sim_run(sim, &r, &err);
    fuzz_require(rc == SATURN_EINPUT, "an input error", err.msg);
    if (!strstr(err.msg, "did not finish"))
        fuzz_require(fuzz_names_line(err.msg, path, fuzz_count_lines(data, size)),
                     "the error names the file and one of its lines", err.msg);
    saturn_sim_free(sim);
    saturn_config_free(c);
    return 0;
}
