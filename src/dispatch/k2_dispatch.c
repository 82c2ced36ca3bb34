// k2_dispatch.c: engine selection, the product entry of the API and the dense products.
// SPDX-License-Identifier: Apache-2.0
//
// Try, and let it decline: the engines are tables (k2_engine.h) walked in preference order, the
// CUDA engine (when selected, or AUTO with a device), then OpenMP, then the reference engine.
// Strict mode turns a decline into an error, so a test can prove which engine ran. An engine's
// error (out of memory) is returned in either mode, not retried on the next engine: the reference engine needs more memory than the OpenMP engine (8
// bytes per internal node against a few tile buffers per thread). An engine that fails leaves y
// as it was.
#include "dispatch/k2_dispatch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/k2_engine.h"
#include "cuda/k2_cuda_gateway.h"
#include "matrix/k2_matrix.h"
#include "util/k2_error.h"

_Static_assert(K2_ENGINE_ID_REFERENCE == K2_ENGINE_REFERENCE && K2_ENGINE_ID_OPENMP == K2_ENGINE_OPENMP &&
                   K2_ENGINE_ID_CUDA == K2_ENGINE_CUDA,
               "the engines' identities are the public K2_Engine values");

static K2_Engine k2_engine_choice = K2_ENGINE_AUTO;
static bool k2_strict = false;
static _Thread_local K2_Engine k2_engine_last = K2_ENGINE_AUTO;

GrB_Info K2_set_engine(K2_Engine engine) {
  if ((int)engine < K2_ENGINE_AUTO || engine > K2_ENGINE_CUDA)
    K2_FAIL(GrB_INVALID_VALUE, "K2_set_engine: unknown engine %d", (int)engine);
  k2_engine_choice = engine;
  return GrB_SUCCESS;
}

GrB_Info K2_get_engine(K2_Engine *engine) {
  if (engine == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_get_engine: engine is NULL");
  *engine = k2_engine_choice;
  return GrB_SUCCESS;
}

GrB_Info K2_set_strict(bool strict) {
  k2_strict = strict;
  return GrB_SUCCESS;
}

K2_Engine K2_last_engine(void) { return k2_engine_last; }

const char *K2_engine_name(K2_Engine engine) {
  switch (engine) {
    case K2_ENGINE_AUTO: return "auto";
    case K2_ENGINE_REFERENCE: return "reference";
    case K2_ENGINE_OPENMP: return "openmp";
    case K2_ENGINE_CUDA: return "cuda";
    default: return "unknown";
  }
}

void k2_dispatch_engine_from_env(void) {
  const char *strict = getenv("K2GRB_STRICT");
  if (strict != NULL && strcmp(strict, "1") == 0) k2_strict = true;
  const char *c = getenv("K2GRB_DEVICE_CONFIG");  // the device configuration of lazy uploads
  if (c != NULL) {
    k2_cuda_settings s;
    k2_cuda_settings_get(&s);
    s.config = strcmp(c, "tree") == 0       ? K2_CUDA_CONFIG_TREE
               : strcmp(c, "frontier") == 0 ? K2_CUDA_CONFIG_FRONTIER
               : strcmp(c, "rows") == 0     ? K2_CUDA_CONFIG_ROWS
                                            : K2_CUDA_CONFIG_AUTO;
    (void)k2_cuda_settings_set(&s);
  }
  const char *e = getenv("K2GRB_ENGINE");
  if (e == NULL) return;
  if (strcmp(e, "reference") == 0) k2_engine_choice = K2_ENGINE_REFERENCE;
  else if (strcmp(e, "openmp") == 0) k2_engine_choice = K2_ENGINE_OPENMP;
  else if (strcmp(e, "cuda") == 0) k2_engine_choice = K2_ENGINE_CUDA;
  else k2_engine_choice = K2_ENGINE_AUTO;
}

GrB_Info k2_dispatch_product(K2_Matrix A, const k2_product *P, K2_Engine *ran) {
  GrB_Info info = k2_matrix_check(A, "k2 product");
  if (info != GrB_SUCCESS) return info;
  info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  k2_view v;
  k2_tree_view(&v, &A->tree, A->weight);
  // the engines in preference order: the GPU when asked for, or AUTO with a device; then OpenMP;
  // the reference engine last, or alone on request
  const k2_engine *order[3];
  int n = 0;
  const K2_Engine choice = k2_engine_choice;
  if (choice != K2_ENGINE_REFERENCE) {
    if (choice == K2_ENGINE_CUDA || (choice == K2_ENGINE_AUTO && k2_cuda_engine.available(NULL, 0))) {
      order[n++] = &k2_cuda_engine;
    }
    order[n++] = &k2_omp_engine;
  }
  order[n++] = &k2_ref_engine;
  char why[256] = "";
  for (int i = 0; i < n; i++) {
    const k2_engine *e = order[i];
    int rc = K2_DECLINED;
    if (e->available(why, sizeof why) && e->accepts(&v, P, why, sizeof why)) {
      void *state = NULL;
      rc = 0;
      if (e->slot >= 0) {
        const k2_engine_need need = {&v, P};
        rc = k2_slot_build(A, (k2_slot_id)e->slot, e->ops, e->ready, e->prepare, &need, &state);
      }
      if (rc == 0) rc = e->product(&v, state, P);
      if (rc == K2_DECLINED) snprintf(why, sizeof why, "%s", k2_error_get());
    }
    if (rc == 0) {
      k2_engine_last = (K2_Engine)e->id;
      if (ran != NULL) *ran = (K2_Engine)e->id;
      return GrB_SUCCESS;
    }
    if (rc != K2_DECLINED) return (GrB_Info)rc;
    // strict mode: a decline is an error, so that a test can prove which engine ran
    if (k2_strict) {
      K2_FAIL(GrB_NOT_IMPLEMENTED, "the %s engine declined the product (strict mode)%s%s", e->name,
              why[0] ? ": " : "", why);
    }
  }
  K2_FAIL(GrB_NOT_IMPLEMENTED, "no engine takes this product%s%s", why[0] ? ": " : "", why);
}

//==============================================================================================
// dense products
//==============================================================================================

static GrB_Info k2_dense_type(GrB_Type type, k2_type *t) {
  if (type == GrB_BOOL) *t = K2_T_BOOL;
  else if (type == GrB_INT32) *t = K2_T_INT32;
  else if (type == GrB_INT64) *t = K2_T_INT64;
  else if (type == GrB_FP32) *t = K2_T_FP32;
  else if (type == GrB_FP64) *t = K2_T_FP64;
  else K2_FAIL(GrB_DOMAIN_MISMATCH, "k2 dense product: type must be GrB_BOOL, GrB_INT32, GrB_INT64, GrB_FP32 or GrB_FP64");
  return GrB_SUCCESS;
}

static GrB_Info k2_dense(void *y, K2_Matrix A, const void *x, uint64_t B, bool left,
                         K2_DenseSemiring sr, GrB_Type type, const char *where) {
  GrB_Info info = k2_matrix_check(A, where);
  if (info != GrB_SUCCESS) return info;
  if (y == NULL || x == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: %s is NULL", where, y ? "x" : "y");
  if (B == 0 || B > 65536) K2_FAIL(GrB_INVALID_VALUE, "%s: batch width %llu not in 1..65536", where, (unsigned long long)B);
  k2_product P;
  memset(&P, 0, sizeof P);
  info = k2_dense_type(type, &P.type);
  if (info != GrB_SUCCESS) return info;
  P.w = A->weight;
  switch (sr) {
    case K2_PLUS_TIMES:
      if (P.type == K2_T_BOOL) K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: plus-times needs a numeric type", where);
      P.monoid = K2_MON_PLUS;
      P.mult = K2_MUL_X_TIMES_W;
      break;
    case K2_LOR_LAND:
      if (P.type != K2_T_BOOL) K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: lor-land needs GrB_BOOL", where);
      P.monoid = K2_MON_LOR;
      P.mult = K2_MUL_X_TIMES_W;
      break;
    case K2_MIN_PLUS:
      if (P.type == K2_T_BOOL) K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: min-plus needs a numeric type", where);
      P.monoid = K2_MON_MIN;
      P.mult = K2_MUL_X_PLUS_W;
      break;
    default: K2_FAIL(GrB_INVALID_VALUE, "%s: unknown semiring %d", where, (int)sr);
  }
  P.left = left;
  P.batch = (uint32_t)B;
  P.x = x;
  P.y = y;
  return k2_dispatch_product(A, &P, NULL);
}

GrB_Info K2_dense_mxv(void *y, K2_Matrix A, const void *x, K2_DenseSemiring semiring, GrB_Type type) {
  return k2_dense(y, A, x, 1, false, semiring, type, "K2_dense_mxv");
}

GrB_Info K2_dense_vxm(void *y, const void *x, K2_Matrix A, K2_DenseSemiring semiring, GrB_Type type) {
  return k2_dense(y, A, x, 1, true, semiring, type, "K2_dense_vxm");
}

GrB_Info K2_dense_mxm(void *Y, K2_Matrix A, const void *X, GrB_Index B, bool transpose,
                      K2_DenseSemiring semiring, GrB_Type type) {
  return k2_dense(Y, A, X, B, transpose, semiring, type, "K2_dense_mxm");
}
