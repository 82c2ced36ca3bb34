// k2_leafc.h: compressed leaves: a vocabulary of leaf patterns and their ranks as DACs.
// SPDX-License-Identifier: Apache-2.0
//
// The compressed-leaf k²-tree of Brisaboa, Ladra and Navarro: the distinct leaf bitmaps form a
// vocabulary sorted by decreasing frequency, and each leaf stores the rank of its bitmap in it
// as a directly addressable code (DAC): the rank's low width[0] bits at level 0, and when more
// bits are left, a continuation bit set and the next width[1] bits at level 1, at the position
// given by the rank of that continuation bit, and so on. Frequent patterns get short codes and
// any leaf is still read in O(levels) without decoding the ones before it.
//
// Everything lives in one array of 64-bit words (the .k2 section "leaf_codes",
// docs/k2-format.md), little-endian, in this order:
//   word 0            V, the vocabulary size (>= 1)
//   word 1            L, the DAC levels (1 .. K2_LEAFC_MAX_LEVELS)
//   word 2            width[l] in bits 8l .. 8l+7 (each >= 1, sum <= 64)
//   words 3 .. 3+L-1  count[l], the codes reaching level l (count[0] = number of leaves)
//   vocabulary        V bitmaps of leaf_bits bits, packed as plain leaves are
//   then per level l  chunks: count[l] fields of width[l] bits, packed;
//                     for l < L-1: more: count[l] continuation bits; hi: one 64-bit count of
//                     the ones before every 2^16 bits; lo: one 16-bit count of the ones before
//                     every 512 bits since its hi sample, four a word
// Plain C with inline readers, so the CUDA gateway and the engines can include it.
#ifndef K2_LEAFC_H
#define K2_LEAFC_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define K2_LEAFC_MAX_LEVELS 8
#define K2_LEAFC_HEAD_WORDS 3

typedef struct {
  uint64_t vocab_len;                       // V
  uint32_t leaf_bits;                       // bits per vocabulary word (4^leaf_log)
  uint32_t levels;                          // L
  uint8_t width[K2_LEAFC_MAX_LEVELS];
  uint64_t count[K2_LEAFC_MAX_LEVELS];
  const uint64_t *vocab;
  const uint64_t *chunks[K2_LEAFC_MAX_LEVELS];
  const uint64_t *more[K2_LEAFC_MAX_LEVELS];
  const uint64_t *hi[K2_LEAFC_MAX_LEVELS];
  const uint16_t *lo[K2_LEAFC_MAX_LEVELS];
  const uint64_t *words;                    // the whole array
  uint64_t n_words;
} k2_leafc;

// The `width`-bit field at bit `pos` of a packed array (1 <= width <= 64).
static inline uint64_t k2_leafc_field(const uint64_t *a, uint64_t pos, uint32_t width) {
  const uint64_t w = pos >> 6;
  const uint32_t s = (uint32_t)(pos & 63);
  uint64_t x = a[w] >> s;
  if (s + width > 64) x |= a[w + 1] << (64 - s);
  return width == 64 ? x : x & ((UINT64_C(1) << width) - 1);
}

// Ones of level l's continuation bits before position i.
static inline uint64_t k2_leafc_rank(const k2_leafc *c, uint32_t l, uint64_t i) {
  const uint64_t *m = c->more[l];
  uint64_t r = c->hi[l][i >> 16] + c->lo[l][i >> 9];
  for (uint64_t w = (i >> 9) << 3, wend = i >> 6; w < wend; w++)
    r += (uint64_t)__builtin_popcountll(m[w]);
  if (i & 63) r += (uint64_t)__builtin_popcountll(m[i >> 6] & ((UINT64_C(1) << (i & 63)) - 1));
  return r;
}

// The vocabulary rank of leaf q.
static inline uint64_t k2_leafc_code(const k2_leafc *c, uint64_t q) {
  uint64_t v = 0, i = q;
  uint32_t shift = 0;
  for (uint32_t l = 0;; l++) {
    const uint32_t b = c->width[l];
    v |= k2_leafc_field(c->chunks[l], i * b, b) << shift;
    if (l + 1 == c->levels || !((c->more[l][i >> 6] >> (i & 63)) & 1)) return v;
    shift += b;
    i = k2_leafc_rank(c, l, i);
  }
}

// Vocabulary word r of 4x4 leaves (leaf_bits 16): a 16-bit load (little-endian host,
// k2_serialize.c).
static inline uint16_t k2_leafc_word16(const k2_leafc *c, uint64_t r) {
  uint16_t w;
  memcpy(&w, (const unsigned char *)c->vocab + 2 * r, sizeof w);
  return w;
}

// Vocabulary word r.
static inline uint64_t k2_leafc_word(const k2_leafc *c, uint64_t r) {
  if (c->leaf_bits == 64) return c->vocab[r];
  if (c->leaf_bits == 16) return k2_leafc_word16(c, r);
  const uint64_t bit = r * c->leaf_bits;
  return (c->vocab[bit >> 6] >> (bit & 63)) & ((UINT64_C(1) << c->leaf_bits) - 1);
}

// A reader of consecutive leaves: one rank per level at the start, then a position per level
// that moves on as codes continue there (no rank per leaf), for the products, which read the
// leaves of a run of nodes in order.
typedef struct {
  const k2_leafc *c;
  uint64_t pos[K2_LEAFC_MAX_LEVELS];  // the next field of each level
} k2_leafc_cursor;

// Start at leaf q (< count[0]).
static inline void k2_leafc_seek(k2_leafc_cursor *k, const k2_leafc *c, uint64_t q) {
  k->c = c;
  k->pos[0] = q;
  for (uint32_t l = 0; l + 1 < c->levels; l++)
    k->pos[l + 1] = k->pos[l] < c->count[l] ? k2_leafc_rank(c, l, k->pos[l]) : c->count[l + 1];
}

// The bitmap of the next leaf.
static inline uint64_t k2_leafc_next(k2_leafc_cursor *k) {
  const k2_leafc *c = k->c;
  uint64_t v = 0;
  uint32_t shift = 0;
  for (uint32_t l = 0;; l++) {
    const uint64_t i = k->pos[l]++;
    const uint32_t b = c->width[l];
    v |= k2_leafc_field(c->chunks[l], i * b, b) << shift;
    if (l + 1 == c->levels || !((c->more[l][i >> 6] >> (i & 63)) & 1)) break;
    shift += b;
  }
  return k2_leafc_word(c, v);
}

// The `width`-bit field at bit `pos` of a packed array by one unaligned 8-byte load (the host
// is little-endian, k2_serialize.c): no branch on a field that spans two words. width <= 57,
// and the 8 bytes from byte pos / 8 must lie inside the array (k2_leafc_fits8).
static inline uint64_t k2_leafc_field8(const uint64_t *a, uint64_t pos, uint64_t mask) {
  uint64_t x;
  memcpy(&x, (const unsigned char *)a + (pos >> 3), sizeof x);
  return (x >> (pos & 7)) & mask;
}

// Whether the 8 bytes from the byte of bit `pos` of part a lie inside c's array.
static inline bool k2_leafc_fits8(const k2_leafc *c, const uint64_t *a, uint64_t pos) {
  return (uint64_t)((const unsigned char *)(c->words + c->n_words) - (const unsigned char *)a) >=
         (pos >> 3) + 8;
}

// Levels l.. of a run (k2_leafc_next_run): the fields of the cnt codes that reach level l,
// whose places in out[] idx lists, or-ed in from bit `shift`; idx keeps those that go on.
static inline void k2_leafc_run_levels(k2_leafc_cursor *k, uint64_t *out, uint32_t *idx,
                                       uint64_t cnt, uint32_t l, uint32_t shift) {
  const k2_leafc *c = k->c;
  for (; l < c->levels && cnt > 0; l++) {
    const uint32_t b = c->width[l];
    const uint64_t mask = b == 64 ? ~UINT64_C(0) : (UINT64_C(1) << b) - 1, *ch = c->chunks[l];
    const bool last = l + 1 == c->levels;
    const uint64_t *m = c->more[l];
    uint64_t next = 0, pos = k->pos[l];
    const bool fast = b <= 57 && k2_leafc_fits8(c, ch, (pos + cnt - 1) * b);
    for (uint64_t t = 0; t < cnt; t++, pos++) {
      const uint32_t j = idx[t];
      out[j] |= (fast ? k2_leafc_field8(ch, pos * b, mask) : k2_leafc_field(ch, pos * b, b)) << shift;
      if (!last) {
        idx[next] = j;
        next += (m[pos >> 6] >> (pos & 63)) & 1;
      }
    }
    k->pos[l] = pos;
    cnt = next;
    shift += b;
  }
}

#if defined(__AVX2__) && defined(__BMI2__)
#include <immintrin.h>

// Four leaves' ranks of a run (k2_leafc_run_lanes) as 16-bit lanes: the fields of level 0 from
// bit pos0 of ch0, of level 1 from bit pos1 of ch1 deposited (pdep) into the lanes e1 selects.
static inline uint64_t k2_leafc_lanes4(const k2_leafc *c, uint64_t pos0, uint64_t pos1, uint64_t e1) {
  const uint64_t lanes = UINT64_C(0x0001000100010001);
  const uint32_t b0 = c->width[0], b1 = c->width[1];
  return _pdep_u64(k2_leafc_field8(c->chunks[0], pos0 * b0, ~UINT64_C(0)),
                   lanes * ((UINT64_C(1) << b0) - 1)) |
         _pdep_u64(k2_leafc_field8(c->chunks[1], pos1 * b1, ~UINT64_C(0)),
                   _pdep_u64(e1, lanes) * (((UINT64_C(1) << b1) - 1) << b0));
}

// Levels 0 and 1 of a run of 4x4 leaves, eight leaves at a time, with no loop per leaf: the
// ranks of four leaves are the 16-bit lanes of a word, a level's fields deposited (pdep) into
// the lanes its continuation bits select, and those bits into the lanes that reach the next
// level. idx gets the leaves that reach level 2 (their lanes' numbers gathered by pext); returns
// their number. Needs two levels at least and both levels' loads inside the array
// (k2_leafc_next_run checks).
static inline uint64_t k2_leafc_run_lanes(k2_leafc_cursor *k, uint64_t *out, uint32_t *idx,
                                          uint64_t n) {
  const k2_leafc *c = k->c;
  const uint64_t bytes = UINT64_C(0x0101010101010101);
  const bool deeper = c->levels > 2;
  uint64_t p0 = k->pos[0], p1 = k->pos[1], cnt = 0;
  for (uint64_t j = 0; j < n; j += 8) {
    const uint64_t live = n - j >= 8 ? 255u : (UINT64_C(1) << (n - j)) - 1;
    const uint64_t e1 = k2_leafc_field8(c->more[0], p0, live);
    const uint64_t mid = p1 + (uint64_t)__builtin_popcountll(e1 & 15);
    const uint64_t lo = k2_leafc_lanes4(c, p0, p1, e1 & 15), hi = k2_leafc_lanes4(c, p0 + 4, mid, e1 >> 4);
    const uint64_t e2 = deeper ? _pdep_u64(k2_leafc_field8(c->more[1], p1, ~UINT64_C(0)), e1) : 0;
    p0 += (uint64_t)__builtin_popcountll(live);
    p1 += (uint64_t)__builtin_popcountll(e1);
    _mm256_storeu_si256((__m256i *)(out + j), _mm256_cvtepu16_epi64(_mm_cvtsi64_si128((long long)lo)));
    _mm256_storeu_si256((__m256i *)(out + j + 4), _mm256_cvtepu16_epi64(_mm_cvtsi64_si128((long long)hi)));
    // the lanes of e2, lowest first, as bytes, then widened and listed by one 32-byte store
    const uint64_t list = _pext_u64(UINT64_C(0x0706050403020100), _pdep_u64(e2, bytes) * 0xFF);
    const __m256i at = _mm256_add_epi32(_mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)list)),
                                        _mm256_set1_epi32((int)j));
    _mm256_storeu_si256((__m256i *)(idx + cnt), at);
    cnt += (uint64_t)__builtin_popcountll(e2);
  }
  k->pos[0] = p0;
  k->pos[1] = p1;
  return cnt;
}
#endif

// The vocabulary ranks of the next n leaves into out[0, n) (k2_leafc_word gives their bitmaps,
// in the caller's loop over the leaves: no pass of its own), level by level with no branch per
// leaf: each level's fields are read in order for the codes that reach it, whose places in
// out[] are listed in idx as the continuation bits say (out and idx: room for n + 7). The same
// leaves as n calls of k2_leafc_next, without a mispredicted branch wherever a code goes on or
// stops.
static inline void k2_leafc_next_run(k2_leafc_cursor *k, uint64_t *out, uint32_t *idx, uint64_t n) {
  const k2_leafc *c = k->c;
  const uint32_t b0 = c->width[0];
  uint64_t pos = k->pos[0], cnt = 0;
#if defined(__AVX2__) && defined(__BMI2__)
  // 4x4 leaves: ranks below 2^16, so both levels' fields of four leaves fit a 64-bit load
  if (c->leaf_bits == 16 && c->levels >= 2 && b0 <= 14 && c->width[1] <= 14 &&
      k2_leafc_fits8(c, c->chunks[0], (pos + n + 4) * b0) &&
      k2_leafc_fits8(c, c->chunks[1], (k->pos[1] + n) * c->width[1])) {
    cnt = k2_leafc_run_lanes(k, out, idx, n);
    k2_leafc_run_levels(k, out, idx, cnt, 2, b0 + c->width[1]);
    return;
  }
#endif
  const uint64_t mask0 = b0 == 64 ? ~UINT64_C(0) : (UINT64_C(1) << b0) - 1, *ch0 = c->chunks[0];
  const uint64_t *m0 = c->more[0];
  const bool more = c->levels > 1;
  const bool fast = b0 <= 57 && k2_leafc_fits8(c, ch0, (pos + n - 1) * b0);
  for (uint64_t j = 0; j < n; j++, pos++) {
    out[j] = fast ? k2_leafc_field8(ch0, pos * b0, mask0) : k2_leafc_field(ch0, pos * b0, b0);
    if (more) {
      idx[cnt] = (uint32_t)j;
      cnt += (m0[pos >> 6] >> (pos & 63)) & 1;
    }
  }
  k->pos[0] = pos;
  k2_leafc_run_levels(k, out, idx, cnt, 1, b0);
}

#ifdef __cplusplus
extern "C" {
#endif
// The plain packed leaves (ceil(count[0] * leaf_bits / 64) words, at least one; malloc'd), or
// NULL when out of memory: what code that reads leaves in place gets (the CUDA engine's device
// copy is plain). Without GraphBLAS types, for the CUDA engine's host code.
uint64_t *k2_leafc_plain(const k2_leafc *c);
#ifdef __cplusplus
}
#endif

// The bitmap of leaf q.
static inline uint64_t k2_leafc_leaf(const k2_leafc *c, uint64_t q) {
  return k2_leafc_word(c, k2_leafc_code(c, q));
}

#endif
