// k2_tree.c: the tree arrays: sizes, derived parts (directory, top level, bottom codes), views.
// SPDX-License-Identifier: Apache-2.0
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "matrix/k2_matrix.h"
#include "util/k2_error.h"

uint64_t k2_tree_sig_words(const k2_tree *t) { return (t->n_internal + 15) / 16; }

uint64_t k2_tree_plain_leaf_words(uint64_t n_leaves, uint32_t leaf_log) {
  uint64_t bits = UINT64_C(1) << (2 * leaf_log);
  return (n_leaves * bits + 63) / 64;
}

uint64_t k2_tree_leaf_words(const k2_tree *t) {
  return t->leaf_codes != NULL ? t->leaf_code_words : k2_tree_plain_leaf_words(t->n_leaves, t->leaf_log);
}

GrB_Info k2_tree_compress_leaves(k2_tree *t) {
  uint64_t *codes, n_words;
  GrB_Info info = k2_leafc_encode(&codes, &n_words, t->leaves, t->n_leaves, 1u << (2 * t->leaf_log));
  if (info != GrB_SUCCESS || codes == NULL) return info;  // no leaves: nothing to compress
  if (n_words >= k2_tree_plain_leaf_words(t->n_leaves, t->leaf_log)) {
    // the vocabulary and code tables cost more than the leaves they replace (a few leaves): the
    // bitmaps stay, as for an empty tree, so that the option never makes a tree larger
    free(codes);
    return GrB_SUCCESS;
  }
  info = k2_leafc_open(&t->lc, codes, n_words, t->n_leaves, 1u << (2 * t->leaf_log));
  if (info != GrB_SUCCESS) {
    free(codes);
    return info;
  }
  free(t->leaves);
  t->leaves = NULL;
  t->leaf_codes = codes;
  t->leaf_code_words = n_words;
  return GrB_SUCCESS;
}

uint64_t k2_tree_core_bytes(const k2_tree *t) {
  return (k2_tree_sig_words(t) + k2_tree_leaf_words(t)) * sizeof(uint64_t);
}

void k2_tree_clear(k2_tree *t) {
  free(t->dir);  // derived: the tree's own even when the rest is borrowed
  free(t->dir_lo);
  free(t->top_codes);
  free(t->bottom_codes);
  if (t->borrowed) {
    if (t->map != NULL) munmap(t->map, t->map_len);
  } else {
    free(t->sig);
    free(t->leaves);
    free(t->leaf_codes);
    free(t->level_start);
  }
  uint64_t nrows = t->nrows, ncols = t->ncols;
  uint32_t leaf_log = t->leaf_log, side_log = t->side_log, levels = t->levels;
  memset(t, 0, sizeof *t);
  t->nrows = nrows;
  t->ncols = ncols;
  t->leaf_log = leaf_log;
  t->side_log = side_log;
  t->levels = levels;
}

uint32_t k2_tree_side_log(uint64_t nrows, uint64_t ncols, uint32_t leaf_log) {
  uint64_t n = nrows > ncols ? nrows : ncols;
  uint32_t side_log = leaf_log + 1;  // the root is always an internal node
  while (side_log < 64 && (UINT64_C(1) << side_log) < n) side_log++;
  return side_log;
}

uint64_t k2_dir_bytes(uint64_t samples, bool compact) {
  return k2_dir_words(samples, compact) * sizeof(uint64_t) + (compact ? samples * sizeof(uint16_t) : 0);
}

// The first child of every sampled node, by a running sum of fan-outs: one pass over the
// signatures. Compact (dir_log <= K2_DIR_LO_MAX_LOG): a 64-bit sample every 16 and 16-bit
// offsets from it: 2.5 bytes a sample instead of 8, for the same lookups.
static GrB_Info k2_tree_build_directory(k2_tree *t, uint32_t dir_log, uint64_t samples) {
  const bool compact = dir_log <= K2_DIR_LO_MAX_LOG;
  t->dir_log = dir_log;
  t->dir = malloc(k2_dir_words(samples, compact) * sizeof(uint64_t));
  t->dir_lo = compact ? malloc(samples * sizeof(uint16_t)) : NULL;
  if (t->dir == NULL || (compact && t->dir_lo == NULL)) {
    free(t->dir);
    free(t->dir_lo);
    t->dir = NULL;
    t->dir_lo = NULL;
    K2_FAIL(GrB_OUT_OF_MEMORY, "k2 tree: no memory for the directory");
  }
  t->dir_len = samples;
  // Words of 16 nibbles; a sample every 2^dir_log nodes (dir_log >= 4: whole words).
  uint64_t next_child = 1, words = k2_tree_sig_words(t), per_sample = (UINT64_C(1) << dir_log) / 16;
  for (uint64_t k = 0; k < samples; k++) {
    if (!compact) {
      t->dir[k] = next_child;
    } else {
      if ((k & ((1u << K2_DIR_LO_SHIFT) - 1)) == 0) t->dir[k >> K2_DIR_LO_SHIFT] = next_child;
      t->dir_lo[k] = (uint16_t)(next_child - t->dir[k >> K2_DIR_LO_SHIFT]);
    }
    uint64_t w0 = k * per_sample, w1 = w0 + per_sample;
    if (w1 > words) w1 = words;
    for (uint64_t w = w0; w < w1; w++) next_child += (uint64_t)__builtin_popcountll(t->sig[w]);
  }
  return GrB_SUCCESS;
}

GrB_Info k2_tree_expand_codes(const k2_tree *t, uint32_t last, uint64_t **codes_out) {
  static const uint64_t root = 0;
  return k2_codes_expand(t->sig, t->level_start, 0, &root, last, codes_out);
}

GrB_Info k2_tree_bottom_codes(const k2_tree *t, uint64_t **codes_out) {
  static const uint64_t root = 0;
  return k2_codes_expand(t->sig, t->level_start, t->top_level, t->top_codes != NULL ? t->top_codes : &root,
                         t->levels - 1, codes_out);
}

// The set quadrants of a signature s in ascending order, two bits each from the low end.
static const uint8_t k2_quadrants_in_order[16] = {
    0x00, 0x00, 0x01, 0x04, 0x02, 0x08, 0x09, 0x24, 0x03, 0x0C, 0x0D, 0x34, 0x0E, 0x38, 0x39, 0xE4};

GrB_Info k2_codes_expand(const uint64_t *sig, const uint64_t *level_start, uint32_t from,
                         const uint64_t *from_codes, uint32_t last, uint64_t **codes_out) {
  // Two buffers of the widest level, used in turn: one allocation (and one first touch of each
  // page) for all the levels, not one per level.
  uint64_t widest = 1;
  for (uint32_t lvl = from; lvl <= last; lvl++) {
    uint64_t c = level_start[lvl + 1] - level_start[lvl];
    if (c > widest) widest = c;
  }
  // (3 spare slots: every node writes four candidate children, the next one overwrites the unset)
  uint64_t *cur = malloc((widest + 3) * sizeof(uint64_t));
  uint64_t *next = last > from ? malloc((widest + 3) * sizeof(uint64_t)) : NULL;
  if (cur == NULL || (last > from && next == NULL)) {
    free(cur);
    free(next);
    K2_FAIL(GrB_OUT_OF_MEMORY, "k2 tree: no memory for Morton codes");
  }
  memcpy(cur, from_codes, (level_start[from + 1] - level_start[from]) * sizeof(uint64_t));
  for (uint32_t lvl = from; lvl < last; lvl++) {
    uint64_t first = level_start[lvl], count = level_start[lvl + 1] - first;
    // In parallel over contiguous ranges of the level: each range's children start after the
    // children of the ranges before it (a count pass, a prefix sum, then the writes).
    int nt = count < 65536 ? 1 : omp_get_max_threads();
    if (nt > 256) nt = 256;
    uint64_t start[257] = {0};
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
      const int th = omp_get_thread_num(), nth = omp_get_num_threads();
      const uint64_t lo = count * (uint64_t)th / (uint64_t)nth;
      const uint64_t hi = count * (uint64_t)(th + 1) / (uint64_t)nth;
      uint64_t kids = 0;
      for (uint64_t i = lo; i < hi; i++) {
        uint64_t p = first + i;
        kids += (uint64_t)__builtin_popcount((unsigned)((sig[p >> 4] >> ((p & 15) * 4)) & 15u));
      }
      start[th + 1] = kids;
#pragma omp barrier
#pragma omp single
      for (int k = 0; k < nth; k++) start[k + 1] += start[k];
      // without a branch per child (fan-outs are too irregular to predict): four candidates
      // written, the set quadrants first, the count advanced by the fan-out; near the end of
      // its range a thread writes the children alone, so that no candidate lands in the next
      // thread's range
      uint64_t out = start[th];
      const uint64_t end = start[th + 1];
      for (uint64_t i = lo; i < hi; i++) {
        uint64_t p = first + i;
        unsigned s = (unsigned)((sig[p >> 4] >> ((p & 15) * 4)) & 15u);
        const uint64_t c = cur[i] << 2;
        if (out + 4 <= end) {
          const uint32_t q = k2_quadrants_in_order[s];
          next[out] = c | (q & 3u);
          next[out + 1] = c | ((q >> 2) & 3u);
          next[out + 2] = c | ((q >> 4) & 3u);
          next[out + 3] = c | ((q >> 6) & 3u);
          out += (uint64_t)__builtin_popcount(s);
        } else {
          for (unsigned b = 0; b < 4; b++)
            if (s & (1u << b)) next[out++] = c | b;
        }
      }
    }
    uint64_t *swap = cur;
    cur = next;
    next = swap;
  }
  free(next);
  // the kept level may be narrower than the widest one (the cached bottom codes lives on)
  const uint64_t kept = level_start[last + 1] - level_start[last];
  if (kept < widest) {
    uint64_t *fit = realloc(cur, (kept ? kept : 1) * sizeof(uint64_t));
    if (fit != NULL) cur = fit;
  }
  *codes_out = cur;
  return GrB_SUCCESS;
}

void k2_tree_aux_plan(const k2_tree *t, const K2_Format *fmt, uint32_t *dir_log, uint64_t *dir_len,
                      uint32_t *top_level) {
  const uint64_t n = t->n_internal, budget = k2_tree_core_bytes(t) / K2_AUX_SHARE;
  // The directory: S = 256 where half the budget holds it (compact, about 2% of the
  // signatures: every tree but the smallest), sparser where not.
  uint32_t d = fmt->directory_log ? fmt->directory_log : K2_DIR_LOG_DENSEST;
  uint64_t samples = n ? ((n - 1) >> d) + 1 : 0;
  if (fmt->directory_log == 0) {
    while (samples > 1 && k2_dir_bytes(samples, d <= K2_DIR_LO_MAX_LOG) > budget / 2)
      samples = ((n - 1) >> ++d) + 1;
  }
  *dir_log = d;
  *dir_len = samples > 1 ? samples : 0;  // a lone sample is the root's first child, 1: implied
  // The top level: what is left of the budget, up to 2^16 codes, the deepest level that fits.
  uint64_t cap;
  if (fmt->top_max_log != 0) {
    cap = UINT64_C(1) << fmt->top_max_log;
  } else {
    const uint64_t used = k2_dir_bytes(*dir_len, d <= K2_DIR_LO_MAX_LOG);
    cap = budget > used ? (budget - used) / sizeof(uint64_t) : 0;
    if (cap > (UINT64_C(1) << K2_TOP_LOG_DEEPEST)) cap = UINT64_C(1) << K2_TOP_LOG_DEEPEST;
  }
  uint32_t top = 0;
  for (uint32_t lvl = 0; n > 0 && lvl < t->levels; lvl++) {
    const uint64_t size = t->level_start[lvl + 1] - t->level_start[lvl];
    if (size > cap) break;  // sizes grow downwards
    if (size == 0) break;   // below full nodes only (full blocks): nothing to start from
    top = lvl;
  }
  *top_level = top;
}

GrB_Info k2_tree_derive(k2_tree *t, const K2_Format *fmt) {
  uint32_t dir_log, top;
  uint64_t dir_len;
  k2_tree_aux_plan(t, fmt, &dir_log, &dir_len, &top);
  t->dir_log = dir_log;
  t->dir_len = 0;
  t->dir = NULL;
  t->dir_lo = NULL;
  t->top_level = 0;
  t->top_count = 0;
  t->top_codes = t->bottom_codes = NULL;
  if (t->n_internal == 0) return GrB_SUCCESS;
  GrB_Info info = GrB_SUCCESS;
  if (dir_len > 0) info = k2_tree_build_directory(t, dir_log, dir_len);
  if (info == GrB_SUCCESS && top > 0) {  // level 0 is the root, code 0: nothing to store
    info = k2_tree_expand_codes(t, top, &t->top_codes);
    if (info == GrB_SUCCESS) {
      t->top_level = top;
      t->top_count = t->level_start[top + 1] - t->level_start[top];
    }
  }
  if (info == GrB_SUCCESS && fmt->cache_bottom_codes) {
    info = k2_tree_bottom_codes(t, &t->bottom_codes);
  }
  if (info != GrB_SUCCESS) {
    free(t->dir);
    free(t->dir_lo);
    free(t->top_codes);
    t->dir = t->top_codes = t->bottom_codes = NULL;
    t->dir_lo = NULL;
    t->dir_len = t->top_count = 0;
    t->top_level = 0;
  }
  return info;
}

void k2_tree_view(k2_view *v, const k2_tree *t, double weight) {
  memset(v, 0, sizeof *v);
  v->nrows = t->nrows;
  v->ncols = t->ncols;
  v->nvals = t->nvals;
  v->side_log = t->side_log;
  v->levels = t->levels;
  v->leaf_log = t->leaf_log;
  v->leaf_bits = 1u << (2 * t->leaf_log);
  v->n_internal = t->n_internal;
  v->n_leaves = t->n_leaves;
  v->sig = t->sig;
  v->leaves = t->leaves;
  v->leafc = t->leaf_codes != NULL ? &t->lc : NULL;
  v->level_start = t->level_start;
  v->dir_log = t->dir_log;
  v->dir_len = t->dir_len;
  v->dir = t->dir;
  v->dir_lo = t->dir_lo;
  v->top_level = t->top_level;
  v->top_count = t->top_count;
  v->top_codes = t->top_codes;
  if (t->n_internal > 0 && t->dir_len == 0) {
    // one sample covering every node: first_child(0) = 1
    static const uint64_t first_child_of_root = 1;
    uint32_t d = 4;  // whole signature words, as a stored directory
    while (d < 63 && (UINT64_C(1) << d) < t->n_internal) d++;
    v->dir_log = d;
    v->dir_len = 1;
    v->dir = &first_child_of_root;
    v->dir_lo = NULL;
  }
  if (t->n_internal > 0 && t->top_count == 0) {
    static const uint64_t root_code = 0;
    v->top_level = 0;
    v->top_count = 1;
    v->top_codes = &root_code;
  }
  v->bottom_codes = t->bottom_codes;
  v->weight = weight;
  v->n_full = t->n_full;
  v->decoded_level = false;  // a matrix's request, set by the dispatcher
}

static void *k2_dup_words(const uint64_t *src, uint64_t n, bool *ok) {
  if (src == NULL || n == 0) return NULL;
  void *p = malloc(n * sizeof(uint64_t));
  if (p == NULL) {
    *ok = false;
    return NULL;
  }
  memcpy(p, src, n * sizeof(uint64_t));
  return p;
}

GrB_Info k2_tree_copy(k2_tree *dst, const k2_tree *src) {
  bool ok = true;
  k2_tree c = *src;
  c.borrowed = false;
  c.map = NULL;
  c.map_len = 0;
  c.sig = k2_dup_words(src->sig, k2_tree_sig_words(src), &ok);
  c.leaves = k2_dup_words(src->leaves, src->leaves ? k2_tree_leaf_words(src) : 0, &ok);
  c.leaf_codes = k2_dup_words(src->leaf_codes, src->leaf_code_words, &ok);
  c.level_start = k2_dup_words(src->level_start, src->level_start ? src->levels + 2 : 0, &ok);
  c.dir = k2_dup_words(src->dir, k2_dir_words(src->dir_len, src->dir_lo != NULL), &ok);
  c.dir_lo = NULL;
  if (src->dir_lo != NULL && src->dir_len > 0) {
    c.dir_lo = malloc(src->dir_len * sizeof(uint16_t));
    if (c.dir_lo == NULL) ok = false;
    else memcpy(c.dir_lo, src->dir_lo, src->dir_len * sizeof(uint16_t));
  }
  c.top_codes = k2_dup_words(src->top_codes, src->top_count, &ok);
  c.bottom_codes = k2_dup_words(src->bottom_codes,
                                  src->bottom_codes && src->levels
                                      ? src->level_start[src->levels] - src->level_start[src->levels - 1]
                                      : 0,
                                  &ok);
  if (!ok) {
    k2_tree_clear(&c);
    K2_FAIL(GrB_OUT_OF_MEMORY, "k2 tree: no memory to copy the tree");
  }
  if (c.leaf_codes != NULL) {  // the reader points into the copy (its sizes are the source's)
    GrB_Info info = k2_leafc_open(&c.lc, c.leaf_codes, c.leaf_code_words, c.n_leaves, src->lc.leaf_bits);
    if (info != GrB_SUCCESS) {
      k2_tree_clear(&c);
      return info;
    }
  }
  *dst = c;
  return GrB_SUCCESS;
}
