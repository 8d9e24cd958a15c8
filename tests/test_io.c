/* INI loading and writing, command-line words, JSON records, atomic files
 * (src/io/). Files live in a fresh temporary folder per test. */
#define _GNU_SOURCE /* mkdtemp, open_memstream */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "support.h"
#include "saturn/io.h"

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle))
        fail_msg("'%s' does not contain '%s'", haystack, needle);
}

/* Sections, comments, indented and repeated keys (the later wins). */
static void test_load_sections(void **state)
{
    const char *path = test_put_file(*state, "a.ini",
                                "; a comment\n"
                                "# another\n"
                                "network.topology = mesh\n"
                                "\n"
                                "[network]\n"
                                "k = 4,8   ; inline comment\n"
                                "  n = 2\n"   /* indented keys are keys */
                                "    k=6\n"); /* repeated: the later wins */
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_load_ini(c, path, &err), SATURN_OK);
    assert_string_equal(saturn_config_str(c, "network.topology"), "mesh");
    assert_int_equal(saturn_config_int(c, "network.n"), 2);
    int64_t v[SATURN_LIST_MAX];
    assert_int_equal(saturn_config_list(c, "network.k", v, SATURN_LIST_MAX), 1);
    assert_int_equal(v[0], 6);
    int line = 0;
    assert_string_equal(saturn_config_origin(c, "network.topology", &line), path);
    assert_int_equal(line, 3);
    saturn_config_origin(c, "network.n", &line);
    assert_int_equal(line, 7);
    saturn_config_origin(c, "network.k", &line);
    assert_int_equal(line, 8);
    saturn_config_free(c);
}

static void test_error_names_line(void **state)
{
    const char *path = test_put_file(*state, "bad.ini",
                                "[network]\n"
                                "k = 4\n"
                                "n = abc\n"
                                "topology = mesh\n");
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_load_ini(c, path, &err), SATURN_EINPUT);
    char want[700];
    snprintf(want, sizeof want, "%s:3: network.n = abc: not an integer", path);
    assert_contains(err.msg, want);
    /* stopped at the first error: line 4 was not applied */
    assert_string_equal(saturn_config_str(c, "network.topology"), "torus");
    saturn_config_free(c);

    path = test_put_file(*state, "typo.ini", "\n[network]\ntpology = mesh\n");
    c = saturn_config_new();
    assert_int_equal(saturn_config_load_ini(c, path, &err), SATURN_EINPUT);
    snprintf(want, sizeof want, "%s:3: unknown key 'network.tpology'", path);
    assert_contains(err.msg, want);
    assert_contains(err.msg, "did you mean 'network.topology'?");
    saturn_config_free(c);

    /* a bare key before any section is not guessed, only suggested */
    path = test_put_file(*state, "bare.ini", "n = 3\n");
    c = saturn_config_new();
    assert_int_equal(saturn_config_load_ini(c, path, &err), SATURN_EINPUT);
    assert_contains(err.msg, "bare.ini:1: unknown key 'n'; did you mean 'network.n'");
    saturn_config_free(c);
}

static void test_unreadable(void **state)
{
    struct test_dir *d = *state;
    char path[600];
    snprintf(path, sizeof path, "%s/missing.ini", d->path);
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_load_ini(c, path, &err), SATURN_EINPUT);
    char want[700];
    snprintf(want, sizeof want, "%s: cannot read: No such file or directory", path);
    assert_string_equal(err.msg, want);

    assert_int_equal(saturn_config_load_ini(c, d->path, &err), SATURN_EINPUT);
    snprintf(want, sizeof want, "%s: cannot read: Is a directory", d->path);
    assert_string_equal(err.msg, want);
    saturn_config_free(c);
}

static void test_syntax_error(void **state)
{
    const char *path = test_put_file(*state, "syn.ini",
                                "[network]\n"
                                "n = 3\n"
                                "this line has no equals sign\n"
                                "topology = mesh\n");
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_load_ini(c, path, &err), SATURN_EINPUT);
    char want[700];
    snprintf(want, sizeof want,
             "%s:3: syntax error: 'this line has no equals sign'", path);
    assert_contains(err.msg, want);
    assert_int_equal(saturn_config_int(c, "network.n"), 3);  /* before: applied */
    assert_string_equal(saturn_config_str(c, "network.topology"), "torus"); /* after: not */
    saturn_config_free(c);

    /* an unclosed section header */
    path = test_put_file(*state, "sec.ini", "[network\nn = 3\n");
    c = saturn_config_new();
    assert_int_equal(saturn_config_load_ini(c, path, &err), SATURN_EINPUT);
    assert_contains(err.msg, "sec.ini:1: syntax error");
    saturn_config_free(c);

    /* a bad value before a syntax error is the first error */
    path = test_put_file(*state, "both.ini", "[network]\nn = 0\ngarbage\n");
    c = saturn_config_new();
    assert_int_equal(saturn_config_load_ini(c, path, &err), SATURN_EINPUT);
    assert_contains(err.msg, "both.ini:2: network.n = 0: out of range");
    saturn_config_free(c);
}

static void test_long_line(void **state)
{
    char text[1200] = "[network]\nn = 3\ntopology = ";
    size_t n = strlen(text);
    memset(text + n, 'x', 1000);
    strcpy(text + n + 1000, "\nk = 4\n");
    const char *path = test_put_file(*state, "long.ini", text);
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_load_ini(c, path, &err), SATURN_EINPUT);
    assert_contains(err.msg, "long.ini:3: syntax error: line longer than");
    assert_int_equal(saturn_config_int(c, "network.n"), 3);
    saturn_config_free(c);
}

/* Regression (stress issue): old Mac files end lines with a lone carriage
 * return; the reader took the whole file for one line and overflowed the
 * parser's line buffer. "\r", "\r\n" and "\n" all end a line, mixed too. */
static void test_carriage_return_lines(void **state)
{
    char text[4000] = "[network]\rn = 3\r\ntopology = mesh\r";
    for (int i = 0; i < 300; i++)
        strcat(text, "k = 4\r");
    strcat(text, "garbage\r");
    const char *path = test_put_file(*state, "cr.ini", text);
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_load_ini(c, path, &err), SATURN_EINPUT);
    /* the syntax error on line 304 (3 + 300 + 1), quoted without its line end */
    assert_contains(err.msg, "cr.ini:304: syntax error: 'garbage' is not");
    assert_int_equal(saturn_config_int(c, "network.n"), 3);
    assert_string_equal(saturn_config_str(c, "network.topology"), "mesh");
    saturn_config_free(c);

    /* a lone carriage return inside an over-long line is still over-long */
    char big[3000] = "[network]\rtopology = ";
    size_t n = strlen(big);
    memset(big + n, 'x', 2000);
    strcpy(big + n + 2000, "\r");
    path = test_put_file(*state, "crlong.ini", big);
    c = saturn_config_new();
    assert_int_equal(saturn_config_load_ini(c, path, &err), SATURN_EINPUT);
    assert_contains(err.msg, "crlong.ini:2: syntax error: line longer than");
    saturn_config_free(c);
}

/* A NUL byte is an error with its line, not a silently cut line. */
static void test_nul_byte(void **state)
{
    const char *path = test_put_file(*state, "nul.ini", "[network]\nn = 3\n");
    FILE *f = fopen(path, "ab");
    assert_non_null(f);
    static const char line[] = "k = 4\0junk\nn = 2\n";
    fwrite(line, 1, sizeof line - 1, f); /* not the literal's own terminating NUL */
    fclose(f);
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_load_ini(c, path, &err), SATURN_EINPUT);
    assert_contains(err.msg, "nul.ini:3: syntax error: a NUL byte");
    assert_int_equal(saturn_config_int(c, "network.n"), 3);
    saturn_config_free(c);
}

static void assert_same_config(const struct saturn_config *a,
                               const struct saturn_config *b)
{
    for (size_t i = 0; i < saturn_param_count(); i++)
        assert_string_equal(saturn_config_value_text(a, i),
                            saturn_config_value_text(b, i));
}

static void test_write_ini_round_trip(void **state)
{
    struct test_dir *d = *state;
    const char *const kv[] = {"network.k=4,8", "network.n=2",
                              "network.topology=mesh", NULL};
    struct saturn_config *a = test_config(kv);
    char path[600];
    snprintf(path, sizeof path, "%s/out.ini", d->path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    saturn_config_write_ini(a, f);
    fclose(f);

    char *text = test_slurp(path);
    assert_contains(text, "[network]\ntopology = mesh\nk = 4,8\nn = 2\n");
    assert_null(strstr(text, "network.n")); /* written under its section */
    free(text);

    struct saturn_config *b = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_load_ini(b, path, &err), SATURN_OK);
    assert_same_config(a, b);
    saturn_config_free(b);

    /* the defaults round-trip too (every key is written) */
    struct saturn_config *def = saturn_config_new();
    f = fopen(path, "w");
    saturn_config_write_ini(def, f);
    fclose(f);
    b = saturn_config_new();
    assert_int_equal(saturn_config_set(b, "network.n", "3", NULL, 0, &err), SATURN_OK);
    assert_int_equal(saturn_config_load_ini(b, path, &err), SATURN_OK);
    assert_same_config(def, b);
    for (size_t i = 0; i < saturn_param_count(); i++)
        assert_true(saturn_config_is_set(b, saturn_param_at(i)->name));
    saturn_config_free(b);
    saturn_config_free(def);
    saturn_config_free(a);
}

static void test_apply_arg(void **state)
{
    (void)state;
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_apply_arg(c, "network.n=3", &err), SATURN_OK);
    assert_int_equal(saturn_config_int(c, "network.n"), 3);
    assert_string_equal(saturn_config_origin(c, "network.n", NULL), "command line");

    assert_int_equal(saturn_config_apply_arg(c, "novalue", &err), SATURN_EINPUT);
    assert_string_equal(err.msg, "command line: 'novalue' is not key=value");
    assert_int_equal(saturn_config_apply_arg(c, "=3", &err), SATURN_EINPUT);
    assert_string_equal(err.msg, "command line: '=3' is not key=value");

    assert_int_equal(saturn_config_apply_arg(c, "network.k=4=5", &err), SATURN_EINPUT);
    assert_contains(err.msg, "command line: network.k = 4=5: bad list");
    assert_int_equal(saturn_config_apply_arg(c, "network.n=", &err), SATURN_EINPUT);
    assert_contains(err.msg, "not an integer");
    assert_int_equal(saturn_config_apply_arg(c, "network.tpology=mesh", &err), SATURN_EINPUT);
    assert_contains(err.msg, "did you mean 'network.topology'?");
    assert_int_equal(saturn_config_int(c, "network.n"), 3);
    saturn_config_free(c);
}

static const cJSON *member(const cJSON *o, const char *name)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!m)
        fail_msg("no member '%s'", name);
    return m;
}

static double number(const cJSON *o, const char *name)
{
    const cJSON *m = member(o, name);
    assert_true(cJSON_IsNumber(m));
    return m->valuedouble;
}

static void fill_results(struct saturn_results *r)
{
    memset(r, 0, sizeof *r);
    r->workload = "steady";
    r->seed = 42;
    r->nodes = r->routers = 64;
    r->cycles = 123456789;
    r->warmup = 1000;
    r->measure = 5000;
    r->offered = 0.25;
    r->accepted = 0.2475;
    r->measured_packets = 9000;
    r->measured_delivered = 8999;
    r->drained = true;
    r->saturated = false;
    r->backlog_growth = 0.01;
    r->packet_latency = (struct saturn_latency){100, 21.5, 3, 20, 60, 90};
    r->network_latency = (struct saturn_latency){100, 11.5, 2, 10, 30, 45};
    r->hops_mean = 4.0;
    r->inflight_mean = 12.5;
    r->source_queue_mean = 0.125;
    r->hist_n = 2;
    r->hist = calloc(2, sizeof *r->hist);
    r->hist[0] = (struct saturn_bucket){0, 15, 60};
    r->hist[1] = (struct saturn_bucket){16, 31, 40};
    r->wall_seconds = 1.5;
    r->flit_hops = 1ULL << 40;
    r->router_cycles = 7;
    r->peak_rss_kb = 2048;
}

static void check_config_json(const cJSON *cfg)
{
    assert_int_equal(cJSON_GetArraySize(cfg), (int)saturn_param_count());
    const cJSON *k = member(cfg, "network.k");
    assert_true(cJSON_IsArray(k));
    assert_int_equal(cJSON_GetArraySize(k), 2);
    assert_true(cJSON_GetArrayItem(k, 0)->valuedouble == 4);
    assert_true(cJSON_GetArrayItem(k, 1)->valuedouble == 8);
    assert_true(number(cfg, "network.n") == 3);
    assert_string_equal(cJSON_GetStringValue(member(cfg, "network.topology")), "mesh");
    for (size_t i = 0; i < saturn_param_count(); i++) { /* typed as declared */
        const struct saturn_param *p = saturn_param_at(i);
        const cJSON *m = member(cfg, p->name);
        switch (p->type) {
        case SATURN_PARAM_INT: case SATURN_PARAM_REAL: assert_true(cJSON_IsNumber(m)); break;
        case SATURN_PARAM_BOOL: assert_true(cJSON_IsBool(m)); break;
        case SATURN_PARAM_INTLIST: assert_true(cJSON_IsArray(m)); break;
        case SATURN_PARAM_ENUM: case SATURN_PARAM_STRING: assert_true(cJSON_IsString(m)); break;
        }
    }
}

static void check_results_json(const cJSON *res)
{
    assert_string_equal(cJSON_GetStringValue(member(res, "workload")), "steady");
    assert_true(number(res, "seed") == 42);
    assert_true(number(res, "cycles") == 123456789);
    assert_true(number(res, "accepted") == 0.2475);
    assert_true(number(res, "measured_delivered") == 8999);
    assert_true(cJSON_IsTrue(member(res, "drained")));
    assert_true(cJSON_IsFalse(member(res, "saturated")));
    assert_string_equal(cJSON_GetStringValue(member(res, "saturated_why")), "");
    const cJSON *pl = member(res, "packet_latency");
    assert_true(number(pl, "mean") == 21.5);
    assert_true(number(pl, "p99") == 60);
    assert_true(number(pl, "count") == 100);
    assert_true(number(member(res, "network_latency"), "max") == 45);
    assert_true(number(res, "source_queue_mean") == 0.125);
    const cJSON *h = member(res, "hist");
    assert_int_equal(cJSON_GetArraySize(h), 2);
    assert_true(number(cJSON_GetArrayItem(h, 1), "lo") == 16);
    assert_true(number(cJSON_GetArrayItem(h, 1), "hi") == 31);
    assert_true(number(cJSON_GetArrayItem(h, 1), "count") == 40);
    assert_true(number(res, "flit_hops") == (double)(1ULL << 40));
    assert_true(number(res, "peak_rss_kb") == 2048);
    assert_true(number(res, "wall_seconds") == 1.5);
    static const char *const rest[] = {
        "nodes", "routers", "warmup", "measure", "offered", "measured_packets",
        "backlog_growth", "collective_packets", "duration", "hops_mean",
        "inflight_mean", "router_cycles"};
    for (size_t i = 0; i < sizeof rest / sizeof *rest; i++)
        number(res, rest[i]);
}

static void test_json(void **state)
{
    (void)state;
    const char *const kv[] = {"network.k=4,8", "network.n=3",
                              "network.topology=mesh", NULL};
    struct saturn_config *c = test_config(kv);
    struct saturn_results r;
    fill_results(&r);
    char *text = saturn_results_json(c, &r);
    assert_non_null(text);
    assert_non_null(strchr(text, '\n')); /* pretty printed */
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    assert_string_equal(cJSON_GetStringValue(member(root, "saturn")), SATURN_VERSION);
    check_config_json(member(root, "config"));
    check_results_json(member(root, "results"));
    cJSON_Delete(root);
    free(text);

    /* a NULL string is left out; an empty histogram is an empty array */
    saturn_results_free(&r);
    text = saturn_results_json(c, &r);
    root = cJSON_Parse(text);
    const cJSON *res = member(root, "results");
    assert_null(cJSON_GetObjectItemCaseSensitive(res, "workload"));
    assert_int_equal(cJSON_GetArraySize(member(res, "hist")), 0);
    cJSON_Delete(root);
    free(text);
    saturn_config_free(c);
}

static void test_results_free(void **state)
{
    (void)state;
    struct saturn_results r;
    fill_results(&r);
    saturn_results_free(&r);
    assert_null(r.hist);
    assert_int_equal(r.hist_n, 0);
    assert_int_equal(r.seed, 0);
    saturn_results_free(&r); /* twice is harmless */
    saturn_results_free(NULL);
}

static void test_atomic_write(void **state)
{
    struct test_dir *d = *state;
    char path[600];
    snprintf(path, sizeof path, "%s/out.json", d->path);
    struct saturn_error err = {0};
    const char data[] = "{\"a\": 1}\n\0binary"; /* exact bytes, NUL included */
    assert_int_equal(saturn_write_file_atomic(path, data, sizeof data, &err), SATURN_OK);
    FILE *f = fopen(path, "rb");
    char buf[64];
    assert_int_equal(fread(buf, 1, sizeof buf, f), sizeof data);
    fclose(f);
    assert_memory_equal(buf, data, sizeof data);
    assert_int_equal(test_dir_entries(d), 1); /* no temporary left behind */

    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(st.st_mode & S_IRUSR);
    assert_true(st.st_mode & S_IWUSR);

    /* replacing an existing file, down to zero bytes */
    assert_int_equal(saturn_write_file_atomic(path, "", 0, &err), SATURN_OK);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 0);
    assert_int_equal(test_dir_entries(d), 1);
}

static void test_atomic_write_fails(void **state)
{
    struct test_dir *d = *state;
    char path[600];
    snprintf(path, sizeof path, "%s/nope/out.json", d->path);
    struct saturn_error err = {0};
    assert_int_equal(saturn_write_file_atomic(path, "x", 1, &err), SATURN_EINPUT);
    assert_int_equal(err.code, SATURN_EINPUT);
    assert_contains(err.msg, path);
    assert_contains(err.msg, "No such file or directory");
    assert_int_equal(test_dir_entries(d), 0);

    /* a folder where the file should be: nothing replaced, nothing left */
    snprintf(path, sizeof path, "%s/sub", d->path);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_int_equal(saturn_write_file_atomic(path, "x", 1, &err), SATURN_EINPUT);
    assert_contains(err.msg, path);
    assert_int_equal(test_dir_entries(d), 1);
    rmdir(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_load_sections, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_error_names_line, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_unreadable, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_syntax_error, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_long_line, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_carriage_return_lines, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_nul_byte, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_write_ini_round_trip, test_dir_setup, test_dir_teardown),
        cmocka_unit_test(test_apply_arg),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_results_free),
        cmocka_unit_test_setup_teardown(test_atomic_write, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_atomic_write_fails, test_dir_setup, test_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
