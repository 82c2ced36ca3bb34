// bench_sizes.c: nodes, edges, the k²-tree's bytes by part and bits per edge of graph files,
// against a CSR and BVGraph, as a Markdown table (docs/graphs.md).
// SPDX-License-Identifier: Apache-2.0
//
// usage: bench_sizes FILE|web:N...   (any format K2_Edges_read takes; unreadable files are
// listed with the reader's message; web:N generates the web-like graph of N pages, seed 1,
// K2_Gen_web's defaults)
// Columns: signatures and leaves (docs/k2-format.md sizes them from the node counts), the tree
// (those plus the level offsets), the directory and the top codes and their share of the
// signatures and leaves, the whole k²-tree (tree + directory + top codes) and its bits per edge,
// a CSR with FP32 values and a Boolean CSR (K2_csr_bytes), and the Boolean CSR over the
// k²-tree; then the whole k²-tree with compressed 4x4 leaves (K2_Format.compress_leaves) and its
// bits per edge, and the BVGraph file FILE.graph's bytes and bits per edge where there is one;
// then the whole k²-tree with full blocks (K2_Format.full_blocks), its bits per edge and its full
// nodes, and with full blocks and compressed 4x4 leaves together and its bits per edge.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <k2grb.h>

// The edges of a file, or generated for "web:N".
static GrB_Info sizes_edges(K2_Edges *E, const char *what) {
  if (strncmp(what, "web:", 4) != 0) {
    K2_ReadOptions ro;
    K2_ReadOptions_default(&ro);
    return K2_Edges_read(E, what, &ro);
  }
  K2_WebParams p;
  K2_WebParams_default(&p);
  return K2_Gen_web(E, strtoull(what + 4, NULL, 10), &p);
}

// The tree of E in the default format, or with compressed 4x4 leaves, or full blocks.
static GrB_Info sizes_build(K2_Matrix *A, const K2_Edges *E, bool compressed, bool full) {
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.full_blocks = full;
  if (compressed) {
    fmt.leaf_log = 2;
    fmt.compress_leaves = true;
  }
  GrB_Info info = K2_Matrix_new_format(A, E->nrows, E->ncols, &fmt);
  if (info == GrB_SUCCESS) info = K2_Matrix_build_32(*A, E->I, E->J, E->nvals);
  return info;
}

// The whole k²-tree: the tree, the directory and the top codes.
static uint64_t sizes_k2_bytes(K2_Matrix A) {
  K2_MemoryUsage u;
  K2_Matrix_memoryUsage(&u, A);
  return u.tree + u.directory + u.top;
}

int main(int argc, char **argv) {
  if (K2_init() != GrB_SUCCESS) return 1;
  printf("| graph | nodes | edges | signatures B | leaves B | tree B | directory B | top B | aux %% "
         "| k² B | bits/edge | CSR FP32 B | bCSR B | bCSR / k² | k² B, compressed 4×4 leaves | bits/edge "
         "| BVGraph .graph B | bits/edge | k² B, full blocks | bits/edge | full nodes "
         "| k² B, full blocks + compressed 4×4 | bits/edge |\n");
  printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:"
         "|---:|---:|---:|---:|---:|\n");
  int bad = 0;
  for (int a = 1; a < argc; a++) {
    K2_Matrix A = NULL, C = NULL, F = NULL, FC = NULL;
    K2_Edges E = {0};
    GrB_Info info = sizes_edges(&E, argv[a]);
    if (info == GrB_SUCCESS) info = sizes_build(&A, &E, false, false);
    if (info == GrB_SUCCESS) info = sizes_build(&C, &E, true, false);
    if (info == GrB_SUCCESS) info = sizes_build(&F, &E, false, true);
    if (info == GrB_SUCCESS) info = sizes_build(&FC, &E, true, true);
    K2_Edges_free(&E);
    if (info != GrB_SUCCESS) {
      K2_Matrix_free(&A);
      K2_Matrix_free(&C);
      K2_Matrix_free(&F);
      K2_Matrix_free(&FC);
      printf("| %s | not read: %s ||||||||||||||||||||||\n", argv[a], K2_error_string());
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
    const uint64_t kc = sizes_k2_bytes(C), kf = sizes_k2_bytes(F), kfc = sizes_k2_bytes(FC);
    K2_MemoryUsage uf;
    K2_Matrix_memoryUsage(&uf, F);
    char graph_file[4096], bv[64] = "–", bvb[32] = "–";
    struct stat st;
    snprintf(graph_file, sizeof graph_file, "%s.graph", argv[a]);
    if (stat(graph_file, &st) == 0 && nv > 0) {
      snprintf(bv, sizeof bv, "%llu", (unsigned long long)st.st_size);
      snprintf(bvb, sizeof bvb, "%.2f", 8.0 * (double)st.st_size / (double)nv);
    }
    printf("| %s | %llu | %llu | %llu | %llu | %llu | %llu | %llu | %.2f | %llu | %.2f | %llu | %llu | "
           "%.2f | %llu | %.2f | %s | %s | %llu | %.2f | %llu | %llu | %.2f |\n",
           argv[a], (unsigned long long)(nr > nc ? nr : nc), (unsigned long long)nv,
           (unsigned long long)sig, (unsigned long long)leaves, (unsigned long long)u.tree,
           (unsigned long long)u.directory, (unsigned long long)u.top,
           sig + leaves ? 100.0 * (double)(u.directory + u.top) / (double)(sig + leaves) : 0.0,
           (unsigned long long)k2, nv ? 8.0 * (double)k2 / (double)nv : 0.0,
           (unsigned long long)K2_csr_bytes(nr, nv, true), (unsigned long long)bcsr,
           (double)bcsr / (double)k2, (unsigned long long)kc, nv ? 8.0 * (double)kc / (double)nv : 0.0, bv, bvb,
           (unsigned long long)kf, nv ? 8.0 * (double)kf / (double)nv : 0.0, (unsigned long long)uf.full_nodes,
           (unsigned long long)kfc, nv ? 8.0 * (double)kfc / (double)nv : 0.0);
    K2_Matrix_free(&A);
    K2_Matrix_free(&C);
    K2_Matrix_free(&F);
    K2_Matrix_free(&FC);
  }
  K2_finalize();
  return bad ? 1 : 0;
}
