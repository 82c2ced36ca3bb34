// k2_full.c: full blocks (K2_Format.full_blocks): marking the full nodes of a tree, listing
// them, and expanding a marked tree back to a plain one (what the CUDA engine uploads).
// SPDX-License-Identifier: Apache-2.0
//
// A node is full when every cell of its block is an entry. Cells in the padding beyond
// nrows x ncols are never entries, so a block that crosses the border is never full: the rule
// "only blocks inside the matrix" needs no test of its own. Only the highest full node of a
// path is marked (signature 0, no children); a full leaf stays an all-ones leaf unless its parent
// is full too.
#include <stdlib.h>
#include <string.h>

#include "matrix/k2_matrix.h"
#include "util/k2_alloc.h"
#include "util/k2_error.h"

static inline unsigned k2_full_sig(const uint64_t *sig, uint64_t p) {
  return (unsigned)((sig[p >> 4] >> ((p & 15) * 4)) & 15u);
}
static inline bool k2_bit(const uint64_t *b, uint64_t i) { return (b[i >> 6] >> (i & 63)) & 1; }
static inline void k2_bit_set(uint64_t *b, uint64_t i) { b[i >> 6] |= UINT64_C(1) << (i & 63); }

static inline uint64_t k2_plain_leaf(const uint64_t *leaves, uint64_t q, uint32_t leaf_bits) {
  if (leaf_bits == 64) return leaves[q];
  const uint64_t bit = q * leaf_bits;
  return (leaves[bit >> 6] >> (bit & 63)) & ((UINT64_C(1) << leaf_bits) - 1);
}

uint64_t k2_tree_count_full(const k2_tree *t) {
  uint64_t n = 0;
  for (uint64_t p = 0; p < t->n_internal; p++) n += k2_full_sig(t->sig, p) == 0;
  return n;
}

GrB_Info k2_tree_mark_full(k2_tree *t) {
  t->full_blocks = true;
  t->n_full = 0;
  if (t->n_internal == 0) return GrB_SUCCESS;
  const uint32_t L = t->levels, leaf_bits = 1u << (2 * t->leaf_log);
  const uint64_t *ls = t->level_start, total = ls[L + 1];
  const uint64_t ones = leaf_bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << leaf_bits) - 1;
  const uint64_t words = (total + 63) / 64;
  uint64_t *full = k2_calloc(words, sizeof(uint64_t)), *kept = k2_calloc(words, sizeof(uint64_t));
  uint64_t *count = k2_calloc(L + 2, sizeof(uint64_t));
  if (full == NULL || kept == NULL || count == NULL) {
    free(full);
    free(kept);
    free(count);
    K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Matrix_build: no memory to find the full blocks");
  }
  // bottom-up: a leaf is full when all its cells are set, an internal node when it has four
  // children and all are full
  uint64_t any = 0;
  for (uint64_t q = 0; q < t->n_leaves; q++)
    if (k2_plain_leaf(t->leaves, q, leaf_bits) == ones) k2_bit_set(full, ls[L] + q), any++;
  for (uint32_t l = L; l-- > 0 && any > 0;) {
    uint64_t c = ls[l + 1];
    for (uint64_t p = ls[l]; p < ls[l + 1]; p++) {
      const unsigned s = k2_full_sig(t->sig, p);
      if (s == 15 && k2_bit(full, c) && k2_bit(full, c + 1) && k2_bit(full, c + 2) && k2_bit(full, c + 3))
        k2_bit_set(full, p);
      c += (uint64_t)__builtin_popcount(s);
    }
  }
  // top-down: a node is kept when its parent is kept and not full; kept full nodes are marked
  k2_bit_set(kept, 0);
  uint64_t n_full = 0;
  for (uint32_t l = 0; l < L; l++) {
    uint64_t c = ls[l + 1];
    for (uint64_t p = ls[l]; p < ls[l + 1]; p++) {
      const unsigned s = k2_full_sig(t->sig, p), nc = (unsigned)__builtin_popcount(s);
      if (k2_bit(kept, p)) {
        count[l]++;
        if (k2_bit(full, p)) n_full++;
        else
          for (unsigned k = 0; k < nc; k++) k2_bit_set(kept, c + k);
      }
      c += nc;
    }
  }
  for (uint64_t q = ls[L]; q < total; q++) count[L] += k2_bit(kept, q);
  if (n_full == 0) {  // nothing to mark: the plain tree is the marked one
    free(full);
    free(kept);
    free(count);
    return GrB_SUCCESS;
  }
  uint64_t n_int = 0;
  for (uint32_t l = 0; l < L; l++) n_int += count[l];
  uint64_t *sig = k2_calloc((n_int + 15) / 16 + 1, sizeof(uint64_t));
  uint64_t *leaves = k2_calloc(k2_tree_plain_leaf_words(count[L], t->leaf_log) + 1, sizeof(uint64_t));
  uint64_t *start = k2_calloc(L + 2, sizeof(uint64_t));
  if (sig == NULL || leaves == NULL || start == NULL) {
    free(full);
    free(kept);
    free(count);
    free(sig);
    free(leaves);
    free(start);
    K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Matrix_build: no memory for the tree with full blocks");
  }
  uint64_t at = 0;
  for (uint32_t l = 0; l < L; l++) {
    start[l] = at;
    for (uint64_t p = ls[l]; p < ls[l + 1]; p++) {
      if (!k2_bit(kept, p)) continue;
      const uint64_t s = k2_bit(full, p) ? 0 : k2_full_sig(t->sig, p);
      sig[at >> 4] |= s << ((at & 15) * 4);
      at++;
    }
  }
  start[L] = at;
  uint64_t q2 = 0;
  for (uint64_t q = 0; q < t->n_leaves; q++) {
    if (!k2_bit(kept, ls[L] + q)) continue;
    const uint64_t b = k2_plain_leaf(t->leaves, q, leaf_bits), bit = q2 * leaf_bits;
    leaves[bit >> 6] |= b << (bit & 63);
    q2++;
  }
  start[L + 1] = at + q2;
  free(full);
  free(kept);
  free(count);
  free(t->sig);
  free(t->leaves);
  free(t->level_start);
  t->sig = sig;
  t->leaves = leaves;
  t->level_start = start;
  t->n_internal = at;
  t->n_leaves = q2;
  t->n_full = n_full;
  return GrB_SUCCESS;
}

GrB_Info k2_full_list(const k2_view *v, k2_full_node **out, uint64_t *n) {
  *out = NULL;
  *n = v->n_full;
  if (v->n_full == 0 || v->n_internal == 0) {
    *n = 0;
    return GrB_SUCCESS;
  }
  uint64_t widest = 1;
  for (uint32_t l = 0; l < v->levels; l++) {
    const uint64_t c = v->level_start[l + 1] - v->level_start[l];
    if (c > widest) widest = c;
  }
  k2_full_node *list = k2_malloc(v->n_full * sizeof *list);
  uint64_t *cur = k2_malloc(widest * sizeof(uint64_t)), *next = k2_malloc(widest * sizeof(uint64_t));
  if (list == NULL || cur == NULL || next == NULL) {
    free(list);
    free(cur);
    free(next);
    K2_FAIL(GrB_OUT_OF_MEMORY, "no memory to list the %llu full blocks", (unsigned long long)v->n_full);
  }
  // the Morton codes of each level from the root's, level by level
  uint64_t m = 0;
  cur[0] = 0;
  for (uint32_t l = 0; l < v->levels; l++) {
    const uint64_t first = v->level_start[l], cnt = v->level_start[l + 1] - first;
    const uint32_t shift = v->side_log - l;
    uint64_t k = 0;
    for (uint64_t i = 0; i < cnt; i++) {
      const unsigned s = k2_view_sig(v, first + i);
      if (s == 0 && m < v->n_full) {
        uint64_t br, bc;
        k2_morton_split(cur[i], &br, &bc);
        list[m++] = (k2_full_node){first + i, br << shift, bc << shift, l};
      }
      if (l + 1 < v->levels)
        for (unsigned b = 0; b < 4; b++)
          if (s & (1u << b)) next[k++] = (cur[i] << 2) | b;
    }
    uint64_t *sw = cur;
    cur = next;
    next = sw;
  }
  free(cur);
  free(next);
  *out = list;
  *n = m;
  return GrB_SUCCESS;
}

// The node counts of the expanded tree, level by level (levels + 1 entries: internal levels,
// then the leaves). false: a count overflows 64 bits.
static bool k2_full_expanded_counts(const k2_tree *t, uint64_t *e) {
  const uint32_t L = t->levels;
  uint64_t synth = 0;  // nodes of this level below a full node
  for (uint32_t l = 0; l <= L; l++) {
    const uint64_t have = t->level_start[l + 1] - t->level_start[l];
    if (__builtin_add_overflow(have, synth, &e[l])) return false;
    if (l == L) break;
    uint64_t f = 0;
    for (uint64_t p = t->level_start[l]; p < t->level_start[l + 1]; p++) f += k2_full_sig(t->sig, p) == 0;
    if (__builtin_add_overflow(f, synth, &synth) || __builtin_mul_overflow(synth, 4, &synth)) return false;
  }
  return true;
}

// Bytes of signatures and plain leaves of a tree with these counts; false on overflow.
static bool k2_full_plain_bytes(const uint64_t *e, uint32_t L, uint32_t leaf_log, uint64_t *bytes) {
  uint64_t n_int = 0, leaf_bits;
  for (uint32_t l = 0; l < L; l++)
    if (__builtin_add_overflow(n_int, e[l], &n_int)) return false;
  if (__builtin_mul_overflow(e[L], UINT64_C(1) << (2 * leaf_log), &leaf_bits)) return false;
  const uint64_t words = (n_int + 15) / 16 + leaf_bits / 64 + (leaf_bits % 64 != 0);
  return !__builtin_mul_overflow(words, 8, bytes);
}

uint64_t k2_full_saved_bytes(const k2_tree *t) {
  if (t->n_full == 0 || t->n_internal == 0) return 0;
  uint64_t e[66], plain;
  if (!k2_full_expanded_counts(t, e) || !k2_full_plain_bytes(e, t->levels, t->leaf_log, &plain))
    return UINT64_MAX;
  const uint64_t now = (k2_tree_sig_words(t) + k2_tree_plain_leaf_words(t->n_leaves, t->leaf_log)) * 8;
  return plain > now ? plain - now : 0;
}

#define K2_SYNTH UINT64_MAX  // a node below a full node: all ones

GrB_Info k2_tree_expand_full(k2_tree *dst, const k2_tree *src, const K2_Format *fmt) {
  k2_tree nt;
  memset(&nt, 0, sizeof nt);
  nt.nrows = src->nrows;
  nt.ncols = src->ncols;
  nt.nvals = src->nvals;
  nt.side_log = src->side_log;
  nt.levels = src->levels;
  nt.leaf_log = src->leaf_log;
  const uint32_t L = src->levels, leaf_bits = 1u << (2 * src->leaf_log);
  const uint64_t ones = leaf_bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << leaf_bits) - 1;
  uint64_t e[66] = {0}, bytes = 0;
  if (src->n_internal > 0) {
    const bool fits = k2_full_expanded_counts(src, e) && k2_full_plain_bytes(e, L, src->leaf_log, &bytes);
    if (!fits || bytes > K2_FULL_EXPAND_MAX_BYTES)
      K2_FAIL(GrB_OUT_OF_MEMORY,
              "the %llu x %llu matrix with full blocks (%llu entries) would take %s%llu bytes of "
              "signatures and leaves as a plain tree, over the limit of %llu (16 GiB)",
              (unsigned long long)src->nrows, (unsigned long long)src->ncols,
              (unsigned long long)src->nvals, fits ? "" : "more than ",
              (unsigned long long)(fits ? bytes : UINT64_MAX),
              (unsigned long long)K2_FULL_EXPAND_MAX_BYTES);
  }
  nt.level_start = k2_calloc(L + 2, sizeof(uint64_t));
  if (nt.level_start == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "no memory to expand the full blocks");
  if (src->n_internal == 0) {
    GrB_Info info = k2_tree_derive(&nt, fmt);
    if (info != GrB_SUCCESS) {
      k2_tree_clear(&nt);
      return info;
    }
    *dst = nt;
    return GrB_SUCCESS;
  }
  uint64_t widest = 1, n_int = 0;
  for (uint32_t l = 0; l <= L; l++) {
    nt.level_start[l] = n_int;
    if (e[l] > widest) widest = e[l];
    n_int += e[l];
  }
  nt.level_start[L + 1] = n_int;
  nt.n_internal = nt.level_start[L];
  nt.n_leaves = e[L];
  nt.sig = k2_calloc((nt.n_internal + 15) / 16 + 1, sizeof(uint64_t));
  nt.leaves = k2_calloc(k2_tree_plain_leaf_words(nt.n_leaves, nt.leaf_log) + 1, sizeof(uint64_t));
  uint64_t *cur = k2_malloc(widest * sizeof(uint64_t)), *next = k2_malloc(widest * sizeof(uint64_t));
  if (nt.sig == NULL || nt.leaves == NULL || cur == NULL || next == NULL) {
    free(cur);
    free(next);
    k2_tree_clear(&nt);
    K2_FAIL(GrB_OUT_OF_MEMORY, "no memory to expand the full blocks (%llu bytes)", (unsigned long long)bytes);
  }
  k2_view sv;
  k2_tree_view(&sv, src, 1.0);
  // level by level: each node of the expanded level is a node of src or a synthetic one
  cur[0] = 0;
  uint64_t at = 0;
  for (uint32_t l = 0; l < L; l++) {
    uint64_t k = 0, c = src->level_start[l + 1];  // the next child of src, in level order
    for (uint64_t i = 0; i < e[l]; i++) {
      const unsigned s = cur[i] == K2_SYNTH ? 0 : k2_view_sig(&sv, cur[i]);
      const uint64_t out = s == 0 ? 15 : s;
      nt.sig[at >> 4] |= out << ((at & 15) * 4);
      at++;
      if (s == 0) {
        for (unsigned b = 0; b < 4; b++) next[k++] = K2_SYNTH;
      } else {
        for (unsigned b = 0; b < (unsigned)__builtin_popcount(s); b++) next[k++] = c++;
      }
    }
    uint64_t *sw = cur;
    cur = next;
    next = sw;
  }
  for (uint64_t i = 0; i < e[L]; i++) {
    const uint64_t b = cur[i] == K2_SYNTH ? ones : k2_view_leaf(&sv, cur[i] - src->n_internal);
    const uint64_t bit = i * leaf_bits;
    nt.leaves[bit >> 6] |= b << (bit & 63);
  }
  free(cur);
  free(next);
  K2_Format f = *fmt;
  f.full_blocks = false;
  f.compress_leaves = false;
  GrB_Info info = k2_tree_derive(&nt, &f);
  if (info != GrB_SUCCESS) {
    k2_tree_clear(&nt);
    return info;
  }
  *dst = nt;
  return GrB_SUCCESS;
}
