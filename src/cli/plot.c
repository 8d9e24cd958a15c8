/* saturn ... --plot PATH: figures drawn by gnuplot (the scripts are
 * src/io/plot.c's). gnuplot is looked for before the run, so a missing
 * one costs no simulation; the figure is written under a temporary name
 * and renamed when gnuplot succeeded. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "io/file_mode.h"
#include "io/plot.h"

/* Whether an executable named name is on PATH. */
static bool on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    char dir[4096];
    while (*path) {
        size_t n = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s/%s", (int)n, n ? path : ".", name);
        struct stat st;
        if (stat(dir, &st) == 0 && S_ISREG(st.st_mode) && access(dir, X_OK) == 0)
            return true;
        path += n + (path[n] == ':');
    }
    return false;
}

int cli_plot_check(const char *path)
{
    if (!path)
        return 0;
    char term[160];
    struct saturn_error err = {0};
    if (plot_terminal("--plot", path, term, sizeof term, &err))
        return cli_fail(&err);
    if (!on_path("gnuplot")) {
        fprintf(stderr, "saturn: error: --plot %s: gnuplot is not installed; install it "
                        "(apt-get install gnuplot-nox, or bash scripts/deps.sh) or leave out "
                        "--plot\n", path);
        return EXIT_BAD_INPUT;
    }
    return 0;
}

char *cli_plot_tmp(const char *path)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp)
        return NULL;
    snprintf(tmp, n, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "saturn: error: --plot %s: cannot write: %s\n", path, strerror(errno));
        free(tmp);
        return NULL;
    }
    close(fd);
    return tmp;
}

int cli_plot_draw(const char *path, const char *tmp, char *script)
{
    int rc = 0;
    if (!script)
        return 1;
    /* gnuplot failing early must not kill saturn with SIGPIPE */
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    FILE *g = popen("gnuplot", "w");
    if (!g) {
        fprintf(stderr, "saturn: error: --plot %s: cannot start gnuplot: %s\n", path,
                strerror(errno));
        rc = 1;
    } else {
        fputs(script, g);
        int st = pclose(g);
        struct stat sb;
        if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || stat(tmp, &sb) != 0 ||
            sb.st_size == 0) {
            fprintf(stderr, "saturn: error: --plot %s: gnuplot failed (its message, if "
                            "any, is above)\n", path);
            rc = 1;
        } else if (chmod(tmp, io_new_file_mode()) != 0) {
            fprintf(stderr, "saturn: error: --plot %s: %s\n", path, strerror(errno));
            rc = 1;
        }
    }
    signal(SIGPIPE, old);
    free(script);
    return rc;
}

int cli_plot_run(const char *path, char *tmp, char *script)
{
    int rc = cli_plot_draw(path, tmp, script);
    if (!rc && rename(tmp, path) != 0) {
        fprintf(stderr, "saturn: error: --plot %s: %s\n", path, strerror(errno));
        rc = 1;
    }
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc;
}
