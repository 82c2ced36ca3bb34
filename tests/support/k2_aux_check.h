// k2_aux_check.h: a tree's auxiliary arrays (directory, top codes) against the library's size
// rule, and products that must not depend on how they are sized.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_AUX_CHECK_H
#define K2_AUX_CHECK_H

#include <stdint.h>

#include <k2grb.h>

// Bytes of A's signatures and leaves, from K2_Matrix_memoryUsage's counts (docs/k2-format.md).
uint64_t k2_aux_core_bytes(const K2_MemoryUsage *u);

// A is a valid tree (k2_tree_check) whose directory and top codes hold at most 5% of its
// signatures and leaves (as K2_Matrix_memoryUsage reports them). Fails the test otherwise.
void k2_aux_check_budget(K2_Matrix A, const char *name);

// The products of A (built from E with the default format) on the OpenMP and reference
// engines equal those of the same edges built with version 1's layout (S = 256, top level of
// at most 2^16 nodes), a plain directory (S = 2^11) and a dense directory with a top level
// near the root: dense right and left products and a sparse one, compared exactly.
void k2_aux_check_products(K2_Matrix A, const K2_Edges *E, const char *name);

#endif
