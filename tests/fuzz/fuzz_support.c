/* In-memory files and checks shared by the fuzz targets (fuzz.h). */
#define _GNU_SOURCE /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/mman.h>

#include "fuzz.h"

static int fds[4] = {-1, -1, -1, -1}; /* a test driver's state, not the library's */
static char paths[4][64];

const char *fuzz_file(int slot, const void *data, size_t size)
{
    if (fds[slot] < 0) {
        fds[slot] = memfd_create("saturn-fuzz", 0);
        if (fds[slot] < 0) {
            perror("fuzz: memfd_create");
            abort();
        }
        snprintf(paths[slot], sizeof paths[slot], "/proc/self/fd/%d", fds[slot]);
    }
    if (ftruncate(fds[slot], 0) != 0 ||
        (size && pwrite(fds[slot], data, size, 0) != (ssize_t)size)) {
        perror("fuzz: writing the in-memory file");
        abort();
    }
    return paths[slot];
}

void fuzz_require(bool ok, const char *what, const char *detail)
{
    if (ok)
        return;
    fprintf(stderr, "fuzz: promise broken: %s (%s)\n", what, detail ? detail : "");
    abort();
}

bool fuzz_names_line(const char *msg, const char *path, int lines)
{
    size_t n = strlen(path);
    if (strncmp(msg, path, n) || msg[n] != ':')
        return false;
    char *end;
    long line = strtol(msg + n + 1, &end, 10);
    return end > msg + n + 1 && end[0] == ':' && end[1] == ' ' && line >= 1 && line <= lines;
}

int fuzz_count_lines(const uint8_t *data, size_t size)
{
    int lines = 0;
    for (size_t i = 0; i < size; i++)
        if (data[i] == '\n' || (data[i] == '\r' && (i + 1 == size || data[i + 1] != '\n')))
            lines++;
    return lines + (size > 0 && data[size - 1] != '\n' && data[size - 1] != '\r');
}
