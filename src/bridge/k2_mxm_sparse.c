// k2_mxm_sparse.c: the batched product of K2_mxm / K2_mxm_right when B misses entries.
// SPDX-License-Identifier: Apache-2.0
//
// A multi-source BFS multiplies by a frontier matrix that holds a few entries per level; a
// product that costs O(n * batch) outside the traversal would cost more than the traversal
// itself. So B's entries are scattered into the calling thread's workspace (the presence bytes
// stay all zero between calls), the engine gets the presence of every (index, vector) pair
// and the list of indices where any vector has an entry, the mask becomes skip bytes (a
// complemented structural one held as a bitmap in C's order is read in place, any other
// complemented one is set at its entries in the workspace), and an engine that prunes lists
// the output indices it wrote, which become a hypersparse T. An engine that traverses the
// whole tree writes all of y instead: T is then a bitmap. C<M> = accum (C, T) is GraphBLAS's
// own, except that a T that obeys the mask is moved into C (no accumulator, and no mask or
// replace): a listed T drops the masked-out pairs as it is compacted, a bitmap T by its skip
// bytes (a multi-source BFS level on a small graph: GraphBLAS's masked apply of the bitmap,
// with its new matrix, cost it a fifth of its time). What stays O(n * batch): a mask that is
// not complemented (skip bytes set everywhere but at its entries), and a result the engine
// wrote whole.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/k2_api.h"
#include "bridge/k2_bridge.h"
#include "dispatch/k2_dispatch.h"
#include "matrix/k2_matrix.h"
#include "semiring/k2_semiring.h"
#include "util/k2_error.h"

GrB_Info k2_bridge_matrix_extract(GrB_Index *I, GrB_Index *J, void *X, GrB_Index *n, GrB_Matrix B,
                               k2_type t) {
  switch (t) {
    case K2_T_BOOL: return GrB_Matrix_extractTuples_BOOL(I, J, X, n, B);
    case K2_T_INT32: return GrB_Matrix_extractTuples_INT32(I, J, X, n, B);
    case K2_T_INT64: return GrB_Matrix_extractTuples_INT64(I, J, X, n, B);
    case K2_T_FP32: return GrB_Matrix_extractTuples_FP32(I, J, X, n, B);
    default: return GrB_Matrix_extractTuples_FP64(I, J, X, n, B);
  }
}

static double k2_mxm_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int k2_cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

// The bitmap of a complemented structural mask, when it is held as one in the layout of y
// (C by row for K2_mxm: entry (i, b) at i*batch + b; by column for K2_mxm_right): its
// presence bytes are the skip bytes, no copy. NULL otherwise.
static const uint8_t *k2_mask_bitmap(GrB_Matrix M, bool by_row) {
  GxB_Iterator it = NULL;
  if (GxB_Iterator_new(&it) != GrB_SUCCESS) return NULL;
  const uint8_t *ab = NULL;
  if (GxB_Matrix_Iterator_attach(it, M, NULL) == GrB_SUCCESS && it->A_sparsity == GxB_BITMAP &&
      it->by_col != by_row) {
    ab = (const uint8_t *)it->Ab;
  }
  GxB_Iterator_free(&it);
  return ab;
}

// Per product: the index lists and arrays that are not the workspace's own.
typedef struct {
  GrB_Index *I, *J;   // B's tuples (kept for clearing the presence bytes)
  void *V;
  uint64_t nb;        // how many
  uint8_t *skip_own;  // skip bytes of a mask that is not complemented (O(n * batch))
  GrB_Index *mi;      // M's entries set in W->y_skip, as y positions (cleared after)
  uint64_t nm;
  GrB_Index *Tp, *Th, *Ti;  // the hypersparse T
  void *Tx;
  uint8_t *Tb;              // the bitmap T (y_present moved out of the workspace)
  void *Ty;
  GrB_Matrix T;
} k2_mxm_work;

static void k2_mxm_work_free(k2_mxm_work *w) {
  free(w->I);
  free(w->J);
  free(w->V);
  free(w->skip_own);
  free(w->mi);
  free(w->Tp);
  free(w->Th);
  free(w->Ti);
  free(w->Tx);
  free(w->Tb);
  free(w->Ty);
  GrB_Matrix_free(&w->T);
  memset(w, 0, sizeof *w);
}

// B's entries into w->I, w->J (and their values, cast to t, into w->V when values): *got of
// them. By GraphBLAS's iterator where no cast is needed (half the cost of extractTuples on a
// frontier of a few dozen entries, which a multi-source BFS reads at every level), else by
// extractTuples.
static GrB_Info k2_mxm_read_entries(k2_mxm_work *w, GrB_Matrix B, GrB_Type btype, bool values, k2_type t,
                                    GrB_Index *got) {
  if (values && btype != k2_type_grb(t)) return k2_bridge_matrix_extract(w->I, w->J, w->V, got, B, t);
  GxB_Iterator it = NULL;
  GrB_Info info = GxB_Iterator_new(&it);
  if (info == GrB_SUCCESS) info = GxB_Matrix_Iterator_attach(it, B, NULL);
  if (info != GrB_SUCCESS) {
    GxB_Iterator_free(&it);
    // without values (a multiply that ignores x) the pattern only
    return k2_bridge_matrix_extract(w->I, w->J, w->V, got, B, values ? t : K2_T_BOOL);
  }
  const GrB_Index cap = *got;
  GrB_Index e = 0;
  for (info = GxB_Matrix_Iterator_seek(it, 0); info == GrB_SUCCESS && e < cap; info = GxB_Matrix_Iterator_next(it), e++) {
    GxB_Matrix_Iterator_getIndex(it, &w->I[e], &w->J[e]);
    if (!values) continue;
    switch (t) {
      case K2_T_BOOL: ((bool *)w->V)[e] = GxB_Iterator_get_BOOL(it); break;
      case K2_T_INT32: ((int32_t *)w->V)[e] = GxB_Iterator_get_INT32(it); break;
      case K2_T_INT64: ((int64_t *)w->V)[e] = GxB_Iterator_get_INT64(it); break;
      case K2_T_FP32: ((float *)w->V)[e] = GxB_Iterator_get_FP32(it); break;
      default: ((double *)w->V)[e] = GxB_Iterator_get_FP64(it); break;
    }
  }
  GxB_Iterator_free(&it);
  if (info != GxB_EXHAUSTED && info != GrB_SUCCESS) return info;
  *got = e;
  return GrB_SUCCESS;
}

// B's entries into W: values at x[s*batch + b], presence bytes, and the ascending list of the
// indices s where any vector has an entry (W->x_list, *ns of them). O(nvals(B)), plus a sort
// when GraphBLAS does not hand the entries over in index order (B held by column, or
// transposed, or the K2_Matrix second).
static GrB_Info k2_mxm_scatter(k2_workspace *W, const k2_bridge_call *call, GrB_Matrix B,
                               GrB_Index bnv, k2_mxm_work *w, uint64_t *ns) {
  const k2_type t = call->c.type;
  const size_t ts = k2_type_size(t);
  const bool values = call->c.reads_vec, k2_first = call->k2_first, tranB = call->tranB;
  const GrB_Index batch = call->batch;
  w->I = malloc((bnv > 0 ? bnv : 1) * sizeof(GrB_Index));
  w->J = malloc((bnv > 0 ? bnv : 1) * sizeof(GrB_Index));
  w->V = values ? malloc((bnv > 0 ? bnv : 1) * ts) : NULL;
  if (w->I == NULL || w->J == NULL || (values && w->V == NULL)) {
    K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory reading B (%llu entries)", call->fn,
            (unsigned long long)bnv);
  }
  GrB_Index got = bnv;
  GrB_Info info = k2_mxm_read_entries(w, B, call->btype, values, t, &got);
  if (info != GrB_SUCCESS) K2_FAIL(info, "%s: reading the entries of B failed", call->fn);
  uint64_t m = 0;
  bool ascending = true;
  for (GrB_Index e = 0; e < got; e++) {
    // B(i,j) -> effective B(r, q) -> x entry (vector index s, batch b)
    const GrB_Index r = tranB ? w->J[e] : w->I[e], q = tranB ? w->I[e] : w->J[e];
    const GrB_Index s = k2_first ? r : q, b = k2_first ? q : r;
    W->x_present[s * batch + b] = 1;
    if (values) memcpy((char *)W->x + (s * batch + b) * ts, (const char *)w->V + e * ts, ts);
    if (m > 0 && W->x_list[m - 1] == s) continue;
    if (m > 0 && W->x_list[m - 1] > s) ascending = false;
    W->x_list[m++] = s;
  }
  if (!ascending) {
    qsort(W->x_list, m, sizeof(uint64_t), k2_cmp_u64);
    uint64_t u = 0;
    for (uint64_t k = 0; k < m; k++)
      if (u == 0 || W->x_list[u - 1] != W->x_list[k]) W->x_list[u++] = W->x_list[k];
    m = u;
  }
  free(w->V);
  w->V = NULL;
  w->nb = got;
  *ns = m;
  return GrB_SUCCESS;
}

static void k2_mxm_unscatter(k2_workspace *W, const k2_bridge_call *call, const k2_mxm_work *w) {
  for (GrB_Index e = 0; e < w->nb; e++) {
    const GrB_Index r = call->tranB ? w->J[e] : w->I[e], q = call->tranB ? w->I[e] : w->J[e];
    const GrB_Index s = call->k2_first ? r : q, b = call->k2_first ? q : r;
    W->x_present[s * call->batch + b] = 0;
  }
}

// The mask as skip bytes in y's layout, *allowed = the (index, vector) pairs it lets through.
static GrB_Info k2_mxm_skip(k2_workspace *W, const k2_bridge_call *call, GrB_Matrix M,
                            k2_mxm_work *w, const uint8_t **skip, uint64_t *allowed) {
  const GrB_Index batch = call->batch, ny = call->ylen * batch;
  const bool comp = call->comp, structure = call->structure, k2_first = call->k2_first;
  *skip = NULL;
  *allowed = ny;
  if (M == NULL && !comp) return GrB_SUCCESS;
  if (M == NULL) {  // the complement of no mask: nothing may be written
    w->skip_own = malloc(ny > 0 ? ny : 1);
    if (w->skip_own == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", call->fn);
    memset(w->skip_own, 1, ny);
    *skip = w->skip_own;
    *allowed = 0;
    return GrB_SUCCESS;
  }
  GrB_Index mnv;
  GrB_Info info = GrB_Matrix_nvals(&mnv, M);
  if (info != GrB_SUCCESS) K2_FAIL(info, "%s: M is not a valid GrB_Matrix", call->fn);
  if (comp && structure) {
    const uint8_t *ab = k2_mask_bitmap(M, k2_first);
    if (ab != NULL) {
      *skip = ab;
      *allowed = ny - mnv;
      return GrB_SUCCESS;
    }
  }
  GrB_Index *I = malloc((mnv > 0 ? mnv : 1) * sizeof(GrB_Index));
  GrB_Index *J = malloc((mnv > 0 ? mnv : 1) * sizeof(GrB_Index));
  bool *V = structure ? NULL : malloc(mnv > 0 ? mnv : 1);
  if (I == NULL || J == NULL || (!structure && V == NULL)) {
    free(I);
    free(J);
    free(V);
    K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory reading M (%llu entries)", call->fn,
            (unsigned long long)mnv);
  }
  // a structural mask may have any type, user-defined ones included: its pattern only
  if (structure && !k2_bridge_real_type(call->mtype)) {
    info = GrB_Matrix_extractTuples_UDT(I, J, NULL, &mnv, M);
  } else {
    info = GrB_Matrix_extractTuples_BOOL(I, J, V, &mnv, M);
  }
  if (info != GrB_SUCCESS) {
    free(I);
    free(J);
    free(V);
    K2_FAIL(info, "%s: reading the mask failed", call->fn);
  }
  // M(i,j) -> y position: K2_mxm: C(i,j) = vector j at i; K2_mxm_right: C(i,j) = vector i at j
  uint64_t in_mask = 0;
  if (comp) {
    // set in the workspace at the mask's entries only, and remembered for clearing
    for (GrB_Index e = 0; e < mnv; e++) {
      if (!structure && !V[e]) continue;
      const GrB_Index at = k2_first ? I[e] * batch + J[e] : J[e] * batch + I[e];
      W->y_skip[at] = 1;
      I[in_mask++] = at;
    }
    w->mi = I;
    w->nm = in_mask;
    I = NULL;
    *skip = W->y_skip;
    *allowed = ny - in_mask;
  } else {
    w->skip_own = malloc(ny > 0 ? ny : 1);
    if (w->skip_own == NULL) {
      free(I);
      free(J);
      free(V);
      K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", call->fn);
    }
    memset(w->skip_own, 1, ny);
    for (GrB_Index e = 0; e < mnv; e++) {
      if (!structure && !V[e]) continue;
      w->skip_own[k2_first ? I[e] * batch + J[e] : J[e] * batch + I[e]] = 0;
      in_mask++;
    }
    *skip = w->skip_own;
    *allowed = in_mask;
  }
  free(I);
  free(J);
  free(V);
  return GrB_SUCCESS;
}

// The listed output indices (W->y_list[0, k)) as the arrays of a hypersparse T (its vectors:
// the rows of C for K2_mxm, the columns for K2_mxm_right; the entries: the batch's vectors),
// without the masked-out pairs; W->y_present is all zero again, even on failure.
static GrB_Info k2_mxm_compact(k2_workspace *W, const k2_bridge_call *call, uint64_t k,
                               const uint8_t *skip, k2_mxm_work *w, uint64_t *nvec,
                               uint64_t *nvals) {
  const GrB_Index batch = call->batch;
  const size_t ts = k2_type_size(call->c.type);
  uint64_t total = 0;
  for (uint64_t q = 0; q < k; q++) {
    const uint8_t *yp = W->y_present + W->y_list[q] * batch;
    for (GrB_Index b = 0; b < batch; b++) total += yp[b] != 0;
  }
  w->Tp = malloc((k + 1) * sizeof(GrB_Index));
  w->Th = malloc((k > 0 ? k : 1) * sizeof(GrB_Index));
  w->Ti = malloc((total > 0 ? total : 1) * sizeof(GrB_Index));
  w->Tx = malloc((total > 0 ? total : 1) * ts);
  const bool ok = w->Tp != NULL && w->Th != NULL && w->Ti != NULL && w->Tx != NULL;
  uint64_t v = 0, m = 0;
  if (ok) w->Tp[0] = 0;
  for (uint64_t q = 0; q < k; q++) {
    const uint64_t i = W->y_list[q];
    uint8_t *yp = W->y_present + i * batch;
    const uint64_t before = m;
    for (GrB_Index b = 0; b < batch; b++) {
      if (!yp[b]) continue;
      yp[b] = 0;
      // the engines may compute a masked-out pair: drop it, so that T obeys the mask
      if (!ok || (skip != NULL && skip[i * batch + b])) continue;
      w->Ti[m] = b;
      memcpy((char *)w->Tx + m * ts, (const char *)W->y + (i * batch + b) * ts, ts);
      m++;
    }
    if (ok && m > before) {
      w->Th[v++] = i;
      w->Tp[v] = m;
    }
  }
  if (!ok) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory for a result of %llu entries", call->fn,
                   (unsigned long long)total);
  *nvec = v;
  *nvals = m;
  return GrB_SUCCESS;
}

GrB_Info k2_mxm_sparse(const k2_bridge_call *call, GrB_Matrix C, GrB_Matrix M, GrB_BinaryOp accum,
                       K2_Matrix A, GrB_Matrix B, GrB_Index bnv) {
  const char *fn = call->fn;
  const k2_semiring_class c = call->c;
  const GrB_Index batch = call->batch, nx = call->inner * batch, ny = call->ylen * batch;
  const size_t ts = k2_type_size(c.type);
  const double t0 = k2_api_burble() ? k2_mxm_now() : 0;
  k2_workspace *W = NULL;
  GrB_Info info = k2_workspace_get(&W, nx, ny);
  if (info != GrB_SUCCESS) return info;
  k2_mxm_work w;
  memset(&w, 0, sizeof w);
  k2_product P;
  memset(&P, 0, sizeof P);
  k2_semiring_setup(&P, &c, A->weight);
  P.left = call->left;
  P.batch = (uint32_t)batch;
  uint64_t ns = 0;
  info = k2_mxm_scatter(W, call, B, bnv, &w, &ns);
  const uint8_t *skip = NULL;
  uint64_t allowed = ny;
  if (info == GrB_SUCCESS) info = k2_mxm_skip(W, call, M, &w, &skip, &allowed);
  uint64_t listed = K2_Y_DENSE;
  k2_product_report report = {0};
  K2_Engine ran = K2_ENGINE_AUTO;
  if (info == GrB_SUCCESS) {
    P.x = W->x;
    P.x_present = W->x_present;
    P.x_list = W->x_list;
    P.x_count = ns;
    P.y = W->y;
    P.y_present = W->y_present;
    P.y_skip = skip;
    P.y_allowed_known = skip != NULL;
    P.y_allowed = allowed;
    P.y_list = W->y_list;
    P.y_count = &listed;
    P.report = &report;
    info = k2_dispatch_product(A, &P, &ran);
  }
  // moved into C when T is all of the result: no accumulator, C of T's type, and no mask, or
  // replace and a T without masked-out pairs (a listed T drops them as it is compacted; a
  // bitmap T drops them here, while the skip bytes are still set: O(ny), as its writing was,
  // where GraphBLAS's masked apply costs a new matrix and a pass of its own)
  const bool sparse_result = listed != K2_Y_DENSE;
  const bool no_mask = M == NULL && !call->comp;
  const bool plain = accum == NULL && call->ctype == c.grb_type;
  if (info == GrB_SUCCESS && plain && !no_mask && call->replace && !sparse_result && skip != NULL) {
    k2_bridge_presence_drop(W->y_present, skip, ny);
  }
  const bool direct = plain && (no_mask || (call->replace && (sparse_result || skip != NULL)));
  k2_mxm_unscatter(W, call, &w);
  for (uint64_t e = 0; e < w.nm; e++) W->y_skip[w.mi[e]] = 0;
  if (info != GrB_SUCCESS) {
    k2_workspace_drop_y(W);  // y_present may be half written
    k2_mxm_work_free(&w);
    return info;
  }
  // T: hypersparse from the listed outputs, or the bitmap the engine wrote whole
  uint64_t nvec = 0, nvals = 0;
  if (sparse_result) {
    info = k2_mxm_compact(W, call, listed, skip, &w, &nvec, &nvals);
    if (info != GrB_SUCCESS) {
      k2_mxm_work_free(&w);
      return info;
    }
  } else {
    w.Ty = W->y;
    w.Tb = W->y_present;
    W->y = NULL;
    W->y_present = NULL;
    k2_workspace_drop_y(W);
    for (GrB_Index p = 0; p < ny; p++) nvals += w.Tb[p] != 0;
  }
  GrB_Matrix target = C;
  if (!direct) {
    info = GrB_Matrix_new(&w.T, c.grb_type, call->crows, call->ccols);
    if (info != GrB_SUCCESS) {
      k2_mxm_work_free(&w);
      K2_FAIL(info, "%s: out of memory for the result", fn);
    }
    target = w.T;
  }
  const bool k2_first = call->k2_first;
  if (sparse_result && nvec == 0) {
    // nothing listed: T is empty (SuiteSparse:GraphBLAS 7.4 refuses a hypersparse pack of no
    // vectors into a matrix of one row, or one column for the CSC form)
    info = direct ? GrB_Matrix_clear(target) : GrB_SUCCESS;
  } else if (sparse_result) {
    const GrB_Index xs = (nvals > 0 ? nvals : 1);
    info = k2_first ? GxB_Matrix_pack_HyperCSR(target, &w.Tp, &w.Th, &w.Ti, &w.Tx, (nvec + 1) * sizeof(GrB_Index),
                                               (nvec > 0 ? nvec : 1) * sizeof(GrB_Index), xs * sizeof(GrB_Index),
                                               xs * ts, false, nvec, false, NULL)
                    : GxB_Matrix_pack_HyperCSC(target, &w.Tp, &w.Th, &w.Ti, &w.Tx, (nvec + 1) * sizeof(GrB_Index),
                                               (nvec > 0 ? nvec : 1) * sizeof(GrB_Index), xs * sizeof(GrB_Index),
                                               xs * ts, false, nvec, false, NULL);
  } else {
    const GrB_Index ysize = (ny > 0 ? ny : 1) * ts, psize = ny > 0 ? ny : 1;
    // K2_mxm: entry (i, b) at i*batch + b, row-major; K2_mxm_right: C(b, j) at j*batch + b
    info = k2_first ? GxB_Matrix_pack_BitmapR(target, (int8_t **)&w.Tb, &w.Ty, psize, ysize, false, nvals, NULL)
                    : GxB_Matrix_pack_BitmapC(target, (int8_t **)&w.Tb, &w.Ty, psize, ysize, false, nvals, NULL);
  }
  if (info != GrB_SUCCESS) {
    k2_mxm_work_free(&w);
    K2_FAIL(info, "%s: SuiteSparse:GraphBLAS could not take the result matrix", fn);
  }
  if (!direct) {
    info = GrB_Matrix_apply(C, M, accum, k2_type_identity_op(c.type), w.T,
                            k2_bridge_desc(call->replace, call->comp, call->structure));
    if (info != GrB_SUCCESS) {
      const char *msg = NULL;
      GrB_Matrix_error(&msg, C);
      k2_error_set(info, "%s: %s", fn, msg && msg[0] ? msg : "the GraphBLAS operation on C failed");
      k2_mxm_work_free(&w);
      return info;
    }
  }
  k2_mxm_work_free(&w);
  const K2_Path path = ran == K2_ENGINE_CUDA ? K2_PATH_NATIVE_GPU : K2_PATH_NATIVE_CPU;
  k2_api_set_path(path);
  if (k2_api_burble()) {
    char traversal[160] = "";
    if (report.traversal != NULL) {
      snprintf(traversal, sizeof traversal, ", %s", report.traversal);
      if (report.estimate > 0) {
        snprintf(traversal + strlen(traversal), sizeof traversal - strlen(traversal),
                 " (estimated %.0f of %llu nodes, %llu expanded)", report.estimate,
                 (unsigned long long)report.nodes, (unsigned long long)report.expanded);
      }
    }
    k2_api_say(fn, path,
               "%s, batch of %llu %s products, B %llu of %llu entries at %llu indices, "
               "%llu of %llu outputs allowed: %s engine%s, %s of %llu entries, %.3f ms",
               c.name, (unsigned long long)batch, P.left ? "left" : "right",
               (unsigned long long)bnv, (unsigned long long)nx, (unsigned long long)ns,
               (unsigned long long)allowed, (unsigned long long)ny, K2_engine_name(ran),
               traversal, sparse_result ? "a hypersparse result" : "a bitmap result",
               (unsigned long long)nvals, 1e3 * (k2_mxm_now() - t0));
  }
  return GrB_SUCCESS;
}
