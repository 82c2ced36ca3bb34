// k2_gen.c: synthetic graphs: R-MAT / Graph500 Kronecker, 2-D grid, uniform, web-like.
// SPDX-License-Identifier: Apache-2.0
//
// Random numbers are a counter-based hash (the splitmix64 finalizer) of the seed and the edge,
// host or node number, so every edge is a pure function of its index: the output does not
// depend on the thread count or schedule. docs/generators.md explains the web-like model.
#include "io/k2_gen.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "io/k2_edges.h"
#include "util/k2_error.h"

//==============================================================================================
// counter-based random numbers
//==============================================================================================

static inline uint64_t gen_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

// The k-th random word (k < 64) of item `e` under key (= gen_mix(seed)): splitmix64 evaluated
// at counter 64e + k.
static inline uint64_t gen_hash(uint64_t key, uint64_t e, uint64_t k) {
  return gen_mix(key + (e * 64 + k) * UINT64_C(0x9E3779B97F4A7C15));
}

// x uniform in [0, n) from a 64-bit word (multiply-high).
static inline uint64_t gen_below(uint64_t word, uint64_t n) {
  return (uint64_t)(((unsigned __int128)word * n) >> 64);
}

static inline double gen_unit(uint64_t word) { return (double)(word >> 11) * 0x1.0p-53; }

// A sequential stream for the inside of one host (seeded from the counter-based hash).
typedef struct { uint64_t s; } gen_rng;
static inline uint64_t gen_next(gen_rng *r) { return gen_mix(r->s += UINT64_C(0x9E3779B97F4A7C15)); }
static inline double gen_u(gen_rng *r) { return gen_unit(gen_next(r)); }
// Geometric number of failures before a success of probability 1/(1+mean): mean `mean`.
static inline uint64_t gen_geom(gen_rng *r, double mean) {
  if (mean <= 0) return 0;
  double u = gen_u(r);
  return (uint64_t)floor(log1p(-u) / log1p(-1.0 / (1.0 + mean)));
}

static GrB_Info gen_alloc(K2_Edges *E, GrB_Index nrows, GrB_Index m, const char *who) {
  memset(E, 0, sizeof *E);
  size_t cap = (size_t)(m ? m : 1);
  E->I = malloc(cap * sizeof *E->I);
  E->J = malloc(cap * sizeof *E->J);
  if (E->I == NULL || E->J == NULL) {
    free(E->I);
    free(E->J);
    memset(E, 0, sizeof *E);
    K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory for %llu edges", who, (unsigned long long)m);
  }
  E->nrows = E->ncols = nrows;
  E->nvals = m;
  E->capacity = cap;
  return GrB_SUCCESS;
}

//==============================================================================================
// R-MAT
//==============================================================================================

void k2_gen_rmat_default(K2_RmatParams *p, uint32_t scale) {
  *p = (K2_RmatParams){.scale = scale, .edge_factor = 16, .a = 0.57, .b = 0.19, .c = 0.19,
                       .permute = true, .seed = 1};
}

// A bijection of [0, 2^bits): odd multiplications, xor-shifts and additions mod 2^bits.
typedef struct { uint64_t mask, m1, m2, a1, a2; unsigned s1, s2; } gen_perm;

static gen_perm gen_perm_make(uint64_t key, unsigned bits) {
  gen_perm p;
  p.mask = bits >= 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1);
  p.m1 = gen_hash(key, 0, 1) | 1;
  p.m2 = gen_hash(key, 0, 2) | 1;
  p.a1 = gen_hash(key, 0, 3);
  p.a2 = gen_hash(key, 0, 4);
  p.s1 = bits / 2 + 1;
  p.s2 = bits / 3 + 1;
  return p;
}

static inline uint64_t gen_perm_apply(const gen_perm *p, uint64_t x) {
  x = (x * p->m1 + p->a1) & p->mask;
  x ^= x >> p->s1;
  x = (x * p->m2 + p->a2) & p->mask;
  x ^= x >> p->s2;
  x = (x * p->m1 + p->a2) & p->mask;
  return x;
}

GrB_Info k2_gen_rmat(K2_Edges *E, const K2_RmatParams *p) {
  double d = 1.0 - p->a - p->b - p->c;
  if (p->scale > 32 || !(p->a >= 0 && p->b >= 0 && p->c >= 0 && d >= -1e-12) ||
      !(p->edge_factor >= 0 && p->edge_factor <= 1e6))
    K2_FAIL(GrB_INVALID_VALUE, "K2_Gen_rmat: need scale <= 32, a, b, c >= 0 with a+b+c <= 1 and "
                               "0 <= edge_factor <= 1e6 (got %u, %g %g %g, %g)",
            p->scale, p->a, p->b, p->c, p->edge_factor);
  const uint64_t n = (uint64_t)1 << p->scale;
  const double mf = p->edge_factor * (double)n;
  if (mf > 1e12) K2_FAIL(GrB_INVALID_VALUE, "K2_Gen_rmat: %g edges is too many", mf);
  const uint64_t m = (uint64_t)llround(mf);
  K2_Edges out;
  GrB_Info info = gen_alloc(&out, n, m, "K2_Gen_rmat");
  if (info != GrB_SUCCESS) return info;

  // thresholds of the quadrants on 16-bit uniforms
  const uint32_t ta = (uint32_t)lround(p->a * 65536.0);
  const uint32_t tb = (uint32_t)lround((p->a + p->b) * 65536.0);
  const uint32_t tc = (uint32_t)lround((p->a + p->b + p->c) * 65536.0);
  const uint64_t key = gen_mix(p->seed ^ UINT64_C(0x5241544D));  // "RMAT"
  const gen_perm perm = gen_perm_make(gen_mix(key + 1), p->scale);
  const unsigned scale = p->scale;
  uint32_t *I = out.I, *J = out.J;
#pragma omp parallel for schedule(static)
  for (uint64_t e = 0; e < m; e++) {
    uint64_t i = 0, j = 0;
    for (unsigned lvl = 0; lvl < scale; lvl += 4) {
      uint64_t h = gen_hash(key, e, lvl);
      unsigned steps = scale - lvl < 4 ? scale - lvl : 4;
      for (unsigned s = 0; s < steps; s++, h >>= 16) {
        uint32_t u = (uint32_t)(h & 0xFFFF);
        uint64_t bi = u >= tb, bj = (u >= ta && u < tb) || u >= tc;
        i = (i << 1) | bi;
        j = (j << 1) | bj;
      }
    }
    if (p->permute) {
      i = gen_perm_apply(&perm, i);
      j = gen_perm_apply(&perm, j);
    }
    I[e] = (uint32_t)i;
    J[e] = (uint32_t)j;
  }
  *E = out;
  return GrB_SUCCESS;
}

//==============================================================================================
// grid and uniform
//==============================================================================================

GrB_Info k2_gen_grid2d(K2_Edges *E, uint32_t rows, uint32_t cols) {
  const uint64_t R = rows, C = cols, n = R * C;
  if (n > ((uint64_t)1 << 32))
    K2_FAIL(GrB_INVALID_VALUE, "K2_Gen_grid2d: %u x %u exceeds 2^32 vertices", rows, cols);
  // each row: 2(C-1) horizontal arcs, plus C arcs up (row > 0) and C down (row < R-1)
  const uint64_t m = n == 0 ? 0 : 2 * R * (C - 1) + 2 * C * (R - 1);
  K2_Edges out;
  GrB_Info info = gen_alloc(&out, n, m, "K2_Gen_grid2d");
  if (info != GrB_SUCCESS) return info;
  uint32_t *I = out.I, *J = out.J;
#pragma omp parallel for schedule(static)
  for (uint64_t r = 0; r < R; r++) {
    // arcs of the rows before r
    uint64_t p = n == 0 ? 0 : r * 2 * (C - 1) + (r == 0 ? 0 : C * (2 * r - 1));
    for (uint64_t c = 0; c < C; c++) {
      uint64_t v = r * C + c;
      // neighbours in increasing order: up, left, right, down
      if (r > 0) { I[p] = (uint32_t)v; J[p++] = (uint32_t)(v - C); }
      if (c > 0) { I[p] = (uint32_t)v; J[p++] = (uint32_t)(v - 1); }
      if (c + 1 < C) { I[p] = (uint32_t)v; J[p++] = (uint32_t)(v + 1); }
      if (r + 1 < R) { I[p] = (uint32_t)v; J[p++] = (uint32_t)(v + C); }
    }
  }
  *E = out;
  return GrB_SUCCESS;
}

GrB_Info k2_gen_uniform(K2_Edges *E, GrB_Index n, GrB_Index m, uint64_t seed) {
  if (n > ((uint64_t)1 << 32) || (n == 0 && m > 0) || m > ((uint64_t)1 << 40))
    K2_FAIL(GrB_INVALID_VALUE, "K2_Gen_uniform: need n <= 2^32, n > 0 if m > 0, m <= 2^40");
  K2_Edges out;
  GrB_Info info = gen_alloc(&out, n, m, "K2_Gen_uniform");
  if (info != GrB_SUCCESS) return info;
  const uint64_t key = gen_mix(seed ^ UINT64_C(0x554E4946));  // "UNIF"
  uint32_t *I = out.I, *J = out.J;
#pragma omp parallel for schedule(static)
  for (uint64_t e = 0; e < m; e++) {
    I[e] = (uint32_t)gen_below(gen_hash(key, e, 0), n);
    J[e] = (uint32_t)gen_below(gen_hash(key, e, 1), n);
  }
  *E = out;
  return GrB_SUCCESS;
}

//==============================================================================================
// web-like: host-local copying model
//==============================================================================================

void k2_gen_web_default(K2_WebParams *p) {
  // tuned so that 4x4-block density and estimated tree bits per edge match cnr-2000
  *p = (K2_WebParams){.avg_degree = 10, .host_size = 64, .host_sigma = 1.5, .menu = 6,
                      .menu_keep = 0.8, .copy_prob = 0.85, .copy_keep = 0.9, .window = 3,
                      .run_mean = 4, .local_spread = 8, .remote_frac = 0.10, .seed = 1};
}

typedef struct {
  uint32_t *list;  // sorted, distinct
  uint32_t len, cap;
} gen_list;

// Per-thread scratch of the web generator: the lists of the last window+1 pages of the host.
typedef struct {
  gen_list *ring;
  uint32_t slots;
  uint32_t *cand;
  uint64_t cand_len, cand_cap;
  bool oom;
} gen_web_scratch;

static inline void gen_cand_push(gen_web_scratch *s, uint32_t v) {
  if (s->cand_len == s->cand_cap) {
    uint64_t cap = s->cand_cap ? 2 * s->cand_cap : 256;
    uint32_t *c = realloc(s->cand, cap * sizeof *c);
    if (c == NULL) {
      s->oom = true;
      return;
    }
    s->cand = c;
    s->cand_cap = cap;
  }
  s->cand[s->cand_len++] = v;
}

static int gen_cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static uint64_t gen_sort_unique(uint32_t *a, uint64_t n) {
  if (n <= 32) {
    for (uint64_t i = 1; i < n; i++) {
      uint32_t v = a[i];
      uint64_t j = i;
      while (j > 0 && a[j - 1] > v) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = v;
    }
  } else {
    qsort(a, n, sizeof *a, gen_cmp_u32);
  }
  uint64_t k = 0;
  for (uint64_t i = 0; i < n; i++)
    if (k == 0 || a[k - 1] != a[i]) a[k++] = a[i];
  return k;
}

typedef struct {
  const K2_WebParams *p;
  uint64_t key;
  const uint64_t *hstart;  // hosts + 1 entries
  uint64_t hosts;
  double fresh_mean;       // mean number of fresh links per page
} gen_web;

// Generates host h; writes its arcs at I/J (NULL: only counts). Returns the number of arcs.
static uint64_t gen_web_host(const gen_web *W, gen_web_scratch *s, uint64_t h, uint32_t *I,
                             uint32_t *J) {
  const K2_WebParams *p = W->p;
  const uint64_t h0 = W->hstart[h], size = W->hstart[h + 1] - h0;
  gen_rng rng = {gen_hash(W->key, h, 7)};
  const uint64_t menu = p->menu < size ? p->menu : size;
  uint64_t arcs = 0;
  for (uint64_t i = 0; i < size; i++) {
    s->cand_len = 0;
    // navigation links of the host
    for (uint64_t k = 0; k < menu; k++)
      if (gen_u(&rng) < p->menu_keep) gen_cand_push(s, (uint32_t)(h0 + k));
    // part of the links of a prototype among the previous pages
    if (i > 0 && gen_u(&rng) < p->copy_prob) {
      uint64_t back = p->window < i ? p->window : i;
      uint64_t r = 1 + gen_below(gen_next(&rng), back);
      const gen_list *proto = &s->ring[(i - r) % s->slots];
      for (uint32_t k = 0; k < proto->len; k++)
        if (gen_u(&rng) < p->copy_keep) gen_cand_push(s, proto->list[k]);
    }
    // fresh links: Pareto(2) count with the right mean (stochastic rounding)
    double f = 0.5 * W->fresh_mean / sqrt(1.0 - gen_u(&rng));
    if (f > 4096) f = 4096;
    uint64_t fresh = (uint64_t)floor(f + gen_u(&rng));
    for (uint64_t added = 0; added < fresh;) {
      if (gen_u(&rng) < p->remote_frac) {
        // another host: mostly a nearby one (same domain), mostly its home page
        uint64_t g;
        if (gen_u(&rng) < 0.7) {
          uint64_t dist = 1 + gen_geom(&rng, 8);
          if (gen_u(&rng) < 0.5) g = h >= dist ? h - dist : 0;
          else g = h + dist < W->hosts ? h + dist : W->hosts - 1;
        } else {
          g = gen_below(gen_next(&rng), W->hosts);
        }
        uint64_t g0 = W->hstart[g], gsize = W->hstart[g + 1] - g0;
        uint64_t t = gen_u(&rng) < 0.6 ? g0 : g0 + gen_below(gen_next(&rng), gsize);
        gen_cand_push(s, (uint32_t)t);
        added++;
      } else {
        // a run of consecutive pages near this one
        uint64_t len = 1 + gen_geom(&rng, p->run_mean - 1);
        uint64_t dist = gen_geom(&rng, p->local_spread);
        int64_t start = gen_u(&rng) < 0.5 ? (int64_t)i - (int64_t)dist : (int64_t)(i + 1 + dist);
        if (start < 0) start = 0;
        for (uint64_t k = 0; k < len && added < fresh && (uint64_t)start + k < size; k++, added++)
          gen_cand_push(s, (uint32_t)(h0 + (uint64_t)start + k));
        if ((uint64_t)start >= size) added++;  // a run past the host's end still counts
      }
    }
    uint64_t d = gen_sort_unique(s->cand, s->cand_len);
    // keep the list for the pages that copy from this one
    gen_list *slot = &s->ring[i % s->slots];
    if (d > slot->cap) {
      uint32_t *b = realloc(slot->list, d * sizeof *b);
      if (b == NULL) {
        s->oom = true;
        d = 0;
      } else {
        slot->list = b;
        slot->cap = (uint32_t)d;
      }
    }
    if (d > 0) memcpy(slot->list, s->cand, d * sizeof *s->cand);
    slot->len = (uint32_t)d;
    if (I != NULL) {
      for (uint64_t k = 0; k < d; k++) {
        I[arcs + k] = (uint32_t)(h0 + i);
        J[arcs + k] = s->cand[k];
      }
    }
    arcs += d;
  }
  return arcs;
}

GrB_Info k2_gen_web(K2_Edges *E, GrB_Index n, const K2_WebParams *p) {
  if (n > ((uint64_t)1 << 32) || !(p->avg_degree >= 0 && p->avg_degree <= 1e5) ||
      !(p->host_size >= 1) || !(p->host_sigma >= 0 && p->host_sigma <= 10) ||
      !(p->copy_prob >= 0 && p->copy_prob <= 1) || !(p->copy_keep >= 0 && p->copy_keep < 1) ||
      !(p->menu_keep >= 0 && p->menu_keep <= 1) || !(p->remote_frac >= 0 && p->remote_frac <= 1) ||
      !(p->run_mean >= 1) || !(p->local_spread >= 0) || p->window == 0 || p->window > 1024)
    K2_FAIL(GrB_INVALID_VALUE, "K2_Gen_web: parameter out of range (see k2grb/gen.h)");

  // hosts: consecutive ranges of log-normal size
  uint64_t hcap = 1024, hosts = 0;
  uint64_t *hstart = malloc(hcap * sizeof *hstart);
  if (hstart == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Gen_web: out of memory");
  const uint64_t key = gen_mix(p->seed ^ UINT64_C(0x574542));  // "WEB"
  hstart[0] = 0;
  while (hstart[hosts] < n) {
    if (hosts + 2 > hcap) {
      uint64_t *b = realloc(hstart, 2 * hcap * sizeof *b);
      if (b == NULL) {
        free(hstart);
        K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Gen_web: out of memory");
      }
      hstart = b;
      hcap *= 2;
    }
    double u1 = gen_unit(gen_hash(key, hosts, 1)), u2 = gen_unit(gen_hash(key, hosts, 2));
    double z = sqrt(-2.0 * log1p(-u1)) * cos(2 * M_PI * u2);
    double size = p->host_size * exp(p->host_sigma * z);
    uint64_t sz = size < 1 ? 1 : size > (double)n ? n : (uint64_t)size;
    hstart[hosts + 1] = hstart[hosts] + sz < n ? hstart[hosts] + sz : n;
    hosts++;
  }

  // fresh links per page so that the mean outdegree is about avg_degree: the links besides the
  // navigation ones, D' = D - menu*menu_keep, satisfy D' = copy_prob*copy_keep*D' + fresh
  gen_web W = {.p = p, .key = key, .hstart = hstart, .hosts = hosts};
  W.fresh_mean = (p->avg_degree - p->menu * p->menu_keep) * (1 - p->copy_prob * p->copy_keep);
  if (W.fresh_mean < 0.5) W.fresh_mean = 0.5;

  uint64_t *pos = calloc(hosts + 1, sizeof *pos);
  K2_Edges out;
  memset(&out, 0, sizeof out);
  GrB_Info info = GrB_SUCCESS;
  if (pos == NULL) {
    info = k2_error_set(GrB_OUT_OF_MEMORY, "K2_Gen_web: out of memory");
    goto done;
  }
  // pass 1 counts each host's arcs, pass 2 writes them at their place: memory stays 8 B/edge
  for (int pass = 0; pass < 2 && info == GrB_SUCCESS; pass++) {
    bool oom = false;
#pragma omp parallel reduction(|| : oom)
    {
      gen_web_scratch s = {.slots = p->window + 1};
      s.ring = calloc(s.slots, sizeof *s.ring);
      if (s.ring == NULL) s.oom = true;
#pragma omp for schedule(dynamic, 16)
      for (uint64_t h = 0; h < hosts; h++) {
        if (s.oom) continue;
        for (uint32_t k = 0; k < s.slots; k++) s.ring[k].len = 0;
        if (pass == 0) pos[h + 1] = gen_web_host(&W, &s, h, NULL, NULL);
        else gen_web_host(&W, &s, h, out.I + pos[h], out.J + pos[h]);
      }
      oom = s.oom;
      if (s.ring != NULL)
        for (uint32_t k = 0; k < s.slots; k++) free(s.ring[k].list);
      free(s.ring);
      free(s.cand);
    }
    if (oom) {
      info = k2_error_set(GrB_OUT_OF_MEMORY, "K2_Gen_web: out of memory");
    } else if (pass == 0) {
      for (uint64_t h = 0; h < hosts; h++) pos[h + 1] += pos[h];
      info = gen_alloc(&out, n, pos[hosts], "K2_Gen_web");
    }
  }
done:
  free(pos);
  free(hstart);
  if (info != GrB_SUCCESS) {
    k2_edges_free(&out);
    return info;
  }
  *E = out;
  return GrB_SUCCESS;
}
