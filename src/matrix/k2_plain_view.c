// k2_plain_view.c: the view of a matrix for code that reads only plain trees (the CUDA engine):
// the tree itself, or when it has full blocks its expansion to plain nodes, kept in a slot of
// the matrix until the tree changes (and counted in K2_Matrix_memoryUsage's cache).
// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>

#include "matrix/k2_matrix.h"
#include "util/k2_error.h"

static void k2_plain_release(void *state) {
  k2_tree *t = state;
  k2_tree_clear(t);
  free(t);
}

static uint64_t k2_plain_bytes(const void *state) {
  const k2_tree *t = state;
  uint64_t b = k2_tree_core_bytes(t) + (t->levels + 2) * sizeof(uint64_t) + sizeof *t;
  b += t->dir_len ? k2_dir_bytes(t->dir_len, t->dir_lo != NULL) : 0;
  b += t->top_count * sizeof(uint64_t);
  if (t->bottom_codes != NULL && t->levels > 0)
    b += (t->level_start[t->levels] - t->level_start[t->levels - 1]) * sizeof(uint64_t);
  return b;
}

static const k2_slot_ops k2_plain_ops = {k2_plain_release, k2_plain_bytes, false};

static bool k2_plain_ready(const void *state, const void *arg) {
  (void)state;
  (void)arg;
  return true;  // the expansion of this tree: made once
}

static int k2_plain_build(void **state, const void *arg) {
  const K2_Matrix A = (K2_Matrix)arg;
  k2_tree *t = calloc(1, sizeof *t);
  if (t == NULL) return (int)k2_error_set(GrB_OUT_OF_MEMORY, "no memory to expand the full blocks");
  GrB_Info info = k2_tree_expand_full(t, &A->tree, &A->fmt);
  if (info != GrB_SUCCESS) {
    free(t);
    return (int)info;
  }
  *state = t;
  return 0;
}

GrB_Info k2_matrix_plain_view(K2_Matrix A, k2_view *v) {
  if (A->tree.n_full == 0) {
    k2_tree_view(v, &A->tree, A->weight);
    return GrB_SUCCESS;
  }
  void *state = NULL;
  int rc = k2_slot_build(A, K2_SLOT_PLAIN, &k2_plain_ops, k2_plain_ready, k2_plain_build, A, &state);
  if (rc != 0) return (GrB_Info)rc;
  k2_tree_view(v, (const k2_tree *)state, A->weight);
  return GrB_SUCCESS;
}
