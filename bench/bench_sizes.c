// bench_sizes.c: nodes, edges, tree bytes and bits per edge of graph files, as a Markdown table.
// SPDX-License-Identifier: Apache-2.0
//
// usage: bench_sizes FILE...   (any format K2_Matrix_read takes; unreadable files are listed
// with the reader's message)
#include <stdio.h>

#include <k2grb.h>

int main(int argc, char **argv) {
  if (K2_init() != GrB_SUCCESS) return 1;
  printf("| graph | nodes | edges | tree bytes | +directory+top | bits/edge | CSR FP32 bytes | bCSR bytes |\n");
  printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
  int bad = 0;
  for (int a = 1; a < argc; a++) {
    K2_Matrix A = NULL;
    if (K2_Matrix_read(&A, argv[a], NULL) != GrB_SUCCESS) {
      printf("| %s | not read: %s |||||||\n", argv[a], K2_error_string());
      bad++;
      continue;
    }
    GrB_Index nr, nc, nv;
    K2_MemoryUsage u;
    K2_Matrix_nrows(&nr, A);
    K2_Matrix_ncols(&nc, A);
    K2_Matrix_nvals(&nv, A);
    K2_Matrix_memoryUsage(&u, A);
    uint64_t all = u.tree + u.directory + u.top;
    printf("| %s | %llu | %llu | %llu | %llu | %.2f | %llu | %llu |\n", argv[a],
           (unsigned long long)(nr > nc ? nr : nc), (unsigned long long)nv, (unsigned long long)u.tree,
           (unsigned long long)all, nv ? 8.0 * (double)all / (double)nv : 0.0,
           (unsigned long long)K2_csr_bytes(nr, nv, true), (unsigned long long)K2_csr_bytes(nr, nv, false));
    K2_Matrix_free(&A);
  }
  K2_finalize();
  return bad ? 1 : 0;
}
