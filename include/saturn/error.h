/* saturn — status codes and the error record every fallible call fills. */
#ifndef SATURN_ERROR_H
#define SATURN_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

enum saturn_status {
    SATURN_OK = 0,
    SATURN_EINTERNAL = 1, /* a bug: an invariant failed */
    SATURN_EINPUT = 2,    /* bad configuration or command line */
    SATURN_EDEADLOCK = 3, /* the watchdog stopped a run */
    SATURN_ENOMEM = 4,
    SATURN_EIO = 5
};

struct saturn_error {
    int code;
    char msg[4096];
};

int saturn_error_set(struct saturn_error *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif
#endif
