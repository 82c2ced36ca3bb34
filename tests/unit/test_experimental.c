// test_experimental.c: the tuning knobs of include/k2grb/experimental.h that the other tests do
// not reach: fused levels (K2_Device_setFusion / getFusion). The setting reaches the CUDA
// engine's settings and leaves the others alone, in builds with and without CUDA; on a GPU a
// tree-only plan takes fewer launches fused than unfused, and both give the products computed
// from the edge list (the device part is skipped without a GPU).
// SPDX-License-Identifier: Apache-2.0
#include <string.h>

#include "k2_message_rules.h"
#include "k2_oracle.h"
#include "k2_test.h"

#include "cuda/k2_cuda_gateway.h"

static void test_fusion_setting(void **state) {
  (void)state;
  bool on = false;
  K2_ASSERT_OK(K2_Device_getFusion(&on));
  assert_true(on);  // the default
  k2_cuda_settings before, after;
  k2_cuda_settings_get(&before);
  assert_true(before.fuse_levels);

  K2_ASSERT_OK(K2_Device_setFusion(false));
  K2_ASSERT_OK(K2_Device_getFusion(&on));
  assert_false(on);
  k2_cuda_settings_get(&after);
  assert_false(after.fuse_levels);
  // only the fusion changed
  assert_int_equal(after.tile, before.tile);
  assert_int_equal(after.offsets, before.offsets);
  assert_int_equal(after.budget, before.budget);
  assert_int_equal(after.graphs, before.graphs);
  assert_int_equal(after.fast_leaf, before.fast_leaf);
  assert_int_equal(after.config, before.config);

  K2_ASSERT_OK(K2_Device_setFusion(true));
  K2_ASSERT_OK(K2_Device_getFusion(&on));
  assert_true(on);
  k2_cuda_settings_get(&after);
  assert_true(after.fuse_levels);

  K2_error_clear();
  assert_int_equal(K2_Device_getFusion(NULL), GrB_NULL_POINTER);
  char why[512];
  if (!k2_message_ok(K2_error_string(), GrB_NULL_POINTER, why, sizeof why)) fail_msg("%s", why);
  assert_non_null(strstr(K2_error_string(), "K2_Device_getFusion"));
  assert_non_null(strstr(K2_error_string(), "enable is NULL"));
}

// The pruning mode (K2_Device_setPruning): reaches the engine's settings alone; a bad mode is
// refused and leaves it as it was.
static void test_pruning_setting(void **state) {
  (void)state;
  K2_DevicePruning mode = (K2_DevicePruning)9;
  K2_ASSERT_OK(K2_Device_getPruning(&mode));
  assert_int_equal(mode, K2_PRUNING_AUTO);  // the default
  k2_cuda_settings before, after;
  k2_cuda_settings_get(&before);
  assert_int_equal(before.prune, K2_CUDA_PRUNE_AUTO);
  K2_ASSERT_OK(K2_Device_setPruning(K2_PRUNING_ALWAYS));
  k2_cuda_settings_get(&after);
  assert_int_equal(after.prune, K2_CUDA_PRUNE_ALWAYS);
  assert_int_equal(after.tile, before.tile);
  assert_int_equal(after.fuse_levels, before.fuse_levels);
  assert_int_equal(after.config, before.config);
  K2_ASSERT_OK(K2_Device_setPruning(K2_PRUNING_NEVER));
  K2_ASSERT_OK(K2_Device_getPruning(&mode));
  assert_int_equal(mode, K2_PRUNING_NEVER);
  K2_error_clear();
  assert_int_equal(K2_Device_setPruning((K2_DevicePruning)7), GrB_INVALID_VALUE);
  char why[512];
  if (!k2_message_ok(K2_error_string(), GrB_INVALID_VALUE, why, sizeof why)) fail_msg("%s", why);
  assert_non_null(strstr(K2_error_string(), "K2_Device_setPruning"));
  K2_ASSERT_OK(K2_Device_getPruning(&mode));
  assert_int_equal(mode, K2_PRUNING_NEVER);  // unchanged by the refused call
  assert_int_equal(K2_Device_getPruning(NULL), GrB_NULL_POINTER);
  K2_ASSERT_OK(K2_Device_setPruning(K2_PRUNING_AUTO));
}

static void test_fusion_on_device(void **state) {
  (void)state;
  bool present = false;
  K2_ASSERT_OK(K2_Device_available(&present));
  if (!present) {
    print_message("no GPU: the device part is skipped\n");
    skip();
  }
  // 2^12 x 2^12: 11 internal levels with 2x2 leaves, enough for fused steps
  const uint64_t n = UINT64_C(1) << 12;
  k2_rng rng = {7};
  k2_coo_list L;
  k2_coo_random(&L, n, n, UINT64_C(1) << 16, &rng);
  k2_coo_canonical(&L);  // the oracle would count a repeated entry twice; the tree holds it once
  // a top level of at most 16 nodes: the traversal expands from near the root (with the
  // default top of up to 2^16 nodes this small tree needs no expansion at all)
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.top_max_log = 4;
  K2_Matrix A = k2_test_matrix(&L, &fmt);
  K2_DeviceOffsets offsets0;
  GrB_Index tile0 = 0;
  K2_ASSERT_OK(K2_Device_getOffsets(&offsets0));
  K2_ASSERT_OK(K2_Device_getTileSize(&tile0));
  K2_ASSERT_OK(K2_Device_setOffsets(K2_OFFSETS_DIRECTORY));  // fusion needs directory offsets
  // tiles of 1024 codes: the traversal takes many launches (with the default 2^20 this small
  // tree is one launch either way)
  K2_ASSERT_OK(K2_Device_setTileSize(1024));

  // the launches of one right product on a tree-only copy
  K2_DeviceBytes fused, unfused;
  K2_ASSERT_OK(K2_Device_setFusion(true));
  K2_ASSERT_OK(K2_Matrix_deviceBytes(&fused, A, K2_DEVICE_TREE_ONLY, GrB_FP32, 1, false, 0));
  K2_ASSERT_OK(K2_Device_setFusion(false));
  K2_ASSERT_OK(K2_Matrix_deviceBytes(&unfused, A, K2_DEVICE_TREE_ONLY, GrB_FP32, 1, false, 0));
  print_message("tree-only plan: %llu launches fused, %llu unfused\n",
                (unsigned long long)fused.tiles, (unsigned long long)unfused.tiles);
  assert_true(fused.tiles < unfused.tiles);

  // products both ways against the edge list's (dyadic values: exact sums)
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  double *xd = malloc(n * sizeof *xd), *ref = malloc(n * sizeof *ref);
  assert_true(x != NULL && y != NULL && xd != NULL && ref != NULL);
  for (uint64_t i = 0; i < n; i++) xd[i] = x[i] = (float)((int)(i % 129) - 64) / 64.0f;
  k2_oracle_plus_times_f64(ref, &L, xd, 1.0, false);
  K2_ASSERT_OK(K2_Matrix_upload(A, K2_DEVICE_TREE_ONLY));
  K2_ASSERT_OK(K2_set_strict(true));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_CUDA));
  for (int fuse = 0; fuse < 2; fuse++) {
    K2_ASSERT_OK(K2_Device_setFusion(fuse == 1));
    memset(y, 0, n * sizeof *y);
    K2_ASSERT_OK(K2_dense_mxv(y, A, x, K2_PLUS_TIMES, GrB_FP32));
    assert_int_equal(K2_last_engine(), K2_ENGINE_CUDA);
    for (uint64_t i = 0; i < n; i++)
      if (y[i] != (float)ref[i]) fail_msg("fusion %d: y[%llu] = %g, want %g", fuse, (unsigned long long)i, y[i], ref[i]);
  }
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  K2_ASSERT_OK(K2_set_strict(false));
  K2_ASSERT_OK(K2_Device_setOffsets(offsets0));
  K2_ASSERT_OK(K2_Device_setTileSize(tile0));
  K2_ASSERT_OK(K2_Device_setFusion(true));
  free(x);
  free(y);
  free(xd);
  free(ref);
  k2_coo_free(&L);
  K2_ASSERT_OK(K2_Matrix_free(&A));
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fusion_setting), cmocka_unit_test(test_pruning_setting),
      cmocka_unit_test(test_fusion_on_device),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
