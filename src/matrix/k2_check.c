// k2_check.c: structural validation of a k²-tree (k2_tree_check), run on every loaded file.
// SPDX-License-Identifier: Apache-2.0
//
// A file whose checksums are right can still describe a broken tree (a buggy or hostile
// writer), and the engines trust the tree blindly: a wrong child count sends them out of the
// arrays. So every invariant the engines rely on is checked here, in two passes:
//  1. a linear scan of the signatures and leaves: level sizes against popcounts, no empty
//     node, zero padding bits, the directory, nvals;
//  2. a depth-first walk with one cursor per level (in a k²-tree the depth-first order visits
//     each level in level order), which knows every node's block: nothing may lie in the
//     padding beyond nrows/ncols, and the top-level and bottom Morton codes must match (or,
//     for a tree read without its bottom codes, the walk writes them: k2_tree_check_codes).
// The directory and the top codes may be absent (dir_len, top_count 0; top level 0): the tree
// is complete without them (k2_tree_view), so a tree read without them can be checked before
// they are derived. The caller guarantees that the arrays have the lengths implied by the counts
// (n_internal, n_leaves, levels, dir_len, top_count, and the size of level levels-1 for the
// bottom codes).
#include <stdio.h>
#include <string.h>

#include "matrix/k2_matrix.h"
#include "util/k2_error.h"

#define K2_CHECK_FAIL(...) return k2_error_set(GrB_INVALID_OBJECT, "k2 tree: " __VA_ARGS__)

static inline unsigned sig_at(const uint64_t *sig, uint64_t p) {
  return (unsigned)((sig[p >> 4] >> ((p & 15) * 4)) & 15u);
}

static inline uint64_t leaf_get(const k2_tree *t, uint64_t q, uint32_t leaf_bits) {
  if (t->leaf_codes != NULL) return k2_leafc_leaf(&t->lc, q);
  if (leaf_bits == 64) return t->leaves[q];
  uint64_t bit = q * leaf_bits;
  return (t->leaves[bit >> 6] >> (bit & 63)) & ((UINT64_C(1) << leaf_bits) - 1);
}

// The cells of a leaf that lie inside the matrix: rows < vr, columns < vc (of side L).
static uint64_t leaf_valid_mask(uint32_t L, uint64_t vr, uint64_t vc) {
  uint64_t row = (vc >= 64) ? ~UINT64_C(0) : ((UINT64_C(1) << vc) - 1);
  uint64_t m = 0;
  for (uint64_t r = 0; r < vr && r < L; r++) m |= row << (r * L);
  return m;
}

// Pass 1: counts, popcounts, padding, directory, nvals.
static GrB_Info check_scan(const k2_tree *t, uint32_t leaf_bits) {
  const uint64_t *ls = t->level_start;
  const uint32_t L = t->levels;

  // level sizes: the root alone at level 0, each level non-empty and consistent with the
  // popcounts of the level above (checked below)
  if (ls[0] != 0) K2_CHECK_FAIL("level_start[0] = %llu, not 0", (unsigned long long)ls[0]);
  if (ls[1] != 1) K2_CHECK_FAIL("level_start[1] = %llu, not 1 (one root)", (unsigned long long)ls[1]);
  // with full blocks a level below full nodes only is empty (and so are the levels below it:
  // the popcounts say so)
  for (uint32_t l = 1; l <= L; l++) {
    if (ls[l + 1] < ls[l] || (ls[l + 1] == ls[l] && !t->full_blocks))
      K2_CHECK_FAIL("level %u is empty or level_start decreases (%llu .. %llu)", l,
                    (unsigned long long)ls[l], (unsigned long long)ls[l + 1]);
  }
  if (ls[L] != t->n_internal)
    K2_CHECK_FAIL("level_start[%u] = %llu but there are %llu internal nodes", L,
                  (unsigned long long)ls[L], (unsigned long long)t->n_internal);
  uint64_t total;
  if (__builtin_add_overflow(t->n_internal, t->n_leaves, &total) || ls[L + 1] != total)
    K2_CHECK_FAIL("level_start[%u] = %llu but there are %llu internal nodes and %llu leaves",
                  L + 1, (unsigned long long)ls[L + 1], (unsigned long long)t->n_internal,
                  (unsigned long long)t->n_leaves);

  // signatures: none empty, children of level l = size of level l + 1, directory samples
  const uint64_t dir_step = UINT64_C(1) << t->dir_log;
  uint64_t first_child = 1;  // first_child(p) = 1 + popcounts of the signatures before p
  uint64_t nvals = 0, n_full = 0;  // the entries of the full nodes, then of the leaves
  for (uint32_t l = 0; l < L; l++) {
    uint64_t children = 0;
    for (uint64_t p = ls[l]; p < ls[l + 1]; p++) {
      if (t->dir_len > 0 && (p & (dir_step - 1)) == 0) {
        uint64_t k = p >> t->dir_log;
        if (k >= t->dir_len)
          K2_CHECK_FAIL("directory has %llu entries, node %llu needs entry %llu",
                        (unsigned long long)t->dir_len, (unsigned long long)p,
                        (unsigned long long)k);
        const uint64_t sample = t->dir_lo != NULL
                                    ? t->dir[k >> K2_DIR_LO_SHIFT] + t->dir_lo[k]
                                    : t->dir[k];
        if (sample != first_child)
          K2_CHECK_FAIL("directory entry %llu = %llu, first child of node %llu is %llu",
                        (unsigned long long)k, (unsigned long long)sample,
                        (unsigned long long)p, (unsigned long long)first_child);
      }
      unsigned s = sig_at(t->sig, p);
      if (s == 0 && !t->full_blocks)
        K2_CHECK_FAIL("internal node %llu (level %u) has an empty signature (a full-block mark, "
                      "but the image does not use full blocks)", (unsigned long long)p, l);
      if (s == 0) {
        n_full++;
        if (__builtin_add_overflow(nvals, k2_full_area(t->side_log, l), &nvals) || nvals > t->nvals)
          K2_CHECK_FAIL("the full nodes up to node %llu (level %u) hold more entries than nvals "
                        "(%llu)", (unsigned long long)p, l, (unsigned long long)t->nvals);
      }
      unsigned c = (unsigned)__builtin_popcount(s);
      children += c;
      first_child += c;
    }
    if (children != ls[l + 2] - ls[l + 1])
      K2_CHECK_FAIL("level %u has %llu children but level %u has %llu nodes", l,
                    (unsigned long long)children, l + 1,
                    (unsigned long long)(ls[l + 2] - ls[l + 1]));
  }
  if (t->n_internal % 16 != 0) {
    uint64_t pad = t->sig[t->n_internal / 16] >> (4 * (t->n_internal % 16));
    if (pad != 0) K2_CHECK_FAIL("padding bits after the last signature are not zero");
  }

  // leaves: none empty, padding zero, nvals = popcount (compressed: the codes checked first,
  // then read as the engines read them)
  if (t->n_full != n_full)
    K2_CHECK_FAIL("%llu full nodes counted, %llu found", (unsigned long long)t->n_full,
                  (unsigned long long)n_full);
  if (t->leaf_codes != NULL) {
    GrB_Info info = k2_leafc_check(&t->lc);
    if (info != GrB_SUCCESS) return info;
  }
  for (uint64_t q = 0; q < t->n_leaves; q++) {
    uint64_t b = leaf_get(t, q, leaf_bits);
    if (b == 0) K2_CHECK_FAIL("leaf %llu is empty", (unsigned long long)q);
    nvals += (uint64_t)__builtin_popcountll(b);
  }
  uint64_t used = t->n_leaves * leaf_bits;  // fits: the caller sized the array from it
  if (t->leaf_codes == NULL && used % 64 != 0 && (t->leaves[used / 64] >> (used % 64)) != 0)
    K2_CHECK_FAIL("padding bits after the last leaf are not zero");
  if (nvals != t->nvals)
    K2_CHECK_FAIL("nvals is %llu but the leaves%s hold %llu entries",
                  (unsigned long long)t->nvals, n_full ? " and the full nodes" : "",
                  (unsigned long long)nvals);
  return GrB_SUCCESS;
}

typedef struct {
  uint64_t row, col;  // block coordinates at its level
  uint64_t code;      // Morton code (row bit above column bit per level)
  unsigned rest;      // children not visited yet (signature bits)
  bool inside;        // the block lies entirely inside nrows x ncols: so do its descendants
} k2_check_frame;

typedef struct {
  const k2_tree *t;
  uint32_t leaf_bits, leaf_side;
  uint64_t full_mask;
  uint64_t cursor[66];  // next node of each level
  uint64_t *bottom_out; // where the codes of level levels-1 go, or NULL
} k2_walk;

// A child at level cl of a node (row, col, code) through quadrant b: its block must meet the
// matrix, its code must match the stored ones. Fills the child's frame (rest unset).
static GrB_Info walk_child(k2_walk *w, const k2_check_frame *f, unsigned b, uint32_t cl,
                           uint64_t child, k2_check_frame *c) {
  const k2_tree *t = w->t;
  const uint64_t *ls = t->level_start;
  c->row = 2 * f->row + (b >> 1);
  c->col = 2 * f->col + (b & 1);
  c->code = (f->code << 2) | b;
  c->inside = f->inside;
  if (!c->inside) {
    uint32_t shift = t->side_log - cl;  // log of the child's block side
    uint64_t r0 = c->row << shift, c0 = c->col << shift;
    if (r0 >= t->nrows || c0 >= t->ncols)
      K2_CHECK_FAIL("node %llu (level %u, rows %llu.., columns %llu..) lies entirely in the "
                    "padding of a %llu x %llu matrix",
                    (unsigned long long)child, cl, (unsigned long long)r0,
                    (unsigned long long)c0, (unsigned long long)t->nrows,
                    (unsigned long long)t->ncols);
    uint64_t side = UINT64_C(1) << shift;
    c->inside = r0 + side <= t->nrows && c0 + side <= t->ncols;
  }
  if (cl == t->top_level && t->top_count > 0 && t->top_codes[child - ls[cl]] != c->code)
    K2_CHECK_FAIL("top code %llu is %llu, node %llu has code %llu",
                  (unsigned long long)(child - ls[cl]),
                  (unsigned long long)t->top_codes[child - ls[cl]], (unsigned long long)child,
                  (unsigned long long)c->code);
  if (cl + 1 == t->levels && w->bottom_out != NULL) w->bottom_out[child - ls[cl]] = c->code;
  if (cl + 1 == t->levels && t->bottom_codes != NULL &&
      t->bottom_codes[child - ls[cl]] != c->code)
    K2_CHECK_FAIL("bottom code %llu is %llu, node %llu has code %llu",
                  (unsigned long long)(child - ls[cl]),
                  (unsigned long long)t->bottom_codes[child - ls[cl]],
                  (unsigned long long)child, (unsigned long long)c->code);
  return GrB_SUCCESS;
}

// The leaves under a node of the last internal level. Leaves of a block inside the matrix
// need no check (pass 1 saw them all): only the cursor moves.
static GrB_Info walk_leaves(k2_walk *w, const k2_check_frame *f, unsigned sig) {
  const k2_tree *t = w->t;
  const uint32_t L = t->levels;
  if (f->inside) {
    w->cursor[L] += (uint64_t)__builtin_popcount(sig);
    return GrB_SUCCESS;
  }
  for (; sig != 0; sig &= sig - 1) {
    unsigned b = (unsigned)__builtin_ctz(sig);
    uint64_t child = w->cursor[L]++;
    if (child >= t->level_start[L + 1])  // cannot happen after pass 1
      K2_CHECK_FAIL("the leaf level overflows while walking the tree");
    k2_check_frame c;
    GrB_Info info = walk_child(w, f, b, L, child, &c);
    if (info != GrB_SUCCESS) return info;
    uint64_t r0 = c.row << t->leaf_log, c0 = c.col << t->leaf_log;
    uint64_t vr = t->nrows - r0, vc = t->ncols - c0;  // both > 0 (walk_child)
    if (vr >= w->leaf_side && vc >= w->leaf_side) continue;
    uint64_t q = child - t->n_internal;
    uint64_t bits = leaf_get(t, q, w->leaf_bits);
    uint64_t outside = bits & w->full_mask & ~leaf_valid_mask(w->leaf_side, vr, vc);
    if (outside != 0) {
      unsigned cell = (unsigned)__builtin_ctzll(outside);
      K2_CHECK_FAIL("leaf %llu has an entry (%llu, %llu) outside the %llu x %llu matrix",
                    (unsigned long long)q, (unsigned long long)(r0 + cell / w->leaf_side),
                    (unsigned long long)(c0 + cell % w->leaf_side),
                    (unsigned long long)t->nrows, (unsigned long long)t->ncols);
    }
  }
  return GrB_SUCCESS;
}

// Pass 2: depth-first walk; every node's block must meet the matrix, codes must match.
static GrB_Info check_walk(const k2_tree *t, uint32_t leaf_bits, uint64_t *bottom_out) {
  const uint64_t *ls = t->level_start;
  const uint32_t L = t->levels;
  k2_walk w = {.t = t, .leaf_bits = leaf_bits, .leaf_side = UINT32_C(1) << t->leaf_log,
               .bottom_out = bottom_out};
  if (L == 1 && bottom_out != NULL) bottom_out[0] = 0;
  w.full_mask = (leaf_bits == 64) ? ~UINT64_C(0) : ((UINT64_C(1) << leaf_bits) - 1);
  for (uint32_t l = 0; l <= L; l++) w.cursor[l] = ls[l];
  w.cursor[0] = 1;
  if (t->top_level == 0 && t->top_count > 0 && t->top_codes[0] != 0)
    K2_CHECK_FAIL("top code 0 (the root) is %llu, not 0", (unsigned long long)t->top_codes[0]);
  if (L == 1 && t->bottom_codes != NULL && t->bottom_codes[0] != 0)
    K2_CHECK_FAIL("bottom code 0 (the root) is %llu, not 0",
                  (unsigned long long)t->bottom_codes[0]);
  k2_check_frame stack[66];  // stack[d] is a node of level d
  stack[0] = (k2_check_frame){0, 0, 0, sig_at(t->sig, 0), false};
  const uint64_t side = UINT64_C(1) << t->side_log;
  if (stack[0].rest == 0 && (t->nrows != side || t->ncols != side))
    K2_CHECK_FAIL("the root is full but the %llu x %llu matrix does not fill its padded side %llu",
                  (unsigned long long)t->nrows, (unsigned long long)t->ncols, (unsigned long long)side);
  GrB_Info info;
  if (L == 1) {
    if ((info = walk_leaves(&w, &stack[0], stack[0].rest)) != GrB_SUCCESS) return info;
    stack[0].rest = 0;
  }
  int depth = 0;
  while (depth >= 0) {
    k2_check_frame *f = &stack[depth];
    if (f->rest == 0) {
      depth--;
      continue;
    }
    unsigned b = (unsigned)__builtin_ctz(f->rest);
    f->rest &= f->rest - 1;
    uint32_t cl = (uint32_t)depth + 1;  // the child's level, < L
    uint64_t child = w.cursor[cl]++;
    if (child >= ls[cl + 1])  // cannot happen after pass 1; keeps the walk inside the arrays
      K2_CHECK_FAIL("level %u overflows while walking the tree", cl);
    k2_check_frame *c = &stack[depth + 1];
    if ((info = walk_child(&w, f, b, cl, child, c)) != GrB_SUCCESS) return info;
    unsigned s = sig_at(t->sig, child);
    if (s == 0 && !c->inside)  // a full node's block must be inside the matrix (k2_view.h)
      K2_CHECK_FAIL("full node %llu (level %u, rows %llu.., columns %llu..) crosses the border "
                    "of the %llu x %llu matrix", (unsigned long long)child, cl,
                    (unsigned long long)(c->row << (t->side_log - cl)),
                    (unsigned long long)(c->col << (t->side_log - cl)),
                    (unsigned long long)t->nrows, (unsigned long long)t->ncols);
    if (cl + 1 == L) {  // its children are leaves: no frame needed
      if ((info = walk_leaves(&w, c, s)) != GrB_SUCCESS) return info;
      continue;
    }
    c->rest = s;
    depth++;
  }
  for (uint32_t l = 1; l <= L; l++) {
    if (w.cursor[l] != ls[l + 1])
      K2_CHECK_FAIL("level %u: the walk reached %llu of %llu nodes", l,
                    (unsigned long long)(w.cursor[l] - ls[l]),
                    (unsigned long long)(ls[l + 1] - ls[l]));
  }
  return GrB_SUCCESS;
}

GrB_Info k2_tree_check(const k2_tree *t) { return k2_tree_check_codes(t, NULL); }

GrB_Info k2_tree_check_codes(const k2_tree *t, uint64_t *bottom_out) {
  if (t == NULL) return k2_error_set(GrB_NULL_POINTER, "k2 tree: NULL");
  // shape and format parameters
  if (t->nrows > K2_INDEX_MAX || t->ncols > K2_INDEX_MAX)
    K2_CHECK_FAIL("shape %llu x %llu exceeds 2^32", (unsigned long long)t->nrows,
                  (unsigned long long)t->ncols);
  if (t->leaf_log < 1 || t->leaf_log > 3) K2_CHECK_FAIL("leaf_log %u is not 1, 2 or 3", t->leaf_log);
  uint32_t side_log = k2_tree_side_log(t->nrows, t->ncols, t->leaf_log);
  if (t->side_log != side_log)
    K2_CHECK_FAIL("side_log %u, a %llu x %llu matrix with leaf_log %u needs %u", t->side_log,
                  (unsigned long long)t->nrows, (unsigned long long)t->ncols, t->leaf_log,
                  side_log);
  if (t->levels != t->side_log - t->leaf_log)
    K2_CHECK_FAIL("levels %u, side_log - leaf_log is %u", t->levels, t->side_log - t->leaf_log);
  if (t->dir_log < 4 || t->dir_log > 62)
    K2_CHECK_FAIL("dir_log %u is not in 4..62 (samples of whole signature words)", t->dir_log);
  if (t->dir_lo != NULL && t->dir_log > K2_DIR_LO_MAX_LOG)
    K2_CHECK_FAIL("a compact directory every 2^%u nodes: its 16-bit offsets need 2^%u at most",
                  t->dir_log, K2_DIR_LO_MAX_LOG);
  uint64_t dir_step = UINT64_C(1) << t->dir_log;
  // no directory at all (0 samples) is valid: lookups count from node 0
  if (t->dir_len != 0 && t->dir_len != t->n_internal / dir_step + (t->n_internal % dir_step != 0))
    K2_CHECK_FAIL("%llu directory entries, %llu internal nodes sampled every %llu need %llu",
                  (unsigned long long)t->dir_len, (unsigned long long)t->n_internal,
                  (unsigned long long)dir_step,
                  (unsigned long long)(t->n_internal / dir_step + (t->n_internal % dir_step != 0)));
  if (t->top_level >= t->levels)
    K2_CHECK_FAIL("top level %u is not an internal level (%u levels)", t->top_level, t->levels);
  const uint32_t leaf_bits = UINT32_C(1) << (2 * t->leaf_log);
  const uint64_t *ls = t->level_start;

  // the empty tree: no nodes at all
  if (t->n_internal == 0) {
    for (uint32_t l = 0; l <= t->levels + 1; l++) {
      if (ls[l] != 0)
        K2_CHECK_FAIL("empty tree but level_start[%u] = %llu", l, (unsigned long long)ls[l]);
    }
    if (t->n_leaves != 0 || t->nvals != 0)
      K2_CHECK_FAIL("no internal nodes but %llu leaves and %llu entries",
                    (unsigned long long)t->n_leaves, (unsigned long long)t->nvals);
    if (t->top_count != 0 || t->top_level != 0)
      K2_CHECK_FAIL("empty tree but %llu top codes at level %u", (unsigned long long)t->top_count,
                    t->top_level);
    return GrB_SUCCESS;
  }
  if (t->nrows == 0 || t->ncols == 0)
    K2_CHECK_FAIL("a %llu x %llu matrix with %llu nodes", (unsigned long long)t->nrows,
                  (unsigned long long)t->ncols, (unsigned long long)t->n_internal);
  // no top codes (0) is valid at level 0, the root, whose code is 0
  if (t->top_count == 0 && t->top_level != 0)
    K2_CHECK_FAIL("no top codes but top level %u", t->top_level);
  if (t->top_count != 0 && t->top_count != ls[t->top_level + 1] - ls[t->top_level])
    K2_CHECK_FAIL("%llu top codes but level %u has %llu nodes",
                  (unsigned long long)t->top_count, t->top_level,
                  (unsigned long long)(ls[t->top_level + 1] - ls[t->top_level]));
  GrB_Info info = check_scan(t, leaf_bits);
  if (info != GrB_SUCCESS) return info;
  return check_walk(t, leaf_bits, bottom_out);
}
