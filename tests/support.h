/* Helpers shared by the cmocka tests. */
#ifndef SATURN_TEST_SUPPORT_H
#define SATURN_TEST_SUPPORT_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "saturn/config.h"
#include "saturn/saturn.h"

/* A configuration from "key=value" words; fails the test on a bad word. */
struct saturn_config *test_config(const char *const *kv);
#endif
