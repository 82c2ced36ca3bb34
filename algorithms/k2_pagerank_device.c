// k2_pagerank_device.c: PageRank (LAGraph and GAP models) with its vectors on the GPU
// (K2_DeviceVector, include/k2grb/device.h).
// SPDX-License-Identifier: Apache-2.0
//
// The iteration of k2_pagerank.inc on the device: w = t ./ d, r = teleport + w' A, the change
// sum |t - r|. The scaled out-degrees d and the sinks are computed once, on the device (one
// product and a few element-wise calls; past 2^24 vertices, where FP32 sums of ones may round,
// from the out-degrees on the host, scaled in one pass over their entries and copied up once);
// the iterations are one call, K2_Device_pagerank (one recorded graph and one wait per
// iteration), or, where it declines, the same steps one device-vector call each (the host learns
// the sinks' rank and the change per iteration). The ranks come back once at the end.
#include <string.h>

#include "k2_alg_internal.h"

#define K2A_FN fn
#define K2A_FREE_ALL                  \
  do {                                \
    GrB_free(&dout_own);              \
    GrB_free(&d);                     \
    GrB_free(&sink);                  \
    K2_DeviceVector_free(&dd);        \
    K2_DeviceVector_free(&dsink);     \
    K2_DeviceVector_free(&r);         \
    K2_DeviceVector_free(&t);         \
    K2_DeviceVector_free(&w);         \
    K2_DeviceVector_free(&y);         \
    K2_DeviceVector_free(&rsink);     \
  } while (0)

// LAGraph's d = max(dout / damping, 1 / damping) (FP32; dense) and, where sink is not NULL, the
// vertices without an out-degree entry (true there, nothing elsewhere), formed in one pass over
// dout's entries into arrays that the vectors then take over (full and bitmap: the device
// import copies them up as they are). The same values as LAGraph's masked assign, apply and
// eWiseAdd (dout's entries cast to FP32 as the apply casts them, the same FP32 division and
// maximum), without their fixed costs (milliseconds per call at 10^5 vertices).
static GrB_Info k2a_pagerank_degrees(GrB_Vector *d, GrB_Vector *sink, GrB_Index *nsinks, GrB_Vector dout,
                                     float damping, GrB_Index n) {
  GrB_Index nv = 0;
  GrB_Info info = GrB_Vector_nvals(&nv, dout);
  if (info != GrB_SUCCESS) return info;
  GrB_Index *I = malloc((nv + 1) * sizeof *I);
  float *X = malloc((nv + 1) * sizeof *X), *dv = malloc((n + 1) * sizeof *dv);
  int8_t *sb = sink != NULL ? malloc(n + 1) : NULL;
  bool *sx = sink != NULL ? malloc(n + 1) : NULL;
  if (I == NULL || X == NULL || dv == NULL || (sink != NULL && (sb == NULL || sx == NULL))) {
    info = GrB_OUT_OF_MEMORY;
  } else {
    info = GrB_Vector_extractTuples_FP32(I, X, &nv, dout);
  }
  if (info == GrB_SUCCESS) {
    const float floor = 1.0f / damping;
    for (GrB_Index i = 0; i < n; i++) dv[i] = floor;
    if (sb != NULL) memset(sb, 1, n), memset(sx, 1, n);
    for (GrB_Index k = 0; k < nv; k++) {
      const float q = X[k] / damping;
      dv[I[k]] = q > floor ? q : floor;
      if (sb != NULL) sb[I[k]] = 0;
    }
    if (sink != NULL) *nsinks = n - nv;  // dout's entries are distinct vertices
    info = GrB_Vector_new(d, GrB_FP32, n);
    if (info == GrB_SUCCESS) info = GxB_Vector_pack_Full(*d, (void **)&dv, n * sizeof(float), false, NULL);
    if (info == GrB_SUCCESS && sink != NULL) {
      info = GrB_Vector_new(sink, GrB_BOOL, n);
      if (info == GrB_SUCCESS) info = GxB_Vector_pack_Bitmap(*sink, &sb, (void **)&sx, n, n, false, *nsinks, NULL);
    }
  }
  free(I), free(X), free(dv), free(sb), free(sx);  // NULL where a vector took them
  if (info != GrB_SUCCESS) {
    GrB_free(d);
    if (sink != NULL) GrB_free(sink);
  }
  return info;
}

// The same d and sinks computed on the device from A alone, nothing copied up: deg = A * 1 over
// PLUS_PAIR_FP32 (exact: every degree is an integer below 2^24, n at most 2^24), d = max(deg ./
// damping, 1 / damping) in FP32 as the host computes it, and the sinks = the full vector with
// deg's entries removed (assigned an empty vector under deg's structure). dd and dsink are new
// vectors; *dsink stays NULL where there is no sink. Two scratch vectors of n entries, freed.
static GrB_Info k2a_pagerank_degrees_device(K2_DeviceVector *dd, K2_DeviceVector *dsink, GrB_Index *nsinks,
                                            K2_Matrix A, float damping, GrB_Index n, bool gap) {
  K2_DeviceVector deg = NULL, scalar = NULL, none = NULL;
  GrB_Index nv = 0;
  GrB_Info info = K2_DeviceVector_new(&deg, GrB_FP32, n);
  if (info == GrB_SUCCESS) info = K2_DeviceVector_new(&scalar, GrB_FP32, n);
  if (info == GrB_SUCCESS) info = K2_DeviceVector_assign_FP64(scalar, NULL, 1.0);
  if (info == GrB_SUCCESS) info = K2_mxv_device(deg, NULL, GxB_PLUS_PAIR_FP32, A, scalar, NULL);
  if (info == GrB_SUCCESS) info = K2_DeviceVector_nvals(&nv, deg);
  if (info == GrB_SUCCESS && !gap && nv < n) {
    // the sinks: every vertex, less those with an out-degree entry
    info = K2_DeviceVector_new(&none, GrB_BOOL, n);
    if (info == GrB_SUCCESS) info = K2_DeviceVector_new(dsink, GrB_BOOL, n);
    if (info == GrB_SUCCESS) info = K2_DeviceVector_assign_INT64(*dsink, NULL, 1);
    if (info == GrB_SUCCESS) info = K2_DeviceVector_assign(*dsink, deg, none);
  }
  // d = max (deg / damping, 1 / damping), the division and the maximum in FP32
  if (info == GrB_SUCCESS) info = K2_DeviceVector_assign_FP64(scalar, NULL, (double)damping);
  if (info == GrB_SUCCESS) info = K2_DeviceVector_eWiseMult(deg, GrB_DIV_FP32, deg, scalar);
  if (info == GrB_SUCCESS) info = K2_DeviceVector_assign_FP64(scalar, NULL, (double)(1.0f / damping));
  if (info == GrB_SUCCESS) info = K2_DeviceVector_eWiseAdd(scalar, GrB_MAX_FP32, scalar, deg);
  if (info == GrB_SUCCESS) {
    *dd = scalar, scalar = NULL;
    *nsinks = gap ? 0 : n - nv;
  } else {
    K2_DeviceVector_free(dsink);
  }
  K2_DeviceVector_free(&deg);
  K2_DeviceVector_free(&scalar);
  K2_DeviceVector_free(&none);
  return info;
}

GrB_Info k2_pagerank_device(const char *fn, GrB_Vector *rank, int *iters, K2_Matrix A, K2_Graph G,
                            float damping, float tol, int itermax, bool gap, char *msg) {
  GrB_Vector dout = NULL, dout_own = NULL, d = NULL, sink = NULL;
  K2_DeviceVector dd = NULL, dsink = NULL, r = NULL, t = NULL, w = NULL, y = NULL, rsink = NULL;
  const char *k2a_step = NULL;
  // the caller (k2_pagerank.inc) checked the arguments
  GrB_Index n;
  K2A_STEP("reading the size of A");
  K2A_TRY(K2_Matrix_nrows(&n, A));
  GrB_Index nsinks = 0;
  if (n <= ((GrB_Index)1 << 24)) {  // a graph's cached degrees would cost a copy up and more
    K2A_STEP("computing the scaled out-degrees and the vertices without out-edges on the device");
    K2A_TRY(k2a_pagerank_degrees_device(&dd, &dsink, &nsinks, A, damping, n, gap));
  } else {
    K2A_STEP("computing the out-degrees");
    K2A_TRY(k2a_out_degree_k2(&dout, &dout_own, A, G, n));
    // d = max (outdegree / damping, 1 / damping): full; the sinks: no out-degree entry
    K2A_STEP("scaling the out-degrees by the damping factor and finding the vertices without out-edges");
    K2A_TRY(k2a_pagerank_degrees(&d, gap ? NULL : &sink, &nsinks, dout, damping, n));
    K2A_STEP("copying the scaled degrees and the sinks to the device");
    K2A_TRY(K2_DeviceVector_new(&dd, GrB_FP32, n));
    K2A_TRY(K2_DeviceVector_import(dd, d));
    if (nsinks > 0) {
      K2A_TRY(K2_DeviceVector_new(&dsink, GrB_BOOL, n));
      K2A_TRY(K2_DeviceVector_import(dsink, sink));
    }
  }
  K2A_STEP("creating the rank vector on the device");
  K2A_TRY(K2_DeviceVector_new(&r, GrB_FP32, n));

  const float scaled_damping = (1 - damping) / (float)n;
  float rdiff = 1;
  K2A_STEP("iterating on the device");
  GrB_Info info = K2_Device_pagerank(r, A, dd, nsinks > 0 ? dsink : NULL, damping, tol, itermax, iters, &rdiff);
  if (info != GrB_NOT_IMPLEMENTED) K2A_CHECK(info, "K2_Device_pagerank");
  // declined (the row blocks): the same iteration step by step on device vectors
  if (info == GrB_NOT_IMPLEMENTED) {
    K2A_STEP("creating the step vectors on the device");
    if (nsinks > 0) K2A_TRY(K2_DeviceVector_new(&rsink, GrB_FP32, n));
    K2A_TRY(K2_DeviceVector_new(&t, GrB_FP32, n));
    K2A_TRY(K2_DeviceVector_new(&w, GrB_FP32, n));
    K2A_TRY(K2_DeviceVector_new(&y, GrB_FP32, n));
    K2A_TRY(K2_DeviceVector_assign_FP64(r, NULL, (double)(1.0f / (float)n)));
    rdiff = 1;
    for (*iters = 0; *iters < itermax && rdiff > tol; (*iters)++) {
      float teleport = scaled_damping;
      if (nsinks > 0) {
        // teleport += damping/n * (rank held by the sinks)
        K2A_STEP("summing the rank held by the vertices without out-edges");
        K2A_TRY(K2_DeviceVector_clear(rsink));
        K2A_TRY(K2_DeviceVector_assign(rsink, dsink, r));
        double sum_rsink = 0;
        K2A_TRY(K2_DeviceVector_reduce_FP64(&sum_rsink, rsink));
        teleport += damping / (float)n * (float)sum_rsink;
      }
      K2_DeviceVector tmp = t;  // t = the old rank
      t = r;
      r = tmp;
      K2A_STEP("propagating the ranks along the edges");
      K2A_TRY(K2_DeviceVector_eWiseMult(w, GrB_DIV_FP32, t, dd));
      K2A_TRY(K2_vxm_device(y, NULL, GxB_PLUS_FIRST_FP32, w, A, NULL));
      K2A_TRY(K2_DeviceVector_assign_FP64(r, NULL, (double)teleport));
      K2A_TRY(K2_DeviceVector_eWiseAdd(r, GrB_PLUS_FP32, r, y));
      // rdiff = sum |t - r|
      K2A_STEP("measuring the change of the ranks");
      K2A_TRY(K2_DeviceVector_eWiseAdd(t, GrB_MINUS_FP32, t, r));
      K2A_TRY(K2_DeviceVector_apply(t, GrB_ABS_FP32, t));
      double sum_diff = 0;
      K2A_TRY(K2_DeviceVector_reduce_FP64(&sum_diff, t));
      rdiff = (float)sum_diff;
    }
  }
  if (!gap && rdiff > tol) {
    K2A_FAIL(K2_CONVERGENCE_FAILURE, "did not converge within the %d iterations itermax allows", itermax);
  }
  K2A_STEP("copying the ranks from the device");
  K2A_TRY(K2_DeviceVector_export(rank, r));
  K2A_FREE_ALL;
  return GrB_SUCCESS;
}
