/* Text input files, whole and line by line (textfile.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/textfile.h"

int text_open(struct text_lines *tl, const char *path)
{
    memset(tl, 0, sizeof *tl);
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b)
                free(buf);
            buf = b;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (buf && bad) {
        free(buf);
        return EIO;
    }
    if (!buf)
        return ENOMEM;
    buf[n] = 0;
    tl->text = buf;
    tl->len = n;
    return 0;
}

char *text_next(struct text_lines *tl, bool *nul)
{
    *nul = false;
    if (tl->at >= tl->len)
        return NULL;
    char *p = tl->text + tl->at;
    size_t n = strcspn(p, "\r\n"); /* stops at a NUL byte too */
    tl->no++;
    if (tl->at + n < tl->len && p[n] == 0) {
        *nul = true;
        return NULL;
    }
    tl->at += n + (p[n] == '\r' && p[n + 1] == '\n' ? 2 : 1);
    p[n] = 0;
    if (tl->no == 1 && (unsigned char)p[0] == 0xef && (unsigned char)p[1] == 0xbb &&
        (unsigned char)p[2] == 0xbf)
        p += 3; /* a UTF-8 byte-order mark */
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

void text_close(struct text_lines *tl)
{
    free(tl->text);
    memset(tl, 0, sizeof *tl);
}
