// k2_slot.h: state that the layers above derive from a tree, kept by the matrix (internal).
// SPDX-License-Identifier: Apache-2.0
//
// An engine's per-matrix state (the OpenMP engine's plans, the CUDA engine's resident copy) and
// the API's copies (the GraphBLAS matrix of a fallback, the occupancy of rows) live in slots of
// the matrix object. The matrix does not interpret them: each slot holds a pointer and the
// operations that free and size it. Plain C, no GraphBLAS types: the engines include it.
#ifndef K2_SLOT_H
#define K2_SLOT_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
  K2_SLOT_OPENMP = 0,       // the OpenMP engine: task plans, decoded last-level blocks
  K2_SLOT_CUDA,             // the CUDA engine: the tree resident on the device
  K2_SLOT_GRB,              // the API: the GrB_Matrix that fallbacks and K2_Matrix_getGrB use
  K2_SLOT_OCCUPIED_ROWS,    // the API: which rows hold an entry
  K2_SLOT_OCCUPIED_COLS,    // the API: which columns hold an entry
  K2_SLOT_DEGREE_ROWS,      // the API: how many entries each row holds
  K2_SLOT_DEGREE_COLS,      // the API: how many entries each column holds
  K2_SLOT_PLAIN,            // the tree with its full blocks expanded (k2_matrix_plain_view)
  K2_SLOT_COUNT
} k2_slot_id;

typedef struct {
  void (*release)(void *state);          // frees the state
  uint64_t (*bytes)(const void *state);  // host bytes it holds (NULL: none)
  bool weighted;                         // derived from the edge weight: dropped when it changes
  // a copy for a matrix with the same tree (K2_Matrix_dup), or NULL where there is none (no
  // memory); copy NULL: the state stays with its matrix (engine state, derived copies)
  void *(*copy)(const void *state);
} k2_slot_ops;

#endif
