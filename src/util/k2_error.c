// k2_error.c: thread-local last error message and its source location; the names of GrB_Info
// codes.
// SPDX-License-Identifier: Apache-2.0
#include "util/k2_error.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define K2_ERROR_LEN 512

static _Thread_local char k2_last_error[K2_ERROR_LEN];
static _Thread_local char k2_last_where[128];
static atomic_bool k2_error_burble;

void k2_error_set_burble(bool on) { atomic_store(&k2_error_burble, on); }

bool k2_error_grb_burble(void) {
  int32_t on = 0;
  return GxB_Global_Option_get_INT32(GxB_BURBLE, &on) == GrB_SUCCESS && on != 0;
}

// Format into a local buffer first: the arguments may point into k2_last_error.
static void k2_error_record(const char *file, int line, GrB_Info info, const char *fmt,
                            va_list ap) {
  char msg[K2_ERROR_LEN];
  vsnprintf(msg, sizeof msg, fmt, ap);
  memcpy(k2_last_error, msg, sizeof msg);
  if (file != NULL) {
    snprintf(k2_last_where, sizeof k2_last_where, "%s:%d", file, line);
  } else {
    k2_last_where[0] = '\0';
  }
  if (atomic_load(&k2_error_burble) || k2_error_grb_burble()) {
    fprintf(stderr, "k2grb: error %s%s%s: %s\n", k2_error_info_name(info), file ? " at " : "",
            file ? k2_last_where : "", k2_last_error);
  }
}

GrB_Info k2_error_set(GrB_Info info, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  k2_error_record(NULL, 0, info, fmt, ap);
  va_end(ap);
  return info;
}

GrB_Info k2_error_set_at(const char *file, int line, GrB_Info info, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  k2_error_record(file, line, info, fmt, ap);
  va_end(ap);
  return info;
}

GrB_Info k2_error_set_obj(const char *file, int line, char *obj_buf, size_t cap, GrB_Info info,
                          const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  k2_error_record(file, line, info, fmt, ap);
  va_end(ap);
  return k2_error_to_obj(obj_buf, cap, info);
}

GrB_Info k2_error_to_obj(char *obj_buf, size_t cap, GrB_Info info) {
  if (obj_buf != NULL && cap > 0) snprintf(obj_buf, cap, "%s", k2_last_error);
  return info;
}

void k2_error_clear(void) {
  k2_last_error[0] = '\0';
  k2_last_where[0] = '\0';
}

const char *k2_error_get(void) { return k2_last_error; }

const char *k2_error_where(void) { return k2_last_where; }

const char *k2_error_info_name(GrB_Info info) {
  switch (info) {
    case GrB_SUCCESS: return "GrB_SUCCESS";
    case GrB_NO_VALUE: return "GrB_NO_VALUE";
    case GxB_EXHAUSTED: return "GxB_EXHAUSTED";
    case GrB_UNINITIALIZED_OBJECT: return "GrB_UNINITIALIZED_OBJECT";
    case GrB_NULL_POINTER: return "GrB_NULL_POINTER";
    case GrB_INVALID_VALUE: return "GrB_INVALID_VALUE";
    case GrB_INVALID_INDEX: return "GrB_INVALID_INDEX";
    case GrB_DOMAIN_MISMATCH: return "GrB_DOMAIN_MISMATCH";
    case GrB_DIMENSION_MISMATCH: return "GrB_DIMENSION_MISMATCH";
    case GrB_OUTPUT_NOT_EMPTY: return "GrB_OUTPUT_NOT_EMPTY";
    case GrB_NOT_IMPLEMENTED: return "GrB_NOT_IMPLEMENTED";
    case GrB_PANIC: return "GrB_PANIC";
    case GrB_OUT_OF_MEMORY: return "GrB_OUT_OF_MEMORY";
    case GrB_INSUFFICIENT_SPACE: return "GrB_INSUFFICIENT_SPACE";
    case GrB_INVALID_OBJECT: return "GrB_INVALID_OBJECT";
    case GrB_INDEX_OUT_OF_BOUNDS: return "GrB_INDEX_OUT_OF_BOUNDS";
    case GrB_EMPTY_OBJECT: return "GrB_EMPTY_OBJECT";
  }
  // not a GrB_Info of GraphBLAS 7.4: the number, per thread so that callers need no lock
  static _Thread_local char unknown[32];
  snprintf(unknown, sizeof unknown, "unknown GrB_Info %d", (int)info);
  return unknown;
}
