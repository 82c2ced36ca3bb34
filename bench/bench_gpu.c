// bench_gpu.c: k²-tree products on the GPU against cuSPARSE and a Boolean CSR (bCSR).
// SPDX-License-Identifier: Apache-2.0
//
// Per graph: sizes (tree, k², k²+B, bCSR, cuSPARSE CSR FP32), the device working set of one
// product, and the time per product (median of 10 runs of 50 products, CUDA events; fewer
// products per run when one takes over 0.5 ms) of right, left and batched (B = 128, time per
// vector) products: k² (tree only), k²+B (cached bottom codes), k²+R (the row-ordered blocks of the
// last internal level alone), cuSPARSE (SpMV, transposed SpMV, fastest SpMM) and bCSR (thread or warp per row, atomics for left). Also, for right products:
// k² with a tile of 2^17 children (its working set and time: the scratch / launches trade-off)
// and k²+B with the generic leaf kernel instead of the specialised plus kernel. FP32 vectors
// with dyadic values, so every engine's sums are exact and the engines must agree bit for bit;
// the run fails otherwise. Graphs with more than --batch-max-n rows (default 2^25) skip the
// batches: 128 vectors of that length would not fit beside the matrices.
//   bench_gpu [--csv FILE] [--rmat 20,22,26u] [--grid SIDE] [--web N,N] [--graphs a,b] [--no-real]
//             [--batch-max-n N] [--lean] [--full-blocks] [--leaves 2|4|8|4c|8c] [--fuse on|off]
//             [--configs k2,k2B,k2R]
// --full-blocks: every tree built with full blocks (K2_Format.full_blocks), for a comparison
// with a run without. --leaves: the leaf side (default 2), `c` for compressed leaves
// (K2_Format.leaf_log and compress_leaves; the device holds compressed leaves decoded).
// --configs: the device configurations to time (default all three; the others print nan).
// --fuse on|off: tree-only products expand two levels per launch or one (K2_Device_setFusion;
// the library's default is on).
// Graphs: every real graph of the data folder (K2GRB_DATA_DIR; the list is
// tests/support/k2_real_graphs.c, --graphs picks some by name),
// the library's web-like generator (--web pages), R-MAT (a,b,c = .57,.19,.19,
// edge factor 16) with and without a random vertex permutation, a 2-D grid (4 neighbours).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <k2grb.h>

#include "bench_gpu.h"
#include "k2_real_graphs.h"
#include "cuda/k2_cuda_testing.h"
#include "matrix/k2_matrix.h"

#define BATCH 128

typedef struct {
  char name[64];
  uint64_t n, m;
  uint32_t *I, *J;
} graph;

static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static void gen_rmat(graph *g, int scale, bool permute) {
  g->n = UINT64_C(1) << scale;
  g->m = g->n * 16;
  snprintf(g->name, sizeof g->name, "rmat%d%s", scale, permute ? "p" : "");
  g->I = malloc(g->m * 4);
  g->J = malloc(g->m * 4);
  uint32_t *perm = NULL;
  if (permute) {
    perm = malloc(g->n * 4);
    for (uint64_t i = 0; i < g->n; i++) perm[i] = (uint32_t)i;
    uint64_t s = 42;
    for (uint64_t i = g->n - 1; i > 0; i--) {
      uint64_t j = mix(s += UINT64_C(0x9E3779B97F4A7C15)) % (i + 1);
      uint32_t t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
  }
#pragma omp parallel for schedule(static)
  for (uint64_t e = 0; e < g->m; e++) {
    uint64_t s = mix(e * UINT64_C(0x9E3779B97F4A7C15) + 7), r = 0, c = 0;
    for (int l = 0; l < scale; l++) {
      if ((l & 1) == 0) s = mix(s + UINT64_C(0x9E3779B97F4A7C15));
      uint32_t u = (uint32_t)(s >> ((l & 1) * 32)) % 100;
      r <<= 1;
      c <<= 1;
      if (u < 57) {
      } else if (u < 76) {
        c |= 1;
      } else if (u < 95) {
        r |= 1;
      } else {
        r |= 1;
        c |= 1;
      }
    }
    g->I[e] = perm ? perm[r] : (uint32_t)r;
    g->J[e] = perm ? perm[c] : (uint32_t)c;
  }
  free(perm);
}

static void gen_grid(graph *g, uint64_t side) {
  g->n = side * side;
  snprintf(g->name, sizeof g->name, "grid%llu", (unsigned long long)side);
  g->I = malloc(g->n * 4 * 4);
  g->J = malloc(g->n * 4 * 4);
  uint64_t m = 0;
  for (uint64_t r = 0; r < side; r++)
    for (uint64_t c = 0; c < side; c++) {
      uint64_t v = r * side + c;
      if (c + 1 < side) g->I[m] = (uint32_t)v, g->J[m++] = (uint32_t)(v + 1);
      if (c > 0) g->I[m] = (uint32_t)v, g->J[m++] = (uint32_t)(v - 1);
      if (r + 1 < side) g->I[m] = (uint32_t)v, g->J[m++] = (uint32_t)(v + side);
      if (r > 0) g->I[m] = (uint32_t)v, g->J[m++] = (uint32_t)(v - side);
    }
  g->m = m;
}

// Take the edges of a K2_Edges (the library's readers and generators).
static bool from_edges(graph *g, K2_Edges *E, GrB_Info info, const char *name) {
  if (info != GrB_SUCCESS) {
    fprintf(stderr, "%s: %s\n", name, K2_error_string());
    return false;
  }
  g->n = E->nrows > E->ncols ? E->nrows : E->ncols;
  g->m = E->nvals;
  g->I = E->I;
  g->J = E->J;
  E->I = E->J = NULL;
  K2_Edges_free(E);
  snprintf(g->name, sizeof g->name, "%s", name);
  return true;
}

// --graphs a,b: is name one of the listed names (exact match; NULL list: every graph)?
static bool listed(const char *list, const char *name) {
  if (list == NULL) return true;
  const size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const size_t len = strcspn(p, ",");
    if (len == n && strncmp(p, name, n) == 0) return true;
    p += len + (p[len] == ',');
  }
  return false;
}

// ---- timing contexts ---------------------------------------------------------------------------

typedef struct {
  k2_view *v;
  void *device;  // the matrix's resident copy
  k2_product P;
  bg_csr *c;
  bg_op op;
  int variant;
} ctx;

static void run_k2(void *p) {
  ctx *c = p;
  int rc = k2_cuda_product_device(c->v, c->device, &c->P);
  if (rc != 0) {
    fprintf(stderr, "k2_cuda_product_device: %d: %s\n", rc, K2_error_string());
    exit(1);
  }
}
static void run_cusparse(void *p) {
  ctx *c = p;
  bg_cusparse(c->c, c->op);
}
static void run_bcsr(void *p) {
  ctx *c = p;
  bg_bcsr(c->c, c->op, c->variant);
}

static void set_offsets(int off) {
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  s.offsets = off;
  k2_cuda_settings_set(&s);
}

static uint64_t g_bad = 0;

// Compare an engine's y with cuSPARSE's (exact: dyadic values), a piece at a time: a batch of
// 10^8 rows is 51 GB, beside cuSPARSE's copy on the host.
static void check(const char *graph_name, const char *what, const float *ref, float *dev, uint64_t n) {
  const uint64_t piece = UINT64_C(1) << 26;
  float *h = malloc((n < piece ? n : piece) * 4);
  uint64_t bad = 0;
  for (uint64_t i0 = 0; i0 < n; i0 += piece) {
    const uint64_t len = n - i0 < piece ? n - i0 : piece;
    bg_download(h, dev + i0, len);
    for (uint64_t k = 0; k < len; k++)
      if (h[k] != ref[i0 + k] && bad++ < 3)
        fprintf(stderr, "%s %s: y[%llu] = %g, cuSPARSE %g\n", graph_name, what,
                (unsigned long long)(i0 + k), h[k], ref[i0 + k]);
  }
  if (bad) fprintf(stderr, "%s %s: %llu entries differ from cuSPARSE\n", graph_name, what,
                   (unsigned long long)bad);
  g_bad += bad;
  free(h);
}

static FILE *g_csv;
static uint64_t g_batch_max_n = UINT64_C(1) << 25;  // --batch-max-n: larger graphs skip batches
static bool g_config_on[3] = {true, true, true};  // --configs: k2, k2B, k2R
static bool g_full_blocks;  // --full-blocks: the trees built with full blocks (K2_Format.full_blocks)
static uint32_t g_leaf_log = 1;   // --leaves: 2x2, 4x4 or 8x8 leaves
static bool g_compress_leaves;    // --leaves 4c / 8c
static bool g_lean;  // --lean: only the columns the targets need (no other offsets, small tile,
                     // generic kernel): each recorded CUDA graph of 10^5 tiles costs minutes
#define SMALL_TILE (UINT64_C(1) << 17)              // the working-set / time trade-off column

static void set_tile(uint64_t M) {
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  s.tile = M;
  k2_cuda_settings_set(&s);
}
static void set_fast_leaf(bool on) {
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  s.fast_leaf = on;
  k2_cuda_settings_set(&s);
}

// Where a graph's wall time goes (stderr): the host work of a 10^9-edge graph is minutes.
static double g_phase_t0;
static void phase(const graph *g, const char *what) {
  fprintf(stderr, "[%s] %7.1f s  %s\n", g->name, omp_get_wtime() - g_phase_t0, what);
}

static void bench_graph(graph *g) {
  double t0 = omp_get_wtime();
  g_phase_t0 = t0;
  K2_Matrix A = NULL;
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.full_blocks = g_full_blocks;
  fmt.leaf_log = g_leaf_log;
  fmt.compress_leaves = g_compress_leaves;
  if (K2_Matrix_new_format(&A, g->n, g->n, &fmt) != GrB_SUCCESS ||
      K2_Matrix_build_32(A, g->I, g->J, g->m) != GrB_SUCCESS) {
    fprintf(stderr, "%s: build failed: %s\n", g->name, K2_error_string());
    exit(1);
  }
  double t_build = omp_get_wtime() - t0;
  free(g->I);
  free(g->J);
  g->I = g->J = NULL;
  GrB_Index nnz = 0;
  K2_Matrix_nvals(&nnz, A);
  // CSR from the tree's row-major tuples
  uint32_t *I = malloc((nnz + 1) * 4), *J = malloc((nnz + 1) * 4);
  GrB_Index cnt = nnz;
  K2_Matrix_extractTuples_32(I, J, &cnt, A);
  uint32_t *rp = calloc(g->n + 1, 4);
  for (uint64_t k = 0; k < nnz; k++) rp[I[k] + 1]++;
  for (uint64_t r = 0; r < g->n; r++) rp[r + 1] += rp[r];
  free(I);
  phase(g, "built, row-major tuples, CSR row pointers");
  void *stream = k2_cuda_stream();
  // B = 128 vectors of n entries, twice (X and Y) per engine: past --batch-max-n rows the
  // batches would not fit beside the matrices, so they are skipped (reported as nan)
  const bool batch = g->n <= g_batch_max_n;
  const int nops = batch ? 3 : 2;
  bg_csr *c = bg_csr_new(g->n, g->n, rp, J, nnz, batch ? BATCH : 1, stream);
  free(rp);
  free(J);

  K2_MemoryUsage mu;
  K2_Matrix_memoryUsage(&mu, A);
  const uint64_t tree = mu.tree + mu.directory + mu.top;
  K2_DeviceBytes wk, wf, wkb, wfb, wks, wr, wrb;
  memset(&wks, 0, sizeof wks);
  if (!g_lean) {
    set_tile(SMALL_TILE);
    K2_Matrix_deviceBytes(&wks, A, K2_DEVICE_TREE_ONLY, GrB_FP32, 1, false, 0);
    set_tile(UINT64_C(1) << 20);
  }
  K2_Matrix_deviceBytes(&wk, A, K2_DEVICE_TREE_ONLY, GrB_FP32, 1, false, 0);
  K2_Matrix_deviceBytes(&wf, A, K2_DEVICE_BOTTOM, GrB_FP32, 1, false, 0);
  K2_Matrix_deviceBytes(&wkb, A, K2_DEVICE_TREE_ONLY, GrB_FP32, BATCH, false, 0);
  K2_Matrix_deviceBytes(&wfb, A, K2_DEVICE_BOTTOM, GrB_FP32, BATCH, false, 0);
  K2_Matrix_deviceBytes(&wr, A, K2_DEVICE_ROWS, GrB_FP32, 1, false, 0);
  K2_Matrix_deviceBytes(&wrb, A, K2_DEVICE_ROWS, GrB_FP32, BATCH, false, 0);
  const uint64_t vec = (g->n * 2) * 4;
  if (!batch) wkb.total = wfb.total = wrb.total = 0;
  const uint64_t ws_cus = bg_csr_bytes(c, true) + vec + bg_cusparse_buffer(c, BG_RIGHT);
  const uint64_t ws_bcsr = bg_csr_bytes(c, false) + vec;

  phase(g, "CSR on the device, device bytes");
  // reference results: cuSPARSE
  float *ref[3];
  const uint64_t out[3] = {g->n, g->n, g->n * BATCH};
  ctx x = {0};
  x.c = c;
  for (int op = 0; op < nops; op++) {
    x.op = (bg_op)op;
    run_cusparse(&x);
    ref[op] = malloc(out[op] * 4);
    bg_download(ref[op], bg_y(c, (bg_op)op), out[op]);
  }
  // op x {k2, k2F, cusparse, bcsr, k2 scan(right) / k2 dir(batch), bcsr warp,
  //       right only: k2 with the small tile, k2F with the generic leaf kernel; k2R}
  double t[3][9];
  for (int op = 0; op < 3; op++)
    for (int j = 0; j < 9; j++)
      t[op][j] = op < nops && !(g_lean && j >= 4 && j != 5 && j != 8) ? 0 : 0.0 / 0.0;
  for (int op = 0; op < nops; op++) {
    x.op = (bg_op)op;
    t[op][2] = bg_time(run_cusparse, &x, stream);
    x.variant = 0;
    t[op][3] = bg_time(run_bcsr, &x, stream);
    check(g->name, op == 0 ? "bcsr right thread" : op == 1 ? "bcsr left" : "bcsr batch", ref[op], bg_y(c, (bg_op)op), out[op]);
    if (op == 0) {
      x.variant = 1;
      t[op][5] = bg_time(run_bcsr, &x, stream);
      check(g->name, "bcsr right warp", ref[op], bg_y(c, (bg_op)op), out[op]);
      if (t[op][5] < t[op][3]) t[op][3] = t[op][5];
    }
  }
  phase(g, "cuSPARSE and bCSR timed");
  static const char *config_name[3] = {"k2", "k2+B", "k2+R"};
  for (int config = 0; config < 3; config++) {
    const int col = config == 2 ? 8 : config;  // this configuration's column of t
    if (!g_config_on[config]) {
      for (int op = 0; op < nops; op++) {
        t[op][col] = 0.0 / 0.0;
        if (config == 0) t[op][4] = t[op][6] = 0.0 / 0.0;  // its other offsets, small tile
        if (config == 1) t[op][7] = 0.0 / 0.0;             // its generic leaf kernel
      }
      continue;
    }
    const K2_DeviceConfig dc = config == 2 ? K2_DEVICE_ROWS : config ? K2_DEVICE_BOTTOM : K2_DEVICE_TREE_ONLY;
    if (K2_Matrix_upload(A, dc) != GrB_SUCCESS) {
      fprintf(stderr, "%s: upload: %s\n", g->name, K2_error_string());
      exit(1);
    }
    // the view the device holds: with full blocks, the tree expanded (what the upload sent)
    k2_view v;
    if (k2_matrix_plain_view(A, &v) != GrB_SUCCESS) {
      fprintf(stderr, "%s: the expanded tree: %s\n", g->name, K2_error_string());
      exit(1);
    }
    x.v = &v;
    x.device = k2_slot_get(A, K2_SLOT_CUDA);
    // a batch whose scratch does not fit beside the vectors and matrices (tree-only on the
    // largest graphs) is skipped: nan, and a line on stderr
    const K2_DeviceBytes *wb = config == 2 ? &wrb : config ? &wfb : &wkb;
    const uint64_t headroom = UINT64_C(1) << 28;  // CUB's temporaries, the recorded graphs
    for (int op = 0; op < nops; op++) {
      if (op == BG_BATCH && wb->scratch + headroom > bg_device_free()) {
        fprintf(stderr, "[%s] %s batch: %llu MB of scratch do not fit beside the vectors: skipped\n",
                g->name, config_name[config], (unsigned long long)(wb->scratch >> 20));
        t[op][col] = 0.0 / 0.0;
        if (config == 0) t[op][4] = 0.0 / 0.0;  // its other offsets source
        continue;
      }
      memset(&x.P, 0, sizeof x.P);
      x.P.type = K2_T_FP32;
      x.P.monoid = K2_MON_PLUS;
      x.P.mult = K2_MUL_X;
      x.P.w = 1;
      x.P.left = op == BG_LEFT;
      x.P.batch = op == BG_BATCH ? BATCH : 1;
      x.P.x = bg_x(c, (bg_op)op);
      x.P.y = bg_y(c, (bg_op)op);
      set_offsets(K2_CUDA_OFFSETS_AUTO);
      char what[64];
      snprintf(what, sizeof what, "%s: uploaded / next product", config_name[config]);
      phase(g, what);
      t[op][col] = bg_time(run_k2, &x, stream);
      snprintf(what, sizeof what, "%s %s", config_name[config], op == 0 ? "right" : op == 1 ? "left" : "batch");
      check(g->name, what, ref[op], bg_y(c, (bg_op)op), out[op]);
      if (config == 0 && op != BG_LEFT && !g_lean) {
        // the other offsets source: scan for single vectors, directory for batches
        set_offsets(op == BG_RIGHT ? K2_CUDA_OFFSETS_SCAN : K2_CUDA_OFFSETS_DIRECTORY);
        t[op][4] = bg_time(run_k2, &x, stream);
        check(g->name, "k2 other offsets", ref[op], bg_y(c, (bg_op)op), out[op]);
        set_offsets(K2_CUDA_OFFSETS_AUTO);
      }
      if (op == BG_RIGHT && config == 0 && !g_lean) {
        // a smaller tile: less scratch, more launches
        set_tile(SMALL_TILE);
        t[op][6] = bg_time(run_k2, &x, stream);
        check(g->name, "k2 small tile", ref[op], bg_y(c, (bg_op)op), out[op]);
        set_tile(UINT64_C(1) << 20);
      }
      if (op == BG_RIGHT && config == 1 && !g_lean) {
        // the generic leaf kernel, for the specialised plus kernel's gain
        set_fast_leaf(false);
        t[op][7] = bg_time(run_k2, &x, stream);
        check(g->name, "k2+B generic leaf kernel", ref[op], bg_y(c, (bg_op)op), out[op]);
        set_fast_leaf(true);
      }
    }
  }
  phase(g, "k2, k2+B and k2+R timed");
  if (!bg_ok(g->name)) exit(1);
  for (int op = 0; op < nops; op++) free(ref[op]);
  for (int j = 0; j < 9; j++) t[2][j] /= BATCH;  // per vector

  const double MB = 1e6;
  printf("%-14s %10llu %11llu %7.1fs | %8.2f %8.2f %8.2f %8.2f %8.2f | ws %8.2f %8.2f %8.2f %8.2f | tiles %4llu | M=2^17: ws %8.2f, %llu tiles\n",
         g->name, (unsigned long long)g->n, (unsigned long long)nnz, t_build, tree / MB,
         wk.matrix / MB, wf.matrix / MB, bg_csr_bytes(c, false) / MB, bg_csr_bytes(c, true) / MB,
         wk.total / MB, wf.total / MB, ws_cus / MB, ws_bcsr / MB, (unsigned long long)wk.tiles,
         wks.total / MB, (unsigned long long)wks.tiles);
  const char *opn[3] = {"right", "left", "batch"};
  for (int op = 0; op < 3; op++)
    printf("    %-5s ms: k2 %9.4f  k2+B %9.4f  k2+R %9.4f  cuSPARSE %9.4f  bCSR %9.4f  | k2/cu %5.2f  k2B/cu %5.2f  k2R/cu %5.2f  bCSR/cu %5.2f%s\n",
           opn[op], t[op][0], t[op][1], t[op][8], t[op][2], t[op][3], t[op][0] / t[op][2],
           t[op][1] / t[op][2], t[op][8] / t[op][2], t[op][3] / t[op][2],
           op == 0 ? "  (k2 scan offsets: see CSV)" : "");
  printf("    k2+R: matrix %8.2f MB, ws %8.2f MB (%5.3f x cuSPARSE)\n", wr.matrix / MB, wr.total / MB,
         (double)wr.total / (double)ws_cus);
  printf("    right ms: k2 with M = 2^17 %9.4f (%5.2f x cuSPARSE); k2+B generic leaf kernel %9.4f (%5.2f x)\n",
         t[0][6], t[0][6] / t[0][2], t[0][7], t[0][7] / t[0][2]);
  if (g_csv) {
    fprintf(g_csv,
            "%s,%llu,%llu,%.3f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu",
            g->name, (unsigned long long)g->n, (unsigned long long)nnz, t_build,
            (unsigned long long)tree, (unsigned long long)wk.matrix, (unsigned long long)wf.matrix,
            (unsigned long long)bg_csr_bytes(c, false), (unsigned long long)bg_csr_bytes(c, true),
            (unsigned long long)wk.total, (unsigned long long)wf.total, (unsigned long long)ws_cus,
            (unsigned long long)ws_bcsr, (unsigned long long)wkb.total,
            (unsigned long long)wfb.total, (unsigned long long)wk.tiles);
    for (int op = 0; op < 3; op++)
      fprintf(g_csv, ",%.6f,%.6f,%.6f,%.6f", t[op][0], t[op][1], t[op][2], t[op][3]);
    fprintf(g_csv, ",%.6f,%.6f,%.6f,%.6f,%llu", t[0][4], t[2][4], t[0][6], t[0][7],
            (unsigned long long)wks.total);
    fprintf(g_csv, ",%llu,%llu,%llu,%.6f,%.6f,%.6f\n", (unsigned long long)wr.matrix,
            (unsigned long long)wr.total, (unsigned long long)wrb.total, t[0][8], t[1][8], t[2][8]);
    fflush(g_csv);
  }
  fflush(stdout);
  bg_csr_free(c);
  K2_Matrix_free(&A);
  K2_Device_trim();
}

int main(int argc, char **argv) {
  const char *csv = NULL, *rmat = "18,20,22", *graphs = NULL, *web = "";
  uint64_t grid = 2048;
  bool real = true;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--csv") && i + 1 < argc) csv = argv[++i];
    else if (!strcmp(argv[i], "--rmat") && i + 1 < argc) rmat = argv[++i];
    else if (!strcmp(argv[i], "--grid") && i + 1 < argc) grid = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--graphs") && i + 1 < argc) graphs = argv[++i];
    else if (!strcmp(argv[i], "--web") && i + 1 < argc) web = argv[++i];
    else if (!strcmp(argv[i], "--no-real")) real = false;
    else if (!strcmp(argv[i], "--lean")) g_lean = true;
    else if (!strcmp(argv[i], "--full-blocks")) g_full_blocks = true;
    else if (!strcmp(argv[i], "--leaves") && i + 1 < argc) {
      const char *v = argv[++i];
      g_leaf_log = v[0] == '2' ? 1 : v[0] == '4' ? 2 : v[0] == '8' ? 3 : 0;
      g_compress_leaves = v[0] != '\0' && v[1] == 'c';
      if (g_leaf_log == 0 || (g_compress_leaves && g_leaf_log == 1) || v[1 + g_compress_leaves] != '\0') {
        fprintf(stderr, "--leaves: 2, 4, 8, 4c or 8c, not %s\n", v);
        return 2;
      }
    }
    else if (!strcmp(argv[i], "--fuse") && i + 1 < argc)  // k²: two levels per expand step
      K2_Device_setFusion(!strcmp(argv[++i], "on"));
    else if (!strcmp(argv[i], "--configs") && i + 1 < argc) {
      // k2F: the bottom codes' configuration under its old name
      const char *names[3] = {"k2", "k2B", "k2R"};
      for (int k = 0; k < 3; k++) g_config_on[k] = listed(argv[i + 1], names[k]) || (k == 1 && listed(argv[i + 1], "k2F"));
      i++;
    }
    else if (!strcmp(argv[i], "--batch-max-n") && i + 1 < argc) g_batch_max_n = (uint64_t)strtod(argv[++i], NULL);
    else {
      fprintf(stderr, "usage: %s [--csv FILE] [--rmat 18,20,22] [--grid SIDE] [--web N,N] [--graphs a,b] [--no-real] [--batch-max-n N] [--lean] [--full-blocks] [--leaves 2|4|8|4c|8c] [--fuse on|off] [--configs k2,k2B,k2R]\n", argv[0]);
      return 2;
    }
  }
  if (K2_init() != GrB_SUCCESS || !k2_cuda_available()) {
    fprintf(stderr, "bench_gpu: no CUDA device\n");
    return 77;
  }
  if (csv) {
    g_csv = fopen(csv, "w");
    // the k2F columns hold k²+B (the bottom codes' configuration), named as in earlier runs' files
    fprintf(g_csv, "graph,n,nnz,build_s,tree_B,k2_B,k2F_B,bcsr_B,csr_fp32_B,ws_k2_B,ws_k2F_B,"
                   "ws_cusparse_B,ws_bcsr_B,ws_k2_batch_B,ws_k2F_batch_B,tiles,"
                   "right_k2_ms,right_k2F_ms,right_cusparse_ms,right_bcsr_ms,"
                   "left_k2_ms,left_k2F_ms,left_cusparse_ms,left_bcsr_ms,"
                   "batch_k2_ms,batch_k2F_ms,batch_cusparse_ms,batch_bcsr_ms,"
                   "right_k2_scan_ms,batch_k2_directory_ms,right_k2_tile2e17_ms,"
                   "right_k2F_generic_leaf_ms,ws_k2_tile2e17_B,"
                   "k2R_B,ws_k2R_B,ws_k2R_batch_B,right_k2R_ms,left_k2R_ms,batch_k2R_ms\n");
  }
  printf("%-14s %10s %11s %8s | %8s %8s %8s %8s %8s | ws %8s %8s %8s %8s  (MB)\n", "graph", "n",
         "nnz", "build", "tree", "k2", "k2+B", "bCSR", "CSR32", "k2", "k2+B", "cuSP", "bCSR");
  // every real graph of the data folder (tests/support/k2_real_graphs.c), absent ones skipped
  const char *dir = k2_real_graph_dir("../shared/data");
  for (size_t f = 0; real && f < k2_real_graph_count; f++) {
    const k2_real_graph *rg = &k2_real_graph_list[f];
    if (!listed(graphs, rg->name)) continue;
    K2_Edges E;
    memset(&E, 0, sizeof E);
    GrB_Info info = k2_real_graph_read(&E, dir, rg);
    if (info == GrB_NO_VALUE) continue;
    graph g;
    memset(&g, 0, sizeof g);
    if (from_edges(&g, &E, info, rg->name)) bench_graph(&g);
  }
  char wlist[256];
  snprintf(wlist, sizeof wlist, "%s", web);
  for (char *tok = strtok(wlist, ","); tok; tok = strtok(NULL, ",")) {
    GrB_Index pages = (GrB_Index)strtod(tok, NULL);
    if (pages < 16) continue;
    K2_WebParams wp;
    K2_WebParams_default(&wp);
    K2_Edges E;
    memset(&E, 0, sizeof E);
    graph g;
    memset(&g, 0, sizeof g);
    char name[64];
    snprintf(name, sizeof name, "web%.0e", (double)pages);
    if (from_edges(&g, &E, K2_Gen_web(&E, pages, &wp), name)) bench_graph(&g);
  }
  if (grid > 0) {
    graph g;
    gen_grid(&g, grid);
    bench_graph(&g);
  }
  char list[256];
  snprintf(list, sizeof list, "%s", rmat);
  for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
    // "26": with and without the permutation; "26u" / "26p": only one of them
    int scale = atoi(tok);
    if (scale < 8 || scale > 30) continue;
    const char *suffix = tok + strspn(tok, "0123456789");
    for (int p = 0; p < 2; p++) {
      if ((*suffix == 'u' && p == 1) || (*suffix == 'p' && p == 0)) continue;
      graph g;
      gen_rmat(&g, scale, p);
      bench_graph(&g);
    }
  }
  if (g_csv) fclose(g_csv);
  K2_finalize();
  if (g_bad) {
    fprintf(stderr, "bench_gpu: engines disagree (%llu entries)\n", (unsigned long long)g_bad);
    return 1;
  }
  printf("all engines agree (bit-exact, dyadic FP32 vectors)\n");
  return 0;
}
