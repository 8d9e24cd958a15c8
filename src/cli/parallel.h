/* A parallel for-loop over independent tasks on local cores (pthreads). */
#ifndef SATURN_CLI_PARALLEL_H
#define SATURN_CLI_PARALLEL_H

#include <stddef.h>

/* Calls fn(user, i) for i in [0, n) on up to jobs threads (jobs <= 0: every
 * online CPU). Tasks must be independent; each writes only its own output. */
void cli_parallel_for(size_t n, int jobs, void (*fn)(void *user, size_t i), void *user);
int cli_default_jobs(void);
/* The value of -j: a whole number >= 1, or -1 after printing an error. */
int cli_jobs_arg(const char *v);

#endif
