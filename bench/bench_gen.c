// bench_gen.c: generator speed and k²-tree-relevant structure of real and synthetic graphs.
// SPDX-License-Identifier: Apache-2.0
//
// Usage: bench_gen [scale_rmat=20] [web_nodes...]   (default web sizes: 300000 3000000)
// For each graph: n, edges m (distinct), non-zeros per non-empty 2x2 and 4x4 block, the k²-tree
// size with 2x2 leaves estimated as 4 bits per non-empty block of every level (est.bits: a node's
// signature or a leaf bitmap), and the real tree's bits per edge from K2_Matrix_memoryUsage
// (tree.bits: signatures + leaves + level offsets; all.bits: the whole matrix object).
// cnr-2000 (BVGraph, from ../shared/data) is the reference for web structure.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <k2grb.h>

static uint64_t spread(uint32_t x) {  // bit b of x -> bit 2b
  uint64_t v = x;
  v = (v | (v << 16)) & UINT64_C(0x0000FFFF0000FFFF);
  v = (v | (v << 8)) & UINT64_C(0x00FF00FF00FF00FF);
  v = (v | (v << 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
  v = (v | (v << 2)) & UINT64_C(0x3333333333333333);
  v = (v | (v << 1)) & UINT64_C(0x5555555555555555);
  return v;
}

// LSD radix sort of 64-bit keys below 2^bits, 16 bits a pass.
static void radix_sort(uint64_t *a, uint64_t n, unsigned bits) {
  uint64_t *tmp = malloc(n * sizeof *tmp);
  uint64_t *count = malloc(65536 * sizeof *count);
  if (tmp == NULL || count == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  for (unsigned shift = 0; shift < bits; shift += 16) {
    memset(count, 0, 65536 * sizeof *count);
    for (uint64_t k = 0; k < n; k++) count[(a[k] >> shift) & 0xFFFF]++;
    uint64_t sum = 0;
    for (int d = 0; d < 65536; d++) {
      uint64_t c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (uint64_t k = 0; k < n; k++) tmp[count[(a[k] >> shift) & 0xFFFF]++] = a[k];
    uint64_t *t = a;
    a = tmp;
    tmp = t;
  }
  if (((bits + 15) / 16) % 2 == 1) {  // odd number of passes: result is in tmp's buffer
    memcpy(tmp, a, n * sizeof *a);
    uint64_t *t = a;
    a = tmp;
    tmp = t;
  }
  free(tmp);
  free(count);
}

typedef struct {
  uint64_t n, m;        // nodes, distinct edges
  double per2, per4;    // non-zeros per non-empty 2x2, 4x4 block
  double bits_per_edge; // estimated k²-tree bits (2x2 leaves)
} stats;

static stats measure(const K2_Edges *E) {
  stats s = {.n = E->nrows};
  unsigned h = 0;
  while (h < 32 && ((uint64_t)1 << h) < E->nrows) h++;
  if (h == 0) h = 1;
  uint64_t *code = malloc((E->nvals + 1) * sizeof *code);
  if (code == NULL) exit(1);
#pragma omp parallel for
  for (uint64_t k = 0; k < E->nvals; k++) code[k] = spread(E->I[k]) << 1 | spread(E->J[k]);
  radix_sort(code, E->nvals, 2 * h);
  // distinct blocks of side 2^t: 1 + number of neighbours whose codes differ above bit 2t
  uint64_t hist[33] = {0};
  uint64_t distinct = E->nvals ? 1 : 0;
  for (uint64_t k = 1; k < E->nvals; k++) {
    uint64_t x = code[k] ^ code[k - 1];
    if (x == 0) continue;
    distinct++;
    hist[(63 - __builtin_clzll(x)) / 2]++;
  }
  free(code);
  uint64_t blocks[33];  // blocks[t]: non-empty blocks of side 2^t = 1 + sum_{u >= t} hist[u]
  uint64_t above = 0;
  for (int t = 32; t >= 0; t--) {
    above += hist[t];
    blocks[t] = E->nvals ? 1 + above : 0;
  }
  s.m = distinct;
  s.per2 = blocks[1] ? (double)distinct / blocks[1] : 0;
  s.per4 = blocks[2] ? (double)distinct / blocks[2] : 0;
  uint64_t bits = 0;
  for (unsigned t = 1; t <= h; t++) bits += 4 * blocks[t];
  s.bits_per_edge = distinct ? (double)bits / distinct : 0;
  return s;
}

// The real tree (K2_Matrix_build_32, default format): bits per distinct edge of the tree part
// and of everything the matrix holds.
static void tree_bits(const K2_Edges *E, uint64_t m, double *tree, double *total) {
  *tree = *total = 0;
  K2_Matrix A = NULL;
  K2_MemoryUsage u;
  if (K2_Matrix_new(&A, E->nrows, E->ncols) != GrB_SUCCESS ||
      K2_Matrix_build_32(A, E->I, E->J, E->nvals) != GrB_SUCCESS ||
      K2_Matrix_memoryUsage(&u, A) != GrB_SUCCESS) {
    fprintf(stderr, "tree: %s\n", K2_error_string());
  } else if (m > 0) {
    *tree = 8.0 * (double)u.tree / (double)m;
    *total = 8.0 * (double)u.total / (double)m;
  }
  K2_Matrix_free(&A);
}

static void row(const char *name, const K2_Edges *E, double secs) {
  stats s = measure(E);
  double tree, total;
  tree_bits(E, s.m, &tree, &total);
  printf("%-28s %11llu %12llu %8.2f %8.2f %9.2f %9.2f %9.2f %8.2f\n", name,
         (unsigned long long)s.n, (unsigned long long)s.m, s.per2, s.per4, s.bits_per_edge, tree,
         total, secs);
  fflush(stdout);
}

int main(int argc, char **argv) {
  uint32_t scale = argc > 1 ? (uint32_t)atoi(argv[1]) : 20;
  printf("threads %d\n", omp_get_max_threads());
  if (K2_init() != GrB_SUCCESS) return 1;
  printf("%-28s %11s %12s %8s %8s %9s %9s %9s %8s\n", "graph", "n", "m(distinct)", "nnz/2x2",
         "nnz/4x4", "est.bits", "tree.bits", "all.bits", "gen s");
  K2_Edges E;
  char base[4096];
  snprintf(base, sizeof base, "%s/cnr-2000/cnr-2000", K2_DATA_DIR);
  double t = omp_get_wtime();
  if (K2_Edges_readBVGraph(&E, base, NULL) == GrB_SUCCESS) {
    row("cnr-2000 (BVGraph)", &E, omp_get_wtime() - t);
    K2_Edges_free(&E);
  }
  snprintf(base, sizeof base, "%s/uk-2007-05@100000/uk-2007-05@100000", K2_DATA_DIR);
  t = omp_get_wtime();
  if (K2_Edges_readBVGraph(&E, base, NULL) == GrB_SUCCESS) {
    row("uk-2007-05@100000 (BVGraph)", &E, omp_get_wtime() - t);
    K2_Edges_free(&E);
  }
  char name[64];
  K2_RmatParams rp;
  K2_RmatParams_default(&rp, scale);
  t = omp_get_wtime();
  if (K2_Gen_rmat(&E, &rp) != GrB_SUCCESS) return 1;
  snprintf(name, sizeof name, "R-MAT scale %u ef 16", scale);
  row(name, &E, omp_get_wtime() - t);
  K2_Edges_free(&E);
  t = omp_get_wtime();
  if (K2_Gen_uniform(&E, (GrB_Index)1 << scale, (GrB_Index)16 << scale, 1) != GrB_SUCCESS) return 1;
  snprintf(name, sizeof name, "uniform 2^%u x 16", scale);
  row(name, &E, omp_get_wtime() - t);
  K2_Edges_free(&E);
  t = omp_get_wtime();
  if (K2_Gen_grid2d(&E, 1000, 1000) != GrB_SUCCESS) return 1;
  row("grid 1000x1000", &E, omp_get_wtime() - t);
  K2_Edges_free(&E);

  K2_WebParams wp;
  K2_WebParams_default(&wp);
  uint64_t sizes_default[] = {300000, 3000000};
  int nsizes = argc > 2 ? argc - 2 : 2;
  for (int k = 0; k < nsizes; k++) {
    uint64_t n = argc > 2 ? strtoull(argv[k + 2], NULL, 10) : sizes_default[k];
    t = omp_get_wtime();
    if (K2_Gen_web(&E, n, &wp) != GrB_SUCCESS) {
      fprintf(stderr, "%s\n", K2_error_string());
      return 1;
    }
    double secs = omp_get_wtime() - t;
    snprintf(name, sizeof name, "web n=%llu", (unsigned long long)n);
    row(name, &E, secs);
    K2_Edges_free(&E);
  }
  K2_finalize();
  return 0;
}
