// test_vector_bitmap.c: k2_bridge_vector_from_bitmap, the O(1) hand-over of a dense image (values
// plus presence bytes) to a new GrB_Vector that device vectors are exported with: every type,
// the count given or counted, values at absent entries never read, the arrays taken.
// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "k2_test.h"

#include "bridge/k2_bridge.h"

static void check_type(k2_type t, GrB_Index n, bool give_count, unsigned seed) {
  const uint32_t ts = k2_type_size(t);
  uint8_t *present = malloc(n);
  char *values = malloc(n * ts);
  double *want = malloc(n * sizeof *want);
  assert_true(present && values && want);
  memset(values, 0x5a, n * ts);  // absent entries hold garbage
  GrB_Index nvals = 0;
  srand(seed);
  for (GrB_Index i = 0; i < n; i++) {
    present[i] = (uint8_t)(rand() % 3 == 0 ? 1 + rand() % 7 : 0);  // any nonzero byte is present
    if (!present[i]) continue;
    nvals++;
    const int k = rand() % 200 - 100;
    switch (t) {
      case K2_T_BOOL: ((uint8_t *)values)[i] = (uint8_t)(k & 1), want[i] = k & 1; break;
      case K2_T_INT32: ((int32_t *)values)[i] = k, want[i] = k; break;
      case K2_T_INT64: ((int64_t *)values)[i] = (int64_t)k * 100003, want[i] = (double)k * 100003; break;
      case K2_T_FP32: ((float *)values)[i] = (float)k / 8, want[i] = (double)k / 8; break;
      default: ((double *)values)[i] = (double)k / 16, want[i] = (double)k / 16; break;
    }
  }
  GrB_Vector w = NULL;
  void *X = values;
  uint8_t *B = present;
  K2_ASSERT_OK(k2_bridge_vector_from_bitmap(&w, t, n, &X, &B, give_count ? nvals : UINT64_MAX));
  assert_null(X);  // taken by the vector
  assert_null(B);
  GrB_Index got = 0, size = 0;
  GrB_Type type = NULL;
  K2_ASSERT_OK(GrB_Vector_nvals(&got, w));
  K2_ASSERT_OK(GrB_Vector_size(&size, w));
  K2_ASSERT_OK(GxB_Vector_type(&type, w));
  assert_int_equal(got, nvals);
  assert_int_equal(size, n);
  assert_ptr_equal(type, k2_type_grb(t));
  GrB_Index *I = malloc((nvals + 1) * sizeof *I);
  double *V = malloc((nvals + 1) * sizeof *V);
  assert_true(I && V);
  GrB_Index k = nvals;
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(I, V, &k, w));
  assert_int_equal(k, nvals);
  srand(seed);  // the same draws: which entries are present
  GrB_Index e = 0;
  for (GrB_Index i = 0; i < n; i++) {
    const bool here = rand() % 3 == 0;
    if (here) {
      (void)rand();
      (void)rand();
      assert_true(e < k);
      assert_int_equal(I[e], i);
      assert_true(V[e] == want[i]);
      e++;
    }
  }
  assert_int_equal(e, nvals);
  free(I);
  free(V);
  free(want);
  GrB_Vector_free(&w);
}

static void test_every_type(void **state) {
  (void)state;
  for (int t = 0; t < K2_T_COUNT; t++) {
    check_type((k2_type)t, 1000, true, 7u + (unsigned)t);
    check_type((k2_type)t, 1000, false, 11u + (unsigned)t);
    check_type((k2_type)t, 1, false, 3u);  // one entry, present or not
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_type)};
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
