// k2_msbfs_device.c: multi-source BFS with its frontiers and distances on the GPU (batches of
// K2_DeviceVector, include/k2grb/device.h).
// SPDX-License-Identifier: Apache-2.0
//
// Up to 64 sources: K2_Device_bfsLevelsMatrix, the frontiers and visited sets as words of bits
// and the levels as bytes, one call. More (or where that call declines): the steps of
// k2_msbfs.inc, each on the device: the n x B frontier F and distance matrix D are batches of B
// vectors, and each level is one batched product of the tree, F<!D> = A' F (or A F), LOR.LAND,
// followed by D<F> = k. Per level the host learns the new frontiers' size, which the product
// returns; the distances come back once at the end. The caller takes this path only for an edge
// weight that is true as a BOOL, where every entry of a product is true, so the host's selection
// of the true entries keeps them all.
#include "k2_alg_internal.h"

#define K2A_FN "K2_msbfs"
#define K2A_FREE_ALL                 \
  do {                               \
    K2_DeviceVector_free(&F);        \
    K2_DeviceVector_free(&D);        \
    GrB_free(&F0);                   \
    GrB_free(&D0);                   \
  } while (0)

GrB_Info k2_msbfs_device(GrB_Matrix *dist, K2_Matrix A, const GrB_Index *sources, GrB_Index nsources,
                         bool reverse, char *msg) {
  K2_DeviceVector F = NULL, D = NULL;
  GrB_Matrix F0 = NULL, D0 = NULL;
  const char *k2a_step = NULL;
  // the caller (k2_msbfs.inc) checked the arguments and the weight
  GrB_Index n;
  K2A_STEP("reading the size of A");
  K2A_TRY(K2_Matrix_nrows(&n, A));
  GrB_Descriptor desc = reverse ? GrB_DESC_RSC : GrB_DESC_RSCT0;
  if (nsources <= 64) {  // the frontiers as words of bits, the whole run in one call
    K2A_STEP("running the BFS levels on the device");
    GrB_Info info = K2_Device_bfsLevelsMatrix(dist, A, sources, nsources, reverse ? NULL : GrB_DESC_T0);
    if (info == GrB_SUCCESS) return GrB_SUCCESS;
    if (info != GrB_NOT_IMPLEMENTED) K2A_CHECK(info, "K2_Device_bfsLevelsMatrix");
    // declined (row blocks): one product per level below
  }
  K2A_STEP("creating the frontiers and the distances on the device");
  K2A_TRY(GrB_Matrix_new(&F0, GrB_BOOL, n, nsources));
  K2A_TRY(GrB_Matrix_new(&D0, GrB_INT32, n, nsources));
  for (GrB_Index b = 0; b < nsources; b++) {
    K2A_TRY(GrB_Matrix_setElement_BOOL(F0, true, sources[b], b));
    K2A_TRY(GrB_Matrix_setElement_INT32(D0, 0, sources[b], b));
  }
  K2A_TRY(K2_DeviceVector_newBatch(&F, GrB_BOOL, n, nsources));
  K2A_TRY(K2_DeviceVector_newBatch(&D, GrB_INT32, n, nsources));
  K2A_TRY(K2_DeviceVector_importMatrix(F, F0));
  K2A_TRY(K2_DeviceVector_importMatrix(D, D0));
  GrB_free(&F0);
  GrB_free(&D0);

  for (int32_t k = 1; (GrB_Index)k <= n; k++) {
    K2A_STEP(reverse ? "expanding the frontiers against the edges"
                     : "expanding the frontiers along the edges");
    K2A_TRY(K2_mxm_device(F, D, GrB_LOR_LAND_SEMIRING_BOOL, A, F, desc));
    K2A_STEP("recording the new frontiers");
    GrB_Index nnew;
    K2A_TRY(K2_DeviceVector_nvals(&nnew, F));
    if (nnew == 0) break;
    K2A_TRY(K2_DeviceVector_assign_INT64(D, F, k));
  }

  K2A_STEP("copying the distances from the device");
  K2A_TRY(K2_DeviceVector_exportMatrix(dist, D));
  K2A_FREE_ALL;
  return GrB_SUCCESS;
}
