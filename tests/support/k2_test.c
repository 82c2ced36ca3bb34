// k2_test.c: shared helpers of the test programs.
// SPDX-License-Identifier: Apache-2.0
#include "k2_test.h"
#include "k2_real_graphs.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

const char *k2_test_data_path(const char *relative) {
  static _Thread_local char path[4096];
  snprintf(path, sizeof path, "%s/%s", k2_real_graph_dir(K2_DATA_DIR), relative);
  struct stat st;
  if (stat(path, &st) != 0) return NULL;
  return path;
}

int k2_test_setup(void **state) {
  (void)state;
  return K2_init() == GrB_SUCCESS ? 0 : -1;
}

int k2_test_teardown(void **state) {
  (void)state;
  return K2_finalize() == GrB_SUCCESS ? 0 : -1;
}

int k2_test_skipped_parts = 0;

int k2_test_program_exit(int failed) {
  if (failed != 0 || k2_test_skipped_parts == 0) return failed;
  printf("%d part(s) skipped (see [ SKIPPED ] above): the program reports itself as skipped (exit %d)\n",
         k2_test_skipped_parts, K2_TEST_SKIP);
  return K2_TEST_SKIP;
}
