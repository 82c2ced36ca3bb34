// k2_cuda_testing.h: the CUDA engine's hooks for tests and benchmarks (internal).
// SPDX-License-Identifier: Apache-2.0
//
// Not part of the engine's gateway: products on device pointers, the engine's stream and
// allocator for a benchmark's vectors, and the tile planner replayed on the host. Plain C.
#ifndef K2_CUDA_TESTING_H
#define K2_CUDA_TESTING_H

#include "cuda/k2_cuda_gateway.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---- for benchmarks and tools: products on device pointers ----------------------------------
// As k2_cuda_product, but P->x, y, x_present, y_present and y_skip are device pointers and the
// product is only enqueued on the engine's stream (k2_cuda_stream), not waited for. device
// must be a resident handle (k2_cuda_upload). Holds no vector buffers (scratch only).
int k2_cuda_product_device(const k2_view *A, void *device, const k2_product *P);
// The engine's stream (a cudaStream_t) for events and synchronisation.
void *k2_cuda_stream(void);
// Allocate / free device memory through the engine's counters (benchmarks' vectors).
void *k2_cuda_malloc(uint64_t bytes);
void k2_cuda_free(void *p, uint64_t bytes);

// ---- for benchmarks: the copy rates --------------------------------------------------------
// Bytes per second of one copy of `bytes` from pinned host memory to the device (*up) and back
// (*down), the best of reps each, timed by events on a stream of its own (buffers allocated and
// freed here). 0, K2_DECLINED (no device, or no memory for the buffers) or GrB_PANIC (as int).
int k2_cuda_copy_rate(uint64_t bytes, int reps, double *up, double *down);

// ---- for tests: the pruned traversal's frontier capacity ------------------------------------
// At most `nodes` per level (0: the engine's default); a level holding more makes the product
// run again with the full traversal. Returns the previous value (0 without a CUDA build).
uint64_t k2_cuda_set_frontier_max(uint64_t nodes);

// ---- for tests: the tile planner without a device ------------------------------------------
// How the planner cuts a level: the engine plans both ways and keeps the plan of fewer launches.
typedef enum {
  K2_CUDA_PLAN_BEST = 0,    // the engine's choice
  K2_CUDA_PLAN_GREEDY = 1,  // each level by its own children alone
  K2_CUDA_PLAN_WHOLE = 2    // runs of whole subtrees where they fill half a tile, else greedy
} k2_cuda_plan_rule;
// Plan A's tree-only traversal (tile M, directory offsets, two levels per expand step or one,
// the given cutting rule) and replay it on the host with the expand kernels' index arithmetic.
// 0 if every node of the last internal level is reached exactly once with its Morton code;
// GrB_PANIC (as int) with a message otherwise; K2_DECLINED without a CUDA build. *steps: the
// plan's launches (expand and leaf steps), *scratch: its scratch bytes (either may be NULL).
int k2_cuda_plan_replay(const k2_view *A, uint64_t M, bool fuse, k2_cuda_plan_rule rule,
                        uint64_t *steps, uint64_t *scratch);

#ifdef __cplusplus
}
#endif

#endif
