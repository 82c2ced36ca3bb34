// test_foreign_k2.c: .k2 files of another k²-tree library (acubeLab k2, "plain depth-first"
// layout) are refused with a message saying so and naming the file, by every entry point that
// reads a .k2 file; a k2grb .k2 file still loads; garbage still gets the generic message.
// SPDX-License-Identifier: Apache-2.0
#include "io_test_util.h"

static const char *const acube_files[] = {"cnr80k.k2", "eu80k.k2", "goo80k.k2", "goo120k.k2"};
#define FOREIGN "written by another k²-tree library (acubeLab k2"

// The caller's matrix is left alone and the message names the file and the foreign library.
static void expect_foreign(GrB_Info info, K2_Matrix A, K2_Matrix before, const char *path) {
  if (info != GrB_INVALID_OBJECT)
    fail_msg("%s: got %d (%s), want GrB_INVALID_OBJECT", path, (int)info, K2_error_string());
  assert_ptr_equal(A, before);
  const char *m = K2_error_string();
  if (strstr(m, path) == NULL || strstr(m, FOREIGN) == NULL ||
      strstr(m, "convert it from its edge list") == NULL)
    fail_msg("%s: message '%s' does not name the file and the foreign library", path, m);
}

static void expect_generic(GrB_Info info, K2_Matrix A, K2_Matrix before, const char *path) {
  if (info != GrB_INVALID_OBJECT)
    fail_msg("%s: got %d (%s), want GrB_INVALID_OBJECT", path, (int)info, K2_error_string());
  assert_ptr_equal(A, before);
  const char *m = K2_error_string();
  if (strstr(m, path) == NULL || strstr(m, "not a .k2 image (its first 8 bytes are not the magic number") == NULL ||
      strstr(m, "another") != NULL)
    fail_msg("%s: message '%s' is not the generic one", path, m);
}

// Every entry point: K2_Matrix_load, K2_Matrix_read (by name and told the format),
// K2_Edges_read, K2_Matrix_deserialize of the bytes.
static void expect_all(const char *path, bool foreign) {
  K2_Matrix sentinel = (K2_Matrix)(uintptr_t)0x5A5A5A5A, A = sentinel;
  void (*expect)(GrB_Info, K2_Matrix, K2_Matrix, const char *) = foreign ? expect_foreign : expect_generic;
  expect(K2_Matrix_load(&A, path), A, sentinel, path);
  expect(K2_Matrix_read(&A, path, NULL), A, sentinel, path);
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.format = K2_FORMAT_K2;
  expect(K2_Matrix_read(&A, path, &opt), A, sentinel, path);
  K2_Edges E;
  memset(&E, 0x5A, sizeof E);
  K2_Edges before = E;
  GrB_Info info = K2_Edges_read(&E, path, &opt);
  expect(info, NULL, NULL, path);
  assert_memory_equal(&E, &before, sizeof E);
  // the blob: same verdict, the message names the blob
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long n = ftell(f);
  assert_true(n >= 0);
  rewind(f);
  void *bytes = malloc((size_t)n + 1);
  assert_non_null(bytes);
  assert_int_equal(fread(bytes, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  expect(K2_Matrix_deserialize(&A, bytes, (GrB_Index)n), A, sentinel, "blob");
  free(bytes);
}

// The four files of the data folder (the reference library's own output).
static void test_acubelab_files(void **state) {
  (void)state;
  const char *dir = k2_test_data_path("acubelab-k2");
  if (dir == NULL) {
    print_message("shared data acubelab-k2 absent: skipped\n");
    skip();
  }
  char d[4096];
  snprintf(d, sizeof d, "%s", dir);
  for (size_t k = 0; k < sizeof acube_files / sizeof acube_files[0]; k++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", d, acube_files[k]);
    expect_all(path, true);
  }
}

// The same header shape written here: small files (shorter than a k2grb header) are recognised
// too; a header that does not fit the file length, a leaf size or padded size the library
// never writes, or a real size beyond the padded one is not taken for the library's file.
static size_t acube_image(uint8_t *buf, uint64_t real, uint32_t mm, uint64_t padded,
                          uint64_t nibbles, size_t payload) {
  memcpy(buf, &real, 8);
  memcpy(buf + 8, &mm, 4);
  memcpy(buf + 12, &padded, 8);
  memcpy(buf + 20, &nibbles, 8);
  for (size_t i = 0; i < payload; i++) buf[28 + i] = (uint8_t)(0x9F ^ i);
  return 28 + payload;
}

static void test_synthetic_headers(void **state) {
  (void)state;
  uint8_t buf[4096];
  struct {
    uint64_t real;
    uint32_t mm;
    uint64_t padded, nibbles;
    size_t payload;
    bool foreign;
  } c[] = {
      {8, 2, 8, 5, 3, true},            // 3 bytes of nibbles
      {8, 2, 8, 5, 8, true},            // padded to a 64-bit word
      {1000, 4, 1024, 3001, 1501, true},
      {1000, 8, 1024, 3001, 1501, true},
      {1000, 0x10008, 1024, 3001, 1501, true},  // a flag in the high 16 bits
      {8, 2, 8, 5, 2, false},           // too short for its nibbles
      {8, 2, 8, 5, 9, false},           // trailing bytes
      {8, 3, 8, 5, 3, false},           // leaf 3
      {8, 2, 12, 5, 3, false},          // padded size not a power of two
      {9, 2, 8, 5, 3, false},           // real size beyond the padded size
      {0, 2, 8, 5, 3, false},           // real size 0
      {1000, 8, 1024, 4000, 1501, false},  // nibble count of another file
  };
  for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
    char name[32];
    snprintf(name, sizeof name, "synthetic%zu.k2", k);
    size_t n = acube_image(buf, c[k].real, c[k].mm, c[k].padded, c[k].nibbles, c[k].payload);
    char path[600];
    snprintf(path, sizeof path, "%s", io_write_tmp(name, buf, n, false));
    expect_all(path, c[k].foreign);
  }
  io_tmp_cleanup();
}

// Garbage (random bytes, long and short) gets the generic message.
static void test_garbage(void **state) {
  (void)state;
  k2_rng rng = {7};
  static uint8_t buf[100000];
  size_t sizes[] = {9, 27, 28, 29, 100, 319, 320, 5000, sizeof buf};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    for (size_t i = 0; i < sizes[k]; i++) buf[i] = (uint8_t)k2_rng_next(&rng);
    char name[32];
    snprintf(name, sizeof name, "garbage%zu.k2", k);
    char path[600];
    snprintf(path, sizeof path, "%s", io_write_tmp(name, buf, sizes[k], false));
    expect_all(path, false);
  }
  io_tmp_cleanup();
}

// A k2grb .k2 file still loads, whatever the entry point.
static void test_own_file_loads(void **state) {
  (void)state;
  GrB_Index I[] = {0, 1, 2, 7, 7}, J[] = {1, 2, 0, 7, 3};
  K2_Matrix A = NULL, B = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 8, 8));
  K2_ASSERT_OK(K2_Matrix_build(A, I, J, 5));
  char path[600];
  snprintf(path, sizeof path, "%s", io_tmp_path("own.k2"));
  K2_ASSERT_OK(K2_Matrix_save(A, path));
  K2_ASSERT_OK(K2_Matrix_load(&B, path));
  GrB_Index nv = 0, nr = 0;
  K2_ASSERT_OK(K2_Matrix_nvals(&nv, B));
  K2_ASSERT_OK(K2_Matrix_nrows(&nr, B));
  assert_int_equal(nv, 5);
  assert_int_equal(nr, 8);
  K2_Matrix_free(&B);
  K2_ASSERT_OK(K2_Matrix_read(&B, path, NULL));
  K2_ASSERT_OK(K2_Matrix_nvals(&nv, B));
  assert_int_equal(nv, 5);
  K2_Matrix_free(&B);
  K2_Matrix_free(&A);
  io_tmp_cleanup();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_acubelab_files), cmocka_unit_test(test_synthetic_headers),
      cmocka_unit_test(test_garbage), cmocka_unit_test(test_own_file_loads)};
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
