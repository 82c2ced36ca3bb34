// k2_engine.h: the one interface of an engine (internal).
// SPDX-License-Identifier: Apache-2.0
//
// Each engine (reference, OpenMP, CUDA) is one table of this type. The dispatcher walks the
// tables in preference order and knows nothing else of an engine: whether it is there, whether
// it takes a product (and why not), the state it keeps per matrix (built or extended by
// prepare, in a slot of the matrix that the matrix does not interpret), and the product itself.
// An engine may still decline a product it accepted (K2_DECLINED): the dispatcher then tries
// the next one. Plain C, no GraphBLAS types: the CUDA gateway includes it.
#ifndef K2_ENGINE_H
#define K2_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/k2_kernels.h"
#include "matrix/k2_slot.h"

// The engines' identities: the values of the public K2_Engine (include/k2grb/engine.h).
#define K2_ENGINE_ID_REFERENCE 1
#define K2_ENGINE_ID_OPENMP 2
#define K2_ENGINE_ID_CUDA 3

// What a product asks of an engine's state: the tree and the product.
typedef struct {
  const k2_view *A;
  const k2_product *P;
} k2_engine_need;

typedef struct {
  const char *name;
  int id;                    // K2_ENGINE_ID_*
  int slot;                  // the matrix slot of its state (k2_slot_id), or -1: none
  const k2_slot_ops *ops;    // how the matrix frees and sizes that state
  bool plain_trees;          // reads plain trees of 2x2 leaves only: dispatch hands it k2_matrix_plain_view
  // Is the engine usable at all here (built, a device present)? false: why (a message).
  bool (*available)(char *why, size_t len);
  // Does it take this product? false: why.
  bool (*accepts)(const k2_view *A, const k2_product *P, char *why, size_t len);
  // Does the state serve this need (k2_engine_need) as it is? NULL: the engine keeps no state.
  bool (*ready)(const void *state, const void *need);
  // Create (*state NULL) or extend the state for this need, under the matrix's lock: 0 or a
  // GrB_Info error code; an engine that can run without it leaves *state as it was and says 0.
  int (*prepare)(void **state, const void *need);
  // The product (k2_kernels.h): 0, K2_DECLINED, or a GrB_Info error code.
  int (*product)(const k2_view *A, void *state, const k2_product *P);
} k2_engine;

extern const k2_engine k2_ref_engine;   // src/cpu/k2_ref_product.c
extern const k2_engine k2_omp_engine;   // src/cpu/k2_omp_engine.c
extern const k2_engine k2_cuda_engine;  // src/cuda/k2_cuda_table.c

// The OpenMP engine's traversal of a single vector: 0 the cost model's choice, 1 depth first, 2
// the full traversal pruned by stripe summaries, 3 the full traversal (K2GRB_CPU_TRAVERSAL).
void k2_omp_set_traversal(int mode);

// The checks every engine makes of a product (k2_product_supported), as an accepts function.
bool k2_engine_accepts_supported(const k2_view *A, const k2_product *P, char *why, size_t len);

#endif
