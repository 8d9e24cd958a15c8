/* JSON records (cJSON) and atomic file output. */
#define _GNU_SOURCE /* fchmod, fsync */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "io/file_mode.h"
#include "saturn/io.h"
#include "saturn/saturn.h"

/* One configuration value, typed as the registry declares it. */
static cJSON *config_value(const struct saturn_config *c,
                           const struct saturn_param *p)
{
    switch (p->type) {
    case SATURN_PARAM_INT:
        return cJSON_CreateNumber((double)saturn_config_int(c, p->name));
    case SATURN_PARAM_REAL:
        return cJSON_CreateNumber(saturn_config_real(c, p->name));
    case SATURN_PARAM_BOOL:
        return cJSON_CreateBool(saturn_config_bool(c, p->name));
    case SATURN_PARAM_INTLIST: {
        int64_t v[SATURN_LIST_MAX];
        int n = saturn_config_list(c, p->name, v, SATURN_LIST_MAX);
        cJSON *a = cJSON_CreateArray();
        for (int i = 0; a && i < n && i < SATURN_LIST_MAX; i++)
            cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
        return a;
    }
    case SATURN_PARAM_ENUM:
    case SATURN_PARAM_STRING:
        break;
    }
    return cJSON_CreateString(saturn_config_str(c, p->name));
}

static cJSON *config_json(const struct saturn_config *c)
{
    cJSON *o = cJSON_CreateObject();
    size_t n = saturn_param_count();
    for (size_t i = 0; o && i < n; i++) {
        const struct saturn_param *p = saturn_param_at(i);
        cJSON_AddItemToObject(o, p->name, config_value(c, p));
    }
    return o;
}

static cJSON *latency_json(const struct saturn_latency *l)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "count", (double)l->count);
    cJSON_AddNumberToObject(o, "mean", l->mean);
    cJSON_AddNumberToObject(o, "min", l->min);
    cJSON_AddNumberToObject(o, "p50", l->p50);
    cJSON_AddNumberToObject(o, "p99", l->p99);
    cJSON_AddNumberToObject(o, "max", l->max);
    return o;
}

static cJSON *hist_json(const struct saturn_results *r)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && r->hist && i < r->hist_n; i++) {
        cJSON *b = cJSON_CreateObject();
        cJSON_AddNumberToObject(b, "lo", (double)r->hist[i].lo);
        cJSON_AddNumberToObject(b, "hi", (double)r->hist[i].hi);
        cJSON_AddNumberToObject(b, "count", (double)r->hist[i].count);
        cJSON_AddItemToArray(a, b);
    }
    return a;
}

/* Counters become doubles: exact below 2^53, far beyond our runs. */
static void add_u64(cJSON *o, const char *name, uint64_t v)
{
    cJSON_AddNumberToObject(o, name, (double)v);
}

static void add_run_fields(cJSON *o, const struct saturn_results *r)
{
    if (r->workload)
        cJSON_AddStringToObject(o, "workload", r->workload);
    add_u64(o, "seed", r->seed);
    add_u64(o, "nodes", r->nodes);
    add_u64(o, "routers", r->routers);
    add_u64(o, "cycles", r->cycles);
}

static void add_steady_fields(cJSON *o, const struct saturn_results *r)
{
    add_u64(o, "warmup", r->warmup);
    add_u64(o, "measure", r->measure);
    cJSON_AddNumberToObject(o, "offered", r->offered);
    cJSON_AddNumberToObject(o, "accepted", r->accepted);
    add_u64(o, "measured_packets", r->measured_packets);
    add_u64(o, "measured_delivered", r->measured_delivered);
    cJSON_AddBoolToObject(o, "drained", r->drained);
    cJSON_AddBoolToObject(o, "saturated", r->saturated);
    /* A fixed array, so always a string (empty when not saturated). */
    char why[sizeof r->saturated_why + 1];
    memcpy(why, r->saturated_why, sizeof r->saturated_why);
    why[sizeof r->saturated_why] = 0;
    cJSON_AddStringToObject(o, "saturated_why", why);
    cJSON_AddNumberToObject(o, "backlog_growth", r->backlog_growth);
}

static void add_measure_fields(cJSON *o, const struct saturn_results *r)
{
    add_u64(o, "collective_packets", r->collective_packets);
    add_u64(o, "duration", r->duration);
    if (r->trace_messages) { /* trace replay only */
        add_u64(o, "trace_messages", r->trace_messages);
        cJSON_AddNumberToObject(o, "message_latency_mean", r->message_latency_mean);
    }
    cJSON_AddItemToObject(o, "packet_latency", latency_json(&r->packet_latency));
    cJSON_AddItemToObject(o, "network_latency", latency_json(&r->network_latency));
    cJSON_AddNumberToObject(o, "hops_mean", r->hops_mean);
    cJSON_AddNumberToObject(o, "misrouted_global", r->misrouted_global);
    cJSON_AddNumberToObject(o, "misrouted_local", r->misrouted_local);
    cJSON_AddNumberToObject(o, "inflight_mean", r->inflight_mean);
    cJSON_AddNumberToObject(o, "little_n", r->little_n);
    cJSON_AddNumberToObject(o, "little_lambda_n_tau", r->little_lambda_n_tau);
    cJSON_AddNumberToObject(o, "source_queue_mean", r->source_queue_mean);
    cJSON_AddNumberToObject(o, "collective_slices", (double)r->collective_slices);
    cJSON_AddNumberToObject(o, "slice_flits", (double)r->slice_flits);
    cJSON_AddNumberToObject(o, "thickness", (double)r->thickness);
    cJSON_AddNumberToObject(o, "critical_load", r->critical_load);
    cJSON_AddNumberToObject(o, "critical_nominal", r->critical_nominal);
    cJSON_AddNumberToObject(o, "critical_drop", r->critical_drop);
    cJSON_AddNumberToObject(o, "critical_gradient", r->critical_gradient);
    cJSON_AddNumberToObject(o, "critical_cycle", (double)r->critical_cycle);
    cJSON_AddNumberToObject(o, "mobility_mean", r->mobility_mean);
    cJSON_AddNumberToObject(o, "recoveries", (double)r->recoveries);
    cJSON_AddNumberToObject(o, "recovery_busy", (double)r->recovery_busy);
    cJSON_AddNumberToObject(o, "valid_per_router", r->valid_per_router);
    if (r->metapackets) {
        cJSON_AddNumberToObject(o, "gathers", (double)r->gathers);
        cJSON_AddNumberToObject(o, "gather_min", r->gather_min);
        cJSON_AddNumberToObject(o, "gather_mean", r->gather_mean);
        cJSON_AddNumberToObject(o, "gather_max", r->gather_max);
    }
    if (r->entropy_mean < 0) /* undefined: no packet stayed a whole window */
        cJSON_AddNullToObject(o, "entropy_mean");
    else
        cJSON_AddNumberToObject(o, "entropy_mean", r->entropy_mean);
    cJSON_AddNumberToObject(o, "throttled_mean", r->throttled_mean);
    cJSON_AddNumberToObject(o, "sums_age_mean", r->sums_age_mean);
    cJSON_AddNumberToObject(o, "sums_age_max", (double)r->sums_age_max);
    cJSON_AddNumberToObject(o, "sums_hops_free", r->sums_hops_free);
    cJSON_AddItemToObject(o, "hist", hist_json(r));
}

static void add_simulator_fields(cJSON *o, const struct saturn_results *r)
{
    cJSON_AddNumberToObject(o, "wall_seconds", r->wall_seconds);
    add_u64(o, "flit_hops", r->flit_hops);
    add_u64(o, "router_cycles", r->router_cycles);
    add_u64(o, "threads", r->threads);
    add_u64(o, "block_cycles", r->block_cycles);
    cJSON_AddNumberToObject(o, "peak_rss_kb", (double)r->peak_rss_kb);
}

static cJSON *results_json(const struct saturn_results *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_run_fields(o, r);
    add_steady_fields(o, r);
    add_measure_fields(o, r);
    add_simulator_fields(o, r);
    return o;
}

/* cJSON skips NULL items silently, so an allocation failure anywhere shows
 * up only as a missing member: check the three top-level parts and count
 * on cJSON_Print failing when memory is that short. */
char *saturn_results_json(const struct saturn_config *c,
                          const struct saturn_results *r)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON *cfg = config_json(c), *res = results_json(r);
    char *out = NULL;
    if (cJSON_AddStringToObject(root, "saturn", SATURN_VERSION) && cfg && res) {
        cJSON_AddItemToObject(root, "config", cfg);
        cJSON_AddItemToObject(root, "results", res);
        cfg = res = NULL;
        out = cJSON_Print(root);
    }
    cJSON_Delete(cfg);
    cJSON_Delete(res);
    cJSON_Delete(root);
    return out;
}

/* The mode a plain fopen(path, "w") would give: 0666 less the umask.
 * umask() cannot be read without setting it (a race with other threads),
 * so ask /proc; 022 when that is unavailable. */
mode_t io_new_file_mode(void)
{
    mode_t mask = 022;
    FILE *f = fopen("/proc/self/status", "r");
    if (f) {
        char line[256];
        unsigned m;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "Umask: %o", &m) == 1) {
                mask = (mode_t)m;
                break;
            }
        fclose(f);
    }
    return 0666 & ~mask;
}

static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, data, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        data += w;
        len -= (size_t)w;
    }
    return 0;
}

/* A bad place to write (missing or read-only folder) is the user's input
 * error (exit 2); anything else is an I/O failure. */
static int path_error_code(int e)
{
    switch (e) {
    case ENOENT: case ENOTDIR: case EACCES: case EPERM: case EROFS:
    case EISDIR: case ENAMETOOLONG:
        return SATURN_EINPUT;
    default:
        return SATURN_EIO;
    }
}

/* Makes the rename itself durable; best effort (some file systems refuse). */
static void sync_parent(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
    if (!dir)
        return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

int saturn_write_file_atomic(const char *path, const char *data, size_t len,
                             struct saturn_error *err)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + sizeof ".tmp.XXXXXX");
    if (!tmp)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return saturn_error_set(err, path_error_code(e), "%s: cannot write: %s",
                                path, strerror(e));
    }
    /* Once the temporary exists the folder is fine: later failures are
     * I/O errors, except a directory standing where the file should go. */
    const char *step = "cannot write";
    int e = 0;
    errno = 0;
    if (fchmod(fd, io_new_file_mode()) != 0 || write_all(fd, data, len) != 0)
        e = errno ? errno : EIO;
    else if (fsync(fd) != 0)
        e = errno, step = "cannot sync";
    if (close(fd) != 0 && e == 0)
        e = errno;
    if (e == 0 && rename(tmp, path) != 0)
        e = errno, step = "cannot rename into place";
    if (e != 0) {
        unlink(tmp);
        free(tmp);
        return saturn_error_set(err, e == EISDIR ? SATURN_EINPUT : SATURN_EIO,
                                "%s: %s: %s", path, step, strerror(e));
    }
    free(tmp);
    sync_parent(path);
    return SATURN_OK;
}
