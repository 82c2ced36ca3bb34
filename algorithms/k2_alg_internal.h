// k2_alg_internal.h: what the algorithm templates share (messages, error propagation, checks).
// SPDX-License-Identifier: Apache-2.0
//
// Each algorithm is a template k2_<name>.inc, included twice by k2_<name>.c: once with
// K2A_GRAPH = GrB_Matrix and K2A_NAME(x) = x##_grb, once with K2_Matrix and x##_k2. The
// template uses GraphBLAS names only; the overlay routes the matrix calls.
#ifndef K2_ALG_INTERNAL_H
#define K2_ALG_INTERNAL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <k2grb.h>
#include <k2grb/overlay.h>

#include "k2grb_algorithms.h"

// Write "fn: what (code): library message" into msg (may be NULL); returns info.
static inline GrB_Info k2a_fail(char *msg, GrB_Info info, const char *fn, const char *what,
                                bool with_library_message) {
  if (msg != NULL) {
    const char *lib = with_library_message ? K2_error_string() : "";
    snprintf(msg, K2_MSG_LEN, "%s: %s (GrB_Info %d)%s%s", fn, what, (int)info,
             (lib != NULL && lib[0]) ? ": " : "", lib != NULL ? lib : "");
  }
  return info;
}

static inline void k2a_clear(char *msg) {
  if (msg != NULL) msg[0] = '\0';
}

// Run a GraphBLAS call; on an error (negative GrB_Info) record it, free the work (the
// template's K2A_FREE_ALL) and return. GrB_NO_VALUE is not an error.
#define K2A_TRY(call)                                     \
  do {                                                    \
    GrB_Info k2a_info_ = (call);                          \
    if (k2a_info_ < GrB_SUCCESS) {                        \
      k2a_fail(msg, k2a_info_, K2A_FN, #call, true);            \
      K2A_FREE_ALL;                                       \
      return k2a_info_;                                   \
    }                                                     \
  } while (0)

// Fail with a code and a fixed message, after freeing the work.
#define K2A_FAIL(code, what)                              \
  do {                                                    \
    k2a_fail(msg, (code), K2A_FN, (what), false);                \
    K2A_FREE_ALL;                                         \
    return (code);                                        \
  } while (0)

#endif
