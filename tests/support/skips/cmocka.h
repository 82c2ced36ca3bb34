// cmocka.h (tests/support/skips): cmocka, plus: a test program with a skipped part is reported
// to CTest as skipped.
// SPDX-License-Identifier: Apache-2.0
//
// This folder comes first on the test programs' include path, so their #include <cmocka.h>
// lands here (after their own feature-test macros) and takes the real header next. A part that
// calls skip() (no data folder, no GPU, a sanitizer build, ...) is counted; once every part has
// run, a program with no failure and at least one skipped part exits with 77, which CTest
// reports as "Skipped", so a part that did not run is never reported as passed. The output
// names the parts that ran and the ones skipped. Failures still win. (CTest's
// SKIP_REGULAR_EXPRESSION would not do: it turns a failed test with a skipped part into
// "Skipped".)
#ifndef K2_TEST_SKIPS_CMOCKA_H
#define K2_TEST_SKIPS_CMOCKA_H

#include_next <cmocka.h>

extern int k2_test_skipped_parts;
int k2_test_program_exit(int failed);

#undef skip
#define skip() (k2_test_skipped_parts++, _skip(__FILE__, __LINE__))

#undef cmocka_run_group_tests
#define cmocka_run_group_tests(group_tests, group_setup, group_teardown)                       \
  k2_test_program_exit(_cmocka_run_group_tests(#group_tests, group_tests,                      \
                                               sizeof(group_tests) / sizeof((group_tests)[0]), \
                                               group_setup, group_teardown))

#endif
