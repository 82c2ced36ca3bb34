// k2_cuda_table.c: the CUDA engine as the dispatcher sees it (k2_engine.h), in builds with and
// without CUDA (the gateway's stub then declines everything).
// SPDX-License-Identifier: Apache-2.0
//
// Its state per matrix is the handle of the resident copy, uploaded under the matrix's lock by
// the first product in the default configuration (k2_cuda_settings.config). The matrix frees
// it through the slot; the device memory is not counted as the matrix's host bytes.
#include <stdio.h>

#include "cuda/k2_cuda_gateway.h"
#include "engine/k2_engine.h"

static void k2_cuda_state_free(void *state) { k2_cuda_release(state); }

static const k2_slot_ops k2_cuda_state_ops = {k2_cuda_state_free, NULL, false, NULL};

static bool k2_cuda_engine_available(char *why, size_t len) {
  if (k2_cuda_available()) return true;
  snprintf(why, len, "no CUDA device (or built without CUDA)");
  return false;
}

static bool k2_cuda_ready(const void *state, const void *need) {
  (void)need;
  return state != NULL;
}

static int k2_cuda_prepare(void **state, const void *need) {
  const k2_engine_need *n = need;
  return k2_cuda_upload(n->A, K2_CUDA_CONFIG_AUTO, state);
}

const k2_engine k2_cuda_engine = {
    .name = "CUDA",
    .id = K2_ENGINE_ID_CUDA,
    .slot = K2_SLOT_CUDA,
    .ops = &k2_cuda_state_ops,
    .plain_trees = true,
    .available = k2_cuda_engine_available,
    .accepts = k2_engine_accepts_supported,
    .ready = k2_cuda_ready,
    .prepare = k2_cuda_prepare,
    .product = k2_cuda_product,
};
