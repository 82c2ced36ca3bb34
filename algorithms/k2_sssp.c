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
  const char *fn = "K2_sssp_hops_graph";
  if (G->K == NULL) return k2a_sssp_grb(fn, dist, G->A, src, msg);
  bool ordered = false;
  if ((info = k2a_locality_use(&ordered, G, K2A_WHOLE_BY_SIZE, fn, msg)) != GrB_SUCCESS) {
    if (dist != NULL) *dist = NULL;
    return info;
  }
  if (!ordered || G->ordered == NULL) return k2a_sssp_k2(fn, dist, G->K, src, msg);
  // the source mapped in, the distances back
  info = k2a_sssp_k2(fn, dist, G->ordered->K, k2a_locality_vertex(G, src), msg);
  if (info == GrB_SUCCESS) info = k2a_locality_map(dist, G, false, false, fn, msg);
  return info;
}
