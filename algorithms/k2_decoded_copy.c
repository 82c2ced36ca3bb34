// k2_decoded_copy.c: the copy of a tree, its last internal level decoded, that CPU iterations
// run on.
// SPDX-License-Identifier: Apache-2.0
#include "k2_alg_internal.h"

GrB_Info k2a_decoded_copy(K2_Matrix *B, K2_Matrix A) {
  *B = NULL;
  K2_Engine engine = K2_ENGINE_AUTO;
  bool served = false;
  K2_MemoryUsage u;
  GrB_Info info = K2_get_engine(&engine);
  if (info == GrB_SUCCESS) info = K2_Matrix_deviceServes(&served, A);
  if (info == GrB_SUCCESS) info = K2_Matrix_memoryUsage(&u, A);
  if (info != GrB_SUCCESS) return info;
  // the OpenMP engine's products alone read the decoded level, on plain 2x2 leaves without full
  // blocks (a tree with bottom codes has it already); below K2A_DECODED_COPY_MIN_NODES the copy
  // costs more than it saves
  const bool cpu = engine == K2_ENGINE_OPENMP || (engine == K2_ENGINE_AUTO && !served);
  if (!cpu || u.bottom_codes != 0 || u.leaf_log != 1 || u.leaf_patterns != 0 || u.full_nodes != 0 ||
      u.internal_nodes < K2A_DECODED_COPY_MIN_NODES)
    return GrB_SUCCESS;
  if ((info = K2_Matrix_dup(B, A)) != GrB_SUCCESS) return info;
  if ((info = K2_Matrix_setDecodedLevel(*B, true)) != GrB_SUCCESS) K2_Matrix_free(B);
  return info;
}
