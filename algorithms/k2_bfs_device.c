// k2_bfs_device.c: BFS with every vector on the GPU (K2_DeviceVector, include/k2grb/device.h).
// SPDX-License-Identifier: Apache-2.0
//
// With the push/pull choice left to the library (K2_BFS_AUTO): K2_Device_bfs, the whole search in
// one call, each level one traversal that the engine prunes by the frontier or by the unvisited
// vertices as the counts say. Otherwise, or where that call declines (row blocks): the steps of
// k2_bfs.inc (LAGraph's push/pull BFS: the same products, masks, semirings and switch), each on
// the device: the frontier, the visited set, levels, parents and degrees never
// leave it. Per level the host learns the frontier's size (returned by the product) and, until
// the first pull, the edges leaving the frontier; the results come back once at the end.
#include "k2_alg_internal.h"

#define K2A_FN "K2_bfs"

// LAGraph's steps, one device-vector call each, into *v (levels) and *pi (parents), created here
// (either pointer NULL: not computed); the caller frees them.
#define K2A_FREE_ALL                   \
  do {                                 \
    K2_DeviceVector_free(&q);          \
    K2_DeviceVector_free(&w);          \
    K2_DeviceVector_free(&degree);     \
    K2_DeviceVector_free(&ones);       \
  } while (0)

static GrB_Info k2_bfs_device_steps(K2_DeviceVector *v, K2_DeviceVector *pi, K2_Matrix A, K2_Graph G,
                                    GrB_Index src, K2_BfsMode mode, char *msg) {
  K2_DeviceVector q = NULL, w = NULL, degree = NULL, ones = NULL;
  const char *k2a_step = NULL;
  GrB_Index n, nvals;
  K2A_STEP("reading the size of A");
  K2A_TRY(K2_Matrix_nrows(&n, A));
  K2A_TRY(K2_Matrix_nvals(&nvals, A));
  const bool compute_level = (v != NULL), compute_parent = (pi != NULL);
  const bool wide = n > INT32_MAX;
  GrB_Type int_type = wide ? GrB_INT64 : GrB_INT32;
  GrB_Semiring semiring;
  K2A_STEP("creating the frontier and the result vectors on the device");
  if (compute_parent) {
    semiring = wide ? GxB_ANY_SECONDI_INT64 : GxB_ANY_SECONDI_INT32;
    K2A_TRY(K2_DeviceVector_new(pi, int_type, n));
    K2A_TRY(K2_DeviceVector_setElement_INT64(*pi, (int64_t)src, src));
    K2A_TRY(K2_DeviceVector_new(&q, int_type, n));
    K2A_TRY(K2_DeviceVector_setElement_INT64(q, (int64_t)src, src));
  } else {
    semiring = GxB_ANY_PAIR_BOOL;
    K2A_TRY(K2_DeviceVector_new(&q, GrB_BOOL, n));
    K2A_TRY(K2_DeviceVector_setElement_INT64(q, 1, src));
  }
  if (compute_level) {
    K2A_TRY(K2_DeviceVector_new(v, int_type, n));
    K2A_TRY(K2_DeviceVector_setElement_INT64(*v, 0, src));
  }

  // out-degrees (no entry for a vertex without out-edges), only for the push/pull heuristic
  bool push_pull = (mode == K2_BFS_AUTO);
  if (push_pull) {
    K2A_STEP("computing the out-degrees");
    K2A_TRY(K2_DeviceVector_new(&degree, GrB_INT64, n));
    if (G != NULL) {  // the graph's cached ones, copied once
      K2A_TRY(K2_Graph_cachedOutDegree(G, NULL));
      K2A_TRY(K2_DeviceVector_import(degree, G->out_degree));
    } else {
      K2A_TRY(K2_DeviceVector_new(&ones, GrB_INT64, n));
      K2A_TRY(K2_DeviceVector_assign_INT64(ones, NULL, 1));
      K2A_TRY(K2_mxv_device(degree, NULL, GxB_PLUS_PAIR_INT64, A, ones, NULL));
      K2A_TRY(K2_DeviceVector_free(&ones));
    }
    K2A_TRY(K2_DeviceVector_new(&w, GrB_INT64, n));
  }

  const double alpha = 8.0, beta1 = 8.0, beta2 = 512.0;
  const int64_t n_over_beta1 = (int64_t)((double)n / beta1);
  const int64_t n_over_beta2 = (int64_t)((double)n / beta2);
  bool do_push = (mode != K2_BFS_PULL);
  bool any_pull = false;
  GrB_Index nq = 1, last_nq = 0;
  int64_t edges_unexplored = (int64_t)nvals;
  K2_DeviceVector mask = compute_parent ? *pi : *v;  // its structure is the visited set

  for (int64_t nvisited = 1, k = 1; nvisited < (int64_t)n; nvisited += (int64_t)nq, k++) {
    if (push_pull) {
      if (do_push) {
        const bool growing = nq > last_nq;
        bool switch_to_pull = false;
        if (edges_unexplored < (int64_t)n) {
          push_pull = false;  // little of the graph is left: stay with push
        } else if (any_pull) {
          switch_to_pull = growing && (int64_t)nq > n_over_beta1;
        } else {
          // edges leaving the frontier: sum of the out-degrees of q
          K2A_STEP("counting the edges leaving the frontier");
          K2A_TRY(K2_DeviceVector_clear(w));
          K2A_TRY(K2_DeviceVector_assign(w, q, degree));
          int64_t edges_in_frontier = 0;
          K2A_TRY(K2_DeviceVector_reduce_INT64(&edges_in_frontier, w));
          edges_unexplored -= edges_in_frontier;
          switch_to_pull = growing && (double)edges_in_frontier > (double)edges_unexplored / alpha;
        }
        if (switch_to_pull) do_push = false;
      } else {
        const bool shrinking = nq < last_nq;
        if (shrinking && (int64_t)nq <= n_over_beta2) do_push = true;
      }
      any_pull = any_pull || !do_push;
    }

    K2A_STEP(do_push ? "expanding the frontier along the edges (push)"
                     : "expanding the frontier against the edges (pull)");
    if (do_push) {
      K2A_TRY(K2_vxm_device(q, mask, semiring, q, A, GrB_DESC_RSC));
    } else {
      K2A_TRY(K2_mxv_device(q, mask, semiring, A, q, GrB_DESC_RSCT0));
    }
    last_nq = nq;
    K2A_STEP("recording the new frontier");
    K2A_TRY(K2_DeviceVector_nvals(&nq, q));
    if (nq == 0) break;
    if (compute_parent) K2A_TRY(K2_DeviceVector_assign(*pi, q, q));
    if (compute_level) K2A_TRY(K2_DeviceVector_assign_INT64(*v, q, k));
  }

  K2A_FREE_ALL;
  return GrB_SUCCESS;
}

#undef K2A_FREE_ALL
#define K2A_FREE_ALL                   \
  do {                                 \
    K2_DeviceVector_free(&pi);         \
    K2_DeviceVector_free(&v);          \
    if (lev != NULL) GrB_free(&lev);   \
  } while (0)

// The whole search (depth UINT64_MAX) or a try of at most depth levels: *done false where the
// try went deeper or the device declined it (nothing written).
static GrB_Info k2_bfs_device_run(bool *done, GrB_Vector *level, GrB_Vector *parent, K2_Matrix A, K2_Graph G,
                                  GrB_Index src, K2_BfsMode mode, GrB_Index depth, char *msg) {
  K2_DeviceVector pi = NULL, v = NULL;
  GrB_Vector lev = NULL;
  const char *k2a_step = NULL;
  *done = false;
  // the caller (k2_bfs.inc) checked the arguments
  GrB_Index n;
  K2A_STEP("reading the size of A");
  K2A_TRY(K2_Matrix_nrows(&n, A));
  const bool compute_level = (level != NULL), compute_parent = (parent != NULL);
  const bool bounded = depth != UINT64_MAX;
  GrB_Type int_type = n > INT32_MAX ? GrB_INT64 : GrB_INT32;
  GrB_Info info = GrB_NOT_IMPLEMENTED;
  if (mode == K2_BFS_AUTO) {  // the whole search in one call, the direction the engine's own choice
    K2A_STEP("running the BFS on the device");
    if (compute_level) K2A_TRY(K2_DeviceVector_new(&v, int_type, n));
    if (compute_parent) K2A_TRY(K2_DeviceVector_new(&pi, int_type, n));
    bool complete = false;
    info = K2_Device_bfsWithin(v, pi, A, src, depth, &complete, GrB_DESC_T0);
    if (info != GrB_NOT_IMPLEMENTED) K2A_CHECK(info, "K2_Device_bfsWithin");
    if (bounded && (info == GrB_NOT_IMPLEMENTED || !complete)) {  // the host's to run
      K2A_FREE_ALL;
      return GrB_SUCCESS;
    }
  }
  if (info == GrB_NOT_IMPLEMENTED) {  // asked for a direction, or declined (row blocks)
    K2_DeviceVector_free(&v);
    K2_DeviceVector_free(&pi);
    info = k2_bfs_device_steps(compute_level ? &v : NULL, compute_parent ? &pi : NULL, A, G, src, mode, msg);
    if (info < GrB_SUCCESS) {  // msg names its step
      K2A_FREE_ALL;
      return info;
    }
  }
  K2A_STEP("copying the results from the device");
  if (compute_level) K2A_TRY(K2_DeviceVector_export(&lev, v));
  if (compute_parent) K2A_TRY(K2_DeviceVector_export(parent, pi));
  if (compute_level) *level = lev;
  lev = NULL;
  K2A_FREE_ALL;
  *done = true;
  return GrB_SUCCESS;
}

GrB_Info k2_bfs_device(GrB_Vector *level, GrB_Vector *parent, K2_Matrix A, K2_Graph G, GrB_Index src,
                       K2_BfsMode mode, char *msg) {
  bool done = false;
  return k2_bfs_device_run(&done, level, parent, A, G, src, mode, UINT64_MAX, msg);
}

GrB_Info k2_bfs_device_try(bool *done, GrB_Vector *level, GrB_Vector *parent, K2_Matrix A, GrB_Index src,
                           char *msg) {
  return k2_bfs_device_run(done, level, parent, A, NULL, src, K2_BFS_AUTO, K2A_BFS_TRY_DEPTH, msg);
}
