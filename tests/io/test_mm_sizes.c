// test_mm_sizes.c: Matrix Market size lines at the limits of 32-bit indices and 64-bit counts:
// arrays whose cell count does not fit 64 bits are refused at the size line with their size in
// the message; arrays just below the limit are sized right (the message of a short file names
// the exact count of values the header implies); dimensions above 2^32 are refused.
// SPDX-License-Identifier: Apache-2.0
#include "io_test_util.h"

typedef struct {
  const char *text;
  GrB_Info info;
  int line;            // the line the message names
  const char *words;   // and a part of the message
} size_case;

static const size_case cases[] = {
    // 2^32 x 2^32: 2^64 cells, whatever the symmetry (n (n + 1) / 2 overflowed before)
    {"%%MatrixMarket matrix array real symmetric\n4294967296 4294967296\n1\n", GrB_INVALID_VALUE, 2,
     "a 4294967296 x 4294967296 array is too large"},
    {"%%MatrixMarket matrix array real general\n4294967296 4294967296\n1\n", GrB_INVALID_VALUE, 2,
     "a 4294967296 x 4294967296 array is too large"},
    {"%%MatrixMarket matrix array real skew-symmetric\n4294967296 4294967296\n1\n", GrB_INVALID_VALUE,
     2, "a 4294967296 x 4294967296 array is too large"},
    {"%%MatrixMarket matrix array integer hermitian\n4294967296 4294967296\n1\n", GrB_INVALID_VALUE, 1,
     "hermitian"},  // hermitian needs the complex field: refused at the banner
    {"%%MatrixMarket matrix array complex hermitian\n4294967296 4294967296\n1 0\n", GrB_INVALID_VALUE, 2,
     "a 4294967296 x 4294967296 array is too large"},
    // 2^33 rows: above the 2^32 indices a tree holds
    {"%%MatrixMarket matrix array real general\n8589934592 1\n1\n", GrB_INVALID_VALUE, 2,
     "dimension 8589934592 exceeds 2^32"},
    {"%%MatrixMarket matrix coordinate pattern general\n8589934592 1 1\n1 1\n", GrB_INVALID_VALUE, 2,
     "dimension 8589934592 exceeds 2^32"},
    // just below: (2^32 - 1)^2 cells fit; a file with one value ends early, and the message gives
    // the count the header implies: n (n + 1) / 2, n (n - 1) / 2, n^2 for n = 2^32 - 1
    {"%%MatrixMarket matrix array real symmetric\n4294967295 4294967295\n1\n", GrB_INVALID_VALUE, 3,
     "file ends after 1 of the 9223372034707292160 values"},
    {"%%MatrixMarket matrix array real skew-symmetric\n4294967295 4294967295\n1\n", GrB_INVALID_VALUE, 3,
     "file ends after 1 of the 9223372030412324865 values"},
    {"%%MatrixMarket matrix array real general\n4294967295 4294967295\n1\n", GrB_INVALID_VALUE, 3,
     "file ends after 1 of the 18446744065119617025 values"},
    // 2^32 x 1 and 1 x 2^32 are small arrays
    {"%%MatrixMarket matrix array real general\n4294967296 1\n1\n", GrB_INVALID_VALUE, 3,
     "file ends after 1 of the 4294967296 values"},
    {"%%MatrixMarket matrix array real general\n1 4294967296\n1\n2\n", GrB_INVALID_VALUE, 4,
     "file ends after 2 of the 4294967296 values"},
};

static void test_array_sizes(void **state) {
  (void)state;
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.format = K2_FORMAT_MATRIX_MARKET;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const size_case *c = &cases[k];
    char name[32];
    snprintf(name, sizeof name, "size%zu.mtx", k);
    char path[600];
    snprintf(path, sizeof path, "%s", io_write_tmp(name, c->text, strlen(c->text), false));
    K2_Edges E;
    memset(&E, 0x5A, sizeof E);
    K2_Edges before = E;
    GrB_Info info = K2_Edges_read(&E, path, &opt);
    const char *msg = K2_error_string();
    if (info != c->info) {
      fail_msg("case %zu: got %s (%s), want %s", k, K2_info_name(info), msg, K2_info_name(c->info));
    }
    char where[700];
    snprintf(where, sizeof where, "%s:%d: ", path, c->line);
    if (strncmp(msg, where, strlen(where)) != 0 || strstr(msg, c->words) == NULL) {
      fail_msg("case %zu: message '%s' does not start with '%s' and name '%s'", k, msg, where, c->words);
    }
    assert_memory_equal(&E, &before, sizeof E);  // the caller's K2_Edges untouched
  }
  io_tmp_cleanup();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_array_sizes),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
