// test_bridge_errors.c: every error code of the bridge, as GraphBLAS returns it in the same
// situation (checked side by side with GrB_mxv where GraphBLAS can be put in that situation),
// each with a message, and w left untouched.
// SPDX-License-Identifier: Apache-2.0
#include "k2_test.h"

#include <string.h>
#include <sys/resource.h>

#include <k2grb/device.h>
#include <k2grb/overlay.h>

#include "matrix/k2_matrix.h"

#define N 6

typedef struct {
  K2_Matrix A;
  GrB_Matrix G;
  GrB_Vector w, u, w_before;
} fixture;

static void fx_new(fixture *f) {
  GrB_Index I[] = {0, 1, 2, 3, 4, 5, 0}, J[] = {1, 2, 3, 4, 5, 0, 3};
  bool X[7] = {1, 1, 1, 1, 1, 1, 1};
  K2_ASSERT_OK(K2_Matrix_new(&f->A, N, N));
  K2_ASSERT_OK(K2_Matrix_build(f->A, I, J, 7));
  K2_ASSERT_OK(GrB_Matrix_new(&f->G, GrB_BOOL, N, N));
  K2_ASSERT_OK(GrB_Matrix_build_BOOL(f->G, I, J, X, 7, GrB_LOR));
  K2_ASSERT_OK(GrB_Vector_new(&f->w, GrB_FP32, N));
  K2_ASSERT_OK(GrB_Vector_setElement_FP32(f->w, 7.0f, 2));
  K2_ASSERT_OK(GrB_Vector_new(&f->u, GrB_FP32, N));
  K2_ASSERT_OK(GrB_Vector_assign_FP32(f->u, NULL, NULL, 1.0f, GrB_ALL, N, NULL));
  K2_ASSERT_OK(GrB_Vector_dup(&f->w_before, f->w));
}

// w still equals its value before the failed call; the failure left a message.
static void fx_check_untouched(fixture *f) {
  GrB_Index n1, n2;
  K2_ASSERT_OK(GrB_Vector_nvals(&n1, f->w));
  K2_ASSERT_OK(GrB_Vector_nvals(&n2, f->w_before));
  assert_int_equal(n1, n2);
  float x = 0;
  K2_ASSERT_OK(GrB_Vector_extractElement_FP32(&x, f->w, 2));
  assert_true(x == 7.0f);
  assert_true(strlen(K2_error_string()) > 0);
}

static void fx_free(fixture *f) {
  K2_Matrix_free(&f->A);
  GrB_Matrix_free(&f->G);
  GrB_Vector_free(&f->w);
  GrB_Vector_free(&f->u);
  GrB_Vector_free(&f->w_before);
}

static void test_null_pointer(void **state) {
  (void)state;
  fixture f;
  fx_new(&f);
  GrB_Semiring s = GrB_PLUS_TIMES_SEMIRING_FP32;
  assert_int_equal(GrB_mxv(NULL, NULL, NULL, s, f.G, f.u, NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_mxv(NULL, NULL, NULL, s, f.A, f.u, NULL), GrB_NULL_POINTER);
  assert_true(strlen(K2_error_string()) > 0);
  assert_int_equal(GrB_mxv(f.w, NULL, NULL, s, f.G, NULL, NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_mxv(f.w, NULL, NULL, s, f.A, NULL, NULL), GrB_NULL_POINTER);
  fx_check_untouched(&f);
  assert_int_equal(GrB_vxm(f.w, NULL, NULL, NULL, f.u, f.G, NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_vxm(f.w, NULL, NULL, NULL, f.u, f.A, NULL), GrB_NULL_POINTER);
  fx_check_untouched(&f);
  assert_int_equal(GrB_mxv(f.w, NULL, NULL, s, (GrB_Matrix)NULL, f.u, NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_mxv(f.w, NULL, NULL, s, NULL, f.u, NULL), GrB_NULL_POINTER);
  fx_check_untouched(&f);
  GrB_Matrix C = NULL;
  K2_ASSERT_OK(GrB_Matrix_new(&C, GrB_FP32, N, 1));
  assert_int_equal(K2_mxm(C, NULL, NULL, s, f.A, NULL, NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_getGrB(NULL, f.A), GrB_NULL_POINTER);
  GrB_Matrix_free(&C);
  fx_free(&f);
}

static void test_uninitialized(void **state) {
  (void)state;
  fixture f;
  fx_new(&f);
  GrB_Semiring s = GrB_PLUS_TIMES_SEMIRING_FP32;
  // zeroed memory is no object: GraphBLAS reads its magic and says uninitialized
  uint64_t garbage[64];
  memset(garbage, 0, sizeof garbage);
  GrB_Vector bad_u = (GrB_Vector)(void *)garbage;
  assert_int_equal(GrB_mxv(f.w, NULL, NULL, s, f.G, bad_u, NULL), GrB_UNINITIALIZED_OBJECT);
  assert_int_equal(K2_mxv(f.w, NULL, NULL, s, f.A, bad_u, NULL), GrB_UNINITIALIZED_OBJECT);
  fx_check_untouched(&f);
  assert_int_equal(GrB_mxv(f.w, bad_u, NULL, s, f.G, f.u, NULL), GrB_UNINITIALIZED_OBJECT);
  assert_int_equal(K2_mxv(f.w, bad_u, NULL, s, f.A, f.u, NULL), GrB_UNINITIALIZED_OBJECT);
  fx_check_untouched(&f);
  GrB_Semiring bad_s = (GrB_Semiring)(void *)garbage;
  assert_int_equal(GrB_mxv(f.w, NULL, NULL, bad_s, f.G, f.u, NULL), GrB_UNINITIALIZED_OBJECT);
  assert_int_equal(K2_mxv(f.w, NULL, NULL, bad_s, f.A, f.u, NULL), GrB_UNINITIALIZED_OBJECT);
  fx_check_untouched(&f);
  GrB_Descriptor bad_d = (GrB_Descriptor)(void *)garbage;
  assert_int_equal(GrB_mxv(f.w, NULL, NULL, s, f.G, f.u, bad_d), GrB_UNINITIALIZED_OBJECT);
  assert_int_equal(K2_mxv(f.w, NULL, NULL, s, f.A, f.u, bad_d), GrB_UNINITIALIZED_OBJECT);
  fx_check_untouched(&f);
  K2_Matrix bad_A = (K2_Matrix)(void *)garbage;
  assert_int_equal(K2_mxv(f.w, NULL, NULL, s, bad_A, f.u, NULL), GrB_UNINITIALIZED_OBJECT);
  fx_check_untouched(&f);
  fx_free(&f);
}

static void test_invalid_object(void **state) {
  (void)state;
  fixture f;
  fx_new(&f);
  // a live handle whose tree was overwritten: "in an invalid state"
  uint32_t saved = f.A->tree.levels;
  f.A->tree.levels = saved + 7;
  assert_int_equal(K2_mxv(f.w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, f.A, f.u, NULL),
                   GrB_INVALID_OBJECT);
  fx_check_untouched(&f);
  const char *msg = NULL;
  K2_ASSERT_OK(K2_Matrix_error(&msg, f.A));
  assert_true(strstr(msg, "invalid state") != NULL);
  f.A->tree.levels = saved;
  K2_ASSERT_OK(K2_mxv(f.w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, f.A, f.u, NULL));
  fx_free(&f);
}

static void test_dimension_mismatch(void **state) {
  (void)state;
  fixture f;
  fx_new(&f);
  GrB_Semiring s = GrB_PLUS_TIMES_SEMIRING_FP32;
  GrB_Vector short_u = NULL, short_m = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&short_u, GrB_FP32, N - 1));
  K2_ASSERT_OK(GrB_Vector_new(&short_m, GrB_BOOL, N + 1));
  assert_int_equal(GrB_mxv(f.w, NULL, NULL, s, f.G, short_u, NULL), GrB_DIMENSION_MISMATCH);
  assert_int_equal(K2_mxv(f.w, NULL, NULL, s, f.A, short_u, NULL), GrB_DIMENSION_MISMATCH);
  fx_check_untouched(&f);
  assert_int_equal(GrB_vxm(f.w, short_m, NULL, s, f.u, f.G, NULL), GrB_DIMENSION_MISMATCH);
  assert_int_equal(K2_vxm(f.w, short_m, NULL, s, f.u, f.A, NULL), GrB_DIMENSION_MISMATCH);
  fx_check_untouched(&f);
  // non-square: transpose changes which side must match
  K2_Matrix R = NULL;
  GrB_Matrix RG = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&R, N, N + 2));
  K2_ASSERT_OK(GrB_Matrix_new(&RG, GrB_BOOL, N, N + 2));
  assert_int_equal(GrB_mxv(f.w, NULL, NULL, s, RG, f.u, NULL), GrB_DIMENSION_MISMATCH);
  assert_int_equal(K2_mxv(f.w, NULL, NULL, s, R, f.u, NULL), GrB_DIMENSION_MISMATCH);
  fx_check_untouched(&f);
  GrB_Matrix C = NULL, B = NULL;
  K2_ASSERT_OK(GrB_Matrix_new(&C, GrB_FP32, N, 2));
  K2_ASSERT_OK(GrB_Matrix_new(&B, GrB_FP32, N + 1, 2));
  assert_int_equal(GrB_mxm(C, NULL, NULL, s, f.G, B, NULL), GrB_DIMENSION_MISMATCH);
  assert_int_equal(K2_mxm(C, NULL, NULL, s, f.A, B, NULL), GrB_DIMENSION_MISMATCH);
  GrB_Matrix_free(&C);
  GrB_Matrix_free(&B);
  K2_Matrix_free(&R);
  GrB_Matrix_free(&RG);
  GrB_Vector_free(&short_u);
  GrB_Vector_free(&short_m);
  fx_free(&f);
}

typedef struct { double re, im, extra; } udt;

static void test_domain_mismatch(void **state) {
  (void)state;
  fixture f;
  fx_new(&f);
  GrB_Type U = NULL;
  K2_ASSERT_OK(GrB_Type_new(&U, sizeof(udt)));
  GrB_Vector wu = NULL, uu = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&wu, U, N));
  K2_ASSERT_OK(GrB_Vector_new(&uu, U, N));
  GrB_Semiring s = GrB_PLUS_TIMES_SEMIRING_FP32;
  assert_int_equal(GrB_mxv(wu, NULL, NULL, s, f.G, f.u, NULL), GrB_DOMAIN_MISMATCH);
  assert_int_equal(K2_mxv(wu, NULL, NULL, s, f.A, f.u, NULL), GrB_DOMAIN_MISMATCH);
  assert_true(strlen(K2_error_string()) > 0);
  assert_int_equal(GrB_mxv(f.w, NULL, NULL, s, f.G, uu, NULL), GrB_DOMAIN_MISMATCH);
  assert_int_equal(K2_mxv(f.w, NULL, NULL, s, f.A, uu, NULL), GrB_DOMAIN_MISMATCH);
  fx_check_untouched(&f);
  // a valued mask must cast to bool
  assert_int_equal(GrB_mxv(f.w, uu, NULL, s, f.G, f.u, NULL), GrB_DOMAIN_MISMATCH);
  assert_int_equal(K2_mxv(f.w, uu, NULL, s, f.A, f.u, NULL), GrB_DOMAIN_MISMATCH);
  fx_check_untouched(&f);
  // a positional accumulator
  assert_int_equal(GrB_mxv(f.w, NULL, GxB_FIRSTI_INT64, s, f.G, f.u, NULL), GrB_DOMAIN_MISMATCH);
  assert_int_equal(K2_mxv(f.w, NULL, GxB_FIRSTI_INT64, s, f.A, f.u, NULL), GrB_DOMAIN_MISMATCH);
  fx_check_untouched(&f);
  // the edge weight has no value in a user-defined type
  GrB_Matrix G = NULL;
  assert_int_equal(K2_Matrix_toGrB(&G, f.A, U), GrB_DOMAIN_MISMATCH);
  assert_null(G);
  GrB_Vector_free(&wu);
  GrB_Vector_free(&uu);
  GrB_Type_free(&U);
  fx_free(&f);
}

static void test_out_of_memory(void **state) {
  (void)state;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  skip();  // sanitizers reserve terabytes of address space: RLIMIT_AS cannot be used
#endif
  fixture f;
  fx_new(&f);
  // the largest shape: u is iso (no memory in GraphBLAS), its dense copy needs 16 GiB
  K2_Matrix big = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&big, K2_INDEX_MAX, K2_INDEX_MAX));
  GrB_Vector bu = NULL, bw = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&bu, GrB_FP32, K2_INDEX_MAX));
  K2_ASSERT_OK(GrB_Vector_assign_FP32(bu, NULL, NULL, 1.0f, GrB_ALL, K2_INDEX_MAX, NULL));
  K2_ASSERT_OK(GrB_Vector_new(&bw, GrB_FP32, K2_INDEX_MAX));
  K2_ASSERT_OK(GrB_Vector_setElement_FP32(bw, 5.0f, 17));
  struct rlimit old, lim;
  assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
  lim = old;
  lim.rlim_cur = (rlim_t)4 << 30;  // 4 GiB of address space
  if (old.rlim_max != RLIM_INFINITY && old.rlim_max < lim.rlim_cur) lim.rlim_cur = old.rlim_max;
  assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
  GrB_Info info = K2_mxv(bw, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, big, bu, NULL);
  assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
  assert_int_equal(info, GrB_OUT_OF_MEMORY);
  assert_true(strlen(K2_error_string()) > 0);
  GrB_Index nv = 0;
  float x = 0;
  K2_ASSERT_OK(GrB_Vector_nvals(&nv, bw));
  K2_ASSERT_OK(GrB_Vector_extractElement_FP32(&x, bw, 17));
  assert_int_equal(nv, 1);
  assert_true(x == 5.0f);
  GrB_Vector_free(&bu);
  GrB_Vector_free(&bw);
  K2_Matrix_free(&big);
  fx_free(&f);
}

static void test_not_implemented(void **state) {
  (void)state;
  fixture f;
  fx_new(&f);
  // strict mode with an engine that cannot run: an error, not a silent fall back
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_CUDA));
  K2_ASSERT_OK(K2_set_strict(true));
  GrB_Info info = K2_mxv(f.w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, f.A, f.u, NULL);
  K2_ASSERT_OK(K2_set_strict(false));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
#ifndef K2_HAS_CUDA
  assert_int_equal(info, GrB_NOT_IMPLEMENTED);
  fx_check_untouched(&f);
#else
  (void)info;
#endif
  // the overlay's transpose into a K2_Matrix takes no mask
  K2_Matrix T = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&T, N, N));
  assert_int_equal(GrB_transpose(T, f.G, NULL, f.A, NULL), GrB_NOT_IMPLEMENTED);
  assert_true(strlen(K2_error_string()) > 0);
  K2_Matrix_free(&T);
  fx_free(&f);
}

// The device settings refuse values outside their ranges, with a message, and keep the old
// value; the getters refuse NULL. The same with or without a CUDA build or a GPU.
static void test_device_settings(void **state) {
  (void)state;
  GrB_Index M0 = 0, M = 0;
  K2_DeviceOffsets o0 = K2_OFFSETS_SCAN, o = K2_OFFSETS_SCAN;
  K2_DeviceConfig c0 = K2_DEVICE_ROWS, c = K2_DEVICE_ROWS;
  K2_ASSERT_OK(K2_Device_getTileSize(&M0));
  K2_ASSERT_OK(K2_Device_getOffsets(&o0));
  K2_ASSERT_OK(K2_Device_getConfig(&c0));
  assert_int_equal(K2_Device_setTileSize(8), GrB_INVALID_VALUE);
  assert_true(strlen(K2_error_string()) > 0);
  assert_int_equal(K2_Device_setTileSize((UINT64_C(1) << 30) + 1), GrB_INVALID_VALUE);
  assert_int_equal(K2_Device_setOffsets((K2_DeviceOffsets)3), GrB_INVALID_VALUE);
  assert_int_equal(K2_Device_setConfig((K2_DeviceConfig)3), GrB_INVALID_VALUE);
  assert_non_null(strstr(K2_error_string(), "configuration"));
  assert_int_equal(K2_Device_setConfig((K2_DeviceConfig)-2), GrB_INVALID_VALUE);
  K2_ASSERT_OK(K2_Device_getTileSize(&M));
  K2_ASSERT_OK(K2_Device_getOffsets(&o));
  K2_ASSERT_OK(K2_Device_getConfig(&c));
  assert_int_equal(M, M0);
  assert_int_equal(o, o0);
  assert_int_equal(c, c0);
  assert_int_equal(K2_Device_getTileSize(NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_Device_getOffsets(NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_Device_getConfig(NULL), GrB_NULL_POINTER);
  K2_ASSERT_OK(K2_Device_setConfig(K2_DEVICE_ROWS));
  K2_ASSERT_OK(K2_Device_getConfig(&c));
  assert_int_equal(c, K2_DEVICE_ROWS);
  K2_ASSERT_OK(K2_Device_setConfig(c0));
}

// The multi-source BFS on the device (K2_Device_bfsLevelsMatrix) checks its arguments before it
// looks for a device, with a message naming the argument, and leaves *dist as it was on every
// failure; without a device it declines (GrB_NOT_IMPLEMENTED), with one it runs.
static void test_device_levels(void **state) {
  (void)state;
  fixture f;
  fx_new(&f);
  GrB_Matrix keep = f.G, dist = keep;
  const GrB_Index src[2] = {0, 3}, bad[2] = {0, N};
  assert_int_equal(K2_Device_bfsLevelsMatrix(NULL, f.A, src, 2, NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_Device_bfsLevelsMatrix(&dist, f.A, NULL, 2, NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_Device_bfsLevelsMatrix(&dist, f.A, src, 0, NULL), GrB_NOT_IMPLEMENTED);
  assert_int_equal(K2_Device_bfsLevelsMatrix(&dist, f.A, src, 65, NULL), GrB_NOT_IMPLEMENTED);
  assert_int_equal(K2_Device_bfsLevelsMatrix(&dist, f.A, bad, 2, NULL), GrB_INVALID_INDEX);
  assert_non_null(strstr(K2_error_string(), "sources[1]"));
  K2_Matrix R = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&R, N, N + 1));
  assert_int_equal(K2_Device_bfsLevelsMatrix(&dist, R, src, 2, NULL), GrB_DIMENSION_MISMATCH);
  assert_non_null(strstr(K2_error_string(), "not square"));
  K2_Matrix_free(&R);
  assert_true(dist == keep);
  bool device = false;
  K2_ASSERT_OK(K2_Device_available(&device));
  GrB_Info info = K2_Device_bfsLevelsMatrix(&dist, f.A, src, 2, GrB_DESC_T0);
  if (!device) {
    assert_int_equal(info, GrB_NOT_IMPLEMENTED);
    assert_true(strlen(K2_error_string()) > 0);
    assert_true(dist == keep);
  } else {  // 0 -> 1 -> 2 -> 3 -> 4 -> 5 -> 0 and 0 -> 3: from 3, vertex 1 is 4 edges away
    K2_ASSERT_OK(info);
    int32_t level = -1;
    K2_ASSERT_OK((GrB_Matrix_extractElement_INT32)(&level, dist, 1, 1));  // (not the overlay's macro)
    assert_int_equal(level, 4);
    GrB_Matrix_free(&dist);
  }
  // the single-source BFS of bounded depth: its own argument (complete) first, then
  // K2_Device_bfs's checks (its runs: test_gpu_product)
  bool complete = true;
  assert_int_equal(K2_Device_bfsWithin(NULL, NULL, f.A, 0, 2, NULL, NULL), GrB_NULL_POINTER);
  assert_non_null(strstr(K2_error_string(), "complete"));
  assert_int_equal(K2_Device_bfsWithin(NULL, NULL, f.A, 0, 2, &complete, NULL), GrB_NULL_POINTER);
  assert_non_null(strstr(K2_error_string(), "level and parent"));
  fx_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_null_pointer),      cmocka_unit_test(test_uninitialized),
      cmocka_unit_test(test_invalid_object),    cmocka_unit_test(test_dimension_mismatch),
      cmocka_unit_test(test_domain_mismatch),   cmocka_unit_test(test_out_of_memory),
      cmocka_unit_test(test_not_implemented),   cmocka_unit_test(test_device_settings),
      cmocka_unit_test(test_device_levels),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
