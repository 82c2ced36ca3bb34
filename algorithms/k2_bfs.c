// k2_bfs.c: K2_bfs_grb / K2_bfs_k2 (and the _mode variants) from one template, k2_bfs.inc.
// SPDX-License-Identifier: Apache-2.0
#define K2A_TEMPLATE "k2_bfs.inc"
#include "k2_alg_instantiate.h"

// On a graph: its storage picks the instance, the push/pull switch reads its cached out-degrees,
// and its products run on its locality order where it keeps one (k2_bfs.inc).
GrB_Info K2_bfs_mode_graph(GrB_Vector *level, GrB_Vector *parent, K2_Graph G, GrB_Index src, K2_BfsMode mode,
                           char *msg) {
  GrB_Info info = k2a_graph_check(G, "K2_bfs_graph", msg);
  if (info != GrB_SUCCESS) {
    if (level != NULL) *level = NULL;
    if (parent != NULL) *parent = NULL;
    return info;
  }
  return G->K != NULL ? k2a_bfs_k2("K2_bfs_graph", level, parent, G->K, G, src, mode, msg)
                      : k2a_bfs_grb("K2_bfs_graph", level, parent, G->A, G, src, mode, msg);
}

GrB_Info K2_bfs_graph(GrB_Vector *level, GrB_Vector *parent, K2_Graph G, GrB_Index src, char *msg) {
  return K2_bfs_mode_graph(level, parent, G, src, K2_BFS_AUTO, msg);
}
