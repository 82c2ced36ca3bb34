// k2_init.c: library initialisation (GraphBLAS too, when the caller has not); the last error
// message and the names of GrB_Info codes.
// SPDX-License-Identifier: Apache-2.0
#include <k2grb.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/k2_api.h"
#include "api/k2_profile.h"
#include "bridge/k2_bridge.h"
#include "cuda/k2_cuda_gateway.h"
#include "dispatch/k2_dispatch.h"
#include "util/k2_error.h"


// The settings the environment gives: K2GRB_STRICT, K2GRB_DEVICE_CONFIG (the configuration of
// lazy uploads; "frontier" is the old name of "bottom"), K2GRB_CPU_TRAVERSAL, K2GRB_ENGINE.
static void k2_settings_from_env(void) {
  const char *strict = getenv("K2GRB_STRICT");
  if (strict != NULL && strcmp(strict, "1") == 0) k2_dispatch_set_strict(true);
  const char *c = getenv("K2GRB_DEVICE_CONFIG");
  if (c != NULL) {
    k2_cuda_settings s;
    k2_cuda_settings_get(&s);
    s.config = strcmp(c, "tree") == 0       ? K2_CUDA_CONFIG_TREE
               : strcmp(c, "frontier") == 0 || strcmp(c, "bottom") == 0 ? K2_CUDA_CONFIG_BOTTOM
               : strcmp(c, "rows") == 0     ? K2_CUDA_CONFIG_ROWS
                                            : K2_CUDA_CONFIG_AUTO;
    (void)k2_cuda_settings_set(&s);
  }
  const char *t = getenv("K2GRB_CPU_TRAVERSAL");
  if (t != NULL) {
    k2_dispatch_set_cpu_traversal(strcmp(t, "depth-first") == 0 ? 1
                                  : strcmp(t, "stripes") == 0   ? 2
                                  : strcmp(t, "full") == 0      ? 3
                                                                : 0);
  }
  const char *e = getenv("K2GRB_ENGINE");
  if (e == NULL) return;
  if (strcmp(e, "reference") == 0) k2_dispatch_set_choice(K2_ENGINE_REFERENCE);
  else if (strcmp(e, "openmp") == 0) k2_dispatch_set_choice(K2_ENGINE_OPENMP);
  else if (strcmp(e, "cuda") == 0) k2_dispatch_set_choice(K2_ENGINE_CUDA);
  else k2_dispatch_set_choice(K2_ENGINE_AUTO);
}

static int k2_init_count = 0;
static bool k2_owns_graphblas = false;

GrB_Info K2_init(void) {
  if (k2_init_count++ > 0) return GrB_SUCCESS;
  // GrB_init fails with GrB_INVALID_VALUE when GraphBLAS is already initialised: then the
  // caller owns it.
  GrB_Info info = GrB_init(GrB_NONBLOCKING);
  k2_owns_graphblas = info == GrB_SUCCESS;
  k2_settings_from_env();
  k2_profile_from_env();  // K2GRB_PROFILE
  (void)k2_api_burble();  // reads K2GRB_BURBLE, which also turns on the error burble
  return GrB_SUCCESS;
}

GrB_Info K2_finalize(void) {
  if (k2_init_count == 0) return GrB_SUCCESS;
  if (--k2_init_count > 0) return GrB_SUCCESS;
  k2_profile_finish();  // the table K2GRB_PROFILE asked for
  k2_cuda_trim();  // the CUDA engine's shared workspace
  k2_workspace_release();
  if (k2_owns_graphblas) GrB_finalize();
  k2_owns_graphblas = false;
  return GrB_SUCCESS;
}

const char *K2_error_string(void) { return k2_error_get(); }

void K2_error_clear(void) { k2_error_clear(); }

const char *K2_info_name(GrB_Info info) { return k2_error_info_name(info); }
