// k2_alg_internal.h: what the algorithm templates share (messages, error propagation, checks).
// SPDX-License-Identifier: Apache-2.0
//
// Each algorithm is a template k2_<name>.inc, included twice by k2_<name>.c: once with
// K2A_GRAPH = GrB_Matrix and K2A_NAME(x) = x##_grb, once with K2_Matrix and x##_k2. The
// template uses GraphBLAS names only; the overlay routes the matrix calls.
#ifndef K2_ALG_INTERNAL_H
#define K2_ALG_INTERNAL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <k2grb.h>
#include <k2grb/overlay.h>

#include "k2grb_algorithms.h"

// Write the message of a failure into msg (may be NULL); returns info. `what` says in words
// what failed: a check of the arguments (call == NULL: "fn: what"), or the step of the
// algorithm a library call belongs to ("fn: step: library message", or "fn: step failed" when
// the library left none). The code is not written: the caller gets it returned. With the burble
// on (K2GRB_BURBLE=1) the C call that failed is printed on stderr, for developers.
static inline GrB_Info k2a_fail(char *msg, GrB_Info info, const char *fn, const char *what,
                                const char *call) {
  const char *lib = call != NULL ? K2_error_string() : "";
  if (msg != NULL) {
    if (lib[0] != '\0') {
      snprintf(msg, K2_MSG_LEN, "%s: %s: %s", fn, what, lib);
    } else {
      snprintf(msg, K2_MSG_LEN, "%s: %s%s", fn, what, call != NULL ? " failed" : "");
    }
  }
  bool burble = false;
  if (call != NULL && K2_get_burble(&burble) == GrB_SUCCESS && burble) {
    fprintf(stderr, "k2grb: %s: %s: %s returned %s\n", fn, what, call, K2_info_name(info));
  }
  return info;
}


static inline void k2a_clear(char *msg) {
  if (msg != NULL) msg[0] = '\0';
}

// The step of the algorithm that the following K2A_TRYs belong to, in words ("computing the
// out-degrees"); each function declares `const char *k2a_step` and sets it before its first
// K2A_TRY.
#define K2A_STEP(words) (k2a_step = (words))

// Run a library call (GraphBLAS, or k2grb through the overlay); on an error (negative
// GrB_Info) record it under the current step, free the work (the template's K2A_FREE_ALL) and
// return. GrB_NO_VALUE is not an error. The library's message is cleared first: GraphBLAS
// calls leave it alone, so an older one would otherwise be reported as this failure's.
#define K2A_TRY(call)                                          \
  do {                                                         \
    K2_error_clear();                                          \
    GrB_Info k2a_info_ = (call);                               \
    if (k2a_info_ < GrB_SUCCESS) {                             \
      k2a_fail(msg, k2a_info_, K2A_FN, k2a_step, #call);       \
      K2A_FREE_ALL;                                            \
      return k2a_info_;                                        \
    }                                                          \
  } while (0)

// As K2A_TRY for a call already made (its code in `info`; `call` its name, for the burble): the
// library's message is the call's own, not cleared first. For a device call whose decline
// (GrB_NOT_IMPLEMENTED) the caller handles before.
#define K2A_CHECK(info, call)                                  \
  do {                                                         \
    GrB_Info k2a_info_ = (info);                               \
    if (k2a_info_ < GrB_SUCCESS) {                             \
      k2a_fail(msg, k2a_info_, K2A_FN, k2a_step, call);        \
      K2A_FREE_ALL;                                            \
      return k2a_info_;                                        \
    }                                                          \
  } while (0)

// Fail with a code and a message in words (printf-style; a check of the arguments), after
// freeing the work.
#define K2A_FAIL(code, ...)                                    \
  do {                                                         \
    char k2a_what_[192];                                       \
    snprintf(k2a_what_, sizeof k2a_what_, __VA_ARGS__);        \
    k2a_fail(msg, (code), K2A_FN, k2a_what_, NULL);            \
    K2A_FREE_ALL;                                              \
    return (code);                                             \
  } while (0)

// Degrees of A as INT64 with no entry for a vertex without edges (LAGraph's): out-degrees (the
// row counts, A 1) or in-degrees (the column counts, 1' A: a left product of the same tree).
// k2_graph.inc, compiled for both storages; internal to the library.
#define K2A_INTERNAL __attribute__((visibility("hidden")))
K2A_INTERNAL GrB_Info k2a_degree_grb(GrB_Vector *degree, GrB_Matrix A, GrB_Index n, bool in);
K2A_INTERNAL GrB_Info k2a_degree_k2(GrB_Vector *degree, K2_Matrix A, GrB_Index n, bool in);

// A graph's locality order (k2_locality.c): move a vector between G's numbering and
// G->ordered's (to_ordered: into the order; else back): its indices, and its values too where
// they are vertices (BFS parents). On an error *v is freed (NULL).
K2A_INTERNAL GrB_Info k2a_locality_map(GrB_Vector *v, K2_Graph G, bool vertex_values, bool to_ordered,
                                       const char *fn, char *msg);
// Vertex v of G in G->ordered's numbering; one out of range as it is (the algorithm body
// reports it, in G's terms).
static inline GrB_Index k2a_locality_vertex(K2_Graph G, GrB_Index v) {
  GrB_Index n = 0;
  (void)K2_Matrix_nrows(&n, G->K);
  return v < n ? G->order[v] : v;
}

// BFS with its vectors on the GPU (k2_bfs_device.c), for a K2_Matrix the device serves; the
// arguments checked by the caller; G (or NULL) lends its cached out-degrees. GrB_NOT_IMPLEMENTED
// when the device cannot take it.
// Whether a whole run goes to the GPU. It needs a device that serves A's products
// (K2_Matrix_deviceServes: their full products would go there one by one anyway), but for
// K2A_WHOLE_DEVICE and K2A_WHOLE_DEVICE_WCC; then, by policy:
// - K2A_WHOLE_DEVICE (msBFS): in AUTO, any device, whether or not it serves A's single
//   products. Its levels are one device call in all, where the host pays each level's batched
//   product, its frontier and distances: on the H200 with its 16 host cores, over the 39 real
//   graphs, msBFS with 16 sources whole on the device took 0.10x the host's time on the long,
//   thin olm1000 and jagmesh7 (8.2 against 83 ms, 1.2 against 13 ms) and 0.17-0.73x on the
//   graphs of 100-3,000 edges, against 1.1-1.25x (0.05-0.1 ms more) on some graphs of 10^4 to
//   10^5 edges and 1.1-1.6x (at most 0.06 ms) on the three of under 30 edges, which stay on
//   the host (K2A_MSBFS_DEVICE_MIN_EDGES).
// - K2A_WHOLE_SERVED (PageRank): nothing more. Every iteration or level is a full
//   product, so the host loop would pay one device call per iteration with its vectors copied
//   both ways; the whole run pays its fixed cost once (on the H200 in AUTO, PageRank on
//   luxembourg_osm took 41-199 ms that way against SuiteSparse's 27 ms, msBFS with 16 sources
//   on cnr-2000 637 ms against 2.8-3.8 ms whole on the device).
// - K2A_WHOLE_BY_SIZE (BFS, SSSP): the CUDA engine was asked for or A has at least
//   K2A_DEVICE_MIN_EDGES edges. A run on the device has a fixed cost (its vectors set up and
//   copied back, a wait per level: about 0.3 ms on the H200) that a small graph's host run,
//   whose products that reach little stay on the host, does not reach: BFS on wiki-Vote (10^5
//   edges) took 0.35-0.9 ms on the device against 0.06-0.4 ms with the products routed one by
//   one, while on cit-HepTh (3.5 10^5) and larger graphs the device run was faster. (Since the
//   search became one device call, BFS from K2A_BFS_TRY_MIN_EDGES edges tries the device first,
//   for a bounded depth: k2_bfs_device_try.)
// - K2A_WHOLE_DEVICE_WCC (WCC): as K2A_WHOLE_DEVICE, from K2A_WCC_DEVICE_MIN_EDGES edges. On
//   the H200, every real graph (--engine cuda against --engine openmp --threads 16, one
//   binary), WCC whole on the device took 0.03-0.73x the 16 host cores' time on every graph
//   from 7,450 edges (luxembourg_osm 15 against 521 ms, cnr-2000 3.1 against 40 ms, jagmesh7
//   0.50 against 0.69 ms) and 1.5-8x on those of up to 3,996 edges (0.19-0.67 ms, mostly a
//   fixed cost, against 0.03-0.45 ms).
#define K2A_DEVICE_MIN_EDGES 250000
#define K2A_MSBFS_DEVICE_MIN_EDGES 64
#define K2A_WCC_DEVICE_MIN_EDGES 6000
// Whether AUTO sends a run on a graph of nvals edges (at least min_edges) to a device, whether or
// not the device serves the matrix's single products (the CUDA engine asked for: a device
// serves every matrix, or there is none).
static inline GrB_Info k2a_auto_device(bool *yes, GrB_Index nvals, GrB_Index min_edges) {
  *yes = false;
  K2_Engine engine = K2_ENGINE_AUTO;
  GrB_Info info = K2_get_engine(&engine);
  if (info != GrB_SUCCESS || engine != K2_ENGINE_AUTO || nvals < min_edges) return info;
  return K2_Device_available(yes);
}
typedef enum { K2A_WHOLE_DEVICE, K2A_WHOLE_DEVICE_WCC, K2A_WHOLE_SERVED, K2A_WHOLE_BY_SIZE } k2a_whole_policy;
static inline GrB_Info k2a_device_run(bool *yes, K2_Matrix A, k2a_whole_policy policy) {
  *yes = false;
  GrB_Index nvals = 0;
  K2_Engine engine = K2_ENGINE_AUTO;
  GrB_Info info = K2_Matrix_deviceServes(yes, A);
  if (info == GrB_SUCCESS) info = K2_Matrix_nvals(&nvals, A);
  if (info == GrB_SUCCESS) info = K2_get_engine(&engine);
  if (info != GrB_SUCCESS) return info;
  switch (policy) {
    case K2A_WHOLE_DEVICE: return *yes ? GrB_SUCCESS : k2a_auto_device(yes, nvals, K2A_MSBFS_DEVICE_MIN_EDGES);
    case K2A_WHOLE_SERVED: break;
    case K2A_WHOLE_BY_SIZE: *yes = *yes && (engine == K2_ENGINE_CUDA || nvals >= K2A_DEVICE_MIN_EDGES); break;
    case K2A_WHOLE_DEVICE_WCC: return *yes ? GrB_SUCCESS : k2a_auto_device(yes, nvals, K2A_WCC_DEVICE_MIN_EDGES);
  }
  return GrB_SUCCESS;
}

// Whether a run on G takes G's locality order (k2_locality.c): not where, by policy, it would
// go whole on the device from G's own tree. On the H200 the order changed the device's BFS and
// PageRank little (geometric means 0.91 -> 0.85 and 0.36 -> 0.35 of SuiteSparse's time; single
// graphs both ways: BFS on olm1000 14.5 -> 12.2 ms, on pushpull 58.7 -> 64.4 ms), while its
// maps, applied on the host, cost more than that:
// msBFS with 16 sources on the kept copies 1.6-2.9x its time (ca-CondMat 0.86 -> 2.5 ms), and
// WCC's labels by rank (the order without a copy) have no device path at all (cnr-2000 3.1 ->
// 17.8 ms, on the host).
static inline GrB_Info k2a_locality_use(bool *use, K2_Graph G, k2a_whole_policy policy, const char *fn,
                                        char *msg) {
  *use = false;
  if (G->order == NULL) return GrB_SUCCESS;
  bool device = false;
  GrB_Info info = k2a_device_run(&device, G->K, policy);
  if (info != GrB_SUCCESS)
    return k2a_fail(msg, info, fn, "choosing between the graph's tree and its locality order", "K2_Matrix_deviceServes");
  *use = !device;
  return GrB_SUCCESS;
}

// After a whole run on the device: true when its result stands (success, a real error, or a
// decline in strict mode), false when the device declined (msg cleared: the host runs).
static inline bool k2a_device_result_stands(GrB_Info info, char *msg) {
  bool strict = false;
  (void)K2_get_strict(&strict);  // not through K2A_TRY: it would clear the device run's message
  if (info != GrB_NOT_IMPLEMENTED || strict) return true;
  k2a_clear(msg);
  return false;
}

// *B: a copy of A whose last internal level the OpenMP engine keeps decoded
// (K2_Matrix_setDecodedLevel) for a run of many full products on the CPU, or NULL where A's
// products run elsewhere (the CUDA engine, a device that serves A), A keeps its bottom codes (the
// level comes with them), the engine would not decode it (leaves other than plain 2x2, full
// blocks) or A has fewer than K2A_DECODED_COPY_MIN_NODES internal nodes. The copy holds the tree
// again and 8 bytes per node of the last internal level, made again by every run (by one descent
// in its first product). On 2 threads the limit went 2^19 -> 2^17 (eight real graphs 0.5-0.8x
// their time) and, once the OpenMP plans held 128 tasks per thread, 2^17 -> 2^15 -> 2^13 -> 2^10,
// each step faster on 3-8 graphs and slower on none (then with the bottom codes, which cost more
// to make: PageRank 1.66 -> 1.44 of SuiteSparse over the 39; at no limit bucky's 10 us went to 15,
// docs/benchmarks.md).
#define K2A_DECODED_COPY_MIN_NODES (UINT64_C(1) << 10)
K2A_INTERNAL GrB_Info k2a_decoded_copy(K2_Matrix *B, K2_Matrix A);

// PageRank (LAGraph model, or GAP's) with its vectors on the GPU (k2_pagerank_device.c); as
// k2_bfs_device.
K2A_INTERNAL GrB_Info k2_pagerank_device(const char *fn, GrB_Vector *rank, int *iters, K2_Matrix A,
                                         K2_Graph G, float damping, float tol, int itermax, bool gap,
                                         char *msg);
// Hop-count SSSP with its vectors on the GPU (k2_sssp_device.c), for one non-negative edge
// weight; as k2_bfs_device.
K2A_INTERNAL GrB_Info k2_sssp_device(GrB_Vector *out, K2_Matrix A, GrB_Index src, char *msg);
K2A_INTERNAL GrB_Info k2_bfs_device(GrB_Vector *level, GrB_Vector *parent, K2_Matrix A, K2_Graph G,
                                    GrB_Index src, K2_BfsMode mode, char *msg);
// A try on the device for a graph below K2A_DEVICE_MIN_EDGES (K2_BFS_AUTO), made at the first
// level whose frontier is too large for the row queries (k2_bfs.inc): the whole search again
// from the source in one call of at most K2A_BFS_TRY_DEPTH levels (K2_Device_bfsWithin). *done
// true: the results are written; false: nothing written (the search went deeper, or the device
// declined), the host goes on. The device pays about 30 us for each level of a few vertices,
// which the host's row queries answer in a few: on the H200 the device took 0.13-0.7x the
// host's time on most graphs of 2 10^4 to 2.5 10^5 edges, but 9-15x on pushpull (1,005-2,005
// levels: 32-65 ms against 3.4-4.2 ms) and 10x on olm1000 (498 levels); a try that stops at
// the depth limit costs at most K2A_BFS_TRY_DEPTH such levels before the host goes on.
#define K2A_BFS_TRY_MIN_EDGES 16384
#define K2A_BFS_TRY_DEPTH 48
K2A_INTERNAL GrB_Info k2_bfs_device_try(bool *done, GrB_Vector *level, GrB_Vector *parent, K2_Matrix A,
                                        GrB_Index src, char *msg);
// A BFS (levels into *level, parents into *parent, either NULL) that reaches at most
// K2A_BFS_SMALL_MAX vertices, by row queries (K2_Matrix_rowNeighborsFirst) level by level:
// *done false, nothing written, at the first row that would take it past them (at most that many
// queries lost, each stopped one neighbour past the limit). Such a search costs the device a
// fixed 80-120 us on the H200 (result vectors, a launch and a wait per level, the copies back),
// where SuiteSparse's 16 threads took 87-165 us for the benchmark's searches that reach 1 to 7
// vertices, and the row queries 25-153 us on the same host, 17-30 us on a two-core machine (the
// results' GrB_Vectors included). With a limit of 32 (and whole rows queried) the searches that
// reach more lost up to 0.12 ms before the device started them (a hub's row of
// uk-2007-05@100000 walked whole, cnr-2000's first 32 vertices).
// fn: the entry point named in messages (SSSP hops takes the levels as its distances). A vertex
// without out-edges costs no walk where A holds its row degrees (K2_Matrix_rowNeighbors: a
// graph's cached out-degrees, the push/pull switch's), where SuiteSparse reads row pointers.
#define K2A_BFS_SMALL_MAX 8
K2A_INTERNAL GrB_Info k2_bfs_small(const char *fn, bool *done, GrB_Vector *level, GrB_Vector *parent, K2_Matrix A,
                                   GrB_Index n, GrB_Index src, GrB_Type int_type, char *msg);

// BFS levels expanded by row queries on the host (k2_bfs_rows.c): while the frontier holds at
// most k2a_bfs_rows_max vertices, a push level walks their rows and writes the levels and
// parents straight into the result vectors (unpacked as bitmaps and packed back, O(1)), with no
// product call and no GraphBLAS operation in between. A product level costs a fixed 10-30 us
// (the call, its vectors, the frontier's assignments and count) before its traversal: a level
// of a few vertices' rows costs less than that on its own, and long, thin graphs (meshes, power
// grids: hundreds of levels of a few vertices) are made of such levels.
typedef struct {
  GrB_Index *front, *next;  // the frontier, and the next one being written
  GrB_Index *row;           // one row's neighbours
  GrB_Index cap_front, cap_next, cap_row;
  GrB_Index nfront, n;
  int64_t value;            // SSSP: the frontier's distance
  // SSSP: the vertices reached (a bit each), and those reached by row queries not yet in dist
  uint64_t *seen;
  struct k2a_found {
    GrB_Index vertex;
    int64_t dist;
  } *found;
  GrB_Index nfound, cap_found;
} k2a_bfs_rows;
// The limit follows the graph's size: a row query descends every node of its row's stripe
// that holds an entry, about sqrt(nvals) of them on a scattered graph (2 us a row on power's
// 13,188 edges, against 0.1-0.5 us on graphs of a few hundred), so at most
// K2A_BFS_ROWS_BUDGET / (sqrt(nvals) + 1) vertices. With 4000 (2-core machine, 2 threads, the 39
// real graphs, two alternated runs), the geometric means of BFS against SuiteSparse fell from
// 1.60 to 1.21 (vertex 0), 2.53 to 1.85 (largest out-degree) and 1.86 to 1.32 (8 random
// sources); 2000 and 8000 moved the graphs that gained by less than the runs' spread.
#define K2A_BFS_ROWS_BUDGET 4000.0
// 0 (no such levels) where an engine was asked for that is not the host's own (the CUDA engine:
// its strict mode wants every product there; the reference engine: the oracle's products).
static inline GrB_Info k2a_bfs_rows_max(GrB_Index *max, GrB_Index nvals) {
  K2_Engine engine = K2_ENGINE_AUTO;
  GrB_Info info = K2_get_engine(&engine);
  const bool host = engine == K2_ENGINE_AUTO || engine == K2_ENGINE_OPENMP;
  *max = host ? (GrB_Index)(K2A_BFS_ROWS_BUDGET / (sqrt((double)nvals) + 1.0)) : 0;
  return info;
}
K2A_INTERNAL void k2a_bfs_rows_free(k2a_bfs_rows *w);
// The frontier is the source alone / the entries of q.
K2A_INTERNAL GrB_Info k2a_bfs_rows_start(k2a_bfs_rows *w, GrB_Index n, GrB_Index src);
K2A_INTERNAL GrB_Info k2a_bfs_rows_take(k2a_bfs_rows *w, GrB_Vector q, GrB_Index n);
// q becomes the frontier (its values unspecified), for a product level.
K2A_INTERNAL GrB_Info k2a_bfs_rows_give(k2a_bfs_rows *w, GrB_Vector q);
// One push level: every unvisited neighbour of the frontier gets level k (into level, a bitmap
// INT32/INT64 vector whose entries are the visited set, or NULL) and its first frontier
// neighbour as parent (into parent, the same, or NULL); it becomes the new frontier. *edges: the
// frontier's out-edges. On an error both vectors are as they were before or after some of the
// level's writes, whole.
K2A_INTERNAL GrB_Info k2a_bfs_rows_level(k2a_bfs_rows *w, GrB_Vector level, GrB_Vector parent, K2_Matrix A,
                                         int64_t k, int64_t *edges);
// Hop-count SSSP with one edge weight, at least 0: the rounds of a small frontier by row queries
// as the BFS levels above. Every vertex of a frontier is at the same distance (w->value: the
// frontiers are the vertices first reached in each round). start: the source alone; take: f's
// entries as the frontier, dist's as reached (*taken false where f's values differ: nothing
// taken); a round: every out-neighbour not reached gets w->value + weight and becomes the
// frontier; flush: those reached by rounds into dist, before
// the products go on and at the end.
K2A_INTERNAL GrB_Info k2a_sssp_rows_start(k2a_bfs_rows *w, GrB_Index n, GrB_Index src);
K2A_INTERNAL GrB_Info k2a_sssp_rows_take(bool *taken, k2a_bfs_rows *w, GrB_Vector f, GrB_Vector dist);
K2A_INTERNAL GrB_Info k2a_sssp_rows_round(k2a_bfs_rows *w, K2_Matrix A, int64_t weight);
K2A_INTERNAL GrB_Info k2a_sssp_rows_flush(k2a_bfs_rows *w, GrB_Vector dist);
// Multi-source BFS with its frontiers and distances on the GPU (k2_msbfs_device.c), for an edge
// weight true as a BOOL; as k2_bfs_device.
K2A_INTERNAL GrB_Info k2_msbfs_device(GrB_Matrix *dist, K2_Matrix A, const GrB_Index *sources,
                                      GrB_Index nsources, bool reverse, char *msg);
// Weakly connected components with the labels on the GPU (k2_wcc_device.c), for A with at least
// one vertex; as k2_bfs_device.
K2A_INTERNAL GrB_Info k2_wcc_device(GrB_Vector *component, int *rounds, K2_Matrix A, char *msg);
// The out-degrees an algorithm reads (*use): G's cached ones, computed now if G has none (G
// keeps them), or without a graph (G NULL) new ones in *own, which the caller frees.
K2A_INTERNAL GrB_Info k2a_out_degree_grb(GrB_Vector *use, GrB_Vector *own, GrB_Matrix A, K2_Graph G,
                                         GrB_Index n);
K2A_INTERNAL GrB_Info k2a_out_degree_k2(GrB_Vector *use, GrB_Vector *own, K2_Matrix A, K2_Graph G,
                                        GrB_Index n);

// The check of every _graph entry point: G is there and holds exactly one matrix.
static inline GrB_Info k2a_graph_check(K2_Graph G, const char *fn, char *msg) {
  if (G == NULL) return k2a_fail(msg, GrB_NULL_POINTER, fn, "G is NULL", NULL);
  if ((G->K == NULL) == (G->A == NULL)) {
    return k2a_fail(msg, GrB_INVALID_OBJECT, fn, "G holds no matrix, or two (not made by K2_Graph_new)", NULL);
  }
  return GrB_SUCCESS;
}

#endif
