// bench_bridge.c: what the GraphBLAS bridge adds to a product.
// SPDX-License-Identifier: Apache-2.0
//
// For each graph: the bare engine product (K2_dense_mxv, plain arrays) against K2_mxv on a
// full FP32 GrB_Vector with no mask (the target: at most 5% more), then the PageRank step
// (accum), a sparse u, a BFS-pull masked product (complemented structural mask, replace), vxm,
// and SuiteSparse's GrB_mxv on the materialized matrix for scale. Then the same cases again
// with the per-step profile on (K2_Profile, experimental.h): the microseconds of each step of
// the bridge and the engine in the fastest profiled call, next to the unprofiled time and the
// bare engine's. With a GPU,
// first the tree's upload rate (K2_Matrix_upload, the CUDA context made beforehand) and the
// pinned host-device copy rates.
// Graphs: R-MAT scale 20 (edge factor 16) and an R-MAT of cnr-2000's size (scale 18, edge
// factor 12); --graph reads any graph file (e.g. ../shared/data/cnr-2000/cnr-2000). Best of
// --reps runs (robust on a shared machine). --engine picks the engine (as K2GRB_ENGINE does).
//
//   bench_bridge [--graph FILE | --scale S --ef E] [--reps N] [--engine auto|cpu|reference|cuda]
#include <k2grb.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <omp.h>

#include "cuda/k2_cuda_testing.h"  // k2_cuda_copy_rate

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// R-MAT (a, b, c, d) = (0.57, 0.19, 0.19, 0.05), duplicates merged by the build.
static K2_Matrix rmat(int scale, int ef) {
  uint64_t n = 1ull << scale, m = n * (uint64_t)ef;
  uint32_t *I = malloc(m * sizeof(uint32_t)), *J = malloc(m * sizeof(uint32_t));
  for (uint64_t e = 0; e < m; e++) {
    uint32_t i = 0, j = 0;
    for (int l = 0; l < scale; l++) {
      uint64_t r = rng() % 100;
      int q = r < 57 ? 0 : r < 76 ? 1 : r < 95 ? 2 : 3;
      i = (i << 1) | (uint32_t)(q >> 1);
      j = (j << 1) | (uint32_t)(q & 1);
    }
    I[e] = i;
    J[e] = j;
  }
  K2_Matrix A = NULL;
  if (K2_Matrix_new(&A, n, n) != GrB_SUCCESS || K2_Matrix_build_32(A, I, J, m) != GrB_SUCCESS) {
    fprintf(stderr, "build failed: %s\n", K2_error_string());
    exit(1);
  }
  free(I);
  free(J);
  return A;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#define TIME(label, reps, stmt)                                       \
  ({                                                                  \
    double t_[64];                                                    \
    stmt; /* warm-up */                                               \
    for (int r_ = 0; r_ < (reps); r_++) {                             \
      double t0_ = now();                                             \
      stmt;                                                           \
      t_[r_] = now() - t0_;                                           \
    }                                                                 \
    qsort(t_, (size_t)(reps), sizeof(double), cmp);                   \
    t_[0]; /* best of reps: robust on a shared machine */            \
  })

// Best of reps for two statements run alternately, so load changes hit both alike.
#define TIME2(ta, tb, reps, sa, sb)                                   \
  do {                                                                \
    sa;                                                               \
    sb;                                                               \
    ta = tb = 1e30;                                                   \
    for (int r_ = 0; r_ < (reps); r_++) {                             \
      double t0_ = now();                                             \
      sa;                                                             \
      double t1_ = now();                                             \
      sb;                                                             \
      double t2_ = now();                                             \
      if (t1_ - t0_ < ta) ta = t1_ - t0_;                             \
      if (t2_ - t1_ < tb) tb = t2_ - t1_;                             \
    }                                                                 \
  } while (0)

#define CHECK(call)                                                              \
  do {                                                                           \
    GrB_Info i_ = (call);                                                        \
    if (i_ != GrB_SUCCESS) {                                                     \
      fprintf(stderr, "%s failed: %d %s\n", #call, (int)i_, K2_error_string());  \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

// With a GPU: the tree's upload rate (best of 3, after the CUDA context exists) and the pinned
// copy rates for a vector of n FP32 values and for 64 MiB. Leaves A on the device.
static void bench_device(K2_Matrix A, GrB_Index n) {
  bool present = false;
  CHECK(K2_Device_available(&present));  // makes the CUDA context: not part of an upload
  if (!present) {
    printf("  %-52s\n", "no GPU: upload and copy rates skipped");
    return;
  }
  K2_DeviceBytes b;
  CHECK(K2_Matrix_deviceBytes(&b, A, K2_DEVICE_AUTO, GrB_FP32, 1, false, 0));
  double best = 1e30;
  for (int r = 0; r < 3; r++) {
    CHECK(K2_Matrix_deviceRelease(A));
    double t0 = now();
    CHECK(K2_Matrix_upload(A, K2_DEVICE_AUTO));
    t0 = now() - t0;
    if (t0 < best) best = t0;
  }
  printf("  %-52s %9.3f ms  %.1f MB, %.2f GB/s\n", "tree upload (K2_Matrix_upload, best of 3)",
         1e3 * best, 1e-6 * (double)b.matrix, 1e-9 * (double)b.matrix / best);
  const uint64_t sizes[2] = {n * sizeof(float), UINT64_C(64) << 20};
  for (int k = 0; k < 2; k++) {
    double up = 0, down = 0;
    if (k2_cuda_copy_rate(sizes[k], 5, &up, &down) != 0) {
      printf("  pinned copy rate: not measured (%s)\n", K2_error_string());
      return;
    }
    char label[64];
    snprintf(label, sizeof label, "pinned copies of %.1f MB (best of 5)", 1e-6 * (double)sizes[k]);
    printf("  %-52s up %.2f GB/s, down %.2f GB/s\n", label, 1e-9 * up, 1e-9 * down);
  }
}

// The per-step profile of the fastest of `reps` runs of stmt into *p_ (profiling on only around
// each; the fastest, as the timings above take the best: robust on a shared machine), and the
// engine that served the last one (SuiteSparse for a fallback).
#define PROFILE(p_, engine_, reps, stmt)                             \
  do {                                                                \
    for (int r_ = 0; r_ < (reps); r_++) {                             \
      K2_Profile q_;                                                  \
      CHECK(K2_Profile_reset());                                      \
      CHECK(K2_Profile_enable(true));                                 \
      stmt;                                                           \
      CHECK(K2_Profile_enable(false));                                \
      CHECK(K2_Profile_get(&q_));                                     \
      if (r_ == 0 || q_.total < (p_)->total) *(p_) = q_;              \
    }                                                                 \
    engine_ = K2_last_path() == K2_PATH_FALLBACK                      \
                  ? "suitesparse"                                     \
                  : K2_engine_name(K2_last_engine());                 \
  } while (0)

// The profiles side by side: a column per case, a row per step, microseconds per call.
static void print_profile(int ncase, const char *const label[], const K2_Profile p[],
                          const double unprofiled[], const double bare[], const char *const engine[]) {
  printf("\n  per-step profile of the fastest profiled call, us\n  %-12s", "step");
  for (int c = 0; c < ncase; c++) printf(" %10s", label[c]);
  printf("\n");
  for (int s = 0; s <= K2_PROFILE_STEPS; s++) {
    printf("  %-12s", s < K2_PROFILE_STEPS ? K2_Profile_stepName((K2_ProfileStep)s) : "total");
    for (int c = 0; c < ncase; c++) {
      printf(" %10.1f", 1e6 * (s < K2_PROFILE_STEPS ? p[c].seconds[s] : p[c].total));
    }
    printf("\n");
  }
  printf("  %-12s", "kernel (GPU)");
  for (int c = 0; c < ncase; c++) {
    if (p[c].device_calls == 0) printf(" %10s", "-");
    else printf(" %10.1f", 1e6 * p[c].kernel_device);
  }
  printf("\n  %-12s", "unprofiled");
  for (int c = 0; c < ncase; c++) printf(" %10.1f", 1e6 * unprofiled[c]);
  printf("\n  %-12s", "bare engine");
  for (int c = 0; c < ncase; c++) {
    if (bare[c] > 0) printf(" %10.1f", 1e6 * bare[c]);
    else printf(" %10s", "-");
  }
  printf("\n  %-12s", "engine");
  for (int c = 0; c < ncase; c++) printf(" %10s", engine[c]);
  printf("\n  kernel (GPU): the device's own time of the kernels (CUDA events), part of kernel;\n"
         "  unprofiled: best of the timed runs above (bfs-pull with the frontier's reset, pr-step with the\n"
         "  teleport assigned first, both GraphBLAS calls outside the profile);\n"
         "  bare engine: K2_dense_mxv (K2_dense_vxm for vxm) on plain arrays, best of the runs above\n");
}

static void bench_graph(const char *name, K2_Matrix A, int reps) {
  GrB_Index n, nv;
  CHECK(K2_Matrix_nrows(&n, A));
  CHECK(K2_Matrix_nvals(&nv, A));
  K2_Engine engine = K2_ENGINE_AUTO;
  CHECK(K2_get_engine(&engine));
  printf("\n%s: %llu nodes, %llu edges, %d threads, best of %d, engine %s\n", name,
         (unsigned long long)n, (unsigned long long)nv, omp_get_max_threads(), reps,
         K2_engine_name(engine));
  bench_device(A, n);
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  GrB_Vector u = NULL, w = NULL, us = NULL, mask = NULL, wb = NULL, ub = NULL;
  CHECK(GrB_Vector_new(&u, GrB_FP32, n));
  CHECK(GrB_Vector_new(&w, GrB_FP32, n));
  for (GrB_Index i = 0; i < n; i++) x[i] = (float)(i % 7) * 0.25f + 0.5f;
  {
    GrB_Index *I = malloc(n * sizeof(GrB_Index));
    for (GrB_Index i = 0; i < n; i++) I[i] = i;
    CHECK(GrB_Vector_build_FP32(u, I, x, n, GrB_FIRST_FP32));
    free(I);
  }
  CHECK(GrB_Vector_wait(u, GrB_MATERIALIZE));
  // sparse u: 1% of the entries; BFS pull: half the nodes visited
  CHECK(GrB_Vector_new(&us, GrB_FP32, n));
  CHECK(GrB_Vector_new(&mask, GrB_BOOL, n));
  CHECK(GrB_Vector_new(&ub, GrB_BOOL, n));
  for (GrB_Index i = 0; i < n; i++) {
    if (rng() % 100 == 0) CHECK(GrB_Vector_setElement_FP32(us, 1.0f, i));
    if (rng() % 2 == 0) CHECK(GrB_Vector_setElement_BOOL(mask, true, i));
    if (rng() % 20 == 0) CHECK(GrB_Vector_setElement_BOOL(ub, true, i));
  }
  CHECK(GrB_Vector_wait(us, GrB_MATERIALIZE));
  CHECK(GrB_Vector_wait(mask, GrB_MATERIALIZE));
  CHECK(GrB_Vector_wait(ub, GrB_MATERIALIZE));
  GrB_Semiring plus_second = NULL, any_one = NULL;
  CHECK(GrB_Semiring_new(&plus_second, GrB_PLUS_MONOID_FP32, GrB_SECOND_FP32));
  CHECK(GrB_Semiring_new(&any_one, GrB_LOR_MONOID_BOOL, GrB_ONEB_BOOL));

  double bare, t1, bare2, t2;
  TIME2(bare, t1, reps, CHECK(K2_dense_mxv(y, A, x, K2_PLUS_TIMES, GrB_FP32)),
        CHECK(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, NULL)));
  TIME2(bare2, t2, reps, CHECK(K2_dense_mxv(y, A, x, K2_PLUS_TIMES, GrB_FP32)),
        CHECK(K2_mxv(w, NULL, NULL, plus_second, A, u, NULL)));
  if (bare2 < bare) bare = bare2;
  printf("  %-52s %9.3f ms\n", "bare engine  K2_dense_mxv PLUS_TIMES FP32", 1e3 * bare);
  printf("  %-52s %9.3f ms  overhead %+.1f%%\n", "K2_mxv PLUS_TIMES_FP32, full u, no mask", 1e3 * t1,
         100 * (t1 - bare) / bare);
  printf("  %-52s %9.3f ms  overhead %+.1f%%\n", "K2_mxv PLUS_SECOND_FP32 (LAGraph), full u", 1e3 * t2,
         100 * (t2 - bare) / bare);
  // PageRank step: r = teleport, r += A * w (accum)
  CHECK(GrB_Vector_assign_FP32(w, NULL, NULL, 0.1f, GrB_ALL, n, NULL));
  double t3 = TIME("pr", reps, ({
    CHECK(GrB_Vector_assign_FP32(w, NULL, NULL, 0.1f, GrB_ALL, n, NULL));
    CHECK(K2_mxv(w, NULL, GrB_PLUS_FP32, plus_second, A, u, NULL));
  }));
  printf("  %-52s %9.3f ms\n", "K2_mxv PLUS_SECOND + accum PLUS (PageRank step)", 1e3 * t3);
  double t4 = TIME("sparse", reps, CHECK(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, us, NULL)));
  printf("  %-52s %9.3f ms\n", "K2_mxv PLUS_TIMES_FP32, u 1% sparse", 1e3 * t4);
  CHECK(GrB_Vector_new(&wb, GrB_BOOL, n));
  double t5 = TIME("pull", reps, ({
    CHECK(GrB_Vector_assign(wb, NULL, NULL, ub, GrB_ALL, n, NULL));
    CHECK(K2_mxv(wb, mask, NULL, any_one, A, wb, GrB_DESC_RSC));
  }));
  printf("  %-52s %9.3f ms\n", "K2_mxv LOR_ONEB, RSC mask (BFS pull), 5% frontier", 1e3 * t5);
  double t6, bare_l;
  TIME2(bare_l, t6, reps, CHECK(K2_dense_vxm(y, x, A, K2_PLUS_TIMES, GrB_FP32)),
        CHECK(K2_vxm(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, u, A, NULL)));
  printf("  %-52s %9.3f ms\n", "bare engine  K2_dense_vxm PLUS_TIMES FP32", 1e3 * bare_l);
  printf("  %-52s %9.3f ms  overhead %+.1f%%\n", "K2_vxm PLUS_TIMES_FP32, full u, no mask", 1e3 * t6,
         100 * (t6 - bare_l) / bare_l);
  GrB_Matrix G = NULL;
  double tg = now();
  CHECK(K2_Matrix_getGrB(&G, A));
  tg = now() - tg;
  double t7 = TIME("grb", reps, CHECK(GrB_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, G, u, NULL)));
  printf("  %-52s %9.3f ms  (materializing it: %.1f ms)\n", "SuiteSparse GrB_mxv on the materialized matrix",
         1e3 * t7, 1e3 * tg);
  double t8 = TIME("fallback", reps, CHECK(K2_mxv(w, NULL, NULL, GxB_PLUS_MIN_FP32, A, u, NULL)));
  printf("  %-52s %9.3f ms\n", "K2_mxv PLUS_MIN_FP32 (fallback, cached matrix)", 1e3 * t8);

  // the same cases, profiled
  enum { NCASE = 7 };
  static const char *const label[NCASE] = {"mxv", "pr-step", "sparse-u", "bfs-pull", "vxm",
                                           "dense_mxv", "fallback"};
  K2_Profile prof[NCASE];
  const char *served[NCASE];
  const double unprofiled[NCASE] = {t1, t3, t4, t5, t6, bare, t8};
  const double bare_of[NCASE] = {bare, bare, 0, 0, bare_l, bare, 0};
  PROFILE(&prof[0], served[0], reps, CHECK(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, NULL)));
  // as in PageRank: the teleport assigned to every entry, then the product accumulated
  PROFILE(&prof[1], served[1], reps, ({
            CHECK(GrB_Vector_assign_FP32(w, NULL, NULL, 0.1f, GrB_ALL, n, NULL));
            CHECK(K2_mxv(w, NULL, GrB_PLUS_FP32, plus_second, A, u, NULL));
          }));
  PROFILE(&prof[2], served[2], reps, CHECK(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, us, NULL)));
  // the frontier's reset is GraphBLAS's own call: the profile holds only the product
  PROFILE(&prof[3], served[3], reps, ({
            CHECK(GrB_Vector_assign(wb, NULL, NULL, ub, GrB_ALL, n, NULL));
            CHECK(K2_mxv(wb, mask, NULL, any_one, A, wb, GrB_DESC_RSC));
          }));
  PROFILE(&prof[4], served[4], reps, CHECK(K2_vxm(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, u, A, NULL)));
  PROFILE(&prof[5], served[5], reps, CHECK(K2_dense_mxv(y, A, x, K2_PLUS_TIMES, GrB_FP32)));
  PROFILE(&prof[6], served[6], reps, CHECK(K2_mxv(w, NULL, NULL, GxB_PLUS_MIN_FP32, A, u, NULL)));
  print_profile(NCASE, label, prof, unprofiled, bare_of, served);

  GrB_Semiring_free(&plus_second);
  GrB_Semiring_free(&any_one);
  GrB_Vector_free(&u); GrB_Vector_free(&w); GrB_Vector_free(&us); GrB_Vector_free(&mask);
  GrB_Vector_free(&wb); GrB_Vector_free(&ub);
  free(x);
  free(y);
}

int main(int argc, char **argv) {
  int reps = 11, scale = 0, ef = 16;
  const char *graph = NULL, *engine = NULL;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--graph") && a + 1 < argc) graph = argv[++a];
    else if (!strcmp(argv[a], "--scale") && a + 1 < argc) scale = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--ef") && a + 1 < argc) ef = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--engine") && a + 1 < argc) engine = argv[++a];
  }
  if (reps < 1) reps = 1;
  if (reps > 63) reps = 63;
  CHECK(K2_init());
  if (engine != NULL) {
    const K2_Engine e = !strcmp(engine, "openmp") || !strcmp(engine, "cpu") ? K2_ENGINE_OPENMP
                        : !strcmp(engine, "reference") ? K2_ENGINE_REFERENCE
                        : !strcmp(engine, "cuda")      ? K2_ENGINE_CUDA
                        : !strcmp(engine, "auto")      ? K2_ENGINE_AUTO
                                                       : (K2_Engine)-2;
    if ((int)e == -2) {
      fprintf(stderr, "bench_bridge: unknown engine %s (auto, cpu or openmp, reference, cuda)\n", engine);
      return 2;
    }
    CHECK(K2_set_engine(e));
  }
  if (graph != NULL) {
    K2_Matrix A = NULL;
    CHECK(K2_Matrix_read(&A, graph, NULL));
    bench_graph(graph, A, reps);
    K2_Matrix_free(&A);
  } else if (scale > 0) {
    K2_Matrix A = rmat(scale, ef);
    char name[64];
    snprintf(name, sizeof name, "R-MAT scale %d, edge factor %d", scale, ef);
    bench_graph(name, A, reps);
    K2_Matrix_free(&A);
  } else {
    K2_Matrix A = rmat(18, 12);
    bench_graph("R-MAT scale 18, edge factor 12 (cnr-2000-sized stand-in)", A, reps);
    K2_Matrix_free(&A);
    A = rmat(20, 16);
    bench_graph("R-MAT scale 20, edge factor 16", A, reps);
    K2_Matrix_free(&A);
  }
  K2_finalize();
  return 0;
}
