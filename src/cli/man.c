/* saturn config --man: the manual page saturn(1), made from the commands,
 * the parameter registry and the presets, so that it cannot drift from
 * them. Installed by cmake --install. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* Text for roff: backslashes doubled, a leading dot or quote guarded. */
static void roff(FILE *f, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else if (*s == '\n')
            fputs("\n.br\n", f);
        else if (*s == '|' || *s == '/' || *s == ',')
            fprintf(f, "%c\\:", *s); /* a|b|c may break after each | */
        else
            fputc(*s, f);
    }
}

/* Length of the section part of a key. */
static size_t section_len(const char *key)
{
    const char *dot = strchr(key, '.');
    return dot ? (size_t)(dot - key) : 0;
}

static void parameters(FILE *f)
{
    size_t n = saturn_param_count();
    char *done = calloc(n, 1);
    if (!done)
        return;
    for (size_t i = 0; i < n; i++) { /* a section once, its keys gathered */
        if (done[i])
            continue;
        const char *first = saturn_param_at(i)->name;
        size_t sl = section_len(first);
        fprintf(f, ".SS [%.*s]\n", (int)sl, first);
        for (size_t j = i; j < n; j++) {
            const struct saturn_param *p = saturn_param_at(j);
            if (done[j] || section_len(p->name) != sl || strncmp(p->name, first, sl))
                continue;
            done[j] = 1;
            char allowed[600];
            saturn_param_allowed(p, allowed, sizeof allowed);
            fputs(".TP\n.B ", f);
            roff(f, p->name);
            fputs("\n", f);
            roff(f, p->help);
            fputs("\n.br\n", f);
            fprintf(f, "Type %s, default ", saturn_param_type_name(p->type));
            roff(f, p->def[0] ? p->def : "(empty)");
            fputs("; allowed: ", f);
            roff(f, allowed);
            fputs(".\n", f);
        }
    }
    free(done);
}

void cli_print_man(FILE *f)
{
    fprintf(f, ".\\\" saturn(1), made by saturn config --man from the parameter registry\n");
    fprintf(f, ".TH SATURN 1 \"\" \"saturn %s\" \"User Commands\"\n", saturn_version());
    fputs(".SH NAME\nsaturn \\- a cycle\\-accurate, flit\\-level interconnection\\-network simulator\n"
          ".SH SYNOPSIS\n.B saturn\n.I command\n[\\fB\\-\\-preset\\fR \\fINAME\\fR] "
          "[\\fIFILE.ini\\fR] [\\fIkey\\fR=\\fIvalue\\fR ...] [\\fIoptions\\fR]\n"
          ".SH DESCRIPTION\n"
          "saturn simulates k\\-ary n\\-cube tori and meshes and canonical Dragonflies flit by "
          "flit and cycle by cycle: one parametric router (input\\-queued, virtual channels, "
          "credits, optional output buffers, speedup; wormhole, virtual cut\\-through or "
          "unlimited buffers) with pluggable routing, traffic patterns, injection control "
          "and workloads.\n.PP\n"
          "A configuration is the defaults, then a preset (\\fB\\-\\-preset\\fR), then an INI "
          "file (\\fB[section]\\fR then \\fIname\\fR = \\fIvalue\\fR), then \\fIkey\\fR=\\fIvalue\\fR "
          "overrides on the command line, the last one winning (a key given twice in one file "
          "or on the command line is warned about). Every key is \\fIsection.name\\fR; "
          "PARAMETERS lists them all.\n"
          ".PP\nResults go to standard output and to the files the options name; progress "
          "goes to standard error.\n"
          ".SH COMMANDS\n", f);
    const char *help;
    for (size_t i = 0; cli_command(i, &help); i++) {
        fputs(".TP\n.B ", f);
        roff(f, cli_command(i, &help));
        fputs("\n", f);
        for (const char *h = help; *h; h++) /* the usage text's lines, as one */
            fputc(*h == '\n' ? ' ' : *h, f);
        fputs("\n", f);
    }
    fputs(".PP\n\\fBsaturn\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR explains a command and all "
          "its options.\n"
          ".SH OPTIONS\nCommon to the commands that take them:\n"
          ".TP\n.BI \\-\\-preset \" NAME\"\nApply a preset first (PRESETS).\n"
          ".TP\n.BI \\-\\-json \" PATH\"\nWrite a JSON record (run, ga).\n"
          ".TP\n.BI \\-\\-csv \" PATH\"\nWrite a CSV file (curve, sweep, cupstack).\n"
          ".TP\n.BI \\-\\-plot \" PATH\"\nDraw a figure with gnuplot (.png, .svg or .pdf): "
          "latency against accepted load (curve, sweep) or the time series (run with "
          "\\fB\\-\\-series\\fR).\n"
          ".TP\n.BI \\-\\-chart \" PATH\"\nDraw the link\\-by\\-cycle chart of a collective "
          "(run; .png or .svg).\n"
          ".TP\n.B \\-\\-verbose\nShow every key in a summary, not only those that apply.\n"
          ".TP\n.BR \\-\\-progress [ =live | =plain ]\nProgress on standard error: by default a "
          "line redrawn in place on a terminal and a line every few seconds otherwise; this "
          "forces it on, in that style. \\fB\\-\\-no\\-progress\\fR turns it off.\n"
          ".TP\n.B \\-q\nPrint nothing but errors.\n"
          ".PP\nEvery output path is checked before a simulation runs.\n"
          ".SH PRESETS\n", f);
    for (size_t i = 0; i < saturn_preset_count(); i++) {
        const char *ph = NULL;
        const char *name = saturn_preset_name(i, &ph);
        fputs(".TP\n.B ", f);
        roff(f, name);
        fputs("\n", f);
        roff(f, ph ? ph : "");
        fputs("\n", f);
    }
    fputs(".SH PARAMETERS\n", f);
    parameters(f);
    fputs(".SH EXIT STATUS\n0 success; 2 bad input (configuration, command line, output path: "
          "one message naming file, line, key and value, and no output written); 3 deadlock "
          "(the watchdog stopped the run, with a wait\\-for report); 1 anything else.\n"
          ".SH EXAMPLES\n.nf\n"
          "saturn run network.k=16 traffic.pattern=transpose \\-\\-json out.json\n"
          "saturn curve examples/default.ini \\-\\-csv torus8.csv \\-\\-plot torus8.png\n"
          "saturn sweep examples/sweep_vcs.ini \\-\\-csv vcs.csv \\-\\-summary\n"
          "saturn config \\-\\-list\n"
          ".fi\n"
          ".SH SEE ALSO\n"
          "The library: include/saturn/saturn.h, \\fBpkg\\-config \\-\\-cflags \\-\\-libs saturn\\fR "
          "(the engine) and \\fBsaturn\\-io\\fR (files); in CMake, \\fBfind_package(saturn)\\fR "
          "and \\fBsaturn::saturn\\fR.\n", f);
}
