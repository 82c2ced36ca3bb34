// k2_sssp.c: K2_sssp_hops_grb / K2_sssp_hops_k2 from one template, k2_sssp.inc, and
// K2_sssp_hops_graph, which runs on a graph's locality order where it keeps one.
// SPDX-License-Identifier: Apache-2.0
#define K2A_TEMPLATE "k2_sssp.inc"
#include "k2_alg_instantiate.h"

GrB_Info K2_sssp_hops_graph(GrB_Vector *dist, K2_Graph G, GrB_Index src, char *msg) {
  GrB_Info info = k2a_graph_check(G, "K2_sssp_hops_graph", msg);
  if (info != GrB_SUCCESS) {
    if (dist != NULL) *dist = NULL;
    return info;
  }
  if (G->K == NULL) {
    info = K2_sssp_hops_grb(dist, G->A, src, msg);
  } else if (G->ordered == NULL) {
    info = K2_sssp_hops_k2(dist, G->K, src, msg);
  } else {  // the source mapped in (one out of range is the body's error), the distances back
    GrB_Index n = 0;
    (void)K2_Matrix_nrows(&n, G->K);
    info = K2_sssp_hops_k2(dist, G->ordered->K, src < n ? G->order[src] : src, msg);
    if (info == GrB_SUCCESS) info = k2a_locality_map(dist, G, false, false, "K2_sssp_hops_graph", msg);
  }
  k2a_rename(msg, "K2_sssp_hops", "K2_sssp_hops_graph");
  return info;
}
