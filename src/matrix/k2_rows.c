// k2_rows.c: the last internal level decoded into 4x4 blocks and sorted by block row.
// SPDX-License-Identifier: Apache-2.0
//
// Three passes: decode each node (Morton code -> block coordinates, four leaves -> 16-bit
// pattern) in parallel over contiguous ranges of the level; a stable radix sort of
// (level index, block row) pairs on the row bits; a gather. Within one block row the level
// (Z) order already has the columns ascending, so a stable sort on the row alone gives
// (row, column) order.
#include "matrix/k2_rows.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/k2_matrix.h"
#include "util/k2_error.h"
#include "util/k2_sort.h"

void k2_row_blocks_free(k2_row_blocks *b) {
  if (b == NULL) return;
  free(b->row);
  free(b->col);
  free(b->pattern);
  memset(b, 0, sizeof *b);
}

// The 4x4 pattern of internal node p of the last level, whose first leaf is leaf number *q
// (advanced past its leaves): quadrant b = 2*b1 + b0 holds cells (2*b1 + r, 2*b0 + c).
static uint16_t k2_rows_pattern(const k2_view *A, uint64_t p, uint64_t *q) {
  const unsigned s = k2_view_sig(A, p);
  uint32_t pat = 0;
  for (unsigned b = 0; b < 4; b++) {
    if (!(s & (1u << b))) continue;
    const uint32_t leaf = (uint32_t)k2_view_leaf(A, (*q)++);  // bit 2*r + c
    const unsigned at = (b >> 1) * 8 + (b & 1) * 2;        // cell (2*b1, 2*b0): bit 4*2*b1 + 2*b0
    pat |= ((leaf & 3u) << at) | (((leaf >> 2) & 3u) << (at + 4));
  }
  return (uint16_t)pat;
}

int k2_bottom_codes_expand(const k2_view *A, uint64_t **codes) {
  *codes = NULL;
  if (A->n_internal == 0) return 0;
  return (int)k2_codes_expand(A->sig, A->level_start, A->top_level, A->top_codes, A->levels - 1,
                              codes);
}

static uint64_t k2_row_blocks_count(const k2_view *A) {
  return A->n_internal == 0 ? 0 : A->level_start[A->levels] - A->level_start[A->levels - 1];
}

bool k2_row_blocks_fit(const k2_view *A) {
  return A->n_internal == 0 ||
         (A->leaf_log == 1 && A->n_full == 0 && k2_row_blocks_count(A) < (UINT64_C(1) << 32));
}

int k2_row_blocks_check(const k2_view *A) {
  if (k2_row_blocks_fit(A)) return 0;
  if (A->n_full != 0)  // the blocks of the last level would miss the full nodes above it
    return (int)k2_error_set(GrB_NOT_IMPLEMENTED,
                             "row blocks: the tree has %llu full blocks; expand it first "
                             "(k2_tree_expand_full)", (unsigned long long)A->n_full);
  if (A->leaf_log != 1)
    return (int)k2_error_set(GrB_NOT_IMPLEMENTED,
                             "row blocks: the tree has %ux%u leaves; row blocks need 2x2 leaves",
                             1u << A->leaf_log, 1u << A->leaf_log);
  return (int)k2_error_set(GrB_NOT_IMPLEMENTED,
                           "row blocks: %llu blocks, more than the 2^32 - 1 supported",
                           (unsigned long long)k2_row_blocks_count(A));
}

int k2_row_blocks_build(const k2_view *A, k2_row_blocks *out) {
  memset(out, 0, sizeof *out);
  int rc = k2_row_blocks_check(A);
  if (rc != 0 || A->n_internal == 0) return rc;
  const uint32_t last = A->levels - 1;
  const uint64_t first = A->level_start[last], n = k2_row_blocks_count(A);
  // block coordinates have side_log - 2 bits each (<= 30); a lone root block has none, but the
  // sort needs a digit
  const uint32_t row_bits = A->side_log > 2 ? A->side_log - 2 : 1;
  const uint64_t *codes = A->bottom_codes;
  uint64_t *own_codes = NULL;
  if (codes == NULL) {
    rc = k2_bottom_codes_expand(A, &own_codes);
    if (rc != 0) return rc;
    codes = own_codes;
  }
  uint64_t *keys = malloc(n * sizeof(uint64_t)), *tmp = malloc(n * sizeof(uint64_t));
  uint16_t *level_pat = malloc(n * sizeof(uint16_t));
  out->row = malloc(n * sizeof(uint32_t));
  out->col = malloc(n * sizeof(uint32_t));
  out->pattern = malloc(n * sizeof(uint16_t));
  if (!keys || !tmp || !level_pat || !out->row || !out->col || !out->pattern) {
    rc = (int)k2_error_set(GrB_OUT_OF_MEMORY, "row blocks: no memory for %llu blocks",
                           (unsigned long long)n);
    goto done;
  }
  const uint64_t row_mask = (UINT64_C(1) << row_bits) - 1;
  // decode: each range of the level starts at its first node's first leaf (a directory lookup)
  const int nt = n < 16384 ? 1 : omp_get_max_threads();
#pragma omp parallel num_threads(nt) if (nt > 1)
  {
    const int th = omp_get_thread_num(), nth = omp_get_num_threads();
    const uint64_t lo = n * (uint64_t)th / (uint64_t)nth, hi = n * (uint64_t)(th + 1) / (uint64_t)nth;
    uint64_t q = lo < hi ? k2_view_first_child(A, first + lo) - A->n_internal : 0;
    for (uint64_t i = lo; i < hi; i++) {
      level_pat[i] = k2_rows_pattern(A, first + i, &q);
      const uint64_t r = k2_morton_compact(codes[i] >> 1);
      keys[i] = (i << row_bits) | r;  // the level index rides above the row bits
    }
  }
  const uint64_t *sorted = k2_sort_u64(keys, tmp, n, row_bits);
  if (sorted == NULL) {
    rc = (int)k2_error_set(GrB_OUT_OF_MEMORY, "row blocks: no memory to sort %llu blocks",
                           (unsigned long long)n);
    goto done;
  }
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static)
  for (uint64_t k = 0; k < n; k++) {
    const uint64_t i = sorted[k] >> row_bits;
    out->row[k] = (uint32_t)(sorted[k] & row_mask);
    out->col[k] = (uint32_t)k2_morton_compact(codes[i]);
    out->pattern[k] = level_pat[i];
  }
  out->count = n;
done:
  free(keys);
  free(tmp);
  free(level_pat);
  free(own_codes);
  if (rc != 0) k2_row_blocks_free(out);
  return rc;
}
