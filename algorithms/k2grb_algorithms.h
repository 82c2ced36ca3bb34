// k2grb_algorithms.h: graph algorithms on a GrB_Matrix or a K2_Matrix alike.
// SPDX-License-Identifier: Apache-2.0
//
// LAGraph-style functions: each returns a GrB_Info and, on error, writes a one-line message
// into msg (K2_MSG_LEN bytes; msg may be NULL). Each body is written once against GraphBLAS
// names and the overlay (k2grb/overlay.h) and compiled twice: the _grb entry point takes a
// GrB_Matrix (SuiteSparse does every product), the _k2 entry point a K2_Matrix (the products
// run on the tree, natively where the bridge can). BFS and PageRank also take a K2_Graph (the
// _graph entry points: a matrix of either storage and its cached degrees, as LAGraph_Graph).
// The unsuffixed names dispatch on the type of the matrix or graph (C11 _Generic).
//
// The adjacency matrix A is square; A(i,j) present means an edge i -> j. Values are ignored
// (the pattern is the graph). Outputs are new objects owned by the caller; on error they are
// left NULL. docs/algorithms.md describes each algorithm and how it was checked.
#ifndef K2GRB_ALGORITHMS_H
#define K2GRB_ALGORITHMS_H

#include <k2grb.h>

#define K2_MSG_LEN 256

// LAGraph's LAGRAPH_CONVERGENCE_FAILURE: PageRank did not reach the tolerance in itermax
// iterations (no output is returned, as in LAGraph).
#define K2_CONVERGENCE_FAILURE ((GrB_Info)(-1005))

// Most sources of one multi-source BFS.
#define K2_MSBFS_MAX 256

// How the BFS expands each level.
typedef enum {
  K2_BFS_AUTO = 0,  // direction-optimizing: push, pull and back as LAGraph's SSGrB BFS decides
  K2_BFS_PUSH,      // always push: q' = q' A (vxm) on the sparse frontier
  K2_BFS_PULL       // always pull: q = A' q (mxv, GrB_INP0 transposed) under the visited mask
} K2_BfsMode;

//==============================================================================================
// graph objects: the adjacency matrix and properties computed once (LAGraph_Graph)
//==============================================================================================

// LAGraph_Kind, with LAGraph's values.
typedef enum {
  K2_ADJACENCY_UNDIRECTED = 0,  // A is symmetric (the caller says so: it is not checked)
  K2_ADJACENCY_DIRECTED = 1
} K2_GraphKind;

// A graph owns its adjacency matrix, in one storage: a k²-tree (K) or a SuiteSparse matrix (A),
// and keeps what algorithms derive from it, computed on first use. Like LAGraph_Graph its
// fields are there to read; only the K2_Graph_ calls set them. Change the matrix through G->K or
// G->A only with a K2_Graph_deleteCached after it: the cached properties do not follow it.
// A graph is not safe to use from several threads until its properties are cached (the first
// use computes them): call K2_Graph_cachedOutDegree / InDegree first.
struct K2_Graph_struct {
  K2_Matrix K;            // the adjacency as a k²-tree, or NULL
  GrB_Matrix A;           // the adjacency in SuiteSparse, or NULL (exactly one of K, A is set)
  K2_GraphKind kind;
  GrB_Vector out_degree;  // INT64, no entry for a vertex without out-edges; NULL until cached
  GrB_Vector in_degree;   // the same for in-edges; undirected: the same object as out_degree
  // A locality order (K2_Graph_cachedLocalityOrder): a copy of the tree with its vertices
  // renumbered so that edges cluster, with its own cached degrees, where it pays (else NULL);
  // the algorithms on G run on it and map their results back. The maps are kept either way
  // (WCC starts its labels from them on G's tree when there is no copy); NULL until computed.
  struct K2_Graph_struct *ordered;
  uint32_t *order;          // order[i]: vertex i's number in the order (n entries), or NULL
  uint32_t *order_inverse;  // order_inverse[j]: the vertex numbered j in the order, or NULL
  bool order_checked;       // the order was computed (or cannot be: 2^32 vertices or edges)
};
typedef struct K2_Graph_struct *K2_Graph;

// A new graph that takes the matrix over, as LAGraph_New: *A is set to NULL and belongs to *G
// (K2_Graph_free frees it). A must be square. On an error *G is NULL and *A is left as it was.
// Errors: GrB_NULL_POINTER (G, A or *A NULL), GrB_INVALID_VALUE (kind), GrB_DIMENSION_MISMATCH
// (A not square), GrB_OUT_OF_MEMORY; what *A's size query returns for a broken matrix.
// K2_Graph_new picks the storage from A's type.
GrB_Info K2_Graph_new_k2(K2_Graph *G, K2_Matrix *A, K2_GraphKind kind, char *msg);
GrB_Info K2_Graph_new_grb(K2_Graph *G, GrB_Matrix *A, K2_GraphKind kind, char *msg);
#define K2_Graph_new(G, A, kind, msg) \
  _Generic((A), K2_Matrix *: K2_Graph_new_k2, default: K2_Graph_new_grb)(G, A, kind, msg)
// Free the graph, its matrix and its cached properties; *G = NULL. G or *G NULL: nothing to do.
GrB_Info K2_Graph_free(K2_Graph *G, char *msg);
// Compute G->out_degree (G->in_degree) unless it is there already: a second call returns at
// once and keeps the same object. Undirected: in_degree is out_degree (one vector).
GrB_Info K2_Graph_cachedOutDegree(K2_Graph G, char *msg);
GrB_Info K2_Graph_cachedInDegree(K2_Graph G, char *msg);
// Drop the cached properties (after the matrix changed); the next use computes them again.
GrB_Info K2_Graph_deleteCached(K2_Graph G, char *msg);
// Renumber the vertices of a tree graph in a locality order and keep the renumbered copy
// (G->ordered, G->order, G->order_inverse) where its tree takes at most 3/4 of G->K's bytes;
// BFS, msBFS, PageRank, SSSP hops and WCC on G then run on the copy and map the sources in and
// the results back (BFS: its products; the row queries of its first small levels stay on G->K).
// Graphs whose numbering scatters their edges over the matrix (collaboration and citation
// networks, peer-to-peer and AS graphs: 3-7 tree nodes per edge) hold a tree of a fraction of
// the size in this order, and every product walks that many fewer nodes; crawls and meshes
// numbered with locality already gain little and keep none. The order is Cuthill-McKee's on
// the graph without directions: a breadth-first search from a vertex of least degree in each
// component, the new neighbours of each vertex numbered by ascending degree. It costs a pass
// over the edges, a sort of each vertex's new neighbours and a tree build (O(nvals log nvals)),
// and then 8 bytes per vertex for the two maps, kept whether or not the copy is, and the copy
// where it is: K2_Graph_deleteCached drops them. Without the copy WCC on G still gains: its
// labels start as the vertices' ranks in the order (a breadth-first order of each component),
// along which min-label propagation needs fewer rounds. A second call returns at once. Nothing to do for a graph in SuiteSparse storage
// or one of 2^32 vertices or edges or more (order_checked is set and nothing kept). With the
// order, BFS levels are the same and parents form a valid BFS tree (not always the same one),
// PageRank sums in another order (equal within rounding), SSSP distances and WCC labels (G's
// smallest id per component) are the same. Errors: GrB_NULL_POINTER (G NULL),
// GrB_OUT_OF_MEMORY; on an error G is left as it was.
GrB_Info K2_Graph_cachedLocalityOrder(K2_Graph G, char *msg);

// The algorithms on a graph (the _graph entry points below): the same bodies as on a matrix,
// with G's cached out-degrees (computed on first use and kept) instead of new ones each call,
// so repeated calls (benchmark trials, PageRank with other parameters) compute them once.
// Results are those of the matrix entry points on G's matrix, bit for bit (with a locality
// order kept, as K2_Graph_cachedLocalityOrder says). Errors: those of
// the matrix entry points, and GrB_NULL_POINTER for G NULL (outputs NULL).

//==============================================================================================
// breadth-first search from one source (LAGr_BreadthFirstSearch semantics)
//==============================================================================================

// level(i): hops from src to i (level(src) = 0); parent(i): i's parent in a BFS tree
// (parent(src) = src). Unreached vertices have no entry. Either output may be NULL (not
// computed), not both. Type INT32 (INT64 when n > INT32_MAX). Errors: GrB_NULL_POINTER,
// GrB_INVALID_INDEX (src >= n), GrB_DIMENSION_MISMATCH (A not square).
GrB_Info K2_bfs_grb(GrB_Vector *level, GrB_Vector *parent, GrB_Matrix A, GrB_Index src, char *msg);
GrB_Info K2_bfs_k2(GrB_Vector *level, GrB_Vector *parent, K2_Matrix A, GrB_Index src, char *msg);
// The same with the expansion direction fixed (for tests and measurements).
GrB_Info K2_bfs_mode_grb(GrB_Vector *level, GrB_Vector *parent, GrB_Matrix A, GrB_Index src,
                         K2_BfsMode mode, char *msg);
GrB_Info K2_bfs_mode_k2(GrB_Vector *level, GrB_Vector *parent, K2_Matrix A, GrB_Index src,
                        K2_BfsMode mode, char *msg);
// On a graph: the push/pull switch reads G's cached out-degrees.
GrB_Info K2_bfs_graph(GrB_Vector *level, GrB_Vector *parent, K2_Graph G, GrB_Index src, char *msg);
GrB_Info K2_bfs_mode_graph(GrB_Vector *level, GrB_Vector *parent, K2_Graph G, GrB_Index src,
                           K2_BfsMode mode, char *msg);

//==============================================================================================
// multi-source BFS: hop distances from up to K2_MSBFS_MAX sources at once
//==============================================================================================

// dist(i, b): hops from sources[b] to i along the edges (reverse = false) or against them
// (reverse = true: hops from i to sources[b]); no entry when unreachable. dist is a new
// n x nsources INT32 matrix. Each level is one batched Boolean product of A (or A') with a
// full n x nsources frontier. Errors: GrB_NULL_POINTER, GrB_INVALID_VALUE (nsources 0 or
// above K2_MSBFS_MAX), GrB_INVALID_INDEX (a source >= n), GrB_DIMENSION_MISMATCH.
GrB_Info K2_msbfs_grb(GrB_Matrix *dist, GrB_Matrix A, const GrB_Index *sources, GrB_Index nsources,
                      bool reverse, char *msg);
GrB_Info K2_msbfs_k2(GrB_Matrix *dist, K2_Matrix A, const GrB_Index *sources, GrB_Index nsources,
                     bool reverse, char *msg);
// On a graph: on its locality order where it keeps one (sources and rows mapped).
GrB_Info K2_msbfs_graph(GrB_Matrix *dist, K2_Graph G, const GrB_Index *sources, GrB_Index nsources,
                        bool reverse, char *msg);

//==============================================================================================
// PageRank
//==============================================================================================

// LAGr_PageRank: FP32, r = 1/n, each iteration r = (1-damping)/n + damping/n * (rank held by
// sinks) + damping * A' (r ./ outdegree); stops when sum |r_new - r| <= tol. *iters = the
// iterations run. K2_CONVERGENCE_FAILURE after itermax iterations without convergence.
// LAGraph's test values: damping 0.85, tol 1e-4, itermax 100.
GrB_Info K2_pagerank_grb(GrB_Vector *rank, int *iters, GrB_Matrix A, float damping, float tol,
                         int itermax, char *msg);
GrB_Info K2_pagerank_k2(GrB_Vector *rank, int *iters, K2_Matrix A, float damping, float tol,
                        int itermax, char *msg);
// LAGr_PageRankGAP: the same without the sink term (the GAP benchmark's model: rank held by
// sinks leaks away); stops at tol or after itermax iterations (no convergence error).
GrB_Info K2_pagerank_gap_grb(GrB_Vector *rank, int *iters, GrB_Matrix A, float damping, float tol,
                             int itermax, char *msg);
GrB_Info K2_pagerank_gap_k2(GrB_Vector *rank, int *iters, K2_Matrix A, float damping, float tol,
                            int itermax, char *msg);
// LDBC Graphalytics PageRank: FP64, exactly `iterations` iterations, rank of dangling vertices
// spread over all vertices: r = (1-d)/n + d * A' (r ./ outdegree) + d/n * sum(r(sinks)).
GrB_Info K2_pagerank_ldbc_grb(GrB_Vector *rank, GrB_Matrix A, double damping, int iterations,
                              char *msg);
GrB_Info K2_pagerank_ldbc_k2(GrB_Vector *rank, K2_Matrix A, double damping, int iterations,
                             char *msg);
// The three models on a graph, with G's cached out-degrees.
GrB_Info K2_pagerank_graph(GrB_Vector *rank, int *iters, K2_Graph G, float damping, float tol,
                           int itermax, char *msg);
GrB_Info K2_pagerank_gap_graph(GrB_Vector *rank, int *iters, K2_Graph G, float damping, float tol,
                               int itermax, char *msg);
GrB_Info K2_pagerank_ldbc_graph(GrB_Vector *rank, K2_Graph G, double damping, int iterations,
                                char *msg);

//==============================================================================================
// hop-count single-source shortest paths and weakly connected components
//==============================================================================================

// dist(i): fewest edges on a path src -> i (INT64; no entry when unreachable), by Bellman-Ford
// with unit weights: min-plus products of the improved vertices only, until none improves.
GrB_Info K2_sssp_hops_grb(GrB_Vector *dist, GrB_Matrix A, GrB_Index src, char *msg);
GrB_Info K2_sssp_hops_k2(GrB_Vector *dist, K2_Matrix A, GrB_Index src, char *msg);
// On a graph: on its locality order where it keeps one (the source and distances mapped).
GrB_Info K2_sssp_hops_graph(GrB_Vector *dist, K2_Graph G, GrB_Index src, char *msg);

// component(i): the smallest vertex id of i's weakly connected component (INT64, every vertex
// has an entry). Min-label propagation over both edge directions (one mxv and one vxm on the
// same matrix per round, no symmetrized copy) with pointer jumping; *rounds (may be NULL)
// counts the rounds.
GrB_Info K2_wcc_grb(GrB_Vector *component, int *rounds, GrB_Matrix A, char *msg);
GrB_Info K2_wcc_k2(GrB_Vector *component, int *rounds, K2_Matrix A, char *msg);
// On a graph: on its locality order where it keeps one; the labels are G's smallest ids, as
// on its matrix (the rounds may differ).
GrB_Info K2_wcc_graph(GrB_Vector *component, int *rounds, K2_Graph G, char *msg);

//==============================================================================================
// dispatch on the matrix type
//==============================================================================================

#define K2_ALG_PICK(A, name) _Generic((A), K2_Matrix: name##_k2, default: name##_grb)
// the algorithms that also take a K2_Graph
#define K2_ALG_PICK_G(A, name) \
  _Generic((A), K2_Graph: name##_graph, K2_Matrix: name##_k2, default: name##_grb)
#define K2_bfs(level, parent, A, src, msg) K2_ALG_PICK_G(A, K2_bfs)(level, parent, A, src, msg)
#define K2_bfs_mode(level, parent, A, src, mode, msg) \
  K2_ALG_PICK_G(A, K2_bfs_mode)(level, parent, A, src, mode, msg)
#define K2_msbfs(dist, A, sources, ns, reverse, msg) \
  K2_ALG_PICK_G(A, K2_msbfs)(dist, A, sources, ns, reverse, msg)
#define K2_pagerank(rank, iters, A, damping, tol, itermax, msg) \
  K2_ALG_PICK_G(A, K2_pagerank)(rank, iters, A, damping, tol, itermax, msg)
#define K2_pagerank_gap(rank, iters, A, damping, tol, itermax, msg) \
  K2_ALG_PICK_G(A, K2_pagerank_gap)(rank, iters, A, damping, tol, itermax, msg)
#define K2_pagerank_ldbc(rank, A, damping, iterations, msg) \
  K2_ALG_PICK_G(A, K2_pagerank_ldbc)(rank, A, damping, iterations, msg)
#define K2_sssp_hops(dist, A, src, msg) K2_ALG_PICK_G(A, K2_sssp_hops)(dist, A, src, msg)
#define K2_wcc(component, rounds, A, msg) K2_ALG_PICK_G(A, K2_wcc)(component, rounds, A, msg)

#endif
