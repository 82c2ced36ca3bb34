// k2_error.c: thread-local last error message.
// SPDX-License-Identifier: Apache-2.0
#include "util/k2_error.h"

#include <stdio.h>
#include <string.h>

static _Thread_local char k2_last_error[512];

GrB_Info k2_error_set(GrB_Info info, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(k2_last_error, sizeof k2_last_error, fmt, ap);
  va_end(ap);
  return info;
}

GrB_Info k2_error_set_obj(char *obj_buf, size_t cap, GrB_Info info, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(k2_last_error, sizeof k2_last_error, fmt, ap);
  va_end(ap);
  if (obj_buf != NULL && cap > 0) snprintf(obj_buf, cap, "%s", k2_last_error);
  return info;
}

void k2_error_clear(void) { k2_last_error[0] = '\0'; }

const char *k2_error_get(void) { return k2_last_error; }
