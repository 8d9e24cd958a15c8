/* Text input files read whole and split into lines as the INI reader does
 * ("\n", "\r\n" or a lone "\r"; any length; a UTF-8 byte-order mark on the
 * first line skipped): schedules, topology files, traces. */
#ifndef SATURN_TEXTFILE_H
#define SATURN_TEXTFILE_H

#include <stdbool.h>
#include <stddef.h>

struct text_lines {
    char *text;
    size_t len, at;
    int no; /* the line text_next returned last, from 1 */
};

/* 0, or an errno value (the file cannot be read). */
int text_open(struct text_lines *tl, const char *path);
/* The next line without its end and leading blanks (writable; valid
 * until text_close), or NULL at the end of the file or, with *nul set, at
 * a line holding a NUL byte (not a text file). */
char *text_next(struct text_lines *tl, bool *nul);
void text_close(struct text_lines *tl);

#endif
