/* The typed configuration registry (src/core/config.c).
 *
 * Keys used here come from the topology table (network.*); tests that need
 * a type the registry may not hold yet (bool, real) look one up and skip
 * when there is none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle))
        fail_msg("'%s' does not contain '%s'", haystack, needle);
}

/* The message of applying one word that must fail with SATURN_EINPUT. */
static void expect_set_error(const char *key, const char *value,
                             struct saturn_error *err)
{
    struct saturn_config *c = saturn_config_new();
    assert_non_null(c);
    memset(err, 0, sizeof *err);
    assert_int_equal(saturn_config_set(c, key, value, NULL, 0, err), SATURN_EINPUT);
    assert_int_equal(err->code, SATURN_EINPUT);
    saturn_config_free(c);
}

static const struct saturn_param *first_of_type(enum saturn_param_type t)
{
    for (size_t i = 0; i < saturn_param_count(); i++)
        if (saturn_param_at(i)->type == t)
            return saturn_param_at(i);
    return NULL;
}

static void test_defaults_parse(void **state)
{
    (void)state;
    struct saturn_config *c = saturn_config_new(); /* aborts on a bad default */
    assert_non_null(c);
    assert_true(saturn_param_count() >= 3);
    for (size_t i = 0; i < saturn_param_count(); i++) {
        const struct saturn_param *p = saturn_param_at(i);
        assert_non_null(p->name);
        assert_non_null(strchr(p->name, '.'));
        assert_non_null(p->help);
        assert_ptr_equal(saturn_param_find(p->name), p);
        assert_false(saturn_config_is_set(c, p->name));
        int line = -1;
        assert_string_equal(saturn_config_origin(c, p->name, &line), "default");
        assert_int_equal(line, 0);
        assert_non_null(saturn_config_value_text(c, i));
    }
    assert_null(saturn_param_at(saturn_param_count()));
    assert_null(saturn_config_value_text(c, saturn_param_count()));
    assert_null(saturn_param_find("network.nope"));
    assert_int_equal(saturn_config_int(c, "network.n"), 2);
    assert_string_equal(saturn_config_str(c, "network.topology"), "torus");
    assert_int_equal(saturn_config_enum(c, "network.topology"), 0);
    saturn_config_free(c);
}

static void test_unknown_key_suggests(void **state)
{
    (void)state;
    struct saturn_error err;
    expect_set_error("network.tpology", "torus", &err);
    assert_contains(err.msg, "command line");
    assert_contains(err.msg, "unknown key 'network.tpology'");
    assert_contains(err.msg, "did you mean 'network.topology'?");

    expect_set_error("n", "2", &err); /* a bare short name */
    assert_contains(err.msg, "did you mean 'network.n'");

    expect_set_error("zzzzzzzzzzzzzzzz", "1", &err); /* nothing close */
    assert_contains(err.msg, "unknown key");
    assert_null(strstr(err.msg, "did you mean"));
}

static void test_wrong_type(void **state)
{
    (void)state;
    struct saturn_error err;
    expect_set_error("network.n", "abc", &err);
    assert_contains(err.msg, "network.n");
    assert_contains(err.msg, "abc");
    assert_contains(err.msg, "not an integer");
    assert_contains(err.msg, "an integer in [1,");

    expect_set_error("network.n", "2.5", &err);
    assert_contains(err.msg, "not an integer");
    expect_set_error("network.n", "", &err);
    assert_contains(err.msg, "not an integer");
}

static void test_out_of_range(void **state)
{
    (void)state;
    struct saturn_error err;
    expect_set_error("network.n", "0", &err);
    assert_contains(err.msg, "command line: network.n = 0: out of range; "
                             "allowed: an integer in [1, ");
    expect_set_error("network.n", "-3", &err);
    assert_contains(err.msg, "out of range");
}

static void test_int_forms(void **state)
{
    (void)state;
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_set(c, "network.n", " 3 ", NULL, 0, &err), SATURN_OK);
    assert_int_equal(saturn_config_int(c, "network.n"), 3);
    assert_string_equal(saturn_config_str(c, "network.n"), "3"); /* trimmed */
    assert_int_equal(saturn_config_set(c, "network.n", "1e0", NULL, 0, &err), SATURN_OK);
    assert_int_equal(saturn_config_int(c, "network.n"), 1);
    assert_true(saturn_config_is_set(c, "network.n"));
    saturn_config_free(c);
}

static void test_bad_enum(void **state)
{
    (void)state;
    struct saturn_error err;
    expect_set_error("network.topology", "ring", &err);
    assert_contains(err.msg, "network.topology = ring");
    assert_contains(err.msg, "one of torus|mesh|dragonfly");

    const char *const kv[] = {"network.topology=mesh", NULL};
    struct saturn_config *c = test_config(kv);
    assert_int_equal(saturn_config_enum(c, "network.topology"), 1);
    assert_string_equal(saturn_config_str(c, "network.topology"), "mesh");
    saturn_config_free(c);
}

static void test_bool(void **state)
{
    (void)state;
    const struct saturn_param *p = first_of_type(SATURN_PARAM_BOOL);
    if (!p)
        skip();
    static const char *const yes[] = {"true", "yes", "on", "1", "TRUE", " Yes "};
    static const char *const no[] = {"false", "no", "off", "0", "False"};
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        assert_int_equal(saturn_config_set(c, p->name, yes[i], NULL, 0, &err), SATURN_OK);
        assert_true(saturn_config_bool(c, p->name));
    }
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        assert_int_equal(saturn_config_set(c, p->name, no[i], NULL, 0, &err), SATURN_OK);
        assert_false(saturn_config_bool(c, p->name));
    }
    assert_int_equal(saturn_config_set(c, p->name, "maybe", NULL, 0, &err), SATURN_EINPUT);
    assert_contains(err.msg, "not a boolean");
    assert_contains(err.msg, "true or false");
    assert_false(saturn_config_bool(c, p->name)); /* unchanged by the failure */
    saturn_config_free(c);
}

static void test_real(void **state)
{
    (void)state;
    const struct saturn_param *p = first_of_type(SATURN_PARAM_REAL);
    if (!p)
        skip();
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    char text[64];
    snprintf(text, sizeof text, "%.17g", p->min);
    assert_int_equal(saturn_config_set(c, p->name, text, NULL, 0, &err), SATURN_OK);
    assert_true(saturn_config_real(c, p->name) == p->min);
    assert_int_equal(saturn_config_set(c, p->name, "x1", NULL, 0, &err), SATURN_EINPUT);
    assert_contains(err.msg, "not a number");
    snprintf(text, sizeof text, "%.17g", p->max * 2 + 1);
    assert_int_equal(saturn_config_set(c, p->name, text, NULL, 0, &err), SATURN_EINPUT);
    assert_contains(err.msg, "out of range");
    saturn_config_free(c);
}

static void test_int_list(void **state)
{
    (void)state;
    const char *const kv[] = {"network.k=4,8", NULL};
    struct saturn_config *c = test_config(kv);
    int64_t v[SATURN_LIST_MAX];
    assert_int_equal(saturn_config_list(c, "network.k", v, SATURN_LIST_MAX), 2);
    assert_int_equal(v[0], 4);
    assert_int_equal(v[1], 8);
    assert_int_equal(saturn_config_int(c, "network.k"), 4); /* the first value */
    /* max limits the copy, not the count */
    assert_int_equal(saturn_config_list(c, "network.k", v, 1), 2);
    saturn_config_free(c);

    struct saturn_error err;
    expect_set_error("network.k", "4,x", &err);
    assert_contains(err.msg, "bad list");
    expect_set_error("network.k", "4,1", &err); /* 1 is below the minimum 2 */
    assert_contains(err.msg, "bad list");
    expect_set_error("network.k", ",", &err);
    assert_contains(err.msg, "empty list");
    expect_set_error("network.k", "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2", &err);
    assert_contains(err.msg, "at most 16");
}

static void test_origin(void **state)
{
    (void)state;
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    int line = -1;
    assert_int_equal(saturn_config_set(c, "network.n", "3", "a.ini", 7, &err), SATURN_OK);
    assert_string_equal(saturn_config_origin(c, "network.n", &line), "a.ini");
    assert_int_equal(line, 7);
    assert_int_equal(saturn_config_set(c, "network.n", "4", NULL, 0, &err), SATURN_OK);
    assert_string_equal(saturn_config_origin(c, "network.n", &line), "command line");
    assert_int_equal(line, 0);
    assert_string_equal(saturn_config_origin(c, "network.k", NULL), "default");

    /* a failed set keeps the old value and origin */
    assert_int_equal(saturn_config_set(c, "network.n", "x", "b.ini", 2, &err), SATURN_EINPUT);
    assert_contains(err.msg, "b.ini:2: network.n = x: not an integer");
    assert_int_equal(saturn_config_int(c, "network.n"), 4);
    assert_string_equal(saturn_config_origin(c, "network.n", NULL), "command line");
    saturn_config_free(c);
}

static void test_fail_format(void **state)
{
    (void)state;
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_set(c, "network.n", "3", "x.ini", 4, &err), SATURN_OK);
    assert_int_equal(saturn_config_fail(c, "network.n", &err, "too %s (%d)", "big", 9),
                     SATURN_EINPUT);
    assert_int_equal(err.code, SATURN_EINPUT);
    assert_string_equal(err.msg, "x.ini:4: network.n = 3: too big (9)");

    assert_int_equal(saturn_config_set(c, "network.k", "4,8", NULL, 0, &err), SATURN_OK);
    saturn_config_fail(c, "network.k", &err, "wrong");
    assert_string_equal(err.msg, "command line: network.k = 4,8: wrong");
    saturn_config_fail(c, "network.topology", &err, "no");
    assert_string_equal(err.msg, "default: network.topology = torus: no");
    saturn_config_free(c);
}

static void test_clone_is_deep(void **state)
{
    (void)state;
    struct saturn_config *a = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_set(a, "network.k", "4,8", "f.ini", 3, &err), SATURN_OK);
    struct saturn_config *b = saturn_config_clone(a);
    assert_non_null(b);
    assert_int_equal(saturn_config_set(a, "network.k", "16", NULL, 0, &err), SATURN_OK);
    saturn_config_free(a); /* b must not share anything with a */
    int64_t v[SATURN_LIST_MAX];
    int line = 0;
    assert_int_equal(saturn_config_list(b, "network.k", v, SATURN_LIST_MAX), 2);
    assert_int_equal(v[1], 8);
    assert_string_equal(saturn_config_str(b, "network.k"), "4,8");
    assert_string_equal(saturn_config_origin(b, "network.k", &line), "f.ini");
    assert_int_equal(line, 3);
    assert_true(saturn_config_is_set(b, "network.k"));
    saturn_config_free(b);
}

static void test_allowed_text(void **state)
{
    (void)state;
    char buf[256];
    saturn_param_allowed(saturn_param_find("router.switching"), buf, sizeof buf);
    assert_string_equal(buf, "one of wormhole|vct|unlimited");
    saturn_param_allowed(saturn_param_find("network.k"), buf, sizeof buf);
    assert_string_equal(buf, "integers in [2, 1048576], comma-separated (at most 16)");
    assert_string_equal(saturn_param_type_name(SATURN_PARAM_INTLIST), "int list");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_parse),
        cmocka_unit_test(test_unknown_key_suggests),
        cmocka_unit_test(test_wrong_type),
        cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_int_forms),
        cmocka_unit_test(test_bad_enum),
        cmocka_unit_test(test_bool),
        cmocka_unit_test(test_real),
        cmocka_unit_test(test_int_list),
        cmocka_unit_test(test_origin),
        cmocka_unit_test(test_fail_format),
        cmocka_unit_test(test_clone_is_deep),
        cmocka_unit_test(test_allowed_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
