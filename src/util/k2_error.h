// k2_error.h: error reporting inside the library.
// SPDX-License-Identifier: Apache-2.0
//
// Every failing call records a message (thread-local, K2_error_string) and, where there is an
// object, on the object too (K2_Matrix_error). Messages are written for users: they say what
// was wrong in words, never the source file or C source text. The source location of the
// failure is kept apart (k2_error_where) and printed by the burble.
#ifndef K2_ERROR_H
#define K2_ERROR_H

#include <GraphBLAS.h>
#include <stdarg.h>
#include <stdbool.h>

// Record a printf-style message as the thread's last error; returns info. The arguments may
// point into the current message (k2_error_get()).
GrB_Info k2_error_set(GrB_Info info, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// The same, with the source location of the failure (kept for the burble, not in the message).
GrB_Info k2_error_set_at(const char *file, int line, GrB_Info info, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
// The same, also copied into an object's buffer (may be NULL) of `cap` bytes.
GrB_Info k2_error_set_obj(const char *file, int line, char *obj_buf, size_t cap, GrB_Info info,
                          const char *fmt, ...) __attribute__((format(printf, 6, 7)));
// Copy the thread's last message into an object's buffer (may be NULL); returns info.
GrB_Info k2_error_to_obj(char *obj_buf, size_t cap, GrB_Info info);
// Clear the thread's last error.
void k2_error_clear(void);
const char *k2_error_get(void);
// "file:line" of the last recorded failure ("" when none was given).
const char *k2_error_where(void);
// The name of a GrB_Info code ("GrB_OUT_OF_MEMORY"; "unknown GrB_Info N" per thread otherwise).
const char *k2_error_info_name(GrB_Info info);
// Print each recorded failure and its location on stderr (the burble); also printed while
// GraphBLAS's own burble is on (GxB_set (GxB_BURBLE, true)).
void k2_error_set_burble(bool on);
// Whether GraphBLAS's burble is on (false before GrB_init).
bool k2_error_grb_burble(void);
// The name of a GrB_Info code ("GrB_OUT_OF_MEMORY"; K2_info_name): a static string, or for a
// value GraphBLAS 7.4 does not define "unknown GrB_Info N" in a buffer of the calling thread.
const char *k2_error_info_name(GrB_Info info);

#define K2_FAIL(info, ...) return k2_error_set_at(__FILE__, __LINE__, (info), __VA_ARGS__)

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
