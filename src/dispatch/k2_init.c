// k2_init.c: library initialisation (GraphBLAS too, when the caller has not).
// SPDX-License-Identifier: Apache-2.0
#include <k2grb.h>

#include "bridge/k2_bridge.h"
#include "cuda/k2_cuda_gateway.h"
#include "util/k2_error.h"

void k2_dispatch_engine_from_env(void);

static int k2_init_count = 0;
static bool k2_owns_graphblas = false;

GrB_Info K2_init(void) {
  if (k2_init_count++ > 0) return GrB_SUCCESS;
  // GrB_init fails with GrB_INVALID_VALUE when GraphBLAS is already initialised: then the
  // caller owns it.
  GrB_Info info = GrB_init(GrB_NONBLOCKING);
  k2_owns_graphblas = info == GrB_SUCCESS;
  k2_dispatch_engine_from_env();
  (void)k2_bridge_burble();  // reads K2GRB_BURBLE, which also turns on the error burble
  return GrB_SUCCESS;
}

GrB_Info K2_finalize(void) {
  if (k2_init_count == 0) return GrB_SUCCESS;
  if (--k2_init_count > 0) return GrB_SUCCESS;
  k2_cuda_trim();  // the CUDA engine's shared workspace
  if (k2_owns_graphblas) GrB_finalize();
  k2_owns_graphblas = false;
  return GrB_SUCCESS;
}

const char *K2_error_string(void) { return k2_error_get(); }
