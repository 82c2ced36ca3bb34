// bench_core.c: construction rate, sizes and CPU product times against SuiteSparse:GraphBLAS.
// SPDX-License-Identifier: Apache-2.0
//
// usage: bench_core [--reps N] [--csv FILE] [--no-ref] [--compress-leaves] [--full-blocks] GRAPH...
//   GRAPH: a graph file (any format K2_Edges_read takes, e.g. ../shared/data/cnr-2000/cnr-2000)
//          or a generator: rmat:SCALE[:EDGEFACTOR][:perm], web:NODES, grid:ROWS:COLS,
//          uniform:NODES:EDGES
// For each graph: build time and rate (edges/s, on all OpenMP threads), peak extra memory of
// the build (VmHWM above the resident size before, reset through /proc/self/clear_refs),
// sizes by part against a CSR with FP32 values and a Boolean CSR, bits per edge, and the median
// time of right (y = A x) and left (y' = x' A) plus-times FP32 products of the OpenMP and
// reference engines next to SuiteSparse's GrB_mxv (PLUS_SECOND) and GrB_vxm (PLUS_FIRST) on the
// same pattern held as an iso Boolean GrB_Matrix, with their ratios; then the OpenMP engine on
// the same matrix built with its bottom codes cached (k²+B, columns "k2+B R" and "k2+B L").
// --compress-leaves: also the matrix with compressed 4x4 leaves (K2_Format.compress_leaves),
// timed in the same rounds: its build rate, bits per edge and OpenMP products ("CL" columns;
// ratios against the plain tree's).
// --full-blocks: also the matrix with full blocks (K2_Format.full_blocks, 2x2 leaves), timed in
// the same rounds ("FB" columns, as the CL ones); its right product joins the agreement check.
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <k2grb.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// Resident and peak resident memory (kB) from /proc/self/status.
static long proc_kb(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  if (f == NULL) return -1;
  char line[256];
  long v = -1;
  size_t n = strlen(key);
  while (fgets(line, sizeof line, f))
    if (strncmp(line, key, n) == 0) {
      v = atol(line + n + 1);
      break;
    }
  fclose(f);
  return v;
}

static void reset_peak(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (f) {
    fputs("5", f);
    fclose(f);
  }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof(double), cmp_double);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

#define CHECK(call)                                                                     \
  do {                                                                                  \
    GrB_Info info_ = (call);                                                            \
    if (info_ != GrB_SUCCESS) {                                                         \
      fprintf(stderr, "%s:%d: %s failed (%d): %s\n", __FILE__, __LINE__, #call, info_,  \
              K2_error_string());                                                       \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

static GrB_Info load_graph(K2_Edges *E, const char *spec, char *name, size_t cap) {
  memset(E, 0, sizeof *E);
  unsigned a = 0, b = 0;
  unsigned long long n = 0, m = 0;
  if (sscanf(spec, "rmat:%u", &a) == 1) {
    K2_RmatParams p;
    K2_RmatParams_default(&p, a);
    double ef = 16;
    const char *c = strchr(spec + 5, ':');
    if (c && sscanf(c + 1, "%lf", &ef) == 1) p.edge_factor = ef;
    p.permute = strstr(spec, "perm") != NULL;
    snprintf(name, cap, "rmat%u%s", a, p.permute ? "p" : "");
    return K2_Gen_rmat(E, &p);
  }
  if (sscanf(spec, "web:%llu", &n) == 1) {
    K2_WebParams p;
    K2_WebParams_default(&p);
    snprintf(name, cap, "web%llu", n);
    return K2_Gen_web(E, n, &p);
  }
  if (sscanf(spec, "grid:%u:%u", &a, &b) == 2) {
    snprintf(name, cap, "grid%ux%u", a, b);
    return K2_Gen_grid2d(E, a, b);
  }
  if (sscanf(spec, "uniform:%llu:%llu", &n, &m) == 2) {
    snprintf(name, cap, "uniform%llu", n);
    return K2_Gen_uniform(E, n, m, 42);
  }
  const char *base = strrchr(spec, '/');
  snprintf(name, cap, "%s", base ? base + 1 : spec);
  return K2_Edges_read(E, spec, NULL);
}

int main(int argc, char **argv) {
  int reps = 11;
  bool run_ref = true, leaf_codes = false, full_blocks = false;
  const char *csv_path = NULL;
  int first = 1;
  for (; first < argc && argv[first][0] == '-'; first++) {
    if (strcmp(argv[first], "--reps") == 0 && first + 1 < argc) reps = atoi(argv[++first]);
    else if (strcmp(argv[first], "--csv") == 0 && first + 1 < argc) csv_path = argv[++first];
    else if (strcmp(argv[first], "--no-ref") == 0) run_ref = false;
    else if (strcmp(argv[first], "--compress-leaves") == 0) leaf_codes = true;
    else if (strcmp(argv[first], "--full-blocks") == 0) full_blocks = true;
    else {
      fprintf(stderr, "usage: %s [--reps N] [--csv FILE] [--no-ref] GRAPH...\n", argv[0]);
      return 2;
    }
  }
  if (first == argc) {
    fprintf(stderr, "usage: %s [--reps N] [--csv FILE] [--no-ref] GRAPH...\n", argv[0]);
    return 2;
  }
  if (reps < 1) reps = 1;
  CHECK(K2_init());
  FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
  if (csv)
    fprintf(csv, "graph,nodes,edges,build_s,build_medges_per_s,build_peak_extra_bytes,coo_bytes,"
                 "tree_bytes,dir_bytes,top_bytes,bottom_bytes,csr_fp32_bytes,bcsr_bytes,"
                 "bits_per_edge,omp_right_ms,grb_mxv_ms,omp_left_ms,grb_vxm_ms,ref_right_ms,"
                 "ref_left_ms,right_ratio,left_ratio,max_rel_diff,ompF_right_ms,ompF_left_ms,"
                 "ompF_right_ratio,ompF_left_ratio\n");
  printf("%-22s %10s %11s %8s %8s %6s %10s %10s %6s | %9s %9s %6s | %9s %9s %6s | %9s | %9s %6s %9s %6s",
         "graph", "nodes", "edges", "build s", "Medge/s", "peak/C", "tree B", "bCSR B", "b/e",
         "omp R ms", "grb mxv", "ratio", "omp L ms", "grb vxm", "ratio", "ref R ms", "k2+B R",
         "ratio", "k2+B L", "ratio");
  if (leaf_codes)
    printf(" | %8s %6s %9s %6s %9s %6s", "CL Me/s", "CL b/e", "CL R ms", "/plain", "CL L ms", "/plain");
  if (full_blocks)
    printf(" | %8s %6s %9s %6s %9s %6s", "FB Me/s", "FB b/e", "FB R ms", "/plain", "FB L ms", "/plain");
  printf("\n");
  for (int g = first; g < argc; g++) {
    K2_Edges E;
    char name[128];
    GrB_Info info = load_graph(&E, argv[g], name, sizeof name);
    if (info != GrB_SUCCESS) {
      fprintf(stderr, "%s: %s\n", argv[g], K2_error_string());
      continue;
    }
    GrB_Index n = E.nrows > E.ncols ? E.nrows : E.ncols;
    // ---- construction
    K2_Matrix A = NULL;
    CHECK(K2_Matrix_new(&A, E.nrows, E.ncols));
    long rss0 = proc_kb("VmRSS:");
    reset_peak();
    double t0 = now();
    CHECK(K2_Matrix_build_32(A, E.I, E.J, E.nvals));
    double tbuild = now() - t0;
    long hwm = proc_kb("VmHWM:");
    double peak_extra = (double)(hwm - rss0) * 1024.0;
    double coo_bytes = (double)E.nvals * 8.0;
    K2_MemoryUsage u;
    CHECK(K2_Matrix_memoryUsage(&u, A));
    GrB_Index nv;
    CHECK(K2_Matrix_nvals(&nv, A));
    uint64_t csr = K2_csr_bytes(E.nrows, nv, true), bcsr = K2_csr_bytes(E.nrows, nv, false);
    double bpe = nv ? 8.0 * (double)(u.tree + u.directory + u.top) / (double)nv : 0;

    // ---- the same pattern in SuiteSparse: iso Boolean, by row
    GrB_Matrix G = NULL;
    CHECK(GrB_Matrix_new(&G, GrB_BOOL, E.nrows, E.ncols));
    {
      GrB_Index *I = malloc(E.nvals * sizeof(GrB_Index)), *J = malloc(E.nvals * sizeof(GrB_Index));
      for (GrB_Index k = 0; k < E.nvals; k++) {
        I[k] = E.I[k];
        J[k] = E.J[k];
      }
      GrB_Scalar one = NULL;
      CHECK(GrB_Scalar_new(&one, GrB_BOOL));
      CHECK(GrB_Scalar_setElement_BOOL(one, true));
      CHECK(GxB_Matrix_build_Scalar(G, I, J, one, E.nvals));
      CHECK(GrB_wait(G, GrB_MATERIALIZE));
      GrB_Scalar_free(&one);
      free(I);
      free(J);
    }
    // the same matrix with its bottom codes cached (k²+B: the OpenMP engine skips the descent)
    K2_Matrix Af = NULL;
    {
      K2_Format fmt;
      K2_Format_default(&fmt);
      fmt.cache_bottom_codes = true;
      CHECK(K2_Matrix_new_format(&Af, E.nrows, E.ncols, &fmt));
      CHECK(K2_Matrix_build_32(Af, E.I, E.J, E.nvals));
    }
    // compressed 4x4 leaves (--compress-leaves), its build timed as the plain tree's
    K2_Matrix Ac = NULL;
    double cl_build = NAN, cl_bpe = NAN;
    if (leaf_codes) {
      K2_Format fmt;
      K2_Format_default(&fmt);
      fmt.leaf_log = 2;
      fmt.compress_leaves = true;
      CHECK(K2_Matrix_new_format(&Ac, E.nrows, E.ncols, &fmt));
      t0 = now();
      CHECK(K2_Matrix_build_32(Ac, E.I, E.J, E.nvals));
      cl_build = now() - t0;
      K2_MemoryUsage uc;
      CHECK(K2_Matrix_memoryUsage(&uc, Ac));
      cl_bpe = nv ? 8.0 * (double)(uc.tree + uc.directory + uc.top) / (double)nv : 0;
    }
    // full blocks (--full-blocks), its build timed as the plain tree's
    K2_Matrix Ab = NULL;
    double fb_build = NAN, fb_bpe = NAN;
    if (full_blocks) {
      K2_Format fmt;
      K2_Format_default(&fmt);
      fmt.full_blocks = true;
      CHECK(K2_Matrix_new_format(&Ab, E.nrows, E.ncols, &fmt));
      t0 = now();
      CHECK(K2_Matrix_build_32(Ab, E.I, E.J, E.nvals));
      fb_build = now() - t0;
      K2_MemoryUsage ub;
      CHECK(K2_Matrix_memoryUsage(&ub, Ab));
      fb_bpe = nv ? 8.0 * (double)(ub.tree + ub.directory + ub.top) / (double)nv : 0;
    }
    GrB_Index nrows = E.nrows, ncols = E.ncols;
    K2_Edges_free(&E);

    // ---- vectors
    float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
    float *yr = malloc(n * sizeof(float)), *yb = malloc(n * sizeof(float));
    for (GrB_Index i = 0; i < n; i++) x[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
    GrB_Vector xr = NULL, xc = NULL, w = NULL;
    CHECK(GrB_Vector_new(&xc, GrB_FP32, ncols));
    CHECK(GrB_Vector_new(&xr, GrB_FP32, nrows));
    CHECK(GrB_Vector_new(&w, GrB_FP32, n));
    for (GrB_Index i = 0; i < ncols; i++) CHECK(GrB_Vector_setElement_FP32(xc, x[i], i));
    for (GrB_Index i = 0; i < nrows; i++) CHECK(GrB_Vector_setElement_FP32(xr, x[i], i));
    CHECK(GrB_wait(xc, GrB_MATERIALIZE));
    CHECK(GrB_wait(xr, GrB_MATERIALIZE));

    double *ta = malloc((size_t)reps * sizeof(double));
    double omp_r, omp_l, grb_r, grb_l, ref_r = NAN, ref_l = NAN;
    // interleave the engines rep by rep so that noise hits both alike
    double *tb = malloc((size_t)reps * sizeof(double)), *tc = malloc((size_t)reps * sizeof(double));
    double *td = malloc((size_t)reps * sizeof(double)), *te = malloc((size_t)reps * sizeof(double));
    double ompf_r, ompf_l, cl_r = NAN, cl_l = NAN, fb_r = NAN, fb_l = NAN;
    CHECK(K2_set_engine(K2_ENGINE_OPENMP));
    for (int r = 0; r < reps; r++) {
      GrB_Vector_free(&w);
      CHECK(GrB_Vector_new(&w, GrB_FP32, nrows));
      t0 = now();
      CHECK(GrB_mxv(w, NULL, NULL, GxB_PLUS_SECOND_FP32, G, xc, NULL));
      CHECK(GrB_wait(w, GrB_MATERIALIZE));
      tb[r] = now() - t0;
      t0 = now();
      CHECK(K2_dense_mxv(yr, Af, x, K2_PLUS_TIMES, GrB_FP32));
      tc[r] = now() - t0;
      t0 = now();
      CHECK(K2_dense_mxv(y, A, x, K2_PLUS_TIMES, GrB_FP32));
      ta[r] = now() - t0;
      if (Ac != NULL) {
        t0 = now();
        CHECK(K2_dense_mxv(yr, Ac, x, K2_PLUS_TIMES, GrB_FP32));
        td[r] = now() - t0;
      }
      if (Ab != NULL) {
        t0 = now();
        CHECK(K2_dense_mxv(yb, Ab, x, K2_PLUS_TIMES, GrB_FP32));
        te[r] = now() - t0;
      }
    }
    if (Ac != NULL) cl_r = median(td, reps);
    if (Ab != NULL) fb_r = median(te, reps);
    omp_r = median(ta, reps);
    ompf_r = median(tc, reps);
    grb_r = median(tb, reps);
    // agreement of the right product with SuiteSparse
    double maxrel = 0;
    for (GrB_Index i = 0; i < nrows; i++) {
      float v = 0;
      if (GrB_Vector_extractElement_FP32(&v, w, i) != GrB_SUCCESS) v = 0;
      double d = fabs((double)v - (double)y[i]) / fmax(1e-30, fmax(fabs((double)v), 1.0));
      if (d > maxrel) maxrel = d;
      d = fabs((double)v - (double)yr[i]) / fmax(1e-30, fmax(fabs((double)v), 1.0));
      if (d > maxrel) maxrel = d;
      if (Ab != NULL) {
        d = fabs((double)v - (double)yb[i]) / fmax(1e-30, fmax(fabs((double)v), 1.0));
        if (d > maxrel) maxrel = d;
      }
    }
    for (int r = 0; r < reps; r++) {
      GrB_Vector_free(&w);
      CHECK(GrB_Vector_new(&w, GrB_FP32, ncols));
      t0 = now();
      CHECK(GrB_vxm(w, NULL, NULL, GxB_PLUS_FIRST_FP32, xr, G, NULL));
      CHECK(GrB_wait(w, GrB_MATERIALIZE));
      tb[r] = now() - t0;
      t0 = now();
      CHECK(K2_dense_vxm(yr, x, Af, K2_PLUS_TIMES, GrB_FP32));
      tc[r] = now() - t0;
      t0 = now();
      CHECK(K2_dense_vxm(y, x, A, K2_PLUS_TIMES, GrB_FP32));
      ta[r] = now() - t0;
      if (Ac != NULL) {
        t0 = now();
        CHECK(K2_dense_vxm(yr, x, Ac, K2_PLUS_TIMES, GrB_FP32));
        td[r] = now() - t0;
      }
      if (Ab != NULL) {
        t0 = now();
        CHECK(K2_dense_vxm(yb, x, Ab, K2_PLUS_TIMES, GrB_FP32));
        te[r] = now() - t0;
      }
    }
    if (Ac != NULL) cl_l = median(td, reps);
    if (Ab != NULL) fb_l = median(te, reps);
    omp_l = median(ta, reps);
    ompf_l = median(tc, reps);
    grb_l = median(tb, reps);
    if (run_ref) {
      CHECK(K2_set_engine(K2_ENGINE_REFERENCE));
      t0 = now();
      CHECK(K2_dense_mxv(yr, A, x, K2_PLUS_TIMES, GrB_FP32));
      ref_r = now() - t0;
      t0 = now();
      CHECK(K2_dense_vxm(yr, x, A, K2_PLUS_TIMES, GrB_FP32));
      ref_l = now() - t0;
    }
    CHECK(K2_set_engine(K2_ENGINE_AUTO));
    printf("%-22s %10llu %11llu %8.3f %8.2f %6.2f %10llu %10llu %6.2f | %9.3f %9.3f %6.2f | %9.3f %9.3f "
           "%6.2f | %9.1f | %9.3f %6.2f %9.3f %6.2f",
           name, (unsigned long long)n, (unsigned long long)nv, tbuild, (double)nv / tbuild / 1e6,
           peak_extra / coo_bytes, (unsigned long long)(u.tree + u.directory + u.top),
           (unsigned long long)bcsr, bpe, 1e3 * omp_r, 1e3 * grb_r, omp_r / grb_r, 1e3 * omp_l,
           1e3 * grb_l, omp_l / grb_l, 1e3 * ref_r, 1e3 * ompf_r, ompf_r / grb_r, 1e3 * ompf_l,
           ompf_l / grb_l);
    if (Ac != NULL)
      printf(" | %8.2f %6.2f %9.3f %6.2f %9.3f %6.2f", (double)nv / cl_build / 1e6, cl_bpe,
             1e3 * cl_r, cl_r / omp_r, 1e3 * cl_l, cl_l / omp_l);
    if (Ab != NULL)
      printf(" | %8.2f %6.2f %9.3f %6.2f %9.3f %6.2f", (double)nv / fb_build / 1e6, fb_bpe,
             1e3 * fb_r, fb_r / omp_r, 1e3 * fb_l, fb_l / omp_l);
    printf("\n");
    if (csv)
      fprintf(csv, "%s,%llu,%llu,%.4f,%.3f,%.0f,%.0f,%llu,%llu,%llu,%llu,%llu,%llu,%.3f,%.4f,%.4f,%.4f,%.4f,"
                   "%.3f,%.3f,%.3f,%.3f,%.2e,%.4f,%.4f,%.3f,%.3f\n",
              name, (unsigned long long)n, (unsigned long long)nv, tbuild, (double)nv / tbuild / 1e6,
              peak_extra, coo_bytes, (unsigned long long)u.tree, (unsigned long long)u.directory,
              (unsigned long long)u.top, (unsigned long long)u.bottom_codes, (unsigned long long)csr,
              (unsigned long long)bcsr, bpe, 1e3 * omp_r, 1e3 * grb_r, 1e3 * omp_l, 1e3 * grb_l,
              1e3 * ref_r, 1e3 * ref_l, omp_r / grb_r, omp_l / grb_l, maxrel, 1e3 * ompf_r,
              1e3 * ompf_l, ompf_r / grb_r, ompf_l / grb_l);
    fflush(stdout);
    free(ta);
    free(tb);
    free(tc);
    free(td);
    free(te);
    K2_Matrix_free(&Af);
    K2_Matrix_free(&Ac);
    K2_Matrix_free(&Ab);
    free(x);
    free(y);
    free(yr);
    free(yb);
    GrB_Vector_free(&xr);
    GrB_Vector_free(&xc);
    GrB_Vector_free(&w);
    GrB_Matrix_free(&G);
    K2_Matrix_free(&A);
  }
  if (csv) fclose(csv);
  K2_finalize();
  return 0;
}
