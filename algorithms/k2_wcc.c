// k2_wcc.c: K2_wcc_grb / K2_wcc_k2 from one template, k2_wcc.inc, and K2_wcc_graph, which
// runs on a graph's locality order where it keeps one.
// SPDX-License-Identifier: Apache-2.0
#define K2A_TEMPLATE "k2_wcc.inc"
#include "k2_alg_instantiate.h"

// Components labelled in G's locality order, relabelled with the smallest of G's ids in each:
// found on the copy G->ordered (on_copy: indexed and labelled in its numbering), or on G's own
// tree with the ranks as labels (indexed by G's ids).
static GrB_Info k2a_wcc_unorder(GrB_Vector *component, K2_Graph G, bool on_copy, char *msg) {
  GrB_Index n = 0, nv = 0;
  GrB_Info info = GrB_Vector_size(&n, *component);
  if (info == GrB_SUCCESS) info = GrB_Vector_nvals(&nv, *component);
  GrB_Index *idx = malloc((n + 1) * sizeof *idx);
  int64_t *lab = malloc((n + 1) * sizeof *lab), *low = malloc((n + 1) * sizeof *low);
  GrB_Vector c = NULL;
  if (info == GrB_SUCCESS && (idx == NULL || lab == NULL || low == NULL)) info = GrB_OUT_OF_MEMORY;
  if (info == GrB_SUCCESS) info = GrB_Vector_extractTuples_INT64(idx, lab, &nv, *component);
  if (info == GrB_SUCCESS && nv != n) info = GrB_INVALID_OBJECT;  // (every vertex has a label)
  if (info == GrB_SUCCESS) {
    // extractTuples gives the copy's vertices in order: lab[j] is vertex j's label there
    for (GrB_Index j = 0; j < n; j++) low[j] = INT64_MAX;
    // each vertex's label by G's id, then replaced by its component's smallest G id
    for (GrB_Index i = 0; i < n; i++) idx[i] = (GrB_Index)lab[on_copy ? G->order[i] : i];
    for (GrB_Index i = 0; i < n; i++) {
      if ((int64_t)i < low[idx[i]]) low[idx[i]] = (int64_t)i;
    }
    for (GrB_Index i = 0; i < n; i++) lab[i] = low[idx[i]];
    for (GrB_Index i = 0; i < n; i++) idx[i] = i;
  }
  if (info == GrB_SUCCESS) info = GrB_Vector_new(&c, GrB_INT64, n);
  if (info == GrB_SUCCESS) info = GrB_Vector_build_INT64(c, idx, lab, n, NULL);
  free(idx), free(lab), free(low);
  GrB_free(component);
  if (info != GrB_SUCCESS) {
    GrB_free(&c);
    return k2a_fail(msg, info, "K2_wcc_graph", "mapping the components back from the locality order",
                    "GrB_Vector_build_INT64");
  }
  *component = c;
  return GrB_SUCCESS;
}

GrB_Info K2_wcc_graph(GrB_Vector *component, int *rounds, K2_Graph G, char *msg) {
  GrB_Info info = k2a_graph_check(G, "K2_wcc_graph", msg);
  if (info != GrB_SUCCESS) {
    if (component != NULL) *component = NULL;
    return info;
  }
  const char *fn = "K2_wcc_graph";
  if (G->K == NULL) return k2a_wcc_grb(fn, component, rounds, G->A, NULL, NULL, msg);
  bool ordered = false;
  if ((info = k2a_locality_use(&ordered, G, K2A_WHOLE_DEVICE_WCC, fn, msg)) != GrB_SUCCESS) {
    if (component != NULL) *component = NULL;
    return info;
  }
  if (!ordered) return k2a_wcc_k2(fn, component, rounds, G->K, NULL, NULL, msg);
  if (G->ordered != NULL) {
    info = k2a_wcc_k2(fn, component, rounds, G->ordered->K, NULL, NULL, msg);
  } else {
    // the order without its copy: G's tree, the labels starting as ranks of the order (a
    // breadth-first order of each component: min-label propagation then takes fewer rounds on
    // graphs of long paths)
    info = k2a_wcc_k2(fn, component, rounds, G->K, G->order, G->order_inverse, msg);
  }
  if (info == GrB_SUCCESS) info = k2a_wcc_unorder(component, G, G->ordered != NULL, msg);
  return info;
}
