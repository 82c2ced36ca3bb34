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
#include "matrix/k2_matrix.h"
#include "util/k2_error.h"

_Static_assert(K2_ENGINE_ID_REFERENCE == K2_ENGINE_REFERENCE && K2_ENGINE_ID_OPENMP == K2_ENGINE_OPENMP &&
                   K2_ENGINE_ID_CUDA == K2_ENGINE_CUDA,
               "the engines' identities are the public K2_Engine values");

static K2_Engine k2_engine_choice = K2_ENGINE_AUTO;
static bool k2_strict = false;
static _Thread_local K2_Engine k2_engine_last = K2_ENGINE_AUTO;

void k2_dispatch_set_choice(K2_Engine engine) { k2_engine_choice = engine; }
K2_Engine k2_dispatch_choice(void) { return k2_engine_choice; }
void k2_dispatch_set_strict(bool strict) { k2_strict = strict; }
K2_Engine k2_dispatch_last(void) { return k2_engine_last; }

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
      // an engine that does not list its outputs writes them all (k2_kernels.h)
      if (P->y_list != NULL) *P->y_count = K2_Y_DENSE;
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
