// test_csr.c: CSR and CSC import and export of a K2_Matrix, 32- and 64-bit: round trips
// (import then export gives the arrays back), the tree equals one built from the same edges,
// SuiteSparse:GraphBLAS as the oracle (GrB_Matrix_build of the same edges: its tuples and its
// own CSC export), empty shapes, unsorted lines, and every bad input with its code, a message
// naming the argument, and the inputs and outputs untouched.
// SPDX-License-Identifier: Apache-2.0
#include <string.h>

#include "k2_message_rules.h"
#include "k2_test.h"

typedef unsigned long long ull;

// A random CSR of nr x nc (rows sorted, no duplicates), density about d; 64-bit arrays.
static uint64_t rand_csr(k2_rng *r, uint64_t nr, uint64_t nc, double d, uint64_t **Ap,
                         uint64_t **Aj) {
  *Ap = malloc((nr + 1) * sizeof(uint64_t));
  uint64_t cap = 16, nv = 0;
  *Aj = malloc(cap * sizeof(uint64_t));
  (*Ap)[0] = 0;
  for (uint64_t i = 0; i < nr; i++) {
    for (uint64_t j = 0; j < nc; j++) {
      if (k2_rng_unit(r) >= d) continue;
      if (nv == cap) *Aj = realloc(*Aj, (cap *= 2) * sizeof(uint64_t));
      (*Aj)[nv++] = j;
    }
    (*Ap)[i + 1] = nv;
  }
  return nv;
}

static uint32_t *narrow(const uint64_t *a, uint64_t n) {
  uint32_t *b = malloc((n ? n : 1) * sizeof(uint32_t));
  for (uint64_t k = 0; k < n; k++) b[k] = (uint32_t)a[k];
  return b;
}

// The edges of a CSR (rows expanded).
static void csr_edges(const uint64_t *Ap, const uint64_t *Aj, uint64_t nr, GrB_Index **I,
                      GrB_Index **J) {
  uint64_t nv = Ap[nr];
  *I = malloc((nv ? nv : 1) * sizeof(GrB_Index));
  *J = malloc((nv ? nv : 1) * sizeof(GrB_Index));
  for (uint64_t i = 0; i < nr; i++)
    for (uint64_t p = Ap[i]; p < Ap[i + 1]; p++) {
      (*I)[p] = i;
      (*J)[p] = Aj[p];
    }
}

// One shape: import (CSR 64 and 32), export every way, compare with the tree of the same edges
// and with GraphBLAS.
static void check_shape(k2_rng *r, uint64_t nr, uint64_t nc, double d) {
  uint64_t *Ap, *Aj;
  const uint64_t nv = rand_csr(r, nr, nc, d, &Ap, &Aj);
  GrB_Index *I, *J;
  csr_edges(Ap, Aj, nr, &I, &J);

  K2_Matrix A64 = NULL, A32 = NULL, B = NULL;
  K2_ASSERT_OK(K2_Matrix_import_CSR_64(&A64, nr, nc, Ap, Aj, nr + 1, nv, NULL));
  uint32_t *Ap32 = narrow(Ap, nr + 1), *Aj32 = narrow(Aj, nv);
  K2_ASSERT_OK(K2_Matrix_import_CSR_32(&A32, nr, nc, Ap32, Aj32, nr + 1, nv, NULL));
  K2_ASSERT_OK(K2_Matrix_new(&B, nr, nc));
  K2_ASSERT_OK(K2_Matrix_build(B, I, J, nv));
  bool eq = false;
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, A64, B));
  assert_true(eq);
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, A32, B));
  assert_true(eq);
  GrB_Index n = 0, m = 0;
  K2_ASSERT_OK(K2_Matrix_nrows(&n, A64));
  assert_int_equal(n, nr);
  K2_ASSERT_OK(K2_Matrix_ncols(&n, A64));
  assert_int_equal(n, nc);

  // export = input, both widths (arrays one larger than needed: the lengths say what was used)
  K2_ASSERT_OK(K2_Matrix_exportSize_CSR(&n, &m, A64));
  assert_int_equal(n, nr + 1);
  assert_int_equal(m, nv);
  uint64_t *Xp = malloc((nr + 2) * sizeof(uint64_t)), *Xj = malloc((nv + 1) * sizeof(uint64_t));
  n = nr + 2;
  m = nv + 1;
  K2_ASSERT_OK(K2_Matrix_export_CSR_64(Xp, Xj, &n, &m, A32));
  assert_int_equal(n, nr + 1);
  assert_int_equal(m, nv);
  assert_memory_equal(Xp, Ap, (nr + 1) * sizeof(uint64_t));
  if (nv) assert_memory_equal(Xj, Aj, nv * sizeof(uint64_t));
  uint32_t *Yp = malloc((nr + 1) * sizeof(uint32_t)), *Yj = malloc((nv + 1) * sizeof(uint32_t));
  n = nr + 1;
  m = nv;
  K2_ASSERT_OK(K2_Matrix_export_CSR_32(Yp, Yj, &n, &m, A64));
  assert_memory_equal(Yp, Ap32, (nr + 1) * sizeof(uint32_t));
  if (nv) assert_memory_equal(Yj, Aj32, nv * sizeof(uint32_t));

  // the oracle: GraphBLAS's matrix of the same edges, its tuples and its CSC
  GrB_Matrix G = NULL;
  K2_ASSERT_OK(GrB_Matrix_new(&G, GrB_BOOL, nr, nc));
  bool *X = malloc(nv + 1);
  memset(X, 1, nv + 1);
  K2_ASSERT_OK(GrB_Matrix_build_BOOL(G, I, J, X, nv, GrB_LOR));
  free(X);
  GrB_Index nvg = 0;
  K2_ASSERT_OK(GrB_Matrix_nvals(&nvg, G));
  assert_int_equal(nvg, nv);
  GrB_Index *Ig = malloc((nv + 1) * sizeof(GrB_Index)), *Jg = malloc((nv + 1) * sizeof(GrB_Index));
  GrB_Index *Ik = malloc((nv + 1) * sizeof(GrB_Index)), *Jk = malloc((nv + 1) * sizeof(GrB_Index));
  GrB_Index cnt = nv;
  K2_ASSERT_OK(GrB_Matrix_extractTuples_BOOL(Ig, Jg, NULL, &cnt, G));
  cnt = nv;
  K2_ASSERT_OK(K2_Matrix_extractTuples(Ik, Jk, &cnt, A64));
  assert_int_equal(cnt, nv);
  if (nv) {
    assert_memory_equal(Ig, Ik, nv * sizeof(GrB_Index));
    assert_memory_equal(Jg, Jk, nv * sizeof(GrB_Index));
  }
  GrB_Index gp = 0, gi = 0, gx = 0;
  K2_ASSERT_OK(GrB_Matrix_exportSize(&gp, &gi, &gx, GrB_CSC_FORMAT, G));
  GrB_Index *Gp = malloc((gp + 1) * sizeof(GrB_Index)), *Gi = malloc((gi + 1) * sizeof(GrB_Index));
  bool *Gx = malloc(gx + 1);
  K2_ASSERT_OK(GrB_Matrix_export_BOOL(Gp, Gi, Gx, &gp, &gi, &gx, GrB_CSC_FORMAT, G));
  K2_ASSERT_OK(K2_Matrix_exportSize_CSC(&n, &m, A64));
  assert_int_equal(n, nc + 1);
  assert_int_equal(n, gp);
  assert_int_equal(m, gi);
  uint64_t *Cp = malloc((nc + 1) * sizeof(uint64_t)), *Ci = malloc((nv + 1) * sizeof(uint64_t));
  K2_ASSERT_OK(K2_Matrix_export_CSC_64(Cp, Ci, &n, &m, A64));
  assert_memory_equal(Cp, Gp, (nc + 1) * sizeof(uint64_t));
  if (nv) assert_memory_equal(Ci, Gi, nv * sizeof(uint64_t));
  uint32_t *Dp = malloc((nc + 1) * sizeof(uint32_t)), *Di = malloc((nv + 1) * sizeof(uint32_t));
  K2_ASSERT_OK(K2_Matrix_export_CSC_32(Dp, Di, &n, &m, A32));
  for (uint64_t k = 0; k <= nc; k++) assert_int_equal(Dp[k], Gp[k]);
  for (uint64_t k = 0; k < nv; k++) assert_int_equal(Di[k], Gi[k]);

  // CSC import of that export: the same matrix, and it exports to the same CSR
  K2_Matrix C64 = NULL, C32 = NULL;
  K2_ASSERT_OK(K2_Matrix_import_CSC_64(&C64, nr, nc, Cp, Ci, nc + 1, nv, NULL));
  K2_ASSERT_OK(K2_Matrix_import_CSC_32(&C32, nr, nc, Dp, Di, nc + 1, nv, NULL));
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, C64, B));
  assert_true(eq);
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, C32, B));
  assert_true(eq);

  GrB_free(&G);
  K2_Matrix_free(&A64);
  K2_Matrix_free(&A32);
  K2_Matrix_free(&B);
  K2_Matrix_free(&C64);
  K2_Matrix_free(&C32);
  free(Ap), free(Aj), free(Ap32), free(Aj32), free(I), free(J), free(Xp), free(Xj), free(Yp);
  free(Yj), free(Ig), free(Jg), free(Ik), free(Jk), free(Gp), free(Gi), free(Gx), free(Cp);
  free(Ci), free(Dp), free(Di);
}

static void test_round_trips(void **state) {
  (void)state;
  k2_rng r = {7};
  const uint64_t shapes[][2] = {{1, 1}, {4, 5}, {17, 3}, {3, 40}, {64, 64}, {100, 257}, {300, 300}};
  const double dens[] = {0.02, 0.3, 1.0};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t d = 0; d < 3; d++) check_shape(&r, shapes[s][0], shapes[s][1], dens[d]);
}

// 0 x 0, n x 0, 0 x n and n x n without entries: Aj may be NULL; every export gives Ap zeros.
static void test_empty(void **state) {
  (void)state;
  const uint64_t shapes[][2] = {{0, 0}, {5, 0}, {0, 5}, {6, 6}};
  for (size_t s = 0; s < 4; s++) {
    const uint64_t nr = shapes[s][0], nc = shapes[s][1];
    uint64_t Ap[8] = {0};
    uint32_t Ap32[8] = {0};
    K2_Matrix A = NULL, B = NULL;
    K2_ASSERT_OK(K2_Matrix_import_CSR_64(&A, nr, nc, Ap, NULL, nr + 1, 0, NULL));
    K2_ASSERT_OK(K2_Matrix_import_CSC_32(&B, nr, nc, Ap32, NULL, nc + 1, 0, NULL));
    GrB_Index nv = 1, n = 0, m = 0;
    K2_ASSERT_OK(K2_Matrix_nvals(&nv, A));
    assert_int_equal(nv, 0);
    K2_ASSERT_OK(K2_Matrix_nvals(&nv, B));
    assert_int_equal(nv, 0);
    K2_ASSERT_OK(K2_Matrix_nrows(&n, B));
    assert_int_equal(n, nr);
    uint64_t Xp[8];
    memset(Xp, 0xAB, sizeof Xp);
    n = 8;
    m = 0;
    K2_ASSERT_OK(K2_Matrix_export_CSR_64(Xp, NULL, &n, &m, B));
    assert_int_equal(n, nr + 1);
    assert_int_equal(m, 0);
    for (uint64_t k = 0; k <= nr; k++) assert_int_equal(Xp[k], 0);
    assert_int_equal(Xp[nr + 1], 0xABABABABABABABABull);
    uint32_t Yp[8];
    n = 8;
    m = 0;
    K2_ASSERT_OK(K2_Matrix_export_CSC_32(Yp, NULL, &n, &m, A));
    assert_int_equal(n, nc + 1);
    for (uint64_t k = 0; k <= nc; k++) assert_int_equal(Yp[k], 0);
    K2_Matrix_free(&A);
    K2_Matrix_free(&B);
  }
}

// The columns of a line in any order give the same matrix; the export has them sorted.
static void test_unsorted_lines(void **state) {
  (void)state;
  const uint64_t Ap[] = {0, 3, 3, 5, 6};
  const uint64_t Aj[] = {4, 0, 2, 3, 1, 0};
  const uint64_t Sj[] = {0, 2, 4, 1, 3, 0};
  K2_Matrix A = NULL, B = NULL;
  K2_ASSERT_OK(K2_Matrix_import_CSR_64(&A, 4, 5, Ap, Aj, 5, 6, NULL));
  K2_ASSERT_OK(K2_Matrix_import_CSR_64(&B, 4, 5, Ap, Sj, 5, 6, NULL));
  bool eq = false;
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, A, B));
  assert_true(eq);
  uint64_t Xp[5], Xj[6];
  GrB_Index n = 5, m = 6;
  K2_ASSERT_OK(K2_Matrix_export_CSR_64(Xp, Xj, &n, &m, A));
  assert_memory_equal(Xp, Ap, sizeof Xp);
  assert_memory_equal(Xj, Sj, sizeof Xj);
  // the same as CSC (the transposed reading of the arrays): rows of each column sorted
  K2_Matrix C = NULL;
  K2_ASSERT_OK(K2_Matrix_import_CSC_64(&C, 5, 4, Ap, Aj, 5, 6, NULL));
  K2_ASSERT_OK(K2_Matrix_export_CSC_64(Xp, Xj, &n, &m, C));
  assert_memory_equal(Xp, Ap, sizeof Xp);
  assert_memory_equal(Xj, Sj, sizeof Xj);
  K2_Matrix_free(&A);
  K2_Matrix_free(&B);
  K2_Matrix_free(&C);
}

// The import's result and message for one bad input; the arrays and *A untouched.
#define SENTINEL ((K2_Matrix)(uintptr_t)0x1234)
static void expect_import(GrB_Info got, GrB_Info want, K2_Matrix A, const char *needle,
                          const void *arrays, const void *copy, size_t bytes) {
  if (got != want)
    fail_msg("returned %s, expected %s: %s", K2_info_name(got), K2_info_name(want),
             K2_error_string());
  assert_ptr_equal(A, SENTINEL);
  const char *msg = K2_error_string();
  if (strstr(msg, needle) == NULL) fail_msg("message '%s' lacks '%s'", msg, needle);
  char why[256];
  if (!k2_message_ok(msg, got, why, sizeof why)) fail_msg("%s", why);
  if (bytes) assert_memory_equal(arrays, copy, bytes);
}

static void test_bad_imports(void **state) {
  (void)state;
  // 3 x 4, Ap and Aj one array each so the check of "untouched" covers both
  struct { uint64_t p[4], j[5]; } in = {{0, 2, 3, 5}, {0, 3, 1, 2, 3}}, cp;
  struct { uint32_t p[4], j[5]; } in32 = {{0, 2, 3, 5}, {0, 3, 1, 2, 3}}, cp32;
  K2_Matrix A = SENTINEL;
  GrB_Info info;
#define BAD64(want, needle, ...)                                                          \
  do {                                                                                    \
    cp = in;                                                                              \
    A = SENTINEL;                                                                         \
    info = K2_Matrix_import_CSR_64(__VA_ARGS__);                                          \
    expect_import(info, want, A, needle, &in, &cp, sizeof in);                            \
  } while (0)

  // the good input works
  K2_ASSERT_OK(K2_Matrix_import_CSR_64(&A, 3, 4, in.p, in.j, 4, 5, NULL));
  K2_Matrix_free(&A);

  info = K2_Matrix_import_CSR_64(NULL, 3, 4, in.p, in.j, 4, 5, NULL);
  assert_int_equal(info, GrB_NULL_POINTER);
  assert_non_null(strstr(K2_error_string(), "A is NULL"));
  BAD64(GrB_NULL_POINTER, "Ap is NULL", &A, 3, 4, NULL, in.j, 4, 5, NULL);
  BAD64(GrB_NULL_POINTER, "Aj is NULL", &A, 3, 4, in.p, NULL, 4, 5, NULL);
  BAD64(GrB_INVALID_VALUE, "exceed 2^32", &A, K2_INDEX_MAX + 1, 4, in.p, in.j, 4, 5, NULL);
  BAD64(GrB_INVALID_VALUE, "Ap_len is 3", &A, 3, 4, in.p, in.j, 3, 5, NULL);
  BAD64(GrB_INVALID_VALUE, "Ap[nrows] is 5, more than Aj_len (4)", &A, 3, 4, in.p, in.j, 4, 4, NULL);
  in.p[0] = 1;
  BAD64(GrB_INVALID_VALUE, "Ap[0] is 1", &A, 3, 4, in.p, in.j, 4, 5, NULL);
  in.p[0] = 0;
  in.p[2] = 1;  // 0 2 1 5
  BAD64(GrB_INVALID_VALUE, "Ap decreases at row 1", &A, 3, 4, in.p, in.j, 4, 5, NULL);
  in.p[2] = 3;
  in.j[3] = 4;  // row 2's first column outside 4 columns
  BAD64(GrB_INDEX_OUT_OF_BOUNDS, "Aj[3] = 4 (row 2) is out of range", &A, 3, 4, in.p, in.j, 4, 5, NULL);
  in.j[3] = 3;  // row 2 = {3, 3}
  BAD64(GrB_INVALID_VALUE, "row 2 holds column 3 more than once", &A, 3, 4, in.p, in.j, 4, 5, NULL);
  in.j[3] = 2;
  K2_Format bad_fmt;
  K2_Format_default(&bad_fmt);
  bad_fmt.leaf_log = 9;
  cp = in;
  A = SENTINEL;
  assert_int_not_equal(K2_Matrix_import_CSR_64(&A, 3, 4, in.p, in.j, 4, 5, &bad_fmt), GrB_SUCCESS);
  assert_ptr_equal(A, SENTINEL);

  // the 32-bit and CSC forms name their own arrays and lines
  in32.j[1] = 7;
  cp32 = in32;
  A = SENTINEL;
  info = K2_Matrix_import_CSR_32(&A, 3, 4, in32.p, in32.j, 4, 5, NULL);
  expect_import(info, GrB_INDEX_OUT_OF_BOUNDS, A, "Aj[1] = 7 (row 0)", &in32, &cp32, sizeof in32);
  A = SENTINEL;
  info = K2_Matrix_import_CSC_32(&A, 4, 3, in32.p, in32.j, 4, 5, NULL);
  expect_import(info, GrB_INDEX_OUT_OF_BOUNDS, A, "Ai[1] = 7 (column 0)", &in32, &cp32, sizeof in32);
  in32.j[1] = 0;  // column 0 = {0, 0}
  cp32 = in32;
  A = SENTINEL;
  info = K2_Matrix_import_CSC_32(&A, 4, 3, in32.p, in32.j, 4, 5, NULL);
  expect_import(info, GrB_INVALID_VALUE, A, "column 0 holds row 0 more than once", &in32, &cp32,
                sizeof in32);
  A = SENTINEL;
  info = K2_Matrix_import_CSC_64(&A, 4, 3, in.p, in.j, 3, 5, NULL);
  expect_import(info, GrB_INVALID_VALUE, A, "less than ncols + 1", &in, &in, 0);
#undef BAD64
}

static void test_bad_exports(void **state) {
  (void)state;
  const uint64_t Ap[] = {0, 2, 3, 5}, Aj[] = {0, 3, 1, 2, 3};
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_import_CSR_64(&A, 3, 4, Ap, Aj, 4, 5, NULL));
  uint64_t Xp[6], Xj[6];
  uint32_t Yp[6], Yj[6];
  memset(Xp, 0xAB, sizeof Xp);
  memset(Xj, 0xAB, sizeof Xj);
  memset(Yp, 0xAB, sizeof Yp);
  memset(Yj, 0xAB, sizeof Yj);
  uint8_t untouched[sizeof Xp];
  memset(untouched, 0xAB, sizeof untouched);
  GrB_Index n = 6, m = 6;
  // too small: each array named; nothing written
  n = 3;
  assert_int_equal(K2_Matrix_export_CSR_64(Xp, Xj, &n, &m, A), GrB_INSUFFICIENT_SPACE);
  assert_non_null(strstr(K2_error_string(), "Ap_len is 3, the matrix needs 4"));
  assert_int_equal(n, 3);
  assert_int_equal(m, 6);
  n = 6;
  m = 4;
  assert_int_equal(K2_Matrix_export_CSC_32(Yp, Yj, &n, &m, A), GrB_INSUFFICIENT_SPACE);
  assert_non_null(strstr(K2_error_string(), "Ai_len is 4, the matrix has 5 entries"));
  const char *msg = NULL;
  K2_ASSERT_OK(K2_Matrix_error(&msg, A));
  assert_non_null(strstr(msg, "Ai_len"));
  assert_int_equal(n, 6);
  assert_int_equal(m, 4);
  n = 4;  // CSC needs ncols + 1 = 5
  m = 6;
  assert_int_equal(K2_Matrix_export_CSC_64(Xp, Xj, &n, &m, A), GrB_INSUFFICIENT_SPACE);
  m = 6;
  n = 6;
  assert_int_equal(K2_Matrix_export_CSR_32(NULL, Yj, &n, &m, A), GrB_NULL_POINTER);
  assert_non_null(strstr(K2_error_string(), "Ap is NULL"));
  assert_int_equal(K2_Matrix_export_CSR_32(Yp, NULL, &n, &m, A), GrB_NULL_POINTER);
  assert_non_null(strstr(K2_error_string(), "Aj is NULL"));
  assert_int_equal(K2_Matrix_export_CSR_64(Xp, Xj, NULL, &m, A), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_export_CSR_64(Xp, Xj, &n, NULL, A), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_export_CSR_64(Xp, Xj, &n, &m, NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_exportSize_CSC(&n, &m, NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_exportSize_CSR(NULL, &m, A), GrB_NULL_POINTER);
  assert_memory_equal(Xp, untouched, sizeof Xp);
  assert_memory_equal(Xj, untouched, sizeof Xj);
  assert_memory_equal(Yp, untouched, sizeof Yp);
  assert_memory_equal(Yj, untouched, sizeof Yj);
  assert_int_equal(n, 6);
  assert_int_equal(m, 6);
  // pending edits are part of the export
  K2_ASSERT_OK(K2_Matrix_setElement(A, 1, 0));
  K2_ASSERT_OK(K2_Matrix_exportSize_CSR(&n, &m, A));
  assert_int_equal(m, 6);
  K2_ASSERT_OK(K2_Matrix_export_CSR_64(Xp, Xj, &n, &m, A));
  const uint64_t Ep[] = {0, 2, 4, 6}, Ej[] = {0, 3, 0, 1, 2, 3};
  assert_memory_equal(Xp, Ep, sizeof Ep);
  assert_memory_equal(Xj, Ej, sizeof Ej);
  K2_Matrix_free(&A);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trips),  cmocka_unit_test(test_empty),
      cmocka_unit_test(test_unsorted_lines), cmocka_unit_test(test_bad_imports),
      cmocka_unit_test(test_bad_exports),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
