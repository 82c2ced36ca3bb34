// k2_error.h: error reporting inside the library.
// SPDX-License-Identifier: Apache-2.0
//
// Every failing call records a message (thread-local, K2_error_string) and, where there is an
// object, on the object too (K2_Matrix_error). K2_FAIL formats the message and returns.
#ifndef K2_ERROR_H
#define K2_ERROR_H

#include <GraphBLAS.h>
#include <stdarg.h>

// Record a printf-style message as the thread's last error; returns info.
GrB_Info k2_error_set(GrB_Info info, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// The same, also copied into an object's buffer (may be NULL) of `cap` bytes.
GrB_Info k2_error_set_obj(char *obj_buf, size_t cap, GrB_Info info, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
// Clear the thread's last error.
void k2_error_clear(void);
const char *k2_error_get(void);

#define K2_FAIL(info, ...) return k2_error_set((info), __VA_ARGS__)

// Propagate a failure from a call returning GrB_Info (after running the caller's cleanup).
#define K2_TRY(call)                    \
  do {                                  \
    GrB_Info k2_try_info_ = (call);     \
    if (k2_try_info_ != GrB_SUCCESS) {  \
      K2_FREE_WORK;                     \
      return k2_try_info_;              \
    }                                   \
  } while (0)

#endif
