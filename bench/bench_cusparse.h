// bench_cusparse.h: the cuSPARSE baseline of bench_algorithms (BFS, msBFS, PageRank on a CSR on
// the GPU), behind a plain C interface.
// SPDX-License-Identifier: Apache-2.0
//
// The graph goes to the device once as the CSR of A' (row v lists the sources u of the edges
// u -> v) with FP32 ones as values, because cuSPARSE's SpMV and SpMM need values: y = A' x is
// then the product along the edges that each algorithm takes per level or iteration. Every
// CUDA and cuSPARSE call is checked; a failure prints the call and its message on stderr and
// the function returns false (NULL), so that the caller can drop the baseline instead of the
// program.
#ifndef BENCH_CUSPARSE_H
#define BENCH_CUSPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// A usable CUDA device? If not, *why says what cudaGetDeviceCount answered.
bool bc_device_present(char *why, size_t cap);

// The device CSR of A' (n x n, nnz entries), its cuSPARSE descriptors and, per algorithm, the
// vectors and cuSPARSE buffers that the algorithm run last needs (allocated by its first run,
// freed when another algorithm runs).
typedef struct bc_graph bc_graph;

// rowptr (n + 1 entries) and col (nnz, sorted within each row): the CSR of A' on the host, in
// GraphBLAS's 64-bit indices. The device copy takes 32-bit indices where n and nnz fit, else
// 64-bit. NULL on any error (printed).
bc_graph *bc_graph_new(uint64_t n, const uint64_t *rowptr, const uint64_t *col, uint64_t nnz);
void bc_graph_free(bc_graph *g);
// Seconds that bc_graph_new took: the 32-bit conversion, the copies and the values.
double bc_upload_seconds(const bc_graph *g);
// 4 or 8: the width of the device indices, and of the parents bc_bfs returns.
int bc_index_bytes(const bc_graph *g);

typedef enum { BC_BFS = 0, BC_MSBFS, BC_PAGERANK, BC_ALGORITHMS } bc_algorithm;

// Device bytes of the baseline: the CSR (row offsets, column indices, FP32 values) and what
// an algorithm holds besides it (its dense vectors and the cuSPARSE buffer of its product),
// as allocated by its last run (zero before). cuSPARSE's own handle state is not counted.
typedef struct {
  uint64_t offsets, indices, values;  // the CSR: (n + 1), nnz, nnz entries
  uint64_t vectors;                   // the algorithm's dense vectors and device scalars
  uint64_t buffer;                    // the cuSPARSE external buffer of its SpMV or SpMM
  uint64_t total;
} bc_bytes;
bc_bytes bc_device_bytes(const bc_graph *g, bc_algorithm algorithm);

// The name of the cuSPARSE algorithm that an algorithm's product uses (chosen by timing a few
// calls at its first run), e.g. "SPMV_CSR_ALG1"; "-" before the first run.
const char *bc_product_name(const bc_graph *g, bc_algorithm algorithm);

// Level-synchronous BFS along the edges from src: per level one SpMV y = A' f of the dense
// frontier f, then one kernel that gives the unvisited vertices with y > 0 the level and
// makes them the next frontier, and counts them (the count is the one copy back per level).
// After the last level, one pass over each reached vertex's in-edges picks as parent the first
// in-neighbour one level up. level[n] gets the levels (-1: not reached), parent (n entries of
// bc_index_bytes each, int32_t or int64_t; NULL: no parents) the parents (src: itself; -1: not
// reached); *depth: the largest level. Results on the host when it returns.
bool bc_bfs(bc_graph *g, uint64_t src, int32_t *level, void *parent, int32_t *depth);

// BFS from nsources vertices at once: the frontiers are one n x nsources dense block (row-major)
// and each level one SpMM of it. dist (n x nsources, row-major) gets the hop distance of vertex
// v from source b at dist[v * nsources + b], -1 where v is not reached from it.
bool bc_msbfs(bc_graph *g, const uint64_t *sources, uint32_t nsources, int32_t *dist);

// PageRank as LAGr_PageRank (FP32): d = max(outdegree / damping, 1 / damping), teleport =
// (1 - damping) / n + damping / n * (the rank held by the vertices without out-edges),
// r = teleport + A' (r ./ d), until sum |r - r_old| <= tol or itermax iterations. One SpMV per
// iteration; the change (summed in FP64) is the one copy back per iteration. rank[n] gets the
// ranks, *iterations the iterations run, *converged whether the change reached tol.
bool bc_pagerank(bc_graph *g, float damping, float tol, int itermax, float *rank, int *iterations,
                 bool *converged);

#ifdef __cplusplus
}
#endif

#endif
