// k2_view.h: the plain view of a k²-tree that every engine receives.
// SPDX-License-Identifier: Apache-2.0
//
// Engines (reference, OpenMP, CUDA) never see the public K2_Matrix handle: they get this struct
// of sizes and pointers into the tree, nothing else (what an engine derives from the tree is its
// own state, k2_engine.h). Plain C, no GraphBLAS types, so the CUDA gateway can include it.
//
// Layout (k = 2):
//  * The matrix is padded to side 2^side_log (>= 2 leaf sides); padding costs nothing.
//  * Internal nodes, levels 0 (root) .. levels-1, one 4-bit signature each, in level order,
//    packed 16 per 64-bit word in `sig` (nibble p at bits 4*(p%16) of word p/16). Bit b of a
//    signature says child quadrant b is non-empty, b = 2*b1 + b0, b1 = lower half of the rows,
//    b0 = right half of the columns.
//  * Nodes are numbered in level order: the root is 0, internal nodes are 0 .. n_internal-1,
//    leaves are n_internal .. n_internal + n_leaves - 1 (level `levels`). The children of the
//    internal node p are the nodes first_child(p) .. first_child(p) + popcount(sig_p) - 1, with
//    first_child(p) = 1 + sum_{q<p} popcount(sig_q).
//  * Leaves are 2^leaf_log x 2^leaf_log bitmaps of leaf_bits = 4^leaf_log bits, packed in
//    `leaves` (leaf q at bit q*leaf_bits); cell (r, c) of a leaf is bit r * 2^leaf_log + c. For
//    2x2 leaves this is the quadrant numbering of the internal signatures.
//  * level_start[t] = number of the first node of level t, t = 0 .. levels+1 (level_start[levels]
//    = n_internal = first leaf, level_start[levels+1] = total nodes).
//  * The sampled directory of child offsets: sample k = first_child(k * 2^dir_log), k < dir_len.
//    Compact (dir_lo != NULL, the derived form): dir[k >> 4] holds every 16th sample in 64
//    bits and dir_lo[k] the 16-bit difference of sample k from it (at most 4 * 15 * 2^dir_log
//    children apart, so dir_log <= 10); plain (dir_lo == NULL: an explicit directory_log above
//    10, or the one implied sample of a tree that keeps none): dir[k] holds sample k.
//    k2_view_dir_sample reads either.
//  * top_codes: Morton codes of the nodes of level top_level, in level order (level 0, the
//    root alone, when the tree stores none; k2_tree_aux_plan sizes it); a code at level t has
//    2t bits (row bit above column bit per level).
//  * bottom_codes: optional Morton codes of level levels-1 (NULL when not cached).
//  * leafc: compressed leaves (k2_leafc.h), `leaves` then NULL: k2_view_leaf decodes them.
//    Code that reads `leaves` in place must decline such a view or go through k2_view_leaf.
//  * Full blocks (K2_Format.full_blocks): an internal node with signature 0 is "full": every
//    cell of its block is an entry, and nothing is stored below it (it has no children, so
//    first_child and the directory need no change). A normal tree never has signature 0 (an
//    empty quadrant has no child), so the mark costs nothing. A full node's block lies inside
//    nrows x ncols (blocks that cross the border are never marked). n_full counts them (0: the
//    tree has none, and code may skip the test). A full leaf is an all-ones leaf bitmap.
// An empty matrix has no nodes at all (level_start all zero).
#ifndef K2_VIEW_H
#define K2_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "matrix/k2_leafc.h"
#if defined(__BMI2__) && !defined(__CUDACC__)
#include <immintrin.h>
#endif

typedef struct {
  uint64_t nrows, ncols;          // logical shape
  uint64_t nvals;                 // entries (set leaf cells)
  uint32_t side_log;              // padded side = 2^side_log
  uint32_t levels;                // internal levels: side_log - leaf_log
  uint32_t leaf_log;              // leaf side = 2^leaf_log
  uint32_t leaf_bits;             // 4^leaf_log
  uint64_t n_internal, n_leaves;
  const uint64_t *sig;            // internal signatures, nibbles
  const uint64_t *leaves;         // leaf bitmaps (NULL when compressed)
  const k2_leafc *leafc;          // compressed leaves, or NULL
  const uint64_t *level_start;    // levels + 2 entries
  uint32_t dir_log;               // directory sample every 2^dir_log internal nodes
  uint64_t dir_len;               // samples (>= 1 for a non-empty tree)
  const uint64_t *dir;            // every sample, or every 16th (compact)
  const uint16_t *dir_lo;         // compact: each sample's offset from its 64-bit one; or NULL
  uint32_t top_level;             // level of top_codes
  uint64_t top_count;             // nodes in the top level
  const uint64_t *top_codes;
  const uint64_t *bottom_codes; // codes of level levels-1, or NULL
  double weight;                  // the edge weight (iso value)
  uint64_t n_full;                // internal nodes marked full (signature 0)
  bool decoded_level;             // the matrix asks the CPU engine to keep its last internal
                                  // level decoded (K2_Matrix_setDecodedLevel)
} k2_view;

// 4-bit signature of internal node p.
static inline unsigned k2_view_sig(const k2_view *v, uint64_t p) {
  return (unsigned)((v->sig[p >> 4] >> ((p & 15) * 4)) & 15u);
}

// Whether internal node p is full (its whole block is ones; see above).
static inline bool k2_view_full(const k2_view *v, uint64_t p) { return k2_view_sig(v, p) == 0; }

// Bitmap of leaf q of a view with plain leaves (leafc NULL): a shift and a mask, for the
// inner loops that have dealt with compressed leaves apart.
static inline __attribute__((always_inline)) uint64_t k2_view_leaf_plain(const k2_view *v, uint64_t q) {
  uint64_t bit = q * v->leaf_bits;
  if (v->leaf_bits == 64) return v->leaves[q];
  return (v->leaves[bit >> 6] >> (bit & 63)) & ((UINT64_C(1) << v->leaf_bits) - 1);
}

// Bitmap of leaf q (0-based among leaves), leaf_bits wide (<= 64).
static inline uint64_t k2_view_leaf(const k2_view *v, uint64_t q) {
  if (__builtin_expect(v->leafc != NULL, 0)) return k2_leafc_leaf(v->leafc, q);
  return k2_view_leaf_plain(v, q);
}

// A compact directory keeps one 64-bit sample in 2^K2_DIR_LO_SHIFT; its 16-bit offsets need
// dir_log <= K2_DIR_LO_MAX_LOG.
#define K2_DIR_LO_SHIFT 4
#define K2_DIR_LO_MAX_LOG 10
// Entries of dir for `samples` samples.
static inline uint64_t k2_dir_words(uint64_t samples, bool compact) {
  return compact ? (samples + (1u << K2_DIR_LO_SHIFT) - 1) >> K2_DIR_LO_SHIFT : samples;
}

// Directory sample k: first_child(k * 2^dir_log).
static inline uint64_t k2_view_dir_sample(const k2_view *v, uint64_t k) {
  return v->dir_lo != NULL ? v->dir[k >> K2_DIR_LO_SHIFT] + v->dir_lo[k] : v->dir[k];
}

// First child of internal node p: its directory sample plus the fan-outs of the nodes between
// the sample and p (at most 2^dir_log / 16 words).
static inline uint64_t k2_view_first_child(const k2_view *v, uint64_t p) {
  uint64_t k = p >> v->dir_log, s = k << v->dir_log, r = k2_view_dir_sample(v, k);
  uint64_t w = s >> 4, wend = p >> 4;
  for (; w < wend; w++) r += (uint64_t)__builtin_popcountll(v->sig[w]);
  uint32_t sh = (uint32_t)(p & 15) * 4;
  if (sh) r += (uint64_t)__builtin_popcountll(v->sig[wend] & ((UINT64_C(1) << sh) - 1));
  return r;
}

// Morton codes interleave row and column bits, row bit above column bit at every level.
static inline uint64_t k2_morton_compact(uint64_t x) {
  x &= UINT64_C(0x5555555555555555);
  x = (x | (x >> 1)) & UINT64_C(0x3333333333333333);
  x = (x | (x >> 2)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
  x = (x | (x >> 4)) & UINT64_C(0x00FF00FF00FF00FF);
  x = (x | (x >> 8)) & UINT64_C(0x0000FFFF0000FFFF);
  x = (x | (x >> 16)) & UINT64_C(0x00000000FFFFFFFF);
  return x;
}
static inline uint64_t k2_morton_spread(uint64_t x) {
  x &= UINT64_C(0x00000000FFFFFFFF);
  x = (x | (x << 16)) & UINT64_C(0x0000FFFF0000FFFF);
  x = (x | (x << 8)) & UINT64_C(0x00FF00FF00FF00FF);
  x = (x | (x << 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
  x = (x | (x << 2)) & UINT64_C(0x3333333333333333);
  x = (x | (x << 1)) & UINT64_C(0x5555555555555555);
  return x;
}
static inline uint64_t k2_morton_encode(uint64_t row, uint64_t col) {
  return (k2_morton_spread(row) << 1) | k2_morton_spread(col);
}
// Both coordinates of a code at once (row in the high 32 bits, column in the low 32 bits):
// the inverse of a perfect shuffle, five swap steps instead of two compactions.
static inline uint64_t k2_morton_unshuffle(uint64_t x) {
#if defined(__BMI2__) && !defined(__CUDACC__)
  // two bit extractions where the CPU has them (the OpenMP engine's AVX2 + BMI2 build)
  return (_pext_u64(x, UINT64_C(0xAAAAAAAAAAAAAAAA)) << 32) | _pext_u64(x, UINT64_C(0x5555555555555555));
#else
  uint64_t t;
  t = (x ^ (x >> 1)) & UINT64_C(0x2222222222222222);
  x ^= t ^ (t << 1);
  t = (x ^ (x >> 2)) & UINT64_C(0x0C0C0C0C0C0C0C0C);
  x ^= t ^ (t << 2);
  t = (x ^ (x >> 4)) & UINT64_C(0x00F000F000F000F0);
  x ^= t ^ (t << 4);
  t = (x ^ (x >> 8)) & UINT64_C(0x0000FF000000FF00);
  x ^= t ^ (t << 8);
  t = (x ^ (x >> 16)) & UINT64_C(0x00000000FFFF0000);
  x ^= t ^ (t << 16);
  return x;
#endif
}
// Row and column of a code: for a node of level t these are its block coordinates (t bits each).
static inline void k2_morton_split(uint64_t code, uint64_t *row, uint64_t *col) {
  *row = k2_morton_compact(code >> 1);
  *col = k2_morton_compact(code);
}

#endif
