// test_overlay_grb.c: the overlay's algorithm source built with a GrB_Matrix (the baseline of
// test_overlay_k2.c), checked against plain-C oracles.
// SPDX-License-Identifier: Apache-2.0
#include "overlay_support.h"

#include <k2grb/overlay.h>

#define PREFIX(name) grb_##name
#include "overlay_algos.inc"
#undef PREFIX

static void test_overlay_grb(void **state) {
  (void)state;
  ov_semirings();
  GrB_Index *I, *J;
  GrB_Index ne = ov_graph(&I, &J);
  GrB_Matrix A = NULL, AT = NULL;
  K2_ASSERT_OK(grb_make_graph(&A, &AT, OV_N, I, J, ne));
  int32_t *lv = malloc(OV_N * sizeof(int32_t)), *ref = malloc(OV_N * sizeof(int32_t));
  GrB_Index sources[] = {0, 1, 5, 2999};
  for (int s = 0; s < 4; s++) {
    GrB_Vector level = NULL, parent = NULL;
    K2_ASSERT_OK(grb_bfs_level(&level, A, AT, sources[s], ov_any_one));
    K2_ASSERT_OK(grb_bfs_parent(&parent, A, AT, sources[s]));
    ov_dense_int32(lv, level);
    ov_oracle_bfs(ref, I, J, ne, sources[s]);
    assert_memory_equal(lv, ref, OV_N * sizeof(int32_t));
    bool ok = false;
    K2_ASSERT_OK(grb_check_parents(&ok, A, parent, level, sources[s]));
    assert_true(ok);
    GrB_free(&level);
    GrB_free(&parent);
  }
  GrB_Vector rank = NULL;
  int iters = 0;
  K2_ASSERT_OK(grb_pagerank(&rank, &iters, A, AT, 0.85f, 1e-6f, 100, ov_plus_second));
  float *pr = malloc(OV_N * sizeof(float));
  double *pref = malloc(OV_N * sizeof(double));
  ov_dense_fp32(pr, rank);
  ov_oracle_pagerank(pref, I, J, ne, 0.85, iters);
  for (GrB_Index i = 0; i < OV_N; i++) assert_true(fabs(pr[i] - pref[i]) < 1e-6 + 1e-4 * pref[i]);
  GrB_free(&rank);
  GrB_free(&A);
  GrB_free(&AT);
  free(I); free(J); free(lv); free(ref); free(pr); free(pref);
  ov_free_semirings();
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_overlay_grb)};
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
