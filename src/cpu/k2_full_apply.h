// k2_full_apply.h: the contribution of one full block (K2_Format.full_blocks) to a product, for
// the CPU engines that do not walk it cell by cell (internal).
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_FULL_APPLY_H
#define K2_FULL_APPLY_H

#include "engine/k2_kernels.h"

// y(o) = y(o) (+) R for every output o of the block, where R is the monoid's reduction of the
// multiplied inputs of the block: O(side) per vector instead of side^2 cells. The block is
// rows [r0, r0 + side) x columns [c0, c0 + side) (inside the matrix). in: NULL (every input
// index of the block, presence from P->x_present) or the ascending indices in[0, nin) to
// consider (a pruned traversal's part of its input list); out likewise for the outputs (skip
// bytes still apply). Floating-point sums are added in another order than cell by cell.
void k2_full_apply(const k2_product *P, uint64_t r0, uint64_t c0, uint64_t side, const uint64_t *in,
                   uint64_t nin, const uint64_t *out, uint64_t nout);

#endif
