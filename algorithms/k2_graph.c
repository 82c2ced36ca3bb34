// k2_graph.c: K2_Graph, a matrix of either storage with its degrees computed once (as
// LAGraph_Graph with LAGraph_Cached_OutDegree / InDegree); the degrees from k2_graph.inc.
// SPDX-License-Identifier: Apache-2.0
#define K2A_TEMPLATE "k2_graph.inc"
#include "k2_alg_instantiate.h"

// The checks of K2_Graph_new before it takes *A over: its size (a broken matrix fails here) and
// shape.
#define K2A_FREE_ALL \
  do {               \
  } while (0)
#define K2A_FN "K2_Graph_new"

#define K2A_GRAPH_NEW(G, A, kind, msg)                                                          \
  do {                                                                                          \
    const char *k2a_step = NULL;                                                                \
    k2a_clear(msg);                                                                             \
    if ((G) == NULL) K2A_FAIL(GrB_NULL_POINTER, "G is NULL");                                   \
    *(G) = NULL;                                                                                \
    if ((A) == NULL || *(A) == NULL) K2A_FAIL(GrB_NULL_POINTER, "A is NULL");                   \
    if ((kind) != K2_ADJACENCY_UNDIRECTED && (kind) != K2_ADJACENCY_DIRECTED) {                 \
      K2A_FAIL(GrB_INVALID_VALUE, "unknown kind %d (K2_ADJACENCY_UNDIRECTED or _DIRECTED)",     \
               (int)(kind));                                                                    \
    }                                                                                           \
    GrB_Index n_, ncols_;                                                                       \
    K2A_STEP("reading the size of A");                                                          \
    K2A_TRY(GrB_Matrix_nrows(&n_, *(A)));                                                       \
    K2A_TRY(GrB_Matrix_ncols(&ncols_, *(A)));                                                   \
    if (n_ != ncols_) {                                                                         \
      K2A_FAIL(GrB_DIMENSION_MISMATCH, "A is not square (%llu x %llu)", (unsigned long long)n_, \
               (unsigned long long)ncols_);                                                     \
    }                                                                                           \
    *(G) = calloc(1, sizeof(struct K2_Graph_struct));                                           \
    if (*(G) == NULL) K2A_FAIL(GrB_OUT_OF_MEMORY, "out of memory for the graph");               \
    (*(G))->kind = (kind);                                                                      \
  } while (0)

GrB_Info K2_Graph_new_k2(K2_Graph *G, K2_Matrix *A, K2_GraphKind kind, char *msg) {
  K2A_GRAPH_NEW(G, A, kind, msg);
  (*G)->K = *A;
  *A = NULL;
  return GrB_SUCCESS;
}

GrB_Info K2_Graph_new_grb(K2_Graph *G, GrB_Matrix *A, K2_GraphKind kind, char *msg) {
  K2A_GRAPH_NEW(G, A, kind, msg);
  (*G)->A = *A;
  *A = NULL;
  return GrB_SUCCESS;
}

#undef K2A_FN
#undef K2A_GRAPH_NEW

GrB_Info K2_Graph_deleteCached(K2_Graph G, char *msg) {
  GrB_Info info = k2a_graph_check(G, "K2_Graph_deleteCached", msg);
  if (info != GrB_SUCCESS) return info;
  k2a_clear(msg);
  if (G->in_degree != G->out_degree) GrB_free(&G->in_degree);  // undirected: one vector
  G->in_degree = NULL;
  GrB_free(&G->out_degree);
  // the locality order (k2_locality.c): its copy and maps
  K2_Graph_free(&G->ordered, NULL);
  free(G->order);
  free(G->order_inverse);
  G->order = G->order_inverse = NULL;
  G->order_checked = false;
  return GrB_SUCCESS;
}

GrB_Info K2_Graph_free(K2_Graph *G, char *msg) {
  k2a_clear(msg);
  if (G == NULL || *G == NULL) return GrB_SUCCESS;
  (void)K2_Graph_deleteCached(*G, NULL);
  K2_Matrix_free(&(*G)->K);
  GrB_free(&(*G)->A);
  free(*G);
  *G = NULL;
  return GrB_SUCCESS;
}

// Compute one cached degree vector (in: in-degrees) unless it is there.
static GrB_Info k2a_cached_degree(K2_Graph G, bool in, char *msg) {
  const char *fn = in ? "K2_Graph_cachedInDegree" : "K2_Graph_cachedOutDegree";
  GrB_Info info = k2a_graph_check(G, fn, msg);
  if (info != GrB_SUCCESS) return info;
  k2a_clear(msg);
  if (in && G->kind == K2_ADJACENCY_UNDIRECTED) {  // A = A': the out-degrees serve
    info = k2a_cached_degree(G, false, msg);
    if (info == GrB_SUCCESS) G->in_degree = G->out_degree;
    return info;
  }
  GrB_Vector *slot = in ? &G->in_degree : &G->out_degree;
  if (*slot != NULL) return GrB_SUCCESS;
  GrB_Index n = 0;
  K2_error_clear();
  info = G->K != NULL ? K2_Matrix_nrows(&n, G->K) : GrB_Matrix_nrows(&n, G->A);
  if (info == GrB_SUCCESS) {
    info = G->K != NULL ? k2a_degree_k2(slot, G->K, n, in) : k2a_degree_grb(slot, G->A, n, in);
  }
  if (info != GrB_SUCCESS) {
    return k2a_fail(msg, info, fn, in ? "computing the in-degrees" : "computing the out-degrees",
                   in ? "GrB_vxm (PLUS_PAIR_INT64)" : "GrB_mxv (PLUS_PAIR_INT64)");
  }
  return GrB_SUCCESS;
}

GrB_Info K2_Graph_cachedOutDegree(K2_Graph G, char *msg) { return k2a_cached_degree(G, false, msg); }

GrB_Info K2_Graph_cachedInDegree(K2_Graph G, char *msg) { return k2a_cached_degree(G, true, msg); }
