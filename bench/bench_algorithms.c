// bench_algorithms.c: whole graph algorithms on the k²-tree against SuiteSparse:GraphBLAS.
// SPDX-License-Identifier: Apache-2.0
//
// usage: bench_algorithms [--graphs a,b] [--no-real] [--data DIR] [--web N[,N]] [--rmat S[,S]]
//                         [--reps N] [--algs bfs,msbfs,pr,sssp,wcc,products] [--csv FILE]
//                         [--engine auto|openmp|cuda|reference] [--threads T] [--max-seconds S]
//                         [--prune auto|never|always] [--cusparse|--no-cusparse] [--bottom-codes]
//                         [--decoded-level]
//                         [--locality-order]
//
// Each algorithm of algorithms/ (one LAGraph-model body compiled twice) runs on a K2_Matrix
// (the _k2 instance: products on the tree) and on a GrB_Matrix of the same pattern (the _grb
// instance: SuiteSparse:GraphBLAS 7.4 does every product; iso Boolean, by row, as
// K2_Matrix_toGrB makes it). Per repetition the tree's run comes first, then SuiteSparse's,
// so that both see the same machine state; the table gives the median and the fastest run of
// each and the ratio of the medians (k2 / SuiteSparse: below 1, the tree is faster).
//   bfs       levels and parents (K2_bfs_graph on each storage's graph, its out-degrees cached,
//             as LAGraph's BFS reads G->out_degree; direction-optimizing) from vertex 0 ("src0"), from
//             the vertex of largest out-degree ("maxdeg") and from 8 random vertices with at
//             least one out-edge ("rand#k", and "rand8-geomean": geometric means of the 8)
//   msbfs     hop distances from 16 random vertices with an out-edge (K2_msbfs_graph, along edges)
//   pr        K2_pagerank_graph (LAGr_PageRank: damping 0.85, tol 1e-4, itermax 100) on a K2_Graph
//             of each storage whose out-degrees are cached when the graph is made, outside
//             every timed region, on both sides alike (as LAGr_PageRank reads G->out_degree)
//   sssp      K2_sssp_hops_graph from vertex 0
//   wcc       K2_wcc_graph
//   products  single K2_vxm / K2_mxv against GrB_vxm / GrB_mxv, no mask, no accumulator, over
//             ANY_PAIR_BOOL (a BFS step) and PLUS_TIMES_FP64, with an input vector of 1, 10,
//             1000 and n/10 entries at random positions (at most n); time per call: batches
//             of about 2 ms (sized per side), alternating, until each side has run 50 ms and
//             --reps batches; median and fastest batch
// Outputs are made complete (GrB_wait) inside the timed region on both sides. Random choices
// use a fixed seed, so runs pick the same vertices. Before timing, each side runs once and
// the results are compared: BFS levels, msBFS, SSSP and WCC exactly; BFS parents must form a
// valid BFS tree on both sides (parent(src) = src, every other parent one level up with an
// edge parent -> v, the same reached set); PageRank within 1e-4 (max abs difference; both
// converge or neither); products: the same pattern and values (FP64 within 1e-9 relative).
// The check column says "ok" or "MISMATCH"; the program exits with 3 after the summary when
// any case mismatched, with 1 on an error.
// Graphs: every real graph of the data folder (--data DIR, else $K2GRB_DATA_DIR, else the
// build's K2_DATA_DIR; the list is tests/support/k2_real_graphs.c; absent ones are skipped
// with a message; --graphs picks some by name), the web-like generator (--web N: N pages,
// K2_WebParams_default), R-MAT (--rmat S: K2_RmatParams_default, Graph500 scale S). A graph
// is made square (n = max(rows, cols)). --max-seconds S: when a graph has used S seconds,
// every further case runs its check and one timed repetition only (the note says so).
// --threads T sets the OpenMP threads of k2grb and GxB_NTHREADS of SuiteSparse alike.
// --prune sets the CUDA engine's pruned traversal (K2_Device_setPruning; default auto).
// --bottom-codes builds the trees with their bottom codes kept (K2_Format.cache_bottom_codes,
// k2+B: 8 bytes per node of the last internal level, full products skip the descent).
// --decoded-level has each tree ask for its last internal level decoded (K2_Matrix_setDecodedLevel:
// 8 bytes per node of that level, made by the first product that reads it, in the untimed
// warm-up run, and kept with the matrix, as k2+B's decoded level is).
// --locality-order renumbers each tree graph (K2_Graph_cachedLocalityOrder, timed apart, like
// the out-degrees): BFS, msBFS, PageRank, SSSP and WCC, which run on the graphs, use the renumbered
// tree where it was kept; SuiteSparse keeps the graph's own numbering.
// cuSPARSE baseline (bench_cusparse.h; built with CUDA: on unless --no-cusparse; without CUDA
// the columns are absent): the same level-synchronous algorithms on a CSR of A' on the GPU,
// FP32 ones as values (cuSPARSE's products need values), timed as a third side in each
// repetition, after SuiteSparse, and checked against the tree's result of the first run:
//   bfs       one SpMV of the dense frontier per level, a kernel that sets the levels and
//             counts the new frontier (one count back per level); parents at the end by one
//             pass over the in-edges of each reached vertex; levels exact, parents valid
//   msbfs     the same with one SpMM of the n x 16 frontier block per level; distances exact
//   pr        LAGr_PageRank in FP32, one SpMV per iteration, the change back per iteration;
//             within 1e-4, and both converge or neither
// Its CSR goes to the device once per graph (upload time and bytes in the graph's header line,
// not in the times); the cuSPARSE algorithm of each product is the fastest of those cuSPARSE
// accepts, timed once by the first run. Its times end with the result on the host (levels and
// parents, distances, ranks), as the other sides end with GrB objects. Device bytes: "cuSP
// dev" = CSR (row offsets, column indices, values) + the algorithm's vectors + the cuSPARSE
// buffer; "k2 dev" = K2_Device_memory's peak over the tree's first run, after K2_Device_trim
// (the resident tree, the engine's workspace and the algorithm's device vectors; "-" when none
// is on the device). No device: the columns say "n/a".
// sssp, wcc and products have no baseline ("n/a").
// --csv FILE: one row per graph x algorithm x case: graph,n,nvals,algorithm,case,
// k2_median_ms,k2_min_ms,ss_median_ms,ss_min_ms,ratio,check,reps,note, then the baseline's
// cusparse_median_ms,cusparse_min_ms,k2_cusparse_ratio,cusparse_check (ok, MISMATCH, n/a),
// cusparse_csr_bytes,cusparse_device_bytes,cusparse_upload_ms (empty where it did not run),
// k2_device_peak_bytes,cusparse_note.
// At the end: per algorithm and case, the geometric mean of the ratio over the graphs and the
// graph with the worst (largest) ratio; with the baseline, the same for k2 / cuSPARSE. A
// baseline MISMATCH counts as a mismatch (exit 3); a baseline error (printed) leaves it out for
// the rest of that graph.
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <k2grb.h>

#include "bench_cusparse.h"
#include "k2_real_graphs.h"
#include "k2grb_algorithms.h"

#ifdef BENCH_HAVE_CUSPARSE
#define CUSPARSE_BUILT true
#else
#define CUSPARSE_BUILT false
#endif

#define RANDOM_BFS_SOURCES 8
#define MSBFS_SOURCES 16
#define PR_DAMPING 0.85f
#define PR_TOL 1e-4f
#define PR_ITERMAX 100
#define PRODUCT_BATCH_SECONDS 2e-3    // one timed batch of products
#define PRODUCT_SIDE_SECONDS 50e-3    // each side's total time of products per case
#define PRODUCT_MAX_BATCHES 2000
#define SEED 0x6b32677262ULL          // "k2grb": every run draws the same vertices

//==============================================================================================
// errors, clock, random numbers
//==============================================================================================

static _Noreturn void fail(int line, const char *call, GrB_Info info, const char *msg) {
  fprintf(stderr, "bench_algorithms.c:%d: %s failed: %s (%d)\n", line, call, K2_info_name(info), (int)info);
  if (msg != NULL && msg[0] != '\0') fprintf(stderr, "  algorithm: %s\n", msg);
  if (K2_error_string()[0] != '\0') fprintf(stderr, "  k2grb: %s\n", K2_error_string());
  exit(1);
}

// Every GraphBLAS / k2grb call goes through TRY: an error ends the program with its message.
#define TRY(call)                                              \
  do {                                                         \
    GrB_Info try_info_ = (call);                               \
    if (try_info_ != GrB_SUCCESS) fail(__LINE__, #call, try_info_, NULL); \
  } while (0)

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// splitmix64: small, seedable, the same sequence on every machine
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median_of(double *t, int count) {
  qsort(t, (size_t)count, sizeof(double), compare_doubles);
  return count % 2 ? t[count / 2] : 0.5 * (t[count / 2 - 1] + t[count / 2]);
}

static double min_of(const double *t, int count) {
  double m = t[0];
  for (int i = 1; i < count; i++) m = fmin(m, t[i]);
  return m;
}

// "12.3 us", "4.56 ms", "1.23 s": the table mixes products of microseconds and whole algorithms
static const char *format_time(char *buf, size_t cap, double seconds) {
  if (seconds < 1e-3) snprintf(buf, cap, "%.2f us", seconds * 1e6);
  else if (seconds < 1.0) snprintf(buf, cap, "%.3f ms", seconds * 1e3);
  else snprintf(buf, cap, "%.3f s", seconds);
  return buf;
}

// comma-separated list membership; a NULL list holds everything
static bool listed(const char *list, const char *name) {
  if (list == NULL) return true;
  size_t len = strlen(name);
  for (const char *p = list; *p;) {
    const char *end = strchr(p, ',');
    size_t item = end ? (size_t)(end - p) : strlen(p);
    if (item == len && strncmp(p, name, len) == 0) return true;
    if (end == NULL) break;
    p = end + 1;
  }
  return false;
}

//==============================================================================================
// options and results
//==============================================================================================

static struct {
  int reps;
  double max_seconds;     // per graph; 0: no budget
  const char *graphs;     // real graphs by name (NULL: all)
  bool real;
  const char *data_dir;
  const char *web;        // page counts, comma-separated
  const char *rmat;       // scales, comma-separated
  const char *algs;       // NULL: all
  const char *csv_path;
  const char *engine;     // NULL: as K2_init left it (K2GRB_ENGINE or auto)
  const char *prune;      // NULL: the CUDA engine's default (auto)
  int threads;            // 0: the defaults of each library
  bool cusparse;          // the cuSPARSE baseline's columns (with CUDA: on unless --no-cusparse)
  bool bottom_codes;      // the trees keep their bottom codes (K2_Format.cache_bottom_codes)
  bool decoded_level;     // the trees ask for their last level decoded (K2_Matrix_setDecodedLevel)
  bool locality_order;    // the tree graphs renumbered (K2_Graph_cachedLocalityOrder)
} opt = {.reps = 5, .real = true, .cusparse = CUSPARSE_BUILT};

// The cuSPARSE column: shown when built with CUDA and not turned off; runs when a device is
// present (otherwise "n/a", and cusparse_absent says why).
static bool cusparse_device;
static char cusparse_absent[96] = "";

static FILE *csv;

// The cuSPARSE baseline's state in a row.
typedef enum {
  CUS_NONE = 0,  // no baseline here: no device, no cuSPARSE version of the case, or it failed
  CUS_OK,        // timed, and its result equals the tree's
  CUS_MISMATCH   // timed, but its result differs from the tree's
} cusparse_state;

typedef struct {
  char graph[64];
  char algorithm[16];
  char case_name[40];
  GrB_Index n, nvals;
  double k2_median, k2_min, ss_median, ss_min;  // seconds
  double ratio;
  bool ok;
  int reps;
  bool in_summary;  // false for the single random sources (their geometric mean row stands for them)
  char note[160];
  // the cuSPARSE baseline (CUS_NONE: the rest is zero) and the device bytes of both GPU sides
  cusparse_state cus;
  double cus_median, cus_min, cus_ratio;  // seconds; k2 median / cuSPARSE median
  uint64_t cus_csr_bytes, cus_bytes;      // its CSR; CSR + vectors + cuSPARSE buffer
  double cus_upload;                      // seconds to put the graph's CSR on the device
  uint64_t k2_device_peak;                // K2_Device_memory peak over the tree's first run
  char cus_note[160];
} result_row;

static result_row *results;
static size_t result_count, result_capacity;

static void print_table_header(void) {
  printf("%-10s %-24s %11s %11s %11s %11s %7s %4s %-8s ", "algorithm", "case", "k2 median", "k2 min", "SS median",
         "SS min", "k2/SS", "reps", "check");
  if (opt.cusparse) {
    printf("%11s %11s %7s %-8s %10s %10s ", "cuSP median", "cuSP min", "k2/cuSP", "cuSP chk", "k2 dev",
           "cuSP dev");
  }
  printf("note\n");
}

// "512 B", "12.3 KiB", "4.56 MiB", "1.23 GiB"; "-" for none
static const char *format_bytes(char *buf, size_t cap, uint64_t bytes) {
  if (bytes == 0) snprintf(buf, cap, "-");
  else if (bytes < 1024) snprintf(buf, cap, "%llu B", (unsigned long long)bytes);
  else if (bytes < (1ull << 20)) snprintf(buf, cap, "%.1f KiB", bytes / 1024.0);
  else if (bytes < (1ull << 30)) snprintf(buf, cap, "%.2f MiB", bytes / 1048576.0);
  else snprintf(buf, cap, "%.2f GiB", bytes / 1073741824.0);
  return buf;
}

static const char *cusparse_check_name(cusparse_state state) {
  return state == CUS_OK ? "ok" : state == CUS_MISMATCH ? "MISMATCH" : "n/a";
}

static void csv_text(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void record(const result_row *row) {
  if (result_count == result_capacity) {
    result_capacity = result_capacity ? 2 * result_capacity : 64;
    results = realloc(results, result_capacity * sizeof *results);
    if (results == NULL) {
      fprintf(stderr, "bench_algorithms: out of memory\n");
      exit(1);
    }
  }
  results[result_count++] = *row;
  char a[32], b[32], c[32], d[32];
  printf("%-10s %-24s %11s %11s %11s %11s %7.3f %4d %-8s ", row->algorithm, row->case_name,
         format_time(a, sizeof a, row->k2_median), format_time(b, sizeof b, row->k2_min),
         format_time(c, sizeof c, row->ss_median), format_time(d, sizeof d, row->ss_min), row->ratio,
         row->reps, row->ok ? "ok" : "MISMATCH");
  if (opt.cusparse) {
    char e[32], f[32], k2dev[32], cusdev[32], ratio[16] = "n/a";
    bool timed = row->cus != CUS_NONE;
    if (timed) snprintf(ratio, sizeof ratio, "%.3f", row->cus_ratio);
    printf("%11s %11s %7s %-8s %10s %10s ", timed ? format_time(e, sizeof e, row->cus_median) : "n/a",
           timed ? format_time(f, sizeof f, row->cus_min) : "n/a", ratio, cusparse_check_name(row->cus),
           format_bytes(k2dev, sizeof k2dev, row->k2_device_peak), format_bytes(cusdev, sizeof cusdev, row->cus_bytes));
  }
  printf("%s%s%s\n", row->note, row->note[0] && row->cus_note[0] ? "; " : "", row->cus_note);
  fflush(stdout);
  if (csv != NULL) {
    fprintf(csv, "%s,%llu,%llu,%s,%s,%.6g,%.6g,%.6g,%.6g,%.4f,%s,%d,", row->graph,
            (unsigned long long)row->n, (unsigned long long)row->nvals, row->algorithm,
            row->case_name, row->k2_median * 1e3, row->k2_min * 1e3, row->ss_median * 1e3,
            row->ss_min * 1e3, row->ratio, row->ok ? "ok" : "MISMATCH", row->reps);
    csv_text(csv, row->note);
    // the cuSPARSE columns, appended: empty numbers where it did not run
    if (row->cus != CUS_NONE) {
      fprintf(csv, ",%.6g,%.6g,%.4f,%s,%llu,%llu,%.6g,", row->cus_median * 1e3, row->cus_min * 1e3, row->cus_ratio,
              cusparse_check_name(row->cus), (unsigned long long)row->cus_csr_bytes,
              (unsigned long long)row->cus_bytes, row->cus_upload * 1e3);
    } else {
      fprintf(csv, ",,,,n/a,,,,");
    }
    fprintf(csv, "%llu,", (unsigned long long)row->k2_device_peak);
    csv_text(csv, row->cus_note);
    fputc('\n', csv);
    fflush(csv);
  }
}

//==============================================================================================
// the graph in both storages
//==============================================================================================

typedef struct {
  char name[64];
  GrB_Index n, nvals;
  K2_Graph tree_graph;      // the k²-tree and its cached out-degrees (owns the tree)
  K2_Graph csr_graph;       // the same in SuiteSparse (owns the CSR)
  K2_Matrix tree;           // tree_graph's matrix (the _k2 instances)
  GrB_Matrix csr;           // csr_graph's matrix, the same pattern (the _grb instances)
  GrB_Index maxdeg_vertex;  // the vertex of largest out-degree (smallest id among ties)
  GrB_Index *active;        // the vertices with an out-edge: random sources come from these
  GrB_Index nactive;
  double start;             // when its measurements began (for --max-seconds)
  bool budget_spent;
  // the cuSPARSE baseline: the CSR of A' on the device (NULL: none, or dropped after an error)
  // and host buffers for its results, allocated by the first (untimed) run of each algorithm
  bc_graph *cus;
  double cus_upload;        // seconds
  int32_t *cus_level;       // BFS levels (n)
  void *cus_parent;         // BFS parents (n entries of bc_index_bytes)
  int32_t *cus_dist;        // msBFS distances (n x sources, row-major)
  float *cus_rank;          // PageRank (n)
  int32_t cus_depth;
  int cus_iterations;
  bool cus_converged;
} bench_graph;

static bool over_budget(bench_graph *g) {
  if (opt.max_seconds > 0 && now() - g->start > opt.max_seconds) g->budget_spent = true;
  return g->budget_spent;
}

// Vertices with an out-edge and the one with the most (from SuiteSparse's row degrees).
static void find_sources(bench_graph *g) {
  GrB_Vector degree = NULL;
  TRY(GrB_Vector_new(&degree, GrB_INT64, g->n));
  TRY(GrB_reduce(degree, NULL, NULL, GrB_PLUS_MONOID_INT64, g->csr, NULL));
  GrB_Index count;
  TRY(GrB_Vector_nvals(&count, degree));
  g->active = malloc((count + 1) * sizeof(GrB_Index));
  int64_t *values = malloc((count + 1) * sizeof(int64_t));
  if (g->active == NULL || values == NULL) fail(__LINE__, "malloc", GrB_OUT_OF_MEMORY, NULL);
  TRY(GrB_Vector_extractTuples_INT64(g->active, values, &count, degree));
  g->nactive = count;
  g->maxdeg_vertex = 0;
  int64_t best = -1;
  for (GrB_Index k = 0; k < count; k++) {
    if (values[k] > best) {
      best = values[k];
      g->maxdeg_vertex = g->active[k];
    }
  }
  free(values);
  GrB_free(&degree);
}

// k distinct random vertices with an out-edge (repeats only when there are fewer than k)
static void random_sources(GrB_Index *sources, int k, const bench_graph *g, uint64_t *rng) {
  for (int i = 0; i < k; i++) {
    for (int attempt = 0;; attempt++) {
      sources[i] = g->active[next_random(rng) % g->nactive];
      bool repeated = false;
      for (int j = 0; j < i; j++) repeated = repeated || sources[j] == sources[i];
      if (!repeated || (GrB_Index)k > g->nactive || attempt > 1000) break;
    }
  }
}

// The CSR of A' (A by row transposed: row v lists the sources of the edges into v) on the
// device for the cuSPARSE baseline. A transposed copy of the GrB_Matrix is unpacked to lend its
// arrays to the upload, packed back and freed.
static void upload_cusparse(bench_graph *g) {
  GrB_Matrix T = NULL;
  TRY(GrB_Matrix_new(&T, GrB_BOOL, g->n, g->n));
  TRY(GxB_set(T, GxB_FORMAT, GxB_BY_ROW));
  TRY(GxB_set(T, GxB_SPARSITY_CONTROL, GxB_SPARSE));
  TRY(GrB_transpose(T, NULL, NULL, g->csr, NULL));
  TRY(GrB_wait(T, GrB_MATERIALIZE));
  GrB_Index *rowptr = NULL, *col = NULL, rowptr_size = 0, col_size = 0, values_size = 0;
  void *values = NULL;
  bool iso = false;
  // jumbled NULL: SuiteSparse sorts each row first
  TRY(GxB_Matrix_unpack_CSR(T, &rowptr, &col, &values, &rowptr_size, &col_size, &values_size, &iso, NULL, NULL));
  g->cus = bc_graph_new(g->n, rowptr, col, rowptr[g->n]);
  if (g->cus != NULL) g->cus_upload = bc_upload_seconds(g->cus);
  TRY(GxB_Matrix_pack_CSR(T, &rowptr, &col, &values, rowptr_size, col_size, values_size, iso, false, NULL));
  GrB_free(&T);
}

// Takes E (freed here); false when the graph has no edge to start from.
static bool make_graph(bench_graph *g, K2_Edges *E, const char *name) {
  memset(g, 0, sizeof *g);
  snprintf(g->name, sizeof g->name, "%s", name);
  double t0 = now();
  g->n = E->nrows > E->ncols ? E->nrows : E->ncols;  // the algorithms need a square matrix
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.cache_bottom_codes = opt.bottom_codes;
  TRY(K2_Matrix_new_format(&g->tree, g->n, g->n, &fmt));
  TRY(K2_Matrix_build_32(g->tree, E->I, E->J, E->nvals));
  if (opt.decoded_level) TRY(K2_Matrix_setDecodedLevel(g->tree, true));
  K2_Edges_free(E);
  double t1 = now();
  TRY(K2_Matrix_nvals(&g->nvals, g->tree));
  TRY(K2_Matrix_toGrB(&g->csr, g->tree, NULL));
  TRY(GxB_set(g->csr, GxB_FORMAT, GxB_BY_ROW));
  TRY(GrB_wait(g->csr, GrB_MATERIALIZE));
  // both as graphs with their out-degrees cached (PageRank reads them); the fields keep the
  // matrices for the other algorithms
  char msg[K2_MSG_LEN] = "";
  GrB_Info info = K2_Graph_new(&g->tree_graph, &g->tree, K2_ADJACENCY_DIRECTED, msg);
  if (info == GrB_SUCCESS) info = K2_Graph_new(&g->csr_graph, &g->csr, K2_ADJACENCY_DIRECTED, msg);
  if (info == GrB_SUCCESS) info = K2_Graph_cachedOutDegree(g->tree_graph, msg);
  if (info == GrB_SUCCESS) info = K2_Graph_cachedOutDegree(g->csr_graph, msg);
  if (info != GrB_SUCCESS) fail(__LINE__, "making the graphs", info, msg);
  g->tree = g->tree_graph->K;
  g->csr = g->csr_graph->A;
  double t2 = now();
  if (opt.locality_order) {
    info = K2_Graph_cachedLocalityOrder(g->tree_graph, msg);
    if (info != GrB_SUCCESS) fail(__LINE__, "renumbering the tree", info, msg);
    K2_MemoryUsage was, now_;
    TRY(K2_Matrix_memoryUsage(&was, g->tree));
    if (g->tree_graph->ordered != NULL) TRY(K2_Matrix_memoryUsage(&now_, g->tree_graph->ordered->K));
    if (g->tree_graph->ordered != NULL) TRY(K2_Graph_cachedOutDegree(g->tree_graph->ordered, msg));
    printf("   locality order: %s, tree %llu bytes", g->tree_graph->ordered != NULL ? "kept" : "not kept",
           (unsigned long long)was.tree);
    if (g->tree_graph->ordered != NULL) printf(" -> %llu", (unsigned long long)now_.tree);
    printf(", %.3f s (not in the times below)\n", now() - t2);
    t2 = now();
  }
  find_sources(g);
  if (opt.cusparse && cusparse_device && g->nvals > 0) upload_cusparse(g);
  printf("\n== %s: n %llu, nvals %llu (tree built in %.2f s, SuiteSparse copy and both graphs' out-degrees %.2f s); "
         "vertex of "
         "largest out-degree %llu; %llu vertices with an out-edge\n",
         g->name, (unsigned long long)g->n, (unsigned long long)g->nvals, t1 - t0, t2 - t1,
         (unsigned long long)g->maxdeg_vertex, (unsigned long long)g->nactive);
  if (opt.cusparse && g->nvals > 0) {
    if (g->cus != NULL) {
      uint64_t idx = (uint64_t)bc_index_bytes(g->cus);
      char csr[32];
      printf("   cuSPARSE baseline: CSR of A' with FP32 values (%d-bit indices; cuSPARSE's SpMV/SpMM need values) "
             "%s on the device, uploaded in %.2f ms (not in the times below)\n",
             (int)(8 * idx), format_bytes(csr, sizeof csr, (g->n + 1) * idx + g->nvals * (idx + 4)), g->cus_upload * 1e3);
    } else {
      printf("   cuSPARSE baseline: n/a (%s)\n", cusparse_device ? "could not put the CSR on the device" : cusparse_absent);
    }
  }
  if (g->nvals == 0 || g->n == 0) {
    printf("   skipped: no edges\n");
    return false;
  }
  print_table_header();
  g->start = now();
  return true;
}

static void free_graph(bench_graph *g) {
  K2_Graph_free(&g->tree_graph, NULL);  // and the matrices
  K2_Graph_free(&g->csr_graph, NULL);
  g->tree = NULL;
  g->csr = NULL;
  free(g->active);
  g->active = NULL;
  bc_graph_free(g->cus);
  g->cus = NULL;
  free(g->cus_level);
  free(g->cus_parent);
  free(g->cus_dist);
  free(g->cus_rank);
  g->cus_level = NULL;
  g->cus_parent = NULL;
  g->cus_dist = NULL;
  g->cus_rank = NULL;
}

//==============================================================================================
// comparing results
//==============================================================================================

// Same pattern? *max_diff: the largest |a(i) - b(i)| over the common entries, *max_abs: the
// largest |b(i)| (FP64 arithmetic: exact for the integer results, which stay below 2^53).
static bool compare_vectors(GrB_Vector a, GrB_Vector b, double *max_diff, double *max_abs) {
  GrB_Index n, na, nb, nboth;
  TRY(GrB_Vector_size(&n, a));
  TRY(GrB_Vector_nvals(&na, a));
  TRY(GrB_Vector_nvals(&nb, b));
  GrB_Vector d = NULL;
  TRY(GrB_Vector_new(&d, GrB_FP64, n));
  TRY(GrB_eWiseMult(d, NULL, NULL, GrB_MINUS_FP64, a, b, NULL));
  TRY(GrB_Vector_nvals(&nboth, d));
  TRY(GrB_apply(d, NULL, NULL, GrB_ABS_FP64, d, NULL));
  *max_diff = 0;
  if (nboth > 0) TRY(GrB_reduce(max_diff, NULL, GrB_MAX_MONOID_FP64, d, NULL));
  TRY(GrB_apply(d, NULL, NULL, GrB_ABS_FP64, b, NULL));
  *max_abs = 0;
  if (nb > 0) TRY(GrB_reduce(max_abs, NULL, GrB_MAX_MONOID_FP64, d, NULL));
  GrB_free(&d);
  return na == nb && nb == nboth;
}

static bool vectors_equal(GrB_Vector a, GrB_Vector b) {
  double diff, max_abs;
  return compare_vectors(a, b, &diff, &max_abs) && diff == 0;
}

static bool matrices_equal(GrB_Matrix a, GrB_Matrix b) {
  GrB_Index nrows, ncols, na, nb, nboth;
  TRY(GrB_Matrix_nrows(&nrows, a));
  TRY(GrB_Matrix_ncols(&ncols, a));
  TRY(GrB_Matrix_nvals(&na, a));
  TRY(GrB_Matrix_nvals(&nb, b));
  GrB_Matrix d = NULL;
  TRY(GrB_Matrix_new(&d, GrB_FP64, nrows, ncols));
  TRY(GrB_eWiseMult(d, NULL, NULL, GrB_MINUS_FP64, a, b, NULL));
  TRY(GrB_Matrix_nvals(&nboth, d));
  TRY(GrB_apply(d, NULL, NULL, GrB_ABS_FP64, d, NULL));
  double max_diff = 0;
  if (nboth > 0) TRY(GrB_reduce(&max_diff, NULL, GrB_MAX_MONOID_FP64, d, NULL));
  GrB_free(&d);
  return na == nb && nb == nboth && max_diff == 0;
}

// The entries of v as (index, value) pairs; *count = nvals.
static void vector_tuples(GrB_Vector v, GrB_Index **index, int64_t **value, GrB_Index *count) {
  TRY(GrB_Vector_nvals(count, v));
  *index = malloc((*count + 1) * sizeof(GrB_Index));
  *value = malloc((*count + 1) * sizeof(int64_t));
  if (*index == NULL || *value == NULL) fail(__LINE__, "malloc", GrB_OUT_OF_MEMORY, NULL);
  TRY(GrB_Vector_extractTuples_INT64(*index, *value, count, v));
}

// A valid BFS tree for these levels: parent(src) = src; for every other reached v,
// parent(v) = p with level(p) = level(v) - 1 and the edge p -> v; no parent without a level.
static bool parents_valid(GrB_Vector parent, GrB_Vector level, const bench_graph *g, GrB_Index src,
                          char *why, size_t cap) {
  GrB_Index *li, *pi, nl, np;
  int64_t *lv, *pv;
  vector_tuples(level, &li, &lv, &nl);
  vector_tuples(parent, &pi, &pv, &np);
  int64_t *level_of = malloc(g->n * sizeof(int64_t));
  if (level_of == NULL) fail(__LINE__, "malloc", GrB_OUT_OF_MEMORY, NULL);
  for (GrB_Index v = 0; v < g->n; v++) level_of[v] = -1;
  for (GrB_Index k = 0; k < nl; k++) level_of[li[k]] = lv[k];
  bool valid = (np == nl);
  if (!valid) snprintf(why, cap, "%llu parents for %llu levels", (unsigned long long)np, (unsigned long long)nl);
  for (GrB_Index k = 0; valid && k < np; k++) {
    GrB_Index v = pi[k];
    int64_t p = pv[k];
    bool edge = false;
    if (p >= 0 && (GrB_Index)p < g->n && v != src) {
      GrB_Info info = GrB_Matrix_extractElement_BOOL(&edge, g->csr, (GrB_Index)p, v);
      if (info != GrB_SUCCESS && info != GrB_NO_VALUE) fail(__LINE__, "GrB_Matrix_extractElement_BOOL", info, NULL);
      edge = (info == GrB_SUCCESS);
    }
    if (level_of[v] < 0) valid = false;
    else if (v == src) valid = (p == (int64_t)src);
    else valid = edge && level_of[p] == level_of[v] - 1;
    if (!valid) snprintf(why, cap, "bad parent %lld of vertex %llu", (long long)p, (unsigned long long)v);
  }
  free(level_of);
  free(li);
  free(lv);
  free(pi);
  free(pv);
  return valid;
}

//==============================================================================================
// timing one algorithm on both storages
//==============================================================================================

typedef struct {
  GrB_Vector v1, v2;  // BFS level and parent; rank; distances; components
  GrB_Matrix m;       // msBFS distances
  int count;          // PageRank iterations, WCC rounds
  bool converged;     // PageRank reached the tolerance
} alg_output;

typedef struct {
  const GrB_Index *sources;
  GrB_Index nsources;
} alg_input;

typedef GrB_Info (*alg_run)(alg_output *out, bool on_tree, const bench_graph *g, const alg_input *in,
                            char *msg);
// Compares the two sides' results; writes a short note (what it saw, or what differs).
typedef bool (*alg_check)(const alg_output *tree, const alg_output *ss, const bench_graph *g,
                          const alg_input *in, char *note, size_t cap);

static void free_output(alg_output *o) {
  GrB_free(&o->v1);
  GrB_free(&o->v2);
  GrB_free(&o->m);
}

// One run, timed, outputs complete (GrB_wait) inside the timed region.
static double timed_run(alg_output *out, alg_run run, bool on_tree, const bench_graph *g,
                        const alg_input *in) {
  char msg[K2_MSG_LEN] = "";
  memset(out, 0, sizeof *out);
  K2_error_clear();
  double t0 = now();
  GrB_Info info = run(out, on_tree, g, in, msg);
  if (info != GrB_SUCCESS) fail(__LINE__, on_tree ? "the k2 algorithm" : "the SuiteSparse algorithm", info, msg);
  if (out->v1 != NULL) TRY(GrB_wait(out->v1, GrB_MATERIALIZE));
  if (out->v2 != NULL) TRY(GrB_wait(out->v2, GrB_MATERIALIZE));
  if (out->m != NULL) TRY(GrB_wait(out->m, GrB_MATERIALIZE));
  return now() - t0;
}

// The cuSPARSE version of an algorithm: run on g->cus into g's cus_ buffers (false on an
// error, which bc_ printed), and compared with the tree's result (a note: what it saw or what
// differs).
typedef struct {
  bc_algorithm algorithm;
  bool (*run)(bench_graph *g, const alg_input *in);
  bool (*check)(const alg_output *tree, const bench_graph *g, const alg_input *in, char *note, size_t cap);
} cusparse_baseline;

// After an error the baseline is left out for the rest of the graph (a device error may have
// left the context unusable); the next graph tries again.
static void drop_cusparse(bench_graph *g, result_row *row) {
  fprintf(stderr, "bench_algorithms: the cuSPARSE baseline failed on %s %s %s; left out for the rest of this graph\n",
          g->name, row->algorithm, row->case_name);
  bc_graph_free(g->cus);
  g->cus = NULL;
  row->cus = CUS_NONE;
  row->cus_median = row->cus_min = row->cus_ratio = 0;
  row->cus_bytes = row->cus_csr_bytes = 0;
  snprintf(row->cus_note, sizeof row->cus_note, "cuSPARSE failed (see stderr)");
}

static result_row measure_algorithm(bench_graph *g, const char *algorithm, const char *case_name,
                                    alg_run run, alg_check check, const alg_input *in, bool in_summary,
                                    const cusparse_baseline *cus) {
  result_row row;
  memset(&row, 0, sizeof row);
  snprintf(row.graph, sizeof row.graph, "%s", g->name);
  snprintf(row.algorithm, sizeof row.algorithm, "%s", algorithm);
  snprintf(row.case_name, sizeof row.case_name, "%s", case_name);
  row.n = g->n;
  row.nvals = g->nvals;
  row.in_summary = in_summary;

  // warm-up (first touches, the tree's engine state; the baseline's vectors and cuSPARSE
  // buffers) and the checks; the device peak of the tree's run, for the baseline's bytes
  alg_output on_tree, on_ss;
  // what earlier algorithms left (the workspace, kept vector blocks) is not this one's
  TRY(K2_Device_trim());
  TRY(K2_Device_resetPeak());
  timed_run(&on_tree, run, true, g, in);
  K2_DeviceMemory memory;
  TRY(K2_Device_memory(&memory));
  row.k2_device_peak = memory.peak;
  timed_run(&on_ss, run, false, g, in);
  row.ok = check(&on_tree, &on_ss, g, in, row.note, sizeof row.note);
  bool with_cus = cus != NULL && g->cus != NULL;
  if (with_cus) {
    if (cus->run(g, in)) {
      char note[sizeof row.cus_note - 32];
      bool same = cus->check(&on_tree, g, in, note, sizeof note);
      row.cus = same ? CUS_OK : CUS_MISMATCH;
      snprintf(row.cus_note, sizeof row.cus_note, "cuSP %s: %s", bc_product_name(g->cus, cus->algorithm), note);
    } else {
      drop_cusparse(g, &row);
      with_cus = false;
    }
  }
  free_output(&on_tree);
  free_output(&on_ss);

  double *t_tree = malloc((size_t)opt.reps * sizeof(double));
  double *t_ss = malloc((size_t)opt.reps * sizeof(double));
  double *t_cus = malloc((size_t)opt.reps * sizeof(double));
  if (t_tree == NULL || t_ss == NULL || t_cus == NULL) fail(__LINE__, "malloc", GrB_OUT_OF_MEMORY, NULL);
  int done = 0;
  for (int r = 0; r < opt.reps; r++) {
    if (r > 0 && over_budget(g)) break;
    t_tree[done] = timed_run(&on_tree, run, true, g, in);
    free_output(&on_tree);
    t_ss[done] = timed_run(&on_ss, run, false, g, in);
    free_output(&on_ss);
    if (with_cus) {  // its results on the host when it returns, as the others' GrB objects
      double t0 = now();
      bool ran = cus->run(g, in);
      t_cus[done] = now() - t0;
      if (!ran) {
        drop_cusparse(g, &row);
        with_cus = false;
      }
    }
    done++;
  }
  if (with_cus) {
    bc_bytes bytes = bc_device_bytes(g->cus, cus->algorithm);
    row.cus_min = min_of(t_cus, done);
    row.cus_median = median_of(t_cus, done);
    row.cus_csr_bytes = bytes.offsets + bytes.indices + bytes.values;
    row.cus_bytes = bytes.total;
    row.cus_upload = g->cus_upload;
  }
  if (done < opt.reps) {
    size_t len = strlen(row.note);
    snprintf(row.note + len, sizeof row.note - len, "%s--max-seconds: %d of %d reps", len ? "; " : "",
             done, opt.reps);
  }
  row.reps = done;
  row.k2_min = min_of(t_tree, done);
  row.ss_min = min_of(t_ss, done);
  row.k2_median = median_of(t_tree, done);
  row.ss_median = median_of(t_ss, done);
  row.ratio = row.k2_median / row.ss_median;
  if (row.cus != CUS_NONE) row.cus_ratio = row.k2_median / row.cus_median;
  free(t_tree);
  free(t_ss);
  free(t_cus);
  record(&row);
  return row;
}

//---------------------------------------------------------------------------------------------
// the algorithms
//---------------------------------------------------------------------------------------------

static GrB_Info run_bfs(alg_output *o, bool on_tree, const bench_graph *g, const alg_input *in, char *msg) {
  // on the graphs, whose cached out-degrees the push/pull switch reads (as LAGraph's BFS reads
  // G->out_degree), and the tree's locality order where --locality-order keeps one
  return K2_bfs_graph(&o->v1, &o->v2, on_tree ? g->tree_graph : g->csr_graph, in->sources[0], msg);
}

static bool check_bfs(const alg_output *t, const alg_output *s, const bench_graph *g, const alg_input *in,
                      char *note, size_t cap) {
  GrB_Index reached;
  TRY(GrB_Vector_nvals(&reached, s->v1));
  int64_t depth = 0;
  TRY(GrB_reduce(&depth, NULL, GrB_MAX_MONOID_INT64, s->v1, NULL));
  char why[96] = "";
  if (!vectors_equal(t->v1, s->v1)) {
    snprintf(note, cap, "levels differ");
    return false;
  }
  if (!parents_valid(t->v2, t->v1, g, in->sources[0], why, sizeof why)) {
    snprintf(note, cap, "k2 parents: %s", why);
    return false;
  }
  if (!parents_valid(s->v2, s->v1, g, in->sources[0], why, sizeof why)) {
    snprintf(note, cap, "SuiteSparse parents: %s", why);
    return false;
  }
  snprintf(note, cap, "src %llu, reached %llu, depth %lld", (unsigned long long)in->sources[0],
           (unsigned long long)reached, (long long)depth);
  return true;
}

static GrB_Info run_msbfs(alg_output *o, bool on_tree, const bench_graph *g, const alg_input *in, char *msg) {
  return K2_msbfs_graph(&o->m, on_tree ? g->tree_graph : g->csr_graph, in->sources, in->nsources, false, msg);
}

static bool check_msbfs(const alg_output *t, const alg_output *s, const bench_graph *g, const alg_input *in,
                        char *note, size_t cap) {
  GrB_Index entries;
  TRY(GrB_Matrix_nvals(&entries, s->m));
  bool ok = matrices_equal(t->m, s->m);
  snprintf(note, cap, "%s%llu distances", ok ? "" : "distances differ; ", (unsigned long long)entries);
  return ok;
}

static GrB_Info run_pagerank(alg_output *o, bool on_tree, const bench_graph *g, const alg_input *in, char *msg) {
  GrB_Info info = K2_pagerank_graph(&o->v1, &o->count, on_tree ? g->tree_graph : g->csr_graph, PR_DAMPING, PR_TOL,
                                    PR_ITERMAX, msg);
  // not converging is a result (LAGraph's), not an error: both sides must agree on it
  o->converged = (info == GrB_SUCCESS);
  return info == K2_CONVERGENCE_FAILURE ? GrB_SUCCESS : info;
}

static bool check_pagerank(const alg_output *t, const alg_output *s, const bench_graph *g, const alg_input *in,
                           char *note, size_t cap) {
  if (!t->converged || !s->converged) {
    snprintf(note, cap, "no convergence in %d iterations: k2 %s, SuiteSparse %s", PR_ITERMAX,
             t->converged ? "converged" : "did not", s->converged ? "converged" : "did not");
    return t->converged == s->converged;
  }
  double diff, max_abs;
  bool same_pattern = compare_vectors(t->v1, s->v1, &diff, &max_abs);
  snprintf(note, cap, "iterations %d / %d, max |diff| %.2e", t->count, s->count, diff);
  return same_pattern && diff <= PR_TOL;
}

static GrB_Info run_sssp(alg_output *o, bool on_tree, const bench_graph *g, const alg_input *in, char *msg) {
  return K2_sssp_hops_graph(&o->v1, on_tree ? g->tree_graph : g->csr_graph, in->sources[0], msg);
}

static bool check_exact_vector(const alg_output *t, const alg_output *s, const bench_graph *g, const alg_input *in,
                               char *note, size_t cap) {
  GrB_Index entries;
  TRY(GrB_Vector_nvals(&entries, s->v1));
  bool ok = vectors_equal(t->v1, s->v1);
  snprintf(note, cap, "%s%llu entries", ok ? "" : "results differ; ", (unsigned long long)entries);
  return ok;
}

static GrB_Info run_wcc(alg_output *o, bool on_tree, const bench_graph *g, const alg_input *in, char *msg) {
  return K2_wcc_graph(&o->v1, &o->count, on_tree ? g->tree_graph : g->csr_graph, msg);
}

static bool check_wcc(const alg_output *t, const alg_output *s, const bench_graph *g, const alg_input *in,
                      char *note, size_t cap) {
  bool ok = vectors_equal(t->v1, s->v1);
  snprintf(note, cap, "%srounds %d / %d", ok ? "" : "components differ; ", t->count, s->count);
  return ok;
}

//---------------------------------------------------------------------------------------------
// the cuSPARSE baseline (bench_cusparse.h): runs, and checks against the tree's results
//---------------------------------------------------------------------------------------------

static void *checked_malloc(size_t bytes) {
  void *p = malloc(bytes > 0 ? bytes : 1);
  if (p == NULL) fail(__LINE__, "malloc", GrB_OUT_OF_MEMORY, NULL);
  return p;
}

static bool cus_run_bfs(bench_graph *g, const alg_input *in) {
  if (g->cus_level == NULL) {
    g->cus_level = checked_malloc(g->n * sizeof(int32_t));
    g->cus_parent = checked_malloc(g->n * sizeof(int64_t));
  }
  return bc_bfs(g->cus, in->sources[0], g->cus_level, g->cus_parent, &g->cus_depth);
}

// The baseline's levels and parents as GrB_Vectors (entries where reached), for the checks
// the two libraries' results go through.
static void cus_bfs_vectors(const bench_graph *g, GrB_Vector *level, GrB_Vector *parent) {
  GrB_Index *index = checked_malloc(g->n * sizeof(GrB_Index));
  int64_t *lv = checked_malloc(g->n * sizeof(int64_t));
  int64_t *pv = checked_malloc(g->n * sizeof(int64_t));
  bool wide = bc_index_bytes(g->cus) == 8;
  GrB_Index count = 0;
  for (GrB_Index v = 0; v < g->n; v++) {
    if (g->cus_level[v] < 0) continue;
    index[count] = v;
    lv[count] = g->cus_level[v];
    pv[count] = wide ? ((const int64_t *)g->cus_parent)[v] : ((const int32_t *)g->cus_parent)[v];
    count++;
  }
  TRY(GrB_Vector_new(level, GrB_INT64, g->n));
  TRY(GrB_Vector_new(parent, GrB_INT64, g->n));
  TRY(GrB_Vector_build_INT64(*level, index, lv, count, GrB_FIRST_INT64));
  TRY(GrB_Vector_build_INT64(*parent, index, pv, count, GrB_FIRST_INT64));
  free(index);
  free(lv);
  free(pv);
}

static bool cus_check_bfs(const alg_output *t, const bench_graph *g, const alg_input *in, char *note, size_t cap) {
  GrB_Vector level = NULL, parent = NULL;
  cus_bfs_vectors(g, &level, &parent);
  char why[96] = "";
  bool ok = vectors_equal(t->v1, level);
  if (!ok) snprintf(note, cap, "levels differ");
  else if (!(ok = parents_valid(parent, level, g, in->sources[0], why, sizeof why))) snprintf(note, cap, "parents: %s", why);
  else snprintf(note, cap, "depth %d", (int)g->cus_depth);
  GrB_free(&level);
  GrB_free(&parent);
  return ok;
}

static bool cus_run_msbfs(bench_graph *g, const alg_input *in) {
  if (g->cus_dist == NULL) g->cus_dist = checked_malloc(g->n * in->nsources * sizeof(int32_t));
  return bc_msbfs(g->cus, in->sources, (uint32_t)in->nsources, g->cus_dist);
}

// Column by column against the tree's matrix (a copy of n x 16 tuples would not fit beside the
// largest graphs): the same number of entries, and each of the tree's equal in the baseline.
static bool cus_check_msbfs(const alg_output *t, const bench_graph *g, const alg_input *in, char *note, size_t cap) {
  const GrB_Index width = in->nsources, cells = g->n * width;
  GrB_Index reached = 0, tree_entries = 0;
  for (GrB_Index k = 0; k < cells; k++) reached += g->cus_dist[k] >= 0;
  TRY(GrB_Matrix_nvals(&tree_entries, t->m));
  bool ok = tree_entries == reached;
  GrB_Vector column = NULL;
  TRY(GrB_Vector_new(&column, GrB_INT32, g->n));
  GrB_Index *index = checked_malloc(g->n * sizeof(GrB_Index));
  int32_t *value = checked_malloc(g->n * sizeof(int32_t));
  for (GrB_Index b = 0; ok && b < width; b++) {
    TRY(GrB_Col_extract(column, NULL, NULL, t->m, GrB_ALL, g->n, b, NULL));
    GrB_Index count = g->n;
    TRY(GrB_Vector_extractTuples_INT32(index, value, &count, column));
    for (GrB_Index k = 0; ok && k < count; k++) ok = g->cus_dist[index[k] * width + b] == value[k];
  }
  snprintf(note, cap, "%s%llu distances", ok ? "" : "distances differ; ", (unsigned long long)reached);
  GrB_free(&column);
  free(index);
  free(value);
  return ok;
}

static bool cus_run_pagerank(bench_graph *g, const alg_input *in) {
  if (g->cus_rank == NULL) g->cus_rank = checked_malloc(g->n * sizeof(float));
  return bc_pagerank(g->cus, PR_DAMPING, PR_TOL, PR_ITERMAX, g->cus_rank, &g->cus_iterations, &g->cus_converged);
}

static bool cus_check_pagerank(const alg_output *t, const bench_graph *g, const alg_input *in, char *note,
                               size_t cap) {
  if (!t->converged || !g->cus_converged) {
    snprintf(note, cap, "no convergence in %d iterations: k2 %s, cuSPARSE %s", PR_ITERMAX,
             t->converged ? "converged" : "did not", g->cus_converged ? "converged" : "did not");
    return t->converged == g->cus_converged;
  }
  GrB_Index *index = checked_malloc(g->n * sizeof(GrB_Index));
  for (GrB_Index v = 0; v < g->n; v++) index[v] = v;
  GrB_Vector rank = NULL;
  TRY(GrB_Vector_new(&rank, GrB_FP32, g->n));
  TRY(GrB_Vector_build_FP32(rank, index, g->cus_rank, g->n, GrB_FIRST_FP32));
  double diff, max_abs;
  bool same_pattern = compare_vectors(t->v1, rank, &diff, &max_abs);
  snprintf(note, cap, "iterations %d, max |diff| %.2e", g->cus_iterations, diff);
  GrB_free(&rank);
  free(index);
  return same_pattern && diff <= PR_TOL;
}

static const cusparse_baseline cusparse_bfs = {BC_BFS, cus_run_bfs, cus_check_bfs};
static const cusparse_baseline cusparse_msbfs = {BC_MSBFS, cus_run_msbfs, cus_check_msbfs};
static const cusparse_baseline cusparse_pagerank = {BC_PAGERANK, cus_run_pagerank, cus_check_pagerank};

//==============================================================================================
// single products
//==============================================================================================

// A vector of n with `count` entries at distinct random positions (true, or values in [0, 1)).
static GrB_Vector random_vector(GrB_Index n, GrB_Index count, bool fp64, uint64_t *rng) {
  if (count > n) count = n;
  GrB_Vector u = NULL;
  TRY(GrB_Vector_new(&u, fp64 ? GrB_FP64 : GrB_BOOL, n));
  unsigned char *taken = calloc(n, 1);
  GrB_Index *index = malloc((count + 1) * sizeof(GrB_Index));
  double *value = malloc((count + 1) * sizeof(double));
  if (taken == NULL || index == NULL || value == NULL) fail(__LINE__, "malloc", GrB_OUT_OF_MEMORY, NULL);
  GrB_Index k = 0;
  if (count == n) {  // all of them (tiny graphs): no rejection loop
    for (; k < n; k++) index[k] = k;
  }
  while (k < count) {
    GrB_Index i = next_random(rng) % n;
    if (!taken[i]) {
      taken[i] = 1;
      index[k++] = i;
    }
  }
  for (k = 0; k < count; k++) value[k] = fp64 ? (double)(next_random(rng) >> 11) * 0x1p-53 : 1.0;
  TRY(GrB_Vector_build_FP64(u, index, value, count, GrB_PLUS_FP64));
  TRY(GrB_wait(u, GrB_MATERIALIZE));
  free(taken);
  free(index);
  free(value);
  return u;
}

typedef struct {
  bool left;  // vxm (u' A, along the edges) or mxv (A u)
  GrB_Semiring semiring;
  GrB_Vector u;
} product_case;

static void run_product(GrB_Vector w, const product_case *p, bool on_tree, const bench_graph *g) {
  if (p->left) {
    if (on_tree) TRY(K2_vxm(w, NULL, NULL, p->semiring, p->u, g->tree, NULL));
    else TRY(GrB_vxm(w, NULL, NULL, p->semiring, p->u, g->csr, NULL));
  } else {
    if (on_tree) TRY(K2_mxv(w, NULL, NULL, p->semiring, g->tree, p->u, NULL));
    else TRY(GrB_mxv(w, NULL, NULL, p->semiring, g->csr, p->u, NULL));
  }
  TRY(GrB_wait(w, GrB_MATERIALIZE));
}

// Seconds per product over a batch of `calls`.
static double timed_batch(GrB_Vector w, const product_case *p, bool on_tree, const bench_graph *g, int calls) {
  double t0 = now();
  for (int c = 0; c < calls; c++) run_product(w, p, on_tree, g);
  return (now() - t0) / calls;
}

// Calls per timed batch for a product of about `seconds`.
static int batch_calls(double seconds) {
  return (int)fmin(1e5, fmax(1.0, PRODUCT_BATCH_SECONDS / fmax(seconds, 1e-8)));
}

static void measure_product(bench_graph *g, bool left, bool fp64, GrB_Index entries, const char *size_name,
                            uint64_t *rng) {
  product_case p = {left, fp64 ? GrB_PLUS_TIMES_SEMIRING_FP64 : GxB_ANY_PAIR_BOOL, NULL};
  p.u = random_vector(g->n, entries, fp64, rng);
  GrB_Index u_entries;
  TRY(GrB_Vector_nvals(&u_entries, p.u));
  GrB_Vector w_tree = NULL, w_ss = NULL;
  TRY(GrB_Vector_new(&w_tree, fp64 ? GrB_FP64 : GrB_BOOL, g->n));
  TRY(GrB_Vector_new(&w_ss, fp64 ? GrB_FP64 : GrB_BOOL, g->n));

  result_row row;
  memset(&row, 0, sizeof row);
  snprintf(row.graph, sizeof row.graph, "%s", g->name);
  snprintf(row.algorithm, sizeof row.algorithm, "%s", left ? "vxm" : "mxv");
  snprintf(row.case_name, sizeof row.case_name, "%s u=%s", fp64 ? "plus_times_fp64" : "any_pair_bool", size_name);
  row.n = g->n;
  row.nvals = g->nvals;
  row.in_summary = true;

  // warm-up, the path the tree's product took, the check
  run_product(w_tree, &p, true, g);
  K2_Path path = K2_last_path();
  K2_Engine engine = K2_last_engine();
  run_product(w_ss, &p, false, g);
  double diff, max_abs;
  bool same_pattern = compare_vectors(w_tree, w_ss, &diff, &max_abs);
  row.ok = same_pattern && (fp64 ? diff <= 1e-9 * fmax(1.0, max_abs) : diff == 0);
  GrB_Index w_entries;
  TRY(GrB_Vector_nvals(&w_entries, w_ss));
  snprintf(row.note, sizeof row.note, "%su %llu, w %llu entries; %s (%s)", row.ok ? "" : "results differ; ",
           (unsigned long long)u_entries, (unsigned long long)w_entries, K2_path_name(path), K2_engine_name(engine));

  // batches of about PRODUCT_BATCH_SECONDS each, sized per side from the faster of three calls
  // (the sides can differ 1000-fold); a side stops when it has run --reps batches and
  // PRODUCT_SIDE_SECONDS, the other goes on alone
  int calls_tree = batch_calls(timed_batch(w_tree, &p, true, g, 3));
  int calls_ss = batch_calls(timed_batch(w_ss, &p, false, g, 3));
  double *t_tree = malloc(PRODUCT_MAX_BATCHES * sizeof(double));
  double *t_ss = malloc(PRODUCT_MAX_BATCHES * sizeof(double));
  if (t_tree == NULL || t_ss == NULL) fail(__LINE__, "malloc", GrB_OUT_OF_MEMORY, NULL);
  double total_tree = 0, total_ss = 0;
  int batches_tree = 0, batches_ss = 0;
  bool cut = false;
  for (;;) {
    bool tree_done = batches_tree >= PRODUCT_MAX_BATCHES ||
                     (batches_tree >= opt.reps && total_tree >= PRODUCT_SIDE_SECONDS);
    bool ss_done = batches_ss >= PRODUCT_MAX_BATCHES || (batches_ss >= opt.reps && total_ss >= PRODUCT_SIDE_SECONDS);
    if (tree_done && ss_done) break;
    if (batches_tree > 0 && batches_ss > 0 && over_budget(g)) {
      cut = true;
      break;
    }
    if (!tree_done) {
      t_tree[batches_tree] = timed_batch(w_tree, &p, true, g, calls_tree);
      total_tree += t_tree[batches_tree++] * calls_tree;
    }
    if (!ss_done) {
      t_ss[batches_ss] = timed_batch(w_ss, &p, false, g, calls_ss);
      total_ss += t_ss[batches_ss++] * calls_ss;
    }
  }
  size_t len = strlen(row.note);
  snprintf(row.note + len, sizeof row.note - len, "; batches k2 %d x %d, SS %d x %d calls%s", batches_tree,
           calls_tree, batches_ss, calls_ss, cut ? "; cut by --max-seconds" : "");
  row.reps = batches_tree < batches_ss ? batches_tree : batches_ss;
  row.k2_min = min_of(t_tree, batches_tree);
  row.ss_min = min_of(t_ss, batches_ss);
  row.k2_median = median_of(t_tree, batches_tree);
  row.ss_median = median_of(t_ss, batches_ss);
  row.ratio = row.k2_median / row.ss_median;
  record(&row);
  free(t_tree);
  free(t_ss);
  GrB_free(&w_tree);
  GrB_free(&w_ss);
  GrB_free(&p.u);
}

//==============================================================================================
// one graph, all selected algorithms
//==============================================================================================

static void bench_one_graph(bench_graph *g) {
  uint64_t rng = SEED;  // the same draws for a graph whatever else was selected
  GrB_Index random8[RANDOM_BFS_SOURCES], random16[MSBFS_SOURCES];
  random_sources(random8, RANDOM_BFS_SOURCES, g, &rng);
  random_sources(random16, MSBFS_SOURCES, g, &rng);
  GrB_Index zero = 0;

  if (listed(opt.algs, "bfs")) {
    alg_input in = {&zero, 1};
    measure_algorithm(g, "bfs", "src0", run_bfs, check_bfs, &in, true, &cusparse_bfs);
    in.sources = &g->maxdeg_vertex;
    measure_algorithm(g, "bfs", "maxdeg", run_bfs, check_bfs, &in, true, &cusparse_bfs);
    double log_tree = 0, log_tree_min = 0, log_ss = 0, log_ss_min = 0, log_cus = 0, log_cus_min = 0;
    int cus_rows = 0;
    result_row mean;
    memset(&mean, 0, sizeof mean);
    mean.ok = true;
    mean.cus = CUS_OK;
    mean.reps = opt.reps;
    for (int k = 0; k < RANDOM_BFS_SOURCES; k++) {
      char case_name[40];
      snprintf(case_name, sizeof case_name, "rand#%d", k + 1);
      in.sources = &random8[k];
      result_row r = measure_algorithm(g, "bfs", case_name, run_bfs, check_bfs, &in, false, &cusparse_bfs);
      log_tree += log(r.k2_median) / RANDOM_BFS_SOURCES;
      log_tree_min += log(r.k2_min) / RANDOM_BFS_SOURCES;
      log_ss += log(r.ss_median) / RANDOM_BFS_SOURCES;
      log_ss_min += log(r.ss_min) / RANDOM_BFS_SOURCES;
      mean.ok = mean.ok && r.ok;
      mean.reps = r.reps < mean.reps ? r.reps : mean.reps;
      if (r.cus != CUS_NONE) {
        log_cus += log(r.cus_median) / RANDOM_BFS_SOURCES;
        log_cus_min += log(r.cus_min) / RANDOM_BFS_SOURCES;
        cus_rows++;
        if (r.cus == CUS_MISMATCH) mean.cus = CUS_MISMATCH;
        mean.cus_csr_bytes = r.cus_csr_bytes;
        mean.cus_upload = r.cus_upload;
        if (r.cus_bytes > mean.cus_bytes) mean.cus_bytes = r.cus_bytes;
      }
      if (r.k2_device_peak > mean.k2_device_peak) mean.k2_device_peak = r.k2_device_peak;
    }
    snprintf(mean.graph, sizeof mean.graph, "%s", g->name);
    snprintf(mean.algorithm, sizeof mean.algorithm, "bfs");
    snprintf(mean.case_name, sizeof mean.case_name, "rand8-geomean");
    mean.n = g->n;
    mean.nvals = g->nvals;
    mean.k2_median = exp(log_tree);
    mean.k2_min = exp(log_tree_min);
    mean.ss_median = exp(log_ss);
    mean.ss_min = exp(log_ss_min);
    mean.ratio = mean.k2_median / mean.ss_median;
    if (cus_rows == RANDOM_BFS_SOURCES) {  // a geometric mean of all 8 or none
      mean.cus_median = exp(log_cus);
      mean.cus_min = exp(log_cus_min);
      mean.cus_ratio = mean.k2_median / mean.cus_median;
    } else {
      mean.cus = CUS_NONE;
      mean.cus_bytes = mean.cus_csr_bytes = 0;
    }
    mean.in_summary = true;
    snprintf(mean.note, sizeof mean.note, "geometric means of the %d rows above", RANDOM_BFS_SOURCES);
    record(&mean);
  }
  if (listed(opt.algs, "msbfs")) {
    alg_input in = {random16, MSBFS_SOURCES};
    char case_name[40];
    snprintf(case_name, sizeof case_name, "%d sources", MSBFS_SOURCES);
    measure_algorithm(g, "msbfs", case_name, run_msbfs, check_msbfs, &in, true, &cusparse_msbfs);
  }
  if (listed(opt.algs, "pr")) {
    alg_input in = {NULL, 0};
    measure_algorithm(g, "pagerank", "d0.85 tol1e-4", run_pagerank, check_pagerank, &in, true, &cusparse_pagerank);
  }
  if (listed(opt.algs, "sssp")) {
    alg_input in = {&zero, 1};
    measure_algorithm(g, "sssp_hops", "src0", run_sssp, check_exact_vector, &in, true, NULL);
  }
  if (listed(opt.algs, "wcc")) {
    alg_input in = {NULL, 0};
    measure_algorithm(g, "wcc", "-", run_wcc, check_wcc, &in, true, NULL);
  }
  if (listed(opt.algs, "products")) {
    const GrB_Index sizes[4] = {1, 10, 1000, g->n / 10 > 0 ? g->n / 10 : 1};
    const char *size_names[4] = {"1", "10", "1000", "n/10"};
    for (int left = 1; left >= 0; left--)
      for (int fp64 = 0; fp64 <= 1; fp64++)
        for (int s = 0; s < 4; s++) measure_product(g, left, fp64, sizes[s], size_names[s], &rng);
  }
  printf("   (%.1f s for this graph)\n", now() - g->start);
}

//==============================================================================================
// summary
//==============================================================================================

static void print_summary(void) {
  printf("\n== summary: ratio k2/SuiteSparse of the medians (below 1: the tree is faster)%s\n",
         opt.cusparse ? "; k2/cuSPARSE over the graphs where the baseline ran" : "");
  printf("%-10s %-24s %6s %9s  %-*s", "algorithm", "case", "graphs", "geomean", opt.cusparse ? 36 : 0,
         "worst graph (ratio)");
  if (opt.cusparse) printf(" %6s %9s  %s", "graphs", "k2/cuSP", "worst graph (ratio)");
  printf("\n");
  bool *done = calloc(result_count + 1, sizeof(bool));
  if (done == NULL) fail(__LINE__, "calloc", GrB_OUT_OF_MEMORY, NULL);
  for (size_t i = 0; i < result_count; i++) {
    if (done[i] || !results[i].in_summary) continue;
    double log_sum = 0, log_cus = 0;
    int graphs = 0, cus_graphs = 0;
    size_t worst = i, cus_worst = i;
    for (size_t j = i; j < result_count; j++) {
      if (!results[j].in_summary || strcmp(results[j].algorithm, results[i].algorithm) != 0 ||
          strcmp(results[j].case_name, results[i].case_name) != 0)
        continue;
      done[j] = true;
      log_sum += log(results[j].ratio);
      graphs++;
      if (results[j].ratio > results[worst].ratio) worst = j;
      if (results[j].cus != CUS_NONE) {
        log_cus += log(results[j].cus_ratio);
        if (cus_graphs++ == 0 || results[j].cus_ratio > results[cus_worst].cus_ratio) cus_worst = j;
      }
    }
    char worst_text[96];
    snprintf(worst_text, sizeof worst_text, "%s (%.3f)", results[worst].graph, results[worst].ratio);
    printf("%-10s %-24s %6d %9.3f  %-*s", results[i].algorithm, results[i].case_name, graphs,
           exp(log_sum / graphs), opt.cusparse ? 36 : 0, worst_text);
    if (opt.cusparse && cus_graphs > 0) {
      printf(" %6d %9.3f  %s (%.3f)", cus_graphs, exp(log_cus / cus_graphs), results[cus_worst].graph,
             results[cus_worst].cus_ratio);
    } else if (opt.cusparse) {
      printf(" %6d %9s", 0, "n/a");
    }
    printf("\n");
  }
  free(done);
  int mismatches = 0, cus_checks = 0;
  for (size_t i = 0; i < result_count; i++) {
    if (strcmp(results[i].case_name, "rand8-geomean") == 0) continue;
    if (!results[i].ok) {
      if (mismatches++ == 0) printf("\nMISMATCHES:\n");
      printf("  %s %s %s: %s\n", results[i].graph, results[i].algorithm, results[i].case_name, results[i].note);
    }
    if (results[i].cus != CUS_NONE) cus_checks++;
    if (results[i].cus == CUS_MISMATCH) {
      if (mismatches++ == 0) printf("\nMISMATCHES:\n");
      printf("  %s %s %s (cuSPARSE baseline): %s\n", results[i].graph, results[i].algorithm, results[i].case_name,
             results[i].cus_note);
    }
  }
  if (mismatches == 0) {
    printf("\nall %zu checks ok", result_count);
    if (opt.cusparse) printf(" (and %d of the cuSPARSE baseline)", cus_checks);
    printf("\n");
  }
}

//==============================================================================================
// main
//==============================================================================================

static _Noreturn void usage(const char *program) {
  fprintf(stderr,
          "usage: %s [--graphs a,b] [--no-real] [--data DIR] [--web N[,N]] [--rmat S[,S]] [--reps N]\n"
          "          [--algs bfs,msbfs,pr,sssp,wcc,products] [--csv FILE]\n"
          "          [--engine auto|openmp|cuda|reference] [--threads T] [--max-seconds S]\n"
          "          [--prune auto|never|always] [--cusparse|--no-cusparse] [--bottom-codes]\n          [--decoded-level] [--locality-order]\n",
          program);
  exit(2);
}

static bool parse_engine(const char *name, K2_Engine *engine) {
  static const struct {
    const char *name;
    K2_Engine engine;
  } engines[] = {{"auto", K2_ENGINE_AUTO}, {"openmp", K2_ENGINE_OPENMP}, {"cuda", K2_ENGINE_CUDA},
                 {"reference", K2_ENGINE_REFERENCE}};
  for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++) {
    if (strcmp(name, engines[i].name) == 0) {
      *engine = engines[i].engine;
      return true;
    }
  }
  return false;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool has_value = i + 1 < argc;
    if (!strcmp(a, "--graphs") && has_value) opt.graphs = argv[++i];
    else if (!strcmp(a, "--no-real")) opt.real = false;
    else if (!strcmp(a, "--data") && has_value) opt.data_dir = argv[++i];
    else if (!strcmp(a, "--web") && has_value) opt.web = argv[++i];
    else if (!strcmp(a, "--rmat") && has_value) opt.rmat = argv[++i];
    else if (!strcmp(a, "--reps") && has_value) opt.reps = atoi(argv[++i]);
    else if (!strcmp(a, "--algs") && has_value) opt.algs = argv[++i];
    else if (!strcmp(a, "--csv") && has_value) opt.csv_path = argv[++i];
    else if (!strcmp(a, "--engine") && has_value) opt.engine = argv[++i];
    else if (!strcmp(a, "--threads") && has_value) opt.threads = atoi(argv[++i]);
    else if (!strcmp(a, "--max-seconds") && has_value) opt.max_seconds = atof(argv[++i]);
    else if (!strcmp(a, "--prune") && has_value) opt.prune = argv[++i];
    else if (!strcmp(a, "--cusparse")) opt.cusparse = true;
    else if (!strcmp(a, "--no-cusparse")) opt.cusparse = false;
    else if (!strcmp(a, "--bottom-codes")) opt.bottom_codes = true;
    else if (!strcmp(a, "--decoded-level")) opt.decoded_level = true;
    else if (!strcmp(a, "--locality-order")) opt.locality_order = true;
    else usage(argv[0]);
  }
  if (opt.reps < 1) usage(argv[0]);
  if (opt.cusparse && !CUSPARSE_BUILT) {
    fprintf(stderr, "bench_algorithms: built without CUDA: no cuSPARSE baseline\n");
    opt.cusparse = false;
  }
  if (opt.cusparse) cusparse_device = bc_device_present(cusparse_absent, sizeof cusparse_absent);

  TRY(K2_init());
  if (opt.engine != NULL) {
    K2_Engine engine;
    if (!parse_engine(opt.engine, &engine)) usage(argv[0]);
    TRY(K2_set_engine(engine));
  }
  if (opt.prune != NULL) {
    const char *p = opt.prune;
    K2_DevicePruning mode = !strcmp(p, "never")    ? K2_PRUNING_NEVER
                            : !strcmp(p, "always") ? K2_PRUNING_ALWAYS
                            : !strcmp(p, "auto")   ? K2_PRUNING_AUTO
                                                   : (K2_DevicePruning)-1;
    if (mode == (K2_DevicePruning)-1) usage(argv[0]);
    TRY(K2_Device_setPruning(mode));
  }
  if (opt.threads > 0) {  // the same number of threads for both libraries
    omp_set_num_threads(opt.threads);
    TRY(GxB_set(GxB_NTHREADS, opt.threads));
  }
  int ss_threads = 0;
  TRY(GxB_get(GxB_NTHREADS, &ss_threads));
  K2_Engine engine;
  TRY(K2_get_engine(&engine));
  printf("bench_algorithms: engine %s, threads: k2grb (OpenMP) %d, SuiteSparse %d; reps %d%s\n",
         K2_engine_name(engine), omp_get_max_threads(), ss_threads, opt.reps,
         opt.max_seconds > 0 ? "; per-graph budget set" : "");
  if (opt.cusparse) {
    printf("bench_algorithms: cuSPARSE baseline (BFS, msBFS, PageRank): %s\n",
           cusparse_device ? "on" : cusparse_absent);
  }
  if (opt.csv_path != NULL) {
    csv = fopen(opt.csv_path, "w");
    if (csv == NULL) {
      perror(opt.csv_path);
      return 1;
    }
    fprintf(csv,
            "graph,n,nvals,algorithm,case,k2_median_ms,k2_min_ms,ss_median_ms,ss_min_ms,ratio,check,reps,note,"
            "cusparse_median_ms,cusparse_min_ms,k2_cusparse_ratio,cusparse_check,cusparse_csr_bytes,"
            "cusparse_device_bytes,cusparse_upload_ms,k2_device_peak_bytes,cusparse_note\n");
  }

  const char *dir = opt.data_dir != NULL ? opt.data_dir : k2_real_graph_dir(K2_DATA_DIR);
  for (size_t f = 0; opt.real && f < k2_real_graph_count; f++) {
    const k2_real_graph *rg = &k2_real_graph_list[f];
    if (!listed(opt.graphs, rg->name)) continue;
    K2_Edges E;
    memset(&E, 0, sizeof E);
    GrB_Info info = k2_real_graph_read(&E, dir, rg);
    if (info == GrB_NO_VALUE) {
      printf("\n== %s: not in %s, skipped\n", rg->name, dir);
      continue;
    }
    if (info != GrB_SUCCESS) fail(__LINE__, rg->name, info, NULL);
    bench_graph g;
    if (make_graph(&g, &E, rg->name)) bench_one_graph(&g);
    free_graph(&g);
  }
  if (opt.graphs != NULL) {  // a name that matches no listed graph is a typo worth saying
    for (const char *p = opt.graphs; *p;) {
      const char *end = strchr(p, ',');
      size_t len = end ? (size_t)(end - p) : strlen(p);
      bool known = false;
      for (size_t f = 0; f < k2_real_graph_count; f++)
        known = known || (strlen(k2_real_graph_list[f].name) == len && !strncmp(k2_real_graph_list[f].name, p, len));
      if (!known) fprintf(stderr, "bench_algorithms: no real graph named '%.*s'\n", (int)len, p);
      if (end == NULL) break;
      p = end + 1;
    }
  }
  char list[256];
  snprintf(list, sizeof list, "%s", opt.web ? opt.web : "");
  for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
    GrB_Index pages = (GrB_Index)strtod(tok, NULL);
    K2_WebParams params;
    K2_WebParams_default(&params);
    K2_Edges E;
    memset(&E, 0, sizeof E);
    TRY(K2_Gen_web(&E, pages, &params));
    char name[64];
    snprintf(name, sizeof name, "web-%llu", (unsigned long long)pages);
    bench_graph g;
    if (make_graph(&g, &E, name)) bench_one_graph(&g);
    free_graph(&g);
  }
  snprintf(list, sizeof list, "%s", opt.rmat ? opt.rmat : "");
  for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
    uint32_t scale = (uint32_t)atoi(tok);
    K2_RmatParams params;
    K2_RmatParams_default(&params, scale);
    K2_Edges E;
    memset(&E, 0, sizeof E);
    TRY(K2_Gen_rmat(&E, &params));
    char name[64];
    snprintf(name, sizeof name, "rmat-%u", scale);
    bench_graph g;
    if (make_graph(&g, &E, name)) bench_one_graph(&g);
    free_graph(&g);
  }

  print_summary();
  bool any_mismatch = false;
  for (size_t i = 0; i < result_count; i++) {
    any_mismatch = any_mismatch || !results[i].ok || results[i].cus == CUS_MISMATCH;
  }
  free(results);
  if (csv != NULL) fclose(csv);
  TRY(K2_finalize());
  return any_mismatch ? 3 : 0;
}
