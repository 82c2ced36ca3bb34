// test_overlay_k2.c: the same algorithm source built twice in one program, once with a
// GrB_Matrix and once (USE_K2) with a K2_Matrix: identical BFS levels, valid parents,
// PageRank equal within FP32 rounding, and the products ran natively on the tree.
// SPDX-License-Identifier: Apache-2.0
#include "overlay_support.h"

#include <k2grb/overlay.h>

#define PREFIX(name) grb_##name
#include "overlay_algos.inc"
#undef PREFIX

#define USE_K2 1
#define PREFIX(name) k2_##name
#include "overlay_algos.inc"
#undef PREFIX

// Native: on the tree, by the CPU or (where there is one) the GPU engine; never the fallback.
static bool ov_native(K2_Path p) { return p == K2_PATH_NATIVE_CPU || p == K2_PATH_NATIVE_GPU; }

static void test_overlay_k2(void **state) {
  (void)state;
  ov_semirings();
  GrB_Index *I, *J;
  GrB_Index ne = ov_graph(&I, &J);
  GrB_Matrix A = NULL, AT = NULL;
  K2_Matrix KA = NULL, KAT = NULL;
  K2_ASSERT_OK(grb_make_graph(&A, &AT, OV_N, I, J, ne));
  K2_ASSERT_OK(k2_make_graph(&KA, &KAT, OV_N, I, J, ne));

  // the overlaid queries agree
  GrB_Index a, b;
  K2_ASSERT_OK(GrB_Matrix_nvals(&a, A));
  K2_ASSERT_OK(GrB_Matrix_nvals(&b, KA));
  assert_int_equal(a, b);
  K2_ASSERT_OK(GrB_Matrix_nvals(&b, KAT));
  assert_int_equal(a, b);
  K2_ASSERT_OK(GrB_Matrix_ncols(&b, KA));
  assert_int_equal(b, OV_N);
  GrB_Index *I2 = malloc(ne * sizeof(GrB_Index)), *J2 = malloc(ne * sizeof(GrB_Index));
  bool *X2 = malloc(ne);
  GrB_Index n2 = ne;
  K2_ASSERT_OK(GrB_Matrix_extractTuples(I2, J2, X2, &n2, KA));
  assert_int_equal(n2, ne);
  assert_memory_equal(I2, I, ne * sizeof(GrB_Index));
  assert_memory_equal(J2, J, ne * sizeof(GrB_Index));
  for (GrB_Index k = 0; k < ne; k++) assert_true(X2[k]);
  double xe = 0;
  assert_int_equal(GrB_Matrix_extractElement(&xe, KA, I[7], J[7]), GrB_SUCCESS);
  assert_true(xe == 1.0);

  int32_t *l1 = malloc(OV_N * sizeof(int32_t)), *l2 = malloc(OV_N * sizeof(int32_t));
  GrB_Index sources[] = {0, 1, 5, 2999};
  for (int s = 0; s < 4; s++) {
    GrB_Vector lev1 = NULL, lev2 = NULL, par2 = NULL;
    K2_ASSERT_OK(grb_bfs_level(&lev1, A, AT, sources[s], ov_any_one));
    K2_ASSERT_OK(k2_bfs_level(&lev2, KA, KAT, sources[s], ov_any_one));
    assert_true(ov_native(K2_last_path()));
    K2_ASSERT_OK(k2_bfs_parent(&par2, KA, KAT, sources[s]));
    assert_true(ov_native(K2_last_path()));
    ov_dense_int32(l1, lev1);
    ov_dense_int32(l2, lev2);
    assert_memory_equal(l1, l2, OV_N * sizeof(int32_t));
    ov_oracle_bfs(l1, I, J, ne, sources[s]);
    assert_memory_equal(l1, l2, OV_N * sizeof(int32_t));
    bool ok = false;
    K2_ASSERT_OK(k2_check_parents(&ok, KA, par2, lev2, sources[s]));
    assert_true(ok);
    GrB_free(&lev1);
    GrB_free(&lev2);
    GrB_free(&par2);
  }
  GrB_Vector r1 = NULL, r2 = NULL;
  int it1 = 0, it2 = 0;
  K2_ASSERT_OK(grb_pagerank(&r1, &it1, A, AT, 0.85f, 1e-6f, 100, ov_plus_second));
  K2_ASSERT_OK(k2_pagerank(&r2, &it2, KA, KAT, 0.85f, 1e-6f, 100, ov_plus_second));
  assert_true(ov_native(K2_last_path()));
  assert_int_equal(it1, it2);
  float *p1 = malloc(OV_N * sizeof(float)), *p2 = malloc(OV_N * sizeof(float));
  ov_dense_fp32(p1, r1);
  ov_dense_fp32(p2, r2);
  // the same sums in another order: FP32 rounding only
  for (GrB_Index i = 0; i < OV_N; i++) assert_true(fabsf(p1[i] - p2[i]) <= 1e-5f * p1[i] + 1e-9f);

  GrB_free(&r1); GrB_free(&r2);
  GrB_free(&A); GrB_free(&AT);
  GrB_free(&KA); GrB_free(&KAT);
  assert_null(KA);
  free(I); free(J); free(I2); free(J2); free(X2); free(l1); free(l2); free(p1); free(p2);
  ov_free_semirings();
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_overlay_k2)};
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
