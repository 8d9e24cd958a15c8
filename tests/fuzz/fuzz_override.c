/* Target: command-line key=value overrides (saturn_config_apply_arg), one
 * per line of the input, then the combination check of saturn_sim_create
 * for networks the memory estimate calls small. Promises: an error is an
 * input error from the command line; an accepted value, given again as
 * printed, is accepted and unchanged; creating the simulation either
 * succeeds or refuses with an input error. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "saturn/io.h"
#include "saturn/saturn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    bool ok = true;
    int words = 0;
    for (char *save = NULL, *w = strtok_r(text, "\n", &save); w && words < 32;
         w = strtok_r(NULL, "\n", &save), words++) {
        int rc = saturn_config_apply_arg(c, w, &err);
        fuzz_require(rc == SATURN_OK || rc == SATURN_EINPUT, "an input error", err.msg);
        if (rc) {
            fuzz_require(!strncmp(err.msg, "command line: ", 14), "the error says where", err.msg);
            ok = false;
            continue;
        }
        /* the value as saturn prints it, given again, is the same value */
        char *eq = strchr(w, '=');
        *eq = 0;
        const char *printed = NULL;
        for (size_t i = 0; i < saturn_param_count(); i++)
            if (!strcmp(saturn_param_at(i)->name, w))
                printed = saturn_config_value_text(c, i);
        fuzz_require(printed != NULL, "an accepted key is a parameter", w);
        size_t n = strlen(w) + strlen(printed) + 2;
        char *again = malloc(n);
        char *before = strdup(printed);
        if (again && before) {
            snprintf(again, n, "%s=%s", w, printed);
            int rc2 = saturn_config_apply_arg(c, again, &err);
            fuzz_require(rc2 == SATURN_OK, "a printed value is accepted", again);
            for (size_t i = 0; i < saturn_param_count(); i++)
                if (!strcmp(saturn_param_at(i)->name, w))
                    fuzz_require(!strcmp(saturn_config_value_text(c, i), before),
                                 "a printed value reads back the same", again);
        }
        free(again);
        free(before);
    }
    /* whole-configuration checks on small networks (the memory estimate
     * keeps the fuzzer from building huge ones) */
    struct saturn_memory mem;
    if (ok && saturn_memory_estimate(c, &mem, &err) == SATURN_OK &&
        mem.buffers + mem.vc_state + mem.packets < (2u << 20)) {
        struct saturn_sim *sim = NULL;
        int rc = saturn_sim_create(c, &sim, &err);
        fuzz_require(rc == SATURN_OK || rc == SATURN_EINPUT, "creation refuses with an input error",
                     err.msg);
        saturn_sim_free(sim);
    }
    saturn_config_free(c);
    free(text);
    return 0;
}
