// k2_leafc.c: compressed leaves (k2_leafc.h): encoding, opening, checking, decoding.
// SPDX-License-Identifier: Apache-2.0
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/k2_matrix.h"
#include "util/k2_error.h"
#include "util/k2_sort.h"

#define LEAFC_FAIL(...) return k2_error_set(GrB_INVALID_OBJECT, "leaf codes: " __VA_ARGS__)

static uint64_t words_of(uint64_t bits) { return bits / 64 + (bits % 64 != 0); }

// Bits needed to write x (0 for 0).
static uint32_t bit_len(uint64_t x) { return x ? 64u - (uint32_t)__builtin_clzll(x) : 0u; }

// The word offsets of every part for the header's values; false when they overflow.
typedef struct {
  uint64_t vocab, chunks[K2_LEAFC_MAX_LEVELS], more[K2_LEAFC_MAX_LEVELS],
      hi[K2_LEAFC_MAX_LEVELS], lo[K2_LEAFC_MAX_LEVELS], total;
} leafc_layout;

static bool layout_of(leafc_layout *o, uint64_t V, uint32_t leaf_bits, uint32_t L,
                      const uint8_t *width, const uint64_t *count) {
  uint64_t pos = K2_LEAFC_HEAD_WORDS + L, bits;
  o->vocab = pos;
  if (__builtin_mul_overflow(V, (uint64_t)leaf_bits, &bits)) return false;
  pos += words_of(bits);
  for (uint32_t l = 0; l < L; l++) {
    o->chunks[l] = pos;
    if (__builtin_mul_overflow(count[l], (uint64_t)width[l], &bits)) return false;
    pos += words_of(bits);
    o->more[l] = o->hi[l] = o->lo[l] = pos;
    if (l + 1 < L) {
      pos += words_of(count[l]);
      o->hi[l] = pos;
      pos += count[l] / 65536 + (count[l] % 65536 != 0);
      o->lo[l] = pos;
      uint64_t blocks = count[l] / 512 + (count[l] % 512 != 0);
      pos += blocks / 4 + (blocks % 4 != 0);
    }
    if (pos < o->chunks[l]) return false;
  }
  o->total = pos;
  return true;
}

// Fill c's pointers from a header known to fit.
static void point(k2_leafc *c, const uint64_t *words, uint64_t n_words, const leafc_layout *o) {
  c->words = words;
  c->n_words = n_words;
  c->vocab = words + o->vocab;
  for (uint32_t l = 0; l < c->levels; l++) {
    c->chunks[l] = words + o->chunks[l];
    c->more[l] = words + o->more[l];
    c->hi[l] = words + o->hi[l];
    c->lo[l] = (const uint16_t *)(words + o->lo[l]);
  }
}

// ---- encoding ---------------------------------------------------------------------------------

typedef struct {
  uint64_t word, freq;
} leafc_pattern;

static int by_frequency(const void *a, const void *b) {
  const leafc_pattern *x = a, *y = b;
  if (x->freq != y->freq) return x->freq > y->freq ? -1 : 1;
  return x->word < y->word ? -1 : x->word > y->word;
}

// Widths per level minimising the bits (as sdsl's dac_vector_dp): gt[k] codes need more than
// k bits; a level that is not the last also pays a continuation bit and its rank samples.
static uint32_t choose_widths(const uint64_t *gt, uint64_t n, uint32_t maxb, uint8_t *width) {
  const double more_cost = 1.0 + 16.0 / 512 + 64.0 / 65536;
  double best[65][K2_LEAFC_MAX_LEVELS + 1];
  uint8_t pick[65][K2_LEAFC_MAX_LEVELS + 1];
  for (uint32_t l = 0; l <= K2_LEAFC_MAX_LEVELS; l++) best[maxb][l] = 0;
  for (int k = (int)maxb - 1; k >= 0; k--) {
    const double nl = (double)(k == 0 ? n : gt[k]);
    best[k][0] = 1e300;
    for (uint32_t l = 1; l <= K2_LEAFC_MAX_LEVELS; l++) {
      best[k][l] = 1e300;
      pick[k][l] = 0;
      for (uint32_t b = 1; k + b <= maxb; b++) {
        const bool last = k + b == maxb;
        if (!last && l == 1) continue;
        double cost = nl * b + (last ? 0 : nl * more_cost + best[k + b][l - 1]);
        if (cost < best[k][l]) {
          best[k][l] = cost;
          pick[k][l] = (uint8_t)b;
        }
      }
    }
  }
  uint32_t L = 1;
  for (uint32_t l = 2; l <= K2_LEAFC_MAX_LEVELS; l++)
    if (best[0][l] < best[0][L]) L = l;
  uint32_t k = 0, levels = 0;
  for (uint32_t l = L; k < maxb; l--) {
    width[levels++] = pick[k][l];
    k += pick[k][l];
  }
  return levels;
}

// Rank samples of a bit array of `count` bits (k2_leafc.h).
static void fill_rank(const uint64_t *m, uint64_t count, uint64_t *hi, uint16_t *lo) {
  uint64_t ones = 0, sup = 0;
  for (uint64_t w = 0; w < words_of(count); w++) {
    if ((w & 1023) == 0) hi[w >> 10] = sup = ones;
    if ((w & 7) == 0) lo[w >> 3] = (uint16_t)(ones - sup);
    ones += (uint64_t)__builtin_popcountll(m[w]);
  }
}

GrB_Info k2_leafc_encode(uint64_t **words_out, uint64_t *n_words, const uint64_t *leaves,
                         uint64_t n, uint32_t leaf_bits) {
  *words_out = NULL;
  *n_words = 0;
  if (n == 0) return GrB_SUCCESS;
  uint64_t *a = malloc(n * sizeof(uint64_t)), *tmp = malloc(n * sizeof(uint64_t));
  leafc_pattern *voc = NULL;
  uint64_t *ranks = NULL, *words = NULL;
  if (a == NULL || tmp == NULL) goto oom;
  k2_leafc plain_view = {.leaf_bits = leaf_bits, .vocab = leaves};
#pragma omp parallel for schedule(static) if (n > 65536)
  for (uint64_t q = 0; q < n; q++) a[q] = k2_leafc_word(&plain_view, q);
  uint64_t *s = k2_sort_u64(a, tmp, n, leaf_bits);
  if (s == NULL) goto oom;
  // distinct words (sorted) and their frequencies
  uint64_t V = 0;
  for (uint64_t q = 0; q < n; q++)
    if (q == 0 || s[q] != s[q - 1]) V++;
  voc = malloc(V * sizeof *voc);
  if (voc == NULL) goto oom;
  for (uint64_t q = 0, v = 0; q < n; q++) {
    if (q == 0 || s[q] != s[q - 1]) voc[v++] = (leafc_pattern){s[q], 0};
    voc[v - 1].freq++;
  }
  uint64_t *distinct = s == a ? tmp : a;  // the spare buffer: distinct words -> ranks
  for (uint64_t v = 0; v < V; v++) distinct[v] = voc[v].word;
  qsort(voc, V, sizeof *voc, by_frequency);
  uint64_t *rank_of = s;  // the sorted copy is no longer needed
  for (uint64_t r = 0; r < V; r++) {
    uint64_t lo = 0, hi = V;  // position of voc[r].word among the distinct words
    while (hi - lo > 1) {
      uint64_t mid = (lo + hi) / 2;
      if (distinct[mid] <= voc[r].word) lo = mid;
      else hi = mid;
    }
    rank_of[lo] = r;
  }
  ranks = malloc(n * sizeof(uint64_t));
  if (ranks == NULL) goto oom;
#pragma omp parallel for schedule(static) if (n > 65536)
  for (uint64_t q = 0; q < n; q++) {
    const uint64_t w = k2_leafc_word(&plain_view, q);
    uint64_t lo = 0, hi = V;
    while (hi - lo > 1) {
      uint64_t mid = (lo + hi) / 2;
      if (distinct[mid] <= w) lo = mid;
      else hi = mid;
    }
    ranks[q] = rank_of[lo];
  }

  // widths and the codes reaching each level
  uint64_t gt[65] = {0};
  for (uint64_t r = 0; r < V; r++)
    for (uint32_t k = 0; k < bit_len(r); k++) gt[k] += voc[r].freq;
  uint32_t maxb = bit_len(V - 1);
  if (maxb == 0) maxb = 1;  // one pattern: one-bit codes, all zero
  uint8_t width[K2_LEAFC_MAX_LEVELS] = {0};
  uint64_t count[K2_LEAFC_MAX_LEVELS] = {0};
  const uint32_t L = choose_widths(gt, n, maxb, width);
  for (uint32_t l = 0, k = 0; l < L; k += width[l], l++) count[l] = l == 0 ? n : gt[k];
  leafc_layout o;
  if (!layout_of(&o, V, leaf_bits, L, width, count)) goto oom;
  words = calloc(o.total, sizeof(uint64_t));
  if (words == NULL) goto oom;
  words[0] = V;
  words[1] = L;
  for (uint32_t l = 0; l < L; l++) {
    words[2] |= (uint64_t)width[l] << (8 * l);
    words[K2_LEAFC_HEAD_WORDS + l] = count[l];
  }
  for (uint64_t r = 0; r < V; r++) {
    const uint64_t bit = r * leaf_bits;
    words[o.vocab + (bit >> 6)] |= voc[r].word << (bit & 63);
  }
  // level by level: the codes that reach level l, in leaf order
  uint32_t shift = 0;
  for (uint32_t l = 0; l < L; shift += width[l], l++) {
    uint64_t *ch = words + o.chunks[l], *more = words + o.more[l], i = 0;
    const uint32_t b = width[l];
    for (uint64_t q = 0; q < n; q++) {
      const uint64_t r = ranks[q];
      if (l > 0 && bit_len(r) <= shift) continue;
      const uint64_t part = (r >> shift) & (b == 64 ? ~UINT64_C(0) : (UINT64_C(1) << b) - 1);
      const uint64_t pos = i * b;
      ch[pos >> 6] |= part << (pos & 63);
      if ((pos & 63) + b > 64) ch[(pos >> 6) + 1] |= part >> (64 - (pos & 63));
      if (l + 1 < L && bit_len(r) > shift + b) more[i >> 6] |= UINT64_C(1) << (i & 63);
      i++;
    }
    if (l + 1 < L) fill_rank(more, count[l], words + o.hi[l], (uint16_t *)(words + o.lo[l]));
  }
  free(a);
  free(tmp);
  free(voc);
  free(ranks);
  *words_out = words;
  *n_words = o.total;
  return GrB_SUCCESS;
oom:
  free(a);
  free(tmp);
  free(voc);
  free(ranks);
  K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Matrix_build: no memory to compress %llu leaves",
          (unsigned long long)n);
}

// ---- reading ---------------------------------------------------------------------------------

GrB_Info k2_leafc_open(k2_leafc *c, const uint64_t *words, uint64_t n_words, uint64_t n_leaves,
                       uint32_t leaf_bits) {
  memset(c, 0, sizeof *c);
  if (n_words < K2_LEAFC_HEAD_WORDS) LEAFC_FAIL("%llu words, the header alone has %d",
                                                (unsigned long long)n_words, K2_LEAFC_HEAD_WORDS);
  const uint64_t V = words[0], L = words[1];
  if (L < 1 || L > K2_LEAFC_MAX_LEVELS)
    LEAFC_FAIL("%llu levels, not in 1..%d", (unsigned long long)L, K2_LEAFC_MAX_LEVELS);
  if (n_words < K2_LEAFC_HEAD_WORDS + L)
    LEAFC_FAIL("%llu words, the header of %llu levels has %llu", (unsigned long long)n_words,
               (unsigned long long)L, (unsigned long long)(K2_LEAFC_HEAD_WORDS + L));
  if (V < 1 || V > n_leaves)
    LEAFC_FAIL("%llu leaf patterns for %llu leaves", (unsigned long long)V,
               (unsigned long long)n_leaves);
  uint32_t sum = 0;
  for (uint32_t l = 0; l < K2_LEAFC_MAX_LEVELS; l++) {
    const uint32_t b = (uint32_t)(words[2] >> (8 * l)) & 255u;
    if ((l < L) != (b != 0)) LEAFC_FAIL("width %u at level %u of %llu", b, l, (unsigned long long)L);
    c->width[l] = (uint8_t)b;
    sum += b;
  }
  if (sum > 64) LEAFC_FAIL("the widths add up to %u bits, more than 64", sum);
  if (sum < 64 && ((V - 1) >> sum) != 0)
    LEAFC_FAIL("codes of %u bits cannot tell %llu patterns apart", sum, (unsigned long long)V);
  for (uint32_t l = 0; l < L; l++) {
    c->count[l] = words[K2_LEAFC_HEAD_WORDS + l];
    if (l == 0 ? c->count[0] != n_leaves : c->count[l] > c->count[l - 1])
      LEAFC_FAIL("level %u holds %llu codes (level above: %llu)", l,
                 (unsigned long long)c->count[l],
                 (unsigned long long)(l == 0 ? n_leaves : c->count[l - 1]));
  }
  c->vocab_len = V;
  c->leaf_bits = leaf_bits;
  c->levels = (uint32_t)L;
  leafc_layout o;
  if (!layout_of(&o, V, leaf_bits, c->levels, c->width, c->count) || o.total != n_words)
    LEAFC_FAIL("%llu words, the header's counts need %llu", (unsigned long long)n_words,
               (unsigned long long)o.total);
  point(c, words, n_words, &o);
  return GrB_SUCCESS;
}

// Bits from `used` up to the end of the last word of an array of `words` words are zero.
static bool tail_zero(const uint64_t *a, uint64_t used_bits, uint64_t words) {
  for (uint64_t w = used_bits / 64; w < words; w++) {
    uint64_t x = a[w];
    if (w == used_bits / 64) x = used_bits % 64 ? x >> (used_bits % 64) : x;
    if (x) return false;
  }
  return true;
}

GrB_Info k2_leafc_check(const k2_leafc *c) {
  leafc_layout o;
  layout_of(&o, c->vocab_len, c->leaf_bits, c->levels, c->width, c->count);  // open checked it
  if (!tail_zero(c->vocab, c->vocab_len * c->leaf_bits, o.chunks[0] - o.vocab))
    LEAFC_FAIL("padding bits after the last pattern are not zero");
  for (uint64_t r = 0; r < c->vocab_len; r++)
    if (k2_leafc_word(c, r) == 0) LEAFC_FAIL("pattern %llu is empty", (unsigned long long)r);
  for (uint32_t l = 0; l < c->levels; l++) {
    const uint64_t n = c->count[l];
    if (!tail_zero(c->chunks[l], n * c->width[l], o.more[l] - o.chunks[l]))
      LEAFC_FAIL("padding bits after the codes of level %u are not zero", l);
    if (l + 1 == c->levels) break;
    if (!tail_zero(c->more[l], n, o.hi[l] - o.more[l]))
      LEAFC_FAIL("padding bits after the continuation bits of level %u are not zero", l);
    uint64_t ones = 0, sup = 0;
    for (uint64_t w = 0; w < o.hi[l] - o.more[l]; w++) {
      if ((w & 1023) == 0) {
        if (c->hi[l][w >> 10] != ones) LEAFC_FAIL("rank sample %llu of level %u is wrong", (unsigned long long)(w >> 10), l);
        sup = ones;
      }
      if ((w & 7) == 0 && c->lo[l][w >> 3] != (uint16_t)(ones - sup))
        LEAFC_FAIL("rank offset %llu of level %u is wrong", (unsigned long long)(w >> 3), l);
      ones += (uint64_t)__builtin_popcountll(c->more[l][w]);
    }
    if (ones != c->count[l + 1])
      LEAFC_FAIL("level %u continues %llu codes, level %u holds %llu", l,
                 (unsigned long long)ones, l + 1, (unsigned long long)c->count[l + 1]);
    const uint64_t blocks = n / 512 + (n % 512 != 0);
    for (uint64_t k = blocks; k < (o.chunks[l + 1] - o.lo[l]) * 4; k++)
      if (c->lo[l][k] != 0) LEAFC_FAIL("padding after the rank offsets of level %u is not zero", l);
  }
  for (uint64_t q = 0; q < c->count[0]; q++) {
    const uint64_t r = k2_leafc_code(c, q);
    if (r >= c->vocab_len)
      LEAFC_FAIL("leaf %llu has code %llu, there are %llu patterns", (unsigned long long)q,
                 (unsigned long long)r, (unsigned long long)c->vocab_len);
  }
  return GrB_SUCCESS;
}

uint64_t *k2_leafc_plain(const k2_leafc *c) {
  const uint64_t n = c->count[0], per = 64 / c->leaf_bits, words = (n + per - 1) / per;
  uint64_t *p = malloc((words ? words : 1) * sizeof(uint64_t));
  if (p == NULL) return NULL;
  p[0] = 0;
  // whole words per iteration: no two threads share one
#pragma omp parallel for schedule(static) if (words > 8192)
  for (uint64_t w = 0; w < words; w++) {
    uint64_t x = 0;
    for (uint64_t k = 0; k < per && w * per + k < n; k++)
      x |= k2_leafc_leaf(c, w * per + k) << (k * c->leaf_bits);
    p[w] = x;
  }
  return p;
}

uint64_t k2_leafc_vocab_bytes(const k2_leafc *c) {
  return words_of(c->vocab_len * c->leaf_bits) * sizeof(uint64_t);
}
