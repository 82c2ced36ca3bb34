// k2_msbfs.c: K2_msbfs_grb / K2_msbfs_k2 from one template, k2_msbfs.inc, and K2_msbfs_graph,
// which runs on a graph's locality order where it keeps one.
// SPDX-License-Identifier: Apache-2.0
#define K2A_TEMPLATE "k2_msbfs.inc"
#include "k2_alg_instantiate.h"

GrB_Info K2_msbfs_graph(GrB_Matrix *dist, K2_Graph G, const GrB_Index *sources, GrB_Index nsources, bool reverse,
                        char *msg) {
  const char *fn = "K2_msbfs_graph";
  GrB_Info info = k2a_graph_check(G, fn, msg);
  if (info != GrB_SUCCESS) {
    if (dist != NULL) *dist = NULL;
    return info;
  }
  if (G->K == NULL) return k2a_msbfs_grb(fn, dist, G->A, sources, nsources, reverse, msg);
  bool ordered = false;
  if ((info = k2a_locality_use(&ordered, G, K2A_WHOLE_DEVICE, fn, msg)) != GrB_SUCCESS) {
    if (dist != NULL) *dist = NULL;
    return info;
  }
  if (!ordered || G->ordered == NULL) return k2a_msbfs_k2(fn, dist, G->K, sources, nsources, reverse, msg);
  // the sources mapped in (a NULL list or a count out of range is the body's error to report)
  const bool map_in = sources != NULL && nsources > 0 && nsources <= K2_MSBFS_MAX;
  GrB_Index mapped[K2_MSBFS_MAX];
  for (GrB_Index b = 0; map_in && b < nsources; b++) mapped[b] = k2a_locality_vertex(G, sources[b]);
  GrB_Matrix D = NULL;
  info = k2a_msbfs_k2(fn, &D, G->ordered->K, map_in ? mapped : sources, nsources, reverse, msg);
  if (info != GrB_SUCCESS) {
    if (dist != NULL) *dist = NULL;
    return info;
  }
  // row i of the result is row order[i] of the copy's
  GrB_Index n = 0;
  GrB_Type type = NULL;
  info = GrB_Matrix_nrows(&n, D);
  GrB_Index *rows = info == GrB_SUCCESS ? malloc((n + 1) * sizeof *rows) : NULL;
  if (info == GrB_SUCCESS && rows == NULL) info = GrB_OUT_OF_MEMORY;
  if (info == GrB_SUCCESS) info = GxB_Matrix_type(&type, D);
  for (GrB_Index i = 0; info == GrB_SUCCESS && i < n; i++) rows[i] = G->order[i];
  if (info == GrB_SUCCESS) info = GrB_Matrix_new(dist, type, n, nsources);
  if (info == GrB_SUCCESS) info = GrB_Matrix_extract(*dist, NULL, NULL, D, rows, n, GrB_ALL, nsources, NULL);
  free(rows);
  GrB_free(&D);
  if (info != GrB_SUCCESS) {
    GrB_free(dist);
    return k2a_fail(msg, info, fn, "mapping the distances back from the locality order", "GrB_Matrix_extract");
  }
  return GrB_SUCCESS;
}
