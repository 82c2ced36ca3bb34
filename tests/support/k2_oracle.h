// k2_oracle.h: products computed straight from an edge list, sharing no code with the tree.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_ORACLE_H
#define K2_ORACLE_H

#include "k2_test.h"

// A random edge list: nvals pairs in [0,nrows) x [0,ncols), duplicates possible.
typedef struct {
  uint64_t nrows, ncols, nvals;
  uint32_t *I, *J;
} k2_coo_list;

// A list of nvals pairs (room allocated, contents the caller's; asserts on failure).
void k2_coo_alloc(k2_coo_list *L, uint64_t nrows, uint64_t ncols, uint64_t nvals);
void k2_coo_random(k2_coo_list *L, uint64_t nrows, uint64_t ncols, uint64_t nvals, k2_rng *rng);
void k2_coo_free(k2_coo_list *L);
// Sort row-major and drop duplicates (the pattern GraphBLAS and the tree hold).
void k2_coo_canonical(k2_coo_list *L);

// Dense semiring products over the edge list (each distinct pair once), weight w:
// right (y has nrows) or left (y has ncols); FP64 arithmetic for plus-times rounds per
// operation in the given precision (float or double).
void k2_oracle_plus_times_f64(double *y, const k2_coo_list *L, const double *x, double w, bool left);
void k2_oracle_lor_land(uint8_t *y, const k2_coo_list *L, const uint8_t *x, bool left);
void k2_oracle_min_plus_f64(double *y, const k2_coo_list *L, const double *x, double w, bool left);
void k2_oracle_min_plus_i64(int64_t *y, const k2_coo_list *L, const int64_t *x, int64_t w, bool left);

// The blocks a traversal pruned by the one input idx must expand, from the list alone: over the
// levels t in [from, to) of a tree of side 2^side_log, the distinct output blocks (of side
// 2^(side_log - t)) of the entries whose input (row for by_row, else column) lies in idx's block.
uint64_t k2_oracle_stripe_blocks(const k2_coo_list *L, uint32_t side_log, uint32_t from, uint32_t to,
                                 uint64_t idx, bool by_row);

// Build a K2_Matrix from the list (asserting success).
K2_Matrix k2_test_matrix(const k2_coo_list *L, const K2_Format *fmt);
// Assert a K2_Matrix holds exactly the canonical list.
void k2_assert_same_pattern(K2_Matrix A, const k2_coo_list *canonical);

#endif
