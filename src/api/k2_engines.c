// k2_engines.c: the public engine calls (include/k2grb/engine.h): the choice of engine, strict
// mode, and the dense products.
// SPDX-License-Identifier: Apache-2.0
#include <string.h>

#include <k2grb.h>

#include "api/k2_profile.h"
#include "dispatch/k2_dispatch.h"
#include "matrix/k2_matrix.h"
#include "util/k2_error.h"

GrB_Info K2_set_engine(K2_Engine engine) {
  if ((int)engine < K2_ENGINE_AUTO || engine > K2_ENGINE_CUDA)
    K2_FAIL(GrB_INVALID_VALUE, "K2_set_engine: unknown engine %d", (int)engine);
  k2_dispatch_set_choice(engine);
  return GrB_SUCCESS;
}

GrB_Info K2_get_engine(K2_Engine *engine) {
  if (engine == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_get_engine: engine is NULL");
  *engine = k2_dispatch_choice();
  return GrB_SUCCESS;
}

GrB_Info K2_set_strict(bool strict) {
  k2_dispatch_set_strict(strict);
  return GrB_SUCCESS;
}

GrB_Info K2_get_strict(bool *strict) {
  if (strict == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_get_strict: strict is NULL");
  *strict = k2_dispatch_strict();
  return GrB_SUCCESS;
}

K2_Engine K2_last_engine(void) { return k2_dispatch_last(); }

const char *K2_engine_name(K2_Engine engine) {
  switch (engine) {
    case K2_ENGINE_AUTO: return "auto";
    case K2_ENGINE_REFERENCE: return "reference";
    case K2_ENGINE_OPENMP: return "openmp";
    case K2_ENGINE_CUDA: return "cuda";
    default: return "unknown";
  }
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

static GrB_Info k2_dense(k2_profile_call *pc, void *y, K2_Matrix A, const void *x, uint64_t B,
                         bool left, K2_DenseSemiring sr, GrB_Type type, const char *where) {
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
  k2_profile_lap(pc, K2_PROFILE_VALIDATE);
  P.timing = k2_profile_product(pc);
  info = k2_dispatch_product(A, &P, NULL);
  k2_profile_dispatched(pc);
  return info;
}

// The dense products' entry: the product, timed when profiling is on (K2_Profile).
static GrB_Info k2_dense_call(void *y, K2_Matrix A, const void *x, uint64_t B, bool left,
                              K2_DenseSemiring sr, GrB_Type type, const char *where) {
  k2_profile_call pc;
  k2_profile_begin(&pc);
  const GrB_Info info = k2_dense(&pc, y, A, x, B, left, sr, type, where);
  k2_profile_end(&pc);
  return info;
}

GrB_Info K2_dense_mxv(void *y, K2_Matrix A, const void *x, K2_DenseSemiring semiring, GrB_Type type) {
  return k2_dense_call(y, A, x, 1, false, semiring, type, "K2_dense_mxv");
}

GrB_Info K2_dense_vxm(void *y, const void *x, K2_Matrix A, K2_DenseSemiring semiring, GrB_Type type) {
  return k2_dense_call(y, A, x, 1, true, semiring, type, "K2_dense_vxm");
}

GrB_Info K2_dense_mxm(void *Y, K2_Matrix A, const void *X, GrB_Index B, bool transpose,
                      K2_DenseSemiring semiring, GrB_Type type) {
  return k2_dense_call(Y, A, X, B, transpose, semiring, type, "K2_dense_mxm");
}
