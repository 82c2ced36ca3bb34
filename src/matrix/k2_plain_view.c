// k2_plain_view.c: the view of a matrix for code that reads only plain trees with 2x2 leaves
// (the CUDA engine): the tree itself, or when it has full blocks or larger leaves (4x4, 8x8,
// plain or compressed) the same matrix as a plain tree of 2x2 leaves, kept in a slot of the
// matrix until the tree changes (and counted in K2_Matrix_memoryUsage's cache). On the H200
// every product of cnr-2000 and uk-2007-05@100000 took 1.2-3.4x longer from 4x4 leaves than
// from 2x2 ones (docs/benchmarks.md), and the row blocks need 2x2 leaves.
// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "matrix/k2_matrix.h"
#include "util/k2_alloc.h"
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

static const k2_slot_ops k2_plain_ops = {k2_plain_release, k2_plain_bytes, false, NULL};

// Quadrant b (b = 2 * lower half of the rows + right half of the columns, the signatures'
// numbering) of a leaf of side 2^leaf_log, as a leaf of half the side (cells row-major).
static uint64_t k2_plain_quadrant(uint64_t w, uint32_t leaf_log, unsigned b) {
  const unsigned side = 1u << leaf_log, half = side / 2;
  const uint64_t row_mask = (UINT64_C(1) << half) - 1;
  uint64_t q = 0;
  for (unsigned r = 0; r < half; r++) {
    q |= ((w >> (((b >> 1) * half + r) * side + (b & 1) * half)) & row_mask) << (r * half);
  }
  return q;
}

// dst = src with every leaf split into its quadrants: one more internal level (the old leaves,
// each signature the quadrants that hold an entry, appended in level order after src's internal
// nodes), leaves of half the side (the non-empty quadrants, leaf by leaf, in quadrant order).
// The same matrix in the same node order; the auxiliary arrays are left to k2_tree_derive.
static GrB_Info k2_plain_split_leaves(k2_tree *dst, const k2_tree *src) {
  k2_tree nt;
  memset(&nt, 0, sizeof nt);
  nt.nrows = src->nrows, nt.ncols = src->ncols, nt.nvals = src->nvals;
  nt.side_log = src->side_log;
  nt.levels = src->levels + 1;
  nt.leaf_log = src->leaf_log - 1;
  const uint32_t L = src->levels;
  k2_view sv;
  k2_tree_view(&sv, src, 1.0);
  uint64_t halves = 0;  // the new leaves
  for (uint64_t q = 0; q < src->n_leaves; q++) {
    const uint64_t w = k2_view_leaf(&sv, q);
    for (unsigned b = 0; b < 4; b++) halves += k2_plain_quadrant(w, src->leaf_log, b) != 0;
  }
  nt.n_internal = src->n_internal + src->n_leaves;
  nt.n_leaves = halves;
  nt.level_start = k2_calloc(L + 3, sizeof(uint64_t));
  nt.sig = k2_calloc((nt.n_internal + 15) / 16 + 1, sizeof(uint64_t));
  nt.leaves = k2_calloc(k2_tree_plain_leaf_words(nt.n_leaves, nt.leaf_log) + 1, sizeof(uint64_t));
  if (nt.level_start == NULL || nt.sig == NULL || nt.leaves == NULL) {
    k2_tree_clear(&nt);
    K2_FAIL(GrB_OUT_OF_MEMORY, "no memory to split the %llu leaves of the tree into 2x2 leaves",
            (unsigned long long)src->n_leaves);
  }
  if (src->n_internal > 0) {
    memcpy(nt.level_start, src->level_start, (L + 1) * sizeof(uint64_t));
    nt.level_start[L + 1] = nt.n_internal;
    nt.level_start[L + 2] = nt.n_internal + nt.n_leaves;
    const uint64_t words = (src->n_internal + 15) / 16, tail = src->n_internal & 15;
    memcpy(nt.sig, src->sig, words * sizeof(uint64_t));
    if (tail) nt.sig[words - 1] &= (UINT64_C(1) << (4 * tail)) - 1;  // past the last node: not ours
  }
  const uint32_t half_bits = 1u << (2 * nt.leaf_log);
  uint64_t at = src->n_internal, k = 0;
  for (uint64_t q = 0; q < src->n_leaves; q++, at++) {
    const uint64_t w = k2_view_leaf(&sv, q);
    uint64_t sig = 0;
    for (unsigned b = 0; b < 4; b++) {
      const uint64_t h = k2_plain_quadrant(w, src->leaf_log, b);
      if (h == 0) continue;
      sig |= UINT64_C(1) << b;
      const uint64_t bit = k * half_bits;
      nt.leaves[bit >> 6] |= h << (bit & 63);
      k++;
    }
    nt.sig[at >> 4] |= sig << ((at & 15) * 4);
  }
  *dst = nt;
  return GrB_SUCCESS;
}

static bool k2_plain_ready(const void *state, const void *arg) {
  (void)state;
  (void)arg;
  return true;  // the expansion of this tree: made once
}

// The full blocks expanded (k2_tree_expand_full), then the leaves halved until they are 2x2.
static int k2_plain_build(void **state, const void *arg) {
  const K2_Matrix A = (K2_Matrix)arg;
  k2_tree *t = calloc(1, sizeof *t);  // zeroed: k2_tree_clear frees nothing until it holds a tree
  if (t == NULL) return (int)k2_error_set(GrB_OUT_OF_MEMORY, "no memory for the plain tree");
  const k2_tree *src = &A->tree;
  GrB_Info info = GrB_SUCCESS;
  if (A->tree.n_full > 0) {
    info = k2_tree_expand_full(t, &A->tree, &A->fmt);
    src = t;
  }
  bool split = false;
  while (info == GrB_SUCCESS && src->leaf_log > 1) {
    k2_tree next;
    info = k2_plain_split_leaves(&next, src);
    k2_tree_clear(t);
    if (info == GrB_SUCCESS) *t = next, src = t, split = true;
  }
  if (info == GrB_SUCCESS && split) {
    K2_Format f = A->fmt;  // the split tree's directory and top codes
    f.leaf_log = 1;
    f.full_blocks = false;
    f.compress_leaves = false;
    info = k2_tree_derive(t, &f);
  }
  if (info != GrB_SUCCESS) {
    k2_tree_clear(t);
    free(t);
    return (int)info;
  }
  *state = t;
  return 0;
}

GrB_Info k2_matrix_plain_view(K2_Matrix A, k2_view *v) {
  if (A->tree.n_full == 0 && A->tree.leaf_log == 1) {
    k2_tree_view(v, &A->tree, A->weight);
    return GrB_SUCCESS;
  }
  void *state = NULL;
  int rc = k2_slot_build(A, K2_SLOT_PLAIN, &k2_plain_ops, k2_plain_ready, k2_plain_build, A, &state);
  if (rc != 0) return (GrB_Info)rc;
  k2_tree_view(v, (const k2_tree *)state, A->weight);
  return GrB_SUCCESS;
}
