// k2_pagerank.c: K2_pagerank*_grb / K2_pagerank*_k2 (LAGraph, GAP, LDBC) from one template, k2_pagerank.inc,
// and K2_pagerank*_graph, which run them with a graph's cached out-degrees.
// SPDX-License-Identifier: Apache-2.0
#define K2A_TEMPLATE "k2_pagerank.inc"
#include "k2_alg_instantiate.h"

// The entry points on a graph: its storage picks the instance, its cached out-degrees are read;
// call_k2 runs on GK, G's locality order where it keeps one and the run stays on the host
// (k2a_locality_use; the ranks then mapped back), else G.
// G is checked first; the outputs are NULL on every error, as in the bodies.
#define K2A_ON_GRAPH(fn, out, call_k2, call_grb)                      \
  do {                                                                \
    GrB_Info info_ = k2a_graph_check(G, fn, msg);                     \
    if (info_ != GrB_SUCCESS) {                                       \
      if ((out) != NULL) *(out) = NULL;                               \
      return info_;                                                   \
    }                                                                 \
    if (G->K == NULL) return (call_grb);                              \
    bool ordered_ = false;                                            \
    info_ = k2a_locality_use(&ordered_, G, K2A_WHOLE_SERVED, fn, msg); \
    if (info_ != GrB_SUCCESS) {                                       \
      if ((out) != NULL) *(out) = NULL;                               \
      return info_;                                                   \
    }                                                                 \
    K2_Graph GK = ordered_ && G->ordered != NULL ? G->ordered : G;    \
    info_ = (call_k2);                                                \
    if (info_ == GrB_SUCCESS && GK != G && (out) != NULL) {           \
      info_ = k2a_locality_map(out, G, false, false, fn, msg); \
    }                                                                 \
    return info_;                                                     \
  } while (0)

GrB_Info K2_pagerank_graph(GrB_Vector *rank, int *iters, K2_Graph G, float damping, float tol, int itermax,
                           char *msg) {
  K2A_ON_GRAPH("K2_pagerank_graph", rank,
               k2a_pagerank_k2("K2_pagerank_graph", rank, iters, GK->K, GK, damping, tol, itermax, false, msg),
               k2a_pagerank_grb("K2_pagerank_graph", rank, iters, G->A, G, damping, tol, itermax, false, msg));
}

GrB_Info K2_pagerank_gap_graph(GrB_Vector *rank, int *iters, K2_Graph G, float damping, float tol, int itermax,
                               char *msg) {
  K2A_ON_GRAPH("K2_pagerank_gap_graph", rank,
               k2a_pagerank_k2("K2_pagerank_gap_graph", rank, iters, GK->K, GK, damping, tol, itermax, true, msg),
               k2a_pagerank_grb("K2_pagerank_gap_graph", rank, iters, G->A, G, damping, tol, itermax, true, msg));
}

GrB_Info K2_pagerank_ldbc_graph(GrB_Vector *rank, K2_Graph G, double damping, int iterations, char *msg) {
  K2A_ON_GRAPH("K2_pagerank_ldbc_graph", rank,
               k2a_pagerank_ldbc_k2("K2_pagerank_ldbc_graph", rank, GK->K, GK, damping, iterations, msg),
               k2a_pagerank_ldbc_grb("K2_pagerank_ldbc_graph", rank, G->A, G, damping, iterations, msg));
}
