// bench_sizes.c: nodes, edges, the k²-tree's bytes by part and bits per edge of graph files,
// against a CSR, as a Markdown table (docs/graphs.md).
// SPDX-License-Identifier: Apache-2.0
//
// usage: bench_sizes FILE...   (any format K2_Matrix_read takes; unreadable files are listed
// with the reader's message)
// Columns: signatures and leaves (docs/k2-format.md sizes them from the node counts), the tree
// (those plus the level offsets), the directory and the top codes and their share of the
// signatures and leaves, the whole k²-tree (tree + directory + top codes) and its bits per edge,
// a CSR with FP32 values and a Boolean CSR (K2_csr_bytes), and the Boolean CSR over the
// k²-tree.
#include <stdio.h>

#include <k2grb.h>

int main(int argc, char **argv) {
  if (K2_init() != GrB_SUCCESS) return 1;
  printf("| graph | nodes | edges | signatures B | leaves B | tree B | directory B | top B | aux %% "
         "| k² B | bits/edge | CSR FP32 B | bCSR B | bCSR / k² |\n");
  printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  int bad = 0;
  for (int a = 1; a < argc; a++) {
    K2_Matrix A = NULL;
    if (K2_Matrix_read(&A, argv[a], NULL) != GrB_SUCCESS) {
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
