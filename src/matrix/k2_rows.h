// k2_rows.h: the last internal level of a k²-tree: 4x4 blocks in row order, Morton codes.
// SPDX-License-Identifier: Apache-2.0
//
// With 2x2 leaves every node of the last internal level covers a 4x4 block of cells: its Morton
// code gives the block's coordinates, its (at most four) leaves the 16 cells. In level order
// the blocks follow the Z curve; sorted by block row they are a blocked CSR without row
// pointers, which lets a right product sum each row in registers instead of by atomics. The CUDA
// engine's row configuration (K2_DEVICE_ROWS) keeps exactly these three arrays on the device.
//
// Plain C without GraphBLAS.h: the CUDA engine's host code includes it.
#ifndef K2_ROWS_H
#define K2_ROWS_H

#include <stdint.h>

#include "matrix/k2_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint64_t count;     // blocks: the nodes of the last internal level (< 2^32)
  uint32_t *row;      // block row (cell row / 4), non-decreasing
  uint32_t *col;      // block column (cell column / 4), increasing within a block row
  uint16_t *pattern;  // the 16 cells: bit 4*i + j = cell (4*row + i, 4*col + j); never 0
} k2_row_blocks;

// Blocks of the tree of A, from its cached bottom codes or (without them) its top codes.
// Returns 0, or a GrB_Info code as int with a message recorded: GrB_NOT_IMPLEMENTED (-8) for
// leaves other than 2x2 or 2^32 blocks or more, GrB_OUT_OF_MEMORY (-102). An empty tree gives
// count 0 and NULL arrays. Parallel (OpenMP); the result does not depend on the thread count.
int k2_row_blocks_build(const k2_view *A, k2_row_blocks *out);
// Whether A's blocks can be built (2x2 leaves, fewer than 2^32 blocks; an empty tree can), and
// the same as 0 or GrB_NOT_IMPLEMENTED (as int) with the message the builder would record.
bool k2_row_blocks_fit(const k2_view *A);
int k2_row_blocks_check(const k2_view *A);
void k2_row_blocks_free(k2_row_blocks *b);

// Morton codes of the last internal level of A, expanded (in parallel) from its top codes, in
// level order, into a malloc'd array the caller frees; *codes is NULL for an empty tree. For
// uploads of views that do not cache them. Returns 0 or GrB_OUT_OF_MEMORY (-102) as int.
int k2_bottom_codes_expand(const k2_view *A, uint64_t **codes);

#ifdef __cplusplus
}
#endif

#endif
