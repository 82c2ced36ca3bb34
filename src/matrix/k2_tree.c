// k2_tree.c: the tree arrays: sizes, derived parts (directory, top level, bottom codes), views.
// SPDX-License-Identifier: Apache-2.0
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "matrix/k2_matrix.h"
#include "util/k2_error.h"

uint64_t k2_tree_sig_words(const k2_tree *t) { return (t->n_internal + 15) / 16; }

uint64_t k2_tree_leaf_words(const k2_tree *t) {
  uint64_t bits = UINT64_C(1) << (2 * t->leaf_log);
  return (t->n_leaves * bits + 63) / 64;
}

void k2_tree_clear(k2_tree *t) {
  if (t->borrowed) {
    if (t->map != NULL) munmap(t->map, t->map_len);
  } else {
    free(t->sig);
    free(t->leaves);
    free(t->level_start);
    free(t->dir);
    free(t->top_codes);
    free(t->bottom_codes);
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

// First child of every sampled node, by a running sum of fan-outs: one pass over the signatures.
static GrB_Info k2_tree_build_directory(k2_tree *t, uint32_t dir_log) {
  uint64_t step = UINT64_C(1) << dir_log;
  t->dir_log = dir_log;
  t->dir_len = t->n_internal == 0 ? 0 : (t->n_internal + step - 1) / step;
  t->dir = NULL;
  if (t->dir_len == 0) return GrB_SUCCESS;
  t->dir = malloc(t->dir_len * sizeof(uint64_t));
  if (t->dir == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "k2 tree: no memory for the directory");
  // Words of 16 nibbles; a sample every 2^dir_log nodes (dir_log >= 4: whole words).
  uint64_t next_child = 1, words = k2_tree_sig_words(t), per_sample = step / 16;
  for (uint64_t k = 0; k < t->dir_len; k++) {
    t->dir[k] = next_child;
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

GrB_Info k2_codes_expand(const uint64_t *sig, const uint64_t *level_start, uint32_t from,
                         const uint64_t *from_codes, uint32_t last, uint64_t **codes_out) {
  // Two buffers of the widest level, used in turn: one allocation (and one first touch of each
  // page) for all the levels, not one per level.
  uint64_t widest = 1;
  for (uint32_t lvl = from; lvl <= last; lvl++) {
    uint64_t c = level_start[lvl + 1] - level_start[lvl];
    if (c > widest) widest = c;
  }
  uint64_t *cur = malloc(widest * sizeof(uint64_t));
  uint64_t *next = last > from ? malloc(widest * sizeof(uint64_t)) : NULL;
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
      uint64_t out = start[th];
      for (uint64_t i = lo; i < hi; i++) {
        uint64_t p = first + i;
        unsigned s = (unsigned)((sig[p >> 4] >> ((p & 15) * 4)) & 15u);
        for (unsigned b = 0; b < 4; b++)
          if (s & (1u << b)) next[out++] = (cur[i] << 2) | b;
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

GrB_Info k2_tree_derive(k2_tree *t, uint32_t dir_log, uint32_t top_max_log, bool bottom_codes) {
  GrB_Info info = k2_tree_build_directory(t, dir_log);
  if (info != GrB_SUCCESS) return info;
  t->top_level = 0;
  t->top_count = 0;
  t->top_codes = NULL;
  t->bottom_codes = NULL;
  if (t->n_internal == 0) return GrB_SUCCESS;
  uint32_t top = 0;
  for (uint32_t lvl = 0; lvl < t->levels; lvl++)
    if (t->level_start[lvl + 1] - t->level_start[lvl] <= (UINT64_C(1) << top_max_log)) top = lvl;
    else break;
  t->top_level = top;
  t->top_count = t->level_start[top + 1] - t->level_start[top];
  info = k2_tree_expand_codes(t, top, &t->top_codes);
  if (info == GrB_SUCCESS && bottom_codes) info = k2_tree_expand_codes(t, t->levels - 1, &t->bottom_codes);
  if (info != GrB_SUCCESS) {
    free(t->dir);
    free(t->top_codes);
    t->dir = t->top_codes = NULL;
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
  v->level_start = t->level_start;
  v->dir_log = t->dir_log;
  v->dir_len = t->dir_len;
  v->dir = t->dir;
  v->top_level = t->top_level;
  v->top_count = t->top_count;
  v->top_codes = t->top_codes;
  v->bottom_codes = t->bottom_codes;
  v->weight = weight;
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
  c.leaves = k2_dup_words(src->leaves, k2_tree_leaf_words(src), &ok);
  c.level_start = k2_dup_words(src->level_start, src->level_start ? src->levels + 2 : 0, &ok);
  c.dir = k2_dup_words(src->dir, src->dir_len, &ok);
  c.top_codes = k2_dup_words(src->top_codes, src->top_codes ? src->top_count : 0, &ok);
  c.bottom_codes = k2_dup_words(src->bottom_codes,
                                  src->bottom_codes && src->levels
                                      ? src->level_start[src->levels] - src->level_start[src->levels - 1]
                                      : 0,
                                  &ok);
  if (!ok) {
    k2_tree_clear(&c);
    K2_FAIL(GrB_OUT_OF_MEMORY, "k2 tree: no memory to copy the tree");
  }
  *dst = c;
  return GrB_SUCCESS;
}
