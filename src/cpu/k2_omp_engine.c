// k2_omp_engine.c: the OpenMP engine as the dispatcher sees it (k2_engine.h).
// SPDX-License-Identifier: Apache-2.0
//
// Its state per matrix: the task plan of each direction, built by the first product in that
// direction, and the decoded bottom level, built by the first product that reads it (the plus
// kernel, the integer min/max kernels and ANY on one vector, on a tree with cached bottom codes
// or whose matrix asks for the level, K2_Matrix_setDecodedLevel). A part that cannot be built (no
// memory) is left out: the product then plans for itself or descends as it goes.
#include <stdlib.h>

#include "cpu/k2_omp_plan.h"
#include "engine/k2_engine.h"
#include "util/k2_alloc.h"

_Thread_local uint64_t k2_omp_pruned_expanded;
uint64_t k2_omp_pruned_par_min = 4096;
int k2_omp_traversal_forced = 0;

void k2_omp_set_traversal(int mode) { k2_omp_traversal_forced = mode >= 0 && mode <= 3 ? mode : 0; }

static void k2_omp_state_free(void *state) {
  k2_omp_state *s = state;
  if (s == NULL) return;
  k2_omp_plan_free(s->plan[0]);
  k2_omp_plan_free(s->plan[1]);
  free(s->blocks);
  free(s);
}

static uint64_t k2_omp_state_bytes(const void *state) {
  const k2_omp_state *s = state;
  uint64_t b = sizeof *s + s->blocks_count * sizeof(uint64_t);
  for (int d = 0; d < 2; d++) {
    const k2_omp_plan *p = __atomic_load_n(&s->plan[d], __ATOMIC_ACQUIRE);
    if (p != NULL) b += k2_omp_plan_bytes(p);
  }
  return b;
}

static const k2_slot_ops k2_omp_state_ops = {k2_omp_state_free, k2_omp_state_bytes, false, NULL};

static bool k2_omp_ready(const void *state, const void *need) {
  const k2_omp_state *s = state;
  const k2_engine_need *n = need;
  if (__atomic_load_n(&s->plan[n->P->left ? 1 : 0], __ATOMIC_ACQUIRE) == NULL) return false;
  return __atomic_load_n(&s->blocks, __ATOMIC_ACQUIRE) != NULL || !k2_omp_blocks_apply(n->A, n->P);
}

static int k2_omp_prepare(void **state, const void *need) {
  const k2_engine_need *n = need;
  k2_omp_state *s = *state;
  if (s == NULL) {
    s = k2_calloc(1, sizeof *s);
    if (s == NULL) return 0;  // the product works without it
    *state = s;
  }
  const int d = n->P->left ? 1 : 0;
  if (s->plan[d] == NULL) {
    k2_omp_plan *plan = NULL;
    if (k2_omp_plan_new(n->A, n->P->left, &plan) == 0) __atomic_store_n(&s->plan[d], plan, __ATOMIC_RELEASE);
  }
  if (s->blocks == NULL && k2_omp_blocks_apply(n->A, n->P)) {
    uint64_t *blocks = NULL, count = 0;
    if (k2_omp_blocks_new(n->A, s->plan[d], &blocks, &count) == 0) {
      s->blocks_count = count;
      __atomic_store_n(&s->blocks, blocks, __ATOMIC_RELEASE);
    }
  }
  return 0;
}

static bool k2_omp_available(char *why, size_t len) {
  (void)why;
  (void)len;
  return true;
}

const k2_engine k2_omp_engine = {
    .name = "OpenMP",
    .id = K2_ENGINE_ID_OPENMP,
    .slot = K2_SLOT_OPENMP,
    .ops = &k2_omp_state_ops,
    .available = k2_omp_available,
    .accepts = k2_engine_accepts_supported,
    .ready = k2_omp_ready,
    .prepare = k2_omp_prepare,
    .product = k2_omp_product,
};
