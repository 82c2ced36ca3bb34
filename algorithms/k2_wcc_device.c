// k2_wcc_device.c: weakly connected components with the labels on the GPU (K2_DeviceVector).
// SPDX-License-Identifier: Apache-2.0
//
// The rounds of k2_wcc.inc, each step on the device: l2 = min (l, A min.second l), then
// l2 = min (l2, l2' min.first A), the pointer jump l3 = l2 (l2) (K2_DeviceVector_extract), and
// the change of the labels. The same steps in the same order as the host's give the same labels
// and the same number of rounds. Per round the host learns one sum; the labels are copied up
// once (l(i) = i) and back once.
#include "k2_alg_internal.h"

#define K2A_FN "K2_wcc"
#define K2A_FREE_ALL                 \
  do {                               \
    K2_DeviceVector_free(&l);        \
    K2_DeviceVector_free(&l2);       \
    K2_DeviceVector_free(&t);        \
    GrB_free(&ids);                  \
  } while (0)

GrB_Info k2_wcc_device(GrB_Vector *component, int *rounds, K2_Matrix A, char *msg) {
  K2_DeviceVector l = NULL, l2 = NULL, t = NULL;
  GrB_Vector ids = NULL;
  const char *k2a_step = NULL;
  // the caller (k2_wcc.inc) checked the arguments; A has at least one vertex
  GrB_Index n;
  K2A_STEP("reading the size of A");
  K2A_TRY(K2_Matrix_nrows(&n, A));
  K2A_STEP("creating the labels on the device");
  K2A_TRY(GrB_Vector_new(&ids, GrB_INT64, n));
  K2A_TRY(GrB_assign(ids, NULL, NULL, (int64_t)0, GrB_ALL, n, NULL));
  K2A_TRY(GrB_apply(ids, NULL, NULL, GrB_ROWINDEX_INT64, ids, (int64_t)0, NULL));
  K2A_TRY(K2_DeviceVector_new(&l, GrB_INT64, n));
  K2A_TRY(K2_DeviceVector_import(l, ids));  // l(i) = i
  GrB_free(&ids);
  K2A_TRY(K2_DeviceVector_new(&l2, GrB_INT64, n));
  K2A_TRY(K2_DeviceVector_new(&t, GrB_INT64, n));
  int round = 0;
  for (;;) {
    round++;
    K2A_STEP("taking the smallest label of the neighbours");
    K2A_TRY(K2_mxv_device(t, NULL, GrB_MIN_SECOND_SEMIRING_INT64, A, l, NULL));
    K2A_TRY(K2_DeviceVector_eWiseAdd(l2, GrB_MIN_INT64, l, t));
    K2A_TRY(K2_vxm_device(t, NULL, GrB_MIN_FIRST_SEMIRING_INT64, l2, A, NULL));
    K2A_TRY(K2_DeviceVector_eWiseAdd(l2, GrB_MIN_INT64, l2, t));
    K2A_STEP("jumping to the labels' labels");
    K2A_TRY(K2_DeviceVector_extract(t, l2, l2));
    // Labels only fall: l2 <= l, and l2 (l2 (i)) <= l2 (i) because l2 (j) <= j. So the sum of
    // l - t (each term in 0 .. n-1, the sum below 2^63 for n < 3e9) is zero exactly when no
    // label changed.
    K2A_STEP("comparing the labels with the last round's");
    K2A_TRY(K2_DeviceVector_eWiseAdd(l2, GrB_MINUS_INT64, l, t));
    int64_t change = 0;
    K2A_TRY(K2_DeviceVector_reduce_INT64(&change, l2));
    K2_DeviceVector swap = l;  // l = the jumped labels
    l = t;
    t = swap;
    if (change == 0) break;
  }
  K2A_STEP("copying the labels from the device");
  K2A_TRY(K2_DeviceVector_export(component, l));
  if (rounds != NULL) *rounds = round;
  K2A_FREE_ALL;
  return GrB_SUCCESS;
}
