// k2_edges_tmp_bv.c: TEMPORARY stand-ins (branch bv only) for symbols other branches provide:
// the edge-list helpers of src/io/k2_edges.c. Deleted before the branch is merged.
// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "io/k2_edges.h"
#include "util/k2_error.h"

void K2_Edges_free(K2_Edges *E) {
  if (E == NULL) return;
  free(E->I);
  free(E->J);
  memset(E, 0, sizeof *E);
}

void K2_ReadOptions_default(K2_ReadOptions *opt) {
  if (opt != NULL) memset(opt, 0, sizeof *opt);
}

GrB_Info k2_edges_reserve(K2_Edges *E, uint64_t n) {
  if (E->nvals + n <= E->capacity) return GrB_SUCCESS;
  uint64_t cap = E->capacity ? E->capacity : 1024;
  while (cap < E->nvals + n) cap *= 2;
  uint32_t *I = realloc(E->I, cap * sizeof *I);
  if (I == NULL) return GrB_OUT_OF_MEMORY;
  E->I = I;
  uint32_t *J = realloc(E->J, cap * sizeof *J);
  if (J == NULL) return GrB_OUT_OF_MEMORY;
  E->J = J;
  E->capacity = cap;
  return GrB_SUCCESS;
}

GrB_Info k2_edges_push(K2_Edges *E, uint32_t i, uint32_t j) {
  if (E->nvals == E->capacity) {
    GrB_Info info = k2_edges_reserve(E, 1);
    if (info != GrB_SUCCESS) return info;
  }
  E->I[E->nvals] = i;
  E->J[E->nvals] = j;
  E->nvals++;
  return GrB_SUCCESS;
}

GrB_Info k2_edges_apply_options(K2_Edges *E, const K2_ReadOptions *opt) {
  if (opt == NULL) return GrB_SUCCESS;
  if (opt->transpose) {
    uint32_t *t = E->I;
    E->I = E->J;
    E->J = t;
    GrB_Index n = E->nrows;
    E->nrows = E->ncols;
    E->ncols = n;
  }
  if (opt->drop_self_loops) {
    uint64_t k = 0;
    for (uint64_t p = 0; p < E->nvals; p++)
      if (E->I[p] != E->J[p]) {
        E->I[k] = E->I[p];
        E->J[k] = E->J[p];
        k++;
      }
    E->nvals = k;
  }
  if (opt->symmetrize) {
    uint64_t m = E->nvals;
    GrB_Info info = k2_edges_reserve(E, m);
    if (info != GrB_SUCCESS) return info;
    for (uint64_t p = 0; p < m; p++) {
      E->I[m + p] = E->J[p];
      E->J[m + p] = E->I[p];
    }
    E->nvals = 2 * m;
  }
  return GrB_SUCCESS;
}
