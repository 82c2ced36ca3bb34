// overlay_support.h: the graph and the plain-C oracles shared by the overlay tests.
// SPDX-License-Identifier: Apache-2.0
#ifndef OVERLAY_SUPPORT_H
#define OVERLAY_SUPPORT_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "k2_test.h"

#define OV_N 3000

// A directed graph with hubs, sinks and a few unreachable nodes: (I, J) sorted, no duplicates.
static __attribute__((unused)) GrB_Index ov_graph(GrB_Index **I, GrB_Index **J) {
  k2_rng r = {UINT64_C(42)};
  GrB_Index cap = 30 * OV_N, ne = 0;
  uint64_t *code = malloc(cap * sizeof(uint64_t));
  for (GrB_Index i = 0; i < OV_N - 20; i++) {
    if (i % 97 == 0) continue;  // sinks
    GrB_Index deg = 1 + k2_rng_below(&r, 8);
    for (GrB_Index e = 0; e < deg; e++) {
      GrB_Index j = k2_rng_below(&r, 4) ? k2_rng_below(&r, OV_N - 20) : k2_rng_below(&r, 50);
      code[ne++] = i * OV_N + j;
    }
  }
  // sort + unique (small: insertion into a bitmap)
  uint8_t *bit = calloc((size_t)OV_N * OV_N / 8 + 1, 1);
  for (GrB_Index k = 0; k < ne; k++) bit[code[k] >> 3] |= (uint8_t)(1u << (code[k] & 7));
  *I = malloc(ne * sizeof(GrB_Index));
  *J = malloc(ne * sizeof(GrB_Index));
  GrB_Index m = 0;
  for (uint64_t c = 0; c < (uint64_t)OV_N * OV_N; c++) {
    if (bit[c >> 3] & (1u << (c & 7))) {
      (*I)[m] = c / OV_N;
      (*J)[m++] = c % OV_N;
    }
  }
  free(bit);
  free(code);
  return m;
}

// Serial BFS levels (-1: unreached).
static __attribute__((unused)) void ov_oracle_bfs(int32_t *level, const GrB_Index *I, const GrB_Index *J, GrB_Index ne,
                          GrB_Index src) {
  GrB_Index *start = calloc(OV_N + 1, sizeof(GrB_Index)), *queue = malloc(OV_N * sizeof(GrB_Index));
  for (GrB_Index k = 0; k < ne; k++) start[I[k] + 1]++;
  for (GrB_Index i = 0; i < OV_N; i++) start[i + 1] += start[i];
  for (GrB_Index i = 0; i < OV_N; i++) level[i] = -1;
  GrB_Index head = 0, tail = 0;
  level[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    GrB_Index u = queue[head++];
    for (GrB_Index k = start[u]; k < start[u + 1]; k++) {
      if (level[J[k]] < 0) {
        level[J[k]] = level[u] + 1;
        queue[tail++] = J[k];
      }
    }
  }
  free(start);
  free(queue);
}

// Power iteration in double with the same model as PREFIX(pagerank).
static __attribute__((unused)) void ov_oracle_pagerank(double *r, const GrB_Index *I, const GrB_Index *J, GrB_Index ne,
                               double damping, int iters) {
  double *deg = calloc(OV_N, sizeof(double)), *t = malloc(OV_N * sizeof(double));
  for (GrB_Index k = 0; k < ne; k++) deg[I[k]] += 1;
  for (GrB_Index i = 0; i < OV_N; i++) r[i] = 1.0 / OV_N;
  for (int it = 0; it < iters; it++) {
    double sink = 0;
    for (GrB_Index i = 0; i < OV_N; i++) if (deg[i] == 0) sink += r[i];
    for (GrB_Index i = 0; i < OV_N; i++) t[i] = (1 - damping) / OV_N + damping * sink / OV_N;
    for (GrB_Index k = 0; k < ne; k++) t[J[k]] += damping * r[I[k]] / deg[I[k]];
    memcpy(r, t, OV_N * sizeof(double));
  }
  free(deg);
  free(t);
}

static GrB_Semiring ov_any_one, ov_plus_second;

// LAGraph's user-created semirings.
static __attribute__((unused)) void ov_semirings(void) {
  assert_int_equal(GrB_Semiring_new(&ov_any_one, GrB_LOR_MONOID_BOOL, GrB_ONEB_BOOL), GrB_SUCCESS);
  assert_int_equal(GrB_Semiring_new(&ov_plus_second, GrB_PLUS_MONOID_FP32, GrB_SECOND_FP32), GrB_SUCCESS);
}

static __attribute__((unused)) void ov_free_semirings(void) {
  GrB_Semiring_free(&ov_any_one);
  GrB_Semiring_free(&ov_plus_second);
}

// Dense copies of result vectors.
static __attribute__((unused)) void ov_dense_int32(int32_t *out, GrB_Vector v) {
  for (GrB_Index i = 0; i < OV_N; i++) {
    if (GrB_Vector_extractElement_INT32(&out[i], v, i) != GrB_SUCCESS) out[i] = -1;
  }
}

static __attribute__((unused)) void ov_dense_fp32(float *out, GrB_Vector v) {
  for (GrB_Index i = 0; i < OV_N; i++) {
    if (GrB_Vector_extractElement_FP32(&out[i], v, i) != GrB_SUCCESS) out[i] = NAN;
  }
}

#endif
