// test_matrix_market.c: the Matrix Market reader on LAGraph's edge-case files and on small
// hand-written inputs. Each LAGraph file either loads with the pattern the format gives it or is
// refused with the code and the line, as decided below (see src/io/k2_read_mm.c for the policy).
// SPDX-License-Identifier: Apache-2.0
#include "io_test_util.h"

typedef struct {
  const char *file;
  GrB_Info info;       // expected result
  uint64_t nrows, ncols, nvals;  // when it loads
  int line;            // the line the message names when refused (0: do not check)
  const char *why;     // our reading of the file
} lagraph_case;

// Expected counts were taken by reading the files (the entries listed, mirrored for the
// symmetric kinds), not from this reader.
static const lagraph_case lagraph[] = {
    {"mangled1.mtx", GrB_INVALID_VALUE, 0, 0, 0, 1, "object 'mangled' instead of 'matrix'"},
    {"mangled2.mtx", GrB_INVALID_VALUE, 0, 0, 0, 1, "format 'mangled'"},
    {"mangled3.mtx", GrB_INVALID_VALUE, 0, 0, 0, 1, "field 'mangled'"},
    {"mangled4.mtx", GrB_INVALID_VALUE, 0, 0, 0, 1, "symmetry 'mangled'"},
    {"mangled5.mtx", GrB_INVALID_VALUE, 0, 0, 0, 1, "hermitian pattern"},
    {"mangled6.mtx", GrB_INVALID_VALUE, 0, 0, 0, 1, "hermitian real"},
    {"mangled7.mtx", GrB_INVALID_VALUE, 0, 0, 0, 5, "real entry without its value"},
    {"mangled8.mtx", GrB_INVALID_VALUE, 0, 0, 0, 4, "size line '3'"},
    {"mangled9.mtx", GrB_INVALID_VALUE, 0, 0, 0, 4, "symmetric 3 x 4"},
    {"mangled10.mtx", GrB_INVALID_VALUE, 0, 0, 0, 6, "2 of 3 declared entries"},
    {"mangled11.mtx", GrB_INVALID_VALUE, 0, 0, 0, 5, "index 'zero'"},
    {"mangled12.mtx", GrB_INVALID_VALUE, 0, 0, 0, 5, "real entry without its value"},
    {"mangled13.mtx", GrB_INVALID_INDEX, 0, 0, 0, 7, "column 9999 of 4"},
    // duplicates: a pattern has nothing to combine; kept in the list, merged by a build
    {"mangled14.mtx", GrB_SUCCESS, 3, 4, 3, 0, "duplicate (2,2)"},
    {"mangled15.mtx", GrB_INVALID_VALUE, 0, 0, 0, 5, "array real with two numbers a line"},
    {"mangled16.mtx", GrB_INVALID_VALUE, 0, 0, 0, 5, "array real with two numbers a line"},
    {"mangled_format.mtx", GrB_INVALID_VALUE, 0, 0, 0, 1, "array pattern"},
    // integer values out of the range of a GraphBLAS type: the integer field has no range
    {"mangled_bool.mtx", GrB_SUCCESS, 7, 7, 12, 0, "integer values 0..2"},
    {"mangled_int8.mtx", GrB_SUCCESS, 7, 7, 12, 0, "-129"},
    {"mangled_int16.mtx", GrB_SUCCESS, 7, 7, 12, 0, "-32769"},
    {"mangled_int32.mtx", GrB_SUCCESS, 7, 7, 12, 0, "-2147483649"},
    {"mangled_uint8.mtx", GrB_SUCCESS, 7, 7, 12, 0, "256"},
    {"mangled_uint16.mtx", GrB_SUCCESS, 7, 7, 12, 0, "65536"},
    {"mangled_uint32.mtx", GrB_SUCCESS, 7, 7, 12, 0, "4294967296"},
    {"mangled_skew.mtx", GrB_SUCCESS, 6, 6, 20, 0, "skew-symmetric integer, 10 below the diagonal"},
    {"garbage.lagraph", GrB_INVALID_VALUE, 0, 0, 0, 1, "JSON, no banner"},
    {"full_noheader.mtx", GrB_INVALID_VALUE, 0, 0, 0, 1, "no banner"},
    {"west0067_noheader.mtx", GrB_INVALID_VALUE, 0, 0, 0, 1, "no banner"},
    {"comments_cover.mtx", GrB_SUCCESS, 7, 7, 12, 0, "comments after the banner"},
    {"comments_west0067.mtx", GrB_SUCCESS, 67, 67, 295, 0, "real general with a nan value"},
    {"comments_full.mtx", GrB_INVALID_VALUE, 0, 0, 0, 5, "array size line with 3 numbers"},
    {"skew_fp32.mtx", GrB_SUCCESS, 6, 6, 20, 0, "10 below the diagonal, mirrored"},
    {"skew_fp64.mtx", GrB_SUCCESS, 6, 6, 20, 0, ""},
    {"skew_int8.mtx", GrB_SUCCESS, 6, 6, 20, 0, ""},
    {"skew_int16.mtx", GrB_SUCCESS, 6, 6, 20, 0, ""},
    {"skew_int32.mtx", GrB_SUCCESS, 6, 6, 20, 0, ""},
    {"skew_int64.mtx", GrB_SUCCESS, 6, 6, 20, 0, ""},
    {"matrix_bool.mtx", GrB_SUCCESS, 7, 7, 12, 0, "explicit zeros are entries"},
    {"matrix_int8.mtx", GrB_SUCCESS, 7, 7, 12, 0, ""},
    {"matrix_int16.mtx", GrB_SUCCESS, 7, 7, 12, 0, ""},
    {"matrix_int32.mtx", GrB_SUCCESS, 7, 7, 12, 0, ""},
    {"matrix_int64.mtx", GrB_SUCCESS, 7, 7, 12, 0, ""},
    {"matrix_uint8.mtx", GrB_SUCCESS, 7, 7, 12, 0, ""},
    {"matrix_uint16.mtx", GrB_SUCCESS, 7, 7, 12, 0, ""},
    {"matrix_uint32.mtx", GrB_SUCCESS, 7, 7, 12, 0, ""},
    {"matrix_uint64.mtx", GrB_SUCCESS, 7, 7, 12, 0, ""},
    // 'integer' field holding -inf / inf, but LAGraph's '%%GraphBLAS type float/double' says real
    {"matrix_fp32.mtx", GrB_SUCCESS, 7, 7, 12, 0, "integer field, %%GraphBLAS type float: -inf allowed"},
    {"matrix_fp64.mtx", GrB_SUCCESS, 7, 7, 12, 0, "integer field, %%GraphBLAS type double: -inf allowed"},
    {"matrix_fp32_structure.mtx", GrB_SUCCESS, 7, 7, 12, 0, "pattern"},
    // array format: a dense pattern
    {"full.mtx", GrB_SUCCESS, 3, 3, 9, 0, "3 x 3 array"},
    {"complex.mtx", GrB_SUCCESS, 3, 3, 9, 0, "3 x 3 complex array, two numbers a line"},
    {"full_symmetric.mtx", GrB_SUCCESS, 4, 4, 16, 0, "lower triangle of 4 x 4 (10 values)"},
    {"empty.mtx", GrB_SUCCESS, 3, 4, 0, 0, "3 x 4, no entries"},
};

static void test_lagraph_files(void **state) {
  (void)state;
  if (k2_test_data_path("lagraph/karate.mtx") == NULL) {
    skip();
    return;
  }
  for (size_t k = 0; k < sizeof lagraph / sizeof lagraph[0]; k++) {
    const lagraph_case *c = &lagraph[k];
    char rel[128];
    snprintf(rel, sizeof rel, "lagraph/%s", c->file);
    const char *path = k2_test_data_path(rel);
    if (path == NULL) fail_msg("missing %s", rel);
    char path_copy[4096];
    snprintf(path_copy, sizeof path_copy, "%s", path);
    K2_ReadOptions opt;
    K2_ReadOptions_default(&opt);
    opt.format = K2_FORMAT_MATRIX_MARKET;  // garbage.lagraph too: judged as Matrix Market
    K2_Edges E;
    memset(&E, 0xAB, sizeof E);
    K2_Edges before = E;
    GrB_Info info = K2_Edges_read(&E, path_copy, &opt);
    if (info != c->info) {
      fail_msg("%s (%s): got %d (%s), want %d", c->file, c->why, (int)info, K2_error_string(),
               (int)c->info);
    }
    if (info == GrB_SUCCESS) {
      if (E.nrows != c->nrows || E.ncols != c->ncols || E.nvals != c->nvals) {
        fail_msg("%s: got %llu x %llu with %llu, want %llu x %llu with %llu", c->file,
                 (unsigned long long)E.nrows, (unsigned long long)E.ncols,
                 (unsigned long long)E.nvals, (unsigned long long)c->nrows,
                 (unsigned long long)c->ncols, (unsigned long long)c->nvals);
      }
      K2_Edges_free(&E);
    } else {
      assert_memory_equal(&E, &before, sizeof E);  // untouched
      char where[4200];
      snprintf(where, sizeof where, "%s:%d: ", path_copy, c->line);
      if (strstr(K2_error_string(), where) == NULL) {
        fail_msg("%s: message '%s' does not name '%s'", c->file, K2_error_string(), where);
      }
    }
  }
}

// The pattern of mangled_skew: (i,j) and (j,i) for each listed entry, nothing on the diagonal.
static void test_skew_pattern(void **state) {
  (void)state;
  const char *path = k2_test_data_path("lagraph/skew_int8.mtx");
  if (path == NULL) {
    skip();
    return;
  }
  K2_Edges E;
  K2_ASSERT_OK(K2_Edges_read(&E, path, NULL));
  // lines of the file: 4 1, 5 1, 6 1, 3 2, 4 2, 5 2, 4 3, 6 3, 6 4, 6 5 (1-based)
  const uint32_t lower[10][2] = {{3, 0}, {4, 0}, {5, 0}, {2, 1}, {3, 1},
                                 {4, 1}, {3, 2}, {5, 2}, {5, 3}, {5, 4}};
  uint32_t I[20], J[20];
  for (int k = 0; k < 10; k++) {
    I[2 * k] = lower[k][0], J[2 * k] = lower[k][1];
    I[2 * k + 1] = lower[k][1], J[2 * k + 1] = lower[k][0];
  }
  uint64_t na, nb;
  uint64_t *ka = io_sorted_keys(E.I, E.J, E.nvals, false, &na);
  uint64_t *kb = io_sorted_keys(I, J, 20, false, &nb);
  assert_int_equal(na, nb);
  assert_memory_equal(ka, kb, na * sizeof(uint64_t));
  free(ka);
  free(kb);
  K2_Edges_free(&E);
}

typedef struct {
  const char *text;
  size_t len;        // bytes of text (one case holds a NUL)
  GrB_Info info;
  int line;          // line named by the message (errors), or nvals (success)
} mm_case;

#define BANNER "%%MatrixMarket matrix coordinate pattern general\n"
#define C(text, info, line) {text, sizeof(text) - 1, info, line}
static const mm_case small[] = {
    C(BANNER "3 3 2\n1 1\n3 3\n", GrB_SUCCESS, 2),
    C("%%matrixmarket MATRIX Coordinate Pattern SYMMETRIC\n3 3 2\n2 1\n3 3\n", GrB_SUCCESS, 3),
    C(BANNER "% c\n\n3 3 1\n% between\n2 3\n\n", GrB_SUCCESS, 1),
    C(BANNER "3 3 2\n1 1\n0 2\n", GrB_INVALID_INDEX, 4),                 // index 0: below base
    C(BANNER "3 3 2\n1 1\n2 0\n", GrB_INVALID_INDEX, 4),
    C(BANNER "3 3 1\n4 1\n", GrB_INVALID_INDEX, 3),                       // out of range
    C(BANNER "3 3 1\n99999999999999999999999 1\n", GrB_INVALID_INDEX, 3), // 64-bit overflow
    C(BANNER "3 3 3\n1 1\n2 2\n", GrB_INVALID_VALUE, 4),                  // fewer than declared
    C(BANNER "3 3 1\n1 1\n2 2\n", GrB_INVALID_VALUE, 4),                  // more than declared
    C(BANNER "4294967297 1 0\n", GrB_INVALID_VALUE, 2),                   // dimension > 2^32
    C(BANNER "3 3 99999999999999999999999\n", GrB_INVALID_VALUE, 2),      // count overflow
    C(BANNER "3 3 1\n1 x\n", GrB_INVALID_VALUE, 3),                       // malformed
    C(BANNER "3 3 1\n1 1 1\n", GrB_INVALID_VALUE, 3),                     // pattern with a value
    C(BANNER "3 3 1\n1\n", GrB_INVALID_VALUE, 3),
    C(BANNER "3 3 1\n1 1\0\n", GrB_INVALID_VALUE, 3),                     // NUL byte
    C(BANNER, GrB_INVALID_VALUE, 1),                                      // truncated: no size
    C(BANNER "3 3\n", GrB_INVALID_VALUE, 2),                              // size line short
    C("", GrB_INVALID_VALUE, 1),                                          // empty
    C("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1.0\n", GrB_INVALID_VALUE, 3),
    C("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 1 -1.5e3\n", GrB_SUCCESS, 2),
    C("%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 1 0\n2 1 1 -1\n", GrB_SUCCESS, 3),
    C("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1\n", GrB_INVALID_VALUE, 3),
    C("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", GrB_INVALID_VALUE, 3),
    C("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1.\n", GrB_SUCCESS, 1),
    C("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 e5\n", GrB_INVALID_VALUE, 3),
    C("%%MatrixMarket matrix coordinate pattern symmetric\n2 3 0\n", GrB_INVALID_VALUE, 2),
    C("%%MatrixMarket vector coordinate pattern general\n2 0\n", GrB_INVALID_VALUE, 1),
    C("%%MatrixMarket matrix coordinate pattern general extra\n2 2 0\n", GrB_INVALID_VALUE, 1),
    C("%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n", GrB_SUCCESS, 6),
    C("%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n", GrB_INVALID_VALUE, 7),
    C("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n", GrB_SUCCESS, 6),
    C("%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n5\n6\n7\n", GrB_INVALID_VALUE, 9),
    C("\x89PNG\r\n\x1a\n\x01\x02\x03", GrB_INVALID_VALUE, 1),               // binary garbage
};

static void test_small_inputs(void **state) {
  (void)state;
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.format = K2_FORMAT_MATRIX_MARKET;
  for (size_t k = 0; k < sizeof small / sizeof small[0]; k++) {
    const mm_case *c = &small[k];
    size_t n = c->len;
    for (int gz = 0; gz < 2; gz++) {
      char name[64];
      snprintf(name, sizeof name, "mm%zu%s", k, gz ? ".gz" : ".txt");
      const char *p = io_write_tmp(name, c->text, n, gz);
      char path[600];
      snprintf(path, sizeof path, "%s", p);
      K2_Edges E;
      memset(&E, 0, sizeof E);
      GrB_Info info = K2_Edges_read(&E, path, &opt);
      if (info != c->info) {
        fail_msg("case %zu (%s): got %d (%s), want %d", k, gz ? "gz" : "plain", (int)info,
                 K2_error_string(), (int)c->info);
      }
      if (info == GrB_SUCCESS) {
        assert_int_equal(E.nvals, (uint64_t)c->line);
        K2_Edges_free(&E);
      } else {
        char where[700];
        snprintf(where, sizeof where, "%s:%d: ", path, c->line);
        if (strstr(K2_error_string(), where) == NULL) {
          fail_msg("case %zu: message '%s' does not name '%s'", k, K2_error_string(), where);
        }
        assert_null(E.I);
      }
    }
  }
  io_tmp_cleanup();
}

// A skew-symmetric 3 x 3 array lists the 3 values below the diagonal: (2,1) (3,1) (3,2).
static void test_array_skew_pattern(void **state) {
  (void)state;
  const char text[] = "%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n";
  K2_Edges E;
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.format = K2_FORMAT_MATRIX_MARKET;
  const char *path = io_write_tmp("skew.mtx", text, sizeof text - 1, false);
  K2_ASSERT_OK(K2_Edges_read(&E, path, &opt));
  const uint32_t I[6] = {1, 0, 2, 0, 2, 1}, J[6] = {0, 1, 0, 2, 1, 2};
  uint64_t na, nb;
  uint64_t *ka = io_sorted_keys(E.I, E.J, E.nvals, false, &na);
  uint64_t *kb = io_sorted_keys(I, J, 6, false, &nb);
  assert_int_equal(na, nb);
  assert_memory_equal(ka, kb, na * sizeof(uint64_t));
  free(ka);
  free(kb);
  K2_Edges_free(&E);
  io_tmp_cleanup();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lagraph_files),
      cmocka_unit_test(test_skew_pattern),
      cmocka_unit_test(test_small_inputs),
      cmocka_unit_test(test_array_skew_pattern),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
