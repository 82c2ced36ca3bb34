// alg_test_util.h: graphs in both storages and plain-C oracles for the algorithm tests.
// SPDX-License-Identifier: Apache-2.0
//
// Every graph is loaded once as an edge list and built twice, independently: a GrB_Matrix
// (SuiteSparse, BOOL iso) and a K2_Matrix (the tree). The oracles are serial textbook code on
// a CSR of the same edges, sharing nothing with the algorithms under test.
#ifndef ALG_TEST_UTIL_H
#define ALG_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k2_test.h"
#include "k2grb_algorithms.h"

typedef struct {
  GrB_Index n, m;          // vertices, distinct edges
  GrB_Index *rowptr;       // CSR of the distinct edges (n + 1)
  uint32_t *col;           // (m)
  GrB_Matrix G;            // SuiteSparse storage
  K2_Matrix K;             // k²-tree storage
} alg_graph;

static inline int alg_cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

// Both storages and the CSR from n and (I, J) pairs (duplicates allowed).
static inline void alg_graph_from_pairs(alg_graph *g, GrB_Index n, const uint32_t *I, const uint32_t *J,
                                        GrB_Index ne) {
  memset(g, 0, sizeof *g);
  g->n = n;
  uint64_t *code = malloc((ne + 1) * sizeof(uint64_t));
  assert_non_null(code);
  for (GrB_Index k = 0; k < ne; k++) code[k] = ((uint64_t)I[k] << 32) | J[k];
  qsort(code, ne, sizeof(uint64_t), alg_cmp_u64);
  GrB_Index m = 0;
  for (GrB_Index k = 0; k < ne; k++) {
    if (m == 0 || code[k] != code[m - 1]) code[m++] = code[k];
  }
  g->m = m;
  g->rowptr = calloc(n + 1, sizeof(GrB_Index));
  g->col = malloc((m + 1) * sizeof(uint32_t));
  GrB_Index *gi = malloc((m + 1) * sizeof(GrB_Index)), *gj = malloc((m + 1) * sizeof(GrB_Index));
  assert_true(g->rowptr && g->col && gi && gj);
  for (GrB_Index k = 0; k < m; k++) {
    gi[k] = code[k] >> 32;
    gj[k] = code[k] & 0xffffffffu;
    g->col[k] = (uint32_t)gj[k];
    g->rowptr[gi[k] + 1]++;
  }
  for (GrB_Index i = 0; i < n; i++) g->rowptr[i + 1] += g->rowptr[i];
  GrB_Scalar one = NULL;
  K2_ASSERT_OK(GrB_Scalar_new(&one, GrB_BOOL));
  K2_ASSERT_OK(GrB_Scalar_setElement_BOOL(one, true));
  K2_ASSERT_OK(GrB_Matrix_new(&g->G, GrB_BOOL, n, n));
  K2_ASSERT_OK(GxB_Matrix_build_Scalar(g->G, gi, gj, one, m));
  K2_ASSERT_OK(GrB_wait(g->G, GrB_MATERIALIZE));
  GrB_Scalar_free(&one);
  K2_ASSERT_OK(K2_Matrix_new(&g->K, n, n));
  K2_ASSERT_OK(K2_Matrix_build_32(g->K, I, J, ne));
  free(code);
  free(gi);
  free(gj);
}

// A random clump of n - tail vertices (12 edges per vertex, from seed) with a path of tail
// vertices hanging off its last one: a search from the clump grows, fills it and then walks the
// tail a vertex per level (direction switches, small frontiers after large ones).
static inline void alg_graph_clump_with_tail(alg_graph *g, GrB_Index n, GrB_Index tail, uint64_t seed) {
  const GrB_Index clump = n - tail;
  uint32_t *I = malloc((12 * clump + tail + 1) * sizeof(uint32_t)), *J = malloc((12 * clump + tail + 1) * sizeof(uint32_t));
  assert_true(I != NULL && J != NULL);
  GrB_Index ne = 0;
  k2_rng r = {seed};
  for (GrB_Index k = 0; k < 12 * clump; k++) {
    I[ne] = (uint32_t)k2_rng_below(&r, clump), J[ne++] = (uint32_t)k2_rng_below(&r, clump);
  }
  for (GrB_Index i = clump - 1; i + 1 < n; i++) I[ne] = (uint32_t)i, J[ne++] = (uint32_t)(i + 1);
  alg_graph_from_pairs(g, n, I, J, ne);
  free(I);
  free(J);
}

// A graph file of the data folder (any format); false (after a message) when absent.
static inline bool alg_graph_load(alg_graph *g, const char *relative, bool symmetrize) {
  const char *path = k2_test_data_path(relative);
  if (path == NULL) {
    print_message("data file %s absent: skipped\n", relative);
    return false;
  }
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.symmetrize = symmetrize;
  K2_Edges E;
  GrB_Info info = K2_Edges_read(&E, path, &opt);
  if (info != GrB_SUCCESS) print_error("%s: %s\n", path, K2_error_string());
  assert_int_equal(info, GrB_SUCCESS);
  GrB_Index n = E.nrows > E.ncols ? E.nrows : E.ncols;
  alg_graph_from_pairs(g, n, E.I, E.J, E.nvals);
  K2_Edges_free(&E);
  return true;
}

static inline void alg_graph_free(alg_graph *g) {
  GrB_Matrix_free(&g->G);
  K2_Matrix_free(&g->K);
  free(g->rowptr);
  free(g->col);
  memset(g, 0, sizeof *g);
}

// The transpose's CSR (for oracles against the edges).
static inline void alg_csr_transpose(const alg_graph *g, GrB_Index **rowptr, uint32_t **col) {
  *rowptr = calloc(g->n + 1, sizeof(GrB_Index));
  *col = malloc((g->m + 1) * sizeof(uint32_t));
  for (GrB_Index k = 0; k < g->m; k++) (*rowptr)[g->col[k] + 1]++;
  for (GrB_Index i = 0; i < g->n; i++) (*rowptr)[i + 1] += (*rowptr)[i];
  GrB_Index *next = malloc((g->n + 1) * sizeof(GrB_Index));
  memcpy(next, *rowptr, g->n * sizeof(GrB_Index));
  for (GrB_Index i = 0; i < g->n; i++) {
    for (GrB_Index k = g->rowptr[i]; k < g->rowptr[i + 1]; k++) (*col)[next[g->col[k]]++] = (uint32_t)i;
  }
  free(next);
}

// Serial queue BFS: level[i] = hops from src (-1 unreachable).
static inline void alg_oracle_bfs(int64_t *level, GrB_Index n, const GrB_Index *rowptr, const uint32_t *col,
                                  GrB_Index src) {
  GrB_Index *queue = malloc((n + 1) * sizeof(GrB_Index)), head = 0, tail = 0;
  for (GrB_Index i = 0; i < n; i++) level[i] = -1;
  level[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    GrB_Index u = queue[head++];
    for (GrB_Index k = rowptr[u]; k < rowptr[u + 1]; k++) {
      if (level[col[k]] < 0) {
        level[col[k]] = level[u] + 1;
        queue[tail++] = col[k];
      }
    }
  }
  free(queue);
}

static inline bool alg_has_edge(const alg_graph *g, GrB_Index i, GrB_Index j) {
  for (GrB_Index k = g->rowptr[i]; k < g->rowptr[i + 1]; k++) {
    if (g->col[k] == j) return true;
  }
  return false;
}

// Union-find components: comp[i] = smallest vertex of i's weak component.
static inline GrB_Index alg_find(GrB_Index *p, GrB_Index x) {
  while (p[x] != x) x = p[x] = p[p[x]];
  return x;
}
static inline void alg_oracle_wcc(int64_t *comp, const alg_graph *g) {
  GrB_Index *p = malloc((g->n + 1) * sizeof(GrB_Index));
  for (GrB_Index i = 0; i < g->n; i++) p[i] = i;
  for (GrB_Index i = 0; i < g->n; i++) {
    for (GrB_Index k = g->rowptr[i]; k < g->rowptr[i + 1]; k++) {
      GrB_Index a = alg_find(p, i), b = alg_find(p, g->col[k]);
      if (a < b) p[b] = a; else if (b < a) p[a] = b;
    }
  }
  for (GrB_Index i = 0; i < g->n; i++) comp[i] = (int64_t)alg_find(p, i);
  free(p);
}

// Dense copies of result vectors (absent entries: `missing`).
static inline void alg_dense_int64(int64_t *out, GrB_Vector v, GrB_Index n, int64_t missing) {
  GrB_Index nv = n;
  GrB_Index *I = malloc((n + 1) * sizeof(GrB_Index));
  int64_t *X = malloc((n + 1) * sizeof(int64_t));
  K2_ASSERT_OK(GrB_Vector_extractTuples_INT64(I, X, &nv, v));
  for (GrB_Index i = 0; i < n; i++) out[i] = missing;
  for (GrB_Index k = 0; k < nv; k++) out[I[k]] = X[k];
  free(I);
  free(X);
}
static inline void alg_dense_fp64(double *out, GrB_Vector v, GrB_Index n) {
  GrB_Index nv = n;
  GrB_Index *I = malloc((n + 1) * sizeof(GrB_Index));
  double *X = malloc((n + 1) * sizeof(double));
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(I, X, &nv, v));
  for (GrB_Index i = 0; i < n; i++) out[i] = NAN;
  for (GrB_Index k = 0; k < nv; k++) out[I[k]] = X[k];
  free(I);
  free(X);
}

// BFS result checks: levels equal the oracle's; every parent is a visited in-neighbour one
// level up; the source is its own parent.
static inline void alg_check_bfs(const alg_graph *g, GrB_Index src, GrB_Vector level, GrB_Vector parent,
                                 const int64_t *oracle) {
  int64_t *lv = malloc((g->n + 1) * sizeof(int64_t)), *pa = malloc((g->n + 1) * sizeof(int64_t));
  if (level != NULL) {
    alg_dense_int64(lv, level, g->n, -1);
    for (GrB_Index i = 0; i < g->n; i++) {
      if (lv[i] != oracle[i]) {
        print_error("vertex %llu: level %lld, oracle %lld (source %llu)\n", (unsigned long long)i,
                    (long long)lv[i], (long long)oracle[i], (unsigned long long)src);
        fail();
      }
    }
  }
  if (parent != NULL) {
    alg_dense_int64(pa, parent, g->n, -1);
    for (GrB_Index i = 0; i < g->n; i++) {
      if (oracle[i] < 0) {
        assert_int_equal(pa[i], -1);
      } else if (i == src) {
        assert_int_equal(pa[i], (int64_t)src);
      } else {
        assert_true(pa[i] >= 0 && (GrB_Index)pa[i] < g->n);
        assert_int_equal(oracle[pa[i]], oracle[i] - 1);
        assert_true(alg_has_edge(g, (GrB_Index)pa[i], i));
      }
    }
  }
  free(lv);
  free(pa);
}

// "vertex value" lines of an expected-result file ('#' comments), into dense arrays by the
// 0-based vertex id; returns the number of lines read.
static inline GrB_Index alg_read_expected(const char *path, double *value, GrB_Index n) {
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[4096];
  GrB_Index count = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    unsigned long long v;
    double x;
    if (sscanf(line, "%llu %lf", &v, &x) == 2 && v < n) {
      value[v] = x;
      count++;
    }
  }
  fclose(f);
  return count;
}

#endif
