/* What a new user meets in the configuration (src/core/config.c,
 * src/core/applies.c, src/io/ini.c): hints for unknown keys that are near
 * or none, warnings for a key given twice and which value wins, and which
 * keys a summary shows for a run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/params.h"
#include "saturn/io.h"
#include "support.h"

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle))
        fail_msg("'%s' does not contain '%s'", haystack, needle);
}

static void assert_lacks(const char *haystack, const char *needle)
{
    if (strstr(haystack, needle))
        fail_msg("'%s' contains '%s'", haystack, needle);
}

static const char *set_error(const char *key)
{
    static struct saturn_error err;
    struct saturn_config *c = saturn_config_new();
    assert_int_equal(saturn_config_set(c, key, "1", NULL, 0, &err), SATURN_EINPUT);
    saturn_config_free(c);
    return err.msg;
}

/* A suggestion only when it is near for the key's length; otherwise the
 * section's keys, or nothing. */
static void test_key_hints(void **state)
{
    (void)state;
    assert_contains(set_error("router.vc"), "did you mean 'router.vcs'?");
    assert_contains(set_error("netwrok.k"), "did you mean 'network.k'?");
    assert_contains(set_error("steady.warmpu"), "did you mean 'steady.warmup'?");
    assert_contains(set_error("buf_flits"), "did you mean 'router.buf_flits'?");
    /* a name in many sections: each of them */
    const char *m = set_error("threshold");
    assert_contains(m, "'ugal.threshold'");
    assert_contains(m, "'pb.threshold'");
    /* nothing near: no suggestion (it was 'dragonfly.a'), no section to list */
    m = set_error("foo.bar");
    assert_lacks(m, "did you mean");
    assert_lacks(m, "dragonfly");
    assert_lacks(m, "has:");
    assert_contains(m, "unknown key 'foo.bar' (saturn config --list shows every key)");
    /* a known section, a name far from its keys: the section's keys */
    m = set_error("router.bufsize");
    assert_lacks(m, "did you mean");
    assert_contains(m, "[router] has: vcs, buf_flits, ");
    assert_contains(m, "eject_latency");
    assert_lacks(m, "dragonfly");
    /* short wrong names are not near anything long */
    assert_lacks(set_error("ab.cd"), "did you mean");
}

/* A key twice in one file, or twice on the command line: a warning that
 * names both and says which value wins (the later); a file after a preset
 * or the command line after a file is no repetition. */
static void test_repeat_warnings(void **state)
{
    const char *dir = *state;
    const char *path = test_put_file(dir, "dup.ini", "[network]\nk = 4\nn = 2\nk = 6\n");
    char *p = strdup(path);
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_preset(c, "levitin2019", &err), SATURN_OK);
    assert_int_equal(saturn_config_load_ini(c, p, &err), SATURN_OK);
    assert_int_equal(saturn_config_warning_count(c), 1);
    char want[700];
    snprintf(want, sizeof want, "%s:4: network.k is given again (first at line 2, = 4); the later "
                                "line wins: network.k = 6", p);
    assert_string_equal(saturn_config_warning(c, 0), want);
    assert_int_equal(saturn_config_int(c, "network.k"), 6);
    /* the command line after the file: no warning; twice on it: one */
    assert_int_equal(saturn_config_apply_arg(c, "network.k=8", &err), SATURN_OK);
    assert_int_equal(saturn_config_warning_count(c), 1);
    assert_int_equal(saturn_config_apply_arg(c, "router.vcs=4", &err), SATURN_OK);
    assert_int_equal(saturn_config_apply_arg(c, "router.vcs=2", &err), SATURN_OK);
    assert_int_equal(saturn_config_warning_count(c), 2);
    assert_string_equal(saturn_config_warning(c, 1),
                        "command line: router.vcs is given twice (router.vcs=4, then "
                        "router.vcs=2); the last wins: router.vcs = 2");
    assert_int_equal(saturn_config_int(c, "router.vcs"), 2);
    /* a clone keeps them */
    struct saturn_config *d = saturn_config_clone(c);
    assert_int_equal(saturn_config_warning_count(d), 2);
    assert_string_equal(saturn_config_warning(d, 0), want);
    assert_string_equal(saturn_config_warning(d, 7), "");
    saturn_config_free(d);
    saturn_config_free(c);
    free(p);
}

static long index_of(const char *key)
{
    for (size_t i = 0; i < saturn_param_count(); i++)
        if (!strcmp(saturn_param_at(i)->name, key))
            return (long)i;
    fail_msg("no key %s", key);
    return -1;
}

static bool applies(const char *const *kv, const char *key)
{
    struct saturn_config *c = test_config(kv);
    bool a = saturn_param_applies(c, (size_t)index_of(key));
    saturn_config_free(c);
    return a;
}

/* Every rule names a key or a section the registry has. */
static void test_rules_name_keys(void **state)
{
    (void)state;
    size_t n = 0;
    for (const char *k; (k = params_rule_key(n)); n++) {
        size_t len = strlen(k);
        bool prefix = k[len - 1] == '.' || k[len - 1] == '_', found = false;
        for (size_t i = 0; i < saturn_param_count() && !found; i++) {
            const char *name = saturn_param_at(i)->name;
            found = prefix ? !strncmp(name, k, len) : !strcmp(name, k);
        }
        if (!found)
            fail_msg("rule %s names no key", k);
    }
    assert_true(n > 30);
}

/* The defaults (a torus, DOR, uniform, steady, no controller) leave out the
 * Dragonfly, the Dragonfly routings, the controllers and other workloads;
 * a Dragonfly under ECtN with ADV+1 shows its own. */
static void test_applies(void **state)
{
    (void)state;
    const char *none[] = {NULL};
    const char *shown[] = {"network.topology", "network.k", "router.vcs", "router.link_latency",
                           "routing.algorithm", "routing.dateline", "traffic.pattern",
                           "traffic.flit_rate", "steady.warmup", "entropy.buffers", "sim.seed"};
    const char *hidden[] = {"dragonfly.a", "dragonfly.global_misroute", "ugal.threshold",
                            "ectn.period", "olm.trigger", "entropy.rth", "selftune.period",
                            "gather.mode", "collective.packets", "ramp.to", "phases.list",
                            "curve.from", "ga.genes", "cupstack.step", "traffic.adv_shift",
                            "traffic.hotspot_node", "traffic.packet_rate", "debug.allow_deadlock",
                            "routing.reroute", "disha.timeout", "router.arbiter_requeue"};
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
        if (!applies(none, shown[i]))
            fail_msg("%s hidden by default", shown[i]);
    for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++)
        if (applies(none, hidden[i]))
            fail_msg("%s shown by default", hidden[i]);
    const char *df[] = {"network.topology=dragonfly", "routing.algorithm=ectn",
                        "traffic.pattern=adv", NULL};
    assert_true(applies(df, "dragonfly.a"));
    assert_true(applies(df, "dragonfly.global_misroute"));
    assert_true(applies(df, "ectn.period"));
    assert_true(applies(df, "contention.trigger"));
    assert_true(applies(df, "traffic.adv_shift"));
    assert_true(applies(df, "routing.reroute"));
    assert_false(applies(df, "network.k"));
    assert_false(applies(df, "router.link_latency"));
    assert_false(applies(df, "routing.dateline"));
    assert_false(applies(df, "olm.trigger"));
    assert_false(applies(df, "traffic.adv_fraction"));
    /* a pattern named by a phase counts; packet_rate replaces flit_rate */
    const char *ph[] = {"sim.workload=phases", "phases.list=100:0.1:uniform,100:0.1:hotspot",
                        NULL};
    assert_true(applies(ph, "traffic.hotspot_fraction"));
    assert_true(applies(ph, "phases.repeat"));
    assert_false(applies(ph, "steady.warmup"));
    assert_false(applies(ph, "traffic.flit_rate"));
    const char *pr[] = {"traffic.packet_rate=0.01", NULL};
    assert_false(applies(pr, "traffic.flit_rate"));
    const char *ctl[] = {"control.model=selftune", "gather.mode=metapacket", NULL};
    assert_true(applies(ctl, "selftune.period"));
    assert_true(applies(ctl, "gather.meta_arbiter"));
    assert_false(applies(ctl, "static.threshold"));
    assert_false(applies(ctl, "entropy.rth"));
    const char *ent[] = {"control.model=gt.x", NULL};
    assert_true(applies(ent, "entropy.tg"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_hints),
        cmocka_unit_test_setup_teardown(test_repeat_warnings, test_dir_setup, test_dir_teardown),
        cmocka_unit_test(test_rules_name_keys),
        cmocka_unit_test(test_applies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
