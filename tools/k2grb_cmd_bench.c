// k2grb_cmd_bench.c: `k2grb bench FILE...`: product timings on the tree against
// SuiteSparse:GraphBLAS on a CSR of the same graph (plus-times FP32 and Boolean, right and left).
// SPDX-License-Identifier: Apache-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "k2grb_cli.h"

// Best of `repeat` runs of one product, in seconds; on an error *info is the failed call's code.
typedef enum { BENCH_K2_RIGHT, BENCH_K2_LEFT, BENCH_GRB_RIGHT, BENCH_GRB_LEFT } bench_kind;

static double bench_one(bench_kind kind, bool boolean, K2_Matrix A, GrB_Matrix G, const void *x, void *y,
                        GrB_Vector xv, GrB_Vector w, int repeat, GrB_Info *status) {
  double best = INFINITY;
  *status = GrB_SUCCESS;
  for (int r = 0; r < repeat; r++) {
    double t0 = k2_cli_now();
    GrB_Info info;
    K2_DenseSemiring s = boolean ? K2_LOR_LAND : K2_PLUS_TIMES;
    GrB_Type t = boolean ? GrB_BOOL : GrB_FP32;
    switch (kind) {
      case BENCH_K2_RIGHT: info = K2_dense_mxv(y, A, x, s, t); break;
      case BENCH_K2_LEFT: info = K2_dense_vxm(y, x, A, s, t); break;
      case BENCH_GRB_RIGHT:
        info = GrB_mxv(w, NULL, NULL, boolean ? GrB_LOR_LAND_SEMIRING_BOOL : GxB_PLUS_SECOND_FP32, G, xv, NULL);
        if (info == GrB_SUCCESS) info = GrB_wait(w, GrB_MATERIALIZE);
        break;
      default:
        info = GrB_vxm(w, NULL, NULL, boolean ? GrB_LOR_LAND_SEMIRING_BOOL : GxB_PLUS_FIRST_FP32, xv, G, NULL);
        if (info == GrB_SUCCESS) info = GrB_wait(w, GrB_MATERIALIZE);
        break;
    }
    if (info != GrB_SUCCESS) {
      *status = info;
      return INFINITY;
    }
    best = fmin(best, k2_cli_now() - t0);
  }
  return best;
}

static int bench_file(const k2_cli_opts *o, const char *path, bool first) {
  K2_Matrix A = NULL;
  double tload;
  int rc = k2_cli_load(o, path, &A, &tload);
  if (rc != 0) return rc;
  GrB_Index n = 0, nv = 0;
  K2_Matrix_nrows(&n, A);
  K2_Matrix_nvals(&nv, A);
  K2_MemoryUsage u;
  K2_Matrix_memoryUsage(&u, A);
  uint64_t tree = u.tree + u.directory + u.top + u.bottom_codes;
  GrB_Matrix G = NULL;
  GrB_Vector xf = NULL, xb = NULL, wf = NULL, wb = NULL;
  float *x = malloc((n + 1) * sizeof(float)), *y = malloc((n + 1) * sizeof(float));
  bool *bx = malloc(n + 1), *by = malloc(n + 1);
  // the library's message, if any, is this failure's: GraphBLAS calls leave it alone
  K2_error_clear();
  GrB_Info info = GrB_OUT_OF_MEMORY;
  if (!x || !y || !bx || !by || (info = K2_Matrix_toGrB(&G, A, NULL)) != GrB_SUCCESS ||
      (info = GrB_Vector_new(&xf, GrB_FP32, n)) != GrB_SUCCESS ||
      (info = GrB_Vector_new(&xb, GrB_BOOL, n)) != GrB_SUCCESS ||
      (info = GrB_Vector_new(&wf, GrB_FP32, n)) != GrB_SUCCESS ||
      (info = GrB_Vector_new(&wb, GrB_BOOL, n)) != GrB_SUCCESS) {
    rc = k2_cli_fail(o, K2_CLI_FAIL, info, K2_error_string(), "%s: cannot set up the products", path);
  }
  for (GrB_Index i = 0; rc == 0 && i < n; i++) {
    x[i] = (float)((i * 2654435761u) % 1024) / 1024.0f;
    bx[i] = (i % 3) == 0;
  }
  if (rc == 0) {
    GrB_Index *I = malloc((n + 1) * sizeof(GrB_Index));
    for (GrB_Index i = 0; I && i < n; i++) I[i] = i;
    info = GrB_OUT_OF_MEMORY;
    if (I == NULL || (info = GrB_Vector_build_FP32(xf, I, x, n, GrB_PLUS_FP32)) != GrB_SUCCESS ||
        (info = GrB_Vector_build_BOOL(xb, I, bx, n, GrB_LOR)) != GrB_SUCCESS) {
      rc = k2_cli_fail(o, K2_CLI_FAIL, info, NULL, "%s: cannot build the vectors", path);
    }
    free(I);
  }
  if (rc == 0) {
    double t[2][4];
    const char *engine = "";
    static const char *const product_words[4] = {"right product on the tree", "left product on the tree",
                                                  "right product in SuiteSparse:GraphBLAS",
                                                  "left product in SuiteSparse:GraphBLAS"};
    for (int b = 0; b < 2 && rc == 0; b++) {
      for (int k = 0; k < 4 && rc == 0; k++) {
        K2_error_clear();
        t[b][k] = bench_one((bench_kind)k, b == 1, A, G, b ? (void *)bx : (void *)x, b ? (void *)by : (void *)y,
                            b ? xb : xf, b ? wb : wf, o->repeat, &info);
        if (info != GrB_SUCCESS) {
          // a failed product is an error (strict mode, out of memory), not a time
          rc = k2_cli_fail(o, K2_CLI_FAIL, info, k < 2 ? K2_error_string() : NULL, "%s: the %s (%s) failed", path,
                           product_words[k], b ? "Boolean" : "plus-times FP32");
        }
        if (k == BENCH_K2_LEFT) engine = K2_engine_name(K2_last_engine());
      }
    }
    if (rc != 0) {
      // reported above
    } else if (o->json) {
      printf("%s{\"file\": ", first ? "" : ",\n  ");
      k2_cli_json_string(stdout, path);
      printf(", \"nodes\": %llu, \"edges\": %llu, \"bits_per_edge\": %.3f, \"bytes_k2\": %llu, "
             "\"bytes_csr_fp32\": %llu, \"read_build_seconds\": %.3f, \"engine\": \"%s\", \"repeat\": %d, "
             "\"ms\": {\"fp32_right_k2\": %.4f, \"fp32_left_k2\": %.4f, \"fp32_right_suitesparse\": %.4f, "
             "\"fp32_left_suitesparse\": %.4f, \"bool_right_k2\": %.4f, \"bool_left_k2\": %.4f, "
             "\"bool_right_suitesparse\": %.4f, \"bool_left_suitesparse\": %.4f}}",
             (unsigned long long)n, (unsigned long long)nv, 8.0 * (double)tree / (double)(nv ? nv : 1),
             (unsigned long long)tree, (unsigned long long)K2_csr_bytes(n, nv, true), tload, engine, o->repeat,
             1e3 * t[0][0], 1e3 * t[0][1], 1e3 * t[0][2], 1e3 * t[0][3], 1e3 * t[1][0], 1e3 * t[1][1],
             1e3 * t[1][2], 1e3 * t[1][3]);
    } else {
      const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
      printf("%-24.24s %10llu %11llu %6.2f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f  %s\n", name,
             (unsigned long long)n, (unsigned long long)nv, 8.0 * (double)tree / (double)(nv ? nv : 1),
             1e3 * t[0][0], 1e3 * t[0][2], 1e3 * t[0][1], 1e3 * t[0][3], 1e3 * t[1][0], 1e3 * t[1][2],
             1e3 * t[1][1], 1e3 * t[1][3], engine);
    }
  }
  free(x), free(y), free(bx), free(by);
  GrB_free(&xf), GrB_free(&xb), GrB_free(&wf), GrB_free(&wb), GrB_free(&G);
  K2_Matrix_free(&A);
  return rc;
}

int k2grb_bench(int argc, char **argv) {
  static const char usage[] =
      "usage: k2grb bench FILE... [--repeat R] [--json] [read options]\n"
      "Best-of-R times (ms) of y = A x and y' = x' A on the tree (the engine K2GRB_ENGINE picks,\n"
      "default the best present) and in SuiteSparse:GraphBLAS on a CSR of the same graph, for\n"
      "plus-times FP32 and Boolean (lor-land). Columns: k2 right, SuiteSparse right, k2 left,\n"
      "SuiteSparse left, first FP32 then Boolean.\n"
      "  --repeat R     runs per product (5)\n"
      "  --json         one JSON object: the keys of every command, and `files`, one object per\n"
      "                 FILE (file, nodes, edges, engine, ms: the times)\n"
      "  --engine E     auto (default), cpu, cuda or reference; default K2GRB_ENGINE\n"
      "  --threads N    CPU threads (default OMP_NUM_THREADS, else every core)\n"
      "Options take their value as '--repeat 3' or '--repeat=3'; '--' ends the options.\n";
  k2_cli_opts o;
  int rc = k2_cli_parse(&o, "bench", "--format --symmetrize --transpose --one-based --remap --repeat --json --engine --threads", 1,
                        K2_CLI_MAX_FILES, usage, argc, argv);
  if (rc >= 0) return rc;
  GrB_Info info = K2_init();
  if (info != GrB_SUCCESS) return k2_cli_fail(&o, K2_CLI_FAIL, info, K2_error_string(), "cannot initialise");
  if ((rc = k2_cli_setup(&o)) != 0) {
    K2_finalize();
    return rc;
  }
  double t0 = k2_cli_now();
  if (o.json) {
    printf("{\"command\": \"bench\", \"repeat\": %d, \"files\": [\n  ", o.repeat);
  } else {
    printf("%-24s %10s %11s %6s %9s %9s %9s %9s %9s %9s %9s %9s\n", "graph", "nodes", "edges", "b/edge",
           "fp32 k2 R", "SS R", "k2 L", "SS L", "bool k2 R", "SS R", "k2 L", "SS L");
  }
  for (int f = 0; f < o.nfiles && rc <= 0; f++) rc = bench_file(&o, o.files[f], f == 0);
  // the keys every command ends with; a failed run in text ends with its error line, as the
  // other commands (in JSON the object stays valid, the error on stderr)
  if (o.json || rc <= 0) {
    k2_cli_report r = {0};
    k2_cli_rep_num(&r, "seconds", "%.3f", k2_cli_now() - t0);
    k2_cli_rep_str(&r, "engine_requested", "%s", o.engine_word);
    k2_cli_rep_tail(&r);
    if (o.json) {
      printf("]");
      k2_cli_rep_print_items(&r);
      printf("}\n");
    } else {
      k2_cli_rep_print(&o, &r);
    }
  }
  K2_finalize();
  return rc < 0 ? 0 : rc;
}
