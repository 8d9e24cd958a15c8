/* Helpers shared by the cmocka tests. */
#ifndef SATURN_TEST_SUPPORT_H
#define SATURN_TEST_SUPPORT_H
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "saturn/config.h"
#include "saturn/saturn.h"

/* A configuration from "key=value" words; fails the test on a bad word. */
struct saturn_config *test_config(const char *const *kv);

/* A bare network (engine level) from those words, and its disposal. */
struct net;
struct net *test_net(const char *const *kv, struct saturn_config **cfg);
void test_net_free(struct net *n, struct saturn_config *cfg);

/* Does the directed graph of nch nodes (edge[x * nch + y] != 0: x -> y)
 * have a cycle? (Channel dependency graphs: deadlock freedom.) */
bool test_graph_has_cycle(const uint8_t *edge, size_t nch);

/* Runs the configuration of those words; fails the test on an error. */
struct saturn_results test_run(const char *const *kv);

/* A temporary folder per test (cmocka setup/teardown): its files are
 * removed with it; test_dir_entries counts them. The path is the first
 * member, so a test may use *state directly as the folder's path. */
struct test_dir {
    char path[256];
};
int test_dir_setup(void **state);
int test_dir_teardown(void **state);
int test_dir_entries(const struct test_dir *d);
/* Writes text to dir/name; returns the path (valid until the next call). */
const char *test_put_file(const char *dir, const char *name, const char *text);
/* The file's contents (up to 64 KiB), malloc'd. */
char *test_slurp(const char *path);
#endif
