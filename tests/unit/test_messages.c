// test_messages.c: the library's error messages on a sample of error paths (NULL pointers, bad
// dimensions and values, GraphBLAS objects that are not valid, bad and missing files): each call returns its code and K2_error_string()
// holds a message in words (k2_message_rules.h) that names the argument or the input; the names
// of the GrB_Info codes (K2_info_name) and K2_error_clear.
// SPDX-License-Identifier: Apache-2.0
#define _GNU_SOURCE 1  // mkdtemp
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "k2_message_rules.h"
#include "k2_test.h"

static char tmp[256];

static const char *tmp_file(const char *name, const char *text, size_t len) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", tmp, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, len, f), len);
  assert_int_equal(fclose(f), 0);
  return path;
}

// The call returns `want`; the message follows the rules and contains each of the words.
static void expect_msg(const char *what, GrB_Info got, GrB_Info want, const char *w1, const char *w2) {
  const char *msg = K2_error_string();
  char why[1024];
  if (got != want) fail_msg("%s: got %s (%s), want %s", what, K2_info_name(got), msg, K2_info_name(want));
  if (!k2_message_ok(msg, got, why, sizeof why)) fail_msg("%s: %s", what, why);
  if ((w1 != NULL && strstr(msg, w1) == NULL) || (w2 != NULL && strstr(msg, w2) == NULL)) {
    fail_msg("%s: message '%s' does not say '%s'%s%s", what, msg, w1 ? w1 : "", w2 ? " and " : "",
             w2 ? w2 : "");
  }
}

// Run `call` with the message cleared first: what it reports is its own.
#define EXPECT(call, want, w1, w2)        \
  do {                                    \
    K2_error_clear();                     \
    GrB_Info got_ = (call);               \
    expect_msg(#call, got_, want, w1, w2); \
  } while (0)

static K2_Matrix A;  // 4 x 4, edges (0,1) (1,2) (2,3) (3,0)

static int setup(void **state) {
  if (k2_test_setup(state) != 0) return -1;
  snprintf(tmp, sizeof tmp, "/tmp/k2_messages_XXXXXX");
  if (mkdtemp(tmp) == NULL) return -1;
  const uint32_t I[4] = {0, 1, 2, 3}, J[4] = {1, 2, 3, 0};
  if (K2_Matrix_new(&A, 4, 4) != GrB_SUCCESS || K2_Matrix_build_32(A, I, J, 4) != GrB_SUCCESS) return -1;
  return 0;
}

static int teardown(void **state) {
  K2_Matrix_free(&A);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  if (system(cmd) != 0) return -1;
  return k2_test_teardown(state);
}

static void test_null_pointers(void **state) {
  (void)state;
  GrB_Index n = 0, size = 0;
  float x[4] = {1, 2, 3, 4}, y[4];
  K2_Matrix B = NULL;
  K2_Edges E;
  K2_RmatParams p;
  K2_RmatParams_default(&p, 4);
  GrB_Vector w = NULL, u = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP32, 4));
  K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP32, 4));
  EXPECT(K2_Matrix_new(NULL, 2, 2), GrB_NULL_POINTER, "K2_Matrix_new", "A is NULL");
  EXPECT(K2_Matrix_nrows(NULL, A), GrB_NULL_POINTER, "K2_Matrix_nrows", "NULL");
  EXPECT(K2_Matrix_nvals(&n, NULL), GrB_NULL_POINTER, "K2_Matrix_nvals", "NULL");
  EXPECT(K2_Matrix_build_32(A, NULL, NULL, 3), GrB_NULL_POINTER, "I or J is NULL", NULL);
  EXPECT(K2_dense_mxv(NULL, A, x, K2_PLUS_TIMES, GrB_FP32), GrB_NULL_POINTER, "y is NULL", NULL);
  EXPECT(K2_mxv(NULL, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, NULL), GrB_NULL_POINTER, "w is NULL",
         NULL);
  EXPECT(K2_mxv(w, NULL, NULL, NULL, A, u, NULL), GrB_NULL_POINTER, "semiring is NULL", NULL);
  EXPECT(K2_Matrix_fromGrB(&B, NULL), GrB_NULL_POINTER, "G is NULL", NULL);
  EXPECT(K2_Matrix_toGrB(NULL, A, NULL), GrB_NULL_POINTER, "G is NULL", NULL);
  EXPECT(K2_Edges_read(NULL, "x.mtx", NULL), GrB_NULL_POINTER, "K2_Edges_read", "E is NULL");
  EXPECT(K2_Edges_read(&E, NULL, NULL), GrB_NULL_POINTER, "K2_Edges_read", "path is NULL");
  EXPECT(K2_Matrix_read(&B, NULL, NULL), GrB_NULL_POINTER, "K2_Matrix_read", "path is NULL");
  EXPECT(K2_Edges_readBVGraph(&E, NULL, NULL), GrB_NULL_POINTER, "basename is NULL", NULL);
  EXPECT(K2_Matrix_load(NULL, "x.k2"), GrB_NULL_POINTER, "K2_Matrix_load", "A is NULL");
  EXPECT(K2_Matrix_save(A, NULL), GrB_NULL_POINTER, "K2_Matrix_save", "path is NULL");
  EXPECT(K2_Matrix_writeMatrixMarket(A, NULL), GrB_NULL_POINTER, "path is NULL", NULL);
  EXPECT(K2_Gen_rmat(NULL, &p), GrB_NULL_POINTER, "K2_Gen_rmat", "E is NULL");
  EXPECT(K2_Gen_rmat(&E, NULL), GrB_NULL_POINTER, "K2_Gen_rmat", "p is NULL");
  EXPECT(K2_Gen_grid2d(NULL, 2, 2), GrB_NULL_POINTER, "K2_Gen_grid2d", "E is NULL");
  EXPECT(K2_get_engine(NULL), GrB_NULL_POINTER, "engine is NULL", NULL);
  EXPECT(K2_Matrix_serialize(NULL, &size, A), GrB_NULL_POINTER, "blob is NULL", NULL);
  K2_Edges bad = {.nrows = 4, .ncols = 4, .nvals = 2, .capacity = 0, .I = NULL, .J = NULL};
  char path[512];
  snprintf(path, sizeof path, "%s/e.txt", tmp);
  EXPECT(K2_Edges_writeEdgeList(&bad, path), GrB_NULL_POINTER, "has 2 edges but its I or J is NULL", NULL);
  GrB_free(&w);
  GrB_free(&u);
  (void)y;
}

static void test_bad_values(void **state) {
  (void)state;
  K2_Matrix B = NULL;
  float x[4] = {1, 2, 3, 4}, y[4];
  bool bx[4] = {true, false, true, false}, by[4];
  GrB_Index out[1], count = 1, n = 1, I[1], J[1];
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.leaf_log = 5;
  EXPECT(K2_Matrix_new(&B, (GrB_Index)1 << 33, 1), GrB_INVALID_VALUE, "8589934592", NULL);
  EXPECT(K2_Matrix_new_format(&B, 4, 4, &fmt), GrB_INVALID_VALUE, "leaf_log 5", NULL);
  K2_ASSERT_OK(K2_Matrix_new(&B, 4, 4));
  const uint32_t bi[2] = {0, 9}, bj[2] = {1, 1};
  EXPECT(K2_Matrix_build_32(B, bi, bj, 2), GrB_INVALID_INDEX, "(9, 1)", "4 x 4");
  K2_Matrix_free(&B);
  EXPECT(K2_dense_mxv(y, A, x, K2_PLUS_TIMES, GrB_INT8), GrB_DOMAIN_MISMATCH, "GrB_FP32", NULL);
  EXPECT(K2_dense_mxv(by, A, bx, K2_PLUS_TIMES, GrB_BOOL), GrB_DOMAIN_MISMATCH, "numeric type", NULL);
  EXPECT(K2_dense_mxm(y, A, x, 0, false, K2_PLUS_TIMES, GrB_FP32), GrB_INVALID_VALUE, "batch width 0", NULL);
  EXPECT(K2_set_engine((K2_Engine)42), GrB_INVALID_VALUE, "unknown engine 42", NULL);
  EXPECT(K2_Matrix_rowNeighbors(out, &count, A, 4), GrB_INVALID_INDEX, "row 4 is out of range", NULL);
  count = 0;
  EXPECT(K2_Matrix_colNeighbors(out, &count, A, 1), GrB_INSUFFICIENT_SPACE, "room for 0", NULL);
  bool more = false;
  EXPECT(K2_Matrix_rowNeighborsFirst(out, &count, &more, A, 4), GrB_INVALID_INDEX, "row 4 is out of range", NULL);
  EXPECT(K2_Matrix_colNeighborsFirst(out, &count, NULL, A, 0), GrB_NULL_POINTER, "more", NULL);
  EXPECT(K2_Matrix_extractTuples(I, J, &n, A), GrB_INSUFFICIENT_SPACE, "room for 1", NULL);
  bool present;
  EXPECT(K2_Matrix_isEntry(&present, A, 7, 0), GrB_INVALID_INDEX, "(7, 0)", NULL);
  // a GraphBLAS product whose vectors do not fit A
  GrB_Vector w = NULL, u = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP32, 3));
  K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP32, 4));
  EXPECT(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, NULL), GrB_DIMENSION_MISMATCH,
         "dimensions of w (3)", NULL);
  GrB_free(&w);
  GrB_free(&u);
}

// GraphBLAS objects that are not initialised (zeroed memory: GraphBLAS reads the magic number
// and refuses them): the library says which argument, in words.
static void test_invalid_objects(void **state) {
  (void)state;
  void *zeros = calloc(1, 4096);
  assert_non_null(zeros);
  K2_Matrix B = NULL;
  GrB_Vector w = NULL, u = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP32, 4));
  K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP32, 4));
  EXPECT(K2_Matrix_fromGrB(&B, (GrB_Matrix)zeros), GrB_UNINITIALIZED_OBJECT, "G is not a valid GrB_Matrix", NULL);
  EXPECT(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, (GrB_Descriptor)zeros),
         GrB_UNINITIALIZED_OBJECT, "desc is not a valid GrB_Descriptor", NULL);
  EXPECT(K2_mxv(w, NULL, NULL, (GrB_Semiring)zeros, A, u, NULL), GrB_UNINITIALIZED_OBJECT,
         "semiring is not a valid GrB_Semiring", NULL);
  EXPECT(K2_mxv((GrB_Vector)zeros, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, NULL),
         GrB_UNINITIALIZED_OBJECT, "w is not a valid GrB_Vector", NULL);
  assert_null(B);
  GrB_free(&w);
  GrB_free(&u);
  free(zeros);
}

static void test_bad_files(void **state) {
  (void)state;
  K2_Matrix B = NULL;
  K2_Edges E;
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  EXPECT(K2_Matrix_load(&B, "/nonexistent/graph.k2"), GrB_INVALID_VALUE, "/nonexistent/graph.k2", "cannot open");
  EXPECT(K2_Matrix_read(&B, "/nonexistent/graph.mtx", NULL), GrB_INVALID_VALUE, "/nonexistent/graph.mtx", NULL);
  EXPECT(K2_Edges_readBVGraph(&E, "/nonexistent/graph", NULL), GrB_NO_VALUE, "/nonexistent/graph", NULL);
  const char garbage[] = "this is not a k2 file at all, just some text that is long enough";
  const char *p = tmp_file("garbage.k2", garbage, sizeof garbage - 1);
  EXPECT(K2_Matrix_load(&B, p), GrB_INVALID_OBJECT, p, NULL);
  // a saved tree cut short, loaded and deserialized
  char path[600];
  snprintf(path, sizeof path, "%s/a.k2", tmp);
  K2_ASSERT_OK(K2_Matrix_save(A, path));
  GrB_Index size = 0;
  K2_ASSERT_OK(K2_Matrix_serializeSize(&size, A));
  char *blob = malloc(size);
  assert_non_null(blob);
  K2_ASSERT_OK(K2_Matrix_serialize(blob, &size, A));
  EXPECT(K2_Matrix_deserialize(&B, blob, size / 2), GrB_INVALID_OBJECT, "truncated", NULL);
  p = tmp_file("cut.k2", blob, size / 2);
  EXPECT(K2_Matrix_load(&B, p), GrB_INVALID_OBJECT, p, "truncated");
  free(blob);
  // text files: the file and the line
  const char mm[] = "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 1\n4 1\n";
  p = tmp_file("bad.mtx", mm, sizeof mm - 1);
  char where[700];
  snprintf(where, sizeof where, "%s:4: ", p);
  EXPECT(K2_Edges_read(&E, p, &opt), GrB_INVALID_INDEX, where, "row");
  const char arr[] = "%%MatrixMarket matrix array real symmetric\n4294967296 4294967296\n1\n";
  p = tmp_file("big.mtx", arr, sizeof arr - 1);
  snprintf(where, sizeof where, "%s:2: ", p);
  EXPECT(K2_Edges_read(&E, p, &opt), GrB_INVALID_VALUE, where, "4294967296 x 4294967296");
  const char el[] = "0 1\n1 x\n";
  p = tmp_file("bad.txt", el, sizeof el - 1);
  snprintf(where, sizeof where, "%s:2: ", p);
  EXPECT(K2_Edges_read(&E, p, &opt), GrB_INVALID_VALUE, where, "'x'");
  EXPECT(K2_Matrix_writeEdgeList(A, "/nonexistent/dir/x.txt"), GrB_INVALID_VALUE, "/nonexistent/dir/x.txt", NULL);
  EXPECT(K2_Matrix_save(A, "/nonexistent/dir/x.k2"), GrB_INVALID_VALUE, "/nonexistent/dir/x.k2", NULL);
}

static void test_info_names(void **state) {
  (void)state;
  static const struct {
    GrB_Info info;
    const char *name;
  } names[] = {
      {GrB_SUCCESS, "GrB_SUCCESS"},
      {GrB_NO_VALUE, "GrB_NO_VALUE"},
      {GxB_EXHAUSTED, "GxB_EXHAUSTED"},
      {GrB_UNINITIALIZED_OBJECT, "GrB_UNINITIALIZED_OBJECT"},
      {GrB_NULL_POINTER, "GrB_NULL_POINTER"},
      {GrB_INVALID_VALUE, "GrB_INVALID_VALUE"},
      {GrB_INVALID_INDEX, "GrB_INVALID_INDEX"},
      {GrB_DOMAIN_MISMATCH, "GrB_DOMAIN_MISMATCH"},
      {GrB_DIMENSION_MISMATCH, "GrB_DIMENSION_MISMATCH"},
      {GrB_OUTPUT_NOT_EMPTY, "GrB_OUTPUT_NOT_EMPTY"},
      {GrB_NOT_IMPLEMENTED, "GrB_NOT_IMPLEMENTED"},
      {GrB_PANIC, "GrB_PANIC"},
      {GrB_OUT_OF_MEMORY, "GrB_OUT_OF_MEMORY"},
      {GrB_INSUFFICIENT_SPACE, "GrB_INSUFFICIENT_SPACE"},
      {GrB_INVALID_OBJECT, "GrB_INVALID_OBJECT"},
      {GrB_INDEX_OUT_OF_BOUNDS, "GrB_INDEX_OUT_OF_BOUNDS"},
      {GrB_EMPTY_OBJECT, "GrB_EMPTY_OBJECT"},
  };
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
    assert_string_equal(K2_info_name(names[k].info), names[k].name);
    assert_ptr_equal(K2_info_name(names[k].info), K2_info_name(names[k].info));  // a static string
  }
  assert_string_equal(K2_info_name((GrB_Info)42), "unknown GrB_Info 42");
  assert_string_equal(K2_info_name((GrB_Info)-1005), "unknown GrB_Info -1005");
  // from many threads at once: each its own unknown values, the known names unchanged
  int bad = 0;
#pragma omp parallel num_threads(4) reduction(+ : bad)
  for (int r = 0; r < 2000; r++) {
    int v = 1000 + 10 * r + (int)(r % 7);
    char want[32];
    snprintf(want, sizeof want, "unknown GrB_Info %d", v);
    const char *got = K2_info_name((GrB_Info)v);
    bad += strcmp(got, want) != 0;
    bad += strcmp(K2_info_name(GrB_OUT_OF_MEMORY), "GrB_OUT_OF_MEMORY") != 0;
  }
  assert_int_equal(bad, 0);
}

static void test_error_clear(void **state) {
  (void)state;
  assert_int_equal(K2_Matrix_new(NULL, 1, 1), GrB_NULL_POINTER);
  assert_true(K2_error_string()[0] != '\0');
  K2_error_clear();
  assert_string_equal(K2_error_string(), "");
  // a successful call leaves the message alone (as GraphBLAS does): only a failure writes one
  assert_int_equal(K2_Matrix_new(NULL, 1, 1), GrB_NULL_POINTER);
  GrB_Index n;
  K2_ASSERT_OK(K2_Matrix_nrows(&n, A));
  assert_non_null(strstr(K2_error_string(), "A is NULL"));
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_null_pointers), cmocka_unit_test(test_bad_values),
      cmocka_unit_test(test_invalid_objects), cmocka_unit_test(test_bad_files),
      cmocka_unit_test(test_info_names),    cmocka_unit_test(test_error_clear),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
