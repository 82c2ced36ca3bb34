// k2_dispatch.c: engine selection, the product entry of the API and the dense products.
// SPDX-License-Identifier: Apache-2.0
//
// Try, and let it decline: the engines are tables (k2_engine.h) walked in preference order, the
// CUDA engine (when selected, or AUTO with a device unless the product costs the host less than
// a call to the device), then OpenMP, then the reference engine.
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
#include "util/k2_clock.h"
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
void k2_dispatch_set_cpu_traversal(int mode) { k2_omp_set_traversal(mode); }
K2_Engine k2_dispatch_last(void) { return k2_engine_last; }
void k2_dispatch_set_last(K2_Engine engine) { k2_engine_last = engine; }
bool k2_dispatch_strict(void) { return k2_strict; }

// AUTO with a GPU: a product that costs the host less than one call to the device (copies,
// launches, synchronisations: 50-110 us on the H200) runs on the host. Host costs are the
// OpenMP engine's measured ones on one core: the full traversal about 1.3 ns per node and 5 per
// entry (a tiny matrix), plus about 1 per entry and extra vector of a batch; for a single
// vector the pruned one about 60 ns per node it visits (a few paths of the tree), the visits
// bounded from the lists' lengths alone in O(levels): at level t at most min(k, 2^t) of the
// 2^t stripes hold one of k listed indices. No list means no bound from that side (counting
// flags would be O(n)); a batch has no pruned bound.
#define K2_HOST_NS_MAX 50000.0

static bool k2_dispatch_host_suffices(const k2_view *v, const k2_product *P) {
  if (v->n_internal == 0) return true;
  const double nodes = (double)v->level_start[v->levels + 1];
  const double per_entry = 5.0 + 1.0 * (double)(P->batch - 1);
  if (1.3 * nodes + per_entry * (double)v->nvals <= K2_HOST_NS_MAX) return true;
  if (P->batch != 1) return false;
  const uint64_t n_in = P->left ? v->nrows : v->ncols, n_out = P->left ? v->ncols : v->nrows;
  const uint64_t k_in = P->x_list != NULL ? P->x_count : n_in;
  const uint64_t k_out = P->y_skip != NULL && P->y_allowed_known ? P->y_allowed : n_out;
  if (k_in >= n_in && k_out >= n_out) return false;
  return 60.0 * k2_product_visits_bound(v, 0, k_in, k_out) <= K2_HOST_NS_MAX;
}

// Whether the CUDA engine is tried first for P: asked for, or AUTO with a device and a product
// that costs the host more than a call to the device.
static bool k2_dispatch_gpu_first(const k2_view *v, const k2_product *P) {
  const K2_Engine choice = k2_engine_choice;
  return choice == K2_ENGINE_CUDA ||
         (choice == K2_ENGINE_AUTO && k2_cuda_engine.available(NULL, 0) && !k2_dispatch_host_suffices(v, P));
}

bool k2_dispatch_device_serves(K2_Matrix A) {
  // a CPU engine chosen: no device serves, and none is started to find that out (the CUDA
  // context's creation takes a fraction of a second)
  const K2_Engine choice = k2_engine_choice;
  if (choice != K2_ENGINE_AUTO && choice != K2_ENGINE_CUDA) return false;
  if (!k2_cuda_engine.available(NULL, 0) || k2_matrix_wait(A) != GrB_SUCCESS) return false;
  k2_view v;
  k2_tree_view(&v, &A->tree, A->weight);
  k2_product P;  // a full single-vector product
  memset(&P, 0, sizeof P);
  P.batch = 1;
  return k2_dispatch_gpu_first(&v, &P);
}

// A profiled product (P->timing): the seconds since *mark into *step, and *mark = now.
static void k2_dispatch_lap(double *step, double *mark) {
  const double now = k2_clock_now();
  *step += now - *mark;
  *mark = now;
}

GrB_Info k2_dispatch_product(K2_Matrix A, const k2_product *P, K2_Engine *ran) {
  k2_product_timing *T = P->timing;
  double mark = T != NULL ? k2_clock_now() : 0;
  GrB_Info info = k2_matrix_check(A, "k2 product");
  if (info != GrB_SUCCESS) return info;
  info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  k2_view v;
  k2_tree_view(&v, &A->tree, A->weight);
  v.decoded_level = A->decoded_level;
  // the engines in preference order: the GPU when asked for, or AUTO with a device; then OpenMP;
  // the reference engine last, or alone on request
  const k2_engine *order[3];
  int n = 0;
  const K2_Engine choice = k2_engine_choice;
  if (choice != K2_ENGINE_REFERENCE) {
    if (k2_dispatch_gpu_first(&v, P)) order[n++] = &k2_cuda_engine;
    order[n++] = &k2_omp_engine;
  }
  order[n++] = &k2_ref_engine;
  char why[256] = "";
  for (int i = 0; i < n; i++) {
    const k2_engine *e = order[i];
    int rc = K2_DECLINED;
    // an engine that reads plain trees gets a tree with full blocks expanded and leaves split
    // to 2x2 (made once per tree); where that fails, the next engine runs
    k2_view ev;
    const k2_view *ve = &v;
    bool unexpanded = false;
    if (e->plain_trees && (v.n_full > 0 || v.leaf_log > 1) && e->available(why, sizeof why)) {
      if (k2_matrix_plain_view(A, &ev) == GrB_SUCCESS) {
        ve = &ev;
      } else {
        snprintf(why, sizeof why, "%s", k2_error_get());
        unexpanded = true;
      }
    }
    if (!unexpanded && e->available(why, sizeof why) && e->accepts(ve, P, why, sizeof why)) {
      void *state = NULL;
      rc = 0;
      if (e->slot >= 0) {
        const k2_engine_need need = {ve, P};
        rc = k2_slot_build(A, (k2_slot_id)e->slot, e->ops, e->ready, e->prepare, &need, &state);
      }
      // an engine that does not list its outputs writes them all (k2_kernels.h)
      if (P->y_list != NULL) *P->y_count = K2_Y_DENSE;
      if (T != NULL) {
        k2_dispatch_lap(&T->plan, &mark);
        T->device = false;
      }
      if (rc == 0) rc = e->product(ve, state, P);
      if (T != NULL) {
        // an engine that timed its own steps leaves the rest of its call to the caller's
        // "other"; a decline is part of choosing the engine
        double engine = 0;
        k2_dispatch_lap(&engine, &mark);
        if (!T->device) *(rc == K2_DECLINED ? &T->plan : &T->kernel) += engine;
      }
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
