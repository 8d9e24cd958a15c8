/* INI files read whole before use (inih underneath), for the configuration
 * and sweep-spec loaders: every key with its line, and the first problem
 * line. inih keeps parsing past a syntax error, and "stop at the first
 * error" must mean the first error in file order, whatever its kind, so a
 * loader applies the entries before the problem line and only then reports
 * the problem. */
#ifndef SATURN_IO_INI_READ_H
#define SATURN_IO_INI_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "saturn/error.h"

struct ini_entry {
    char *key; /* made by the key hook */
    char *value;
    int line;
    size_t header; /* section headers before this line (0: none) */
};

/* What the line hook makes of a line. */
enum {
    INI_LINE_NOMEM = -1,
    INI_LINE_KEY = 0,      /* hand inih the line without its leading blanks */
    INI_LINE_CONTINUE = 1, /* keep one blank: inih continues the previous value */
};

struct ini_hooks {
    void *user;
    /* Optional. Sees each line before inih does: text is the line without
     * its leading blanks, indented tells whether it had some, and a line
     * starting with '[' is a section header. Without the hook (or with
     * INI_LINE_KEY), an indented line is handed over unindented: inih would
     * otherwise take it as the continuation of the previous value (its
     * multi-line mode), and indenting keys under a section is a common
     * style. INI_LINE_CONTINUE applies to indented lines only. */
    int (*line)(void *user, const char *text, bool indented, int line);
    /* The key to store for name in section, malloc'd (NULL: out of memory). */
    char *(*key)(void *user, const char *section, const char *name);
    /* Required with INI_LINE_CONTINUE: appends the value of a continuation
     * line to the value of the last entry, which is in the same section,
     * by realloc'ing *value. Returns false when out of memory. */
    bool (*append)(void *user, char **value, const char *more);
};

struct ini_entries {
    const char *path;
    FILE *f; /* open until ini_entries_free */
    struct ini_entry *e;
    size_t n;
    int stop;     /* the first problem line (0: none): apply only the */
                  /* entries before it, then report it */
    int too_long; /* nonzero: the problem is a line longer than this */
    bool nul;     /* the problem is a NUL byte in the line */
};

/* Reads path into r. Errors: "PATH: cannot read: ..." (opening or reading)
 * and "PATH: out of memory"; a syntax error is not one (see r->stop). On
 * error r holds nothing (ini_entries_free is harmless). */
int ini_entries_read(struct ini_entries *r, const char *path,
                     const struct ini_hooks *hooks, struct saturn_error *err);

/* The error for the problem at r->stop (> 0): "PATH:LINE: syntax error: "
 * then, for a line inih rejected, "'TEXT' is " when quote, then "not "
 * forms; for an over-long line, "line longer than N characters" and
 * long_hint. */
int ini_entries_error(const struct ini_entries *r, bool quote, const char *forms,
                      const char *long_hint, struct saturn_error *err);

/* Frees the entries and closes the file. */
void ini_entries_free(struct ini_entries *r);

#endif
