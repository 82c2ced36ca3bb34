// k2_edges.c: the K2_Edges list (growth, options, id remapping) and the read options.
// SPDX-License-Identifier: Apache-2.0
#include "io/k2_edges.h"

#include <stdlib.h>
#include <string.h>

#include "util/k2_error.h"

void k2_edges_free(K2_Edges *E) {
  free(E->I);
  free(E->J);
  memset(E, 0, sizeof *E);
}

void k2_edges_options_default(K2_ReadOptions *opt) {
  memset(opt, 0, sizeof *opt);
  opt->format = K2_FORMAT_AUTO;
}

// Resize both arrays to exactly `cap` pairs; on failure nothing changes.
static GrB_Info k2_edges_resize(K2_Edges *E, uint64_t cap) {
  if (cap > SIZE_MAX / sizeof(uint32_t)) {
    K2_FAIL(GrB_OUT_OF_MEMORY, "edge list: %llu pairs do not fit in memory",
            (unsigned long long)cap);
  }
  size_t bytes = (size_t)(cap ? cap : 1) * sizeof(uint32_t);
  uint32_t *I = realloc(E->I, bytes);
  if (I == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "edge list: out of memory (%zu bytes)", bytes);
  E->I = I;
  uint32_t *J = realloc(E->J, bytes);
  if (J == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "edge list: out of memory (%zu bytes)", bytes);
  E->J = J;
  E->capacity = cap;
  return GrB_SUCCESS;
}

GrB_Info k2_edges_reserve(K2_Edges *E, uint64_t n) {
  if (n > UINT64_MAX - E->nvals) K2_FAIL(GrB_OUT_OF_MEMORY, "edge list: too many pairs");
  uint64_t need = E->nvals + n;
  if (need <= E->capacity && E->I != NULL) return GrB_SUCCESS;
  return k2_edges_resize(E, need);
}

GrB_Info k2_edges_push(K2_Edges *E, uint32_t i, uint32_t j) {
  if (E->nvals == E->capacity) {
    uint64_t cap = E->capacity < 1024 ? 1024 : E->capacity + E->capacity / 2;
    GrB_Info info = k2_edges_resize(E, cap);
    if (info != GrB_SUCCESS) return info;
  }
  E->I[E->nvals] = i;
  E->J[E->nvals] = j;
  E->nvals++;
  return GrB_SUCCESS;
}

GrB_Info k2_edges_apply_options(K2_Edges *E, const K2_ReadOptions *opt) {
  if (opt == NULL) return GrB_SUCCESS;
  if (opt->drop_self_loops) {
    uint64_t k = 0;
    for (uint64_t e = 0; e < E->nvals; e++) {
      if (E->I[e] == E->J[e]) continue;
      E->I[k] = E->I[e];
      E->J[k] = E->J[e];
      k++;
    }
    E->nvals = k;
  }
  if (opt->transpose) {
    uint32_t *t = E->I;
    E->I = E->J;
    E->J = t;
    GrB_Index n = E->nrows;
    E->nrows = E->ncols;
    E->ncols = n;
  }
  if (opt->symmetrize) {
    // A symmetric pattern needs a square matrix: the larger side wins.
    uint64_t mirrored = 0;
    for (uint64_t e = 0; e < E->nvals; e++) mirrored += E->I[e] != E->J[e];
    GrB_Info info = k2_edges_reserve(E, mirrored);
    if (info != GrB_SUCCESS) return info;
    uint64_t n = E->nvals, k = E->nvals;
    for (uint64_t e = 0; e < n; e++) {
      if (E->I[e] == E->J[e]) continue;  // the diagonal once
      E->I[k] = E->J[e];
      E->J[k] = E->I[e];
      k++;
    }
    E->nvals = k;
    if (E->nrows < E->ncols) E->nrows = E->ncols;
    E->ncols = E->nrows;
  }
  return GrB_SUCCESS;
}

static int k2_cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

// Renumber the ids that occur (as row or column) to 0..k-1 in increasing order; the matrix
// becomes k x k. A dense table when the id range is small, else a sorted list and binary search.
GrB_Info k2_edges_remap(K2_Edges *E) {
  uint64_t range = E->nrows > E->ncols ? E->nrows : E->ncols;
  if (E->nvals == 0) {
    E->nrows = E->ncols = 0;
    return GrB_SUCCESS;
  }
  if (range <= 4 * E->nvals + 4096) {
    uint32_t *map = calloc(range, sizeof(uint32_t));
    if (map == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "edge list: out of memory remapping ids");
    for (uint64_t e = 0; e < E->nvals; e++) map[E->I[e]] = map[E->J[e]] = 1;
    uint32_t k = 0;
    for (uint64_t v = 0; v < range; v++) {
      uint32_t present = map[v];
      map[v] = k;
      k += present;
    }
    for (uint64_t e = 0; e < E->nvals; e++) {
      E->I[e] = map[E->I[e]];
      E->J[e] = map[E->J[e]];
    }
    free(map);
    E->nrows = E->ncols = k;
    return GrB_SUCCESS;
  }
  if (E->nvals > SIZE_MAX / (2 * sizeof(uint32_t))) K2_FAIL(GrB_OUT_OF_MEMORY, "edge list: too large");
  uint32_t *ids = malloc(2 * E->nvals * sizeof(uint32_t));
  if (ids == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "edge list: out of memory remapping ids");
  memcpy(ids, E->I, E->nvals * sizeof(uint32_t));
  memcpy(ids + E->nvals, E->J, E->nvals * sizeof(uint32_t));
  qsort(ids, 2 * E->nvals, sizeof(uint32_t), k2_cmp_u32);
  uint64_t k = 0;
  for (uint64_t t = 0; t < 2 * E->nvals; t++) {
    if (k == 0 || ids[k - 1] != ids[t]) ids[k++] = ids[t];
  }
  for (uint64_t e = 0; e < E->nvals; e++) {
    uint32_t *p = bsearch(&E->I[e], ids, k, sizeof(uint32_t), k2_cmp_u32);
    uint32_t *q = bsearch(&E->J[e], ids, k, sizeof(uint32_t), k2_cmp_u32);
    E->I[e] = (uint32_t)(p - ids);
    E->J[e] = (uint32_t)(q - ids);
  }
  free(ids);
  E->nrows = E->ncols = k;
  return GrB_SUCCESS;
}
