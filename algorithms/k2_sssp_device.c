// k2_sssp_device.c: hop-count SSSP with its vectors on the GPU (K2_DeviceVector).
// SPDX-License-Identifier: Apache-2.0
//
// k2_sssp.inc's Bellman-Ford with the frontier of improved vertices. With one non-negative
// weight c on every edge, the round-k frontier holds the vertices at distance c·k, and a vertex
// already reached is never improved (its distance is at most c·k < or = c·(k+1)): the new
// frontier is exactly the product masked by the unreached vertices, f<!dist> = f' min.+ A,
// and dist<f> = f. The caller takes this path only for such weights. Per round the host
// learns the frontier's size; the distances come back once.
#include "k2_alg_internal.h"

#define K2A_FN "K2_sssp_hops"
#define K2A_FREE_ALL               \
  do {                             \
    K2_DeviceVector_free(&f);      \
    K2_DeviceVector_free(&dist);   \
  } while (0)

GrB_Info k2_sssp_device(GrB_Vector *out, K2_Matrix A, GrB_Index src, char *msg) {
  K2_DeviceVector f = NULL, dist = NULL;
  const char *k2a_step = NULL;
  // the caller (k2_sssp.inc) checked the arguments and the weight
  GrB_Index n;
  K2A_STEP("reading the size of A");
  K2A_TRY(K2_Matrix_nrows(&n, A));
  K2A_STEP("creating the distance and frontier vectors on the device");
  K2A_TRY(K2_DeviceVector_new(&dist, GrB_INT64, n));
  K2A_TRY(K2_DeviceVector_new(&f, GrB_INT64, n));
  K2A_TRY(K2_DeviceVector_setElement_INT64(dist, 0, src));
  K2A_TRY(K2_DeviceVector_setElement_INT64(f, 0, src));
  for (GrB_Index round = 0; round < n; round++) {
    K2A_STEP("relaxing the out-edges of the frontier");
    K2A_TRY(K2_vxm_device(f, dist, GrB_MIN_PLUS_SEMIRING_INT64, f, A, GrB_DESC_RSC));
    GrB_Index nf;
    K2A_TRY(K2_DeviceVector_nvals(&nf, f));
    if (nf == 0) break;
    K2A_STEP("updating the distances");
    K2A_TRY(K2_DeviceVector_assign(dist, f, f));
  }
  K2A_STEP("copying the distances from the device");
  K2A_TRY(K2_DeviceVector_export(out, dist));
  K2A_FREE_ALL;
  return GrB_SUCCESS;
}
