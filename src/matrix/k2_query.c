// k2_query.c: entries, single cells and rows/columns of a tree.
// SPDX-License-Identifier: Apache-2.0
#include "matrix/k2_query.h"

#include <stdlib.h>

#include "util/k2_error.h"
#include "util/k2_sort.h"

GrB_Info k2_query_cells(const k2_tree *t, uint64_t *keys) {
  if (t->nvals == 0) return GrB_SUCCESS;
  k2_view v;
  k2_tree_view(&v, t, 1.0);
  // Morton codes level by level; the codes of level `levels` address the leaves in order.
  uint64_t *cur = malloc(sizeof(uint64_t)), *next;
  if (cur == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "k2 query: no memory");
  cur[0] = 0;
  for (uint32_t lvl = 0; lvl < v.levels; lvl++) {
    uint64_t first = v.level_start[lvl], count = v.level_start[lvl + 1] - first;
    uint64_t next_count = v.level_start[lvl + 2] - v.level_start[lvl + 1];
    next = malloc(next_count * sizeof(uint64_t));
    if (next == NULL) {
      free(cur);
      K2_FAIL(GrB_OUT_OF_MEMORY, "k2 query: no memory for %llu codes", (unsigned long long)next_count);
    }
    uint64_t out = 0;
    for (uint64_t i = 0; i < count; i++) {
      unsigned s = k2_view_sig(&v, first + i);
      for (unsigned b = 0; b < 4; b++)
        if (s & (1u << b)) next[out++] = (cur[i] << 2) | b;
    }
    free(cur);
    cur = next;
  }
  uint32_t d = 1u << v.leaf_log;
  uint64_t k = 0;
  for (uint64_t q = 0; q < v.n_leaves; q++) {
    uint64_t br, bc;
    k2_morton_split(cur[q], &br, &bc);
    uint64_t bits = k2_view_leaf(&v, q);
    while (bits) {
      unsigned cell = (unsigned)__builtin_ctzll(bits);
      bits &= bits - 1;
      uint64_t r = (br << v.leaf_log) + cell / d, c = (bc << v.leaf_log) + cell % d;
      keys[k++] = (r << 32) | c;
    }
  }
  free(cur);
  return GrB_SUCCESS;
}

GrB_Info k2_query_tuples_32(const k2_tree *t, uint32_t *I, uint32_t *J, GrB_Index *count) {
  uint64_t nv = t->nvals;
  *count = nv;
  if (nv == 0) return GrB_SUCCESS;
  uint64_t *keys = malloc(nv * sizeof(uint64_t)), *tmp = malloc(nv * sizeof(uint64_t));
  if (keys == NULL || tmp == NULL) {
    free(keys);
    free(tmp);
    K2_FAIL(GrB_OUT_OF_MEMORY, "k2 query: no memory for %llu entries", (unsigned long long)nv);
  }
  GrB_Info info = k2_query_cells(t, keys);
  uint64_t *sorted = info == GrB_SUCCESS ? k2_sort_u64(keys, tmp, nv, 64) : NULL;
  if (sorted == NULL) {
    free(keys);
    free(tmp);
    if (info != GrB_SUCCESS) return info;
    K2_FAIL(GrB_OUT_OF_MEMORY, "k2 query: no memory");
  }
#pragma omp parallel for schedule(static) if (nv > 65536)
  for (uint64_t k = 0; k < nv; k++) {
    if (I) I[k] = (uint32_t)(sorted[k] >> 32);
    if (J) J[k] = (uint32_t)sorted[k];
  }
  free(keys);
  free(tmp);
  return GrB_SUCCESS;
}

bool k2_query_entry(const k2_tree *t, uint64_t i, uint64_t j) {
  if (t->nvals == 0) return false;
  k2_view v;
  k2_tree_view(&v, t, 1.0);
  uint64_t p = 0;
  for (uint32_t lvl = 0; lvl < v.levels; lvl++) {
    uint32_t sh = v.side_log - 1 - lvl;
    unsigned b = (unsigned)((((i >> sh) & 1) << 1) | ((j >> sh) & 1));
    unsigned s = k2_view_sig(&v, p);
    if (!(s & (1u << b))) return false;
    p = k2_view_first_child(&v, p) + (uint64_t)__builtin_popcount(s & ((1u << b) - 1));
  }
  uint64_t d = UINT64_C(1) << v.leaf_log, mask = d - 1;
  uint64_t cell = (i & mask) * d + (j & mask);
  return (k2_view_leaf(&v, p - v.n_internal) >> cell) & 1;
}

typedef struct {
  const k2_view *v;
  bool by_col;
  uint64_t idx;
  GrB_Index *out;
  uint64_t cap, found;
} k2_line_walk;

// Depth-first over the children of node p (level lvl, block offset `other` on the free axis):
// quadrants in ascending order of the free coordinate, so the output is sorted.
static void k2_line_visit(k2_line_walk *w, uint64_t p, uint32_t lvl, uint64_t other) {
  const k2_view *v = w->v;
  if (lvl == v->levels) {
    uint64_t d = UINT64_C(1) << v->leaf_log, fixed = w->idx & (d - 1);
    uint64_t bits = k2_view_leaf(v, p - v->n_internal);
    for (uint64_t f = 0; f < d; f++) {
      uint64_t cell = w->by_col ? f * d + fixed : fixed * d + f;
      if ((bits >> cell) & 1) {
        if (w->out && w->found < w->cap) w->out[w->found] = (other << v->leaf_log) + f;
        w->found++;
      }
    }
    return;
  }
  uint32_t sh = v->side_log - 1 - lvl;
  unsigned fixed_bit = (unsigned)((w->idx >> sh) & 1);
  unsigned s = k2_view_sig(v, p);
  uint64_t child0 = k2_view_first_child(v, p);
  for (unsigned f = 0; f < 2; f++) {
    unsigned b = w->by_col ? (f << 1) | fixed_bit : (fixed_bit << 1) | f;
    if (s & (1u << b))
      k2_line_visit(w, child0 + (uint64_t)__builtin_popcount(s & ((1u << b) - 1)), lvl + 1,
                    (other << 1) | f);
  }
}

GrB_Info k2_query_line(const k2_tree *t, bool by_col, uint64_t idx, GrB_Index *out, GrB_Index *count) {
  k2_view v;
  k2_tree_view(&v, t, 1.0);
  k2_line_walk w = {&v, by_col, idx, out, out ? *count : 0, 0};
  if (t->nvals > 0) k2_line_visit(&w, 0, 0, 0);
  if (out && w.found > w.cap) {
    *count = w.found;
    K2_FAIL(GrB_INSUFFICIENT_SPACE, "k2 neighbours: room for %llu, found %llu",
            (unsigned long long)w.cap, (unsigned long long)w.found);
  }
  *count = w.found;
  return GrB_SUCCESS;
}
