// k2_workspace.c: the vector products' reusable arrays, one set per thread.
// SPDX-License-Identifier: Apache-2.0
//
// A product whose input holds a few entries must not cost O(n): the dense arrays the engines
// read and write stay allocated between calls, and the presence bytes stay all zero, so that a
// call writes and then clears only the entries it uses. Per thread, so that concurrent
// products never share them; freed when the thread ends (or by K2_finalize for the caller's).
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/k2_bridge.h"
#include "util/k2_alloc.h"
#include "util/k2_error.h"

static pthread_key_t k2_workspace_key;
static pthread_once_t k2_workspace_once = PTHREAD_ONCE_INIT;
static bool k2_workspace_keyed;
static _Thread_local k2_workspace *k2_workspace_mine;

static void k2_workspace_free_x(k2_workspace *w) {
  free(w->x);
  free(w->x_present);
  free(w->x_list);
  free(w->x_values);
  w->x = w->x_values = NULL;
  w->x_present = NULL;
  w->x_list = NULL;
  w->x_cap = 0;
}

void k2_workspace_drop_y(k2_workspace *w) {
  free(w->y);
  free(w->y_present);
  free(w->y_list);
  free(w->y_skip);
  w->y = NULL;
  w->y_present = NULL;
  w->y_list = NULL;
  w->y_skip = NULL;
  w->y_cap = 0;
}

void k2_workspace_take_y(k2_workspace *w) {
  w->y = NULL;
  w->y_present = NULL;
}

void k2_workspace_recycle_y(void *values, uint64_t vbytes, uint8_t *present, uint64_t pbytes) {
  k2_workspace *w = k2_workspace_mine;
  const uint64_t cap = vbytes / 8 < pbytes ? vbytes / 8 : pbytes;
  if (w == NULL || w->y != NULL || w->y_present != NULL || w->y_list == NULL || cap < w->y_cap) {
    free(values);
    free(present);
    return;
  }
  memset(present, 0, w->y_cap);  // the invariant: all zero between calls
  w->y = values;
  w->y_present = present;
}

static void k2_workspace_destroy(void *p) {
  k2_workspace *w = p;
  if (w == NULL) return;
  k2_workspace_free_x(w);
  k2_workspace_drop_y(w);
  free(w);
}

static void k2_workspace_key_init(void) {
  // without a key, a thread's workspace is freed by K2_finalize only
  k2_workspace_keyed = pthread_key_create(&k2_workspace_key, k2_workspace_destroy) == 0;
}

void k2_workspace_release(void) {
  k2_workspace_destroy(k2_workspace_mine);
  k2_workspace_mine = NULL;
  pthread_once(&k2_workspace_once, k2_workspace_key_init);
  if (k2_workspace_keyed) pthread_setspecific(k2_workspace_key, NULL);
}

// Values are held as 8 bytes each, the largest engine type. calloc for the presence bytes:
// zero pages cost nothing until a call touches them.
GrB_Info k2_workspace_get(k2_workspace **out, uint64_t nx, uint64_t ny) {
  *out = NULL;
  pthread_once(&k2_workspace_once, k2_workspace_key_init);
  k2_workspace *w = k2_workspace_mine;
  if (w == NULL) {
    w = k2_calloc(1, sizeof *w);
    if (w == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "out of memory for a product's workspace");
    k2_workspace_mine = w;
    if (k2_workspace_keyed) pthread_setspecific(k2_workspace_key, w);
  }
  nx = nx > 0 ? nx : 1;
  ny = ny > 0 ? ny : 1;
  if (w->x_cap < nx) {
    k2_workspace_free_x(w);
    w->x = k2_malloc(nx * 8);
    w->x_values = k2_malloc(nx * 8);
    w->x_present = k2_calloc(nx, 1);
    w->x_list = k2_malloc(nx * sizeof(uint64_t));
    if (w->x == NULL || w->x_values == NULL || w->x_present == NULL || w->x_list == NULL) {
      k2_workspace_free_x(w);
      K2_FAIL(GrB_OUT_OF_MEMORY, "out of memory for a product's workspace (%llu inputs)",
              (unsigned long long)nx);
    }
    w->x_cap = nx;
  }
  if (w->y_cap < ny) k2_workspace_drop_y(w);
  // what is missing: everything, or y and y_present after a result took them (k2_workspace_take_y)
  const uint64_t cap = w->y_cap > 0 ? w->y_cap : ny;
  if (w->y == NULL) w->y = k2_malloc(cap * 8);
  if (w->y_present == NULL) w->y_present = k2_calloc(cap, 1);
  if (w->y_list == NULL) w->y_list = k2_malloc(cap * sizeof(uint64_t));
  if (w->y_skip == NULL) w->y_skip = k2_calloc(cap, 1);
  if (w->y == NULL || w->y_present == NULL || w->y_list == NULL || w->y_skip == NULL) {
    k2_workspace_drop_y(w);
    K2_FAIL(GrB_OUT_OF_MEMORY, "out of memory for a product's workspace (%llu outputs)",
            (unsigned long long)ny);
  }
  w->y_cap = cap;
  *out = w;
  return GrB_SUCCESS;
}
