// k2_bfs.c: K2_bfs_grb / K2_bfs_k2 (and the _mode variants) from one template, k2_bfs.inc.
// SPDX-License-Identifier: Apache-2.0
#define K2A_TEMPLATE "k2_bfs.inc"
#include "k2_alg_instantiate.h"

// On a graph: its storage picks the instance, the push/pull switch reads its cached out-degrees.
GrB_Info K2_bfs_mode_graph(GrB_Vector *level, GrB_Vector *parent, K2_Graph G, GrB_Index src, K2_BfsMode mode,
                           char *msg) {
  GrB_Info info = k2a_graph_check(G, "K2_bfs_graph", msg);
  if (info != GrB_SUCCESS) {
    if (level != NULL) *level = NULL;
    if (parent != NULL) *parent = NULL;
    return info;
  }
  if (G->K != NULL && G->ordered != NULL) {  // on the renumbered copy, the results mapped back
    GrB_Index n = 0;
    (void)K2_Matrix_nrows(&n, G->K);  // (a source out of range is the body's error to report)
    if (mode == K2_BFS_AUTO && src < n && (level != NULL || parent != NULL)) {
      // a small reach first, on G's own tree: its results need no mapping, and the row queries
      // of a search that stays small took up to 10x longer on some renumbered trees (as-caida)
      bool done = false;
      if (level != NULL) *level = NULL;
      if (parent != NULL) *parent = NULL;
      info = k2_bfs_small(&done, level, parent, G->K, n, src, n > INT32_MAX ? GrB_INT64 : GrB_INT32, msg);
      if (info != GrB_SUCCESS || done) return info;
    }
    info = k2a_bfs_k2("K2_bfs_graph", level, parent, G->ordered->K, G->ordered, src < n ? G->order[src] : src,
                      mode, msg);
    if (info == GrB_SUCCESS && level != NULL) {
      info = k2a_locality_unmap(level, G, false, "K2_bfs_graph", msg);
    }
    if (info == GrB_SUCCESS && parent != NULL) {
      info = k2a_locality_unmap(parent, G, true, "K2_bfs_graph", msg);
    }
    if (info != GrB_SUCCESS) {
      if (level != NULL) GrB_free(level);
      if (parent != NULL) GrB_free(parent);
    }
    return info;
  }
  return G->K != NULL ? k2a_bfs_k2("K2_bfs_graph", level, parent, G->K, G, src, mode, msg)
                      : k2a_bfs_grb("K2_bfs_graph", level, parent, G->A, G, src, mode, msg);
}

GrB_Info K2_bfs_graph(GrB_Vector *level, GrB_Vector *parent, K2_Graph G, GrB_Index src, char *msg) {
  return K2_bfs_mode_graph(level, parent, G, src, K2_BFS_AUTO, msg);
}
