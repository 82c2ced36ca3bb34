// k2_query.c: entries, single cells and rows/columns of a tree.
// SPDX-License-Identifier: Apache-2.0
#include "matrix/k2_query.h"

#include <omp.h>
#include <stdlib.h>

#include "util/k2_error.h"
#include "util/k2_sort.h"

// Cells in Morton order as (col << 32 | row) keys: the row is the sort key of row-major order,
// the column rides along. In parallel: the codes of the last internal level (the cached bottom codes when there are some), then
// contiguous ranges of its nodes, each writing the cells of its nodes' leaves after those of
// the ranges before it (a count pass, a prefix sum, the writes).
static GrB_Info k2_query_cells(const k2_tree *t, uint64_t *keys) {
  if (t->nvals == 0) return GrB_SUCCESS;
  k2_view v;
  k2_tree_view(&v, t, 1.0);
  const uint32_t last = v.levels - 1;
  uint64_t *own = NULL;
  const uint64_t *codes = t->bottom_codes;
  if (codes == NULL) {
    GrB_Info info = k2_tree_expand_codes(t, last, &own);
    if (info != GrB_SUCCESS) return info;
    codes = own;
  }
  const uint32_t d = 1u << v.leaf_log;
  const uint64_t first = v.level_start[last], count = v.level_start[last + 1] - first;
  int nt = count < 16384 ? 1 : omp_get_max_threads();
  if (nt > 256) nt = 256;
  uint64_t start[257] = {0};
#pragma omp parallel num_threads(nt) if (nt > 1)
  {
    const int th = omp_get_thread_num(), nth = omp_get_num_threads();
    const uint64_t lo = count * (uint64_t)th / (uint64_t)nth, hi = count * (uint64_t)(th + 1) / (uint64_t)nth;
    const uint64_t q0 = lo < hi ? k2_view_first_child(&v, first + lo) - v.n_internal : 0;
    uint64_t cells = 0, q = q0;
    for (uint64_t i = lo; i < hi; i++)
      for (unsigned n = (unsigned)__builtin_popcount(k2_view_sig(&v, first + i)); n > 0; n--)
        cells += (uint64_t)__builtin_popcountll(k2_view_leaf(&v, q++));
    start[th + 1] = cells;
#pragma omp barrier
#pragma omp single
    for (int k = 0; k < nth; k++) start[k + 1] += start[k];
    uint64_t k = start[th];
    q = q0;
    for (uint64_t i = lo; i < hi; i++) {
      uint64_t br, bc;
      k2_morton_split(codes[i], &br, &bc);
      const unsigned s = k2_view_sig(&v, first + i);
      for (unsigned b = 0; b < 4; b++) {
        if (!(s & (1u << b))) continue;
        // quadrant b of the node: bit 1 the row half, bit 0 the column half
        const uint64_t lr = ((br << 1) | (b >> 1)) << v.leaf_log, lc = ((bc << 1) | (b & 1)) << v.leaf_log;
        uint64_t bits = k2_view_leaf(&v, q++);
        while (bits) {
          unsigned cell = (unsigned)__builtin_ctzll(bits);
          bits &= bits - 1;
          keys[k++] = ((lc + cell % d) << 32) | (lr + cell / d);
        }
      }
    }
  }
  free(own);
  return GrB_SUCCESS;
}

// The cells of the full nodes, as (col << 32 | row) keys, after the leaves' cells (which are
// nvals minus the full nodes' cells).
static GrB_Info k2_query_full_cells(const k2_tree *t, uint64_t *keys) {
  k2_view v;
  k2_tree_view(&v, t, 1.0);
  k2_full_node *list;
  uint64_t n, at = t->nvals;
  GrB_Info info = k2_full_list(&v, &list, &n);
  if (info != GrB_SUCCESS) return info;
  for (uint64_t i = 0; i < n; i++) at -= k2_full_area(v.side_log, list[i].level);
  for (uint64_t i = 0; i < n; i++) {
    const uint64_t side = UINT64_C(1) << (v.side_log - list[i].level);
    for (uint64_t r = 0; r < side; r++)
      for (uint64_t c = 0; c < side; c++) keys[at++] = ((list[i].col + c) << 32) | (list[i].row + r);
  }
  free(list);
  return GrB_SUCCESS;
}

// Row-major order from Morton order by a stable sort on the row alone: within one row, Morton
// order already has the columns ascending (the code is monotone in the column for a fixed row),
// so the radix passes over the column bits are not needed.
GrB_Info k2_query_tuples_32(const k2_tree *t, uint32_t *I, uint32_t *J, GrB_Index *count) {
  uint64_t nv = t->nvals;
  *count = nv;
  if (nv == 0) return GrB_SUCCESS;
  uint64_t *keys = malloc(nv * sizeof(uint64_t)), *tmp = malloc(nv * sizeof(uint64_t));
  if (keys == NULL || tmp == NULL) {
    free(keys);
    free(tmp);
    K2_FAIL(GrB_OUT_OF_MEMORY, "no memory to list the %llu entries", (unsigned long long)nv);
  }
  GrB_Info info = k2_query_cells(t, keys);
  uint32_t row_bits = 1;
  while (row_bits < 32 && (t->nrows - 1) >> row_bits) row_bits++;
  uint32_t sort_bits = row_bits;
  if (info == GrB_SUCCESS && t->n_full > 0) {
    // the full blocks' cells come after the leaves' and break Morton order: sort on the row
    // and then the column, as row << 32 | column (turned back below)
    info = k2_query_full_cells(t, keys);
    uint32_t col_bits = 1;
    while (col_bits < 32 && (t->ncols - 1) >> col_bits) col_bits++;
    if (info == GrB_SUCCESS) {
#pragma omp parallel for schedule(static) if (nv > 65536)
      for (uint64_t k = 0; k < nv; k++) keys[k] = ((keys[k] & UINT32_MAX) << col_bits) | (keys[k] >> 32);
    }
    sort_bits = row_bits + col_bits;
  }
  uint64_t *sorted = info == GrB_SUCCESS ? k2_sort_u64(keys, tmp, nv, sort_bits) : NULL;
  if (sorted == NULL) {
    free(keys);
    free(tmp);
    if (info != GrB_SUCCESS) return info;
    K2_FAIL(GrB_OUT_OF_MEMORY, "no memory to sort the %llu entries", (unsigned long long)nv);
  }
  if (sort_bits != row_bits) {  // row << col_bits | column
    const uint32_t col_bits = sort_bits - row_bits;
#pragma omp parallel for schedule(static) if (nv > 65536)
    for (uint64_t k = 0; k < nv; k++) sorted[k] = ((sorted[k] & ((UINT64_C(1) << col_bits) - 1)) << 32) | (sorted[k] >> col_bits);
  }
#pragma omp parallel for schedule(static) if (nv > 65536)
  for (uint64_t k = 0; k < nv; k++) {
    if (I) I[k] = (uint32_t)sorted[k];
    if (J) J[k] = (uint32_t)(sorted[k] >> 32);
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
    if (s == 0) return true;  // a full node (its block lies inside the matrix)
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
  uint64_t stop;  // the walk ends once it has found this many (UINT64_MAX: the whole line)
} k2_line_walk;

// Depth-first over the children of node p (level lvl, block offset `other` on the free axis):
// quadrants in ascending order of the free coordinate, so the output is sorted.
static void k2_line_visit(k2_line_walk *w, uint64_t p, uint32_t lvl, uint64_t other) {
  const k2_view *v = w->v;
  if (w->found >= w->stop) return;
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
  if (s == 0) {  // a full node: every index of its block on the free axis, in order
    const uint64_t side = UINT64_C(1) << (sh + 1), lo = other << (sh + 1);
    for (uint64_t f = 0; f < side && w->found < w->stop; f++) {
      if (w->out && w->found < w->cap) w->out[w->found] = lo + f;
      w->found++;
    }
    return;
  }
  uint64_t child0 = k2_view_first_child(v, p);
  for (unsigned f = 0; f < 2; f++) {
    unsigned b = w->by_col ? (f << 1) | fixed_bit : (fixed_bit << 1) | f;
    if (s & (1u << b))
      k2_line_visit(w, child0 + (uint64_t)__builtin_popcount(s & ((1u << b) - 1)), lvl + 1,
                    (other << 1) | f);
  }
}

// The walk over line idx: the first cap indices into out (may be NULL), ending once it has
// found `stop`; returns how many it found.
static uint64_t k2_line_run(const k2_tree *t, bool by_col, uint64_t idx, GrB_Index *out, uint64_t cap,
                            uint64_t stop) {
  k2_view v;
  k2_tree_view(&v, t, 1.0);
  k2_line_walk w = {&v, by_col, idx, out, cap, 0, stop};
  if (t->nvals > 0) k2_line_visit(&w, 0, 0, 0);
  return w.found;
}

GrB_Info k2_query_line_first(const k2_tree *t, bool by_col, uint64_t idx, GrB_Index *out, GrB_Index *count,
                             bool *more, uint64_t known) {
  const uint64_t cap = *count;
  uint64_t stop = cap == UINT64_MAX ? UINT64_MAX : cap + 1;  // one past: whether there are more
  if (known != K2_LINE_UNKNOWN) stop = known < cap ? known : cap;  // the count tells that
  const uint64_t found = k2_line_run(t, by_col, idx, out, cap, stop);
  *more = known != K2_LINE_UNKNOWN ? known > cap : found > cap;
  *count = found < cap ? found : cap;
  return GrB_SUCCESS;
}

GrB_Info k2_query_line(const k2_tree *t, bool by_col, uint64_t idx, GrB_Index *out, GrB_Index *count,
                       uint64_t known) {
  const uint64_t cap = out ? *count : 0;
  uint64_t found = known;
  // with a known count no walk for the count alone or a list too long for out, else a walk that
  // ends at the line's last entry
  if (known == K2_LINE_UNKNOWN) {
    found = k2_line_run(t, by_col, idx, out, cap, UINT64_MAX);
  } else if (out != NULL && known <= cap) {
    found = k2_line_run(t, by_col, idx, out, cap, known);
  }
  if (out && found > cap) {
    *count = found;
    K2_FAIL(GrB_INSUFFICIENT_SPACE, "out has room for %llu neighbours (count), there are %llu",
            (unsigned long long)cap, (unsigned long long)found);
  }
  *count = found;
  return GrB_SUCCESS;
}
