// test_version.c: K2_version gives CMake's project version (compiled in as K2_TEST_VERSION),
// the same as the headers' K2GRB_VERSION_*, before K2_init; NULL arguments are skipped.
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <string.h>

#include "k2_test.h"

static void test_version_is_the_project_version(void **state) {
  (void)state;
  int major = -1, minor = -1, patch = -1;
  assert_int_equal(K2_version(&major, &minor, &patch), GrB_SUCCESS);
  char got[64];
  snprintf(got, sizeof got, "%d.%d.%d", major, minor, patch);
  assert_string_equal(got, K2_TEST_VERSION);
  assert_string_equal(K2GRB_VERSION_STRING, K2_TEST_VERSION);
  assert_int_equal(major, K2GRB_VERSION_MAJOR);
  assert_int_equal(minor, K2GRB_VERSION_MINOR);
  assert_int_equal(patch, K2GRB_VERSION_PATCH);
}

static void test_version_null_arguments(void **state) {
  (void)state;
  int minor = -1;
  assert_int_equal(K2_version(NULL, &minor, NULL), GrB_SUCCESS);
  assert_int_equal(minor, K2GRB_VERSION_MINOR);
  assert_int_equal(K2_version(NULL, NULL, NULL), GrB_SUCCESS);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_version_is_the_project_version),
      cmocka_unit_test(test_version_null_arguments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
