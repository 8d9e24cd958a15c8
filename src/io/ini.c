/* INI configurations: load (inih), command-line overrides, and write back.
 *
 * Loading reads the whole file first (ini_read.c) and applies its keys only
 * afterwards: inih keeps parsing past a syntax error, and "stop at the first
 * error" must mean the first error in file order, whatever its kind. Within
 * one file a repeated key is allowed, the later line wins, and the
 * configuration keeps a warning that says so (saturn_config_warning). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/ini_read.h"
#include "saturn/io.h"
#include "saturn/saturn.h"

/* "section.name", or the name alone before any section. */
static char *join_key(void *user, const char *section, const char *name)
{
    size_t ns = strlen(section), nn = strlen(name);
    char *key = malloc(ns + nn + 2);
    if (!key)
        return NULL;
    if (ns) {
        memcpy(key, section, ns);
        key[ns] = '.';
        ns++;
    }
    memcpy(key + ns, name, nn + 1);
    return key;
}

/* Applies the entries before the first problem line (all without one). */
static int apply_entries(struct saturn_config *c, const struct ini_entries *r,
                         struct saturn_error *err)
{
    for (size_t i = 0; i < r->n; i++) {
        if (r->stop > 0 && r->e[i].line >= r->stop)
            break;
        int rc = saturn_config_set(c, r->e[i].key, r->e[i].value, r->path,
                                   r->e[i].line, err);
        if (rc != SATURN_OK)
            return rc;
    }
    return SATURN_OK;
}

int saturn_config_load_ini(struct saturn_config *c, const char *path,
                           struct saturn_error *err)
{
    struct ini_entries r;
    int rc = ini_entries_read(&r, path, &(struct ini_hooks){.key = join_key}, err);
    if (rc != SATURN_OK)
        return rc;
    rc = apply_entries(c, &r, err);
    if (rc == SATURN_OK && r.stop > 0)
        rc = ini_entries_error(&r, true, "'key = value', '[section]' or a comment", "", err);
    ini_entries_free(&r);
    return rc;
}

int saturn_config_apply_arg(struct saturn_config *c, const char *arg,
                            struct saturn_error *err)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return saturn_error_set(err, SATURN_EINPUT,
                                "command line: '%s' is not key=value", arg);
    size_t n = (size_t)(eq - arg);
    char *key = malloc(n + 1);
    if (!key)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    memcpy(key, arg, n);
    key[n] = 0;
    int rc = saturn_config_set(c, key, eq + 1, NULL, 0, err);
    free(key);
    return rc;
}

/* Length of the section part of "section.name" (0: no section). */
static size_t section_len(const char *key)
{
    const char *dot = strchr(key, '.');
    return dot ? (size_t)(dot - key) : 0;
}

static bool same_section(const char *a, const char *b)
{
    size_t n = section_len(a);
    return n == section_len(b) && strncmp(a, b, n) == 0;
}

/* True when an earlier parameter already had this key's section, so the
 * section was written with that one. */
static bool section_seen(size_t i)
{
    const char *key = saturn_param_at(i)->name;
    for (size_t j = 0; j < i; j++)
        if (same_section(saturn_param_at(j)->name, key))
            return true;
    return false;
}

/* Sections appear in the order of their first parameter; each holds its
 * parameters in registry order (tables of one section need not be adjacent).
 * INI has no quoting: a value containing " ;" (an inline comment to inih)
 * or a line break cannot be written back exactly. */
void saturn_config_write_ini(const struct saturn_config *c, FILE *f)
{
    size_t n = saturn_param_count();
    fprintf(f, "; saturn %s: the fully resolved configuration\n", SATURN_VERSION);
    for (size_t i = 0; i < n; i++) { /* keys without a section come first */
        const char *key = saturn_param_at(i)->name;
        if (section_len(key) == 0)
            fprintf(f, "%s = %s\n", key, saturn_config_value_text(c, i));
    }
    for (size_t i = 0; i < n; i++) {
        const char *key = saturn_param_at(i)->name;
        size_t sl = section_len(key);
        if (sl == 0 || section_seen(i))
            continue;
        fprintf(f, "\n[%.*s]\n", (int)sl, key);
        for (size_t j = i; j < n; j++) {
            const char *other = saturn_param_at(j)->name;
            if (same_section(key, other))
                fprintf(f, "%s = %s\n", other + sl + 1,
                        saturn_config_value_text(c, j));
        }
    }
}
