/* Replays fuzz inputs through a target without libFuzzer (any compiler):
 * replay_TARGET FILE|FOLDER ...; every regular file is one input. The test
 * suite runs it on tests/fuzz/corpus/TARGET/ (plain and under the
 * sanitizers); a broken promise aborts, which fails the test. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (!b)
                free(buf);
            buf = b;
        }
    }
    fclose(f);
    if (!buf)
        return 1;
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int inputs = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad |= replay_file(argv[i]);
            inputs++;
            continue;
        }
        struct dirent **list;
        int n = scandir(argv[i], &list, NULL, alphasort);
        if (n < 0) {
            perror(argv[i]);
            return 1;
        }
        for (int j = 0; j < n; j++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], list[j]->d_name);
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                bad |= replay_file(path);
                inputs++;
            }
            free(list[j]);
        }
        free(list);
    }
    printf("%d inputs replayed\n", inputs);
    return bad || inputs == 0;
}
