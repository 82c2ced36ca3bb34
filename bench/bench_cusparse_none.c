// bench_cusparse_none.c: bench_cusparse.h without CUDA: no device, so bench_algorithms shows
// no cuSPARSE column and never calls the rest.
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>

#include "bench_cusparse.h"

bool bc_device_present(char *why, size_t cap) {
  snprintf(why, cap, "built without CUDA");
  return false;
}

bc_graph *bc_graph_new(uint64_t n, const uint64_t *rowptr, const uint64_t *col, uint64_t nnz) { return NULL; }
void bc_graph_free(bc_graph *g) {}
double bc_upload_seconds(const bc_graph *g) { return 0; }
int bc_index_bytes(const bc_graph *g) { return 4; }
bc_bytes bc_device_bytes(const bc_graph *g, bc_algorithm algorithm) {
  bc_bytes none = {0, 0, 0, 0, 0, 0};
  return none;
}
const char *bc_product_name(const bc_graph *g, bc_algorithm algorithm) { return "-"; }
bool bc_bfs(bc_graph *g, uint64_t src, int32_t *level, void *parent, int32_t *depth) { return false; }
bool bc_msbfs(bc_graph *g, const uint64_t *sources, uint32_t nsources, int32_t *dist) { return false; }
bool bc_pagerank(bc_graph *g, float damping, float tol, int itermax, float *rank, int *iterations,
                 bool *converged) {
  return false;
}
