// k2_cuda_fail.c: the CUDA side's error glue (k2_cuda_gateway.h), in builds with and without
// CUDA: the .cu files and the stub record messages without GraphBLAS.h.
// SPDX-License-Identifier: Apache-2.0
#include "cuda/k2_cuda_gateway.h"
#include "util/k2_error.h"

int k2_cuda_fail(int info, const char *message) {
  return (int)k2_error_set((GrB_Info)info, "%s", message);
}
