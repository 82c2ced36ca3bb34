// k2_build.c: parallel construction of a k²-tree from (I, J) pairs.
// SPDX-License-Identifier: Apache-2.0
//
// 1. Each pair becomes its Morton code (row and column bits interleaved); sorting the codes puts
//    the cells in level order at every level at once (Z-order), so
// 2. an LSD radix sort (OpenMP, 8-bit digits, passes over constant digits skipped) and a
//    de-duplication give the cells in order;
// 3. the leaves are the distinct code prefixes above the leaf bits, their bitmaps the cells;
// 4. each internal level, bottom-up, is the distinct prefixes of the level below, its signature
//    the last two bits of its children's codes.
// Every step is a parallel scan over a sorted array. Groups (a parent and its <= 4 children, a
// leaf and its cells) never straddle two threads' chunks: chunk boundaries are moved to a
// group boundary. Extra memory: two arrays of 8 bytes per pair (codes and the sort's buffer),
// about twice a 32-bit COO, plus the tree.
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/k2_matrix.h"
#include "util/k2_alloc.h"
#include "util/k2_error.h"
#include "util/k2_sort.h"

#define K2_MAX_THREADS 256

// ---- chunking at group boundaries -------------------------------------------------------------

// Split a[0..n) into nt chunks whose boundaries fall between groups (equal a[i] >> shift).
static void k2_group_bounds(const uint64_t *a, uint64_t n, uint32_t shift, int nt, uint64_t *bound) {
  bound[0] = 0;
  bound[nt] = n;
  for (int t = 1; t < nt; t++) {
    uint64_t b = n * (uint64_t)t / (uint64_t)nt;
    if (b < bound[t - 1]) b = bound[t - 1];
    while (b > 0 && b < n && (a[b] >> shift) == (a[b - 1] >> shift)) b++;
    bound[t] = b;
  }
}

// OR `width`-bit items into a zeroed word array; whole words are flushed with an atomic OR so
// two threads may share a boundary word.
typedef struct {
  uint64_t *words;
  uint64_t pos;  // next item
  uint64_t acc;  // pending bits of word (pos * width) / 64
  uint32_t width;
} k2_bit_writer;

static inline void k2_bw_flush(k2_bit_writer *w, uint64_t word) {
  if (w->acc) __atomic_fetch_or(&w->words[word], w->acc, __ATOMIC_RELAXED);
  w->acc = 0;
}

static inline void k2_bw_put(k2_bit_writer *w, uint64_t value) {
  uint64_t bit = w->pos * w->width;
  w->acc |= value << (bit & 63);
  w->pos++;
  if (((bit + w->width) & 63) == 0) k2_bw_flush(w, bit >> 6);
}

static inline void k2_bw_finish(k2_bit_writer *w) {
  if (w->pos > 0) k2_bw_flush(w, (w->pos * w->width - 1) >> 6);
}

// ---- one level: distinct groups of a sorted array -----------------------------------------------

// For sorted unique a[0..n): out[g] = a >> shift of the g-th group, and item g of `bits` (width
// `width`) = OR of 1 << local(a) over the group, local = a & ((1 << shift) - 1) mapped by `cell`
// (identity for internal levels; row-major cell order for leaves). Returns the group count.
static uint64_t k2_level_groups(const uint64_t *a, uint64_t n, uint32_t shift, uint32_t leaf_log,
                                uint64_t *out, uint64_t *bits, uint32_t width, int nthreads) {
  uint64_t bound[K2_MAX_THREADS + 1], count[K2_MAX_THREADS + 1];
  if (n < 65536) nthreads = 1;
  uint64_t mask = (UINT64_C(1) << shift) - 1;
  int team = 1;
#pragma omp parallel num_threads(nthreads)
  {
    // chunks for the team there is: it may be smaller than asked (inside a caller's parallel
    // region it has one thread)
#pragma omp single
    {
      team = omp_get_num_threads();
      k2_group_bounds(a, n, shift, team, bound);
    }
    int t = omp_get_thread_num();
    uint64_t c = 0;
    for (uint64_t i = bound[t]; i < bound[t + 1]; i++)
      c += i == bound[t] || (a[i] >> shift) != (a[i - 1] >> shift);
    count[t] = c;
#pragma omp barrier
#pragma omp single
    {
      uint64_t sum = 0;
      for (int u = 0; u < team; u++) {
        uint64_t x = count[u];
        count[u] = sum;
        sum += x;
      }
      count[team] = sum;
    }
    k2_bit_writer w = {bits, count[t], 0, width};
    uint64_t g = count[t];
    uint64_t item = 0;
    for (uint64_t i = bound[t]; i < bound[t + 1]; i++) {
      uint64_t local = a[i] & mask, cell;
      if (leaf_log == 0) {
        cell = local;  // internal level: quadrant numbering
      } else {
        uint64_t r = k2_morton_compact(local >> 1), col = k2_morton_compact(local);
        cell = (r << leaf_log) | col;
      }
      item |= UINT64_C(1) << cell;
      if (i + 1 == bound[t + 1] || (a[i + 1] >> shift) != (a[i] >> shift)) {
        out[g++] = a[i] >> shift;
        k2_bw_put(&w, item);
        item = 0;
      }
    }
    k2_bw_finish(&w);
  }
  return count[team];
}

// ---- the whole tree --------------------------------------------------------------------------

#undef K2_FREE_WORK
#define K2_FREE_WORK                                           \
  do {                                                         \
    free(keys);                                                \
    free(tmp);                                                 \
    for (uint32_t l_ = 0; l_ < 64; l_++) free(level_sig[l_]);  \
    k2_tree_clear(&nt);                                        \
  } while (0)

GrB_Info k2_tree_build(k2_tree *t, uint64_t nrows, uint64_t ncols, const K2_Format *fmt,
                       const uint32_t *I, const uint32_t *J, uint64_t nvals) {
  uint64_t *keys = NULL, *tmp = NULL, *level_sig[64] = {0};
  uint64_t level_count[64] = {0};
  k2_tree nt;
  memset(&nt, 0, sizeof nt);
  nt.nrows = nrows;
  nt.ncols = ncols;
  nt.leaf_log = fmt->leaf_log;
  nt.side_log = k2_tree_side_log(nrows, ncols, fmt->leaf_log);
  nt.levels = nt.side_log - nt.leaf_log;
  int nthreads = omp_get_max_threads();
  if (nthreads > K2_MAX_THREADS) nthreads = K2_MAX_THREADS;

  nt.level_start = k2_calloc(nt.levels + 2, sizeof(uint64_t));
  if (nt.level_start == NULL) {
    K2_FREE_WORK;
    K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Matrix_build: no memory");
  }
  if (nvals > 0) {
    keys = k2_malloc(nvals * sizeof(uint64_t));
    tmp = k2_malloc(nvals * sizeof(uint64_t));
    if (keys == NULL || tmp == NULL) {
      K2_FREE_WORK;
      K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Matrix_build: no memory for %llu sort keys",
              (unsigned long long)nvals);
    }
    // ---- Morton codes, sorted, unique
#pragma omp parallel for schedule(static) num_threads(nvals < 65536 ? 1 : nthreads)
    for (uint64_t k = 0; k < nvals; k++) keys[k] = k2_morton_encode(I[k], J[k]);
    uint64_t *sorted = k2_sort_u64(keys, tmp, nvals, 2 * nt.side_log);
    if (sorted == NULL) {
      K2_FREE_WORK;
      K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Matrix_build: no memory for the sort");
    }
    uint64_t *other = sorted == keys ? tmp : keys;
    uint64_t n = 0;
    for (uint64_t k = 0; k < nvals; k++)
      if (k == 0 || sorted[k] != sorted[k - 1]) sorted[n++] = sorted[k];
    nt.nvals = n;

    // ---- leaves
    uint32_t leaf_shift = 2 * nt.leaf_log, leaf_bits = 1u << leaf_shift;
    // upper bound of the leaf count: n; allocate for it, shrink later
    nt.leaves = k2_calloc((n * leaf_bits + 63) / 64, sizeof(uint64_t));
    if (nt.leaves == NULL) {
      K2_FREE_WORK;
      K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Matrix_build: no memory for the leaves");
    }
    uint64_t cur_n = k2_level_groups(sorted, n, leaf_shift, nt.leaf_log, other, nt.leaves,
                                     leaf_bits, nthreads);
    nt.n_leaves = cur_n;
    uint64_t *shrunk = k2_realloc(nt.leaves, ((cur_n * leaf_bits + 63) / 64) * sizeof(uint64_t));
    if (shrunk != NULL) nt.leaves = shrunk;
    uint64_t *cur = other, *spare = sorted;

    // ---- internal levels, bottom-up: level lvl's nodes are the parents of level lvl+1's
    for (int lvl = (int)nt.levels - 1; lvl >= 0; lvl--) {
      level_sig[lvl] = k2_calloc((cur_n + 15) / 16 + 1, sizeof(uint64_t));
      if (level_sig[lvl] == NULL) {
        K2_FREE_WORK;
        K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Matrix_build: no memory for level %d", lvl);
      }
      uint64_t parents = k2_level_groups(cur, cur_n, 2, 0, spare, level_sig[lvl], 4, nthreads);
      level_count[lvl] = parents;
      uint64_t *s = cur;
      cur = spare;
      spare = s;
      cur_n = parents;
    }
    free(keys);
    free(tmp);
    keys = tmp = NULL;

    // ---- concatenate the levels top-down
    uint64_t total = 0;
    for (uint32_t lvl = 0; lvl < nt.levels; lvl++) {
      nt.level_start[lvl] = total;
      total += level_count[lvl];
    }
    nt.n_internal = total;
    nt.level_start[nt.levels] = total;
    nt.level_start[nt.levels + 1] = total + nt.n_leaves;
    nt.sig = k2_calloc((total + 15) / 16 + 1, sizeof(uint64_t));
    if (nt.sig == NULL) {
      K2_FREE_WORK;
      K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Matrix_build: no memory for the signatures");
    }
    for (uint32_t lvl = 0; lvl < nt.levels; lvl++) {
      uint64_t start = nt.level_start[lvl], cnt = level_count[lvl];
      uint64_t words = (cnt + 15) / 16;
      uint32_t sh = (uint32_t)(start & 15) * 4;
      uint64_t base = start >> 4;
      const uint64_t *src = level_sig[lvl];
      if (sh == 0) {
        for (uint64_t w = 0; w < words; w++) nt.sig[base + w] |= src[w];
      } else {
        for (uint64_t w = 0; w < words; w++) {
          nt.sig[base + w] |= src[w] << sh;
          nt.sig[base + w + 1] |= src[w] >> (64 - sh);
        }
      }
      free(level_sig[lvl]);
      level_sig[lvl] = NULL;
    }
    // the shift may spill zero bits past the last word; the array has one spare word
    uint64_t *fit = k2_realloc(nt.sig, ((total + 15) / 16) * sizeof(uint64_t));
    if (fit != NULL) nt.sig = fit;
  }

  // full blocks, then compressed leaves, before the derived arrays: those are sized against the
  // stored bytes (and the leaves compressed are the ones the marks leave)
  GrB_Info info = fmt->full_blocks ? k2_tree_mark_full(&nt) : GrB_SUCCESS;
  if (info == GrB_SUCCESS && fmt->compress_leaves) info = k2_tree_compress_leaves(&nt);
  if (info == GrB_SUCCESS) info = k2_tree_derive(&nt, fmt);
  if (info != GrB_SUCCESS) {
    K2_FREE_WORK;
    return info;
  }
  *t = nt;
  return GrB_SUCCESS;
}
