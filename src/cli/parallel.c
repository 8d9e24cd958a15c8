#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/parallel.h"

struct shared {
    pthread_mutex_t lock;
    size_t next, n;
    void (*fn)(void *, size_t);
    void *user;
};

static void *worker(void *arg)
{
    struct shared *s = arg;
    for (;;) {
        pthread_mutex_lock(&s->lock);
        size_t i = s->next < s->n ? s->next++ : s->n;
        pthread_mutex_unlock(&s->lock);
        if (i == s->n)
            return NULL;
        s->fn(s->user, i);
    }
}

int cli_default_jobs(void)
{
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 0 ? (int)c : 1;
}

void cli_parallel_for(size_t n, int jobs, void (*fn)(void *user, size_t i), void *user)
{
    if (jobs <= 0)
        jobs = cli_default_jobs();
    if ((size_t)jobs > n)
        jobs = (int)n;
    struct shared s = {.next = 0, .n = n, .fn = fn, .user = user};
    pthread_t *th = jobs > 1 ? calloc((size_t)jobs, sizeof *th) : NULL;
    int started = 0;
    if (th && pthread_mutex_init(&s.lock, NULL) == 0) {
        while (started < jobs && pthread_create(&th[started], NULL, worker, &s) == 0)
            started++;
        for (int t = 0; t < started; t++)
            pthread_join(th[t], NULL);
        pthread_mutex_destroy(&s.lock);
    }
    free(th);
    for (size_t i = s.next; i < n; i++) /* serial fallback (and jobs <= 1) */
        fn(user, i);
}

int cli_jobs_arg(const char *v)
{
    char *end;
    long j = strtol(v, &end, 10);
    if (end == v || *end || j < 1 || j > 4096) {
        fprintf(stderr, "saturn: error: -j %s: give a number of workers, 1 to 4096\n", v);
        return -1;
    }
    return (int)j;
}
