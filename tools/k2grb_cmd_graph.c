// k2grb_cmd_graph.c: `k2grb convert` (any input to .k2, Matrix Market or an edge list) and
// `k2grb info` (shape and bytes of the tree against a CSR).
// SPDX-License-Identifier: Apache-2.0
#include <string.h>

#include "k2grb_cli.h"

#define K2_CLI_READ_OPTS \
  "--format --symmetrize --transpose --one-based --remap --threads --leaf-log --compress-leaves " \
  "--full-blocks --bottom-codes"
#define K2_CLI_READ_HELP                                                                  \
  "input options (every command):\n"                                                      \
  "  --format F     auto (default: from the name and first line), mtx, edges, metis,\n"  \
  "                 bvgraph (a basename), k2\n"                                            \
  "  --symmetrize   add (j,i) for every edge (i,j)\n"                                      \
  "  --transpose    swap rows and columns\n"                                               \
  "  --one-based    edge lists: ids start at 1 (results are written from 1 too)\n"          \
  "  --remap        renumber the ids that occur densely (results keep the file's ids)\n"    \
  "  --threads N    CPU threads (default OMP_NUM_THREADS, else every core)\n"              \
  "  --leaf-log N   build the tree with 2^N x 2^N leaves, N = 1 (default), 2, 3\n"           \
  "  --compress-leaves  store the leaves as codes of a vocabulary of their patterns\n"       \
  "                 (4x4 leaves unless --leaf-log says; .k2 format version 3)\n"            \
  "  --full-blocks  mark the nodes whose whole block is ones (cliques, dense blocks) as full\n" \
  "                 and store nothing below them (.k2 format version 4)\n"                 \
  "  --bottom-codes keep the Morton codes of the last internal level in memory (k2+B: 8 bytes\n" \
  "                 per node of that level; a .k2 file records the choice, the codes are\n"  \
  "                 made when it is read): full products skip the descent\n"             \
  "Options take their value as '--format mtx' or '--format=mtx'; '--' ends the options.\n"

int k2grb_convert(int argc, char **argv) {
  static const char usage[] =
      "usage: k2grb convert IN OUT [options]\n"
      "Reads IN (Matrix Market, edge list, METIS, BVGraph basename, .gz, .k2) and writes OUT:\n"
      "a .k2 tree, or Matrix Market (.mtx, .mtx.gz, .mm) or an edge list (any other name; .gz:\n"
      "compressed); suffixes in any case (.MTX is .mtx).\n" K2_CLI_READ_HELP
      "  --json         print the summary as JSON\n";
  k2_cli_opts o;
  int rc = k2_cli_parse(&o, "convert", K2_CLI_READ_OPTS " --json", 2, 2, usage, argc, argv);
  if (rc >= 0) return rc;
  GrB_Info info = K2_init();
  if (info != GrB_SUCCESS) return k2_cli_fail(&o, K2_CLI_FAIL, info, K2_error_string(), "cannot initialise");
  if ((rc = k2_cli_setup(&o)) != 0) {
    K2_finalize();
    return rc;
  }
  K2_Matrix A = NULL;
  double tload;
  if ((rc = k2_cli_load(&o, o.files[0], &A, &tload)) != 0) {
    K2_finalize();
    return rc;
  }
  const char *out = o.files[1];
  double t0 = k2_cli_now();
  const char *kind;
  if (k2_cli_ends_with(out, ".k2")) {
    info = K2_Matrix_save(A, out), kind = "k2";
  } else if (k2_cli_ends_with(out, ".mtx") || k2_cli_ends_with(out, ".mtx.gz") || k2_cli_ends_with(out, ".mm")) {
    info = K2_Matrix_writeMatrixMarket(A, out), kind = "matrix-market";
  } else {
    info = K2_Matrix_writeEdgeList(A, out), kind = "edge-list";
  }
  double twrite = k2_cli_now() - t0;
  if (info != GrB_SUCCESS) {
    rc = k2_cli_fail(&o, K2_CLI_FAIL, info, K2_error_string(), "cannot write %s", out);
  } else {
    GrB_Index n = 0, nv = 0;
    K2_Matrix_nrows(&n, A);
    K2_Matrix_nvals(&nv, A);
    k2_cli_report r = {0};
    k2_cli_rep_str(&r, "command", "convert");
    k2_cli_rep_str(&r, "file", "%s", o.files[0]);
    k2_cli_rep_num(&r, "nodes", "%llu", (unsigned long long)n);
    k2_cli_rep_num(&r, "edges", "%llu", (unsigned long long)nv);
    k2_cli_rep_str(&r, "output", "%s", out);
    k2_cli_rep_str(&r, "output_format", "%s", kind);
    k2_cli_rep_num(&r, "read_build_seconds", "%.3f", tload);
    k2_cli_rep_num(&r, "write_seconds", "%.3f", twrite);
    k2_cli_rep_num(&r, "seconds", "%.3f", tload + twrite);
    k2_cli_rep_raw(&r, "engine", "none (no products)", "null");
    k2_cli_rep_tail(&r);
    k2_cli_rep_print(&o, &r);
  }
  K2_Matrix_free(&A);
  K2_finalize();
  return rc;
}

int k2grb_info(int argc, char **argv) {
  static const char usage[] =
      "usage: k2grb info FILE [options]\n"
      "Nodes, edges, tree levels, bits per edge and bytes by part of the k2-tree of FILE (signatures,\n"
      "leaves (compressed: vocabulary and codes), level offsets, directory, top codes and their\n"
      "share of the signatures and leaves, cached bottom codes and other caches; with full blocks\n"
      "the full nodes and the bytes of signatures and leaves they save), against a CSR\n"
      "(64-bit row pointers, 32-bit columns) with FP32 values and a Boolean CSR.\n" K2_CLI_READ_HELP
      "  --json         print as JSON\n";
  k2_cli_opts o;
  int rc = k2_cli_parse(&o, "info", K2_CLI_READ_OPTS " --json", 1, 1, usage, argc, argv);
  if (rc >= 0) return rc;
  GrB_Info info = K2_init();
  if (info != GrB_SUCCESS) return k2_cli_fail(&o, K2_CLI_FAIL, info, K2_error_string(), "cannot initialise");
  if ((rc = k2_cli_setup(&o)) != 0) {
    K2_finalize();
    return rc;
  }
  K2_Matrix A = NULL;
  double tload;
  if ((rc = k2_cli_load(&o, o.files[0], &A, &tload)) != 0) {
    K2_finalize();
    return rc;
  }
  GrB_Index n = 0, nc = 0, nv = 0;
  K2_MemoryUsage u;
  K2_Matrix_nrows(&n, A);
  K2_Matrix_ncols(&nc, A);
  K2_Matrix_nvals(&nv, A);
  if ((info = K2_Matrix_memoryUsage(&u, A)) != GrB_SUCCESS) {
    rc = k2_cli_fail(&o, K2_CLI_FAIL, info, K2_error_string(), "cannot measure the tree");
  } else {
    uint64_t tree = u.tree + u.directory + u.top + u.bottom_codes;
    uint64_t csr = K2_csr_bytes(n, nv, true), bcsr = K2_csr_bytes(n, nv, false);
    double e = nv ? (double)nv : 1;
    // the tree's parts, as docs/k2-format.md sizes its sections
    const uint64_t sig = 8 * ((u.internal_nodes + 15) / 16);
    const uint64_t leaves = u.leaf_bytes;
    k2_cli_report r = {0};
    k2_cli_rep_str(&r, "command", "info");
    k2_cli_rep_str(&r, "file", "%s", o.files[0]);
    k2_cli_rep_num(&r, "nodes", "%llu", (unsigned long long)n);
    if (nc != n) k2_cli_rep_num(&r, "columns", "%llu", (unsigned long long)nc);
    k2_cli_rep_num(&r, "edges", "%llu", (unsigned long long)nv);
    k2_cli_rep_num(&r, "levels", "%u", u.levels);
    k2_cli_rep_num(&r, "leaf_log", "%u", u.leaf_log);
    k2_cli_rep_num(&r, "internal_nodes", "%llu", (unsigned long long)u.internal_nodes);
    k2_cli_rep_num(&r, "leaves", "%llu", (unsigned long long)u.leaves);
    k2_cli_rep_num(&r, "bits_per_edge", "%.3f", 8.0 * (double)tree / e);
    k2_cli_rep_num(&r, "bits_per_edge_tree", "%.3f", 8.0 * (double)u.tree / e);
    k2_cli_rep_num(&r, "bytes_signatures", "%llu", (unsigned long long)sig);
    k2_cli_rep_num(&r, "bytes_leaves", "%llu", (unsigned long long)leaves);
    if (u.leaf_patterns > 0) {  // compressed leaves: their two parts
      k2_cli_rep_num(&r, "leaf_patterns", "%llu", (unsigned long long)u.leaf_patterns);
      k2_cli_rep_num(&r, "bytes_leaf_vocabulary", "%llu", (unsigned long long)u.leaf_vocabulary);
      k2_cli_rep_num(&r, "bytes_leaf_codes", "%llu", (unsigned long long)(leaves - u.leaf_vocabulary));
    }
    if (u.full_nodes > 0) {  // full blocks: how many, and what the marks save
      k2_cli_rep_num(&r, "full_nodes", "%llu", (unsigned long long)u.full_nodes);
      k2_cli_rep_num(&r, "bytes_full_saved", "%llu", (unsigned long long)u.full_saved);
    }
    k2_cli_rep_num(&r, "bytes_level_offsets", "%llu", (unsigned long long)(u.tree - sig - leaves));
    k2_cli_rep_num(&r, "bytes_tree", "%llu", (unsigned long long)u.tree);
    k2_cli_rep_num(&r, "bytes_directory", "%llu", (unsigned long long)u.directory);
    k2_cli_rep_num(&r, "bytes_top", "%llu", (unsigned long long)u.top);
    k2_cli_rep_num(&r, "aux_percent", "%.2f",
                   100.0 * (double)(u.directory + u.top) / (double)(sig + leaves ? sig + leaves : 1));
    k2_cli_rep_num(&r, "bytes_bottom_codes", "%llu", (unsigned long long)u.bottom_codes);
    k2_cli_rep_num(&r, "bytes_cache", "%llu", (unsigned long long)u.cache);
    k2_cli_rep_num(&r, "bytes_k2", "%llu", (unsigned long long)tree);
    k2_cli_rep_num(&r, "bytes_total", "%llu", (unsigned long long)u.total);
    k2_cli_rep_num(&r, "bytes_csr_fp32", "%llu", (unsigned long long)csr);
    k2_cli_rep_num(&r, "bytes_csr_bool", "%llu", (unsigned long long)bcsr);
    k2_cli_rep_num(&r, "csr_over_k2", "%.2f", (double)csr / (double)(tree ? tree : 1));
    k2_cli_rep_num(&r, "bool_csr_over_k2", "%.2f", (double)bcsr / (double)(tree ? tree : 1));
    k2_cli_rep_num(&r, "read_build_seconds", "%.3f", tload);
    k2_cli_rep_num(&r, "seconds", "%.3f", tload);
    k2_cli_rep_raw(&r, "engine", "none (no products)", "null");
    k2_cli_rep_tail(&r);
    k2_cli_rep_print(&o, &r);
  }
  K2_Matrix_free(&A);
  K2_finalize();
  return rc;
}
