#include <string.h>

#include "cli/cli.h"

static void list(void)
{
    size_t n = saturn_param_count();
    for (size_t i = 0; i < n; i++) {
        const struct saturn_param *p = saturn_param_at(i);
        char allowed[512];
        saturn_param_allowed(p, allowed, sizeof allowed);
        printf("%-28s %-8s default %-10s %s\n%30s allowed: %s\n", p->name,
               saturn_param_type_name(p->type), p->def, p->help, "", allowed);
    }
}

int cmd_config(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--list")) {
        list();
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "--man")) {
        cli_print_man(stdout);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "--presets")) {
        for (size_t i = 0; i < saturn_preset_count(); i++) {
            const char *help = NULL; /* set by the call: not in the same argument list */
            const char *name = saturn_preset_name(i, &help);
            printf("%-15s %s\n", name, help);
        }
        return 0;
    }
    struct cli_args a;
    int rc = cli_parse(argc, argv, &a, false);
    if (!rc && !a.help)
        rc = cli_only(&a, "config", 0);
    if (a.help)
        printf("usage: saturn config --list | --presets | --man\n"
               "       saturn config [FILE.ini] [key=value ...]\n\n"
               "--list prints every parameter: name, type, default, help, allowed values;\n"
               "--presets the named presets (--preset NAME on any command applies one\n"
               "before the file and the overrides); --man the manual page saturn(1), in\n"
               "roff (man -l <(saturn config --man) reads it).\n"
               "Otherwise prints the resolved configuration as an INI file (checked\n"
               "key by key; saturn run checks the combination).\n");
    else if (!rc)
        saturn_config_write_ini(a.cfg, stdout);
    cli_free(&a);
    return rc;
}
