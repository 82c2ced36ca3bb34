// k2_omp_plan.h: the OpenMP engine's per-matrix task plan (internal).
// SPDX-License-Identifier: Apache-2.0
//
// Which nodes are tasks, which output block each owns and how tasks are chunked for the threads
// depends only on the tree, the direction and the thread count: the engine builds it once per
// matrix and direction, into its per-matrix state (k2_omp_state, k2_omp_engine.c).
#ifndef K2_OMP_PLAN_H
#define K2_OMP_PLAN_H

#include "engine/k2_kernels.h"
#include "matrix/k2_view.h"

typedef struct k2_omp_plan k2_omp_plan;

// The engine's state per matrix, kept in the matrix's OpenMP slot. Its parts are built under the
// matrix's lock when a product first needs them and published with release semantics; products
// load them with acquire semantics and take no lock.
typedef struct {
  k2_omp_plan *plan[2];    // task plans, right and left products (NULL until built)
  uint64_t *blocks;        // the decoded bottom level (NULL until built, or where it does not apply)
  uint64_t blocks_count;
} k2_omp_state;

// 0, or a GrB_Info error code.
int k2_omp_plan_new(const k2_view *A, bool left, k2_omp_plan **plan);
void k2_omp_plan_free(void *plan);
uint64_t k2_omp_plan_bytes(const k2_omp_plan *plan);

// The decoded bottom level (k2_omp_state.blocks) of a tree whose bottom codes are cached (decoded
// from them) or whose matrix asks for it (A->decoded_level: one descent over the tasks of plan, a
// plan of either direction or NULL): 0 and a malloc'd array of *count entries (free it with
// free()), K2_DECLINED where it does not apply (neither, leaves other than 2x2, full blocks, a side over
// 2^26), or a GrB_Info error code.
int k2_omp_blocks_new(const k2_view *A, const k2_omp_plan *plan, uint64_t **blocks, uint64_t *count);
// Internal nodes the last pruned product of this thread expanded (k2_omp_pruned.inc; a test
// hook that proves the pruning: a few inputs visit the paths to their entries, not the tree).
extern _Thread_local uint64_t k2_omp_pruned_expanded;
// A pruned level of at least this many nodes is expanded by all threads, and at least this many
// surviving nodes have their leaves visited by all threads (default 4096; tests lower it to 1
// so that every pruned product takes the parallel paths).
extern uint64_t k2_omp_pruned_par_min;

// Test hook: the traversal of a product with an input presence or a mask, 0 by the cost model
// (default); 1 pruned whenever a list or stripes apply (a single vector depth first); 2 the
// full traversal pruned by stripe summaries (a single vector); 3 the full traversal.
extern int k2_omp_traversal_forced;

// Would the OpenMP engine read the decoded bottom level for this product (the plus kernel's and
// the integer min/max kernels' cases)?
bool k2_omp_blocks_apply(const k2_view *A, const k2_product *P);

#endif
