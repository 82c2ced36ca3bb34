// k2_domains.c: GraphBLAS's domain checks for products the bridge forms itself, and the
// last word on a failed product's message.
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>

#include "bridge/k2_bridge.h"
#include "util/k2_error.h"

// The same call on objects of size 1 with the caller's types: GraphBLAS then applies exactly
// its own rules (castable built-in types, equal user-defined ones, positional and PAIR
// operators that ignore a type, bool-castable valued masks), at O(1) cost.
GrB_Info k2_bridge_check_domains(const char *fn, GrB_Type ctype, GrB_Type mtype,
                                 GrB_BinaryOp accum, GrB_Semiring s, GrB_Type atype,
                                 GrB_Type btype, int kind, GrB_Descriptor desc, bool k2_second) {
  GrB_Info info = GrB_SUCCESS;
  const char *msg = NULL;
  if (kind == 1) {  // vectors: w, mask, u
    GrB_Vector w = NULL, m = NULL, u = NULL;
    GrB_Matrix A = NULL;
    info = GrB_Vector_new(&w, ctype, 1);
    if (info == GrB_SUCCESS && mtype != NULL) info = GrB_Vector_new(&m, mtype, 1);
    if (info == GrB_SUCCESS) info = GrB_Vector_new(&u, btype, 1);
    if (info == GrB_SUCCESS) info = GrB_Matrix_new(&A, atype, 1, 1);
    if (info == GrB_SUCCESS) {
      info = k2_second ? GrB_vxm(w, m, accum, s, u, A, desc) : GrB_mxv(w, m, accum, s, A, u, desc);
      if (info != GrB_SUCCESS) GrB_Vector_error(&msg, w);
    }
    if (info != GrB_SUCCESS) {
      // the message lives in w: copy it before w goes
      k2_error_set(info, "%s: %s", fn, msg != NULL && msg[0] ? msg : "the domains do not match");
    }
    GrB_Vector_free(&w);
    GrB_Vector_free(&m);
    GrB_Vector_free(&u);
    GrB_Matrix_free(&A);
  } else {  // matrices: C, M, B
    GrB_Matrix C = NULL, M = NULL, B = NULL, A = NULL;
    info = GrB_Matrix_new(&C, ctype, 1, 1);
    if (info == GrB_SUCCESS && mtype != NULL) info = GrB_Matrix_new(&M, mtype, 1, 1);
    if (info == GrB_SUCCESS) info = GrB_Matrix_new(&B, btype, 1, 1);
    if (info == GrB_SUCCESS) info = GrB_Matrix_new(&A, atype, 1, 1);
    if (info == GrB_SUCCESS) {
      info = k2_second ? GrB_mxm(C, M, accum, s, B, A, desc) : GrB_mxm(C, M, accum, s, A, B, desc);
      if (info != GrB_SUCCESS) GrB_Matrix_error(&msg, C);
    }
    if (info != GrB_SUCCESS) {
      k2_error_set(info, "%s: %s", fn, msg != NULL && msg[0] ? msg : "the domains do not match");
    }
    GrB_Matrix_free(&C);
    GrB_Matrix_free(&M);
    GrB_Matrix_free(&B);
    GrB_Matrix_free(&A);
  }
  return info;
}

GrB_Info k2_bridge_done(const char *fn, GrB_Info info) {
  // Every failure says something: a path that returned a code without a message (GraphBLAS's
  // own, passed through) must not leave an earlier call's text in K2_error_string.
  if (info < GrB_SUCCESS && k2_error_get()[0] == '\0') {
    k2_error_set(info, "%s: GraphBLAS failed without a reason (%s)", fn, K2_info_name(info));
  }
  return info;
}
