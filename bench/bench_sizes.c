// bench_sizes.c: nodes, edges, the k²-tree's bytes by part and bits per edge of graph files,
// against a CSR, as a Markdown table (docs/graphs.md).
// SPDX-License-Identifier: Apache-2.0
//
// usage: bench_sizes FILE|web:N...   (any format K2_Matrix_read takes; unreadable files are
// listed with the reader's message; web:N generates the web-like graph of N pages, seed 1,
// K2_Gen_web's defaults)
// Columns: signatures and leaves (docs/k2-format.md sizes them from the node counts), the tree
// (those plus the level offsets), the directory and the top codes and their share of the
// signatures and leaves, the whole k²-tree (tree + directory + top codes) and its bits per edge,
// a CSR with FP32 values and a Boolean CSR (K2_csr_bytes), and the Boolean CSR over the
// k²-tree.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <k2grb.h>

// A K2_Matrix from a file, or generated for "web:N".
static GrB_Info sizes_load(K2_Matrix *A, const char *what) {
  if (strncmp(what, "web:", 4) != 0) return K2_Matrix_read(A, what, NULL);
  K2_WebParams p;
  K2_WebParams_default(&p);
  K2_Edges E = {0};
  GrB_Info info = K2_Gen_web(&E, strtoull(what + 4, NULL, 10), &p);
  if (info == GrB_SUCCESS) info = K2_Matrix_new(A, E.nrows, E.ncols);
  if (info == GrB_SUCCESS) info = K2_Matrix_build_32(*A, E.I, E.J, E.nvals);
  K2_Edges_free(&E);
  return info;
}

int main(int argc, char **argv) {
  if (K2_init() != GrB_SUCCESS) return 1;
  printf("| graph | nodes | edges | signatures B | leaves B | tree B | directory B | top B | aux %% "
         "| k² B | bits/edge | CSR FP32 B | bCSR B | bCSR / k² |\n");
  printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  int bad = 0;
  for (int a = 1; a < argc; a++) {
    K2_Matrix A = NULL;
    if (sizes_load(&A, argv[a]) != GrB_SUCCESS) {
      K2_Matrix_free(&A);
      printf("| %s | not read: %s |||||||||||||\n", argv[a], K2_error_string());
      bad++;
      continue;
    }
    GrB_Index nr, nc, nv;
    K2_MemoryUsage u;
    K2_Matrix_nrows(&nr, A);
    K2_Matrix_ncols(&nc, A);
    K2_Matrix_nvals(&nv, A);
    K2_Matrix_memoryUsage(&u, A);
    const uint64_t sig = 8 * ((u.internal_nodes + 15) / 16);
    const uint64_t leaves = 8 * ((u.leaves * (UINT64_C(1) << (2 * u.leaf_log)) + 63) / 64);
    const uint64_t k2 = u.tree + u.directory + u.top, bcsr = K2_csr_bytes(nr, nv, false);
    printf("| %s | %llu | %llu | %llu | %llu | %llu | %llu | %llu | %.2f | %llu | %.2f | %llu | %llu | "
           "%.2f |\n",
           argv[a], (unsigned long long)(nr > nc ? nr : nc), (unsigned long long)nv,
           (unsigned long long)sig, (unsigned long long)leaves, (unsigned long long)u.tree,
           (unsigned long long)u.directory, (unsigned long long)u.top,
           sig + leaves ? 100.0 * (double)(u.directory + u.top) / (double)(sig + leaves) : 0.0,
           (unsigned long long)k2, nv ? 8.0 * (double)k2 / (double)nv : 0.0,
           (unsigned long long)K2_csr_bytes(nr, nv, true), (unsigned long long)bcsr,
           (double)bcsr / (double)k2);
    K2_Matrix_free(&A);
  }
  K2_finalize();
  return bad ? 1 : 0;
}
